"""Punch-out token sheets: tokens as circles or squares with cut lines, their text from the card data.

A token template (``templates/<game>/token-*.yaml``, see ``templates/BOARDS.md``) gives the
shape and size and groups of tokens; each group's ``text``/``caption`` are Jinja2 over the
card database (``glossary``, ``cards``, ``tables``), optionally once per item of a
``for_each`` list. Each template starts a new page; tokens fill the page row by row within
``PAGE_MARGIN_MM``, ``gap_mm`` apart so every token is its own cut.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field
from reportlab.lib.colors import HexColor

from printkit.components.tiling import PAGE_MARGIN_MM
from printkit.sheets.imposition import Rect
from printkit.sheets.layout import LayoutError
from printkit.sheets.paper import Paper
from printkit.sheets.render import PageDrawer, new_canvas
from printkit.sheets.sheet_templates import draw_text, evaluate, expand, load_spec
from printkit.sheets.units import pt_from_mm

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]

TOKEN_CUT_STROKE_PT = 0.5
"""Stroke of a token's cut line (tests find tokens by it)."""
HEADER_H_MM = 14.0


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
    tokens: list[TokenGroup] = Field(min_length=1)


@dataclass(frozen=True)
class Token:
    """One token to print: its main ``text``, ``caption`` and ``fill`` colour."""

    text: str
    caption: str
    fill: str


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
            out += [Token(text, caption.strip(), group.fill or spec.fill)] * copies
    return out


def token_text_boxes(size_mm: float) -> tuple[Rect, Rect]:
    """Where a token's text and caption go, relative to its top-left corner (mm).

    Both lie inside the circle inscribed in the token's square, so a circle and a square
    token show the same text.
    """
    d = size_mm
    return (Rect(0.11 * d, 0.25 * d, 0.78 * d, 0.34 * d), Rect(0.2 * d, 0.6 * d, 0.6 * d, 0.18 * d))


def render_tokens(paths: list[Path], context: dict, paper: Paper, cmyk: bool = False) -> bytes:
    """Token sheets for every template in ``paths`` (in that order), as PDF bytes.

    Raises :class:`LayoutError` for a broken template or text that does not fit its token.
    """
    buf = io.BytesIO()
    game = context["game"]
    canvas = new_canvas(buf, paper.width_mm, paper.height_mm, f"{game.title} – tokens", cmyk=cmyk)
    drawer = PageDrawer(canvas, paper.height_mm)
    for path in paths:
        spec, lines = load_spec(path, TokenSheetSpec)
        tokens = resolve_tokens(path, spec, lines, context)
        title = expand(spec.title, context, path, lines.line_for(("title",)), "title").strip()
        _token_pages(drawer, path, lines, spec, tokens, title, paper)
    canvas.save()
    return buf.getvalue()


def _token_pages(drawer: PageDrawer, path: Path, lines, spec: TokenSheetSpec, tokens: list[Token], title: str,
                 paper: Paper) -> None:
    m = PAGE_MARGIN_MM
    pitch = spec.size_mm + spec.gap_mm
    avail_w = paper.width_mm - 2 * m
    avail_h = paper.height_mm - 2 * m - HEADER_H_MM
    across = int((avail_w + spec.gap_mm) // pitch)
    down = int((avail_h + spec.gap_mm) // pitch)
    if across < 1 or down < 1:
        raise LayoutError(str(path), lines.line_for(("size_mm",)), "size_mm",
                          f"a {spec.size_mm:g} mm token does not fit on {paper.name}")
    per_page = across * down
    x0 = (paper.width_mm - (across * pitch - spec.gap_mm)) / 2
    text_box, caption_box = token_text_boxes(spec.size_mm)
    pages = math.ceil(len(tokens) / per_page)
    for page in range(pages):
        heading = f"{title}  ·  cut along the solid outlines"
        if pages > 1:
            heading += f"  ·  sheet {page + 1} of {pages}"
        draw_text(drawer, heading, Rect(m, m, avail_w, HEADER_H_MM - 4), 11, font="bold")
        for slot, token in enumerate(tokens[page * per_page:(page + 1) * per_page]):
            row, col = divmod(slot, across)
            x, y = x0 + col * pitch, m + HEADER_H_MM + row * pitch
            _token(drawer, spec, token, x, y)
            for box, text, size, font in ((text_box, token.text, spec.text_size_pt, "bold"),
                                          (caption_box, token.caption, spec.caption_size_pt, "regular")):
                if not text:
                    continue
                try:
                    draw_text(drawer, text, Rect(x + box.x_mm, y + box.y_mm, box.w_mm, box.h_mm), size, font=font,
                              align="center", valign="middle", color=spec.color)
                except ValueError as exc:
                    raise LayoutError(str(path), lines.line_for(("tokens",)), "tokens", str(exc)) from None
        drawer.c.showPage()


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
