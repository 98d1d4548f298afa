"""The Carpe Diem rounds: a round played, or a phase ended early (summary, Turn Structure)."""

from __future__ import annotations

from collections.abc import Sequence

from card_data.engine import Move, RuleError, Words
from card_data.games.carpe_diem.rules.citations import RULE_ROUNDS
from card_data.games.carpe_diem.rules.engine import ENGINE
from card_data.games.carpe_diem.rules.state import State
from card_data.games.carpe_diem.rules.steps import CarpeDiemEvent


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
