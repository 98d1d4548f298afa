"""A declared game's quantities and backs downstream of the build: Tabletop Simulator sheets,
print-shop exports, the print-this index and ``release``.

The game is written by the test (two card types, each with its own back; one card with
``qty: 3``, one with ``qty: 0``). Every file is named after the designer's backs or deck, and
measured from what is written: JSON read back, cells of the sheets compared pixel for pixel
and read by their QR codes, the index's text, printings.yaml.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdf
import pytest
import yaml
import zxingcpp
from click.testing import CliRunner
from PIL import Image

from card_data.loader import load_database
from printkit.pipeline.card_faces import card_qr_url
from printkit.cli import main
from printkit.designer.exports.shops import TGC_POKER

BASE_URL = "http://192.168.1.20:5000"
GAME = "pub_quiz"

GAME_YAML = """\
title: Pub Quiz
card_size: {name: poker}
backs:
  question: Question deck
  bonus: Bonus deck
fields:
  answer: {type: text, required: true, label: Answer, players_see: false}
card_types:
  question: {label: Question, back: question}
  bonus:
    label: Bonus
    back: bonus
    fields:
      points: {type: integer, min: 1, max: 10, required: true, label: Points}
"""

CARDS_YAML = """\
- id: wall
  type: question
  title: Berlin wall
  answer: "1989"
  qty: 3
- id: moon
  type: question
  title: First on the moon
  answer: Neil Armstrong
  qty: 0
- id: river
  type: question
  title: Longest river
  answer: The Nile
- id: gases
  type: bonus
  title: Noble gases
  answer: Helium, neon, argon
  points: 3
- id: stars
  type: bonus
  title: Nearest star
  answer: Proxima Centauri
  points: 2
  qty: 2
"""
QUESTION_DECK = ["wall", "wall", "wall", "river"]
BONUS_DECK = ["gases", "stars", "stars"]

FRONT = """\
safe_margin_mm: 3
background: "{colour}"
regions:
  - name: title
    kind: text
    x_mm: 5
    y_mm: 6
    w_mm: 53.5
    h_mm: 12
    text: "{{{{ title }}}}"
    font: bold
    size_pt: 11
    min_size_pt: 7
  - name: qr
    kind: qr
    x_mm: 19
    y_mm: 40
    size_mm: 25
"""
BACK = """\
safe_margin_mm: 3
background: "{colour}"
regions:
  - name: deck-title
    kind: text
    x_mm: 5
    y_mm: 38
    w_mm: 53.5
    h_mm: 12
    text: "{{{{ title }}}}"
    size_pt: 12
    min_size_pt: 8
    align: center
"""
BACK_RGB = {"question": (0x20, 0x40, 0x80), "bonus": (0x80, 0x30, 0x20)}


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


def write_game(root: Path) -> tuple[Path, Path]:
    """The game's card data under ``root/data`` and its templates under ``root/templates``
    (``--templates``, which every printkit version reads for the game of that name)."""
    folder = root / "data" / GAME
    (folder / "cards").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    (folder / "cards" / "questions.yaml").write_text(CARDS_YAML, encoding="utf-8")
    templates = root / "templates" / GAME
    templates.mkdir(parents=True)
    (templates / "question.yaml").write_text(FRONT.format(colour="#f4f1e8"), encoding="utf-8")
    (templates / "bonus.yaml").write_text(FRONT.format(colour="#fff4c2"), encoding="utf-8")
    for back, rgb in BACK_RGB.items():
        (templates / f"back-{back}.yaml").write_text(BACK.format(colour=_hex(rgb)), encoding="utf-8")
    return root / "data", root / "templates"


def printkit(*args: str):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tuple[Path, Path]:
    return write_game(tmp_path_factory.mktemp("declared"))


def files_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def cells(image: Image.Image, columns: int, rows: int) -> list[Image.Image]:
    w, h = image.width // columns, image.height // rows
    return [image.crop((i % columns * w, i // columns * h, i % columns * w + w, i // columns * h + h))
            for i in range(columns * rows)]


def test_tts_decks_hold_each_card_qty_times_one_deck_per_back_with_its_back(game, tmp_path, monkeypatch):
    data, templates = game
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "tts"
    printkit("tts", "--data", data, "--templates", templates, "--out", out, "--base-url", BASE_URL)

    folder = out / GAME
    assert files_under(folder) == [".printkit-tts-files.json", "bonus-1.json", "bonus-1.png", "bonus-back.png",
                                   "question-1.json", "question-1.png", "question-back.png"]
    db = load_database(data)
    for kind, deck in (("question", QUESTION_DECK), ("bonus", BONUS_DECK)):
        index = json.loads((folder / f"{kind}-1.json").read_text(encoding="utf-8"))
        assert index["cards"] == deck  # copies side by side; moon (qty 0) is in no deck
        assert (index["kind"], index["FaceURL"], index["BackURL"]) == (kind, f"{kind}-1.png", f"{kind}-back.png")
        assert (index["NumWidth"], index["NumHeight"]) == (len(deck), 1)
        sheet = Image.open(folder / f"{kind}-1.png")
        faces = cells(sheet, len(deck), 1)
        # Each cell shows the card listed for it: its QR code opens that card's page.
        for card_id, face in zip(deck, faces, strict=True):
            decoded = [r.text for r in zxingcpp.read_barcodes(face)]
            assert decoded == [card_qr_url(BASE_URL, db.games[GAME], db.games[GAME].cards[card_id])]
        # A card's copies are the same image; two cards' are not.
        images = {card_id: set() for card_id in deck}
        for card_id, face in zip(deck, faces, strict=True):
            images[card_id].add(face.tobytes())
        assert all(len(seen) == 1 for seen in images.values())
        assert len({next(iter(seen)) for seen in images.values()}) == len(images)
        back = Image.open(folder / f"{kind}-back.png").convert("RGB")
        assert back.size == faces[0].size
        assert back.getpixel((5, 5)) == BACK_RGB[kind]  # this back's own template


def test_tts_deck_list_prints_in_its_counts_named_after_the_deck(game, tmp_path, monkeypatch):
    data, templates = game
    monkeypatch.chdir(tmp_path)
    deck = tmp_path / "party.yaml"
    deck.write_text("id: party\ntitle: Party night\nkind: party\ncards:\n"
                    "  - {card: moon, qty: 2}\n  - {card: gases}\n", encoding="utf-8")
    out = tmp_path / "tts"
    printkit("tts", GAME, "--deck", deck, "--data", data, "--templates", templates, "--out", out,
             "--base-url", BASE_URL)

    folder = out / GAME
    assert files_under(folder) == [".printkit-tts-files.json",
                                   "party-bonus-1.json", "party-bonus-1.png", "party-bonus-back.png",
                                   "party-question-1.json", "party-question-1.png", "party-question-back.png"]
    question = json.loads((folder / "party-question-1.json").read_text(encoding="utf-8"))
    # The deck list's count, not the card's qty (0).
    assert (question["cards"], question["deck"], question["kind"]) == (["moon", "moon"], "party-question", "question")
    assert question["BackURL"] == "party-question-back.png"
    assert json.loads((folder / "party-bonus-1.json").read_text(encoding="utf-8"))["cards"] == ["gases"]
    back = Image.open(folder / "party-bonus-back.png").convert("RGB")
    assert back.getpixel((5, 5)) == BACK_RGB["bonus"]


def test_tts_removes_the_sheets_it_no_longer_makes_and_nothing_else(game, tmp_path, monkeypatch):
    data = tmp_path / "data"
    shutil.copytree(game[0], data)
    monkeypatch.chdir(tmp_path)
    cards = data / GAME / "cards" / "questions.yaml"
    _edit(cards, "  qty: 3\n", "  qty: 80\n")  # 81 question cards: two sheets (69 a sheet)
    out = tmp_path / "tts"
    args = ("tts", "--data", data, "--templates", game[1], "--out", out, "--base-url", BASE_URL, "--dpi", "50")
    printkit(*args)
    folder = out / GAME
    assert (folder / "question-2.png").is_file()
    (folder / "question-notes.txt").write_text("mine", encoding="utf-8")
    deck = tmp_path / "party.yaml"
    deck.write_text("id: party\ntitle: Party night\nkind: party\ncards:\n  - {card: river, qty: 2}\n",
                    encoding="utf-8")
    printkit(*args, "--deck", deck, GAME)  # a deck list's sheets: not the backs' to remove

    _edit(cards, "  qty: 80\n", "  qty: 3\n")
    _edit(cards, "  points: 3\n", "  points: 3\n  qty: 0\n")
    _edit(cards, "  points: 2\n  qty: 2\n", "  points: 2\n  qty: 0\n")
    result = printkit(*args)

    assert files_under(folder) == [".printkit-tts-files.json", "party-1.json", "party-1.png", "party-back.png",
                                   "question-1.json", "question-1.png", "question-back.png", "question-notes.txt"]
    assert f"removed {folder / 'question-2.png'}" in result.output
    index = json.loads((folder / "question-1.json").read_text(encoding="utf-8"))
    assert index["cards"] == QUESTION_DECK


def test_shop_export_has_a_file_per_copy_in_a_folder_per_back(game, tmp_path, monkeypatch):
    data, templates = game
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    printkit("export", "--preset", "tgc-poker", "--data", data, "--templates", templates, "--out", out,
             "--base-url", BASE_URL)

    folder = out / GAME / "tgc-poker"
    assert [name for name in files_under(folder) if not name.endswith("/.printkit-export-files.json")] == [
        "bonus/back.png", "bonus/fronts/gases.png", "bonus/fronts/stars.png", "bonus/fronts/stars_2.png",
        "question/back.png", "question/fronts/river.png", "question/fronts/wall.png",
        "question/fronts/wall_2.png", "question/fronts/wall_3.png"]
    wall = (folder / "question/fronts/wall.png").read_bytes()
    assert (folder / "question/fronts/wall_2.png").read_bytes() == wall
    assert (folder / "question/fronts/wall_3.png").read_bytes() == wall
    assert (folder / "question/fronts/river.png").read_bytes() != wall
    for name in ("question/fronts/wall_3.png", "bonus/back.png"):
        assert Image.open(folder / name).size == (TGC_POKER.image_w_px, TGC_POKER.image_h_px)
    centre = (TGC_POKER.image_w_px // 2, 20)
    for kind, rgb in BACK_RGB.items():
        assert Image.open(folder / kind / "back.png").convert("RGB").getpixel(centre) == rgb

    # Asked for by name, a card that prints no copy says why it has no file.
    result = printkit("export", "--preset", "tgc-poker", "--card", "moon", "--data", data, "--templates",
                      templates, "--out", tmp_path / "moon", "--base-url", BASE_URL)
    assert f"{GAME}/moon: qty 0" in result.output
    assert not (tmp_path / "moon" / GAME / "tgc-poker").exists()


def test_a_shop_export_removes_the_copies_it_no_longer_makes_and_nothing_else(game, tmp_path, monkeypatch):
    data = tmp_path / "data"
    shutil.copytree(game[0], data)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    args = ("export", "--preset", "tgc-poker", "--data", data, "--templates", game[1], "--out", out,
            "--base-url", BASE_URL)
    printkit(*args)
    folder = out / GAME / "tgc-poker"
    (folder / "question" / "fronts" / "notes.txt").write_text("ask Sam about the wall", encoding="utf-8")
    cards = data / GAME / "cards" / "questions.yaml"
    _edit(cards, "  qty: 3\n", "  qty: 2\n")
    # Only a card asked for by name: nothing else of the folder is touched.
    printkit(*args, "--card", "wall")
    assert (folder / "question" / "fronts" / "wall_3.png").is_file()

    _edit(cards, "  points: 3\n", "  points: 3\n  qty: 0\n")
    _edit(cards, "  points: 2\n  qty: 2\n", "  points: 2\n  qty: 0\n")
    result = printkit(*args)

    assert files_under(folder) == [
        "question/.printkit-export-files.json", "question/back.png", "question/fronts/notes.txt",
        "question/fronts/river.png", "question/fronts/wall.png", "question/fronts/wall_2.png"]
    assert f"removed {folder / 'question' / 'fronts' / 'wall_3.png'}" in result.output
    assert not (folder / "bonus").exists()  # no bonus card prints any more


def test_print_index_lists_each_backs_file_with_its_count(game, tmp_path, monkeypatch):
    data, templates = game
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    printkit("build", GAME, "--data", data, "--templates", templates, "--out", out, "--base-url", BASE_URL)

    folder = out / GAME
    cards_files = sorted(p.name for p in folder.glob("*-cards.pdf"))
    assert cards_files == ["bonus-cards.pdf", "question-cards.pdf"]
    text = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(folder / "print-this.pdf").pages)
    assert "question-cards.pdf" in text and "bonus-cards.pdf" in text
    assert f"Question deck: {len(QUESTION_DECK)} cards" in text
    assert f"Bonus deck: {len(BONUS_DECK)} cards" in text
    assert "Not in this kit First on the moon: qty 0." in text  # the card with no copies, and why


def _release(data: Path, *args: str):
    return CliRunner().invoke(main, ["release", GAME, "--data", str(data), *args])


def test_release_a_qty_change_is_no_new_version_a_text_or_type_change_is(game, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(game[0], data)
    cards = data / GAME / "cards" / "questions.yaml"
    first = _release(data, "--date", "2026-11-20")
    assert first.exit_code == 0, first.output
    assert f"{GAME}/wall v1 (2026-11-20, first version)" in first.output
    printings = yaml.safe_load((data / GAME / "printings.yaml").read_text(encoding="utf-8"))
    assert printings["wall"][0]["fields"] == {"type": "question", "title": "Berlin wall", "answer": "1989"}

    _edit(cards, "  qty: 3\n", "  qty: 5\n")
    _edit(cards, "  answer: Neil Armstrong\n  qty: 0\n", "  answer: Neil Armstrong\n")
    unchanged = _release(data, "--date", "2026-11-21")
    assert unchanged.exit_code == 0, unchanged.output
    assert "Nothing to release" in unchanged.output
    assert "v2" not in unchanged.output

    _edit(cards, "  title: Longest river\n", "  title: Longest river on Earth\n")
    _edit(cards, "- id: gases\n  type: bonus\n  title: Noble gases\n  answer: Helium, neon, argon\n  points: 3\n",
          "- id: gases\n  type: question\n  title: Noble gases\n  answer: Helium, neon, argon\n")
    refused = _release(data, "--date", "2026-11-22")
    assert refused.exit_code != 0 and "river" in refused.output and "gases" in refused.output
    errata = _release(data, "--date", "2026-11-22", "--reason", "Clearer wording")
    assert errata.exit_code == 0, errata.output
    lines = [line for line in errata.output.splitlines() if line.startswith(f"{GAME}/")]
    assert sorted(lines) == [f"{GAME}/gases v2 (2026-11-22, erratum: Clearer wording)",
                             f"{GAME}/river v2 (2026-11-22, erratum: Clearer wording)"]
