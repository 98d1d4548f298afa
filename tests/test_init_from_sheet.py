"""From a spreadsheet to a printed game: `printkit init --from-sheet`, `printkit build`, and
`printkit import` keeping the sheet and the card data in step (issue 19's "Done when", as a
test). Everything is measured from what a designer gets: exit codes, messages naming the
sheet's FILE:ROW, the files written (or byte-identical when nothing may be), the text on the
printed pages."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pdfplumber
import pytest
import yaml
from openpyxl import Workbook

from printkit.designer.loop.generated_layouts import layouts_folder
from sheet_games import HEADER, quiz_rows, run, write_csv

FOREIGN = re.compile(r"carpe|cras|agency|cost|might|cahrd|cartisora|duels", re.I)
"""Words of printkit's bundled games that a game of one's own must not show."""


def write_xlsx(path: Path, rows: list[list], header: list[str] = HEADER) -> Path:
    book = Workbook()
    sheet = book.active
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def pages_text(pdf_path: Path) -> list[str]:
    """Each page's text, its lines joined by spaces (a wrapped title reads as one line)."""
    with pdfplumber.open(pdf_path) as pdf:
        return [" ".join((page.extract_text() or "").split()) for page in pdf.pages]


@pytest.fixture
def quiz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`printkit init quiz --from-sheet river_quiz.csv` (30 cards), the current folder inside it."""
    sheet = write_csv(tmp_path / "river_quiz.csv", quiz_rows())
    result = run("init", tmp_path / "quiz", "--from-sheet", sheet)
    assert result.exit_code == 0, result.output
    monkeypatch.chdir(tmp_path / "quiz")
    monkeypatch.setenv("PRINTKIT_BASE_URL", "http://192.168.1.20:5000")
    return tmp_path / "quiz"


def test_a_csv_becomes_a_game_that_prints_every_field_of_every_card_in_its_copies(quiz: Path) -> None:
    game = yaml.safe_load((quiz / "card_data/river_quiz/game.yaml").read_text(encoding="utf-8"))
    assert game["fields"] == {
        "question": {"type": "text", "required": True, "label": "Question"},
        "answer": {"type": "text", "required": True, "label": "Answer"},
        "category": {"type": "one_of", "required": True, "label": "Category",
                     "options": ["Science", "Sport", "Geography", "History"]},
        "difficulty": {"type": "integer", "required": True, "label": "Difficulty", "min": 0, "max": 5},
    }
    assert game["title_field"] == "question"
    assert game["card_types"] == {"question": {"label": "Question", "back": "question"},
                                  "bonus": {"label": "Bonus", "back": "bonus"}}
    assert game["backs"] == {"question": "Question cards", "bonus": "Bonus cards"}
    assert sorted(p.name for p in (quiz / layouts_folder("river_quiz")).iterdir()) == [
        "back-bonus.yaml", "back-question.yaml", "bonus.yaml", "question.yaml"]

    result = run("build")
    assert result.exit_code == 0, result.output
    out = quiz / "output/river_quiz"
    assert {p.name for p in out.glob("*.pdf")} == {"question-cards.pdf", "bonus-cards.pdf", "print-this.pdf"}
    fronts = {name: [t for t in pages_text(out / name) if "Answer:" in t]
              for name in ("question-cards.pdf", "bonus-cards.pdf")}
    for number, card_type, question, answer, category, difficulty, qty in quiz_rows():
        shown = [t for t in fronts[f"{card_type}-cards.pdf"] for _ in range(t.count(f"{question} "))]
        assert len(shown) == qty, (question, qty, len(shown))
        assert f"Answer: {answer} " in shown[0] and f"Category: {category}" in shown[0]
        assert f"Difficulty: {difficulty}" in shown[0]
    copies = sum(row[-1] for row in quiz_rows())
    assert sum(t.count("Answer:") for texts in fronts.values() for t in texts) == copies == 40
    backs = [t for t in pages_text(out / "bonus-cards.pdf") if "Answer:" not in t]
    assert backs and all("RIVER QUIZ" in t and "Bonus cards" in t for t in backs)

    names = [str(p.relative_to(quiz)) for p in quiz.rglob("*")]
    assert not [n for n in names if FOREIGN.search(n)]
    page_texts = [t for pdf in out.glob("*.pdf") for t in pages_text(pdf)]
    assert not [t for t in page_texts if FOREIGN.search(t)]


def test_an_xlsx_sheet_gives_the_same_game_as_the_csv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = quiz_rows()
    write_csv(tmp_path / "quiz.csv", rows)
    write_xlsx(tmp_path / "quiz.xlsx", rows)
    for sheet, folder in (("quiz.csv", "from-csv"), ("quiz.xlsx", "from-xlsx")):
        result = run("init", tmp_path / folder, "--from-sheet", tmp_path / sheet, "--game", "pub_quiz")
        assert result.exit_code == 0, result.output
    for name in ("game.yaml", "cards/quiz.yaml"):
        csv_text = (tmp_path / "from-csv/card_data/pub_quiz" / name).read_text(encoding="utf-8")
        xlsx_text = (tmp_path / "from-xlsx/card_data/pub_quiz" / name).read_text(encoding="utf-8")
        assert xlsx_text == csv_text.replace("quiz.csv", "quiz.xlsx")
    monkeypatch.chdir(tmp_path / "from-xlsx")
    result = run("validate")
    assert result.exit_code == 0, result.output
    assert "30 cards" in result.output


def test_a_reimport_replaces_the_sheets_cards_and_reads_the_headers_as_written(quiz: Path) -> None:
    cards_file = quiz / "card_data/river_quiz/cards/river_quiz.yaml"
    written_by_init = cards_file.read_bytes()
    result = run("import", quiz.parent / "river_quiz.csv", "--game", "river_quiz")
    assert result.exit_code == 0, result.output
    assert cards_file.read_bytes() == written_by_init  # init imports as import does

    rows = quiz_rows()
    rows[0][2] = "Which river is the longest?"
    del rows[1]
    for row in rows:
        row[1] = row[1].capitalize()  # "Bonus": the card type's label
    header = ["ID", "Type", "Question", "Answer", "Category", "Difficulty", "Qty"]
    sheet = write_csv(quiz.parent / "river_quiz.csv", rows, header)
    result = run("import", sheet, "--game", "river_quiz")
    assert result.exit_code == 0, result.output
    cards = yaml.safe_load((quiz / "card_data/river_quiz/cards/river_quiz.yaml").read_text(encoding="utf-8"))
    assert len(cards) == 29 and "q-2" not in {c["id"] for c in cards}
    assert cards[0] == {"id": "q-1", "type": "question", "question": "Which river is the longest?",
                        "answer": "River 1", "category": "Science", "difficulty": 2}
    assert sorted({c["type"] for c in cards}) == ["bonus", "question"]
    result = run("validate")
    assert result.exit_code == 0 and "29 cards" in result.output, result.output


def test_a_reimport_out_of_the_declared_bounds_names_file_and_row_and_changes_nothing(quiz: Path) -> None:
    cards = quiz / "card_data/river_quiz/cards/river_quiz.yaml"
    before = cards.read_bytes()
    rows = quiz_rows()
    rows[2][5] = 9  # difficulty: the sheet had 1-5, game.yaml says at most 5
    rows[6][6] = "many"
    sheet = write_csv(quiz.parent / "river_quiz.csv", rows)
    result = run("import", sheet, "--game", "river_quiz")
    assert result.exit_code == 1
    assert re.search(r"river_quiz\.csv:4: difficulty: .*5", result.output), result.output
    assert re.search(r"river_quiz\.csv:8: qty: ", result.output), result.output
    assert "Nothing was written." in result.output
    assert cards.read_bytes() == before


def test_a_bad_sheet_is_told_by_file_and_row_and_no_project_is_left(tmp_path: Path) -> None:
    rows = quiz_rows(8)
    rows[5][0] = rows[1][0]  # row 7 repeats the id of row 3
    rows[3][0] = "Card Four"  # not an id
    sheet = write_csv(tmp_path / "quiz.csv", rows)
    result = run("init", tmp_path / "quiz", "--from-sheet", sheet)
    assert result.exit_code == 1
    assert re.search(r"quiz\.csv:5: id: 'Card Four' is not an id: lower-case letters and digits, words joined by "
                     r"hyphens", result.output), result.output
    assert re.search(r"quiz\.csv:7: id: duplicate card id \(first in row 3\)", result.output), result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quiz.csv"]

    (tmp_path / "empty").mkdir()
    result = run("init", tmp_path / "empty", "--from-sheet", write_csv(tmp_path / "no-ids.csv", [["a", 1]],
                                                                        ["question", "difficulty"]))
    assert result.exit_code == 1
    assert re.search(r"no-ids\.csv:1: id: no id column", result.output), result.output
    result = run("init", tmp_path / "empty", "--from-sheet", write_csv(tmp_path / "titles.csv", [["a", "A"]],
                                                                        ["id", "title"]))
    assert result.exit_code == 1
    assert re.search(r"titles\.csv:1: file: has no column of a field of its own", result.output), result.output
    assert list((tmp_path / "empty").iterdir()) == []


def test_column_types_are_read_from_the_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    header = ["id", "name", "Flavour Text", "weight", "rare", "colour", "power", "type"]
    rows = [[f"c-{i}", f"Card {i}", f"Text {i}" * (i + 1), 0.5 * i, "yes" if i % 2 else "No",
             ["red", "blue"][i % 2], i * 3 if i % 3 == 0 else "", "hero" if i % 3 == 0 else "item"]
            for i in range(6)]
    sheet = write_csv(tmp_path / "Hero Cards.csv", rows, header)
    result = run("init", tmp_path / "heroes", "--from-sheet", sheet)
    assert result.exit_code == 0, result.output
    game = yaml.safe_load((tmp_path / "heroes/card_data/hero_cards/game.yaml").read_text(encoding="utf-8"))
    assert game["title"] == "Hero Cards" and game["title_field"] == "name"
    assert game["fields"] == {
        "name": {"type": "text", "required": True, "label": "Name"},
        "flavour_text": {"type": "text", "required": True, "label": "Flavour Text"},
        "weight": {"type": "number", "required": True, "label": "Weight", "min": 0, "max": 5},
        "rare": {"type": "yes_no", "required": True, "label": "Rare"},
        "colour": {"type": "one_of", "required": True, "label": "Colour", "options": ["red", "blue"]},
    }
    assert game["card_types"]["hero"] == {"label": "Hero", "back": "hero", "fields": {
        "power": {"type": "integer", "required": True, "label": "Power", "min": 0, "max": 10}}}
    cards = yaml.safe_load((tmp_path / "heroes/card_data/hero_cards/cards/Hero Cards.yaml").read_text())
    assert cards[1] == {"id": "c-1", "type": "item", "name": "Card 1", "flavour_text": "Text 1Text 1",
                        "weight": 0.5, "rare": True, "colour": "blue"}
    assert cards[3]["power"] == 9 and cards[0]["rare"] is False
    monkeypatch.chdir(tmp_path / "heroes")
    monkeypatch.setenv("PRINTKIT_BASE_URL", "http://192.168.1.20:5000")
    result = run("build")
    assert result.exit_code == 0, result.output
    text = " ".join(t for pdf in (tmp_path / "heroes/output").rglob("*.pdf") for t in pages_text(pdf))
    assert "Power: 9" in text and "Flavour Text: Text 3" in text and "Rare: no" in text


def test_the_game_id_comes_from_the_sheet_name_unless_given(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "carpe_cras.csv", quiz_rows(3))
    result = run("init", tmp_path / "a", "--from-sheet", sheet)
    assert result.exit_code == 2
    assert "carpe_cras" in result.output and "--game" in result.output
    assert not (tmp_path / "a").exists()
    result = run("init", tmp_path / "b", "--from-sheet", sheet, "--game", "Bad Id")
    assert result.exit_code == 2 and "not a game id" in result.output
    result = run("init", tmp_path / "c", "--from-sheet", sheet, "--game", "my_quiz")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "c/card_data/my_quiz/cards/carpe_cras.yaml").is_file()
    assert "from the sheet's name" not in result.output
    result = run("init", tmp_path / "d", "--from-sheet", write_csv(tmp_path / "cards.csv", quiz_rows(3)))
    assert result.exit_code == 0, result.output
    assert "Game id 'cards', from the sheet's name (--game ID chooses another" in result.output


def test_an_art_column_copies_the_artwork_beside_the_sheet_and_prints_it(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import Image

    (tmp_path / "pictures").mkdir()
    Image.new("RGB", (1400, 800), (200, 30, 30)).save(tmp_path / "pictures/nile.png")
    rows = [["nile", "The Nile", 6650, "pictures/nile.png"], ["amazon", "The Amazon", 6400, "pictures/amazon.png"]]
    sheet = write_csv(tmp_path / "rivers.csv", rows, ["id", "title", "length", "art"])
    result = run("init", tmp_path / "rivers", "--from-sheet", sheet)
    assert result.exit_code == 1
    assert (f"rivers.csv:3: art: artwork file not found: pictures/amazon.png (not in the game's folder "
            f"{tmp_path / 'rivers/card_data/rivers'} nor beside the sheet in {tmp_path})") in result.output, result.output
    assert not (tmp_path / "rivers").exists()

    Image.new("RGB", (1400, 800), (30, 30, 200)).save(tmp_path / "pictures/amazon.png")
    result = run("init", tmp_path / "rivers", "--from-sheet", sheet)
    assert result.exit_code == 0, result.output
    game = tmp_path / "rivers/card_data/rivers"
    assert (game / "pictures/nile.png").read_bytes() == (tmp_path / "pictures/nile.png").read_bytes()
    assert "kind: image" in (tmp_path / "rivers" / layouts_folder("rivers") / "card.yaml").read_text()
    cards = yaml.safe_load((game / "cards/rivers.yaml").read_text(encoding="utf-8"))
    assert cards[0] == {"id": "nile", "type": "card", "title": "The Nile", "length": 6650, "art": "pictures/nile.png"}
    monkeypatch.chdir(tmp_path / "rivers")
    result = run("build", "--base-url", "http://192.168.1.20:5000")
    assert result.exit_code == 0, result.output
    pdfs = list((tmp_path / "rivers/output/rivers").glob("*.pdf"))
    with pdfplumber.open(next(p for p in pdfs if p.name != "print-this.pdf")) as pdf:
        assert sum(len(page.images) for page in pdf.pages) == 2

    # A week later: a new card whose picture is beside the sheet; the import copies it in.
    Image.new("RGB", (1400, 800), (30, 200, 30)).save(tmp_path / "pictures/danube.png")
    rows.append(["danube", "The Danube", 2850, "pictures/danube.png"])
    result = run("import", write_csv(tmp_path / "rivers.csv", rows, ["id", "title", "length", "art"]), "--game", "rivers")
    assert result.exit_code == 0, result.output
    assert f"Copied 1 artwork file from beside the sheet: {Path('card_data/rivers/pictures/danube.png')}" in result.output
    assert (game / "pictures/danube.png").read_bytes() == (tmp_path / "pictures/danube.png").read_bytes()
    assert run("build", "--base-url", "http://192.168.1.20:5000").exit_code == 0
    pdfs = [p for p in (tmp_path / "rivers/output/rivers").glob("*.pdf") if p.name != "print-this.pdf"]
    with pdfplumber.open(pdfs[0]) as pdf:
        assert len(pdfs) == 1 and sum(len(page.images) for page in pdf.pages) == 3


def test_build_watch_rebuilds_only_the_declared_game_whose_files_changed(quiz: Path) -> None:
    from printkit.designer.loop.project import project_paths
    from printkit.designer.loop.project_commands import games_to_rebuild

    paths = project_paths()
    cards = Path("card_data/river_quiz/cards/river_quiz.yaml")
    template = Path(layouts_folder("river_quiz")) / "question.yaml"
    assert games_to_rebuild({cards}, paths, ()) == ("river_quiz",)
    assert games_to_rebuild({template}, paths, ()) == ("river_quiz",)
    assert games_to_rebuild({cards}, paths, ("other_game",)) is None
    assert games_to_rebuild({Path("printkit.toml")}, paths, ()) == ()


def test_the_title_is_the_first_text_column_that_tells_the_cards_apart(tmp_path: Path) -> None:
    rows = [["a", "History", "Who crossed the Alps?"], ["b", "History", "Who built Rome?"], ["c", "Art", "Who?"]]
    sheet = write_csv(tmp_path / "Trivia Night.csv", rows, ["id", "category", "question"])
    result = run("init", tmp_path / "trivia", "--from-sheet", sheet)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "trivia/card_data/trivia_night/game.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text)["title_field"] == "question"
    assert "`printkit import '../Trivia Night.csv' --game trivia_night` (in the project folder)" in text


def test_a_column_named_like_a_template_variable_is_a_field_of_its_own(tmp_path: Path) -> None:
    rows = [["a", "Alps", "red"], ["b", "Rome", "blue"]]
    sheet = write_csv(tmp_path / "maps.csv", rows, ["id", "title", "Card"])
    result = run("init", tmp_path / "maps", "--from-sheet", sheet)
    assert result.exit_code == 0, result.output
    game = yaml.safe_load((tmp_path / "maps/card_data/maps/game.yaml").read_text(encoding="utf-8"))
    assert game["fields"] == {"card_field": {"type": "text", "required": True, "label": "Card"}}
    result = run("import", sheet, "--game", "maps", "--data", tmp_path / "maps/card_data")
    assert result.exit_code == 0, result.output
    cards = yaml.safe_load((tmp_path / "maps/card_data/maps/cards/maps.yaml").read_text(encoding="utf-8"))
    assert cards[1] == {"id": "b", "type": "card", "title": "Rome", "card_field": "blue"}


def test_an_import_into_a_game_whose_game_yaml_is_broken_names_its_line(quiz: Path) -> None:
    game = quiz / "card_data/river_quiz/game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("{type: integer,", "{type: integr,"), encoding="utf-8")
    line = next(i for i, row in enumerate(game.read_text().splitlines(), 1) if row.startswith("  difficulty:"))
    cards = quiz / "card_data/river_quiz/cards/river_quiz.yaml"
    before = cards.read_bytes()
    result = run("import", quiz.parent / "river_quiz.csv", "--game", "river_quiz")
    assert result.exit_code == 1
    assert f"card_data/river_quiz/game.yaml:{line}: river_quiz/-: fields.difficulty.type: " in result.output
    assert cards.read_bytes() == before


def test_the_import_command_init_shows_runs_as_written_inside_the_project(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    write_csv(tmp_path / "cards.csv", quiz_rows(4))
    monkeypatch.chdir(tmp_path)
    result = run("init", "kit", "--from-sheet", "cards.csv")
    assert result.exit_code == 0, result.output
    shown = re.search(r"^\s*printkit (import .*?)\s+#", result.output, re.M)
    assert shown, result.output
    assert "cd kit" in result.output
    monkeypatch.chdir(tmp_path / "kit")
    result = run(*shlex.split(shown.group(1)))
    assert result.exit_code == 0, result.output
    assert re.search(r"^Wrote 4 cards of cards to card_data/cards/cards/cards\.yaml$", result.output, re.M), result.output
    # game.yaml's own comment names the same command, as it runs in the project folder.
    game_yaml = (tmp_path / "kit/card_data/cards/game.yaml").read_text(encoding="utf-8")
    assert f"`printkit {shown.group(1)}` (in the project folder)" in game_yaml, game_yaml[:600]


@pytest.mark.parametrize("preset", ["tgc-poker", "mpc-poker"])
def test_a_game_just_made_from_a_sheet_exports_for_a_print_shop_without_a_safe_area_warning(
        quiz: Path, preset: str) -> None:
    result = run("export", "--preset", preset, "--card", "q-1", "--card", "q-5")
    assert result.exit_code == 0, result.output
    assert "safe area" not in result.output and "warning" not in result.output.lower(), result.output
    assert sorted(p.name for p in (quiz / "output/river_quiz" / preset).rglob("*.png")) == [
        "back.png", "back.png", "q-1.png", "q-5.png"]


def test_a_card_type_that_is_not_the_games_is_named_with_the_games_types(quiz: Path) -> None:
    rows = quiz_rows()
    rows[3][1] = "bonsu"  # row 5
    rows[6][1] = ""  # row 8: no type
    cards_file = quiz / "card_data/river_quiz/cards/river_quiz.yaml"
    before = cards_file.read_bytes()
    result = run("import", write_csv(quiz.parent / "river_quiz.csv", rows), "--game", "river_quiz")
    assert result.exit_code == 1
    assert re.search(r"river_quiz\.csv:5: type: 'bonsu' is not one of 'question', 'bonus'$", result.output,
                     re.M), result.output
    assert re.search(r"river_quiz\.csv:8: type: required field is missing$", result.output, re.M), result.output
    assert "tag" not in result.output and "discriminator" not in result.output
    assert cards_file.read_bytes() == before


def test_a_column_of_one_value_stays_text_so_the_next_pack_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card of a first sheet is of the "Base" pack: that is no choice yet, so ``pack`` is
    text, and a later sheet with a second pack imports without touching game.yaml."""
    header = [*HEADER, "pack"]
    rows = [[*row, "Base"] for row in quiz_rows(8)]
    result = run("init", tmp_path / "quiz", "--from-sheet", write_csv(tmp_path / "river_quiz.csv", rows, header))
    assert result.exit_code == 0, result.output
    game = yaml.safe_load((tmp_path / "quiz/card_data/river_quiz/game.yaml").read_text(encoding="utf-8"))
    assert game["fields"]["pack"]["type"] == "text"
    monkeypatch.chdir(tmp_path / "quiz")
    rows[0][-1] = "Family"
    again = run("import", write_csv(tmp_path / "river_quiz.csv", rows, header), "--game", "river_quiz")
    assert again.exit_code == 0, again.output
    cards = yaml.safe_load((tmp_path / "quiz/card_data/river_quiz/cards/river_quiz.yaml").read_text(encoding="utf-8"))
    assert [c["pack"] for c in cards][:2] == ["Family", "Base"]


def test_a_word_in_a_column_of_numbers_is_named_at_its_row_and_options_of_numbers_and_words_import(
        tmp_path: Path) -> None:
    """A ``cost`` column of numbers with one "three" in it is a number column whose one bad row is
    reported (not options that every other row then fails); a ``reach`` column of 1, 2 and X is
    options that the cards holding 1 and 2 match."""
    header = [*HEADER, "cost", "reach"]
    rows = [[*row, i % 5, ["1", "2", "X"][i % 3]] for i, row in enumerate(quiz_rows(12))]
    rows[6][-2] = "three"
    result = run("init", tmp_path / "quiz", "--from-sheet", write_csv(tmp_path / "river_quiz.csv", rows, header))
    assert result.exit_code == 1
    problems = [line for line in result.output.splitlines() if line.startswith(str(tmp_path))]
    assert problems == [f"{tmp_path / 'river_quiz.csv'}:8: cost: 'three' is not a whole number"], result.output
    assert not (tmp_path / "quiz").exists()

    rows[6][-2] = 3
    result = run("init", tmp_path / "quiz", "--from-sheet", write_csv(tmp_path / "river_quiz.csv", rows, header))
    assert result.exit_code == 0, result.output
    game = yaml.safe_load((tmp_path / "quiz/card_data/river_quiz/game.yaml").read_text(encoding="utf-8"))
    assert game["fields"]["cost"]["type"] == "integer"
    assert game["fields"]["reach"] == {"type": "one_of", "required": True, "label": "Reach", "options": ["1", "2", "X"]}
    cards = yaml.safe_load((tmp_path / "quiz/card_data/river_quiz/cards/river_quiz.yaml").read_text(encoding="utf-8"))
    assert [c["reach"] for c in cards[:3]] == ["1", "2", "X"] and cards[6]["cost"] == 3


def test_a_column_game_yaml_does_not_declare_is_named_once_with_what_to_declare(quiz: Path) -> None:
    rows = [[*row, f"Flavour {i}"] for i, row in enumerate(quiz_rows())]
    sheet = write_csv(quiz.parent / "river_quiz.csv", rows, [*HEADER, "Flavour Text"])
    before = (quiz / "card_data/river_quiz/cards/river_quiz.yaml").read_bytes()
    result = run("import", sheet, "--game", "river_quiz")
    assert result.exit_code == 1
    problems = [line for line in result.output.splitlines() if line.startswith(str(sheet))]
    assert problems == [f"{sheet}:1: Flavour Text: names no field of river_quiz: declare it in game.yaml under "
                        "fields: (e.g. flavour_text: {type: text, label: Flavour Text}), or remove the column"], result.output
    assert (quiz / "card_data/river_quiz/cards/river_quiz.yaml").read_bytes() == before


def test_a_reimport_keeps_what_the_sheet_has_no_column_for_and_says_so(quiz: Path) -> None:
    """A designer adds rulings to two cards in the card file; the weekly import of the edited
    sheet (which has no rulings columns) keeps them, says it did, and takes the sheet's edits."""
    cards_file = quiz / "card_data/river_quiz/cards/river_quiz.yaml"
    text = cards_file.read_text(encoding="utf-8")
    ruling = ("  rulings:\n    - {text: A river's length is measured to its farthest source., date: 2026-11-20,"
              " source: designer, reference: club night}\n")
    for card_id in ("q-1", "q-3"):
        head = f"- id: {card_id}\n"
        block_end = text.index("\n\n", text.index(head))
        text = text[:block_end + 1] + ruling + text[block_end + 1:]
    cards_file.write_text(text, encoding="utf-8")
    assert run("validate").exit_code == 0

    rows = quiz_rows()
    rows[0][2] = "Which river is the longest?"
    result = run("import", write_csv(quiz.parent / "river_quiz.csv", rows), "--game", "river_quiz")
    assert result.exit_code == 0, result.output
    assert "Kept rulings from river_quiz.yaml (the sheet has no rulings column): q-1, q-3" in result.output
    cards = {c["id"]: c for c in yaml.safe_load(cards_file.read_text(encoding="utf-8"))}
    assert cards["q-1"]["question"] == "Which river is the longest?"
    for card_id in ("q-1", "q-3"):
        assert cards[card_id]["rulings"] == [{"text": "A river's length is measured to its farthest source.",
                                              "date": "2026-11-20", "source": "designer", "reference": "club night"}]
    assert "rulings" not in cards["q-2"]

    # A sheet with a rulings column rules the cards' rulings: the file's are not kept.
    header = [*HEADER, "rulings.0.text"]
    result = run("import", write_csv(quiz.parent / "river_quiz.csv", [[*row, ""] for row in rows], header),
                 "--game", "river_quiz")
    assert result.exit_code == 0, result.output
    assert "Kept" not in result.output
    assert not any("rulings" in c for c in yaml.safe_load(cards_file.read_text(encoding="utf-8")))
