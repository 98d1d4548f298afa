"""Packing a game's small components (tokens of any shape and size, single cards) onto as few
pages as possible, and drawing single cards as fold-over pairs.

:func:`pack_shelves` is a first-fit decreasing-height shelf packer: pieces, tallest first, go
into the first shelf (on any page) with room, else a new shelf on the first page with room,
else a new page. Dozens of pieces of two or three sizes pack within one shelf's height of the
optimum; no maintained packing library on PyPI is needed for that (``rectpack``, the usual
one, has had no release since 2021).

A single card (a back kind of only one or two cards, such as Carpe Diem's fountain card) would
otherwise take a duplex sheet of its own, two pages for one card. Here it becomes a
**fold-over pair**: its front and, across a dashed fold line along the card's short edge, its
back turned upside down, so that folding the pair and gluing it gives the card with its back
the right way up (as a long-edge duplex flip would). The pair has its own bleed and crop marks
and fits on a page shared with tokens or a score pad, turned a quarter turn if that fits better.

All lengths are millimetres from the page's top-left corner, y downward.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from card_data.loader import Game
from card_data.schema import Card
from printkit.sheets.prepress.imposition import CROP_MARK_GAP_MM, Rect
from printkit.sheets.templating.layout import Face
from printkit.sheets.render import CROP_MARK_STROKE_PT, PageDrawer
from printkit.sheets.templating.sheet_templates import draw_text
from printkit.sheets.units import pt_from_mm

PAIR_CROP_MARK_MM = 2.5
"""Crop marks around a fold-over pair: short, so the pair packs tightly, but easy to cut by."""
PAIR_LABEL_MM = 4.0
"""Height of the line above a pair saying what it is and how to make it."""
PIECE_CLEARANCE_MM = 2.0
"""Least space between two packed pieces, so each is a separate cut."""
FOLD_LINE_COLOUR = "#808080"
FOLD_LINE_STROKE_PT = 0.5
"""Thicker than a crop mark (0.25 pt), as on fold-over card sheets, so the two are never confused."""
FOLD_LINE_DASH_MM = (3.0, 2.0)


@dataclass(frozen=True)
class Placement:
    """Where piece ``index`` (of the list given to :func:`pack_shelves`) goes: ``page`` (from 0),
    its top-left corner (mm, relative to the packing area) and whether it is ``turned`` a quarter
    turn (its width and height swapped)."""

    index: int
    page: int
    x_mm: float
    y_mm: float
    turned: bool


@dataclass
class _Shelf:
    page: int
    y_mm: float
    h_mm: float
    used_w_mm: float = 0.0


def pack_shelves(sizes: Sequence[tuple[float, float]], area_w_mm: float, area_h_mm: float,
                 turnable: Sequence[bool] | None = None, max_pages: int | None = None) -> list[Placement] | None:
    """Place pieces of ``sizes`` (``(w_mm, h_mm)`` each, clearance included) in areas of
    ``area_w_mm`` x ``area_h_mm``, one area per page, on as few pages as the shelf method finds.

    ``turnable[i]``: piece ``i`` may be turned a quarter turn (it lies flat, its longer side
    across, when that fits). Pieces of equal height keep their order. Returns placements in the
    order of ``sizes``, or ``None`` if more than ``max_pages`` pages would be needed.
    Raises ``ValueError`` naming the piece if one does not fit an empty area either way up.
    """
    turnable = turnable or [False] * len(sizes)
    oriented: list[tuple[float, float, bool]] = []
    for i, (w, h) in enumerate(sizes):
        fits = w <= area_w_mm + 1e-9 and h <= area_h_mm + 1e-9
        fits_turned = turnable[i] and h <= area_w_mm + 1e-9 and w <= area_h_mm + 1e-9
        if fits_turned and (not fits or h > w):  # lying flat leaves taller room for the next shelves
            oriented.append((h, w, True))
        elif fits:
            oriented.append((w, h, False))
        else:
            raise ValueError(f"a {w:g} x {h:g} mm piece does not fit in {area_w_mm:g} x {area_h_mm:g} mm")
    order = sorted(range(len(sizes)), key=lambda i: -oriented[i][1])
    shelves: list[_Shelf] = []
    page_h: list[float] = []  # height used on each page
    out: dict[int, Placement] = {}
    for i in order:
        w, h, turned = oriented[i]
        shelf = next((s for s in shelves if h <= s.h_mm + 1e-9 and s.used_w_mm + w <= area_w_mm + 1e-9), None)
        if shelf is None:
            page = next((p for p, used in enumerate(page_h) if used + h <= area_h_mm + 1e-9), len(page_h))
            if page == len(page_h):
                if max_pages is not None and page >= max_pages:
                    return None
                page_h.append(0.0)
            shelf = _Shelf(page, page_h[page], h)
            page_h[page] += h
            shelves.append(shelf)
        out[i] = Placement(i, shelf.page, shelf.used_w_mm, shelf.y_mm, turned)
        shelf.used_w_mm += w
    return [out[i] for i in range(len(sizes))]


@dataclass(frozen=True)
class LooseCard:
    """A single card to print as a fold-over pair on a shared sheet: its ``front`` and ``back``
    faces, trim ``w_mm`` x ``h_mm``, ``bleed_mm``, and a ``label`` (e.g. "Carpe Diem – Fountain
    cards: Garden fountain") printed above the pair."""

    front: Face
    back: Face
    w_mm: float
    h_mm: float
    bleed_mm: float
    label: str


def pack_into_area(cards: Sequence[LooseCard], area: Rect) -> list[Placement] | None:
    """Placements (relative to ``area``'s top-left) of ``cards``' fold-over pairs in the one
    page area ``area`` (mm), or ``None`` if they do not all fit there."""
    sizes = [tuple(v + PIECE_CLEARANCE_MM for v in fold_pair_size_mm(c)) for c in cards]
    if not all(min(w, h) <= min(area.w_mm, area.h_mm) + PIECE_CLEARANCE_MM
               and max(w, h) <= max(area.w_mm, area.h_mm) + PIECE_CLEARANCE_MM for w, h in sizes):
        return None
    try:
        return pack_shelves(sizes, area.w_mm + PIECE_CLEARANCE_MM, area.h_mm + PIECE_CLEARANCE_MM,
                            [True] * len(cards), max_pages=1)
    except ValueError:
        return None


def _pair_margin_mm(card: LooseCard) -> float:
    """From a pair's outer trim to its box edge: bleed, gap and crop mark."""
    return card.bleed_mm + CROP_MARK_GAP_MM + PAIR_CROP_MARK_MM


def fold_pair_size_mm(card: LooseCard) -> tuple[float, float]:
    """``(w_mm, h_mm)`` of a fold-over pair as placed upright: label, crop marks, bleed, front
    above back (their bleeds meeting at the fold line)."""
    m = _pair_margin_mm(card)
    return card.w_mm + 2 * m, PAIR_LABEL_MM + 2 * m + 2 * card.h_mm + 2 * card.bleed_mm


def draw_fold_pair(drawer: PageDrawer, card: LooseCard, x_mm: float, y_mm: float, turned: bool) -> None:
    """Draw ``card`` as a fold-over pair in the box :func:`fold_pair_size_mm` gives, top-left at
    (``x_mm``, ``y_mm``) on the page; ``turned``: the whole box a quarter turn anticlockwise
    (as wide as it is tall upright; the label then runs up its left side)."""
    w, h = fold_pair_size_mm(card)
    c = drawer.c
    c.saveState()
    if turned:
        # The box's top edge goes to the page box's left, its left edge to the bottom.
        c.translate(pt_from_mm(x_mm + h), drawer._y_pt(y_mm + w))
        c.rotate(90)
    else:
        c.translate(pt_from_mm(x_mm), drawer._y_pt(y_mm + h))
    local = PageDrawer(c, h)
    draw_text(local, card.label, Rect(0, 0, w, PAIR_LABEL_MM - 0.5), 7, valign="bottom")
    with local.shifted(0, PAIR_LABEL_MM):
        _pair(local, card)
    c.restoreState()


def _pair(drawer: PageDrawer, card: LooseCard) -> None:
    """The pair in its own frame (origin at its box's top-left, below the label)."""
    m = _pair_margin_mm(card)
    b, cw, ch = card.bleed_mm, card.w_mm, card.h_mm
    front = Rect(m, m, cw, ch)
    fold_y = m + ch + b
    back = Rect(m, fold_y + b, cw, ch)
    drawer.face(card.front, front, Rect(m - b, m - b, cw + 2 * b, ch + 2 * b))
    c = drawer.c
    c.saveState()
    # Upside down about its own centre: folded over the short edge, the back then reads the
    # right way up when the card is turned over its long edge.
    cx, cy = pt_from_mm(back.x_mm + cw / 2), drawer._y_pt(back.y_mm + ch / 2)
    c.translate(cx, cy)
    c.rotate(180)
    c.translate(-cx, -cy)
    drawer.face(card.back, back, Rect(m - b, fold_y, cw + 2 * b, ch + b))
    c.restoreState()
    bottom = back.y_mm + ch
    start = b + CROP_MARK_GAP_MM
    for x in (m, m + cw):
        drawer.line(x, m - start, x, m - start - PAIR_CROP_MARK_MM, "#000000", CROP_MARK_STROKE_PT)
        drawer.line(x, bottom + start, x, bottom + start + PAIR_CROP_MARK_MM, "#000000", CROP_MARK_STROKE_PT)
    for y in (m, m + ch, back.y_mm, bottom):
        drawer.line(m - start, y, m - start - PAIR_CROP_MARK_MM, y, "#000000", CROP_MARK_STROKE_PT)
        drawer.line(m + cw + start, y, m + cw + start + PAIR_CROP_MARK_MM, y, "#000000", CROP_MARK_STROKE_PT)
    drawer.line(m - start - PAIR_CROP_MARK_MM, fold_y, m + cw + start + PAIR_CROP_MARK_MM, fold_y, FOLD_LINE_COLOUR,
                FOLD_LINE_STROKE_PT, FOLD_LINE_DASH_MM)


LOOSE_DECK_MAX_CARDS = 2
"""A deck (a back kind's print job) of this many cards or fewer prints as fold-over pairs on the
game's shared sheet instead of a duplex card sheet of its own."""


def loose_cards(game: Game, kind: str, cards: Sequence[Card], back: Face | None,
                front_of: Callable[[Card], Face | None], bleed_mm: float) -> list[LooseCard]:
    """``cards`` (all of back ``kind``) as :class:`LooseCard` pairs with ``back``. Every card's
    front is laid out with ``front_of`` (which reports its problems and gives ``None`` then);
    cards without a front, or all of them if ``back`` is ``None``, are left out."""
    size = game.info.card_size
    out = []
    for card in cards:
        front = front_of(card)
        if front is not None and back is not None:
            label = f"{getattr(card, 'title', card.id)} ({game.info.backs.get(kind, kind)}): cut out, fold, glue"
            out.append(LooseCard(front, back, size.width_mm, size.height_mm, bleed_mm, label))
    return out
