"""Punch-out token sheets: tokens as circles or squares with cut lines, their text from the card data.

A token template (``<game>/templates/token-*.yaml``, see ``templates/BOARDS.md``) gives the
shape and size and groups of tokens; each group's ``text``/``caption`` are Jinja2 over the
card database (``glossary``, ``cards``, ``tables``), optionally once per item of a
``for_each`` list. All of a game's tokens, whatever their shape and size, share its sheets
(:func:`printkit.components.packing.pack_shelves`, as few pages as the shelf packer finds),
within ``PAGE_MARGIN_MM``, ``gap_mm`` apart so every token is its own cut; single cards
(:class:`~printkit.components.packing.LooseCard`) join them as fold-over pairs. A template
with a ``back`` gives its tokens a back, printed on the page after their sheet where a long-edge
duplex flip puts it behind its front.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field
from reportlab.lib.colors import HexColor

from printkit.components.packing import (
    PIECE_CLEARANCE_MM,
    LooseCard,
    draw_fold_pair,
    fold_pair_size_mm,
    pack_shelves,
)
from printkit.components.tiling import PAGE_MARGIN_MM
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.templating.layout import LayoutError
from printkit.sheets.prepress.paper import Paper
from printkit.sheets.render import RGB, DocInfo, PageDrawer, PdfOutput, new_canvas
from printkit.sheets.templating.sheet_templates import draw_text, evaluate, expand, load_spec
from printkit.sheets.units import pt_from_mm

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]

TOKEN_CUT_STROKE_PT = 0.5
"""Stroke of a token's cut line (tests find tokens by it)."""
HEADER_H_MM = 14.0
TOKEN_BACK_BLEED_MM = 1.0
"""A token's back is printed this much larger than the token, so duplex drift leaves no white edge."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TokenGroup(_Strict):
    """Tokens of one design, or one design per item of ``for_each``.

    ``text``: the token's main text (Jinja2; ``item`` is the current ``for_each`` value).
    ``caption``: smaller text under it (Jinja2). ``for_each``: a Jinja2 expression giving a
    list. ``copies``: how many of each design, a number or a Jinja2 expression.
    """

    text: str
    caption: str = ""
    for_each: str | None = None
    copies: Annotated[int, Field(ge=1, le=200)] | str = 1
    fill: Colour | None = None


class TokenBack(_Strict):
    """A token's back (Jinja2 ``text``/``caption`` like the front's, ``item`` included), on the
    page after its sheet, behind its front when printed duplex with a long-edge flip."""

    text: str = ""
    caption: str = ""
    fill: Colour | None = None


class TokenSheetSpec(_Strict):
    """``token-*.yaml``: a sheet heading, the tokens' ``shape`` and ``size_mm`` (circle
    diameter or square side), colours, text sizes and the token groups."""

    title: str
    shape: Literal["circle", "square"]
    size_mm: Annotated[float, Field(ge=10, le=80)]
    gap_mm: Annotated[float, Field(ge=2, le=20)] = 3
    fill: Colour = "#ffffff"
    color: Colour = "#000000"
    text_size_pt: Annotated[float, Field(gt=0, le=60)] = 12
    caption_size_pt: Annotated[float, Field(gt=0, le=30)] = 6
    back: TokenBack | None = None
    tokens: list[TokenGroup] = Field(min_length=1)


@dataclass(frozen=True)
class Token:
    """One token to print: its main ``text``, ``caption`` and ``fill`` colour, and its
    ``back`` (another :class:`Token`) if it has one."""

    text: str
    caption: str
    fill: str
    back: Token | None = None


def resolve_tokens(path: Path, spec: TokenSheetSpec, lines, context: dict) -> list[Token]:
    """Every token the template asks for, copies included, in template order.

    Raises :class:`LayoutError` at the group's line if an expression fails, ``for_each`` is not
    a list, ``copies`` is not a positive whole number, or a token's text is empty.
    """
    out: list[Token] = []
    for i, group in enumerate(spec.tokens):
        loc = ("tokens", i)
        line = lines.line_for(loc)
        items = [None]
        if group.for_each is not None:
            items = evaluate(group.for_each, context, path, lines.line_for(loc + ("for_each",)), "for_each")
            if not isinstance(items, (list, tuple)):
                raise LayoutError(str(path), lines.line_for(loc + ("for_each",)), f"tokens.{i}.for_each",
                                  f"must give a list, got {type(items).__name__}")
        for item in items:
            ctx = {**context, "item": item}
            copies = group.copies
            if isinstance(copies, str):
                value = expand(copies, ctx, path, lines.line_for(loc + ("copies",)), f"tokens.{i}.copies").strip()
                if not value.isdigit() or int(value) < 1:
                    raise LayoutError(str(path), lines.line_for(loc + ("copies",)), f"tokens.{i}.copies",
                                      f"must give a whole number of at least 1, got {value!r}")
                copies = int(value)
            text = expand(group.text, ctx, path, lines.line_for(loc + ("text",)), f"tokens.{i}.text").strip()
            if not text:
                raise LayoutError(str(path), line, f"tokens.{i}.text", "a token's text is empty")
            caption = expand(group.caption, ctx, path, lines.line_for(loc + ("caption",)), f"tokens.{i}.caption")
            back = None
            if spec.back is not None:
                back = Token(expand(spec.back.text, ctx, path, lines.line_for(("back", "text")), "back.text").strip(),
                             expand(spec.back.caption, ctx, path, lines.line_for(("back", "caption")),
                                    "back.caption").strip(),
                             spec.back.fill or group.fill or spec.fill)
            out += [Token(text, caption.strip(), group.fill or spec.fill, back)] * copies
    return out


def token_text_boxes(size_mm: float) -> tuple[Rect, Rect]:
    """Where a token's text and caption go, relative to its top-left corner (mm).

    Both lie inside the circle inscribed in the token's square, so a circle and a square
    token show the same text.
    """
    d = size_mm
    return (Rect(0.11 * d, 0.25 * d, 0.78 * d, 0.34 * d), Rect(0.2 * d, 0.6 * d, 0.6 * d, 0.18 * d))


@dataclass(frozen=True)
class _TokenPiece:
    """A token and the template it comes from (for its shape, size, styles and error lines)."""

    path: Path
    lines: object
    spec: TokenSheetSpec
    token: Token


def render_tokens(paths: list[Path], context: dict, paper: Paper, output: PdfOutput = RGB,
                  loose_cards: Sequence[LooseCard] = ()) -> bytes:
    """One PDF of every token of the templates in ``paths`` and the ``loose_cards`` (as fold-over
    pairs), packed together onto as few pages of ``paper`` as the shelf packer finds. A page
    holding tokens with backs is followed by their backs page (long-edge flip).

    Raises :class:`LayoutError` for a broken template, text that does not fit its token, or a
    token or card larger than the paper.
    """
    buf = io.BytesIO()
    game = context["game"]
    canvas = new_canvas(buf, paper.width_mm, paper.height_mm, DocInfo.for_game(game, "tokens"), output)
    drawer = PageDrawer(canvas, paper.height_mm)
    pieces: list[_TokenPiece | LooseCard] = []
    titles: list[str] = []
    for path in paths:
        spec, lines = load_spec(path, TokenSheetSpec)
        tokens = resolve_tokens(path, spec, lines, context)
        titles.append(expand(spec.title, context, path, lines.line_for(("title",)), "title").strip())
        pieces += [_TokenPiece(path, lines, spec, t) for t in tokens]
    pieces += list(loose_cards)
    if not titles:
        titles.append(f"{game.title} – single cards")
    m = PAGE_MARGIN_MM
    avail_w, avail_h = paper.width_mm - 2 * m, paper.height_mm - 2 * m - HEADER_H_MM
    sizes = [_footprint(p) for p in pieces]
    try:
        # Each footprint ends in its own clearance; the area grows by the least one so that the
        # last piece of a row or column may end at the margin.
        placements = pack_shelves(sizes, avail_w + PIECE_CLEARANCE_MM, avail_h + PIECE_CLEARANCE_MM,
                                  [isinstance(p, LooseCard) for p in pieces])
    except ValueError as exc:
        big = next((p for p, (w, h) in zip(pieces, sizes)
                    if min(w, h) > min(avail_w, avail_h) + PIECE_CLEARANCE_MM
                    or max(w, h) > max(avail_w, avail_h) + PIECE_CLEARANCE_MM), None)
        if big is None:
            raise LayoutError(str(paths[0]) if paths else "<tokens>", 1, "tokens", str(exc)) from None
        if isinstance(big, LooseCard):
            raise LayoutError("<card>", 1, "card_size", f"a fold-over pair of {big.label} does not fit on "
                                                        f"{paper.name}") from None
        raise LayoutError(str(big.path), big.lines.line_for(("size_mm",)), "size_mm",
                          f"a {big.spec.size_mm:g} mm token does not fit on {paper.name}") from None
    pages = max(pl.page for pl in placements) + 1
    heading = "  ·  ".join(dict.fromkeys(titles)) + "  ·  cut along the solid outlines"
    if loose_cards:
        heading += "; fold single cards on the dashed line"
    for page in range(pages):
        on_page = [(pieces[pl.index], pl) for pl in placements if pl.page == page]
        # Centre the page's block of pieces across the page.
        used_w = max(pl.x_mm + (sizes[pl.index][1] if pl.turned else sizes[pl.index][0]) for _, pl in on_page)
        x0 = m + (avail_w + PIECE_CLEARANCE_MM - used_w) / 2
        y0 = m + HEADER_H_MM
        text = heading + (f"  ·  sheet {page + 1} of {pages}" if pages > 1 else "")
        draw_text(drawer, text, Rect(m, m, avail_w, HEADER_H_MM - 4), 11, font="bold")
        for piece, pl in on_page:
            if isinstance(piece, LooseCard):
                draw_fold_pair(drawer, piece, x0 + pl.x_mm, y0 + pl.y_mm, pl.turned)
            else:
                _draw_token(drawer, piece, piece.token, x0 + pl.x_mm, y0 + pl.y_mm, outline=True)
        drawer.c.showPage()
        backed = [(piece, pl) for piece, pl in on_page if isinstance(piece, _TokenPiece) and piece.token.back]
        if backed:
            note = f"Backs of sheet {page + 1}: print on its reverse, flipping on the long edge"
            draw_text(drawer, note, Rect(m, m, avail_w, HEADER_H_MM - 4), 9)
            for piece, pl in backed:
                # A long-edge flip mirrors a portrait sheet left to right.
                x = paper.width_mm - (x0 + pl.x_mm) - piece.spec.size_mm
                _draw_token(drawer, piece, piece.token.back, x, y0 + pl.y_mm, outline=False)
            drawer.c.showPage()
    canvas.save()
    return buf.getvalue()


def _footprint(piece: _TokenPiece | LooseCard) -> tuple[float, float]:
    """A piece's packed size (mm), its clearance to the next piece included."""
    if isinstance(piece, LooseCard):
        w, h = fold_pair_size_mm(piece)
        return w + PIECE_CLEARANCE_MM, h + PIECE_CLEARANCE_MM
    pitch = piece.spec.size_mm + piece.spec.gap_mm
    return pitch, pitch


def _draw_token(drawer: PageDrawer, piece: _TokenPiece, token: Token, x_mm: float, y_mm: float,
                outline: bool) -> None:
    """A token's face (``outline``: with its cut line) or its back (a little larger, no cut line)
    with its text, top-left at (x_mm, y_mm)."""
    spec = piece.spec
    if outline:
        _token(drawer, spec, token, x_mm, y_mm)
    else:
        _token_back(drawer, spec, token, x_mm, y_mm)
    text_box, caption_box = token_text_boxes(spec.size_mm)
    for box, text, size, font in ((text_box, token.text, spec.text_size_pt, "bold"),
                                  (caption_box, token.caption, spec.caption_size_pt, "regular")):
        if not text:
            continue
        try:
            draw_text(drawer, text, Rect(x_mm + box.x_mm, y_mm + box.y_mm, box.w_mm, box.h_mm), size, font=font,
                      align="center", valign="middle", color=spec.color)
        except ValueError as exc:
            fld = "tokens" if outline else "back"
            raise LayoutError(str(piece.path), piece.lines.line_for((fld,)), fld, str(exc)) from None


def _token(drawer: PageDrawer, spec: TokenSheetSpec, token: Token, x_mm: float, y_mm: float) -> None:
    """The token's coloured face and its cut line, ``size_mm`` across, top-left at (x_mm, y_mm)."""
    d = spec.size_mm
    if spec.shape == "square":
        drawer.rect(x_mm, y_mm, d, d, token.fill, "#000000", TOKEN_CUT_STROKE_PT)
        return
    c = drawer.c
    c.setFillColor(HexColor(token.fill))
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(TOKEN_CUT_STROKE_PT)
    c.circle(pt_from_mm(x_mm + d / 2), pt_from_mm(drawer.page_h_mm - y_mm - d / 2), pt_from_mm(d / 2), stroke=1, fill=1)


def _token_back(drawer: PageDrawer, spec: TokenSheetSpec, token: Token, x_mm: float, y_mm: float) -> None:
    """A token's back colour, ``TOKEN_BACK_BLEED_MM`` beyond its cut line all round."""
    d, b = spec.size_mm, TOKEN_BACK_BLEED_MM
    if spec.shape == "square":
        drawer.rect(x_mm - b, y_mm - b, d + 2 * b, d + 2 * b, token.fill)
        return
    c = drawer.c
    c.setFillColor(HexColor(token.fill))
    c.circle(pt_from_mm(x_mm + d / 2), pt_from_mm(drawer.page_h_mm - y_mm - d / 2), pt_from_mm(d / 2 + b), stroke=0,
             fill=1)
