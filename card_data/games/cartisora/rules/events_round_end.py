"""After the reveal: the winner's maneuver (and, in the 2019 tag team, any player's), and the
next round, which resolves the round and may end the game."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from card_data.engine import Move, RuleError, Seat, Words, replace_at
from card_data.games.cartisora.cards import PowerModifier
from card_data.games.cartisora.rules.catalog import MANEUVER
from card_data.games.cartisora.rules.contest import (
    end_round,
    resolve,
    target_side,
)
from card_data.games.cartisora.rules.events_base import (
    CartisoraEvent,
    PlayCard,
    card_choices,
    check_in_hand,
    without,
)
from card_data.games.cartisora.rules.history import (
    contest_line,
    round_end_line,
    with_first_blood,
)
from card_data.games.cartisora.rules.state import Modifier, Played, State
from card_data.games.cartisora.rules.table import ENGINE
from card_data.games.cartisora.rules.wording import cite


@ENGINE.event
class Maneuver(PlayCard):
    """The round's winner plays a maneuver as a follow-up; it affects only the next round
    (2019 Maneuvers). Played before the round resolved, it resolves it as it stands; the card
    joins its player's score pile (our reading). In the 2019 tag team any player may play one
    at any moment of a round (Appendix II): it acts on the next round and its card is in play
    of that round (see the module docstring)."""

    label = Words("Play a maneuver")
    card_kind = MANEUVER
    seat: Seat
    card: str = Field(title=Words("Maneuver card"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        moves = []
        for s, name in enumerate(state.players):
            cards = state.hand_of_kind(s, MANEUVER) if state.may_maneuver(s) else ()
            if not cards:
                continue
            if s in state.follow_up_seats():
                label = Words("%(player)s won: play a maneuver for next round", player=name)
                note = Words("no reactions after it") if state.step == "react" else ""
            else:
                label, note = Words("%(player)s: maneuver for round %(round)d", player=name, round=state.round + 1), ""
            moves.append(cls.offer(state, seat=s, label=label, hint=note, card=card_choices(state, cards)))
        return moves

    def apply(self, state: State) -> State:
        edition = state.options.edition
        follow_up = self.seat in state.follow_up_seats()
        rule = cite(edition, "maneuvers", Words("a maneuver is played by the winner after winning a round; "
                                               "it affects only the next round"))
        if state.plays_any_time and not follow_up:
            rule = cite(edition, "tag_team", Words("play reactions or maneuvers any time"))
            if state.phase != "play":
                raise RuleError(rule, Words("no round is under way"))
        elif not follow_up:
            if state.step not in ("react", "resolved"):
                raise RuleError(rule, Words("round %(round)d has not been revealed yet", round=state.round)
                                if state.step == "ready" else Words("no round is under way"))
            contest = state.contest
            if contest.winner is None:
                if contest.how == "nullified":
                    raise RuleError(rule, Words("round %(round)d has no winner (nullified)", round=state.round))
                raise RuleError(rule, Words("round %(round)d has no winner (a tie)", round=state.round))
            raise RuleError(rule, Words("%(player)s did not win round %(round)d; %(side)s did",
                                        player=state.players[self.seat], round=state.round,
                                        side=state.side_name(contest.winner)))
        card = check_in_hand(state, self.seat, self.card, "maneuvers")
        if card.kind != MANEUVER:
            raise RuleError(rule, Words("%(card)s is not a maneuver card", card=card.title))
        side = state.side_of(self.seat)
        # Maneuvers never change the round they are played in, whatever round their effect names.
        carried = tuple(Modifier(side=target_side(e.player, side), amount=e.amount, source=card.title)
                        for e in card.effects if isinstance(e, PowerModifier))
        played = Played(seat=self.seat, card=self.card)
        hands = replace_at(state.hands, self.seat, without(state.hands[self.seat], self.card))
        if not follow_up:  # 2019 tag team, any time: a card in play of the next round
            return state.evolve(hands=hands, maneuvers=(*state.maneuvers, played),
                                next_cards=(*state.next_cards, played),
                                next_modifiers=(*state.next_modifiers, *carried))
        if state.step == "react":
            state = resolve(state)
        return state.evolve(hands=hands, score_piles=replace_at(state.score_piles, side, (*state.score_piles[side],
                                                                                         self.card)),
                            maneuvers=(*state.maneuvers, played), next_modifiers=(*state.next_modifiers, *carried))

    def describe(self, before: State, after: State) -> str:
        card = before.catalog.cards[self.card]
        line = Words("%(player)s played %(card)s (maneuver) for next round: %(effect)s",
                     player=before.players[self.seat], card=card.title, effect=card.text)
        if self.seat not in before.follow_up_seats():
            return Words("%(line)s Its card goes with round %(round)d's cards.", line=line, round=before.round + 1)
        if before.step == "react":
            return Words("%(line)s Round %(round)d resolved: %(result)s", line=line, round=before.round,
                         result=with_first_blood(before, contest_line(before, before.contest)))
        return line


@ENGINE.event
class NextRound(CartisoraEvent):
    """No more reactions or maneuvers: the round resolves and the next begins, or the game
    ends when a player (a team) is out of cards (2019 Round Result; Ending the Game).

    Tag team: the 2019 losing team swaps active players, both teams on a tie (Appendix II);
    in either edition a player out of cards hands over to their partner (2017 Appendix III).
    """

    label = Words("Next round")

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step not in ("react", "resolved"):
            return []
        if state.step == "react":
            if state.last_round():
                return [cls.offer(state, label=Words("Resolve round %(round)d and end the game", round=state.round))]
            return [cls.offer(state, label=Words("Resolve round %(round)d and go on", round=state.round))]
        return [cls.offer(state, label=Words("End the game") if state.last_round() else Words("Next round"))]

    def apply(self, state: State) -> State:
        edition = state.options.edition
        if state.step not in ("react", "resolved"):
            raise RuleError(cite(edition, "round", Words("a round ends after both cards are revealed and resolved")),
                            Words("round %(round)d's cards are not revealed yet", round=state.round)
                            if state.step == "ready" else Words("no round is under way"))
        return end_round(state)

    def describe(self, before: State, after: State) -> str:
        return round_end_line(before, after)
