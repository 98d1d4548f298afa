"""SVG cut files for cutting machines (Cricut, Silhouette, laser): one per sheet of fronts.

Each file is the sheet at true size (``width``/``height`` in mm, ``viewBox`` in mm, so one
user unit is one millimetre) with every card's trim outline as a rounded rectangle, in the
same page coordinates as the PDF page it belongs to (origin top left, y downward). Importing
it at 100 % over a scan of the printed sheet lines the cuts up with the crop marks.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.prepress.registration_marks import RegistrationMarks, registration_svg

CUT_STROKE = "#ff0000"
"""Pure red hairlines: the colour most cutter and laser software treats as "cut"."""
CUT_STROKE_MM = 0.1


def _mm(v: float) -> str:
    # Fixed precision keeps the file byte-identical between runs and platforms.
    return f"{v:.3f}".rstrip("0").rstrip(".")


def cut_svg(page_w_mm: float, page_h_mm: float, trims: Iterable[Rect], corner_radius_mm: float,
            title: str, registration: RegistrationMarks | None = None) -> bytes:
    """An SVG document (UTF-8 bytes) of ``page_w_mm`` x ``page_h_mm`` with one ``<rect>`` cut
    path per trim box in ``trims`` (mm from the page's top-left corner), corners rounded by
    ``corner_radius_mm``. ``title`` names the sheet (escaped). ``registration`` adds the
    print-then-cut marks printed on the sheet, as a separate group the cutter reads, not cuts."""
    w, h = _mm(page_w_mm), _mm(page_h_mm)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">',
        f"  <title>{html.escape(title, quote=False)}</title>",
        f'  <g id="cut" fill="none" stroke="{CUT_STROKE}" stroke-width="{_mm(CUT_STROKE_MM)}">',
    ]
    r = _mm(corner_radius_mm)
    for i, t in enumerate(trims, start=1):
        lines.append(f'    <rect id="card-{i}" x="{_mm(t.x_mm)}" y="{_mm(t.y_mm)}" width="{_mm(t.w_mm)}" '
                     f'height="{_mm(t.h_mm)}" rx="{r}" ry="{r}"/>')
    lines.append("  </g>")
    if registration is not None:
        lines.append(registration_svg(registration, page_w_mm, page_h_mm))
    lines += ["</svg>", ""]
    return "\n".join(lines).encode("utf-8")
