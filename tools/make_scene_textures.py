#!/usr/bin/env python3
"""Generate the palette-index textures used by the seed scenes in Scenes/textures/.

Each texture is an 8-bit greyscale PNG whose pixel values are indices into the palette of
material names the scene file gives for its image card (see Scenes/README.md). The pictures are
drawn here from simple geometry, one pixel per millimetre; they are our own work and carry the
project's licence. Only the Python standard library is used (zlib, struct), so the output is
byte-for-byte reproducible.

Usage: python3 tools/make_scene_textures.py   (from the repository root)
"""
import os
import struct
import zlib


def write_grey_png(path, width, height, pixels):
    """Write 8-bit greyscale PNG (ISO/IEC 15948 colour type 0), one filter-0 byte per row."""
    raw = b"".join(b"\x00" + bytes(pixels[y * width:(y + 1) * width]) for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def instant_photo():
    """An instant print, 88 x 107 mm with a 79 x 79 mm picture (the integral-film format): a
    beach with sky, sea, sand, a sun and a red umbrella.

    Palette: 0 frame, 1 sky, 2 sea, 3 sand, 4 sun, 5 umbrella.
    """
    width, height = 88, 107
    left, top, size = 4, 5, 79
    pixels = [0] * (width * height)
    for y in range(top, top + size):
        for x in range(left, left + size):
            u, v = x - left, y - top
            if v < 36:
                index = 1
            elif v < 52:
                index = 2
            else:
                index = 3
            if (u - 58) ** 2 + (v - 14) ** 2 <= 7 ** 2:
                index = 4
            # An umbrella: a half disc above a thin pole.
            if v <= 56 and v >= 46 and (u - 22) ** 2 + (v - 56) ** 2 <= 12 ** 2:
                index = 5
            if u == 22 and 56 < v < 70:
                index = 5
            pixels[y * width + x] = index
    return width, height, pixels


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "Scenes", "textures")
    os.makedirs(out, exist_ok=True)
    width, height, pixels = instant_photo()
    write_grey_png(os.path.join(out, "instant-photo.png"), width, height, pixels)


if __name__ == "__main__":
    main()
