"""Cards written back out: as a card_data YAML file (what ``printkit import`` writes) and as
spreadsheet rows, CSV or XLSX (the reverse of :mod:`printkit.designer.spreadsheet.importer`, in
the convention it reads)."""

from __future__ import annotations

import csv
import io
import json
import shlex
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from card_data.schema import Card

LIST_SEPARATOR = ";"
"""Between the items of a list of plain values in one cell: ``Might; Cunning``."""
HEAD_FIELDS = ("id", "type", "title")
"""Fields written first in the YAML and the spreadsheet: what a reader looks for first."""
TAIL_FIELDS = ("example", "assumed", "note", "art", "rulings")
"""Fields written last: bookkeeping and the (long) rulings, after the card's printed stats."""

Loc = tuple  # a path into a card record: field names (str) and list indexes (int)


# --- writing YAML ------------------------------------------------------------------------


def card_record(card: Card) -> dict:
    """The card as the plain mapping card_data YAML holds: fields left at their default are
    omitted; keys in a stable order (id, type, title, the game's fields in schema order, then
    example, assumed, note, art, rulings)."""
    data = card.model_dump(mode="json", exclude_defaults=True)
    data["type"] = card.type  # a Literal tag is its own default; the loader still needs it
    title_field = getattr(card, "TITLE_FIELD", None)
    if title_field and data.get("title") == data.get(title_field):
        del data["title"]  # a declared game's title_field gives it
    order = [*HEAD_FIELDS, *(f for f in type(card).model_fields if f not in HEAD_FIELDS + TAIL_FIELDS), *TAIL_FIELDS]
    return {name: data[name] for name in order if name in data}


class _CardDumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # List items indented under their key, as in the hand-written data files.
        super().increase_indent(flow, False)


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def _represent_list(dumper: yaml.SafeDumper, data: list) -> yaml.Node:
    flow = all(_is_scalar(v) for v in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _represent_dict(dumper: yaml.SafeDumper, data: dict) -> yaml.Node:
    # Short records of plain values (a skill, a requirement) read best on one line, as the
    # hand-written data files have them.
    flow = (all(_is_scalar(v) for v in data.values()) and len(json.dumps(data, ensure_ascii=False)) <= 72
            and not any(isinstance(v, str) and len(v) > 40 for v in data.values()))
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=flow)


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = "|" if "\n" in data else ">" if len(data) > 80 else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_CardDumper.add_representer(list, _represent_list)
_CardDumper.add_representer(dict, _represent_dict)
_CardDumper.add_representer(str, _represent_str)


def cards_to_yaml(cards: Iterable[Card], source_name: str, game_id: str, comment: str | None = None) -> str:
    """A card_data ``cards/*.yaml`` document for ``cards``: one block per card, blank lines
    between cards, a comment naming the spreadsheet it came from (or ``comment``, lines)."""
    if comment is None:
        comment = (f"Imported from {source_name} by `printkit import {shlex.quote(source_name)} --game {game_id}`;\n"
                   "edit the spreadsheet and import it again rather than this file (what the sheet has no\n"
                   "column for, such as rulings, is kept from this file by each import).")
    blocks = ["".join(f"# {line}\n" for line in comment.splitlines())]
    for card in cards:
        # The top level is a one-item list so that each card starts with "- id: ...".
        blocks.append(yaml.dump([card_record(card)], Dumper=_CardDumper, sort_keys=False, allow_unicode=True,
                                width=96, default_flow_style=False))
    return "\n".join(blocks)


# --- writing rows ------------------------------------------------------------------------


def _plain_list_cell(items: list) -> str | None:
    """``["Might", "Cunning"]`` -> ``"Might; Cunning"``, or ``None`` if the items cannot be
    written that way and read back the same (a ``;`` inside, blanks, records)."""
    if not items:
        return None
    parts = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            return None
        text = str(item)
        if LIST_SEPARATOR in text or text != text.strip() or not text or text[0] in "[{":
            return None
        parts.append(text)
    return f"{LIST_SEPARATOR} ".join(parts)


def _flatten(value: Any, path: Loc, out: dict[Loc, Any]) -> None:
    if isinstance(value, dict):
        simple_keys = all(isinstance(k, str) and k and "." not in k and not k.isdigit() for k in value)
        if value and simple_keys:
            for key, item in value.items():
                _flatten(item, path + (key,), out)
            return
    elif isinstance(value, list):
        if value and all(isinstance(v, dict) and v for v in value):
            for i, item in enumerate(value):
                _flatten(item, path + (i,), out)
            return
        cell = _plain_list_cell(value)
        if cell is not None:
            out[path] = cell
            return
    elif isinstance(value, str) and (not value or value != value.strip()):
        pass  # blank or padded text would be stripped on reading; JSON keeps it exact
    elif _is_scalar(value) and value is not None:
        out[path] = value
        return
    out[path] = json.dumps(value, ensure_ascii=False)


def _column_order(keys: Iterable[Loc]) -> list[Loc]:
    """Columns grouped by field: id, type, title first, bookkeeping and rulings last, list items
    in index order, everything else in the order first met."""
    tree: dict = {}
    for key in keys:
        node = tree
        for part in key:
            node = node.setdefault(part, {})

    def rank(part: Any, first_seen: int) -> tuple:
        if part in HEAD_FIELDS:
            return (0, HEAD_FIELDS.index(part))
        if part in TAIL_FIELDS:
            return (2, TAIL_FIELDS.index(part))
        return (1, part if isinstance(part, int) else first_seen)

    def walk(node: dict, path: Loc, top: bool) -> list[Loc]:
        if not node:
            return [path]
        parts = list(node)
        if top:
            parts = [p for _, p in sorted(enumerate(parts), key=lambda item: rank(item[1], item[0]))]
        elif all(isinstance(p, int) for p in parts):
            parts.sort()
        return [loc for p in parts for loc in walk(node[p], path + (p,), False)]

    return walk(tree, (), True)


def cards_to_rows(cards: Iterable[Card]) -> tuple[list[str], list[list[Any]]]:
    """Cards as spreadsheet rows, in the convention :func:`rows_to_cards` reads.

    Returns ``(header, rows)``: column names, and per card a list of cell values (``str``,
    ``int``, ``float``, ``bool`` or ``None`` for an empty cell). Fields at their default are
    left empty. The columns are the union over all ``cards`` (a sheet may mix card types).
    """
    flat: list[dict[Loc, Any]] = []
    for card in cards:
        cells: dict[Loc, Any] = {}
        for key, value in card_record(card).items():
            _flatten(value, (key,), cells)
        flat.append(cells)
    order = _column_order(key for cells in flat for key in cells)
    header = [".".join(str(p) for p in loc) for loc in order]
    return header, [[cells.get(loc) for loc in order] for cells in flat]


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Write a UTF-8 CSV (with a byte-order mark, so spreadsheet programs detect UTF-8)."""
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else ("true" if v is True else "false" if v is False else v) for v in row])
    path.write_text(buf.getvalue(), encoding="utf-8-sig", newline="")


def write_xlsx(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Write a one-sheet XLSX workbook: bold, frozen header row, then one row per card."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "cards"
    sheet.append(list(header))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    for row in rows:
        sheet.append(list(row))
    workbook.save(path)
