"""Games are found, never listed: bundled game packages by the folder listing, installed games
through the ``printkit.games`` entry point group; a broken installed game is a message."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import card_data.games as games
from card_data.loader import bundled_data_dir, check_database
from database_edits import GAME_CODE
from printkit.cli import main

ROOT = Path(__file__).resolve().parent.parent

GOOD_GAME = '''
TITLE = "Duels of the Copy"
'''
GOOD_CARDS = '''
from dataclasses import replace
from card_data.games.cartisora.cards import SPEC as _CARTISORA

SPEC = replace(_CARTISORA, game_id="copy_duel")
'''


def _distribution(where: Path, name: str, entry_points: dict[str, str], packages: dict[str, dict[str, str]]) -> None:
    """A distribution as pip would install it: ``<name>-1.0.dist-info`` with its entry points
    in the group ``printkit.games``, and its packages' files beside it."""
    info = where / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = "".join(f"{ep} = {value}\n" for ep, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[printkit.games]\n{lines}")
    for package, files in packages.items():
        (where / package).mkdir()
        for file, text in files.items():
            (where / package / file).write_text(text)


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A folder on ``sys.path`` to install fake distributions into; the registry is found
    again with it, and once more after the test (without it)."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))

    def rediscover():
        importlib.invalidate_caches()
        games.installed_entry_points.cache_clear()
        games._discover.cache_clear()

    rediscover()
    yield site, rediscover
    for name in [m for m in sys.modules if m.split(".")[0] in ("copy_duel_pkg", "titleless", "specless")]:
        del sys.modules[name]
    monkeypatch.undo()
    rediscover()


def _copy_game_data(tmp_path: Path, game_id: str) -> tuple[Path, Path]:
    """Data and templates folders holding the bundled Cartisora under the id ``game_id`` (its
    layouts in its folder's templates/, as in a project; the templates folder holds print/)."""
    data, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(bundled_data_dir() / "cartisora", data / game_id, ignore=GAME_CODE)
    shutil.copytree(ROOT / "templates" / "print", templates / "print")
    return data, templates


def test_bundled_games_are_found_in_their_declared_order():
    assert list(games.registry()) == ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]
    assert games.bundled_game_ids() == ("cahrd", "carpe_cras", "carpe_diem", "cartisora")
    assert not hasattr(games, "GAME_IDS")


def test_a_new_game_package_folder_is_found_and_nothing_is_imported(tmp_path):
    for name in ("zeta", "alpha"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("raise SystemExit('imported')\n")
    (tmp_path / "notes").mkdir()  # data, not a package
    (tmp_path / "helpers.py").write_text("")  # a module, not a game package
    (tmp_path / "Bad-Name").mkdir()
    (tmp_path / "Bad-Name" / "__init__.py").write_text("")
    assert games.bundled_game_ids([str(tmp_path)]) == ("alpha", "zeta")


def test_games_without_an_order_come_last_by_id(site):
    where, rediscover = site
    _distribution(where, "copy-duel", {"copy_duel": "copy_duel_pkg"},
                  {"copy_duel_pkg": {"__init__.py": GOOD_GAME, "cards.py": GOOD_CARDS}})
    rediscover()
    assert list(games.registry()) == ["carpe_cras", "cartisora", "cahrd", "carpe_diem", "copy_duel"]


def test_an_installed_game_is_registered_and_its_data_validated(site, tmp_path):
    where, rediscover = site
    _distribution(where, "copy-duel", {"copy_duel": "copy_duel_pkg"},
                  {"copy_duel_pkg": {"__init__.py": GOOD_GAME, "cards.py": GOOD_CARDS}})
    rediscover()
    entry = games.registry()["copy_duel"]
    assert (entry.title, entry.distribution, entry.spec.game_id) == ("Duels of the Copy", "copy-duel", "copy_duel")
    assert "copy_duel" in games.game_ids() and games.registry_problems() == ()

    data, templates = _copy_game_data(tmp_path, "copy_duel")
    db, problems = check_database(data)
    assert problems == [] and list(db.games) == ["copy_duel"]
    assert len(db.games["copy_duel"].cards) == len(check_database(bundled_data_dir())[0].games["cartisora"].cards)

    # A card that breaks the (borrowed) schema is found in the installed game's folder.
    card_file = next((data / "copy_duel" / "cards").glob("*.yaml"))
    card_file.write_text(card_file.read_text().replace("type: ", "type: no_such_type_", 1))
    problems = check_database(data)[1]
    assert problems and all(p.game == "copy_duel" and p.file == str(card_file) for p in problems)


def test_printkit_validate_checks_an_installed_game(site, tmp_path):
    where, rediscover = site
    _distribution(where, "copy-duel", {"copy_duel": "copy_duel_pkg"},
                  {"copy_duel_pkg": {"__init__.py": GOOD_GAME, "cards.py": GOOD_CARDS}})
    rediscover()
    data, templates = _copy_game_data(tmp_path, "copy_duel")
    result = CliRunner().invoke(main, ["validate", "copy_duel", "--data", str(data), "--templates", str(templates)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK: 1 games,")


BROKEN = {"missing_pkg": "no_such_package.game",  # cannot be imported
          "titleless": "titleless",  # no TITLE
          "specless": "specless",  # no cards.SPEC
          "cartisora": "copy_duel_pkg",  # a bundled game's id
          "Bad-Id": "copy_duel_pkg"}


def test_broken_installed_games_are_messages_and_the_others_still_load(site, tmp_path):
    where, rediscover = site
    _distribution(where, "broken-games", BROKEN,
                  {"titleless": {"__init__.py": "", "cards.py": GOOD_CARDS},
                   "specless": {"__init__.py": GOOD_GAME, "cards.py": "OTHER = 1\n"},
                   "copy_duel_pkg": {"__init__.py": GOOD_GAME, "cards.py": GOOD_CARDS}})
    rediscover()
    assert list(games.registry()) == ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]
    assert games.registry()["cartisora"].module == "card_data.games.cartisora"
    messages = {p.message for p in games.registry_problems()}
    assert len(messages) == len(BROKEN)
    for ep, value in BROKEN.items():
        (message,) = [m for m in messages if f"entry point '{ep} = {value}'" in m]
        assert "distribution 'broken-games'" in message
    assert any("no_such_package" in m and "cannot be imported" in m for m in messages)
    assert any("titleless.TITLE must be" in m for m in messages)
    assert any("specless.cards.SPEC must be" in m for m in messages)
    assert any("'cartisora = " in m and "already taken" in m for m in messages)

    # validate still checks the good games and tells the broken ones, without a traceback.
    data, templates = _copy_game_data(tmp_path, "cartisora")
    result = CliRunner().invoke(main, ["validate", "--data", str(data), "--templates", str(templates)])
    assert result.exit_code == 0, result.output
    assert "OK: 1 games," in result.output
    assert result.output.count("warning: ") == len(BROKEN) and "Traceback" not in result.output

    # A data folder for a broken game: the problem is why, at its game.yaml.
    shutil.copytree(data / "cartisora", data / "missing_pkg")
    result = CliRunner().invoke(main, ["validate", "--data", str(data), "--templates", str(templates)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert f"{data / 'missing_pkg' / 'game.yaml'}:1: missing_pkg/-: entry point: installed game" in result.output
    assert "Traceback" not in result.output


def test_printkit_help_imports_no_game_engine():
    code = ("import json, sys\nfrom printkit.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('card_data.games'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         timeout=120).stdout
    loaded = json.loads(out.strip().splitlines()[-1])
    assert "Usage:" in out
    assert not [m for m in loaded if m.endswith(".rules")], loaded
    assert not [m for m in loaded if m != "card_data.games"], loaded


def test_an_installed_games_code_is_in_its_build_digest(site):
    from printkit.build_cache import code_digest

    where, rediscover = site
    _distribution(where, "copy-duel", {"copy_duel": "copy_duel_pkg"},
                  {"copy_duel_pkg": {"__init__.py": GOOD_GAME, "cards.py": GOOD_CARDS}})
    rediscover()
    code_digest.cache_clear()
    before = code_digest("copy_duel")
    (where / "copy_duel_pkg" / "cards.py").write_text(GOOD_CARDS + "# a change that may print differently\n")
    code_digest.cache_clear()
    assert code_digest("copy_duel") != before
    code_digest.cache_clear()
