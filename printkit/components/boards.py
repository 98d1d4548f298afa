"""Boards, mats, tracking sheets, tokens and score pads: everything a game needs besides its cards.

:func:`render_extras` is what ``printkit build`` calls for each game. It reads the game's
templates (``<game>/templates/``, format in ``templates/BOARDS.md``):

- ``board-<name>.yaml`` -> ``<name>.pdf``: a board or mat (a layout template whose ``box``
  region ``board`` gives its size), tiled across the paper with an assembly page
  (:mod:`printkit.components.tiling`);
- ``sheet-<name>.yaml`` -> ``<name>.pdf``: a one-page form to fill in with a pen (a tracking sheet);
- ``token-*.yaml`` -> ``tokens.pdf``: punch-out token sheets, all of a game's tokens packed
  together (:mod:`printkit.components.tokens`);
- ``scorepad.yaml`` -> ``scorepad.pdf``: score pad sheets (:mod:`printkit.components.scorepad`).

Single cards (:class:`~printkit.components.packing.LooseCard`, e.g. Carpe Diem's one fountain
card) print as fold-over pairs in the blank part of the score pad's first page when they fit
there, else on the token sheet (``single-cards.pdf`` for a game without tokens).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from card_data.loader import Game
from card_data.project.project_folders import game_templates_dir
from card_data.reading.yaml_source import YamlSyntaxError, load_yaml
from printkit.components.packing import LooseCard, draw_fold_pair, pack_into_area
from printkit.components.scorepad import render_scorepad, scorepad_free_area
from printkit.components.tiling import PAGE_MARGIN_MM, render_tiled
from printkit.components.tokens import render_tokens
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.templating.layout import (
    BoxRegion,
    Face,
    FittedText,
    Image,
    Layout,
    LayoutError,
    QrCode,
    load_layout,
    prepare_face,
)
from printkit.sheets.prepress.paper import Paper
from printkit.sheets.render import RGB, DocInfo, PageDrawer, PdfOutput, new_canvas
from printkit.sheets.templating.sheet_templates import (
    draw_text,
    expand,
    load_spec,
    template_context,
)

BOARD_REGION = "board"
"""The ``box`` region at (0, 0) whose size is the board's size."""
TITLE_REGION = "title"
"""The ``text`` region naming the board; repeated in piece labels and on the assembly page."""
NOTE_REGION = "note"
"""Optional ``text`` region repeated on the assembly page (e.g. how many copies to print)."""
SPACE_PREFIX = "space-"
"""``box`` regions named ``space-...`` are card spaces: each must hold a card of the game's size."""


@dataclass(frozen=True)
class LoosePlacement:
    """Where a game's single cards print: ``file_name`` (``scorepad.pdf``, ``tokens.pdf`` or
    ``single-cards.pdf``) and, on the score pad, the pad's free ``area`` and the
    ``placements`` packed into it (``None`` elsewhere: the token sheet packs them itself)."""

    file_name: str
    area: Rect | None = None
    placements: list | None = None


def place_loose_cards(game: Game, paper: Paper, layouts_dir: Path,
                      loose_cards: Sequence[LooseCard]) -> LoosePlacement | None:
    """Decide where ``loose_cards`` print for ``game`` (``None`` if there are none): in the
    blank part of the score pad's first page when they all fit there, else on the token sheet
    (``single-cards.pdf`` for a game without token templates). Pure: the same decision
    :func:`render_extras` draws, and what the print-this index reports.
    Raises :class:`LayoutError` for a broken score pad template."""
    if not loose_cards:
        return None
    folder = game_templates_dir(game.folder, layouts_dir)
    scorepad = folder / "scorepad.yaml"
    if scorepad.is_file():
        area = scorepad_free_area(scorepad, template_context(game), paper)
        placements = pack_into_area(list(loose_cards), area) if area is not None else None
        if placements is not None:
            return LoosePlacement("scorepad.pdf", area, placements)
    return LoosePlacement("tokens.pdf" if any(folder.glob("token-*.yaml")) else "single-cards.pdf")


def render_extras(game: Game, paper: Paper, layouts_dir: Path, scorepad_copies: int = 1,
                  output: PdfOutput = RGB, loose_cards: Sequence[LooseCard] = ()) -> dict[str, bytes]:
    """Every board, sheet, token sheet and score pad of ``game`` as ``{file name: PDF bytes}``
    (e.g. ``{"battlefield-lane.pdf": ..., "tokens.pdf": ...}``), from the game's templates
    folder for ``layouts_dir`` (:func:`card_data.project.project_folders.game_templates_dir`); a game
    without such templates gives ``{}``.

    ``paper``: the sheet size; boards larger than it are tiled. ``scorepad_copies``: pages of
    score pad (at least 1). ``output``: RGB, CMYK or PDF/X-4 (see :class:`PdfOutput`). ``loose_cards``: single cards to
    print as fold-over pairs where :func:`place_loose_cards` puts them. Output is
    byte-identical for identical input.
    Raises :class:`LayoutError` (file, line, field) for a broken template, text that does not
    fit, a card space smaller than the game's card, or a sheet that does not fit the paper.
    Raises ``ValueError`` if ``scorepad_copies`` < 1.
    """
    folder = game_templates_dir(game.folder, layouts_dir)
    context = template_context(game)
    out: dict[str, bytes] = {}
    for path in sorted(folder.glob("board-*.yaml")):
        out[f"{path.stem.removeprefix('board-')}.pdf"] = render_board(path, game, context, paper, output)
    for path in sorted(folder.glob("sheet-*.yaml")):
        out[f"{path.stem.removeprefix('sheet-')}.pdf"] = render_sheet(path, context, paper, output)
    token_paths = sorted(folder.glob("token-*.yaml"))
    loose = list(loose_cards)
    placed = place_loose_cards(game, paper, layouts_dir, loose)
    scorepad = folder / "scorepad.yaml"
    if scorepad.is_file():
        extra = None
        if placed is not None and placed.placements is not None:
            pad_cards, loose, area = loose, [], placed.area

            def extra(drawer: PageDrawer) -> None:
                for pl in placed.placements:
                    draw_fold_pair(drawer, pad_cards[pl.index], area.x_mm + pl.x_mm, area.y_mm + pl.y_mm, pl.turned)

        out["scorepad.pdf"] = render_scorepad(scorepad, context, paper, scorepad_copies, output, extra)
    if token_paths or loose:
        name = "tokens.pdf" if token_paths else "single-cards.pdf"
        out[name] = render_tokens(token_paths, context, paper, output, loose)
    return out


# ---- boards and mats ---------------------------------------------------------------------------

def _board_size(path: Path) -> tuple[float, float]:
    """The ``board`` region's ``w_mm`` x ``h_mm``, read before the layout can be checked against it."""
    try:
        data, lines = load_yaml(path)
    except YamlSyntaxError as exc:
        raise LayoutError(str(path), exc.line, "yaml", exc.message) from None
    except OSError as exc:
        raise LayoutError(str(path), 1, "file", f"cannot read board template: {exc.strerror}") from None
    regions = data.get("regions") if isinstance(data, dict) else None
    for i, r in enumerate(regions if isinstance(regions, list) else []):
        if isinstance(r, dict) and r.get("name") == BOARD_REGION:
            w, h = r.get("w_mm"), r.get("h_mm")
            if (r.get("kind") != "box" or r.get("x_mm") != 0 or r.get("y_mm") != 0
                    or not all(isinstance(v, (int, float)) and v > 0 for v in (w, h))):
                raise LayoutError(str(path), lines.line_for(("regions", i)), f"layout:{BOARD_REGION}",
                                  "the board region must be a box at x_mm 0, y_mm 0 with positive w_mm and h_mm")
            return float(w), float(h)
    raise LayoutError(str(path), lines.line_for(("regions",)), f"layout:{BOARD_REGION}",
                      f"a board template needs a box region named '{BOARD_REGION}' giving the board's size")


def load_board(path: Path, game: Game) -> Layout:
    """Load a board template and check its card spaces against the game's card size.

    Returns the :class:`Layout` (its trim is the board; no bleed). Raises :class:`LayoutError`
    for a missing ``board`` or ``title`` region, any problem :func:`load_layout` finds, or a
    ``space-*`` box that cannot hold a card (either way up).
    """
    w_mm, h_mm = _board_size(path)
    layout = load_layout(path, w_mm, h_mm, 0.0)
    names = {r.name: r for r in layout.spec.regions}
    if names.get(TITLE_REGION) is None or names[TITLE_REGION].kind != "text":
        raise LayoutError(str(path), 1, f"layout:{TITLE_REGION}", f"a board template needs a text region named "
                                                                 f"'{TITLE_REGION}'")
    card = game.info.card_size
    for r in layout.spec.regions:
        if r.name.startswith(SPACE_PREFIX):
            if not isinstance(r, BoxRegion):
                raise LayoutError(str(path), layout.region_line(r.name), f"layout:{r.name}",
                                  "a card space must be a box region")
            fits = ((r.w_mm >= card.width_mm and r.h_mm >= card.height_mm)
                    or (r.w_mm >= card.height_mm and r.h_mm >= card.width_mm))
            if not fits:
                raise LayoutError(str(path), layout.region_line(r.name), f"layout:{r.name}",
                                  f"card space {r.w_mm:g} x {r.h_mm:g} mm cannot hold a "
                                  f"{card.width_mm:g} x {card.height_mm:g} mm card")
    return layout


def _item_box(item: object) -> tuple[float, float, float, float]:
    """An evaluated item's extent in board mm: ``(x0, y0, x1, y1)``."""
    r = item.region if isinstance(item, (FittedText, Image, QrCode)) else item
    w = getattr(r, "size_mm", None) or r.w_mm
    h = getattr(r, "size_mm", None) or r.h_mm
    return min(r.x_mm, r.x_mm + w), min(r.y_mm, r.y_mm + h), max(r.x_mm, r.x_mm + w), max(r.y_mm, r.y_mm + h)


def _visible_part(face: Face, window: Rect) -> Face:
    """The face without items wholly outside ``window`` (board mm), so a piece's PDF holds
    only what can show on it."""
    keep = []
    for item in face.items:
        x0, y0, x1, y1 = _item_box(item)
        if (x1 >= window.x_mm and x0 <= window.x_mm + window.w_mm
                and y1 >= window.y_mm and y0 <= window.y_mm + window.h_mm):
            keep.append(item)
    return Face(face.layout, keep)


def render_board(path: Path, game: Game, context: dict, paper: Paper, output: PdfOutput = RGB) -> bytes:
    """A board template tiled onto ``paper``: assembly page, then the pieces (PDF bytes).

    Raises :class:`LayoutError` as :func:`load_board` and :func:`prepare_face` do.
    """
    layout = load_board(path, game)
    face = prepare_face(layout, context, game.folder, None)
    title = _plain(expand(layout.spec.regions[_index(layout, TITLE_REGION)].text, context, path,
                          layout.region_line(TITLE_REGION), f"layout:{TITLE_REGION}"))
    note = ""
    if NOTE_REGION in layout.region_lines and layout.spec.regions[_index(layout, NOTE_REGION)].kind == "text":
        note = _plain(expand(layout.spec.regions[_index(layout, NOTE_REGION)].text, context, path,
                             layout.region_line(NOTE_REGION), f"layout:{NOTE_REGION}"))
    board = next(r for r in layout.spec.regions if r.name == BOARD_REGION)

    def draw_board(drawer: PageDrawer, ox_mm: float, oy_mm: float, clip: Rect) -> None:
        window = Rect(clip.x_mm - ox_mm, clip.y_mm - oy_mm, clip.w_mm, clip.h_mm)
        drawer.face(_visible_part(face, window), Rect(ox_mm, oy_mm, board.w_mm, board.h_mm), clip)

    try:
        return render_tiled(title, note, board.w_mm, board.h_mm, draw_board, paper, output=output,
                            info=DocInfo.for_game(game.info, title))
    except ValueError as exc:
        raise LayoutError(str(path), layout.region_line(BOARD_REGION), f"layout:{BOARD_REGION}", str(exc)) from None


def _index(layout: Layout, name: str) -> int:
    return next(i for i, r in enumerate(layout.spec.regions) if r.name == name)


def _plain(text: str) -> str:
    """Template text as one line for a label: ``**bold**`` marks and line breaks dropped."""
    return " ".join(text.replace("**", "").split())


# ---- sheets: one-page forms -----------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SheetColumn(_Strict):
    """One column of a sheet's table: its ``label`` (Jinja2), width, optional ``group`` heading
    shared with neighbouring columns of the same group, and ``numbered`` (prints the row number)."""

    label: str
    w_mm: Annotated[float, Field(gt=0)]
    group: str | None = None
    numbered: bool = False


class SheetSpec(_Strict):
    """``sheet-<name>.yaml``: a title, an introduction, and one table per block (per player),
    each with a heading (Jinja2, ``block`` is 1, 2, ...), a header row and ``rows`` blank rows."""

    title: str
    intro: str = ""
    intro_h_mm: Annotated[float, Field(ge=0)] = 12
    blocks: Annotated[int, Field(ge=1, le=8)] = 1
    block_heading: str = ""
    rows: Annotated[int, Field(ge=1, le=60)]
    row_h_mm: Annotated[float, Field(ge=4, le=30)] = 7.5
    header_h_mm: Annotated[float, Field(ge=4, le=30)] = 12
    group_h_mm: Annotated[float, Field(ge=3, le=20)] = 6
    block_gap_mm: Annotated[float, Field(ge=0)] = 6
    header_fill: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] = "#e8e4dc"
    columns: list[SheetColumn] = Field(min_length=1)


SHEET_GRID_STROKE_PT = 0.5
HEADING_H_MM = 7.0
TITLE_H_MM = 10.0


def render_sheet(path: Path, context: dict, paper: Paper, output: PdfOutput = RGB) -> bytes:
    """A one-page form from a sheet template (PDF bytes, portrait ``paper``).

    Raises :class:`LayoutError` for a broken template, a label that does not fit its cell, or a
    table wider or taller than the paper within ``PAGE_MARGIN_MM``.
    """
    spec, lines = load_spec(path, SheetSpec)
    m = PAGE_MARGIN_MM
    table_w = sum(col.w_mm for col in spec.columns)
    if table_w > paper.width_mm - 2 * m:
        raise LayoutError(str(path), lines.line_for(("columns",)), "columns",
                          f"the columns are {table_w:g} mm wide; {paper.name} leaves {paper.width_mm - 2 * m:g} mm")
    grouped = any(col.group for col in spec.columns)
    block_h = HEADING_H_MM + (spec.group_h_mm if grouped else 0) + spec.header_h_mm + spec.rows * spec.row_h_mm
    total_h = TITLE_H_MM + spec.intro_h_mm + spec.blocks * block_h + (spec.blocks - 1) * spec.block_gap_mm
    if total_h > paper.height_mm - 2 * m:
        raise LayoutError(str(path), lines.line_for(("rows",)), "rows",
                          f"the sheet is {total_h:g} mm tall; {paper.name} leaves {paper.height_mm - 2 * m:g} mm")

    def text(source: str, loc: tuple, extra: dict | None = None) -> str:
        return expand(source, {**context, **(extra or {})}, path, lines.line_for(loc), ".".join(map(str, loc)))

    def put(source: str, loc: tuple, box: Rect, size_pt: float, extra: dict | None = None, **style) -> None:
        try:
            draw_text(drawer, text(source, loc, extra), box, size_pt, **style)
        except ValueError as exc:
            raise LayoutError(str(path), lines.line_for(loc), ".".join(map(str, loc)), str(exc)) from None

    buf = io.BytesIO()
    title = _plain(text(spec.title, ("title",)))
    canvas = new_canvas(buf, paper.width_mm, paper.height_mm, DocInfo.for_game(context["game"], title), output)
    drawer = PageDrawer(canvas, paper.height_mm)
    x0 = (paper.width_mm - table_w) / 2
    put(spec.title, ("title",), Rect(x0, m, table_w, TITLE_H_MM - 1), 14, font="bold")
    y = m + TITLE_H_MM
    if spec.intro.strip():
        put(spec.intro, ("intro",), Rect(x0, y, table_w, spec.intro_h_mm - 1), 8.5)
    y += spec.intro_h_mm
    for block in range(1, spec.blocks + 1):
        if spec.block_heading.strip():
            put(spec.block_heading, ("block_heading",), Rect(x0, y, table_w, HEADING_H_MM - 1), 10,
                {"block": block}, font="bold", valign="bottom")
        y += HEADING_H_MM
        if grouped:
            _group_row(drawer, spec, x0, y, put)
            y += spec.group_h_mm
        x = x0
        for i, col in enumerate(spec.columns):
            drawer.rect(x, y, col.w_mm, spec.header_h_mm, spec.header_fill, "#000000", SHEET_GRID_STROKE_PT)
            put(col.label, ("columns", i, "label"), Rect(x + 1, y + 0.8, col.w_mm - 2, spec.header_h_mm - 1.6), 7.5,
                font="bold", align="center", valign="middle")
            x += col.w_mm
        y += spec.header_h_mm
        for row in range(1, spec.rows + 1):
            x = x0
            for col in spec.columns:
                drawer.rect(x, y, col.w_mm, spec.row_h_mm, None, "#000000", SHEET_GRID_STROKE_PT)
                if col.numbered:
                    draw_text(drawer, str(row), Rect(x + 0.5, y + 0.5, col.w_mm - 1, spec.row_h_mm - 1), 8,
                              align="center", valign="middle")
                x += col.w_mm
            y += spec.row_h_mm
        y += spec.block_gap_mm
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _group_row(drawer: PageDrawer, spec: SheetSpec, x0: float, y: float, put) -> None:
    """Headings spanning runs of neighbouring columns that share a ``group``."""
    x, i = x0, 0
    cols = spec.columns
    while i < len(cols):
        j = i
        while j + 1 < len(cols) and cols[i].group and cols[j + 1].group == cols[i].group:
            j += 1
        w = sum(c.w_mm for c in cols[i:j + 1])
        if cols[i].group:
            drawer.rect(x, y, w, spec.group_h_mm, spec.header_fill, "#000000", SHEET_GRID_STROKE_PT)
            put(cols[i].group, ("columns", i, "group"), Rect(x + 1, y + 0.5, w - 2, spec.group_h_mm - 1), 7.5,
                font="bold", align="center", valign="middle")
        x += w
        i = j + 1
