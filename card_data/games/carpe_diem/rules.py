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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Literal

from pydantic import Field, NonNegativeInt, PositiveInt, field_validator

from card_data.engine import (
    Bounded,
    Choice,
    Counter,
    Engine,
    Event,
    FormField,
    GameState,
    Model,
    Move,
    ReadOnlyDict,
    RuleError,
    Seat,
    Step,
    Words,
    replace_at,
)
from card_data.engine.forms import derive_field
from card_data.games.carpe_diem import TITLE
from card_data.games.carpe_diem.cards import (
    SCORING_SET_PLAYERS,
    BanderoleBar,
    CarpeDiemTables,
    DwellingRewards,
    FountainCard,
    FrameGoal,
    LandscapeReward,
    Leftovers,
    Need,
    Owned,
    ScoringCard,
    TieBreaker,
    VillaChimneys,
    Ware,
    added,
    listed,
)
from card_data.games.carpe_diem.layout import GridCell, Pair, Rows, grid, lay_out

SUMMARY = Words("Carpe Diem summary (carpe-diem-summary.txt)")
RULEBOOK = Words("Carpe Diem 2018 rulebook (carpe-diem-published-rules-notes.md)")

WARE_NAMES: tuple[str, ...] = Ware.__args__
OWNED_NAMES: tuple[str, ...] = Owned.__args__
RESOURCE_NAMES: tuple[str, ...] = (*WARE_NAMES, "coins", "bread")
"""The holdings a player enters: the four wares, coins and bread."""
UNTRACKED: frozenset[str] = frozenset({"chimney"})
"""Owned things the scorekeeper cannot count from play (chimneys of villas being built)."""
TRACKED: tuple[str, ...] = tuple(t for t in OWNED_NAMES if t not in UNTRACKED)
"""Owned things counted from play, each starting at 0 (see the module docstring)."""

OWNED_TITLES: dict[str, Words] = {
    "chimney": Words("Chimneys (in every villa, complete or not)"),
    "completed_villa": Words("Completed villas"),
    "completed_merchant_dwelling": Words("Completed merchant dwellings"),
    "completed_baker_dwelling": Words("Completed baker dwellings"),
    "completed_administrator_dwelling": Words("Completed administrator dwellings"),
    "completed_craftsman_dwelling": Words("Completed craftsman dwellings"),
    "completed_landscape": Words("Completed landscapes (any kind)"),
    "completed_pond": Words("Completed ponds"),
    "completed_garden": Words("Completed gardens"),
    "market": Words("Markets"),
    "bakery": Words("Bakeries"),
    "fountain": Words("Fountains"),
}
"""What each owned thing is called on forms and on the page."""

OWNED_COUNTS: dict[str, Callable[[int], Words]] = {
    "chimney": lambda n: Words("chimneys %(n)d", n=n),
    "completed_villa": lambda n: Words("completed villas %(n)d", n=n),
    "completed_merchant_dwelling": lambda n: Words("completed merchant dwellings %(n)d", n=n),
    "completed_baker_dwelling": lambda n: Words("completed baker dwellings %(n)d", n=n),
    "completed_administrator_dwelling": lambda n: Words("completed administrator dwellings %(n)d", n=n),
    "completed_craftsman_dwelling": lambda n: Words("completed craftsman dwellings %(n)d", n=n),
    "completed_landscape": lambda n: Words("completed landscapes %(n)d", n=n),
    "completed_pond": lambda n: Words("completed ponds %(n)d", n=n),
    "completed_garden": lambda n: Words("completed gardens %(n)d", n=n),
    "market": lambda n: Words("markets %(n)d", n=n),
    "bakery": lambda n: Words("bakeries %(n)d", n=n),
    "fountain": lambda n: Words("fountains %(n)d", n=n),
}
"""An owned thing's count as history lines give it, e.g. ``"completed ponds 1"``."""

GOAL_TITLES: dict[str, Words] = {
    "chimney": Words("Chimney"),
    "completed_villa": Words("Completed villa"),
    "completed_merchant_dwelling": Words("Completed merchant dwelling"),
    "completed_baker_dwelling": Words("Completed baker dwelling"),
    "completed_administrator_dwelling": Words("Completed administrator dwelling"),
    "completed_craftsman_dwelling": Words("Completed craftsman dwelling"),
    "completed_landscape": Words("Completed landscape"),
    "completed_pond": Words("Completed pond"),
    "completed_garden": Words("Completed garden"),
    "market": Words("Market"),
    "bakery": Words("Bakery"),
    "fountain": Words("Fountain"),
}
"""What a frame goal showing an owned thing is called on the final-scoring form."""

HOLDING_CHANGES: dict[str, Callable[[int, int], Words]] = {
    "grapes": lambda was, now: Words("grapes %(was)d → %(now)d", was=was, now=now),
    "herbs": lambda was, now: Words("herbs %(was)d → %(now)d", was=was, now=now),
    "chicken": lambda was, now: Words("chicken %(was)d → %(now)d", was=was, now=now),
    "fish": lambda was, now: Words("fish %(was)d → %(now)d", was=was, now=now),
    "coins": lambda was, now: Words("coins %(was)d → %(now)d", was=was, now=now),
    "bread": lambda was, now: Words("bread %(was)d → %(now)d", was=was, now=now),
}
"""A holding's change as history lines give it, e.g. ``"herbs 0 → 4"``."""

WARE_GAINS: dict[str, Callable[[int], Words]] = {
    "grapes": lambda n: Words("+%(n)d grapes", n=n),
    "herbs": lambda n: Words("+%(n)d herbs", n=n),
    "chicken": lambda n: Words("+%(n)d chicken", n=n),
    "fish": lambda n: Words("+%(n)d fish", n=n),
}
"""Wares gained, as history lines give them, e.g. ``"+2 herbs"``."""

WHOSE: dict[str, Callable[[str], Words]] = {
    "landscape": lambda name: Words("%(name)s's landscape", name=name),
    "dwelling": lambda name: Words("%(name)s's dwelling", name=name),
    "villa": lambda name: Words("%(name)s's villa", name=name),
    "market": lambda name: Words("%(name)s's market", name=name),
    "bakery": lambda name: Words("%(name)s's bakery", name=name),
    "fountain": lambda name: Words("%(name)s's fountain", name=name),
}
"""A player's building entered in the rounds, as refusals name it (:func:`require_rounds`)."""

MARKET_COINS = 1
BAKERY_BREAD = 1
"""Summary, Actions (Building Completions and Rewards): "Markets: Place for 1 coin. Bakeries:
Place for 1 bread." (stated in words, not printed as icons, so not in ``tables.yaml``)."""
FOUNTAIN_DRAW, FOUNTAIN_KEEP = 2, 1
"""Summary, Actions: "Fountains: Place to draw 2 fountain cards, keep 1"."""

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

Step_ = Literal["rounds", "scoring", "final"]
"""The game's own step: ``rounds`` (a phase's rounds are being played), ``scoring`` (the
scoring period after the phase), ``final`` (the final scoring; it stays ``final`` once over)."""
Landscape = Literal["pond", "garden", "other"]
Dwelling = Literal["merchant", "baker", "administrator", "craftsman"]
Building = Literal["market", "bakery", "fountain"]

RULE_ROUNDS = Words("%(source)s, Turn Structure: each phase is a set number of rounds followed by a scoring "
                    "period, in which no rounds are played", source=SUMMARY)
RULE_SCORING_ORDER = Words("%(source)s, Scoring periods: players score furthest along the banderole bar "
                           "first, on one space the disc on top first, each placing one disc", source=RULEBOOK)
RULE_CIRCLES = Words("%(source)s, Scoring periods: a disc goes on an empty circle space; discs from "
                     "earlier scoring periods block theirs for good", source=RULEBOOK)
RULE_CARD_ORDER = Words("%(source)s, Special Rules & Edge Cases: the disc triggers the two cards beside its "
                        "circle, in the order the player picks", source=SUMMARY)
RULE_RED = Words("%(source)s, Scoring periods: a red card takes payment in wares, coins replacing any "
                 "ware; paying it k times gives the reward k times", source=RULEBOOK)
RULE_GREEN = Words("%(source)s, Scoring periods: a green card counts what the player owns; every full "
                   "set owned gives the reward once", source=RULEBOOK)
RULE_BREAD = Words("%(source)s, Scoring periods: bread fulfils one scoring card of either colour once",
                   source=RULEBOOK)
RULE_FINAL = Words("%(source)s, Final scoring: after the last scoring period each player scores once",
                   source=RULEBOOK)
RULE_VILLAS = Words("%(source)s, Final scoring: each completed villa scores by its chimneys", source=RULEBOOK)
RULE_FOUNTAINS = Words("%(source)s, Final scoring: fountain cards score their own conditions", source=RULEBOOK)
RULE_FRAME = Words("%(source)s, Final scoring: frame goals", source=RULEBOOK)
RULE_BAR = Words("%(source)s, Scoring periods: players only place discs and resolve cards, so only "
                 "scoring-card rewards move discs on the banderole bar", source=RULEBOOK)
RULE_HOLDINGS = Words("%(source)s, Components: wares, coins and bread", source=SUMMARY)
RULE_BUILDING = Words("%(source)s, Turn Structure: tiles are taken and placed in the rounds, and completed "
                      "buildings and landscapes give their rewards at once", source=SUMMARY)
RULE_LANDSCAPE = Words("%(source)s, Actions (Building Completions and Rewards): a landscape of 2-4 tiles "
                       "gives (tiles - 1) matching wares", source=SUMMARY)
RULE_PLACE = Words("%(source)s, Actions (Building Completions and Rewards): a market is placed for "
                   "%(coins)d coin, a bakery for %(bread)d bread", source=SUMMARY, coins=MARKET_COINS,
                   bread=BAKERY_BREAD)
RULE_FOUNTAIN = Words("%(source)s, Other rules a checker can hold: a fountain draws %(draw)d "
                      "fountain cards and keeps %(keep)d", source=RULEBOOK, draw=FOUNTAIN_DRAW, keep=FOUNTAIN_KEEP)
RULE_OVER = Words("%(source)s, Scoring / Victory Conditions (End of game): the game ends with the final scoring",
                  source=SUMMARY)
RULE_VP = Words("%(source)s, Components: victory point cards (values 1, 3, 5, 10, 25) are taken and handed back "
                "as players gain and lose points", source=SUMMARY)


class Options(Model):
    """Table options.

    ``tie_breaker``: ``"summary"`` (default, as ``tables.yaml`` names it): among the players
    tied for most VP the one furthest along the banderole bar wins; ``"rulebook"`` (published
    2018 rulebook): the one furthest BEHIND wins.
    """

    tie_breaker: Literal["summary", "rulebook"] = Field(
        "summary",
        title=Words("Tie-breaker"),
        description=Words("summary: the tied player furthest ahead on the banderole bar wins; "
                          "rulebook (2018): the tied player furthest behind wins"),
        json_schema_extra={"labels": {"summary": Words("Summary: furthest ahead wins"),
                                      "rulebook": Words("2018 rulebook: furthest behind wins")}},
    )


TIE_BREAKER_NAMES: dict[str, Words] = {"summary": Words("summary"), "rulebook": Words("rulebook")}
"""The tie-breaker options as the final line names them (``"summary tie-breaker"``)."""


# --- state ---------------------------------------------------------------------------------


class FinalSheet(Model):
    """VP a player gained at the final scoring, by source (2018 rulebook, Final scoring)."""

    villas: int
    leftovers: int
    banderole_bar: int
    fountain_cards: int
    frame_goals: int

    @property
    def total(self) -> int:
        """All final-scoring VP together."""
        return self.villas + self.leftovers + self.banderole_bar + self.fountain_cards + self.frame_goals


class PlayerSheet(Model):
    """One player's sheet.

    Attributes:
        vp: victory points. ``space``: banderole bar space of the player's disc (start 0).
        grapes, herbs, chicken, fish, coins, bread: holdings.
        owned: what the player owns as far as the scorekeeper knows (owned thing -> count):
            every :data:`TRACKED` thing from set-up (0) on, kept by the building events and
            corrected by counts entered at scoring; ``chimney`` only as last entered (to
            pre-fill forms, never used without an entry).
        villas: the chimneys of each completed villa recorded in play (:class:`CompleteVilla`).
        fountain_cards: fountain card ids kept when fountains were placed (:class:`PlaceBuilding`).
        final: the final scoring, once entered.
    """

    vp: int
    space: NonNegativeInt = 0
    grapes: NonNegativeInt = 0
    herbs: NonNegativeInt = 0
    chicken: NonNegativeInt = 0
    fish: NonNegativeInt = 0
    coins: NonNegativeInt = 0
    bread: NonNegativeInt = 0
    owned: ReadOnlyDict[Owned, NonNegativeInt] = Field(default_factory=dict, validate_default=True)
    villas: tuple[PositiveInt, ...] = ()
    fountain_cards: tuple[str, ...] = ()
    final: FinalSheet | None = None

    def wares(self) -> dict[str, int]:
        """Ware -> how many the player holds."""
        return {w: getattr(self, w) for w in WARE_NAMES}

    def holdings(self) -> dict[str, int]:
        """Every resource the player enters (wares, coins, bread) -> how many they hold."""
        return {r: getattr(self, r) for r in RESOURCE_NAMES}

    def tracked(self) -> dict[str, int]:
        """The tracked counts (thing -> count), in :data:`Owned` order."""
        return {t: self.owned[t] for t in TRACKED if t in self.owned}

    def counts(self, entered: Mapping[str, int]) -> dict[str, int]:
        """The owned counts a scoring uses: the tracked ones, with the ``entered`` ones winning."""
        return {**self.tracked(), **entered}


class Disc(Model):
    """A scoring disc on a circle space: whose (``seat``) and from which scoring ``period``."""

    seat: int
    period: PositiveInt


class Circle(Model):
    """A circle space for scoring discs between two adjacent scoring cards (card ids, in
    layout order: left then right, or top then bottom). ``seat``/``period``: whose disc took
    it and in which scoring period; a taken circle stays blocked for the rest of the game."""

    number: PositiveInt
    cards: tuple[str, str]
    seat: int | None = None
    period: int | None = None


class Tables(Model):
    """The values from ``tables.yaml`` the engine uses after set-up (copied, never re-typed)."""

    phases: PositiveInt
    rounds_per_phase: PositiveInt
    unmet_card_penalty_vp: PositiveInt
    bread_to_fulfil_card: PositiveInt
    dwelling_rewards: DwellingRewards
    landscape_reward: LandscapeReward
    leftovers: Leftovers
    villa_chimneys: VillaChimneys
    banderole_bar: BanderoleBar
    frame_goals: tuple[FrameGoal, ...]
    tie_breaker: TieBreaker


class Board(Model):
    """What never changes after set-up, in one field so that a new state copies it by reference.

    ``tables``: values from ``tables.yaml``. ``layout``: rows of scoring-card ids as laid out.
    ``pairs``: the two cards of each circle space, in circle order. ``cards``: the laid-out
    scoring cards by id. ``fountain_cards``: every fountain card by id.
    """

    tables: Tables
    layout: Rows
    pairs: tuple[Pair, ...]
    cards: ReadOnlyDict[str, ScoringCard]
    fountain_cards: ReadOnlyDict[str, FountainCard]


class State(GameState):
    """A Carpe Diem table.

    Attributes:
        players: names by seat; seat 0 is the start player, the others follow clockwise.
        phase: ``play`` while rounds are played, ``scoring`` in a scoring period and the final
            scoring, ``over`` once every player has entered the final scoring.
        step: the game's own step, see :data:`Step_`.
        options: the table's :class:`Options`.
        phase_number / round: the game's own phase (1-4, 7 rounds each) and, while ``rounds``,
            the round being played (1-7).
        sheets: one :class:`PlayerSheet` per seat.
        bar_order: every seat, furthest ahead on the banderole bar first; on one space the disc
            on top comes first.
        discs: the scoring disc on each circle space (``None``: free), in circle order.
        scored: seats done in this scoring period (or the final scoring).
        board: the static data (:class:`Board`).
    """

    score_label = Words("VP")

    step: Step_ = "rounds"
    options: Options
    phase_number: PositiveInt = 1
    round: PositiveInt = 1
    sheets: tuple[PlayerSheet, ...]
    bar_order: tuple[int, ...]
    discs: tuple[Disc | None, ...]
    scored: tuple[int, ...] = ()
    board: Board

    # -- where the game stands --

    def counters(self) -> list[Counter]:
        """Each player's VP, one tap to hand back or gain 1 (:class:`AdjustVictoryPoints`)."""
        return [Counter(label=Words("%(name)s's VP", name=name), value=self.sheets[seat].vp, seat=seat, step=1,
                        minus=AdjustVictoryPoints.offer(self, seat=seat, label=Words("%(name)s: −1 VP", name=name),
                                                        change=-1, note=""),
                        plus=AdjustVictoryPoints.offer(self, seat=seat, label=Words("%(name)s: +1 VP", name=name),
                                                       change=1, note=""))
                for seat, name in enumerate(self.players)]

    def scores(self) -> tuple[float, ...]:
        """Each seat's VP."""
        return tuple(float(s.vp) for s in self.sheets)

    def winners(self) -> tuple[int, ...]:
        """The winning seat once the game is over (see :meth:`winner`)."""
        return (self.winner(),) if self.finished else ()

    def winner(self) -> int:
        """The seat with most VP; among the tied, the tie-breaker the table chose (summary:
        furthest ahead on the banderole bar; 2018 rulebook: furthest behind). Discs never share
        a place in the bar order, so there is always one winner."""
        best = max(s.vp for s in self.sheets)
        tied = [seat for seat, s in enumerate(self.sheets) if s.vp == best]
        return (min if self.ahead_wins_ties else max)(tied, key=self.bar_rank)

    @property
    def ahead_wins_ties(self) -> bool:
        """Whether the tie-breaker in use favours the disc furthest ahead."""
        return self.board.tables.tie_breaker.winner == "furthest_ahead_on_banderole_bar"

    def rounds_played(self) -> int:
        """Rounds played to their end: ``rounds_per_phase`` for each phase before this one (a
        phase always has all its rounds at the table, even when players skip to its end with
        :class:`PhaseEnded`), then this phase's finished rounds (all of them once it is scoring)."""
        per_phase = self.board.tables.rounds_per_phase
        this_phase = self.round - 1 if self.step == "rounds" else per_phase
        return (self.phase_number - 1) * per_phase + this_phase

    def summary(self) -> str:
        """Where the game stands (``"Phase 1, round 2"``, ``"Scoring period 1"``, ``"Final
        scoring"``) or who won, e.g. ``"Anna wins with 53 VP"``, naming the tie-breaker when it
        decided."""
        if not self.finished:
            if self.step == "rounds":
                return Words("Phase %(phase)d, round %(round)d", phase=self.phase_number, round=self.round)
            if self.step == "scoring":
                return Words("Scoring period %(period)d", period=self.phase_number)
            return Words("Final scoring")
        seat = self.winner()
        vp = self.sheets[seat].vp
        name = self.players[seat]
        tied = [s for s, sheet in enumerate(self.sheets) if sheet.vp == vp and s != seat]
        if not tied:
            return Words("%(name)s wins with %(vp)d VP", name=name, vp=vp)
        others = ", ".join(self.players[s] for s in tied)
        option = TIE_BREAKER_NAMES[self.options.tie_breaker]
        if self.ahead_wins_ties:
            return Words("%(name)s wins with %(vp)d VP, tied with %(others)s and ahead of them on the banderole "
                         "bar (%(option)s tie-breaker)", name=name, vp=vp, others=others, option=option)
        return Words("%(name)s wins with %(vp)d VP, tied with %(others)s and behind them on the banderole "
                     "bar (%(option)s tie-breaker)", name=name, vp=vp, others=others, option=option)

    def status(self) -> str:
        """The page's heading: ``"Phase 1 of 4 · round 2 of 7"``, ``"Scoring period 1: Bea
        scores"``, ``"Final scoring"`` or ``"Final sheet"``."""
        if self.finished:
            return Words("Final sheet")
        if self.step == "rounds":
            return Words("Phase %(phase)d of %(phases)d · round %(round)d of %(rounds)d", phase=self.phase_number,
                         phases=self.board.tables.phases, round=self.round,
                         rounds=self.board.tables.rounds_per_phase)
        if self.step == "scoring":
            return Words("Scoring period %(period)d: %(name)s scores", period=self.phase_number,
                         name=self.players[self.next_to_score()])
        return Words("Final scoring")

    # -- the board --

    @property
    def circles(self) -> tuple[Circle, ...]:
        """Every circle space, in number order, with the disc on it if any."""
        return tuple(self._circle(n) for n in range(1, len(self.discs) + 1))

    def _circle(self, number: int) -> Circle:
        disc = self.discs[number - 1]
        return Circle(number=number, cards=self.board.pairs[number - 1], seat=disc and disc.seat,
                      period=disc and disc.period)

    def circle(self, number: int) -> Circle | None:
        """Circle ``number`` (1-based), or ``None``."""
        return self._circle(number) if 1 <= number <= len(self.discs) else None

    def free_circles(self) -> list[Circle]:
        """Circles no disc has taken."""
        return [self._circle(n) for n, disc in enumerate(self.discs, start=1) if disc is None]

    def card_code(self, card_id: str) -> str:
        """Short label of a laid-out card: its type and its place among that type, e.g. ``"B2"``."""
        card = self.board.cards[card_id]
        same_type = [cid for row in self.board.layout for cid in row if self.board.cards[cid].scoring_type == card.scoring_type]
        return f"{card.scoring_type}{same_type.index(card_id) + 1}"

    def card_label(self, card_id: str) -> str:
        """``"B2 One of each ware"``."""
        return f"{self.card_code(card_id)} {self.board.cards[card_id].title}"

    def green_things(self) -> list[str]:
        """Owned things the laid-out green cards count, in :data:`Owned` order."""
        things = {n.what for c in self.board.cards.values() if c.colour == "green" for n in c.requirement}
        return [t for t in OWNED_NAMES if t in things]

    def fountain_things(self) -> list[str]:
        """Owned things the fountain cards count, in :data:`Owned` order."""
        things = {n.what for c in self.board.fountain_cards.values() for n in c.condition}
        return [t for t in OWNED_NAMES if t in things]

    def grid(self) -> tuple[tuple[GridCell, ...], ...]:
        """The layout drawn as a grid (see :func:`card_data.games.carpe_diem.layout.grid`)."""
        return grid(self.board.layout, self.board.pairs)

    @staticmethod
    def thing_title(thing: str) -> str:
        """What an owned thing is called on the page, e.g. ``"Completed ponds"``."""
        return OWNED_TITLES[thing]

    @property
    def tracked_things(self) -> tuple[str, ...]:
        """The owned things counted from play (:data:`TRACKED`)."""
        return TRACKED

    # -- the banderole bar and the scoring order --

    def bar_rank(self, seat: int) -> int:
        """0 for the disc furthest ahead on the banderole bar, 1 for the next, and so on."""
        return self.bar_order.index(seat)

    def scoring_order(self) -> list[int]:
        """Seats still to score this scoring period, in order (2018 rulebook, Scoring periods:
        furthest along the banderole bar first, on one space the disc on top first). Empty
        outside a scoring period."""
        if self.step != "scoring":
            return []
        return [s for s in self.bar_order if s not in self.scored]

    def next_to_score(self) -> int | None:
        """The seat whose turn it is to score, or ``None`` outside a scoring period."""
        order = self.scoring_order()
        return order[0] if order else None

    def bar_line(self, seat: int) -> str:
        """``"space 5 (on top of Anna)"``: where ``seat``'s disc is on the banderole bar."""
        space = self.sheets[seat].space
        below = [self.players[s] for s in self.bar_order if s != seat and self.sheets[s].space == space]
        if below:
            return Words("space %(space)d (on top of %(names)s)", space=space, names=", ".join(below))
        return Words("space %(space)d", space=space)

    def final_to_enter(self) -> list[int]:
        """Seats whose final scoring is still to be entered (empty before the final scoring)."""
        return [s for s in range(len(self.players)) if s not in self.scored] if self.step == "final" else []

    def may_set_holdings(self, seat: int) -> bool:
        """Whether ``seat``'s holdings may still change (not once their leftovers are scored)."""
        return not (self.step == "final" and seat in self.scored)


def set_up(players: tuple[str, ...], options: Options, game) -> State:
    """A new table: starting VP by seat, discs stacked on space 0, the scoring set laid out.

    ``players``: names, start player first then clockwise (the engine has checked there are
    2-4). ``game``: the Carpe Diem ``card_data.loader.Game``. Raises :class:`RuleError` for data
    that lays out no scoring set for the player count.
    Rulebook: 2018 rulebook, Set-up details (starting VP; the start player's disc on space 0,
    the others on top in clockwise order; scoring cards and circles by player count).
    """
    tables: CarpeDiemTables = game.tables
    n = len(players)
    kind = next(k for k, v in SCORING_SET_PLAYERS.items() if v == n)
    decks = sorted((d for d in game.decks.values() if d.kind == kind), key=lambda d: d.id)
    if not decks:
        raise RuleError(Words("%(source)s, Set-up details: scoring cards are laid out by player count",
                              source=RULEBOOK),
                        Words("the card data has no %(kind)s scoring set", kind=kind))
    card_ids = [e.card for e in decks[0].cards]
    circle_count = {2: tables.circle_spaces.p2, 3: tables.circle_spaces.p3, 4: tables.circle_spaces.p4}[n]
    try:
        rows, pairs = lay_out(card_ids, circle_count)
    except ValueError as err:
        # The layout's message is itself Words: keep it rather than str(err).
        raise RuleError(Words("%(source)s, Set-up details: %(circles)d circle spaces for %(players)d players",
                              source=RULEBOOK, circles=circle_count, players=n),
                        err.args[0]) from None
    board = Board(
        tables=Tables(
            phases=tables.phases.count,
            rounds_per_phase=tables.phases.rounds_per_phase,
            unmet_card_penalty_vp=tables.unmet_card_penalty.vp,
            bread_to_fulfil_card=tables.bread_to_fulfil_card.bread,
            dwelling_rewards=tables.dwelling_rewards,
            landscape_reward=tables.landscape_reward,
            leftovers=tables.leftovers,
            villa_chimneys=tables.villa_chimneys,
            banderole_bar=tables.banderole_bar,
            frame_goals=tuple(tables.frame_goals.examples),
            tie_breaker=tables.tie_breakers.rule(options.tie_breaker),
        ),
        layout=rows,
        pairs=pairs,
        cards={cid: _scorekeeper_copy(game.cards[cid]) for cid in card_ids},
        fountain_cards={cid: _scorekeeper_copy(c) for cid, c in game.cards.items() if isinstance(c, FountainCard)},
    )
    start = {t: 0 for t in TRACKED}
    return State(
        players=players,
        phase="play",
        options=options,
        sheets=tuple(PlayerSheet(vp=vp, owned=start) for vp in tables.starting_vp.for_players(n)),
        bar_order=tuple(reversed(range(n))),
        discs=(None,) * len(pairs),
        board=board,
    )


def _scorekeeper_copy(card):
    """The card without its rulings and note: those are for the rulings pages, the scorekeeper
    needs only what a card asks and gives (and the state's JSON stays small)."""
    return type(card).model_validate({**card.model_dump(), "rulings": [], "note": None})


ENGINE: Engine[State] = Engine(
    game_id="carpe_diem", title=TITLE,
    min_players=min(SCORING_SET_PLAYERS.values()), max_players=max(SCORING_SET_PLAYERS.values()),
    options=Options, state=State, setup=set_up, over_rule=RULE_OVER, rulebook=RULEBOOK)


# --- shared steps ---------------------------------------------------------------------------


def with_sheet(state: State, seat: int, **changes) -> State:
    """``state`` with ``seat``'s sheet changed (validated like a new sheet)."""
    return state.evolve(sheets=replace_at(state.sheets, seat, state.sheets[seat].evolve(**changes)))


def owning_more(state: State, seat: int, *things: str) -> dict[str, int]:
    """``seat``'s owned counts with one more of each of ``things``."""
    owned = dict(state.sheets[seat].owned)
    for thing in things:
        owned[thing] = owned.get(thing, 0) + 1
    return owned


def advance(state: State, seat: int, spaces: int) -> State:
    """``seat``'s disc moves ``spaces`` ahead and goes on top of any disc on its new space
    (2018 rulebook, Set-up details)."""
    space = state.sheets[seat].space + spaces
    moved = with_sheet(state, seat, space=space)
    others = [s for s in state.bar_order if s != seat]
    at = next((i for i, s in enumerate(others) if moved.sheets[s].space <= space), len(others))
    return moved.evolve(bar_order=(*others[:at], seat, *others[at:]))


def require_rounds(state: State, seat: int, what: str) -> None:
    """Refuse ``what`` (a key of :data:`WHOSE`) outside a phase's rounds (tiles are placed only then)."""
    whose = WHOSE[what](state.players[seat])
    if state.step == "scoring":
        raise RuleError(RULE_BUILDING, Words("no tiles are placed in scoring period %(period)d: enter "
                                             "%(whose)s before the scoring period or after it",
                                             period=state.phase_number, whose=whose))
    if state.step == "final":
        raise RuleError(RULE_BUILDING, Words("the rounds are over: %(whose)s can no longer be entered", whose=whose))


def _amount(what: str, count: int) -> str:
    """``"4 coins"``, ``"3 bread"``, or a ware or owned thing as the cards print it (``"4× herbs"``)."""
    if what == "coins":
        return Words("%(n)d coin", n=count) if count == 1 else Words("%(n)d coins", n=count)
    if what == "bread":
        return Words("%(n)d bread", n=count)
    if not count:
        return Words("no %(thing)s", thing=Need(what=what).label())
    return Need(what=what, count=count).label()


def _counted(state: State, seat: int, things: Sequence[str]) -> str:
    """``"completed landscapes 2, completed ponds 1"``: ``seat``'s counts of ``things`` now."""
    owned = state.sheets[seat].owned
    return listed([OWNED_COUNTS[t](owned.get(t, 0)) for t in things])


def _enter_counts(missing: Sequence[str], title: str) -> Words:
    """The refusal asking for owned counts neither tracked nor entered (``missing`` owned things)
    that card ``title`` needs."""
    return Words("enter how many you own of: %(things)s (for %(card)s)",
                 things=listed([Need(what=m).label() for m in missing]), card=title)


@dataclass(frozen=True)
class CardResolution:
    """How one scoring card resolved: ``how`` is ``"met"`` (``times`` sets owned or paid),
    ``"bread"`` (fulfilled once with bread) or ``"unmet"`` (penalty). ``paid``: wares, coins
    and bread handed in (name -> count). ``counted``: owned counts a green card used."""

    card: ScoringCard
    how: Literal["met", "bread", "unmet"]
    times: int
    paid: dict[str, int]
    counted: dict[str, int]
    vp_change: int

    def line(self) -> str:
        """E.g. ``"Two herbs paid 2× (4× herbs) → 8 VP"``."""
        title = self.card.title
        counted = listed([_amount(what, n) for what, n in self.counted.items()]) if self.counted else ""
        if self.how == "unmet":
            if counted:
                return Words("%(card)s not met (%(counted)s) → %(vp)d VP", card=title, counted=counted,
                             vp=self.vp_change)
            return Words("%(card)s not met → %(vp)d VP", card=title, vp=self.vp_change)
        paid = listed([_amount(what, n) for what, n in self.paid.items()]) if self.paid else ""
        reward = self.card.reward
        gains = [(reward.vp * self.times, lambda n: Words("%(n)d VP", n=n), lambda n: Words("%(n)d VP", n=n)),
                 (reward.coins * self.times, lambda n: Words("%(n)d coin", n=n), lambda n: Words("%(n)d coins", n=n)),
                 (reward.bread * self.times, lambda n: Words("%(n)d bread", n=n),
                  lambda n: Words("%(n)d bread", n=n)),
                 (reward.banderole * self.times, lambda n: Words("%(n)d banderole bar space", n=n),
                  lambda n: Words("%(n)d banderole bar spaces", n=n))]
        gained = added([(one if total == 1 else many)(total) for total, one, many in gains if total])
        if self.how == "bread":
            return Words("%(card)s fulfilled with %(paid)s → %(gained)s", card=title, paid=paid, gained=gained)
        if self.card.colour == "red":
            return Words("%(card)s paid %(times)d× (%(paid)s) → %(gained)s", card=title, times=self.times, paid=paid,
                         gained=gained)
        return Words("%(card)s met %(times)d× (%(counted)s) → %(gained)s", card=title, times=self.times,
                     counted=counted, gained=gained)


def resolve_card(state: State, seat: int, card: ScoringCard, times: int | None, bread: bool,
                 owned: Mapping[str, int]) -> tuple[State, CardResolution]:
    """Resolve one scoring card for ``seat``; returns the new state and what happened.

    ``owned``: the counts a green card uses (tracked, entered ones winning). Raises
    :class:`RuleError` for bread the player does not have, times they cannot pay or times on a
    green card, and green-card counts neither tracked nor entered.
    Rulebook: 2018 rulebook, Scoring periods (green, red, coins, bread, multiples, penalty).
    """
    sheet = state.sheets[seat]
    paid: dict[str, int] = {}
    counted: dict[str, int] = {}
    changes: dict[str, int] = {}
    if bread:
        need = state.board.tables.bread_to_fulfil_card
        if times is not None:
            raise RuleError(RULE_BREAD, Words("bread fulfils %(card)s once; leave its times empty", card=card.title))
        if sheet.bread < need:
            raise RuleError(RULE_BREAD, Words("%(name)s has %(have)d bread, %(need)d are needed to fulfil %(card)s",
                                              name=state.players[seat], have=sheet.bread, need=need, card=card.title))
        how, k, paid = "bread", 1, {"bread": need}
        changes["bread"] = sheet.bread - need
    elif card.colour == "red":
        wares = sheet.wares()
        most = card.multiples(wares, coins=sheet.coins)
        if times is not None and times > most:
            raise RuleError(RULE_RED, Words("%(name)s can pay %(card)s (%(requirement)s) %(most)d×, not %(times)d×",
                                            name=state.players[seat], card=card.title,
                                            requirement=card.requirement_line(), most=most, times=times))
        k = most if times is None else times
        how = "met" if k else "unmet"
        short = 0
        for item in card.requirement:
            owed = k * item.count
            from_wares = min(owed, wares[item.what])
            short += owed - from_wares
            wares[item.what] -= from_wares
            if from_wares:
                paid[item.what] = from_wares
        if short:
            paid["coins"] = short
        changes.update(wares, coins=sheet.coins - short)
    else:
        if times is not None:
            raise RuleError(RULE_GREEN, Words("%(card)s is a green card: every full set you own scores, so leave "
                                              "its times empty", card=card.title))
        missing = [n.what for n in card.requirement if n.what not in owned]
        if missing:
            raise RuleError(RULE_GREEN, _enter_counts(missing, card.title))
        counted = {n.what: owned[n.what] for n in card.requirement}
        k = card.multiples(owned)
        how = "met" if k else "unmet"
    if how == "unmet":
        vp_change = -state.board.tables.unmet_card_penalty_vp
        state = with_sheet(state, seat, **changes, vp=sheet.vp + vp_change)
        return state, CardResolution(card, how, 0, paid, counted, vp_change)
    reward = card.reward
    vp_change = reward.vp * k
    state = with_sheet(state, seat, **{**changes, "vp": sheet.vp + vp_change,
                                       "coins": changes.get("coins", sheet.coins) + reward.coins * k,
                                       "bread": changes.get("bread", sheet.bread) + reward.bread * k})
    if reward.banderole:
        state = advance(state, seat, reward.banderole * k)
    return state, CardResolution(card, how, k, paid, counted, vp_change)


def final_sheet(state: State, event: FinalScore) -> FinalSheet:
    """The final scoring of ``event.seat`` (2018 rulebook, Final scoring): completed villas by
    chimneys (``tables.villa_chimneys``), leftovers (``tables.leftovers``), the banderole bar
    space (``tables.banderole_bar``), fountain cards (their conditions) and frame goals
    (``tables.frame_goals`` plus ``other_frame_vp``).

    Villas and fountain cards not entered are the ones recorded in play; owned counts not
    entered are the tracked ones. Raises :class:`RuleError` for unknown fountain cards or frame
    goals, fountain conditions whose counts are neither tracked nor entered, or villas that
    contradict the owned counts entered.
    """
    sheet = state.sheets[event.seat]
    entered = event.given()
    owned = sheet.counts(entered)
    villas = event.villa_chimneys or sheet.villas
    if "completed_villa" in entered and entered["completed_villa"] != len(villas):
        if event.villa_chimneys:
            raise RuleError(RULE_VILLAS, Words("you own %(owned)d completed villas but listed chimneys for "
                                               "%(villas)d", owned=entered["completed_villa"], villas=len(villas)))
        raise RuleError(RULE_VILLAS, Words("you own %(owned)d completed villas but recorded chimneys for "
                                           "%(villas)d", owned=entered["completed_villa"], villas=len(villas)))
    if "chimney" in entered and sum(villas) > entered["chimney"]:
        raise RuleError(RULE_VILLAS, Words("the completed villas have %(chimneys)d chimneys, more than the "
                                           "%(owned)d you own", chimneys=sum(villas), owned=entered["chimney"]))
    fountain_vp = 0
    for card_id in event.fountain_cards or sheet.fountain_cards:
        card = state.board.fountain_cards.get(card_id)
        if card is None:
            raise RuleError(RULE_FOUNTAINS, Words("there is no fountain card '%(card)s'", card=card_id))
        missing = [n.what for n in card.condition if n.what not in owned]
        if missing:
            raise RuleError(RULE_FOUNTAINS, _enter_counts(missing, card.title))
        fountain_vp += card.final_vp(owned)
    goals = {g.what: g.vp for g in state.board.tables.frame_goals}
    for goal in event.frame_goals:
        if goal not in goals:
            raise RuleError(RULE_FRAME, Words("no frame goal in the data shows %(thing)s; enter its VP as other "
                                              "frame VP", thing=Need(what=goal).label()))
    leftovers = {"wares": sum(sheet.wares().values()), "coins": sheet.coins, "bread": sheet.bread,
                 "stored_tiles": event.stored_tiles}
    tables = state.board.tables
    return FinalSheet(
        villas=sum(tables.villa_chimneys.vp(c) for c in villas),
        leftovers=tables.leftovers.vp(sum(leftovers[k] for k in tables.leftovers.counted)),
        banderole_bar=tables.banderole_bar.vp(sheet.space),
        fountain_cards=fountain_vp,
        frame_goals=sum(goals[g] for g in event.frame_goals) + event.other_frame_vp,
    )


def pick(cls: type[Event], name: str, state: State, options: Sequence[Choice],
         required: bool | None = None) -> FormField:
    """Field ``name`` of ``cls`` as a pick among ``options`` (a select, whatever its type);
    ``required`` overrides whether the form may leave it empty."""
    derived = derive_field(cls, name, state)
    return replace(derived, kind="choice", choices=tuple(options),
                   required=derived.required if required is None else required)


def owned_fields_last(move: Move) -> Move:
    """``move`` with its owned-count inputs after the event's own (they come from a base class)."""
    own = [f for f in move.fields if f.name not in OWNED_TITLES]
    return replace(move, fields=(*own, *(f for f in move.fields if f.name in OWNED_TITLES)))


# --- events ----------------------------------------------------------------------------------


class CarpeDiemEvent(Event):
    """Base of the Carpe Diem events."""


class OwnedCounts(CarpeDiemEvent):
    """How many of each owned thing the player says they have; ``None`` = not entered (the
    tracked count is used, see the module docstring).

    One field per :data:`card_data.games.carpe_diem.cards.Owned` thing, named exactly like it
    (``chimney`` counts chimneys in every villa, complete or not; ``completed_*`` finished
    buildings and landscapes only). Each count is at most :data:`BUILDING_TILES` (chimneys:
    :data:`MOST_CHIMNEYS`).
    """

    chimney: Bounded[0, MOST_CHIMNEYS] | None = Field(None, title=OWNED_TITLES["chimney"])
    completed_villa: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_villa"])
    completed_merchant_dwelling: OwnedCount | None = Field(
        None, title=OWNED_TITLES["completed_merchant_dwelling"])
    completed_baker_dwelling: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_baker_dwelling"])
    completed_administrator_dwelling: OwnedCount | None = Field(
        None, title=OWNED_TITLES["completed_administrator_dwelling"])
    completed_craftsman_dwelling: OwnedCount | None = Field(
        None, title=OWNED_TITLES["completed_craftsman_dwelling"])
    completed_landscape: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_landscape"])
    completed_pond: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_pond"])
    completed_garden: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_garden"])
    market: OwnedCount | None = Field(None, title=OWNED_TITLES["market"])
    bakery: OwnedCount | None = Field(None, title=OWNED_TITLES["bakery"])
    fountain: OwnedCount | None = Field(None, title=OWNED_TITLES["fountain"])

    def given(self) -> dict[str, int]:
        """The counts entered: thing -> count."""
        return {t: getattr(self, t) for t in OWNED_NAMES if getattr(self, t) is not None}

    @classmethod
    def offer_counts(cls, state: State, seat: int, things: Sequence[str], *, label: str,
                     defaults: Mapping[str, object] | None = None, **values: object) -> Move:
        """A form for ``seat`` asking only for the owned counts of ``things`` (each pre-filled
        with the count the scorekeeper knows), after the event's own inputs."""
        owned = state.sheets[seat].owned
        known = {t: owned[t] for t in things if t in owned}
        hidden = {t: None for t in OWNED_NAMES if t not in things}
        move = cls.offer(state, seat=seat, label=label, defaults={**known, **(defaults or {})}, **hidden, **values)
        return owned_fields_last(move)


# --- rounds ----------------------------------------------------------------------------------


def _round_refusal(state: State) -> RuleError:
    if state.step == "scoring":
        return RuleError(RULE_ROUNDS, Words("phase %(phase)d is over: %(name)s scores next", phase=state.phase_number,
                                            name=state.players[state.next_to_score()]))
    return RuleError(RULE_ROUNDS, Words("phase %(phase)d is over: only final scoring entries remain",
                                        phase=state.phase_number))


@ENGINE.event
class RoundPlayed(CarpeDiemEvent):
    """The table finished the current round; after the phase's last round its scoring period
    begins (summary, Turn Structure)."""

    label = Words("Round played")

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "rounds":
            return []
        last = state.round >= state.board.tables.rounds_per_phase
        label = (Words("Round %(round)d played: score now", round=state.round) if last
                 else Words("Round %(round)d played", round=state.round))
        return [cls.offer(state, label=label)]

    def apply(self, state: State) -> State:
        if state.step != "rounds":
            raise _round_refusal(state)
        if state.round < state.board.tables.rounds_per_phase:
            return state.evolve(round=state.round + 1)
        return state.evolve(step="scoring", phase="scoring", scored=())

    def describe(self, before: State, after: State) -> str:
        if after.step == "scoring":
            return Words("Round %(round)d of phase %(phase)d played; scoring period %(phase)d begins, %(name)s first",
                         round=before.round, phase=before.phase_number, name=after.players[after.next_to_score()])
        return Words("Round %(round)d of phase %(phase)d played", round=before.round, phase=before.phase_number)


@ENGINE.event
class PhaseEnded(CarpeDiemEvent):
    """The table finished the current phase, whatever round the scorekeeper shows; its scoring
    period begins (summary, Turn Structure)."""

    label = Words("Phase ended")

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "rounds":
            return []
        return [cls.offer(state, label=Words("End phase %(phase)d: score now", phase=state.phase_number))]

    def apply(self, state: State) -> State:
        if state.step != "rounds":
            raise _round_refusal(state)
        return state.evolve(step="scoring", phase="scoring", scored=())

    def describe(self, before: State, after: State) -> str:
        if after.step == "scoring":
            return Words("Phase %(phase)d ended in round %(round)d; scoring period %(phase)d begins, %(name)s first",
                         phase=before.phase_number, round=before.round, name=after.players[after.next_to_score()])
        return Words("Phase %(phase)d ended in round %(round)d", phase=before.phase_number, round=before.round)


# --- scoring periods and final scoring (2018 rulebook, Scoring periods; Final scoring) ------------


@ENGINE.event
class Score(OwnedCounts):
    """``seat`` places a scoring disc on ``circle`` and resolves its two cards (2018 rulebook,
    Scoring periods; summary, Special Rules & Edge Cases).

    ``first_card``: the card id resolved first (default: the circle's first card in layout
    order). ``times_first``/``times_second``: how many times to pay a red card (default as many
    as the player can, at most :data:`MOST_HELD`); not for green cards, which score every full
    set owned.
    ``bread_first``/``bread_second``: hand in bread to fulfil that card once instead. The
    owned counts (:class:`OwnedCounts`) a green card needs are the tracked ones unless entered.
    """

    label = Words("Place a scoring disc")
    seat: Seat
    circle: Bounded[1, MOST_CIRCLES] = Field(title=Words("Circle"))
    first_card: str | None = Field(None, title=Words("Resolve first"))
    times_first: Bounded[1, MOST_HELD] | None = Field(
        None, title=Words("Times to pay the card resolved first"),
        description=Words("red cards only; empty: as many times as you can pay"))
    times_second: Bounded[1, MOST_HELD] | None = Field(
        None, title=Words("Times to pay the card resolved second"),
        description=Words("red cards only; empty: as many times as you can pay"))
    bread_first: bool = Field(False, title=Words("Fulfil the card resolved first with bread"))
    bread_second: bool = Field(False, title=Words("Fulfil the card resolved second with bread"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        turn = state.next_to_score()
        if turn is None:
            return []
        name = state.players[turn]
        moves = []
        for circle in state.free_circles():
            cards = [state.board.cards[c] for c in circle.cards]
            order = [Choice(c.id, state.card_label(c.id),
                            Words("pay %(requirement)s → %(reward)s", requirement=c.requirement_line(),
                                  reward=c.reward_line()) if c.colour == "red"
                            else Words("own %(requirement)s → %(reward)s", requirement=c.requirement_line(),
                                       reward=c.reward_line()))
                     for c in cards]
            things = [n.what for c in cards if c.colour == "green" for n in c.requirement]
            red = any(c.colour == "red" for c in cards)
            times = {} if red else {"times_first": None, "times_second": None}
            moves.append(cls.offer_counts(
                state, turn, things, circle=circle.number,
                first_card=pick(cls, "first_card", state, order, required=True), **times,
                label=Words("%(name)s: circle %(circle)d, %(first)s + %(second)s", name=name, circle=circle.number,
                            first=state.card_label(circle.cards[0]), second=state.card_label(circle.cards[1])),
                defaults={"first_card": circle.cards[0]}))
        return moves

    def apply(self, state: State) -> Step[State]:
        name = state.players[self.seat]
        if state.step != "scoring":
            raise RuleError(RULE_SCORING_ORDER, Words("there is no scoring period now: finish the phase first")
                            if state.step == "rounds"
                            else Words("there is no scoring period now: the scoring periods are over"))
        turn = state.next_to_score()
        if self.seat != turn:
            if self.seat in state.scored:
                raise RuleError(RULE_SCORING_ORDER, Words("%(name)s has already scored this period: it is %(turn)s's "
                                                          "turn to score", name=name, turn=state.players[turn]))
            raise RuleError(RULE_SCORING_ORDER, Words("%(name)s must wait: it is %(turn)s's turn to score",
                                                      name=name, turn=state.players[turn]))
        circle = state.circle(self.circle)
        if circle is None:
            raise RuleError(RULE_CIRCLES, Words("there is no circle %(circle)d (circles 1-%(last)d)",
                                                circle=self.circle, last=len(state.discs)))
        if circle.seat is not None:
            raise RuleError(RULE_CIRCLES, Words("circle %(circle)d is taken by %(name)s's disc from scoring period "
                                                "%(period)d", circle=circle.number, name=state.players[circle.seat],
                                                period=circle.period))
        first, second = circle.cards
        if self.first_card is not None:
            if self.first_card not in circle.cards:
                title = state.board.cards[self.first_card].title if self.first_card in state.board.cards else self.first_card
                raise RuleError(RULE_CARD_ORDER, Words("%(card)s is not beside circle %(circle)d", card=title,
                                                       circle=circle.number))
            if self.first_card == second:
                first, second = second, first
        entered = self.given()
        owned = state.sheets[self.seat].counts(entered)
        work, results = state, []
        for card_id, times, bread in ((first, self.times_first, self.bread_first),
                                      (second, self.times_second, self.bread_second)):
            work, result = resolve_card(work, self.seat, state.board.cards[card_id], times, bread, owned)
            results.append(result)
        work = with_sheet(work, self.seat, owned={**work.sheets[self.seat].owned, **entered})
        scored = (*work.scored, self.seat)
        changes: dict = {"discs": replace_at(work.discs, circle.number - 1,
                                           Disc(seat=self.seat, period=state.phase_number)),
                         "scored": scored}
        if len(scored) == len(state.players):
            if state.phase_number == state.board.tables.phases:
                changes.update(step="final", scored=())
            else:
                changes.update(step="rounds", phase="play", phase_number=state.phase_number + 1, round=1, scored=())
        after = work.evolve(**changes)
        first_line, second_line = (r.line() for r in results)
        return Step(after, Words("%(name)s scored circle %(circle)d: %(first)s; %(second)s. VP %(was)d → %(now)d",
                                 name=name, circle=self.circle, first=first_line, second=second_line,
                                 was=state.sheets[self.seat].vp, now=after.sheets[self.seat].vp))


@ENGINE.event
class FinalScore(OwnedCounts):
    """``seat``'s final-scoring entries after the last scoring period (2018 rulebook, Final scoring).

    ``villa_chimneys``: the chimneys of each completed villa, one number per villa (empty: the
    villas recorded in play). ``stored_tiles``: face-down building tiles in storage.
    ``fountain_cards``: fountain card ids held, a card twice if held twice (empty: the cards
    kept when fountains were placed). ``frame_goals``: the frame goals met, each the owned thing
    a goal in ``tables.frame_goals`` shows (once per goal met); ``other_frame_vp``: VP of met
    frame goals the data does not hold. The owned counts the fountain cards need are the
    tracked ones unless entered.

    Bounds (summary, Components): at most :data:`BUILDING_TILES` villas and stored tiles,
    :data:`FOUNTAIN_CARDS` fountain cards, :data:`FRAME_PARTS` frame goals; chimneys and other
    frame VP at most :data:`MOST_CHIMNEYS` and :data:`MOST_VP_CHANGE`.
    """

    label = Words("Final scoring")
    seat: Seat
    villa_chimneys: tuple[Bounded[1, MOST_CHIMNEYS], ...] = Field(
        (), max_length=BUILDING_TILES, title=Words("Chimneys of each completed villa"),
        description=Words("one number per completed villa; empty: the villas recorded in play"))
    stored_tiles: Bounded[0, BUILDING_TILES] = Field(0, title=Words("Face-down tiles in storage"))
    fountain_cards: tuple[str, ...] = Field(
        (), max_length=FOUNTAIN_CARDS, title=Words("Fountain cards held"),
        description=Words("none ticked: the cards kept when fountains were placed"))
    frame_goals: tuple[Owned, ...] = Field((), max_length=FRAME_PARTS, title=Words("Frame goals met"))
    other_frame_vp: Bounded[0, MOST_VP_CHANGE] = Field(0, title=Words("VP of other frame goals met"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "final":
            return []
        fountains = [Choice(c.id, c.title, Words("%(vp)d VP per %(condition)s", vp=c.vp, condition=c.condition_line()))
                     for c in state.board.fountain_cards.values()]
        goals = [Choice(g.what, GOAL_TITLES[g.what], Words("%(n)d VP", n=g.vp))
                 for g in state.board.tables.frame_goals]
        moves = []
        for s, sheet in enumerate(state.sheets):
            if s in state.scored:
                continue
            values: dict[str, object] = {"frame_goals": goals} if goals else {}
            if fountains:
                # Not pre-ticked: a card kept twice cannot be ticked twice, and none ticked uses them all.
                kept = ", ".join(state.board.fountain_cards[c].title for c in sheet.fountain_cards)
                kept_help = (Words("none ticked: the cards kept in play (%(kept)s)", kept=kept) if kept
                             else Words("none ticked: the cards kept in play (none)"))
                values["fountain_cards"] = replace(derive_field(cls, "fountain_cards", state), choices=tuple(fountains),
                                                   help=kept_help)
            moves.append(cls.offer_counts(state, s, state.fountain_things(),
                                          label=Words("%(name)s's final scoring", name=state.players[s]),
                                          defaults={"villa_chimneys": sheet.villas}, **values))
        return moves

    def apply(self, state: State) -> State:
        if state.step != "final":
            raise RuleError(RULE_FINAL, Words("the final scoring comes after scoring period %(period)d",
                                              period=state.board.tables.phases))
        if self.seat in state.scored:
            raise RuleError(RULE_FINAL, Words("%(name)s has already entered the final scoring",
                                              name=state.players[self.seat]))
        result = final_sheet(state, self)
        sheet = state.sheets[self.seat]
        after = with_sheet(state, self.seat, final=result, vp=sheet.vp + result.total,
                           owned={**sheet.owned, **self.given()})
        scored = (*state.scored, self.seat)
        return after.evolve(scored=scored, phase="over" if len(scored) == len(state.players) else "scoring")

    def describe(self, before: State, after: State) -> str:
        final = after.sheets[self.seat].final
        return Words("%(name)s's final scoring: villas +%(villas)d, leftovers +%(leftovers)d, banderole bar "
                     "+%(bar)d, fountain cards +%(fountains)d, frame goals +%(goals)d → %(vp)d VP",
                     name=before.players[self.seat], villas=final.villas, leftovers=final.leftovers,
                     bar=final.banderole_bar, fountains=final.fountain_cards, goals=final.frame_goals,
                     vp=after.sheets[self.seat].vp)


# --- the banderole bar --------------------------------------------------------------------------


@ENGINE.event
class BanderoleMove(CarpeDiemEvent):
    """``seat`` advances ``spaces`` on the banderole bar (a banderole space built over...); the
    disc goes on top of any already on the new space (summary, Building Rules; 2018 rulebook,
    Set-up details). An administrator dwelling's move comes with :class:`CompleteDwelling`. At
    most :data:`MOST_BANDEROLE_SPACES` at once (summary, Components: 36 banderoles)."""

    label = Words("Banderole bar move")
    seat: Seat
    spaces: Bounded[1, MOST_BANDEROLE_SPACES] = Field(title=Words("Spaces forward"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, defaults={"spaces": 1})] if state.step == "rounds" else []

    def apply(self, state: State) -> State:
        if state.step == "scoring":
            raise RuleError(RULE_BAR, Words("enter %(name)s's move before the scoring period or after it",
                                            name=state.players[self.seat]))
        if state.step == "final":
            raise RuleError(RULE_FINAL, Words("the banderole bar no longer moves after the last scoring period"))
        return advance(state, self.seat, self.spaces)

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s advanced %(spaces)d on the banderole bar: space %(was)d → %(now)s",
                     name=before.players[self.seat], spaces=self.spaces, was=before.sheets[self.seat].space,
                     now=after.bar_line(self.seat))


# --- building rewards (summary, Actions: Building Completions and Rewards) ----------------------


@ENGINE.event
class CompleteLandscape(CarpeDiemEvent):
    """``seat`` completed a landscape of ``tiles`` tiles: (tiles - 1) wares of ``ware`` (summary,
    Actions; 2018 rulebook, Other rules a checker can hold). ``kind``: a pond or a garden also
    counts as such for the cards that ask for them; "other" is any of the kinds the sources do
    not name. The sources do not say which ware each kind gives: the player chooses it.
    ``tiles`` is at most :data:`BUILDING_TILES`; the rules then refuse a size outside the
    landscape's 2-4 (``tables.yaml``, ``landscape_reward``) with their own message."""

    label = Words("Complete a landscape")
    seat: Seat
    kind: Landscape = Field(title=Words("Landscape"), json_schema_extra={"labels": {
        "pond": Words("Pond"), "garden": Words("Garden"),
        "other": Words("Another kind (the sources name only ponds and gardens)")}})
    tiles: Bounded[1, BUILDING_TILES] = Field(title=Words("Tiles in the landscape"))
    ware: Ware = Field(title=Words("Matching ware"),
                       description=Words("the sources do not say which ware each landscape gives"),
                       json_schema_extra={"labels": {"grapes": Words("Grapes"), "herbs": Words("Herbs"),
                                                     "chicken": Words("Chicken"), "fish": Words("Fish")}})

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "rounds":
            return []
        reward = state.board.tables.landscape_reward
        sizes = [Choice(n, Words("%(n)d tiles", n=n), Words("%(n)d wares", n=reward.wares_for(n)))
                 for n in range(reward.min_tiles, reward.max_tiles + 1)]
        return [cls.offer(state, tiles=pick(cls, "tiles", state, sizes))]

    def apply(self, state: State) -> State:
        require_rounds(state, self.seat, "landscape")
        reward = state.board.tables.landscape_reward
        if not reward.min_tiles <= self.tiles <= reward.max_tiles:
            raise RuleError(RULE_LANDSCAPE, Words("a landscape has %(least)d-%(most)d tiles, not %(tiles)d",
                                                  least=reward.min_tiles, most=reward.max_tiles, tiles=self.tiles))
        sheet = state.sheets[self.seat]
        return with_sheet(state, self.seat, owned=owning_more(state, self.seat, *self.things()),
                          **{self.ware: getattr(sheet, self.ware) + reward.wares_for(self.tiles)})

    def describe(self, before: State, after: State) -> str:
        was, now = getattr(before.sheets[self.seat], self.ware), getattr(after.sheets[self.seat], self.ware)
        words = {"name": before.players[self.seat], "tiles": self.tiles, "gain": WARE_GAINS[self.ware](now - was),
                 "change": HOLDING_CHANGES[self.ware](was, now), "counted": _counted(after, self.seat, self.things())}
        if self.kind == "pond":
            return Words("%(name)s completed a pond of %(tiles)d tiles: %(gain)s (%(change)s); %(counted)s", **words)
        if self.kind == "garden":
            return Words("%(name)s completed a garden of %(tiles)d tiles: %(gain)s (%(change)s); %(counted)s",
                         **words)
        return Words("%(name)s completed a landscape of %(tiles)d tiles: %(gain)s (%(change)s); %(counted)s", **words)

    def things(self) -> list[str]:
        """The owned things this landscape counts as: a completed landscape, and a completed
        pond or garden for those kinds."""
        return ["completed_landscape"] + ([f"completed_{self.kind}"] if self.kind != "other" else [])


@ENGINE.event
class CompleteDwelling(CarpeDiemEvent):
    """``seat`` completed a dwelling (summary, Actions and Player Reference; numbers from
    ``tables.dwelling_rewards``): merchant (red roof): every ware back to the supply, that many
    coins + 1; baker (brown): bread; administrator (blue): banderole bar spaces; craftsman
    (green): recorded only (its free dark green tile is placed at the table, not tracked)."""

    label = Words("Complete a dwelling")
    seat: Seat
    dwelling: Dwelling = Field(title=Words("Dwelling"), json_schema_extra={"labels": {
        "merchant": Words("Merchant (red roof)"), "baker": Words("Baker (brown roof)"),
        "administrator": Words("Administrator (blue roof)"), "craftsman": Words("Craftsman (green roof)")}})

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "rounds":
            return []
        rewards = state.board.tables.dwelling_rewards
        labels = cls.model_fields["dwelling"].json_schema_extra["labels"]
        notes = {"merchant": Words("every ware back: %(each)d coin each + %(bonus)d",
                                   each=rewards.merchant.coins_per_ware, bonus=rewards.merchant.bonus_coins),
                 "baker": Words("%(n)d bread", n=rewards.baker.bread),
                 "administrator": Words("%(n)d banderole bar spaces", n=rewards.administrator.banderole),
                 "craftsman": Words("a dark green tile, placed at the table")}
        return [cls.offer(state, dwelling=[Choice(d, labels[d], notes[d]) for d in Dwelling.__args__])]

    def apply(self, state: State) -> State:
        require_rounds(state, self.seat, "dwelling")
        rewards = state.board.tables.dwelling_rewards
        sheet = state.sheets[self.seat]
        owned = owning_more(state, self.seat, f"completed_{self.dwelling}_dwelling")
        if self.dwelling == "merchant":
            returned = sum(sheet.wares().values())
            return with_sheet(state, self.seat, owned=owned, coins=sheet.coins + rewards.merchant.coins_for(returned),
                              **{w: 0 for w in WARE_NAMES})
        if self.dwelling == "baker":
            return with_sheet(state, self.seat, owned=owned, bread=sheet.bread + rewards.baker.bread)
        if self.dwelling == "administrator":
            return advance(with_sheet(state, self.seat, owned=owned), self.seat, rewards.administrator.banderole)
        return with_sheet(state, self.seat, owned=owned)

    def describe(self, before: State, after: State) -> str:
        was, now = before.sheets[self.seat], after.sheets[self.seat]
        name, counted = before.players[self.seat], _counted(after, self.seat, [f"completed_{self.dwelling}_dwelling"])
        if self.dwelling == "merchant":
            return Words("%(name)s completed a merchant dwelling: %(wares)d wares back to the supply, +%(gain)d coins "
                         "(coins %(was)d → %(now)d); %(counted)s", name=name, wares=sum(was.wares().values()),
                         gain=now.coins - was.coins, was=was.coins, now=now.coins, counted=counted)
        if self.dwelling == "baker":
            return Words("%(name)s completed a baker dwelling: +%(gain)d bread (bread %(was)d → %(now)d); "
                         "%(counted)s", name=name, gain=now.bread - was.bread, was=was.bread, now=now.bread,
                         counted=counted)
        if self.dwelling == "administrator":
            return Words("%(name)s completed an administrator dwelling: advanced %(spaces)d on the banderole bar: "
                         "space %(was)d → %(now)s; %(counted)s", name=name, spaces=now.space - was.space,
                         was=was.space, now=after.bar_line(self.seat), counted=counted)
        return Words("%(name)s completed a craftsman dwelling: its dark green tile is placed at the table; "
                     "%(counted)s", name=name, counted=counted)


@ENGINE.event
class CompleteVilla(CarpeDiemEvent):
    """``seat`` completed a villa with ``chimneys`` chimneys (summary, Actions: no reward at
    once; it scores by its chimneys at the end, 2018 rulebook, Final scoring). Recorded for the
    cards counting completed villas and for the final scoring."""

    label = Words("Complete a villa")
    seat: Seat
    chimneys: Bounded[1, MOST_CHIMNEYS] = Field(title=Words("Chimneys in the villa"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state)] if state.step == "rounds" else []

    def apply(self, state: State) -> State:
        require_rounds(state, self.seat, "villa")
        sheet = state.sheets[self.seat]
        return with_sheet(state, self.seat, owned=owning_more(state, self.seat, "completed_villa"),
                          villas=(*sheet.villas, self.chimneys))

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s completed a villa with %(chimneys)d chimneys; %(counted)s",
                     name=before.players[self.seat], chimneys=self.chimneys,
                     counted=_counted(after, self.seat, ["completed_villa"]))


@ENGINE.event
class PlaceBuilding(CarpeDiemEvent):
    """``seat`` placed a market (for coins), a bakery (for bread) or a fountain (draw fountain
    cards, keep one: ``fountain_card``, if the table knows it) (summary, Actions; 2018
    rulebook, Other rules a checker can hold). Refused without the coin or bread to pay."""

    label = Words("Place a building")
    seat: Seat
    building: Building = Field(title=Words("Building"), json_schema_extra={"labels": {
        "market": Words("Market"), "bakery": Words("Bakery"), "fountain": Words("Fountain")}})
    fountain_card: str | None = Field(None, title=Words("Fountain card kept (a fountain only)"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "rounds":
            return []
        kept = [Choice(c.id, c.title, Words("%(vp)d VP per %(condition)s", vp=c.vp, condition=c.condition_line()))
                for c in state.board.fountain_cards.values()]
        fountain_card = pick(cls, "fountain_card", state, kept) if kept else None
        moves = []
        for s, sheet in enumerate(state.sheets):
            choices = []
            if sheet.coins >= MARKET_COINS:
                choices.append(Choice("market", Words("Market"),
                                      Words("pay %(cost)d coin of %(have)d", cost=MARKET_COINS, have=sheet.coins)))
            if sheet.bread >= BAKERY_BREAD:
                choices.append(Choice("bakery", Words("Bakery"),
                                      Words("pay %(cost)d bread of %(have)d", cost=BAKERY_BREAD, have=sheet.bread)))
            choices.append(Choice("fountain", Words("Fountain"), Words("draw %(draw)d fountain cards, keep %(keep)d",
                                                                       draw=FOUNTAIN_DRAW, keep=FOUNTAIN_KEEP)))
            moves.append(cls.offer(state, seat=s, label=Words("%(name)s places a building", name=state.players[s]),
                                   building=choices, fountain_card=fountain_card))
        return moves

    def apply(self, state: State) -> State:
        require_rounds(state, self.seat, self.building)
        sheet = state.sheets[self.seat]
        name = state.players[self.seat]
        owned = owning_more(state, self.seat, self.building)
        if self.building != "fountain" and self.fountain_card is not None:
            raise RuleError(RULE_FOUNTAIN, Words("only a fountain draws fountain cards, not a market")
                            if self.building == "market"
                            else Words("only a fountain draws fountain cards, not a bakery"))
        if self.building == "market":
            if sheet.coins < MARKET_COINS:
                raise RuleError(RULE_PLACE, Words("%(name)s has %(have)d coins: a market costs %(cost)d", name=name,
                                                  have=sheet.coins, cost=MARKET_COINS))
            return with_sheet(state, self.seat, owned=owned, coins=sheet.coins - MARKET_COINS)
        if self.building == "bakery":
            if sheet.bread < BAKERY_BREAD:
                raise RuleError(RULE_PLACE, Words("%(name)s has %(have)d bread: a bakery costs %(cost)d", name=name,
                                                  have=sheet.bread, cost=BAKERY_BREAD))
            return with_sheet(state, self.seat, owned=owned, bread=sheet.bread - BAKERY_BREAD)
        kept = sheet.fountain_cards
        if self.fountain_card is not None:
            if self.fountain_card not in state.board.fountain_cards:
                raise RuleError(RULE_FOUNTAIN, Words("there is no fountain card '%(card)s'", card=self.fountain_card))
            kept = (*kept, self.fountain_card)
        return with_sheet(state, self.seat, owned=owned, fountain_cards=kept)

    def describe(self, before: State, after: State) -> str:
        was, now = before.sheets[self.seat], after.sheets[self.seat]
        name, counted = before.players[self.seat], _counted(after, self.seat, [self.building])
        if self.building == "market":
            return Words("%(name)s placed a market for %(cost)d coin (coins %(was)d → %(now)d); %(counted)s",
                         name=name, cost=MARKET_COINS, was=was.coins, now=now.coins, counted=counted)
        if self.building == "bakery":
            return Words("%(name)s placed a bakery for %(cost)d bread (bread %(was)d → %(now)d); %(counted)s",
                         name=name, cost=BAKERY_BREAD, was=was.bread, now=now.bread, counted=counted)
        if self.fountain_card:
            return Words("%(name)s placed a fountain and kept %(card)s; %(counted)s", name=name,
                         card=before.board.fountain_cards[self.fountain_card].title, counted=counted)
        return Words("%(name)s placed a fountain (drew %(draw)d fountain cards, kept %(keep)d); %(counted)s",
                     name=name, draw=FOUNTAIN_DRAW, keep=FOUNTAIN_KEEP, counted=counted)


# --- holdings (summary, Components) ---------------------------------------------------------------


@ENGINE.event
class SetResources(CarpeDiemEvent):
    """``seat`` enters their holdings; each field given replaces the count on the sheet
    (summary, Components). Building rewards and scoring cards change holdings themselves:
    this is for everything else (and for corrections). Each is at most :data:`MOST_HELD`."""

    label = Words("Set holdings")
    seat: Seat
    grapes: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Grapes"))
    herbs: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Herbs"))
    chicken: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Chicken"))
    fish: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Fish"))
    coins: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Coins"))
    bread: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Bread"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("%(name)s's holdings", name=state.players[s]),
                          defaults=state.sheets[s].holdings())
                for s in range(len(state.players)) if state.may_set_holdings(s)]

    def given(self) -> dict[str, int]:
        """Holdings entered: resource -> count."""
        return {r: getattr(self, r) for r in RESOURCE_NAMES if getattr(self, r) is not None}

    def apply(self, state: State) -> State:
        if not self.given():
            raise RuleError(RULE_HOLDINGS, Words("enter at least one of grapes, herbs, chicken, fish, coins, bread"))
        if not state.may_set_holdings(self.seat):
            raise RuleError(RULE_FINAL, Words("%(name)s's leftovers are already scored",
                                              name=state.players[self.seat]))
        return with_sheet(state, self.seat, **self.given())

    def describe(self, before: State, after: State) -> str:
        sheet = before.sheets[self.seat]
        changes = [HOLDING_CHANGES[r](getattr(sheet, r), n) for r, n in self.given().items() if getattr(sheet, r) != n]
        name = before.players[self.seat]
        if not changes:
            return Words("%(name)s's holdings: unchanged", name=name)
        return Words("%(name)s's holdings: %(changes)s", name=name, changes=listed(changes))


@ENGINE.event
class AdjustVictoryPoints(CarpeDiemEvent):
    """``seat`` gains (``change`` > 0) or hands back (< 0) victory points the scorekeeper does not
    work out itself, with what it was for (summary, Components: VP cards). The scoring periods
    and the final scoring add their own points; this is for the rest (a correction by hand, a
    house rule). VP may go below 0 (as after penalties). A change is at most
    :data:`MOST_VP_CHANGE` either way."""

    label = Words("Adjust victory points")
    seat: Seat
    change: Annotated[Bounded[-MOST_VP_CHANGE, MOST_VP_CHANGE],
                      Field(title=Words("VP change"), description=Words("negative to hand points back"))]
    note: Annotated[str, Field(max_length=200, title=Words("What for (optional)"))] = ""

    @field_validator("change")
    @classmethod
    def _not_zero(cls, change: int) -> int:
        if change == 0:
            raise ValueError("a change of 0 changes nothing")
        return change

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("Adjust %(name)s's VP", name=state.players[s]),
                          defaults={"change": 1})
                for s in range(len(state.players))]

    def apply(self, state: State) -> State:
        return with_sheet(state, self.seat, vp=state.sheets[self.seat].vp + self.change)

    def describe(self, before: State, after: State) -> str:
        words = {"name": before.players[self.seat], "change": self.change, "was": before.sheets[self.seat].vp,
                 "now": after.sheets[self.seat].vp}
        if self.note:
            # The note is the players' own text, shown as typed.
            return Words("%(name)s's VP adjusted by %(change)+d (%(note)s): %(was)d → %(now)d", note=self.note,
                         **words)
        return Words("%(name)s's VP adjusted by %(change)+d: %(was)d → %(now)d", **words)
