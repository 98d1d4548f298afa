"""A declared game's files written from a spreadsheet (``printkit init --from-sheet``):
``game.yaml`` (see :mod:`printkit.designer.spreadsheet.game_yaml_text`), a front template per card type and
a back template per deck (see :mod:`printkit.designer.loop.generated_layouts`). The cards themselves are imported
by :func:`printkit.designer.spreadsheet.importer.import_sheet`, as ``printkit import`` does."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from card_data.games import GAME_ID, game_ids
from card_data.schema import POKER_HEIGHT_MM, POKER_WIDTH_MM
from printkit.designer.spreadsheet.game_yaml_text import game_yaml_text
from printkit.designer.loop.generated_layouts import (
    PrintedField,
    back_template,
    front_template,
    inner_width_mm,
    layouts_folder,
    title_height_mm,
)
from printkit.designer.spreadsheet.sheet_inference import EMPTY, SheetGame, cell_value, slug_name, snake_name

DEFAULT_CARD_TYPE = "card"
"""A declared game's only card type when it declares none (its front is ``card.yaml``)."""

class GameIdError(ValueError):
    """A game id that cannot name a declared game; the message says why and what to do."""


def check_game_id(game_id: str) -> str:
    """``game_id`` if it can name a game of a project's own: a :data:`~card_data.games.GAME_ID`
    that no registered (bundled or installed) game has. Raises :class:`GameIdError`."""
    if not GAME_ID.fullmatch(game_id):
        raise GameIdError(f"'{game_id}' is not a game id: lower-case letters, digits and _, from a letter "
                          "(at most 40)")
    if game_id in game_ids():
        raise GameIdError(f"'{game_id}' is a game printkit already has; give your game another id with --game")
    return game_id


def sheet_game_id(sheet: Path) -> str:
    """The game id a sheet's file name gives (``Pub Quiz.csv`` -> ``pub_quiz``; ``game_``
    before a leading digit). Raises :class:`GameIdError` when it gives none that fits
    (:func:`check_game_id`)."""
    name = snake_name(sheet.stem)
    if not name or not name[0].isalpha():
        name = f"game_{name}".rstrip("_")[:40]
    try:
        return check_game_id(name)
    except GameIdError as exc:
        raise GameIdError(f"the sheet's file name gives the game id '{name}', which cannot be used: {exc}; "
                          "give one with --game") from None


def game_title(game_id: str) -> str:
    """A title for people from a game id: ``pub_quiz`` -> ``Pub Quiz``."""
    return " ".join(word[:1].upper() + word[1:] for word in game_id.split("_") if word)


def default_back(game_id: str) -> str:
    """The back of a game without card types: its id as a slug (``pub_quiz`` -> ``pub-quiz``)."""
    return slug_name(game_id)


def _titles(sheet: SheetGame, header: Sequence[Any], rows: Sequence[tuple[int, Sequence[Any]]]) -> list[str]:
    """The cards' titles as the sheet writes them (the title column's or the title field's)."""
    column = next((h for h, name in sheet.columns.items() if name == (sheet.title_field or "title")), None)
    if column is None:
        return []
    names = [("" if raw is None else str(raw)).strip() for raw in header]
    index = names.index(column)
    values = (cell_value(cells[index]) if index < len(cells) else EMPTY for _, cells in rows)
    return [str(v) for v in values if v is not EMPTY]


def _printed(sheet: SheetGame, fields) -> list[PrintedField]:
    return [PrintedField(f.name, f.label, f.type) for f in fields if f.name != sheet.title_field]


def game_files(game_id: str, sheet: SheetGame, header: Sequence[Any], rows: Sequence[tuple[int, Sequence[Any]]],
               source: str, title: str | None = None, import_path: str | None = None) -> dict[str, str]:
    """The files of the declared game ``game_id`` that ``sheet`` (inferred from ``header`` and
    ``rows``) describes, as ``{path relative to the project folder: text}``:
    ``card_data/<game_id>/game.yaml``, in :func:`layouts_folder` ``<type>.yaml`` per card type
    (``card.yaml`` without a type column) and ``back-<back>.yaml`` per back. ``source``: the sheet's file name; ``title``: the
    game's (default from its id); ``import_path``: the sheet as written from the project folder, where
    game.yaml's comment says to import it again (default ``source``). Poker-size cards (63.5 x 88.9 mm)."""
    title = title or game_title(game_id)
    width, height = POKER_WIDTH_MM, POKER_HEIGHT_MM
    files = {f"card_data/{game_id}/game.yaml": game_yaml_text(game_id, title, sheet, source, import_path)}
    title_h = title_height_mm(_titles(sheet, header, rows), inner_width_mm(width))
    templates = layouts_folder(game_id)
    art = "art" in sheet.columns.values()
    if sheet.card_types:
        for index, card_type in enumerate(sheet.card_types):
            fields = _printed(sheet, [*sheet.fields, *card_type.fields])
            files[f"{templates}/{card_type.name}.yaml"] = front_template(width, height, card_type.name, card_type.label,
                                                                         index, fields, title_h, art)
            files[f"{templates}/back-{card_type.name}.yaml"] = back_template(width, height, card_type.name, index)
    else:
        fields = _printed(sheet, sheet.fields)
        files[f"{templates}/{DEFAULT_CARD_TYPE}.yaml"] = front_template(width, height, DEFAULT_CARD_TYPE, "Card", 0,
                                                                        fields, title_h, art)
        back = default_back(game_id)
        files[f"{templates}/back-{back}.yaml"] = back_template(width, height, back, 0)
    return files
