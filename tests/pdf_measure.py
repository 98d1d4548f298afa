"""Reading geometry back out of built PDFs (pdfplumber), in millimetres from the top-left corner.

Used by the tests to measure what was printed, not what the code meant to print.
"""

from __future__ import annotations

from dataclasses import dataclass

PT_PER_MM = 72 / 25.4


def mm(v_pt: float) -> float:
    return v_pt / PT_PER_MM


@dataclass(frozen=True)
class Box:
    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.top + self.bottom) / 2

    def contains(self, other: "Box", tol: float = 0.05) -> bool:
        return (other.x0 >= self.x0 - tol and other.x1 <= self.x1 + tol
                and other.top >= self.top - tol and other.bottom <= self.bottom + tol)

    def intersects(self, other: "Box") -> bool:
        return not (other.x1 < self.x0 or other.x0 > self.x1 or other.bottom < self.top or other.top > self.bottom)


def box_of(obj: dict) -> Box:
    return Box(mm(obj["x0"]), mm(obj["top"]), mm(obj["x1"]), mm(obj["bottom"]))


CROP_STROKE_PT = 0.25


def crop_marks(page) -> tuple[list[float], list[float], list[Box]]:
    """Crop marks on a page: the x of vertical trim lines, the y of horizontal ones (mm, sorted),
    and the marks' boxes. A crop mark is a thin straight line lying wholly in the page margin
    outside every other drawn object."""
    lines = [ln for ln in page.lines if abs(ln.get("linewidth", 0) - CROP_STROKE_PT) < 1e-3]
    xs = sorted({round(mm(ln["x0"]), 3) for ln in lines if abs(ln["x0"] - ln["x1"]) < 1e-6})
    ys = sorted({round(mm(ln["top"]), 3) for ln in lines if abs(ln["top"] - ln["bottom"]) < 1e-6})
    return xs, ys, [box_of(ln) for ln in lines]


def drawn_objects(page) -> list[Box]:
    """Boxes of everything on the page except crop marks: rects, curves, other lines, chars, images."""
    out = []
    for kind in ("rects", "curves", "chars", "images"):
        out.extend(box_of(o) for o in getattr(page, kind))
    out.extend(box_of(ln) for ln in page.lines if abs(ln.get("linewidth", 0) - CROP_STROKE_PT) >= 1e-3)
    return out
