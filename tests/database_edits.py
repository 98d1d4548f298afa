"""Helpers for the card-database tests that break a copy of the bundled data on purpose.

A failing-input test copies one game's folder out of the bundled database, edits one YAML file
by plain text replacement (so the line numbers are the ones a person editing it would see),
asks the loader for its problems and checks the exact ``FILE:LINE: game/id: field:`` prefix
of the one it expects, with the line computed from the text the test wrote.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from card_data.loader import bundled_data_dir, check_database
from card_data.project.project_folders import game_templates_dir


GAME_CODE = shutil.ignore_patterns("*.py", "*.pyc", "__pycache__", "table.html")
"""What a copy of a bundled game's folder leaves out (``copytree(..., ignore=GAME_CODE)``): its
Python package and scorekeeper page, which a designer's card data folder never holds."""


def copy_database(root: Path) -> Path:
    """Copy every game folder of the bundled database (the folders holding a ``game.yaml``, not
    ``card_data/games/__init__.py`` beside them), without their Python, to ``root``; returns ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    for folder in sorted(bundled_data_dir().iterdir()):
        if (folder / "game.yaml").is_file():
            shutil.copytree(folder, root / folder.name, ignore=GAME_CODE)
    return root


def copy_layouts(dest: Path, database) -> Path:
    """Copy the layouts of every game of ``database`` (a :class:`card_data.loader.Database`) to
    ``dest/<game>/``: a templates folder whose game folders come before the games' own
    ``templates/`` (:func:`card_data.project.project_folders.game_templates_dir`). Returns ``dest``."""
    for game in database.games.values():
        shutil.copytree(game_templates_dir(game.folder), dest / game.game_id)
    return dest


def copy_game(root: Path, game: str) -> Path:
    """Copy the bundled ``game`` folder (e.g. ``"cahrd"``) to ``root / game`` and return that folder.

    ``root`` is then a database holding that one game, ready for :func:`problem_lines`.
    """
    shutil.copytree(bundled_data_dir() / game, root / game, ignore=GAME_CODE)
    return root / game


def edit(path: Path, old: str, new: str) -> str:
    """Replace ``old``, which must occur exactly once in ``path``, by ``new``; return the new text."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}, not once"
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return text


def line_of(text: str, snippet: str, after: str | None = None) -> int:
    """1-based number of the line of ``text`` on which ``snippet`` starts.

    Without ``after``, ``snippet`` must occur exactly once in ``text``. With ``after``, which
    must occur exactly once (e.g. the ``- id:`` line of the card that was edited), it is the
    first ``snippet`` from the start of the line holding ``after`` on.
    """
    start = 0
    if after is None:
        assert text.count(snippet) == 1, f"{snippet!r} occurs {text.count(snippet)} times, not once"
    else:
        assert text.count(after) == 1, f"{after!r} occurs {text.count(after)} times, not once"
        start = text.rfind("\n", 0, text.index(after)) + 1
    at = text.find(snippet, start)
    assert at >= 0, f"{snippet!r} not found after {after!r}"
    return text.count("\n", 0, at) + 1


def problem_lines(root: Path, within: Path | None = None) -> list[str]:
    """Every problem the loader reports for the database at ``root``, as ``str(problem)`` lines
    (``FILE:LINE: game/id: field: message``), in the loader's order.

    With ``within`` (a file or a folder), only the problems in that file or in files below that
    folder.
    """
    _, found = check_database(root)
    return [str(p) for p in found
            if within is None or Path(p.file) == within or within in Path(p.file).parents]


def assert_reported(found: list[str], prefix: str, message: str = "") -> None:
    """Assert that some problem in ``found`` starts with ``prefix`` (``FILE:LINE: game/id: field:``)
    and, if ``message`` is given, that one of those problems has ``message`` after the prefix."""
    hits = [p for p in found if p.startswith(prefix)]
    assert hits, f"no problem starts with {prefix!r}; got:\n" + "\n".join(found)
    if message:
        assert any(message in p[len(prefix):] for p in hits), f"{message!r} not in {hits}"
