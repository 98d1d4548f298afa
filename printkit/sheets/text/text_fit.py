"""Card text fitted to its region: wrapped, shrunk in 0.5 pt steps until it fits (:func:`fit_text`).

The text is a template's output: plain text with ``**bold**``, ``:icon:`` names and blank-line
paragraph breaks (:func:`_markup` turns it into reportlab paragraph markup). Each paragraph is
parsed once and wrapped at each size tried; the paragraphs measured at the size chosen are the
ones drawn (:class:`FittedText`, :meth:`printkit.sheets.render.PageDrawer._text`).
"""

from __future__ import annotations

import html
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import cleanBlockQuotedText, textTransformFrags
from reportlab.platypus.paraparser import ParaParser

from printkit.sheets.text.fonts import DEFAULT_FONTS, FontSet, register_fonts
from printkit.sheets.text.icons import CALLBACK, markup_icons, size_icons
from printkit.sheets.text.text_lines import IconLabel, PlainText, SetParagraph
from printkit.sheets.units import pt_from_mm

if TYPE_CHECKING:
    from printkit.sheets.templating.layout import TextRegion


@dataclass(frozen=True)
class FittedText:
    """A text region after fitting: paragraphs at ``size_pt`` (each with its height in pt) and
    their total height. A paragraph of plain text is a :class:`~printkit.sheets.text.text_lines.SetParagraph`
    (lines set by printkit); one with inline icons, or that reportlab must set itself, a Paragraph."""

    region: TextRegion
    paragraphs: list[tuple[Paragraph | SetParagraph, float]]
    size_pt: float
    height_pt: float
    fonts: FontSet = DEFAULT_FONTS


_BOLD_RE = re.compile(r"\*\*(.+?)\*\*", re.S)


def _markup(text: str, icons_dir: Path | None = None, colour: str = "#000000") -> list[str]:
    """Plain card text to Paragraph markup: escape, **bold**, ``:icon:``, newline breaks; one
    entry per paragraph. Raises :class:`~printkit.sheets.text.icons.IconError` for an unknown icon."""
    paras = re.split(r"\n\s*\n", text.strip())
    out = []
    for p in paras:
        p = html.escape(p.strip(), quote=False)
        p = _BOLD_RE.sub(r"<b>\1</b>", p)
        p = markup_icons(p, icons_dir, colour)
        out.append(p.replace("\n", "<br/>"))
    return [p for p in out if p]


_ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}
_STYLE_CACHE: dict[tuple, ParagraphStyle] = {}


def _style(region: TextRegion, size_pt: float, fonts: FontSet = DEFAULT_FONTS) -> ParagraphStyle:
    key = (fonts.name(region.font), size_pt, region.leading, region.align, region.color)
    style = _STYLE_CACHE.get(key)
    if style is None:
        style = ParagraphStyle(
            name=f"s{len(_STYLE_CACHE)}", fontName=fonts.name(region.font), fontSize=size_pt,
            # A colour object, not the hex string: reportlab would parse the string again for
            # every line it draws.
            leading=size_pt * region.leading, alignment=_ALIGN[region.align], textColor=HexColor(region.color),
            spaceBefore=0, spaceAfter=0,
            # No squeezing of spaces: a line reportlab squeezed would overrun the region edge,
            # which fit_text rightly counts as not fitting and shrinks further than needed.
            spaceShrinkage=0,
        )
        _STYLE_CACHE[key] = style
    return style


def fit_text(region: TextRegion, text: str, icons_dir: Path | None = None,
             fonts: FontSet = DEFAULT_FONTS) -> FittedText | None:
    """Wrap ``text`` in ``region`` at the largest size from ``size_pt`` down to ``min_size_pt``
    (0.5 pt steps) at which it fits, or ``None`` if it does not fit even at ``min_size_pt``.

    A word wider than the region counts as not fitting (it would run over the edge).
    ``icons_dir``: the game's icon folder; ``:name:`` then prints icon ``name`` inline and is
    measured with the text (without it, ``:name:`` is plain text). ``fonts``: the faces to use.
    Raises :class:`~printkit.sheets.text.icons.IconError` for an icon name without a usable file.

    Most texts fit at ``size_pt``, which is tried first; otherwise the smaller sizes are
    bisected, as text that fits at one size fits at the smaller ones: the size found is the
    one a walk down in steps finds, in fewer tries. Each paragraph's markup is parsed once and
    re-wrapped at each size tried; the paragraphs returned are the ones measured at the size
    chosen, drawn as they are (see :class:`FittedText`).

    The results for text printkit sets itself without icons are kept (:data:`FITTED_KEPT`,
    keyed by region, text and fonts): a deck repeats its labels on every card.
    """
    key = (region, text, icons_dir, fonts)
    with _FITTED_LOCK:  # a designer's preview server fits texts from several threads
        if key in _FITTED:
            _FITTED.move_to_end(key)
            return _FITTED[key]
    register_fonts()
    sources = [_ParsedParagraph(src, _style(region, region.size_pt, fonts)) for src in
               _markup(text, icons_dir, region.color)]
    fitted = _fit(region, sources, fonts)
    if all(src.plain is not None and not src.plain.icons for src in sources) and (
            fitted is None or all(isinstance(para, SetParagraph) for para, _ in fitted.paragraphs)):
        with _FITTED_LOCK:  # no icon files, no reportlab Paragraph in it: the same for every use
            _FITTED[key] = fitted
            if len(_FITTED) > FITTED_KEPT:
                _FITTED.popitem(last=False)
    return fitted


FITTED_KEPT = 1024
"""Fitted texts kept per process (a few hundred bytes each), the least recently used dropped."""

_FITTED: OrderedDict[tuple, FittedText | None] = OrderedDict()
_FITTED_LOCK = threading.Lock()


def _fit(region: TextRegion, sources: list[_ParsedParagraph], fonts: FontSet) -> FittedText | None:
    """:func:`fit_text` of the paragraphs ``sources``."""
    width_pt, height_pt = pt_from_mm(region.w_mm), pt_from_mm(region.h_mm)
    fitted = _fitted_at(region, sources, region.size_pt, width_pt, height_pt, fonts)
    if fitted is not None or region.size_pt <= region.min_size_pt:
        return fitted
    sizes = []  # those a walk down in 0.5 pt steps would try next, largest first, min_size_pt last
    size = region.size_pt
    while size > region.min_size_pt:
        size = max(region.min_size_pt, size - 0.5)
        sizes.append(size)
    lo, hi, best = 0, len(sizes) - 1, None  # sizes[:lo] do not fit; the largest fitting is in sizes[lo:hi + 1]
    while lo <= hi:
        mid = (lo + hi) // 2
        candidate = _fitted_at(region, sources, sizes[mid], width_pt, height_pt, fonts)
        if candidate is None:
            lo = mid + 1
        else:
            best, hi = candidate, mid - 1
    return best


class _ParsedParagraph:
    """One paragraph's markup read once, to be set at any size: plain text (``plain``, set by
    printkit, see :mod:`printkit.sheets.text.text_lines`) or reportlab's fragments at the region's
    ``size_pt`` (``frags``, made when first needed), of which each size gets its own copies, so
    that a paragraph measured at one size is not changed by measuring another."""

    def __init__(self, markup: str, style: ParagraphStyle):
        self.text = cleanBlockQuotedText(markup)
        self._style = style
        self._frags = None
        pieces = _simple_pieces(self.text, style)
        self.plain = PlainText.of(pieces) if pieces is not None else None

    @property
    def frags(self) -> list:
        """reportlab's fragments of the paragraph at the region's ``size_pt``."""
        if self._frags is None:
            self._frags = _simple_frags(self.text, self._style) or _parse(self.text, self._style)
        return self._frags

    def at(self, style: ParagraphStyle) -> Paragraph:
        """A Paragraph of this text in ``style`` (whose font size is the size it is set at)."""
        size = style.fontSize
        frags = []
        for f in self.frags:
            f = f.clone(fontSize=size)
            defn = getattr(f, "cbDefn", None)
            if defn is not None:
                f.cbDefn = defn.clone()  # icons are sized per paragraph (size_icons)
            frags.append(f)
        return Paragraph(self.text, style, frags=frags)


def _parse(markup: str, style: ParagraphStyle) -> list:
    """reportlab's fragments of paragraph ``markup`` in ``style``, parsed as Paragraph parses it."""
    parser = ParaParser()
    parser.caseSensitive = 1
    _, frags, _ = parser.parse(markup, style)
    if frags is None:
        raise ValueError(f"paragraph markup not understood: {parser.errors[0]}")
    textTransformFrags(frags, style)
    return frags


_SIMPLE_TOKEN = re.compile(r'(<b>|</b>|<br/>|&amp;|&lt;|&gt;|<onDraw name="' + CALLBACK + r'" label="[^"<>]*"/>)')
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">"}
_SAMPLE_FRAGS: dict[int, list] = {}


def _simple_tokens(markup: str) -> list[tuple[int, str | None]] | None:
    """``markup`` (cleaned as Paragraph cleans it) as ``(bold, text)`` per fragment reportlab's
    parser would make, ``(bold, None)`` per line break, ``(bold, IconLabel)`` per inline icon,
    when it holds no more than what :func:`_markup` writes (``<b>``, ``<br/>``, the three
    escapes, icon tags): a fragment for each run of text between tags and escapes, and for each
    escape; ``None`` for anything else."""
    tokens: list[tuple[int, str | None]] = []
    bold = 0
    for i, token in enumerate(_SIMPLE_TOKEN.split(markup)):
        if i % 2 == 0:  # text between tags (the parser splits it at "&" and "<" as well)
            if "<" in token or "&" in token:
                return None
            if token:
                tokens.append((bold, token))
        elif token == "<b>" or token == "</b>":
            if bold == (token == "<b>"):
                return None  # nested or unbalanced: the parser's business
            bold = 1 - bold
        elif token == "<br/>":
            tokens.append((bold, None))
        elif token.startswith("<onDraw"):
            tokens.append((bold, IconLabel(html.unescape(token[token.index('label="') + 7:-3]))))
        else:
            tokens.append((bold, _ENTITIES[token]))
    return tokens if not bold else None


def _sample(style: ParagraphStyle) -> tuple[tuple, tuple]:
    """The parser's (regular, bold) text fragment and (regular, bold) line break in ``style``,
    parsed once per style (styles are kept for the process, :data:`_STYLE_CACHE`)."""
    sample = _SAMPLE_FRAGS.get(id(style))
    if sample is None:
        sample = _SAMPLE_FRAGS[id(style)] = _parse("x<b>x<br/></b><br/>", style)
    return (sample[0], sample[1]), (sample[3], sample[2])


def _simple_frags(markup: str, style: ParagraphStyle) -> list | None:
    """The fragments reportlab's parser makes of ``markup`` (see :func:`_simple_tokens`), made
    without the parser, as copies of its fragments of a sample text; ``None`` for markup the
    parser must read."""
    tokens = _simple_tokens(markup)
    if tokens is None or any(isinstance(text, IconLabel) for _, text in tokens):
        return None  # icons: the parser makes their fragments
    text_frags, break_frags = _sample(style)
    return [break_frags[bold].clone() if text is None else text_frags[bold].clone(text=text)
            for bold, text in tokens]


def _simple_pieces(markup: str, style: ParagraphStyle) -> list[tuple[str, str | None]] | None:
    """:func:`_simple_tokens` as ``(font name, text)`` per fragment, ``(font name, None)`` per line
    break and ``(font name, IconLabel)`` per icon, without making reportlab's fragments."""
    tokens = _simple_tokens(markup)
    if tokens is None:
        return None
    text_frags, break_frags = _sample(style)
    return [(break_frags[bold].fontName, None) if text is None else (text_frags[bold].fontName, text)
            for bold, text in tokens]


def _fitted_at(region: TextRegion, sources: list[_ParsedParagraph], size: float, width_pt: float,
               height_pt: float, fonts: FontSet) -> FittedText | None:
    """``sources`` wrapped at ``size``, or ``None`` if a line overruns ``width_pt`` or they
    are taller than ``height_pt`` together."""
    style = _style(region, size, fonts)
    gap = size * 0.4
    paras, total = [], 0.0
    for i, src in enumerate(sources):
        lines = src.plain.set(size, width_pt) if src.plain is not None else None
        if lines is not None:
            para = SetParagraph(lines, size, style.leading, region.align)
            h = para.height_pt
        else:
            para = src.at(style)
            size_icons(para, size)
            _, h = para.wrap(width_pt, 10_000)
            if any(_extra_space(line) < -0.01 for line in _lines(para)):
                return None
        total += h + (gap if i else 0)
        if total > height_pt + 0.01:
            return None
        paras.append((para, h))
    return FittedText(region, paras, size, total, fonts)


def _extra_space(line: Any) -> float:
    """Spare width of a wrapped line (negative: the line overflows); two shapes in reportlab."""
    if isinstance(line, tuple):
        return line[0]
    return getattr(line, "extraSpace", 0)


def _lines(para: Paragraph) -> list:
    blpara = getattr(para, "blPara", None)
    return getattr(blpara, "lines", []) if blpara is not None else []
