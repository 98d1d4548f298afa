"""``printkit import``: spreadsheets (CSV, XLSX) to card_data YAML, measured from the files written.

The round trip runs every bundled card of every game through cards -> rows -> CSV/XLSX ->
``printkit import`` -> YAML -> the database loader, and expects the very same card models.
Failing inputs check the exact ``FILE:ROW: field:`` prefix of each problem and that nothing
was written.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from card_data.loader import bundled_data_dir, check_database, load_database
from printkit.designer.commands import import_cmd
from printkit.designer.spreadsheet.card_writing import cards_to_rows, write_csv, write_xlsx
from printkit.designer.spreadsheet.importer import import_sheet, read_sheet, rows_to_cards

DB = load_database()
WRITERS = {"csv": write_csv, "xlsx": write_xlsx}


def run_import(*args: str):
    return CliRunner().invoke(import_cmd, [str(a) for a in args])


def game_without_cards(root: Path, game_id: str) -> Path:
    """A database at ``root`` holding one bundled game whose ``cards/`` folder is empty, so
    imported cards are the game's only cards (its decks and artwork stay)."""
    folder = root / game_id
    shutil.copytree(bundled_data_dir() / game_id, folder)
    for path in (folder / "cards").glob("*.yaml"):
        path.unlink()
    return folder


def write_text_csv(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("ext", sorted(WRITERS))
@pytest.mark.parametrize("game_id", list(DB.games))
def test_bundled_cards_round_trip_through_a_spreadsheet(tmp_path, game_id, ext):
    game = DB.games[game_id]
    originals = list(game.cards.values())
    header, rows = cards_to_rows(originals)
    sheet = tmp_path / f"{game_id}.{ext}"
    WRITERS[ext](sheet, header, rows)
    root = tmp_path / "data"
    folder = game_without_cards(root, game_id)
    out = folder / "cards" / "imported.yaml"

    result = run_import(sheet, "--game", game_id, "--data", root, "--out", out)

    assert result.exit_code == 0, result.output
    # The YAML written is read by the real loader: every card comes back equal, in order,
    # and the game's deck lists (which name those cards) are valid again.
    db, problems = check_database(root)
    assert problems == []
    assert list(db.games[game_id].cards.values()) == originals


def test_xlsx_keeps_numbers_as_numbers_and_lists_in_one_cell(tmp_path):
    cards = [DB.games["carpe_cras"].cards["royal-scout"]]
    header, rows = cards_to_rows(cards)
    path = tmp_path / "scout.xlsx"
    write_xlsx(path, header, rows)
    sheet = openpyxl.load_workbook(path).worksheets[0]
    cells = {sheet.cell(1, col).value: sheet.cell(2, col).value for col in range(1, sheet.max_column + 1)}
    card = cards[0]
    assert cells["cost"] == card.cost and isinstance(cells["cost"], int)
    assert cells["agency"] == "; ".join(card.agency)
    assert cells["skills.0.name"] == card.skills[0].name
    assert cells["rulings.0.section"] == card.rulings[0].section


def test_hand_written_sheet_follows_the_documented_convention(tmp_path):
    path = write_text_csv(tmp_path / "new.csv", (
        "id,type,title,cost,agency,traits,skills.0.name,skills.0.power,skills.0.combat,speed,health,steps,"
        "bonuses.armor,rulings.0.text,rulings.0.section\n"
        # title "1812" must stay text; agency is two values; traits a one-item list.
        'drum-corps,unit,1812,2,Might; Cunning,Knockback,Drums,1,melee,2,4,2,,"Moves, then strikes.",'
        '"carpe-cras.txt V1.0 – Traits"\n'
        ",,,,,,,,,,,,,,\n"  # a blank row is skipped
        'war-banner,upgrade,War Banner,1,Zeal,,Pike,1,,,,,2,,\n'
    ))
    result = rows_to_cards("carpe_cras", str(path), *read_sheet(path))
    assert result.problems == []
    unit, upgrade = result.cards
    assert result.rows == [2, 4]
    assert (unit.id, unit.type, unit.title, unit.cost) == ("drum-corps", "unit", "1812", 2)
    assert unit.agency == ["Might", "Cunning"] and unit.traits == ["Knockback"]
    assert (unit.skills[0].name, unit.skills[0].power, unit.skills[0].combat) == ("Drums", 1, "melee")
    assert unit.rulings[0].text == "Moves, then strikes."
    assert (upgrade.agency, upgrade.bonuses.armor, upgrade.skills[0].combat) == (["Zeal"], 2, None)


def test_json_cells_and_numeric_lists_for_cartisora(tmp_path):
    path = write_text_csv(tmp_path / "specials.csv", (
        "id,type,title,deck,special_kind,power,effect,effects,editions\n"
        'hold-fast,special,Hold Fast,guardian,special_numbered,3,Wins against ties.,'
        '"[{""kind"": ""wins_against_ties""}]",2019\n'
        'old-trick,special,Old Trick,trickster,action,,Ties.,[],2017; 2019\n'
    ))
    result = rows_to_cards("cartisora", str(path), *read_sheet(path))
    assert result.problems == []
    first, second = result.cards
    assert [e.kind for e in first.effects] == ["wins_against_ties"] and first.editions == [2019]
    assert second.effects == [] and second.editions == [2017, 2019] and second.power is None


def test_bad_rows_are_all_reported_as_file_row_field_and_nothing_is_written(tmp_path):
    sheet = write_text_csv(tmp_path / "units.csv", (
        "id,type,title,cost,agency,speed,health,steps,skills.0.name,skills.1.name,skills.1.power,"
        "skills.1.combat,colour\n"
        "good-unit,unit,Good Unit,1,Might,2,3,2,,,,,\n"                     # row 2: fine
        "greedy,unit,Greedy,lots,Might,2,3,2,,,,,\n"                        # row 3: cost not a number
        "slow,unit,Slow,1,Might,,3,2,,,,,\n"                                # row 4: speed missing
        "painted,unit,Painted,1,Might,2,3,2,,,,,red\n"                      # row 5: no such field
        "good-unit,unit,Again,1,Might,2,3,2,,,,,\n"                         # row 6: duplicate id
        "wizard,wizard,Wizard,1,Might,2,3,2,,,,,\n"                         # row 7: no such type
        "gappy,unit,Gappy,1,Might,2,3,2,,Axe,2,melee,\n"                    # row 8: skills.0 skipped
        "fan,unit,Fan,1,Glory,2,3,2,,,,,\n"                                 # row 9: not an agency type
    ))
    out = tmp_path / "units.yaml"
    out.write_text("# earlier import\n", encoding="utf-8")

    result = run_import(sheet, "--game", "carpe_cras", "--out", out)

    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith(f"{sheet}:")]
    expected_prefixes = [
        f"{sheet}:3: cost: ",
        f"{sheet}:4: speed: required field is missing",
        f"{sheet}:5: colour: unknown field",
        f"{sheet}:6: id: duplicate card id (first in row 2)",
        f"{sheet}:7: type: ",
        f"{sheet}:8: skills.0: is empty, but item 1 of the list is filled in",
        f"{sheet}:9: agency.0: ",
    ]
    assert len(lines) == len(expected_prefixes), result.output
    for line, prefix in zip(lines, expected_prefixes):
        assert line.startswith(prefix), (line, prefix)
    assert lines[0].endswith("cost: 'lots' is not a whole number")
    assert "wizard" in lines[4]
    assert "should be 'Might', 'Cunning'" in lines[6]
    assert "7 problems found. Nothing was written." in result.output
    assert out.read_text(encoding="utf-8") == "# earlier import\n"


def test_xlsx_problems_name_the_worksheet_row(tmp_path):
    header, rows = cards_to_rows([DB.games["cahrd"].cards[cid] for cid in list(DB.games["cahrd"].cards)[:3]])
    rows[2][header.index("title")] = None  # third card: spreadsheet row 4
    sheet = tmp_path / "officers.xlsx"
    write_xlsx(sheet, header, rows)
    out = tmp_path / "officers.yaml"

    result = run_import(sheet, "--game", "cahrd", "--out", out, "--data", tmp_path / "empty-db")

    assert result.exit_code == 1
    assert f"{sheet}:4: title: required field is missing" in result.output.splitlines()
    assert not out.exists()


def test_ids_already_in_another_card_file_and_missing_artwork_are_problems(tmp_path):
    game = DB.games["carpe_cras"]
    might = game.cards["might"]
    header, rows = cards_to_rows([might])
    header.append("art")
    rows[0].append("art/none-such.png")
    sheet = tmp_path / "agency.csv"
    write_csv(sheet, header, rows)
    defined_in, defined_line = game.sources[("card", "might")]

    result = run_import(sheet, "--game", "carpe_cras", "--out", tmp_path / "agency.yaml")

    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert (f"{sheet}:2: art: artwork file not found: art/none-such.png (not in the game's folder {game.folder} "
            f"nor beside the sheet in {tmp_path})") in lines
    assert f"{sheet}:2: id: already defined at {defined_in}:{defined_line}" in lines
    assert not (tmp_path / "agency.yaml").exists()
    # Importing over the very file that defines the card is re-importing, not a clash.
    rows[0][-1] = None
    write_csv(sheet, header, rows)
    assert import_sheet(sheet, "carpe_cras", replaces=Path(defined_in)).problems == []


def test_a_file_that_is_not_a_spreadsheet_is_one_problem(tmp_path):
    notes = tmp_path / "cards.txt"
    notes.write_text("id,type\n", encoding="utf-8")
    result = run_import(notes, "--game", "cahrd")
    assert result.exit_code == 1
    assert f"{notes}:1: file: cannot read: expected a .csv or .xlsx file" in result.output
    broken = tmp_path / "cards.xlsx"
    broken.write_text("not a workbook", encoding="utf-8")
    result = run_import(broken, "--game", "cahrd")
    assert result.exit_code == 1
    assert result.output.startswith(f"{broken}:1: file: cannot read: ")



def _workbook_with(path: Path, replace: dict[str, bytes | None]) -> Path:
    """A real workbook whose zip members are then replaced (``None``: removed)."""
    import zipfile

    book = openpyxl.Workbook()
    book.active.append(["id", "type", "title"])
    book.save(path.with_suffix(".tmp.xlsx"))
    with zipfile.ZipFile(path.with_suffix(".tmp.xlsx")) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            if info.filename in replace:
                if replace[info.filename] is not None:
                    target.writestr(info.filename, replace[info.filename])
            else:
                target.writestr(info, source.read(info))
    return path


@pytest.mark.parametrize("member, content", [
    ("xl/worksheets/sheet1.xml", b"<worksheet><sheetData><row"),  # cut short
    ("xl/worksheets/sheet1.xml", b'<?xml version="1.0"?><!DOCTYPE w [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
                                 b"<worksheet>&xxe;</worksheet>"),  # an outside entity
    ("xl/workbook.xml", b"garbage"),
])
def test_a_damaged_workbook_is_one_problem_and_nothing_is_written(tmp_path, member, content):
    """A zip that is a workbook in name only: one problem at row 1 naming the file, no traceback."""
    sheet = _workbook_with(tmp_path / "cards.xlsx", {member: content})
    result = run_import(sheet, "--game", "cahrd", "--out", str(tmp_path / "out.yaml"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.startswith(f"{sheet}:1: file: cannot read: not a readable XLSX workbook (")
    assert not (tmp_path / "out.yaml").exists()


# ---- sheets too large or too deep to read (issue 18) --------------------------------------------

HOSTILE_HEADER = ["id", "type", "title", "reserve_cost", "effect"]


def write_hostile(path: Path, effect: str) -> Path:
    """A C.A.H.R.D. item sheet: a fine card in row 2, one whose ``effect`` cell is ``effect`` in row 3."""
    rows = [["drums", "item", "Drums", 1000, "Draw a card."], ["bomb", "item", "Bomb", 1000, effect]]
    if path.suffix == ".csv":
        write_csv(path, HOSTILE_HEADER, rows)
    else:
        workbook = openpyxl.Workbook()  # write_xlsx would be fine too; a hostile file need not be ours
        sheet = workbook.active
        for row in [HOSTILE_HEADER, *rows]:
            sheet.append(row)
        workbook.save(path)
    return path


@pytest.mark.parametrize("ext, effect", [
    *[(ext, effect) for ext in ("csv", "xlsx")
      for effect in ("[" * 5000, "[" * 5000 + "]" * 5000, '{"a": ' * 5000 + "1" + "}" * 5000)],
    ("csv", "x" * 40_000),  # openpyxl cuts what it writes to 32,767, as Excel does
], ids=["csv-5000-open-lists", "csv-5000-deep-list", "csv-5000-deep-object",
        "xlsx-5000-open-lists", "xlsx-5000-deep-list", "xlsx-5000-deep-object", "csv-40000-characters"])
def test_a_cell_too_deep_or_too_long_is_one_problem_at_its_row_and_column(tmp_path, ext, effect):
    """Before: a RecursionError traceback out of the JSON parser."""
    sheet = write_hostile(tmp_path / f"items.{ext}", effect)
    out = tmp_path / "items.yaml"
    result = run_import(sheet, "--game", "cahrd", "--out", out, "--data", tmp_path / "no-database")
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    problems = [line for line in result.output.splitlines() if line.startswith(f"{sheet}:")]
    assert len(problems) == 1 and problems[0].startswith(f"{sheet}:3: effect: "), result.output
    assert not out.exists()


def test_a_csv_cell_past_csvs_own_bound_is_one_problem_at_its_row(tmp_path):
    """A quote left open runs the cell to the end of the file. Before: a csv.Error traceback."""
    sheet = write_text_csv(tmp_path / "items.csv", "id,type,title,reserve_cost,effect\n"
                                                   "drums,item,Drums,1000,Draw a card.\n"
                                                   'bomb,item,Bomb,1000,"' + "x" * 200_000 + "\n")
    result = run_import(sheet, "--game", "cahrd", "--out", tmp_path / "items.yaml", "--data", tmp_path / "none")
    assert result.exit_code == 1 and "Traceback" not in result.output
    problems = [line for line in result.output.splitlines() if line.startswith(f"{sheet}:")]
    assert len(problems) == 1 and problems[0].startswith(f"{sheet}:3: "), result.output


def test_a_sheet_over_the_file_limit_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "printkit.toml").write_text("[printkit.limits]\nfile_mb = 0.1\n", encoding="utf-8")
    header, rows = cards_to_rows(list(DB.games["cahrd"].cards.values()))
    sheet = tmp_path / "cards.csv"
    write_csv(sheet, header, rows * 4)  # ~200 kB
    result = run_import(sheet, "--game", "cahrd", "--out", tmp_path / "cards.yaml", "--data", tmp_path / "none")
    assert result.exit_code == 1
    problems = [line for line in result.output.splitlines() if line.startswith(f"{sheet}:")]
    assert len(problems) == 1 and problems[0].startswith(f"{sheet}:1: file: ") and "file_mb" in problems[0]
