#!/usr/bin/env bash
# Builds Parlor's web page into target/web/ (index.html with the first screen in it, worker.js, parlor_web.js,
# parlor_web_bg.wasm, sw.js, the manifest and its icons): a static folder any web server can host. Needs only rustup
# and cargo: it adds the wasm32 target when missing and installs wasm-bindgen-cli, at exactly the wasm-bindgen version
# of Cargo.lock, from source into target/web-tools/ (once; skipped when already there at that version). Serve it with
# scripts/web-serve.sh.
#
#   scripts/web-build.sh            # release build, profile `wasm` (its own folder, apart from the page in target/web)
#
# The wasm is built in CARGO_TARGET_DIR when it is set (.ci/run builds it there beside other work); the page and
# the tools stay in target/web and target/web-tools.
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

# The fallback of `cargo install --locked` when the registry (a mirror's snapshot) lacks a version that the CLI's own
# Cargo.lock names: the CLI's published source (the .crate the failed install just fetched), its Cargo.lock kept but
# for each package the registry cannot give, which `cargo update -p` moves to the nearest version the registry has
# (webpki-roots 1.0.11 to 1.0.10 on this project's mirror, 2026-11: the certificates of ureq, which the test runner
# would use only to download a driver it is given here), then installed with --locked from that source. Every
# other package stays at the CLI's locked version; the changed lines are printed.
install_relocked() {
    local version=$1 crate src
    crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"wasm-bindgen-cli-$version.crate" 2> /dev/null | head -1)
    if [ -z "$crate" ]; then
        echo "web-build: cargo install --locked failed and no wasm-bindgen-cli-$version.crate is cached" >&2
        exit 1
    fi
    src=$tools/src
    rm -rf "$src"
    mkdir -p "$src"
    tar -xzf "$crate" -C "$src"
    src=$src/wasm-bindgen-cli-$version
    # Its own workspace: unpacked under this project's target/, cargo would otherwise take it for a member of Parlor's.
    printf '\n[workspace]\n' >> "$src/Cargo.toml"
    cp "$src/Cargo.lock" "$src/Cargo.lock.published"
    local tries=0 name
    until "$cargo" metadata --locked --format-version 1 --manifest-path "$src/Cargo.toml" > /dev/null 2> "$src/metadata.err"; do
        name=$(sed -n 's/.*failed to select a version for the requirement `\([^ ]*\) = .*/\1/p' "$src/metadata.err" | head -1)
        tries=$((tries + 1))
        if [ -z "$name" ] || [ "$tries" -gt 10 ]; then
            cat "$src/metadata.err" >&2
            echo "web-build: wasm-bindgen-cli $version's Cargo.lock cannot be honoured on this registry" >&2
            exit 1
        fi
        echo "web-build: the registry lacks wasm-bindgen-cli's locked $name; moving it alone to the nearest it has" >&2
        "$cargo" update --manifest-path "$src/Cargo.toml" -p "$name"
    done
    echo "web-build: wasm-bindgen-cli $version's Cargo.lock as installed, against the published one:" >&2
    diff "$src/Cargo.lock.published" "$src/Cargo.lock" >&2 || true
    "$cargo" install --locked --path "$src" --root "$tools"
}
bindgen=$tools/bin/wasm-bindgen
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version 2> /dev/null)" != "wasm-bindgen $version" ]; then
    echo "web-build: installing wasm-bindgen-cli $version into $tools" >&2
    if ! "$cargo" install --locked wasm-bindgen-cli --version "$version" --root "$tools"; then
        install_relocked "$version"
    fi
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
    "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm/parlor_web.wasm"
page=crates/web/page
cp "$page/worker.js" "$page/manifest.webmanifest" "$page"/icon.svg "$page"/icon-*.png "$out/"
# index.html holds the graphical face's first screen (the menu a first visit sees) and its stylesheet, so that it
# paints before the wasm arrives: written from the template by the faces' own code, run natively
# (crates/web/src/faces/first.rs, the crate's `web-page` binary).
"$cargo" run --quiet -p parlor-web --bin web-page -- "$page/index.html" "$out/index.html"
# The service worker's cache is named by the build: a hash of every file it keeps, so that a changed file is a new
# cache, taken at the next visit (sw.js). The icons are committed, drawn by scripts/web-icons.py.
build=$(cd "$out" && cat index.html parlor_web.js parlor_web_bg.wasm worker.js manifest.webmanifest icon.svg icon-*.png \
    | sha256sum | cut -c1-16)
sed "s/@PARLOR_BUILD@/$build/" "$page/sw.js" > "$out/sw.js"
echo "web-build: build $build (the service worker's cache parlor-$build)"
ls -l "$out" | awk 'NR > 1 { printf "web-build: %s %d bytes\n", $NF, $5 }'
echo "web-build: built $out; serve it with scripts/web-serve.sh"
