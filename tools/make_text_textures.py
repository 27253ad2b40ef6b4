#!/usr/bin/env python3
"""Generate the printed-text textures of the scenes in Scenes/textures/ (text that Vision's text request reads).

Each texture is an 8-bit greyscale PNG whose pixel values index the palette of its image card: 0 is the paper, 1 the
ink (see Scenes/README.md, "Image cards"). The glyphs are DejaVu Sans (fonts-dejavu-core, a free font whose
licence allows any use of text set in it), rasterised by Pillow and thresholded at half coverage, at 8 pixels per
millimetre, so each character's strokes are sharp to 1/8 mm before the camera's optics blur them.

Usage: python3 tools/make_text_textures.py   (from the repository root; needs Pillow: pip install pillow)
"""
import os
import sys

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_scene_textures import write_grey_png  # noqa: E402

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
PIXELS_PER_MM = 8


def card(lines, width_mm, height_mm):
    """A card of `width_mm` x `height_mm` with `lines` of (text, cap height in mm, left mm, baseline mm)."""
    width, height = width_mm * PIXELS_PER_MM, height_mm * PIXELS_PER_MM
    picture = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(picture)
    for text, cap_mm, left_mm, baseline_mm in lines:
        # DejaVu Sans's capitals are 0.729 em tall.
        font = ImageFont.truetype(FONT, round(cap_mm * PIXELS_PER_MM / 0.729))
        draw.text((left_mm * PIXELS_PER_MM, baseline_mm * PIXELS_PER_MM), text, fill=255, font=font, anchor="ls")
    return width, height, [1 if v >= 128 else 0 for v in picture.tobytes()]


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Scenes", "textures")
    # A business card (85 x 55 mm, the ISO/IEC 7810 ID-1 size's neighbour) with a name and a phone number.
    width, height, pixels = card(
        [("Harbour Lights Cafe", 4.0, 6, 16), ("Open daily 8 to 6", 3.0, 6, 26), ("415-555-0134", 5.0, 6, 42)],
        85, 55)
    write_grey_png(os.path.join(root, "phone-number-card.png"), width, height, pixels)


if __name__ == "__main__":
    main()
