"""Imposition: where cards sit on a sheet, where crop marks go, and where duplex backs land.

All lengths in millimetres, measured from the page's top-left corner (y downward), as a
designer measures a printed sheet. Cards abut at their trim lines (a shared cut, so a
3 x 3 grid of poker cards with bleed fits on Letter); the grid's outer edge gets the full
bleed and the crop marks sit in the margin outside it, never touching a card.

Printers cannot print the outer ~5 mm of a sheet (:data:`PRINTER_MARGIN_MM`). Crop marks stop
there wherever the margin leaves room for a usable mark; a grid that needs the band (3 x 3 poker
cards on Letter leave 6.35 mm above and below) keeps its cards and says so through
:func:`margin_note`, unless the paper asks for ``safe_margins`` (then fewer cards fit).

:func:`impose_most` fits as many cards as the paper takes; :func:`impose_fold` lays out
fold-over pairs (front left, back right of a fold line down the page's middle) for printers
without duplex.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from printkit.sheets.prepress.paper import PAPERS, PRINTER_MARGIN_MM, Paper

Flip = Literal["long", "short"]

CROP_MARK_GAP_MM = 0.5
"""Gap between the outer bleed edge and a crop mark, so marks never touch the printed card."""
CROP_MARK_LENGTH_MM = 5.0
"""Longest crop mark; shorter where the paper margin is narrower."""
MIN_SAFE_CROP_MARK_MM = 1.0
"""Shortest crop mark drawn inside the printable area; with less room there, the mark runs
into the printer's margin (towards the paper's edge) instead."""


def crop_mark_length_mm(room_mm: float, start_mm: float) -> float:
    """Length of a crop mark starting ``start_mm`` beyond a trim line that lies ``room_mm`` from
    the paper's edge: up to ``CROP_MARK_LENGTH_MM``, ending at the printer's margin
    (``PRINTER_MARGIN_MM``) when at least ``MIN_SAFE_CROP_MARK_MM`` fits before it, else
    ending at the paper's edge at the latest."""
    printable_mm = room_mm - start_mm - PRINTER_MARGIN_MM
    if printable_mm >= MIN_SAFE_CROP_MARK_MM - 1e-9:
        return min(CROP_MARK_LENGTH_MM, printable_mm)
    return min(CROP_MARK_LENGTH_MM, room_mm - start_mm)


@dataclass(frozen=True)
class Rect:
    """A rectangle in millimetres from the page's top-left corner."""

    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float


@dataclass(frozen=True)
class CropMark:
    """A crop-mark line from (x1_mm, y1_mm) to (x2_mm, y2_mm), page coordinates."""

    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float


@dataclass(frozen=True)
class CardGrid:
    """A grid of ``cols`` x ``rows`` cards of ``card_w_mm`` x ``card_h_mm`` on ``paper``, sharing
    their cut lines, vertically centred; subclasses place it across the page."""

    paper: Paper
    card_w_mm: float
    card_h_mm: float
    cols: int
    rows: int
    bleed_mm: float

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def grid_x_mm(self) -> float:
        """Left edge of the trim grid (centred on the page)."""
        return (self.paper.width_mm - self.cols * self.card_w_mm) / 2

    @property
    def grid_y_mm(self) -> float:
        return (self.paper.height_mm - self.rows * self.card_h_mm) / 2

    def trim(self, slot: int) -> Rect:
        """Trim box of the card in ``slot`` (0-based, row by row from the top left)."""
        row, col = divmod(slot, self.cols)
        return Rect(self.grid_x_mm + col * self.card_w_mm, self.grid_y_mm + row * self.card_h_mm,
                    self.card_w_mm, self.card_h_mm)

    def bleed_box(self, slot: int) -> Rect:
        """Where the card's artwork may print: its trim, plus the bleed on sides at the grid's edge.

        Inner sides stop at the trim because the neighbour's trim starts there.
        """
        row, col = divmod(slot, self.cols)
        t = self.trim(slot)
        left = self.bleed_mm if col == 0 else 0
        right = self.bleed_mm if col == self.cols - 1 else 0
        top = self.bleed_mm if row == 0 else 0
        bottom = self.bleed_mm if row == self.rows - 1 else 0
        return Rect(t.x_mm - left, t.y_mm - top, t.w_mm + left + right, t.h_mm + top + bottom)

    def crop_marks(self) -> list[CropMark]:
        raise NotImplementedError

    def ink_boxes(self) -> list[Rect]:
        """Every card's bleed box on a full sheet (fronts, and backs where they share the page)."""
        return [self.bleed_box(slot) for slot in range(self.per_sheet)]

    @property
    def ink_margin_mm(self) -> float:
        """The least distance from any ink on a full sheet (bleed boxes, crop-mark ends) to the
        paper's edge, in mm."""
        w, h = self.paper.width_mm, self.paper.height_mm
        near = [min(b.x_mm, b.y_mm, w - b.x_mm - b.w_mm, h - b.y_mm - b.h_mm) for b in self.ink_boxes()]
        for m in self.crop_marks():
            near += [min(x, y, w - x, h - y) for x, y in ((m.x1_mm, m.y1_mm), (m.x2_mm, m.y2_mm))]
        return min(near)


@dataclass(frozen=True)
class Imposition(CardGrid):
    """A card grid centred on ``paper``, backs on the following page.

    Raises ``ValueError`` (from :func:`impose`) when the grid plus bleed does not fit.
    """

    def back_trim(self, slot: int, flip: Flip) -> Rect:
        """Where the back of the card in ``slot`` goes on the following page.

        Long-edge flip (portrait sheet turned over its left/right edge) mirrors x; short-edge
        flip (turned over its top/bottom edge) mirrors y. Either way the back lands exactly
        behind its front.
        """
        t = self.trim(slot)
        if flip == "long":
            return Rect(self.paper.width_mm - t.x_mm - t.w_mm, t.y_mm, t.w_mm, t.h_mm)
        return Rect(t.x_mm, self.paper.height_mm - t.y_mm - t.h_mm, t.w_mm, t.h_mm)

    def back_slot(self, slot: int, flip: Flip) -> int:
        """Grid slot whose bleed box is used for the back of ``slot``."""
        row, col = divmod(slot, self.cols)
        if flip == "long":
            return row * self.cols + (self.cols - 1 - col)
        return (self.rows - 1 - row) * self.cols + col

    def crop_marks(self) -> list[CropMark]:
        """Crop marks in the margin around the grid, one pair per trim line.

        Each mark starts ``CROP_MARK_GAP_MM`` beyond the outer bleed and runs outward as
        :func:`crop_mark_length_mm` allows.
        """
        marks: list[CropMark] = []
        gx, gy = self.grid_x_mm, self.grid_y_mm
        gw, gh = self.cols * self.card_w_mm, self.rows * self.card_h_mm
        start = self.bleed_mm + CROP_MARK_GAP_MM
        top_len = crop_mark_length_mm(gy, start)
        side_len = crop_mark_length_mm(gx, start)
        for c in range(self.cols + 1):
            x = gx + c * self.card_w_mm
            marks.append(CropMark(x, gy - start, x, gy - start - top_len))
            marks.append(CropMark(x, gy + gh + start, x, gy + gh + start + top_len))
        for r in range(self.rows + 1):
            y = gy + r * self.card_h_mm
            marks.append(CropMark(gx - start, y, gx - start - side_len, y))
            marks.append(CropMark(gx + gw + start, y, gx + gw + start + side_len, y))
        return marks


MIN_CROP_MARK_MM = 1.5
"""A crop mark shorter than this is too small to cut by; such a grid is refused."""


def impose(paper: Paper, card_w_mm: float, card_h_mm: float, bleed_mm: float,
           cols: int = 3, rows: int = 3) -> Imposition:
    """A centred ``cols`` x ``rows`` grid of cards on ``paper``.

    Raises ``ValueError`` naming the sizes if the grid, its bleed and crop marks of at least
    ``MIN_CROP_MARK_MM`` do not fit on the paper.
    """
    imp = Imposition(paper, card_w_mm, card_h_mm, cols, rows, bleed_mm)
    need = bleed_mm + CROP_MARK_GAP_MM + MIN_CROP_MARK_MM
    if imp.grid_x_mm < need or imp.grid_y_mm < need:
        raise ValueError(
            f"{cols} x {rows} cards of {card_w_mm} x {card_h_mm} mm with {bleed_mm} mm bleed and crop marks "
            f"do not fit on {paper.name} ({paper.width_mm} x {paper.height_mm} mm)")
    return imp


def _fit(space_mm: float, card_mm: float) -> int:
    # The epsilon keeps an exact fit from being lost to floating-point rounding.
    return max(0, math.floor((space_mm + 1e-9) / card_mm))


def _margin_mm(bleed_mm: float, paper: Paper) -> float:
    """Least room between a grid's trim and the paper edge: bleed, gap and a usable crop mark,
    plus the printer's margin if the paper asks for ``safe_margins``."""
    if paper.safe_margins:
        return PRINTER_MARGIN_MM + bleed_mm + CROP_MARK_GAP_MM + MIN_SAFE_CROP_MARK_MM
    return bleed_mm + CROP_MARK_GAP_MM + MIN_CROP_MARK_MM


def impose_most(paper: Paper, card_w_mm: float, card_h_mm: float, bleed_mm: float,
                keep_clear: Sequence[Rect] = (), trims_within: Rect | None = None) -> Imposition:
    """The centred grid with the most portrait cards that fits ``paper`` (portrait) with bleed
    and crop marks of at least ``MIN_CROP_MARK_MM``, columns and rows each maximised; with
    ``paper.safe_margins``, all of it at least ``PRINTER_MARGIN_MM`` from every edge.

    ``keep_clear``: areas no card's bleed may touch, and ``trims_within``: the area every trim
    must lie in (both e.g. for print-then-cut registration marks); with either, the grid is the
    one with the most cards that keeps to them.

    Raises ``ValueError`` naming the sizes if not even one card fits.
    """
    margin = _margin_mm(bleed_mm, paper)
    cols = max(_fit(paper.width_mm - 2 * margin, card_w_mm), 1)
    rows = max(_fit(paper.height_mm - 2 * margin, card_h_mm), 1)
    if not keep_clear and trims_within is None:
        return impose(paper, card_w_mm, card_h_mm, bleed_mm, cols, rows)
    grids = sorted(((c, r) for c in range(cols, 0, -1) for r in range(rows, 0, -1)), key=lambda g: -g[0] * g[1])
    for c, r in grids:
        imp = impose(paper, card_w_mm, card_h_mm, bleed_mm, c, r)
        slots = range(imp.per_sheet)
        if trims_within is not None and not all(_inside(imp.trim(s), trims_within) for s in slots):
            continue
        if not any(_overlap(imp.bleed_box(s), k) for s in slots for k in keep_clear):
            return imp
    raise ValueError(f"not one card of {card_w_mm} x {card_h_mm} mm fits on {paper.name} clear of the "
                     "registration marks")


def _inside(r: Rect, area: Rect) -> bool:
    return (r.x_mm >= area.x_mm and r.y_mm >= area.y_mm and r.x_mm + r.w_mm <= area.x_mm + area.w_mm
            and r.y_mm + r.h_mm <= area.y_mm + area.h_mm)


def _overlap(a: Rect, b: Rect) -> bool:
    return (a.x_mm < b.x_mm + b.w_mm and b.x_mm < a.x_mm + a.w_mm
            and a.y_mm < b.y_mm + b.h_mm and b.y_mm < a.y_mm + a.h_mm)


@dataclass(frozen=True)
class FoldImposition(CardGrid):
    """Fold-over pairs on one page, for printers without duplex.

    The fold line runs down the middle of the page (``fold_x_mm``). Fronts form a grid of
    ``cols`` x ``rows`` on the left half, their trims ending ``bleed_mm`` before the fold so
    the front's and the back's bleed meet on it; each back sits at its front's mirror image
    across the fold, so folding the sheet along the line puts every back behind its front
    (as a long-edge duplex flip would). Crop marks lie outside both grids.
    """

    @property
    def fold_x_mm(self) -> float:
        return self.paper.width_mm / 2

    @property
    def grid_x_mm(self) -> float:
        """Left edge of the fronts' trim grid."""
        return self.fold_x_mm - self.bleed_mm - self.cols * self.card_w_mm

    def _mirror(self, r: Rect) -> Rect:
        return Rect(self.paper.width_mm - r.x_mm - r.w_mm, r.y_mm, r.w_mm, r.h_mm)

    def back_trim(self, slot: int) -> Rect:
        """Trim box of the back of ``slot``: the front's trim mirrored across the fold line."""
        return self._mirror(self.trim(slot))

    def back_bleed_box(self, slot: int) -> Rect:
        return self._mirror(self.bleed_box(slot))

    def ink_boxes(self) -> list[Rect]:
        return super().ink_boxes() + [self.back_bleed_box(slot) for slot in range(self.per_sheet)]

    def crop_marks(self) -> list[CropMark]:
        """Crop marks above and below every vertical trim line of both halves, and left of the
        fronts and right of the backs for every horizontal one; none in the fold gutter."""
        marks: list[CropMark] = []
        w = self.paper.width_mm
        gx, gy = self.grid_x_mm, self.grid_y_mm
        gh = self.rows * self.card_h_mm
        start = self.bleed_mm + CROP_MARK_GAP_MM
        top_len = crop_mark_length_mm(gy, start)
        side_len = crop_mark_length_mm(gx, start)
        for c in range(self.cols + 1):
            for x in (gx + c * self.card_w_mm, w - gx - c * self.card_w_mm):
                marks.append(CropMark(x, gy - start, x, gy - start - top_len))
                marks.append(CropMark(x, gy + gh + start, x, gy + gh + start + top_len))
        for r in range(self.rows + 1):
            y = gy + r * self.card_h_mm
            marks.append(CropMark(gx - start, y, gx - start - side_len, y))
            marks.append(CropMark(w - gx + start, y, w - gx + start + side_len, y))
        return marks


def impose_fold(paper: Paper, card_w_mm: float, card_h_mm: float, bleed_mm: float) -> FoldImposition:
    """Fold-over pairs of portrait cards on ``paper``, as many as fit, the sheet portrait or
    landscape, whichever holds more pairs (portrait on a tie).

    Raises ``ValueError`` naming the sizes if not even one pair fits.
    """
    margin = _margin_mm(bleed_mm, paper)
    best: FoldImposition | None = None
    for sheet in (paper, paper.turned()):
        cols = _fit(sheet.width_mm / 2 - bleed_mm - margin, card_w_mm)
        rows = _fit(sheet.height_mm - 2 * margin, card_h_mm)
        if cols * rows and (best is None or cols * rows > best.per_sheet):
            best = FoldImposition(sheet, card_w_mm, card_h_mm, cols, rows, bleed_mm)
    if best is None:
        raise ValueError(f"a fold-over pair of {card_w_mm} x {card_h_mm} mm cards with {bleed_mm} mm bleed and "
                         f"crop marks does not fit on {paper.name} ({paper.width_mm} x {paper.height_mm} mm)")
    return best


def _bounds(rects: Sequence[Rect]) -> Rect:
    x0, y0 = min(r.x_mm for r in rects), min(r.y_mm for r in rects)
    x1, y1 = max(r.x_mm + r.w_mm for r in rects), max(r.y_mm + r.h_mm for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)


def imposed_boxes(imp: Imposition | FoldImposition,
                  back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> tuple[Rect, Rect]:
    """``(trim, bleed)``: the smallest rectangles holding every card's trim, and every card's
    trim plus bleed, of a full sheet (fronts, and backs where they land: mirrored, or across
    the fold), on the page in mm. ``back_offset_mm`` (right, down) moves the backs as the build
    does, so one TrimBox and BleedBox serve both pages of a duplex sheet. A print shop checks
    a sheet's bleed against these boxes.
    """
    trims = [imp.trim(slot) for slot in range(imp.per_sheet)]
    bleeds = list(imp.ink_boxes())
    if isinstance(imp, FoldImposition):
        trims += [imp.back_trim(slot) for slot in range(imp.per_sheet)]
    else:
        dx, dy = back_offset_mm
        for flip in ("long", "short"):
            for slot in range(imp.per_sheet):
                t = imp.back_trim(slot, flip)
                b = imp.bleed_box(imp.back_slot(slot, flip))
                trims.append(Rect(t.x_mm + dx, t.y_mm + dy, t.w_mm, t.h_mm))
                bleeds.append(Rect(b.x_mm + dx, b.y_mm + dy, b.w_mm, b.h_mm))
    trim = _bounds(trims)
    return trim, _bounds(bleeds + [trim])


def margin_note(imp: Imposition | FoldImposition) -> str | None:
    """A sentence for the player when ``imp`` puts ink within ``PRINTER_MARGIN_MM`` of the
    paper's edge (crop marks a laser printer may cut off), naming the ways out: the other
    common paper (Letter <-> A4) and ``--safe-margins`` (fewer cards per sheet), with the cards
    per sheet each gives. ``None`` when every mark and bleed keeps that margin.
    """
    near_mm = imp.ink_margin_mm
    if near_mm >= PRINTER_MARGIN_MM - 1e-6:
        return None
    fold = isinstance(imp, FoldImposition)
    what = "fold-over pairs" if fold else "cards"
    paper = imp.paper if not (fold and imp.paper.landscape) else imp.paper.turned()
    size = (imp.card_w_mm, imp.card_h_mm, imp.bleed_mm)
    plan = impose_fold if fold else impose_most

    def fits(p: Paper) -> int:
        try:
            return plan(replace(p, safe_margins=True), *size).per_sheet
        except ValueError:
            return 0

    ways = []
    other = {"letter": "a4", "a4": "letter"}.get(paper.name)
    if other and fits(PAPERS[other]):
        ways.append(f"--paper {other} ({fits(PAPERS[other])} {what} per {PAPERS[other].label} sheet)")
    if fits(paper):
        ways.append(f"--safe-margins ({fits(paper)} {what} per {paper.label or paper.name} sheet)")
    label = paper.label or paper.name
    note = (f"On {label}, {imp.per_sheet} {what} per sheet ({imp.cols} x {imp.rows}) bring the bleed and "
            f"crop marks to {max(near_mm, 0):.1f} mm from the paper's edge, inside the outer "
            f"{PRINTER_MARGIN_MM:g} mm that most laser printers leave blank: some crop marks may not print.")
    if ways:
        note += f" To keep every mark {PRINTER_MARGIN_MM:g} mm in, use " + " or ".join(ways) + "."
    return note
