"""The installed commands: `companion site`, `printkit build`, and a clean error for bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from database_edits import copy_database

from card_data.loader import load_database
from card_data.editions.short_codes import card_code, short_url
from companion.cli import main as companion_cli
from printkit.cli import main as printkit_cli


def test_site_writes_a_page_per_card(tmp_path):
    out = tmp_path / "site"
    result = CliRunner().invoke(companion_cli, ["site", "--out", str(out), "--base-url", "https://cards.example.org/kit"])
    assert result.exit_code == 0, result.output
    db = load_database()
    for game in db.games.values():
        for card in game.cards.values():
            page = out / "r" / game.game_id / card.id / "index.html"
            assert page.is_file(), page


def test_site_with_a_broken_database_prints_file_line_and_writes_nothing(tmp_path):
    data = tmp_path / "data"
    copy_database(data)
    glossary = data / "carpe_diem" / "glossary.yaml"
    glossary.write_text("- id: x\n  term: [\n", encoding="utf-8")
    result = CliRunner().invoke(companion_cli, ["site", "--data", str(data), "--out", str(tmp_path / "site")])
    assert result.exit_code == 1
    assert f"{glossary}:2: carpe_diem/-: yaml: malformed YAML" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "site").exists()


def test_printkit_does_not_offer_site_any_more():
    """The static site is the companion's (printkit must not import the companion)."""
    result = CliRunner().invoke(printkit_cli, ["site"])
    assert result.exit_code == 2 and "No such command 'site'" in result.output


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


def test_build_writes_the_whole_kit_for_each_game(tmp_path):
    result = CliRunner().invoke(printkit_cli, ["build", "--out", str(tmp_path), "--base-url", "http://10.0.0.1"])
    assert result.exit_code == 0, result.output
    # Each deck list in its quantities (a file per deck), then the rest of the kit and its index.
    expected = {
        "carpe_cras": {"might-cunning-draw-cards.pdf", "might-cunning-agency-cards.pdf",
                       "authority-zeal-draw-cards.pdf", "authority-zeal-agency-cards.pdf",
                       "reference-cards.pdf", "battlefield-lane.pdf", "tokens.pdf", "print-this.pdf"},
        "cartisora": {f"{deck}-cards.pdf" for deck in ("brute", "fencer", "guardian", "hunter", "knight", "trickster")}
        | {"reference-cards.pdf", "play-mat.pdf", "tokens.pdf", "print-this.pdf"},
        "cahrd": {"shield-wall-cards.pdf", "shield-wall-strategies-cards.pdf", "swift-riders-cards.pdf",
                  "swift-riders-strategies-cards.pdf", "reference-cards.pdf", "game-mat.pdf",
                  "battle-tracking.pdf", "tokens.pdf", "print-this.pdf"},
        "carpe_diem": {"scoring-cards.pdf", "reference-cards.pdf", "scorepad.pdf", "print-this.pdf"},
    }
    for game, names in expected.items():
        written = {p.name for p in (tmp_path / game).glob("*.pdf")}
        assert names == written, (game, sorted(written))


def test_build_one_deck_in_its_quantities(tmp_path):
    from test_card_sheets import decode_pdf_qr_codes

    result = CliRunner().invoke(printkit_cli, ["build", "--deck", "might-cunning-draw", "--out", str(tmp_path),
                                               "--base-url", "http://10.0.0.1"])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in (tmp_path / "carpe_cras").iterdir() if p.suffix == ".pdf")
    assert written == ["might-cunning-draw-cards.pdf"]
    urls = decode_pdf_qr_codes(tmp_path / "carpe_cras" / "might-cunning-draw-cards.pdf")
    assert len(urls) == 40
    # Its code names the card and the version printed on it.
    assert urls.count(short_url("http://10.0.0.1", card_code("carpe_cras", "time-flies", 1))) == 6


def test_build_an_unknown_deck_is_a_clean_error(tmp_path):
    deck = tmp_path / "mine.yaml"
    deck.write_text("id: mine\ntitle: Mine\nkind: draw\ncards:\n  - card: time-flies\n    qty: 2\n"
                    "  - card: no-such-card\n", encoding="utf-8")
    result = CliRunner().invoke(printkit_cli, ["build", "carpe_cras", "--deck", str(deck), "--out",
                                               str(tmp_path / "out"), "--base-url", "http://10.0.0.1"])
    assert result.exit_code == 1
    assert f"{deck}:7: carpe_cras/mine: cards.1.card: unknown card id 'no-such-card'" in result.output
    assert not (tmp_path / "out").exists()


def test_cards_only_leaves_out_the_rest_of_the_kit(tmp_path):
    result = CliRunner().invoke(printkit_cli, ["build", "cahrd", "--cards-only", "--out", str(tmp_path),
                                               "--base-url", "http://10.0.0.1"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "cahrd").glob("*.pdf")) == [
        "shield-wall-cards.pdf", "shield-wall-strategies-cards.pdf", "swift-riders-cards.pdf",
        "swift-riders-strategies-cards.pdf"]


def test_init_db_creates_the_scorekeepers_database_and_is_safe_to_repeat(tmp_path, monkeypatch):
    """`companion init-db` (flaskr's explicit command) creates the schema at $DATABASE_URL and
    names the revision; run again, it keeps what was played."""
    from alembic.script import ScriptDirectory
    from sqlalchemy import create_engine, inspect, text

    from companion.scorekeeping.store.storage import MIGRATIONS

    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    url = f"sqlite:///{tmp_path / 'tables.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    first = CliRunner().invoke(companion_cli, ["init-db"])
    assert first.exit_code == 0, first.output
    assert "Database ready at sqlite:///" in first.output and f"(schema {head})" in first.output
    engine = create_engine(url)
    assert {"game_tables", "table_events", "alembic_version"} <= set(inspect(engine).get_table_names())
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO game_tables (token, code, game, players, options, version, created_at, "
                          "colours) VALUES ('tok', 'ABCDEF', 'carpe_diem', '[\"A\", \"B\"]', '{}', 0, "
                          "'2026-11-01 10:00:00', '[]')"))
    engine.dispose()
    again = CliRunner().invoke(companion_cli, ["init-db", "--database-url", url])
    assert again.exit_code == 0, again.output
    engine = create_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT code FROM game_tables")).scalars().all() == ["ABCDEF"]
    engine.dispose()


def test_init_db_says_which_database_it_cannot_reach_and_hides_its_password(tmp_path):
    result = CliRunner().invoke(companion_cli, ["init-db", "--database-url",
                                                "postgresql://someone:s3cret@127.0.0.1:1/nowhere"])
    assert result.exit_code == 1
    assert "cannot set up the database at postgresql+psycopg://someone:***@127.0.0.1:1/nowhere" in result.output
    assert "s3cret" not in result.output and "Traceback" not in result.output


def _printkit_process(*args: str) -> subprocess.CompletedProcess:
    """``printkit ARGS`` as the installed command runs it (``python -m printkit.cli``, the
    console script's entry), its output read through pipes."""
    return subprocess.run([sys.executable, "-m", "printkit.cli", *args], capture_output=True, text=True, timeout=120)


def test_the_printkit_command_ends_with_each_outcomes_status_and_its_whole_output(tmp_path):
    """Its process skips Python's teardown once the command has ended; what it printed through
    a pipe and its exit status are those of a plain exit."""
    ok = _printkit_process("validate")
    assert ok.returncode == 0 and ok.stdout.startswith("OK: 4 games, ") and ok.stdout.endswith(" deck lists.\n")
    usage = _printkit_process("build", "--paper", "tabloid")
    assert usage.returncode == 2 and "Invalid value for '--paper'" in usage.stderr
    data = tmp_path / "data"
    copy_database(data)
    (data / "carpe_diem" / "glossary.yaml").write_text("- id: x\n  term: [\n", encoding="utf-8")
    broken = _printkit_process("validate", "--data", str(data))
    assert broken.returncode == 1 and "malformed YAML" in broken.stderr and "Traceback" not in broken.stderr


def test_output_the_printkit_command_cannot_write_is_said_in_one_line_not_a_traceback(tmp_path):
    """``printkit validate > /dev/full`` (a full disk): one line saying so on standard error,
    exit status 1."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "wb") as full:
        ended = subprocess.run([sys.executable, "-m", "printkit.cli", "validate"], stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=120)
    assert ended.returncode == 1
    assert ended.stderr == "Error: cannot write: No space left on device\n"


def test_the_printkit_command_skips_pythons_teardown_after_its_exit_handlers():
    """Freeing every module one by one (``python -v`` says ``# cleanup`` for each) is skipped;
    the process's exit handlers still run first, as at any exit."""
    script = ("import atexit, sys\nfrom printkit.cli import run\n"
              "atexit.register(lambda: print('exit handler ran'))\n"
              "sys.argv = ['printkit', 'validate']\nrun()\n")
    ended = subprocess.run([sys.executable, "-v", "-c", script], capture_output=True, text=True, timeout=120)
    assert ended.returncode == 0
    assert ended.stdout.splitlines()[-1] == "exit handler ran"
    assert "# cleanup" not in ended.stderr
    plain = subprocess.run([sys.executable, "-v", "-c", script.replace("import run", "import main as run")],
                           capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0 and "# cleanup" in plain.stderr  # what the check above would see


def test_a_language_code_that_is_not_one_is_said_back_short():
    from printkit.cli import main as printkit_cli

    result = CliRunner().invoke(printkit_cli, ["build", "--lang", "x" * 100_000])
    assert result.exit_code == 2
    assert f"'{'x' * 40}'... is not a language code such as de or pt-BR" in result.output
    assert len(result.output) < 1_000
