"""A designer's game from a spreadsheet, as the designer issue's tests make it: a 30-card quiz
(question, answer, category, difficulty 1-5; question and bonus cards; a ``qty`` column) written
as a CSV and turned into a project by ``printkit init --from-sheet``."""

from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner

from printkit.cli import main

HEADER = ["id", "type", "question", "answer", "category", "difficulty", "qty"]
CATEGORIES = ["History", "Science", "Sport", "Geography"]
SHEET_GAME = "river_quiz"
"""The game id ``init --from-sheet river_quiz.csv`` gives."""


def quiz_rows(count: int = 30) -> list[list]:
    """``count`` cards of a quiz: every fifth a bonus card, difficulty 1-5, some printed twice."""
    rows = []
    for i in range(1, count + 1):
        rows.append([f"q-{i}", "bonus" if i % 5 == 0 else "question", f"Which river is number {i}?",
                     f"River {i}", CATEGORIES[i % 4], 1 + i % 5, 2 if i % 3 == 0 else 1])
    return rows


def write_csv(path: Path, rows: list[list], header: list[str] = HEADER) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def run(*args: object):
    """``printkit ARGS`` through click's test runner; its result (exit code, output)."""
    return CliRunner().invoke(main, [str(a) for a in args])


def sheet_project(root: Path, folder: str = "quiz") -> Path:
    """The project ``printkit init ROOT/FOLDER --from-sheet ROOT/river_quiz.csv`` makes from the
    30 rows of :func:`quiz_rows`; its folder. Fails the test if ``init`` does."""
    sheet = write_csv(root / f"{SHEET_GAME}.csv", quiz_rows())
    made = run("init", root / folder, "--from-sheet", sheet)
    assert made.exit_code == 0, made.output
    return root / folder
