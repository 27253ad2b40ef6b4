"""OpenCV side of tools/bench-imageops.sh: the same 12 MP image and operations as Benchmarks/ImageOps.

Prints one `name median_ms cpu_ms` line per operation: median wall time and median process CPU time (all threads). Needs numpy and opencv-python-headless (installed by the shell
script into a virtual environment).
"""
import sys
import time

import cv2
import numpy as np

WIDTH, HEIGHT = 4032, 3024
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7


def test_image():
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.int64)
    h = ((x * 73856093) ^ (y * 19349663)) & 0xFFFFFFFF
    h = h.astype(np.int64)
    r = 40 + (x * 150) // WIDTH + (h & 15)
    g = 60 + (y * 120) // HEIGHT + ((h >> 4) & 15)
    b = 30 + ((x + y) * 100) // (WIDTH + HEIGHT) + ((h >> 8) & 15)
    return np.ascontiguousarray(np.stack([r, g, b], axis=-1).astype(np.uint8))


# Output -> source, as in the Swift benchmark. OpenCV's warpPerspective with WARP_INVERSE_MAP uses the matrix as
# dst -> src; its pixel centres are integers, ours half-integers, so shift by 0.5 on both sides to match exactly.
H = np.array([[0.92, 0.06, 120], [-0.04, 0.95, 90], [0.00002, 0.000015, 1]], dtype=np.float64)
SHIFT = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]], dtype=np.float64)
UNSHIFT = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]], dtype=np.float64)
H_CV = UNSHIFT @ H @ SHIFT


def warp(image):
    return cv2.warpPerspective(image, H_CV, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def stretch(image, clip=0.01):
    """Per-channel ends-in stretch: histogram, cumulative counts, levels, lookup table (same definition as ours)."""
    n = image.shape[0] * image.shape[1]
    k = int(clip * n)
    channels = []
    for c in range(3):
        hist = cv2.calcHist([image], [c], None, [256], [0, 256]).ravel()
        cumulative = np.cumsum(hist)
        low = int(np.searchsorted(cumulative, k, side="right"))
        high = int(np.searchsorted(cumulative, n - 1 - k, side="right"))
        span = max(1, high - low)
        lut = np.clip(np.rint((np.arange(256) - low) * 255.0 / span), 0, 255).astype(np.uint8)
        channels.append(cv2.LUT(image[:, :, c], lut))
    return cv2.merge(channels)


def median(fn):
    fn()
    times, cpu = [], []
    for _ in range(RUNS):
        start, cpu_start = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - cpu_start) * 1000)
    return f"{sorted(times)[len(times) // 2]:.2f} {sorted(cpu)[len(cpu) // 2]:.2f}"


image = test_image()
print(f"warp {median(lambda: warp(image))}")
print(f"stretch {median(lambda: stretch(image))}")
print(f"# OpenCV {cv2.__version__}, {cv2.getNumThreads()} threads", file=sys.stderr)
