"""Schema for cartisora (placeholder until the game's data is written)."""

from typing import Literal

from card_data.schemas.common import Card, DeckList, DeckProblem, GameSpec


class PlaceholderCard(Card):
    type: Literal["placeholder"]


def check_deck(deck: DeckList, cards: dict) -> list[DeckProblem]:
    return []


SPEC = GameSpec(game_id="cartisora", card_model=PlaceholderCard, check_deck=check_deck)
