#!/usr/bin/env python3
"""Writes the PNG test corpus in Tests/ImagingTests/Corpus.

The files are built byte by byte with Python's struct and zlib modules only, so they come from an encoder
independent of libpng and of Obscura. Each image's pixels follow a closed formula that the Swift tests
(CorpusTests.swift) recompute. Licence: the script and the files it writes are part of Obscura, under the
project's licence. Usage: python3 tools/make_png_corpus.py  (from the repository root).
"""
import os
import struct
import zlib

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "ImagingTests", "Corpus")


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, bit_depth, color_type, scanlines, extra=b"", interlace=0, trailing=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, interlace)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(scanlines, 9))
            + trailing + chunk(b"IEND", b""))


def sub_filter(raw, bpp):
    """PNG filter type 1 (Sub), PNG spec §9.2."""
    return bytes([1]) + bytes((raw[i] - (raw[i - bpp] if i >= bpp else 0)) & 0xFF for i in range(len(raw)))


def grey1():
    # 1-bit grey 9x3, a checkerboard: pixel = (x + y) % 2.
    rows = b""
    for y in range(3):
        bits = [(x + y) % 2 for x in range(9)] + [0] * 7
        packed = bytes(sum(bits[i + k] << (7 - k) for k in range(8)) for i in range(0, 16, 8))
        rows += b"\x00" + packed
    return png(9, 3, 1, 0, rows)


def palette_trns():
    # 8-bit palette 6x2: index = (x + 2y) % 4; index 0 fully transparent, index 2 half transparent.
    plte = bytes([10, 20, 30, 200, 0, 0, 0, 200, 0, 0, 0, 200])
    trns = bytes([0, 255, 128])
    rows = b"".join(b"\x00" + bytes((x + 2 * y) % 4 for x in range(6)) for y in range(2))
    return png(6, 2, 8, 3, rows, extra=chunk(b"PLTE", plte) + chunk(b"tRNS", trns))


def rgb16():
    # 16-bit RGB 5x4, sample = (4099x + 257y + 16411c) mod 65536, big-endian; odd rows use the Sub filter.
    rows = b""
    for y in range(4):
        raw = b"".join(struct.pack(">H", (4099 * x + 257 * y + 16411 * c) % 65536) for x in range(5) for c in range(3))
        rows += sub_filter(raw, 6) if y % 2 else b"\x00" + raw
    return png(5, 4, 16, 2, rows)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def interlaced_grey():
    # 8-bit grey 11x7, Adam7 interlaced (PNG spec §8.2): pixel = (23x + 7y) % 256.
    width, height = 11, 7
    data = b""
    for x0, y0, dx, dy in ADAM7:
        xs = range(x0, width, dx)
        for y in range(y0, height, dy):
            if len(xs):
                data += b"\x00" + bytes((23 * x + 7 * y) % 256 for x in xs)
    return png(width, height, 8, 0, data, interlace=1)


def rgb8(extra):
    # 8-bit RGB 4x4: sample = (60x + 50y + 90c) % 256.
    rows = b"".join(b"\x00" + bytes((60 * x + 50 * y + 90 * c) % 256 for x in range(4) for c in range(3))
                    for y in range(4))
    return png(4, 4, 8, 2, rows, extra=extra)


def chrm_p3():
    values = [31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000]
    return rgb8(chunk(b"gAMA", struct.pack(">I", 45455)) + chunk(b"cHRM", struct.pack(">8I", *values)))


def v2_profile_named(name):
    """A minimal ICC v2 RGB display profile holding only a textDescriptionType 'desc' (ICC.1:2001-04 §6.5.17)."""
    text = name.encode("ascii") + b"\x00"
    desc = b"desc" + b"\x00" * 4 + struct.pack(">I", len(text)) + text
    desc += b"\x00" * 4 + b"\x00" * 4 + b"\x00" * 2 + b"\x00" + b"\x00" * 67  # Unicode and ScriptCode parts, empty
    while len(desc) % 4:
        desc += b"\x00"
    table = struct.pack(">I", 1) + b"desc" + struct.pack(">II", 128 + 4 + 12, len(desc))
    size = 128 + len(table) + len(desc)
    d50 = struct.pack(">iii", 0xF6D6, 0x10000, 0xD32D)
    header = (struct.pack(">I", size) + b"\x00" * 4 + bytes([2, 0x10, 0, 0]) + b"mntrRGB XYZ " + b"\x00" * 12
              + b"acsp" + b"\x00" * 24 + struct.pack(">I", 0) + d50 + b"\x00" * 48)
    assert len(header) == 128
    return header + table + desc


def iccp_v2_p3():
    profile = v2_profile_named("Display P3")
    return rgb8(chunk(b"iCCP", b"Display P3\x00\x00" + zlib.compress(profile)))


def compressed_text():
    # zTXt (Latin-1, compressed) and a compressed iTXt (UTF-8), PNG spec §11.3.4.4 and §11.3.4.5.
    ztxt = chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress("Gr\xfc\xdfe".encode("latin-1")))
    itxt = chunk(b"iTXt", b"Title\x00\x01\x00ja\x00\xe3\x82\xbf\xe3\x82\xa4\xe3\x83\x88\xe3\x83\xab\x00"
                 + zlib.compress("写真".encode("utf-8")))
    return rgb8(ztxt + itxt)


FILES = {
    "grey-1bit.png": grey1,
    "palette-trns.png": palette_trns,
    "rgb-16bit-sub-filter.png": rgb16,
    "grey-adam7.png": interlaced_grey,
    "rgb-chrm-p3.png": chrm_p3,
    "rgb-iccp-v2-display-p3.png": iccp_v2_p3,
    "rgb-compressed-text.png": compressed_text,
}

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for name, make in FILES.items():
        with open(os.path.join(OUT, name), "wb") as handle:
            handle.write(make())
        print("wrote", name)
