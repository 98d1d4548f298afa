"""The one registry of games: every game the toolkit knows, and where its knowledge lives.

Games are found, never listed:

- **bundled**: every sub-package of this package, ``card_data/games/<game_id>/`` (found by
  :func:`bundled_game_ids` from the folder listing, nothing imported);
- **installed**: every entry point of the group ``printkit.games`` (:data:`ENTRY_POINT_GROUP`)
  of an installed distribution, its name the game id and its value the import path of a
  package laid out like a bundled game's, e.g. in the plugin's ``pyproject.toml``::

      [project.entry-points."printkit.games"]
      my_game = "my_plugin.my_game"

A game package holds:

- ``cards.py``: its card schema and deck-building rules (``SPEC``, read by the loader; its
  ``game_id`` is the game id);
- its derived tables, computed once from the rules (e.g. ``carpe_cras/tempo.py``), used by
  the rule engine and by the printed reference cards alike;
- ``rules.py``, or a ``rules/`` package of modules by concern (optional for an installed
  game): its scorekeeper's rule engine (``ENGINE``), pure Python on :mod:`card_data.engine`;
- ``__init__.py``: its ``TITLE``, optionally ``ORDER`` (an int: where menus and builds list
  it, lowest first; games without one come after those with one, by id) and
  ``reference_values(game)``, the derived values its reference cards may print.

A game's data is the folder ``<game_id>/`` of the card database (YAML), its print layouts
that folder's ``templates/``. A bundled game's package folder is its data folder too: the
bundled database is this package's folder (``card_data/games/<game_id>/game.yaml`` beside
``cards.py``), and the package's ``table.html`` is the companion's scorekeeper page of the
game. An installed game has no bundled data: its data is in the project's card data folder
(``--data`` or ``printkit.toml``). card_data (the loader), printkit and companion all find games
here, through :func:`registry`, and nowhere else. Rule engines load on first use, so that a
command that needs one game's schema does not import every engine; listing the games imports
each bundled game's ``__init__`` only (for its ``ORDER``), and each installed game's
``__init__`` and ``cards`` (to check it: a broken one is a :class:`Problem`, see
:func:`registry_problems`, not an error).
"""

from __future__ import annotations

import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import import_module, metadata
from types import ModuleType
from typing import TYPE_CHECKING, Any

from card_data.problems import Problem

if TYPE_CHECKING:
    from card_data.engine import Engine
    from card_data.schema import GameSpec

ENTRY_POINT_GROUP = "printkit.games"
"""The entry point group through which installed distributions declare games."""

GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
"""What a game id may be: it names a folder, a URL part and a Python package."""


@dataclass(frozen=True, eq=False)
class GameEntry:
    """One registered game: its id, its package's import path and, loaded on first use, its
    package's parts.

    Attributes:
        game_id: e.g. ``"cartisora"``.
        module: import path of its package, e.g. ``"card_data.games.cartisora"``.
        distribution: for an installed game, the name of the distribution declaring it;
            ``None`` for a bundled game.
    """

    game_id: str
    module: str
    distribution: str | None = None

    @cached_property
    def package(self) -> ModuleType:
        return import_module(self.module)

    @property
    def title(self) -> str:
        """The game's name for people, e.g. ``"Duels of Cartisora"``."""
        return self.package.TITLE

    @property
    def order(self) -> int | None:
        """Its package's ``ORDER`` (lowest listed first), ``None`` without one."""
        order = getattr(self.package, "ORDER", None)
        return order if isinstance(order, int) and not isinstance(order, bool) else None

    @cached_property
    def spec(self) -> GameSpec:
        """How the game's card data is validated (``cards.SPEC``)."""
        return import_module(f"{self.module}.cards").SPEC

    @cached_property
    def engine(self) -> Engine:
        """The game's scorekeeper rule engine (``rules.ENGINE``)."""
        return import_module(f"{self.module}.rules").ENGINE

    def reference_values(self, game: Any) -> dict[str, Any]:
        """Values derived from the rules that the game's reference cards may print, by name
        (e.g. Carpe Cras's ``tempo_table``), for ``game`` (a ``card_data.loader.Game``);
        ``{}`` for a game without any."""
        hook = getattr(self.package, "reference_values", None)
        return hook(game) if hook is not None else {}


def bundled_game_ids(path: Iterable[str] | None = None) -> tuple[str, ...]:
    """The ids of the game packages in the folders ``path`` (default: this package's), sorted:
    every sub-package whose name is a game id (:data:`GAME_ID`). Nothing is imported."""
    found = {info.name for info in pkgutil.iter_modules(__path__ if path is None else list(path))
             if info.ispkg and GAME_ID.fullmatch(info.name)}
    return tuple(sorted(found))


@cache
def installed_entry_points() -> tuple[metadata.EntryPoint, ...]:
    """Every entry point of :data:`ENTRY_POINT_GROUP` of the installed distributions, looked up
    once per process; nothing is imported."""
    return tuple(metadata.entry_points(group=ENTRY_POINT_GROUP))


def game_ids() -> tuple[str, ...]:
    """Every game id, bundled or declared by an installed distribution, sorted, without
    importing any game (for command-line choices; an installed game may still prove broken:
    :func:`registry` is the checked list)."""
    return tuple(sorted(set(bundled_game_ids()) | {ep.name for ep in installed_entry_points()}))


def _describe(ep: metadata.EntryPoint) -> str:
    dist = ep.dist.name if ep.dist is not None else "an unknown distribution"
    return f"entry point '{ep.name} = {ep.value}' of distribution '{dist}' (group {ENTRY_POINT_GROUP})"


def _check_installed(ep: metadata.EntryPoint, taken: set[str]) -> tuple[GameEntry | None, str]:
    """The entry of the game ``ep`` declares, or ``None`` and what is wrong with it."""
    from card_data.schema import GameSpec

    if not GAME_ID.fullmatch(ep.name):
        return None, f"'{ep.name}' is not a game id (lowercase letters, digits and _, from a letter)"
    if ep.name in taken:
        return None, f"game id '{ep.name}' is already taken by another game; this one is left out"
    if ep.attr:
        return None, "the value must name a package (my_plugin.my_game), not an object in one"
    entry = GameEntry(ep.name, ep.module, ep.dist.name if ep.dist is not None else None)
    try:
        # A plugin's import may fail in any way; its failure is told, and the other games load.
        title = getattr(entry.package, "TITLE", None)
        cards = import_module(f"{ep.module}.cards")
    except Exception as exc:  # noqa: BLE001
        return None, f"cannot be imported: {type(exc).__name__}: {exc}"
    spec = getattr(cards, "SPEC", None)
    if not isinstance(title, str) or not title:
        return None, f"{ep.module}.TITLE must be the game's name (a non-empty string)"
    if not isinstance(spec, GameSpec):
        return None, f"{ep.module}.cards.SPEC must be a card_data.schema.GameSpec"
    if spec.game_id != ep.name:
        return None, f"{ep.module}.cards.SPEC is for game '{spec.game_id}', not '{ep.name}'"
    return entry, ""


@cache
def _discover() -> tuple[dict[str, GameEntry], tuple[Problem, ...]]:
    entries = {game_id: GameEntry(game_id, f"{__name__}.{game_id}") for game_id in bundled_game_ids()}
    problems = []
    for ep in installed_entry_points():
        entry, wrong = _check_installed(ep, set(entries))
        if entry is None:
            problems.append(Problem(game=ep.name if GAME_ID.fullmatch(ep.name) else "", field="entry point",
                                    message=f"installed game {_describe(ep)}: {wrong}"))
        else:
            entries[entry.game_id] = entry
    ordered = sorted(entries.values(), key=lambda e: (e.order is None, e.order or 0, e.game_id))
    return {e.game_id: e for e in ordered}, tuple(problems)


def registry() -> dict[str, GameEntry]:
    """Every game by id: the bundled ones and those of installed distributions that could be
    loaded, ordered by their packages' ``ORDER``, then by id. Found once per process."""
    return _discover()[0]


def registry_problems() -> tuple[Problem, ...]:
    """What is wrong with the games installed distributions declare (an entry point whose
    package cannot be imported, lacks ``TITLE`` or ``cards.SPEC``, or whose id is taken), one
    :class:`Problem` each (``game``: the entry point's name, ``field``: ``"entry point"``,
    the message naming the distribution and the entry point). Those games are left out of
    :func:`registry`; the others are unaffected."""
    return _discover()[1]


def game_entry(game_id: str) -> GameEntry:
    """The game ``game_id``. Raises ``KeyError`` naming the known games for an unknown id."""
    try:
        return registry()[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known games: {', '.join(registry())}") from None
