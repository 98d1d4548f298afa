"""A game's card fields declared as data: the ``fields:``, ``card_types:`` and ``title_field:``
of a declared game's ``game.yaml`` (see :mod:`card_data.declared.declared_game` for the models made
from them), e.g.::

    title_field: question            # optional: the field a card's title is
    fields:                          # fields every card has, in the order players see them
      question:   {type: text, required: true, label: Question}
      answer:     {type: text, required: true, players_see: false}
      category:   {type: one_of, options: [History, Science, Sport]}
      difficulty: {type: integer, min: 1, max: 5, default: 1}
    card_types:                      # optional; without it every card is of type ``card``
      question: {label: Question, back: question}
      bonus:
        back: bonus
        fields:                      # this type's own extra fields, same format
          points: {type: integer, min: 1, max: 10, required: true}

Every bound is explicit (:data:`MAX_FIELDS`, :data:`MAX_CARD_TYPES`, :data:`MAX_MODEL_FIELDS`,
a field's ``max_length`` and ``max_items``), so a declaration from someone else cannot make its cards unbounded.
What one declaration cannot judge alone (a reserved field name, a ``back`` that ``backs``
does not name, a ``title_field`` naming no text field) is told by :func:`declaration_problems`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from card_data.model_base import Slug, Strict
from card_data.schema import GameInfo
from card_data.declared.scoring_declarations import ScoringDeclaration, scoring_problems

FieldType = Literal["text", "rich_text", "integer", "number", "yes_no", "one_of", "list", "art", "icon"]
"""What a declared field holds: text, text with the game's icon markup, a bounded whole
number, a bounded finite number, yes or no, one of listed options, a list of one of the
simpler types (``of``), a file path relative to the game folder, a name of an svg of the
game's ``icons/``."""

ItemType = Literal["text", "integer", "number", "one_of"]
"""What a ``list`` field's items may be."""

FIELD_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
"""What a declared field may be called: it is a template variable and a column name."""

RESERVED_FIELDS = frozenset({"id", "type", "title", "qty", "example", "assumed", "note", "art", "rulings"})
"""Fields every declared card has already (see :mod:`card_data.declared.declared_game`)."""

TEMPLATE_NAMES = frozenset({"card", "game", "game_id", "layout_words"})
"""Names a card template gives something else (``printkit.pipeline.card_faces.card_context``): a field of
one of these names could not be printed."""

MAX_FIELDS = 200
"""Fields a declaration may list (common ones, and each card type's own)."""

MAX_CARD_TYPES = 100
"""Card types a declared game may have."""

MAX_MODEL_FIELDS = 2000
"""Declared fields of all card types' models together (each type has every common field, and
its own): each is made when the game loads, in every process that draws its cards, about
0.5 ms a field."""

DEFAULT_BOUND = 1_000_000
"""An integer or number field's values lie in ``-DEFAULT_BOUND..DEFAULT_BOUND`` unless it
says ``min``/``max``."""

MAX_TEXT_LENGTH = 100_000
"""The most characters a text field's ``max_length`` may allow (default 2,000)."""

MAX_LIST_ITEMS = 1000
"""The most items a list field's ``max_items`` may allow (default 50)."""

Bound = Annotated[float, Field(ge=-1e15, le=1e15, allow_inf_nan=False)]
Label = Annotated[str, Field(min_length=1, max_length=80)]


def default_label(name: str) -> str:
    """A field's label when it gives none: ``"men_under_command"`` -> ``"Men under command"``."""
    words = name.replace("_", " ")
    return words[:1].upper() + words[1:]


class FieldDeclaration(Strict):
    """One declared field, e.g. ``{type: integer, min: 1, max: 5, default: 1, label: Difficulty}``.

    Attributes:
        type: what it holds (:data:`FieldType`).
        required: every card must give it (default false: it may be left out).
        default: its value where a card leaves it out (checked against the field by
            :mod:`card_data.declared.declared_game`); without one, a card that leaves it out has none.
        label: what people read (rulings page, errata), default the name in words.
        players_see: shown on the rulings page (default true; false for an answer).
        min, max: bounds of an integer or number field (default -1,000,000..1,000,000).
        options: the choices of a ``one_of`` field (or of a list of ``one_of``), 1-200 strings.
        of: a ``list`` field's item type (:data:`ItemType`).
        max_items: a ``list`` field's most items (default 50, at most 1,000).
        max_length: a text field's (or list of text's item's) most characters (default
            2,000, at most 100,000).

    Raises (through pydantic, at the field's line) when a key does not fit the type (``min``
    on a text field, ``options`` without ``one_of``), ``min`` is more than ``max``, a
    ``list`` has no ``of``, or a field is both required and has a default.
    """

    type: FieldType
    required: bool = False
    default: Any = None
    label: Label | None = None
    players_see: bool = True
    min: Bound | None = None
    max: Bound | None = None
    options: Annotated[list[Annotated[str, Field(min_length=1, max_length=200)]],
                       Field(min_length=1, max_length=200)] | None = None
    of: ItemType | None = None
    max_items: Annotated[int, Field(ge=1, le=MAX_LIST_ITEMS)] | None = None
    max_length: Annotated[int, Field(ge=1, le=MAX_TEXT_LENGTH)] | None = None

    @model_validator(mode="after")
    def _keys_fit_type(self) -> "FieldDeclaration":
        item = self.of if self.type == "list" else self.type
        if self.type == "list" and self.of is None:
            raise ValueError("a list field needs of: its items' type (text, integer, number or one_of)")
        if self.of is not None and self.type != "list":
            raise ValueError("of is for list fields")
        if (self.min is not None or self.max is not None) and item not in ("integer", "number"):
            raise ValueError("min and max are for integer and number fields")
        for bound in ("min", "max"):
            value = getattr(self, bound)
            if value is not None and item == "integer" and not float(value).is_integer():
                raise ValueError(f"{bound} of an integer field must be a whole number")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is more than max {self.max:g}")
        if item == "one_of" and self.options is None:
            raise ValueError("a one_of field needs options: the values it may take")
        if self.options is not None and item != "one_of":
            raise ValueError("options are for one_of fields")
        if self.options is not None and len(set(self.options)) != len(self.options):
            raise ValueError("an option is listed twice")
        if self.max_items is not None and self.type != "list":
            raise ValueError("max_items is for list fields")
        if self.max_length is not None and item not in ("text", "rich_text"):
            raise ValueError("max_length is for text fields")
        if self.required and self.default is not None:
            raise ValueError("a required field has no default (every card gives it)")
        return self

    def label_text(self, name: str) -> str:
        """The label people read: ``label``, else :func:`default_label` of ``name``."""
        return self.label or default_label(name)


FieldDeclarations = Annotated[dict[str, FieldDeclaration], Field(max_length=MAX_FIELDS)]


class CardTypeDeclaration(Strict):
    """One card type of ``card_types:``: its ``label`` (default the type name in words), the
    ``back`` it gets (a name of ``backs:``; default the first one) and its own ``fields``
    beside the common ones."""

    label: Label | None = None
    back: Slug | None = None
    fields: FieldDeclarations = {}


class DeclaredGameInfo(GameInfo):
    """``game.yaml`` of a declared game: :class:`~card_data.schema.GameInfo` (``rulebooks``
    optional) plus its card fields (see the module docstring).

    Attributes:
        fields: the fields every card has, in the order players see them (at least one).
        card_types: card type -> its declaration; ``None``: every card is of type ``card``.
        title_field: the common text field a card's title is; ``None``: each card gives
            ``title``.
        scoring: its scorekeeping (:mod:`card_data.declared.scoring_declarations`); ``None``: the
            game keeps no score (the companion offers no table for it).
    """

    rulebooks: dict[str, str] = {}
    fields: Annotated[FieldDeclarations, Field(min_length=1)]
    card_types: Annotated[dict[Slug, CardTypeDeclaration], Field(min_length=1, max_length=MAX_CARD_TYPES)] | None = None
    title_field: str | None = None
    scoring: ScoringDeclaration | None = None

    def type_names(self) -> list[str]:
        """The card types, in declaration order (``["card"]`` without ``card_types``)."""
        return list(self.card_types) if self.card_types else ["card"]

    def back_of(self, card_type: str) -> str:
        """The back a card of ``card_type`` gets: its declared ``back``, else the first of
        ``backs`` (``"default"`` for a game declaring no backs)."""
        declared = self.card_types.get(card_type) if self.card_types else None
        if declared is not None and declared.back is not None:
            return declared.back
        return next(iter(self.backs), "default")

    def type_label(self, card_type: str) -> str:
        """A card type's label: its declared ``label``, else the name in words."""
        declared = self.card_types.get(card_type) if self.card_types else None
        return declared.label if declared is not None and declared.label else default_label(card_type)

    def fields_of(self, card_type: str) -> dict[str, FieldDeclaration]:
        """The fields of a card of ``card_type``: the common ones, then the type's own."""
        own = self.card_types[card_type].fields if self.card_types and card_type in self.card_types else {}
        return {**self.fields, **own}


def declaration_problems(info: DeclaredGameInfo) -> list[tuple[tuple, str]]:
    """What is wrong across a valid declaration, as ``[(location in game.yaml, message)]``
    (a location such as ``("fields", "title")``, for the caller to turn into a line): a field
    name that is not a lower-case identifier or is reserved (:data:`RESERVED_FIELDS`,
    :data:`TEMPLATE_NAMES`), a card
    type's field that a common field has already, a ``back`` not among ``backs``, more than
    :data:`MAX_FIELDS` fields in all, a ``title_field`` that names no common text field, and
    what :func:`card_data.declared.scoring_declarations.scoring_problems` finds in ``scoring:``."""
    found: list[tuple[tuple, str]] = []
    places = [(("fields",), info.fields)]
    for type_name, declared in (info.card_types or {}).items():
        places.append((("card_types", type_name, "fields"), declared.fields))
        if declared.back is not None and declared.back not in info.backs:
            known = ", ".join(info.backs) or "none"
            found.append((("card_types", type_name, "back"),
                          f"back '{declared.back}' is not one of backs (declared: {known})"))
        for name in declared.fields:
            if name in info.fields:
                found.append((("card_types", type_name, "fields", name),
                              f"'{name}' is a field of every card already (fields:)"))
    total = sum(len(fields) for _, fields in places)
    if total > MAX_FIELDS:
        found.append((("fields",), f"{total} fields declared in all; a game may declare at most {MAX_FIELDS}"))
    in_models = len(info.fields) * len(info.card_types or [None]) + total - len(info.fields)
    if in_models > MAX_MODEL_FIELDS:
        found.append((("card_types",), f"{len(info.fields)} fields of every card times {len(info.card_types or [])} "
                                       f"card types, with their own, make {in_models} fields; at most "
                                       f"{MAX_MODEL_FIELDS} (declare fewer card types, or move fields to the "
                                       f"types that have them)"))
    for where, fields in places:
        for name in fields:
            if not isinstance(name, str) or not FIELD_NAME.fullmatch(name):
                found.append((where + (name,), f"field name '{name}' must be lower-case letters, digits and _, "
                                               f"from a letter (at most 40)"))
            elif name in RESERVED_FIELDS:
                found.append((where + (name,), f"'{name}' is a field every card has already "
                                               f"({', '.join(sorted(RESERVED_FIELDS))}); choose another name"))
            elif name in TEMPLATE_NAMES:
                found.append((where + (name,), f"'{name}' names something else in a card template "
                                               f"({', '.join(sorted(TEMPLATE_NAMES))}); choose another name"))
    types = info.type_names()
    for kind, rules in (info.deck_rules or {}).items():
        only = rules.card_types.only if rules.card_types else []
        named = [(("card_types", "only", i), t) for i, t in enumerate(only)]
        named += [(("counts", t), t) for t in rules.counts]
        named += [(("copies", "by_type", t), t) for t in (rules.copies.by_type if rules.copies else {})]
        for where, card_type in named:
            if card_type not in types:
                found.append((("deck_rules", kind) + where, f"'{card_type}' is not a card type of this game "
                                                            f"(card types: {', '.join(types)})"))
    if info.title_field is not None:
        declared = info.fields.get(info.title_field)
        if declared is None:
            found.append((("title_field",), f"title_field '{info.title_field}' is not one of fields "
                                            f"(a field every card has)"))
        elif declared.type not in ("text", "rich_text", "one_of"):
            article = "an" if declared.type[0] in "aeiou" else "a"
            found.append((("title_field",), f"title_field '{info.title_field}' is {article} {declared.type} field; "
                                            f"a title is text (text, rich_text or one_of)"))
    if info.scoring is not None:
        found.extend(scoring_problems(info.scoring))
    return found
