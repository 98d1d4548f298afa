"""Stable ruling ids: what a translation names a ruling by, and a ruling's link anchor.

A ruling may be given an ``id:`` (a slug, unique within its game). One without is given a
derived id: the id of the card holding it (``game`` for ``rulings.yaml``), a hyphen and the
first 8 hex digits of the SHA-256 of its English text, spacing normalised (e.g.
``a-two-herbs-3f9c2d1a``). It does not depend on the ruling's place, so inserting, removing
or reordering other rulings leaves it alone; editing the ruling's own text changes it, on
purpose: a translation of the old text then names an id no ruling has, and is reported as
stale instead of being shown beside words it no longer translates.

Two rulings of one holder with the same text get ``-2``, ``-3``... after the second, third
(in file order). The same ruling written identically on several cards (with a YAML anchor)
may carry one written id: it is one ruling.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only named in annotations: a build that draws nothing need not import the schemas
    from card_data.schema import Ruling

GAME_RULINGS_HOLDER = "game"
"""What a derived id of a ``rulings.yaml`` ruling starts with, in place of a card id."""

Placement = tuple[str | None, int]
"""Where a ruling is written: ``(card id, index)`` for ``cards[card id].rulings[index]``,
``(None, index)`` for ``rulings.yaml``'s."""


def derived_ruling_id(holder: str | None, text: str) -> str:
    """The id of a ruling without a written one, before any ``-2`` for a repeated text:
    ``<holder>-<8 hex digits>``, ``holder`` being the card id (``None``: ``rulings.yaml``, ``game``)."""
    digest = hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:8]
    return f"{holder or GAME_RULINGS_HOLDER}-{digest}"


@dataclass(frozen=True)
class WrittenRuling:
    """A loaded ruling and where it is written, for :func:`assign_ruling_ids`.

    Attributes:
        placement: see :data:`Placement`.
        ruling: the ruling.
        file: the YAML file it is in.
        line: 1-based line of its ``id:`` (of the ruling when it has none).
        record: the record problems about it name (the card id, ``ruling-<n>`` in ``rulings.yaml``).
        field: the field path of its ``id`` in that record (``rulings.2.id``, ``id``).
    """

    placement: Placement
    ruling: Ruling
    file: str
    line: int
    record: str
    field: str


def _same_ruling(a: Ruling, b: Ruling) -> bool:
    return a.model_dump() == b.model_dump()


def assign_ruling_ids(rulings: list[WrittenRuling]) -> tuple[dict[Placement, str],
                                                            list[tuple[WrittenRuling, str]]]:
    """Every ruling's id: ``({placement: id}, problems)``, each problem ``(ruling, message)``
    about a written id already taken by a different ruling (another written id or a derived
    one). The later ruling (in the given order) is the one reported; it keeps its id, so a
    translation still finds one of them while the data is being fixed."""
    ids: dict[Placement, str] = {}
    owner: dict[str, WrittenRuling] = {}
    problems: list[tuple[WrittenRuling, str]] = []
    written = [w for w in rulings if w.ruling.id is not None]
    for w in written:
        rid = w.ruling.id
        first = owner.get(rid)
        if first is not None and not _same_ruling(first.ruling, w.ruling):
            problems.append((w, f"duplicate ruling id '{rid}': {first.file}:{first.line} gives it to another "
                                f"ruling; a ruling's id is unique within its game"))
        owner.setdefault(rid, w)
        ids[w.placement] = rid
    seen: dict[str, int] = {}
    for w in rulings:
        if w.ruling.id is not None:
            continue
        base = derived_ruling_id(w.placement[0], w.ruling.text)
        seen[base] = seen.get(base, 0) + 1
        rid = base if seen[base] == 1 else f"{base}-{seen[base]}"
        if rid in owner and owner[rid].ruling.id is not None:
            first = owner[rid]
            problems.append((first, f"ruling id '{rid}' is the derived id of the ruling at {w.file}:{w.line}; "
                                    f"choose another"))
        owner.setdefault(rid, w)
        ids[w.placement] = rid
    return ids, problems


class RulingIds(Mapping[Placement, str]):
    """Every ruling's id by where it is written (:data:`Placement` -> id), kept compact: a
    tuple of ids per card (``None`` where an index has none), where a dict would keep a
    ``(card id, index)`` tuple and a slot per ruling (about 1 MiB more at 10,000 cards, held
    for as long as the database is loaded). A mapping like that dict: reading a placement it
    does not hold raises ``KeyError``; iteration gives card by card, index by index. Picklable.

    ``ids``: what :func:`assign_ruling_ids` returns (or any mapping of placements to ids).
    """

    __slots__ = ("_by_holder", "_len")

    def __init__(self, ids: Mapping[Placement, str] | None = None) -> None:
        indexed: dict[str | None, dict[int, str]] = {}
        for (holder, index), rid in (ids or {}).items():
            if not isinstance(index, int) or index < 0:
                raise ValueError(f"a ruling's placement has an index from 0, not {index!r}")
            indexed.setdefault(holder, {})[index] = rid
        self._by_holder: dict[str | None, tuple[str | None, ...]] = {
            holder: tuple(found.get(i) for i in range(max(found) + 1)) for holder, found in indexed.items()}
        self._len = sum(len(found) for found in indexed.values())

    def __getitem__(self, placement: Placement) -> str:
        try:
            holder, index = placement
            rid = self._by_holder[holder][index] if isinstance(index, int) and index >= 0 else None
        except (KeyError, IndexError, TypeError, ValueError):
            rid = None
        if rid is None:
            raise KeyError(placement)
        return rid

    def __iter__(self) -> Iterator[Placement]:
        for holder, rids in self._by_holder.items():
            for index, rid in enumerate(rids):
                if rid is not None:
                    yield holder, index

    def __len__(self) -> int:
        return self._len

    def of(self, holders: Iterable[str | None]) -> RulingIds:
        """The ids of the rulings written on ``holders`` (card ids; ``None``: ``rulings.yaml``)
        only, sharing this mapping's tuples: what a worker drawing those cards is sent."""
        part = RulingIds()
        part._by_holder = {h: self._by_holder[h] for h in dict.fromkeys(holders) if h in self._by_holder}
        part._len = sum(rid is not None for rids in part._by_holder.values() for rid in rids)
        return part

    def __repr__(self) -> str:
        return f"RulingIds({dict(self.items())!r})"

    def __getstate__(self) -> dict:
        return {"by_holder": self._by_holder, "len": self._len}

    def __setstate__(self, state: dict) -> None:
        self._by_holder, self._len = state["by_holder"], state["len"]
