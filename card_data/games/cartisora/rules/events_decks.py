"""Choosing decks: a player's deck for the next game (2019 Setup) and draft mode's bans and
picks (2019 Appendix I; 2017 Appendix II)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from card_data.engine import Move, RuleError, Seat, Words, replace_at
from card_data.games.cartisora.rules.events_base import (
    CartisoraEvent,
    deck_choices,
)
from card_data.games.cartisora.rules.options import DRAFT_PICK_ORDER
from card_data.games.cartisora.rules.state import Pick, State
from card_data.games.cartisora.rules.table import (
    ENGINE,
    draft_decks,
    start_game,
)
from card_data.games.cartisora.rules.wording import cite, then


def _draft(state: State, seat: int, deck: str, action: str) -> State:
    """A draft ban or pick (2019 Appendix I: Draft Mode; 2017 Appendix II)."""
    edition = state.options.edition
    turn = state.draft_turn()
    if turn is None:
        raise RuleError(cite(edition, "draft", Words("decks are banned and drafted before the first game")),
                        Words("the draft is over") if state.options.draft
                        else Words("this table does not use draft mode"))
    step, turn_seat = turn
    if step != action:
        raise RuleError(cite(edition, "draft", Words("with more than 6 decks each player bans one deck before "
                                                    "selection starts; with 6 there are no bans")),
                        Words("it is time to ban a deck, not to pick one") if step == "ban"
                        else Words("it is time to pick a deck, not to ban one"))
    if seat != turn_seat:
        rule = cite(edition, "draft", Words("bans start with Player 1; picks go in the order 1-2-2-1-1-2"))
        if step == "ban":
            raise RuleError(rule, Words("the next ban is %(player)s's, not %(other)s's",
                                        player=state.players[turn_seat], other=state.players[seat]))
        raise RuleError(rule, Words("the next pick %(pick)d is %(player)s's, not %(other)s's",
                                    pick=len(state.picks) + 1, player=state.players[turn_seat],
                                    other=state.players[seat]))
    if deck not in state.catalog.decks:
        raise RuleError(cite(edition, "draft", Words("the decks are the character decks available")),
                        Words("there is no character deck '%(deck)s' (decks: %(decks)s)", deck=deck,
                              decks=", ".join(state.catalog.decks)))
    if deck not in state.decks_open():
        raise RuleError(cite(edition, "draft", Words("each deck is banned or picked at most once; "
                                                    "each player plays 3 different decks")),
                        Words("%(deck)s is already banned or picked", deck=state.catalog.decks[deck].title))
    entry = Pick(seat=seat, deck=deck)
    if action == "ban":
        return state.evolve(bans=(*state.bans, entry))
    state = state.evolve(picks=(*state.picks, entry))
    if len(state.picks) == len(DRAFT_PICK_ORDER):
        return start_game(state, draft_decks(state, 1))
    return state


@ENGINE.event
class PickDeck(CartisoraEvent):
    """A player takes a character deck for the next game (2019 Setup), or makes a draft
    pick in draft mode (2019 Appendix I: Draft Mode). The game starts once every player has
    a deck; draft games start once the 6 picks are made."""

    label = Words("Pick a deck")
    seat: Seat
    deck: str = Field(title=Words("Character deck"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step == "draft":
            what, turn = state.draft_turn()
            if what != "pick":
                return []
            return [cls.offer(state, seat=turn, deck=deck_choices(state),
                              label=Words("%(player)s drafts (pick %(pick)d of %(picks)d)", player=state.players[turn],
                                          pick=len(state.picks) + 1, picks=state.draft_picks))]
        if state.step != "pick":
            return []
        return [cls.offer(state, seat=s, deck=deck_choices(state),
                          label=Words("%(player)s takes a deck", player=state.players[s]))
                for s, deck in enumerate(state.game_decks) if deck is None]

    def apply(self, state: State) -> State:
        edition = state.options.edition
        name = state.players[self.seat]
        if state.step == "draft":
            return _draft(state, self.seat, self.deck, "pick")
        if state.step != "pick":
            raise RuleError(cite(edition, "setup", Words("each player takes a deck before the game starts")),
                            Words("game %(game)d is under way; decks are picked before a game", game=state.game))
        if state.game_decks[self.seat] is not None:
            raise RuleError(cite(edition, "setup", Words("each player takes 1 deck as their hand")),
                            Words("%(player)s already took %(deck)s", player=name,
                                  deck=state.catalog.decks[state.game_decks[self.seat]].title))
        if self.deck not in state.catalog.decks:
            raise RuleError(cite(edition, "setup", Words("the decks are the character decks of the set")),
                            Words("there is no character deck '%(deck)s' (decks: %(decks)s)", deck=self.deck,
                                  decks=", ".join(state.catalog.decks)))
        taken_by = [s for s, d in enumerate(state.game_decks) if d == self.deck]
        if taken_by:
            raise RuleError(cite(edition, "setup", Words("each player takes their own deck; the set holds one of "
                                                        "each")),
                            Words("%(player)s already took %(deck)s", player=state.players[taken_by[0]],
                                  deck=state.catalog.decks[self.deck].title))
        decks = replace_at(state.game_decks, self.seat, self.deck)
        if all(decks):
            return start_game(state, decks)
        return state.evolve(game_decks=decks)

    def describe(self, before: State, after: State) -> str:
        player, deck = before.players[self.seat], before.catalog.decks[self.deck].title
        if before.step == "draft":
            line = Words("%(player)s drafted (pick %(pick)d) %(deck)s", player=player, pick=len(before.picks) + 1,
                         deck=deck)
        else:
            line = Words("%(player)s took %(deck)s", player=player, deck=deck)
        if after.step == "ready":
            return then(line, Words("game %(game)d begins", game=after.game))
        return line


@ENGINE.event
class BanDeck(CartisoraEvent):
    """Draft mode with more than 6 decks: a player bans a deck, Player 1 first (2019 Appendix I)."""

    label = Words("Ban a deck")
    seat: Seat
    deck: str = Field(title=Words("Character deck"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        turn = state.draft_turn()
        if turn is None or turn[0] != "ban":
            return []
        return [cls.offer(state, seat=turn[1], deck=deck_choices(state),
                          label=Words("%(player)s bans a deck", player=state.players[turn[1]]))]

    def apply(self, state: State) -> State:
        return _draft(state, self.seat, self.deck, "ban")

    def describe(self, before: State, after: State) -> str:
        return Words("%(player)s banned %(deck)s", player=before.players[self.seat],
                     deck=before.catalog.decks[self.deck].title)
