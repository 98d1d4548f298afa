"""Card effects in C.A.H.R.D. (Glossary of Terms: Effects of Cards; Battle/Battled): what an
effect did to men under command, grain or reserves, and a card that stopped an attack."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from card_data.engine import Bounded, Move, RuleError, Seat, Words
from card_data.games.cahrd.rules.bounds import MOST_GRAIN_CHANGE, MOST_MEN_CHANGE, MOST_RESERVES_CHANGE, CardId
from card_data.games.cahrd.rules.citations import RULE_BATTLED, RULE_EFFECT, RULE_ORDER, RULE_PAY
from card_data.games.cahrd.rules.engine import ENGINE
from card_data.games.cahrd.rules.state import State, other
from card_data.games.cahrd.rules.steps import (
    CahrdEvent,
    all_cards,
    change_men,
    check_battle_going,
    check_card,
    officer_choices,
    settle,
    with_army,
)
from card_data.games.cahrd.rules.wording import join_parts, men_line, not_on_field, with_result


@ENGINE.event
class StopAttack(CahrdEvent):
    """Glossary of Terms (Battle/Battled): ``card``, played by ``seat``, stops the attack in
    progress before damage is calculated; the attacker still counts as having attacked."""

    label = Words("A card stopped the attack")
    seat: Seat = Field(title=Words("Played by"))
    card: CardId = Field(title=Words("Card"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.attack is None:
            return []
        return [cls.offer(state, card=all_cards(state), defaults={"seat": other(state.attack.seat)})]

    def apply(self, state: State) -> State:
        check_battle_going(state)
        check_card(state, self.card)
        if state.attack is None:
            raise RuleError(RULE_BATTLED, Words("there is no attack to stop"))
        return state.evolve(attack=None)

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s's %(card)s stopped %(officer)s's attack before damage", name=before.players[self.seat],
                     card=before.title(self.card), officer=before.title(before.attack.officer))


@ENGINE.event
class CardEffect(CahrdEvent):
    """Glossary of Terms (Effects of Cards; Damage): an effect, played by ``seat``, changes
    ``target_seat``'s army: ``officer``'s men under command by ``men_change``, its
    ``grain_change`` and ``reserves_change`` (a negative ``reserves_change`` on one's own army
    is a cost paid). Amounts may be negative, each at most :data:`MOST_MEN_CHANGE`,
    :data:`MOST_GRAIN_CHANGE` and :data:`MOST_RESERVES_CHANGE` either way.

    ``card``: the card whose effect it is, or ``None`` for an effect the players enter without
    naming a card (a trait, a ruling, a house effect). ``target_seat`` ``None``: the effect
    changes both armies' grain and reserves alike (an officer is then refused).
    """

    label = Words("Card effect: men, grain or reserves")
    seat: Seat = Field(title=Words("Played by"))
    card: CardId | None = Field(None, title=Words("Card"),
                                description=Words("leave out for an effect entered without naming a card"),
                                json_schema_extra={"none_label": Words("No card (a trait, a ruling, a house rule)")})
    target_seat: Seat | None = Field(None, title=Words("Army changed"),
                                     description=Words("leave out for an effect on both armies"))
    officer: CardId | None = Field(None, title=Words("Officer (for men under command)"),
                                   json_schema_extra={"none_label": Words("No officer (no men change)")})
    men_change: Bounded[-MOST_MEN_CHANGE, MOST_MEN_CHANGE] = Field(0, title=Words("Men under command change"))
    grain_change: Bounded[-MOST_GRAIN_CHANGE, MOST_GRAIN_CHANGE] = Field(0, title=Words("Grain change"))
    reserves_change: Bounded[-MOST_RESERVES_CHANGE, MOST_RESERVES_CHANGE] = Field(
        0, title=Words("Reserves change (a cost is negative)"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.turn_in_progress():
            return []
        me = state.initiative
        cards = all_cards(state)
        moves = [cls.offer(state, label=Words("Card effect on %(name)s's army", name=state.players[target]),
                           target_seat=target, card=cards, officer=officer_choices(state, target),
                           defaults={"seat": me})
                 for target in range(len(state.players))]
        moves.append(cls.offer(state, label=Words("Card effect on both armies' grain or reserves"), target_seat=None,
                               officer=None, men_change=0, card=cards, defaults={"seat": me}))
        return moves

    def apply(self, state: State) -> State:
        check_card(state, self.card)
        check_battle_going(state)
        if not state.turn_in_progress():
            raise RuleError(RULE_ORDER, Words("cards are played during a turn: start the turn first"))
        if not (self.men_change or self.grain_change or self.reserves_change):
            raise RuleError(RULE_EFFECT, Words("enter what the effect changed (men under command, grain or reserves)"))
        if (self.officer is None) != (self.men_change == 0):
            raise RuleError(RULE_EFFECT, Words("a change of men under command needs the officer, and an officer "
                                               "needs a change of men under command"))
        targets = range(len(state.players)) if self.target_seat is None else [self.target_seat]
        if self.target_seat is None and self.officer is not None:
            raise RuleError(RULE_EFFECT, Words("an effect on both armies changes their grain or reserves: enter an "
                                               "officer's men for one army"))
        for target in targets:
            army = state.armies[target]
            name = state.players[target]
            if self.officer is not None and army.officer(self.officer) is None:
                raise RuleError(RULE_EFFECT, not_on_field(state, self.officer, name))
            reserves = army.reserves + self.reserves_change
            if reserves < 0:
                raise RuleError(RULE_PAY, Words("%(name)s has only %(have)d reserves, %(need)d needed", name=name,
                                                have=army.reserves, need=-self.reserves_change))
            state = with_army(state, target, army.evolve(reserves=reserves, grain=army.grain + self.grain_change))
            if self.officer is not None:
                state = change_men(state, target, self.officer, self.men_change, self.seat)
        return settle(state)

    def describe(self, before: State, after: State) -> str:
        p = before.players
        parts = []
        targets = range(len(p)) if self.target_seat is None else [self.target_seat]
        for target in targets:
            if self.officer is not None:
                parts.append(men_line(before, after, target, self.officer))
            if self.grain_change:
                parts.append(Words("%(name)s's grain %(old)d → %(new)d", name=p[target],
                                   old=before.armies[target].grain, new=after.armies[target].grain))
            if self.reserves_change:
                parts.append(Words("%(name)s's reserves %(old)d → %(new)d", name=p[target],
                                   old=before.armies[target].reserves, new=after.armies[target].reserves))
        source = before.title(self.card) if self.card else Words("card effect (no card named)")
        # apply refuses an effect that changes nothing, so there is at least one part.
        return with_result(Words("%(name)s's %(source)s: %(changes)s", name=p[self.seat], source=source,
                                  changes=join_parts(parts)), before, after)
