"""Reading a spreadsheet (``.csv`` or ``.xlsx``) for ``printkit import``: its rows and cells,
bounded, and what a cell's text stands for.

Everything read is bounded: the file (its bytes on disk, and an XLSX workbook's unpacked) by
the limit for one file of :mod:`card_data.project.limits`, a sheet by :data:`MAX_ROWS` rows of
:data:`MAX_COLUMNS` cells, a cell by :data:`MAX_CELL_CHARS` characters and its JSON by the
nesting a YAML card file may have (:data:`card_data.reading.yaml_source.MAX_DEPTH`). See
:mod:`printkit.designer.spreadsheet.importer` for what the rows become.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from card_data.project.limits import FileTooLarge, Limits, quiet_limits, read_limited
from card_data.reading.yaml_source import MAX_DEPTH

_INT_RE = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_FLOAT_RE = re.compile(r"[-+]?[0-9]+\.[0-9]+")

MAX_CELL_CHARS = 32_767
"""Characters one cell may hold: what Excel and LibreOffice let a cell hold (a card's longest
text is a few hundred; a whole list of rulings as JSON a few thousand)."""

MAX_ROWS = 100_000
"""Rows one sheet may have, the header included: ten times a game of 10,000 cards."""

MAX_COLUMNS = 1_000
"""Cells one row may have (a card with every list field spelled out in columns has ~100)."""


class SheetError(ValueError):
    """A spreadsheet that cannot be read from ``row`` on (1-based, the header is row 1);
    ``message`` says why."""

    def __init__(self, row: int, message: str):
        self.row, self.message = row, message
        super().__init__(f"row {row}: {message}")


class _Missing:
    def __repr__(self) -> str:
        return "<empty cell>"


EMPTY = _Missing()
"""What :func:`parse_cell` gives for a blank cell: the field is left out."""


def _bounded(records: Iterable[Sequence[Any]]) -> list[list[Any]]:
    """``records`` as lists, refused past :data:`MAX_ROWS` rows or :data:`MAX_COLUMNS` cells a row."""
    out: list[list[Any]] = []
    for record in records:
        if len(out) == MAX_ROWS:
            raise SheetError(len(out) + 1, f"a sheet may have at most {MAX_ROWS:,} rows; split it into several "
                                           f"(each imported into a card file of its own)")
        if len(record) > MAX_COLUMNS:
            raise SheetError(len(out) + 1, f"has {len(record):,} cells; a row may have at most {MAX_COLUMNS:,}")
        out.append(list(record))
    return out


def _csv_records(text: str) -> Iterable[list[str]]:
    reader = csv.reader(io.StringIO(text, newline=""))
    rows = 0
    try:
        for record in reader:
            rows += 1
            yield record
    except csv.Error as exc:
        # A quote left open runs a cell on to the end of the file, past csv's own bound.
        raise SheetError(rows + 1, f"cannot be read as CSV: {exc} (a cell may hold at most {MAX_CELL_CHARS:,} "
                                   f"characters; is a quote left open?)") from None


def _xlsx_records(path: Path, limits: Limits) -> list[list[Any]]:
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        # A workbook is compressed: what it unpacks to is what is read (the sizes it declares
        # bound what zipfile unpacks).
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
        if unpacked > limits.file_bytes:
            raise SheetError(1, f"the workbook unpacks to {unpacked:,} bytes; one file may hold at most "
                                f"{limits.file_mb:g} MB ({limits.file_bytes:,} bytes): split it, or "
                                f"{limits.raise_hint('file_mb')}")
        workbook = load_workbook(path, data_only=True)
    except (zipfile.BadZipFile, InvalidFileException, KeyError) as exc:
        raise ValueError(f"not an XLSX workbook ({exc})") from None
    except SheetError:
        raise
    except Exception as exc:  # noqa: BLE001 - a zip of broken XML: openpyxl's parsers raise their own kinds
        raise ValueError(f"not a readable XLSX workbook ({type(exc).__name__}: {exc})") from None
    try:
        if not workbook.worksheets:
            raise ValueError("not a readable XLSX workbook (it has no worksheet)")
        return _bounded(workbook.worksheets[0].iter_rows(values_only=True))
    finally:
        workbook.close()


def read_sheet(path: Path, limits: Limits | None = None) -> tuple[list[Any], list[tuple[int, list[Any]]]]:
    """The header cells and the data rows ``(row number, cells)`` of a ``.csv`` or ``.xlsx`` file.

    CSV is read as UTF-8 (a byte-order mark is allowed); cells are strings. XLSX cells keep
    their type (number, bool, text; formulas give their last computed value).
    ``limits``: the byte limits (default: :func:`card_data.project.limits.quiet_limits`).
    Raises ``OSError`` if the file cannot be read; :class:`~card_data.project.limits.FileTooLarge`
    for a file over ``limits.file_bytes``; :class:`SheetError` (a ``ValueError``) for a
    workbook that unpacks to more, a sheet past :data:`MAX_ROWS` or :data:`MAX_COLUMNS`, or
    CSV that cannot be read from some row on; ``ValueError`` if it is not CSV/XLSX (by
    extension or content).
    """
    limits = limits if limits is not None else quiet_limits()
    suffix = path.suffix.lower()
    if suffix == ".csv":
        records = _bounded(_csv_records(read_limited(path, limits).decode("utf-8-sig")))
    elif suffix == ".xlsx":
        size = path.stat().st_size
        if size > limits.file_bytes:
            raise FileTooLarge(size, limits)
        records = _xlsx_records(path, limits)
    else:
        raise ValueError(f"expected a .csv or .xlsx file, got '{path.suffix or path.name}'")
    if not records:
        return [], []
    return records[0], [(number, cells) for number, cells in enumerate(records[1:], start=2)]


def _json_depth(text: str) -> int:
    """How deeply ``[`` and ``{`` nest in ``text`` (outside JSON strings), counted up to
    :data:`MAX_DEPTH` + 1 at most."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


def cell_problem(value: Any) -> str | None:
    """What is wrong with a cell too large to read (more than :data:`MAX_CELL_CHARS`
    characters, or JSON nesting deeper than :data:`~card_data.reading.yaml_source.MAX_DEPTH`), or
    ``None``. :func:`parse_cell` reads such a cell as text, unparsed."""
    if not isinstance(value, str):
        return None
    if len(value) > MAX_CELL_CHARS:
        return (f"holds {len(value):,} characters; a cell may hold at most {MAX_CELL_CHARS:,} (as in spreadsheet "
                f"programs)")
    text = value.strip()
    if text[:1] in ("[", "{") and _json_depth(text) > MAX_DEPTH:
        return (f"nests lists and mappings more than {MAX_DEPTH} levels deep; a card's fields nest 4 or 5 (is a "
                f"bracket left open?)")
    return None


def parse_cell(value: Any) -> Any:
    """A cell's value: ``EMPTY`` for a blank cell, a number/bool for a cell that looks like one,
    JSON for a cell starting with ``[``/``{`` that parses (and is not too large to read, see
    :func:`cell_problem`), otherwise the text (stripped)."""
    if value is None:
        return EMPTY
    if not isinstance(value, str):
        # XLSX dates have no field to go to in any schema; their text is the least surprise.
        return value if isinstance(value, (bool, int, float)) else str(value)
    text = value.strip()
    if not text:
        return EMPTY
    if text[0] in "[{" and cell_problem(value) is None:
        try:
            return json.loads(text)
        except ValueError:
            return text
    if _INT_RE.fullmatch(text):
        return int(text)
    if _FLOAT_RE.fullmatch(text):
        return float(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text
