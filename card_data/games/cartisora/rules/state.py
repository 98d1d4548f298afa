"""A Duels of Cartisora table's state: decks and hands, the round's contest as it stands,
score piles, tokens and the match, with what the rules allow now and the words for it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from card_data.engine import GameState, Model, Words
from card_data.engine.scoreboard import Scoreboard, scoreboard
from card_data.engine.wording import Said
from card_data.games.cartisora.cards import BASE_SET_CHARACTER_DECKS
from card_data.games.cartisora.rules.catalog import Catalog
from card_data.games.cartisora.rules.options import (
    DRAFT_BAN_ORDER,
    DRAFT_PICK_ORDER,
    Options,
)
from card_data.games.cartisora.rules.wording import HOW_SHORT, HOW_WORDS

RoundStep = Literal["draft", "pick", "ready", "react", "resolved"]
"""The game's own steps. Phase ``setup``: ``draft`` (bans and draft picks), ``pick``
(choosing decks for the next game). Phase ``play``: ``ready`` (waiting for the round's
reveal), ``react`` (revealed, reactions may follow), ``resolved`` (the round's cards have
moved, maneuvers may follow). Once the match is over the phase is ``over``."""
How = Literal["overpower", "undercut", "tie", "forced", "wins_against_ties", "nullified"]
Side = Annotated[int, Field(ge=0, le=1)]
"""A side: 0 for seat 0 (and its tag-team partner, seat 2), 1 for seat 1 (and seat 3)."""

PHASE_OF_STEP = {"draft": "setup", "pick": "setup", "ready": "play", "react": "play", "resolved": "play"}


class Pick(Model):
    """A draft ban or pick: who (seat) and which deck."""

    seat: int
    deck: str


class Played(Model):
    """A reaction or maneuver played: by whom (seat) and which card id."""

    seat: int
    card: str


class Modifier(Model):
    """A power change carried into the next round: the side it applies to, the amount and
    the title of the card it comes from."""

    side: Side
    amount: int
    source: str


class Contest(Model):
    """One round's contest as it stands (2019 How to Play; Complex Resolutions).

    Attributes:
        round: the round number (1-based).
        seats: the seat that readied each side's card.
        cards: each side's readied card id.
        powers: each side's final power (2017 powers may be negative).
        winner: the winning side, or ``None`` for a tie or a nullified round.
        how: ``overpower``, ``undercut``, ``tie``, ``forced`` (a card forced the result),
            ``wins_against_ties`` or ``nullified`` (2017, both powers 0 or less).
        moved: whether each side's readied card was moved to the tie pool (Cornered Prey).
        next_round: power changes this round's cards carry into the next round.
        notes: why, in words, e.g. "Parry forces a tie".
    """

    round: int
    seats: tuple[int, int]
    cards: tuple[str, str]
    powers: tuple[int, int]
    winner: Side | None
    how: How
    moved: tuple[bool, bool] = (False, False)
    next_round: tuple[Modifier, ...] = ()
    notes: tuple[Said, ...] = ()


class Score(Model):
    """A side's score (2019 Ending the Game; Bonus Points): ``cards`` in the score pile,
    ``boast_bonus`` the extra points of boast cards in it, the ``first_blood`` and
    ``finisher`` token points, and the ``total``."""

    cards: int
    boast_bonus: int
    first_blood: int
    finisher: int
    total: int


class GameResult(Model):
    """A finished game: its number, each seat's deck, each side's :class:`Score`, the winning
    side (``None`` for a draw), and the leftover cards moved at the end (how many, to which side)."""

    game: int
    decks: tuple[str, ...]
    scores: tuple[Score, Score]
    winner: Side | None
    leftover: int = 0
    leftover_to: Side | None = None
    rounds: int = 0


class State(GameState):
    """A Duels of Cartisora table.

    Sides: in a 2-player game side ``s`` is seat ``s``; in tag team, side ``s`` is the team of
    seats ``s`` and ``s + 2``. Score piles, the tie pool, tokens and effects are per side;
    hands are per seat. Pairs indexed by side are tuples of 2; lists by seat have one entry
    per player.

    Attributes:
        phase: ``setup`` (draft, deck picks, between games), ``play`` (rounds), ``over``.
        step: the game's own step, see :data:`RoundStep`.
        options: the table's :class:`Options`.
        catalog: the card data (decks, cards, tokens, Tag card), see :class:`Catalog`.
        bans / picks: draft bans and picks in order.
        game / game_decks: the game number (1-based) and each seat's deck for it.
        hands: each seat's card ids not yet played, in deck order.
        active: each side's active seat.
        round: the round number.
        readied: this round's readied card of each side, once revealed.
        face_up: 2017: whether an effect made each side's readied card be readied face up.
        reactions: reactions acting on this round's contest (2019 tag team: also those played
            before the reveal or after the previous round resolved).
        maneuvers: maneuvers played during this round (their effects wait for the next).
        carried: 2019 tag team: maneuver cards played during the previous round that are
            cards in play of this one (no effect on its contest).
        next_cards: 2019 tag team: cards played during this round that are in play of the
            next one (reactions after the round resolved, maneuvers but the winner's).
        contest: this round's result as it stands (``None`` before the reveal).
        modifiers: power changes applying to this round (from last round's effects);
            ``next_modifiers``: those gathered for the next round.
        score_piles: each side's score pile (card ids; a Tag card scores as its id).
        tie_pool: card ids waiting for the next winner; ``uncounted``: cards set aside by a
            tie on the last round.
        first_blood_side / finisher_side: who holds each token.
        tags_left: 2017 tag team, each seat's Tag cards; ``tagged``: each side tagged this round.
        round_log: the current game's resolved contests.
        results / games_won: finished games and each side's games won (the match score).
    """

    step: RoundStep
    options: Options
    catalog: Catalog
    bans: tuple[Pick, ...] = ()
    picks: tuple[Pick, ...] = ()
    game: int = 1
    game_decks: tuple[str | None, ...]
    hands: tuple[tuple[str, ...], ...]
    active: tuple[int, int] = (0, 1)
    round: int = 0
    readied: tuple[str, ...] = ()
    face_up: tuple[bool, bool] = (False, False)
    reactions: tuple[Played, ...] = ()
    maneuvers: tuple[Played, ...] = ()
    carried: tuple[Played, ...] = ()
    next_cards: tuple[Played, ...] = ()
    contest: Contest | None = None
    modifiers: tuple[Modifier, ...] = ()
    next_modifiers: tuple[Modifier, ...] = ()
    score_piles: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    tie_pool: tuple[str, ...] = ()
    uncounted: tuple[str, ...] = ()
    first_blood_side: Side | None = None
    finisher_side: Side | None = None
    tags_left: tuple[int, ...] = ()
    tagged: tuple[bool, bool] = (False, False)
    round_log: tuple[Contest, ...] = ()
    results: tuple[GameResult, ...] = ()
    games_won: tuple[int, int] = (0, 0)

    # -- where the game stands --

    @property
    def score_label(self) -> Words:  # type: ignore[override]
        """``"Points"`` for one game, ``"Games won"`` for a match."""
        return Words("Points") if self.options.match_length == 1 else Words("Games won")

    def scoreboard(self) -> Scoreboard:
        """Each seat's points (its side's: tag-team partners share them), and in a match the
        games won and the points of the game being played; the game, round and step
        (:meth:`status`). Both players ready and reveal at once: no one's turn is shown."""
        if self.options.match_length == 1:
            totals = self.side_totals()
            return scoreboard([self.score_label], [[totals[self.side_of(seat)]] for seat in range(len(self.players))],
                              self.status())
        points = [self.score(side).total for side in (0, 1)]
        return scoreboard([Words("Games won"), Words("Points")],
                          [[self.games_won[self.side_of(seat)], points[self.side_of(seat)]]
                           for seat in range(len(self.players))], self.status())

    def side_totals(self) -> tuple[int, int]:
        """Each side's points (one game: the last finished game's, else the score now) or, in
        a match, games won."""
        if self.options.match_length != 1:
            return self.games_won
        if self.results:
            first, second = self.results[-1].scores
            return first.total, second.total
        return self.score(0).total, self.score(1).total

    def scores(self) -> tuple[float, ...]:
        """Each seat's points, or games won in a match; tag-team partners share their team's."""
        totals = self.side_totals()
        return tuple(float(totals[self.side_of(seat)]) for seat in range(len(self.players)))

    def winners(self) -> tuple[int, ...]:
        """The seats of the side with more points (games won in a match); none for a draw."""
        totals = self.side_totals()
        if not self.finished or totals[0] == totals[1]:
            return ()
        return self.seats_of(0 if totals[0] > totals[1] else 1)

    def rounds_played(self) -> int:
        """Rounds (contests) played in the whole match: the finished games' and the current game's."""
        current = len(self.round_log) if len(self.results) < self.game else 0
        return sum(r.rounds for r in self.results) + current

    def summary(self) -> Words:
        """E.g. "Ann wins: 22 to 4 points", "Ann wins the match 2–0 in games", "Game 1, round 3"."""
        if self.finished:
            totals = self.side_totals()
            one_game = self.options.match_length == 1
            if totals[0] == totals[1]:
                if one_game:
                    return Words("Draw: %(first)s to %(second)s points", first=totals[0], second=totals[1])
                return Words("Draw the match %(high)s–%(low)s in games", high=max(totals), low=min(totals))
            wins = self.side_wins(0 if totals[0] > totals[1] else 1)
            if one_game:
                return Words("%(wins)s: %(first)s to %(second)s points", wins=wins, first=totals[0],
                             second=totals[1])
            return Words("%(wins)s the match %(high)s–%(low)s in games", wins=wins, high=max(totals),
                         low=min(totals))
        if self.phase == "setup":
            return Words("Game %(game)d: choosing decks", game=self.game)
        return Words("Game %(game)d, round %(round)d", game=self.game, round=self.round)

    # -- sides and scores --

    @property
    def plays_any_time(self) -> bool:
        """2019 tag team: reactions and maneuvers may be played any time (Appendix II)."""
        return self.options.tag_team and self.options.edition == "2019"

    def side_of(self, seat: int) -> int:
        """The side (0 or 1) a seat plays for."""
        return seat % 2

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats of a side: ``(side,)``, or ``(side, side + 2)`` in tag team."""
        return (side, side + 2) if self.options.tag_team else (side,)

    def side_name(self, side: int) -> str:
        """A side's name for people: the player, or "Ann & Cid" for a team (names only: the
        same in every language)."""
        return " & ".join(self.players[s] for s in self.seats_of(side))

    def side_wins(self, side: int) -> Words:
        """"Ann wins" or, for a team, "Ann & Cid win"."""
        if self.options.tag_team:
            return Words("%(side)s win", side=self.side_name(side))
        return Words("%(side)s wins", side=self.side_name(side))

    def score(self, side: int) -> Score:
        """The side's score now: cards in its score pile, boast bonus and tokens
        (2019 Ending the Game; Bonus Points)."""
        pile = self.score_piles[side]
        cards = len(pile)
        boast = sum(self.catalog.cards[c].points - 1 for c in pile if c in self.catalog.cards)
        blood = self.catalog.first_blood.points if self.first_blood_side == side else 0
        finish = self.catalog.finisher.points if self.finisher_side == side else 0
        return Score(cards=cards, boast_bonus=boast, first_blood=blood, finisher=finish,
                     total=cards + boast + blood + finish)

    # -- what the rules allow now --

    def hand_of_kind(self, seat: int, kind: str) -> tuple[str, ...]:
        """The seat's cards in hand of one card kind (:data:`REACTION`, :data:`MANEUVER`, ...)."""
        return tuple(c for c in self.hands[seat] if self.catalog.cards[c].kind == kind)

    def draft_turn(self) -> tuple[str, int] | None:
        """``("ban" | "pick", seat)`` for the next draft step, or ``None`` outside the draft."""
        if self.step != "draft":
            return None
        if len(self.catalog.decks) > BASE_SET_CHARACTER_DECKS and len(self.bans) < len(DRAFT_BAN_ORDER):
            return "ban", DRAFT_BAN_ORDER[len(self.bans)]
        return "pick", DRAFT_PICK_ORDER[len(self.picks)]

    @property
    def draft_picks(self) -> int:
        """How many decks the draft picks in all (6)."""
        return len(DRAFT_PICK_ORDER)

    def drafted(self, seat: int) -> tuple[str, ...]:
        """The deck ids ``seat`` drafted, in the order they will be played."""
        return tuple(p.deck for p in self.picks if p.seat == seat)

    def decks_open(self) -> tuple[str, ...]:
        """Deck ids still free to ban or pick: in the draft, neither banned nor drafted; else
        not picked by another seat for this game."""
        if self.step == "draft":
            taken = {b.deck for b in self.bans} | {p.deck for p in self.picks}
        else:
            taken = {d for d in self.game_decks if d}
        return tuple(d for d in self.catalog.decks if d not in taken)

    def may_react(self, seat: int) -> bool:
        """Whether the seat may play a reaction now: after the reveal and before the round
        resolves, active players only (2019 Reaction Cards); in the 2019 tag team any player at
        any moment of a round (Appendix II)."""
        if self.plays_any_time:
            return self.phase == "play"
        return self.step == "react" and seat in self.active

    def reaction_round(self) -> int:
        """The round whose contest a reaction played now acts on (the next one once this round
        has resolved: 2019 tag team)."""
        return self.round + 1 if self.step == "resolved" else self.round

    def can_tag(self, seat: int) -> bool:
        """Whether the seat may tag in now (2017 tag team, resting player, once per team per
        round, Tag cards left, the partner's card not readied face up)."""
        if self.step != "react" or self.catalog.tag_card is None or seat in self.active:
            return False
        side = self.side_of(seat)
        return not self.tagged[side] and self.tags_left[seat] > 0 and not self.face_up[side]

    def follow_up_seats(self) -> tuple[int, ...]:
        """Seats that may play the winner's follow-up maneuver now (2019 Maneuvers): the
        round's winner (either player of the winning team in the 2019 tag team); empty when
        the round is not revealed or has no winner."""
        if self.step not in ("react", "resolved") or self.contest is None or self.contest.winner is None:
            return ()
        side = self.contest.winner
        return self.seats_of(side) if self.plays_any_time else (self.active[side],)

    def may_maneuver(self, seat: int) -> bool:
        """Whether the seat may play a maneuver now: the follow-up, or any player at any moment
        of a round in the 2019 tag team."""
        return seat in self.follow_up_seats() or (self.plays_any_time and self.phase == "play")

    def first_blood_to(self, contest: Contest) -> int | None:
        """The side that takes First Blood when ``contest`` resolves now, or ``None``: the
        winner, if nobody holds the token yet and, with the ``first_round`` reading (option
        ``first_blood``: 2019 How to Play, Round Result), the contest is round 1's."""
        if contest.winner is None or contest.how == "nullified" or self.first_blood_side is not None:
            return None
        if self.options.first_blood == "first_round" and contest.round != 1:
            return None
        return contest.winner

    def first_blood_reading(self) -> Words:
        """Who takes First Blood at this table (the option ``first_blood``), in words, e.g.
        "the first player to win a contest (2019 rulebook, Ending the Game, Bonus Points)"."""
        if self.options.first_blood == "first_round":
            return Words("the winner of round 1; nobody after a tied first round (2019 rulebook, How to Play, "
                         "Round Result)")
        return Words("the first player to win a contest (%(edition)s rulebook, Ending the Game, Bonus Points)",
                     edition=self.options.edition)

    def last_round(self) -> bool:
        """Whether a side is out of cards, so that this round is the game's last."""
        return any(not any(self.hands[s] for s in self.seats_of(side)) for side in (0, 1))

    # -- words for people --

    def card_label(self, card_id: str) -> str:
        """A card for people, e.g. ``"Knight 5 (5)"`` (see :attr:`CardInfo.label`); the Tag card
        as ``"Tag card"``."""
        card = self.catalog.cards.get(card_id)
        if card is None:
            return Words("Tag card") if card_id == self.catalog.tag_card else card_id
        return card.label

    def result_words(self, contest: Contest) -> Words:
        """A contest's result, e.g. "Ann wins by Undercut" or "Tie: the cards go to the tie pool"."""
        if contest.how == "nullified":
            return Words("Nullified: each card goes to its own score pile")
        if contest.winner is None:
            if contest.how == "forced":
                return Words("Forced tie: the cards go to the tie pool")
            return Words("Tie: the cards go to the tie pool")
        return Words("%(wins)s by %(how)s", wins=self.side_wins(contest.winner), how=HOW_WORDS[contest.how])

    def round_words(self, contest: Contest) -> Words:
        """One resolved round, e.g. "Ann: Knight 5 vs Bob: Fencer 4 – 5 to 4, Bob wins (undercut)"."""
        if contest.how == "nullified":
            result = Words("nullified")
        elif contest.winner is None:
            result = Words("forced tie") if contest.how == "forced" else Words("tie")
        else:
            result = Words("%(wins)s (%(how)s)", wins=self.side_wins(contest.winner), how=HOW_SHORT[contest.how])
        return Words("%(player)s: %(card)s vs %(other)s: %(other_card)s – %(power)s to %(other_power)s, %(result)s",
                     player=self.players[contest.seats[0]], card=self.catalog.cards[contest.cards[0]].title,
                     other=self.players[contest.seats[1]], other_card=self.catalog.cards[contest.cards[1]].title,
                     power=contest.powers[0], other_power=contest.powers[1], result=result)

    def status(self) -> Words:
        """Where the table stands, e.g. "Game 1, round 2: revealed – reactions may follow"."""
        if self.finished:
            return self.summary()
        if self.step == "draft":
            what, seat = self.draft_turn()
            if what == "ban":
                return Words("Draft: ban by %(player)s", player=self.players[seat])
            return Words("Draft: pick by %(player)s", player=self.players[seat])
        if self.step == "pick":
            return Words("Game %(game)d: pick decks", game=self.game)
        if self.step == "ready":
            return Words("Game %(game)d, round %(round)d: ready and reveal", game=self.game, round=self.round)
        if self.step == "react":
            return Words("Game %(game)d, round %(round)d: revealed – reactions may follow", game=self.game,
                         round=self.round)
        return Words("Game %(game)d, round %(round)d: resolved – maneuvers may follow", game=self.game,
                     round=self.round)
