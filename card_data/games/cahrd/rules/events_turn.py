"""Steps 1 to 3 of a C.A.H.R.D. turn: the Draw Step (or the draw that cannot be made), the
Recruitment Step and the Strategy Step's recruitment of lieutenants."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from card_data.engine import Move, RuleError, Seat, Step, Words
from card_data.games.cahrd.rules.bounds import CardId
from card_data.games.cahrd.rules.citations import RULE_FIRST, RULE_ORDER, RULE_RECRUIT, RULE_RECRUITMENT
from card_data.games.cahrd.rules.engine import ENGINE
from card_data.games.cahrd.rules.state import FieldOfficer, State, other
from card_data.games.cahrd.rules.steps import (
    CahrdEvent,
    at_step,
    card_choices,
    check_battle_going,
    check_initiative,
    end_battle,
    with_army,
)
from card_data.games.cahrd.rules.wording import cannot_pay, not_of_army


def _check_turn_may_start(state: State, seat: int) -> None:
    check_battle_going(state)
    if state.turn_in_progress():
        raise RuleError(RULE_ORDER, Words("%(name)s's turn is still going: end it first",
                                          name=state.players[state.initiative]))
    starter = state.next_starter()
    if starter is not None and seat != starter:
        names = {"starter": state.players[starter], "name": state.players[seat]}
        if state.turn == 0:
            raise RuleError(RULE_FIRST, Words("%(starter)s goes first this battle, not %(name)s", **names))
        raise RuleError(RULE_ORDER, Words("%(starter)s has the initiative this turn, not %(name)s", **names))


def _starters(state: State) -> list[int]:
    if state.step != "between_turns":
        return []
    starter = state.next_starter()
    return list(range(len(state.players))) if starter is None else [starter]


def _draw_step_open(drawn: State) -> bool:
    """Whether anything may be played in the Draw Step of ``drawn`` (Step 1: "if there are any
    Items or Tactics that impact the draw step, they can be played at this time"): a card
    either player could activate, or a strategy either could play. What a card effect did is
    entered in any step, so it leaves nothing to do here."""
    # Imported here: the events register (and pages offer them) in the order their modules are
    # first imported, and the cards' events come after the turn's.
    from card_data.games.cahrd.rules.events_cards import ActivateCard, PlayStrategy

    return any(event.moves(drawn, None) for event in (ActivateCard, PlayStrategy))


def _draw(state: State, seat: int) -> State:
    army = state.armies[seat]
    state = with_army(state, seat, army.evolve(turns_taken=army.turns_taken + 1, revealed=True))
    return at_step(state, "draw", initiative=seat, turn=state.turn + 1)


@ENGINE.event
class StartTurn(CahrdEvent):
    """Step 1, the Draw Step: ``seat`` starts its turn and draws a card; on its first turn of the
    battle it then reveals its officers. With ``recruitment`` nothing is played in the Draw
    Step and the same entry takes Step 2, the Recruitment Step (:class:`Recruitment`), which
    leaves nothing to decide: one tap, one entry, undone as one. Without it (as every
    table stored before the field existed has it) the turn waits in the Draw Step."""

    label = Words("Start the turn: draw a card")
    seat: Seat
    recruitment: bool = Field(False, title=Words("Recruitment Step in the same entry"),
                              description=Words("nothing is played in the Draw Step"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        moves = []
        for s in _starters(state):
            name = state.players[s]
            moves.append(cls.offer(state, seat=s, recruitment=True,
                                   label=Words("Start %(name)s's turn: draw a card, Recruitment Step +%(n)d "
                                               "reserves", name=name, n=state.recruitment_reserves(s))))
            # The Draw Step is kept only where a card may be played in it: the player chooses.
            if _draw_step_open(_draw(state, s)):
                moves.append(cls.offer(state, seat=s, recruitment=False,
                                       label=Words("Start %(name)s's turn: draw a card, then play a card in the "
                                                   "Draw Step", name=name)))
        return moves

    def apply(self, state: State) -> State | Step[State]:
        _check_turn_may_start(state, self.seat)
        drawn = _draw(state, self.seat)
        if not self.recruitment:
            return drawn
        recruitment = Recruitment(seat=self.seat)
        after = recruitment.apply(drawn)
        line = Words("%(draw)s; Draw Step passed, nothing played; %(recruitment)s",
                     draw=self.describe(state, drawn), recruitment=recruitment.describe(drawn, after))
        return Step(after, line)

    def describe(self, before: State, after: State) -> str:
        line = Words("%(name)s's turn (turn %(turn)d of battle %(battle)d): drew a card",
                     name=before.players[self.seat], turn=after.turn, battle=after.battle_number)
        if not before.armies[self.seat].revealed:
            army = after.armies[self.seat]
            t = after.title
            line = Words("%(line)s; revealed commander %(commander)s, strategist %(strategist)s, lieutenant(s) "
                         "%(lieutenants)s", line=line, commander=t(army.commander.card),
                         strategist=t(army.strategist.card),
                         lieutenants=", ".join(t(o.card) for o in army.lieutenants))
        return line


@ENGINE.event
class CannotDraw(CahrdEvent):
    """Step 1: ``seat`` cannot draw at the start of its turn and loses the battle."""

    label = Words("Cannot draw: lose the battle")
    seat: Seat

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("%(name)s cannot draw (loses the battle)", name=state.players[s]))
                for s in _starters(state)]

    def apply(self, state: State) -> State:
        _check_turn_may_start(state, self.seat)
        return end_battle(state, other(self.seat), Words("%(name)s could not draw", name=state.players[self.seat]))

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s could not draw and loses battle %(n)d", name=before.players[self.seat],
                     n=before.battle_number)


@ENGINE.event
class Recruitment(CahrdEvent):
    """Step 2, the Recruitment Step of ``seat``: reserves gained at the army's combined CHM (a CHM
    of S as the table's option says), its attack markers removed."""

    label = Words("Recruitment Step")
    seat: Seat

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "draw":
            return []
        me = state.initiative
        return [cls.offer(state, seat=me, label=Words("Recruitment Step: +%(n)d reserves",
                                                      n=state.recruitment_reserves(me)))]

    def apply(self, state: State) -> State:
        check_initiative(state, self.seat, Words("the Recruitment Step"))
        if state.step != "draw":
            raise RuleError(RULE_RECRUITMENT, Words("%(name)s has already taken the Recruitment Step this turn",
                                                    name=state.players[self.seat]))
        army = state.armies[self.seat]
        army = army.evolve(reserves=army.reserves + state.recruitment_reserves(self.seat),
                           officers=tuple(o.evolve(attack_marker=False) for o in army.officers))
        return at_step(with_army(state, self.seat, army), "strategy")

    def describe(self, before: State, after: State) -> str:
        old, new = before.armies[self.seat].reserves, after.armies[self.seat].reserves
        return Words("%(name)s's Recruitment Step: combined CHM %(chm)d, reserves %(old)d → %(new)d",
                     name=before.players[self.seat], chm=before.combined_chm(self.seat), old=old, new=new)


# ---- Step 3: Strategy Step -------------------------------------------------------------------------

@ENGINE.event
class RecruitLieutenant(CahrdEvent):
    """Step 3: ``seat`` recruits ``officer`` as a lieutenant, paying its recruitment cost."""

    label = Words("Recruit a lieutenant")
    seat: Seat
    officer: CardId = Field(title=Words("Officer"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "strategy":
            return []
        me = state.initiative
        army = state.armies[me]
        if army.lieutenants_recruited >= state.constants.max_extra_lieutenants:
            return []
        stats = state.cards.officers
        affordable = [card for card in state.available(me) if stats[card].recruitment_cost <= army.reserves]
        if not affordable:
            return []
        return [cls.offer(state, seat=me, label=Words("Recruit a lieutenant (%(n)d reserves)", n=army.reserves),
                          officer=card_choices(state, affordable,
                                                lambda c: Words("%(cost)d reserves, WAR %(war)s, CHM %(chm)s",
                                                                cost=stats[c].recruitment_cost,
                                                                war=stats[c].printed_war, chm=stats[c].printed_chm)))]

    def apply(self, state: State) -> State:
        check_initiative(state, self.seat, Words("recruiting"))
        if state.step != "strategy":
            where = (Words("take the Recruitment Step first") if state.step == "draw"
                     else Words("the Battle Step has begun"))
            raise RuleError(RULE_RECRUIT, Words("officers are recruited only in the Strategy Step: %(where)s",
                                                where=where))
        army = state.armies[self.seat]
        name = state.players[self.seat]
        most = state.constants.max_extra_lieutenants
        if army.lieutenants_recruited >= most:
            raise RuleError(RULE_RECRUIT, Words("%(name)s has already recruited %(n)d lieutenants this battle",
                                                name=name, n=most))
        if self.officer not in state.available(self.seat):
            title = state.title(self.officer)
            if self.officer not in state.officer_pool(self.seat):
                raise RuleError(RULE_RECRUIT, not_of_army(state, self.officer, self.seat))
            if army.officer(self.officer) is not None:
                raise RuleError(RULE_RECRUIT, Words("%(title)s is already on the field", title=title))
            raise RuleError(RULE_RECRUIT, Words("%(title)s was defeated this battle", title=title))
        stats = state.cards.officers[self.officer]
        if army.reserves < stats.recruitment_cost:
            raise RuleError(RULE_RECRUIT, cannot_pay(stats.title, stats.recruitment_cost, name, army.reserves))
        recruit = FieldOfficer(card=self.officer, position="lieutenant", men_under_command=stats.men_under_command)
        army = army.evolve(reserves=army.reserves - stats.recruitment_cost, officers=(*army.officers, recruit),
                           lieutenants_recruited=army.lieutenants_recruited + 1)
        return with_army(state, self.seat, army)

    def describe(self, before: State, after: State) -> str:
        cost = before.cards.officers[self.officer].recruitment_cost
        return Words("%(name)s recruited %(title)s as a lieutenant for %(cost)d reserves (reserves %(left)d left)",
                     name=before.players[self.seat], title=before.title(self.officer), cost=cost,
                     left=after.armies[self.seat].reserves)
