#!/usr/bin/env bash
# The files a release ships beside the binary, made by the binary itself from the same definitions as its command
# line: `scripts/dist-assets.sh BINARY OUTDIR` writes OUTDIR/man/*.1 (`parlor man --dir`) and OUTDIR/complete/ (the
# completion scripts for bash, zsh, fish, elvish and PowerShell, named as each shell looks for them). The release
# workflow puts them in every archive; the .deb (crates/parlor/Cargo.toml, [package.metadata.deb]) installs them.
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: scripts/dist-assets.sh BINARY OUTDIR" >&2
    exit 2
fi
bin="$1"
out="$2"
rm -rf "$out/man" "$out/complete"
mkdir -p "$out/man" "$out/complete"
# A data directory of its own: making the pages reads no player's files, but the binary may open its directory.
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
"$bin" --data-dir "$data" man --dir "$out/man"
"$bin" --data-dir "$data" completions bash > "$out/complete/parlor.bash"
"$bin" --data-dir "$data" completions zsh > "$out/complete/_parlor"
"$bin" --data-dir "$data" completions fish > "$out/complete/parlor.fish"
"$bin" --data-dir "$data" completions elvish > "$out/complete/parlor.elv"
"$bin" --data-dir "$data" completions powershell > "$out/complete/_parlor.ps1"
for f in "$out/man/parlor.1" "$out/complete/parlor.bash" "$out/complete/_parlor"; do
    [ -s "$f" ] || { echo "dist-assets: $f is empty" >&2; exit 1; }
done
echo "dist-assets: $(find "$out/man" -name "*.1" | wc -l) manual pages and 5 completion scripts in $out" >&2
