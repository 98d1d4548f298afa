"""Cards kept compact in memory: a database of 10,000 cards costs about 5 MiB, not 60.

A validated card model with its strings and nested rulings takes about 6 KB of memory; its
JSON, zlib-compressed with the game's first card as the preset dictionary (cards of a game
share their field names and much of their wording), about 0.3 KB. :class:`CardStore` keeps every card in that form and
gives the model back when it is read (validated again from the JSON, about 20 us), keeping the
last few hundred read decoded. :class:`CardRefs` is a list of cards by id over a store, so a
deck of thousands of cards costs a tuple of ids until it is drawn, part by part.

Cards are frozen models and compare by value, so a card read twice is equal to itself but not
necessarily the same object; nothing should rely on identity.
"""

from __future__ import annotations

import sys
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from card_data.schema import Card, GameSpec

DECODED_CARDS_KEPT = 128
"""How many decoded cards a store keeps (least recently read dropped first): enough for every
card of a bundled game and for a part file of a deck (about 90 cards, see
:func:`printkit.pipeline.deck_files.cards_per_file`), about 1 MiB; a card is read again only
while its part is drawn, so more would only grow the drawing process (~8 KiB a card)."""


class CardStore(Mapping[str, "Card"]):
    """Cards by id, in insertion order, each held as its compressed JSON.

    ``spec`` is the game's :class:`~card_data.schema.GameSpec`, whose card adapter reads the
    JSON back. Reading an unknown id raises ``KeyError``. Picklable (the decoded cards are not
    sent along), so a worker process can take a store of the cards it draws (:meth:`subset`).
    """

    def __init__(self, spec: GameSpec, cards: Iterable[Card] = ()) -> None:
        self._spec = spec
        self._zdict = b""  # the first card's JSON, once there is one
        self._records: dict[str, bytes] = {}
        # Each card's (type, back kind) as an index into the few pairs a game has: a small
        # int is shared by every card, where a tuple per card costs ~100 bytes at 10,000.
        self._types: dict[str, int] = {}
        self._kinds: list[tuple[str, str]] = []
        self._decoded: OrderedDict[str, Card] = OrderedDict()
        self._adapter: Any = None
        for card in cards:
            self.add(card)

    def add(self, card: Card, json: bytes | None = None) -> None:
        """Keep ``card`` under ``card.id`` (replacing a card of that id). ``json``: its
        ``model_dump_json()`` in UTF-8, when the caller has it already (the card is then not
        serialised again)."""
        data = json if json is not None else card.model_dump_json().encode("utf-8")
        if not self._records:
            self._zdict = data
        packer = zlib.compressobj(zdict=self._zdict)
        self._records[card.id] = packer.compress(data) + packer.flush()
        # A handful of types and backs, read without decoding the card.
        kind = (card.type, card.back_kind())
        try:
            index = self._kinds.index(kind)
        except ValueError:
            index = len(self._kinds)
            self._kinds.append((sys.intern(kind[0]), sys.intern(kind[1])))
        self._types[card.id] = index
        self._decoded.pop(card.id, None)

    def __getitem__(self, card_id: str) -> Card:
        card = self._decoded.get(card_id)
        if card is not None:
            self._decoded.move_to_end(card_id)
            return card
        record = self._records[card_id]
        if self._adapter is None:
            self._adapter = self._spec.card_adapter()
        card = self._adapter.validate_json(zlib.decompressobj(zdict=self._zdict).decompress(record))
        self._decoded[card_id] = card
        if len(self._decoded) > DECODED_CARDS_KEPT:
            self._decoded.popitem(last=False)
        return card

    def json_of(self, card_id: str) -> bytes:
        """The card's JSON as kept (``model_dump_json``, UTF-8), without validating it into a
        model: a cheap digest of a card. Raises ``KeyError`` for an unknown id."""
        return zlib.decompressobj(zdict=self._zdict).decompress(self._records[card_id])

    def type_of(self, card_id: str) -> str:
        """The card's ``type``, without decoding it. Raises ``KeyError`` for an unknown id."""
        return self._kinds[self._types[card_id]][0]

    def back_kind_of(self, card_id: str) -> str:
        """The card's ``back_kind()``, without decoding it. Raises ``KeyError`` for an unknown id."""
        return self._kinds[self._types[card_id]][1]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._records

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def subset(self, card_ids: Iterable[str]) -> CardStore:
        """A store of only ``card_ids`` (each once, in this store's order; unknown ids ignored),
        sharing the compressed records."""
        wanted = set(card_ids)
        sub = CardStore(self._spec)
        sub._zdict = self._zdict
        sub._records = {cid: rec for cid, rec in self._records.items() if cid in wanted}
        sub._types = {cid: self._types[cid] for cid in sub._records}
        sub._kinds = self._kinds
        return sub

    def __getstate__(self) -> dict:
        return {"spec": self._spec, "zdict": self._zdict, "records": self._records, "types": self._types,
                "kinds": self._kinds}

    def __setstate__(self, state: dict) -> None:
        self._spec, self._zdict, self._records = state["spec"], state["zdict"], state["records"]
        self._types, self._kinds = state["types"], state["kinds"]
        self._decoded, self._adapter = OrderedDict(), None

    def __repr__(self) -> str:
        return f"<CardStore of {len(self)} {self._spec.game_id} cards>"


class CardRefs(Sequence["Card"]):
    """A list of cards given by id over ``cards`` (a :class:`CardStore` or any mapping), read
    when iterated or indexed; ids may repeat (a card printed three times). Slicing gives
    :class:`CardRefs`; ``ids`` is the tuple of ids, read without decoding a card."""

    def __init__(self, cards: Mapping[str, Card], ids: Iterable[str]) -> None:
        self.cards = cards
        self.ids: tuple[str, ...] = tuple(ids)

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, index: int) -> Card: ...

    @overload
    def __getitem__(self, index: slice) -> CardRefs: ...

    def __getitem__(self, index: int | slice) -> Card | CardRefs:
        if isinstance(index, slice):
            return CardRefs(self.cards, self.ids[index])
        return self.cards[self.ids[index]]

    def __iter__(self) -> Iterator[Card]:
        for card_id in self.ids:
            yield self.cards[card_id]

    def over(self, cards: Mapping[str, Card]) -> CardRefs:
        """The same ids over another mapping (e.g. a worker's :meth:`CardStore.subset`)."""
        return CardRefs(cards, self.ids)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardRefs):
            return self.ids == other.ids and all(a == b for a, b in zip(self, other))
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable mapping underneath: not hashable

    def __repr__(self) -> str:
        return f"CardRefs({list(self.ids)!r})"
