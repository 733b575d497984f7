#!/usr/bin/env bash
# The Debian package built, installed on this machine, run and removed (issue 53). `scripts/deb-test.sh [BINARY]`:
# the package of BINARY (default target/release/parlor, which must be built already, as .ci/run does) made by
# scripts/deb-build.sh (dpkg-deb), with the manual pages and completions the binary makes. Needs root for dpkg -i
# (CI runs as root).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
bin="${1:-$target/release/parlor}"
step() { echo "deb-test: $*" >&2; }
fail() { echo "deb-test: FAILED: $*" >&2; exit 1; }
[ -x "$bin" ] || fail "no $bin: build it first (cargo build --release -p parlor)"
if dpkg -s parlor > /dev/null 2>&1; then
    fail "a package named parlor is installed already: not touching it"
fi
deb="$(bash scripts/deb-build.sh "$bin" "$target/debian" | tail -n 1)"
[ -f "$deb" ] || fail "deb-build made no package ($deb)"
step "built $deb ($(stat -c %s "$deb") bytes)"
dpkg-deb --info "$deb" >&2
trap 'dpkg -r parlor > /dev/null 2>&1 || true' EXIT
dpkg -i "$deb" >&2
version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)"
said="$(/usr/bin/parlor --version | head -n 1)"
[ "$said" = "parlor $version" ] || fail "/usr/bin/parlor --version said '$said'"
for f in /usr/share/man/man1/parlor.1.gz /usr/share/bash-completion/completions/parlor \
    /usr/share/zsh/vendor-completions/_parlor /usr/share/fish/vendor_completions.d/parlor.fish \
    /usr/share/doc/parlor/copyright; do
    [ -s "$f" ] || fail "$f is not installed"
done
zcat /usr/share/man/man1/parlor.1.gz | grep -q '^\.TH' || fail "parlor.1.gz is not a manual page"
if command -v man > /dev/null; then
    man -w parlor >&2 || fail "man -w parlor finds no page"
fi
dpkg -r parlor >&2
[ ! -e /usr/bin/parlor ] || fail "/usr/bin/parlor is still there after dpkg -r"
trap - EXIT
step "passed: $(basename "$deb") installed, said 'parlor $version', its manual page and completions in place, removed"
