"""The two plain reportlab scripts printkit is measured against, drawing what a printkit card draws.

Run by ``bench_build.py`` as ``python bench_baselines.py naive|tuned CARDS_JSON OUT_PDF``, each in
its own process. ``CARDS_JSON`` holds, per card, the texts printkit prints (title, type line,
stats, skills, ability) and its QR payload (the same short address printkit encodes), written
by the benchmark from the same generated database, so both sides draw the same distinct texts.

Per card, both scripts draw the same primitives as a Carpe Cras card: background and title band
(filled rectangles), cost disc and cost, title and type line, an art placeholder (frame and two
diagonals), a stats box and line, a skills line, the ability wrapped into lines in a framed box,
a 15 mm QR code and a footnote; crop marks on every page, and a backs page (background, title)
after each fronts page, mirrored for long-edge duplex. Text is set in the DejaVu fonts printkit
embeds (its cards print glyphs such as ⚔ and ★ that the PDF base fonts lack).

- naive: what anyone writes first (issue 21's definition): ``qrcode`` for the symbol, drawn as
  ONE filled path holding one square per dark module; reportlab's defaults (ASCII85 streams).
- tuned: the same drawn the cheap ways: zxing-cpp's encoder, one rectangle per horizontal run
  of dark modules in one path, streams not ASCII85-encoded.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent.parent / "printkit" / "fonts"

# Letter, 3 x 3 poker cards abutting, in mm.
W, H, CW, CH = 215.9, 279.4, 63.5, 88.9
GX, GY = (W - 3 * CW) / 2, (H - 3 * CH) / 2
QR_MM, QUIET = 15.0, 4


def naive_matrix(payload: str) -> list[list[bool]]:
    """``payload``'s QR modules from ``qrcode`` (error correction M), quiet zone excluded."""
    import qrcode

    code = qrcode.QRCode(border=0, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(payload)
    code.make(fit=True)
    return code.get_matrix()


def naive_qr(c, matrix: list[list[bool]], x_pt: float, y_pt: float, mm: float) -> None:
    """One filled path, one square per dark module, the code's lower-left corner at (x, y)."""
    m = QR_MM / (len(matrix) + 2 * QUIET) * mm
    top = y_pt + (len(matrix) + QUIET) * m
    p = c.beginPath()
    for row, cells in enumerate(matrix):
        for col, dark in enumerate(cells):
            if dark:
                p.rect(x_pt + (col + QUIET) * m, top - (row + 1) * m, m, m)
    c.drawPath(p, stroke=0, fill=1)


def tuned_qr(c, payload: str, x_pt: float, y_pt: float, mm: float) -> None:
    """zxing-cpp's symbol, one rectangle per horizontal run of dark modules, in one path."""
    import zxingcpp

    image = zxingcpp.create_barcode(payload, zxingcpp.BarcodeFormat.QRCode, ec_level="M").to_image(
        scale=1, add_quiet_zones=False)
    size = image.shape[0]
    pixels = bytes(memoryview(image))
    m = QR_MM / (size + 2 * QUIET) * mm
    top = y_pt + (size + QUIET) * m
    p = c.beginPath()
    for row in range(size):
        line = pixels[row * size:(row + 1) * size]
        col = 0
        while col < size:
            if line[col] == 0:
                start = col
                while col < size and line[col] == 0:
                    col += 1
                p.rect(x_pt + (start + QUIET) * m, top - (row + 1) * m, (col - start) * m, m)
            else:
                col += 1
    c.drawPath(p, stroke=0, fill=1)


def crop_marks(c, mm: float) -> None:
    """One pair of marks per trim line of the 3 x 3 grid, outside the cards."""
    c.setLineWidth(0.25)
    c.setStrokeColorRGB(0, 0, 0)
    for i in range(4):
        x = (GX + i * CW) * mm
        c.line(x, (H - GY + 3.5) * mm, x, (H - GY + 6) * mm)
        c.line(x, (GY - 3.5) * mm, x, (GY - 6) * mm)
        y = (H - GY - i * CH) * mm
        c.line((GX - 3.5) * mm, y, (GX - 8) * mm, y)
        c.line((W - GX + 3.5) * mm, y, (W - GX + 8) * mm, y)


def draw_card(c, card: dict, x0: float, top: float, mm: float, tuned: bool) -> None:
    """One card front whose top-left corner is at (``x0``, ``top``) mm."""
    from reportlab.lib.utils import simpleSplit

    c.setFillColorRGB(0.965, 0.945, 0.906)
    c.rect(x0 * mm, (top - CH) * mm, CW * mm, CH * mm, stroke=0, fill=1)
    c.setFillColorRGB(0.478, 0.122, 0.122)
    c.rect(x0 * mm, (top - 14) * mm, CW * mm, 14 * mm, stroke=0, fill=1)
    c.setFillColorRGB(0.965, 0.945, 0.906)
    c.setStrokeColorRGB(0.85, 0.7, 0.435)
    c.circle((x0 + 7.75) * mm, (top - 7.75) * mm, 4.75 * mm, stroke=1, fill=1)
    c.setFillColorRGB(0.478, 0.122, 0.122)
    c.setFont("DVB", 14)
    c.drawCentredString((x0 + 7.75) * mm, (top - 9.5) * mm, card["cost"])
    c.setFillColorRGB(1, 1, 1)
    c.setFont("DVB", 11.5)
    c.drawString((x0 + 14) * mm, (top - 7.5) * mm, card["title"])
    c.setFont("DV", 7)
    c.drawString((x0 + 14) * mm, (top - 12) * mm, card["kind"])
    c.setStrokeColorRGB(0.64, 0.62, 0.58)
    c.setLineWidth(0.5)
    c.rect((x0 + 3) * mm, (top - 42.2) * mm, 57.5 * mm, 27 * mm, stroke=1, fill=0)
    c.line((x0 + 3) * mm, (top - 42.2) * mm, (x0 + 60.5) * mm, (top - 15.2) * mm)
    c.line((x0 + 3) * mm, (top - 15.2) * mm, (x0 + 60.5) * mm, (top - 42.2) * mm)
    c.setFillColorRGB(0.918, 0.875, 0.784)
    c.roundRect((x0 + 3) * mm, (top - 51.4) * mm, 57.5 * mm, 8.4 * mm, 1.2 * mm, stroke=0, fill=1)
    c.setFillColorRGB(0.17, 0.13, 0.09)
    c.setFont("DV", 6)
    c.drawString((x0 + 3) * mm, (top - 85.5) * mm, "EXAMPLE CARD")
    c.setFont("DV", 7.5)
    c.drawCentredString((x0 + CW / 2) * mm, (top - 48) * mm, card["stats"])
    c.drawString((x0 + 3) * mm, (top - 56) * mm, card["skills"])
    c.setStrokeColorRGB(0.478, 0.122, 0.122)
    c.roundRect((x0 + 3) * mm, (top - 82.8) * mm, 41.5 * mm, 18.3 * mm, 1.2 * mm, stroke=1, fill=0)
    for k, line in enumerate(simpleSplit(card["ability"], "DV", 7.5, 39.5 * mm)[:6]):
        c.drawString((x0 + 4) * mm, (top - 68 - 3 * k) * mm, line)
    c.setFillColorRGB(0, 0, 0)
    if tuned:
        tuned_qr(c, card["payload"], (x0 + 45.5) * mm, (top - 82.6) * mm, mm)
    else:
        naive_qr(c, naive_matrix(card["payload"]), (x0 + 45.5) * mm, (top - 82.6) * mm, mm)


def run(kind: str, cards: list[dict], out: Path) -> None:
    """Draw ``cards`` into ``out`` the ``kind`` ("naive" or "tuned") way (see the module doc)."""
    from reportlab import rl_config
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    tuned = kind == "tuned"
    if tuned:
        rl_config.useA85 = 0
    pdfmetrics.registerFont(TTFont("DV", str(FONT_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("DVB", str(FONT_DIR / "DejaVuSans-Bold.ttf")))
    c = Canvas(str(out), pagesize=(W * mm, H * mm), invariant=1)
    for start in range(0, len(cards), 9):
        batch = cards[start:start + 9]
        crop_marks(c, mm)
        for slot, card in enumerate(batch):
            r, col = divmod(slot, 3)
            draw_card(c, card, GX + col * CW, H - GY - r * CH, mm, tuned)
        c.showPage()
        crop_marks(c, mm)
        for slot, _ in enumerate(batch):
            r, col = divmod(slot, 3)
            x0, top = GX + (2 - col) * CW, H - GY - r * CH
            c.setFillColorRGB(0.125, 0.188, 0.25)
            c.rect(x0 * mm, (top - CH) * mm, CW * mm, CH * mm, stroke=0, fill=1)
            c.setFillColorRGB(1, 1, 1)
            c.setFont("DVB", 14)
            c.drawCentredString((x0 + CW / 2) * mm, (top - 45) * mm, "Draw deck")
        c.showPage()
    c.save()


if __name__ == "__main__":
    run(sys.argv[1], json.loads(Path(sys.argv[2]).read_text(encoding="utf-8")), Path(sys.argv[3]))
