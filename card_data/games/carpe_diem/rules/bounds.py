"""The bounds of what Carpe Diem players enter: every number an event takes has one (see
:mod:`card_data.engine.bounds`)."""

from __future__ import annotations

from card_data.engine import Bounded

# The bounds of what players enter (every number an event takes has one, see
# card_data.engine.bounds): from the components where they set one, a sane value elsewhere.
BUILDING_TILES = 84 + 39
"""Summary, Components: "84 light green building tiles + 39 dark green building tiles". No one
owns more buildings or landscapes, completes more villas or stores more tiles than that, and no
building has more tiles."""
FOUNTAIN_CARDS = 24
"""Summary, Components: "24 fountain cards": no one holds more."""
FRAME_PARTS = 16
"""Summary, Components: "16 frame parts": no one meets more frame goals than there are parts."""
MOST_CIRCLES = 99
"""A sane bound on a circle's number: the 2018 rulebook's boards have 9, 13 or 17 circles
(``tables.yaml``, ``circle_spaces``), and the rules refuse one the table does not have."""
MOST_BANDEROLE_SPACES = 36
"""Summary, Components: "36 banderoles": one move on the banderole bar covers no more spaces."""
MOST_CHIMNEYS = 999
"""A sane bound on chimneys entered (the sources do not say how many a villa tile shows)."""
MOST_HELD = 999
"""A sane bound on one holding entered (grapes, herbs, chicken, fish, coins or bread), and so on
the times a red card is paid: the box holds 5 of each ware, 24 coins and 18 bread (summary,
Components), but a table may play with stand-ins."""
MOST_VP_CHANGE = 1000
"""A sane bound on VP entered by hand (an adjustment either way, other frame goals): the box's
66 victory point cards of 1 to 25 VP (summary, Components) add up to less."""
OwnedCount = Bounded[0, BUILDING_TILES]
"""How many of an owned building or landscape a player has (see :data:`BUILDING_TILES`)."""
