"""Card data too large to read (issue 18 part 3): a 50 MB card file ran ``printkit validate``
for 27 minutes at 3.6 GB before it was killed.

Every YAML file, and all of one game's YAML files together, are refused from their size on
disk before they are parsed: one problem naming the file (or the game's folder), the limit and
how to raise it. ``[printkit.limits]`` in the project's ``printkit.toml`` raises the limits; the
tests lower them there, so that the files they write stay small. No test measures time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from database_edits import copy_game

from card_data.project.base_url import ConfigError
from card_data.reading.game_files import game_data_files
from card_data.project.limits import DEFAULT_FILE_MB, DEFAULT_GAME_MB, MB, configured_limits
from card_data.loader import bundled_data_dir, check_database
from printkit.cli import main as printkit_cli
from printkit.sheets.templating.layout import LAYOUTS_DIR


@pytest.fixture(autouse=True)
def project(tmp_path, monkeypatch) -> Path:
    """Every test runs in ``tmp_path``: its ``printkit.toml``, if it writes one, is the one in force."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def set_limits(folder: Path, **limits: float) -> Path:
    path = folder / "printkit.toml"
    path.write_text("[printkit.limits]\n" + "".join(f"{k} = {v}\n" for k, v in limits.items()), encoding="utf-8")
    return path


def validate(data: Path) -> tuple[int, list[str]]:
    """``printkit validate --data DATA``: its exit status and the lines it printed, less its
    warnings; it must not have crashed. (The bundled templates: a ``printkit.toml`` makes the
    folder a project, whose own would be in ``templates/``.)"""
    result = CliRunner().invoke(printkit_cli, ["validate", "--data", str(data), "--templates", str(LAYOUTS_DIR)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, [line for line in result.output.splitlines() if not line.startswith("warning: ")]


def item_cards(first: int, size_bytes: int, count: int = 5) -> str:
    """A C.A.H.R.D. card file of ``size_bytes`` (at least): ``count`` valid item cards, ids
    ``filler-<n>`` from ``first`` on, each with a long comment (a designer's notes), which
    makes up the size at little cost to lay the cards out once they are read."""
    notes = ("# " + "notes on the card, kept beside it in the card file " * 2)[:79] + "\n"
    notes *= (size_bytes // count) // 80 + 1
    return "".join(f"{notes}- id: filler-{n}\n  type: item\n  title: Filler {n}\n  reserve_cost: 1000\n"
                   "  effect: One of your officers gets +1 WAR until the End Step.\n"
                   for n in range(first, first + count))


def test_a_card_file_over_the_limit_is_one_problem_naming_it_and_the_limit(tmp_path):
    data = tmp_path / "data"
    copy_game(data, "cahrd")
    big = data / "cahrd" / "cards" / "more-items.yaml"
    big.write_text(item_cards(0, 3 * MB), encoding="utf-8")
    set_limits(tmp_path, file_mb=1)
    status, found = validate(data)
    assert status == 1
    assert len(found) == 2 and found[1] == "1 problem found.", found
    assert found[0].startswith(f"{big}:1: cahrd/-: file: "), found
    assert "1 MB" in found[0] and "file_mb" in found[0] and "printkit.toml" in found[0]

    # The file is fine: the limit was all that refused it.
    set_limits(tmp_path, file_mb=10)
    status, found = validate(data)
    assert status == 0, found


def test_the_default_limit_refuses_a_file_just_over_it_unread(tmp_path):
    """A valid YAML file (one comment, so it holds no cards) one byte over the default limit:
    parsed, it would give no problem at all."""
    data = tmp_path / "data"
    copy_game(data, "carpe_diem")
    big = data / "carpe_diem" / "cards" / "notes.yaml"
    with open(big, "wb") as fh:
        fh.write(b"#")
        fh.write(b" " * (DEFAULT_FILE_MB * MB))
    assert big.stat().st_size == DEFAULT_FILE_MB * MB + 1
    db, problems = check_database(data)
    assert [(p.file, p.line, p.field) for p in problems] == [(str(big), 1, "file")]
    assert f"{DEFAULT_FILE_MB} MB" in problems[0].message and "file_mb" in problems[0].message
    assert "carpe_diem" in db.games  # its other files are read as ever

    # One byte less is within the limit: read, and nothing wrong with it.
    with open(big, "r+b") as fh:
        fh.truncate(DEFAULT_FILE_MB * MB)
    assert check_database(data)[1] == []


@pytest.mark.parametrize("name", ["game.yaml", "glossary.yaml", "printings.yaml", "tables.yaml", "kit.yaml",
                                  "reference.yaml", "decks/scoring-2p.yaml", "translations/de.yaml"])
def test_every_file_of_a_game_is_read_within_the_limit(tmp_path, name):
    """Each of them, a few kilobytes over a limit lowered just above the game's other files, is
    one problem at its FILE:1. (What an unread glossary, table or deck list leaves missing is
    said too, as when it does not parse.)"""
    data = tmp_path / "data"
    game = copy_game(data, "carpe_diem")
    path = game / name
    largest = max(p.stat().st_size for p in game.rglob("*.yaml"))
    set_limits(tmp_path, file_mb=(largest + 1000) / MB)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("# " + "padding " * ((largest + 2000) // 8) + "\n")
    status, found = validate(data)
    assert status == 1
    about = [line for line in found if line.startswith(f"{path}:")]
    assert len(about) == 1 and about[0].startswith(f"{path}:1: ") and "file_mb" in about[0], found


def test_a_game_over_its_limit_is_one_problem_and_raising_the_limit_lets_it_through(tmp_path):
    data = tmp_path / "data"
    game = copy_game(data, "cahrd")
    for i in range(3):  # each file within the file limit; together over the game's
        (game / "cards" / f"more-{i}.yaml").write_text(item_cards(i * 10_000, 200_000), encoding="utf-8")
    set_limits(tmp_path, game_mb=0.5)
    status, found = validate(data)
    assert status == 1
    assert len(found) == 2 and found[1] == "1 problem found.", found
    assert found[0].startswith(f"{game}:1: cahrd/-: data: "), found
    assert "0.5 MB" in found[0] and "game_mb" in found[0] and "more-" in found[0]

    set_limits(tmp_path, game_mb=1)
    status, found = validate(data)
    assert status == 0, found


def test_the_bundled_database_and_a_game_of_10000_cards_are_far_within_the_defaults():
    """The default limits against what they must let through, measured from sizes (not by
    loading 17 MB): every bundled file and game, and each bundled game grown to 10,000 cards of
    its own average size, all in one file (the size a designer's large game reaches;
    ``benchmarks/bench_build.py`` generates texts of the bundled cards' lengths)."""
    for folder in bundled_data_dir().iterdir():
        if not (folder / "game.yaml").is_file():
            continue
        files = game_data_files(folder)
        assert sum(size for _, size in files) < DEFAULT_GAME_MB * MB / 100
        assert max(size for _, size in files) < DEFAULT_FILE_MB * MB / 100
        cards = [card for path in sorted((folder / "cards").glob("*.yaml"))
                 for card in yaml.safe_load(path.read_text(encoding="utf-8")) or []]
        cards = [c for c in cards if c.get("type") not in ("reference", "token")] or cards
        sizes = [len(yaml.safe_dump([card], allow_unicode=True).encode()) for card in cards]
        ten_thousand = 10_000 * sum(sizes) / len(sizes)
        assert ten_thousand < DEFAULT_FILE_MB * MB and 5 * ten_thousand < DEFAULT_GAME_MB * MB, folder.name


def test_a_broken_limit_in_printkit_toml_is_a_problem_naming_its_line(tmp_path):
    data = tmp_path / "data"
    copy_game(data, "cahrd")
    config = tmp_path / "printkit.toml"
    config.write_text("[printkit.limits]\nfile_mb = \"big\"\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        configured_limits()
    assert (raised.value.file, raised.value.line) == (str(config), 2)
    result = CliRunner().invoke(printkit_cli, ["validate", "--data", str(data)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"{config}:2: " in result.output
    # The loader, as the companion calls it, reports it too, and reads within the defaults.
    _, problems = check_database(data)
    assert [(p.file, p.line, p.field) for p in problems] == [(str(config), 2, "printkit.toml")]
