"""Step 5, the C.A.H.R.D. End Step, and the war's next battle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field

from card_data.engine import FormField, Move, RuleError, Seat, Words
from card_data.games.cahrd.rules.bounds import MOST_DECK, CardId
from card_data.games.cahrd.rules.citations import RULE_BATTLE_OVER, RULE_END_STEP, RULE_FIRST, RULE_RECRUITMENT
from card_data.games.cahrd.rules.engine import ENGINE, fresh_army
from card_data.games.cahrd.rules.state import State
from card_data.games.cahrd.rules.steps import (
    CahrdEvent,
    at_step,
    card_choices,
    check_initiative,
    check_no_attack,
    with_zone,
)
from card_data.games.cahrd.rules.wording import ZONE_NAMES


@ENGINE.event
class EndTurn(CahrdEvent):
    """Step 5, the End Step: ``seat`` ends its turn. Every active (face-up) item and tactic of
    both armies is resolved and sent to the discard pile, except the cards in ``lasting``,
    whose effect continues beyond the turn."""

    label = Words("End the turn")
    seat: Seat
    lasting: Annotated[tuple[CardId, ...], Field(max_length=MOST_DECK)] | None = Field(None, title=Words("Active cards whose effect lasts beyond this turn"),
                                               description=Words("none: every active item and tactic is resolved"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.turn_in_progress() or state.step == "draw" or state.attack is not None:
            return []
        me = state.initiative
        active = list(dict.fromkeys(card for _, _, card in state.active_cards()))
        lasting = (FormField(name="lasting", label=Words("Active cards whose effect lasts beyond this turn"),
                             kind="multi", choices=tuple(card_choices(state, active)), required=False,
                             help=Words("every other active item and tactic is resolved, to the discard pile"))
                   if active else None)
        return [cls.offer(state, seat=me, label=Words("End %(name)s's turn", name=state.players[me]),
                          lasting=lasting)]

    def apply(self, state: State) -> State:
        check_initiative(state, self.seat, Words("ending the turn"))
        if state.step == "draw":
            raise RuleError(RULE_RECRUITMENT, Words("take the Recruitment Step before ending the turn"))
        check_no_attack(state, Words("the End Step"))
        active = {card for _, _, card in state.active_cards()}
        lasting = self.lasting or ()
        for card in lasting:
            if card not in active:
                raise RuleError(RULE_END_STEP, Words("%(title)s is not an active item or tactic",
                                                     title=state.title(card)))
        armies = []
        for army in state.armies:
            for zone in ZONE_NAMES:
                cards = army.zone(zone)
                resolved = tuple(c.card for c in cards if c.face_up and c.card not in lasting)
                kept = tuple(c for c in cards if not c.face_up or c.card in lasting)
                army = with_zone(army, zone, kept).evolve(discarded=(*army.discarded, *resolved))
            armies.append(army)
        return at_step(state.evolve(armies=tuple(armies)), "between_turns")

    def describe(self, before: State, after: State) -> str:
        line = Words("%(name)s ended the turn", name=before.players[self.seat])
        lasting = self.lasting or ()
        resolved = [before.title(card) for _, _, card in before.active_cards() if card not in lasting]
        # Card titles joined: names, the same in every language.
        if resolved:
            line = Words("%(line)s; resolved, to the discard pile: %(cards)s", line=line, cards=", ".join(resolved))
        if lasting:
            line = Words("%(line)s; still active: %(cards)s", line=line,
                         cards=", ".join(before.title(c) for c in lasting))
        return line


@ENGINE.event
class NextBattle(CahrdEvent):
    """After a battle: ``seat`` (the loser; either seat after a draw) chooses ``first_seat`` to
    go first in the next battle of the war (Prepare for Battle, step 5)."""

    label = Words("Start the next battle")
    seat: Seat = Field(title=Words("Chosen by"))
    first_seat: Seat = Field(title=Words("Goes first"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "battle_over":
            return []
        loser = state.battle_loser()
        number = state.battle_number + 1
        if loser is None:
            return [cls.offer(state, label=Words("Battle %(n)d: choose who goes first (battle drawn)", n=number))]
        return [cls.offer(state, seat=loser, label=Words("%(name)s chooses who goes first in battle %(n)d",
                                                         name=state.players[loser], n=number))]

    def apply(self, state: State) -> State:
        if state.step != "battle_over":
            raise RuleError(RULE_BATTLE_OVER, Words("battle %(n)d is still being fought", n=state.battle_number))
        loser = state.battle_loser()
        if loser is not None and self.seat != loser:
            raise RuleError(RULE_FIRST, Words("%(loser)s lost the battle and chooses who goes first, not %(name)s",
                                              loser=state.players[loser], name=state.players[self.seat]))
        return at_step(state, "setting_up", armies=tuple(fresh_army(state.constants) for _ in state.armies),
                   battle_number=state.battle_number + 1, initiative=None, turn=0, first_seat=self.first_seat,
                   attack=None)

    def describe(self, before: State, after: State) -> str:
        p = before.players
        if self.first_seat == self.seat:
            return Words("Battle %(n)d begins; %(name)s chose to go first", n=after.battle_number, name=p[self.seat])
        return Words("Battle %(n)d begins; %(name)s chose %(first)s to go first", n=after.battle_number,
                     name=p[self.seat], first=p[self.first_seat])
