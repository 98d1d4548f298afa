"""The card data in the player's language: what the pages show of a game's translations.

The interface speaks the page's language (:mod:`companion.web.language`); the card data (card text,
rulings, glossary) is written in :data:`~card_data.editions.translations.DATA_LANGUAGE` and may carry
translations (:mod:`card_data.editions.translations`). A page in a language the game has a translation
into shows the translated text where there is one, with the original one tap away; anything
left untranslated shows the original. A static export is English throughout.

These functions are template globals (registered by :mod:`companion.cards.rulings`); each returns
"nothing translated" (``None`` or ``{}``) when the page is in the data's own language.
"""

from __future__ import annotations

from flask import current_app, g

from card_data.loader import Game
from card_data.rulings.ruling_records import RulingRecord
from card_data.schema import Card, DeckList, GlossaryEntry
from card_data.editions.translations import DATA_LANGUAGE, Translation, find_translation
from companion.cards.catalog import get_database
from companion.web.language import DATA_WORDS, LABEL_WORDS, current_language


def data_translation(game: Game) -> Translation | None:
    """The translation of ``game`` into the page's language, or ``None`` (the page is in the
    data's language, the game has no translation into it, or this is a static export)."""
    if current_app.config.get("STATIC_EXPORT"):
        return None
    return find_translation(game.translations, current_language())


def translated_ruling(game: Game, record: RulingRecord) -> str | None:
    """The ruling's text in the page's language, or ``None`` where it has none."""
    translation = data_translation(game)
    return translation.ruling_text(record.ruling_id) if translation is not None else None


def translated_card(game: Game, card: Card) -> dict[str, str]:
    """``{field: text}`` of the card's fields the page's language translates (``title``,
    ``text``, ``note``...); empty when none."""
    translation = data_translation(game)
    return translation.card_fields(card.id) if translation is not None else {}


def translated_glossary(game: Game, entry: GlossaryEntry) -> dict[str, str]:
    """``{"term"?: ..., "text"?: ...}`` of the glossary entry in the page's language; empty
    when none."""
    translation = data_translation(game)
    return translation.glossary_entry(entry.id) if translation is not None else {}


def translated_deck(game: Game, deck: DeckList) -> dict[str, str]:
    """``{"title"?: ..., "note"?: ...}`` of the deck list in the page's language; empty when
    none."""
    translation = data_translation(game)
    return translation.deck_fields(deck.id) if translation is not None else {}


def card_title(game: Game | str, card: Card) -> str:
    """The card's title in the page's language where the data translates it, else as
    printed. ``game``: the game or its id."""
    if isinstance(game, str):
        game = get_database().games.get(game)
        if game is None:
            return card.title
    return translated_card(game, card).get("title", card.title)


def translation_language(game: Game) -> str:
    """The language code of the page's translation of ``game`` (for ``lang="..."``), or the
    data's own language."""
    translation = data_translation(game)
    return translation.language if translation is not None else DATA_LANGUAGE


def speak_data_of(game_id: str) -> None:
    """Let :func:`~companion.web.language.say` put ``game_id``'s card titles and texts, its deck
    lists' titles and its own words (the translation's ``words:``: a declared game's labels, such
    as its counters) in the page's language where the game's data translates them (a table page:
    the engines say a card by the title and text printed on it, a deck by its title), and let
    :func:`~companion.cards.field_labels.translated_label` put its field and card type labels so
    (a card page). Nothing changes for a page in the data's language, a game without a
    translation into it, or an unknown game."""
    game = get_database().games.get(game_id)
    translation = data_translation(game) if game is not None else None
    words: dict[str, str] = {}
    if translation is not None:
        words.update(translation.words)
        for card in game.cards.values():
            fields = translation.printed_fields(card.id)
            for field in ("title", "text"):
                printed = getattr(card, field, None)
                if isinstance(printed, str) and printed and fields.get(field):
                    words[printed] = fields[field]
        for deck in game.decks.values():
            title = translation.deck_fields(deck.id).get("title")
            if title:
                words[deck.title] = title
    setattr(g, DATA_WORDS, words)
    _speak_labels(translation)


def speak_labels_of(game: Game | None) -> None:
    """Let :func:`~companion.cards.field_labels.translated_label` put ``game``'s own labels (a
    declared game's fields and card types) in the page's language where its translation's
    ``words:`` gives them (a card or game page). ``None``: no game's words."""
    _speak_labels(data_translation(game) if game is not None else None)


def _speak_labels(translation: Translation | None) -> None:
    setattr(g, LABEL_WORDS, translation.words if translation is not None else {})


TEMPLATE_GLOBALS = {
    "translated_ruling": translated_ruling,
    "translated_card": translated_card,
    "translated_glossary": translated_glossary,
    "translated_deck": translated_deck,
    "card_title": card_title,
    "translation_language": translation_language,
    "data_language": DATA_LANGUAGE,
}
"""What :mod:`companion.cards.rulings` makes available to every template, by name."""
