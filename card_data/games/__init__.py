"""The one registry of games: every game the toolkit knows, and where its knowledge lives.

A game lives in ``card_data/games/<game_id>/``:

- ``cards.py``: its card schema and deck-building rules (``SPEC``, read by the loader);
- its derived tables, computed once from the rules (e.g. ``carpe_cras/tempo.py``), used by
  the rule engine and by the printed reference cards alike;
- ``rules.py``: its scorekeeper's rule engine (``ENGINE``), pure Python on
  :mod:`card_data.engine`;
- ``__init__.py``: its title, and ``reference_values(game)``, the derived values its
  reference cards may print.

Its data is in ``card_data/<game_id>/`` (YAML) and its print layouts in
``templates/<game_id>/``. card_data (the loader), printkit and companion all find games
here, through :func:`registry`, and nowhere else. Modules load on first use, so that a
command that needs one game's schema does not import every engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from card_data.engine import Engine
    from card_data.schema import GameSpec

GAME_IDS: tuple[str, ...] = ("carpe_cras", "cartisora", "cahrd", "carpe_diem")
"""Every bundled game, in the order menus and builds list them."""


@dataclass(frozen=True, eq=False)
class GameEntry:
    """One registered game: its id and, loaded on first use, its package's parts."""

    game_id: str

    @cached_property
    def package(self) -> ModuleType:
        return import_module(f"{__name__}.{self.game_id}")

    @property
    def title(self) -> str:
        """The game's name for people, e.g. ``"Duels of Cartisora"``."""
        return self.package.TITLE

    @cached_property
    def spec(self) -> GameSpec:
        """How the game's card data is validated (``cards.SPEC``)."""
        return import_module(f"{__name__}.{self.game_id}.cards").SPEC

    @cached_property
    def engine(self) -> Engine:
        """The game's scorekeeper rule engine (``rules.ENGINE``)."""
        return import_module(f"{__name__}.{self.game_id}.rules").ENGINE

    def reference_values(self, game: Any) -> dict[str, Any]:
        """Values derived from the rules that the game's reference cards may print, by name
        (e.g. Carpe Cras's ``tempo_table``), for ``game`` (a ``card_data.loader.Game``);
        ``{}`` for a game without any."""
        hook = getattr(self.package, "reference_values", None)
        return hook(game) if hook is not None else {}


@cache
def registry() -> dict[str, GameEntry]:
    """Every game by id, in :data:`GAME_IDS` order."""
    return {game_id: GameEntry(game_id) for game_id in GAME_IDS}


def game_entry(game_id: str) -> GameEntry:
    """The game ``game_id``. Raises ``KeyError`` naming the known games for an unknown id."""
    try:
        return registry()[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known games: {', '.join(GAME_IDS)}") from None
