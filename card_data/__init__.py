"""The card database: YAML data for each game, its pydantic schema and the loader.

Layout of a database directory (the bundled one is this package's folder)::

    <game>/game.yaml        game metadata (title, card size, backs, rulebook)
    <game>/cards/*.yaml     lists of cards
    <game>/glossary.yaml    keyword glossary
    <game>/decks/*.yaml     deck lists (card id + quantity)
    <game>/tables.yaml      optional game tables (e.g. Carpe Diem's villa chimneys)

Use :func:`card_data.loader.load_database` to read one.
"""

from card_data.loader import Database, Game, load_database, bundled_data_dir
from card_data.problems import DatabaseError, Problem

__all__ = ["Database", "Game", "load_database", "bundled_data_dir", "DatabaseError", "Problem"]
