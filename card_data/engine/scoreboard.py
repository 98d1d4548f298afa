"""What a table's first screen shows: the few numbers each player watches, whose turn it is and
the round, as the game keeps them (:meth:`card_data.engine.GameState.scoreboard`).

The page renders a :class:`Scoreboard` as it is: the rules decide what it holds, never the
template.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Scoreboard:
    """A compact scoreboard: one row per seat, one column per number.

    ``columns``: what each number counts (:class:`~card_data.engine.wording.Words`, e.g.
    ``Words("Morale")``); ``values``: per seat, one number (or short text) per column, in the
    columns' order; ``line``: the round and whose turn, in one line (Words); ``turn``: the seat
    whose turn it is, or ``None`` when it is no one's in particular (both players reveal at
    once, between rounds, game over). Raises ``ValueError`` if a seat's values do not match
    the columns or ``turn`` is not a seat.
    """

    columns: tuple[str, ...]
    values: tuple[tuple[float | int | str, ...], ...]
    line: str
    turn: int | None = None

    def __post_init__(self) -> None:
        if any(len(row) != len(self.columns) for row in self.values):
            raise ValueError(f"each seat needs {len(self.columns)} values: {self.values!r}")
        if self.turn is not None and not 0 <= self.turn < len(self.values):
            raise ValueError(f"turn {self.turn} is not a seat of {len(self.values)}")

    def rows(self) -> list[tuple[int, str, float | int | str]]:
        """``(seat, column, value)`` for every number, seat by seat (e.g. for a JSON client)."""
        return [(seat, column, value) for seat, row in enumerate(self.values)
                for column, value in zip(self.columns, row)]


def scoreboard(columns: Sequence[str], values: Sequence[Sequence[float | int | str]], line: str,
               turn: int | None = None) -> Scoreboard:
    """A :class:`Scoreboard` from any sequences (kept as tuples)."""
    return Scoreboard(tuple(columns), tuple(tuple(row) for row in values), line, turn)
