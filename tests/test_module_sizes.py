"""Small modules named for what they hold: no module of card_data, printkit or companion passes
~600 lines. One that does is listed below as a known exception, to be split; a new one fails."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("card_data", "printkit", "companion")
MOST_LINES = 600

TO_BE_SPLIT: set[str] = set()
"""Modules already past :data:`MOST_LINES`, to be split (each named here, never silently)."""


def line_counts() -> dict[str, int]:
    """Every Python module of the packages, by path relative to the repository: its line count."""
    return {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
            for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def test_no_module_passes_600_lines_but_the_known_exceptions():
    counts = line_counts()
    assert len(counts) > 100  # the packages were found
    long = {name: n for name, n in counts.items() if n > MOST_LINES and name not in TO_BE_SPLIT}
    assert not long, f"split these into modules named for what they hold: {long}"


def test_a_known_exception_is_dropped_from_the_list_once_split():
    counts = line_counts()
    for name in TO_BE_SPLIT:
        assert counts.get(name, 0) > MOST_LINES, f"{name} is split or gone: remove it from TO_BE_SPLIT"
