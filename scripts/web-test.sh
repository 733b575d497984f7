#!/usr/bin/env bash
# The browser tests (docs/TESTING.md): builds the page, runs the web crate's wasm-bindgen-test tests in headless
# Chromium, then plays the built page end to end through chromedriver (crates/web-e2e). Needs Debian's chromium and
# chromium-driver (.ci/run installs them when missing); screenshots land in target/web-artifacts/.
#
#   scripts/web-test.sh             # all of it
#   scripts/web-test.sh --prepare   # only the builds: the page and the unit tests' wasm (nothing run, no browser)
#
# The page and the unit tests' wasm are built in PARLOR_WEB_TARGET (a cargo target directory; by default
# CARGO_TARGET_DIR or target/): .ci/run prepares them there beside its other steps, and the run after finds them
# built. The end-to-end tests use the workspace's test build in CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
prepare=false
case "${1:-}" in
"") ;;
--prepare) prepare=true ;;
*)
    echo "web-test: unknown argument ${1} (none, or --prepare)" >&2
    exit 2
    ;;
esac
web_target="${PARLOR_WEB_TARGET:-${CARGO_TARGET_DIR:-target}}"

export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
if ! $prepare && [ ! -x "$CHROMEDRIVER" ]; then
    echo "web-test: no chromedriver at $CHROMEDRIVER (apt-get install chromium chromium-driver)" >&2
    exit 1
fi

step() { printf '\n== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "build the page: scripts/web-build.sh"
CARGO_TARGET_DIR="$web_target" bash scripts/web-build.sh

# The test runner comes from the same wasm-bindgen-cli install as the build (web-build.sh puts it, at the version of
# Cargo.lock, in target/web-tools/).
runner="$root/target/web-tools/bin/wasm-bindgen-test-runner"
if [ ! -x "$runner" ]; then
    echo "web-test: no $runner (scripts/web-build.sh installs wasm-bindgen-cli there)" >&2
    exit 1
fi

step "the web crate's unit tests in headless Chromium (wasm-bindgen-test)"
if $prepare; then
    unit_args=(--no-run)
else
    unit_args=()
fi
# The runner adds headless, no-sandbox and disable-dev-shm-usage itself; the capabilities file adds the browser's
# path and the flags that keep it off the network. The app and the page are built at opt-level 1 here: the dev
# profile builds them at 0 for the native tests (Cargo.toml), and WebAssembly unoptimised runs in the browser slower.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} -C target-feature=+simd128" \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$runner" \
WASM_BINDGEN_TEST_WEBDRIVER_JSON="$root/scripts/wasm-test-webdriver.json" \
WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-300} \
CARGO_TARGET_DIR="$web_target" \
    cargo test -p parlor-web --target wasm32-unknown-unknown \
    --config 'profile.dev.package.parlor.opt-level=1' --config 'profile.dev.package.parlor-web.opt-level=1' \
    ${unit_args[@]+"${unit_args[@]}"}
if $prepare; then
    echo "web-test: prepared (the page in target/web, the unit tests built in $web_target)"
    exit 0
fi

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
