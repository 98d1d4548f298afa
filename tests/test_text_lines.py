"""printkit's own line setting of plain card text (printkit.sheets.text.text_lines) breaks lines where
reportlab's Paragraph breaks them, and leaves to reportlab what it does not handle; template files
are read once per content."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from reportlab.platypus import Paragraph

from card_data.loader import bundled_data_dir
from printkit.sheets.templating import layout as layout_module
from printkit.sheets.text.fonts import register_fonts
from printkit.sheets.templating.layout import TextRegion, load_layout
from printkit.sheets.text.text_fit import _markup, _ParsedParagraph, _style, fit_text
from printkit.sheets.text.icons import size_icons
from printkit.sheets.text.text_lines import IconLabel, SetParagraph
from printkit.sheets.units import pt_from_mm

WORDS = [":might:", ":zeal:", "x:might:", ":zeal:y", "a", "I", "the", "Strike", "twice", "&", "<", "retreat", "2", "spaces", ">", "away;", "Gigantic", "»",
         "★", "↷", "longer", "—", "é", "ß", "漢字", "a\tb", "end.", "(3)"]
ICONS = bundled_data_dir() / "carpe_cras" / "icons"
JOINS = [" ", " ", " ", "  ", "\n", "**", "", " **bold words** ", "**bold**"]


def random_text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 30)):
        parts.append(rng.choice(WORDS))
        parts.append(rng.choice(JOINS))
    return "".join(parts)


def reportlab_lines(para: Paragraph) -> list[tuple[float, list[tuple[str, str]]]]:
    """``para``'s wrapped lines: (spare width, [(font, text) or ("icon", label)...]) without empty
    fragments."""
    bl = para.blPara
    if bl.kind == 0:
        return [(spare, [(para.frags[0].fontName, " ".join(words))]) for spare, words in bl.lines]
    return [(line.extraSpace, [("icon", w.cbDefn.label) if hasattr(w, "cbDefn") else (w.fontName, w.text)
                               for w in line.words
                               if (getattr(w, "text", "") or hasattr(w, "cbDefn")) and not hasattr(w, "lineBreak")])
            for line in bl.lines]


@pytest.mark.parametrize("seed", range(4))
def test_plain_text_is_broken_into_the_lines_reportlab_finds(seed):
    register_fonts()
    rng = random.Random(seed)
    set_by_printkit = with_icons = 0
    for _ in range(200):
        region = TextRegion(name="r", kind="text", x_mm=0, y_mm=0, w_mm=rng.choice([20, 30, 40, 57.5]), h_mm=20,
                            text="", font=rng.choice(["regular", "bold", "italic"]))
        size = rng.choice([4.5, 6.5, 8, 9, 9.5, 12])
        width = pt_from_mm(region.w_mm)
        for markup in _markup(random_text(rng), ICONS):
            source = _ParsedParagraph(markup, _style(region, region.size_pt))
            lines = source.plain.set(size, width) if source.plain is not None else None
            if lines is None:
                continue  # reportlab's business (a word wider than the line)
            para = source.at(_style(region, size))
            size_icons(para, size)
            _, height = para.wrap(width, 10_000)
            mine = [(spare, [("icon", str(text)) if isinstance(text, IconLabel) else (font, text)
                             for font, text in pieces if text]) for spare, pieces in lines]
            with_icons += any(font == "icon" for _, pieces in mine for font, _ in pieces)
            assert mine == reportlab_lines(para), markup  # spare widths exactly equal, same words and fonts
            assert SetParagraph(lines, size, size * region.leading, "left").height_pt == height
            set_by_printkit += 1
    assert set_by_printkit > 100 and with_icons > 30  # the comparison is not vacuous


def test_a_word_wider_than_the_region_is_left_to_reportlab():
    region = TextRegion(name="r", kind="text", x_mm=0, y_mm=0, w_mm=10, h_mm=30, text="", size_pt=9,
                        min_size_pt=9)
    source = _ParsedParagraph(_markup("Antidisestablishmentarianism and more")[0], _style(region, 9))
    assert source.plain is not None and source.plain.set(9, pt_from_mm(10)) is None
    assert fit_text(region, "Antidisestablishmentarianism and more") is None  # as reportlab's lines say
    fitted = fit_text(region, "and more")
    assert fitted is not None and isinstance(fitted.paragraphs[0][0], SetParagraph)


def test_a_template_file_is_parsed_once_per_content(tmp_path, monkeypatch):
    path = tmp_path / "card.yaml"
    path.write_text("regions:\n  - {name: t, kind: text, x_mm: 4, y_mm: 4, w_mm: 50, h_mm: 8, text: 'One'}\n",
                    encoding="utf-8")
    reads = []
    real = layout_module.read_template
    monkeypatch.setattr(layout_module, "read_template", lambda *a, **k: reads.append(a[0]) or real(*a, **k))
    first = load_layout(path, 63.5, 88.9, 3)
    again = load_layout(path, 63.5, 88.9, 3)
    assert len(reads) == 1 and again.spec is first.spec
    path.write_text("regions:\n  - {name: t, kind: text, x_mm: 4, y_mm: 4, w_mm: 50, h_mm: 8, text: 'Two'}\n",
                    encoding="utf-8")
    changed = load_layout(path, 63.5, 88.9, 3)
    assert len(reads) == 2 and changed.spec.regions[0].text == "Two"
    with pytest.raises(layout_module.LayoutError, match="safe area"):
        load_layout(path, 40, 40, 3)  # the checks still run for every card size


def test_plain_text_fitted_once_per_region_and_text_but_text_with_icons_each_time():
    region = TextRegion(name="r", kind="text", x_mm=0, y_mm=0, w_mm=40, h_mm=20, text="")
    label = fit_text(region, "Pays for **Might** cards")
    assert fit_text(region, "Pays for **Might** cards") is label  # a deck's label, set once
    narrower = fit_text(region.model_copy(update={"w_mm": 18}), "Pays for **Might** cards")
    assert narrower is not label and len(narrower.paragraphs[0][0].lines) > len(label.paragraphs[0][0].lines)
    with_icon = fit_text(region, "Gain 2 :might:", ICONS)
    assert with_icon is not None and fit_text(region, "Gain 2 :might:", ICONS) is not with_icon  # icon files re-read



def test_lines_are_written_with_the_operators_reportlab_writes(monkeypatch):
    """draw_paragraphs writes a TrueType font's text operators itself: the page is byte for byte
    what reportlab's text object (setFont, textOut) writes for the same lines, icons, fonts and
    font subsets (more than 256 distinct characters take a second subset)."""
    import io

    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    from printkit.sheets.text import text_lines

    register_fonts()
    rng = random.Random(7)
    many = "".join(map(chr, [*range(0x100, 0x17F), *range(0x391, 0x3CA), *range(0x400, 0x460)]))  # 311 letters
    words = [many[i:i + 5] for i in range(0, len(many), 5)]
    texts = [random_text(rng) for _ in range(60)] + [
        f"{' '.join(words[:9])} **{' '.join(words[6:])}** {' '.join(words[::-1])} ↷ é ß"]
    placed = []
    for i, text in enumerate(texts):
        region = TextRegion(name="r", kind="text", x_mm=0, y_mm=0, w_mm=57.5, h_mm=200, text="",
                            align=["left", "center", "right"][i % 3], size_pt=rng.choice([6.5, 8, 9.5]))
        fitted = fit_text(region, text, ICONS)
        placed += [(para, 10.0 + i, 700.0 - 3 * i) for para, _ in fitted.paragraphs if isinstance(para, SetParagraph)]
    assert len(placed) > 50 and sum(isinstance(t, IconLabel) for p, _, _ in placed for _, ps in p.lines
                                    for _, t in ps) > 10

    def page() -> bytes:
        out = io.BytesIO()
        canvas = Canvas(out, invariant=1, pageCompression=0)
        for start in range(0, len(placed), 7):
            text_lines.draw_paragraphs(canvas, placed[start:start + 7], HexColor("#123456"))
        canvas.showPage()
        canvas.save()
        return out.getvalue()

    mine = page()
    monkeypatch.setattr(text_lines, "_text_font", lambda name, size: (None, None))  # reportlab's textOut
    theirs = page()
    assert re.search(rb"/F\d+\+1 ", mine), "a second subset is used"
    assert mine == theirs
