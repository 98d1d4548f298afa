"""Carpe Diem scorekeeper: phases and rounds, the banderole bar, scoring periods, final scoring.

Sources (``/work/shared/rules``): ``carpe-diem-summary.txt`` (the "summary") and
``carpe-diem-published-rules-notes.md`` (notes on the published 2018 rulebook, the "2018
rulebook"). Every number the components print as icons (starting VP, the unmet-card penalty,
bread per card, the villa chimney table, the banderole bar VP, frame goals, the leftovers
divisor) comes from ``card_data/carpe_diem/tables.yaml`` and the scoring and fountain cards,
copied into the state by :func:`new_state`.

What the scorekeeper models, and what it leaves to the table:

- Rounds are not checked tile by tile: players tap "round played" (or "phase ended") and
  enter what changes their sheet: banderole bar moves and their holdings (wares, coins, bread).
- The banderole bar is kept as spaces plus one order of all discs, furthest ahead first; a
  disc arriving on an occupied space goes on top, i.e. ahead of the discs already there.
- Scoring-card layout (our reading; the sources give only the counts): the scoring set for
  the player count is laid out in rows, in deck-list order, and a circle space lies between
  every two cards side by side or one above the other. The row width is the widest whose
  grid has exactly the table's number of circles: 4 players 3 rows of 4 cards (17 circles),
  3 players 2 rows of 5 (13), 2 players a row of 5 over a row of 3 (9). Circles are numbered
  row by row: first the circles between cards of the row, left to right, then those below it.
- Red cards are paid wares first, coins covering only what the wares do not; over the two
  cards of one circle this never needs more coins than any other way of paying.
- Victory points are plain numbers and may drop below zero after penalties.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, Union

from pydantic import Field, NonNegativeInt, PositiveInt, TypeAdapter

from card_data.engine import RuleError
from card_data.engine.legacy import LegacyEngine as Engine
from card_data.engine.legacy import Model, Outcome
from card_data.games.carpe_diem.cards import (
    SCORING_SET_PLAYERS,
    BanderoleBar,
    CarpeDiemTables,
    FountainCard,
    FrameGoal,
    Leftovers,
    Need,
    Owned,
    ScoringCard,
    TieBreaker,
    VillaChimneys,
    Ware,
)

SUMMARY = "Carpe Diem summary (carpe-diem-summary.txt)"
RULEBOOK = "Carpe Diem 2018 rulebook (carpe-diem-published-rules-notes.md)"

WARE_NAMES: tuple[str, ...] = Ware.__args__
OWNED_NAMES: tuple[str, ...] = Owned.__args__
RESOURCE_NAMES: tuple[str, ...] = (*WARE_NAMES, "coins", "bread")
"""The holdings a player enters: the four wares, coins and bread."""

Stage = Literal["rounds", "scoring", "final", "finished"]


class Options(Model):
    """Table options.

    ``tie_breaker``: ``"summary"`` (default, as ``tables.yaml`` names it): among the players
    tied for most VP the one furthest along the banderole bar wins; ``"rulebook"`` (published
    2018 rulebook): the one furthest BEHIND wins.
    """

    tie_breaker: Literal["summary", "rulebook"] = Field(
        "summary",
        title="Tie-breaker",
        description="summary: the tied player furthest ahead on the banderole bar wins; "
                    "rulebook (2018): the tied player furthest behind wins",
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

    ``vp``: victory points. ``space``: banderole bar space of the player's disc (start 0).
    ``grapes``/``herbs``/``chicken``/``fish``/``coins``/``bread``: holdings. ``owned``: what the
    player last entered owning (owned thing -> count), used to pre-fill the forms.
    ``final``: the final scoring, once entered.
    """

    vp: int
    space: NonNegativeInt = 0
    grapes: NonNegativeInt = 0
    herbs: NonNegativeInt = 0
    chicken: NonNegativeInt = 0
    fish: NonNegativeInt = 0
    coins: NonNegativeInt = 0
    bread: NonNegativeInt = 0
    owned: dict[str, NonNegativeInt] = {}
    final: FinalSheet | None = None

    def wares(self) -> dict[str, int]:
        """Ware -> how many the player holds."""
        return {w: getattr(self, w) for w in WARE_NAMES}

    def holdings(self) -> dict[str, int]:
        """Every resource the player enters (wares, coins, bread) -> how many they hold."""
        return {r: getattr(self, r) for r in RESOURCE_NAMES}


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
    leftovers: Leftovers
    villa_chimneys: VillaChimneys
    banderole_bar: BanderoleBar
    frame_goals: list[FrameGoal]
    tie_breaker: TieBreaker


class GridCell(Model):
    """One cell of the drawn layout: a card (``card`` id), a circle (``circle`` number) or a gap."""

    kind: Literal["card", "circle", "gap"]
    card: str | None = None
    circle: int | None = None
    direction: Literal["across", "down"] | None = None


class State(Model):
    """A Carpe Diem table.

    Attributes:
        players: names by seat; seat 0 is the start player, the others follow clockwise.
        options: the table's :class:`Options`.
        stage: ``rounds`` (a phase is being played), ``scoring`` (the scoring period after
            phase ``phase``), ``final`` (final scoring entries) or ``finished``.
        phase / round: current phase (1-4) and, while ``rounds``, the round being played (1-7).
        sheets: one :class:`PlayerSheet` per seat.
        bar_order: every seat, furthest ahead on the banderole bar first; on one space the disc
            on top comes first.
        layout: rows of scoring-card ids as laid out. ``cards``: those cards by id.
        circles: the circle spaces. ``scored``: seats done in this scoring period (or final scoring).
        fountain_cards: the fountain cards by id. ``tables``: values from ``tables.yaml``.
    """

    players: list[str]
    options: Options
    stage: Stage = "rounds"
    phase: PositiveInt = 1
    round: PositiveInt = 1
    sheets: list[PlayerSheet]
    bar_order: list[int]
    layout: list[list[str]]
    cards: dict[str, ScoringCard]
    circles: list[Circle]
    scored: list[int] = []
    fountain_cards: dict[str, FountainCard]
    tables: Tables

    def scoring_order(self) -> list[int]:
        """Seats still to score this scoring period, in order (2018 rulebook, Scoring periods:
        furthest along the banderole bar first, on one space the disc on top first). Empty
        outside a scoring period."""
        if self.stage != "scoring":
            return []
        return [s for s in self.bar_order if s not in self.scored]

    def next_to_score(self) -> int | None:
        """The seat whose turn it is to score, or ``None`` outside a scoring period."""
        order = self.scoring_order()
        return order[0] if order else None

    def circle(self, number: int) -> Circle | None:
        """Circle ``number`` (1-based), or ``None``."""
        return self.circles[number - 1] if 1 <= number <= len(self.circles) else None

    def free_circles(self) -> list[Circle]:
        """Circles no disc has taken."""
        return [c for c in self.circles if c.seat is None]

    def card_code(self, card_id: str) -> str:
        """Short label of a laid-out card: its type and its place among that type, e.g. ``"B2"``."""
        card = self.cards[card_id]
        same_type = [cid for row in self.layout for cid in row if self.cards[cid].scoring_type == card.scoring_type]
        return f"{card.scoring_type}{same_type.index(card_id) + 1}"

    def green_things(self) -> list[str]:
        """Owned things the laid-out green cards count, in :data:`Owned` order."""
        things = {n.what for c in self.cards.values() if c.colour == "green" for n in c.requirement}
        return [t for t in OWNED_NAMES if t in things]

    def fountain_things(self) -> list[str]:
        """Owned things the fountain cards count, in :data:`Owned` order."""
        things = {n.what for c in self.fountain_cards.values() for n in c.condition}
        return [t for t in OWNED_NAMES if t in things]

    def bar_rank(self, seat: int) -> int:
        """0 for the disc furthest ahead on the banderole bar, 1 for the next, and so on."""
        return self.bar_order.index(seat)

    def grid(self) -> list[list[GridCell]]:
        """The layout drawn as a grid: cards on even rows and columns, the circle between two
        cards side by side in the odd column between them, the circle between two cards one
        above the other in the odd row between them, gaps elsewhere."""
        by_pair = {c.cards: c.number for c in self.circles}
        width = max(len(row) for row in self.layout)
        cells: list[list[GridCell]] = []
        for r, row in enumerate(self.layout):
            line = []
            for c in range(width):
                if c > 0:
                    pair = (row[c - 1], row[c]) if c < len(row) else None
                    line.append(GridCell(kind="circle", circle=by_pair[pair], direction="across") if pair
                                else GridCell(kind="gap"))
                line.append(GridCell(kind="card", card=row[c]) if c < len(row) else GridCell(kind="gap"))
            cells.append(line)
            if r + 1 < len(self.layout):
                below = self.layout[r + 1]
                line = []
                for c in range(width):
                    if c > 0:
                        line.append(GridCell(kind="gap"))
                    line.append(GridCell(kind="circle", circle=by_pair[(row[c], below[c])], direction="down")
                                if c < len(below) else GridCell(kind="gap"))
                cells.append(line)
        return cells


# --- events --------------------------------------------------------------------------------


class OwnedCounts(Model):
    """How many of each owned thing the player says they have; ``None`` = not entered.

    One field per :data:`card_data.games.carpe_diem.cards.Owned` thing, named exactly like it
    (``chimney`` counts chimneys in every villa, complete or not; ``completed_*`` finished
    buildings and landscapes only).
    """

    chimney: NonNegativeInt | None = None
    completed_villa: NonNegativeInt | None = None
    completed_merchant_dwelling: NonNegativeInt | None = None
    completed_baker_dwelling: NonNegativeInt | None = None
    completed_administrator_dwelling: NonNegativeInt | None = None
    completed_craftsman_dwelling: NonNegativeInt | None = None
    completed_landscape: NonNegativeInt | None = None
    completed_pond: NonNegativeInt | None = None
    completed_garden: NonNegativeInt | None = None
    market: NonNegativeInt | None = None
    bakery: NonNegativeInt | None = None
    fountain: NonNegativeInt | None = None

    def given(self) -> dict[str, int]:
        """The counts entered: thing -> count."""
        return {t: getattr(self, t) for t in OWNED_NAMES if getattr(self, t) is not None}


class RoundPlayed(Model):
    """The table finished the current round; after the phase's last round its scoring period
    begins (summary, Turn Structure)."""

    type: Literal["round_played"] = "round_played"


class PhaseEnded(Model):
    """The table finished the current phase, whatever round the scorekeeper shows; its scoring
    period begins (summary, Turn Structure)."""

    type: Literal["phase_ended"] = "phase_ended"


class BanderoleMove(Model):
    """``seat`` advances ``spaces`` on the banderole bar (a banderole space built over, an
    administrator dwelling...); the disc goes on top of any already on the new space."""

    type: Literal["banderole_move"] = "banderole_move"
    seat: NonNegativeInt
    spaces: PositiveInt


class SetResources(Model):
    """``seat`` enters their holdings; each field given replaces the count on the sheet."""

    type: Literal["set_resources"] = "set_resources"
    seat: NonNegativeInt
    grapes: NonNegativeInt | None = None
    herbs: NonNegativeInt | None = None
    chicken: NonNegativeInt | None = None
    fish: NonNegativeInt | None = None
    coins: NonNegativeInt | None = None
    bread: NonNegativeInt | None = None

    def given(self) -> dict[str, int]:
        """Holdings entered: resource -> count."""
        return {r: getattr(self, r) for r in RESOURCE_NAMES if getattr(self, r) is not None}


class Score(OwnedCounts):
    """``seat`` places a scoring disc on ``circle`` and resolves its two cards.

    ``first_card``: the card id resolved first (default: the circle's first card in layout
    order). ``times_first``/``times_second``: how many times to pay a red card (default as many
    as the player can); not for green cards, which score every full set owned.
    ``bread_first``/``bread_second``: hand in bread to fulfil that card once instead. The
    owned counts (:class:`OwnedCounts`) are needed for each green card not paid with bread.
    """

    type: Literal["score"] = "score"
    seat: NonNegativeInt
    circle: PositiveInt
    first_card: str | None = None
    times_first: PositiveInt | None = None
    times_second: PositiveInt | None = None
    bread_first: bool = False
    bread_second: bool = False


class FinalScore(OwnedCounts):
    """``seat``'s final-scoring entries after the last scoring period (2018 rulebook, Final scoring).

    ``villa_chimneys``: the chimneys of each completed villa, one number per villa.
    ``stored_tiles``: face-down building tiles in storage. ``fountain_cards``: fountain card
    ids held (a card twice if held twice). ``frame_goals``: the frame goals met, each the
    owned thing a goal in ``tables.frame_goals`` shows (once per goal met);
    ``other_frame_vp``: VP of met frame goals the data does not hold. The owned counts are
    needed for what the fountain cards count.
    """

    type: Literal["final_score"] = "final_score"
    seat: NonNegativeInt
    villa_chimneys: list[PositiveInt] = []
    stored_tiles: NonNegativeInt = 0
    fountain_cards: list[str] = []
    frame_goals: list[Owned] = []
    other_frame_vp: NonNegativeInt = 0


Event = Annotated[
    Union[RoundPlayed, PhaseEnded, BanderoleMove, SetResources, Score, FinalScore],
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter = TypeAdapter(Event)


# --- set-up --------------------------------------------------------------------------------


def _grid_pairs(rows: list[list[str]]) -> list[tuple[str, str]]:
    """Adjacent card pairs of a layout, numbered row by row: across the row, then down."""
    pairs: list[tuple[str, str]] = []
    for r, row in enumerate(rows):
        pairs += list(zip(row, row[1:]))
        if r + 1 < len(rows):
            pairs += list(zip(row, rows[r + 1]))
    return pairs


def lay_out(card_ids: list[str], circles: int) -> tuple[list[list[str]], list[tuple[str, str]]]:
    """Lay the scoring cards out in rows with ``circles`` circle spaces between them.

    Returns ``(rows, pairs)``: rows of card ids (deck-list order, filled from the top left) in
    the widest row width whose grid has exactly ``circles`` adjacent pairs, and those pairs in
    circle order. Raises ``ValueError`` if no width gives that many. This layout is our
    reading: the sources give only the card and circle counts (2018 rulebook, Set-up details).
    """
    for width in range(len(card_ids), 0, -1):
        rows = [card_ids[i:i + width] for i in range(0, len(card_ids), width)]
        pairs = _grid_pairs(rows)
        if len(pairs) == circles:
            return rows, pairs
    raise ValueError(f"no row width lays out {len(card_ids)} cards with {circles} circle spaces")


def new_state(players: list[str], options: Options, game) -> State:
    """Set up a table: starting VP by seat, discs stacked on space 0, the scoring set laid out.

    ``players``: names, start player first then clockwise. ``game``: the Carpe Diem
    ``card_data.loader.Game``. Raises :class:`RuleError` for a player count the rules do not
    cover (2-4) or data that lays out no scoring set for it.
    Rulebook: 2018 rulebook, Set-up details (starting VP; the start player's disc on space 0,
    the others on top in clockwise order; scoring cards and circles by player count).
    """
    if isinstance(options, dict):
        options = Options.model_validate(options)
    counts = sorted(SCORING_SET_PLAYERS.values())
    if len(players) not in counts:
        raise RuleError(f"{RULEBOOK}, Set-up details: Carpe Diem is for {counts[0]} to {counts[-1]} players",
                        f"{len(players)} players cannot play")
    tables: CarpeDiemTables = game.tables
    n = len(players)
    kind = next(k for k, v in SCORING_SET_PLAYERS.items() if v == n)
    decks = sorted((d for d in game.decks.values() if d.kind == kind), key=lambda d: d.id)
    if not decks:
        raise RuleError(f"{RULEBOOK}, Set-up details: scoring cards are laid out by player count",
                        f"the card data has no {kind} scoring set")
    card_ids = [e.card for e in decks[0].cards]
    circle_count = {2: tables.circle_spaces.p2, 3: tables.circle_spaces.p3, 4: tables.circle_spaces.p4}[n]
    try:
        rows, pairs = lay_out(card_ids, circle_count)
    except ValueError as err:
        raise RuleError(f"{RULEBOOK}, Set-up details: {circle_count} circle spaces for {n} players",
                        str(err)) from None
    # Rulings are for the rulings pages; the scorekeeper needs only what a card asks and gives.
    cards = {cid: game.cards[cid].model_copy(update={"rulings": [], "note": None}) for cid in card_ids}
    fountains = {cid: c.model_copy(update={"rulings": [], "note": None})
                 for cid, c in game.cards.items() if isinstance(c, FountainCard)}
    start_vp = tables.starting_vp.for_players(n)
    return State(
        players=list(players),
        options=options,
        sheets=[PlayerSheet(vp=vp) for vp in start_vp],
        bar_order=list(reversed(range(n))),
        layout=rows,
        cards=cards,
        circles=[Circle(number=i + 1, cards=pair) for i, pair in enumerate(pairs)],
        fountain_cards=fountains,
        tables=Tables(
            phases=tables.phases.count,
            rounds_per_phase=tables.phases.rounds_per_phase,
            unmet_card_penalty_vp=tables.unmet_card_penalty.vp,
            bread_to_fulfil_card=tables.bread_to_fulfil_card.bread,
            leftovers=tables.leftovers,
            villa_chimneys=tables.villa_chimneys,
            banderole_bar=tables.banderole_bar,
            frame_goals=tables.frame_goals.examples,
            tie_breaker=tables.tie_breakers.rule(options.tie_breaker),
        ),
    )


# --- apply ---------------------------------------------------------------------------------

RULE_ROUNDS = (f"{SUMMARY}, Turn Structure: each phase is a set number of rounds followed by a scoring "
               "period, in which no rounds are played")
RULE_SCORING_ORDER = (f"{RULEBOOK}, Scoring periods: players score furthest along the banderole bar "
                      "first, on one space the disc on top first, each placing one disc")
RULE_CIRCLES = (f"{RULEBOOK}, Scoring periods: a disc goes on an empty circle space; discs from "
                "earlier scoring periods block theirs for good")
RULE_RED = (f"{RULEBOOK}, Scoring periods: a red card takes payment in wares, coins replacing any "
            "ware; paying it k times gives the reward k times")
RULE_GREEN = (f"{RULEBOOK}, Scoring periods: a green card counts what the player owns; every full "
              "set owned gives the reward once")
RULE_BREAD = f"{RULEBOOK}, Scoring periods: bread fulfils one scoring card of either colour once"
RULE_FINAL = f"{RULEBOOK}, Final scoring: after the last scoring period each player scores once"
RULE_BAR = (f"{RULEBOOK}, Scoring periods: players only place discs and resolve cards, so only "
            "scoring-card rewards move discs on the banderole bar")
RULE_OVER = f"{SUMMARY}, Scoring / Victory Conditions (End of game): the game ends with the final scoring"


def _check_seat(state: State, seat: int) -> None:
    if seat >= len(state.players):
        raise RuleError(f"{RULEBOOK}, Set-up details: one seat per player",
                        f"there is no seat {seat} at this {len(state.players)}-player table")


def _advance(state: State, seat: int, spaces: int) -> State:
    """``seat``'s disc moves ``spaces`` ahead and goes on top of any disc on its new space."""
    space = state.sheets[seat].space + spaces
    sheets = list(state.sheets)
    sheets[seat] = sheets[seat].model_copy(update={"space": space})
    others = [s for s in state.bar_order if s != seat]
    at = next((i for i, s in enumerate(others) if sheets[s].space <= space), len(others))
    return state.model_copy(update={"sheets": sheets, "bar_order": others[:at] + [seat] + others[at:]})


def _put_sheet(state: State, seat: int, sheet: PlayerSheet) -> State:
    sheets = list(state.sheets)
    sheets[seat] = sheet
    return state.model_copy(update={"sheets": sheets})


def _update_sheet(state: State, seat: int, **changes) -> State:
    return _put_sheet(state, seat, state.sheets[seat].model_copy(update=changes))


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
        counted = ", ".join(_amount(what, n) for what, n in self.counted.items())
        if self.how == "unmet":
            return f"{title} not met{f' ({counted})' if counted else ''} → {self.vp_change} VP"
        paid = ", ".join(_amount(what, n) for what, n in self.paid.items())
        reward = self.card.reward
        gains = [(reward.vp, "VP", "VP"), (reward.coins, "coin", "coins"), (reward.bread, "bread", "bread"),
                 (reward.banderole, "banderole bar space", "banderole bar spaces")]
        gained = " + ".join(f"{each * self.times} {one if each * self.times == 1 else many}"
                            for each, one, many in gains if each)
        if self.how == "bread":
            return f"{title} fulfilled with {paid} → {gained}"
        if self.card.colour == "red":
            return f"{title} paid {self.times}× ({paid}) → {gained}"
        return f"{title} met {self.times}× ({counted}) → {gained}"


def _amount(what: str, count: int) -> str:
    """``"4 coins"``, ``"3 bread"``, or a ware or owned thing as the cards print it (``"4× herbs"``)."""
    if what == "coins":
        return "1 coin" if count == 1 else f"{count} coins"
    if what == "bread":
        return f"{count} bread"
    if not count:
        return f"no {Need(what=what).label()}"
    return Need(what=what, count=count).label()


def _resolve_card(state: State, seat: int, card: ScoringCard, times: int | None, bread: bool,
                  owned: dict[str, int]) -> tuple[State, CardResolution]:
    """Resolve one scoring card for ``seat``; returns the new state and what happened.

    Raises :class:`RuleError` for bread the player does not have, times they cannot pay or
    times on a green card, and green-card counts not entered.
    Rulebook: 2018 rulebook, Scoring periods (green, red, coins, bread, multiples, penalty).
    """
    sheet = state.sheets[seat]
    paid: dict[str, int] = {}
    counted: dict[str, int] = {}
    if bread:
        need = state.tables.bread_to_fulfil_card
        if times is not None:
            raise RuleError(RULE_BREAD, f"bread fulfils {card.title} once; leave its times empty")
        if sheet.bread < need:
            raise RuleError(RULE_BREAD, f"{state.players[seat]} has {sheet.bread} bread, "
                                        f"{need} are needed to fulfil {card.title}")
        how, k, paid = "bread", 1, {"bread": need}
        sheet = sheet.model_copy(update={"bread": sheet.bread - need})
    elif card.colour == "red":
        wares = sheet.wares()
        most = card.multiples(wares, coins=sheet.coins)
        if times is not None and times > most:
            raise RuleError(RULE_RED, f"{state.players[seat]} can pay {card.title} "
                                      f"({card.requirement_line()}) {most}×, not {times}×")
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
        sheet = sheet.model_copy(update={**wares, "coins": sheet.coins - short})
    else:
        if times is not None:
            raise RuleError(RULE_GREEN, f"{card.title} is a green card: every full set you own "
                                        "scores, so leave its times empty")
        missing = [n.what for n in card.requirement if n.what not in owned]
        if missing:
            names = ", ".join(m.replace("_", " ") for m in missing)
            raise RuleError(RULE_GREEN, f"enter how many you own of: {names} (for {card.title})")
        counted = {n.what: owned[n.what] for n in card.requirement}
        k = card.multiples(owned)
        how = "met" if k else "unmet"
    if how == "unmet":
        vp_change = -state.tables.unmet_card_penalty_vp
        sheet = sheet.model_copy(update={"vp": sheet.vp + vp_change})
        state = _put_sheet(state, seat, sheet)
        return state, CardResolution(card, how, 0, paid, counted, vp_change)
    reward = card.reward
    vp_change = reward.vp * k
    sheet = sheet.model_copy(update={"vp": sheet.vp + vp_change, "coins": sheet.coins + reward.coins * k,
                                     "bread": sheet.bread + reward.bread * k})
    state = _put_sheet(state, seat, sheet)
    if reward.banderole:
        state = _advance(state, seat, reward.banderole * k)
    return state, CardResolution(card, how, k, paid, counted, vp_change)


def _score(state: State, event: Score) -> tuple[State, list[CardResolution]]:
    """Apply a :class:`Score` event; returns the new state and both cards' resolutions."""
    if state.stage != "scoring":
        raise RuleError(RULE_SCORING_ORDER, "there is no scoring period now: "
                        + ("finish the phase first" if state.stage == "rounds" else "the scoring periods are over"))
    _check_seat(state, event.seat)
    turn = state.next_to_score()
    if event.seat != turn:
        status = "has already scored this period" if event.seat in state.scored else "must wait"
        raise RuleError(RULE_SCORING_ORDER, f"{state.players[event.seat]} {status}: "
                                            f"it is {state.players[turn]}'s turn to score")
    circle = state.circle(event.circle)
    if circle is None:
        raise RuleError(RULE_CIRCLES, f"there is no circle {event.circle} (circles 1-{len(state.circles)})")
    if circle.seat is not None:
        raise RuleError(RULE_CIRCLES, f"circle {circle.number} is taken by {state.players[circle.seat]}'s "
                                      f"disc from scoring period {circle.period}")
    first, second = circle.cards
    if event.first_card is not None:
        if event.first_card not in circle.cards:
            title = state.cards[event.first_card].title if event.first_card in state.cards else event.first_card
            raise RuleError(f"{SUMMARY}, Special Rules & Edge Cases: the disc triggers the two cards "
                            "beside its circle, in the order the player picks",
                            f"{title} is not beside circle {circle.number}")
        if event.first_card == second:
            first, second = second, first
    owned = event.given()
    results = []
    for card_id, times, bread in ((first, event.times_first, event.bread_first),
                                  (second, event.times_second, event.bread_second)):
        state, result = _resolve_card(state, event.seat, state.cards[card_id], times, bread, owned)
        results.append(result)
    circles = list(state.circles)
    circles[circle.number - 1] = circle.model_copy(update={"seat": event.seat, "period": state.phase})
    sheet = state.sheets[event.seat]
    state = _update_sheet(state, event.seat, owned={**sheet.owned, **owned})
    scored = [*state.scored, event.seat]
    update: dict = {"circles": circles, "scored": scored}
    if len(scored) == len(state.players):
        if state.phase == state.tables.phases:
            update.update(stage="final", scored=[])
        else:
            update.update(stage="rounds", phase=state.phase + 1, round=1, scored=[])
    return state.model_copy(update=update), results


def final_sheet(state: State, event: FinalScore) -> FinalSheet:
    """The final scoring of ``event.seat`` (2018 rulebook, Final scoring): completed villas by
    chimneys (``tables.villa_chimneys``), leftovers (``tables.leftovers``), the banderole bar
    space (``tables.banderole_bar``), fountain cards (their conditions) and frame goals
    (``tables.frame_goals`` plus ``other_frame_vp``).

    Raises :class:`RuleError` for unknown fountain cards or frame goals, fountain conditions
    whose counts are not entered, or villa entries that contradict the owned counts.
    """
    sheet = state.sheets[event.seat]
    owned = event.given()
    if "completed_villa" in owned and owned["completed_villa"] != len(event.villa_chimneys):
        raise RuleError(f"{RULEBOOK}, Final scoring: each completed villa scores by its chimneys",
                        f"you own {owned['completed_villa']} completed villas but listed chimneys "
                        f"for {len(event.villa_chimneys)}")
    if "chimney" in owned and sum(event.villa_chimneys) > owned["chimney"]:
        raise RuleError(f"{RULEBOOK}, Final scoring: each completed villa scores by its chimneys",
                        f"the completed villas have {sum(event.villa_chimneys)} chimneys, "
                        f"more than the {owned['chimney']} you own")
    fountain_vp = 0
    for card_id in event.fountain_cards:
        card = state.fountain_cards.get(card_id)
        if card is None:
            raise RuleError(f"{RULEBOOK}, Final scoring: fountain cards score their own conditions",
                            f"there is no fountain card '{card_id}'")
        missing = [n.what for n in card.condition if n.what not in owned]
        if missing:
            raise RuleError(f"{RULEBOOK}, Final scoring: fountain cards score their own conditions",
                            f"enter how many you own of: {', '.join(m.replace('_', ' ') for m in missing)} "
                            f"(for {card.title})")
        fountain_vp += card.final_vp(owned)
    goals = {g.what: g.vp for g in state.tables.frame_goals}
    for goal in event.frame_goals:
        if goal not in goals:
            raise RuleError(f"{RULEBOOK}, Final scoring: frame goals",
                            f"no frame goal in the data shows {goal.replace('_', ' ')}; "
                            "enter its VP as other frame VP")
    leftovers = {"wares": sum(sheet.wares().values()), "coins": sheet.coins, "bread": sheet.bread,
                 "stored_tiles": event.stored_tiles}
    return FinalSheet(
        villas=sum(state.tables.villa_chimneys.vp(c) for c in event.villa_chimneys),
        leftovers=state.tables.leftovers.vp(sum(leftovers[k] for k in state.tables.leftovers.counted)),
        banderole_bar=state.tables.banderole_bar.vp(sheet.space),
        fountain_cards=fountain_vp,
        frame_goals=sum(goals[g] for g in event.frame_goals) + event.other_frame_vp,
    )


def _final(state: State, event: FinalScore) -> State:
    if state.stage != "final":
        raise RuleError(RULE_FINAL, f"the final scoring comes after scoring period {state.tables.phases}")
    _check_seat(state, event.seat)
    if event.seat in state.scored:
        raise RuleError(RULE_FINAL, f"{state.players[event.seat]} has already entered the final scoring")
    result = final_sheet(state, event)
    sheet = state.sheets[event.seat]
    state = _update_sheet(state, event.seat, final=result, vp=sheet.vp + result.total,
                          owned={**sheet.owned, **event.given()})
    scored = [*state.scored, event.seat]
    stage = "finished" if len(scored) == len(state.players) else "final"
    return state.model_copy(update={"scored": scored, "stage": stage})


def apply(state: State, event) -> State:
    """Apply one event to a copy of ``state`` and return it; ``state`` is never changed.

    ``event``: an event model (or its JSON dict). Raises :class:`RuleError` when the rules
    forbid it: a round or phase during a scoring period, a score out of banderole-bar order or
    on a taken circle, payments the player cannot make, holdings or bar moves for a player who
    has finished, anything after the game has ended. Rulebook sections: see each event model.
    """
    if isinstance(event, dict):
        event = EVENT_ADAPTER.validate_python(event)
    if state.stage == "finished":
        raise RuleError(RULE_OVER, "the game is over; nothing more can be entered")
    if isinstance(event, (RoundPlayed, PhaseEnded)):
        if state.stage != "rounds":
            waiting = (f"{state.players[state.next_to_score()]} scores next" if state.stage == "scoring"
                       else "only final scoring entries remain")
            raise RuleError(RULE_ROUNDS, f"phase {state.phase} is over: {waiting}")
        if isinstance(event, RoundPlayed) and state.round < state.tables.rounds_per_phase:
            return state.model_copy(update={"round": state.round + 1})
        return state.model_copy(update={"stage": "scoring", "scored": []})
    if isinstance(event, BanderoleMove):
        _check_seat(state, event.seat)
        if state.stage == "scoring":
            raise RuleError(RULE_BAR, f"enter {state.players[event.seat]}'s move before the scoring period "
                                      "or after it")
        if state.stage == "final":
            raise RuleError(RULE_FINAL, "the banderole bar no longer moves after the last scoring period")
        return _advance(state, event.seat, event.spaces)
    if isinstance(event, SetResources):
        _check_seat(state, event.seat)
        if not event.given():
            raise RuleError(f"{SUMMARY}, Components: wares, coins and bread",
                            "enter at least one of grapes, herbs, chicken, fish, coins, bread")
        if state.stage == "final" and event.seat in state.scored:
            raise RuleError(RULE_FINAL, f"{state.players[event.seat]}'s leftovers are already scored")
        return _update_sheet(state, event.seat, **event.given())
    if isinstance(event, Score):
        return _score(state, event)[0]
    return _final(state, event)


# --- outcome and history -------------------------------------------------------------------


def winner(state: State) -> int:
    """The winning seat: most VP; among the tied, the tie-breaker the table chose (summary:
    furthest ahead on the banderole bar; 2018 rulebook: furthest behind). Discs never share a
    place in the bar order, so there is always one winner."""
    best = max(s.vp for s in state.sheets)
    tied = [seat for seat, s in enumerate(state.sheets) if s.vp == best]
    ahead = state.tables.tie_breaker.winner == "furthest_ahead_on_banderole_bar"
    return (min if ahead else max)(tied, key=state.bar_rank)


def outcome(state: State) -> Outcome:
    """Scores (VP by seat) and, once every player has entered the final scoring, the winner."""
    scores = [float(s.vp) for s in state.sheets]
    if state.stage != "finished":
        where = {"rounds": f"Phase {state.phase}, round {state.round}",
                 "scoring": f"Scoring period {state.phase}",
                 "final": "Final scoring"}[state.stage]
        return Outcome(finished=False, scores=scores, score_label="VP", summary=where)
    seat = winner(state)
    vp = state.sheets[seat].vp
    tied = [s for s, sh in enumerate(state.sheets) if sh.vp == vp and s != seat]
    summary = f"{state.players[seat]} wins with {vp} VP"
    if tied:
        where = "ahead of" if state.tables.tie_breaker.winner == "furthest_ahead_on_banderole_bar" else "behind"
        summary += (f", tied with {', '.join(state.players[s] for s in tied)} and {where} them on the "
                    f"banderole bar ({state.options.tie_breaker} tie-breaker)")
    return Outcome(finished=True, winners=[seat], scores=scores, score_label="VP", summary=summary)


def _bar_line(state: State, seat: int) -> str:
    space = state.sheets[seat].space
    below = [state.players[s] for s in state.bar_order if s != seat and state.sheets[s].space == space]
    return f"space {space}" + (f" (on top of {', '.join(below)})" if below else "")


def describe(state: State, event) -> str:
    """One history line for ``event`` applied to ``state``, e.g. ``"Bea scored circle 4:
    Two herbs paid 2× (4 herbs) → 8 VP; Bakeries for VP met 1× (1 bakery) → 3 VP. VP 9 → 20"``.
    Never raises: an event the rules refuse gets a plain line."""
    if isinstance(event, dict):
        event = EVENT_ADAPTER.validate_python(event)
    try:
        after = apply(state, event)
    except RuleError as err:
        return f"{event.type.replace('_', ' ')} (refused: {err.message})"
    if isinstance(event, RoundPlayed | PhaseEnded):
        what = (f"Round {state.round} of phase {state.phase} played" if isinstance(event, RoundPlayed)
                else f"Phase {state.phase} ended in round {state.round}")
        if after.stage == "scoring":
            what += f"; scoring period {state.phase} begins, {after.players[after.next_to_score()]} first"
        return what
    name = state.players[event.seat]
    if isinstance(event, BanderoleMove):
        return (f"{name} advanced {event.spaces} on the banderole bar: space {state.sheets[event.seat].space}"
                f" → {_bar_line(after, event.seat)}")
    if isinstance(event, SetResources):
        before = state.sheets[event.seat]
        changes = [f"{r} {getattr(before, r)} → {n}" for r, n in event.given().items() if getattr(before, r) != n]
        return f"{name}'s holdings: " + (", ".join(changes) if changes else "unchanged")
    if isinstance(event, Score):
        _, results = _score(state, event)
        lines = "; ".join(r.line() for r in results)
        return (f"{name} scored circle {event.circle}: {lines}. "
                f"VP {state.sheets[event.seat].vp} → {after.sheets[event.seat].vp}")
    final = after.sheets[event.seat].final
    return (f"{name}'s final scoring: villas +{final.villas}, leftovers +{final.leftovers}, banderole bar "
            f"+{final.banderole_bar}, fountain cards +{final.fountain_cards}, frame goals +{final.frame_goals}"
            f" → {after.sheets[event.seat].vp} VP")


ENGINE = Engine(
    game_id="carpe_diem",
    title="Carpe Diem",
    min_players=min(SCORING_SET_PLAYERS.values()),
    max_players=max(SCORING_SET_PLAYERS.values()),
    options_model=Options,
    state_model=State,
    event_adapter=EVENT_ADAPTER,
    new_state_fn=new_state,
    apply_fn=apply,
    outcome_fn=outcome,
    describe_fn=describe,
)
