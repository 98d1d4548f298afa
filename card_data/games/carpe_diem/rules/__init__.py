"""Carpe Diem scorekeeper: phases and rounds, building rewards, the banderole bar, scoring periods,
final scoring.

Sources (``/work/shared/rules``): ``carpe-diem-summary.txt`` (the "summary") and
``carpe-diem-published-rules-notes.md`` (notes on the published 2018 rulebook, the "2018
rulebook"). Every number the components print as icons (starting VP, the unmet-card penalty,
bread per card, dwelling and landscape rewards, the villa chimney table, the banderole bar VP,
frame goals, the leftovers divisor) comes from ``card_data/carpe_diem/tables.yaml`` and the
scoring and fountain cards, copied into the state's :class:`Board` by :func:`set_up`.

What the players enter, one event class each (in the order of a game):

1. During a phase's rounds (``step`` ``rounds``): :class:`RoundPlayed` or :class:`PhaseEnded`;
   what changes a sheet: :class:`BanderoleMove` (a banderole space built over),
   :class:`SetResources` (holdings typed in), and the building rewards (summary, Actions:
   Building Completions and Rewards): :class:`CompleteLandscape`, :class:`CompleteDwelling`,
   :class:`CompleteVilla`, :class:`PlaceBuilding` (market, bakery, fountain).
2. In each scoring period (``step`` ``scoring``): :class:`Score`, in banderole-bar order.
3. After the fourth (``step`` ``final``): :class:`FinalScore`, once per player; then the game is over.

What the scorekeeper models, and what it leaves to the table (our readings):

- Rounds are not checked tile by tile: players tap "Round played" (or "End phase") and
  enter what changes their sheet, in the rounds only (a scoring period places no tiles).
- The banderole bar is kept as spaces plus one order of all discs, furthest ahead first; a
  disc arriving on an occupied space goes on top, i.e. ahead of the discs already there.
- Owned counts are tracked from play (2018 rulebook, Other rules a checker can hold): a
  district starts empty (summary, Building Rules: the first tile goes on the shovel space), so
  every count a scoring card or a fountain card asks for starts at 0 and the building events
  add to it. ``chimney`` is not tracked: chimneys count in villas still being built, whose tiles
  the scorekeeper does not see, so a card counting them needs the count entered. A count
  entered at scoring wins, and becomes the count later buildings add to, so a table that
  types its counts keeps working.
- Villas give nothing at once, but a completed villa is entered (:class:`CompleteVilla`) with
  its chimneys: it counts for the cards counting completed villas, and the final scoring uses
  the villas recorded unless the player lists them.
- Landscapes: the sources name two of the four kinds (ponds and gardens) and do not say which
  ware each kind gives, so the player chooses the ware; any other kind is entered as "another
  kind" and counts only as a completed landscape.
- A craftsman dwelling's free dark green tile is placed at the table, not tracked: a
  building it completes is entered as its own event.
- A fountain records the fountain card kept (draw 2, keep 1). Swapping a card kept earlier at a
  later fountain is not tracked; the fountain cards entered at the final scoring win.
- Scoring-card layout: see :mod:`card_data.games.carpe_diem.layout`.
- Red cards are paid wares first, coins covering only what the wares do not; over the two
  cards of one circle this never needs more coins than any other way of paying.
- Victory points are plain numbers and may drop below zero after penalties.

The engine's modules: :mod:`.state` (the sheets, the board and where the game stands),
:mod:`.engine` (set-up and :data:`ENGINE`), :mod:`.citations` (the sources' sections cited),
:mod:`.wording` (names and shared lines), :mod:`.bounds` (the bounds of what players enter),
:mod:`.steps` (what the events share), :mod:`.scoring` (a scoring card resolved, the final
sheet) and one ``events_*`` module per part of the game, in the order above.
"""

from card_data.games.carpe_diem.rules.bounds import (
    BUILDING_TILES,
    FOUNTAIN_CARDS,
    FRAME_PARTS,
    MOST_BANDEROLE_SPACES,
    MOST_CHIMNEYS,
    MOST_CIRCLES,
    MOST_HELD,
    MOST_VP_CHANGE,
)
from card_data.games.carpe_diem.rules.citations import RULEBOOK, SUMMARY
from card_data.games.carpe_diem.rules.engine import ENGINE, set_up
from card_data.games.carpe_diem.rules.scoring import CardResolution, final_sheet, resolve_card
from card_data.games.carpe_diem.rules.state import (
    OWNED_NAMES,
    RESOURCE_NAMES,
    TRACKED,
    UNTRACKED,
    WARE_NAMES,
    Board,
    Circle,
    Disc,
    FinalSheet,
    Options,
    PlayerSheet,
    State,
    Step_,
    Tables,
)
from card_data.games.carpe_diem.rules.steps import CarpeDiemEvent, OwnedCounts, with_sheet

# The events register with ENGINE as their modules are first imported, and pages offer them in
# that order: keep these imports in the order of the game.
from card_data.games.carpe_diem.rules.events_rounds import PhaseEnded, RoundPlayed  # isort: skip
from card_data.games.carpe_diem.rules.events_scoring import FinalScore, Score  # isort: skip
from card_data.games.carpe_diem.rules.events_buildings import (  # isort: skip
    BanderoleMove,
    CompleteDwelling,
    CompleteLandscape,
    CompleteVilla,
    PlaceBuilding,
)
from card_data.games.carpe_diem.rules.events_sheet import AdjustVictoryPoints, SetResources  # isort: skip

__all__ = [
    "ENGINE", "set_up", "SUMMARY", "RULEBOOK", "BUILDING_TILES", "FOUNTAIN_CARDS", "FRAME_PARTS", "MOST_CIRCLES",
    "MOST_BANDEROLE_SPACES", "MOST_CHIMNEYS", "MOST_HELD", "MOST_VP_CHANGE", "WARE_NAMES", "OWNED_NAMES",
    "RESOURCE_NAMES", "UNTRACKED", "TRACKED", "Step_", "Options", "FinalSheet", "PlayerSheet", "Disc", "Circle",
    "Tables", "Board", "State", "CardResolution", "resolve_card", "final_sheet", "CarpeDiemEvent", "OwnedCounts",
    "with_sheet",
    "RoundPlayed", "PhaseEnded", "Score", "FinalScore", "BanderoleMove", "CompleteLandscape", "CompleteDwelling",
    "CompleteVilla", "PlaceBuilding", "SetResources", "AdjustVictoryPoints",
]
