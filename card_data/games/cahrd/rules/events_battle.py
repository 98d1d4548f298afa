"""Step 4, the C.A.H.R.D. Battle Step: an attack declared, its vanguard (or the grain) and
the Damage Step."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from pydantic import Field

from card_data.engine import Bounded, Choice, FormField, Move, RuleError, Seat, Words
from card_data.engine.forms import derive_field
from card_data.games.cahrd.rules.bounds import MOST_WAR_MODIFIER, CardId
from card_data.games.cahrd.rules.citations import (
    RULE_BATTLED_ONCE,
    RULE_DAMAGE,
    RULE_DECLARE,
    RULE_FIRST_TURN,
    RULE_FIRST_TURN_OF_BATTLE,
    RULE_ORDER,
    RULE_STRATEGIST,
    RULE_VANGUARD,
)
from card_data.games.cahrd.rules.engine import ENGINE
from card_data.games.cahrd.rules.readings import battled_this_turn, no_battle_this_turn
from card_data.games.cahrd.rules.state import Attack, FieldOfficer, State, other
from card_data.games.cahrd.rules.steps import (
    CahrdEvent,
    all_cards,
    at_step,
    change_men,
    check_battle_going,
    check_card,
    check_initiative,
    check_no_attack,
    officer_choices,
    settle,
    with_army,
    with_officer,
)
from card_data.games.cahrd.rules.wording import POSITION_NAMES, STRATEGIST_NOTE, men_line, not_on_field, with_result


@ENGINE.event
class DeclareAttack(CahrdEvent):
    """Step 4, the Declaration Step: ``seat`` attacks with ``officer``. ``allowed_by_card``: the
    id of the card whose effect lets the strategist attack."""

    label = Words("Declare an attack")
    seat: Seat
    officer: CardId = Field(title=Words("Attacking officer"))
    allowed_by_card: CardId | None = Field(None, title=Words("By the effect of (the strategist only)"),
                                           description=Words("the card whose effect lets the strategist attack"),
                                           json_schema_extra={"none_label": Words("No card (not the strategist)")})

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.may_attack():
            return []
        me = state.initiative
        officers = [Choice(o.card, state.officer_label(o.card),
                           STRATEGIST_NOTE if o.position == "strategist" else POSITION_NAMES[o.position])
                    for o in state.armies[me].officers if not o.attack_marker]
        if not officers:
            return []
        return [cls.offer(state, seat=me, label=Words("%(name)s: declare an attack", name=state.players[me]),
                          officer=officers, allowed_by_card=all_cards(state))]

    def apply(self, state: State) -> State:
        check_initiative(state, self.seat, Words("attacking"))
        check_card(state, self.allowed_by_card)
        name = state.players[self.seat]
        if state.step == "draw":
            raise RuleError(RULE_ORDER, Words("take the Recruitment Step before the Battle Step"))
        check_no_attack(state, Words("declaring another"))
        army = state.armies[self.seat]
        if no_battle_this_turn(state):
            if state.options.first_turn_without_battle == "starting_player":
                raise RuleError(RULE_FIRST_TURN_OF_BATTLE, Words("this is the first turn of the battle: no battle yet"))
            raise RuleError(RULE_FIRST_TURN, Words("this is %(name)s's first turn of the battle: no battle yet",
                                                   name=name))
        officer = army.officer(self.officer)
        if officer is None:
            raise RuleError(RULE_DECLARE, not_on_field(state, self.officer, name))
        if officer.position == "strategist" and self.allowed_by_card is None:
            raise RuleError(RULE_STRATEGIST, Words("%(title)s is %(name)s's strategist and cannot attack (name the "
                                                   "card whose effect allows it)", title=state.title(officer.card),
                                                   name=name))
        if officer.attack_marker:
            raise RuleError(RULE_DECLARE, Words("%(title)s has already attacked this turn",
                                                title=state.title(officer.card)))
        state = with_army(state, self.seat, with_officer(army, officer.evolve(attack_marker=True)))
        return at_step(state, "battle", attack=Attack(seat=self.seat, officer=officer.card))

    def describe(self, before: State, after: State) -> str:
        said = {"name": before.players[self.seat], "title": before.title(self.officer),
                "war": before.cards.officers[self.officer].war}
        if self.allowed_by_card:
            return Words("%(name)s attacked with %(title)s (WAR %(war)d) (by %(card)s)",
                         card=before.title(self.allowed_by_card), **said)
        return Words("%(name)s attacked with %(title)s (WAR %(war)d)", **said)


@ENGINE.event
class Vanguard(CahrdEvent):
    """Step 4, the Vanguard Step: the defending ``seat`` names ``officer``, or ``to_grain`` lets
    the attack through to the grain (exactly one of the two). ``allowed_by_card``: the card whose
    effect lets the strategist, an officer that attacked on the previous turn, or one already a
    vanguard this turn (option ``vanguard_in_a_turn``), defend."""

    label = Words("Vanguard Step")
    seat: Seat
    officer: CardId | None = Field(None, title=Words("Vanguard"))
    to_grain: bool = Field(False, title=Words("Let the attack through to the grain"))
    allowed_by_card: CardId | None = Field(None, title=Words("By the effect of (strategist, or attacked the "
                                                             "previous turn)"),
                                           description=Words("the card whose effect lets this officer defend"),
                                           json_schema_extra={"none_label": Words("No card (an officer free to defend)")})

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        attack = state.attack
        if attack is None or attack.vanguard is not None:
            return []
        defender = other(attack.seat)
        name = state.players[defender]

        def note(o: FieldOfficer) -> Words:
            if o.position == "strategist":
                return STRATEGIST_NOTE
            if o.attack_marker:
                return Words("attacked the previous turn: only by a card's effect")
            if battled_this_turn(state, o):
                return Words("a vanguard already this turn: only by a card's effect")
            return POSITION_NAMES[o.position]

        return [
            cls.offer(state, seat=defender, label=Words("%(name)s: let it through to the grain (−%(n)d)", name=name,
                                                        n=state.grain_damage(attack.officer)),
                      officer=None, to_grain=True, allowed_by_card=None),
            cls.offer(state, seat=defender, label=Words("%(name)s: declare the vanguard", name=name), to_grain=False,
                      officer=dataclasses.replace(derive_field(cls, "officer", state), kind="choice", required=True,
                                                  choices=tuple(officer_choices(state, defender, note))),
                      allowed_by_card=all_cards(state)),
        ]

    def apply(self, state: State) -> State:
        check_battle_going(state)
        check_card(state, self.allowed_by_card)
        attack = state.attack
        if attack is None or attack.vanguard is not None:
            raise RuleError(RULE_VANGUARD, Words("there is no attack waiting for a vanguard"))
        if self.seat == attack.seat:
            raise RuleError(RULE_VANGUARD, Words("the defender (%(name)s) declares the vanguard, not the attacker",
                                                 name=state.players[other(attack.seat)]))
        if (self.officer is None) == (not self.to_grain):
            raise RuleError(RULE_VANGUARD, Words("name one vanguard officer, or let the attack through to the grain"))
        army = state.armies[self.seat]
        name = state.players[self.seat]
        if self.to_grain:
            army = army.evolve(grain=army.grain - state.grain_damage(attack.officer))
            return settle(with_army(state, self.seat, army).evolve(attack=None))
        officer = army.officer(self.officer)
        if officer is None:
            raise RuleError(RULE_VANGUARD, not_on_field(state, self.officer, name))
        if officer.position == "strategist" and self.allowed_by_card is None:
            raise RuleError(RULE_STRATEGIST, Words("%(title)s is %(name)s's strategist and cannot be attacked (name "
                                                   "the card whose effect allows it)",
                                                   title=state.title(officer.card), name=name))
        if officer.attack_marker and self.allowed_by_card is None:
            raise RuleError(RULE_VANGUARD, Words("%(title)s attacked the previous turn and cannot be the vanguard",
                                                 title=state.title(officer.card)))
        if battled_this_turn(state, officer) and self.allowed_by_card is None:
            raise RuleError(RULE_BATTLED_ONCE, Words("%(title)s was already a vanguard this turn and cannot battle "
                                                     "again (name the card whose effect allows it)",
                                                     title=state.title(officer.card)))
        state = with_army(state, self.seat, with_officer(army, officer.evolve(vanguard_turn=state.turn)))
        return state.evolve(attack=attack.evolve(vanguard=officer.card))

    def describe(self, before: State, after: State) -> str:
        name = before.players[self.seat]
        if self.to_grain:
            old, new = before.armies[self.seat].grain, after.armies[self.seat].grain
            return with_result(Words("%(name)s let %(officer)s's attack through to the grain: grain %(old)d → "
                                      "%(new)d", name=name, officer=before.title(before.attack.officer), old=old,
                                      new=new), before, after)
        if self.allowed_by_card:
            return Words("%(name)s declared %(title)s the vanguard (by %(card)s)", name=name,
                         title=before.title(self.officer), card=before.title(self.allowed_by_card))
        return Words("%(name)s declared %(title)s the vanguard", name=name, title=before.title(self.officer))


@ENGINE.event
class DamageStep(CahrdEvent):
    """Step 4, the Damage Step of an officer-against-officer battle: WAR (S as 10) is compared
    after the modifiers entered (items, tactics, traits, strategies in play for this battle);
    the loser takes the tables' battle damage. Each modifier is at most
    :data:`MOST_WAR_MODIFIER` either way."""

    label = Words("Damage Step: compare WAR")
    attacker_war_modifier: Bounded[-MOST_WAR_MODIFIER, MOST_WAR_MODIFIER] = Field(
        0, title=Words("Attacker's WAR modifier"))
    vanguard_war_modifier: Bounded[-MOST_WAR_MODIFIER, MOST_WAR_MODIFIER] = Field(
        0, title=Words("Vanguard's WAR modifier"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        attack = state.attack
        if attack is None or attack.vanguard is None:
            return []
        war = state.cards.officers

        def modifier(name: str, card: str, role: Words) -> FormField:
            return FormField(name=name, label=Words("%(title)s (%(role)s, WAR %(war)d): WAR modifier",
                                                    title=state.title(card), role=role, war=war[card].war),
                             kind="number", required=False, default=0,
                             help=Words("from items, tactics, traits and strategies in this battle"))

        return [cls.offer(state, label=cls.label,
                          attacker_war_modifier=modifier("attacker_war_modifier", attack.officer,
                                                         Words("the attacker")),
                          vanguard_war_modifier=modifier("vanguard_war_modifier", attack.vanguard,
                                                         Words("the vanguard")))]

    def _wars(self, state: State) -> tuple[int, int]:
        attack = state.attack
        war = state.cards.officers
        return (war[attack.officer].war + self.attacker_war_modifier,
                war[attack.vanguard].war + self.vanguard_war_modifier)

    def apply(self, state: State) -> State:
        check_battle_going(state)
        attack = state.attack
        if attack is None or attack.vanguard is None:
            raise RuleError(RULE_DAMAGE, Words("the Damage Step comes after an attack and its vanguard are declared"))
        attacker_war, vanguard_war = self._wars(state)
        state = state.evolve(attack=None)
        if attacker_war == vanguard_war:
            return state
        loser, card, winner = ((other(attack.seat), attack.vanguard, attack.seat) if attacker_war > vanguard_war
                               else (attack.seat, attack.officer, other(attack.seat)))
        state = change_men(state, loser, card, -state.constants.battle_damage_to_losing_officer, winner)
        return settle(state)

    def describe(self, before: State, after: State) -> str:
        attack = before.attack
        a_war, v_war = self._wars(before)
        t = before.title
        if a_war == v_war:
            outcome = Words("no winner, nothing happens")
        else:
            loser, card = (other(attack.seat), attack.vanguard) if a_war > v_war else (attack.seat, attack.officer)
            outcome = men_line(before, after, loser, card)
        return with_result(Words("Damage Step: %(attacker)s WAR %(a)d against %(vanguard)s WAR %(v)d: %(outcome)s",
                                  attacker=t(attack.officer), a=a_war, vanguard=t(attack.vanguard), v=v_war,
                                  outcome=outcome), before, after)
