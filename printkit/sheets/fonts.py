"""The bundled libre font (DejaVu Sans), registered with reportlab so it is embedded in every PDF.

Shipping our own TTF makes text identical on every machine, and print shops accept PDFs
whose fonts are embedded. DejaVu covers the symbols card texts use (× → ★ ⚔ ●).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).parent.parent / "fonts"
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
FONT_NAMES = {"regular": REGULAR, "bold": BOLD}


@cache
def register_fonts() -> None:
    """Register the regular and bold faces and their family mapping (idempotent)."""
    pdfmetrics.registerFont(TTFont(REGULAR, str(FONT_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONT_DIR / "DejaVuSans-Bold.ttf")))
    # Paragraph's <b> needs a family mapping to find the bold face.
    for bold, italic, face in ((0, 0, REGULAR), (1, 0, BOLD), (0, 1, REGULAR), (1, 1, BOLD)):
        addMapping(REGULAR, bold, italic, face)
