"""The rulings pages: one per card (the QR code's target), one per game and one listing a
game's rulings, newest first."""

from __future__ import annotations

import base64
import re
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, request
from flask_babel import gettext
from markupsafe import Markup, escape

from card_data.declared.field_declarations import DeclaredGameInfo
from card_data.loader import Game
from card_data.reading.icon_names import ICON_NAME
from card_data.rulings.ruling_records import (
    all_rulings,
    filter_rulings,
    ruling_types,
    rulings_for_card,
)
from card_data.schema import Card, Ruling
from companion.cards.catalog import (
    cards_by_type,
    deck_size,
    decks_containing,
    get_card_or_404,
    get_game_or_404,
)
from companion.cards.errata import Erratum, erratum_for, long_date
from companion.cards.glossary import entries_in_text, entries_used_by
from companion.cards.card_fields import card_stats, field_label
from companion.cards.field_labels import translated_label
from companion.cards.translated_data import TEMPLATE_GLOBALS, speak_labels_of, translated_ruling

bp = Blueprint("rulings", __name__, url_prefix="/r")
for _name, _value in TEMPLATE_GLOBALS.items():  # the card data in the player's language
    bp.add_app_template_global(_value, _name)


@bp.app_template_filter("type_label")
def type_label(name: str, game: Game | None = None) -> str:
    """A card type or deck kind in words: a declared game's own label for its card type
    (``card_types: {bonus: {label: Bonus round}}``), else the name in the page's language where
    :mod:`companion.cards.field_labels` has it: ``"basic_number"`` -> ``"Basic number"``."""
    if game is not None and isinstance(game.info, DeclaredGameInfo) and name in game.info.type_names():
        return translated_label(game.info.type_label(name))
    return field_label(name)


@bp.app_template_filter("ruling_source")
def ruling_source(ruling: Ruling) -> str:
    """Where a ruling comes from, in words of the page's language: ``"Rulebook: 2019
    rulebook, Setup"``, ``"Designer's answer: <reference>"`` or ``"Our reading — the rules are
    silent"`` (with the closest section, if given). Sections and references stay as written:
    they name the rulebook's own headings."""
    if ruling.source == "designer":
        return gettext("Designer's answer: %(reference)s", reference=ruling.reference)
    if ruling.source == "our-reading":
        if ruling.section:
            return gettext("Our reading — the rules are silent (closest: %(section)s)", section=ruling.section)
        return gettext("Our reading — the rules are silent")
    return gettext("Rulebook: %(section)s", section=ruling.section)


@bp.app_template_filter("ruling_date")
def ruling_date(ruling: Ruling) -> str:
    """A ruling's date in the page's language, e.g. ``"22 November 2026"`` (German
    ``"22. November 2026"``); ``"Undated"`` (``"Undatiert"``) without one."""
    if ruling.date is None:
        return gettext("Undated")
    return long_date(ruling.date)


@bp.app_template_filter("long_date")
def long_date_filter(day) -> str:
    """A date in the page's language, e.g. ``"23 November 2026"`` (see :func:`long_date`)."""
    return long_date(day)


@bp.app_template_global("ruling_terms")
def ruling_terms(ruling: Ruling, game) -> list:
    """The glossary entries of ``game`` that the ruling's text uses (glossary order)."""
    return entries_in_text(ruling.text, game.glossary)


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
    its name in words if the file is over 64 KB (in the page's language where
    :mod:`companion.cards.field_labels` has it). Other text between colons stays as written."""
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
    speak_labels_of(game_data)
    return render_template(
        "game.html",
        game=game_data,
        groups=cards_by_type(game_data),
        decks=[(deck, deck_size(deck)) for deck in game_data.decks.values()],
    )


@bp.route("/<game>/<card_id>", strict_slashes=False)
def card_page(game: str, card_id: str):
    """One card: its stats and text, rulings with their rulebook sections, the glossary
    entries its text uses and the decks that hold it. The printed QR code of an unversioned
    game opens this page (a versioned one opens :func:`card_version_page`).

    A trailing slash is accepted too: on a static host the same address gains one.
    """
    game_data = get_game_or_404(game)
    speak_labels_of(game_data)
    return _card(game_data, get_card_or_404(game_data, card_id))


@bp.route("/<game>/<card_id>/<int:version>", strict_slashes=False)
def card_version_page(game: str, card_id: str, version: int):
    """The page a card's QR code opens in a game that records versions (``printkit release``):
    for the current version, the card's page as :func:`card_page` shows it; for an older
    one, the same page headed by what has changed since that copy was printed (the printed
    and current text, a word-level diff and each erratum's date and reason). 404 naming the
    known versions for a version the data does not have.
    """
    game_data = get_game_or_404(game)
    speak_labels_of(game_data)
    card = get_card_or_404(game_data, card_id)
    try:
        erratum = erratum_for(game_data, card, version)
    except LookupError as exc:
        abort(404, description=str(exc))
    return _card(game_data, card, erratum)


def _card(game_data: Game, card: Card, erratum: Erratum | None = None) -> str:
    """The card page of ``card``, headed by ``erratum`` when the reader's copy is older."""
    return render_template(
        "card.html",
        game=game_data,
        card=card,
        erratum=erratum,
        stats=card_stats(card),
        rulings=rulings_for_card(game_data, card),
        glossary=entries_used_by(card, game_data.glossary),
        decks=decks_containing(game_data, card.id),
    )


@bp.route("/<game>/rulings")
def game_rulings(game: str):
    """Every ruling of a game, newest first, with each ruling's cards and glossary terms.

    Query: ``type`` (a card type: rulings concerning a card of that type) and ``q`` (a
    keyword or phrase of the ruling's text, case-insensitive); either may be empty. A static
    export has no server to filter: there the page lists every ruling without the form.
    """
    game_data = get_game_or_404(game)
    speak_labels_of(game_data)
    records = all_rulings(game_data)
    types = ruling_types(records)
    card_type = request.args.get("type", "").strip()
    keyword = request.args.get("q", "").strip()
    if current_app.config["STATIC_EXPORT"] or card_type not in types:
        card_type = ""
    if current_app.config["STATIC_EXPORT"]:
        keyword = ""
    shown = filter_rulings(records, card_type, keyword)
    if keyword:
        # A player reading the rulings in their language searches in it too (spacing and case
        # ignored, as filter_rulings does).
        words = " ".join(keyword.split()).lower()
        shown = [r for r in filter_rulings(records, card_type)
                 if r in shown or words in " ".join((translated_ruling(game_data, r) or "").split()).lower()]
    return render_template("rulings.html", game=game_data, records=shown, total=len(records), types=types,
                           card_type=card_type, keyword=keyword,
                           filter_on_server=not current_app.config["STATIC_EXPORT"])
