"""Pre-Game Setup events: the mulligan, the dice for the first player and the low roller's
choice of who starts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field

from card_data.engine import (
    Choice,
    FormField,
    Move,
    RuleError,
    Seat,
    Words,
    replace_at,
)
from card_data.games.carpe_cras.rules.rulebook import (
    PLAYER_COUNT,
    RULE_FIRST_PLAYER,
    RULE_MULLIGAN,
)
from card_data.games.carpe_cras.rules.state import ENGINE, Die, State
from card_data.games.carpe_cras.rules.turns import CarpeCrasEvent
from card_data.games.carpe_cras.tempo import DIE_FACES


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
