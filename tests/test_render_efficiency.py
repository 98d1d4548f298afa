"""The card sheets are drawn in the PDF's own terms, read back from the PDF bytes: each QR code
one ``cm`` into module units then whole-number ``re`` rectangles, a deck's back one Form
XObject defined once and placed per slot, no ASCII85, byte-identical rebuilds, and every QR
code still scans."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2
import pytest
import zxingcpp
from pypdf import PdfReader

from card_data.loader import load_database
from printkit.build_options import BuildOptions
from printkit.pipeline.build import build
from printkit.pipeline.card_faces import card_qr_url
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.qr import QUIET_ZONE_MODULES, qr_dark_runs, qr_fill_operators, qr_matrix

BASE_URL = "http://192.168.1.20:5000"
GAME = "carpe_cras"
DB = load_database()

NUMBER = r"-?\d*\.?\d+"
QR_BLOCK = re.compile(
    rf"q\n(?P<scale>{NUMBER}) 0 0 (?P<neg>{NUMBER}) {NUMBER} {NUMBER} cm\n"  # into module units
    rf"(?P<body>.*?)\nQ", re.DOTALL)
RE_OP = re.compile(rf"({NUMBER}) ({NUMBER}) ({NUMBER}) ({NUMBER}) re")


def build_catalog(out: Path, duplex: str = "long") -> list[Path]:
    """Every carpe_cras card once, card sheets only; returns the card PDFs."""
    result = build(None, out, BuildOptions(paper_by_name("letter"), BASE_URL, duplex=duplex), [GAME],
                   cards_only=True, catalog=True)
    assert not result.problems, result.problems
    pdfs = sorted((out / GAME).glob("*-cards.pdf"))
    assert pdfs
    return pdfs


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> list[Path]:
    return build_catalog(tmp_path_factory.mktemp("render"))


def page_streams(pdf: Path) -> list[str]:
    return [page.get_contents().get_data().decode("latin-1") for page in PdfReader(pdf).pages]


def qr_blocks(stream: str) -> list[re.Match]:
    """The QR codes drawn in a page stream: a ``cm`` whose y scale is the negated x scale (module
    units, y down) followed by a white quiet-zone square at ``-4 -4``."""
    return [m for m in QR_BLOCK.finditer(stream)
            if float(m["neg"]) == -float(m["scale"]) and f"-{QUIET_ZONE_MODULES} -{QUIET_ZONE_MODULES} " in m["body"]]


def test_each_qr_code_is_one_transform_and_whole_module_rectangles(built):
    cards = sum(1 for c in DB.games[GAME].cards.values() if c.type not in ("reference", "token"))
    codes = 0
    for pdf in built:
        for stream in page_streams(pdf):
            for block in qr_blocks(stream):
                codes += 1
                rects = RE_OP.findall(block["body"])
                assert len(rects) > 10
                for rect in rects:
                    assert all(re.fullmatch(r"-?\d+", v) for v in rect), f"not whole modules: {rect}"
                    # quiet zone square, or rectangles inside a symbol of at most version 40
                    assert all(-QUIET_ZONE_MODULES <= int(v) <= 177 + 2 * QUIET_ZONE_MODULES for v in rect)
    assert codes >= cards > 0, "every card's QR code is drawn in module units"


def test_back_pages_place_one_shared_form_per_slot(built):
    pdf = next(p for p in built if p.name == "draw-cards.pdf")
    reader = PdfReader(pdf)
    fronts, backs = reader.pages[0::2], reader.pages[1::2]
    assert backs and len(fronts) == len(backs)
    forms = set()
    for front, page in zip(fronts, backs):
        cards = len(qr_blocks(front.get_contents().get_data().decode("latin-1")))
        stream = page.get_contents().get_data().decode("latin-1")
        names = re.findall(r"/(FormXob\.pkface\d+) Do", stream)
        assert len(names) == cards > 0, "one Do per card of the sheet"
        assert len(set(names)) == 1
        assert " Tj" not in stream and "TJ" not in stream, "the back's text is in the form, not on the page"
        xobjects = page["/Resources"]["/XObject"]
        forms.add(xobjects["/" + names[0]].indirect_reference.idnum)
    assert len(forms) == 1, "the back is defined once in the file, every page refers to the same form"
    form = reader.get_object(forms.pop())
    assert form["/Subtype"] == "/Form"
    assert b" Tj" in form.get_data() or b"TJ" in form.get_data(), "the form draws the back's title"


def test_crop_marks_are_one_form_per_file(built):
    for pdf in built:
        streams = page_streams(pdf)
        names = {name for s in streams for name in re.findall(r"/(FormXob\.pkmarks\d+) Do", s)}
        assert len(names) == 1, pdf.name
        assert all(len(re.findall(r"/FormXob\.pkmarks\d+ Do", s)) == 1 for s in streams), pdf.name


def test_no_ascii85_and_streams_stay_compressed(built):
    for pdf in built:
        data = pdf.read_bytes()
        assert b"ASCII85Decode" not in data, pdf.name
        assert b"/FlateDecode" in data, pdf.name


def test_two_builds_give_identical_bytes(built, tmp_path):
    again = build_catalog(tmp_path / "again")
    assert [p.name for p in again] == [p.name for p in built]
    for first, second in zip(built, again):
        assert first.read_bytes() == second.read_bytes(), first.name


def test_every_qr_code_decodes_to_its_cards_url(built):
    decoded = []
    for pdf in built:
        doc = pypdfium2.PdfDocument(str(pdf))
        try:
            for page in doc:
                image = page.render(scale=300 / 72).to_pil()
                decoded += [r.text for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]
        finally:
            doc.close()
    game = DB.games[GAME]
    expected = sorted(card_qr_url(BASE_URL, game, c) for c in game.cards.values()
                      if c.type not in ("reference", "token"))
    assert sorted(decoded) == expected


@pytest.mark.parametrize("payload", [
    "http://192.168.1.20:5000/r/carpe_cras/temple-acolyte",
    "http://10.0.0.2:8000/r/cartisora/a",
    "https://example.org/r/carpe_diem/" + "x" * 120,
])
def test_dark_runs_cover_exactly_the_dark_modules(payload):
    matrix = qr_matrix(payload)
    covered = set()
    for row, col, length in qr_dark_runs(payload):
        cells = {(row, col + dx) for dx in range(length)}
        assert not cells & covered, "runs never overlap"
        covered |= cells
    dark = {(r, c) for r, line in enumerate(matrix) for c, v in enumerate(line) if v}
    assert covered == dark
    assert len(qr_dark_runs(payload)) < len(dark) / 1.5, "runs, not one square per module"
    ops = qr_fill_operators(payload).split("\n")
    assert ops[-1] == "f" and ops[:-1] == [f"{col} {row} {length} 1 re" for row, col, length in qr_dark_runs(payload)]


def test_fitted_text_is_drawn_as_measured_not_wrapped_again(monkeypatch):
    import io

    from reportlab.platypus import Paragraph

    from printkit.sheets.templating.layout import Face, Layout, LayoutSpec, TextRegion, fit_text
    from printkit.sheets.render import PageDrawer, new_canvas

    region = TextRegion(name="r", kind="text", x_mm=3, y_mm=3, w_mm=40, h_mm=20, text="", size_pt=9)
    fitted = fit_text(region, "Spend me: **heal** an adjacent ally 1.\n\nA second paragraph of rules text.")
    assert fitted is not None and len(fitted.paragraphs) == 2

    def no_wrap(self, *args):
        raise AssertionError("drawing wrapped a paragraph again")

    monkeypatch.setattr(Paragraph, "wrap", no_wrap)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, 63.5, 88.9, "t")
    face = Face(Layout(Path("t.yaml"), LayoutSpec(regions=[region]), {}), [fitted])
    PageDrawer(canvas, 88.9).face(face, *(2 * [Rect(0, 0, 63.5, 88.9)]))
    canvas.save()
    text = PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text()
    assert "heal" in text and "second paragraph" in text
