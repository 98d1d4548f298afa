"""Card text set in lines by printkit itself: measured once per size tried, drawn as measured.

For a paragraph of the region's faces (``**bold**``, line breaks and inline icons),
:meth:`PlainText.set` breaks the lines exactly as reportlab's ``Paragraph.breakLines`` does for
the same fragments (the same greedy rule, the same widths from the C-accelerated functions
behind ``pdfmetrics.stringWidth``, summed in the same order), without a Paragraph per size tried;
:func:`draw_paragraphs` then draws a region's measured lines with one text object, switching
fonts per fragment, where ``Paragraph.drawOn`` saves and restores the graphics state and walks
its per-line machinery for every paragraph. The glyphs land where reportlab puts them: a line's
baseline is ``size_pt`` below the paragraph's top and ``leading`` below the line above, its start
is the region's left edge plus the line's spare width (all of it right-aligned, half centred),
and an icon is drawn where the text before it ends (:func:`printkit.sheets.text.icons.draw_icon`).

Anything reportlab treats specially (soft hyphens, no-break spaces, a word wider than the line,
which reportlab splits) gives ``None``: the caller then uses reportlab's Paragraph, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from string import whitespace

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.paragraph import lstrip, split, strip

from printkit.sheets.text.icons import draw_icon, icon_width

_SPECIAL = ("\xad", "\xa0")  # soft hyphen, no-break space: reportlab's own business


_WIDTH_OF: dict[str, Callable[[str, float], float]] = {}


def _width_of(font_name: str) -> Callable[[str, float], float]:
    """``font_name``'s width function, ``(text, size_pt) -> pt``: what ``pdfmetrics.stringWidth``
    calls (the same numbers), looked up once per font."""
    width = _WIDTH_OF.get(font_name)
    if width is None:
        width = _WIDTH_OF[font_name] = getFont(font_name).stringWidth
    return width


class IconLabel(str):
    """An inline icon among a paragraph's fragments: the label of its tag (see
    :mod:`printkit.sheets.text.icons`). It takes its width in the line and prints no text."""


@dataclass(frozen=True)
class _Word:
    """A word as reportlab's ``_getFragWords`` makes it: ``pieces`` ((font name, text), one per
    fragment it spans), ``spaced`` when a space follows it, ``br`` for a line break."""

    pieces: tuple[tuple[str, str], ...]
    spaced: bool = False
    br: bool = False


class PlainText:
    """One paragraph's fragments of text, line breaks and inline icons (as reportlab's parser
    makes them, see :func:`printkit.sheets.text.text_fit._simple_tokens`) turned into words once, to be
    set at any size (:meth:`set`). ``PlainText.of(frags)`` is ``None`` for text it does not
    handle. ``icons``: whether the paragraph holds inline icons."""

    def __init__(self, words: list[_Word] | None, single: tuple[str, list[str]] | None):
        self._words = words
        self._single = single  # one fragment: (font name, words), reportlab's simpler path
        self.icons = any(isinstance(text, IconLabel) for w in words or () for _, text in w.pieces)

    @classmethod
    def of(cls, frags: list[tuple[str, str | None]]) -> PlainText | None:
        """The words of ``frags``: the paragraph's fragments as reportlab's parser makes them, each
        ``(font name, text)``, ``(font name, None)`` for a line break or ``(font name, IconLabel)``
        for an icon; ``None`` when the text holds a soft hyphen or a no-break space."""
        for _, text in frags:
            if text and not isinstance(text, IconLabel) and any(c in text for c in _SPECIAL):
                return None
        if len(frags) == 1:
            font, text = frags[0]
            if text is None:
                return None
            if not isinstance(text, IconLabel):
                return cls(None, (font, split(strip(text))))
        return cls(_frag_words(frags), None)

    def set(self, size_pt: float, width_pt: float) -> list[tuple[float, list[list[str]]]] | None:
        """The lines at ``size_pt`` in ``width_pt``: ``(spare width pt, [[font name, text], ...])``
        each, as reportlab breaks them; ``None`` if a word is wider than the line (reportlab would
        split it: the caller asks reportlab)."""
        if self._single is not None:
            return _set_single(*self._single, size_pt, width_pt)
        return _set_words(self._words, size_pt, width_pt)


def _frag_words(frags: list[tuple[str, str | None]]) -> list[_Word]:
    """reportlab's ``_getFragWords`` for text, line-break and icon fragments (no soft hyphens)."""
    words: list[_Word] = []
    pieces: list[tuple[str, str]] = []
    hanging_strip = True
    for font_name, text in frags:
        if isinstance(text, IconLabel):
            if pieces:
                words.append(_Word(tuple(pieces)))
                pieces = []
            words.append(_Word(((font_name, text),)))
            hanging_strip = False
        elif text:
            if hanging_strip:
                text = lstrip(text)
                if not text:
                    continue
                hanging_strip = False
            parts = split(text)
            if text[0] in whitespace or not parts:
                if pieces:
                    words.append(_Word(tuple(pieces)))  # reportlab: a word without its space...
                    pieces = []
                    whs = False
                else:
                    whs = bool(words) and words[-1].spaced
                if not whs:
                    parts.insert(0, "")  # ...which an empty spaced word then carries
                elif not parts:
                    continue
            for w in parts[:-1]:
                pieces.append((font_name, w))
                words.append(_Word(tuple(pieces), spaced=True))
                pieces = []
            pieces.append((font_name, parts[-1]))
            if text[-1] in whitespace:
                words.append(_Word(tuple(pieces), spaced=True))
                pieces = []
        elif text is None:
            if pieces:
                words.append(_Word(tuple(pieces)))
                pieces = []
            words.append(_Word(((font_name, ""),), br=True))
            hanging_strip = True
    if pieces:
        words.append(_Word(tuple(pieces)))
    if not words and frags:
        words.append(_Word(((frags[0][0], ""),)))
    return words


def _set_single(font: str, words: list[str], size: float, max_w: float):
    """reportlab's ``breakLines`` for a single fragment (its ``kind == 0`` lines)."""
    width = _width_of(font)
    space_w = width(" ", size)
    lines = []
    line: list[str] = []
    current = -space_w
    for word in words:
        word_w = width(word, size)
        if word_w > max_w:
            return None
        new = current + space_w + word_w
        if new <= max_w or not line:
            line.append(word)
            current = new
        else:
            lines.append((max_w - current, [[font, " ".join(line)]]))
            line = [word]
            current = word_w
    if line:
        lines.append((max_w - current, [[font, " ".join(line)]]))
    return lines


def _set_words(words: list[_Word], size: float, max_w: float):
    """reportlab's ``breakLines`` for several fragments (its ``kind == 1`` lines). An icon is a
    word of its own that counts no text (reportlab ends a line only after a word with text)."""
    lines = []
    out: list[list[str]] = []  # the line's pieces, [font, text], as reportlab's frag clones
    started = False
    n = 0
    space_w = current = 0.0
    for w in words:
        if not started:
            n, space_w, current = 0, 0, 0
            started = True
        word_w = 0
        for font, text in w.pieces:
            word_w += icon_width(text, size) if isinstance(text, IconLabel) else _width_of(font)(text, size)
        if not w.br and word_w > max_w:
            return None
        new = current + space_w + word_w if word_w > 0 else current
        if not ((new > max_w and n > 0) or w.br):
            font0, text0 = w.pieces[0]
            icon = isinstance(text0, IconLabel)
            if text0 and not icon:
                n += 1
            if not out:
                out = [[font0, text0]]
            elif icon or isinstance(out[-1][1], IconLabel) or out[-1][0] != font0:
                if space_w:  # the space goes to the line's last text
                    for piece in reversed(out):
                        if not isinstance(piece[1], IconLabel):
                            if not piece[1].endswith(" "):
                                piece[1] += " "
                            break
                out.append([font0, text0])
            elif space_w:
                out[-1][1] += text0 if out[-1][1].endswith(" ") else " " + text0
            else:
                out[-1][1] += text0
            space_w = _width_of(w.pieces[-1][0])(" ", size) if w.spaced else 0
            more = False
            for font, text in w.pieces[1:]:
                out.append([font, text])
                more = more or bool(text)
            if not text0 and more:
                n += 1
            current = new
        else:
            lines.append((max_w - current, out))
            if w.br:
                out, started = [], False
                continue
            space_w = _width_of(w.pieces[-1][0])(" ", size) if w.spaced else 0
            current = word_w
            n = 1
            out = [[font, text] for font, text in w.pieces]
    if out:
        lines.append((max_w - current, out))
    return lines


@dataclass(frozen=True)
class SetParagraph:
    """A paragraph set in lines at ``size_pt``: ``lines`` as :meth:`PlainText.set` returns them,
    ``leading_pt`` between baselines, ``align`` (``left``, ``center``, ``right``)."""

    lines: list[tuple[float, list[list[str]]]]
    size_pt: float
    leading_pt: float
    align: str

    @property
    def height_pt(self) -> float:
        """The paragraph's height as reportlab's ``Paragraph.wrap`` gives it: lines times leading."""
        return len(self.lines) * self.leading_pt

    def plain_text(self) -> str:
        """The paragraph's text without its icons, its lines joined by spaces (for tests and messages)."""
        return " ".join("".join(text for _, text in pieces if not isinstance(text, IconLabel))
                        for _, pieces in self.lines)


@lru_cache(maxsize=256)
def _text_font(font_name: str, size_pt: float):
    """``(font, operator)``: ``font_name``'s reportlab font and the operator selecting its subsets
    at ``size_pt`` (``"<size> Tf <leading> TL"``, as a text object's ``setFont`` gives them) when
    :func:`draw_paragraphs` writes its text operators itself (an embedded TrueType font, drawn
    unshaped, as reportlab's ``textOut`` draws a ``str``), else ``(None, None)``: reportlab's
    ``textOut`` then writes them."""
    font = getFont(font_name)
    if not getattr(font, "_dynamicFont", False):
        return None, None
    return font, f"{fp_str(size_pt)} Tf {fp_str(size_pt * 1.2)} TL"


def _split_string(font, text: str, doc) -> list[tuple[int, bytes]]:
    """``font.splitString(text, doc)``: ``[(subset, codes)]``, ``text`` in ``font``'s subset
    encoding for ``doc``. A text whose characters all have codes in the first subset already
    (most card text, after the first few cards) is translated in one go from the codes reportlab
    assigned, instead of character by character; anything else is reportlab's own business
    (it assigns new codes)."""
    state = font.state.get(doc)
    if state is None:
        return font.splitString(text, doc)
    assignments = state.assignments
    known = getattr(state, "_printkit_first_subset", None)
    if known is None or known[0] != len(assignments):  # codes are only ever added
        table = {ch: n for ch, n in assignments.items() if n < 256 and ch != 0xA0}
        known = state._printkit_first_subset = (len(assignments), frozenset(map(chr, table)),
                                                {ch: chr(n) for ch, n in table.items()})
    if not text or not known[1].issuperset(text):
        return font.splitString(text, doc)
    return [(0, text.translate(known[2]).encode("latin-1"))]


def draw_paragraphs(canvas: Canvas, placed: list[tuple[SetParagraph, float, float]], colour) -> None:
    """Draw ``placed`` paragraphs (each with its left edge and top in pt) in ``colour`` (a
    reportlab colour) with one text object; inline icons are drawn where the text leaves room
    for them. The page's fill colour is ``colour`` afterwards (no graphics state is saved: what
    is drawn next sets its own colours, as :class:`printkit.sheets.render.PageDrawer` does)."""
    tx = canvas.beginText()
    tx.setFillColor(colour)
    code, doc, escape = tx._code, canvas._doc, canvas._escape
    font = None
    ttf = subset = tf = None  # the font's own text operators, see _text_font
    for para, x_pt, top_pt in placed:
        size = para.size_pt
        y = top_pt - size
        share = 0.5 if para.align == "center" else 1.0 if para.align == "right" else 0.0
        for spare, pieces in para.lines:
            x = x_pt + share * spare if share else x_pt
            tx.setTextOrigin(x, y)
            icons = any(isinstance(text, IconLabel) for _, text in pieces)
            moved = False
            for name, text in pieces:
                if isinstance(text, IconLabel):
                    x += draw_icon(canvas, text, x, y, size)
                    moved = True
                    continue
                if not text:
                    continue
                if font != (name, size):
                    font = (name, size)
                    ttf, tf = _text_font(name, size)
                    subset = -1
                    if ttf is None:
                        tx.setFont(name, size)
                if moved:
                    tx.setTextOrigin(x, y)
                    moved = False
                if ttf is None:
                    tx.textOut(text)
                else:
                    # The operators tx.textOut writes for a TrueType font, in its subsets' own
                    # encoding, without measuring the text again for a cursor nothing here reads.
                    for sub, chars in _split_string(ttf, text, doc):
                        if sub != subset:
                            code.append(f"{ttf.getSubsetInternalName(sub, doc)} {tf}")
                            subset = sub
                        code.append(f"({escape(chars)}) Tj")
                if icons:
                    x += _width_of(name)(text, size)
            y -= para.leading_pt
    canvas.drawText(tx)
