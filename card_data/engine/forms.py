"""Forms from events: what a page needs to let a player enter an event, and nothing more.

An event class offers :class:`Move` objects (:meth:`card_data.engine.Event.moves`): the
event, who makes it, the values the rules fix (hidden), and a :class:`FormField` for each
value the player chooses, with the legal :class:`Choice` list where the rules narrow it
(the lanes with room, the cards still in hand, the free circles). Fields the rules leave
open are derived from the event's pydantic fields: their type, bounds, default, ``title``
(the label) and ``description`` (the help). A page renders these generically: no rule
knowledge lives in its HTML.

Every text here (labels, help, hints, notes) is kept as given, so that a
:class:`~card_data.engine.wording.Words` reaches the page, which says it in the player's
language; a text derived from a name or a value (a field without a ``title``, a ``Literal``
without ``labels``) is a plain ``str`` and shows as written.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from card_data.engine.seats import SEAT
from card_data.engine.wording import Words

NONE_LABEL = Words("None")
"""What the empty choice of a field that may be left without a value says, unless its
definition says better (``json_schema_extra={"none_label": ...}``)."""

FieldKind = Literal["choice", "multi", "number", "text", "flag"]
"""``choice``: pick one of ``choices``; ``multi``: pick ``count`` (or any number) of them;
``number``: an integer within ``minimum``/``maximum``; ``text``; ``flag``: yes or no."""


@dataclass(frozen=True)
class Choice:
    """One legal value of a field: ``value`` (what is sent) and ``label`` (what people read),
    with an optional ``note`` (e.g. ``"3 reserves"``)."""

    value: Any
    label: str
    note: str = ""


def choices(pairs: Iterable[tuple[Any, str]] | Iterable[Any]) -> tuple[Choice, ...]:
    """:class:`Choice` objects from ``(value, label)`` pairs, or from plain values (their own
    labels). A label that is a ``str`` (a :class:`~card_data.engine.wording.Words` too) is
    kept as it is; anything else is written with ``str``."""
    out = []
    for item in pairs:
        if isinstance(item, Choice):
            out.append(item)
        elif isinstance(item, tuple) and len(item) == 2:
            out.append(Choice(item[0], _text(item[1])))
        else:
            out.append(Choice(item, _text(item)))
    return tuple(out)


def _text(value: Any) -> str:
    # str() of a Words would give a plain str, losing the message a page translates.
    return value if isinstance(value, str) else str(value)


@dataclass(frozen=True)
class FormField:
    """One input of a form.

    ``name``: the event field; ``kind``: see :data:`FieldKind`; ``required``: the event needs
    a value; ``default``: the value to show first; ``minimum``/``maximum``: a number's (or each number of a ``multi``'s)
    bounds; ``count``: how many a ``multi`` field takes (``None``: any), ``item_labels`` what
    each of them is (e.g. the players' names for dice by seat) and ``item_choices``, where
    they differ, each one's own choices (e.g. each player's hand); ``item_kind`` whether a
    ``multi`` field without choices takes numbers or text; ``help``: one line of explanation.

    ``blank``: what the input left empty stands for (the event's own default, which it takes
    when the form sends nothing; or, given to :func:`offer`, what the event reads "nothing
    sent" as, e.g. a count left as it is): a page shows it as the empty input's placeholder
    rather than as a value to type over. ``None``: an empty input stands for no value.
    ``none_label``: for a choice that may be left without a value, what leaving it means
    (e.g. "None", "Both armies"), offered as the empty choice; empty for a choice that always
    has a value (a page offers no empty choice then).
    """

    name: str
    label: str
    kind: FieldKind
    choices: tuple[Choice, ...] = ()
    required: bool = True
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    count: int | None = None
    item_labels: tuple[str, ...] = ()
    item_choices: tuple[tuple[Choice, ...], ...] = ()
    item_kind: Literal["number", "text"] = "number"
    help: str = ""
    blank: Any = None
    none_label: str = ""

    def choices_of(self, item: int) -> tuple[Choice, ...]:
        """The choices of item ``item`` of a ``multi`` field (``item_choices``, else ``choices``)."""
        return self.item_choices[item] if item < len(self.item_choices) else self.choices


@dataclass(frozen=True)
class Move:
    """An event the rules allow now, as a form.

    ``event``: the event class (a :class:`card_data.engine.Event`); ``label``: what its button says; ``seat``: the player who
    makes it (``None``: anyone at the table); ``fixed``: values the rules set (sent as they
    are); ``fields``: what the player fills in; ``hint``: a short line shown with it.
    """

    event: type[BaseModel]
    label: str
    seat: int | None
    fixed: Mapping[str, Any] = field(default_factory=dict)
    fields: tuple[FormField, ...] = ()
    hint: str = ""

    @property
    def type_name(self) -> str:
        """The event's stored name (the form's ``type``)."""
        return self.event.type_name

    def field(self, name: str) -> FormField | None:
        """The field ``name``, if the player fills it in."""
        return next((f for f in self.fields if f.name == name), None)

    def for_seat(self, seat: int) -> Move | None:
        """This move as player ``seat`` sees it: ``None`` if it is another player's; a free
        choice of ``seat`` narrowed to them (``None`` if they are not among the choices)."""
        if self.seat is not None:
            return self if self.seat == seat else None
        chooser = self.field("seat")
        if chooser is None:
            return self
        if chooser.choices and seat not in {c.value for c in chooser.choices}:
            return None
        return _with(self, seat=seat, fixed={**self.fixed, "seat": seat},
                       fields=tuple(f for f in self.fields if f.name != "seat"))


@dataclass(frozen=True)
class Counter:
    """A number players change by hand, shown big with a − and a + button: ``label``, the
    ``value`` now, whose it is (``seat``, or ``None`` for the table), and the moves the two
    buttons make (each fully fixed, so one tap is one event; ``None`` where the rules allow
    none now). ``step`` is how much one tap changes it."""

    label: str
    value: float
    seat: int | None
    minus: Move | None
    plus: Move | None
    step: int = 1


def offer(cls: type[BaseModel], state: Any, *, label: str | None = None, seat: int | None = None, hint: str = "",
          defaults: Mapping[str, Any] | None = None, blanks: Mapping[str, Any] | None = None,
          **values: Any) -> Move:
    """A :class:`Move` for event class ``cls`` on ``state``.

    ``seat``: the player who makes the move; it also fixes the event's ``seat`` field.
    ``hint``: a short line shown with the form (the move's ``hint``).
    ``values``, by field name: a sequence of :class:`Choice` (or ``(value, label)`` pairs)
    makes that field a choice among them; a :class:`FormField` is used as it is; anything
    else fixes the field to that value. Every other field becomes an input derived from its
    pydantic definition. ``defaults`` pre-fills inputs; ``blanks`` says, by field, what an
    input left empty stands for where the event reads "nothing sent" as a value of the state
    (e.g. a count left as it is), shown as the empty input's placeholder. A given
    :class:`FormField` takes the bounds it lacks, its ``blank`` and its ``none_label`` from
    the event's definition, so that a page shows every number's range and every empty value's
    meaning however the field was made.
    """
    fixed: dict[str, Any] = {}
    if seat is not None and "seat" in cls.model_fields:
        fixed["seat"] = seat
    given: dict[str, FormField] = {}
    for name, value in values.items():
        if name not in cls.model_fields:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
        if isinstance(value, FormField):
            given[name] = _completed(value, derive_field(cls, name, state))
        elif _is_choice_list(value):
            derived = derive_field(cls, name, state)
            kind = "multi" if derived.kind == "multi" else "choice"
            given[name] = _with(derived, kind=kind, choices=choices(value))
        else:
            fixed[name] = value
    fields = []
    for name in cls.model_fields:
        if name in fixed:
            continue
        form_field = given.get(name) or derive_field(cls, name, state)
        if defaults and name in defaults:
            form_field = _with(form_field, default=defaults[name])
        if blanks and name in blanks:
            form_field = _with(form_field, blank=blanks[name])
        fields.append(form_field)
    return Move(cls, label or cls.label, seat, fixed, tuple(fields), hint)


def _completed(given: FormField, derived: FormField) -> FormField:
    """``given`` with what the event's definition (``derived``) says and it does not."""
    return _with(given, minimum=derived.minimum if given.minimum is None else given.minimum,
                   maximum=derived.maximum if given.maximum is None else given.maximum,
                   blank=derived.blank if given.blank is None else given.blank,
                   none_label=given.none_label or (derived.none_label if not given.required else ""))


def _with(value: _Form, **changes: Any) -> _Form:
    """``value`` (a :class:`Choice`, :class:`FormField` or :class:`Move`) with ``changes``, as
    :func:`dataclasses.replace` makes it, without working out the class's fields at each call:
    a table's forms are offered again at every entry, and a form's fields are replaced dozens of
    times. Raises ``TypeError`` for a name that is no field."""
    names = _FIELD_NAMES.get(type(value))
    if names is None:
        names = _FIELD_NAMES[type(value)] = frozenset(f.name for f in fields(value))
    if not names.issuperset(changes):
        raise TypeError(f"{type(value).__name__} has no field {sorted(set(changes) - names)}")
    made = object.__new__(type(value))
    made.__dict__.update(value.__dict__, **changes)  # frozen: no __setattr__; nothing is derived
    return made


_Form = TypeVar("_Form", "Choice", "FormField", "Move")
_FIELD_NAMES: dict[type, frozenset[str]] = {}


def seat_moves(moves: Iterable[Move], seat: int) -> list[Move]:
    """``moves`` as player ``seat`` sees them (:meth:`Move.for_seat`): another player's left
    out, a free choice of seat narrowed to them."""
    return [narrowed for move in moves if (narrowed := move.for_seat(seat)) is not None]


def _is_choice_list(value: Any) -> bool:
    if not isinstance(value, (list, tuple)) or not value:  # an empty tuple is a fixed (empty) value
        return False
    return all(isinstance(item, Choice) or (isinstance(item, tuple) and len(item) == 2) for item in value)


def derive_field(cls: type[BaseModel], name: str, state: Any) -> FormField:
    """The input for field ``name`` of ``cls`` from its pydantic definition: a seat is a
    choice of the players' names, a ``Literal`` a choice of its values, a list of them a
    ``multi``; ``bool`` a flag; ``int`` a number within its bounds; anything else text.

    A field that may be ``None`` (its default) gets the ``none_label`` its definition gives
    (``json_schema_extra={"none_label": Words(...)}``), else "None"; a field with a default
    gets it as its ``blank``.

    What a definition gives is worked out once per class and field (the forms of a table are
    offered again at every entry); only a seat's choices are the ``state``'s players."""
    key = (cls, name)
    kept = _DERIVED.get(key)
    if kept is None:
        kept = _derive_field(cls, name)
        if isinstance(kept[0].default, _IMMUTABLE) and len(_DERIVED) < DERIVED_KEPT:
            _DERIVED[key] = kept
    form_field, of_seats = kept
    return _with(form_field, choices=choices(state.seat_choices())) if of_seats else form_field


DERIVED_KEPT = 4096
"""Fields of event classes whose derived inputs are kept (a game has a few dozen)."""

_DERIVED: dict[tuple[type, str], tuple[FormField, bool]] = {}
_IMMUTABLE = (type(None), bool, int, float, str, tuple, frozenset)
"""Defaults a kept input may share between forms (a list default is derived each time)."""


def _derive_field(cls: type[BaseModel], name: str) -> tuple[FormField, bool]:
    """:func:`derive_field` but for the seats' choices, and whether the field takes them."""
    info = cls.model_fields[name]
    label = info.title or name.replace("_", " ").capitalize()
    annotation, optional = _unwrap_optional(info.annotation)
    required = info.is_required()
    default = None if info.is_required() else info.get_default(call_default_factory=True)
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    none_label = extra.get("none_label", NONE_LABEL) if optional or (not required and default is None) else ""
    common = dict(name=name, label=label, required=required and not optional, default=default,
                  help=info.description or "", blank=default, none_label=none_label)
    metadata = _flat([*info.metadata, *getattr(annotation, "__metadata__", ())])
    base = typing.get_origin(annotation) is typing.Annotated and typing.get_args(annotation)[0] or annotation
    if SEAT in metadata:
        return FormField(kind="choice", **common), True
    if typing.get_origin(base) is Literal:
        labels = extra.get("labels", {})
        return FormField(kind="choice", choices=tuple(Choice(v, labels.get(v, _words(v))) for v in typing.get_args(base)),
                         **common), False
    if typing.get_origin(base) in (list, tuple):
        items = typing.get_args(base)
        item = items[0]
        item_base = typing.get_origin(item) is typing.Annotated and typing.get_args(item)[0] or item
        options = tuple(Choice(v, _words(v)) for v in typing.get_args(item_base)) \
            if typing.get_origin(item_base) is Literal else ()
        fixed_arity = typing.get_origin(base) is tuple and Ellipsis not in items
        count = len(items) if fixed_arity else _length(metadata)
        of_seats = SEAT in getattr(item, "__metadata__", ())
        item_kind = "number" if item_base is int else "text"
        item_metadata = _flat(list(getattr(item, "__metadata__", ())))
        low = next((m.ge for m in item_metadata if isinstance(m, annotated_types.Ge)), None)
        high = next((m.le for m in item_metadata if isinstance(m, annotated_types.Le)), None)
        return FormField(kind="multi", choices=() if of_seats else options, count=count, item_kind=item_kind,
                         minimum=low, maximum=high, **common), of_seats
    if base is bool:
        return FormField(kind="flag", **{**common, "required": False, "default": bool(default), "none_label": ""}), False
    if base is int:
        low = next((m.ge for m in metadata if isinstance(m, annotated_types.Ge)), None)
        high = next((m.le for m in metadata if isinstance(m, annotated_types.Le)), None)
        return FormField(kind="number", minimum=low, maximum=high, **common), False
    return FormField(kind="text", **common), False


def _flat(metadata: list) -> list:
    """``metadata`` with the constraints of a nested ``Field(ge=..., le=...)`` (a type such as
    ``Annotated[int, Field(ge=1, le=6)]``) among them."""
    out = []
    for item in metadata:
        out.append(item)
        out.extend(_flat(list(getattr(item, "metadata", ()) or ())) if isinstance(item, FieldInfo) else ())
    return out


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


def _length(metadata: list) -> int | None:
    low = next((m.min_length for m in metadata if isinstance(m, annotated_types.MinLen)), None)
    high = next((m.max_length for m in metadata if isinstance(m, annotated_types.MaxLen)), None)
    return low if low is not None and low == high else None


def _words(value: Any) -> str:
    return str(value).replace("_", " ").capitalize() if isinstance(value, str) else str(value)
