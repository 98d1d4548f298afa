"""``printkit tts``: Tabletop Simulator deck sheets, measured from the PNGs written.

Grid size from the image itself, each cell identified by decoding the QR code printed on
that card, empty cells white, the back the size of a card, and byte-identical reruns.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
import zxingcpp
from click.testing import CliRunner
from PIL import Image

from card_data.loader import bundled_data_dir, load_database
from printkit.pipeline.card_faces import card_qr_url
from printkit.designer.commands import tts_cmd

BASE_URL = "http://192.168.1.20:5000"
DPI = 200
DB = load_database()


def run_tts(out: Path, *args: str):
    return CliRunner().invoke(tts_cmd, ["--out", str(out), "--base-url", BASE_URL, *args])


def expected_card_px(game, dpi: int = DPI) -> tuple[int, int]:
    size = game.info.card_size
    return round(size.width_mm / 25.4 * dpi), round(size.height_mm / 25.4 * dpi)


def files_of(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tts")
    result = run_tts(out)
    assert result.exit_code == 0, result.output
    return out


def sheet_indexes(out: Path, game_id: str, kind: str) -> list[dict]:
    paths = sorted((out / game_id).glob(f"{kind}-[0-9]*.json"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    return [json.loads(p.read_text(encoding="utf-8")) for p in paths]


def cells(image: Image.Image, columns: int, rows: int, card_w: int, card_h: int):
    for index in range(columns * rows):
        x, y = (index % columns) * card_w, (index // columns) * card_h
        yield index, image.crop((x, y, x + card_w, y + card_h))


def test_grid_rule():
    from printkit.designer.exports.tts import grid_size

    assert grid_size(1) == (1, 1)
    assert grid_size(12) == (10, 2)
    assert grid_size(20) == (10, 2)
    assert grid_size(21) == (10, 3)
    assert grid_size(69) == (10, 7)
    with pytest.raises(ValueError):
        grid_size(70)


@pytest.mark.parametrize("game_id", list(DB.games))
def test_each_deck_is_cut_into_sheets_of_the_right_grid(sheets, game_id):
    game = DB.games[game_id]
    card_w, card_h = expected_card_px(game)
    for kind in game.info.backs:
        ids = [c.id for c in game.cards.values() if c.back_kind() == kind]
        if not ids:
            continue
        indexes = sheet_indexes(sheets, game_id, kind)
        assert len(indexes) == math.ceil(len(ids) / 69)
        listed = []
        for index in indexes:
            n = len(index["cards"])
            assert 1 <= n <= 69
            columns = min(10, n)
            assert (index["NumWidth"], index["NumHeight"]) == (columns, math.ceil(n / columns))
            image = Image.open(sheets / game_id / index["FaceURL"])
            assert image.size == (columns * card_w, index["NumHeight"] * card_h)
            listed += index["cards"]
            back = Image.open(sheets / game_id / index["BackURL"])
            assert back.size == (card_w, card_h)
        assert listed == ids  # every card of that back once, in the database's order


def test_known_decks_give_the_expected_sheets(sheets):
    # 14 Carpe Diem scoring cards: one sheet of 10 x 2 (6 cells empty).
    (scoring,) = sheet_indexes(sheets, "carpe_diem", "scoring")
    assert (len(scoring["cards"]), scoring["NumWidth"], scoring["NumHeight"]) == (14, 10, 2)
    assert Image.open(sheets / "carpe_diem" / "scoring-1.png").size == (5000, 1400)
    # 79 Duels character-deck cards: a full 69-card sheet (10 x 7), then 10 cards (10 x 1).
    first, second = sheet_indexes(sheets, "cartisora", "character")
    assert (len(first["cards"]), first["NumWidth"], first["NumHeight"]) == (69, 10, 7)
    assert (len(second["cards"]), second["NumWidth"], second["NumHeight"]) == (10, 10, 1)
    assert Image.open(sheets / "cartisora" / "character-1.png").size == (5000, 4900)


@pytest.mark.parametrize("game_id", ["carpe_diem", "carpe_cras"])
def test_each_cell_shows_the_card_listed_for_it(sheets, game_id):
    game = DB.games[game_id]
    card_w, card_h = expected_card_px(game)
    for kind in game.info.backs:
        for index in sheet_indexes(sheets, game_id, kind):
            image = Image.open(sheets / game_id / index["FaceURL"]).convert("RGB")
            seen = set()
            for i, cell in cells(image, index["NumWidth"], index["NumHeight"], card_w, card_h):
                if i >= len(index["cards"]):
                    assert cell.getextrema() == ((255, 255), (255, 255), (255, 255)), f"cell {i} not empty"
                    continue
                decoded = [r.text for r in zxingcpp.read_barcodes(cell)]
                assert decoded == [card_qr_url(BASE_URL, game, game.cards[index["cards"][i]])], (kind, i)
                seen.add(cell.tobytes())
            assert len(seen) == len(index["cards"])  # no two cells alike
            back = Image.open(sheets / game_id / index["BackURL"]).convert("RGB")
            assert back.tobytes() not in seen
            assert back.getextrema() != ((255, 255), (255, 255), (255, 255))


def test_output_is_reproducible_and_dpi_sets_the_card_size(sheets, tmp_path):
    again = tmp_path / "again"
    result = run_tts(again, "carpe_diem", "--dpi", str(DPI))
    assert result.exit_code == 0, result.output
    fresh = files_of(again)
    assert fresh == {name: data for name, data in files_of(sheets).items() if name.startswith("carpe_diem/")}

    small = tmp_path / "small"
    assert run_tts(small, "carpe_diem", "--dpi", "100").exit_code == 0
    card_w, card_h = expected_card_px(DB.games["carpe_diem"], 100)
    assert (card_w, card_h) == (250, 350)
    assert Image.open(small / "carpe_diem" / "scoring-1.png").size == (10 * card_w, 2 * card_h)
    assert json.loads((small / "carpe_diem" / "scoring-1.json").read_text())["card_px"] == [card_w, card_h]


def test_a_card_that_does_not_lay_out_writes_nothing(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir() / "carpe_diem", data / "carpe_diem")
    path = data / "carpe_diem" / "cards" / "scoring.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("title: Two herbs\n") == 1
    path.write_text(text.replace("title: Two herbs\n", "title: " + "Very long title " * 30 + "\n"), encoding="utf-8")
    out = tmp_path / "out"

    result = run_tts(out, "--data", str(data))

    assert result.exit_code == 1
    card_line = text[: text.index("- id: a-two-herbs")].count("\n") + 1
    assert result.output.startswith(f"{path}:{card_line}: carpe_diem/a-two-herbs: layout:title: text does not fit")
    assert "Nothing was written." in result.output
    assert not out.exists()
