"""The Tempo helper: one Tempo check entered, its arithmetic done by
:mod:`card_data.games.carpe_cras.tempo`."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from card_data.engine import Move, Seat, Words
from card_data.games.carpe_cras.rules.state import (
    ENGINE,
    Die,
    Stat,
    State,
    TempoResult,
)
from card_data.games.carpe_cras.rules.turns import (
    CarpeCrasEvent,
    require_started,
)
from card_data.games.carpe_cras.tempo import (
    TEMPO_CERTAIN_AT,
    TempoCheck,
    striking_speed,
    targeted_speed,
    tempo_differential,
    tempo_needs_roll,
    tempo_succeeds,
)

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
        how = roll_outcome(t)
        return Words("Tempo, %(player)s %(check)s: speed %(speed)d vs %(against)d, differential %(differential)d; "
                     "%(how)s", player=before.players[self.seat], check=_CHECK_WORDS[self.check],
                     speed=t.roller_speed, against=t.opposing_speed, differential=t.differential, how=how)


def roll_outcome(t: TempoResult) -> Words:
    """How a Tempo check came out, for its history line: the roll and its success, or why no
    roll was needed (Tempo section: a differential beyond the die's reach is certain)."""
    if tempo_needs_roll(t.differential):
        return (Words("rolled %(roll)d: success", roll=t.roll) if t.succeeded
                else Words("rolled %(roll)d: failure", roll=t.roll))
    return (Words("no roll needed: certain success") if t.succeeded
            else Words("no roll needed: success impossible"))
