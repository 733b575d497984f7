#!/usr/bin/env python3
"""Draws Parlor's page icons from one description of their shapes: the SVG favicon (crates/web/page/icon.svg) and
the PNG icons of the web app manifest (icon-192.png, icon-512.png, and icon-maskable-512.png, whose shapes keep
to the maskable safe zone, the middle 80 %, over a background that fills the square). Python's standard library
only: each pixel's colour is the shapes' signed distances turned into coverage (anti-aliased edges), written as
an RGBA PNG with zlib. The files are committed; run this again after changing the shapes:

    python3 scripts/web-icons.py            # writes the four files into crates/web/page/
"""

import math
import os
import struct
import sys
import zlib

# The design, on a 512 x 512 square: a dark rounded square holding four tiles, one a game each way the page plays
# (2048's tiles, a Mastermind peg, a Nocca Nocca disc).
BACKGROUND = "#1e1e2e"
SHAPES = [
    # (kind, x, y, width, height, corner radius, colour) for rectangles; (kind, cx, cy, r, colour) for circles.
    ("rect", 64, 64, 176, 176, 28, "#f59563"),
    ("rect", 272, 64, 176, 176, 28, "#313244"),
    ("circle", 360, 152, 56, "#f38ba8"),
    ("rect", 64, 272, 176, 176, 28, "#313244"),
    ("circle", 152, 360, 62, "#89b4fa"),
    ("circle", 152, 346, 62, "#b4befe"),
    ("rect", 272, 272, 176, 176, 28, "#edc22e"),
]
SIZE = 512
CORNER = 96  # the background's corner radius in the plain icons (the maskable one fills the square)


def rgb(hex_colour):
    h = hex_colour.lstrip("#")
    return tuple(int(h[i : i + 2], 16) for i in (0, 2, 4))


def svg():
    """The SVG text of the plain icon."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}">',
        f'<rect width="{SIZE}" height="{SIZE}" rx="{CORNER}" fill="{BACKGROUND}"/>',
    ]
    for s in SHAPES:
        if s[0] == "rect":
            _, x, y, w, h, r, c = s
            out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="{c}"/>')
        else:
            _, cx, cy, r, c = s
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{c}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def rounded_rect_distance(px, py, x, y, w, h, r):
    """Signed distance (negative inside) from a point to a rounded rectangle."""
    cx, cy = x + w / 2, y + h / 2
    qx = abs(px - cx) - (w / 2 - r)
    qy = abs(py - cy) - (h / 2 - r)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def raster(size, maskable):
    """The icon's RGBA rows at `size` pixels: the design scaled, shrunk into the safe zone when `maskable`."""
    scale = size / SIZE
    shrink = 0.8 if maskable else 1.0
    offset = SIZE * (1 - shrink) / 2
    shapes = []
    for s in SHAPES:
        if s[0] == "rect":
            _, x, y, w, h, r, c = s
            shapes.append(("rect", (offset + x * shrink, offset + y * shrink, w * shrink, h * shrink, r * shrink), rgb(c)))
        else:
            _, cx, cy, r, c = s
            shapes.append(("circle", (offset + cx * shrink, offset + cy * shrink, r * shrink), rgb(c)))
    back = rgb(BACKGROUND)
    rows = []
    for j in range(size):
        row = bytearray()
        py = (j + 0.5) / scale
        for i in range(size):
            px = (i + 0.5) / scale
            if maskable:
                colour, alpha = list(back), 1.0
            else:
                d = rounded_rect_distance(px, py, 0, 0, SIZE, SIZE, CORNER) * scale
                alpha = min(max(0.5 - d, 0.0), 1.0)
                colour = list(back)
            for kind, g, c in shapes:
                if kind == "rect":
                    d = rounded_rect_distance(px, py, *g)
                else:
                    d = math.hypot(px - g[0], py - g[1]) - g[2]
                cover = min(max(0.5 - d * scale, 0.0), 1.0)
                if cover > 0:
                    colour = [colour[k] * (1 - cover) + c[k] * cover for k in range(3)]
            row += bytes(round(v) for v in colour) + bytes([round(alpha * 255)])
        rows.append(bytes(row))
    return rows


def png(rows, size):
    """The bytes of an RGBA PNG of these rows."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + r for r in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "web", "page")
    with open(os.path.join(root, "icon.svg"), "w", encoding="utf-8") as f:
        f.write(svg())
    for name, size, maskable in [
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ]:
        data = png(raster(size, maskable), size)
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
        print(f"web-icons: {name} {size}x{size}, {len(data)} bytes", file=sys.stderr)
    print("web-icons: icon.svg", file=sys.stderr)


if __name__ == "__main__":
    main()
