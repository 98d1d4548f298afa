"""Rounds and turns: a round's start, a turn's action, passing and taking the Carpe Cras
Token."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field

from card_data.engine import Move, RuleError, Seat, Step, Words
from card_data.games.carpe_cras.rules.agency import gain, lane_field, placed
from card_data.games.carpe_cras.rules.rulebook import (
    PLAYER_COUNT,
    RULE_FIRST_PLAYER,
    RULE_TOKEN,
    RULE_TURNS,
)
from card_data.games.carpe_cras.rules.state import ENGINE, Lane, State, other
from card_data.games.carpe_cras.rules.turns import (
    CarpeCrasEvent,
    after_turn,
    require_turn,
    round_end_note,
)


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
