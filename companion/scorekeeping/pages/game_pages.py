"""Each game's own scorekeeper page, found in the game's folder.

A game's part of the table page (its board, scores and counters) is ``table.html`` in the
game's package folder, beside its data and rules (``card_data/games/<game>/table.html`` for a
bundled game; an installed game's package may hold one too). The companion's templates reach it
by the name :func:`table_page` gives, ``games/<game>/table.html``, through the Jinja loader
:func:`game_pages_loader` adds to the app: a :class:`jinja2.PrefixLoader` over the registered
games' folders, consulted after the companion's own templates.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader

from card_data.games import registry
from card_data.project.project_folders import GAME_TABLE_PAGE
from companion.scorekeeping.pages.shared_parts import kept

PREFIX = "games"
"""The first part of a game page's template name; no folder of ``companion/templates`` has it."""


DECLARED_TABLE_PAGE = "tables/_declared_game.html"
"""The scorekeeper page of every declared game (one whose ``game.yaml`` declares ``scoring:``,
no registered package): drawn from its engine's state alone."""


def table_page(game_id: str) -> str:
    """The template name of ``game_id``'s scorekeeper page, e.g. ``games/cahrd/table.html``
    (:data:`DECLARED_TABLE_PAGE` for a game that is not registered: a declared game)."""
    if game_id not in registry():
        return DECLARED_TABLE_PAGE
    return f"{PREFIX}/{game_id}/{GAME_TABLE_PAGE}"


def game_pages_loader() -> BaseLoader:
    """A loader of ``games/<game>/<file>`` from each registered game's package folder (every
    game of :func:`card_data.games.registry` whose package is a folder with an ``__init__.py``;
    a game without the file is a ``TemplateNotFound`` when asked for)."""
    folders = {game_id: FileSystemLoader(Path(entry.package.__file__).parent)
               for game_id, entry in registry().items() if getattr(entry.package, "__file__", None)}
    return PrefixLoader({PREFIX: PrefixLoader(folders)})


def init_app(app: Flask) -> None:
    """Let ``app``'s templates include the games' pages (its own templates first), which may
    keep their blocks that change with few entries (``{% call kept(...) %}``, :func:`kept`)."""
    own = app.jinja_loader
    app.jinja_loader = ChoiceLoader([own, game_pages_loader()] if own is not None else [game_pages_loader()])
    app.add_template_global(table_page, "table_page")
    app.add_template_global(kept, "kept")
