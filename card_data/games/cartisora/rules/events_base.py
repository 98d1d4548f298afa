"""What the Duels of Cartisora events share: their base classes, the check that a card is in
a player's hand, and cards and decks as form choices."""

from __future__ import annotations

import typing
from collections.abc import Sequence

from card_data.engine import Choice, Event, RuleError, Words
from card_data.games.cartisora.rules.catalog import CardInfo
from card_data.games.cartisora.rules.state import State
from card_data.games.cartisora.rules.wording import cite


class CartisoraEvent(Event):
    """Base of the Duels of Cartisora events."""


class PlayCard(CartisoraEvent):
    """Base of the events that play a card of one kind from a player's hand."""

    card_kind: typing.ClassVar[str]
    """The kind of card played (:data:`REACTION`, :data:`MANEUVER`)."""


def check_in_hand(state: State, seat: int, card_id: str, topic: str) -> CardInfo:
    """The card, if it is in the seat's hand; else a :class:`RuleError` saying whether it was
    already played or is not in the seat's deck at all."""
    edition = state.options.edition
    name = state.players[seat]
    deck = state.catalog.decks[state.game_decks[seat]]
    rule = cite(edition, topic, Words("a player plays only cards still in their hand, from their own character "
                                      "deck"))
    if card_id not in deck.cards:
        raise RuleError(rule, Words("'%(card)s' is not a card of %(player)s's deck (%(deck)s)", card=card_id,
                                    player=name, deck=deck.title))
    card = state.catalog.cards[card_id]
    if card_id not in state.hands[seat]:
        raise RuleError(rule, Words("%(card)s was already played: it is not in %(player)s's hand", card=card.title,
                                    player=name))
    return card


def without(hand: tuple[str, ...], card_id: str) -> tuple[str, ...]:
    return tuple(c for c in hand if c != card_id)


def card_choices(state: State, cards: Sequence[str], owner: bool = False) -> list[Choice]:
    """The cards as form choices, the printed effect (or, with ``owner``, the holder) as the note."""
    holder = {c: state.players[s] for s, hand in enumerate(state.hands) for c in hand}
    return [Choice(c, state.card_label(c), holder.get(c, "") if owner else state.catalog.cards[c].text) for c in cards]


def deck_choices(state: State) -> list[Choice]:
    """The decks still open, by name."""
    return [Choice(d, state.catalog.decks[d].title) for d in state.decks_open()]
