"""Carpe Diem scoring: how one scoring card resolves in a scoring period, and a player's
final sheet (2018 rulebook, Scoring periods; Final scoring)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from card_data.engine import RuleError, Words
from card_data.games.carpe_diem.cards import ScoringCard
from card_data.games.carpe_diem.requirements import Need, added, listed
from card_data.games.carpe_diem.rules.citations import (
    RULE_BREAD,
    RULE_FOUNTAINS,
    RULE_FRAME,
    RULE_GREEN,
    RULE_RED,
    RULE_VILLAS,
)
from card_data.games.carpe_diem.rules.printed_vp import printed_figures
from card_data.games.carpe_diem.rules.state import FinalSheet, State
from card_data.games.carpe_diem.rules.steps import advance, with_sheet
from card_data.games.carpe_diem.rules.wording import amount_words, ask_for_counts

if TYPE_CHECKING:
    from card_data.games.carpe_diem.rules.events_scoring import FinalScore


@dataclass(frozen=True)
class CardResolution:
    """How one scoring card resolved: ``how`` is ``"met"`` (``times`` sets owned or paid),
    ``"bread"`` (fulfilled once with bread) or ``"unmet"`` (penalty). ``paid``: wares, coins
    and bread handed in (name -> count). ``counted``: owned counts a green card used."""

    card: ScoringCard
    how: Literal["met", "bread", "unmet"]
    times: int
    paid: dict[str, int]
    counted: dict[str, int]
    vp_change: int

    def line(self) -> str:
        """E.g. ``"Two herbs paid 2× (4× herbs) → 8 VP"``."""
        title = self.card.title
        counted = listed([amount_words(what, n) for what, n in self.counted.items()]) if self.counted else ""
        if self.how == "unmet":
            if counted:
                return Words("%(card)s not met (%(counted)s) → %(vp)d VP", card=title, counted=counted,
                             vp=self.vp_change)
            return Words("%(card)s not met → %(vp)d VP", card=title, vp=self.vp_change)
        paid = listed([amount_words(what, n) for what, n in self.paid.items()]) if self.paid else ""
        reward = self.card.reward
        gains = [(reward.vp * self.times, lambda n: Words("%(n)d VP", n=n), lambda n: Words("%(n)d VP", n=n)),
                 (reward.coins * self.times, lambda n: Words("%(n)d coin", n=n), lambda n: Words("%(n)d coins", n=n)),
                 (reward.bread * self.times, lambda n: Words("%(n)d bread", n=n),
                  lambda n: Words("%(n)d bread", n=n)),
                 (reward.banderole * self.times, lambda n: Words("%(n)d banderole bar space", n=n),
                  lambda n: Words("%(n)d banderole bar spaces", n=n))]
        gained = added([(one if total == 1 else many)(total) for total, one, many in gains if total])
        if self.how == "bread":
            return Words("%(card)s fulfilled with %(paid)s → %(gained)s", card=title, paid=paid, gained=gained)
        if self.card.colour == "red":
            return Words("%(card)s paid %(times)d× (%(paid)s) → %(gained)s", card=title, times=self.times, paid=paid,
                         gained=gained)
        return Words("%(card)s met %(times)d× (%(counted)s) → %(gained)s", card=title, times=self.times,
                     counted=counted, gained=gained)


def resolve_card(state: State, seat: int, card: ScoringCard, times: int | None, bread: bool,
                 owned: Mapping[str, int]) -> tuple[State, CardResolution]:
    """Resolve one scoring card for ``seat``; returns the new state and what happened.

    ``owned``: the counts a green card uses (tracked, entered ones winning). Raises
    :class:`RuleError` for bread the player does not have, times they cannot pay or times on a
    green card, and green-card counts neither tracked nor entered.
    Rulebook: 2018 rulebook, Scoring periods (green, red, coins, bread, multiples, penalty).
    """
    sheet = state.sheets[seat]
    paid: dict[str, int] = {}
    counted: dict[str, int] = {}
    changes: dict[str, int] = {}
    if bread:
        need = state.board.tables.bread_to_fulfil_card
        if times is not None:
            raise RuleError(RULE_BREAD, Words("bread fulfils %(card)s once; leave its times empty", card=card.title))
        if sheet.bread < need:
            raise RuleError(RULE_BREAD, Words("%(name)s has %(have)d bread, %(need)d are needed to fulfil %(card)s",
                                              name=state.players[seat], have=sheet.bread, need=need, card=card.title))
        how, k, paid = "bread", 1, {"bread": need}
        changes["bread"] = sheet.bread - need
    elif card.colour == "red":
        wares = sheet.wares()
        most = card.multiples(wares, coins=sheet.coins)
        if times is not None and times > most:
            raise RuleError(RULE_RED, Words("%(name)s can pay %(card)s (%(requirement)s) %(most)d×, not %(times)d×",
                                            name=state.players[seat], card=card.title,
                                            requirement=card.requirement_line(), most=most, times=times))
        k = most if times is None else times
        how = "met" if k else "unmet"
        short = 0
        for item in card.requirement:
            owed = k * item.count
            from_wares = min(owed, wares[item.what])
            short += owed - from_wares
            wares[item.what] -= from_wares
            if from_wares:
                paid[item.what] = from_wares
        if short:
            paid["coins"] = short
        changes.update(wares, coins=sheet.coins - short)
    else:
        if times is not None:
            raise RuleError(RULE_GREEN, Words("%(card)s is a green card: every full set you own scores, so leave "
                                              "its times empty", card=card.title))
        missing = [n.what for n in card.requirement if n.what not in owned]
        if missing:
            raise RuleError(RULE_GREEN, ask_for_counts(missing, card.title))
        counted = {n.what: owned[n.what] for n in card.requirement}
        k = card.multiples(owned)
        how = "met" if k else "unmet"
    if how == "unmet":
        vp_change = -state.board.tables.unmet_card_penalty_vp
        state = with_sheet(state, seat, **changes, vp=sheet.vp + vp_change)
        return state, CardResolution(card, how, 0, paid, counted, vp_change)
    reward = card.reward
    vp_change = reward.vp * k
    state = with_sheet(state, seat, **{**changes, "vp": sheet.vp + vp_change,
                                       "coins": changes.get("coins", sheet.coins) + reward.coins * k,
                                       "bread": changes.get("bread", sheet.bread) + reward.bread * k})
    if reward.banderole:
        state = advance(state, seat, reward.banderole * k)
    return state, CardResolution(card, how, k, paid, counted, vp_change)


def final_sheet(state: State, event: FinalScore) -> FinalSheet:
    """The final scoring of ``event.seat`` (2018 rulebook, Final scoring): completed villas by
    chimneys (``tables.villa_chimneys``), leftovers (``tables.leftovers``), the banderole bar
    space (``tables.banderole_bar``), fountain cards (their conditions) and frame goals
    (``tables.frame_goals`` plus ``other_frame_vp``). Villa and banderole bar figures the
    player entered from their board replace the data's assumed ones (:mod:`.printed_vp`).

    Villas and fountain cards not entered are the ones recorded in play; owned counts not
    entered are the tracked ones. Raises :class:`RuleError` for unknown fountain cards or frame
    goals, fountain conditions whose counts are neither tracked nor entered, or villas that
    contradict the owned counts entered, and for printed figures entered where the data's are
    not assumed (:func:`~.printed_vp.printed_figures`).
    """
    sheet = state.sheets[event.seat]
    entered = event.given()
    owned = sheet.counts(entered)
    villas = event.villa_chimneys or sheet.villas
    if "completed_villa" in entered and entered["completed_villa"] != len(villas):
        if event.villa_chimneys:
            raise RuleError(RULE_VILLAS, Words("you own %(owned)d completed villas but listed chimneys for "
                                               "%(villas)d", owned=entered["completed_villa"], villas=len(villas)))
        raise RuleError(RULE_VILLAS, Words("you own %(owned)d completed villas but recorded chimneys for "
                                           "%(villas)d", owned=entered["completed_villa"], villas=len(villas)))
    if "chimney" in entered and sum(villas) > entered["chimney"]:
        raise RuleError(RULE_VILLAS, Words("the completed villas have %(chimneys)d chimneys, more than the "
                                           "%(owned)d you own", chimneys=sum(villas), owned=entered["chimney"]))
    fountain_vp = 0
    for card_id in event.fountain_cards or sheet.fountain_cards:
        card = state.board.fountain_cards.get(card_id)
        if card is None:
            raise RuleError(RULE_FOUNTAINS, Words("there is no fountain card '%(card)s'", card=card_id))
        missing = [n.what for n in card.condition if n.what not in owned]
        if missing:
            raise RuleError(RULE_FOUNTAINS, ask_for_counts(missing, card.title))
        fountain_vp += card.final_vp(owned)
    goals = {g.what: g.vp for g in state.board.tables.frame_goals}
    for goal in event.frame_goals:
        if goal not in goals:
            raise RuleError(RULE_FRAME, Words("no frame goal in the data shows %(thing)s; enter its VP as other "
                                              "frame VP", thing=Need(what=goal).label()))
    leftovers = {"wares": sum(sheet.wares().values()), "coins": sheet.coins, "bread": sheet.bread,
                 "stored_tiles": event.stored_tiles}
    tables = state.board.tables
    printed = printed_figures(state, event.seat, event.printed_villa_chimneys, event.printed_villa_vp,
                              event.banderole_vp)
    return FinalSheet(
        villas=sum(printed.villa(tables, c) for c in villas),
        leftovers=tables.leftovers.vp(sum(leftovers[k] for k in tables.leftovers.counted)),
        banderole_bar=printed.bar_vp,
        fountain_cards=fountain_vp,
        frame_goals=sum(goals[g] for g in event.frame_goals) + event.other_frame_vp,
    )
