"""``companion run --watch``: a designer saves a card or a rule and the running companion serves
it, games in progress going on under the saved rules; a save with problems is named, line by
line, and the data loaded before is served on (companion/reloading.py).

The game is the declared quiz with a scorekeeper (tests/test_declared_scoring.py): first to 5
points wins."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from werkzeug.test import Client

from companion.scorekeeping.scorekeeper import table_store_of
from companion.reloading import reloading_companion
from test_declared_scoring import GAME, make_project, tap
from test_server import fetch, free_port, wait_for

OLD_QUESTION = "Which mountain buried Pompeii?"
NEW_QUESTION = "Which volcano buried Pompeii and Herculaneum?"


def cards_file(project: Path) -> Path:
    return project / "card_data" / GAME / "cards" / "questions.yaml"


def save(path: Path, text: str) -> None:
    """Write ``text`` as an editor saves it, its modification time moved on so that a save within
    the same clock tick as the last one is still a change."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    os.utime(path, ns=(before + 10**9, before + 10**9))


@pytest.fixture
def quiz(tmp_path, monkeypatch):
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    project = make_project(tmp_path / "quiz")
    served = reloading_companion({"TESTING": True, "PROJECT_DIR": str(project), "WTF_CSRF_ENABLED": False,
                                  "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    yield project, served
    served.app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_a_saved_card_and_rule_are_served_and_the_game_in_progress_goes_on(quiz):
    project, served = quiz
    phone = Client(served)
    assert OLD_QUESTION in phone.get(f"/r/{GAME}/pompeii").text
    made = phone.post(f"/tables/new/{GAME}", data={"players[]": ["Ann", "Bo", ""]})
    assert made.status_code == 303
    table = made.headers["Location"]
    tap(phone, phone.get(table).text, "Ann: Points +2")
    first_app = served.app

    # The designer rewords a card and lowers the winning score from 5 to 3.
    save(cards_file(project), cards_file(project).read_text().replace(OLD_QUESTION, NEW_QUESTION))
    game_yaml = project / "card_data" / GAME / "game.yaml"
    save(game_yaml, game_yaml.read_text().replace("{counter: points, value: 5}", "{counter: points, value: 3}"))
    assert served.reload() == []
    assert served.app is not first_app
    # One store of tables (its database connections and, on PostgreSQL, its change feed) for
    # every app a reload makes, not one more each save.
    assert table_store_of(served.app) is table_store_of(first_app)

    page = phone.get(f"/r/{GAME}/pompeii").text
    assert NEW_QUESTION in page and OLD_QUESTION not in page
    html = phone.get(table).text
    assert "Ann: Points +2, now 2" in html  # the table and its history are still there
    assert "The game ends when a player's Points reaches 3." in html
    answer, _ = tap(phone, html, "Ann: Points +1")
    assert answer.status_code == 303
    assert "Ann: Points +1, now 3: the game is over" in phone.get(table).text


def test_a_save_with_problems_is_named_and_the_data_before_is_served_on(quiz):
    project, served = quiz
    phone = Client(served)
    text = cards_file(project).read_text()
    broken = text.replace("  difficulty: 2\n", "  difficulty: 9\n")
    save(cards_file(project), broken)
    line = broken.splitlines().index("  difficulty: 9") + 1

    problems = served.reload()
    assert len(problems) == 1
    assert problems[0].startswith(f"{cards_file(project)}:{line}: {GAME}/pompeii: difficulty: ")
    assert OLD_QUESTION in phone.get(f"/r/{GAME}/pompeii").text  # still served, as loaded before

    # A broken printkit.toml is named too, and the mended save is then served.
    toml = project / "printkit.toml"
    save(toml, toml.read_text() + "base_url = [\n")
    (problem,) = served.reload()
    assert problem.startswith(f"{toml}:")
    save(toml, '[printkit]\ndata = "card_data"\n')
    save(cards_file(project), text.replace(OLD_QUESTION, NEW_QUESTION))
    assert served.reload() == []
    assert NEW_QUESTION in phone.get(f"/r/{GAME}/pompeii").text


def wait_until(condition, timeout_s: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout_s} s: {what}")
        time.sleep(0.2)


def test_companion_run_watch_serves_each_save_as_it_is_made(tmp_path):
    """The real command, over HTTP: a save is on the page within seconds; a broken save is
    printed with its file and line while the page stays as it was; without --watch nothing
    reloads."""
    project = make_project(tmp_path / "quiz")
    port = free_port()
    log = tmp_path / "companion.log"
    environ = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite'}",
               "COMPANION_SECRET_KEY": "watch-test-secret", "PYTHONUNBUFFERED": "1"}
    environ.pop("PRINTKIT_BASE_URL", None)
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, "-c", "from companion.cli import main; main()", "run", "--watch",
                                    "--host", "127.0.0.1", "--port", str(port)],
                                   cwd=project, env=environ, stdout=out, stderr=subprocess.STDOUT, text=True)
    page = f"http://127.0.0.1:{port}/r/{GAME}/pompeii"
    try:
        wait_for(page, process)
        assert OLD_QUESTION in fetch(page)[2].decode()
        assert "Watching " in log.read_text()

        save(cards_file(project), cards_file(project).read_text().replace(OLD_QUESTION, NEW_QUESTION))
        wait_until(lambda: NEW_QUESTION in fetch(page)[2].decode(), what="the saved question on the page")
        assert "questions.yaml changed: loading the card data again" in log.read_text()

        broken = cards_file(project).read_text().replace("  difficulty: 2\n", "  difficulty: 9\n")
        line = broken.splitlines().index("  difficulty: 9") + 1
        save(cards_file(project), broken)
        wait_until(lambda: "still serving the data loaded before" in log.read_text(), what="the problem reported")
        assert f"questions.yaml:{line}: {GAME}/pompeii: difficulty: " in log.read_text()
        assert NEW_QUESTION in fetch(page)[2].decode()
        assert process.poll() is None
    finally:
        process.terminate()
        process.wait(timeout=15)
