"""Problems: one type for everything wrong with input, wherever it came from.

A :class:`Problem` names where to look (a file and line for data and templates, a field for
a request) and what is wrong. :meth:`Problem.from_validation_error` is the one translation of
a pydantic ``ValidationError`` into problems, used by the loader, the spreadsheet import, the
layout templates and the companion's API alike. Exceptions that carry problems derive from
:class:`ProblemsError`.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError

    from card_data.reading.yaml_source import LineMap

_MESSAGES = {"missing": "required field is missing", "extra_forbidden": "unknown field"}
"""pydantic's messages that read badly to a person who wrote the input, reworded."""

_SAID_OF_THE_VALUE = {"int_parsing": "is not a whole number", "int_type": "is not a whole number",
                      "int_from_float": "is not a whole number", "float_parsing": "is not a number",
                      "float_type": "is not a number", "bool_parsing": "is not yes or no (true or false)",
                      "bool_type": "is not yes or no (true or false)"}
"""pydantic's messages for a value written as text that cannot be read as the field's type,
said of the value itself (``'three' is not a whole number``)."""


def _read_as(given: Any) -> str:
    """What YAML (or JSON) made of a value, for a person who wrote it: ``a number (1984)``."""
    if given is None:
        return "nothing (the value is empty)"
    if isinstance(given, bool):
        return "yes-or-no (true/false)"
    if isinstance(given, (int, float)):
        return f"a number ({given})" if len(repr(given)) <= 30 else "a number"
    if isinstance(given, str):
        return f"text ({given!r})" if len(given) <= 60 else "text"
    if isinstance(given, (list, tuple)):
        return "a list"
    if isinstance(given, dict):
        return "'name: value' entries"
    return "something else"


def _not_text(given: Any) -> str:
    if given is None:
        return "is empty: write its text after the colon"
    if isinstance(given, (bool, int, float)):
        # YAML reads 1984, 1.10, yes and on as numbers and yes-or-no: quoting keeps the text as typed.
        return f"should be text, but it was read as {_read_as(given)}: put it in quotes to print it as typed"
    return f"should be text, but it was read as {_read_as(given)}"


def _not_list(given: Any) -> str:
    if given is None:
        return "is empty: write its items as a list, e.g. [a, b]"
    if isinstance(given, (str, int, float)) and not isinstance(given, bool):
        return f"should be a list, but it was read as one value, {_read_as(given)}: write it as a list, e.g. [a, b]"
    return f"should be a list, e.g. [a, b], but it was read as {_read_as(given)}"


def _not_entries(given: Any) -> str:
    return f"should be 'name: value' entries, but it was read as {_read_as(given)}"


def _not_date(given: Any) -> str:
    shown = f"{given!r} is not a date" if isinstance(given, str) and len(given) <= 60 else "is not a date"
    return f"{shown}: write it as YYYY-MM-DD (e.g. 2026-11-20)"


_SAID_OF_THE_SHAPE = {"string_type": _not_text, "list_type": _not_list, "dict_type": _not_entries,
                      "model_type": _not_entries, "model_attributes_type": _not_entries,
                      "date_type": _not_date, "date_parsing": _not_date, "date_from_datetime_parsing": _not_date,
                      "date_from_datetime_inexact": _not_date}
"""pydantic's messages for a value of the wrong shape ("Input should be a valid list"), said
as what the value was read as and how to write what the field takes."""


def _message(err: Any) -> str:
    """What is wrong, in the words of :data:`_MESSAGES`, else pydantic's; a card type (the
    tag of a discriminated union) that is not one of the schema's, or none at all, is said as
    for any other field rather than in pydantic's terms of tags and discriminators."""
    ctx = err.get("ctx") or {}
    if err["type"] == "union_tag_invalid" and "tag" in ctx:
        return f"{ctx['tag']!r} is not one of {ctx.get('expected_tags', '')}"
    if err["type"] == "union_tag_not_found":
        return _MESSAGES["missing"]
    given = err.get("input")
    if err["type"] in _SAID_OF_THE_VALUE and isinstance(given, str) and len(given) <= 60:
        return f"{given!r} {_SAID_OF_THE_VALUE[err['type']]}"
    if err["type"] == "value_error" and ctx.get("error") is not None:
        return str(ctx["error"])  # our own validators' words, without pydantic's "Value error, "
    if err["type"] in _SAID_OF_THE_SHAPE:
        return _SAID_OF_THE_SHAPE[err["type"]](given)
    if err["type"] == "string_pattern_mismatch" and isinstance(given, str) and len(given) <= 60:
        from card_data.model_base import SLUG_PATTERN

        if ctx.get("pattern") == SLUG_PATTERN:
            return f"{given!r} is not an id: lower-case letters and digits, words joined by hyphens (e.g. ship-1)"
    return _MESSAGES.get(err["type"], err["msg"])


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with some input.

    Attributes:
        file: path of the file it is in (``""`` for input that is not a file, e.g. a request).
        line: 1-based line in ``file`` nearest to the problem (0 without a file).
        game: game id, e.g. ``"carpe_cras"`` (``""`` when no game is concerned).
        card_id: card, deck or glossary id the problem belongs to (``"-"`` for none).
        field: dotted field path inside that record, e.g. ``"skills.0.power"`` (``"-"``: the
            whole record or file).
        message: what is wrong, in plain words.

    ``str(problem)`` is ``FILE:LINE: game/card-id: field: message``, leaving out the parts
    that do not apply (``FILE:LINE: field: message`` without a game, ``field: message``
    without a file).
    """

    file: str = ""
    line: int = 0
    game: str = ""
    card_id: str = "-"
    field: str = "-"
    message: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.file else ""
        record = f"{self.game}/{self.card_id}: " if self.game else ""
        return f"{where}{record}{self.field}: {self.message}"

    def at(self, **where: Any) -> Problem:
        """This problem with some of its attributes replaced, e.g. ``at(file=..., line=...)``."""
        return replace(self, **where)

    def as_json(self) -> dict[str, Any]:
        """``{"field", "message"}``, plus ``file`` and ``line`` when it has a file."""
        data: dict[str, Any] = {"field": self.field, "message": self.message}
        if self.file:
            data.update(file=self.file, line=self.line)
        return data

    @classmethod
    def from_validation_error(cls, exc: ValidationError, *, data: Any = None, file: str = "",
                              line: int = 0, lines: LineMap | None = None, base: tuple = (),
                              game: str = "", card_id: str = "-", prefix: str = "",
                              fields: Collection[str] = ()) -> list[Problem]:
        """Every error of ``exc`` as a problem, in pydantic's order.

        ``data``: the input that was validated; where given, the union tags pydantic puts
        into error locations (the tag value of the member it tried, e.g. ``unit``) are left
        out of the field path (see :func:`field_path`). ``lines`` (with ``base``, the
        location of ``data`` in its file) gives each problem the line of its field;
        otherwise every problem gets ``line``. ``prefix`` is put before every field path
        (e.g. ``"options"``). A failed discriminated union points at its tag field. ``fields``:
        the names ``data`` may hold (:func:`record_fields`); an unknown one close to one of them
        says which it likely meant.
        """
        problems = []
        for err in exc.errors(include_url=False):
            loc = field_path(data, err["loc"]) if data is not None else tuple(err["loc"])
            if err["type"] in ("union_tag_invalid", "union_tag_not_found"):
                loc = loc + (str(err.get("ctx", {}).get("discriminator", "type")).strip("'"),)
            dotted = ".".join(str(p) for p in (prefix, *loc) if p != "") or "-"
            where = lines.line_for(base + loc) if lines is not None else line
            message = _message(err)
            if err["type"] == "extra_forbidden" and len(loc) == 1 and fields:
                likely = difflib.get_close_matches(str(loc[0]), list(fields), n=1, cutoff=0.75)
                if likely:
                    message += f" (did you mean '{likely[0]}'?)"
            problems.append(cls(file, where, game, card_id, dotted, message))
        return problems


def record_fields(adapter: Any, data: Any) -> list[str]:
    """The top-level field names a record ``data`` may hold under the pydantic ``adapter`` (a
    ``TypeAdapter``), read from its JSON schema: for a union tagged on ``type``, those of the
    member ``data``'s ``type`` names. ``[]`` where they cannot be told. Meant for an error's
    path only: the schema is made anew each call."""
    try:
        schema = adapter.json_schema()
    except Exception:  # noqa: BLE001 - a schema pydantic cannot write: no suggestion, not an error
        return []
    mapping = (schema.get("discriminator") or {}).get("mapping") or {}
    if mapping:
        ref = mapping.get(data.get("type")) if isinstance(data, dict) else None
        if not isinstance(ref, str):
            return []
        schema = schema.get("$defs", {}).get(ref.rsplit("/", 1)[-1], {})
    elif "$ref" in schema:
        schema = schema.get("$defs", {}).get(schema["$ref"].rsplit("/", 1)[-1], {})
    return list(schema.get("properties", {}))


def field_path(data: Any, loc: Sequence[str | int]) -> tuple[str | int, ...]:
    """An error location as a path into ``data``, union tags left out.

    pydantic's location of an error inside a discriminated union includes the tag value of
    the member it tried (``("skills", 0, "unit", "power")``); that part names no field of
    the input. Walking ``data`` along ``loc`` tells the two apart: a part that is neither a
    key nor an index of the node reached, but one of its string values, is such a tag.
    """
    out: list[str | int] = []
    node = data
    for i, part in enumerate(loc):
        if isinstance(node, dict):
            tag = i < len(loc) - 1 and part in {v for v in node.values() if isinstance(v, str)}
            # A tag may also be a key ("text" of a region whose kind is text): the path goes
            # on into the key's value only if that value can hold fields.
            if part in node and not (tag and not isinstance(node[part], (dict, list, tuple))):
                out.append(part)
                node = node[part]
                continue
            if tag:
                continue
            out.append(part)
            node = None
        elif isinstance(node, (list, tuple)) and isinstance(part, int) and 0 <= part < len(node):
            out.append(part)
            node = node[part]
        else:
            out.append(part)
            node = None
    return tuple(out)


class ProblemsError(Exception):
    """An error that carries the :class:`Problem` list behind it (``problems``, at least one).

    ``str(error)`` is one problem a line.
    """

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class DatabaseError(ProblemsError):
    """A card database has problems; ``problems`` lists every one of them, sorted."""

    def __init__(self, problems: Sequence[Problem]):
        super().__init__(sorted(problems))


class InvalidInput(ProblemsError):
    """Input that is not well-formed (an unknown field, a wrong type, an unknown event type):
    ``message`` says what was being read, ``problems`` what is wrong with it."""

    def __init__(self, message: str, problems: Sequence[Problem] = ()):
        self.message = message
        super().__init__(problems)
        self.args = (message if not self.problems else f"{message}: " + "; ".join(str(p) for p in self.problems),)
