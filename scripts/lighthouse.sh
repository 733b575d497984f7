#!/usr/bin/env bash
# Lighthouse on the built page (target/web, scripts/web-build.sh) with its default mobile emulation (a phone's
# screen, 4x CPU and slow-4G simulated): performance, accessibility and best practices (BENCHMARKS.md, "The page"),
# and the total weight it transferred. The page is served gzip-compressed on 127.0.0.1 by a small server of Python's
# standard library (below); the
# browser is Debian's Chromium ($CHROME_PATH, /usr/bin/chromium). Lighthouse, the npm package at the version below,
# is installed once into target/web-tools/lighthouse/. Without npm it says so and skips.
#
#   scripts/lighthouse.sh              # the default page
#   scripts/lighthouse.sh face=terminal # with a query
set -euo pipefail
cd "$(dirname "$0")/.."
version=13.5.0
if ! command -v npm > /dev/null || ! command -v node > /dev/null; then
    echo "lighthouse: skipped: npm and node are absent (apt-get install npm)" >&2
    exit 0
fi
if ! [ -f target/web/index.html ]; then
    echo "lighthouse: no target/web/index.html; run scripts/web-build.sh first" >&2
    exit 1
fi
tools=target/web-tools/lighthouse
bin=$tools/node_modules/.bin/lighthouse
if ! [ -x "$bin" ] || [ "$("$bin" --version 2> /dev/null)" != "$version" ]; then
    echo "lighthouse: installing lighthouse $version into $tools" >&2
    mkdir -p "$tools"
    (cd "$tools" && npm install --no-audit --no-fund --silent "lighthouse@$version")
fi
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
port=${PORT:-8765}
# Served gzip-compressed when the browser asks for it, as a web host serves it (Python's http.server does not).
python3 - "$port" > /dev/null 2>&1 << 'PY' &
import gzip, http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory="target/web", **k)
    def do_GET(self):
        path = self.translate_path(self.path.split("?")[0])
        if path.endswith("/"):
            path += "index.html"
        try:
            data = open(path, "rb").read()
        except OSError:
            self.send_error(404)
            return
        zipped = "gzip" in self.headers.get("Accept-Encoding", "")
        body = gzip.compress(data, 6) if zipped else data
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        if zipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)
Handler.extensions_map.update({".wasm": "application/wasm", ".webmanifest": "application/manifest+json", ".js": "text/javascript"})
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
server=$!
trap 'kill $server 2> /dev/null || true' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2> /dev/null && break
    sleep 0.1
done
query=${1:-}
url="http://127.0.0.1:$port/${query:+?$query}"
out=target/lighthouse
mkdir -p "$out"
"$bin" "$url" --quiet --chrome-flags="--headless --no-sandbox" \
    --only-categories=performance,accessibility,best-practices \
    --output=json --output=html --output-path="$out/report"
node -e '
const r = require(process.argv[1]);
const c = r.categories, a = r.audits;
const score = (k) => Math.round(c[k].score * 100);
console.log(`lighthouse ${r.lighthouseVersion} on ${r.finalDisplayedUrl} (${r.configSettings.formFactor})`);
console.log(`performance ${score("performance")}, accessibility ${score("accessibility")}, best practices ${score("best-practices")}`);
for (const k of ["first-contentful-paint", "largest-contentful-paint", "interactive", "total-blocking-time", "total-byte-weight"])
  if (a[k]) console.log(`${a[k].title}: ${a[k].displayValue || a[k].numericValue}`);
for (const [k, cat] of Object.entries(c))
  for (const ref of cat.auditRefs)
    if (ref.weight > 0 && a[ref.id].score !== null && a[ref.id].score < 1) console.log(`  ${k}: ${a[ref.id].title} (${a[ref.id].score})`);
' "$(pwd)/$out/report.report.json"
echo "lighthouse: reports in $out/report.report.html and .json" >&2
