"""A card's own fields, turned into labelled values any game's card page can show.

The rulings page knows no game: it walks the card's pydantic fields in schema order, so a
new stat in a game's schema shows up without touching the templates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from flask_babel import gettext
from pydantic import BaseModel

from card_data.declared.declared_game import field_type, players_see
from card_data.schema import Card
from companion.cards.field_labels import translated_label

#: Fields of every card shown elsewhere on the page (or not at all), never as stats; ``qty``
#: is how many copies of a declared game's card print, not something players read.
COMMON_FIELDS = frozenset({"id", "type", "title", "rulings", "example", "assumed", "note", "art", "qty"})

#: Field names that hold a card's rules or flavour prose rather than a stat.
PROSE_FIELD_NAMES = frozenset({
    "text", "ability", "abilities", "effect", "effects", "rules_text", "ability_text",
    "effect_text", "flavor", "flavour", "flavor_text", "flavour_text", "reminder",
})

#: A string this long is prose whatever its field is called.
PROSE_MIN_CHARS = 60

#: Sub-models go in a table only if it fits a 360 px screen: this many columns at most,
#: each cell at most :data:`TABLE_MAX_CELL_CHARS` long; otherwise one item per block.
TABLE_MAX_COLUMNS = 4
TABLE_MAX_CELL_CHARS = 24


@dataclass(frozen=True)
class Table:
    """Rows of a list of sub-models (e.g. a character's skills): column labels and cell texts."""

    columns: list[str]
    rows: list[list[str]]


@dataclass(frozen=True)
class Item:
    """One sub-model shown as a line: its name (from a ``name`` or ``title`` field, if it has
    one) and the rest of its set fields as ``[(label, text), ...]``."""

    heading: str | None
    pairs: list[tuple[str, str]]


#: Sub-model fields that name the item; shown first, as its heading.
HEADING_FIELDS = ("name", "title")


@dataclass(frozen=True)
class Stat:
    """One field of a card ready to show.

    Attributes:
        name: the schema's field name, e.g. ``"men_under_command"``.
        label: what the page calls it, e.g. ``"Men under command"``.
        kind: ``"value"`` (one line of text), ``"prose"`` (paragraphs of rules text),
            ``"table"`` (a :class:`Table`) or ``"items"`` (a list of :class:`Item`: one
            sub-model or mapping, or a list of sub-models too wide for a phone's table).
        value: the text, table or items, according to ``kind``.
        assumed: the value is assumed, not given in the rulebook (listed in ``card.assumed``).
    """

    name: str
    label: str
    kind: str
    value: Any
    assumed: bool = False


@dataclass(frozen=True)
class CardStats:
    """A card's fields split the way the page shows them: stats in a list, prose below."""

    stats: list[Stat] = field(default_factory=list)
    prose: list[Stat] = field(default_factory=list)

    @property
    def any_assumed(self) -> bool:
        return any(s.assumed for s in (*self.stats, *self.prose))


_IDENTIFIER = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)+$")


def field_label(name: str, title: str | None = None) -> str:
    """Label for a field: the schema's ``title`` if it set one, else the name in words, in the
    page's language where :mod:`companion.cards.field_labels` has the words (English otherwise).

    ``"men_under_command"`` -> ``"Men under command"`` (German: ``"Männer unter Befehl"``);
    names of up to three letters are abbreviations, as printed on cards, and go upper-case
    (``"vp"`` -> ``"VP"``, ``"ldr"`` -> ``"LDR"``) in every language. A schema sets
    ``Field(title=...)`` for anything else.
    """
    if title:
        return translated_label(title)
    if len(name) <= 3:
        return name.upper()
    words = name.replace("_", " ").strip()
    return translated_label(words[:1].upper() + words[1:])


def scalar_text(value: Any) -> str:
    """One value as text: enums by value, ``True``/``False`` as yes/no (in the page's
    language), ``2.0`` as ``2``, identifier-like choices in words (``"special_numbered"`` ->
    ``"special numbered"``)."""
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if value is None:
        return "–"
    if isinstance(value, str) and _IDENTIFIER.match(value):
        return value.replace("_", " ")  # a schema's Literal choice, e.g. "completed_garden"
    if isinstance(value, BaseModel):
        return "; ".join(f"{label}: {text}" for label, text in model_pairs(value))
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(scalar_text(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {scalar_text(v)}" for k, v in value.items())
    return str(value)


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, (str, list, tuple, dict, set, frozenset)) and not value)


def model_pairs(model: BaseModel) -> list[tuple[str, str]]:
    """``[(label, text), ...]`` for a sub-model's set fields, in schema order."""
    fields = type(model).model_fields
    return [
        (field_label(name, info.title), scalar_text(getattr(model, name)))
        for name, info in fields.items()
        if not _is_empty(getattr(model, name))
    ]


def model_item(model: BaseModel) -> Item:
    """A sub-model as an :class:`Item`, headed by its ``name`` or ``title`` field if set."""
    fields = type(model).model_fields
    heading_field = next((f for f in HEADING_FIELDS if f in fields and not _is_empty(getattr(model, f))), None)
    pairs = [
        (field_label(name, info.title), scalar_text(getattr(model, name)))
        for name, info in fields.items()
        if name != heading_field and not _is_empty(getattr(model, name))
    ]
    return Item(scalar_text(getattr(model, heading_field)) if heading_field else None, pairs)


def models_table(models: list[BaseModel]) -> Table:
    """A table of sub-models: one column per field any of them sets, one row per model."""
    names: list[str] = []
    labels: dict[str, str] = {}
    for model in models:
        for name, info in type(model).model_fields.items():
            if name not in labels and not _is_empty(getattr(model, name)):
                names.append(name)
                labels[name] = field_label(name, info.title)
    rows = [
        [scalar_text(getattr(m, n, None)) if not _is_empty(getattr(m, n, None)) else "" for n in names]
        for m in models
    ]
    return Table([labels[n] for n in names], rows)


def _stat(name: str, label: str, value: Any, assumed: bool) -> Stat:
    if isinstance(value, str):
        prose = name in PROSE_FIELD_NAMES or len(value) >= PROSE_MIN_CHARS or "\n" in value
        return Stat(name, label, "prose" if prose else "value", value if prose else scalar_text(value), assumed)
    if isinstance(value, (list, tuple)) and all(isinstance(v, BaseModel) for v in value):
        if len({type(v) for v in value}) == 1:
            table = models_table(list(value))
            narrow = len(table.columns) <= TABLE_MAX_COLUMNS and all(
                len(cell) <= TABLE_MAX_CELL_CHARS for row in table.rows for cell in row)
            if narrow:
                return Stat(name, label, "table", table, assumed)
        return Stat(name, label, "items", [model_item(v) for v in value], assumed)
    if isinstance(value, (list, tuple)) and name in PROSE_FIELD_NAMES and all(isinstance(v, str) for v in value):
        return Stat(name, label, "prose", "\n".join(value), assumed)
    if isinstance(value, BaseModel):
        return Stat(name, label, "items", [model_item(value)], assumed)
    if isinstance(value, dict):
        return Stat(name, label, "items", [Item(None, [(str(k), scalar_text(v)) for k, v in value.items()])], assumed)
    return Stat(name, label, "value", scalar_text(value), assumed)


def card_stats(card: Card) -> CardStats:
    """Every field ``card`` sets, other than the common ones (:data:`COMMON_FIELDS`) and, of a
    declared game's card (:mod:`card_data.declared.declared_game`), its title field, its art fields and
    the fields players do not see (``players_see: false``), each by its declared label.

    Unset fields (``None``, empty text or lists) are left out: the page shows the stats the
    card has. Fields named in ``card.assumed`` are flagged ``assumed``.
    """
    stats: list[Stat] = []
    prose: list[Stat] = []
    assumed = set(card.assumed)
    title_field = getattr(type(card), "TITLE_FIELD", None)  # a declared game's: shown as the title
    for name, info in type(card).model_fields.items():
        value = getattr(card, name)
        if (name in COMMON_FIELDS or name == title_field or _is_empty(value) or not players_see(info)
                or field_type(info) == "art"):
            continue
        stat = _stat(name, field_label(name, info.title), value, name in assumed)
        (prose if stat.kind == "prose" else stats).append(stat)
    return CardStats(stats, prose)
