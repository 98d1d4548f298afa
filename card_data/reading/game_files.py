"""Where a game's YAML files are, and whether together they are over the game's byte limit."""

from __future__ import annotations

from pathlib import Path

from card_data.project.limits import Limits, game_too_large_message
from card_data.problems import Problem


GAME_DATA_FILES = ("*.yaml", "cards/*.yaml", "decks/*.yaml", "translations/*.yaml")
"""Where a game's YAML files are, relative to its folder (game.yaml, glossary, rulings, printings,
tables, kit.yaml and reference.yaml beside it; card files, deck lists, translations)."""


def game_data_files(folder: Path) -> list[tuple[Path, int]]:
    """The YAML files of the game in ``folder`` (:data:`GAME_DATA_FILES`) with their sizes in
    bytes on disk, in name order; files that cannot be looked at are left out (reading them
    reports why)."""
    out = []
    for pattern in GAME_DATA_FILES:
        for path in sorted(folder.glob(pattern)):
            try:
                if path.is_file():
                    out.append((path, path.stat().st_size))
            except OSError:
                continue
    return out


def game_too_large(folder: Path, game_id: str, limits: Limits) -> Problem | None:
    """A problem if the game's YAML files hold more than ``limits.game_bytes`` together."""
    files = game_data_files(folder)
    total = sum(size for _, size in files)
    if total <= limits.game_bytes:
        return None
    largest = sorted(files, key=lambda item: (-item[1], item[0]))[:3]
    return Problem(str(folder), 1, game_id, "-", "data", game_too_large_message(total, largest, limits))


def art_missing(folder: Path, art: str) -> str:
    """Why the artwork ``art`` (a path relative to the game ``folder``) is no file to print."""
    if (folder / art).is_dir():
        return f"artwork {art} is a folder: name an image file in it"
    return f"artwork file not found: {art}"
