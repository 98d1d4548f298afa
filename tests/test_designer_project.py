"""A designer's own project: `printkit init`, every command using the project's files, and
`printkit build --watch` rebuilding on save."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from waiting import wait_for

from card_data.loader import bundled_data_dir
from printkit.cli import main
from printkit.designer.loop.project import find_project, project_paths
from printkit.sheets.templating.layout import LAYOUTS_DIR

BUNDLED_NUMBER = bundled_data_dir() / "cartisora/templates/number.yaml"
"""The bundled Duels of Cartisora's number-card layout, in its game folder."""

NEW_BAND = "#12ab34"
OLD_BAND = "#7a1f1f"


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def _init(tmp_path: Path, *args: str) -> Path:
    folder = tmp_path / "mygame"
    result = CliRunner().invoke(main, ["init", str(folder), *args])
    assert result.exit_code == 0, result.output
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _pdf_text_and_fills(path: Path) -> tuple[str, set[tuple[float, ...]]]:
    with pdfplumber.open(path) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
        fills = {tuple(round(c, 3) for c in r["non_stroking_color"]) for page in pdf.pages for r in page.rects
                 if isinstance(r.get("non_stroking_color"), (tuple, list)) and len(r["non_stroking_color"]) == 3}
    return text, fills


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`printkit init mygame --from cartisora`, the current folder inside it."""
    folder = _init(tmp_path, "--from", "cartisora")
    monkeypatch.chdir(folder)
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    return folder


def test_init_from_copies_the_games_data_translations_not_the_companions_catalogue(tmp_path: Path) -> None:
    """Carpe Diem's ``translations/`` holds its data in German (``de.yaml``, read by the loader)
    and the companion's catalogue of its words (``de/LC_MESSAGES/messages.po``, ``.mo``,
    ``messages.pot``): the project gets the first, byte for byte, and none of the second; it
    validates."""
    folder = _init(tmp_path, "--from", "carpe_diem")
    bundled, copied = bundled_data_dir() / "carpe_diem" / "translations", folder / "card_data/carpe_diem/translations"
    assert (bundled / "de/LC_MESSAGES/messages.mo").is_file() and (bundled / "messages.pot").is_file()
    assert sorted(p.relative_to(copied).as_posix() for p in copied.rglob("*")) == ["de.yaml"]
    assert (copied / "de.yaml").read_bytes() == (bundled / "de.yaml").read_bytes()
    result = CliRunner().invoke(main, ["validate", "--data", str(folder / "card_data")])
    assert result.exit_code == 0, result.output


def test_init_from_copies_the_game_and_writes_a_config(project: Path) -> None:
    assert (project / "printkit.toml").is_file()
    # The game's folder, data and layouts, file for file; not its Python, its scorekeeper page nor
    # the companion's catalogue of its words (translations/messages.pot, de/LC_MESSAGES/*.po, *.mo).
    bundled = bundled_data_dir() / "cartisora"
    data = {p.relative_to(bundled).as_posix() for p in bundled.rglob("*") if p.is_file()
            if p.suffix not in (".py", ".pyc", ".po", ".mo", ".pot") and p.name != "table.html"}
    copied = project / "card_data/cartisora"
    assert {p.relative_to(copied).as_posix() for p in copied.rglob("*") if p.is_file()} == data
    assert {"game.yaml", "decks/brute.yaml", "templates/number.yaml", "templates/back-character.yaml"} <= data
    assert all((copied / name).read_bytes() == (bundled / name).read_bytes() for name in data)
    assert (bundled / "cards.py").is_file() and (bundled / "table.html").is_file()  # left behind
    assert (bundled / "translations/de/LC_MESSAGES/messages.mo").is_file()
    assert not (copied / "translations").exists()  # it held only the catalogue: no empty folder
    # The project's templates folder: the calibration texts and the guides, no game's layouts.
    assert sorted(p.name for p in (project / "templates").iterdir()) == ["BOARDS.md", "README.md", "print"]
    assert (project / "templates/print/calibration.yaml").is_file()
    found = find_project(project / "card_data" / "cartisora" / "templates")
    assert found is not None and found.root == project.resolve()
    paths = project_paths(cwd=project / "card_data")  # relative to the folder a command runs in
    assert (project / "card_data" / paths.data_dir).resolve() == (project / "card_data").resolve()
    assert (project / "card_data" / paths.templates_dir).resolve() == (project / "templates").resolve()


def test_init_refuses_a_folder_that_already_has_a_project(project: Path) -> None:
    result = CliRunner().invoke(main, ["init", str(project)])
    assert result.exit_code == 2
    assert "printkit.toml already exists" in result.output


def test_edits_to_the_project_change_the_build(project: Path) -> None:
    bundled_template = BUNDLED_NUMBER.read_bytes()
    _edit(project / "card_data/cartisora/cards/brute.yaml", "  title: Brute 3\n", "  title: Brute Zed\n")
    _edit(project / "card_data/cartisora/templates/number.yaml", f'fill: "{OLD_BAND}"', f'fill: "{NEW_BAND}"')

    result = CliRunner().invoke(main, ["build", "cartisora", "--deck", "brute"])
    assert result.exit_code == 0, result.output

    pdf = project / "output/cartisora/brute-cards.pdf"
    text, fills = _pdf_text_and_fills(pdf)
    assert "Brute Zed" in text and "Brute 3" not in text
    assert tuple(round(c, 3) for c in _rgb(NEW_BAND)) in fills
    # The bundled template is not what was edited, and nothing leaked into it.
    assert BUNDLED_NUMBER.read_bytes() == bundled_template


def test_a_problem_names_the_designers_file_from_a_sub_folder(project: Path, monkeypatch) -> None:
    _edit(project / "card_data/cartisora/cards/brute.yaml", "  title: Brute 3\n", "  title: Brute 3\n  colour: red\n")
    monkeypatch.chdir(project / "templates")
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 1
    line = next(ln for ln in result.output.splitlines() if "colour" in ln)
    match = re.match(r"(?P<file>[^:]+):(?P<line>\d+): cartisora/brute-3: colour: unknown field", line)
    assert match, line
    file = (project / "templates" / match["file"]).resolve()
    assert file == (project / "card_data/cartisora/cards/brute.yaml").resolve()
    assert file.read_text().splitlines()[int(match["line"]) - 1].strip() == "colour: red"


def test_a_template_problem_names_the_projects_template(project: Path) -> None:
    _edit(project / "card_data/cartisora/templates/number.yaml", f'fill: "{OLD_BAND}"', 'fill: "green"')
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 1
    assert re.search(r"^card_data/cartisora/templates/number\.yaml:\d+: ", result.output, re.M), result.output
    assert str(bundled_data_dir()) not in result.output and "site-packages" not in result.output


def test_an_older_project_with_templates_per_game_still_builds_from_them(project: Path) -> None:
    """A project made when layouts lived in ``templates/<game>/``: that folder is the game's
    layouts, before the game folder's ``templates/``."""
    (project / "card_data/cartisora/templates").rename(project / "templates/cartisora")
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 0, result.output
    _edit(project / "templates/cartisora/number.yaml", f'fill: "{OLD_BAND}"', 'fill: "green"')
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 1
    assert re.search(r"^templates/cartisora/number\.yaml:\d+: ", result.output, re.M), result.output
    # Both there: the templates folder's wins, as an older project's layouts are the designer's.
    (project / "card_data/cartisora/templates").mkdir()
    (project / "card_data/cartisora/templates/number.yaml").write_bytes(BUNDLED_NUMBER.read_bytes())
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 1
    assert re.search(r"^templates/cartisora/number\.yaml:\d+: ", result.output, re.M), result.output


def test_templates_and_data_options_override_the_project(project: Path, tmp_path: Path) -> None:
    empty = tmp_path / "no-templates"
    empty.mkdir()
    result = CliRunner().invoke(main, ["validate", "--templates", str(empty)])
    assert result.exit_code == 0, result.output  # no cartisora/ in it: the game folder's layouts
    (empty / "cartisora").mkdir()
    result = CliRunner().invoke(main, ["validate", "--templates", str(empty)])
    assert result.exit_code == 1
    assert f"no layout template {empty}/cartisora/" in result.output

    other = _init(tmp_path / "other")  # a minimal game: its data, the project's (cartisora) templates
    result = CliRunner().invoke(main, ["validate", "--data", str(other / "card_data"),
                                       "--templates", str(other / "templates")])
    assert result.exit_code == 0, result.output
    assert "1 games, 1 cards" in result.output


def test_a_broken_printkit_toml_is_named_with_its_line(project: Path) -> None:
    _edit(project / "printkit.toml", 'out = "output"', 'out = "output"\ntempaltes = "x"')
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 2
    assert re.search(r"printkit\.toml:\d+: printkit\.tempaltes: unknown key", result.output), result.output



def test_init_names_the_starter_game_with_game_and_refuses_it_with_from(tmp_path: Path, monkeypatch) -> None:
    folder = _init(tmp_path, "--game", "moon_market")
    assert sorted(p.name for p in (folder / "card_data").iterdir()) == ["moon_market"]
    assert "card_data/moon_market/cards/cards.yaml" in (folder / "card_data/moon_market/cards/cards.yaml").read_text()
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["build"])
    assert result.exit_code == 0, result.output
    assert [p.name for p in (folder / "output").iterdir() if not p.name.startswith(".")] == ["moon_market"]
    nested = CliRunner().invoke(main, ["init", str(folder / "inner")])
    assert nested.exit_code == 0 and f"inside the project of {folder / 'printkit.toml'}" in nested.output, nested.output
    for args, said in ((["--game", "Moon Market"], "is not a game id"), (["--from", "carpe_cras", "--game", "moon"], "--from")):
        refused = CliRunner().invoke(main, ["init", str(tmp_path / "other"), *args])
        assert refused.exit_code == 2 and said in refused.output and "Traceback" not in refused.output
        assert not (tmp_path / "other").exists()

def test_init_without_from_is_a_small_declared_game_of_its_own(tmp_path: Path, monkeypatch) -> None:
    folder = _init(tmp_path)
    monkeypatch.chdir(folder)
    assert sorted(p.name for p in (folder / "card_data").iterdir()) == ["my_game"]
    assert "fields:" in (folder / "card_data/my_game/game.yaml").read_text()
    cards = (folder / "card_data/my_game/cards/cards.yaml").read_text()
    assert cards.count("- id:") == 1 and "example: true" in cards
    result = CliRunner().invoke(main, ["build"])
    assert result.exit_code == 0, result.output
    pdfs = sorted((folder / "output").rglob("*.pdf"))
    assert pdfs, result.output
    text = "\n".join(_pdf_text_and_fills(p)[0] for p in pdfs)
    assert "First Card" in text and "EXAMPLE CARD" in text
    assert not re.search(r"carpe|agency|might", text + " ".join(str(p) for p in folder.rglob("*")), re.I)

    # Its layout's own words go into another language through a translation's words:.
    (folder / "card_data/my_game/translations").mkdir()
    (folder / "card_data/my_game/translations/de.yaml").write_text(
        "cards:\n  first-card:\n    title: Erste Karte\nwords:\n  EXAMPLE CARD: BEISPIELKARTE\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--lang", "de"])
    assert result.exit_code == 0, result.output
    german = "\n".join(_pdf_text_and_fills(p)[0] for p in sorted((folder / "output" / "de").rglob("*.pdf")))
    assert "Erste Karte" in german and "BEISPIELKARTE" in german and "EXAMPLE CARD" not in german



@pytest.mark.parametrize("template, old, new, field, said", [
    # `is not none` of a misspelt name is true, so the region printed on every card, unreported.
    ("card.yaml", 'when: "traits"', 'when: "traitz is not none"', "layout:traits.when",
     "'traitz' is neither a field of card type 'card' nor a variable of a card template (card, game, game_id) "
     "(did you mean 'traits'?)"),
    ("card.yaml", 'text: "{{ ability }}"', 'text: "{{ card.abilty }}"', "layout:ability.text",
     "'card.abilty' is neither a field of card type 'card' nor a variable of a card template (card, game, "
     "game_id) (did you mean 'ability'?)"),
    ("back-draw.yaml", "{{ title }}", "{{ titel }}", None,
     "'titel' is not a variable of a back template (game, game_id, kind, title) (did you mean 'title'?)"),
    ("back-draw.yaml", "{{ title }}", "{{ game.titel }}", None,
     "'game.titel' is not a variable of a back template (game, game_id, kind, title) (did you mean 'title'?)"),
])
def test_a_name_a_template_reads_that_its_cards_do_not_give_is_one_problem_at_its_line(
        tmp_path: Path, monkeypatch, template: str, old: str, new: str, field: str | None, said: str) -> None:
    folder = _init(tmp_path)
    monkeypatch.chdir(folder)
    path = folder / "card_data/my_game/templates" / template
    _edit(path, old, new)
    for copy in range(2, 5):  # more cards of the type: the problem is still said once
        with (folder / "card_data/my_game/cards/cards.yaml").open("a", encoding="utf-8") as cards:
            cards.write(f"- id: card-{copy}\n  type: card\n  title: Card {copy}\n  cost: 1\n  ability: Draw.\n")
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 1, result.output
    line = next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if new in text)
    region_line = max(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                      if i <= line and text.lstrip().startswith("- "))
    problems = [text for text in result.output.splitlines() if said in text]
    assert len(problems) == 1, result.output
    assert problems[0].startswith(f"card_data/my_game/templates/{template}:{region_line}: my_game/-: ")
    assert field is None or f": {field}: " in problems[0]

def test_build_watch_rebuilds_on_save_and_survives_a_broken_save(project: Path) -> None:
    pdf = project / "output/cartisora/brute-cards.pdf"
    log = project / "watch.log"
    printkit = Path(sys.executable).with_name("printkit")
    with open(log, "wb") as err:
        proc = subprocess.Popen([str(printkit), "build", "cartisora", "--deck", "brute", "--watch"], cwd=project,
                                stdout=subprocess.DEVNULL, stderr=err,
                                env={**os.environ, "PRINTKIT_BASE_URL": "http://192.168.1.20:5000"})
    try:
        wait_for(lambda: "Watching" in log.read_text(errors="replace"), "the first build")
        assert "Brute 3" in _pdf_text_and_fills(pdf)[0]

        cards = project / "card_data/cartisora/cards/brute.yaml"
        _edit(cards, "  title: Brute 3\n", "  title: Brute Zed\n")
        wait_for(lambda: pdf.is_file() and "Brute Zed" in _pdf_text_and_fills(pdf)[0], "the rebuilt PDF")
        good = pdf.read_bytes()

        template = project / "card_data/cartisora/templates/number.yaml"
        _edit(template, f'fill: "{OLD_BAND}"', 'fill: "green"')
        wait_for(lambda: "card_data/cartisora/templates/number.yaml:" in log.read_text(errors="replace"),
                  "the broken save's problem")
        assert proc.poll() is None, "the watcher stopped on a broken save"
        assert pdf.read_bytes() == good  # the previous output stays

        _edit(template, 'fill: "green"', f'fill: "{NEW_BAND}"')
        want = tuple(round(c, 3) for c in _rgb(NEW_BAND))
        wait_for(lambda: want in _pdf_text_and_fills(pdf)[1], "the rebuild after a template change")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_saved_layout_in_a_game_folder_rebuilds_that_game(project: Path) -> None:
    """What ``--watch`` and ``preview`` rebuild: a layout saved in a game folder's templates/
    (the project's, the bundled games' and an older project's templates/<game>/) is that
    game's; the calibration texts are every game's."""
    from printkit.designer.loop.project import ProjectPaths
    from printkit.designer.loop.project_commands import games_to_rebuild, watched_roots

    paths = project_paths()
    assert games_to_rebuild({project / "card_data/cartisora/templates/number.yaml"}, paths, ()) == ("cartisora",)
    assert games_to_rebuild({project / "templates/cartisora/number.yaml"}, paths, ()) == ("cartisora",)
    assert games_to_rebuild({project / "card_data/cartisora/templates/number.yaml"}, paths, ("cahrd",)) is None
    assert games_to_rebuild({project / "templates/print/calibration.yaml"}, paths, ("cartisora",)) == ("cartisora",)
    bundled = ProjectPaths(None, LAYOUTS_DIR, project / "output")
    assert bundled_data_dir() in watched_roots(bundled)
    assert games_to_rebuild({bundled_data_dir() / "cahrd/templates/officer.yaml"}, bundled, ()) == ("cahrd",)


def test_one_rule_decides_a_games_templates_folder(tmp_path: Path) -> None:
    from card_data.project.project_folders import game_templates_dir

    game, templates = tmp_path / "card_data/duel", tmp_path / "templates"
    (game / "templates").mkdir(parents=True)
    templates.mkdir()
    assert game_templates_dir(game) == game / "templates"
    assert game_templates_dir(game, templates) == game / "templates"  # no templates/duel/: the game's own
    (templates / "duel").mkdir()
    assert game_templates_dir(game, templates) == templates / "duel"  # an older project's layout
    assert game_templates_dir(tmp_path / "card_data/other", templates) == tmp_path / "card_data/other/templates"
