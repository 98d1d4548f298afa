"""Card data that cannot hang or fool the build (issue 9, section 3).

A card file can be hostile (a "billion laughs" alias bomb, an alias that contains itself,
nesting thousands of levels deep) or merely wrong in a way YAML lets pass silently (a key
written twice). Each is one problem at its FILE:LINE, reported at once, by ``printkit
validate``, by the loader and by the companion on start. And one mistake gives one problem:
a card that fails to load, or a card file that fails to parse, does not make every deck
listing its cards report unknown ids, nor hide the problems that do not depend on it.

The bombs here are big enough that reading them the old way took minutes and gigabytes (a
regression shows as a run that does not finish); no test measures time.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from database_edits import copy_database, copy_game, edit, line_of, problem_lines

from card_data.loader import load_database
from card_data.problems import DatabaseError
from card_data.reading import yaml_source
from card_data.reading.yaml_source import MAX_ALIAS_VALUES, YamlSyntaxError, load_yaml
from companion import create_app
from printkit.cli import main as printkit_cli


def validate(data: Path) -> list[str]:
    """``printkit validate --data DATA``: the lines it printed, less its warnings (e.g. dense
    QR codes in the bundled layouts, which are no concern here); it must have found problems
    (exit status 1) and reported them, not crashed."""
    result = CliRunner().invoke(printkit_cli, ["validate", "--data", str(data)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return [line for line in result.output.splitlines() if not line.startswith("warning: ")]


def billion_laughs(levels: int = 9) -> str:
    """A card whose fields are aliases of lists of aliases: ~390 bytes standing for 9**levels
    values. Each level's line is ``<letter>: &<letter> [...]``, from ``a`` on line 4."""
    lines = ["- id: laughs", "  type: item", "  title: Laughs", "  a: &a [x,x,x,x,x,x,x,x,x]"]
    for prev, name in pairwise("abcdefghijklmnopqrstuvwxyz"[:levels]):
        lines.append(f"  {name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def bomb_line(text: str) -> int:
    """The line of the alias whose expansion passes :data:`MAX_ALIAS_VALUES`, computed the
    way a person would: level ``a`` is 10 values, each next level 1 + 9 of the one before, and
    every alias adds the values of the level it names."""
    added, size = 0, 10  # values aliases have added so far; values of the level being aliased
    for name in "bcdefghijklmnopqrstuvwxyz":
        for _ in range(9):
            added += size
            if added > MAX_ALIAS_VALUES:
                return line_of(text, f"  {name}: &{name}")
        size = 1 + 9 * size
    raise AssertionError("the bomb is too small to pass the limit")


# ---- YAML that would hang, crash or silently lose a value ----------------------------------

@pytest.fixture(params=["libyaml-composer", "bounded-composer"])
def yaml_reading(request, monkeypatch):
    """Each YAML test on both readings of :mod:`card_data.reading.yaml_source`: libyaml's own composer,
    which reads a document without aliases, and the bounded composer, which reads every other
    document (and every document where libyaml does not bound nesting itself)."""
    if request.param == "bounded-composer":
        monkeypatch.setattr(yaml_source, "_libyaml_composes_safely", lambda: False)
    return request.param


@pytest.mark.usefixtures("yaml_reading")
def test_validate_reports_a_billion_laughs_file_at_its_line(tmp_path):
    data = copy_database(tmp_path / "data")
    bomb = data / "cahrd" / "cards" / "laughs.yaml"
    text = billion_laughs()
    assert len(text.encode()) < 400
    bomb.write_text(text, encoding="utf-8")
    assert validate(data) == [
        (f"{bomb}:{bomb_line(text)}: cahrd/-: yaml: aliases expand to more than {MAX_ALIAS_VALUES:,} values "
         "(here at *e); a card file needs far fewer"),
        "1 problem found."]


@pytest.mark.usefixtures("yaml_reading")
def test_the_companion_refuses_a_billion_laughs_database_on_start(tmp_path):
    data = copy_database(tmp_path / "data")
    bomb = data / "carpe_cras" / "cards" / "laughs.yaml"
    text = billion_laughs()
    bomb.write_text(text, encoding="utf-8")
    with pytest.raises(DatabaseError) as raised:
        create_app({"TESTING": True, "CARD_DATA_DIR": str(data),
                    "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    assert [str(p) for p in raised.value.problems] == [
        (f"{bomb}:{bomb_line(text)}: carpe_cras/-: yaml: aliases expand to more than {MAX_ALIAS_VALUES:,} values "
         "(here at *e); a card file needs far fewer")]


@pytest.mark.usefixtures("yaml_reading")
def test_aliases_within_the_limit_still_load(tmp_path):
    path = tmp_path / "stats.yaml"
    path.write_text("base: &base {power: 2, speed: 3}\nknight:\n  <<: *base\n  speed: 4\n"
                    "copies: [*base, *base]\n", encoding="utf-8")
    data, lines = load_yaml(path)
    assert data["knight"] == {"power": 2, "speed": 4}  # a key written over a merged one is no duplicate
    assert data["copies"] == [{"power": 2, "speed": 3}] * 2
    assert lines.line_for(("knight", "speed")) == 4


@pytest.mark.usefixtures("yaml_reading")
@pytest.mark.parametrize("text, line, message", [
    ("- id: loop\n  type: item\n  title: Loop\n  effect: &e [*e]\n", 4, "recursive alias: *e is used inside"),
    ("- id: loop\n  type: item\n  title: Loop\n  effect: &e\n    again: *e\n", 5, "recursive alias: *e is used inside"),
    ("- id: loop\n  type: item\n  title: Loop\n  effect: &e\n    <<: *e\n", 5, "recursive alias: *e is used inside"),
    ("- id: odd\n  type: item\n  title: Odd\n  reserve_cost: !!int lots\n", 4,
     "malformed YAML: 'lots' is not a valid int"),
    ("- id: odd\n  type: item\n  ? [title, [x]]\n  : Odd\n", 3, "malformed YAML:"),
], ids=["alias-in-its-own-list", "alias-in-its-own-mapping", "merge-of-itself", "bad-int-tag", "list-as-key"])
def test_yaml_that_would_crash_the_loader_is_one_problem(tmp_path, text, line, message):
    """Before: RecursionError, a segmentation fault (libyaml's composer recursing in C), a
    ValueError or a TypeError out of the loader instead of a problem."""
    copy_game(tmp_path, "cahrd")
    path = tmp_path / "cahrd" / "cards" / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatabaseError) as raised:
        load_database(tmp_path)
    found = [str(p) for p in raised.value.problems]
    assert len(found) == 1 and found[0].startswith(f"{path}:{line}: cahrd/-: yaml: {message}"), found


@pytest.fixture(params=["yaml-library-bound", "no-yaml-library-bound"])
def yaml_library_nesting(request, monkeypatch):
    """With libyaml's own nesting bound (0.2.6 refuses 1,000 levels, while scanning ahead), and
    without it, as with older libyaml or PyYAML's own parser: then only the loader's bound stands
    between a deep file and a RecursionError."""
    if request.param == "no-yaml-library-bound":
        libyaml = getattr(yaml, "_yaml", None)
        if libyaml is not None and hasattr(libyaml, "_set_max_nest_level"):
            before = libyaml._get_max_nest_level()
            libyaml._set_max_nest_level(10_000_000)
            request.addfinalizer(lambda: libyaml._set_max_nest_level(before))
    return request.param


@pytest.mark.usefixtures("yaml_reading")
@pytest.mark.parametrize("shape", ["lists", "mappings"])
def test_yaml_nested_100000_deep_is_one_problem_at_its_line(tmp_path, yaml_library_nesting, shape):
    """Before: a RecursionError (or libyaml's composer crashing the process). What the problem
    says is the YAML library's or the loader's words, whichever bound is met first; where it
    is, and that it is one problem and no traceback, is the same either way."""
    copy_game(tmp_path, "cahrd")
    path = tmp_path / "cahrd" / "cards" / "hostile.yaml"
    opening, closing = ("[", "]") if shape == "lists" else ("{a: ", "}")
    path.write_text("- id: deep\n  type: item\n  title: " + opening * 100_000 + "x" + closing * 100_000 + "\n",
                    encoding="utf-8")
    found = validate(tmp_path)
    assert len(found) == 2 and found[1] == "1 problem found.", found
    assert found[0].startswith(f"{path}:3: cahrd/-: "), found


@pytest.mark.usefixtures("yaml_reading")
def test_a_key_written_twice_names_the_key_and_both_lines(tmp_path):
    data = copy_game(tmp_path, "cahrd")
    path = data / "cards" / "items.yaml"
    text = edit(path, "  title: Signal Drums\n", "  title: Signal Drums\n  title: Signal Drum\n")
    deck = data / "decks" / "shield-wall.yaml"
    deck_text = edit(deck, "  - card: iron-shield\n    qty: 2\n", "  - card: iron-shield\n    qty: 2\n    qty: 3\n")
    second = "title: Signal Drum\n"
    assert problem_lines(tmp_path) == [
        (f"{path}:{line_of(text, second)}: cahrd/signal-drums: title: duplicate key 'title' "
         f"(first at line {line_of(text, 'title: Signal Drums')}); YAML keeps only this later value"),
        (f"{deck}:{line_of(deck_text, 'qty: 3', after='card: iron-shield')}: cahrd/shield-wall: cards.24.qty: "
         f"duplicate key 'qty' (first at line {line_of(deck_text, 'qty: 2', after='card: iron-shield')}); "
         "YAML keeps only this later value")]


@pytest.mark.usefixtures("yaml_reading")
def test_load_yaml_refuses_a_duplicate_key_unless_asked_to_collect_them(tmp_path):
    """Layout templates, boards and reference cards read YAML without collecting: for them a
    duplicate key is an error like a syntax error."""
    path = tmp_path / "layout.yaml"
    path.write_text("size: small\nfont: serif\nsize: large\n", encoding="utf-8")
    with pytest.raises(YamlSyntaxError) as raised:
        load_yaml(path)
    assert raised.value.line == 3 and "duplicate key 'size' (first at line 1)" in raised.value.message
    collected = []
    data, _ = load_yaml(path, collected)
    assert data == {"size": "large", "font": "serif"}
    assert [(d.loc, d.line, d.first_line, d.key) for d in collected] == [(("size",), 3, 1, "size")]


# ---- every independent problem, no consequential one -----------------------------------------

@pytest.mark.usefixtures("yaml_reading")
def test_a_card_file_that_does_not_parse_is_one_problem(tmp_path):
    """Before: the syntax error and ten "unknown card id" problems, one per deck entry naming
    an item of that file."""
    data = copy_database(tmp_path / "data")
    items = data / "cahrd" / "cards" / "items.yaml"
    text = edit(items, "  title: Serpent Spear of Zhang Fei\n", "  title: [Serpent Spear of Zhang Fei\n")
    found = validate(data)
    assert len(found) == 2 and found[1] == "1 problem found.", found
    # The parser notices the unclosed list on the line after it.
    assert found[0].startswith(f"{items}:{line_of(text, 'title: [Serpent') + 1}: cahrd/-: yaml: malformed YAML: ")


def test_a_typo_in_a_deck_is_still_reported_while_a_card_file_does_not_parse(tmp_path):
    data = copy_game(tmp_path, "cahrd")
    items = data / "cards" / "items.yaml"
    edit(items, "  title: Serpent Spear of Zhang Fei\n", "  title: [Serpent Spear of Zhang Fei\n")
    deck = data / "decks" / "shield-wall.yaml"
    text = edit(deck, "  - card: iron-shield\n", "  - card: iron-sheild\n")
    found = problem_lines(tmp_path)
    assert len(found) == 2, found
    assert found[0].startswith(f"{items}:")
    assert found[1] == (f"{deck}:{line_of(text, 'iron-sheild')}: cahrd/shield-wall: cards.24.card: "
                        "unknown card id 'iron-sheild'")


def test_independent_problems_are_all_reported_in_one_run(tmp_path):
    """A card that fails its schema, two records with one id (one of them invalid) and a deck
    over a copy limit that also lists the failed card: each reported, once, by `validate`;
    nothing about the deck's size or its entry for the failed card."""
    data = copy_game(tmp_path, "cahrd")
    items = data / "cards" / "items.yaml"
    items_text = edit(items, "  reserve_cost: 2000\n  effect: Until the End Step, one of your officers gets +1 LDR",
                      "  reserve_cost: lots\n  effect: Until the End Step, one of your officers gets +1 LDR")
    tactics = data / "cards" / "tactics.yaml"
    tactics_text = edit(tactics, "- id: rearguard\n", "- id: counter-order\n  type: tactic\n  colour: red\n")
    deck = data / "decks" / "shield-wall.yaml"
    deck_text = edit(deck, "  - card: iron-shield\n    qty: 2\n", "  - card: iron-shield\n    qty: 5\n")
    found = validate(tmp_path)
    printings = data / "printings.yaml"
    second = line_of(tactics_text, "colour: red") - 2
    assert found == [
        (f"{items}:{line_of(items_text, 'reserve_cost: lots')}: cahrd/signal-drums: reserve_cost: "
         "'lots' is not a whole number"),
        (f"{tactics}:{second}: cahrd/counter-order: id: duplicate card id (first defined at "
         f"{tactics}:{line_of(tactics_text, 'title: Counter Order') - 2})"),
        f"{tactics}:{second + 2}: cahrd/counter-order: colour: unknown field",
        (f"{tactics}:{second + 3}: cahrd/counter-order: type: duplicate key 'type' (first at line {second + 1}); "
         "YAML keeps only this later value"),
        (f"{deck}:{line_of(deck_text, 'qty: 5')}: cahrd/shield-wall: cards.24.qty: an army deck holds at most "
         "3 copies of an item: 'Iron Shield' appears 5 times [Getting Started: Deck (40 to 60 cards)]"),
        (f"{deck}:{line_of(deck_text, '- card: rearguard')}: cahrd/shield-wall: cards.27.card: "
         "unknown card id 'rearguard'"),
        # Renamed away, the card's printed versions name a card that is no longer there.
        (f"{printings}:{line_of(printings.read_text(), 'rearguard:')}: cahrd/rearguard: -: unknown card id "
         "'rearguard': printed copies of it exist, but no card of the game has it; keep the card (its id is "
         "in their QR codes), or remove its versions here if it is withdrawn"),
        "7 problems found."]


def test_a_deck_list_that_fails_its_schema_still_has_its_card_ids_checked(tmp_path):
    data = copy_game(tmp_path, "cahrd")
    deck = data / "decks" / "shield-wall.yaml"
    text = edit(deck, "title: \"Example army: Shield Wall\"\n", "")
    text = edit(deck, "  - card: iron-shield\n", "  - card: iron-sheild\n")
    assert problem_lines(tmp_path) == [
        f"{deck}:{line_of(text, 'id: shield-wall')}: cahrd/shield-wall: title: required field is missing",
        f"{deck}:{line_of(text, 'iron-sheild')}: cahrd/shield-wall: cards.24.card: unknown card id 'iron-sheild'"]


def test_duplicate_deck_and_glossary_ids_are_reported_even_when_invalid(tmp_path):
    data = copy_game(tmp_path, "cahrd")
    twin = data / "decks" / "twin.yaml"
    twin.write_text("id: shield-wall\ntitle: Twin\ncards: []\n", encoding="utf-8")  # no kind: invalid
    glossary = data / "glossary.yaml"
    first_id = next(ln.split(":", 1)[1].strip() for ln in glossary.read_text(encoding="utf-8").splitlines()
                    if ln.startswith("- id:"))
    text = glossary.read_text(encoding="utf-8") + f"- id: {first_id}\n  term: Twin\n"
    glossary.write_text(text, encoding="utf-8")
    found = problem_lines(tmp_path)
    last = text.count("\n") - 1
    assert f"{twin}:1: cahrd/shield-wall: id: duplicate deck id" in found, found
    assert f"{glossary}:{last}: cahrd/{first_id}: id: duplicate glossary id" in found, found


def test_rules_across_records_wait_until_every_record_loads(tmp_path):
    """A special card that fails its schema: before, its reference card was said not to
    describe it and its deck to name an unknown card."""
    data = copy_game(tmp_path, "cartisora")
    path = data / "cards" / "knight.yaml"
    text = edit(path, "  title: En Garde\n  deck: knight\n  special_kind: action\n",
                "  title: En Garde\n  deck: knight\n  special_kind: actoin\n")
    found = problem_lines(tmp_path)
    assert len(found) == 1 and found[0].startswith(
        f"{path}:{line_of(text, 'special_kind: actoin')}: cartisora/en-garde: special_kind: "), found


# ---- spreadsheets whose rows do not line up with their header ----------------------------------

def test_import_reports_a_row_with_a_cell_too_few_or_too_many(tmp_path):
    """Before: the short row became a card whose effect was "true" (the next column's value)
    and the long row gave problems about fields it never meant to fill."""
    sheet = tmp_path / "items.csv"
    sheet.write_text(
        "id,type,title,reserve_cost,effect,example\n"
        'field-kit,item,Field Kit,2000,"Heal one officer, then draw.",true\n'   # row 2: fine
        "short-kit,item,Short Kit,2000,true\n"                                  # row 3: effect left out
        "long-kit,item,Long Kit,2000,Heal one officer, then draw.,true\n"       # row 4: unquoted comma
        "\n"                                                                    # blank: skipped
        "last-kit,item,Last Kit,1000,Draw a card.,true\n",                      # row 6: fine
        encoding="utf-8")
    out = tmp_path / "items.yaml"
    result = CliRunner().invoke(printkit_cli, ["import", str(sheet), "--game", "cahrd", "--out", str(out),
                                               "--data", str(tmp_path / "no-database")])
    assert result.exit_code == 1, result.output
    shift = ("a cell missing or one too many (in CSV, a missing comma or an unquoted comma inside a value) "
             "shifts every value after it")
    assert [line for line in result.output.splitlines() if line.startswith(str(sheet))] == [
        f"{sheet}:3: row: has 5 cells, the header has 6: {shift}",
        f"{sheet}:4: row: has 7 cells, the header has 6: {shift}"]
    assert not out.exists()


def test_a_deck_list_that_would_print_without_end_is_refused_at_its_line(tmp_path):
    """100,000 lines of 99 copies would print ten million cards (a helper's build wrote 74 MB
    in 45 s and went on): refused, as one problem at the deck list's ``cards``, nothing built."""
    game = copy_game(tmp_path, "cartisora")
    deck = game / "decks" / "huge.yaml"
    deck.write_text("id: huge\ntitle: Huge\nkind: character\ncards:\n" + "  - {card: brute-3, qty: 99}\n" * 150,
                    encoding="utf-8")
    found = [line for line in validate(tmp_path) if "huge.yaml" in line]
    assert found == [f"{deck}:4: cartisora/huge: cards: 14,850 copies in all; a deck list prints at most 10,000"]
    deck.write_text("id: huge\ntitle: Huge\nkind: character\ncards:\n" + "  - {card: brute-3}\n" * 2_001,
                    encoding="utf-8")
    found = [line for line in validate(tmp_path) if "huge.yaml" in line]
    assert len(found) == 1 and found[0].startswith(f"{deck}:4: cartisora/huge: cards: ") and "2000" in found[0]


def test_a_template_of_thousands_of_regions_is_refused_at_once(tmp_path):
    """A template file may hold at most 500 regions: 20,000 took 6 s and 220 MB to check, and
    the time grew with the square of their number."""
    game = copy_game(tmp_path, "cartisora")
    template = game / "templates" / "number.yaml"
    template.write_text(template.read_text(encoding="utf-8") + "".join(
        f'  - {{name: r{n}, kind: box, x_mm: 0, y_mm: 0, w_mm: 1, h_mm: 1, fill: "#000000"}}\n' for n in range(20_000)),
        encoding="utf-8")
    found = [line for line in validate(tmp_path) if "number.yaml" in line]
    assert len(found) == 1 and ": regions: " in found[0] and "500" in found[0], found


def test_bytes_that_are_not_utf8_are_named_at_their_line_in_card_files_and_templates(tmp_path):
    """A card file or a template saved in Latin-1 (or garbled): its file, line and column, never
    a traceback (a template's gave one from validate, export and tts)."""
    game = copy_game(tmp_path, "cartisora")
    cards = game / "cards" / "brute.yaml"
    text = cards.read_text(encoding="utf-8")
    line = line_of(text, "title: Brute 3")
    cards.write_bytes(text.replace("title: Brute 3", "title: Brut\xe9 3").encode("latin-1", errors="replace"))
    template = game / "templates" / "back-character.yaml"
    template.write_bytes(b"safe_margin_mm: 3\n\x9d\xb6 garbled\n")
    found = validate(tmp_path)
    assert f"{cards}:{line}: cartisora/-: yaml: not UTF-8 text: byte 0xe9 at column 14 (save the file as UTF-8)" \
        in found, found
    assert any(f.startswith(f"{template}:2: ") and "not UTF-8 text: byte 0x9d at column 1" in f for f in found), found
    out = tmp_path.parent / f"{tmp_path.name}-out"
    for command in (["export", "--data", str(tmp_path), "--out", str(out / "export")],
                    ["tts", "--data", str(tmp_path), "--out", str(out / "tts")]):
        result = CliRunner().invoke(printkit_cli, command)
        assert result.exit_code != 0 and "Traceback" not in result.output and "not UTF-8 text" in result.output


def test_a_named_pipe_among_the_card_files_is_a_problem_not_a_wait(tmp_path):
    """``mkfifo cards/fifo.yaml``: validate and build named it and went on, where they waited for
    a writer for ever (build while digesting its inputs)."""
    import os
    import subprocess
    import sys

    game = copy_game(tmp_path / "data", "cartisora")
    os.mkfifo(game / "cards" / "fifo.yaml")
    for command in (["validate"], ["build", "--out", str(tmp_path / "out"), "--jobs", "1"]):
        done = subprocess.run([sys.executable, "-c", "from printkit.cli import main; main()", *command,
                               "--data", str(tmp_path / "data")], capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "fifo.yaml:1: cartisora/-: file: cannot read: " in done.stdout + done.stderr
        assert "not a regular file" in done.stdout + done.stderr


def test_artwork_that_is_a_folder_is_said_to_be_one(tmp_path):
    game = copy_game(tmp_path, "cartisora")
    (game / "art" / "brute").mkdir(parents=True)
    cards = game / "cards" / "brute.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("  title: Brute 3\n", "  title: Brute 3\n  art: art/brute\n", 1), encoding="utf-8")
    line = line_of(text, "title: Brute 3") + 1
    assert [f for f in validate(tmp_path) if "brute.yaml" in f] == [
        f"{cards}:{line}: cartisora/brute-3: art: artwork art/brute is a folder: name an image file in it"]
