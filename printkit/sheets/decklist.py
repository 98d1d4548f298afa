"""One deck list's cards, in its quantities, for ``printkit build --deck``.

A deck is named either by its id (``might-cunning-draw``, a deck list of the game's
``decks/`` folder) or by the path of a deck-list YAML file (same format as
``card_data/<game>/decks/*.yaml``; the file may live anywhere, e.g. a designer's draft).
A file is validated the way the database loader validates the bundled decks: the
``DeckList`` schema, every card id known to the game, and the game's deck-building rules.
"""

from __future__ import annotations

from pathlib import Path

from card_data.reading.card_store import CardRefs
from card_data.reading.deck_lists import read_deck_list
from card_data.loader import Database, Game
from card_data.problems import DatabaseError, Problem
from card_data.schema import DeckList
from card_data.reading.yaml_source import YamlSyntaxError, load_yaml


def load_deck_file(game: Game, path: Path) -> DeckList:
    """Read and validate the deck list at ``path`` against ``game``'s cards and deck rules.

    Raises :class:`DatabaseError` listing every problem as
    ``FILE:LINE: <game>/<deck-id>: <field>: <message>`` (unknown card ids at their line).
    """
    game_id, file = game.game_id, str(path)
    try:
        data, lines = load_yaml(path)
    except YamlSyntaxError as exc:
        raise DatabaseError([Problem(file, exc.line, game_id, "-", "yaml", exc.message)]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DatabaseError([Problem(file, 1, game_id, "-", "file", f"cannot read: {exc}")]) from None
    deck, problems = read_deck_list(data, lines, file, game.spec, game.cards,
                                     deck_rules=game.info.deck_rules)
    if problems:
        raise DatabaseError(problems)
    return deck


def find_deck(game: Game, deck_path_or_id: str | Path) -> DeckList:
    """The deck list named by a deck id of ``game`` or by a deck-list file path.

    An existing file wins over an id of the same spelling. Raises :class:`DatabaseError`
    for a bad file (see :func:`load_deck_file`) or a name that is neither.
    """
    path = Path(deck_path_or_id)
    if path.is_file():
        return load_deck_file(game, path)
    name = str(deck_path_or_id)
    if name in game.decks:
        return game.decks[name]
    have = ", ".join(game.decks) or "none"
    raise DatabaseError([Problem(name, 1, game.game_id, "-", "deck",
                                 f"no such deck list file or {game.game_id} deck id (deck ids: {have})")])


def cards_for_deck(game: Game, deck_path_or_id: str | Path) -> CardRefs:
    """The cards of one deck list, each repeated ``qty`` times, in the list's order.

    ``deck_path_or_id`` is a deck id of ``game`` (e.g. ``"might-cunning-draw"``) or a deck-list
    YAML file. Raises :class:`DatabaseError` naming every problem as
    ``FILE:LINE: <game>/<deck-id>: <field>: <message>``.
    """
    deck = find_deck(game, deck_path_or_id)
    return CardRefs(game.cards, [entry.card for entry in deck.cards for _ in range(entry.qty)])


def game_for_deck(db: Database, deck_path_or_id: str | Path) -> Game | None:
    """The game a deck belongs to, when it can be told without being named: a file inside
    ``<data>/<game>/``, a deck id that exactly one game has, or a file whose card ids all
    belong to exactly one game. ``None`` when that is ambiguous or unknown."""
    path = Path(deck_path_or_id)
    if path.is_file():
        resolved = path.resolve()
        for game in db.games.values():
            if resolved.is_relative_to(game.folder.resolve()):
                return game
        try:
            data, _ = load_yaml(path)
        except (YamlSyntaxError, OSError, UnicodeDecodeError):
            return None
        entries = data.get("cards") if isinstance(data, dict) else None
        ids = {e.get("card") for e in entries if isinstance(e, dict)} if isinstance(entries, list) else set()
        matches = [g for g in db.games.values() if ids and ids <= set(g.cards)]
    else:
        matches = [g for g in db.games.values() if str(deck_path_or_id) in g.decks]
    return matches[0] if len(matches) == 1 else None
