"""The rulings pages: one per card (the QR code's target) and one per game."""

from __future__ import annotations

import base64
import re
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, render_template
from markupsafe import Markup, escape

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


ICON_NAME = re.compile(r":([a-z][a-z0-9_-]*):")
ICON_MAX_BYTES = 64 * 1024
ICON_TYPES = {".svg": "image/svg+xml", ".png": "image/png"}


@lru_cache(maxsize=512)
def _icon_data_uri(path: Path, mtime_ns: int) -> str | None:
    # A data: URI keeps the static site export self-contained; inside <img> an SVG's scripts
    # never run, so icons from someone else's card data cannot script the page.
    data = path.read_bytes()
    if len(data) > ICON_MAX_BYTES:
        return None
    return f"data:{ICON_TYPES[path.suffix]};base64,{base64.b64encode(data).decode('ascii')}"


@bp.app_template_filter("icon_words")
def icon_words(text: str, game) -> Markup:
    """Card text for a page, escaped, with each ``:name:`` that names one of the game's icons
    (``card_data/<game>/icons/<name>.svg`` or ``.png``, which printkit draws inline on the
    card) shown as that icon at the text's size (``<img class="icon" alt="Name">``), or as
    its name in words if the file is over 64 KB. Other text between colons stays as written."""
    icons = game.folder / "icons"

    def icon(match: re.Match) -> str:
        name = match.group(1)
        label = escape(field_label(name))
        for ext in ICON_TYPES:
            path = icons / f"{name}{ext}"
            if path.is_file():
                uri = _icon_data_uri(path, path.stat().st_mtime_ns)
                if uri is None:
                    return f'<span class="icon-word">{label}</span>'
                return f'<img class="icon" src="{uri}" alt="{label}">'
        return match.group(0)

    return Markup(ICON_NAME.sub(icon, str(escape(text))))


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
