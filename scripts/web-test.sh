#!/usr/bin/env bash
# The browser tests (docs/TESTING.md): builds the page, runs the web crate's wasm-bindgen-test tests in headless
# Chromium, then plays the built page end to end through chromedriver (crates/web-e2e). Needs Debian's chromium and
# chromium-driver (.ci/run installs them when missing); screenshots land in target/web-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
if [ ! -x "$CHROMEDRIVER" ]; then
    echo "web-test: no chromedriver at $CHROMEDRIVER (apt-get install chromium chromium-driver)" >&2
    exit 1
fi

step() { printf '\n== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "build the page: scripts/web-build.sh"
bash scripts/web-build.sh

# The test runner comes from the same wasm-bindgen-cli install as the build (web-build.sh puts it, at the version of
# Cargo.lock, in target/web-tools/).
runner="$root/target/web-tools/bin/wasm-bindgen-test-runner"
if [ ! -x "$runner" ]; then
    echo "web-test: no $runner (scripts/web-build.sh installs wasm-bindgen-cli there)" >&2
    exit 1
fi

step "the web crate's unit tests in headless Chromium (wasm-bindgen-test)"
# The runner adds headless, no-sandbox and disable-dev-shm-usage itself; the capabilities file adds the browser's
# path and the flags that keep it off the network. The app and the page are built at opt-level 1 here: the dev
# profile builds them at 0 for the native tests (Cargo.toml), and WebAssembly unoptimised runs in the browser slower.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} -C target-feature=+simd128" \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$runner" \
WASM_BINDGEN_TEST_WEBDRIVER_JSON="$root/scripts/wasm-test-webdriver.json" \
WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-300} \
    cargo test -p parlor-web --target wasm32-unknown-unknown \
    --config 'profile.dev.package.parlor.opt-level=1' --config 'profile.dev.package.parlor-web.opt-level=1'

# The online server and the end-to-end tests with the workspace's features (`--workspace`): after the README's
# test command (`cargo test --workspace`, as .ci/run runs it first) neither builds anything again; `-p` alone would
# resolve other features and build some forty crates again.
step "the online server for the page's online test: the workspace's test build (target/debug/parlor-server)"
cargo test --workspace --no-run
export PARLOR_SERVER_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/parlor-server"

step "the page end to end: PARLOR_WEB_DIR=target/web cargo test --workspace --test e2e -- --skip offline::"
PARLOR_WEB_DIR=target/web cargo test --workspace --test e2e -- --skip offline::

step "the page offline: PARLOR_WEB_DIR=target/web cargo test --workspace --test e2e -- offline::"
PARLOR_WEB_DIR=target/web cargo test --workspace --test e2e -- offline::
echo "web-test: screenshots in target/web-artifacts/"
