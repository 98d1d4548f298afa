"""The card data a table plays with, copied from the card database once at set-up: character
decks, playing cards, the bonus tokens and the 2017 Tag card."""

from __future__ import annotations

import typing
from typing import Literal

from card_data.engine import Model, ReadOnlyDict, Words
from card_data.engine.wording import Said
from card_data.reading.icon_names import icons_in_words
from card_data.games.cartisora.cards import (
    KIND_NAMES,
    BoastCard,
    Effect,
    NumberCard,
    SpecialCard,
)

SpecialKind = SpecialCard.model_fields["special_kind"].annotation
SPECIAL_NUMBERED, ACTION, REACTION, MANEUVER = typing.get_args(SpecialKind)
"""The special card kinds, as the card schema names them."""
CardKind = Literal["number", "boast", SpecialKind]


class CardInfo(Model):
    """One playing card of a character deck, copied from the card data.

    ``kind``: ``"number"``, ``"boast"`` or the special card's ``special_kind``. ``power``: the
    printed power (``None`` for actions, reactions and maneuvers). ``points``: what the card
    is worth in a score pile (the boast card's ``score_points``, else 1). ``effects``: the
    card data's structured effects; ``text`` the printed effect in a few words.
    """

    id: str
    title: str
    deck: str
    kind: CardKind
    power: int | None = None
    points: int = 1
    text: Said = ""
    effects: tuple[Effect, ...] = ()

    @property
    def label(self) -> Words:
        """For people: ``"Knight 5 (5)"``, ``"Knight Boast (1) · boast"``, ``"Parry · reaction"``."""
        if self.power is None:
            return Words("%(card)s · %(kind)s", card=self.title, kind=KIND_NAMES[self.kind])
        if self.kind == "boast":
            return Words("%(card)s (%(power)d) · boast", card=self.title, power=self.power)
        return Words("%(card)s (%(power)d)", card=self.title, power=self.power)


class DeckInfo(Model):
    """A character deck: id, name and its 12 playing cards' ids in deck-list order."""

    id: str
    title: str
    cards: tuple[str, ...]


class Token(Model):
    """A bonus token from the card data (First Blood, Finisher): id, title, points (2)."""

    id: str
    title: str
    points: int


class Catalog(Model):
    """The card data a table plays with, copied once at set-up and never changed.

    ``decks`` / ``cards``: every character deck on offer for the edition and every playing
    card, by id; ``first_blood`` / ``finisher``: the bonus tokens (2019 Bonus Points);
    ``tag_card`` / ``tag_copies``: the 2017 Tag card's id and copies per player (``None`` / 0
    unless the 2017 tag team is played).
    """

    decks: ReadOnlyDict[str, DeckInfo]
    cards: ReadOnlyDict[str, CardInfo]
    first_blood: Token
    finisher: Token
    tag_card: str | None = None
    tag_copies: int = 0


def card_info(card: object, deck: str) -> CardInfo | None:
    """The engine's copy of a playing card, or ``None`` for a reference card."""
    if isinstance(card, NumberCard):
        return CardInfo(id=card.id, title=card.title, deck=deck, kind="number", power=card.power)
    if isinstance(card, BoastCard):
        return CardInfo(id=card.id, title=card.title, deck=deck, kind="boast", power=card.power,
                        points=card.score_points,
                        text=Words("Worth %(points)d points in a score pile.", points=card.score_points))
    if isinstance(card, SpecialCard):
        return CardInfo(id=card.id, title=card.title, deck=deck, kind=card.special_kind,
                        power=card.power, text=icons_in_words(card.effect), effects=tuple(card.effects))
    return None
