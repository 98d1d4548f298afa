"""Rulings as records: each ruling with the cards it concerns, for the rulings pages and search.

A ruling is kept either in a card's own ``rulings:`` (it concerns that card and any ``cards``
it names) or in the game's ``rulings.yaml`` (it concerns the two or more ``cards`` it names).
Either way it is shown on the page of every card it concerns. The same ruling written on
several cards (carpe_cras shares some with YAML anchors) is one record about all of them.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from card_data.loader import Game
from card_data.schema import Card, Ruling


@dataclass(frozen=True, eq=False)
class RulingRecord:
    """One ruling and where it belongs.

    Attributes:
        ruling: the ruling (text, date, source, section, reference, cards).
        anchor: its fragment id on the game's rulings page: ``r-<card-id>-<n>`` for the
            ``n``-th (from 1) ruling of a card, ``r-game-<n>`` for the ``n``-th of ``rulings.yaml``.
        cards: the cards it concerns that the game has, the card holding it first.
        origin: where it is written: ``(card id, index)`` for ``cards[card id].rulings[index]``,
            ``(None, index)`` for ``rulings.yaml``'s.
        ruling_id: its stable id (see :mod:`card_data.rulings.ruling_ids`): what finds its translation
            (:meth:`card_data.editions.translations.Translation.ruling_text`) and its link target
            ``#ruling-<id>``.
    """

    ruling: Ruling
    anchor: str
    cards: tuple[Card, ...]
    origin: tuple[str | None, int] = (None, -1)
    ruling_id: str = ""

    @property
    def card_ids(self) -> tuple[str, ...]:
        """Ids of :attr:`cards`, in the same order."""
        return tuple(card.id for card in self.cards)

    def other_cards(self, card_id: str) -> tuple[Card, ...]:
        """The cards it concerns besides ``card_id`` (the page it is shown on)."""
        return tuple(card for card in self.cards if card.id != card_id)


def _concerned(game: Game, first: Card | None, ids: list[str]) -> tuple[Card, ...]:
    out = [first] if first is not None else []
    for card_id in ids:
        if card_id in game.cards and all(card.id != card_id for card in out):
            out.append(game.cards[card_id])
    return tuple(out)


def _card_record(game: Game, card: Card, index: int) -> RulingRecord:
    ruling = card.rulings[index]
    return RulingRecord(ruling, f"r-{card.id}-{index + 1}", _concerned(game, card, ruling.cards), (card.id, index),
                        game.ruling_ids.get((card.id, index), ""))


def _game_record(game: Game, index: int) -> RulingRecord:
    ruling = game.rulings[index]
    return RulingRecord(ruling, f"r-game-{index + 1}", _concerned(game, None, ruling.cards), (None, index),
                        game.ruling_ids.get((None, index), ""))


def rulings_for_card(game: Game, card: Card) -> list[RulingRecord]:
    """Every ruling shown on ``card``'s page: its own (in file order), then those of
    ``rulings.yaml`` naming it, then those of other cards naming it in their ``cards``; a
    ruling with the same id as one before it (the same ruling on several cards) only once."""
    records = [_card_record(game, card, i) for i in range(len(card.rulings))]
    records += [_game_record(game, i) for i, ruling in enumerate(game.rulings) if card.id in ruling.cards]
    for owner_id, index in game.ruling_refs.get(card.id, []):
        if owner_id in game.cards:
            records.append(_card_record(game, game.cards[owner_id], index))
    # One written id on several cards (a YAML anchor) is one ruling: shown once.
    seen: set[str] = set()
    return [r for r in records if not r.ruling_id or not (r.ruling_id in seen or seen.add(r.ruling_id))]


def _newest_first_key(record: RulingRecord) -> tuple[bool, int]:
    # Undated rulings go last; sorted() is stable, so equal dates keep file order.
    date = record.ruling.date
    return (date is None, -(date or datetime.date.min).toordinal())


def all_rulings(game: Game) -> list[RulingRecord]:
    """Every ruling of ``game`` once, newest first (undated last; equal dates in file order:
    the cards' files, then ``rulings.yaml``).

    A ruling written identically on several cards (same text, date, source, section and
    reference) is one record concerning all of them. Reads every card of the game.
    """
    merged: dict[tuple, RulingRecord] = {}
    for card in game.cards.values():
        for i, ruling in enumerate(card.rulings):
            key = (ruling.text, ruling.date, ruling.source, ruling.section, ruling.reference, ruling.id)
            record = _card_record(game, card, i)
            if key in merged:
                earlier = merged[key]
                cards = earlier.cards + tuple(c for c in record.cards if c.id not in earlier.card_ids)
                record = RulingRecord(earlier.ruling, earlier.anchor, cards, earlier.origin, earlier.ruling_id)
            merged[key] = record
    records = list(merged.values()) + [_game_record(game, i) for i in range(len(game.rulings))]
    return sorted(records, key=_newest_first_key)


def filter_rulings(records: list[RulingRecord], card_type: str = "", keyword: str = "") -> list[RulingRecord]:
    """The records concerning a card of type ``card_type`` (``""``: any) whose text holds
    ``keyword`` (case-insensitive, spacing ignored; ``""``: any), in the given order."""
    words = " ".join(keyword.split()).lower()
    return [
        record for record in records
        if (not card_type or any(card.type == card_type for card in record.cards))
        and (not words or words in " ".join(record.ruling.text.split()).lower())
    ]


def ruling_types(records: list[RulingRecord]) -> list[str]:
    """The card types of the cards the records concern, in order of first appearance."""
    types: dict[str, None] = {}
    for record in records:
        for card in record.cards:
            types.setdefault(card.type, None)
    return list(types)
