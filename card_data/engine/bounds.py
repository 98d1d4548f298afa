"""Bounded numbers: every number an event takes from the players has a lowest and a highest value.

An event's numbers come from phones and from the JSON API, and they are stored in the table's
log: a number without bounds (a VP change of 10**309) would be stored, then break every later
sum, float or page of the table. So an event's integer fields are typed :data:`Bounded`
(``Bounded[0, 99]``: an ``int`` from 0 to 99), or :data:`~card_data.engine.Seat` (itself
bounded), and :meth:`~card_data.engine.Engine.event` refuses to register an event class with a
number that lacks either bound (:func:`unbounded_numbers`). The bounds come from the rules
where they give one (cite the section where the field is declared), a sane value elsewhere.

pydantic checks them when an event is parsed (a value out of bounds is an
:class:`~card_data.problems.InvalidInput` naming the field and the bound), the JSON schema and
so the API's OpenAPI document show them as ``minimum``/``maximum``, and forms give number
inputs their ``min``/``max`` (:func:`card_data.engine.forms.derive_field`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any

import annotated_types


class Bounded:
    """``Bounded[low, high]``: the type of an integer field from ``low`` to ``high``, both included.

    It is ``Annotated[int, Ge(low), Le(high)]``, so it combines with ``Field(...)`` (a title, a
    default), ``| None`` and containers like any annotated int. Raises ``TypeError`` for bounds
    that are not two integers with ``low <= high``.
    """

    def __class_getitem__(cls, bounds: tuple[int, int]) -> Any:
        if (not isinstance(bounds, tuple) or len(bounds) != 2
                or not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds) or bounds[0] > bounds[1]):
            raise TypeError(f"Bounded takes [low, high], two integers with low <= high, not {bounds!r}")
        low, high = bounds
        return Annotated[int, annotated_types.Ge(low), annotated_types.Le(high)]


_LOW = ("minimum", "exclusiveMinimum")
_HIGH = ("maximum", "exclusiveMaximum")


def unbounded_numbers(schema: Mapping[str, Any]) -> list[str]:
    """Every integer or number in the JSON schema ``schema`` (a model's
    ``model_json_schema()``) that lacks a lower or an upper bound, as ``"path: no maximum"``
    lines; empty when every number is bounded. A number given as a list of values (``enum``,
    ``const``: a ``Literal``) is bounded by them.

    Nested models (``$ref`` into ``$defs``), unions and optionals (``anyOf``/``oneOf``/``allOf``),
    arrays and tuples (``items``, ``prefixItems``) and mappings (``additionalProperties``) are
    followed; a path names them as ``field``, ``field[]`` (an array's items), ``field{}`` (a
    mapping's values).
    """
    defs = schema.get("$defs", {})
    out = []
    for path, node in _numbers(schema, defs, "", set()):
        if "enum" in node or "const" in node:  # a Literal[1, 3, 5] is bounded by its values
            continue
        missing = [name for name, keys in (("minimum", _LOW), ("maximum", _HIGH)) if not any(k in node for k in keys)]
        if missing:
            out.append(f"{path or '(the value)'}: no {' and no '.join(missing)}")
    return out


def _numbers(node: Mapping[str, Any], defs: Mapping[str, Any], path: str, seen: set[str]) \
        -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(path, schema)`` of every integer or number schema inside ``node``."""
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if name in seen or name not in defs:  # a recursive model is walked once
            return
        yield from _numbers(defs[name], defs, path, seen | {name})
    kinds = node.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    if kinds & {"integer", "number"}:
        yield path, node
    for key in ("anyOf", "oneOf", "allOf"):
        for option in node.get(key, ()):
            yield from _numbers(option, defs, path, seen)
    for i, item in enumerate(node.get("prefixItems", ())):
        yield from _numbers(item, defs, f"{path}[{i}]", seen)
    if isinstance(node.get("items"), Mapping):
        yield from _numbers(node["items"], defs, f"{path}[]", seen)
    for name, field in node.get("properties", {}).items():
        yield from _numbers(field, defs, f"{path}.{name}" if path else name, seen)
    if isinstance(node.get("additionalProperties"), Mapping):
        yield from _numbers(node["additionalProperties"], defs, f"{path}{{}}", seen)
