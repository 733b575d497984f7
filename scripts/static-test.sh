#!/usr/bin/env bash
# Static Linux: builds parlor for x86_64-unknown-linux-musl (rusqlite's bundled SQLite and ring's C compiled by
# Debian's musl-gcc) and checks that the binary needs no shared library, runs from an empty directory, and meets
# its targets: at most 30 MB, and `--version` in under 100 ms (the best of 10 runs). Built as the release workflow
# builds the musl archive (`--features server`, the release profile). Prints its size and start time (BENCHMARKS.md,
# Static Linux binary).
# Needs: rustup's x86_64-unknown-linux-musl target and musl-tools (.ci/run installs them).
# Usage: scripts/static-test.sh [PARLOR_BINARY]   (an already built binary skips the build)
#        scripts/static-test.sh --build            (only the build, into CARGO_TARGET_DIR or target/)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
    echo "static-test: FAILED: $*" >&2
    exit 1
}
command -v musl-gcc >/dev/null || fail "musl-gcc is not installed (apt-get install -y musl-tools)"

bin="${1:-}"
if [ -z "$bin" ] || [ "$bin" = --build ]; then
    rustup target list --installed | grep -qx x86_64-unknown-linux-musl || rustup target add x86_64-unknown-linux-musl
    CC_x86_64_unknown_linux_musl=musl-gcc \
        cargo build --locked --release -p parlor --features server --target x86_64-unknown-linux-musl
    if [ "$bin" = --build ]; then exit 0; fi
    bin="${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-musl/release/parlor"
fi
[ -x "$bin" ] || fail "no $bin"
bin="$(realpath "$bin")"

echo "static-test: the binary links no shared library"
kind="$(file -b "$bin")"
case "$kind" in
*"statically linked"* | *"static-pie linked"*) ;;
*) fail "file says: $kind" ;;
esac
if ldd "$bin" >/dev/null 2>&1; then
    ldd "$bin" | grep -q "statically linked" || fail "ldd lists libraries: $(ldd "$bin")"
fi
if readelf -d "$bin" 2>/dev/null | grep -q NEEDED; then
    fail "the dynamic section needs: $(readelf -d "$bin" | grep NEEDED)"
fi

echo "static-test: at most 30 MB"
size=$(stat -c %s "$bin")
[ "$size" -le $((30 * 1024 * 1024)) ] || fail "$size bytes"

echo "static-test: runs from an empty directory with an empty environment"
empty="$(mktemp -d)"
trap 'rm -rf "$empty"' EXIT
cp "$bin" "$empty/parlor"
cd "$empty"
mkdir data
version="$(env -i ./parlor --version)" || fail "--version exited with an error"
[[ "$version" =~ ^parlor\ [0-9]+\.[0-9]+\.[0-9]+ ]] || fail "--version printed '$version'"
played="$(printf 'a\nd\ns\nw\n%.0s' $(seq 1000) | env -i PARLOR_DATA_DIR="$empty/data" \
    PARLOR_CONFIG_DIR="$empty/data" ./parlor 2048 --seed 7 --size 3)" || fail "a plain game of 2048 exited with an error"
grep -q "Game over: no move left" <<<"$played" || fail "the 2048 game did not end: $(tail -3 <<<"$played")"
grep -q "Recorded as game #1" <<<"$played" || fail "the 2048 game was not recorded"
played="$(printf 'red red red red\n%.0s' 1 2 3 4 5 6 7 8 | env -i PARLOR_DATA_DIR="$empty/data" \
    PARLOR_CONFIG_DIR="$empty/data" ./parlor mastermind --seed 5)" || fail "a plain game exited with an error"
grep -q "Out of guesses: the code was" <<<"$played" || fail "the plain game did not end: $(tail -3 <<<"$played")"
grep -q "Recorded as game #2" <<<"$played" || fail "the plain game was not recorded"
[ -f data/parlor.db ] || fail "no database in the data directory"

echo "static-test: $size bytes ($(awk "BEGIN{printf \"%.1f\", $size/1048576}") MiB), $(head -1 <<<"$version")"

echo "static-test: --version starts in under 100 ms (the best of 10 runs)"
best=""
for _ in $(seq 10); do
    t0=$(date +%s%N)
    ./parlor --version >/dev/null
    ms=$((($(date +%s%N) - t0) / 1000000))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
echo "static-test: --version in $best ms (best of 10)"
[ "$best" -lt 100 ] || fail "--version took $best ms at best"
echo "static-test: all checks passed"
