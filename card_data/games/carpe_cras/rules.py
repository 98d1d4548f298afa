"""Carpe Cras scorekeeper: first player, rounds and turns, the Carpe Cras Token, morale, agency.

Rulebook: ``carpe-cras.txt`` (V1.0, August 2025). Its text lost most headings; rules cite the
topic names the card data uses (``card_data/carpe_cras/README.md``): Pre-Game Setup, The
battlefield, Morale, Round Start, Player Actions, Round End, Carpe Cras Token, Gaining agency,
Striking the city, Tempo, Glossary.

What the players enter (one event each):

1. ``first_player_roll`` (both dice; a tie means rolling again), then
   ``choose_starting_player`` by the low roller (Pre-Game Setup).
2. ``start_round``: cards ready, each player draws 1 and gains 1 agency, placed in a city
   space of their choice (Round Start).
3. Turns, alternating: ``action`` (any player action: the rulebook's list of actions did not
   survive in the source text), ``pass``, ``take_token``; ``strike_city`` with
   ``ends_turn`` true is an attack on a city space taken as the turn's action. The round ends
   when a player passes right after the other passed (Player Actions); then ``start_round``.
4. Effects, at any time from the first round on, not tied to a turn unless ``ends_turn`` is
   true: ``strike_city`` (from an ability), ``gain_agency``, ``add_lane``, ``recover_morale``.
5. ``tempo_roll``: the Tempo helper; it works out the speed differential, checks the roll and
   records the result in ``State.last_tempo`` (the scorekeeper does not track units).

Readings of ours where the rulebook is silent or unclear (each is also noted where applied):

- Full city spaces (option ``full_city_agency``). The main text ("Gaining agency") says agency
  gained while all your city spaces are full goes to the bottom of your agency deck. The
  glossary ("Gain Agency") says it is sacrificed if you do not control the Carpe Cras Token.
  Sacrificing also puts agency on the bottom of the agency deck (glossary, "Sacrifice"), so
  the two differ only for the Token's holder, whom the glossary exempts without saying where
  the agency goes instead (the list of the Token's advantages is lost). Default
  ``"bottom_of_deck"`` (main text); ``"sacrifice_unless_token"`` (glossary) sets the holder's
  card aside next to their city (``State.agency_set_aside``), to be placed by a later
  ``gain_agency`` with ``source="set_aside"`` once a city space is free.
- Taking the Token is that player's turn, and all their further turns that round are passes:
  the opponent then acts until they pass, which ends the round. Taking it never ends the
  round by itself, even right after the opponent passed.
- A round after one in which no one took the Token begins with the Token's holder, or with
  the starting player if no one has ever held it (the rulebook names only the player who
  took the Token in the previous round).
- A unit is defeated when its damage equals or exceeds its health (glossary, Damage); the
  glossary's entry on defeat (heading lost) says "exceeds". See :func:`is_defeated`.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter

from card_data.engine import RuleError
from card_data.engine.legacy import LegacyEngine as Engine
from card_data.engine.legacy import Model, Outcome
from card_data.games.carpe_cras.cards import AGENCY_DECK_SIZE
from card_data.games.carpe_cras.tempo import (
    DIE_FACES,
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

_BOOK = "Carpe Cras rulebook V1.0"
RULE_PLAYERS = f"{_BOOK}, Introduction: Carpe Cras is a game for two players"
RULE_FIRST_PLAYER = (f"{_BOOK}, Pre-Game Setup: both players roll a die, the low roller chooses the "
                     "starting player, and a tie is rolled again")
RULE_ROUND_START = (f"{_BOOK}, Round Start: each round starts with cards readied and each player "
                    "drawing 1 card and gaining 1 agency; the starting player acts first in round 1")
RULE_TURNS = (f"{_BOOK}, Player Actions: players alternate turns, and the round ends when a player "
              "passes right after the other passed")
RULE_TOKEN = (f"{_BOOK}, Carpe Cras Token: once per round one player may claim the Token and then "
              "passes all further turns that round")
RULE_MORALE = (f"{_BOOK}, Morale: a city starts with {DEFAULT_STARTING_MORALE} morale, can never have "
               "more than its starting amount, and at 0 the game ends and the opponent wins")
RULE_LANES = (f"{_BOOK}, The battlefield: the game starts with {STARTING_LANES} lane and lanes can be "
              f"added up to {MAX_LANES}")
RULE_CITY_SPACE = (f"{_BOOK}, The battlefield: each lane has one city space per player, holding up to "
                   f"{CITY_SPACE_CAPACITY} of its owner's agency")
RULE_GAIN_MAIN = (f"{_BOOK}, Gaining agency: gained agency goes in a city space (up to "
                  f"{CITY_SPACE_CAPACITY} each); while all are full it goes to the bottom of the agency deck")
RULE_GAIN_GLOSSARY = (f"{_BOOK}, Glossary: Gain Agency: gained agency goes in a city space (up to "
                      f"{CITY_SPACE_CAPACITY} each); if all are full and you do not control the Carpe Cras "
                      "Token, it is sacrificed")
RULE_STRIKE_CITY = (f"{_BOOK}, Striking the city: a strike on a city space deals its skill's power to "
                    "morale; each agency the defender sacrifices from that space prevents 1 damage")

Seat = Annotated[int, Field(ge=0, le=PLAYER_COUNT - 1)]
Lane = Annotated[int, Field(ge=1, le=MAX_LANES)]
"""A lane number as players say it: 1 to 6 (lane 1 is the one the game starts with)."""
Die = Annotated[int, Field(ge=1, le=DIE_FACES)]
Stat = Annotated[int, Field(ge=0)]
FullCityAgency = Literal["bottom_of_deck", "sacrifice_unless_token"]
Phase = Literal["first_player", "round_start", "turns"]
"""``first_player``: rolling for (and choosing) the starting player; ``round_start``: waiting for
the next round to start (before round 1, or after a round ended); ``turns``: a round is on."""


# --- Options, state, events ---------------------------------------------------------------------


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
        default="bottom_of_deck", title="Agency gained with all city spaces full",
        description="bottom_of_deck: rulebook main text (Gaining agency), it goes to the bottom of the "
                    "agency deck. sacrifice_unless_token: the glossary (Gain Agency), it is sacrificed "
                    "unless you control the Carpe Cras Token.")
    starting_morale: int = Field(default=DEFAULT_STARTING_MORALE, ge=1, le=99, title="Starting morale",
                                 description="15 in the standard game; other game modes may differ.")


class TempoResult(Model):
    """The last Tempo check entered: who rolled, both speeds, differential, roll, success."""

    seat: int
    check: TempoCheck
    roller_speed: int
    opposing_speed: int
    differential: int
    roll: int | None
    succeeded: bool


class State(Model):
    """A Carpe Cras table.

    Attributes:
        players: the two names, by seat.
        options: the table's :class:`Options`.
        agency_deck_size: cards in a full agency deck (18, from the card schema).
        phase: see :data:`Phase`.
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
        last_tempo: the last ``tempo_roll`` entered.
    """

    players: list[str]
    options: Options
    agency_deck_size: int
    phase: Phase = "first_player"
    first_player_rolls: list[list[int]] = []
    low_roller: int | None = None
    starting_seat: int | None = None
    round: int = 0
    lanes: int = STARTING_LANES
    morale: list[int]
    city_agency: list[list[int]]
    agency_set_aside: list[int]
    turn: int | None = None
    last_turn_passed: bool = False
    passes: list[int]
    token_holder: int | None = None
    token_taken_round: int | None = None
    last_tempo: TempoResult | None = None

    @property
    def finished(self) -> bool:
        """Whether a city's morale has reached 0 (Morale)."""
        return any(m <= 0 for m in self.morale)

    @property
    def token_passer(self) -> int | None:
        """The seat that took the Token this round and so passes all further turns, if any."""
        return self.token_holder if self.token_taken_round == self.round and self.phase == "turns" else None

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


class FirstPlayerRoll(Model):
    """Both players' dice for the first player, by seat (Pre-Game Setup). Low roll wins; ties roll again."""

    type: Literal["first_player_roll"] = "first_player_roll"
    rolls: Annotated[list[Die], Field(min_length=PLAYER_COUNT, max_length=PLAYER_COUNT)]


class ChooseStartingPlayer(Model):
    """The low roller (``seat``) picks who takes the first turn (Pre-Game Setup)."""

    type: Literal["choose_starting_player"] = "choose_starting_player"
    seat: Seat
    starting_seat: Seat


class StartRound(Model):
    """A round starts (Round Start): cards ready, each draws 1 and gains 1 agency.

    ``agency_lane_0`` / ``agency_lane_1``: the lane whose city space takes seat 0's / seat 1's
    new agency; leave it out when that player's city spaces are all full (or their agency deck
    is empty).
    """

    type: Literal["start_round"] = "start_round"
    agency_lane_0: Lane | None = None
    agency_lane_1: Lane | None = None


class Action(Model):
    """A turn's action other than a pass or the Token (play a card, move, attack a unit...)."""

    type: Literal["action"] = "action"
    seat: Seat
    note: Annotated[str, Field(max_length=200)] = ""


class Pass(Model):
    """``seat`` passes its turn (Player Actions)."""

    type: Literal["pass"] = "pass"
    seat: Seat


class TakeToken(Model):
    """``seat`` claims the Carpe Cras Token, passing all further turns this round."""

    type: Literal["take_token"] = "take_token"
    seat: Seat


class StrikeCity(Model):
    """``seat`` strikes the opponent's city space in ``lane`` with ``power`` (Striking the city).

    ``sacrificed``: agency the defender sacrifices from that space, 1 damage prevented each.
    ``ends_turn``: the strike was this turn's action (an attack); false for a strike from an
    ability outside the striker's own turn action.
    """

    type: Literal["strike_city"] = "strike_city"
    seat: Seat
    lane: Lane
    power: Stat
    sacrificed: Stat = 0
    ends_turn: bool = True


class GainAgency(Model):
    """``seat`` gains 1 agency (Gaining agency), placed in its city space in ``lane``.

    Leave ``lane`` out when all of the player's city spaces are full. ``source``:
    ``"set_aside"`` places a card set aside earlier (``sacrifice_unless_token`` only).
    ``ends_turn``: the gain was this turn's action.
    """

    type: Literal["gain_agency"] = "gain_agency"
    seat: Seat
    lane: Lane | None = None
    source: Literal["agency_deck", "set_aside"] = "agency_deck"
    ends_turn: bool = False


class AddLane(Model):
    """``seat`` adds a lane to the battlefield (The battlefield), up to 6: one new, empty city space each."""

    type: Literal["add_lane"] = "add_lane"
    seat: Seat
    ends_turn: bool = False


class RecoverMorale(Model):
    """``seat``'s city recovers ``amount`` morale, capped at the starting morale (Morale)."""

    type: Literal["recover_morale"] = "recover_morale"
    seat: Seat
    amount: Annotated[int, Field(ge=1)]
    ends_turn: bool = False


class TempoRoll(Model):
    """A Tempo check (Tempo helper): the striker's and target's stats and the roller's die.

    ``seat`` is the player who rolls (the target's for a dodge, the attacker's for Strike
    Twice). ``roll`` may be left out when the differential is 0 or less, or 6 or more.
    """

    type: Literal["tempo_roll"] = "tempo_roll"
    seat: Seat
    check: TempoCheck
    striker_speed: Stat
    accuracy: Stat = 0
    dexterity: Stat = 0
    target_speed: Stat
    evade: Stat = 0
    roll: Die | None = None


EventModel = Annotated[
    Union[FirstPlayerRoll, ChooseStartingPlayer, StartRound, Action, Pass, TakeToken, StrikeCity,
          GainAgency, AddLane, RecoverMorale, TempoRoll],
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter = TypeAdapter(EventModel)


# --- Engine -----------------------------------------------------------------------------------


def new_state(players: list[str], options: Options | dict | None, game) -> State:
    """A new table for two ``players`` (names by seat) with ``options`` (Options or its dict).

    ``game`` is the card database's Carpe Cras game; the agency deck size comes from its schema.
    Raises RuleError unless there are exactly two players.
    """
    if len(players) != PLAYER_COUNT:
        raise RuleError(RULE_PLAYERS, f"a table needs exactly {PLAYER_COUNT} players, not {len(players)}")
    opts = options if isinstance(options, Options) else Options.model_validate(options or {})
    seats = range(PLAYER_COUNT)
    return State(players=list(players), options=opts, agency_deck_size=AGENCY_DECK_SIZE,
                 morale=[opts.starting_morale for _ in seats],
                 city_agency=[[0] * STARTING_LANES for _ in seats],
                 agency_set_aside=[0 for _ in seats], passes=[0 for _ in seats])


def _other(seat: int) -> int:
    return 1 - seat


def _gain_rule(state: State) -> str:
    return RULE_GAIN_MAIN if state.options.full_city_agency == "bottom_of_deck" else RULE_GAIN_GLOSSARY


def _gain(state: State, seat: int, lane: int | None, source: str = "agency_deck",
          at_round_start: bool = False) -> tuple[list[list[int]], list[int], str]:
    """Where one gained agency of ``seat`` goes: ``(city_agency, agency_set_aside, where)``.

    ``where``: ``"lane"``, ``"bottom"`` (main text, city full), ``"sacrificed"`` (glossary,
    city full, no Token), ``"set_aside"`` (glossary, city full, Token held) or ``"none"`` (the
    agency deck is empty at round start). Raises RuleError for a lane given or missing wrongly.
    """
    name = state.players[seat]
    rule = _gain_rule(state)
    city = [list(row) for row in state.city_agency]
    set_aside = list(state.agency_set_aside)
    if source == "set_aside":
        if set_aside[seat] == 0:
            raise RuleError(rule, f"{name} has no agency set aside")
        set_aside[seat] -= 1
    elif state.agency_in_deck(seat) == 0:
        if not at_round_start:
            raise RuleError(rule, f"{name}'s agency deck is empty: there is no agency to gain")
        if lane is not None:
            raise RuleError(rule, f"{name}'s agency deck is empty: leave the lane out")
        return city, set_aside, "none"
    room = state.lanes_with_room(seat)
    if not room:
        if source == "set_aside":
            raise RuleError(RULE_CITY_SPACE, f"all of {name}'s city spaces are full")
        if lane is not None:
            raise RuleError(rule, f"all of {name}'s city spaces are full: leave the lane out")
        if state.options.full_city_agency == "bottom_of_deck":
            return city, set_aside, "bottom"
        if state.token_holder == seat:
            set_aside[seat] += 1
            return city, set_aside, "set_aside"
        return city, set_aside, "sacrificed"
    if lane is None:
        raise RuleError(rule, f"choose a lane for {name}'s agency (room in lane {', '.join(map(str, room))})")
    if lane > state.lanes:
        raise RuleError(RULE_LANES, f"there is no lane {lane}: the battlefield has {state.lanes}")
    if lane not in room:
        raise RuleError(RULE_CITY_SPACE, f"{name}'s city space in lane {lane} already holds "
                                         f"{CITY_SPACE_CAPACITY} agency")
    city[seat][lane - 1] += 1
    return city, set_aside, "lane"


def _require_started(state: State) -> None:
    if state.round == 0:
        raise RuleError(RULE_ROUND_START, "the first round has not started yet")


def _require_turn(state: State, seat: int, what: str) -> None:
    """Refuse ``what`` unless a round is on and it is ``seat``'s turn."""
    if state.phase == "first_player":
        raise RuleError(RULE_FIRST_PLAYER, "roll for the starting player first")
    if state.phase == "round_start":
        raise RuleError(RULE_ROUND_START, f"start round {state.round + 1} first")
    if state.token_passer == seat:
        raise RuleError(RULE_TOKEN, f"{state.players[seat]} took the Carpe Cras Token this round and "
                                    f"passes all further turns: {what} is not allowed")
    if state.turn != seat:
        raise RuleError(RULE_TURNS, f"it is {state.players[state.turn]}'s turn, not {state.players[seat]}'s")


def _after_turn(state: State, seat: int, passed: bool) -> dict:
    """Updates after ``seat``'s turn: next turn, pass bookkeeping, or the round's end."""
    if passed and state.last_turn_passed:
        return {"phase": "round_start", "turn": None, "last_turn_passed": False,
                "passes": [p + (i == seat) for i, p in enumerate(state.passes)]}
    passes = [p + (passed and i == seat) for i, p in enumerate(state.passes)]
    other = _other(seat)
    if state.token_passer == other:
        # The Token's taker passes every turn it would get, so the turn comes straight back.
        return {"turn": seat, "last_turn_passed": True, "passes": passes}
    return {"turn": other, "last_turn_passed": passed, "passes": passes}


def _apply_turn_or_effect(state: State, event, what: str) -> dict:
    """Checks and turn updates for an effect event: a turn's action if ``event.ends_turn``."""
    _require_started(state)
    if event.ends_turn:
        _require_turn(state, event.seat, what)
        return _after_turn(state, event.seat, passed=False)
    return {}


def apply(state: State, event) -> State:
    """The state after ``event`` (an event model or its dict); ``state`` is not changed.

    Raises:
        RuleError: the rules forbid the event (its ``rule`` names the section), or the game is over.
        pydantic.ValidationError: ``event`` is malformed.
    """
    if isinstance(event, dict):
        event = EVENT_ADAPTER.validate_python(event)
    if state.finished:
        raise RuleError(RULE_MORALE, "the game is over")
    handler = _HANDLERS[event.type]
    return handler(state, event)


def _first_player_roll(state: State, event: FirstPlayerRoll) -> State:
    if state.phase != "first_player" or state.low_roller is not None:
        message = ("the starting player is already settled" if state.starting_seat is not None
                   else f"{state.players[state.low_roller]} rolled low and now chooses who starts")
        raise RuleError(RULE_FIRST_PLAYER, message)
    rolls = list(event.rolls)
    low = None if rolls[0] == rolls[1] else rolls.index(min(rolls))
    return state.model_copy(update={"first_player_rolls": [*state.first_player_rolls, rolls], "low_roller": low})


def _choose_starting_player(state: State, event: ChooseStartingPlayer) -> State:
    if state.phase != "first_player":
        raise RuleError(RULE_FIRST_PLAYER, "the starting player is already settled")
    if state.low_roller is None:
        raise RuleError(RULE_FIRST_PLAYER, "roll first: the low roller chooses (a tie rolls again)")
    if event.seat != state.low_roller:
        raise RuleError(RULE_FIRST_PLAYER, f"{state.players[state.low_roller]} rolled low and chooses, "
                                           f"not {state.players[event.seat]}")
    return state.model_copy(update={"starting_seat": event.starting_seat, "phase": "round_start"})


def _round_start_gains(state: State, event: StartRound) -> tuple[State, list[str]]:
    """Each seat's round-start agency placed in turn: the state after, and where each went."""
    work, wheres = state, []
    for seat, lane in enumerate((event.agency_lane_0, event.agency_lane_1)):
        city, set_aside, where = _gain(work, seat, lane, at_round_start=True)
        work = work.model_copy(update={"city_agency": city, "agency_set_aside": set_aside})
        wheres.append(where)
    return work, wheres


def _start_round(state: State, event: StartRound) -> State:
    if state.phase == "first_player":
        raise RuleError(RULE_FIRST_PLAYER, "roll for the starting player first")
    if state.phase == "turns":
        raise RuleError(RULE_TURNS, f"round {state.round} is still on: it ends when a player passes "
                                    "right after the other passed")
    work, _ = _round_start_gains(state, event)
    return work.model_copy(update={
        "phase": "turns", "round": state.round + 1, "turn": state.next_round_starter(),
        "last_turn_passed": False, "passes": [0] * PLAYER_COUNT,
    })


def _action(state: State, event: Action) -> State:
    _require_turn(state, event.seat, "an action")
    return state.model_copy(update=_after_turn(state, event.seat, passed=False))


def _pass(state: State, event: Pass) -> State:
    _require_turn(state, event.seat, "passing")
    return state.model_copy(update=_after_turn(state, event.seat, passed=True))


def _take_token(state: State, event: TakeToken) -> State:
    _require_turn(state, event.seat, "taking the Token")
    if state.token_taken_round == state.round:
        raise RuleError(RULE_TOKEN, f"{state.players[state.token_holder]} already took the Carpe Cras "
                                    f"Token in round {state.round}")
    # All the taker's further turns are passes, so the opponent's next pass ends the round.
    return state.model_copy(update={"turn": _other(event.seat), "last_turn_passed": True,
                                    "token_holder": event.seat, "token_taken_round": state.round})


def _strike_city(state: State, event: StrikeCity) -> State:
    update = _apply_turn_or_effect(state, event, "a strike as the turn's action")
    defender = _other(event.seat)
    name = state.players[defender]
    if event.lane > state.lanes:
        raise RuleError(RULE_LANES, f"there is no lane {event.lane}: the battlefield has {state.lanes}")
    there = state.city_agency[defender][event.lane - 1]
    if event.sacrificed > there:
        raise RuleError(RULE_STRIKE_CITY, f"{name} can sacrifice only agency in the struck city space, "
                                          f"and lane {event.lane} holds only {there}")
    if event.sacrificed > event.power:
        raise RuleError(RULE_STRIKE_CITY, f"sacrificing {event.sacrificed} agency prevents at most "
                                          f"{event.power} damage (the strike's power): sacrifice no more")
    city = [list(row) for row in state.city_agency]
    city[defender][event.lane - 1] -= event.sacrificed
    morale = list(state.morale)
    morale[defender] = max(0, morale[defender] - (event.power - event.sacrificed))
    update.update(city_agency=city, morale=morale)
    return state.model_copy(update=update)


def _gain_agency(state: State, event: GainAgency) -> State:
    update = _apply_turn_or_effect(state, event, "gaining agency as the turn's action")
    city, set_aside, _ = _gain(state, event.seat, event.lane, event.source)
    update.update(city_agency=city, agency_set_aside=set_aside)
    return state.model_copy(update=update)


def _add_lane(state: State, event: AddLane) -> State:
    update = _apply_turn_or_effect(state, event, "adding a lane as the turn's action")
    if state.lanes >= MAX_LANES:
        raise RuleError(RULE_LANES, f"the battlefield already has {MAX_LANES} lanes")
    update.update(lanes=state.lanes + 1, city_agency=[[*row, 0] for row in state.city_agency])
    return state.model_copy(update=update)


def _recover_morale(state: State, event: RecoverMorale) -> State:
    update = _apply_turn_or_effect(state, event, "recovering morale as the turn's action")
    start = state.options.starting_morale
    if state.morale[event.seat] >= start:
        raise RuleError(RULE_MORALE, f"{state.players[event.seat]}'s morale is already {start}, its starting "
                                     "amount")
    morale = list(state.morale)
    morale[event.seat] = min(start, morale[event.seat] + event.amount)
    update["morale"] = morale
    return state.model_copy(update=update)


def _tempo_roll(state: State, event: TempoRoll) -> State:
    _require_started(state)
    differential = tempo_differential(event.check, striker_speed=event.striker_speed,
                                      target_speed=event.target_speed, accuracy=event.accuracy,
                                      dexterity=event.dexterity, evade=event.evade)
    succeeded = tempo_succeeds(differential, event.roll)
    striker = striking_speed(event.striker_speed, accuracy=event.accuracy, dexterity=event.dexterity,
                             first_strike=event.check == "dodge")
    target = targeted_speed(event.target_speed, evade=event.evade)
    roller, opposing = (striker, target) if event.check == "strike_twice" else (target, striker)
    result = TempoResult(seat=event.seat, check=event.check, roller_speed=roller, opposing_speed=opposing,
                         differential=differential, roll=event.roll if tempo_needs_roll(differential) else None,
                         succeeded=succeeded)
    return state.model_copy(update={"last_tempo": result})


_HANDLERS = {
    "first_player_roll": _first_player_roll, "choose_starting_player": _choose_starting_player,
    "start_round": _start_round, "action": _action, "pass": _pass, "take_token": _take_token,
    "strike_city": _strike_city, "gain_agency": _gain_agency, "add_lane": _add_lane,
    "recover_morale": _recover_morale, "tempo_roll": _tempo_roll,
}


def outcome(state: State) -> Outcome:
    """Finished once a city's morale is 0: the other player wins (Morale). Scores are morale."""
    scores = [float(m) for m in state.morale]
    if state.finished:
        loser = next(i for i, m in enumerate(state.morale) if m <= 0)
        winner = _other(loser)
        return Outcome(finished=True, winners=[winner], scores=scores, score_label="Morale",
                       summary=f"{state.players[winner]} wins: {state.players[loser]}'s morale fell to 0")
    if state.phase == "first_player":
        summary = "Rolling for the starting player"
    elif state.phase == "round_start":
        summary = f"Round {state.round + 1} about to start"
    else:
        summary = f"Round {state.round}, {state.players[state.turn]}'s turn"
    return Outcome(finished=False, scores=scores, score_label="Morale", summary=summary)


_WHERE = {
    "bottom": "to the bottom of the agency deck (city full)",
    "sacrificed": "sacrificed (city full, no Token)",
    "set_aside": "set aside (city full, holds the Token)",
    "none": "none (agency deck empty)",
}
_CHECK_WORDS = {"dodge": "dodging a first strike", "dodge_strike_twice": "dodging a Strike Twice strike",
                "strike_twice": "to Strike Twice"}


def _placed(after: State, seat: int, lane: int | None, where: str) -> str:
    if where == "lane":
        return f"lane {lane} (now {after.city_agency[seat][lane - 1]})"
    return _WHERE[where]


def _turn_note(before: State, after: State) -> str:
    if before.phase == "turns" and after.phase == "round_start":
        return f"; round {before.round} ends"
    return ""


def describe(state: State, event) -> str:
    """One history line for ``event`` entered on ``state``, e.g.
    ``"Red struck Blue's city in lane 2 for 3; Blue sacrificed 1 agency, morale 15 → 13"``.
    ``event`` must be legal on ``state`` (this applies it to word the result)."""
    if isinstance(event, dict):
        event = EVENT_ADAPTER.validate_python(event)
    after = apply(state, event)
    names = state.players
    who = names[event.seat] if hasattr(event, "seat") else ""
    end = _turn_note(state, after)
    if isinstance(event, FirstPlayerRoll):
        rolls = ", ".join(f"{names[i]} rolled {r}" for i, r in enumerate(event.rolls))
        if after.low_roller is None:
            return f"First player: {rolls}; a tie, roll again"
        return f"First player: {rolls}; {names[after.low_roller]} rolled low and chooses who starts"
    if isinstance(event, ChooseStartingPlayer):
        chosen = "themselves" if event.starting_seat == event.seat else names[event.starting_seat]
        return f"{who} chose {chosen} to take the first turn"
    if isinstance(event, StartRound):
        placed, wheres = _round_start_gains(state, event)
        lanes = (event.agency_lane_0, event.agency_lane_1)
        parts = [f"{names[seat]}'s agency → {_placed(placed, seat, lanes[seat], where)}"
                 for seat, where in enumerate(wheres)]
        return (f"Round {after.round} starts: cards ready, each player draws 1; {'; '.join(parts)}; "
                f"{names[after.turn]} acts first")
    if isinstance(event, Action):
        return f"{who} took an action{': ' + event.note if event.note else ''}{end}"
    if isinstance(event, Pass):
        return f"{who} passed{end}"
    if isinstance(event, TakeToken):
        return f"{who} took the Carpe Cras Token and passes for the rest of round {state.round}"
    if isinstance(event, StrikeCity):
        d = names[_other(event.seat)]
        sac = f"{d} sacrificed {event.sacrificed} agency, " if event.sacrificed else ""
        return (f"{who} struck {d}'s city in lane {event.lane} for {event.power}; {sac}morale "
                f"{state.morale[_other(event.seat)]} → {after.morale[_other(event.seat)]}{end}")
    if isinstance(event, GainAgency):
        _, _, where = _gain(state, event.seat, event.lane, event.source)
        src = " from beside the city" if event.source == "set_aside" else ""
        return f"{who} gained 1 agency{src} → {_placed(after, event.seat, event.lane, where)}{end}"
    if isinstance(event, AddLane):
        return f"{who} added lane {after.lanes}{end}"
    if isinstance(event, RecoverMorale):
        return (f"{who} recovered {event.amount} morale: {state.morale[event.seat]} → "
                f"{after.morale[event.seat]} (at most {state.options.starting_morale}){end}")
    if isinstance(event, TempoRoll):
        t = after.last_tempo
        if tempo_needs_roll(t.differential):
            how = f"rolled {t.roll}: {'success' if t.succeeded else 'failure'}"
        else:
            how = "no roll needed: " + ("certain success" if t.succeeded else "success impossible")
        return (f"Tempo, {who} {_CHECK_WORDS[event.check]}: speed {t.roller_speed} vs {t.opposing_speed}, "
                f"differential {t.differential}; {how}")
    raise TypeError(f"not a Carpe Cras event: {event!r}")


ENGINE = Engine(game_id="carpe_cras", title="Carpe Cras", min_players=PLAYER_COUNT, max_players=PLAYER_COUNT,
                options_model=Options, state_model=State, event_adapter=EVENT_ADAPTER, new_state_fn=new_state,
                apply_fn=apply, outcome_fn=outcome, describe_fn=describe)
