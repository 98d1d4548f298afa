"""The bounds of what C.A.H.R.D. players enter: every number an event takes has one (see
:mod:`card_data.engine.bounds`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

CardId = Annotated[str, Field(min_length=1)]

# The bounds of what players enter (every number an event takes has one, see
# card_data.engine.bounds): from the rulebook where it sets one, a sane value elsewhere.
OPENING_HAND = 7
"""Prepare for Battle (step 3): "Both players draw 7 cards": a hand shown holds at most 7 officers."""
MOST_DECK = 60
"""Getting Started (Deck): "The deck must consist of 40 to 60 cards": no zone holds more cards,
and no list of an army's cards is longer."""
MOST_WAR_MODIFIER = 100
"""A sane bound on a WAR modifier entered: ten times S, the highest rank (10; Glossary of Terms:
Stats)."""
MOST_MEN_CHANGE = 100
"""A sane bound on a change of men under command: an officer card prints a few points (Officer
Card: "Men Under Command: 4 Points")."""
MOST_GRAIN_CHANGE = 100_000
"""A sane bound on a change of grain: 25 times the 4000 an army starts with (Winning the Battle);
an attack on the grain takes the attacker's base WAR x100 (Step 4: The Damage Step)."""
MOST_RESERVES_CHANGE = 1_000_000
"""A sane bound on a change of reserves: they come at the army's combined CHM x1000 a turn (Step
2: The Recruitment Step)."""
