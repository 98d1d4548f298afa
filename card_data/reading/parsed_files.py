"""One card file read and validated, or taken from a cache of files read before.

Reading a card file costs YAML composing and constructing (remembering lines, bounded:
:mod:`card_data.reading.yaml_source`) and a pydantic validation per card, about a fifth of a
millisecond a card. A build that follows its database's edits (``printkit build`` again, or
``--watch``) reads files that mostly did not change, so the loader can be given a
:class:`ParsedFiles` store: a file that read cleanly (every record a valid card, no problem of
its own) is remembered under a digest of its bytes, of the game's schema and of the limits in
force, as the validated cards' JSON and the lines the loader names in its problems; read again
with the same digest, its cards are validated from that JSON (as :class:`~card_data.reading.card_store.CardStore`
does on every read) without parsing the YAML. A file with any problem is never remembered, so
its problems are always found afresh, at ``FILE:LINE``.

The checks across records (duplicate ids across files, artwork files that must exist, rulings
naming other cards) are not cached: the loader runs them on every card, from either path.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pydantic import TypeAdapter, ValidationError

from card_data.project.limits import FileTooLarge, Limits, read_limited
from card_data.problems import record_fields
from card_data.schema import Card
from card_data.reading.yaml_records import Collector, load_list, record_id
from card_data.reading.yaml_source import LineMap

FORMAT = 1
"""Part of every key: bumped when what is remembered changes shape or meaning."""


class ParsedFiles(Protocol):
    """Where the loader remembers card files that read cleanly: any store of bytes by key (a
    64-hex-digit digest). ``get`` returns ``None`` for a key it does not hold (or cannot read);
    ``put`` may drop what it is given (the store is bounded). ``code(game_id)`` is a digest of
    the code a game's cards are validated with (its schema, this loader, pydantic's version): a
    change to it must change the keys."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, value: bytes) -> None: ...

    def code(self, game_id: str) -> str: ...


@dataclass
class CardEntry:
    """One record of a card file: ``card`` (``None`` when it is not a valid card), its ``rid``
    (:func:`card_data.reading.yaml_records.record_id`), whether its ``id`` is a string, and where it is
    (``lines`` of the whole file, ``base`` the record's location in it). ``json``: the card's
    ``model_dump_json()`` in UTF-8 when it was made or read here (for
    :meth:`~card_data.reading.card_store.CardStore.add`), else ``None``."""

    rid: str
    has_id: bool
    card: Card | None
    lines: LineMap
    base: tuple
    json: bytes | None = None


def _kept_lines(item: dict, lines: LineMap, base: tuple) -> list[list]:
    """The lines of ``item`` (at ``base``) that the loader may name for a valid card, relative to
    the record: the record, each of its fields, its rulings and the cards they name."""
    wanted: list[tuple] = [()] + [(key,) for key in item if isinstance(key, str)]
    rulings = item.get("rulings")
    if isinstance(rulings, list):
        for j, ruling in enumerate(rulings):
            wanted += [("rulings", j), ("rulings", j, "id"), ("rulings", j, "cards")]
            named = ruling.get("cards") if isinstance(ruling, dict) else None
            if isinstance(named, list):
                wanted += [("rulings", j, "cards", k) for k in range(len(named))]
    return [[list(loc), lines.line_for(base + loc)] for loc in wanted]


def file_key(game_id: str, salt: str, limits: Limits, raw: bytes) -> str:
    """The key of a card file's records: its bytes, its game and ``salt`` (what the game's schema
    and the loader are: the caller's digest of that code and of ``game.yaml``) and the limits."""
    h = hashlib.sha256(f"parsed {FORMAT}\0{game_id}\0{salt}\0{limits!r}\0".encode())
    h.update(raw)
    return h.hexdigest()


def read_card_file(path: Path, col: Collector, adapter: TypeAdapter, parsed: ParsedFiles | None = None,
                   salt: str = "") -> tuple[list[CardEntry], bool]:
    """The records of the card file at ``path`` (a YAML list of cards) and whether they are every
    record of the file (``False`` when it could not be read or parsed, or holds something other
    than mappings). Problems go to ``col``, located at ``FILE:LINE``.

    With ``parsed`` (and ``salt``, see :func:`file_key`): a file remembered there is not parsed
    again; a file read without any problem is remembered.
    """
    raw = None
    key = None
    if parsed is not None:
        try:
            raw = read_limited(path, col.limits)
        except (FileTooLarge, OSError):
            raw = None  # read again below, which reports why
        if raw is not None:
            key = file_key(col.game_id, salt, col.limits, raw)
            entries = _from_cache(parsed.get(key), adapter)
            if entries is not None:
                return entries, True
    before = len(col.problems)
    items, complete = load_list(path, col, "cards", raw=raw)
    entries, kept = [], []
    for item, lines, base in items:
        rid = record_id(item)
        try:
            card = adapter.validate_python(item)
        except ValidationError as exc:
            unknown = any(e["type"] == "extra_forbidden" for e in exc.errors(include_url=False))
            col.pydantic(path, lines, base, rid, exc, data=item, fields=record_fields(adapter, item) if unknown else ())
            card = None
        data = card.model_dump_json().encode() if key is not None and card is not None else None
        entries.append(CardEntry(rid, isinstance(item.get("id"), str), card, lines, base, data))
        if data is not None:
            kept.append(([list(base), rid, _kept_lines(item, lines, base)], data))
    if key is not None and complete and len(col.problems) == before and all(e.card and e.has_id for e in entries):
        # One line of where each card is, then each card's JSON on a line of its own (JSON
        # escapes line breaks), which pydantic validates from the bytes as they are.
        parsed.put(key, b"\n".join([json.dumps([where for where, _ in kept]).encode()] + [data for _, data in kept]))
    return entries, complete


def _from_cache(value: bytes | None, adapter: TypeAdapter) -> list[CardEntry] | None:
    """Entries from what :func:`read_card_file` remembered; ``None`` if it does not read (then
    the file is parsed again)."""
    if not isinstance(value, bytes):
        return None
    try:
        head, *cards = value.split(b"\n")
        where = json.loads(head)
        if not isinstance(where, list) or len(where) != len(cards):
            return None
        entries = []
        for (base, rid, kept), data in zip(where, cards):
            lines = LineMap()
            base = tuple(base)
            for loc, line in kept:
                lines.record(base + tuple(loc), int(line))
            card = adapter.validate_json(data)
            if card.id != rid:
                return None
            entries.append(CardEntry(rid, True, card, lines, base, data))
        return entries
    except (ValueError, TypeError, ValidationError):
        return None
