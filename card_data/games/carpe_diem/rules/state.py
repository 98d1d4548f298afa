"""A Carpe Diem table's state: each player's sheet, the board laid out at set-up, the
banderole bar and where the game stands (:class:`State`), with what the pages and the events
ask of it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt

from card_data.engine import Counter, GameState, Model, ReadOnlyDict, Words
from card_data.engine.scoreboard import Scoreboard, scoreboard
from card_data.games.carpe_diem.cards import (
    BanderoleBar,
    DwellingRewards,
    FountainCard,
    FrameGoal,
    LandscapeReward,
    Leftovers,
    ScoringCard,
    TieBreaker,
    VillaChimneys,
)
from card_data.games.carpe_diem.layout import GridCell, Pair, Rows, grid
from card_data.games.carpe_diem.requirements import Owned, Ware
from card_data.games.carpe_diem.rules.wording import OWNED_TITLES, TIE_BREAKER_NAMES

WARE_NAMES: tuple[str, ...] = Ware.__args__
OWNED_NAMES: tuple[str, ...] = Owned.__args__
RESOURCE_NAMES: tuple[str, ...] = (*WARE_NAMES, "coins", "bread")
"""The holdings a player enters: the four wares, coins and bread."""
UNTRACKED: frozenset[str] = frozenset({"chimney"})
"""Owned things the scorekeeper cannot count from play (chimneys of villas being built)."""
TRACKED: tuple[str, ...] = tuple(t for t in OWNED_NAMES if t not in UNTRACKED)
"""Owned things counted from play, each starting at 0 (see :mod:`card_data.games.carpe_diem.rules`)."""

Step_ = Literal["rounds", "scoring", "final"]
"""The game's own step: ``rounds`` (a phase's rounds are being played), ``scoring`` (the
scoring period after the phase), ``final`` (the final scoring; it stays ``final`` once over)."""


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

    @cached_property
    def card_codes(self) -> dict[str, str]:
        """Each laid-out card's short label by id: its type and its place among the cards of
        that type in layout order, e.g. ``"B2"``. Worked out once per board: every form and
        history line that names a card asks for it."""
        seen: dict[str, int] = {}
        codes = {}
        for card_id in (cid for row in self.layout for cid in row):
            kind = self.cards[card_id].scoring_type
            seen[kind] = seen.get(kind, 0) + 1
            codes[card_id] = f"{kind}{seen[kind]}"
        return codes


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
        # Imported here: the events module imports this one.
        from card_data.games.carpe_diem.rules.events_sheet import AdjustVictoryPoints

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

    def start_seat(self) -> int | None:
        """Seat 0: the table seats the start player first (:attr:`players`)."""
        return 0

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

    def scoreboard(self) -> Scoreboard:
        """Each player's VP; the phase and round, or who scores now (:meth:`status`), or who won."""
        line = self.summary() if self.finished else self.status()
        return scoreboard([self.score_label], [[sheet.vp] for sheet in self.sheets], line,
                          None if self.finished else self.next_to_score())

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
        return self.board.card_codes[card_id]

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
