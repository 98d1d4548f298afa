"""The rulings pages: one per card (the QR code's target) and one per game."""

from __future__ import annotations

from flask import Blueprint, render_template

from companion.catalog import (
    cards_by_type,
    deck_size,
    decks_containing,
    get_card_or_404,
    get_game_or_404,
)
from companion.glossary import entries_used_by
from companion.stats import card_stats, field_label

bp = Blueprint("rulings", __name__, url_prefix="/r")


@bp.app_template_filter("type_label")
def type_label(name: str) -> str:
    """A card type or deck kind in words: ``"basic_number"`` -> ``"Basic number"``."""
    return field_label(name)


@bp.route("/<game>/")
def game_page(game: str):
    """A game's cards grouped by type, its deck lists and its whole glossary."""
    game_data = get_game_or_404(game)
    return render_template(
        "game.html",
        game=game_data,
        groups=cards_by_type(game_data),
        decks=[(deck, deck_size(deck)) for deck in game_data.decks.values()],
    )


@bp.route("/<game>/<card_id>", strict_slashes=False)
def card_page(game: str, card_id: str):
    """One card: its stats and text, rulings with their rulebook sections, the glossary
    entries its text uses and the decks that hold it. The printed QR code opens this page.

    A trailing slash is accepted too: on a static host the same address gains one.
    """
    game_data = get_game_or_404(game)
    card = get_card_or_404(game_data, card_id)
    return render_template(
        "card.html",
        game=game_data,
        card=card,
        stats=card_stats(card),
        glossary=entries_used_by(card, game_data.glossary),
        decks=decks_containing(game_data, card.id),
    )
