"""A declared game's spreadsheet as its card fields (``printkit import`` of a game declared in
its ``game.yaml``, and ``printkit init --from-sheet``): the sheet keeps the headers and the
words the designer wrote, the card data the names game.yaml declares.

- A column is a field when its header is the field's name, the name ``printkit init
  --from-sheet`` made of the header (``Question Text`` -> ``question_text``, ``Title`` ->
  ``title``), or the field's label (any case).
- A ``type`` cell is a card type when it is the type's name, the name made of it (``Bonus
  Round`` -> ``bonus-round``) or the type's label (any case).
- A cell of a ``yes_no`` field may say yes/no as well as true/false (any case).

Anything else is left as it is, for the import to report (``FILE:ROW: field: message``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from card_data.declared.field_declarations import RESERVED_FIELDS
from printkit.designer.spreadsheet.sheet_inference import BASE_COLUMNS, CONTEXT_NAMES, field_name, slug_name


def _models(spec: Any) -> list[type]:
    models = getattr(spec, "card_models", None)
    return list(models().values()) if models is not None else []


def _field_type(info: Any) -> str | None:
    extra = info.json_schema_extra
    return extra.get("field_type") if isinstance(extra, dict) else None


def declared_fields(spec: Any) -> frozenset[str] | None:
    """Every field a card of a declared game may have, any card type's (its base fields too);
    ``None`` for a registered game's spec."""
    models = _models(spec)
    return frozenset(name for model in models for name in model.model_fields) if models else None


def declared_names(spec: Any) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """What a declared game's sheet may call its fields and card types:
    ``(column word -> field, type word -> card type, yes/no fields)``, the words in lower
    case. Empty for a registered game's spec (its columns are its field names)."""
    columns: dict[str, str] = {}
    types: dict[str, str] = {}
    yes_no: set[str] = set()
    for model in _models(spec):
        label = getattr(model, "TYPE_LABEL", None)
        for name, info in model.model_fields.items():
            if name in RESERVED_FIELDS:
                continue
            columns.setdefault(name, name)
            if info.title:
                columns.setdefault(info.title.strip().lower(), name)
            if _field_type(info) == "yes_no":
                yes_no.add(name)
        for name in _literal_types(model):
            types.setdefault(name, name)
            if label:
                types.setdefault(label.strip().lower(), name)
    return columns, types, yes_no


def _literal_types(model: type) -> list[str]:
    """The card type(s) a model's ``type`` field allows (a ``Literal``)."""
    annotation = model.model_fields["type"].annotation
    return [a for a in getattr(annotation, "__args__", ()) if isinstance(a, str)]


def _column(header: str, columns: dict[str, str]) -> str:
    text = header.strip()
    lowered = text.lower()
    if lowered in BASE_COLUMNS or lowered.startswith("rulings."):
        return lowered
    if lowered in columns:
        return columns[lowered]
    made = field_name(text)
    if made is not None and (made in RESERVED_FIELDS or made in CONTEXT_NAMES):
        made = f"{made}_field"
    return columns.get(made, text) if made is not None else text


def declared_sheet(spec: Any, header: Sequence[Any], rows: Sequence[tuple[int, Sequence[Any]]]
                   ) -> tuple[list[Any], list[tuple[int, list[Any]]]]:
    """``header`` and ``rows`` with the headers, type cells and yes/no cells of a declared game
    (``spec``) spelled as its card data spells them (see the module docstring); a registered
    game's sheet is returned as it is."""
    columns, types, yes_no = declared_names(spec)
    if not columns:
        return list(header), [(number, list(cells)) for number, cells in rows]
    new_header = [raw if raw is None or not str(raw).strip() else _column(str(raw), columns) for raw in header]
    type_at = [i for i, name in enumerate(new_header) if name == "type"]
    yes_no_at = [i for i, name in enumerate(new_header) if name in yes_no]
    new_rows = []
    for number, cells in rows:
        cells = list(cells)
        for i in type_at:
            if i < len(cells) and isinstance(cells[i], str) and cells[i].strip():
                text = cells[i].strip()
                cells[i] = types.get(text.lower()) or types.get(slug_name(text)) or cells[i]
        for i in yes_no_at:
            if i < len(cells) and isinstance(cells[i], str) and cells[i].strip().lower() in ("yes", "no"):
                cells[i] = cells[i].strip().lower() == "yes"
        new_rows.append((number, cells))
    return new_header, new_rows
