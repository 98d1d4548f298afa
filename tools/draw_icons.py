"""Draw the companion's home-screen icons: python tools/draw_icons.py

A white playing card with a QR code on it (what players scan), over a second card, on the
companion's blue. Drawn with Pillow from shapes only (no font, no randomness), so running this
again gives the same pictures; the PNGs it writes under companion/static/icons/ are committed.

- ``icon-192.png``, ``icon-512.png``: "any" icons, a rounded square with clear corners;
- ``icon-maskable-512.png``: a "maskable" icon, the blue to every edge and the cards inside
  the middle 80 % circle, which a launcher may cut to any shape;
- ``apple-touch-icon.png`` (180 px): iOS rounds the corners itself and shows clear pixels
  black, so it is drawn to every edge like the maskable one.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "companion" / "static" / "icons"
BLUE = (1, 114, 173, 255)  # Pico's azure primary, the companion's links and buttons
PALE = (142, 197, 230, 255)
WHITE = (255, 255, 255, 255)
DATA = ["10110010", "01011101", "11000110", "00111010", "10100111", "01101001", "11010100", "00101011"]
SUPERSAMPLE = 4  # drawn this many times larger, then scaled down: smooth edges without antialiasing support

ICONS = {
    # file: (size in px, drawn to every edge with the cards in the safe circle)
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "icon-maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),
}


def draw(size: int, full_bleed: bool) -> Image.Image:
    """The icon at ``size`` x ``size`` px: rounded and clear at the corners, or blue to every
    edge with the cards shrunk into the middle 80 % circle (``full_bleed``)."""
    s = size * SUPERSAMPLE
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if full_bleed:
        pen.rectangle((0, 0, s, s), fill=BLUE)
    else:
        pen.rounded_rectangle((0, 0, s - 1, s - 1), radius=round(0.2 * s), fill=BLUE)
    # The cards' outline measures 0.56 x 0.70 of the icon; 0.78 of that fits the safe circle
    # (radius 0.4) with room to spare.
    k = 0.78 if full_bleed else 1.0

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        """A box given in icon units around the centre (-0.5 .. 0.5), in pixels."""
        return tuple(round(s * (0.5 + k * v)) for v in (x0, y0, x1, y1))

    radius = round(0.045 * s * k)
    pen.rounded_rectangle(box(-0.18, -0.35, 0.28, 0.27), radius=radius, fill=PALE)  # the card behind
    pen.rounded_rectangle(box(-0.28, -0.27, 0.18, 0.35), radius=radius, fill=WHITE)
    # A QR code of 17 x 17 modules on the card's middle: three finder squares (7 modules: dark
    # ring, light ring, dark centre) and a made-up block of data modules.
    side, first_x, first_y = 0.34, -0.22, -0.13
    m = side / 17

    def modules(col: float, row: float, cols: float, rows: float, fill) -> None:
        pen.rectangle(box(first_x + col * m, first_y + row * m, first_x + (col + cols) * m,
                          first_y + (row + rows) * m), fill=fill)

    for col, row in ((0, 0), (10, 0), (0, 10)):
        modules(col, row, 7, 7, BLUE)
        modules(col + 1, row + 1, 5, 5, WHITE)
        modules(col + 2, row + 2, 3, 3, BLUE)
    for row, bits in enumerate(DATA, start=9):
        for col, bit in enumerate(bits, start=9):
            if bit == "1":
                modules(col, row, 1, 1, BLUE)
    modules(8, 6, 1, 1, BLUE)
    modules(6, 8, 1, 1, BLUE)
    return image.resize((size, size), Image.LANCZOS)


def main(out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, (size, full_bleed) in ICONS.items():
        draw(size, full_bleed).save(out / name, optimize=True)
        print(out / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
