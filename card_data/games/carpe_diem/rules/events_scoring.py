"""Carpe Diem scoring periods and the final scoring: a scoring disc placed and its two cards
resolved, and each player's final-scoring entries (2018 rulebook, Scoring periods; Final
scoring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pydantic import Field

from card_data.engine import Bounded, Choice, Move, RuleError, Seat, Step, Words, replace_at
from card_data.engine.forms import derive_field
from card_data.games.carpe_diem.requirements import Owned
from card_data.games.carpe_diem.rules.bounds import (
    BUILDING_TILES,
    FOUNTAIN_CARDS,
    FRAME_PARTS,
    MOST_CHIMNEYS,
    MOST_CIRCLES,
    MOST_HELD,
    MOST_VP_CHANGE,
)
from card_data.games.carpe_diem.rules.citations import RULE_CARD_ORDER, RULE_CIRCLES, RULE_FINAL, RULE_SCORING_ORDER
from card_data.games.carpe_diem.rules.engine import ENGINE
from card_data.games.carpe_diem.rules.printed_vp import MOST_PRINTED_ROWS, PrintedVp, final_form_values
from card_data.games.carpe_diem.rules.scoring import final_sheet, resolve_card
from card_data.games.carpe_diem.rules.state import Disc, State
from card_data.games.carpe_diem.rules.steps import OwnedCounts, pick, with_sheet
from card_data.games.carpe_diem.rules.wording import GOAL_TITLES


@ENGINE.event
class Score(OwnedCounts):
    """``seat`` places a scoring disc on ``circle`` and resolves its two cards (2018 rulebook,
    Scoring periods; summary, Special Rules & Edge Cases).

    ``first_card``: the card id resolved first (default: the circle's first card in layout
    order). ``times_first``/``times_second``: how many times to pay a red card (default as many
    as the player can, at most :data:`MOST_HELD`); not for green cards, which score every full
    set owned.
    ``bread_first``/``bread_second``: hand in bread to fulfil that card once instead. The
    owned counts (:class:`OwnedCounts`) a green card needs are the tracked ones unless entered.
    """

    label = Words("Place a scoring disc")
    seat: Seat
    circle: Bounded[1, MOST_CIRCLES] = Field(title=Words("Circle"))
    first_card: str | None = Field(None, title=Words("Resolve first"))
    times_first: Bounded[1, MOST_HELD] | None = Field(
        None, title=Words("Times to pay the card resolved first"),
        description=Words("red cards only; empty: as many times as you can pay"))
    times_second: Bounded[1, MOST_HELD] | None = Field(
        None, title=Words("Times to pay the card resolved second"),
        description=Words("red cards only; empty: as many times as you can pay"))
    bread_first: bool = Field(False, title=Words("Fulfil the card resolved first with bread"))
    bread_second: bool = Field(False, title=Words("Fulfil the card resolved second with bread"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        turn = state.next_to_score()
        if turn is None:
            return []
        name = state.players[turn]
        moves = []
        for circle in state.free_circles():
            cards = [state.board.cards[c] for c in circle.cards]
            order = [Choice(c.id, state.card_label(c.id),
                            Words("pay %(requirement)s → %(reward)s", requirement=c.requirement_line(),
                                  reward=c.reward_line()) if c.colour == "red"
                            else Words("own %(requirement)s → %(reward)s", requirement=c.requirement_line(),
                                       reward=c.reward_line()))
                     for c in cards]
            things = [n.what for c in cards if c.colour == "green" for n in c.requirement]
            red = any(c.colour == "red" for c in cards)
            times = {} if red else {"times_first": None, "times_second": None}
            moves.append(cls.offer_counts(
                state, turn, things, circle=circle.number,
                first_card=pick(cls, "first_card", state, order, required=True), **times,
                label=Words("%(name)s: circle %(circle)d, %(first)s + %(second)s", name=name, circle=circle.number,
                            first=state.card_label(circle.cards[0]), second=state.card_label(circle.cards[1])),
                defaults={"first_card": circle.cards[0]}))
        return moves

    def apply(self, state: State) -> Step[State]:
        name = state.players[self.seat]
        if state.step != "scoring":
            raise RuleError(RULE_SCORING_ORDER, Words("there is no scoring period now: finish the phase first")
                            if state.step == "rounds"
                            else Words("there is no scoring period now: the scoring periods are over"))
        turn = state.next_to_score()
        if self.seat != turn:
            if self.seat in state.scored:
                raise RuleError(RULE_SCORING_ORDER, Words("%(name)s has already scored this period: it is %(turn)s's "
                                                          "turn to score", name=name, turn=state.players[turn]))
            raise RuleError(RULE_SCORING_ORDER, Words("%(name)s must wait: it is %(turn)s's turn to score",
                                                      name=name, turn=state.players[turn]))
        circle = state.circle(self.circle)
        if circle is None:
            raise RuleError(RULE_CIRCLES, Words("there is no circle %(circle)d (circles 1-%(last)d)",
                                                circle=self.circle, last=len(state.discs)))
        if circle.seat is not None:
            raise RuleError(RULE_CIRCLES, Words("circle %(circle)d is taken by %(name)s's disc from scoring period "
                                                "%(period)d", circle=circle.number, name=state.players[circle.seat],
                                                period=circle.period))
        first, second = circle.cards
        if self.first_card is not None:
            if self.first_card not in circle.cards:
                title = state.board.cards[self.first_card].title if self.first_card in state.board.cards else self.first_card
                raise RuleError(RULE_CARD_ORDER, Words("%(card)s is not beside circle %(circle)d", card=title,
                                                       circle=circle.number))
            if self.first_card == second:
                first, second = second, first
        entered = self.given()
        owned = state.sheets[self.seat].counts(entered)
        work, results = state, []
        for card_id, times, bread in ((first, self.times_first, self.bread_first),
                                      (second, self.times_second, self.bread_second)):
            work, result = resolve_card(work, self.seat, state.board.cards[card_id], times, bread, owned)
            results.append(result)
        work = with_sheet(work, self.seat, owned={**work.sheets[self.seat].owned, **entered})
        scored = (*work.scored, self.seat)
        changes: dict = {"discs": replace_at(work.discs, circle.number - 1,
                                           Disc(seat=self.seat, period=state.phase_number)),
                         "scored": scored}
        if len(scored) == len(state.players):
            if state.phase_number == state.board.tables.phases:
                changes.update(step="final", scored=())
            else:
                changes.update(step="rounds", phase="play", phase_number=state.phase_number + 1, round=1, scored=())
        after = work.evolve(**changes)
        first_line, second_line = (r.line() for r in results)
        return Step(after, Words("%(name)s scored circle %(circle)d: %(first)s; %(second)s. VP %(was)d → %(now)d",
                                 name=name, circle=self.circle, first=first_line, second=second_line,
                                 was=state.sheets[self.seat].vp, now=after.sheets[self.seat].vp))


@ENGINE.event
class FinalScore(OwnedCounts):
    """``seat``'s final-scoring entries after the last scoring period (2018 rulebook, Final scoring).

    ``villa_chimneys``: the chimneys of each completed villa, one number per villa (empty: the
    villas recorded in play). ``stored_tiles``: face-down building tiles in storage.
    ``fountain_cards``: fountain card ids held, a card twice if held twice (empty: the cards
    kept when fountains were placed). ``frame_goals``: the frame goals met, each the owned thing
    a goal in ``tables.frame_goals`` shows (once per goal met); ``other_frame_vp``: VP of met
    frame goals the data does not hold. The owned counts the fountain cards need are the
    tracked ones unless entered. ``printed_villa_vp``: the VP printed on the table's overview
    board for a completed villa of each of ``printed_villa_chimneys`` chimneys, and
    ``banderole_vp`` the VP printed on the player's banderole bar space, scored in place of the
    data's figures where those are assumed (:mod:`.printed_vp`; empty or ``None``: the data's).

    Bounds (summary, Components): at most :data:`BUILDING_TILES` villas and stored tiles,
    :data:`FOUNTAIN_CARDS` fountain cards, :data:`FRAME_PARTS` frame goals; chimneys and other
    frame VP at most :data:`MOST_CHIMNEYS` and :data:`MOST_VP_CHANGE`; printed VP within
    :data:`~.printed_vp.MOST_PRINTED_VP` either way.
    """

    label = Words("Final scoring")
    seat: Seat
    villa_chimneys: tuple[Bounded[1, MOST_CHIMNEYS], ...] = Field(
        (), max_length=BUILDING_TILES, title=Words("Chimneys of each completed villa"),
        description=Words("one number per completed villa; empty: the villas recorded in play"))
    stored_tiles: Bounded[0, BUILDING_TILES] = Field(0, title=Words("Face-down tiles in storage"))
    fountain_cards: tuple[str, ...] = Field(
        (), max_length=FOUNTAIN_CARDS, title=Words("Fountain cards held"),
        description=Words("none ticked: the cards kept when fountains were placed"))
    frame_goals: tuple[Owned, ...] = Field((), max_length=FRAME_PARTS, title=Words("Frame goals met"))
    other_frame_vp: Bounded[0, MOST_VP_CHANGE] = Field(0, title=Words("VP of other frame goals met"))
    printed_villa_chimneys: tuple[Bounded[1, MOST_CHIMNEYS], ...] = Field(
        (), max_length=MOST_PRINTED_ROWS, title=Words("Chimney counts of the villa VP entered"))
    printed_villa_vp: tuple[PrintedVp, ...] = Field(
        (), max_length=MOST_PRINTED_ROWS, title=Words("VP printed for a completed villa (assumed rows)"))
    banderole_vp: PrintedVp | None = Field(None, title=Words("VP printed on your banderole bar space"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "final":
            return []
        fountains = [Choice(c.id, c.title, Words("%(vp)d VP per %(condition)s", vp=c.vp, condition=c.condition_line()))
                     for c in state.board.fountain_cards.values()]
        goals = [Choice(g.what, GOAL_TITLES[g.what], Words("%(n)d VP", n=g.vp))
                 for g in state.board.tables.frame_goals]
        moves = []
        for s, sheet in enumerate(state.sheets):
            if s in state.scored:
                continue
            values: dict[str, object] = {"frame_goals": goals} if goals else {}
            if fountains:
                # Not pre-ticked: a card kept twice cannot be ticked twice, and none ticked uses them all.
                kept = ", ".join(state.board.fountain_cards[c].title for c in sheet.fountain_cards)
                kept_help = (Words("none ticked: the cards kept in play (%(kept)s)", kept=kept) if kept
                             else Words("none ticked: the cards kept in play (none)"))
                values["fountain_cards"] = replace(derive_field(cls, "fountain_cards", state), choices=tuple(fountains),
                                                   help=kept_help)
            values.update(final_form_values(state, s))
            moves.append(cls.offer_counts(state, s, state.fountain_things(),
                                          label=Words("%(name)s's final scoring", name=state.players[s]),
                                          defaults={"villa_chimneys": sheet.villas}, **values))
        return moves

    def apply(self, state: State) -> State:
        if state.step != "final":
            raise RuleError(RULE_FINAL, Words("the final scoring comes after scoring period %(period)d",
                                              period=state.board.tables.phases))
        if self.seat in state.scored:
            raise RuleError(RULE_FINAL, Words("%(name)s has already entered the final scoring",
                                              name=state.players[self.seat]))
        result = final_sheet(state, self)
        sheet = state.sheets[self.seat]
        after = with_sheet(state, self.seat, final=result, vp=sheet.vp + result.total,
                           owned={**sheet.owned, **self.given()})
        scored = (*state.scored, self.seat)
        return after.evolve(scored=scored, phase="over" if len(scored) == len(state.players) else "scoring")

    def describe(self, before: State, after: State) -> str:
        final = after.sheets[self.seat].final
        return Words("%(name)s's final scoring: villas +%(villas)d, leftovers +%(leftovers)d, banderole bar "
                     "+%(bar)d, fountain cards +%(fountains)d, frame goals +%(goals)d → %(vp)d VP",
                     name=before.players[self.seat], villas=final.villas, leftovers=final.leftovers,
                     bar=final.banderole_bar, fountains=final.fountain_cards, goals=final.frame_goals,
                     vp=after.sheets[self.seat].vp)
