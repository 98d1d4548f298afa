"""Reading one game's YAML files into records, every problem found collected rather than raised.

Shared by the database loader (:mod:`card_data.loader`) and the readers of a game's other files
(:mod:`card_data.editions.printings`); each problem is located as ``FILE:LINE`` with its record and field.
"""

from __future__ import annotations

from pathlib import Path
from collections.abc import Collection
from typing import Any

from pydantic import ValidationError

from card_data.project.limits import Limits
from card_data.problems import Problem
from card_data.reading.yaml_source import DuplicateKey, LineMap, YamlSyntaxError, YamlTooLarge, load_yaml


class Collector:
    """Gathers problems for one game so they can all be reported together.

    ``limits`` bound every file read for the game; ``problems`` is the list gathered so far,
    in the order found."""

    def __init__(self, game_id: str, limits: Limits):
        self.game_id = game_id
        self.limits = limits  # of every file read for the game
        self.problems: list[Problem] = []

    def add(self, file: Path, line: int, record_id: str, fld: str, message: str) -> None:
        self.problems.append(Problem(str(file), line, self.game_id, record_id or "-", fld, message))

    def pydantic(self, file: Path, lines: LineMap, base: tuple, record_id: str, exc: ValidationError,
                 data: Any = None, fields: Collection[str] = ()) -> None:
        """``exc``'s problems for the record ``data``; ``fields``: the names it may hold (for a
        misspelt one, the name likely meant)."""
        self.problems += Problem.from_validation_error(exc, data=data, file=str(file), lines=lines, base=base,
                                                       game=self.game_id, card_id=record_id or "-", fields=fields)


def read_game_yaml(path: Path, col: Collector, raw: bytes | None = None) -> tuple[Any, LineMap] | None:
    """``(data, lines)`` of the YAML file at ``path``, read within ``col.limits``, or ``None``
    when it cannot be read or parsed (the reason added to ``col``). A key written twice is a
    problem in ``col`` too, named after its record's id; the data is still returned.
    ``raw``: the file's bytes, already read within those limits (it is not read again)."""
    duplicates: list[DuplicateKey] = []
    try:
        data, lines = load_yaml(path, duplicates, col.limits, raw=raw)
    except YamlTooLarge as exc:
        col.add(path, exc.line, "-", "file", exc.message)
        return None
    except YamlSyntaxError as exc:
        col.add(path, exc.line, "-", "yaml", exc.message)
        return None
    except (OSError, UnicodeDecodeError) as exc:
        col.add(path, 1, "-", "file", f"cannot read: {exc}")
        return None
    for dup in duplicates:
        loc = dup.loc
        record = data
        if isinstance(data, list) and loc and isinstance(loc[0], int):
            record, loc = data[loc[0]], loc[1:]
        col.add(path, dup.line, record_id(record), ".".join(str(part) for part in loc) or "-", dup.message)
    return data, lines


def record_id(data: Any) -> str:
    """The ``id`` of a record read from YAML, ``"-"`` when it has no string id."""
    if isinstance(data, dict) and isinstance(data.get("id"), str):
        return data["id"]
    return "-"


def load_list(path: Path, col: Collector, what: str,
              raw: bytes | None = None) -> tuple[list[tuple[dict, LineMap, tuple]], bool]:
    """Items of a YAML file holding a list of mappings, with their locations, and whether
    that is every item of the file (``False`` if it could not be read or parsed, is not a
    list, or holds something other than mappings). ``raw``: as for :func:`read_game_yaml`."""
    read = read_game_yaml(path, col, raw)
    if read is None:
        return [], False
    data, lines = read
    if data is None:
        return [], True
    if not isinstance(data, list):
        col.add(path, lines.line_for(()), "-", what, f"expected a list of {what}, got {type(data).__name__}")
        return [], False
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            col.add(path, lines.line_for((i,)), "-", what, f"item {i + 1} is not a mapping")
            continue
        out.append((item, lines, (i,)))
    return out, len(out) == len(data)
