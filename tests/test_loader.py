"""The loader and `printkit validate`: every problem at once, as FILE:LINE: game/id: field: message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from database_edits import copy_database

from card_data.loader import check_database, load_database
from card_data.reading.yaml_source import load_yaml

PRINTKIT = Path(sys.executable).with_name("printkit")


def copy_bundled(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    copy_database(data)
    return data


def test_bundled_database_is_clean_and_complete():
    db, problems = check_database()
    assert problems == []
    assert list(db.games) == ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]
    for game in db.games.values():
        assert game.cards and game.glossary, game.game_id
        for card in game.cards.values():
            assert card.rulings or card.example, f"{game.game_id}/{card.id} has no ruling"
            for ruling in card.rulings:
                assert ruling.section.strip()


def test_line_map_points_at_keys_and_items(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("- id: a\n  title: A\n  skills:\n    - name: Knife\n      power: 2\n- id: b\n", encoding="utf-8")
    data, lines = load_yaml(path)
    assert data[0]["skills"][0]["power"] == 2
    assert lines.line_for((0, "skills", 0, "power")) == 5
    assert lines.line_for((1,)) == 6
    assert lines.line_for((0, "missing")) == 1  # falls back to the item's own line


def test_game_yaml_problems_and_unknown_folders(tmp_path):
    data = copy_bundled(tmp_path)
    info = data / "cartisora" / "game.yaml"
    info.write_text(info.read_text(encoding="utf-8").replace("title:", "titel:", 1), encoding="utf-8")
    (data / "chess").mkdir()
    (data / "chess" / "game.yaml").write_text("title: Chess\n", encoding="utf-8")
    _, problems = check_database(data)
    text = [str(p) for p in problems]
    assert any(t.startswith(f"{info}:") and ": cartisora/-: titel: unknown field" in t for t in text), text
    assert any(t.startswith(f"{info}:") and ": cartisora/-: title: required field is missing" in t for t in text), text
    assert any(t.startswith(f"{data / 'chess' / 'game.yaml'}:1: chess/-: game: unknown game 'chess'") for t in text)


def test_validate_reports_every_problem_at_once_from_any_directory(tmp_path):
    data = copy_bundled(tmp_path)
    card_file = sorted((data / "cahrd" / "cards").glob("*.yaml"))[0]
    card_file.write_text("- id: ok\n  title: [unclosed\n", encoding="utf-8")
    deck_file = sorted((data / "carpe_cras" / "decks").glob("*.yaml"))[0]
    deck_text = deck_file.read_text(encoding="utf-8")
    deck_file.write_text(deck_text.replace("card: ", "card: no-such-", 1), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run([str(PRINTKIT), "validate", "--data", str(data)], cwd=elsewhere,
                          capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert any(ln.startswith(f"{card_file}:2: cahrd/-: yaml: malformed YAML") for ln in lines), proc.stderr
    deck_line = next(i + 1 for i, ln in enumerate(deck_file.read_text().splitlines()) if "no-such-" in ln)
    assert any(ln.startswith(f"{deck_file}:{deck_line}: carpe_cras/") and "unknown card id 'no-such-" in ln
               for ln in lines), proc.stderr
    # Both problems in one run, and the count at the end.
    assert lines[-1].endswith("problems found.")


def test_validate_ok_on_the_bundled_database(tmp_path):
    proc = subprocess.run([str(PRINTKIT), "validate"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("OK: 4 games")


def test_load_database_raises_with_all_problems(tmp_path):
    data = copy_bundled(tmp_path)
    (data / "cartisora" / "glossary.yaml").write_text("- id: Bad Id\n  term: x\n  text: y\n  section: z\n")
    try:
        load_database(data)
    except Exception as exc:  # DatabaseError
        assert any(p.field == "id" and p.line == 1 for p in exc.problems)
    else:
        raise AssertionError("expected DatabaseError")
