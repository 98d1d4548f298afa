"""The Carpe Diem score pad: one column per player, a row per scoring card of every scoring
period (each with a penalty box to tick when the card is not met), the final scoring lines
and the total.

Counts come from the card database's ``tables.yaml`` through the template
(``card_data/games/carpe_diem/templates/scorepad.yaml``, format in ``templates/BOARDS.md``): the number of
scoring periods (``tables.phases.count``; summary, Turn Structure), the players
(``tables.starting_vp``; 2018 rulebook, Set-up details) and the penalty
(``tables.unmet_card_penalty.vp``; summary, Scoring / Victory Conditions).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from printkit.components.tiling import PAGE_MARGIN_MM
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.templating.layout import LayoutError
from printkit.sheets.prepress.paper import PRINTER_MARGIN_MM, Paper
from printkit.sheets.render import RGB, DocInfo, PageDrawer, PdfOutput, new_canvas
from printkit.sheets.templating.sheet_templates import draw_text, evaluate, expand, load_spec

GRID_STROKE_PT = 0.5
TOTAL_STROKE_PT = 1.2
PENALTY_BOX_STROKE_PT = 0.8
"""Stroke of the penalty tick boxes (tests find them by it)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Count = Annotated[int, Field(ge=1, le=12)] | str
"""A number, or a Jinja2 expression over the card database giving one."""


class ScorePadSpec(_Strict):
    """``scorepad.yaml``. Texts are Jinja2 over the template context; ``period_label`` also
    gets ``period`` and ``card`` (1-based). ``players``, ``periods`` and ``cards_per_period``
    are numbers or Jinja2 expressions (e.g. ``tables.phases.count``)."""

    title: str
    intro: str = ""
    intro_h_mm: Annotated[float, Field(ge=0)] = 10
    players: Count
    periods: Count
    cards_per_period: Count
    player_label: str = "Player {{ player }}"
    start_label: str
    period_label: str
    penalty_label: str
    final_lines: list[str] = Field(min_length=1)
    total_label: str
    label_w_mm: Annotated[float, Field(gt=10)] = 60
    player_w_mm: Annotated[float, Field(gt=10)] = 30
    name_row_h_mm: Annotated[float, Field(ge=5)] = 10
    row_h_mm: Annotated[float, Field(ge=5)] = 8
    box_mm: Annotated[float, Field(ge=3)] = 5
    period_fill: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] = "#eef1e6"


def _count(spec: ScorePadSpec, name: str, context: dict, path: Path, lines) -> int:
    value = getattr(spec, name)
    if isinstance(value, str):
        value = evaluate(value, context, path, lines.line_for((name,)), name)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 12:
        raise LayoutError(str(path), lines.line_for((name,)), name,
                          f"must give a whole number from 1 to 12, got {value!r}")
    return value


FREE_AREA_GAP_MM = 4.0
"""Space between the pad and what shares its first page."""


def _size_mm(spec: ScorePadSpec, players: int, periods: int, cards: int) -> tuple[float, float]:
    """The pad's ``(width, height)`` in mm, title and introduction included."""
    n_rows = 1 + periods * cards + len(spec.final_lines) + 1
    return (spec.label_w_mm + players * spec.player_w_mm,
            12 + spec.intro_h_mm + spec.name_row_h_mm + n_rows * spec.row_h_mm)


def scorepad_free_area(path: Path, context: dict, paper: Paper) -> Rect:
    """The part of the pad's first page left blank below the pad (page mm), up to the printer's
    margin (``PRINTER_MARGIN_MM``): room for a game's single cards. Raises :class:`LayoutError`
    like :func:`render_scorepad`."""
    spec, lines = load_spec(path, ScorePadSpec)
    counts = [_count(spec, name, context, path, lines) for name in ("players", "periods", "cards_per_period")]
    _, height = _size_mm(spec, *counts)
    top = PAGE_MARGIN_MM + height + FREE_AREA_GAP_MM
    return Rect(PRINTER_MARGIN_MM, top, paper.width_mm - 2 * PRINTER_MARGIN_MM,
                max(0.0, paper.height_mm - PRINTER_MARGIN_MM - top))


def render_scorepad(path: Path, context: dict, paper: Paper, copies: int = 1, output: PdfOutput = RGB,
                    first_page_extra: Callable[[PageDrawer], None] | None = None) -> bytes:
    """``copies`` identical score pad pages (PDF bytes, portrait ``paper``).

    ``first_page_extra(drawer)`` also draws on the first page (in :func:`scorepad_free_area`).
    Raises :class:`LayoutError` for a broken template, text that does not fit, or a pad larger
    than the paper within ``PAGE_MARGIN_MM``; ``ValueError`` if ``copies`` < 1.
    """
    if copies < 1:
        raise ValueError(f"score pad copies must be at least 1, got {copies}")
    spec, lines = load_spec(path, ScorePadSpec)
    players = _count(spec, "players", context, path, lines)
    periods = _count(spec, "periods", context, path, lines)
    cards = _count(spec, "cards_per_period", context, path, lines)
    m = PAGE_MARGIN_MM
    width, height = _size_mm(spec, players, periods, cards)
    if width > paper.width_mm - 2 * m or height > paper.height_mm - 2 * m:
        raise LayoutError(str(path), 1, "-", f"the pad is {width:g} x {height:g} mm; {paper.name} leaves "
                                             f"{paper.width_mm - 2 * m:g} x {paper.height_mm - 2 * m:g} mm")

    def text(source: str, loc: tuple, **extra) -> str:
        return expand(source, {**context, **extra}, path, lines.line_for(loc), ".".join(map(str, loc))).strip()

    rows: list[_Row] = [_Row(text(spec.start_label, ("start_label",)), "plain", ("start_label",))]
    for period in range(1, periods + 1):
        for card in range(1, cards + 1):
            rows.append(_Row(text(spec.period_label, ("period_label",), period=period, card=card), "card",
                             ("period_label",)))
    rows += [_Row(text(line, ("final_lines", i)), "plain", ("final_lines", i))
             for i, line in enumerate(spec.final_lines)]
    rows.append(_Row(text(spec.total_label, ("total_label",)), "total", ("total_label",)))
    penalty = text(spec.penalty_label, ("penalty_label",))
    title = text(spec.title, ("title",))
    intro = text(spec.intro, ("intro",)) if spec.intro.strip() else ""
    heads = [text(spec.player_label, ("player_label",), player=p) for p in range(1, players + 1)]

    buf = io.BytesIO()
    canvas = new_canvas(buf, paper.width_mm, paper.height_mm, DocInfo.for_game(context["game"], title), output)
    drawer = PageDrawer(canvas, paper.height_mm)
    x0 = (paper.width_mm - width) / 2
    for copy in range(copies):
        try:
            _page(drawer, spec, x0, width, title, intro, heads, rows, penalty, cards)
        except _DoesNotFit as exc:
            where = ".".join(map(str, exc.loc))
            raise LayoutError(str(path), lines.line_for(exc.loc), where, exc.message) from None
        if copy == 0 and first_page_extra is not None:
            first_page_extra(drawer)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


@dataclass(frozen=True)
class _Row:
    """One row of the pad: its label, ``kind`` (``plain``, ``card`` with penalty boxes, ``total``)
    and where in the template its label comes from."""

    label: str
    kind: str
    loc: tuple


class _DoesNotFit(Exception):
    def __init__(self, loc: tuple, message: str):
        self.loc, self.message = loc, message


def _fit(drawer: PageDrawer, loc: tuple, text: str, box: Rect, size_pt: float, **style) -> None:
    try:
        draw_text(drawer, text, box, size_pt, **style)
    except ValueError as exc:
        raise _DoesNotFit(loc, str(exc)) from None


def _page(drawer: PageDrawer, spec: ScorePadSpec, x0: float, width: float, title: str, intro: str,
          heads: list[str], rows: list[_Row], penalty: str, cards: int) -> None:
    m = PAGE_MARGIN_MM
    _fit(drawer, ("title",), title, Rect(x0, m, width, 10), 14, font="bold")
    y = m + 12
    if intro:
        _fit(drawer, ("intro",), intro, Rect(x0, y, width, spec.intro_h_mm - 1), 8)
    y += spec.intro_h_mm
    drawer.rect(x0, y, spec.label_w_mm, spec.name_row_h_mm, None, "#000000", GRID_STROKE_PT)
    for p, head in enumerate(heads):
        x = x0 + spec.label_w_mm + p * spec.player_w_mm
        drawer.rect(x, y, spec.player_w_mm, spec.name_row_h_mm, None, "#000000", GRID_STROKE_PT)
        _fit(drawer, ("player_label",), head, Rect(x + 1, y + 0.5, spec.player_w_mm - 2, 3.5), 6.5, color="#555555")
    y += spec.name_row_h_mm
    card_row = 0
    for label, kind, loc in ((r.label, r.kind, r.loc) for r in rows):
        h = spec.row_h_mm
        fill = spec.period_fill if kind == "card" and (card_row // cards) % 2 == 0 else None
        stroke_pt = TOTAL_STROKE_PT if kind == "total" else GRID_STROKE_PT
        drawer.rect(x0, y, spec.label_w_mm, h, fill, "#000000", stroke_pt)
        _fit(drawer, loc, label, Rect(x0 + 1.5, y + 0.5, spec.label_w_mm - 3, h - 1), 8,
                  font="bold" if kind == "total" else "regular", valign="middle")
        for p in range(len(heads)):
            x = x0 + spec.label_w_mm + p * spec.player_w_mm
            drawer.rect(x, y, spec.player_w_mm, h, fill, "#000000", stroke_pt)
            if kind == "card":
                b = spec.box_mm
                bx, by = x + spec.player_w_mm - b - 1.5, y + (h - b) / 2
                drawer.rect(bx, by, b, b, "#ffffff", "#000000", PENALTY_BOX_STROKE_PT)
                _fit(drawer, ("penalty_label",), penalty, Rect(bx - 9, y + 0.5, 8.5, h - 1), 7, align="right",
                     valign="middle")
        if kind == "card":
            card_row += 1
        y += h
