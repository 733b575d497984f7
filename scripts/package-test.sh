#!/usr/bin/env bash
# The game built from the packaged .crate files alone, as crates.io would serve them (issue 53):
#
# 1. A player's install builds no server: `cargo tree` of parlor's default features names none of axum, tokio,
#    tower, hyper or parlor-server (they come with `--features server`).
# 2. `cargo package` of every published crate (the web, browser-test and lab crates are `publish = false`); each
#    .crate is at most 10 MiB (crates.io's limit) and holds the workspace's LICENSE, byte for byte.
# 3. The .crate files unpacked into a directory source beside the third-party crates (`cargo vendor` of the
#    workspace's Cargo.lock), which replaces crates.io; `cargo install parlor` from it, outside the workspace, so
#    that no path dependency can be taken; the installed binary says its version, plays a short plain game of 2048,
#    and `parlor serve` says how to get the server.
#
# Debug build; the build directory (CARGO_TARGET_DIR, else target/) is kept between runs under package-test/.
# Needs only cargo (and the crates the workspace already uses, from the registry or cargo's cache).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
work="$target/package-test"
published=(parlor-2048-net-1 parlor-2048-net-2 parlor-2048 parlor-mastermind nocca parlor-online parlor-server parlor)
limit=$((10 * 1024 * 1024))
version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)"
step() { echo "package-test: $*" >&2; }
fail() { echo "package-test: FAILED: $*" >&2; exit 1; }

step "1. the default features build no server"
tree="$(cargo tree -p parlor -e normal --prefix none --locked)"
if grep -E '^(axum|tokio|tower|hyper|parlor-server) ' <<<"$tree"; then
    fail "cargo tree -p parlor (default features) has the crates above"
fi
grep -qE '^axum ' <(cargo tree -p parlor -e normal --prefix none --locked --features server) \
    || fail "cargo tree -p parlor --features server has no axum: is the feature still the server?"

step "2. cargo package of ${published[*]}"
pkg_args=()
for p in "${published[@]}"; do pkg_args+=(-p "$p"); done
# The scratch install below is the verification: it builds every crate from its .crate alone.
cargo package --locked --no-verify --allow-dirty "${pkg_args[@]}" >&2
rm -rf "${work:?}/vendor" "${work:?}/home"
mkdir -p "$work/vendor" "$work/home"
for p in "${published[@]}"; do
    crate="$target/package/$p-$version.crate"
    [ -f "$crate" ] || fail "no $crate"
    size=$(stat -c %s "$crate")
    [ "$size" -le "$limit" ] || fail "$crate is $size bytes, over crates.io's $limit"
    tar -xzf "$crate" -C "$work/vendor"
    cmp -s "$work/vendor/$p-$version/LICENSE" LICENSE || fail "$p's .crate has no LICENSE equal to the workspace's"
    sum=$(sha256sum "$crate" | cut -d' ' -f1)
    printf '{"files":{},"package":"%s"}' "$sum" > "$work/vendor/$p-$version/.cargo-checksum.json"
    echo "package-test: $p-$version.crate $size bytes" >&2
done

step "3. the third-party crates: cargo vendor of Cargo.lock"
# Into a folder of its own first: `cargo vendor` would take the workspace's own crates too (they are path
# dependencies and are skipped), and it empties the folder it writes.
cargo vendor --locked --versioned-dirs --quiet "$work/third-party" > /dev/null
for d in "$work"/third-party/*/; do
    ln -s "$d" "$work/vendor/$(basename "$d")"
done

step "4. cargo install parlor from the directory source, outside the workspace"
# A CARGO_HOME of its own: its config replaces crates.io with the directory, and nothing of the user's is read.
cat > "$work/home/config.toml" <<EOF
[source.crates-io]
replace-with = "packaged"
[source.packaged]
directory = "$work/vendor"
[net]
offline = true
EOF
rm -rf "$work/root" "$work/data"
(
    cd "$work"
    CARGO_HOME="$work/home" CARGO_TARGET_DIR="$work/build" \
        cargo install --debug --root "$work/root" "parlor@$version" >&2
)
bin="$work/root/bin/parlor"

step "5. the installed parlor runs"
first="$("$bin" --version | head -n 1)"
[ "$first" = "parlor $version" ] || fail "parlor --version said '$first'"
"$bin" --version >&2
game="$(printf 'a\nd\ns\nq\n' | "$bin" --data-dir "$work/data" 2048 --seed 7)"
# Three slides of the seed-7 game: the board after each, the last one counting 3 moves.
grep -q "Score [0-9]* · 3 moves" <<<"$game" || fail "a plain game of 2048 did not play 3 moves: $game"
if serve="$("$bin" --data-dir "$work/data" serve --listen 127.0.0.1:0 2>&1)"; then
    fail "parlor serve without the server feature succeeded: $serve"
fi
grep -q -- "--features server" <<<"$serve" || fail "parlor serve did not say how to get the server: $serve"
step "passed: parlor $version built from ${#published[@]} .crate files, played, and said how to get the server"
