"""Boards, mats, tracking sheet, tokens and the Carpe Diem score pad, measured from the PDFs
that printkit.components.boards.render_extras writes: card spaces large enough for a card, tiled pieces
that overlap by the stated amount with alignment marks that coincide once assembled, labels
and token texts from the card database, token cut lines of the stated shape and size, the
score pad's penalty boxes, reproducible bytes, and template errors naming file and line."""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pytest
import yaml
from pdf_measure import Box, box_of, mm

from card_data.loader import load_database
from card_data.project.project_folders import game_templates_dir
from database_edits import copy_layouts
from printkit.components.boards import render_extras
from printkit.components.scorepad import PENALTY_BOX_STROKE_PT
from printkit.components.tiling import (
    ALIGN_MARK_STROKE_PT,
    CUT_LINE_STROKE_PT,
    LABEL_BAND_MM,
)
from printkit.components.tokens import TOKEN_CUT_STROKE_PT
from printkit.sheets.templating.layout import LAYOUTS_DIR, LayoutError
from printkit.sheets.prepress.paper import PAPERS

CARD_W_MM, CARD_H_MM = 63.5, 88.9
DB = load_database()
TOL_MM = 0.1


@pytest.fixture(scope="module", params=["letter", "a4"])
def paper(request):
    return PAPERS[request.param]


@pytest.fixture(scope="module")
def extras(paper) -> dict[str, dict[str, bytes]]:
    """Every game's extras on one paper: ``{game: {file name: PDF bytes}}``."""
    return {g.game_id: render_extras(g, paper, LAYOUTS_DIR, scorepad_copies=3) for g in DB.games.values()}


def open_pdf(data: bytes) -> pdfplumber.PDF:
    return pdfplumber.open(io.BytesIO(data))


def near(a: float, b: float, tol: float = 0.01) -> bool:
    return abs(a - b) < tol


# ---- reading a tiled board back ------------------------------------------------------------------

@dataclass
class PieceOnPage:
    number: int
    page: object
    window: Box  # page mm

    def to_board(self, x_mm: float, y_mm: float, origin: tuple[float, float]) -> tuple[float, float]:
        return x_mm - self.window.x0 + origin[0], y_mm - self.window.top + origin[1]


@dataclass
class TiledBoard:
    board_w_mm: float
    board_h_mm: float
    rows: int
    cols: int
    overlap_mm: float
    pieces: list[PieceOnPage]

    def origin(self, piece: PieceOnPage) -> tuple[float, float]:
        """Where the piece's top-left corner lies on the assembled board: each piece starts
        ``overlap_mm`` before the previous one ends, as the assembly page states."""
        r, c = divmod(piece.number - 1, self.cols)
        w = piece.window.x1 - piece.window.x0
        h = piece.window.bottom - piece.window.top
        return c * (w - self.overlap_mm), r * (h - self.overlap_mm)

    def window_on_board(self, piece: PieceOnPage) -> Box:
        ox, oy = self.origin(piece)
        return Box(ox, oy, ox + piece.window.x1 - piece.window.x0, oy + piece.window.bottom - piece.window.top)


def read_tiled(data: bytes) -> TiledBoard:
    """The assembly page's stated facts and every piece's cut outline and number."""
    doc = open_pdf(data)
    text = doc.pages[0].extract_text()
    size = re.search(r"Board ([\d.]+) × ([\d.]+) mm in (\d+) pieces: (\d+) rows? × (\d+) columns?", text)
    overlap = re.search(r"Overlap: ([\d.]+) mm", text)
    assert size and overlap, text
    pieces = []
    for page in doc.pages[1:]:
        for rect in page.rects:
            if not near(rect["linewidth"], CUT_LINE_STROKE_PT):
                continue
            window = box_of(rect)
            band_top = rect["top"] - LABEL_BAND_MM * 72 / 25.4
            label_band = page.within_bbox((rect["x0"], band_top, rect["x1"], rect["top"]))
            found = re.search(r"piece (\d+) of (\d+)", label_band.extract_text())
            assert found, label_band.extract_text()
            assert int(found.group(2)) == int(size.group(3))
            pieces.append(PieceOnPage(int(found.group(1)), page, window))
    pieces.sort(key=lambda p: p.number)
    assert [p.number for p in pieces] == list(range(1, int(size.group(3)) + 1))
    return TiledBoard(float(size.group(1)), float(size.group(2)), int(size.group(4)), int(size.group(5)),
                      float(overlap.group(1)), pieces)


def crosshairs(page) -> list[tuple[float, float]]:
    """Centres (page mm) of alignment crosshairs: a horizontal and a vertical mark line crossing at their middles."""
    lines = [ln for ln in page.lines if near(ln["linewidth"], ALIGN_MARK_STROKE_PT)]
    horizontal = [box_of(ln) for ln in lines if near(ln["top"], ln["bottom"])]
    vertical = [box_of(ln) for ln in lines if near(ln["x0"], ln["x1"])]
    centres = []
    for h in horizontal:
        for v in vertical:
            if near(h.cx, v.cx, 0.01) and near(h.cy, v.cy, 0.01):
                centres.append((v.cx, h.cy))
    assert len(centres) == len(horizontal) == len(vertical)
    return centres


def board_labels(tiled: TiledBoard, gap_mm: float = 2.0) -> list[tuple[str, Box]]:
    """The assembled board's text lines, in board mm: the characters each piece shows inside its
    window, put together (a label cut by a piece's edge is whole again), then joined into runs
    on one baseline less than ``gap_mm`` apart (labels side by side stay separate)."""
    chars: dict[tuple, dict] = {}
    for piece in tiled.pieces:
        w = piece.window
        origin = tiled.origin(piece)
        for ch in piece.page.chars:
            b = box_of(ch)
            if not (w.x0 <= b.cx <= w.x1 and w.top <= b.cy <= w.bottom):
                continue
            x0, top = piece.to_board(b.x0, b.top, origin)
            x1, bottom = piece.to_board(b.x1, b.bottom, origin)
            chars.setdefault((ch["text"], round(x0, 1), round(top, 1)),
                             {"text": ch["text"], "box": Box(x0, top, x1, bottom)})
    runs: list[list[dict]] = []
    for ch in sorted(chars.values(), key=lambda c: (round(c["box"].top, 1), c["box"].x0)):
        last = runs[-1][-1]["box"] if runs else None
        if last is not None and abs(last.top - ch["box"].top) < 0.2 and ch["box"].x0 - last.x1 < gap_mm:
            runs[-1].append(ch)
        else:
            runs.append([ch])
    out = []
    for run in runs:
        text = "".join(c["text"] for c in run).strip()
        if text:
            boxes = [c["box"] for c in run if c["text"].strip()]
            out.append((text, Box(min(b.x0 for b in boxes), min(b.top for b in boxes), max(b.x1 for b in boxes),
                                  max(b.bottom for b in boxes))))
    return out


def board_rects(tiled: TiledBoard) -> list[Box]:
    """Every rectangle drawn on the pieces except the cut outlines, in board mm, each once.

    A piece's drawing is clipped to its window, but pdfplumber reports shapes unclipped; a
    rectangle belongs to the piece whose window it shows in (pieces sharing a page are apart)."""
    out: dict[tuple, Box] = {}
    for piece in tiled.pieces:
        origin = tiled.origin(piece)
        w = piece.window
        for rect in piece.page.rects:
            b = box_of(rect)
            if near(rect["linewidth"], CUT_LINE_STROKE_PT) or b.x1 <= w.x0 or b.x0 >= w.x1 or b.bottom <= w.top \
                    or b.top >= w.bottom:
                continue
            x0, top = piece.to_board(b.x0, b.top, origin)
            x1, bottom = piece.to_board(b.x1, b.bottom, origin)
            out.setdefault((round(x0, 1), round(top, 1), round(x1, 1), round(bottom, 1)), Box(x0, top, x1, bottom))
    return list(out.values())


def space_of(label: Box, rects: list[Box]) -> Box:
    """The smallest rectangle around a label: the card space (or zone) it names."""
    around = [r for r in rects if r.contains(label, tol=0.05)]
    assert around, label
    return min(around, key=lambda r: (r.x1 - r.x0) * (r.bottom - r.top))


def holds_a_card(space: Box) -> bool:
    return space.x1 - space.x0 >= CARD_W_MM - 1e-6 and space.bottom - space.top >= CARD_H_MM - 1e-6


def find_label(labels: list[tuple[str, Box]], text: str) -> list[Box]:
    return [b for t, b in labels if t == text]


# ---- tiling --------------------------------------------------------------------------------------

BOARDS = [("carpe_cras", "battlefield-lane.pdf"), ("cahrd", "game-mat.pdf"), ("cartisora", "play-mat.pdf")]


@pytest.mark.parametrize("game,name", BOARDS)
def test_pieces_fit_the_page_and_cover_the_board_with_the_stated_overlap(extras, game, name):
    tiled = read_tiled(extras[game][name])
    assert tiled.overlap_mm == 10
    assert len(tiled.pieces) > 1, "every bundled board is larger than the paper"
    for piece in tiled.pieces:
        page_w, page_h = mm(piece.page.width), mm(piece.page.height)
        assert piece.window.x0 >= 10 - TOL_MM and piece.window.x1 <= page_w - 10 + TOL_MM
        assert piece.window.top >= 10 - TOL_MM and piece.window.bottom <= page_h - 10 + TOL_MM
    windows = [tiled.window_on_board(p) for p in tiled.pieces]
    # Assembled with the stated overlap, the pieces span exactly the stated board.
    assert max(w.x1 for w in windows) == pytest.approx(tiled.board_w_mm, abs=TOL_MM)
    assert max(w.bottom for w in windows) == pytest.approx(tiled.board_h_mm, abs=TOL_MM)
    # The board's own outline, drawn on every piece, lands at the same board position from each.
    outlines = {(round(r.x0, 1), round(r.top, 1), round(r.x1, 1), round(r.bottom, 1)) for r in board_rects(tiled)
                if r.x1 - r.x0 > tiled.board_w_mm - 1 and r.bottom - r.top > tiled.board_h_mm - 1}
    assert outlines == {(0.0, 0.0, round(tiled.board_w_mm, 1), round(tiled.board_h_mm, 1))}


@pytest.mark.parametrize("game,name", BOARDS)
def test_alignment_marks_coincide_when_the_pieces_are_assembled(extras, game, name):
    tiled = read_tiled(extras[game][name])
    marks = {}
    for piece in tiled.pieces:
        origin = tiled.origin(piece)
        w = piece.window
        on_piece = [(x, y) for x, y in crosshairs(piece.page) if w.x0 <= x <= w.x1 and w.top <= y <= w.bottom]
        marks[piece.number] = [piece.to_board(x, y, origin) for x, y in on_piece]
    pairs = 0
    for a in tiled.pieces:
        for b in tiled.pieces:
            ra, ca = divmod(a.number - 1, tiled.cols)
            rb, cb = divmod(b.number - 1, tiled.cols)
            if not ((ra == rb and cb == ca + 1) or (ca == cb and rb == ra + 1)):
                continue
            pairs += 1
            wa, wb = tiled.window_on_board(a), tiled.window_on_board(b)
            shared = Box(max(wa.x0, wb.x0), max(wa.top, wb.top), min(wa.x1, wb.x1), min(wa.bottom, wb.bottom))
            # The shared band is exactly the stated overlap wide.
            across = shared.x1 - shared.x0 if ra == rb else shared.bottom - shared.top
            assert across == pytest.approx(tiled.overlap_mm, abs=TOL_MM)
            in_a = sorted(m for m in marks[a.number] if shared.contains(Box(*m, *m), tol=0))
            in_b = sorted(m for m in marks[b.number] if shared.contains(Box(*m, *m), tol=0))
            assert len(in_a) >= 2, (a.number, b.number)
            assert len(in_a) == len(in_b)
            for (xa, ya), (xb, yb) in zip(in_a, in_b):
                assert abs(xa - xb) <= TOL_MM and abs(ya - yb) <= TOL_MM, ((xa, ya), (xb, yb))
    assert pairs == tiled.rows * (tiled.cols - 1) + tiled.cols * (tiled.rows - 1)
    # Every mark on a piece is shared with a neighbour (none is left without its partner).
    total = sum(len(v) for v in marks.values())
    assert total == 2 * 2 * pairs


@pytest.mark.parametrize("game,name", BOARDS)
def test_piece_labels_name_the_piece_they_glue_under(extras, game, name):
    tiled = read_tiled(extras[game][name])
    for piece in tiled.pieces:
        w = piece.window
        band = piece.page.within_bbox(tuple(v * 72 / 25.4 for v in (w.x0, w.top - LABEL_BAND_MM, w.x1, w.top)))
        text = " ".join(band.extract_text().split())
        r, c = divmod(piece.number - 1, tiled.cols)
        under = ([piece.number - 1] if c else []) + ([piece.number - tiled.cols] if r else [])
        if under:
            assert "glue its shaded tab under " + " and ".join(f"piece {n}" for n in under) in text
        else:
            assert "no glue tab" in text


# ---- what the boards hold -----------------------------------------------------------------------

def test_carpe_cras_lane_has_seven_labelled_spaces_that_hold_a_card(extras):
    tiled = read_tiled(extras["carpe_cras"]["battlefield-lane.pdf"])
    labels, rects = board_labels(tiled), board_rects(tiled)
    gl = {e.id: e for e in DB.games["carpe_cras"].glossary}
    city, spawn, neutral = (gl[i].term.lower() for i in ("city-space", "spawn-space", "neutral-space"))
    order = [f"Blue {city}", f"Blue {spawn}", neutral.capitalize(), neutral.capitalize(), neutral.capitalize(),
             f"Red {spawn}", f"Red {city}"]
    found = []
    for text in dict.fromkeys(order):
        found += [(b.top, text, b) for b in find_label(labels, text)]
    found.sort(key=lambda t: t[0])
    assert [t for _, t, _ in found] == order  # Blue city at one end, Red city at the other
    spaces = [space_of(b, rects) for _, _, b in found]
    for space in spaces:
        assert holds_a_card(space), space
    for upper, lower in zip(spaces, spaces[1:]):
        assert lower.top >= upper.bottom - TOL_MM  # one space after another along the lane
    # What may occupy each space is printed in it.
    occupants = {text: space_of(b, rects) for text, b in labels if text.startswith("Up to 3") or text == "Any card"}
    city_spaces = [s for t, s in occupants.items() if "agency cards" in t]
    assert len(city_spaces) == 2
    assert {(s.top, s.bottom) for s in city_spaces} == {(spaces[0].top, spaces[0].bottom),
                                                         (spaces[-1].top, spaces[-1].bottom)}
    assert len([b for t, b in labels if t == "Any card"]) == 5
    assert any("print up to 6" in t for t, _ in labels)


def test_cahrd_mat_has_eight_zones_as_the_rulebook_places_them(extras):
    tiled = read_tiled(extras["cahrd"]["game-mat.pdf"])
    labels, rects = board_labels(tiled), board_rects(tiled)
    gl = {e.id: e for e in DB.games["cahrd"].glossary}

    def zone(text: str) -> Box:
        hits = [b for t, b in labels if t.endswith(text)]
        assert len(hits) == 1, (text, [t for t, _ in labels])
        return space_of(hits[0], rects)

    zones = {name: zone(text) for name, text in [
        ("deck", "Deck zone"), ("discard", "Discard pile"), ("strategy", "Strategy deck zone"),
        ("commander", f"{gl['commander'].term} zone"), ("strategist", f"{gl['strategist'].term} zone"),
        ("tactics", "Tactics zone"), ("items", "Items zone")]}
    lieutenants = [zone(f"{gl['lieutenant'].term} {n}") for n in (1, 2, 3)]
    for box in [*zones.values(), *lieutenants]:
        assert holds_a_card(box), box
    frame = space_of([b for t, b in labels if f"{gl['lieutenant'].term} zone" in t][0], rects)
    assert all(frame.contains(lt) for lt in lieutenants)
    # Tactics left of the strategist, items right of the commander, on the same row.
    assert zones["tactics"].x1 <= zones["strategist"].x0 and near(zones["tactics"].top, zones["strategist"].top)
    assert zones["items"].x0 >= zones["commander"].x1 and near(zones["items"].top, zones["commander"].top)
    # No two zones overlap.
    boxes = [*zones.values(), *lieutenants]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a.x1 <= b.x0 or b.x1 <= a.x0 or a.bottom <= b.top or b.bottom <= a.top


def test_cartisora_mat_has_play_area_tie_pool_and_both_score_piles(extras):
    tiled = read_tiled(extras["cartisora"]["play-mat.pdf"])
    labels, rects = board_labels(tiled), board_rects(tiled)
    gl = {e.id: e for e in DB.games["cartisora"].glossary}

    def space(text):
        hits = [b for t, b in labels if t == text]
        assert len(hits) == 1, (text, [t for t, _ in labels])
        return space_of(hits[0], rects)

    piles = [space(f"{gl['score-pile'].term} – Player {n}") for n in (1, 2)]
    cards = [space(f"Player {n}'s card") for n in (1, 2)]
    tie_pool = space(gl["tie-pool"].term)
    play_area = space("Play area")
    for box in [*piles, *cards, tie_pool]:
        assert holds_a_card(box), box
    assert all(play_area.contains(c) for c in cards)


def test_cahrd_battle_tracking_sheet(extras):
    doc = open_pdf(extras["cahrd"]["battle-tracking.pdf"])
    assert len(doc.pages) == 1
    page = doc.pages[0]
    gl = {e.id: e for e in DB.games["cahrd"].glossary}
    cells = []
    for rect in page.rects:
        inside = page.within_bbox((rect["x0"], rect["top"], rect["x1"], rect["bottom"]))
        cells.append((box_of(rect), " ".join(inside.extract_text().split())))
    texts = [t for _, t in cells]
    lieutenant = gl["lieutenant"].term
    header = ["Turn", gl["grain"].term, gl["reserves"].term, gl["commander"].term, gl["strategist"].term,
              f"{lieutenant} 1", f"{lieutenant} 2", f"{lieutenant} 3", f"{lieutenant} defeat tokens won"]
    for label in header:
        assert texts.count(label) == 2, label  # one table per player
    assert texts.count(gl["men-under-command"].term) == 2
    # The "men under command" heading spans exactly the five officers' columns.
    for group, _ in [c for c in cells if c[1] == gl["men-under-command"].term]:
        under = [b for b, t in cells if t in header[3:8] and abs(b.top - group.bottom) < 0.1]
        assert min(b.x0 for b in under) == pytest.approx(group.x0, abs=TOL_MM)
        assert max(b.x1 for b in under) == pytest.approx(group.x1, abs=TOL_MM)
    # 12 numbered turn rows per player, each with a cell under every heading.
    assert sorted(t for t in texts if t.isdigit()) == sorted([str(n) for n in range(1, 13)] * 2)
    blank = [b for b, t in cells if not t]
    assert len(blank) == 2 * 12 * (len(header) - 1)
    text = " ".join(page.extract_text().split())
    assert text.count("Player ") == 2
    starting_grain = DB.games["cahrd"].tables.constants.starting_grain.value
    assert f"starts at {starting_grain}" in text


# ---- tokens --------------------------------------------------------------------------------------

@dataclass
class TokenMark:
    shape: str
    box: Box
    text: str


def read_tokens(data: bytes) -> list[TokenMark]:
    """Every token cut line (circle or square) with the text printed inside it."""
    out = []
    for page in open_pdf(data).pages:
        shapes = [("circle", c) for c in page.curves if near(c["linewidth"], TOKEN_CUT_STROKE_PT)]
        shapes += [("square", r) for r in page.rects if near(r["linewidth"], TOKEN_CUT_STROKE_PT)]
        for shape, obj in shapes:
            box = box_of(obj)
            if shape == "circle":
                r = (box.x1 - box.x0) / 2
                for x_pt, y_pt in obj["pts"]:  # every point of the path lies on the circle
                    assert math.hypot(mm(x_pt) - box.cx, mm(y_pt) - box.cy) == pytest.approx(r, abs=TOL_MM)
            inside = page.within_bbox((obj["x0"], obj["top"], obj["x1"], obj["bottom"]))
            out.append(TokenMark(shape, box, " ".join(inside.extract_text().split())))
        boxes = [t.box for t in out[-len(shapes):]] if shapes else []
        for i, a in enumerate(boxes):  # separate cuts: no two tokens touch
            for b in boxes[i + 1:]:
                assert a.x1 + 2 <= b.x0 + TOL_MM or b.x1 + 2 <= a.x0 + TOL_MM or a.bottom + 2 <= b.top + TOL_MM \
                    or b.bottom + 2 <= a.top + TOL_MM
    return out


def token_size(game: str, template: str) -> tuple[str, float]:
    spec = yaml.safe_load((game_templates_dir(DB.games[game].folder) / template).read_text())
    return spec["shape"], spec["size_mm"]


def assert_size(tokens: list[TokenMark], shape: str, size_mm: float) -> None:
    assert tokens
    for t in tokens:
        assert t.shape == shape
        assert t.box.x1 - t.box.x0 == pytest.approx(size_mm, abs=TOL_MM)
        assert t.box.bottom - t.box.top == pytest.approx(size_mm, abs=TOL_MM)


def test_carpe_cras_tokens_from_the_glossary(extras):
    tokens = read_tokens(extras["carpe_cras"]["tokens.pdf"])
    gl = {e.id: e for e in DB.games["carpe_cras"].glossary}
    big = [t for t in tokens if t.text.startswith(gl["carpe-cras-token"].term)]
    assert len(big) == 1
    assert_size(big, *token_size("carpe_cras", "token-carpe-cras.yaml"))
    counters = [t for t in tokens if t is not big[0]]
    assert_size(counters, *token_size("carpe_cras", "token-counters.yaml"))
    damage = [t.text for t in counters if t.text.endswith(gl["damage"].term)]
    assert sorted(damage) == sorted(f"{n} {gl['damage'].term}" for n in (1, 2, 3, 5) for _ in range(8))
    status = sorted(t.text.removesuffix(" Status") for t in counters if t.text.endswith("Status"))
    names = [gl["poison"].term, *gl["status-effects"].aliases]
    assert set(names) == {"Poison", "Blind", "Silence", "Deafen", "Stun"}
    assert status == sorted(names * 4)


def test_cartisora_bonus_tokens_from_the_token_cards(extras):
    tokens = read_tokens(extras["cartisora"]["tokens.pdf"])
    assert_size(tokens, *token_size("cartisora", "token-bonus.yaml"))
    cards = [c for c in DB.games["cartisora"].cards.values() if c.type == "token"]
    assert sorted(t.text for t in tokens) == sorted(f"{c.title} {c.bonus_points} bonus points" for c in cards)
    assert {c.title for c in cards} == {"First Blood", "Finisher"}


def test_cahrd_lieutenant_defeat_tokens(extras):
    tokens = read_tokens(extras["cahrd"]["tokens.pdf"])
    assert_size(tokens, *token_size("cahrd", "token-lieutenant-defeat.yaml"))
    to_win = DB.games["cahrd"].tables.constants.lieutenants_defeated_to_win.value
    assert len(tokens) == 2 * to_win
    assert all(t.text == f"Lieutenant defeated {to_win} win the battle" for t in tokens)


# ---- score pad -----------------------------------------------------------------------------------

def test_carpe_diem_score_pad(extras):
    doc = open_pdf(extras["carpe_diem"]["scorepad.pdf"])
    assert len(doc.pages) == 3  # scorepad_copies=3
    tables = DB.games["carpe_diem"].tables
    periods, players = tables.phases.count, len(tables.starting_vp.p4)
    assert (periods, players) == (4, 4)
    for page in doc.pages:
        boxes = [box_of(r) for r in page.rects if near(r["linewidth"], PENALTY_BOX_STROKE_PT)]
        columns = sorted({round(b.x0, 1) for b in boxes})
        assert len(columns) == players
        rows = sorted({round(b.top, 1) for b in boxes})
        assert len(rows) == periods * 2
        assert len(boxes) == players * periods * 2
        words = page.extract_words()
        for b in boxes:
            assert b.x1 - b.x0 == pytest.approx(5, abs=TOL_MM) and b.bottom - b.top == pytest.approx(5, abs=TOL_MM)
            # The penalty is printed just left of each box.
            left = [w for w in words if abs(box_of(w).cy - b.cy) < 2 and 0 < b.x0 - mm(w["x1"]) < 3]
            assert [w["text"] for w in left] == [f"−{tables.unmet_card_penalty.vp}"]
        # Each row of boxes is labelled with its scoring period and card.
        grid = [box_of(r) for r in page.rects if not near(r["linewidth"], PENALTY_BOX_STROKE_PT)]
        first_column = [b for b in boxes if round(b.x0, 1) == columns[0]]
        for i, box in enumerate(sorted(first_column, key=lambda b: b.top)):
            cell = min((g for g in grid if g.contains(box)), key=lambda g: (g.x1 - g.x0) * (g.bottom - g.top))
            label = page.within_bbox((0, cell.top * 72 / 25.4, cell.x0 * 72 / 25.4, cell.bottom * 72 / 25.4))
            assert " ".join(label.extract_text().split()) == f"Scoring period {i // 2 + 1} · card {i % 2 + 1}"
        text = " ".join(page.extract_text().split())
        for line in ("Completed villas", "Leftovers", "Banderole bar", "Fountain cards", "Frame goals", "Total",
                     "Starting VP"):
            assert line in text
        assert all(f"Player {n}" in text for n in range(1, players + 1))
    first = doc.pages[0].extract_text()
    assert all(p.extract_text() == first for p in doc.pages)


# ---- output as a whole ---------------------------------------------------------------------------

def test_files_per_game(extras):
    assert set(extras["carpe_cras"]) == {"battlefield-lane.pdf", "tokens.pdf"}
    assert set(extras["cahrd"]) == {"game-mat.pdf", "battle-tracking.pdf", "tokens.pdf"}
    assert set(extras["cartisora"]) == {"play-mat.pdf", "tokens.pdf"}
    assert set(extras["carpe_diem"]) == {"scorepad.pdf"}


def test_reproducible_bytes(extras, paper):
    for game in DB.games.values():
        again = render_extras(game, paper, LAYOUTS_DIR, scorepad_copies=3)
        assert again == extras[game.game_id]


# ---- broken templates ----------------------------------------------------------------------------

@pytest.fixture
def layouts(tmp_path) -> Path:
    """A copy of the bundled games' layouts to break, as a templates folder holding a folder per
    game (``templates/<game>/``, which a game's layouts are taken from before its own folder's)."""
    return copy_layouts(tmp_path / "templates", DB)


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_a_lane_space_too_small_for_a_card_is_an_error(layouts):
    path = layouts / "carpe_cras" / "board-battlefield-lane.yaml"
    data = path.read_text().replace("    w_mm: 75\n    h_mm: 100\n", "    w_mm: 75\n    h_mm: 80\n", 1)
    path.write_text(data)
    with pytest.raises(LayoutError) as err:
        render_extras(DB.games["carpe_cras"], PAPERS["letter"], layouts)
    assert str(err.value).startswith(f"{path}:{line_of(path, '- name: space-blue-city')}: layout:space-blue-city: "
                                     "card space 75 x 80 mm cannot hold a 63.5 x 88.9 mm card")


def test_a_board_without_its_board_region_is_an_error(layouts):
    path = layouts / "cartisora" / "board-play-mat.yaml"
    path.write_text(path.read_text().replace("- name: board\n", "- name: backdrop\n"))
    with pytest.raises(LayoutError) as err:
        render_extras(DB.games["cartisora"], PAPERS["a4"], layouts)
    assert str(err.value).startswith(f"{path}:{line_of(path, 'regions:')}: layout:board: ")


def test_a_token_text_naming_unknown_data_is_an_error(layouts):
    path = layouts / "cahrd" / "token-lieutenant-defeat.yaml"
    path.write_text(path.read_text().replace("glossary.lieutenant.term }} defeated",
                                             "glossary.nobody.term }} defeated"))
    with pytest.raises(LayoutError) as err:
        render_extras(DB.games["cahrd"], PAPERS["letter"], layouts)
    assert str(err.value).startswith(f"{path}:{line_of(path, 'glossary.nobody')}: tokens.0.text: template error:")


def test_a_score_pad_label_too_long_for_its_row_is_an_error(layouts):
    path = layouts / "carpe_diem" / "scorepad.yaml"
    path.write_text(path.read_text().replace('"Frame goals"', '"' + "Frame goals " * 40 + '"'))
    with pytest.raises(LayoutError) as err:
        render_extras(DB.games["carpe_diem"], PAPERS["letter"], layouts)
    assert str(err.value).startswith(f"{path}:{line_of(path, 'Frame goals Frame')}: final_lines.4: text does not fit")
