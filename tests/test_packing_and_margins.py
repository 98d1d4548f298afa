"""Shared sheets and printers' margins, measured from the PDFs printkit writes.

- A game's tokens, whatever their shapes and sizes, share sheets: as few pages as their areas
  allow (every bundled game's tokens on one page); token backs land behind their fronts after a
  long-edge flip.
- A single card (Carpe Diem's fountain card) prints as a fold-over pair on a shared page (the
  score pad's), not as a duplex sheet of its own; its QR code still decodes.
- No ink within 5 mm of the paper's edge in any file of a bundled build on Letter or A4, except
  where the build says so on stderr and names the way out (3 x 3 poker cards on Letter); with
  ``--safe-margins`` none at all.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
import zxingcpp
from click.testing import CliRunner
from pdf_measure import box_of, mm

from card_data.loader import load_database
from database_edits import copy_layouts
from printkit.pipeline.card_faces import card_qr_url
from printkit.cli import main as printkit_cli
from printkit.components.boards import render_extras
from printkit.components.packing import FOLD_LINE_STROKE_PT, PIECE_CLEARANCE_MM
from printkit.components.tiling import PAGE_MARGIN_MM
from printkit.components.tokens import HEADER_H_MM, TOKEN_CUT_STROKE_PT
from printkit.sheets.prepress.imposition import impose_most, margin_note
from printkit.sheets.templating.layout import LAYOUTS_DIR
from printkit.sheets.prepress.paper import PAPERS, PRINTER_MARGIN_MM, paper_by_name

BASE_URL = "http://192.168.1.20:5000"
DB = load_database()
CROP_STROKE_PT = 0.25
RASTER_DPI = 100


def open_pdf(data: bytes) -> pdfplumber.PDF:
    return pdfplumber.open(io.BytesIO(data))


def near(a: float, b: float, tol: float = 0.01) -> bool:
    return abs(a - b) < tol


def token_cuts(page) -> list:
    """Boxes (mm) of the token cut lines on a page: circles and squares of the cut stroke."""
    objs = [c for c in page.curves if near(c["linewidth"], TOKEN_CUT_STROKE_PT) and c.get("stroke")]
    objs += [r for r in page.rects if near(r["linewidth"], TOKEN_CUT_STROKE_PT) and r.get("stroke")]
    return [box_of(o) for o in objs]


# ---- tokens: one shared sheet per game ---------------------------------------------------------

@pytest.fixture(scope="module", params=["letter", "a4"])
def extras(request):
    paper = PAPERS[request.param]
    return paper, {g.game_id: render_extras(g, paper, LAYOUTS_DIR) for g in DB.games.values()}


def test_every_games_tokens_fill_the_fewest_pages_their_areas_allow(extras):
    paper, by_game = extras
    usable_mm2 = (paper.width_mm - 2 * PAGE_MARGIN_MM) * (paper.height_mm - 2 * PAGE_MARGIN_MM - HEADER_H_MM)
    games_with_tokens = 0
    for game_id, files in by_game.items():
        if "tokens.pdf" not in files:
            continue
        games_with_tokens += 1
        doc = open_pdf(files["tokens.pdf"])
        per_page = [token_cuts(p) for p in doc.pages]
        tokens = [b for page in per_page for b in page]
        assert tokens and all(per_page), (game_id, [len(p) for p in per_page])
        # Each token with the least clearance between cuts: no packing can use less paper.
        area = sum((b.x1 - b.x0 + PIECE_CLEARANCE_MM) * (b.bottom - b.top + PIECE_CLEARANCE_MM) for b in tokens)
        assert len(doc.pages) == max(1, math.ceil(area / usable_mm2)), (game_id, len(doc.pages), area)
        sizes = {round(b.x1 - b.x0, 1) for b in tokens}
        if game_id == "carpe_cras":
            # Two sizes of token (the 40 mm Carpe Cras Token, 22 mm counters) on one page:
            # it took a page of its own before.
            assert sizes == {40.0, 22.0} and len(doc.pages) == 1
    assert games_with_tokens == 3


def test_more_tokens_than_a_page_holds_take_the_fewest_whole_pages(tmp_path):
    layouts = copy_layouts(tmp_path / "templates", DB)
    path = layouts / "cahrd" / "token-lieutenant-defeat.yaml"
    path.write_text(path.read_text().replace('copies: "{{ tables.constants.lieutenants_defeated_to_win.value * 2 }}"',
                                             "copies: 70"))
    paper = PAPERS["letter"]
    doc = open_pdf(render_extras(DB.games["cahrd"], paper, layouts)["tokens.pdf"])
    counts = [len(token_cuts(p)) for p in doc.pages]
    # 25 mm tokens 3 mm apart: 7 across and 8 down fit within the margins and the heading.
    across = int((paper.width_mm - 2 * PAGE_MARGIN_MM + 3) // 28)
    down = int((paper.height_mm - 2 * PAGE_MARGIN_MM - HEADER_H_MM + 3) // 28)
    assert counts == [across * down, 70 - across * down]
    assert "sheet 1 of 2" in doc.pages[0].extract_text()


def test_token_backs_land_behind_their_fronts_after_a_long_edge_flip(tmp_path):
    layouts = copy_layouts(tmp_path / "templates", DB)
    path = layouts / "cartisora" / "token-bonus.yaml"
    path.write_text(path.read_text().replace("tokens:\n", 'back:\n  text: "Bonus"\n  fill: "#203040"\ntokens:\n', 1))
    paper = PAPERS["letter"]
    doc = open_pdf(render_extras(DB.games["cartisora"], paper, layouts)["tokens.pdf"])
    assert len(doc.pages) == 2
    fronts = token_cuts(doc.pages[0])
    backs = [box_of(r) for r in doc.pages[1].rects if r.get("fill") and not r.get("stroke")]
    assert len(fronts) == len(backs) == 2
    for front in fronts:
        # Flipped over the long (left/right) edge, x mirrors and y stays.
        match = [b for b in backs if near(b.cx, paper.width_mm - front.cx, 0.05) and near(b.cy, front.cy, 0.05)]
        assert len(match) == 1
        assert match[0].x1 - match[0].x0 > front.x1 - front.x0  # a little bleed beyond the cut
    assert "Bonus" in doc.pages[1].extract_text()


# ---- a single card on a shared sheet -----------------------------------------------------------

def decode_page(pdf: Path, page_index: int, dpi: int = 300) -> list[str]:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        image = doc[page_index].render(scale=dpi / 72).to_pil()
        return [r.text for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]
    finally:
        doc.close()


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """The bundled database built as a player would (default kit) on Letter and on A4:
    ``{paper: (output folder, stderr)}``."""
    out = {}
    for paper in ("letter", "a4"):
        folder = tmp_path_factory.mktemp(paper)
        result = CliRunner().invoke(printkit_cli, ["build", "--out", str(folder), "--base-url", BASE_URL,
                                                   "--paper", paper])
        assert result.exit_code == 0, result.output
        out[paper] = (folder, result.stderr)
    return out


def test_the_fountain_card_shares_the_score_pad_page_as_a_fold_over_pair(builds):
    folder, _ = builds["letter"]
    game = folder / "carpe_diem"
    assert not list(game.glob("fountain*-cards.pdf"))
    pad = game / "scorepad.pdf"
    with pdfplumber.open(pad) as doc:
        assert len(doc.pages) == 1  # one page: the pad and the card together
        page = doc.pages[0]
        fold = [ln for ln in page.lines if near(ln["linewidth"], FOLD_LINE_STROKE_PT) and (ln.get("dash") or [[]])[0]]
        marks = [ln for ln in page.lines if near(ln["linewidth"], CROP_STROKE_PT)]
        assert len(fold) == 1 and marks
    # The card is turned a quarter turn under the pad: its fold line runs down the page, and the
    # crop marks above and below the pair give the front's and the back's trims, mirror images
    # across the fold with the bleed between each trim and the fold.
    fold_x = mm(fold[0]["x0"])
    assert near(fold[0]["x0"], fold[0]["x1"], 0.01)
    xs = sorted({round(mm(ln["x0"]), 2) for ln in marks if near(ln["x0"], ln["x1"], 0.01)})
    assert len(xs) == 4
    assert xs[1] - xs[0] == pytest.approx(88.9, abs=0.05) and xs[3] - xs[2] == pytest.approx(88.9, abs=0.05)
    assert fold_x - xs[1] == pytest.approx(3.0, abs=0.05) and xs[2] - fold_x == pytest.approx(3.0, abs=0.05)
    assert decode_page(pad, 0) == [card_qr_url(BASE_URL, DB.games["carpe_diem"], DB.games["carpe_diem"].cards["fountain-gardens"])]


# ---- printers' margins -------------------------------------------------------------------------

def ink_in_margin(pdf: Path) -> list[str]:
    """Where a page has ink within ``PRINTER_MARGIN_MM`` of its edge: rendered (so a clipped
    board piece counts only what shows) and, outside tiled boards, every pdfplumber object."""
    found = []
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        for i, page in enumerate(doc):
            image = page.render(scale=RASTER_DPI / 72, grayscale=True).to_pil()
            w, h = image.size
            # Pixels wholly inside the band (anti-aliasing may touch the pixel on its border).
            band = int((PRINTER_MARGIN_MM - 0.1) / 25.4 * RASTER_DPI)
            px = image.load()
            in_band = ((x, y) for y in range(h)
                       for x in (range(w) if y < band or y >= h - band else [*range(band), *range(w - band, w)]))
            for x, y in in_band:
                if px[x, y] < 250:
                    found.append(f"page {i + 1}: ink at {x * 25.4 / RASTER_DPI:.1f}, {y * 25.4 / RASTER_DPI:.1f} mm")
                    break
    finally:
        doc.close()
    with pdfplumber.open(pdf) as doc:
        if doc.pages[0].extract_text().splitlines()[0].endswith("– assembly"):
            return found  # a tiled board draws the whole board clipped to each piece
        for i, page in enumerate(doc.pages):
            w, h = mm(page.width), mm(page.height)
            for kind in ("chars", "lines", "rects", "curves", "images"):
                for o in getattr(page, kind):
                    b = box_of(o)
                    half = mm(o.get("linewidth") or 0) / 2 if o.get("stroke") or kind == "lines" else 0
                    # A stroke spreads half its width beyond the path; a straight line's butt
                    # ends do not.
                    dx = 0 if kind == "lines" and near(o["top"], o["bottom"]) else half
                    dy = 0 if kind == "lines" and near(o["x0"], o["x1"]) else half
                    near_mm = min(b.x0 - dx, b.top - dy, w - b.x1 - dx, h - b.bottom - dy)
                    if near_mm < PRINTER_MARGIN_MM - 0.01:
                        found.append(f"page {i + 1}: {kind[:-1]} {near_mm:.2f} mm from the edge")
                        break
    return found


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_no_ink_within_5_mm_of_the_edge_unless_the_build_says_so(builds, paper):
    folder, stderr = builds[paper]
    pdfs = sorted(folder.glob("*/*.pdf"))
    assert len(pdfs) > 10
    offenders = {f"{p.parent.name}/{p.name}": found for p in pdfs if (found := ink_in_margin(p))}
    if paper == "a4":
        assert offenders == {}
        assert "from the paper's edge" not in stderr
        return
    # Letter: 3 x 3 poker cards leave 6.35 mm above and below. The build keeps the nine cards,
    # says so once, and names both ways out with the cards per sheet each gives.
    notes = [line for line in stderr.splitlines() if "from the paper's edge" in line]
    assert notes == [("On Letter, 9 cards per sheet (3 x 3) bring the bleed and crop marks to 0.0 mm from the "
                      "paper's edge, inside the outer 5 mm that most laser printers leave blank: some crop marks may "
                      "not print. To keep every mark 5 mm in, use --paper a4 (9 cards per A4 sheet) or "
                      "--safe-margins (6 cards per Letter sheet).")]
    assert offenders and all(name.endswith("-cards.pdf") for name in offenders), sorted(offenders)


def test_safe_margins_keep_every_mark_5_mm_in_with_fewer_cards(tmp_path):
    result = CliRunner().invoke(printkit_cli, ["build", "cartisora", "--out", str(tmp_path), "--base-url", BASE_URL,
                                               "--paper", "letter", "--safe-margins", "--cards-only"])
    assert result.exit_code == 0, result.output
    assert "6 poker cards per Letter sheet (3 x 2)" in result.stderr
    assert "from the paper's edge" not in result.stderr
    pdfs = sorted(tmp_path.glob("cartisora/*-cards.pdf"))
    assert pdfs
    for pdf in pdfs:
        assert ink_in_margin(pdf) == [], pdf
        with pdfplumber.open(pdf) as doc:  # every trim line still has its crop marks
            marks = [ln for ln in doc.pages[0].lines if near(ln["linewidth"], CROP_STROKE_PT)]
            assert len({round(ln["x0"], 2) for ln in marks if near(ln["x0"], ln["x1"])}) == 4
            assert len({round(ln["top"], 2) for ln in marks if near(ln["top"], ln["bottom"])}) == 3


@pytest.mark.parametrize("paper,size,cols,rows", [("a4", (63.5, 88.9), 3, 3), ("letter", (63.5, 88.9), 3, 2),
                                                  ("a4", (57.2, 88.9), 3, 3), ("a3", (63.5, 88.9), 4, 4)])
def test_safe_margin_grids_hold_as_many_cards_as_5_mm_margins_allow(paper, size, cols, rows):
    imp = impose_most(paper_by_name(paper, safe_margins=True), *size, 3.0)
    assert (imp.cols, imp.rows) == (cols, rows)
    assert imp.ink_margin_mm >= PRINTER_MARGIN_MM - 1e-9
    assert margin_note(imp) is None
