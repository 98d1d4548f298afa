"""Cards from a spreadsheet (``printkit import``); written back out by
:mod:`~printkit.designer.spreadsheet.card_writing`.

Spreadsheet convention (CSV or XLSX; the first worksheet of an XLSX file):

- Row 1 is the header; every further row is one card. Blank rows are skipped. A row must
  have as many cells as the header (in a CSV file, a comma missing or too many would shift
  every later value into the wrong column): one that has not is a problem, and not read.
- A column is named after a field of the game's card schema: ``id``, ``type``, ``title``,
  ``cost`` ... A nested field is a dotted name: ``bonuses.armor`` for a field of a
  sub-record, ``skills.0.name`` / ``skills.0.power`` for the first skill (list items count
  from 0 and must not leave gaps), ``rulings.1.text`` for the second ruling.
- An empty cell leaves the field out, so it takes its default (or is reported missing).
- A cell holding a number or ``true``/``false`` is read as one; where the schema wants text
  the cell's text is kept exactly as written (a title ``1984`` stays text).
- Where the schema wants a list of plain values, one cell holds them all separated by
  ``;``: ``Might; Cunning`` for ``agency``, ``2017; 2019`` for ``editions``.
- A cell starting with ``[`` or ``{`` that is valid JSON is read as that JSON value, for
  anything the columns cannot spell (e.g. ``[]`` for an empty list, or a whole list of
  records in one cell).

Everything read is bounded (the file's bytes, rows, cells a row, characters and JSON nesting
a cell; see :mod:`printkit.designer.spreadsheet.sheet_reading`).

Every card is validated by the game's own pydantic schema; every problem of every row is
reported at once as ``FILE:ROW: field: message``, ROW being the spreadsheet's row number
(header = row 1). The result is written as a card_data YAML list (``cards/*.yaml``) only
when there is no problem at all.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from card_data.games import game_entry, registry
from card_data.project.limits import FileTooLarge
from card_data.loader import Game, check_database
from card_data.problems import Problem, field_path
from card_data.schema import Card, GameSpec
from printkit.designer.spreadsheet.sheet_columns import declared_fields, declared_sheet
from printkit.designer.spreadsheet.sheet_inference import snake_name
from printkit.designer.spreadsheet.card_writing import LIST_SEPARATOR, Loc, card_record
from printkit.designer.spreadsheet.sheet_reading import EMPTY, SheetError, cell_problem, parse_cell, read_sheet

# Each pass fixes at least one cell, so this only bounds a pathological row.
_MAX_REPAIR_PASSES = 50



@dataclass
class ImportResult:
    """The cards read from a spreadsheet, in row order, and the spreadsheet ``rows`` they came
    from (parallel to ``cards``), or the ``problems`` found (then ``cards`` is empty). ``art``:
    ``(file beside the sheet, its place in the game's folder)`` for each artwork file the cards
    name that the game's folder lacks but the sheet's folder holds, to be copied
    (:func:`copy_art`) by whoever writes the cards."""

    cards: list[Card]
    problems: list[Problem]
    rows: list[int] = field(default_factory=list)
    art: list[tuple[Path, Path]] = field(default_factory=list)
    kept: dict[str, list[str]] = field(default_factory=dict)
    """Field -> ids of the cards that kept that field's value from the card file the sheet
    replaces, the sheet having no column for it (``{"rulings": ["saffron-bale"]}``)."""


# --- reading -----------------------------------------------------------------------------


def _cell_text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _split_list(text: str) -> list[tuple[Any, str]]:
    """``"Might; Cunning"`` -> ``[("Might", "Might"), ("Cunning", "Cunning")]``: (value, its text)."""
    items = [part.strip() for part in text.split(LIST_SEPARATOR)]
    return [(parse_cell(item), item) for item in items if item]


def _column_path(name: str) -> Loc | None:
    parts = name.split(".")
    if any(not p for p in parts):
        return None
    return tuple(int(p) if p.isdigit() else p for p in parts)


class _RowBuilder:
    """Turns one row's cells into a nested card record, remembering each leaf's cell text so that
    the schema's own errors can say how a cell was meant (text, or a ``;``-separated list)."""

    def __init__(self, file: str, row: int):
        self.file, self.row = file, row
        self.record: dict = {}
        self.texts: dict[Loc, str] = {}
        self.columns: dict[Loc, str] = {}
        self.problems: list[Problem] = []

    def add(self, column: str, path: Loc, value: Any, text: str) -> None:
        node = self.record
        for depth, part in enumerate(path[:-1]):
            child = node.get(part, EMPTY)
            if child is EMPTY:
                child = node[part] = {}
            elif not isinstance(child, dict) or path[: depth + 1] in self.columns:
                self._clash(column, path[: depth + 1])
                return
            node = child
        if path[-1] in node:
            self._clash(column, path)
            return
        node[path[-1]] = value
        self.texts[path] = text
        self.columns[path] = column

    def _clash(self, column: str, path: Loc) -> None:
        other = next(c for p, c in self.columns.items() if p[: len(path)] == path or path[: len(p)] == p)
        self.problems.append(Problem(self.file, self.row, field=column, message=f"given twice: in '{other}' and in '{column}'"))

    def finish(self) -> dict:
        """The record with index-keyed mappings turned into lists (gaps are problems)."""
        return self._lists(self.record, ())

    def _lists(self, node: Any, path: Loc) -> Any:
        if not isinstance(node, dict) or path in self.columns:
            return node
        keys = list(node)
        if keys and all(isinstance(k, int) for k in keys):
            for i in range(max(keys) + 1):
                if i not in node:
                    name = ".".join(str(p) for p in path + (i,))
                    self.problems.append(Problem(self.file, self.row, field=name, message=f"is empty, but item {max(keys)} of the list is filled in"))
            return [self._lists(node[k], path + (k,)) for k in sorted(keys)]
        if any(isinstance(k, int) for k in keys):
            name = ".".join(str(p) for p in path)
            self.problems.append(Problem(self.file, self.row, field=name, message="has both numbered (list) and named sub-columns"))
        return {k: self._lists(v, path + (k,)) for k, v in node.items()}


def _node(record: Any, loc: Loc) -> Any:
    for part in loc:
        record = record[part]
    return record


def _set(record: Any, loc: Loc, value: Any) -> None:
    _node(record, loc[:-1])[loc[-1]] = value


def _validate(adapter, builder: _RowBuilder, record: dict) -> tuple[Card | None, list[Problem]]:
    """Validate ``record``; where the schema wants text, one of its options or a list and a cell
    gave something else, re-read that cell as text or as a ``;``-separated list and try again."""
    for _ in range(_MAX_REPAIR_PASSES):
        try:
            return adapter.validate_python(record), []
        except ValidationError as exc:
            error = exc
            errors = exc.errors(include_url=False)
        repaired = False
        for err in errors:
            loc = field_path(record, err["loc"])
            text = builder.texts.get(loc)
            if text is None:
                continue
            current = _node(record, loc)
            # A cell read as a number where the schema wants text, or one of options written as
            # text ('7' among 'X' and '7'): its text as written.
            if err["type"] in ("string_type", "literal_error", "enum") and current != text:
                _set(record, loc, text)
                repaired = True
            elif err["type"] == "list_type" and not isinstance(current, list):
                items = _split_list(text)
                _set(record, loc, [value for value, _ in items])
                for i, (_, item_text) in enumerate(items):
                    builder.texts[loc + (i,)] = item_text
                repaired = True
        if not repaired:
            break
    return None, Problem.from_validation_error(error, data=record, file=builder.file, line=builder.row)


def rows_to_cards(game_id: str, file: str, header: Sequence[Any],
                  rows: Iterable[tuple[int, Sequence[Any]]], spec: GameSpec | None = None,
                  keep: Mapping[str, Mapping[str, Any]] | None = None) -> ImportResult:
    """Validate spreadsheet rows as cards of ``game_id`` (see the module docstring for the
    convention). ``file`` names the spreadsheet in problems. Checks that every non-blank
    row has as many cells as ``header`` (a row that has not is one problem, ``FILE:ROW:
    row: has N cells, the header has M ...``, and is not read further), then every row
    against the game's schema, that ids are unique and that ``assumed`` names real fields.
    ``spec``: the game's (a declared game's, whose columns and type cells may be spelled as
    :mod:`printkit.designer.spreadsheet.sheet_columns` says); default: the registered game's.
    ``keep``: card id -> the record of that card in the file the cards replace
    (:func:`card_record`); a card of the sheet with that id keeps each field of it that the
    sheet has no column for (its rulings, say), listed in the result's ``kept``.
    Returns an :class:`ImportResult`; raises ``KeyError`` for an unknown game.
    """
    spec = spec if spec is not None else game_entry(game_id).spec
    adapter = spec.card_adapter()
    header, rows = declared_sheet(spec, header, list(rows))
    problems: list[Problem] = []
    columns: list[tuple[int, str, Loc]] = []
    seen_names: dict[str, int] = {}
    fields = declared_fields(spec)
    for index, raw in enumerate(header):
        name = "" if raw is None else str(raw).strip()
        if not name:
            continue
        path = _column_path(name)
        if path is None or isinstance(path[0], int):
            problems.append(Problem(file, 1, field=name, message="not a field name (use names like cost or skills.0.power)"))
        elif name in seen_names:
            problems.append(Problem(file, 1, field=name, message=f"column {index + 1} repeats column {seen_names[name] + 1}"))
        elif fields is not None and path[0] not in fields:
            # Said once, at the header: each row would say "unknown field" of it again.
            problems.append(Problem(file, 1, field=name, message=(
                f"names no field of {game_id}: declare it in game.yaml under fields: (e.g. "
                f"{snake_name(str(path[0])) or 'its_name'}: {{type: text, label: {name}}}), or remove the column")))
        else:
            seen_names[name] = index
            columns.append((index, name, path))
    named = {i for i, raw in enumerate(header) if raw is not None and str(raw).strip()}
    in_sheet = {path[0] for _, _, path in columns}
    kept: dict[str, list[str]] = {}

    cards: list[Card] = []
    card_rows: list[int] = []
    first_row: dict[str, int] = {}
    for number, cells in rows:
        if all(parse_cell(c) is EMPTY for c in cells):
            continue
        if len(cells) != len(header):
            # Its values may sit one column off; read anyway, they would give problems (or,
            # worse, a card) about fields the row did not mean.
            problems.append(Problem(file, number, field="row", message=(
                f"has {len(cells)} cells, the header has {len(header)}: a cell missing or one too many "
                "(in CSV, a missing comma or an unquoted comma inside a value) shifts every value after it")))
            continue
        builder = _RowBuilder(file, number)
        for index, cell in enumerate(cells):
            column = str(header[index]).strip() if index in named else f"column {index + 1}"
            too_large = cell_problem(cell)
            if too_large is not None:
                builder.problems.append(Problem(file, number, field=column, message=too_large))
            elif index not in named and parse_cell(cell) is not EMPTY:
                builder.problems.append(Problem(file, number, field=column, message="has a value but no header"))
        for index, name, path in columns:
            cell = cells[index] if index < len(cells) else None
            value = parse_cell(cell)
            if value is not EMPTY:
                builder.add(name, path, value, _cell_text(cell))
        record = builder.finish()
        if builder.problems:
            problems.extend(builder.problems)
            continue
        before = (keep or {}).get(record.get("id")) if isinstance(record.get("id"), str) else None
        for name, value in (before or {}).items():
            if name not in in_sheet and name not in record:
                record[name] = value
                kept.setdefault(name, []).append(record["id"])
        card, row_problems = _validate(adapter, builder, record)
        problems.extend(row_problems)
        if card is None:
            continue
        if card.id in first_row:
            problems.append(Problem(file, number, field="id", message=f"duplicate card id (first in row {first_row[card.id]})"))
            continue
        first_row[card.id] = number
        for name in card.assumed:
            if name not in type(card).model_fields:
                problems.append(Problem(file, number, field="assumed", message=f"'{name}' is not a field of a {card.type} card"))
        cards.append(card)
        card_rows.append(number)
    if problems:
        return ImportResult([], sorted(problems))
    return ImportResult(cards, [], card_rows, kept=kept)


def check_against_game(result: ImportResult, game: Game, file: str, replaces: Path | None,
                       sheet_folder: Path | None = None) -> None:
    """Problems that need the game's database folder, appended to ``result`` (whose cards are
    then dropped): artwork files that do not exist (paths are relative to the game folder, or,
    for a file still to be copied into it, to ``sheet_folder``: listed in ``result.art``) and
    ids already used by another card file of the game (``replaces``, the file being written,
    does not count)."""
    replaced = replaces.resolve() if replaces is not None else None
    for card, row in zip(result.cards, result.rows):
        if card.art and not (game.folder / card.art).is_file():
            beside = _art_beside(sheet_folder, game.folder, card.art)
            if beside is not None:
                if beside not in result.art:
                    result.art.append(beside)
                continue
            looked = f" nor beside the sheet in {sheet_folder}" if sheet_folder is not None else ""
            result.problems.append(Problem(file, row, field="art", message=(
                f"artwork file not found: {card.art} (not in the game's folder {game.folder}{looked})")))
        where = game.sources.get(("card", card.id))
        if where is not None and Path(where[0]).resolve() != replaced:
            result.problems.append(Problem(file, row, field="id", message=f"already defined at {where[0]}:{where[1]}"))
    if result.problems:
        result.problems.sort()
        result.cards, result.rows, result.art = [], [], []


def replaced_records(game: Game, replaces: Path) -> dict[str, dict]:
    """Card id -> :func:`card_record` of each card of ``game`` read from the file ``replaces``."""
    replaced = replaces.resolve()
    records = {}
    for card_id, card in game.cards.items():
        where = game.sources.get(("card", card_id))
        if where is not None and Path(where[0]).resolve() == replaced:
            records[card_id] = card_record(card)
    return records


def _art_beside(sheet_folder: Path | None, game_folder: Path, art: str) -> tuple[Path, Path] | None:
    """``(the file art names beside the sheet, its place in the game's folder)``, or ``None``
    when there is no such file, or ``art`` leads out of either folder."""
    if sheet_folder is None:
        return None
    from printkit.sheets.artwork.art import ArtError, resolve_inside

    try:
        source, target = resolve_inside(sheet_folder, art), resolve_inside(game_folder, art)
    except ArtError:
        return None
    return (source, target) if source.is_file() else None


def copy_art(art: Sequence[tuple[Path, Path]]) -> list[Path]:
    """Copy each ``(source, target)`` of :attr:`ImportResult.art`, each target written whole or
    not at all (never over a file already there); the targets written. Raises ``OSError``."""
    written = []
    for source, target in art:
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.part")
        shutil.copyfile(source, partial)
        os.replace(partial, target)
        written.append(target)
    return written


def sheet_rows(path: Path) -> tuple[list[Any], list[tuple[int, list[Any]]], list[Problem]]:
    """The header and rows of the spreadsheet ``path`` (see
    :func:`~printkit.designer.spreadsheet.sheet_reading.read_sheet`), or the one problem that stops it
    from being read: an unreadable file or an empty one at row 1, a file over the byte limits
    of :mod:`card_data.project.limits` at row 1 unread, a sheet that cannot be read from some row on
    (too many rows or cells, an unreadable CSV row) at that row."""
    file = str(path)
    try:
        header, rows = read_sheet(path)
    except FileTooLarge as exc:
        return [], [], [Problem(file, 1, field="file", message=exc.message)]
    except SheetError as exc:
        return [], [], [Problem(file, exc.row, field="row" if exc.row > 1 else "file", message=exc.message)]
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        return [], [], [Problem(file, 1, field="file", message=f"cannot read: {exc}")]
    if not header:
        return [], [], [Problem(file, 1, field="file", message="is empty (row 1 must name the columns)")]
    return header, rows, []


def import_sheet(path: Path, game_id: str, data_dir: Path | None = None,
                 replaces: Path | None = None) -> ImportResult:
    """Read and validate the spreadsheet ``path`` as cards of ``game_id``.

    ``data_dir`` is the card database (default: the bundled one), used to check artwork
    paths (an artwork file only beside the sheet is listed in the result's ``art``, to copy)
    and ids against the game's other card files; ``replaces`` is the YAML file the
    cards will be written to (its own ids are not clashes). Unreadable files give a problem
    at row 1, a file over the byte limits of :mod:`card_data.project.limits` at row 1 unread, a
    sheet that cannot be read from some row on (too many rows or cells, an unreadable CSV
    row) at that row. ``game_id`` is a registered game or a game declared in ``data_dir``
    (whose game.yaml's problems are then the result's problems). Returns an
    :class:`ImportResult`; raises ``KeyError`` for a game that is neither.
    """
    file = str(path)
    header, rows, problems = sheet_rows(path)
    if problems:
        return ImportResult([], problems)
    spec = registry()[game_id].spec if game_id in registry() else None
    db, problems = check_database(data_dir)
    if spec is None:
        if game_id not in db.games:
            mine = [p for p in problems if p.game == game_id]
            if not mine:
                raise KeyError(game_id)
            return ImportResult([], mine)
        spec = db.games[game_id].spec
    game = db.games.get(game_id)
    keep = replaced_records(game, replaces) if game is not None and replaces is not None else None
    result = rows_to_cards(game_id, file, header, rows, spec, keep)
    if result.problems:
        return result
    if game is not None:
        check_against_game(result, game, file, replaces, path.parent)
    return result
