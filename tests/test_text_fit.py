"""Card text fitted to its region: the size chosen is the one a walk down in 0.5 pt steps
finds, and what is drawn is what reportlab draws for the same text parsed its own way: the same
characters in the same fonts, sizes and colours at the same places (read back from the PDF)."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from reportlab.lib.colors import HexColor
from reportlab.platypus import Paragraph

from printkit.sheets.text.icons import size_icons
from printkit.sheets.templating.layout import TextRegion
from printkit.sheets.render import new_canvas
from printkit.sheets.text.text_fit import _markup, _style, fit_text
from printkit.sheets.text.text_lines import SetParagraph, draw_paragraphs
from printkit.sheets.units import pt_from_mm

TEXTS = [
    "Short",
    "Strike **twice** & retreat < 2 spaces > away; **Gigantic** units are not moved.",
    "» Speed **3**   ↷ Evade **1**\n★ Health **4**   ◆ Armor **0**",
    "First paragraph, with **bold\nacross a break**.\n\nSecond   paragraph\twith  odd   spacing & more.",
    " ".join(["word"] * 40),
    " ".join(["longer", "**words**", "rules"] * 30),
    "Unclosed ** star and a lone * and &amp; written out",
    "A no-break\xa0space and a soft\xadhyphen, which reportlab sets itself: Supercalifragilisticexpi\xadalidocious",
]


def reportlab_fit(region: TextRegion, text: str):
    """The size, paragraphs and heights found the plain way: each size from ``size_pt`` down in
    0.5 pt steps, each paragraph parsed by reportlab's Paragraph."""
    width, height = pt_from_mm(region.w_mm), pt_from_mm(region.h_mm)
    size = region.size_pt
    while True:
        style = _style(region, size)
        paras, total, fits = [], 0.0, True
        for i, markup in enumerate(_markup(text)):
            para = Paragraph(markup, style)
            _, h = para.wrap(width, 10_000)
            lines = para.blPara.lines
            if any((line[0] if isinstance(line, tuple) else line.extraSpace) < -0.01 for line in lines):
                fits = False
                break
            total += h + (size * 0.4 if i else 0)
            paras.append((para, h))
        if fits and total <= height + 0.01:
            return size, paras, total
        if size <= region.min_size_pt:
            return None
        size = max(region.min_size_pt, size - 0.5)


def drawn(paras, colour: str = "#000000", shapes: bool = False) -> list[tuple]:
    """The characters ``paras`` print, one below the other: (text, font, size, x0, baseline,
    colour), in reading order; printkit's own lines are drawn as the renderer draws them.
    ``shapes``: the vector shapes (inline icons) instead, as ("curve", x0, top, x1, bottom)."""
    buf = io.BytesIO()
    canvas = new_canvas(buf, 100, 100, "t")
    top = 250.0
    for para, h in paras:
        if isinstance(para, SetParagraph):
            draw_paragraphs(canvas, [(para, 10, top)], HexColor(colour))
        else:
            para.drawOn(canvas, 10, top - h)
        top -= h + 5
    canvas.showPage()
    canvas.save()
    with pdfplumber.open(io.BytesIO(buf.getvalue())) as pdf:
        if shapes:
            return sorted(("curve", c["x0"], c["top"], c["x1"], c["bottom"]) for c in pdf.pages[0].curves)
        return [(c["text"], c["fontname"].split("+")[-1], c["size"], c["x0"], c["y0"], c["non_stroking_color"])
                for c in pdf.pages[0].chars]


def same_glyphs(mine: list[tuple], theirs: list[tuple]) -> bool:
    """The same characters, fonts and colours, sizes and positions within 0.01 pt."""
    return len(mine) == len(theirs) and all(
        a[0] == b[0] and a[1] == b[1] and a[5] == b[5] and all(abs(a[k] - b[k]) <= 0.01 for k in (2, 3, 4))
        for a, b in zip(mine, theirs))


@pytest.mark.parametrize("align", ["left", "center", "right"])
@pytest.mark.parametrize("w_mm,h_mm", [(40, 30), (30, 12), (20, 8), (57.5, 6)])
def test_fit_chooses_the_size_and_draws_the_lines_reportlab_finds_its_own_way(align, w_mm, h_mm):
    region = TextRegion(name="r", kind="text", x_mm=0, y_mm=0, w_mm=w_mm, h_mm=h_mm, text="", size_pt=9.5,
                        min_size_pt=4.5, align=align)
    for text in TEXTS:
        mine, theirs = fit_text(region, text), reportlab_fit(region, text)
        if theirs is None:
            assert mine is None, text
            continue
        size, paras, total = theirs
        assert mine is not None and mine.size_pt == size, text
        assert mine.height_pt == pytest.approx(total, abs=1e-9)
        assert [h for _, h in mine.paragraphs] == [h for _, h in paras]
        glyphs = drawn(mine.paragraphs)
        assert glyphs and same_glyphs(glyphs, drawn(paras)), text  # same lines, positions, fonts


ICON_TEXTS = [
    "Gain 2 :might: :zeal: Gain 2 :cunning: :authority: Gain 2",
    ":might:Strike **twice**:zeal: then retreat\n:evade: 1 and :armor:, or :health: **4**",
    " ".join(["word :speed:"] * 12),
]


@pytest.mark.parametrize("align", ["left", "center", "right"])
def test_inline_icons_are_drawn_where_reportlab_draws_them(align):
    from card_data.loader import bundled_data_dir

    icons = bundled_data_dir() / "carpe_cras" / "icons"
    region = TextRegion(name="r", kind="text", x_mm=0, y_mm=0, w_mm=35, h_mm=14, text="", size_pt=9.5,
                        min_size_pt=4.5, align=align)
    for text in ICON_TEXTS:
        mine = fit_text(region, text, icons)
        assert mine is not None and all(isinstance(p, SetParagraph) for p, _ in mine.paragraphs)
        style = _style(region, mine.size_pt)
        theirs = []
        for markup in _markup(text, icons):
            para = Paragraph(markup, style)
            size_icons(para, mine.size_pt)
            theirs.append((para, para.wrap(pt_from_mm(region.w_mm), 10_000)[1]))
        assert [h for _, h in mine.paragraphs] == [h for _, h in theirs]
        assert same_glyphs(drawn(mine.paragraphs), drawn(theirs)), text
        my_icons, their_icons = drawn(mine.paragraphs, shapes=True), drawn(theirs, shapes=True)
        assert my_icons and len(my_icons) == len(their_icons), text
        assert all(abs(a[k] - b[k]) <= 0.01 for a, b in zip(my_icons, their_icons) for k in (1, 2, 3, 4)), text
