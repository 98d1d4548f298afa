"""Schema for carpe_diem (placeholder until the game's data is written)."""

from typing import Literal

from card_data.schemas.common import Card, DeckList, DeckProblem, GameSpec


class PlaceholderCard(Card):
    type: Literal["placeholder"]


def check_deck(deck: DeckList, cards: dict) -> list[DeckProblem]:
    return []


SPEC = GameSpec(game_id="carpe_diem", card_model=PlaceholderCard, check_deck=check_deck)
