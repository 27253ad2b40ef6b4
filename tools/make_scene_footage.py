#!/usr/bin/env python3
"""Writes the seed footage clip, Scenes/footage/colour-bars.y4m: our own synthetic picture, no source data.

64 x 48 pixels, 10 frames at 10 fps, YUV4MPEG2 4:4:4 (limited range, ITU-R BT.601 matrix, as Y4M is usually read):
three vertical stripes of 75 % red, green and blue, and a white bar 8 pixels wide that moves 6 pixels to the right
each frame, so a stream filming the clip shows where it is in time.

Run from the repository root: python3 tools/make_scene_footage.py
"""
import os

WIDTH, HEIGHT, FRAMES, RATE = 64, 48, 10, 10
OUT = os.path.join("Sources", "ObscuraData", "Scenes", "footage", "colour-bars.y4m")


def ycbcr(r, g, b):
    y = 0.299 * r + 0.587 * g + 0.114 * b
    cb, cr = (b - y) / 1.772, (r - y) / 1.402
    code = lambda v: max(0, min(255, round(v)))
    return code(16 + 219 * y), code(128 + 224 * cb), code(128 + 224 * cr)


def colour(x, frame):
    bar = 6 * frame
    if bar <= x < bar + 8:
        return (1.0, 1.0, 1.0)
    stripe = 3 * x // WIDTH
    return [(0.75, 0, 0), (0, 0.75, 0), (0, 0, 0.75)][stripe]


def main():
    data = bytearray(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{RATE}:1 Ip A1:1 C444\n".encode())
    for frame in range(FRAMES):
        row = [ycbcr(*colour(x, frame)) for x in range(WIDTH)]
        data += b"FRAME\n"
        for plane in range(3):
            data += bytes(row[x][plane] for x in range(WIDTH)) * HEIGHT
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
