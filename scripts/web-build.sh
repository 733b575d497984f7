#!/usr/bin/env bash
# Builds Parlor's web page into target/web/ (index.html, worker.js, parlor_web.js, parlor_web_bg.wasm): a static folder any
# web server can host. Needs only rustup and cargo: it adds the wasm32 target when missing and installs
# wasm-bindgen-cli, at exactly the wasm-bindgen version of Cargo.lock, from source into target/web-tools/ (once;
# skipped when already there at that version). Serve it with scripts/web-serve.sh.
#
#   scripts/web-build.sh            # release build, profile `wasm` (its own folder, apart from the page in target/web)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo=${CARGO:-cargo}

if command -v rustup > /dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

# The wasm-bindgen version the crate links (Cargo.lock), which the CLI must equal.
version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if [ -z "$version" ]; then
    echo "web-build: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
tools=target/web-tools
bindgen=$tools/bin/wasm-bindgen
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version 2> /dev/null)" != "wasm-bindgen $version" ]; then
    echo "web-build: installing wasm-bindgen-cli $version into $tools" >&2
    # --locked first; a registry mirror that lacks one of the CLI's locked dependencies gets the newest that fit.
    "$cargo" install --locked wasm-bindgen-cli --version "$version" --root "$tools" \
        || "$cargo" install wasm-bindgen-cli --version "$version" --root "$tools"
fi

# WebAssembly's 128-bit vector instructions (every browser since 2021: Chrome 91, Firefox 89, Safari 16.4): the
# engines' counting loops are written for the compiler to vectorise (Mastermind's lanes and kinds), and without
# them they run one byte at a time in the page. Only the wasm32 target gets them; native builds are untouched.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} -C target-feature=+simd128"
"$cargo" build -p parlor-web --lib --target wasm32-unknown-unknown --profile wasm

out=target/web
rm -rf "$out"
mkdir -p "$out"
"$bindgen" --target web --no-typescript --out-dir "$out" --out-name parlor_web \
    target/wasm32-unknown-unknown/wasm/parlor_web.wasm
cp crates/web/page/index.html crates/web/page/worker.js "$out/"
ls -l "$out" | awk 'NR > 1 { printf "web-build: %s %d bytes\n", $NF, $5 }'
echo "web-build: built $out; serve it with scripts/web-serve.sh"
