"""The card schema of a declared game, made from its ``game.yaml`` (no Python of its own).

A game folder whose id is not a registered game (:func:`card_data.games.registry`) and whose
``game.yaml`` declares ``fields:`` (see :mod:`card_data.declared.field_declarations`) is a *declared
game*. :func:`declared_spec` turns its declaration into a :class:`DeclaredGameSpec`: one
pydantic model per card type (made with ``create_model``, subclasses of
:class:`DeclaredCard`), a discriminated union on ``type`` when there are several.

Every declared card has the fields of :class:`~card_data.schema.Card` (``id``, ``type``,
``title``, ``example``, ``assumed``, ``note``, ``art``, ``rulings``) and ``qty`` (copies
printed, 0-99, default 1), then the declared fields in their order. A declared field's label
and whether players see it travel on the pydantic field (``title`` and
``json_schema_extra={"players_see": ..., "field_type": ...}``), so code that knows no game
(the rulings page, errata) reads them there; :func:`players_see` and :func:`field_type` read
them back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    Strict,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    create_model,
    model_validator,
)
from pydantic.fields import FieldInfo

from card_data.declared.field_declarations import (
    DEFAULT_BOUND,
    DeclaredGameInfo,
    FieldDeclaration,
    declaration_problems,
)
from card_data.games import GAME_ID
from card_data.problems import Problem
from card_data.declared.deck_rules import check_deck_rules
from card_data.schema import Card, DeckEntry, DeckList, GameSpec
from card_data.reading.game_files import art_missing
from card_data.reading.yaml_source import LineMap

DEFAULT_MAX_LENGTH = 2000
"""A text field's most characters when it does not say ``max_length``."""

DEFAULT_MAX_ITEMS = 50
"""A list field's most items when it does not say ``max_items``."""

MAX_COPIES = 99
"""The most copies (``qty``) of one card a declared game prints."""


def _number_as_text(value: Any) -> Any:
    # `answer: 1945` is a number in YAML; the designer meant the text. `answer: No` is a
    # yes/no whose spelling is lost: only quotes keep it.
    if isinstance(value, bool):
        raise ValueError("this is yes/no in YAML (yes, no, true, false, on, off); for text, put it in quotes")
    if isinstance(value, (int, float)):
        return str(value)
    return value


def _not_yes_no(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("expected a number, not yes/no")
    return value


def _inside_game_folder(value: str) -> str:
    path = PurePosixPath(value.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or ":" in value:
        raise ValueError("a path inside the game's folder, relative to it (no .., not absolute)")
    return value


def _item_annotation(kind: str, decl: FieldDeclaration) -> Any:
    low = decl.min if decl.min is not None else -DEFAULT_BOUND
    high = decl.max if decl.max is not None else DEFAULT_BOUND
    if kind in ("text", "rich_text"):
        # The constraints first: the validator runs before them (a number, as text, is bounded too).
        return Annotated[str, StringConstraints(min_length=1, max_length=decl.max_length or DEFAULT_MAX_LENGTH),
                         BeforeValidator(_number_as_text)]
    if kind == "integer":
        return Annotated[int, Strict(), Field(ge=int(low), le=int(high))]
    if kind == "number":
        return Annotated[float, BeforeValidator(_not_yes_no), Field(ge=low, le=high, allow_inf_nan=False)]
    if kind == "yes_no":
        return Annotated[bool, Strict()]
    if kind == "one_of":
        return Literal[tuple(decl.options or ())]
    if kind == "art":
        return Annotated[str, Field(min_length=1, max_length=300), AfterValidator(_inside_game_folder)]
    if kind == "icon":
        return Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$", max_length=60)]
    raise AssertionError(kind)  # FieldType lists every kind above


def field_annotation(decl: FieldDeclaration) -> Any:
    """The type of a declared field's value (without ``None``), e.g. ``Annotated[int, ...]``."""
    if decl.type == "list":
        return Annotated[list[_item_annotation(decl.of, decl)],
                         Field(max_length=decl.max_items or DEFAULT_MAX_ITEMS)]
    return _item_annotation(decl.type, decl)


def players_see(info: FieldInfo) -> bool:
    """Whether a card field is shown to players (a declared field's ``players_see``; every
    field of a registered game's schema is)."""
    extra = info.json_schema_extra
    return not isinstance(extra, dict) or extra.get("players_see", True) is not False


def field_type(info: FieldInfo) -> str | None:
    """A declared field's type (``"text"``, ``"art"``...), ``None`` for a field of a
    registered game's schema or a base field."""
    extra = info.json_schema_extra
    return extra.get("field_type") if isinstance(extra, dict) else None


class DeclaredCard(Card):
    """Base of a declared game's card models: ``qty`` copies printed, the back and label of
    its card type, its title taken from the ``title_field`` where the game names one."""

    qty: Annotated[int, Strict(), Field(ge=0, le=MAX_COPIES)] = 1

    BACK: ClassVar[str] = "default"
    TYPE_LABEL: ClassVar[str] = "Card"
    TITLE_FIELD: ClassVar[str | None] = None

    @model_validator(mode="before")
    @classmethod
    def _title_from_field(cls, data: Any) -> Any:
        if (cls.TITLE_FIELD and isinstance(data, dict) and "title" not in data
                and isinstance(data.get(cls.TITLE_FIELD), (str, int, float))):
            return {**data, "title": _number_as_text(data[cls.TITLE_FIELD])}
        return data

    def back_kind(self) -> str:
        return self.BACK

    def glossary_text(self) -> str:
        """The card's text fields that players see (the companion's search and glossary terms
        read it: a ``players_see: false`` answer must not be found, nor its terms shown)."""
        return "\n".join(getattr(self, name) or "" for name, info in type(self).model_fields.items()
                         if field_type(info) in ("text", "rich_text") and players_see(info))


@dataclass(frozen=True, eq=False)
class DeclaredGameSpec(GameSpec):
    """A declared game's :class:`~card_data.schema.GameSpec`, with the ``game.yaml`` it was
    made from (``info``) and the line of each deck kind's ``deck_rules`` in it (``rule_lines``,
    kind -> line). Pickled as that declaration and made again on unpickling (its models are
    made at run time, so no import finds them)."""

    declared: ClassVar[bool] = True
    info: DeclaredGameInfo | None = None
    rule_lines: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_own_adapter", TypeAdapter(self.card_model))

    def card_adapter(self) -> TypeAdapter:
        # Not GameSpec's cache by id(): a made model may be freed and its id reused.
        return self._own_adapter  # type: ignore[attr-defined]

    def __reduce__(self) -> tuple:
        return _rebuilt, (self.game_id, self.info.model_dump_json())

    def card_models(self) -> dict[str, type[DeclaredCard]]:
        """Card type -> its model, in declaration order."""
        return self._models  # type: ignore[attr-defined]


@lru_cache(maxsize=8)
def _rebuilt(game_id: str, info_json: str) -> DeclaredGameSpec:
    # Once per process and declaration: a worker receives the spec with each deck it draws.
    spec, problems = declared_spec(game_id, DeclaredGameInfo.model_validate_json(info_json))
    assert spec is not None, problems  # it was made from the same declaration before
    return spec


def _model_name(game_id: str, card_type: str) -> str:
    words = f"{game_id}_{card_type}".replace("-", "_").split("_")
    return "".join(w[:1].upper() + w[1:] for w in words if w) + "Card"


def declared_spec(game_id: str, info: DeclaredGameInfo) -> tuple[DeclaredGameSpec | None, list[tuple[tuple, str]]]:
    """The spec of the declared game ``game_id`` whose ``game.yaml`` is ``info``.

    Returns ``(spec, [])``, or ``(None, problems)`` when the declaration is wrong in a way
    its models cannot say (see :func:`card_data.declared.field_declarations.declaration_problems`,
    and a ``default`` that its own field refuses): each problem a location in ``game.yaml``
    (``("fields", "difficulty", "default")``) and a message.
    """
    problems = declaration_problems(info)
    if problems:
        return None, problems
    models: dict[str, type[DeclaredCard]] = {}
    for card_type in info.type_names():
        where = ("fields",) if info.card_types is None else ("card_types", card_type, "fields")
        fields: dict[str, Any] = {}
        for name, decl in info.fields_of(card_type).items():
            at = ("fields", name) if name in info.fields else where + (name,)
            annotation = field_annotation(decl)
            extra = {"players_see": decl.players_see, "field_type": decl.type}
            label = decl.label_text(name)
            if decl.required or name == info.title_field:
                fields[name] = (annotation, Field(title=label, json_schema_extra=extra))
                continue
            default = None
            if decl.default is not None:
                try:
                    default = TypeAdapter(annotation).validate_python(decl.default)
                except ValidationError as exc:
                    wrong = (at + ("default",), f"the default does not fit the field: "
                                                f"{exc.errors(include_url=False)[0]['msg']}")
                    if wrong not in problems:  # a common field's, once, not once per card type
                        problems.append(wrong)
                    continue
            fields[name] = (annotation | None, Field(default, title=label, json_schema_extra=extra))
        kind = (Literal[card_type], card_type) if info.card_types is None else (Literal[card_type], ...)
        model = create_model(_model_name(game_id, card_type), __base__=DeclaredCard, __module__=__name__,
                             type=kind, **fields)
        model.BACK = info.back_of(card_type)
        model.TYPE_LABEL = info.type_label(card_type)
        model.TITLE_FIELD = info.title_field
        models[card_type] = model
    if problems:
        return None, problems
    members = list(models.values())
    card_model: Any = members[0] if len(members) == 1 else Annotated[Union[tuple(members)],
                                                                     Field(discriminator="type")]
    spec = DeclaredGameSpec(game_id, card_model, info=info)
    object.__setattr__(spec, "_models", models)
    return spec, []


def file_problems(card: Card, folder: Path) -> list[tuple[str, str]]:
    """``[(field, message)]`` for a declared card's ``art`` fields naming no file of the game
    folder ``folder`` and ``icon`` fields naming no ``icons/<name>.svg`` of it."""
    found = []
    for name, info in type(card).model_fields.items():
        value = getattr(card, name)
        if value is None:
            continue
        kind = field_type(info)
        if kind == "art" and not (folder / value).is_file():
            found.append((name, art_missing(folder, value)))
        elif kind == "icon" and not (folder / "icons" / f"{value}.svg").is_file():
            found.append((name, f"icon not found: icons/{value}.svg"))
    return found


def declared_spec_of(game_id: str, data: Any, lines: LineMap, path: Path, known: list[str]
                     ) -> tuple[DeclaredGameSpec | None, list[Problem]]:
    """The spec of the game ``game_id``, which is no registered game (``known``: the ids of
    those), from its ``game.yaml`` at ``path`` (read as ``data`` with its ``lines``).

    Returns ``(spec, [])``, or ``(None, problems)``: one problem at line 1 for a game.yaml
    declaring no ``fields:`` (or a folder name that is no game id), saying how to make the
    folder a game of one's own; else every problem of the declaration at its line.
    """
    where = str(path)
    if not isinstance(data, dict) or "fields" not in data or not GAME_ID.fullmatch(game_id):
        how = ("declare its cards' fields in its game.yaml (fields: name: {type: text}, ...)"
               if GAME_ID.fullmatch(game_id) else
               "name its folder with lower-case letters, digits and _ (from a letter) and declare its "
               "cards' fields in its game.yaml")
        return None, [Problem(where, 1, game_id, "-", "game", f"unknown game '{game_id}' (known: "
                                                              f"{', '.join(known)}); to make it a game of "
                                                              f"your own, {how}")]
    try:
        info = DeclaredGameInfo.model_validate(data)
    except ValidationError as exc:
        return None, Problem.from_validation_error(exc, data=data, file=where, lines=lines, game=game_id)
    spec, wrong = declared_spec(game_id, info)
    if spec is not None:
        spec.rule_lines.update({kind: lines.line_for(("deck_rules", kind)) for kind in info.deck_rules or {}})
    return spec, [Problem(where, lines.line_for(loc), game_id, "-", ".".join(str(part) for part in loc), message)
                  for loc, message in wrong]


def back_deck_problems(spec: DeclaredGameSpec, cards: Mapping[str, Card], decks: Mapping[str, DeckList],
                       sources: Mapping[tuple[str, str], tuple[str, int]], game_yaml: Path) -> list[Problem]:
    """The deck rules of each kind that names a back of the declared game (``deck_rules:
    question:`` with ``backs: question:``) applied to that back's cards, each counted ``qty``
    times (what the build prints), when no deck list is of that kind.

    ``cards``: the game's valid cards; ``sources``: where each card is written (the loader's
    ``("card", id) -> (file, line)``). A rule about the whole deck is a problem at the kind's
    line of ``game.yaml``; one about a card, at that card (field ``qty``). Never raises.
    """
    info = spec.info
    listed = {deck.kind for deck in decks.values()}
    found: list[Problem] = []
    for kind in info.deck_rules or {}:
        if kind not in info.backs or kind in listed:
            continue
        entries = [DeckEntry(card=card.id, qty=card.qty) for card in cards.values()
                   if card.back_kind() == kind and card.qty > 0]
        deck = DeckList(id=kind, title=info.backs[kind], kind=kind, cards=entries)
        why = f"(the cards with back '{kind}', each qty times, as no deck list is of kind '{kind}')"
        for prob in check_deck_rules(info.deck_rules, deck, cards):
            parts = prob.field.split(".")
            if len(parts) == 3:
                card_id = entries[int(parts[1])].card
                file, line = sources.get(("card", card_id), (str(game_yaml), 1))
                found.append(Problem(file, line, spec.game_id, card_id, "qty", f"{prob.message} {why}"))
            else:
                found.append(Problem(str(game_yaml), spec.rule_lines.get(kind, 1), spec.game_id, "-",
                                     f"deck_rules.{kind}", f"{prob.message} {why}"))
    return found
