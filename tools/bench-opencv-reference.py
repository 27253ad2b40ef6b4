#!/usr/bin/env python3
"""OpenCV's times for the Core Image operations the CoreImage module's speed is judged by, side by side.

Not part of the test suite. On a 12 MP (4032 x 3024) RGBA frame it times, with OpenCV's own threads limited to the
machine's cores:
  - a perspective correction: the quadrilateral of a tilted card mapped onto an upright rectangle of the same
    frame size (cv2.warpPerspective, bilinear), from 8-bit RGBA to 8-bit RGBA;
  - a chain of three colour operations in Core Image's way: 8-bit sRGB decoded to linear floats, an exposure
    adjustment (x 2^0.5), a colour matrix (a 3 x 3 mix plus bias) and a gamma adjustment (power 0.8), encoded back
    to 8-bit sRGB. OpenCV runs them as separate passes, as a program written with it would.
Prints the median of the runs for each, in milliseconds.

Usage: tools/bench-opencv-reference.py [runs]   (needs numpy and opencv-python-headless)
"""
import os
import sys
import time

import cv2
import numpy as np

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
cv2.setNumThreads(os.cpu_count() or 1)
width, height = 4032, 3024
rng = np.random.default_rng(1)
frame = rng.integers(0, 256, size=(height, width, 4), dtype=np.uint8)


def median_ms(body):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        body()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return times[len(times) // 2]


# A card seen at an angle: its corners in the frame (top left, top right, bottom right, bottom left).
quad = np.float32([[612, 402], [3390, 618], [3581, 2690], [402, 2420]])
upright = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
homography = cv2.getPerspectiveTransform(quad, upright)
warp = median_ms(lambda: cv2.warpPerspective(frame, homography, (width, height), flags=cv2.INTER_LINEAR))

# sRGB transfer function as lookup tables: 8-bit code to linear float, and linear float back through a fine table.
codes = np.arange(256, dtype=np.float64) / 255
to_linear = np.where(codes <= 0.04045, codes / 12.92, ((codes + 0.055) / 1.055) ** 2.4).astype(np.float32)
mix = np.float32([[0.9, 0.1, 0.0, 0.01], [0.05, 0.9, 0.05, 0.0], [0.0, 0.1, 0.9, 0.02]])


def encode(linear):
    v = np.clip(linear, 0, 1)
    s = np.where(v <= 0.0031308, v * 12.92, 1.055 * np.power(v, 1 / 2.4) - 0.055)
    return (s * 255 + 0.5).astype(np.uint8)


def chain():
    rgb = to_linear[frame[:, :, :3]]
    rgb = cv2.multiply(rgb, (2 ** 0.5, 2 ** 0.5, 2 ** 0.5, 0))
    rgb = cv2.transform(rgb, mix)
    rgb = cv2.pow(np.maximum(rgb, 0), 0.8)
    return encode(rgb)


colour = median_ms(chain)
print(f"OpenCV {cv2.__version__}, {cv2.getNumThreads()} threads, {width}x{height}, median of {runs} runs")
print(f"perspective correction (warpPerspective, bilinear, RGBA8): {warp:.1f} ms")
print(f"three colour operations, sRGB8 -> linear float -> sRGB8: {colour:.1f} ms")
