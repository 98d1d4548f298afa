"""A game's card fields read off a spreadsheet (``printkit init --from-sheet``): one declared
field per column, its type inferred from the column's values.

Row 1 names the columns; each further row is a card. A column becomes:

- ``id``, ``title``, ``qty`` (copies), ``note``, ``art``, ``example``: the card field every
  declared card has (see the game.yaml format in the README);
- ``type``: the card types, one per distinct value (in the order first met), each with a
  back of its own;
- ``name`` (without a ``title`` column): a text field the cards' title is (``title_field``);
- any other column: a field named after the column (lower case, ``_`` between words,
  ``_field`` after a name the cards or templates use already; the header as written is its
  label), typed from its values:

  ===========  =======================================================================
  integer      every value a whole number (or all but a few, at most :data:`MAX_SLIPS` and a
               quarter: slips the import then reports at their rows); bounds 0 (or the
               lowest widened) to the highest widened (:func:`widened`: 1-5 gives 0-5, 3-7
               gives 0-10)
  number       every value a number, some with decimals; bounds likewise
  yes_no       every value yes/no/true/false (any case)
  one_of       2 to :data:`MAX_OPTIONS` distinct values of at most :data:`MAX_OPTION_CHARS`
               characters, each used twice on average (a category, a colour)
  text         anything else
  ===========  =======================================================================

  A column filled in on every card is ``required``. With several card types, a column filled
  in only on cards of one type is that type's own field.

Without a ``title``/``name`` column the title (``title_field``) is the first text column filled
in on every card with no value twice, else the first filled in on every card. Problems (no ``id`` column, no column of a field, a header that cannot name a
field, two columns naming one field, no cards, a blank ``type``) are
:class:`~card_data.problems.Problem` at ``FILE:ROW`` of the sheet; the rows' values are
checked against the declaration by the import that follows (:mod:`printkit.designer.spreadsheet.importer`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from card_data.declared.declared_game import DEFAULT_MAX_LENGTH
from card_data.declared.field_declarations import (
    DEFAULT_BOUND,
    FIELD_NAME,
    MAX_CARD_TYPES,
    MAX_FIELDS,
    MAX_TEXT_LENGTH,
    RESERVED_FIELDS,
    TEMPLATE_NAMES,
    default_label,
)
from card_data.problems import Problem
from printkit.designer.spreadsheet.sheet_reading import EMPTY, parse_cell

BASE_COLUMNS = ("id", "type", "title", "qty", "note", "art", "example")
"""Columns that fill the card fields every declared card has, rather than declaring a field."""

CONTEXT_NAMES = TEMPLATE_NAMES | {"kind", "loop", "self", "range", "true", "false", "none", "namespace", "dict",
                                  "lipsum", "cycler", "joiner"}
"""Names a layout template already uses (:data:`~card_data.declared.field_declarations.TEMPLATE_NAMES`,
and Jinja2's own): a field named so would be refused or hidden behind them, so a column of that
name gets ``_field`` appended (as does one named after a field every card has,
:data:`~card_data.declared.field_declarations.RESERVED_FIELDS`)."""

CARD_TYPE_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""What a card type (and its back) may be called, a slug: it names files (``templates/<type>.yaml``,
``<back>-cards.pdf``)."""

MAX_OPTIONS = 12
"""Distinct values a column may have to be read as ``one_of`` (more reads as text)."""

MOSTLY_NUMBERS = 0.75
"""Share of a column's values that, being numbers, make it a number column; its other values
(at most :data:`MAX_SLIPS`) are then mistakes the import reports at their rows."""

MAX_SLIPS = 3
"""Values that are not numbers a number column may have (see :data:`MOSTLY_NUMBERS`)."""

MAX_OPTION_CHARS = 30
"""Characters an option of a ``one_of`` column may have (longer reads as text)."""

MAX_LABEL_CHARS = 80
"""Characters of a header kept as the field's label (a label's most)."""

_YES = {"yes", "true"}
_NO = {"no", "false"}


@dataclass(frozen=True)
class InferredField:
    """One declared card field, as ``game.yaml`` will say it.

    Attributes:
        name: the field's name (a :data:`FIELD_NAME`).
        type: ``text``, ``integer``, ``number``, ``yes_no`` or ``one_of``.
        label: how players see it named (the column's header as written).
        column: the header cell it came from.
        required: filled in on every card (of its type).
        min, max: an integer or number field's bounds.
        options: a ``one_of`` field's values, in the order first met.
        max_length: a text field's bound on characters, when the sheet needs more than
            :data:`DEFAULT_MAX_LENGTH`; else ``None``.
        seen: what the sheet showed, in words (a comment beside the declaration).
        distinct: a text field whose values in the sheet are all different.
    """

    name: str
    type: str
    label: str
    column: str
    required: bool
    min: int | float | None = None
    max: int | float | None = None
    options: tuple[str, ...] = ()
    max_length: int | None = None
    seen: str = ""
    distinct: bool = False


@dataclass(frozen=True)
class CardType:
    """One value of the sheet's ``type`` column: ``name`` (also its back's name), ``label``
    (the value as written), ``count`` (rows), ``copies`` (rows times their ``qty``) and its
    own ``fields``."""

    name: str
    label: str
    count: int
    copies: int
    fields: tuple[InferredField, ...] = ()


@dataclass
class SheetGame:
    """What a sheet says about its game.

    Attributes:
        fields: fields every card has, in column order.
        card_types: the ``type`` column's values (empty without one).
        title_field: the field a card's title is, or ``None`` when the sheet has a ``title``
            column.
        columns: header cell -> the card field it fills (a base field or a declared one).
        type_names: a ``type`` cell's text -> its card type's name.
        cards: non-blank rows; ``copies``: those rows' copies (``qty``, default 1).
        problems: what stops the sheet from being a game (then the rest is incomplete).
    """

    fields: list[InferredField] = field(default_factory=list)
    card_types: list[CardType] = field(default_factory=list)
    title_field: str | None = None
    columns: dict[str, str] = field(default_factory=dict)
    type_names: dict[str, str] = field(default_factory=dict)
    cards: int = 0
    copies: int = 0
    problems: list[Problem] = field(default_factory=list)


def snake_name(text: str, limit: int = 40) -> str:
    """``"Question Text"`` -> ``"question_text"``: lower case, runs of anything but letters and
    digits as one ``_``, at most ``limit`` characters; ``""`` when nothing is left. Letters
    other than ASCII ones are dropped (``"Catégorie"`` -> ``"cat_gorie"``)."""
    name = re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")
    return name[:limit].rstrip("_")


def field_name(header: str) -> str | None:
    """The field name a column header gives (:func:`snake_name`, ``f_`` before a leading
    digit), or ``None`` when it gives none (only punctuation, or letters outside ASCII)."""
    name = snake_name(header)
    if name and name[0].isdigit():
        name = f"f_{name}"[:40].rstrip("_")
    return name if FIELD_NAME.fullmatch(name or "") else None


def widened(value: int | float) -> int:
    """A bound at or beyond ``value`` (>= 0) that a designer would write: the next of 1, 2, 5,
    10, 20, 50 ... (5 stays 5, 7 gives 10, 120 gives 200)."""
    if value <= 1:
        return 1 if value > 0 else 0
    exponent = 10 ** (len(str(int(math.ceil(value)))) - 1)
    for step in (1, 2, 5, 10):
        if step * exponent >= value:
            return step * exponent
    return 10 * exponent  # pragma: no cover - the loop ends at 10


def _bounds(values: list[int | float]) -> tuple[int, int]:
    low, high = min(values), max(values)
    lower = 0 if low >= 0 else -widened(-low)
    upper = widened(high) if high > 0 else 0
    return max(lower, -DEFAULT_BOUND), min(upper, DEFAULT_BOUND)


def cell_value(cell: Any) -> Any:
    """A cell's value as inference reads it: numbers and booleans, text (stripped), or ``EMPTY``."""
    value = parse_cell(cell)
    if isinstance(value, float) and value.is_integer() and not isinstance(cell, str):
        return int(value)  # an XLSX "3" comes as 3.0
    if isinstance(value, (list, dict)):
        return str(cell).strip()  # a JSON-looking cell of a sheet's own column is its text
    return value


def _shown(value: Any) -> str:
    if isinstance(value, float):
        return format(Decimal(repr(value)).normalize(), "f")
    return str(value)


def infer_field(name: str, header: str, values: list[Any], rows: int) -> InferredField:
    """The declaration of column ``header`` (field ``name``) from its non-empty ``values``
    (see :func:`cell_value`), filled in on ``values`` of ``rows`` rows."""
    plain = header.strip()
    # A header written as a name (difficulty, flavour_text) reads as words; any other as written.
    label = default_label(plain) if field_name(plain) == plain else plain[:MAX_LABEL_CHARS].strip()
    required = len(values) == rows and rows > 0
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    # A column of numbers with a word or two in it ("three" for 3) is numbers with a slip: the
    # import then names the rows of the words. As options, every row would fail instead.
    if (values and len(numbers) >= MOSTLY_NUMBERS * len(values) and len(values) - len(numbers) <= MAX_SLIPS
            and all(math.isfinite(v) for v in numbers)):
        low, high = _bounds(numbers)
        kind = "integer" if all(isinstance(v, int) for v in numbers) else "number"
        seen = f"{_shown(min(numbers))} to {_shown(max(numbers))} in the sheet"
        return InferredField(name, kind, label, header, required, low, high, seen=seen)
    texts = [v if isinstance(v, str) else ("true" if v is True else "false" if v is False else _shown(v))
             for v in values]
    if values and all(t.lower() in _YES | _NO for t in texts):
        return InferredField(name, "yes_no", label, header, required, seen="yes/no in the sheet")
    distinct = list(dict.fromkeys(texts))
    # One value is no choice yet (every card of the first pack): a one_of of it would refuse
    # the next pack's cards, so it stays text.
    if (values and 2 <= len(distinct) <= MAX_OPTIONS and len(values) >= 2 * len(distinct)
            and all(len(t) <= MAX_OPTION_CHARS and "\n" not in t for t in distinct)):
        return InferredField(name, "one_of", label, header, required, options=tuple(distinct),
                                seen=f"{len(distinct)} value{'s' if len(distinct) != 1 else ''} in the sheet")
    longest = max((len(t) for t in texts), default=0)
    max_length = None
    if longest > DEFAULT_MAX_LENGTH:
        max_length = min(widened(longest), MAX_TEXT_LENGTH)
    return InferredField(name, "text", label, header, required, max_length=max_length,
                         seen=f"up to {longest} characters in the sheet" if values else "empty in the sheet",
                         distinct=len(distinct) == len(texts))


def slug_name(text: str, limit: int = 40) -> str:
    """``"Bonus Round"`` -> ``"bonus-round"``: :func:`snake_name` with ``-`` between words (a
    card type's, a back's name)."""
    return snake_name(text, limit).replace("_", "-")


def _copies(value: Any) -> int:
    """A ``qty`` cell's copies (its value as :func:`cell_value` reads it); the import reports a bad one."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99 else 1


def infer_game(file: str, header: Sequence[Any], rows: Sequence[tuple[int, Sequence[Any]]]) -> SheetGame:
    """What the sheet ``file`` (its ``header`` cells and ``(row number, cells)`` rows, as
    :func:`~printkit.designer.spreadsheet.sheet_reading.read_sheet` gives them) declares: see the module
    docstring. Problems are in the result's ``problems``, at ``FILE:ROW`` (the header is row 1)."""
    game = SheetGame()
    names = [("" if raw is None else str(raw)).strip() for raw in header]
    rows = [(number, cells) for number, cells in rows if any(cell_value(c) is not EMPTY for c in cells)]
    game.cards = len(rows)
    if not any(names):
        game.problems.append(Problem(file, 1, field="file", message="row 1 must name the columns (id, type, "
                                                                    "question, ...); it is empty"))
        return game
    if not rows:
        game.problems.append(Problem(file, 2, field="file", message="has no cards: every row after the "
                                                                    "header is one card"))
    taken: dict[str, str] = {}
    declared: list[tuple[int, str]] = []
    for index, header_text in enumerate(names):
        if not header_text:
            continue
        lowered = header_text.lower()
        if lowered.startswith("rulings.") or lowered in BASE_COLUMNS:
            name = lowered
        else:
            name = field_name(header_text)
            if name is None:
                game.problems.append(Problem(file, 1, field=header_text, message=(
                    "cannot name a field: give the column a name with letters (a-z) or digits")))
                continue
            if name in RESERVED_FIELDS or name in CONTEXT_NAMES:
                name = f"{name}_field"
        if name in taken:
            game.problems.append(Problem(file, 1, field=header_text, message=(
                f"names the same field ({name}) as the column '{taken[name]}'; rename one")))
            continue
        taken[name] = header_text
        game.columns[header_text] = name
        if name not in BASE_COLUMNS and not name.startswith("rulings."):
            declared.append((index, name))
    if not declared:
        game.problems.append(Problem(file, 1, field="file", message=(
            f"has no column of a field of its own, only {', '.join(game.columns.values()) or 'none'}: add one "
            "(e.g. text) for what your cards say")))
        return game
    if len(declared) > MAX_FIELDS:
        game.problems.append(Problem(file, 1, field="file", message=(
            f"has {len(declared)} columns of fields; a game may declare at most {MAX_FIELDS}")))
        return game
    column_of = {name: names.index(header_text) for header_text, name in game.columns.items()}

    def cell(cells: Sequence[Any], name: str) -> Any:
        index = column_of.get(name)
        return cell_value(cells[index]) if index is not None and index < len(cells) else EMPTY

    game.copies = sum(_copies(qty) if (qty := cell(cells, "qty")) is not EMPTY else 1 for _, cells in rows)
    row_type: dict[int, str] = {}
    if "type" in column_of:
        _read_card_types(game, file, rows, cell, row_type)
    by_type = {t.name: [n for n, _ in rows if row_type.get(n) == t.name] for t in game.card_types}
    own: dict[str, list[InferredField]] = {t.name: [] for t in game.card_types}
    for index, name in declared:
        filled = [(number, cell(cells, name)) for number, cells in rows]
        values = [v for _, v in filled if v is not EMPTY]
        kinds = {row_type.get(number) for number, v in filled if v is not EMPTY}
        if len(game.card_types) > 1 and len(kinds) == 1 and None not in kinds:
            kind = kinds.pop()
            own[kind].append(infer_field(name, names[index], values, len(by_type[kind])))
        else:
            game.fields.append(infer_field(name, names[index], values, len(rows)))
    game.card_types = [CardType(t.name, t.label, t.count, t.copies, tuple(own[t.name])) for t in game.card_types]
    if "title" not in column_of:
        texts = [f for f in game.fields if f.type == "text" and f.required]
        named = [f for f in texts if f.name == "name"]
        # A title tells the cards apart: a column without repeats (a question) before one with.
        unique = [f for f in texts if f.distinct]
        if named or texts:
            game.title_field = (named or unique or texts)[0].name
        else:
            game.problems.append(Problem(file, 1, field="title", message=(
                "no column can be the cards' title: add a title (or name) column, filled in on every card")))
    if "id" not in column_of:
        game.problems.append(Problem(file, 1, field="id", message=(
            "no id column: give every card an id (lower-case words joined by hyphens, e.g. capital-of-peru; "
            "it is the card's address in its QR code, so it should never change)")))
    return game


def _read_card_types(game: SheetGame, file: str, rows: Sequence[tuple[int, Sequence[Any]]], cell,
                     row_type: dict[int, str]) -> None:
    """The ``type`` column's values as card types (``game.card_types``, ``game.type_names``),
    each row's type in ``row_type``; problems for a blank type, a value that names no type,
    two values naming one type, too many types."""
    rows_of: dict[str, list[int]] = {}
    copies_of: dict[str, int] = {}
    labels: dict[str, str] = {}
    for number, cells in rows:
        value = cell(cells, "type")
        if value is EMPTY:
            game.problems.append(Problem(file, number, field="type", message="is empty: give every card its type"))
            continue
        text = value if isinstance(value, str) else _shown(value)
        name = slug_name(text)
        if not CARD_TYPE_NAME.fullmatch(name):
            game.problems.append(Problem(file, number, field="type", message=(
                f"'{text}' cannot name a card type: use letters (a-z) and digits")))
            continue
        if name in labels and text.lower() != labels[name].lower():
            game.problems.append(Problem(file, number, field="type", message=(
                f"'{text}' and '{labels[name]}' (row {rows_of[name][0]}) both name the card type {name}; "
                "write them alike")))
            continue
        labels.setdefault(name, text)
        game.type_names[text] = name
        row_type[number] = name
        rows_of.setdefault(name, []).append(number)
        qty = cell(cells, "qty")
        copies_of[name] = copies_of.get(name, 0) + (_copies(qty) if qty is not EMPTY else 1)
    if len(labels) > MAX_CARD_TYPES:
        game.problems.append(Problem(file, 1, field="type", message=(
            f"has {len(labels)} different values; a game may have at most {MAX_CARD_TYPES} card types "
            "(each has its own template and back)")))
        return
    for name, label in labels.items():
        shown = label if label != name else default_label(name)
        game.card_types.append(CardType(name, shown, len(rows_of[name]), copies_of[name]))
