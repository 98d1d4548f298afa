"""Seats: a player's place at the table, the one seat type of every game.

A field typed :data:`Seat` is checked by the engine against the table's players (see
:meth:`card_data.engine.Engine.step`) and offered in forms as a choice of their names.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

from card_data.engine.wording import Words

MAX_SEATS = 8
"""No game here seats more; seat numbers are 0 to 7."""

MAX_PLAYER_NAME = 40
"""Longest name of the player at a seat (characters): it has to fit a phone's score line."""

_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def unshowable_character(name: str) -> str | None:
    """The first character of ``name`` a name must not hold, as ``U+202E``, or ``None``: control
    characters (NUL, line breaks, tabs) and the bidirectional overrides and isolates, which turn
    the text after them around on every phone at the table. Emoji and their joiners are fine."""
    found = _UNSHOWABLE.search(name)
    return f"U+{ord(found.group(0)):04X}" if found else None


PLAYER_COLOURS = ("blue", "red", "green", "yellow", "purple", "orange", "black", "white")
"""The colours players may take (names the companion's CSS knows), in the order seats get them
by default; a declared game's ``scoring: players: colours:`` names some of them."""


class SeatField:
    """Marks a field as a seat number, so the engine checks it names a seat of the table."""


SEAT = SeatField()
Seat = Annotated[int, Field(ge=0, le=MAX_SEATS - 1, title=Words("Player")), SEAT]
"""A player's seat: 0 for the first player named at the table, 1 for the next... The engine
refuses an event whose seat is not one of the table's (:meth:`Engine.step`), and forms offer
it as a choice of the players' names."""
