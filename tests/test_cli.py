"""The installed commands: `printkit build --help`, `printkit site`, and a clean error for bad input."""

from __future__ import annotations

import shutil

from click.testing import CliRunner

from card_data.loader import bundled_data_dir, load_database
from printkit.cli import main as printkit_cli


def test_site_writes_a_page_per_card(tmp_path):
    out = tmp_path / "site"
    result = CliRunner().invoke(printkit_cli, ["site", "--out", str(out), "--base-url", "https://cards.example.org/kit"])
    assert result.exit_code == 0, result.output
    db = load_database()
    for game in db.games.values():
        for card in game.cards.values():
            page = out / "r" / game.game_id / card.id / "index.html"
            assert page.is_file(), page


def test_site_with_a_broken_database_prints_file_line_and_writes_nothing(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), data, ignore=shutil.ignore_patterns("*.py", "__pycache__", "schemas"))
    glossary = data / "carpe_diem" / "glossary.yaml"
    glossary.write_text("- id: x\n  term: [\n", encoding="utf-8")
    result = CliRunner().invoke(printkit_cli, ["site", "--data", str(data), "--out", str(tmp_path / "site")])
    assert result.exit_code == 1
    assert f"{glossary}:2: carpe_diem/-: yaml: malformed YAML" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "site").exists()


def test_unknown_game_and_paper_are_usage_errors(tmp_path):
    result = CliRunner().invoke(printkit_cli, ["build", "chess", "--out", str(tmp_path), "--base-url", "http://10.0.0.1"])
    assert result.exit_code == 1
    assert "chess/-: game: no such game" in result.output
    result = CliRunner().invoke(printkit_cli, ["build", "--paper", "a5", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "a5" in result.output


def test_an_unwritable_output_is_a_clean_error(tmp_path):
    blocker = tmp_path / "out"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(printkit_cli, ["build", "cartisora", "--out", str(blocker / "sub"), "--base-url", "http://10.0.0.1"])
    assert result.exit_code == 1
    assert "Error:" in result.output and "Traceback" not in result.output
