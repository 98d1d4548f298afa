"""Prepare for Battle: the C.A.H.R.D. events before a battle's first turn (mulligans, then
each army's officers placed face down)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from card_data.engine import Bounded, Choice, FormField, Move, RuleError, Seat, Words
from card_data.games.cahrd.rules.bounds import MOST_DECK, OPENING_HAND, CardId
from card_data.games.cahrd.rules.citations import RULE_BATTLE_OVER, RULE_MULLIGAN, RULE_SETUP
from card_data.games.cahrd.rules.engine import ENGINE
from card_data.games.cahrd.rules.state import FieldOfficer, State, other
from card_data.games.cahrd.rules.steps import CahrdEvent, at_step, with_army
from card_data.games.cahrd.rules.wording import battle_is_over, not_of_army


@ENGINE.event
class Mulligan(CahrdEvent):
    """Prepare for Battle, step 3: ``seat``'s opening hand held only ``officers_shown`` officers
    (fewer than the tables' 3; at most the :data:`OPENING_HAND` cards drawn), so it was shown
    to the opponent and mulliganed. As often as needed, before ``seat`` places its officers;
    counted per battle."""

    label = Words("Show the opening hand and mulligan")
    seat: Seat
    officers_shown: Bounded[0, OPENING_HAND] = Field(title=Words("Officers in the hand shown"),
                                description=Words("a hand with fewer than the required officers is shown and "
                                                  "mulliganed"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "setting_up":
            return []
        c = state.constants
        shown = [Choice(n, str(n)) for n in range(c.min_officers_in_opening_hand)]
        return [cls.offer(state, seat=s, officers_shown=shown,
                          label=Words("%(name)s: fewer than %(n)d officers in the opening hand, mulligan",
                                      name=state.players[s], n=c.min_officers_in_opening_hand))
                for s, army in enumerate(state.armies) if not army.set_up]

    def apply(self, state: State) -> State:
        name = state.players[self.seat]
        c = state.constants
        if state.step == "battle_over":
            raise RuleError(RULE_BATTLE_OVER, battle_is_over(state))
        if state.step != "setting_up" or state.armies[self.seat].set_up:
            raise RuleError(RULE_MULLIGAN, Words("%(name)s has already placed their officers: the opening hand is "
                                                 "kept", name=name))
        if self.officers_shown >= c.min_officers_in_opening_hand:
            raise RuleError(RULE_MULLIGAN, Words("a hand with %(shown)d officers is kept: only one with fewer than "
                                                 "%(n)d is shown and mulliganed", shown=self.officers_shown,
                                                 n=c.min_officers_in_opening_hand))
        army = state.armies[self.seat]
        return with_army(state, self.seat, army.evolve(mulligans=army.mulligans + 1))

    def describe(self, before: State, after: State) -> str:
        army = after.armies[self.seat]
        return Words("%(name)s showed %(opponent)s an opening hand with %(shown)d officer(s) and mulliganed "
                     "(mulligan %(n)d of battle %(battle)d)", name=before.players[self.seat],
                     opponent=before.players[other(self.seat)], shown=self.officers_shown, n=army.mulligans,
                     battle=before.battle_number)


@ENGINE.event
class SetUp(CahrdEvent):
    """Prepare for Battle, step 4: ``seat`` places ``commander``, ``strategist`` and
    ``lieutenants`` (as many as the tables' ``starting_lieutenants``), officer ids of its army,
    face down until its first Draw Step."""

    label = Words("Place your officers")
    seat: Seat
    commander: CardId = Field(title=Words("Commander"))
    strategist: CardId = Field(title=Words("Strategist"))
    lieutenants: tuple[CardId, ...] = Field(max_length=MOST_DECK, title=Words("Starting lieutenant(s)"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "setting_up":
            return []
        need = state.constants.starting_lieutenants
        moves = []
        for s, army in enumerate(state.armies):
            if army.set_up:
                continue
            pool = [Choice(card, state.officer_label(card)) for card in state.officer_pool(s)]
            lieutenants = FormField(name="lieutenants", label=Words("Starting lieutenant(s)"), kind="multi",
                                    choices=tuple(pool), count=need, item_labels=(Words("Lieutenant"),) * need)
            moves.append(cls.offer(state, seat=s, label=Words("%(name)s: place your officers", name=state.players[s]),
                                   commander=pool, strategist=pool, lieutenants=lieutenants))
        return moves

    def apply(self, state: State) -> State:
        if state.step == "battle_over":
            raise RuleError(RULE_BATTLE_OVER, battle_is_over(state))
        if state.step != "setting_up":
            raise RuleError(RULE_SETUP, Words("officers are placed before the battle's first turn"))
        army = state.armies[self.seat]
        name = state.players[self.seat]
        if army.set_up:
            raise RuleError(RULE_SETUP, Words("%(name)s has already set up for this battle", name=name))
        need = state.constants.starting_lieutenants
        if len(self.lieutenants) != need:
            raise RuleError(RULE_SETUP, Words("an army starts with %(need)d lieutenant(s), not %(got)d", need=need,
                                              got=len(self.lieutenants)))
        chosen = [self.commander, self.strategist, *self.lieutenants]
        if len(set(chosen)) != len(chosen):
            raise RuleError(RULE_SETUP, Words("the commander, strategist and lieutenants must be different officers"))
        pool = state.officer_pool(self.seat)
        for card in chosen:
            if card not in pool:
                raise RuleError(RULE_SETUP, not_of_army(state, card, self.seat))
        positions = ["commander", "strategist", *["lieutenant"] * need]
        officers = tuple(FieldOfficer(card=card, position=pos,
                                      men_under_command=state.cards.officers[card].men_under_command)
                         for card, pos in zip(chosen, positions))
        state = with_army(state, self.seat, army.evolve(officers=officers, set_up=True))
        if all(a.set_up for a in state.armies):
            state = at_step(state, "between_turns")
        return state

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s placed a commander, a strategist and %(n)d lieutenant(s), face down",
                     name=before.players[self.seat], n=len(self.lieutenants))
