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

Shared here, at the top where everything uses them: :mod:`.schema` (what every game's cards,
rulings and decks have, on :mod:`.model_base`), :mod:`.loader` (reads and validates a data
folder, every problem at once) and :mod:`.problems` (everything wrong with input). The rest is
grouped by concern:

- :mod:`.reading`: reading a game's YAML files, bounded and naming lines (``yaml_source``), into
  records, card files (cached), deck lists and the compact card store;
- :mod:`.project`: a designer's project as ``printkit.toml`` sets it: ``base_url`` (where the
  printed QR codes point), the ``limits`` and how they are raised, ``project_folders`` (where
  the commands that write output folders may write) and ``written_files`` (the record of what
  they wrote, so they remove nothing else);
- :mod:`.declared`: what a ``game.yaml`` declares as data: deck rules, and a declared game's
  fields, scoring and the card schema made from them;
- :mod:`.editions`: printings (versions and errata), ``short_codes`` (the short card addresses
  the QR codes hold) and translations;
- :mod:`.rulings`: rulings' stable ids and their records for the rulings pages;
- :mod:`.engine`: the rule-engine core the games plug into.

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
