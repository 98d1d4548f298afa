"""Turns: the checks events make (the first round started, whose turn it is), what the end
of a turn changes, the end of the game at 0 morale, and the base classes of the Carpe Cras
events."""

from __future__ import annotations

from pydantic import Field

from card_data.engine import Event, RuleError, Seat, Words
from card_data.games.carpe_cras.rules.rulebook import (
    RULE_FIRST_PLAYER,
    RULE_ROUND_START,
    RULE_TOKEN,
    RULE_TURNS,
)
from card_data.games.carpe_cras.rules.state import State, other


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
