#!/usr/bin/env python3
"""Generate the textures used by the seed scenes in Scenes/textures/.

Most are 8-bit greyscale PNGs whose pixel values are indices into the palette of material names
the scene file gives for its image card (see Scenes/README.md); the portrait is an 8-bit RGB PNG
for a photo card. The pictures are drawn here from simple geometry; they are our own work and
carry the project's licence. Only the Python standard library is used (zlib, struct), so the output is
byte-for-byte reproducible.

Usage: python3 tools/make_scene_textures.py   (from the repository root)
"""
import os
import struct
import zlib


def write_png(path, width, height, pixels, channels=1):
    """Write an 8-bit PNG (ISO/IEC 15948 colour type 0, greyscale, or 2, RGB), one filter-0 byte per row;
    `pixels` holds `channels` values per pixel, row by row."""
    row = width * channels
    raw = b"".join(b"\x00" + bytes(pixels[y * row:(y + 1) * row]) for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0 if channels == 1 else 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


# A face as a child draws one but shaded, in units of the face's half-width from the centre of its oval
# (+y down): (centre x, centre y, half-axis x, half-axis y, sRGB colour, part, skin). Back to front.
FACE_SHAPES = [(0, -0.32, 1.21, 1.47, (45, 35, 30), "whole", False),  # hair
               (0, 0.105, 1.0, 1.316, (210, 150, 110), "whole", True)]  # face
for side in (-1, 1):
    FACE_SHAPES += [(side * 0.42, -0.368, 0.295, 0.074, (60, 45, 40), "upper", False),  # brow
                    (side * 0.42, -0.105, 0.232, 0.116, (235, 235, 235), "whole", False),  # eye
                    (side * 0.42, -0.105, 0.095, 0.095, (70, 60, 50), "whole", False),  # iris
                    (side * 0.42, -0.105, 0.042, 0.042, (10, 10, 10), "whole", False)]  # pupil
FACE_SHAPES += [(0, 0.47, 0.168, 0.074, (150, 105, 80), "lower", False),  # the shadow under the nose
                (0, 0.84, 0.316, 0.095, (160, 70, 70), "whole", False)]  # mouth


def face_colour(px, py, cx, cy, half_width, background):
    """The colour at (px, py) of a face centred at (cx, cy): skin darkens towards the sides of the face, as a
    rounded face lit from the front does."""
    colour = background
    qx, qy = (px - cx) / half_width, (py - cy) / half_width
    for sx, sy, ax, ay, rgb, part, skin in FACE_SHAPES:
        dx, dy = (qx - sx) / ax, (qy - sy) / ay
        if dx * dx + dy * dy > 1 or (part == "upper" and dy > 0) or (part == "lower" and dy < 0):
            continue
        colour = tuple(c * (1 - 0.35 * qx * qx) for c in rgb) if skin else rgb
    return colour


def portrait():
    """A printed portrait, 100 x 130 mm at 2 px/mm: a face drawn as above on a grey-blue ground, each pixel
    the mean of 3 x 3 samples. RGB."""
    width, height = 200, 260
    cx, cy, half_width = 100, 135, 62
    background = (120, 130, 140)
    pixels = []
    for y in range(height):
        for x in range(width):
            total = [0.0, 0.0, 0.0]
            for sy in range(3):
                for sx in range(3):
                    c = face_colour(x + (sx + 0.5) / 3, y + (sy + 0.5) / 3, cx, cy, half_width, background)
                    total = [t + v for t, v in zip(total, c)]
            pixels += [min(255, max(0, round(t / 9))) for t in total]
    return width, height, pixels


# The shadow of the brow over each eye socket, which a face lit from above shows and a painted face needs, since a
# sphere has no sockets to cast it: (centre x, centre y, half-axis x, half-axis y), in the units of FACE_SHAPES.
SOCKETS = [(side * 0.42, -0.2, 0.33, 0.2) for side in (-1, 1)]


def head():
    """A face painted on a head, for an image card on a sphere (the card spans the sphere's width and height and
    is seen on its front half): the face above, hair and all, drawn on hair, with the shadow of each eye socket
    (SOCKETS) under the brows. The face's oval is 0.62 of the sphere's radius wide and its centre 0.05 of the
    radius below the sphere's, so hair frames the face at the sides as it does on a head seen from the front. The
    sphere's own shading takes the place of the drawn one. 200 x 200 px, each pixel the palette index at its
    centre.

    Palette: 0 skin, 1 brow, 2 eye white, 3 iris, 4 pupil, 5 shadowed skin (under the nose and in the sockets),
    6 lips, 7 hair.
    """
    size, scale, centre = 200, 0.62, 0.05
    index_of = {(210, 150, 110): 0, (60, 45, 40): 1, (235, 235, 235): 2, (70, 60, 50): 3, (10, 10, 10): 4,
                (150, 105, 80): 5, (160, 70, 70): 6, (45, 35, 30): 7}
    hair, oval, features = FACE_SHAPES[0], FACE_SHAPES[1], FACE_SHAPES[2:]
    # Back to front: hair, the oval, the sockets in shadowed skin, then the features.
    shapes = [hair, oval] + [(x, y, ax, ay, (150, 105, 80), "whole", False) for x, y, ax, ay in SOCKETS] + features
    pixels = []
    for y in range(size):
        for x in range(size):
            # In units of the face's half-width from the centre of its oval, as FACE_SHAPES are.
            qx = (x + 0.5 - size / 2) / (size / 2) / scale
            qy = ((y + 0.5 - size / 2) / (size / 2) - centre) / scale + oval[1]
            index = 7
            for sx, sy, ax, ay, rgb, part, _ in shapes:
                dx, dy = (qx - sx) / ax, (qy - sy) / ay
                if dx * dx + dy * dy > 1 or (part == "upper" and dy > 0) or (part == "lower" and dy < 0):
                    continue
                index = index_of[rgb]
            pixels.append(index)
    return size, size, pixels


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
    write_png(os.path.join(out, "instant-photo.png"), width, height, pixels)
    width, height, pixels = head()
    write_png(os.path.join(out, "head.png"), width, height, pixels)
    width, height, pixels = portrait()
    write_png(os.path.join(out, "portrait.png"), width, height, pixels, channels=3)


if __name__ == "__main__":
    main()
