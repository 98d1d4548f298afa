"""Layout templates: named regions in millimetres, checked before anything is drawn."""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber
import pytest

from printkit.sheets.prepress.imposition import Rect, impose
from printkit.sheets.templating.layout import (
    LayoutError,
    TextRegion,
    fit_text,
    load_layout,
    prepare_face,
)
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.render import PageDrawer, new_canvas


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "card.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def load(path: Path):
    return load_layout(path, 63.5, 88.9, 3.0)


def test_text_region_outside_the_safe_area_is_refused_with_its_line(tmp_path):
    path = write(tmp_path, """\
regions:
  - name: title
    kind: text
    x_mm: 4
    y_mm: 4
    w_mm: 40
    h_mm: 6
    text: "{{ title }}"
  - name: rules
    kind: text
    x_mm: 1
    y_mm: 50
    w_mm: 40
    h_mm: 6
    text: "{{ title }}"
""")
    with pytest.raises(LayoutError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}:9: layout:rules: text region")
    assert "safe area" in str(err.value)


def test_qr_region_must_fit_the_safe_area_and_backs_have_none(tmp_path):
    path = write(tmp_path, "regions:\n  - {name: qr, kind: qr, x_mm: 50, y_mm: 70, size_mm: 15}\n")
    with pytest.raises(LayoutError, match="safe area"):
        load(path)
    path = write(tmp_path, "regions:\n  - {name: qr, kind: qr, x_mm: 40, y_mm: 60, size_mm: 15}\n")
    load(path)
    with pytest.raises(LayoutError, match="back has no QR"):
        load_layout(path, 63.5, 88.9, 3.0, is_back=True)


def test_box_past_the_bleed_is_refused(tmp_path):
    path = write(tmp_path, "regions:\n  - {name: band, kind: box, x_mm: -4, y_mm: 0, w_mm: 10, h_mm: 10}\n")
    with pytest.raises(LayoutError, match="bleed"):
        load(path)


def test_schema_and_jinja_errors_name_file_line_and_field(tmp_path):
    path = write(tmp_path, "regions:\n  - name: t\n    kind: text\n    x_mm: 4\n    y_mm: 4\n    w_mm: 10\n"
                           "    h_mm: 5\n    text: hi\n    colour: '#ffffff'\n")
    with pytest.raises(LayoutError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}:9: regions.0.colour:")
    path = write(tmp_path, "regions:\n  - {name: t, kind: text, x_mm: 4, y_mm: 4, w_mm: 10, h_mm: 5, text: '{{ title'}\n")
    with pytest.raises(LayoutError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}:2: layout:t.text: Jinja2 syntax error")
    path = write(tmp_path, "regions: [\n")
    with pytest.raises(LayoutError) as err:
        load(path)
    assert "malformed YAML" in str(err.value)


def test_unknown_field_in_card_text_is_an_error_not_blank(tmp_path):
    path = write(tmp_path, "regions:\n  - {name: t, kind: text, x_mm: 4, y_mm: 4, w_mm: 30, h_mm: 5, text: '{{ titel }}'}\n")
    with pytest.raises(LayoutError, match="titel"):
        prepare_face(load(path), {"title": "x"}, None, None)


def test_text_shrinks_to_fit_then_gives_up():
    region = TextRegion(name="r", kind="text", x_mm=0, y_mm=0, w_mm=30, h_mm=10, text="", size_pt=12, min_size_pt=6)
    short = fit_text(region, "Short")
    assert short.size_pt == 12
    medium = fit_text(region, " ".join(["word"] * 12))
    assert medium is not None and 6 <= medium.size_pt < 12
    assert medium.height_pt <= 10 * 72 / 25.4 + 0.01
    assert fit_text(region, " ".join(["word"] * 200)) is None


def test_when_condition_skips_regions(tmp_path):
    path = write(tmp_path, "regions:\n"
                           "  - {name: a, kind: text, x_mm: 4, y_mm: 4, w_mm: 30, h_mm: 5, text: A, when: 'cost is not none'}\n"
                           "  - {name: b, kind: text, x_mm: 4, y_mm: 10, w_mm: 30, h_mm: 5, text: B}\n")
    layout = load(path)
    assert len(prepare_face(layout, {"cost": None}, None, None).items) == 1
    assert len(prepare_face(layout, {"cost": 2}, None, None).items) == 2


def test_symbols_render_in_the_embedded_font(tmp_path):
    path = write(tmp_path, "regions:\n  - {name: t, kind: text, x_mm: 4, y_mm: 4, w_mm: 50, h_mm: 10, "
                           "text: '2 × Sword → 3 ★ **bold**'}\n")
    face = prepare_face(load(path), {}, None, None)
    buf = io.BytesIO()
    canvas = new_canvas(buf, 100, 100, "t")
    PageDrawer(canvas, 100).face(face, Rect(10, 10, 63.5, 88.9), Rect(0, 0, 100, 100))
    canvas.showPage()
    canvas.save()
    with pdfplumber.open(io.BytesIO(buf.getvalue())) as doc:
        chars = doc.pages[0].chars
    assert "".join(c["text"] for c in chars).replace(" ", "") == "2×Sword→3★bold"
    assert {c["fontname"].split("+")[-1] for c in chars} == {"DejaVuSans", "DejaVuSans-Bold"}


def test_missing_artwork_gets_a_placeholder(tmp_path):
    path = write(tmp_path, "regions:\n  - {name: art, kind: image, x_mm: 4, y_mm: 4, w_mm: 50, h_mm: 30, src: 'nope.png'}\n")
    face = prepare_face(load(path), {}, tmp_path, None)
    assert face.items[0].path is None


def test_poker_3x3_fits_letter_and_a4_but_not_tarot():
    for paper in ("letter", "a4"):
        imp = impose(paper_by_name(paper), 63.5, 88.9, 3.0)
        assert imp.per_sheet == 9
    with pytest.raises(ValueError, match="do not fit on letter"):
        impose(paper_by_name("letter"), 70, 120, 3.0)
