"""Carpe Cras scorekeeper: first player, mulligans, rounds and turns, the Carpe Cras Token,
morale, agency and lanes, with a Tempo helper.

Rulebook: ``carpe-cras.txt`` (V1.0, August 2025). Its text lost most headings; rules cite the
topic names the card data uses (``card_data/carpe_cras/README.md``): Pre-Game Setup, The
battlefield, Morale, Round Start, Player Actions, Round End, Carpe Cras Token, Gaining agency,
Striking the city, Tempo, Glossary.

Everything the engine says to players (move labels, form fields, history lines, summaries,
refusals) is :class:`~card_data.engine.Words`: English text that the companion says in the
player's language. Player names and an action's note are params, shown as written; the
rulebook's section names stay as printed, the rulebook being in English only.

What the players enter, one event class each (in the order of a game):

1. :class:`Mulligan` (each player at most once, before round 1), :class:`FirstPlayerRoll`
   (both dice; a tie rolls again), then :class:`ChooseStartingPlayer` by the low roller
   (Pre-Game Setup).
2. :class:`StartRound`: cards ready, each player draws 1 and gains 1 agency, placed in a
   city space of their choice (Round Start).
3. Turns, alternating: :class:`Action` (any player action: the rulebook's list of actions
   did not survive in the source text), :class:`Pass`, :class:`TakeToken`;
   :class:`StrikeCity` with ``ends_turn`` is an attack on a city space taken as the turn's
   action. The round ends when a player passes right after the other passed (Player
   Actions); then :class:`StartRound` again.
4. Effects, at any time from the first round on, not tied to a turn unless ``ends_turn``:
   :class:`StrikeCity` (from an ability), :class:`GainAgency`, :class:`AddLane`,
   :class:`RecoverMorale`.
5. :class:`TempoRoll`: the Tempo helper (:mod:`.tempo` does the arithmetic); it records the
   result in ``State.last_tempo`` (the scorekeeper does not track units).

Readings of ours where the rulebook is silent or unclear (each is also noted where applied):

- Full city spaces (option ``full_city_agency``). The main text ("Gaining agency") says agency
  gained while all your city spaces are full goes to the bottom of your agency deck. The
  glossary ("Gain Agency") says it is sacrificed if you do not control the Carpe Cras Token.
  Sacrificing also puts agency on the bottom of the agency deck (glossary, "Sacrifice"), so
  the two differ only for the Token's holder, whom the glossary exempts without saying where
  the agency goes instead (the list of the Token's advantages is lost). Default
  ``"bottom_of_deck"`` (main text); ``"sacrifice_unless_token"`` (glossary) sets the holder's
  card aside next to their city (``State.agency_set_aside``), to be placed by a later
  :class:`GainAgency` from ``"set_aside"`` once a city space is free.
- Taking the Token is that player's turn, and all their further turns that round are passes:
  the opponent then acts until they pass, which ends the round. Taking it never ends the
  round by itself, even right after the opponent passed.
- A round after one in which no one took the Token begins with the Token's holder, or with
  the starting player if no one has ever held it (the rulebook names only the player who
  took the Token in the previous round).
- Recovering morale never raises it above the starting amount (Morale: "cannot ever have
  more"); recovery at full morale is entered and changes nothing.
- The mulligan ("one shot before the first round") may be taken any time before round 1
  starts, once per player; the scorekeeper records it so that a second one is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field

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
    RuleError,
    Seat,
    Step,
    Words,
    replace_at,
)
from card_data.games.carpe_cras import BOOK, TITLE
from card_data.games.carpe_cras.cards import AGENCY_DECK_SIZE
from card_data.games.carpe_cras.tempo import (
    DIE_FACES,
    TEMPO_CERTAIN_AT,
    TempoCheck,
    striking_speed,
    targeted_speed,
    tempo_differential,
    tempo_needs_roll,
    tempo_succeeds,
)

PLAYER_COUNT = 2
STARTING_LANES = 1
MAX_LANES = 6
CITY_SPACE_CAPACITY = 3
DEFAULT_STARTING_MORALE = 15
MOST_STARTING_MORALE = 99
"""The highest starting morale a table may choose (Morale: 15, "possibly modified in different
game modes"): no city ever has more (Morale: it "cannot ever have more than its starting
amount"), so no effect gains or loses more at once."""
MOST_STAT = 99
"""A sane bound on a stat entered (power, speed, Accuracy, Dexterity, Evade): the cards print one
or two digits, and upgrades and swarms add to them (Card anatomy; Glossary: Stats)."""

# The rulebook's section names stay as printed (the rulebook is in English only); the book's
# name (BOOK) and the rules' wording are translated with the rest of what the engine says.
RULE_FIRST_PLAYER = Words("%(book)s, Pre-Game Setup: both players roll a die, the low roller chooses the "
                          "starting player, and a tie is rolled again", book=BOOK)
RULE_MULLIGAN = Words("%(book)s, Pre-Game Setup: each player may mulligan their opening hand once, before "
                      "the first round", book=BOOK)
RULE_ROUND_START = Words("%(book)s, Round Start: each round starts with cards readied and each player "
                         "drawing 1 card and gaining 1 agency; the starting player acts first in round 1",
                         book=BOOK)
RULE_TURNS = Words("%(book)s, Player Actions: players alternate turns, and the round ends when a player "
                   "passes right after the other passed", book=BOOK)
RULE_TOKEN = Words("%(book)s, Carpe Cras Token: once per round one player may claim the Token and then "
                   "passes all further turns that round", book=BOOK)
RULE_MORALE = Words("%(book)s, Morale: a city starts with %(morale)d morale, can never have more than its "
                    "starting amount, and at 0 the game ends and the opponent wins",
                    book=BOOK, morale=DEFAULT_STARTING_MORALE)
RULE_LANES = Words("%(book)s, The battlefield: the game starts with %(start)d lane and lanes can be "
                   "added up to %(most)d", book=BOOK, start=STARTING_LANES, most=MAX_LANES)
RULE_CITY_SPACE = Words("%(book)s, The battlefield: each lane has one city space per player, holding up to "
                        "%(most)d of its owner's agency", book=BOOK, most=CITY_SPACE_CAPACITY)
RULE_GAIN_MAIN = Words("%(book)s, Gaining agency: gained agency goes in a city space (up to %(most)d each); "
                       "while all are full it goes to the bottom of the agency deck",
                       book=BOOK, most=CITY_SPACE_CAPACITY)
RULE_GAIN_GLOSSARY = Words("%(book)s, Glossary: Gain Agency: gained agency goes in a city space (up to "
                           "%(most)d each); if all are full and you do not control the Carpe Cras Token, it "
                           "is sacrificed", book=BOOK, most=CITY_SPACE_CAPACITY)
RULE_STRIKE_CITY = Words("%(book)s, Striking the city: a strike on a city space deals its skill's power to "
                         "morale; each agency the defender sacrifices from that space prevents 1 damage",
                         book=BOOK)

Lane = Annotated[int, Field(ge=1, le=MAX_LANES, title=Words("Lane"))]
"""A lane number as players say it: 1 to 6 (lane 1 is the one the game starts with)."""
Die = Annotated[int, Field(ge=1, le=DIE_FACES)]
Stat = Bounded[0, MOST_STAT]
"""A stat as entered: never negative (Glossary: Stats), at most :data:`MOST_STAT`."""
FullCityAgency = Literal["bottom_of_deck", "sacrifice_unless_token"]
Step_ = Literal["first_player", "round_start", "turns"]
"""The game's own steps: ``first_player``: rolling for (and choosing) the starting player;
``round_start``: waiting for the next round to start (before round 1, or after a round
ended); ``turns``: a round is on."""
Where = Literal["lane", "bottom", "sacrificed", "set_aside", "none"]
"""Where one gained agency went: a city space, the bottom of the agency deck (city full, main
text), sacrificed (city full, no Token), set aside (city full, holds the Token), or nowhere
(the agency deck is empty at round start)."""

STEP_LABELS = {"first_player": Words("Rolling for the starting player"), "round_start": Words("Round start"),
               "turns": Words("Player actions")}
_WHERE_WORDS = {
    "bottom": Words("to the bottom of the agency deck (city full)"),
    "sacrificed": Words("sacrificed (city full, no Token)"),
    "set_aside": Words("set aside (city full, holds the Token)"),
    "none": Words("none (agency deck empty)"),
}


class Options(Model):
    """Table options.

    Attributes:
        full_city_agency: what happens to agency gained while all your city spaces are full:
            ``"bottom_of_deck"`` (default; main text, Gaining agency) or
            ``"sacrifice_unless_token"`` (Glossary: Gain Agency; the Token's holder sets it aside).
        starting_morale: each city's morale at the start (Morale: 15, "possibly modified in
            different game modes").
    """

    full_city_agency: FullCityAgency = Field(
        default="bottom_of_deck", title=Words("Agency gained with all city spaces full"),
        description=Words("bottom_of_deck: rulebook main text (Gaining agency), it goes to the bottom of the "
                          "agency deck. sacrifice_unless_token: the glossary (Gain Agency), it is sacrificed "
                          "unless you control the Carpe Cras Token."))
    starting_morale: int = Field(default=DEFAULT_STARTING_MORALE, ge=1, le=MOST_STARTING_MORALE, title=Words("Starting morale"),
                                 description=Words("%(morale)d in the standard game; other game modes may differ.",
                                                   morale=DEFAULT_STARTING_MORALE))


class TempoResult(Model):
    """The last Tempo check entered: who rolled, both speeds, differential, roll, success."""

    seat: int
    check: TempoCheck
    roller_speed: int
    opposing_speed: int
    differential: int
    roll: int | None
    succeeded: bool


class State(GameState):
    """A Carpe Cras table.

    Attributes:
        phase: ``setup`` until round 1 starts, then ``play``; ``over`` once a city's morale is 0.
        step: the game's own step, see :data:`Step_`.
        options: the table's :class:`Options`.
        agency_deck_size: cards in a full agency deck (18, from the card schema).
        mulligans: whether each seat has taken its mulligan.
        first_player_rolls: each pair of dice entered, by seat, ties included.
        low_roller: the seat that rolled low and chooses who starts, once known.
        starting_seat: the seat that takes the first turn of round 1.
        round: the current round (0 before round 1 starts).
        lanes: lanes on the battlefield (1-6).
        morale: each seat's morale.
        city_agency: ``city_agency[seat][lane - 1]``: agency in that city space (0-3).
        agency_set_aside: agency held beside the city (``sacrifice_unless_token`` only).
        turn: seat to act (``None`` outside a round).
        last_turn_passed: the last turn this round was a pass (a pass now ends the round).
        passes: passes by each seat this round.
        token_holder: seat holding the Carpe Cras Token (``None`` until someone takes it).
        token_taken_round: the round in which the Token was last taken.
        last_tempo: the last :class:`TempoRoll` entered.
    """

    score_label = Words("Morale")

    step: Step_ = "first_player"
    options: Options
    agency_deck_size: int
    mulligans: tuple[bool, ...]
    first_player_rolls: tuple[tuple[int, int], ...] = ()
    low_roller: int | None = None
    starting_seat: int | None = None
    round: int = 0
    lanes: Annotated[int, Field(ge=1, le=MAX_LANES)] = STARTING_LANES
    morale: tuple[int, ...]
    city_agency: tuple[tuple[Annotated[int, Field(ge=0, le=CITY_SPACE_CAPACITY)], ...], ...]
    agency_set_aside: tuple[int, ...]
    turn: int | None = None
    last_turn_passed: bool = False
    passes: tuple[int, ...]
    token_holder: int | None = None
    token_taken_round: int | None = None
    last_tempo: TempoResult | None = None

    # -- where the game stands --

    def scores(self) -> tuple[float, ...]:
        """Each seat's morale."""
        return tuple(float(m) for m in self.morale)

    def winners(self) -> tuple[int, ...]:
        """The seat whose city still has morale when the other's fell to 0 (Morale)."""
        return tuple(seat for seat, m in enumerate(self.morale) if m > 0) if self.finished else ()

    def rounds_played(self) -> int:
        """Rounds started so far; the round in progress counts."""
        return self.round

    def summary(self) -> Words:
        if self.finished:
            loser = next(i for i, m in enumerate(self.morale) if m <= 0)
            return Words("%(winner)s wins: %(loser)s's morale fell to 0", winner=self.players[other(loser)],
                         loser=self.players[loser])
        if self.step == "first_player":
            return Words("Rolling for the starting player")
        if self.step == "round_start":
            return Words("Round %(round)d about to start", round=self.round + 1)
        return Words("Round %(round)d, %(player)s's turn", round=self.round, player=self.players[self.turn])

    def step_label(self) -> Words:
        return STEP_LABELS[self.step]

    # -- what the rules ask of the state --

    @property
    def city_space_capacity(self) -> int:
        """Agency one city space holds (The battlefield)."""
        return CITY_SPACE_CAPACITY

    @property
    def max_lanes(self) -> int:
        """Lanes the battlefield can grow to (The battlefield)."""
        return MAX_LANES

    @property
    def token_passer(self) -> int | None:
        """The seat that took the Token this round and so passes all further turns, if any."""
        return self.token_holder if self.token_taken_round == self.round and self.step == "turns" else None

    def agency_in_deck(self, seat: int) -> int:
        """Cards left in ``seat``'s agency deck: the deck less what is in the city or set aside."""
        return self.agency_deck_size - sum(self.city_agency[seat]) - self.agency_set_aside[seat]

    def lanes_with_room(self, seat: int) -> list[int]:
        """Lane numbers (1-based) whose city space of ``seat`` holds fewer than 3 agency."""
        return [i + 1 for i, n in enumerate(self.city_agency[seat]) if n < CITY_SPACE_CAPACITY]

    def next_round_starter(self) -> int | None:
        """Who takes the first turn of the next round (Round Start; see the module docstring)."""
        if self.round == 0:
            return self.starting_seat
        if self.token_holder is not None:
            return self.token_holder
        return self.starting_seat

    def may_act(self, seat: int) -> bool:
        """Whether it is ``seat``'s turn and they may take an action other than a pass."""
        return self.step == "turns" and self.turn == seat and self.token_passer != seat

    def token_free(self) -> bool:
        """Whether the Carpe Cras Token may still be claimed this round."""
        return self.step == "turns" and self.token_taken_round != self.round

    def lane_choices(self, seat: int) -> list[Choice]:
        """The lanes where ``seat`` may place a gained agency, with what each holds."""
        return [Choice(lane, Words("Lane %(lane)d", lane=lane),
                       Words("%(count)d of %(most)d", count=self.city_agency[seat][lane - 1], most=CITY_SPACE_CAPACITY))
                for lane in self.lanes_with_room(seat)]

    def counters(self) -> list[Counter]:
        """Each city's morale, one tap to lose or recover 1 (:class:`LoseMorale`,
        :class:`RecoverMorale`), once round 1 has started."""
        if self.round == 0:
            return []
        return [Counter(label=Words("%(name)s's morale", name=name), value=self.morale[seat], seat=seat, step=1,
                        minus=LoseMorale.offer(self, seat=seat, label=Words("%(name)s: −1 morale", name=name),
                                               amount=1),
                        plus=RecoverMorale.offer(self, seat=seat, label=Words("%(name)s: +1 morale", name=name),
                                                 amount=1,
                                                 ends_turn=False)
                        if self.morale[seat] < self.options.starting_morale else None)
                for seat, name in enumerate(self.players)]

    def gain_rule(self) -> Words:
        return RULE_GAIN_MAIN if self.options.full_city_agency == "bottom_of_deck" else RULE_GAIN_GLOSSARY


def other(seat: int) -> int:
    """The opponent's seat."""
    return 1 - seat


def set_up(players: tuple[str, ...], options: Options, game: object) -> State:
    """A new table for two ``players``: one lane, empty cities, full morale (Pre-Game Setup).

    ``game`` is the card database's Carpe Cras game (unused: the agency deck size comes from
    the card schema).
    """
    seats = range(len(players))
    return State(players=players, phase="setup", options=options, agency_deck_size=AGENCY_DECK_SIZE,
                 mulligans=tuple(False for _ in seats), morale=tuple(options.starting_morale for _ in seats),
                 city_agency=tuple((0,) * STARTING_LANES for _ in seats),
                 agency_set_aside=tuple(0 for _ in seats), passes=tuple(0 for _ in seats))


ENGINE: Engine[State] = Engine(
    game_id="carpe_cras", title=TITLE, min_players=PLAYER_COUNT, max_players=PLAYER_COUNT,
    options=Options, state=State, setup=set_up, rulebook=BOOK,
    over_rule=Words("%(book)s, Morale: at 0 morale the game ends and the opponent wins", book=BOOK))


# --- Shared steps --------------------------------------------------------------------------------


def gain(state: State, seat: int, lane: int | None, source: str = "agency_deck",
         at_round_start: bool = False) -> tuple[State, Where]:
    """``state`` after ``seat`` gains one agency placed in ``lane``, and where it went.

    Raises :class:`RuleError` for a lane given or missing wrongly (Gaining agency; Glossary:
    Gain Agency; The battlefield), an empty agency deck outside round start, or nothing set
    aside to place.
    """
    name = state.players[seat]
    rule = state.gain_rule()
    set_aside = list(state.agency_set_aside)
    if source == "set_aside":
        if set_aside[seat] == 0:
            raise RuleError(rule, Words("%(name)s has no agency set aside", name=name))
        set_aside[seat] -= 1
    elif state.agency_in_deck(seat) == 0:
        if not at_round_start:
            raise RuleError(rule, Words("%(name)s's agency deck is empty: there is no agency to gain", name=name))
        if lane is not None:
            raise RuleError(rule, Words("%(name)s's agency deck is empty: leave the lane out", name=name))
        return state, "none"
    room = state.lanes_with_room(seat)
    if not room:
        if source == "set_aside":
            raise RuleError(RULE_CITY_SPACE, Words("all of %(name)s's city spaces are full", name=name))
        if lane is not None:
            raise RuleError(rule, Words("all of %(name)s's city spaces are full: leave the lane out", name=name))
        if state.options.full_city_agency == "bottom_of_deck":
            return state, "bottom"
        if state.token_holder == seat:
            set_aside[seat] += 1
            return state.evolve(agency_set_aside=set_aside), "set_aside"
        return state, "sacrificed"
    if lane is None:
        # The lanes are numbers, so joining them with ", " says the same in any language.
        raise RuleError(rule, Words("choose a lane for %(name)s's agency (room in lane %(lanes)s)", name=name,
                                    lanes=", ".join(map(str, room))))
    if lane > state.lanes:
        raise RuleError(RULE_LANES, no_lane(lane, state.lanes))
    if lane not in room:
        raise RuleError(RULE_CITY_SPACE, Words("%(name)s's city space in lane %(lane)d already holds %(most)d "
                                               "agency", name=name, lane=lane, most=CITY_SPACE_CAPACITY))
    row = replace_at(state.city_agency[seat], lane - 1, state.city_agency[seat][lane - 1] + 1)
    return state.evolve(city_agency=replace_at(state.city_agency, seat, row), agency_set_aside=set_aside), "lane"


def no_lane(lane: int, lanes: int) -> Words:
    """The refusal of a lane number beyond the battlefield's ``lanes``."""
    return Words("there is no lane %(lane)d: the battlefield has %(lanes)d", lane=lane, lanes=lanes)


def lane_field(name: str, label: Words, room: list[Choice]) -> FormField:
    """A required choice among the lanes with room (see :meth:`State.lane_choices`)."""
    return FormField(name=name, label=label, kind="choice", choices=tuple(room))


def placed(state: State, seat: int, lane: int | None, where: Where) -> Words:
    """Where a gained agency went, for a history line (``state``: after the gain)."""
    if where == "lane":
        return Words("lane %(lane)d (now %(count)d)", lane=lane, count=state.city_agency[seat][lane - 1])
    return _WHERE_WORDS[where]


def require_started(state: State) -> None:
    if state.round == 0:
        raise RuleError(RULE_ROUND_START, Words("the first round has not started yet"))


def require_turn(state: State, seat: int, what: Words) -> None:
    """Refuse ``what`` (words naming the deed, e.g. ``Words("passing")``) unless a round is on
    and it is ``seat``'s turn."""
    if state.step == "first_player":
        raise RuleError(RULE_FIRST_PLAYER, Words("roll for the starting player first"))
    if state.step == "round_start":
        raise RuleError(RULE_ROUND_START, Words("start round %(round)d first", round=state.round + 1))
    if state.token_passer == seat:
        raise RuleError(RULE_TOKEN, Words("%(player)s took the Carpe Cras Token this round and passes all "
                                          "further turns: %(what)s is not allowed",
                                          player=state.players[seat], what=what))
    if state.turn != seat:
        raise RuleError(RULE_TURNS, Words("it is %(current)s's turn, not %(player)s's",
                                          current=state.players[state.turn], player=state.players[seat]))


def after_turn(state: State, seat: int, passed: bool) -> State:
    """``state`` after ``seat``'s turn: next turn, pass bookkeeping, or the round's end."""
    passes = tuple(p + (passed and i == seat) for i, p in enumerate(state.passes))
    if passed and state.last_turn_passed:
        return state.evolve(step="round_start", turn=None, last_turn_passed=False, passes=passes)
    if state.token_passer == other(seat):
        # The Token's taker passes every turn it would get, so the turn comes straight back.
        return state.evolve(turn=seat, last_turn_passed=True, passes=passes)
    return state.evolve(turn=other(seat), last_turn_passed=passed, passes=passes)


def round_end_note(before: State, after: State) -> Words | str:
    """``"; round 2 ends"`` when the event ended the round, else ``""``: the ``end`` param of
    history lines. The empty note is a plain ``str``: ``Words("")`` would be looked up in the
    catalogue, whose entry for ``""`` is its header."""
    if before.step == "turns" and after.step == "round_start":
        return Words("; round %(round)d ends", round=before.round)
    return ""


def check_morale(state: State) -> State:
    """The game ends when a city's morale reaches 0 (Morale)."""
    return state.evolve(phase="over") if any(m <= 0 for m in state.morale) else state


class CarpeCrasEvent(Event):
    """Base of the Carpe Cras events."""


class TurnOrEffect(CarpeCrasEvent):
    """An event that is either the turn's action (``ends_turn``) or an effect outside the turn."""

    seat: Seat
    ends_turn: bool = Field(False, title=Words("This was the turn's action"))

    def turn_checked(self, state: State, what: Words) -> None:
        require_started(state)
        if self.ends_turn:
            require_turn(state, self.seat, what)

    def end_turn(self, before: State, after: State) -> State:
        return after_turn(after, self.seat, passed=False) if self.ends_turn else after

    @classmethod
    def effect_seats(cls, state: State) -> list[int]:
        """Seats that may enter this effect now: both, once round 1 has started."""
        return list(range(len(state.players))) if state.round > 0 else []



# --- Pre-Game Setup ---------------------------------------------------------------------------------


@ENGINE.event
class Mulligan(CarpeCrasEvent):
    """``seat`` shuffles their opening hand back and draws 5 new cards, once, before round 1
    (Pre-Game Setup; Glossary: Mulligan)."""

    label = Words("Mulligan the opening hand")
    seat: Seat

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.round > 0:
            return []
        return [cls.offer(state, seat=s, label=Words("%(player)s: mulligan (once)", player=state.players[s]))
                for s, taken in enumerate(state.mulligans) if not taken]

    def apply(self, state: State) -> State:
        name = state.players[self.seat]
        if state.round > 0:
            raise RuleError(RULE_MULLIGAN, Words("the first round has started: no more mulligans"))
        if state.mulligans[self.seat]:
            raise RuleError(RULE_MULLIGAN, Words("%(name)s has already taken their mulligan", name=name))
        return state.evolve(mulligans=replace_at(state.mulligans, self.seat, True))

    def describe(self, before: State, after: State) -> str:
        return Words("%(player)s mulliganed: shuffled the opening hand back and drew 5",
                     player=before.players[self.seat])


@ENGINE.event
class FirstPlayerRoll(CarpeCrasEvent):
    """Both players' dice for the first player, by seat (Pre-Game Setup). Low roll wins; ties roll again."""

    label = Words("Roll for the starting player")
    rolls: Annotated[tuple[Die, Die], Field(title=Words("Dice, by seat"))]

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "first_player" or state.low_roller is not None:
            return []
        dice = tuple(Choice(face, str(face)) for face in range(1, DIE_FACES + 1))
        return [cls.offer(state, rolls=FormField(name="rolls", label=Words("Each player's die"), kind="multi",
                                                 choices=dice,
                                                 count=PLAYER_COUNT, item_labels=state.players))]

    def apply(self, state: State) -> State:
        if state.step != "first_player" or state.low_roller is not None:
            message = (Words("the starting player is already settled") if state.starting_seat is not None
                       else Words("%(player)s rolled low and now chooses who starts",
                                  player=state.players[state.low_roller]))
            raise RuleError(RULE_FIRST_PLAYER, message)
        low = None if self.rolls[0] == self.rolls[1] else self.rolls.index(min(self.rolls))
        return state.evolve(first_player_rolls=(*state.first_player_rolls, self.rolls), low_roller=low)

    def describe(self, before: State, after: State) -> str:
        names = before.players
        # Two players (PLAYER_COUNT), so two dice: a fixed template rather than a joined list.
        first, second = (Words("%(player)s rolled %(roll)d", player=names[i], roll=r) for i, r in enumerate(self.rolls))
        if after.low_roller is None:
            return Words("First player: %(first)s, %(second)s; a tie, roll again", first=first, second=second)
        return Words("First player: %(first)s, %(second)s; %(low)s rolled low and chooses who starts",
                     first=first, second=second, low=names[after.low_roller])


@ENGINE.event
class ChooseStartingPlayer(CarpeCrasEvent):
    """The low roller (``seat``) picks who takes the first turn (Pre-Game Setup)."""

    label = Words("Choose the starting player")
    seat: Seat
    starting_seat: Seat = Field(title=Words("Takes the first turn"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "first_player" or state.low_roller is None:
            return []
        return [cls.offer(state, seat=state.low_roller,
                          label=Words("%(player)s chooses who starts", player=state.players[state.low_roller]))]

    def apply(self, state: State) -> State:
        if state.step != "first_player":
            raise RuleError(RULE_FIRST_PLAYER, Words("the starting player is already settled"))
        if state.low_roller is None:
            raise RuleError(RULE_FIRST_PLAYER, Words("roll first: the low roller chooses (a tie rolls again)"))
        if self.seat != state.low_roller:
            raise RuleError(RULE_FIRST_PLAYER, Words("%(low)s rolled low and chooses, not %(player)s",
                                                     low=state.players[state.low_roller],
                                                     player=state.players[self.seat]))
        return state.evolve(starting_seat=self.starting_seat, step="round_start")

    def describe(self, before: State, after: State) -> str:
        if self.starting_seat == self.seat:
            return Words("%(player)s chose themselves to take the first turn", player=before.players[self.seat])
        return Words("%(player)s chose %(chosen)s to take the first turn", player=before.players[self.seat],
                     chosen=before.players[self.starting_seat])


# --- Rounds and turns -------------------------------------------------------------------------------


@ENGINE.event
class StartRound(CarpeCrasEvent):
    """A round starts (Round Start): cards ready, each draws 1 and gains 1 agency.

    ``agency_lane_0`` / ``agency_lane_1``: the lane whose city space takes seat 0's / seat 1's
    new agency; left out when that player's city spaces are all full (or their agency deck is
    empty).
    """

    label = Words("Start the round")
    agency_lane_0: Lane | None = None
    agency_lane_1: Lane | None = None

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "round_start":
            return []
        lanes = {}
        for s, name in enumerate(("agency_lane_0", "agency_lane_1")):
            room = state.lane_choices(s)
            if room and state.agency_in_deck(s):
                lanes[name] = lane_field(name, Words("%(player)s's new agency goes to", player=state.players[s]),
                                         room)
            else:
                lanes[name] = None  # city full or deck empty: nothing to choose
        return [cls.offer(state, label=Words("Start round %(round)d", round=state.round + 1), **lanes)]

    def apply(self, state: State) -> Step[State]:
        if state.step == "first_player":
            raise RuleError(RULE_FIRST_PLAYER, Words("roll for the starting player first"))
        if state.step == "turns":
            raise RuleError(RULE_TURNS, Words("round %(round)d is still on: it ends when a player passes right "
                                              "after the other passed", round=state.round))
        work, parts = state, []
        for seat, lane in enumerate((self.agency_lane_0, self.agency_lane_1)):
            work, where = gain(work, seat, lane, at_round_start=True)
            parts.append(Words("%(player)s's agency → %(where)s", player=state.players[seat],
                               where=placed(work, seat, lane, where)))
        after = work.evolve(phase="play", step="turns", round=state.round + 1, turn=state.next_round_starter(),
                            last_turn_passed=False, passes=(0,) * PLAYER_COUNT)
        # Two players, so two parts: a fixed template rather than a joined list.
        first, second = parts
        return Step(after, Words("Round %(round)d starts: cards ready, each player draws 1; %(first)s; %(second)s; "
                                 "%(starter)s acts first", round=after.round, first=first, second=second,
                                 starter=after.players[after.turn]))


@ENGINE.event
class Action(CarpeCrasEvent):
    """A turn's action other than a pass or the Token (play a card, move, attack a unit...)."""

    label = Words("Take an action")
    seat: Seat
    note: Annotated[str, Field(max_length=200, title=Words("What was done (optional)"))] = ""

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not (state.step == "turns" and state.may_act(state.turn)):
            return []
        return [cls.offer(state, seat=state.turn, label=Words("%(player)s: action", player=state.players[state.turn]))]

    def apply(self, state: State) -> State:
        require_turn(state, self.seat, Words("an action"))
        return after_turn(state, self.seat, passed=False)

    def describe(self, before: State, after: State) -> str:
        # The note is the player's own text: a param, never translated.
        if self.note:
            return Words("%(player)s took an action: %(note)s%(end)s", player=before.players[self.seat],
                         note=self.note, end=round_end_note(before, after))
        return Words("%(player)s took an action%(end)s", player=before.players[self.seat],
                     end=round_end_note(before, after))


@ENGINE.event
class Pass(CarpeCrasEvent):
    """``seat`` passes its turn (Player Actions)."""

    label = Words("Pass")
    seat: Seat

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "turns":
            return []
        player = state.players[state.turn]
        label = (Words("%(player)s: pass (ends the round)", player=player) if state.last_turn_passed
                 else Words("%(player)s: pass", player=player))
        return [cls.offer(state, seat=state.turn, label=label)]

    def apply(self, state: State) -> State:
        require_turn(state, self.seat, Words("passing"))
        return after_turn(state, self.seat, passed=True)

    def describe(self, before: State, after: State) -> str:
        return Words("%(player)s passed%(end)s", player=before.players[self.seat], end=round_end_note(before, after))


@ENGINE.event
class TakeToken(CarpeCrasEvent):
    """``seat`` claims the Carpe Cras Token, passing all further turns this round."""

    label = Words("Take the Carpe Cras Token")
    seat: Seat

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not (state.token_free() and state.may_act(state.turn)):
            return []
        return [cls.offer(state, seat=state.turn,
                          label=Words("%(player)s: take the Carpe Cras Token (pass the rest of the round)",
                                      player=state.players[state.turn]))]

    def apply(self, state: State) -> State:
        require_turn(state, self.seat, Words("taking the Token"))
        if state.token_taken_round == state.round:
            raise RuleError(RULE_TOKEN, Words("%(player)s already took the Carpe Cras Token in round %(round)d",
                                              player=state.players[state.token_holder], round=state.round))
        # All the taker's further turns are passes, so the opponent's next pass ends the round.
        return state.evolve(turn=other(self.seat), last_turn_passed=True, token_holder=self.seat,
                            token_taken_round=state.round)

    def describe(self, before: State, after: State) -> str:
        return Words("%(player)s took the Carpe Cras Token and passes for the rest of round %(round)d",
                     player=before.players[self.seat], round=before.round)


# --- Effects ------------------------------------------------------------------------------------------


@ENGINE.event
class StrikeCity(TurnOrEffect):
    """``seat`` strikes the opponent's city space in ``lane`` with ``power`` (Striking the city).

    ``sacrificed``: agency the defender sacrifices from that space, 1 damage prevented each: at
    most the :data:`CITY_SPACE_CAPACITY` a city space holds (The battlefield). ``power``: a
    stat, at most :data:`MOST_STAT`.
    ``ends_turn``: the strike was this turn's action (an attack); false for a strike from an
    ability outside the striker's own turn action.
    """

    label = Words("Strike the city")
    lane: Lane
    power: Stat = Field(title=Words("Power of the striking skill"))
    sacrificed: Bounded[0, CITY_SPACE_CAPACITY] = Field(
        0, title=Words("Agency the defender sacrifices from that space"))
    ends_turn: bool = Field(True, title=Words("This was the turn's action"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("%(striker)s strikes %(defender)s's city",
                                                     striker=state.players[s], defender=state.players[other(s)]),
                          lane=[Choice(lane, Words("Lane %(lane)d", lane=lane),
                                       Words("%(count)d agency there", count=state.city_agency[other(s)][lane - 1]))
                                for lane in range(1, state.lanes + 1)],
                          defaults={"ends_turn": state.may_act(s)})
                for s in TurnOrEffect.effect_seats(state)]

    def apply(self, state: State) -> State:
        self.turn_checked(state, Words("a strike as the turn's action"))
        defender = other(self.seat)
        name = state.players[defender]
        if self.lane > state.lanes:
            raise RuleError(RULE_LANES, no_lane(self.lane, state.lanes))
        there = state.city_agency[defender][self.lane - 1]
        if self.sacrificed > there:
            raise RuleError(RULE_STRIKE_CITY, Words("%(name)s can sacrifice only agency in the struck city space, "
                                                    "and lane %(lane)d holds only %(count)d",
                                                    name=name, lane=self.lane, count=there))
        if self.sacrificed > self.power:
            raise RuleError(RULE_STRIKE_CITY, Words("sacrificing %(sacrificed)d agency prevents at most %(power)d "
                                                    "damage (the strike's power): sacrifice no more",
                                                    sacrificed=self.sacrificed, power=self.power))
        row = replace_at(state.city_agency[defender], self.lane - 1, there - self.sacrificed)
        morale = max(0, state.morale[defender] - (self.power - self.sacrificed))
        struck = state.evolve(city_agency=replace_at(state.city_agency, defender, row),
                              morale=replace_at(state.morale, defender, morale))
        return check_morale(self.end_turn(state, struck))

    def describe(self, before: State, after: State) -> str:
        d = other(self.seat)
        said = {"striker": before.players[self.seat], "defender": before.players[d], "lane": self.lane,
                "power": self.power, "before": before.morale[d], "after": after.morale[d],
                "end": round_end_note(before, after)}
        if self.sacrificed:
            return Words("%(striker)s struck %(defender)s's city in lane %(lane)d for %(power)d; %(defender)s "
                         "sacrificed %(sacrificed)d agency, morale %(before)d → %(after)d%(end)s",
                         sacrificed=self.sacrificed, **said)
        return Words("%(striker)s struck %(defender)s's city in lane %(lane)d for %(power)d; morale %(before)d → "
                     "%(after)d%(end)s", **said)


@ENGINE.event
class GainAgency(TurnOrEffect):
    """``seat`` gains 1 agency (Gaining agency), placed in its city space in ``lane``.

    Leave ``lane`` out when all of the player's city spaces are full. ``source``:
    ``"set_aside"`` places a card set aside earlier (``sacrifice_unless_token`` only).
    """

    label = Words("Gain 1 agency")
    lane: Lane | None = None
    source: Literal["agency_deck", "set_aside"] = Field(
        "agency_deck", title=Words("From"),
        json_schema_extra={"labels": {"agency_deck": Words("The agency deck"),
                                      "set_aside": Words("Beside the city (set aside)")}})

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        moves = []
        for s in TurnOrEffect.effect_seats(state):
            room = state.lane_choices(s)
            lane = lane_field("lane", Words("Place it in"), room) if room else None
            if state.agency_in_deck(s):
                moves.append(cls.offer(state, seat=s, label=Words("%(player)s gains 1 agency", player=state.players[s]),
                                       lane=lane, source="agency_deck"))
            if state.agency_set_aside[s] and room:
                moves.append(cls.offer(state, seat=s, label=Words("%(player)s places agency set aside",
                                                                  player=state.players[s]),
                                       lane=lane, source="set_aside"))
        return moves

    def apply(self, state: State) -> Step[State]:
        self.turn_checked(state, Words("gaining agency as the turn's action"))
        gained, where = gain(state, self.seat, self.lane, self.source)
        after = self.end_turn(state, gained)
        said = {"player": state.players[self.seat], "where": placed(after, self.seat, self.lane, where),
                "end": round_end_note(state, after)}
        if self.source == "set_aside":
            return Step(after, Words("%(player)s gained 1 agency from beside the city → %(where)s%(end)s", **said))
        return Step(after, Words("%(player)s gained 1 agency → %(where)s%(end)s", **said))


@ENGINE.event
class AddLane(TurnOrEffect):
    """``seat`` adds a lane to the battlefield (The battlefield), up to 6: one new, empty city space each."""

    label = Words("Add a lane")

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.lanes >= MAX_LANES:
            return []
        return [cls.offer(state, seat=s, label=Words("%(player)s adds lane %(lane)d", player=state.players[s],
                                                     lane=state.lanes + 1),
                          defaults={"ends_turn": state.may_act(s)})
                for s in TurnOrEffect.effect_seats(state)]

    def apply(self, state: State) -> State:
        self.turn_checked(state, Words("adding a lane as the turn's action"))
        if state.lanes >= MAX_LANES:
            raise RuleError(RULE_LANES, Words("the battlefield already has %(most)d lanes", most=MAX_LANES))
        grown = state.evolve(lanes=state.lanes + 1, city_agency=tuple((*row, 0) for row in state.city_agency))
        return self.end_turn(state, grown)

    def describe(self, before: State, after: State) -> str:
        return Words("%(player)s added lane %(lane)d%(end)s", player=before.players[self.seat], lane=after.lanes,
                     end=round_end_note(before, after))


@ENGINE.event
class RecoverMorale(TurnOrEffect):
    """``seat``'s city recovers ``amount`` morale, never above the starting morale (Morale: a
    city "cannot ever have more than its starting amount"): at full morale it changes nothing.
    ``amount`` is at most :data:`MOST_STARTING_MORALE`, the most any city can have."""

    label = Words("Recover morale")
    amount: Annotated[Bounded[1, MOST_STARTING_MORALE], Field(title=Words("Morale recovered"))]

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("%(player)s recovers morale", player=state.players[s]),
                          defaults={"ends_turn": state.may_act(s), "amount": 1})
                for s in TurnOrEffect.effect_seats(state)]

    def apply(self, state: State) -> State:
        self.turn_checked(state, Words("recovering morale as the turn's action"))
        morale = min(state.options.starting_morale, state.morale[self.seat] + self.amount)
        return self.end_turn(state, state.evolve(morale=replace_at(state.morale, self.seat, morale)))

    def describe(self, before: State, after: State) -> str:
        start = before.options.starting_morale
        said = {"player": before.players[self.seat], "amount": self.amount, "before": before.morale[self.seat],
                "after": after.morale[self.seat], "most": start, "end": round_end_note(before, after)}
        if before.morale[self.seat] >= start:
            return Words("%(player)s recovered %(amount)d morale: %(before)d → %(after)d (at most %(most)d) "
                         "(already full)%(end)s", **said)
        return Words("%(player)s recovered %(amount)d morale: %(before)d → %(after)d (at most %(most)d)%(end)s",
                     **said)


@ENGINE.event
class LoseMorale(CarpeCrasEvent):
    """A card's effect damages ``seat``'s city: it loses ``amount`` morale outside a strike on a
    city space (Glossary: effect damage, "effects that deal damage outside of combat"; our
    reading: such damage to a city comes off its morale). Morale stops at 0, which ends the game
    (Morale). Not a turn's action. ``amount`` is at most :data:`MOST_STARTING_MORALE`: no city
    has more to lose."""

    label = Words("Lose morale")
    seat: Seat = Field(title=Words("City"))
    amount: Annotated[Bounded[1, MOST_STARTING_MORALE], Field(title=Words("Morale lost"))]

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("%(player)s loses morale to an effect", player=state.players[s]),
                          defaults={"amount": 1})
                for s in TurnOrEffect.effect_seats(state)]

    def apply(self, state: State) -> State:
        require_started(state)
        morale = max(0, state.morale[self.seat] - self.amount)
        return check_morale(state.evolve(morale=replace_at(state.morale, self.seat, morale)))

    def describe(self, before: State, after: State) -> str:
        return Words("%(player)s's city lost %(amount)d morale to an effect: %(before)d → %(after)d",
                     player=before.players[self.seat], amount=self.amount, before=before.morale[self.seat],
                     after=after.morale[self.seat])


# --- Tempo helper -------------------------------------------------------------------------------------

_CHECK_WORDS = {"dodge": Words("dodging a first strike"),
                "dodge_strike_twice": Words("dodging a Strike Twice strike"),
                "strike_twice": Words("to Strike Twice")}


@ENGINE.event
class TempoRoll(CarpeCrasEvent):
    """A Tempo check (Tempo helper): the striker's and target's stats and the roller's die.

    ``seat`` is the player who rolls (the target's for a dodge, the attacker's for Strike
    Twice). ``roll`` may be left out when the differential is 0 or less, or 6 or more. Each
    stat is at most :data:`MOST_STAT`.
    """

    label = Words("Tempo check")
    seat: Seat = Field(title=Words("Who rolls"))
    check: TempoCheck = Field(title=Words("Check"), json_schema_extra={"labels": {
        "dodge": Words("Dodge a first strike"), "dodge_strike_twice": Words("Dodge a Strike Twice strike"),
        "strike_twice": Words("Strike Twice")}})
    striker_speed: Stat = Field(title=Words("Striker's speed"))
    accuracy: Stat = Field(0, title=Words("Striking skill's Accuracy"))
    dexterity: Stat = Field(0, title=Words("Striking skill's Dexterity"))
    target_speed: Stat = Field(title=Words("Target's speed"))
    evade: Stat = Field(0, title=Words("Target's Evade"))
    roll: Die | None = Field(None, title=Words("Die roll (not needed at 0 or less, or %(certain)d or more)",
                                               certain=TEMPO_CERTAIN_AT))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, label=Words("Tempo check"))] if state.round > 0 else []

    def apply(self, state: State) -> State:
        require_started(state)
        differential = tempo_differential(self.check, striker_speed=self.striker_speed,
                                          target_speed=self.target_speed, accuracy=self.accuracy,
                                          dexterity=self.dexterity, evade=self.evade)
        succeeded = tempo_succeeds(differential, self.roll)
        striker = striking_speed(self.striker_speed, accuracy=self.accuracy, dexterity=self.dexterity,
                                 first_strike=self.check == "dodge")
        target = targeted_speed(self.target_speed, evade=self.evade)
        roller, opposing = (striker, target) if self.check == "strike_twice" else (target, striker)
        result = TempoResult(seat=self.seat, check=self.check, roller_speed=roller, opposing_speed=opposing,
                             differential=differential, roll=self.roll if tempo_needs_roll(differential) else None,
                             succeeded=succeeded)
        return state.evolve(last_tempo=result)

    def describe(self, before: State, after: State) -> str:
        t = after.last_tempo
        if tempo_needs_roll(t.differential):
            how = (Words("rolled %(roll)d: success", roll=t.roll) if t.succeeded
                   else Words("rolled %(roll)d: failure", roll=t.roll))
        else:
            how = (Words("no roll needed: certain success") if t.succeeded
                   else Words("no roll needed: success impossible"))
        return Words("Tempo, %(player)s %(check)s: speed %(speed)d vs %(against)d, differential %(differential)d; "
                     "%(how)s", player=before.players[self.seat], check=_CHECK_WORDS[self.check],
                     speed=t.roller_speed, against=t.opposing_speed, differential=t.differential, how=how)
