"""Print controls, measured from the files printkit writes: calibration rulers and registration
targets, back offset, fold-over pairs, SVG cut files, paper and card sizes, CMYK."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from database_edits import copy_database
from pdf_measure import Box, box_of, crop_marks, drawn_objects, mm
from pypdf import PdfReader
from pypdf.generic import ContentStream

from card_data.schema import CardSize
from printkit.build_options import BLEED_MM
from printkit.cli import main as printkit_cli
from printkit.sheets.prepress.imposition import (
    CROP_MARK_GAP_MM,
    MIN_CROP_MARK_MM,
    impose_fold,
    impose_most,
)
from printkit.sheets.prepress.paper import paper_by_name

BASE_URL = "http://192.168.1.20:5000"
SVG = "{http://www.w3.org/2000/svg}"


def invoke(*args: str):
    return CliRunner().invoke(printkit_cli, list(args))


def run_build(out: Path, *args: str, data: Path | None = None):
    """`printkit build --catalog` (every card once: the print geometry is what is measured here)."""
    extra = ["--data", str(data)] if data is not None else []
    return invoke("build", "--catalog", "--out", str(out), "--base-url", BASE_URL, *args, *extra)


def data_with_card_size(tmp_path: Path, game: str, card_size_yaml: str) -> Path:
    """A copy of the bundled database whose ``game`` has ``card_size_yaml`` as its card_size."""
    data = tmp_path / "data"
    copy_database(data)
    path = data / game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    old = "card_size:\n  width_mm: 63.5\n  height_mm: 88.9\n"
    assert old in text
    path.write_text(text.replace(old, card_size_yaml), encoding="utf-8")
    return data


def vertical(ln) -> bool:
    return abs(ln["x0"] - ln["x1"]) < 1e-6


def horizontal(ln) -> bool:
    return abs(ln["top"] - ln["bottom"]) < 1e-6


# ---- calibration ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def calibration(tmp_path_factory) -> dict[tuple[str, str], Path]:
    outs = {}
    for paper, flip in (("letter", "long"), ("a4", "short"), ("a3", "long")):
        out = tmp_path_factory.mktemp(f"cal-{paper}")
        result = invoke("calibration", "--paper", paper, "--duplex", flip, "--out", str(out))
        assert result.exit_code == 0, result.output
        outs[(paper, flip)] = out / "calibration.pdf"
    return outs


def ruler_ticks(lines: list, along: str) -> tuple[list[float], float]:
    """The 101 ticks of a ruler: positions along it (mm, sorted) and where they start across it.

    A ruler's ticks all start on its baseline, so they are the one large group of parallel
    lines sharing a start coordinate."""
    groups: dict[float, list[float]] = {}
    for ln in lines:
        if along == "x" and vertical(ln):
            groups.setdefault(round(mm(ln["top"]), 2), []).append(mm(ln["x0"]))
        elif along == "y" and horizontal(ln):
            groups.setdefault(round(mm(ln["x0"]), 2), []).append(mm(ln["top"]))
    start, ticks = max(groups.items(), key=lambda kv: len(kv[1]))
    return sorted(ticks), start


@pytest.mark.parametrize("paper", ["letter", "a4", "a3"])
def test_rulers_are_exactly_100_mm_with_a_tick_every_millimetre(calibration, paper):
    pdf = next(p for (name, _), p in calibration.items() if name == paper)
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        assert mm(page.width) == pytest.approx(paper_by_name(paper).width_mm, abs=0.01)
        words = page.extract_words()
        for along in ("x", "y"):
            ticks, baseline = ruler_ticks(page.lines, along)
            assert len(ticks) == 101, (along, len(ticks))
            assert ticks[-1] - ticks[0] == pytest.approx(100.0, abs=0.01)
            for a, b in zip(ticks, ticks[1:]):
                assert b - a == pytest.approx(1.0, abs=0.01)
            # The labels stand at their ticks: "50" at the 50 mm tick, "100" at the last.
            for label in ("0", "50", "100"):
                pos = ticks[int(label)]
                hits = [w for w in words if w["text"] == label and (
                    abs(mm((w["x0"] + w["x1"]) / 2) - pos) < 0.5 and mm(w["top"]) > baseline if along == "x"
                    else abs(mm((w["top"] + w["bottom"]) / 2) - pos) < 1.0 and mm(w["x0"]) > baseline)]
                assert hits, (along, label)
        text = page.extract_text()
        assert "actual size / 100 %" in text


def test_card_outline_is_the_card_size_and_the_default_is_poker(calibration):
    with pdfplumber.open(calibration[("letter", "long")]) as doc:
        page = doc.pages[0]
        outlines = [box_of(c) for c in page.curves]
        assert len(outlines) == 1
        o = outlines[0]
        assert (o.x1 - o.x0, o.bottom - o.top) == (pytest.approx(63.5, abs=0.02), pytest.approx(88.9, abs=0.02))
        assert "63.5 x 88.9 mm" in page.extract_text()


def test_calibration_draws_the_games_card_size(tmp_path):
    data = data_with_card_size(tmp_path, "cartisora", "card_size:\n  name: tarot\n  corner_radius_mm: 4\n")
    result = invoke("calibration", "--game", "cartisora", "--data", str(data), "--out", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "o" / "calibration.pdf") as doc:
        o = box_of(doc.pages[0].curves[0])
        assert (o.x1 - o.x0, o.bottom - o.top) == (pytest.approx(70, abs=0.02), pytest.approx(120, abs=0.02))
        assert "corner radius 4 mm" in doc.pages[0].extract_text()
    result = invoke("calibration", "--game", "chess", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2 and "no such game 'chess'" in result.output


def _centre_marks(page) -> list[tuple[float, float]]:
    """Centres of the 2 mm "+" marks on the registration front."""
    short = [ln for ln in page.lines if vertical(ln) and abs(mm(ln["bottom"] - ln["top"]) - 2) < 0.01]
    return sorted((round(mm(ln["x0"]), 3), round(mm(ln["top"]) + 1, 3)) for ln in short)


def _crosshairs(page) -> list[tuple[float, float]]:
    """Where each crosshair's vertical and horizontal line cross, on the registration back."""
    vs = [ln for ln in page.lines if vertical(ln)]
    hs = [ln for ln in page.lines if horizontal(ln)]
    assert len(vs) == len(hs) == 9
    out = []
    for v in vs:
        x = mm(v["x0"])
        h = next(h for h in hs if mm(h["x0"]) < x < mm(h["x1"]) and mm(v["top"]) < mm(h["top"]) < mm(v["bottom"]))
        out.append((x, mm(h["top"])))
    return out


@pytest.mark.parametrize("paper,flip", [("letter", "long"), ("a4", "short"), ("a3", "long")])
def test_registration_crosshairs_land_on_the_targets_after_the_flip(calibration, paper, flip):
    with pdfplumber.open(calibration[(paper, flip)]) as doc:
        assert len(doc.pages) == 3
        front, back = doc.pages[1], doc.pages[2]
        w, h = mm(front.width), mm(front.height)
        centres = _centre_marks(front)
        assert len(centres) == 9
        seen_from_front = sorted(((w - x, y) if flip == "long" else (x, h - y)) for x, y in _crosshairs(back))
        for (cx, cy), (bx, by) in zip(centres, seen_from_front):
            assert (bx, by) == (pytest.approx(cx, abs=0.05), pytest.approx(cy, abs=0.05))


def scale_numbers(page) -> list[dict]:
    """Printed numbers as words: characters on one baseline with no gap between them.

    pdfplumber's own word grouping joins neighbouring scale numbers (they stand about 0.3 mm
    apart) or splits a stacked "-1", so the grouping is done here."""
    chars = sorted(page.chars, key=lambda ch: (round(ch["top"], 1), ch["x0"]))
    words: list[dict] = []
    for ch in chars:
        last = words[-1] if words else None
        if last and round(last["top"], 1) == round(ch["top"], 1) and abs(ch["x0"] - last["x1"]) < 0.05:
            last.update(text=last["text"] + ch["text"], x1=ch["x1"], bottom=max(last["bottom"], ch["bottom"]))
        else:
            words.append({k: ch[k] for k in ("text", "x0", "x1", "top", "bottom")})
    return words


def _scale_label_at(words, axis: str, centre: tuple[float, float], at_mm: float) -> str:
    """The number printed on a target's X (or Y) scale nearest to ``at_mm`` from its centre."""
    cx, cy = centre
    best = None
    for wd in words:
        wx, wy = mm((wd["x0"] + wd["x1"]) / 2), mm((wd["top"] + wd["bottom"]) / 2)
        if axis == "x" and cy + 5 < wy < cy + 14 and abs(wx - cx) < 6:
            d = abs(wx - (cx + at_mm))
        elif axis == "y" and cx + 4 < wx < cx + 14 and abs(wy - cy) < 6:
            d = abs(wy - (cy + at_mm))
        else:
            continue
        if best is None or d < best[0]:
            best = (d, wd["text"])
    assert best is not None and best[0] < 0.4, (axis, at_mm, best)
    return best[1]


@pytest.mark.parametrize("paper,flip", [("letter", "long"), ("a4", "short")])
@pytest.mark.parametrize("drift_mm", [(1.0, -2.0), (-3.0, 4.0)])
def test_the_scales_read_the_back_offset_that_cancels_a_drift(calibration, paper, flip, drift_mm):
    """A printer shifting the back by ``drift`` makes the back's crosshair show through at a
    mirrored place; the number printed there must be the --back-offset that undoes it (-drift)."""
    dx, dy = drift_mm
    with pdfplumber.open(calibration[(paper, flip)]) as doc:
        front = doc.pages[1]
        words = scale_numbers(front)
        for centre in _centre_marks(front):
            # Turning the sheet over its long edge mirrors x; over its short edge, y.
            seen_x, seen_y = (-dx, dy) if flip == "long" else (dx, -dy)
            assert float(_scale_label_at(words, "x", centre, seen_x)) == -dx
            assert float(_scale_label_at(words, "y", centre, seen_y)) == -dy


# ---- card sheets ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> dict[str, Path]:
    """Duels of Cartisora (a partly filled last sheet) built several ways."""
    outs = {}
    for name, args in {"long": ["--duplex", "long"],
                       "long-offset": ["--duplex", "long", "--back-offset", "1.5,-0.8"],
                       "none": ["--duplex", "none"],
                       "none-offset": ["--duplex", "none", "--back-offset", "1.5,-0.8"],
                       "fold-letter": ["--duplex", "fold"],
                       "fold-a3": ["--duplex", "fold", "--paper", "a3"],
                       "a3": ["--paper", "a3", "--duplex", "short"],
                       "cmyk": ["--cmyk", "--duplex", "fold"]}.items():
        out = tmp_path_factory.mktemp(name)
        result = run_build(out, "cartisora", *args)
        assert result.exit_code == 0, result.output
        outs[name] = out
        (out / "stderr.txt").write_text(result.output)
    return outs


def page_objects(page) -> list[Box]:
    """Everything drawn on a page, crop marks included, in drawing order."""
    return [box_of(o) for o in page.lines + page.rects + page.curves + page.chars]


@pytest.mark.parametrize("variant,pdf_name,back_pages", [
    ("long", "character-cards.pdf", slice(1, None, 2)),
    ("none", "character-backs.pdf", slice(0, None)),
])
def test_back_offset_moves_every_back_by_exactly_that_amount(sheets, variant, pdf_name, back_pages):
    plain = sheets[variant] / "cartisora" / pdf_name
    shifted = sheets[f"{variant}-offset"] / "cartisora" / pdf_name
    with pdfplumber.open(plain) as a, pdfplumber.open(shifted) as b:
        assert len(a.pages) == len(b.pages)
        backs = set(range(len(a.pages))[back_pages])
        assert backs
        for i, (pa, pb) in enumerate(zip(a.pages, b.pages)):
            before, after = page_objects(pa), page_objects(pb)
            assert len(before) == len(after) > 0
            dx, dy = (1.5, -0.8) if i in backs else (0.0, 0.0)
            for o, s in zip(before, after):
                for got, want in ((s.x0, o.x0 + dx), (s.x1, o.x1 + dx), (s.top, o.top + dy), (s.bottom, o.bottom + dy)):
                    assert got == pytest.approx(want, abs=0.05), (i, o, s)


@pytest.mark.parametrize("value", ["1.5", "a,b", "1,2,3", "80,0"])
def test_a_malformed_back_offset_is_a_usage_error(tmp_path, value):
    result = run_build(tmp_path, "cartisora", "--back-offset", value)
    assert result.exit_code == 2, result.output
    assert "--back-offset" in result.output and not (tmp_path / "cartisora").exists()


def test_back_offset_with_fold_over_is_a_usage_error(tmp_path):
    result = run_build(tmp_path, "cartisora", "--duplex", "fold", "--back-offset", "1,0")
    assert result.exit_code == 2 and "fold" in result.output


def _fold_line_x(page) -> float:
    dashed = [ln for ln in page.lines if vertical(ln) and ln.get("dash") and ln["dash"][0]
              and mm(ln["bottom"] - ln["top"]) > mm(page.height) - 0.1]
    assert len(dashed) == 1
    return mm(dashed[0]["x0"])


def _cells(xs: list[float], ys: list[float]) -> list[Box]:
    return [Box(x0, y0, x1, y1) for y0, y1 in zip(ys, ys[1:]) for x0, x1 in zip(xs, xs[1:])]


def _shown_in(cell: Box, objects: list[Box], left_bleed: float, right_bleed: float, top_bleed: float,
              bottom_bleed: float) -> Box | None:
    """Union of what shows in a trim cell (objects centred in it, clipped to it plus bleed)."""
    area = Box(cell.x0 - left_bleed, cell.top - top_bleed, cell.x1 + right_bleed, cell.bottom + bottom_bleed)
    inside = [Box(max(o.x0, area.x0), max(o.top, area.top), min(o.x1, area.x1), min(o.bottom, area.bottom))
              for o in objects if cell.x0 <= o.cx <= cell.x1 and cell.top <= o.cy <= cell.bottom]
    if not inside:
        return None
    return Box(min(o.x0 for o in inside), min(o.top for o in inside), max(o.x1 for o in inside),
               max(o.bottom for o in inside))


@pytest.mark.parametrize("variant,paper", [("fold-letter", "letter"), ("fold-a3", "a3")])
def test_fold_over_pairs_mirror_about_the_fold_line(sheets, variant, paper):
    partial = 0
    with pdfplumber.open(sheets[variant] / "cartisora" / "character-cards.pdf") as doc:
        for page in doc.pages:
            w = mm(page.width)
            assert {round(w, 1), round(mm(page.height), 1)} == {round(v, 1) for v in (
                paper_by_name(paper).width_mm, paper_by_name(paper).height_mm)}
            fold = _fold_line_x(page)
            assert fold == pytest.approx(w / 2, abs=0.05)
            xs, ys, marks = crop_marks(page)
            left, right = [x for x in xs if x < fold], [x for x in xs if x > fold]
            assert len(left) == len(right) >= 2
            # The backs' trim lines are the fronts' mirrored across the fold line.
            for a, b in zip(left, reversed(right)):
                assert fold - a == pytest.approx(b - fold, abs=0.1)
            # The front and back meet at the fold in their bleed: no card is cut by the fold.
            assert fold - left[-1] == pytest.approx(BLEED_MM, abs=0.1)
            assert all(not (m.x0 < fold < m.x1) for m in marks)
            objects = drawn_objects(page)
            fronts = _cells(left, ys)
            backs = _cells(right, ys)
            shown_fronts = shown_backs = 0
            n_cols = len(left) - 1
            for i, cell in enumerate(fronts):
                r, c = divmod(i, n_cols)
                edge = dict(top_bleed=BLEED_MM if r == 0 else 0, bottom_bleed=BLEED_MM if r == len(ys) - 2 else 0)
                front = _shown_in(cell, objects, BLEED_MM if c == 0 else 0, BLEED_MM if c == n_cols - 1 else 0, **edge)
                # The pair's back cell: the front's cell mirrored across the fold.
                back_cell = next(b for b in backs if abs(b.x0 - (2 * fold - cell.x1)) < 0.1 and abs(b.top - cell.top) < 0.1)
                assert back_cell.x1 == pytest.approx(2 * fold - cell.x0, abs=0.1)
                back = _shown_in(back_cell, objects, BLEED_MM if c == n_cols - 1 else 0, BLEED_MM if c == 0 else 0, **edge)
                assert (front is None) == (back is None), (page.page_number, i)
                if front is None:
                    continue
                shown_fronts += 1
                shown_backs += 1
                for got, want in ((back.x0, 2 * fold - front.x1), (back.x1, 2 * fold - front.x0),
                                  (back.top, front.top), (back.bottom, front.bottom)):
                    assert got == pytest.approx(want, abs=0.1), (page.page_number, i, front, back)
            assert shown_fronts == shown_backs > 0
            if shown_fronts < len(fronts):
                partial += 1
    assert partial == 1, "the last page is partly filled, where a wrong pairing would show"


def _svg_rects(path: Path) -> tuple[ET.Element, list[Box], set[str]]:
    root = ET.parse(path).getroot()
    rects = root.findall(f".//{SVG}rect")
    boxes = [Box(float(r.get("x")), float(r.get("y")), float(r.get("x")) + float(r.get("width")),
                 float(r.get("y")) + float(r.get("height"))) for r in rects]
    return root, boxes, {r.get("rx") for r in rects} | {r.get("ry") for r in rects}


@pytest.mark.parametrize("variant,fronts_every", [("long", 2), ("none", 1), ("a3", 2), ("fold-letter", 1)])
def test_svg_cut_paths_coincide_with_the_pdfs_trim_lines(sheets, variant, fronts_every):
    folder = sheets[variant] / "cartisora"
    with pdfplumber.open(folder / "character-cards.pdf") as doc:
        front_pages = doc.pages[::fronts_every]
        svgs = sorted(folder.glob("character-cards-sheet-*.svg"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        assert [p.name for p in svgs] == [f"character-cards-sheet-{n}.svg" for n in range(1, len(front_pages) + 1)]
        for page, svg in zip(front_pages, svgs):
            root, rects, radii = _svg_rects(svg)
            w, h = mm(page.width), mm(page.height)
            assert root.get("width") == f"{w:.3f}".rstrip("0").rstrip(".") + "mm"
            assert float(root.get("height").removesuffix("mm")) == pytest.approx(h, abs=0.01)
            assert [float(v) for v in root.get("viewBox").split()] == pytest.approx([0, 0, w, h], abs=0.01)
            assert radii == {"3"}
            xs, ys, _ = crop_marks(page)
            if variant.startswith("fold"):
                xs = [x for x in xs if x < w / 2]
            cells = _cells(xs, ys)
            objects = drawn_objects(page)
            filled = [c for c in cells if any(c.x0 < o.cx < c.x1 and c.top < o.cy < c.bottom for o in objects)]
            assert len(rects) == len(filled) > 0
            for rect in rects:
                cell = min(cells, key=lambda c: abs(c.x0 - rect.x0) + abs(c.top - rect.top))
                for got, want in ((rect.x0, cell.x0), (rect.x1, cell.x1), (rect.top, cell.top), (rect.bottom, cell.bottom)):
                    assert got == pytest.approx(want, abs=0.1), (svg.name, rect, cell)


def test_cut_files_use_the_corner_radius_from_the_data_and_stale_sheets_go(tmp_path):
    data = data_with_card_size(tmp_path, "cartisora", "card_size:\n  name: poker\n  corner_radius_mm: 4.5\n")
    out = tmp_path / "out"
    assert run_build(out, "cartisora", data=data).exit_code == 0
    letter_sheets = len(list((out / "cartisora").glob("character-cards-sheet-*.svg")))
    _, _, radii = _svg_rects(out / "cartisora" / "character-cards-sheet-1.svg")
    assert radii == {"4.5"}
    assert run_build(out, "cartisora", "--paper", "a3", data=data).exit_code == 0
    with pdfplumber.open(out / "cartisora" / "character-cards.pdf") as doc:
        a3_sheets = len(doc.pages) // 2
    assert a3_sheets < letter_sheets
    assert len(list((out / "cartisora").glob("character-cards-sheet-*.svg"))) == a3_sheets


# ---- paper and card sizes ------------------------------------------------------------------

FITS = {  # (paper, card size) -> (cols, rows): the most portrait cards with bleed and crop marks
    ("letter", "poker"): (3, 3), ("a4", "poker"): (3, 3), ("a3", "poker"): (4, 4),
    ("letter", "bridge"): (3, 3), ("a4", "bridge"): (3, 3), ("a3", "bridge"): (5, 4),
    ("letter", "tarot"): (2, 2), ("a4", "tarot"): (2, 2), ("a3", "tarot"): (4, 3),
    ("letter", "mini"): (4, 4), ("a4", "mini"): (4, 4), ("a3", "mini"): (6, 6),
}


@pytest.mark.parametrize("paper,size", sorted(FITS))
def test_the_imposition_fits_as_many_cards_as_the_paper_allows(paper, size):
    p, card = paper_by_name(paper), CardSize(name=size)
    imp = impose_most(p, card.width_mm, card.height_mm, BLEED_MM)
    assert (imp.cols, imp.rows) == FITS[(paper, size)]
    margin = BLEED_MM + CROP_MARK_GAP_MM + MIN_CROP_MARK_MM
    assert imp.cols * card.width_mm + 2 * margin <= p.width_mm < (imp.cols + 1) * card.width_mm + 2 * margin
    assert imp.rows * card.height_mm + 2 * margin <= p.height_mm < (imp.rows + 1) * card.height_mm + 2 * margin


def test_fold_over_picks_the_orientation_holding_more_pairs():
    poker = CardSize(name="poker")
    letter = impose_fold(paper_by_name("letter"), poker.width_mm, poker.height_mm, BLEED_MM)
    assert (letter.cols, letter.rows, letter.paper.landscape) == (2, 2, True)
    tarot = CardSize(name="tarot")
    a4 = impose_fold(paper_by_name("a4"), tarot.width_mm, tarot.height_mm, BLEED_MM)
    assert (a4.cols, a4.rows, a4.paper.landscape) == (1, 2, False)


def test_a3_sheet_holds_4_x_4_poker_cards_and_says_so(sheets):
    assert "cartisora character: 16 poker cards per A3 sheet (4 x 4)" in (sheets["a3"] / "stderr.txt").read_text()
    assert "cartisora character: 9 poker cards per Letter sheet (3 x 3)" in (sheets["long"] / "stderr.txt").read_text()
    assert ("cartisora character: 4 poker fold-over pairs per Letter sheet (2 x 2, landscape)"
            in (sheets["fold-letter"] / "stderr.txt").read_text())
    with pdfplumber.open(sheets["a3"] / "cartisora" / "character-cards.pdf") as doc:
        page = doc.pages[0]
        assert (mm(page.width), mm(page.height)) == (pytest.approx(297, abs=0.05), pytest.approx(420, abs=0.05))
        xs, ys, _ = crop_marks(page)
        assert len(xs) == 5 and len(ys) == 5
        assert all(b - a == pytest.approx(63.5, abs=0.1) for a, b in zip(xs, xs[1:]))
        assert all(b - a == pytest.approx(88.9, abs=0.1) for a, b in zip(ys, ys[1:]))
        assert xs[0] == pytest.approx(297 - xs[-1], abs=0.1) and ys[0] == pytest.approx(420 - ys[-1], abs=0.1)


def test_a_tarot_sized_game_prints_2_x_2_on_a4(tmp_path):
    from printkit.build_options import BuildOptions
    from printkit.pipeline.build import build
    from printkit.sheets.templating.layout import LAYOUTS_DIR
    from printkit.sheets.prepress.paper import paper_by_name

    data = data_with_card_size(tmp_path, "cartisora", "card_size:\n  name: tarot\n")
    # The bundled play mat's card spaces are poker-sized, and the build says so rather than
    # print a mat the cards do not fit.
    refused = run_build(tmp_path / "out", "cartisora", "--paper", "a4", data=data)
    assert refused.exit_code == 1
    assert "board-play-mat.yaml" in refused.output and "cannot hold a 70 x 120 mm card" in refused.output
    # With the mat left out (a designer would resize it), the cards impose 2 x 2.
    (data / "cartisora" / "templates" / "board-play-mat.yaml").unlink()
    result = build(data, tmp_path / "out", BuildOptions(paper_by_name("a4"), BASE_URL), ["cartisora"],
                   layouts_dir=LAYOUTS_DIR, catalog=True)
    assert result.problems == []
    assert "cartisora character: 4 tarot cards per A4 sheet (2 x 2)" in [plan.summary() for plan in result.plans]
    with pdfplumber.open(tmp_path / "out" / "cartisora" / "character-cards.pdf") as doc:
        xs, ys, _ = crop_marks(doc.pages[0])
    assert [round(b - a, 1) for a, b in zip(xs, xs[1:])] == [70.0, 70.0]
    assert [round(b - a, 1) for a, b in zip(ys, ys[1:])] == [120.0, 120.0]


def test_card_size_presets_and_their_errors(tmp_path):
    assert (CardSize(name="bridge").width_mm, CardSize(name="bridge").height_mm) == (57.2, 88.9)
    assert (CardSize(name="mini").width_mm, CardSize(name="mini").height_mm) == (44, 63.5)
    assert CardSize().corner_radius_mm == 3 and CardSize().label == "poker"
    assert CardSize(width_mm=50, height_mm=80).label == "50 x 80 mm"
    data = data_with_card_size(tmp_path, "cartisora", "card_size:\n  name: tarot\n  width_mm: 60\n")
    result = invoke("validate", "--data", str(data))
    assert result.exit_code == 1
    assert f"{data / 'cartisora' / 'game.yaml'}:" in result.output
    assert "contradicts the tarot size" in result.output


# ---- CMYK ----------------------------------------------------------------------------------

def colour_operators(pdf: Path) -> set[str]:
    reader = PdfReader(pdf)
    ops: set[str] = set()
    for page in reader.pages:
        content = ContentStream(page.get_contents(), reader)
        ops.update(op.decode() for _, op in content.operations)
    return ops & {"rg", "RG", "k", "K", "g", "G", "sc", "SC", "scn", "SCN"}


def test_cmyk_writes_only_cmyk_colour_operators(sheets):
    pdfs = sorted((sheets["cmyk"] / "cartisora").glob("*.pdf"))
    # Cards, reference cards, the play mat and the tokens: every file the build writes.
    assert {"character-cards.pdf", "reference-cards.pdf", "play-mat.pdf", "tokens.pdf"} <= {p.name for p in pdfs}
    for pdf in pdfs:
        cmyk = colour_operators(pdf)
        assert "k" in cmyk, pdf
        assert not cmyk & {"rg", "RG", "sc", "SC", "scn", "SCN"}, (pdf, cmyk)
    # Without the option the same cards are RGB, so the check above can tell the difference.
    assert {"rg", "RG"} & colour_operators(sheets["fold-letter"] / "cartisora" / "character-cards.pdf")


def test_print_controls_are_reproducible(sheets, tmp_path):
    result = run_build(tmp_path, "cartisora", "--cmyk", "--duplex", "fold")
    assert result.exit_code == 0, result.output
    first = sheets["cmyk"] / "cartisora"
    files = sorted(p.name for p in first.iterdir())
    assert files == sorted(p.name for p in (tmp_path / "cartisora").iterdir())
    for name in files:
        assert (tmp_path / "cartisora" / name).read_bytes() == (first / name).read_bytes(), name
    a = invoke("calibration", "--out", str(tmp_path / "c1"))
    b = invoke("calibration", "--out", str(tmp_path / "c2"))
    assert a.exit_code == b.exit_code == 0
    assert (tmp_path / "c1" / "calibration.pdf").read_bytes() == (tmp_path / "c2" / "calibration.pdf").read_bytes()
