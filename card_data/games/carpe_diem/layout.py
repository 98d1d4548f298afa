"""Carpe Diem's scoring-card layout: where the scoring cards lie and which circle spaces lie between them.

The sources give only the counts (2018 rulebook, Set-up details: the scoring set for the
player count, with 9 / 13 / 17 circle spaces for 2 / 3 / 4 players). Our reading of the
board: the set is laid out in rows, in deck-list order, filled from the top left, and a circle
space lies between every two cards side by side or one above the other. The row width is the
widest whose grid has exactly the table's number of circles: 4 players 3 rows of 4 cards (17
circles), 3 players 2 rows of 5 (13), 2 players a row of 5 over a row of 3 (9). Circles are
numbered row by row: first the circles between cards of the row, left to right, then those
below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from card_data.engine import Model, Words

Rows = tuple[tuple[str, ...], ...]
"""Rows of scoring-card ids as laid out, top row first."""
Pair = tuple[str, str]
"""Two adjacent card ids: left then right, or top then bottom."""


def grid_pairs(rows: Sequence[Sequence[str]]) -> tuple[Pair, ...]:
    """Adjacent card pairs of a layout in circle order: across each row, then down to the next."""
    pairs: list[Pair] = []
    for r, row in enumerate(rows):
        pairs += list(zip(row, row[1:]))
        if r + 1 < len(rows):
            pairs += list(zip(row, rows[r + 1]))
    return tuple(pairs)


def lay_out(card_ids: Sequence[str], circles: int) -> tuple[Rows, tuple[Pair, ...]]:
    """Lay the scoring cards out in rows with ``circles`` circle spaces between them.

    Returns ``(rows, pairs)``: rows of card ids (deck-list order, filled from the top left) in
    the widest row width whose grid has exactly ``circles`` adjacent pairs, and those pairs in
    circle order (circle ``n`` lies between ``pairs[n - 1]``). Raises ``ValueError`` if no width
    gives that many. Our reading: see the module docstring.
    """
    ids = tuple(card_ids)
    for width in range(len(ids), 0, -1):
        rows = tuple(ids[i:i + width] for i in range(0, len(ids), width))
        pairs = grid_pairs(rows)
        if len(pairs) == circles:
            return rows, pairs
    raise ValueError(Words("no row width lays out %(cards)d cards with %(circles)d circle spaces", cards=len(ids),
                           circles=circles))


class GridCell(Model):
    """One cell of the drawn layout: a card (``card`` id), a circle (``circle`` number, lying
    ``across`` between two cards side by side or ``down`` between two cards one above the
    other) or a gap."""

    kind: Literal["card", "circle", "gap"]
    card: str | None = None
    circle: int | None = None
    direction: Literal["across", "down"] | None = None


def grid(rows: Rows, pairs: Sequence[Pair]) -> tuple[tuple[GridCell, ...], ...]:
    """The layout drawn as a grid: cards on even rows and columns, the circle between two cards
    side by side in the odd column between them, the circle between two cards one above the
    other in the odd row between them, gaps elsewhere. ``pairs``: the circles' card pairs in
    circle order (as :func:`lay_out` returns them)."""
    number = {pair: n for n, pair in enumerate(pairs, start=1)}
    width = max(len(row) for row in rows)
    cells: list[tuple[GridCell, ...]] = []
    for r, row in enumerate(rows):
        line = []
        for c in range(width):
            if c > 0:
                line.append(GridCell(kind="circle", circle=number[(row[c - 1], row[c])], direction="across")
                            if c < len(row) else GridCell(kind="gap"))
            line.append(GridCell(kind="card", card=row[c]) if c < len(row) else GridCell(kind="gap"))
        cells.append(tuple(line))
        if r + 1 < len(rows):
            below = rows[r + 1]
            line = []
            for c in range(width):
                if c > 0:
                    line.append(GridCell(kind="gap"))
                line.append(GridCell(kind="circle", circle=number[(row[c], below[c])], direction="down")
                            if c < len(below) else GridCell(kind="gap"))
            cells.append(tuple(line))
    return tuple(cells)
