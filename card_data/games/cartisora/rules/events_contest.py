"""The round's contest: the reveal of both readied cards, reactions, and the 2017 tag team's
tag-in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field, field_validator

from card_data.engine import (
    Bounded,
    Choice,
    FormField,
    Move,
    RuleError,
    Seat,
    Words,
    replace_at,
)
from card_data.games.cartisora.rules.catalog import REACTION
from card_data.games.cartisora.rules.contest import end_round, judge
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
    with_notes,
)
from card_data.games.cartisora.rules.state import Played, Side, State
from card_data.games.cartisora.rules.table import ENGINE, at_step
from card_data.games.cartisora.rules.wording import cite, listed

MAX_ROUND = 999
"""The highest round a reveal may name: far above any game's (one card a round, 12 cards a
deck, 24 a tag team's side), a bound for what is stored."""


@ENGINE.event
class Reveal(CartisoraEvent):
    """Both readied cards, revealed together (2019 How to Play): ``cards[side]`` is the card
    of that side's active player (seat order in a 2-player game), from their hand.

    ``face_up`` (2017 only; Appendix I: Special Circumstances, Ready Face Up): the sides whose
    card an effect made its player ready face up; such a card cannot be exchanged willingly
    (the 2017 tag-in refuses it).

    ``round``: the round the cards are readied for. The next round begins with its reveal:
    revealed while the round before it still awaits reactions or maneuvers (step ``react``
    or ``resolved``), the reveal of round ``round`` first ends that round as
    :class:`~.events_round_end.NextRound` would (players who reveal the next cards play no
    more reactions or maneuvers on the last ones), in one entry. Not when that round is the
    game's last: its end stays its own entry. ``None`` (the reveals stored before ``round``
    existed, and the API's without it): the current round, at step ``ready`` only. Naming the
    round keeps a late form from revealing a round it was not drawn for.
    """

    label = Words("Reveal the readied cards")
    cards: Annotated[tuple[str, ...], Field(min_length=2, max_length=2, title=Words("Readied cards"),
                                            description=Words("each side's readied card, in seat order"))]
    face_up: Annotated[tuple[Side, ...], Field(max_length=2, title=Words("Readied face up (2017)"),
                                               description=Words("cards an effect made their players ready face "
                                                                 "up: they cannot be exchanged willingly"))] = ()
    round: Bounded[1, MAX_ROUND] | None = Field(None, title=Words("Round"),
                                                 description=Words("the round these cards are readied for"))

    @field_validator("face_up")
    @classmethod
    def _each_side_once(cls, sides: tuple[int, ...]) -> tuple[int, ...]:
        if len(set(sides)) != len(sides):
            raise ValueError(Words("name each side at most once"))
        return tuple(sorted(sides))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step == "ready":
            # The reveal at step ready keeps the shape it always had (no round): the forms of
            # pages drawn before, and tables' scripted entries, stay alike.
            return [cls._offer_reveal(state, state, Words("Reveal round %(round)d", round=state.round), None, "")]
        if state.step not in ("react", "resolved") or state.last_round():
            return []
        ready = end_round(state)
        return [cls._offer_reveal(ready, state, Words("Reveal round %(round)d", round=ready.round), ready.round,
                                  Words("round %(round)d resolves first: no more reactions or maneuvers on it",
                                        round=state.round))]

    @classmethod
    def _offer_reveal(cls, ready: State, state: State, label: str, round_: int | None, hint: str) -> Move:
        """The reveal form for the round ``ready`` is at (its players, their hands), offered
        on ``state``, with ``round_`` fixed (``None``: a form sends none)."""
        seats = ready.active
        cards = FormField(name="cards", label=cls.model_fields["cards"].title, kind="multi", count=len(seats),
                          item_labels=tuple(Words("%(player)s revealed", player=ready.players[s]) for s in seats),
                          item_choices=tuple(tuple(card_choices(ready, ready.hands[s])) for s in seats))
        fixed = {"round": round_}
        if ready.options.edition != "2017":  # Ready Face Up is a 2017 rule: nothing to ask in 2019
            return cls.offer(state, label=label, hint=hint, cards=cards, face_up=(), **fixed)
        info = cls.model_fields["face_up"]
        face_up = FormField(name="face_up", label=info.title, kind="multi", required=False, default=(),
                            help=info.description,
                            choices=tuple(Choice(side, Words("%(player)s's card", player=ready.players[s]))
                                          for side, s in enumerate(seats)))
        return cls.offer(state, label=label, hint=hint, cards=cards, face_up=face_up, **fixed)

    def apply(self, state: State) -> State:
        edition = state.options.edition
        if self.round is not None and state.step in ("react", "resolved") and self.round == state.round + 1:
            if state.last_round():
                raise RuleError(cite(edition, "end", Words("when all cards are played, the game is over")),
                                Words("round %(round)d was the game's last: end the game", round=state.round))
            state = end_round(state)
        elif self.round is not None and state.phase == "play" and self.round != state.round:
            raise RuleError(cite(edition, "round", Words("each round both players ready one card and reveal it")),
                            Words("these cards are for round %(wanted)d; the table is at round %(round)d",
                                  wanted=self.round, round=state.round))
        if state.step in ("react", "resolved"):
            raise RuleError(cite(edition, "round", Words("each round both players ready one card and reveal it")),
                            Words("round %(round)d's cards are already revealed; go on to the next round",
                                  round=state.round))
        if state.step != "ready":
            raise RuleError(cite(edition, "setup", Words("each player takes a deck before the first round")),
                            Words("the decks are not picked yet"))
        if self.face_up and edition != "2017":
            raise RuleError(cite(edition, "face_up", Words("both players ready a card face down (Ready Face Up is "
                                                          "a 2017 rule: 2017 rulebook, Appendix I: Special "
                                                          "Circumstances)")),
                            Words("no card is readied face up in the 2019 rules"))
        hands = list(state.hands)
        for side, card_id in enumerate(self.cards):
            seat = state.active[side]
            check_in_hand(state, seat, card_id, "round")
            hands[seat] = without(hands[seat], card_id)
        revealed = at_step(state, "react", hands=hands, readied=self.cards,
                           face_up=tuple(side in self.face_up for side in (0, 1)))
        return revealed.evolve(contest=judge(revealed))

    def to_json(self) -> dict:
        """As :meth:`Event.to_json`, without ``round`` when it is ``None``: a reveal at step
        ``ready`` is stored as it always was."""
        data = super().to_json()
        if self.round is None:
            del data["round"]
        return data

    def describe(self, before: State, after: State) -> str:
        ended = None
        if before.step in ("react", "resolved"):  # this reveal ended the round before it
            ready = end_round(before)
            ended, before = round_end_line(before, ready), ready
        shown = []
        for side, c in enumerate(self.cards):
            player, card = before.players[before.active[side]], before.catalog.cards[c].title
            shown.append(Words("%(player)s revealed %(card)s (readied face up)", player=player, card=card)
                         if side in self.face_up else Words("%(player)s revealed %(card)s", player=player, card=card))
        line = Words("Round %(round)d: %(shown)s – %(result)s", round=before.round,
                     shown=listed(shown, ", "), result=contest_line(after, after.contest))
        line = with_notes(line, after.contest)
        return line if ended is None else Words("%(ended)s. %(line)s", ended=ended, line=line)


@ENGINE.event
class Reaction(PlayCard):
    """A reaction card played after the reveal, before the round resolves (2019 Reaction
    Cards); its effect joins the round's contest. In the 2019 tag team any player may play
    one at any moment of a round (Appendix II): before the reveal it acts on that round,
    after the round resolved on the next (see the module docstring)."""

    label = Words("Play a reaction")
    card_kind = REACTION
    seat: Seat
    card: str = Field(title=Words("Reaction card"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        moves = []
        for s, name in enumerate(state.players):
            cards = state.hand_of_kind(s, REACTION) if state.may_react(s) else ()
            if not cards:
                continue
            if state.step == "ready":
                label = Words("%(player)s: reaction for round %(round)d (before the reveal)", player=name,
                              round=state.round)
            elif state.step == "resolved":
                label = Words("%(player)s: reaction for round %(round)d", player=name, round=state.round + 1)
            else:
                label = Words("%(player)s: play a reaction", player=name)
            moves.append(cls.offer(state, seat=s, label=label, card=card_choices(state, cards)))
        return moves

    def apply(self, state: State) -> State:
        edition = state.options.edition
        if state.plays_any_time:
            rule = cite(edition, "tag_team", Words("play reactions or maneuvers any time"))
            if state.phase != "play":
                raise RuleError(rule, Words("no round is under way"))
        else:
            rule = cite(edition, "reactions", Words("reactions are played after both readied cards are revealed "
                                                   "and before the round is resolved"))
            if state.step == "ready":
                raise RuleError(rule, Words("round %(round)d's cards are not revealed yet", round=state.round))
            if state.step == "resolved":
                raise RuleError(rule, Words("round %(round)d is already resolved (a maneuver was played)",
                                            round=state.round))
            if state.step != "react":
                raise RuleError(rule, Words("no round is under way"))
            if not state.may_react(self.seat):
                raise RuleError(cite(edition, "reactions", Words("the duelling players play the reactions (2017 "
                                                                "tag team: the resting partner joins in only by "
                                                                "tagging in)")),
                                Words("%(player)s is not in this round's duel", player=state.players[self.seat]))
        card = check_in_hand(state, self.seat, self.card, "reactions")
        if card.kind != REACTION:
            raise RuleError(rule, Words("%(card)s is not a reaction card; only reactions are played after the reveal",
                                        card=card.title))
        played = Played(seat=self.seat, card=self.card)
        hands = replace_at(state.hands, self.seat, without(state.hands[self.seat], self.card))
        if state.step == "resolved":  # 2019 tag team: it acts on the next round
            return state.evolve(hands=hands, next_cards=(*state.next_cards, played))
        reacted = state.evolve(hands=hands, reactions=(*state.reactions, played))
        return reacted.evolve(contest=judge(reacted)) if state.step == "react" else reacted

    def describe(self, before: State, after: State) -> str:
        player, card = before.players[self.seat], before.catalog.cards[self.card].title
        if before.step == "ready":
            return Words("%(player)s played %(card)s (reaction) before the reveal: it acts on round %(round)d's "
                         "contest", player=player, card=card, round=before.round)
        if before.step == "resolved":
            return Words("%(player)s played %(card)s (reaction) after round %(round)d resolved: it acts on round "
                         "%(next)d's contest", player=player, card=card, round=before.round, next=before.round + 1)
        return with_notes(Words("%(player)s played %(card)s (reaction): now %(result)s", player=player, card=card,
                                result=contest_line(after, after.contest)), after.contest)


@ENGINE.event
class Tag(CartisoraEvent):
    """2017 tag team: the resting partner tags in with ``card`` from their hand, as a reaction
    (2017 Appendix III: Tag Team): the partner's readied card returns to their hand, ``card``
    replaces it, the enemy team scores the Tag card; once per team per round, 3 Tag cards
    each. Refused for a card readied face up (2017 Appendix I: Ready Face Up)."""

    label = Words("Tag in")
    seat: Seat
    card: str = Field(title=Words("Card to play in its place"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, card=card_choices(state, state.hands[s]),
                          label=Words("%(player)s tags in for %(partner)s", player=state.players[s],
                                      partner=state.players[state.active[state.side_of(s)]]))
                for s in range(len(state.players)) if state.can_tag(s) and state.hands[s]]

    def apply(self, state: State) -> State:
        edition = state.options.edition
        rule = cite(edition, "tag_team", Words("the resting partner tags in as a reaction with a Tag card (3 each), "
                                              "once per team per round; the partner's card returns to their hand "
                                              "and the enemy scores the Tag card"))
        if state.catalog.tag_card is None:
            raise RuleError(rule, Words("Tag cards are used only in the 2017 tag team"))
        if state.step != "react":
            raise RuleError(rule, Words("tagging in is a reaction: after the reveal, before the round resolves"))
        side = state.side_of(self.seat)
        if self.seat in state.active:
            raise RuleError(rule, Words("%(player)s is already duelling", player=state.players[self.seat]))
        if state.tagged[side]:
            raise RuleError(rule, Words("%(side)s already tagged this round", side=state.side_name(side)))
        if state.tags_left[self.seat] == 0:
            raise RuleError(rule, Words("%(player)s has no Tag cards left", player=state.players[self.seat]))
        partner = state.active[side]
        returned = state.readied[side]
        if state.face_up[side]:
            raise RuleError(cite(edition, "face_up", Words("if a card must be readied face up it cannot be "
                                                          "exchanged willingly for another card")),
                            Words("%(player)s's %(card)s was readied face up: tagging in cannot exchange it",
                                  player=state.players[partner], card=state.catalog.cards[returned].title))
        check_in_hand(state, self.seat, self.card, "tag_team")
        order = state.catalog.decks[state.game_decks[partner]].cards
        hands = replace_at(state.hands, self.seat, without(state.hands[self.seat], self.card))
        hands = replace_at(hands, partner, tuple(c for c in order if c in state.hands[partner] or c == returned))
        piles = replace_at(state.score_piles, 1 - side, (*state.score_piles[1 - side], state.catalog.tag_card))
        tagged = state.evolve(hands=hands, readied=replace_at(state.readied, side, self.card),
                              active=replace_at(state.active, side, self.seat),
                              tags_left=replace_at(state.tags_left, self.seat, state.tags_left[self.seat] - 1),
                              tagged=replace_at(state.tagged, side, True), score_piles=piles)
        return tagged.evolve(contest=judge(tagged))

    def describe(self, before: State, after: State) -> str:
        side = before.side_of(self.seat)
        return Words("%(player)s tagged in for %(partner)s with %(card)s; %(side)s scores the Tag card – now "
                     "%(result)s", player=before.players[self.seat], partner=before.players[before.active[side]],
                     card=before.catalog.cards[self.card].title, side=before.side_name(1 - side),
                     result=contest_line(after, after.contest))
