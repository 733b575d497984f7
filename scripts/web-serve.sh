#!/usr/bin/env bash
# Serves the page scripts/web-build.sh built (target/web/) on http://127.0.0.1:${PORT:-8000}/ (Python's standard
# library server; any static server will do). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! [ -f target/web/index.html ]; then
    echo "web-serve: no target/web/index.html; run scripts/web-build.sh first" >&2
    exit 1
fi
port=${PORT:-8000}
echo "web-serve: http://127.0.0.1:$port/" >&2
exec python3 -m http.server --bind 127.0.0.1 --directory target/web "$port"
