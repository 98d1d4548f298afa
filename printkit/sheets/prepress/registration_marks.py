"""Registration marks for print-then-cut on a Silhouette cutter (CAMEO, Portrait).

The cutter's optical sensor finds three marks on the printed sheet and lines the cut file up
with them, so the cuts follow the print even when the printer shifted it. The marks are
Silhouette Studio's "Type 1": a filled square in the top-left corner and two L-shaped corners,
top right and bottom left, each at the same inset from the paper's edges. The same marks are
drawn on the PDF page and written into the sheet's SVG cut file, in the same page coordinates,
so importing the SVG at 100 % lines it up with the printed marks.

In Silhouette Studio: Page Setup > Registration Marks, Style "Type 1", and the length,
thickness and inset of :data:`SILHOUETTE_TYPE_1` (20 mm, 0.5 mm, 10 mm). Cricut Design Space
prints its own marks around images it prints itself, so for a Cricut use its Print Then Cut
with the per-card PNG export instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from printkit.sheets.prepress.imposition import Rect

MARK_COLOUR = "#000000"
"""Solid black: the sensor reads contrast, and any colour but black reads less reliably."""


@dataclass(frozen=True)
class RegistrationMarks:
    """The marks' geometry, all in mm.

    Attributes:
        inset_mm: from each paper edge to the outer edge of the marks.
        square_mm: side of the filled top-left square.
        length_mm: length of each arm of the L-shaped corners.
        thickness_mm: width of the L arms.
        clearance_mm: ink-free space kept between the marks and any card's bleed, so the
            sensor sees the marks alone.
    """

    inset_mm: float = 10.0
    square_mm: float = 5.0
    length_mm: float = 20.0
    thickness_mm: float = 0.5
    clearance_mm: float = 2.0

    def keep_clear(self, page_w_mm: float, page_h_mm: float) -> list[Rect]:
        """The marks grown by ``clearance_mm``: areas no card's bleed may touch."""
        c = self.clearance_mm
        return [Rect(r.x_mm - c, r.y_mm - c, r.w_mm + 2 * c, r.h_mm + 2 * c)
                for r in self.rects(page_w_mm, page_h_mm)]

    def cut_area(self, page_w_mm: float, page_h_mm: float) -> Rect:
        """The area between the marks, where the cutter can cut: every trim must lie in it."""
        i = self.inset_mm
        return Rect(i, i, page_w_mm - 2 * i, page_h_mm - 2 * i)

    def rects(self, page_w_mm: float, page_h_mm: float) -> list[Rect]:
        """The marks as filled rectangles on a ``page_w_mm`` x ``page_h_mm`` page (mm from its
        top-left corner): the square, then each L as its two arms."""
        i, t, n = self.inset_mm, self.thickness_mm, self.length_mm
        right, bottom = page_w_mm - i, page_h_mm - i
        return [
            Rect(i, i, self.square_mm, self.square_mm),
            Rect(right - n, i, n, t), Rect(right - t, i, t, n),          # top right
            Rect(i, bottom - t, n, t), Rect(i, bottom - n, t, n),        # bottom left
        ]


SILHOUETTE_TYPE_1 = RegistrationMarks()
"""Silhouette Studio's Type 1 marks at its default length, thickness and inset."""


def _mm(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def registration_svg(marks: RegistrationMarks, page_w_mm: float, page_h_mm: float) -> str:
    """The marks as an SVG group (``<g id="registration">``, filled black, not cut) in mm page
    coordinates, for a cut file whose ``viewBox`` is the page in mm."""
    rects = "".join(f'<rect x="{_mm(r.x_mm)}" y="{_mm(r.y_mm)}" width="{_mm(r.w_mm)}" height="{_mm(r.h_mm)}"/>'
                    for r in marks.rects(page_w_mm, page_h_mm))
    return f'  <g id="registration" fill="{MARK_COLOUR}" stroke="none">{rects}</g>'
