"""The card database as the app sees it: loaded once per app, looked up per request."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, abort, current_app

from card_data.games import registry
from card_data.project.limits import configured_limits
from card_data.loader import Database, Game, check_database
from card_data.problems import DatabaseError
from card_data.rulings.ruling_records import RulingRecord, all_rulings
from card_data.schema import Card, DeckList

_EXTENSION_KEY = "companion.database"


def init_app(app: Flask) -> None:
    """Load ``app.config["CARD_DATA_DIR"]`` into the app, within the limits of the
    ``printkit.toml`` of ``app.config["PROJECT_DIR"]`` (the current folder's without one).

    Raises :class:`card_data.problems.DatabaseError` listing every problem of the database.
    """
    project_dir = app.config.get("PROJECT_DIR")
    # A project served from elsewhere (--project) reads with the limits it raised for printkit.
    limits = configured_limits(Path(project_dir)) if project_dir else None
    database, problems = check_database(app.config["CARD_DATA_DIR"], limits)
    if problems:
        raise DatabaseError(problems)
    app.extensions[_EXTENSION_KEY] = database
    app.add_template_global(get_games)
    app.add_template_global(serves_printkits_games)


def get_database() -> Database:
    """The current app's card database (needs an app context)."""
    return current_app.extensions[_EXTENSION_KEY]


def serves_printkits_games() -> bool:
    """Whether any game served is one of printkit's (bundled or installed, with our rulings and
    glossary): only then does the footer say whose words those are. A designer's own game
    (declared in its game.yaml) has the designer's rulings, not ours."""
    return any(game_id in registry() for game_id in get_database().games)


def get_games() -> list[Game]:
    """The database's games, in the order of :func:`card_data.games.registry`."""
    return list(get_database().games.values())


def get_game_or_404(game_id: str) -> Game:
    """The game ``game_id``; aborts with 404 if the database has no such game."""
    game = get_database().games.get(game_id)
    if game is None:
        abort(404)
    return game


def get_card_or_404(game: Game, card_id: str) -> Card:
    """The card ``card_id`` of ``game``; aborts with 404 if there is none."""
    card = game.cards.get(card_id)
    if card is None:
        abort(404)
    return card


def card_count(game: Game) -> int:
    """Number of distinct cards (not copies) in the game's data."""
    return len(game.cards)


def cards_by_type(game: Game) -> list[tuple[str, list[Card]]]:
    """``[(type, [card, ...]), ...]``, types in order of first appearance, cards in file order."""
    groups: dict[str, list[Card]] = {}
    for card in game.cards.values():
        groups.setdefault(card.type, []).append(card)
    return list(groups.items())


def decks_containing(game: Game, card_id: str) -> list[tuple[DeckList, int]]:
    """Deck lists of ``game`` that hold ``card_id``, with how many copies each holds."""
    found = []
    for deck in game.decks.values():
        qty = sum(entry.qty for entry in deck.cards if entry.card == card_id)
        if qty:
            found.append((deck, qty))
    return found


def deck_size(deck: DeckList) -> int:
    """Number of cards in the deck, counting copies."""
    return sum(entry.qty for entry in deck.cards)


@dataclass(frozen=True, eq=False)
class CardHit:
    """One search result: the game it belongs to and the card."""

    game: Game
    card: Card

    @property
    def haystack(self) -> str:
        """Lower-case text a query is matched against: title, id words and rules text."""
        return " ".join(
            (self.card.title, self.card.id.replace("-", " "), self.card.glossary_text())
        ).lower()


def query_words(query: str) -> list[str]:
    """Lower-case words of a search query; hyphens separate words as in card ids."""
    return query.replace("-", " ").lower().split()


def all_cards(game_id: str | None = None) -> list[CardHit]:
    """Every card of the database (or of one game), in game order then file order."""
    return [
        CardHit(game, card)
        for game in get_database().games.values()
        if game_id in (None, "", game.game_id)
        for card in game.cards.values()
    ]


def search_cards(query: str, game_id: str | None = None) -> list[CardHit]:
    """Cards whose title, id or rules text contain every word of ``query``.

    Matching is case-insensitive on substrings, so ``"brut"`` finds "Brutal Strike".
    Cards whose title holds all the words come first. An empty query finds nothing;
    ``game_id`` (optional) limits the search to that game.
    """
    words = query_words(query)
    if not words:
        return []
    hits = [hit for hit in all_cards(game_id) if all(w in hit.haystack for w in words)]
    in_title = [all(w in h.card.title.lower() for w in words) for h in hits]
    return [h for h, t in zip(hits, in_title) if t] + [h for h, t in zip(hits, in_title) if not t]


@dataclass(frozen=True, eq=False)
class RulingHit:
    """One ruling found by a search: the game it belongs to and the ruling's record."""

    game: Game
    record: RulingRecord


def search_rulings(query: str, game_id: str | None = None) -> list[RulingHit]:
    """Rulings whose text contains every word of ``query`` (case-insensitive substrings, as
    :func:`search_cards`), each game's newest first. An empty query finds nothing;
    ``game_id`` (optional) limits the search to that game."""
    words = query_words(query)
    if not words:
        return []
    return [
        RulingHit(game, record)
        for game in get_database().games.values()
        if game_id in (None, "", game.game_id)
        for record in all_rulings(game)
        if all(w in record.ruling.text.replace("-", " ").lower() for w in words)
    ]


def close_card_ids(card_id: str, game_id: str | None = None, limit: int = 3) -> list[CardHit]:
    """Cards whose id is spelt nearly like ``card_id`` (for a mistyped address)."""
    candidates = {hit.card.id: hit for hit in all_cards(game_id)}
    return [candidates[i] for i in difflib.get_close_matches(card_id, list(candidates), n=limit)]
