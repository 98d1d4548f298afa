"""Print-then-cut: Silhouette Type 1 registration marks on every sheet of card fronts, the same
marks in its SVG cut file, and cards that keep clear of them, measured from the output."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pdfplumber
import pytest
from click.testing import CliRunner

from printkit.cli import main as printkit_cli
from printkit.sheets.prepress.registration_marks import SILHOUETTE_TYPE_1

PT_PER_MM = 72 / 25.4
SVG = "{http://www.w3.org/2000/svg}"
BLEED_MM = 3.0


@pytest.fixture(scope="module", params=["letter", "a4"])
def marked(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"marks-{request.param}")
    result = CliRunner().invoke(printkit_cli, ["build", "cartisora", "--cards-only", "--registration-marks",
                                               "--paper", request.param, "--out", str(out),
                                               "--base-url", "http://table.example:5000"])
    assert result.exit_code == 0, result.output
    return out / "cartisora"


def filled_black_rects_mm(page) -> list[tuple[float, ...]]:
    return sorted((round(r["x0"] / PT_PER_MM, 2), round(r["top"] / PT_PER_MM, 2),
                   round(r["width"] / PT_PER_MM, 2), round(r["height"] / PT_PER_MM, 2))
                  for r in page.rects if r.get("fill") and r.get("non_stroking_color") in ((0,), (0, 0, 0), [0], [0, 0, 0]))


def expected_marks_mm(w_mm: float, h_mm: float) -> list[tuple[float, ...]]:
    return sorted((round(r.x_mm, 2), round(r.y_mm, 2), round(r.w_mm, 2), round(r.h_mm, 2))
                  for r in SILHOUETTE_TYPE_1.rects(w_mm, h_mm))


def test_every_sheet_of_fronts_carries_the_marks_and_no_back_does(marked):
    with pdfplumber.open(marked / "brute-cards.pdf") as pdf:
        assert len(pdf.pages) % 2 == 0  # long-edge duplex: fronts, backs, fronts, backs
        for number, page in enumerate(pdf.pages):
            w_mm, h_mm = page.width / PT_PER_MM, page.height / PT_PER_MM
            marks = [r for r in filled_black_rects_mm(page) if r in expected_marks_mm(w_mm, h_mm)]
            if number % 2 == 0:
                assert marks == expected_marks_mm(w_mm, h_mm)
                # Crop marks could be read as marks: a front sheet has none, no line at all
                # outside the cards' bleed.
                root = ET.parse(marked / f"brute-cards-sheet-{number // 2 + 1}.svg").getroot()
                cuts = [[float(r.get(k)) for k in ("x", "y", "width", "height")]
                        for r in root.find(f"{SVG}g[@id='cut']").iter(f"{SVG}rect")]
                left = (min(c[0] for c in cuts) - BLEED_MM) * PT_PER_MM
                top = (min(c[1] for c in cuts) - BLEED_MM) * PT_PER_MM
                right = (max(c[0] + c[2] for c in cuts) + BLEED_MM) * PT_PER_MM
                bottom = (max(c[1] + c[3] for c in cuts) + BLEED_MM) * PT_PER_MM
                outside = [ln for ln in page.lines if ln["x1"] < left - 0.01 or ln["x0"] > right + 0.01
                           or ln["bottom"] < top - 0.01 or ln["top"] > bottom + 0.01]
                assert outside == []
            else:
                assert marks == []


def test_the_cut_file_has_the_same_marks_and_every_cut_lies_between_them_clear_of_them(marked):
    sheets = sorted(marked.glob("brute-cards-sheet-*.svg"))
    assert sheets
    with pdfplumber.open(marked / "brute-cards.pdf") as pdf:
        w_mm, h_mm = pdf.pages[0].width / PT_PER_MM, pdf.pages[0].height / PT_PER_MM
    keep_clear = SILHOUETTE_TYPE_1.keep_clear(w_mm, h_mm)
    area = SILHOUETTE_TYPE_1.cut_area(w_mm, h_mm)
    for sheet in sheets:
        root = ET.parse(sheet).getroot()
        marks = root.find(f"{SVG}g[@id='registration']")
        got = sorted(tuple(round(float(r.get(k)), 2) for k in ("x", "y", "width", "height"))
                     for r in marks.iter(f"{SVG}rect"))
        assert got == expected_marks_mm(w_mm, h_mm)
        cuts = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
                for r in root.find(f"{SVG}g[@id='cut']").iter(f"{SVG}rect")]
        assert len(cuts) == 6 or sheet == sheets[-1]
        for x, y, w, h in cuts:
            assert area.x_mm <= x and x + w <= area.x_mm + area.w_mm
            assert area.y_mm <= y and y + h <= area.y_mm + area.h_mm
            bx, by, bw, bh = x - BLEED_MM, y - BLEED_MM, w + 2 * BLEED_MM, h + 2 * BLEED_MM
            for k in keep_clear:
                assert (bx + bw <= k.x_mm or k.x_mm + k.w_mm <= bx or by + bh <= k.y_mm
                        or k.y_mm + k.h_mm <= by), f"card at {x},{y} touches a mark"


def test_the_build_says_how_many_cards_fit_beside_the_marks(tmp_path):
    result = CliRunner().invoke(printkit_cli, ["build", "cartisora", "--cards-only", "--registration-marks",
                                               "--out", str(tmp_path), "--base-url", "http://t.example"])
    assert re.search(r"^cartisora brute, fencer, guardian, hunter, knight, trickster: 6 poker cards per Letter "
                     r"sheet \(3 x 2\)$", result.output, re.MULTILINE)


def test_registration_marks_with_fold_over_sheets_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(printkit_cli, ["build", "cartisora", "--registration-marks", "--duplex", "fold",
                                               "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "folded sheet" in result.output


def test_the_print_this_page_tells_to_cut_with_the_marks_not_along_crop_marks(tmp_path):
    import pypdf

    def assembly(*extra: str) -> str:
        out = tmp_path / "-".join(extra or ("plain",))
        result = CliRunner().invoke(printkit_cli, ["build", "carpe_diem", "--out", str(out),
                                                   "--base-url", "http://t.example", *extra])
        assert result.exit_code == 0, result.output
        return " ".join(pypdf.PdfReader(out / "carpe_diem" / "print-this.pdf").pages[0].extract_text().split())

    marked, plain = assembly("--registration-marks"), assembly()
    assert "Silhouette" in marked and "registration marks" in marked and "crop marks" not in marked
    assert "cut along the crop marks" in plain and "Silhouette" not in plain
