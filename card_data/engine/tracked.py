"""The numbers a game tracks per player over a game, for pictures of the game (score, morale,
grain or VP against the entries of the log).

Pure data: a game's state names them (:meth:`~card_data.engine.core.GameState.tracked`); the
web layer replays a table's log and draws each :class:`Tracked` as one line per player.
"""

from __future__ import annotations

from dataclasses import dataclass

from card_data.engine.wording import Said


@dataclass(frozen=True)
class Tracked:
    """One number every player has: ``label`` (what it is, e.g. ``Words("Morale")``, said in
    the page's language) and ``values``, one per seat, as the game counts it now."""

    label: Said
    values: tuple[float, ...]
