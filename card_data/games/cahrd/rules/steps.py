"""What the C.A.H.R.D. events share: their base class, the checks that refuse an event at the
wrong time, the transitions several events make (a defeat, the end of a battle) and the
choices their forms offer."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from card_data.engine import Choice, Event, RuleError, Words, replace_at
from card_data.games.cahrd.rules.book import CardKind
from card_data.games.cahrd.rules.citations import (
    RULE_BATTLE_OVER,
    RULE_DAMAGE,
    RULE_EFFECT,
    RULE_ORDER,
    RULE_SETUP,
    RULE_TIMINGS,
    ZONE_RULES,
)
from card_data.games.cahrd.rules.state import (
    STEP_PHASES,
    Army,
    BattleResult,
    DefeatedOfficer,
    FieldOfficer,
    State,
    ZoneCard,
    other,
)
from card_data.games.cahrd.rules.wording import A_KIND, ZONE_NAMES, battle_is_over, join_parts


def at_step(state: State, step: str, **changes: object) -> State:
    """``state`` at ``step``, its phase following (:data:`STEP_PHASES`)."""
    return state.evolve(step=step, phase=STEP_PHASES[step], **changes)


def with_army(state: State, seat: int, army: Army) -> State:
    """``state`` with ``seat``'s army replaced by ``army``."""
    return state.evolve(armies=replace_at(state.armies, seat, army))


def with_officer(army: Army, officer: FieldOfficer) -> Army:
    """``army`` with its officer of the same card replaced by ``officer``."""
    return army.evolve(officers=tuple(officer if o.card == officer.card else o for o in army.officers))


def check_card(state: State, card: str | None, kind: CardKind | None = None) -> None:
    """Refuse ``card`` (``None``: no card named) unless the card data has it, of type ``kind`` if given."""
    if card is None:
        return
    info = state.cards.cards.get(card)
    if info is None:
        raise RuleError(RULE_EFFECT, Words("there is no card %(card)s in the C.A.H.R.D. card data", card=repr(card)))
    if kind is not None and info.kind != kind:
        raise RuleError(RULE_EFFECT, Words("%(title)s is %(kind)s, not %(wanted)s", title=info.title,
                                           kind=A_KIND[info.kind], wanted=A_KIND[kind]))


def check_battle_going(state: State) -> None:
    """Refuse an event outside a battle's turns (before set-up is done, or once the battle is over)."""
    if state.step == "battle_over":
        raise RuleError(RULE_BATTLE_OVER, battle_is_over(state))
    if state.step == "setting_up":
        raise RuleError(RULE_SETUP, Words("both players set up their officers first"))


# ``doing`` (what the player tried, e.g. "setting a card") is a Words phrase that fits after
# "before" and "(... is for the initiative player)"; translations give it as a phrase that fits
# their versions of both.
def check_turn(state: State, doing: Words) -> None:
    """Refuse ``doing`` when no turn is in progress."""
    check_battle_going(state)
    if not state.turn_in_progress():
        raise RuleError(RULE_ORDER, Words("no turn is in progress: start a turn before %(doing)s", doing=doing))


def check_initiative(state: State, seat: int, doing: Words) -> None:
    """``seat`` must be the initiative player with a turn in progress."""
    check_turn(state, doing)
    if seat != state.initiative:
        raise RuleError(RULE_ORDER, Words("it is %(active)s's turn, not %(player)s's (%(doing)s is for the "
                                          "initiative player)", active=state.players[state.initiative],
                                          player=state.players[seat], doing=doing))


def check_no_attack(state: State, doing: Words) -> None:
    """Refuse ``doing`` while an attack is being fought."""
    if state.attack is not None:
        raise RuleError(RULE_DAMAGE, Words("an attack is still being fought: finish it before %(doing)s",
                                           doing=doing))


def check_timing(state: State, seat: int, kind: CardKind, disregards: bool, doing: Words) -> None:
    """Timings: outside their turn a player only responds, with a tactic or a disregarding card."""
    check_turn(state, doing)
    if not state.may_activate(seat, disregards, kind):
        # One whole message per card type: a translation may need the type in another case.
        active, player = state.players[state.initiative], state.players[seat]
        if kind == "item":
            message = Words("it is %(active)s's turn: %(player)s may respond only with a tactic, or with an item "
                            "that disregards an effect", active=active, player=player)
        else:  # a strategy (a tactic is always allowed: may_activate)
            message = Words("it is %(active)s's turn: %(player)s may respond only with a tactic, or with a "
                            "strategy that disregards an effect", active=active, player=player)
        raise RuleError(RULE_TIMINGS, message)


def _defeat(state: State, seat: int, officer: FieldOfficer, by_seat: int) -> State:
    """``officer`` of ``seat`` reached 0 men: to the discard pile, recording who defeated it; a
    lieutenant's token goes as the ``defeat_token_to`` option says (Glossary of Terms:
    Defeated; Defeat three Lieutenants)."""
    army = state.armies[seat]
    army = army.evolve(officers=tuple(o for o in army.officers if o.card != officer.card),
                       defeated=(*army.defeated, DefeatedOfficer(card=officer.card, position=officer.position,
                                                                 defeated_by=by_seat)))
    state = with_army(state, seat, army)
    if officer.position == "lieutenant":
        to = state.initiative if state.options.defeat_token_to == "initiative_player" else by_seat
        holder = state.armies[to]
        state = with_army(state, to, holder.evolve(defeat_tokens=holder.defeat_tokens + 1))
    attack = state.attack
    fighting = None if attack is None else attack.officer if attack.seat == seat else attack.vanguard
    if officer.card == fighting:
        state = state.evolve(attack=None)  # one side of the fight is gone: no Damage Step
    return state


def change_men(state: State, seat: int, card: str, change: int, by_seat: int) -> State:
    """``seat``'s officer ``card`` with ``change`` more men under command, defeated by ``by_seat`` at 0."""
    officer = state.armies[seat].officer(card)
    men = officer.men_under_command + change
    if men <= 0:
        return _defeat(state, seat, officer, by_seat)
    return with_army(state, seat, with_officer(state.armies[seat], officer.evolve(men_under_command=men)))


def end_battle(state: State, winner: int | None, reason: str) -> State:
    """``state`` with the battle ended, won by ``winner`` (``None``: drawn) for ``reason``; the war ends
    once a player has won enough battles or the last battle is fought."""
    results = (*state.results, BattleResult(winner=winner, reason=reason))
    wins = [sum(1 for r in results if r.winner == seat) for seat in range(len(state.players))]
    over = max(wins) >= state.constants.battles_to_win_war or len(results) >= state.constants.battles_per_war
    after = at_step(state, "battle_over", results=results, attack=None)
    return after.evolve(phase="over") if over else after


def settle(state: State) -> State:
    """End the battle if a victory condition is met (Winning the Battle): an army whose commander
    is defeated or whose grain is 0 or less loses, and so does one whose enemy has defeated the
    tables' number of its lieutenants. Both sides losing at once is a draw."""
    losers: set[int] = set()
    reasons: list[Words] = []
    for seat, army in enumerate(state.armies):
        name = state.players[seat]
        if army.set_up and army.commander is None:
            losers.add(seat)
            reasons.append(Words("%(name)s's commander was defeated", name=name))
        if army.grain <= 0:
            losers.add(seat)
            reasons.append(Words("%(name)s's grain was destroyed", name=name))
        defeated = army.lieutenants_defeated_by(other(seat))
        if defeated >= state.constants.lieutenants_defeated_to_win:
            losers.add(seat)
            reasons.append(Words("%(winner)s defeated %(n)d of %(name)s's lieutenants",
                                 winner=state.players[other(seat)], n=defeated, name=name))
    if not losers:
        return state
    winner = None if len(losers) > 1 else other(losers.pop())
    return end_battle(state, winner, join_parts(reasons))


def check_room(state: State, seat: int, zone: str) -> None:
    """Refuse a card entering ``seat``'s ``zone`` when the zone is full (The Game Mat 7 and 8)."""
    if state.zone_room(seat, zone) <= 0:
        held = len(state.armies[seat].zone(zone))
        raise RuleError(ZONE_RULES[zone], Words("%(name)s's %(zone)s holds %(held)d card(s) for %(limit)d officer(s) "
                                                "in play: no room for another", name=state.players[seat],
                                                zone=ZONE_NAMES[zone], held=held, limit=state.zone_limit(seat)))


def with_zone(army: Army, zone: str, cards: tuple[ZoneCard, ...]) -> Army:
    """``army`` with the cards of ``zone`` (``"tactics"`` or ``"items"``) replaced by ``cards``."""
    return army.evolve(**{zone: cards})


def card_choices(state: State, cards: Sequence[str], note=None) -> list[Choice]:
    """The ``cards`` (ids) as choices by title, each with ``note(card)`` if given."""
    return [Choice(card, state.title(card), note(card) if note else "") for card in cards]


def officer_choices(state: State, seat: int, note=None) -> list[Choice]:
    """``seat``'s officers on the field as choices, each with ``note(officer)`` if given."""
    return [Choice(o.card, state.officer_label(o.card), note(o) if note else "") for o in state.armies[seat].officers]


def all_cards(state: State) -> list[Choice]:
    """Every card of the card data as a choice, by title."""
    return [Choice(card, info.title) for card, info in state.cards.cards.items()]


def zone_field():
    """The ``zone`` field of an event, its choices named as the pages name the zones."""
    return Field(title=Words("Zone"), json_schema_extra={"labels": ZONE_NAMES})


class CahrdEvent(Event):
    """Base of the C.A.H.R.D. events."""
