"""Everything the toolkit knows about its games: card data, schemas, derived tables and rules.

Where a game lives:

- ``card_data/games/<game>/``, one folder per game, the bundled database
  (:func:`card_data.loader.bundled_data_dir`), holding
  - its data (YAML): ``game.yaml`` (title, card size, backs, rulebook), ``cards/*.yaml``,
    ``glossary.yaml``, ``decks/*.yaml``, ``tables.yaml`` (where the game has one) and
    ``reference.yaml`` (what its printed reference cards say);
  - ``templates/``: its print layouts (printkit reads them);
  - its knowledge in Python, the folder being its package: ``cards.py`` (card schema and deck
    rules), its derived tables, ``rules.py`` (the scorekeeper's rule engine);
  - ``table.html``: its scorekeeper page (the companion's).
  The one registry of games is :mod:`card_data.games`.

Shared here: :mod:`.schema` (what every game's cards, rulings and decks have),
:mod:`.engine` (the rule-engine core the games plug into), :mod:`.loader` (reads and
validates a data folder, every problem at once), :mod:`.problems`, :mod:`.yaml_source`
and :mod:`.base_url` (where the printed QR codes point), :mod:`.short_codes` (the short card
addresses they hold); for the commands that write output folders, :mod:`.project_folders`
(where they may write) and :mod:`.written_files` (the record of what they wrote, so they remove
nothing else).

printkit and the companion import this package; it imports neither.
"""

__all__ = ["Database", "Game", "load_database", "bundled_data_dir", "DatabaseError", "Problem"]


def __getattr__(name: str):
    # Loaded on first use: importing any card_data module (base_url, games) must not pull in the
    # loader's pydantic schemas, or every ``printkit --help`` pays for them.
    if name in ("Database", "Game", "load_database", "bundled_data_dir"):
        from card_data import loader
        return getattr(loader, name)
    if name in ("DatabaseError", "Problem"):
        from card_data import problems
        return getattr(problems, name)
    raise AttributeError(f"module 'card_data' has no attribute {name!r}")
