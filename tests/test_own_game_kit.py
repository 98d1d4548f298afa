"""Issue 19's "Done when", as one designer's week: a 30-card game of one's own (question,
answer, category, difficulty 1-5; question and bonus cards, each with its own back; a ``qty``
column) goes from a CSV to a printed kit with ``printkit init --from-sheet``, ``build``,
``export --preset tgc-poker``, ``release`` (and an erratum a week later), and its rulings pages,
with no Python written and no trace of another game on any page or in any file name.

What is checked is what the designer and the players get: the files, the text on the printed
pages, the QR codes decoded from the rendered sheets and followed through the companion, and
the pages it serves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from PIL import Image

from companion import create_app
from qr_scan import crop_mm, opened_page, qr_codes_in, rendered_pages, zxing_texts
from sheet_games import quiz_rows, run, sheet_project
from test_init_from_sheet import FOREIGN, pages_text

BASE_URL = "http://192.168.1.20:5000"
GAME = "river_quiz"


@pytest.fixture
def kit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The project after ``init --from-sheet river_quiz.csv`` and ``build``."""
    monkeypatch.chdir(sheet_project(tmp_path))
    monkeypatch.setenv("PRINTKIT_BASE_URL", BASE_URL)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'companion.sqlite'}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "own-game-kit-test")
    built = run("build", "--jobs", "1")
    assert built.exit_code == 0, built.output
    return tmp_path / "quiz"


def every_file(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_no_python_is_written_and_no_file_is_named_after_another_game(kit: Path) -> None:
    files = every_file(kit)
    assert not [p for p in files if p.suffix == ".py"]
    named = [str(p.relative_to(kit)) for p in files if FOREIGN.search(str(p.relative_to(kit)))]
    assert not named, named
    game = yaml.safe_load((kit / "card_data" / GAME / "game.yaml").read_text(encoding="utf-8"))
    assert set(game["card_types"]) == {"question", "bonus"}
    assert {game["card_types"][t]["back"] for t in game["card_types"]} == set(game["backs"]) == {"question", "bonus"}
    assert game["fields"]["difficulty"]["type"] == "integer"


def test_the_printed_cards_carry_qr_codes_that_open_their_own_rulings_pages(kit: Path) -> None:
    """Every front's QR code, read by zxing-cpp from the sheets rendered at 150 dpi, is a short
    address of this game that the companion (run on the project) sends to that card's page,
    which shows the card's declared fields by their labels and nothing of another game."""
    out = kit / "output" / GAME
    client = create_app({"TESTING": True, "PROJECT_DIR": str(kit)}).test_client()
    rows = {row[0]: row for row in quiz_rows()}
    opened: dict[str, int] = {}
    for pdf in (out / "question-cards.pdf", out / "bonus-cards.pdf"):
        codes = qr_codes_in(pdf)
        images = dict(rendered_pages(pdf, 150))
        for code in codes:
            texts = zxing_texts(crop_mm(images[code.page], code.region, 150))
            assert len(texts) == 1, (pdf.name, code)
            assert texts[0].startswith(BASE_URL.upper() + "/Q/"), texts[0]
            target = opened_page(client, texts[0])
            match = re.fullmatch(rf"/r/{GAME}/(q-\d+)(?:/\d+)?", target)
            assert match, target
            opened[match.group(1)] = opened.get(match.group(1), 0) + 1
    # Each card's code once per printed copy (qty 2 for every third card).
    assert opened == {card_id: row[6] for card_id, row in rows.items()}

    page = client.get(f"/r/{GAME}/q-7").get_data(as_text=True)
    assert "Which river is number 7?" in page
    for label, value in (("Category", rows["q-7"][4]), ("Difficulty", str(rows["q-7"][5]))):
        assert re.search(rf"<dt[^>]*>\s*{label}", page) and value in page, label
    assert not FOREIGN.search(re.sub(r"<[^>]+>", " ", page))
    index = client.get("/").get_data(as_text=True)
    assert "River Quiz" in index and not FOREIGN.search(re.sub(r"<[^>]+>", " ", index))
    found = client.get("/search", query_string={"q": "number 12"}).get_data(as_text=True)
    assert f"/r/{GAME}/q-12" in found


def test_tgc_poker_export_is_the_deck_to_order_copy_by_copy_with_its_own_backs(kit: Path) -> None:
    result = run("export", "--preset", "tgc-poker")
    assert result.exit_code == 0, result.output
    root = kit / "output" / GAME / "tgc-poker"
    assert sorted(p.name for p in root.iterdir() if p.is_dir()) == ["bonus", "question"]
    fronts = {deck: sorted(p.name for p in (root / deck / "fronts").glob("*.png")) for deck in ("question", "bonus")}
    expected: dict[str, list[str]] = {"question": [], "bonus": []}
    for card_id, card_type, *_, qty in quiz_rows():
        expected[card_type] += [f"{card_id}.png"] + [f"{card_id}_{n}.png" for n in range(2, qty + 1)]
    assert fronts == {deck: sorted(names) for deck, names in expected.items()}
    backs = []
    for deck in ("question", "bonus"):
        with Image.open(root / deck / "back.png") as back:
            assert back.size == (825, 1125) and back.mode == "RGB"
            backs.append(back.tobytes())
    assert backs[0] != backs[1]
    assert not [p for p in every_file(root) if FOREIGN.search(str(p.relative_to(root)))]


def test_release_then_an_erratum_a_week_later_shows_on_the_old_copys_page(kit: Path) -> None:
    first = run("release", "--date", "2026-11-20")
    assert first.exit_code == 0, first.output
    printings = yaml.safe_load((kit / "card_data" / GAME / "printings.yaml").read_text(encoding="utf-8"))
    assert len(printings) == 30 and all(v[0]["version"] == 1 for v in printings.values())
    assert "qty" not in printings["q-3"][0]["fields"]

    cards = kit / "card_data" / GAME / "cards" / "river_quiz.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("Which river is number 4?", "Which long river is number 4?")
                     .replace("qty: 2", "qty: 3", 1), encoding="utf-8")
    # A dry run shows the erratum before its reason is written, and writes nothing.
    before = (kit / "card_data" / GAME / "printings.yaml").read_bytes()
    preview = run("release", "--date", "2026-11-27", "--dry-run")
    assert preview.exit_code == 0, preview.output
    assert f"{GAME}/q-4 v2 (2026-11-27, erratum: (the reason --reason will give))" in preview.output
    assert "The 1 erratum needs --reason when released." in preview.output
    assert (kit / "card_data" / GAME / "printings.yaml").read_bytes() == before
    refused = run("release", "--date", "2026-11-27")
    assert refused.exit_code != 0 and "reason" in refused.output.lower(), refused.output
    second = run("release", "--date", "2026-11-27", "--reason", "Says which river is meant.")
    assert second.exit_code == 0, second.output
    printings = yaml.safe_load((kit / "card_data" / GAME / "printings.yaml").read_text(encoding="utf-8"))
    # Only the reworded card has a new version; a changed quantity is no erratum.
    assert [card for card, versions in printings.items() if len(versions) > 1] == ["q-4"]

    # Two cards changed for two reasons: each page says its own card's.
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("Which river is number 5?", "Which river is fifth?")
                     .replace("Which river is number 6?", "Which stream is number 6?"), encoding="utf-8")
    stray = run("release", "--date", "2026-12-04", "--reason", "Shorter.", "--card-reason", "q-7", "Unchanged.")
    assert stray.exit_code == 2 and "no erratum to explain for q-7" in stray.output, stray.output
    third = run("release", "--date", "2026-12-04", "--reason", "Shorter.", "--card-reason", "q-6", "A stream, not a river.")
    assert third.exit_code == 0, third.output
    printings = yaml.safe_load((kit / "card_data" / GAME / "printings.yaml").read_text(encoding="utf-8"))
    assert (printings["q-5"][-1]["reason"], printings["q-6"][-1]["reason"]) == ("Shorter.", "A stream, not a river.")

    client = create_app({"TESTING": True, "PROJECT_DIR": str(kit)}).test_client()
    old_copy = client.get(f"/r/{GAME}/q-4/1").get_data(as_text=True)
    assert "Says which river is meant." in old_copy and "long" in old_copy
    assert not FOREIGN.search(re.sub(r"<[^>]+>", " ", old_copy))


def test_every_printed_page_shows_only_this_game(kit: Path) -> None:
    pdfs = sorted((kit / "output").rglob("*.pdf"))
    assert {p.name for p in pdfs} >= {"question-cards.pdf", "bonus-cards.pdf", "print-this.pdf"}
    for pdf in pdfs:
        for number, text in enumerate(pages_text(pdf), 1):
            assert not FOREIGN.search(text), (pdf.name, number, FOREIGN.search(text).group(0))


def test_a_translation_of_the_title_field_prints_as_the_cards_title(kit: Path) -> None:
    """``title_field: question``: a German question is the German card's title; a value that is
    not text (the category, one of a list) is not translatable, told at the translation's line."""
    translations = kit / "card_data" / GAME / "translations"
    translations.mkdir()
    (translations / "de.yaml").write_text("cards:\n  q-1:\n    question: Welcher Fluss ist Nummer 1?\n"
                                          "    category: Geschichte\n", encoding="utf-8")
    refused = run("validate")
    assert refused.exit_code == 1
    assert f"card_data/{GAME}/translations/de.yaml:4: {GAME}/q-1: category: unknown field" in refused.output
    (translations / "de.yaml").write_text("cards:\n  q-1:\n    question: Welcher Fluss ist Nummer 1?\n",
                                          encoding="utf-8")
    built = run("build", "--lang", "de", "--jobs", "1")
    assert built.exit_code == 0, built.output
    first_page = pages_text(kit / "output" / "de" / GAME / "question-cards.pdf")[0]
    assert "Welcher Fluss ist Nummer 1?" in first_page and "Which river is number 1?" not in first_page
    assert "Which river is number 2?" in first_page


def test_a_deck_list_of_one_back_leaves_the_other_backs_printed_by_qty(kit: Path) -> None:
    """A designer adds a deck list of question cards: it prints in its counts, and the bonus
    cards, which no deck list holds, still print in their quantities (not "in no deck list")."""
    decks = kit / "card_data" / GAME / "decks"
    decks.mkdir(exist_ok=True)
    (decks / "starter.yaml").write_text("id: starter\ntitle: Starter questions\nkind: question\ncards:\n"
                                        "  - {card: q-1, qty: 2}\n  - {card: q-2}\n", encoding="utf-8")
    built = run("build", "--jobs", "1")
    assert built.exit_code == 0, built.output
    out = kit / "output" / GAME
    assert sorted(p.name for p in out.glob("*.pdf")) == ["bonus-cards.pdf", "print-this.pdf", "starter-cards.pdf"]
    bonus_copies = sum(row[6] for row in quiz_rows() if row[1] == "bonus")
    assert sum(text.count("Which river is number") for text in pages_text(out / "bonus-cards.pdf")) == bonus_copies
    assert sum(text.count("Which river is number") for text in pages_text(out / "starter-cards.pdf")) == 3
    index = " ".join(pages_text(out / "print-this.pdf"))
    assert f"Bonus cards: {bonus_copies} cards" in index and "Starter questions: 3 cards" in index
    not_printed = set(re.findall(r"Which river is number (\d+)\?: in no deck list", index))
    assert not_printed == {str(i) for i in range(3, 30) if i % 5}, index


def test_a_card_printed_in_two_copies_is_warned_about_once(kit: Path) -> None:
    """q-3 prints twice (qty 2); changed after a release, its "not released" warning is said once."""
    assert run("release", "--date", "2026-11-20").exit_code == 0
    cards = kit / "card_data" / GAME / "cards" / "river_quiz.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Which river is number 3?", "Which long river is number 3?"),
                     encoding="utf-8")
    built = run("build", "--jobs", "1")
    assert built.exit_code == 0, built.output
    said = [line for line in built.output.splitlines() if "not released" in line]
    assert len(said) == 1 and f"{GAME}/q-3: version: not released: printed as v2" in said[0], built.output
