"""Duels of Cartisora scorekeeper: decks, rounds, reactions, maneuvers, score piles, matches.

Rulebooks: ``duels-of-cartisora-2019.txt`` (Analog Game Studios, the default edition) and
``duels-of-cartisora-2017.txt`` (Moshe-Tozer Games); option ``edition`` picks one. What the
players enter, one event class each:

1. :class:`PickDeck` (each player's deck for the next game, 2019 Setup; in draft mode the
   draft picks) and :class:`BanDeck` (draft mode with more than 6 decks, 2019 Appendix I).
2. Each round, :class:`Reveal`: both readied cards, taken from the cards left in each hand
   (2019 How to Play).
3. :class:`Reaction` (any number, optional): a reaction card played after the reveal and
   before the round resolves (2019 Reaction Cards). The contest result is worked out again
   after each one and shown as it stands. :class:`Tag`: the 2017 tag team's tag-in.
4. :class:`Maneuver` (optional): played by the round's winner once the round has resolved;
   it changes only the next round (2019 Maneuvers). The first maneuver resolves the round.
5. :class:`NextRound`: resolves the round if no maneuver did, moves the cards (score pile or
   tie pool), and starts the next round, or ends the game when a player has run out of cards.

Readings of ours where the rulebooks are silent (each also said where it is applied):

- The played maneuver card goes into its player's score pile with the cards just won; the
  rulebooks do not say where a played maneuver goes, and every card should end in a pile.
- Reaction cards played in a round are cards in play: they go to the round's winner, or to
  the tie pool on a tie (2017 How to Play: "All cards in play ... go to your Score Pile").
- An action has no number: while another card's condition looks at it, its power is 0.
  Its own win condition, when met, makes it win (a forced win); otherwise its power is 0
  (2019 Unfulfilled condition). Modifiers do not raise a power the rules fix at 0 (actions,
  reactions and maneuvers readied normally, cards moved to the tie pool).
- Two forced results of the same priority that point different ways (each side's "you
  win") cancel into a tie.
- The 2017 rulebook has no Complex Resolutions section; we resolve its rounds by the 2019
  priorities too.
- "Leftover Cards": the remaining cards of the player who still has some go to the score
  pile of the player who ran out (the reading the card data's rulings state).
- A match of ``match_length`` 3 or 5 games ends as soon as the leader cannot be caught, or
  after ``match_length`` games; the rulebook's one "match" (2017) is one game here.
- A maneuver played in the last round has no next round to affect (the card data's
  ruling: it does nothing); its card still joins the score pile.
- First Blood goes to the first player to win a contest, even after a tied first round
  (2019 Bonus Points; Round Result speaks only of the first round), as the card data rules.
- 2017 "Ready Face Up" (Appendix I: Special Circumstances): "If a card must be readied face
  up it cannot be exchanged willingly for another card." No card in the database makes
  anyone ready face up, so the players say so at the reveal (:attr:`Reveal.face_up`, 2017
  only); the one willing exchange in the rules, the 2017 tag-in (Appendix III: the partner's
  readied card returns to their hand and the tagger's replaces it), is then refused for that
  card. A card readied by tagging in was chosen, not forced face up.

Tag team (option ``tag_team``, 4 players): seats 0 and 2 are one team, seats 1 and 3 the
other; seats 0 and 1 start ("choose 2 players to start": seat the starters first). Score
piles, the tie pool, tokens and effects belong to a team (a *side*); each player keeps a
hand. Both editions: a player out of cards hands over to their partner; the game ends when a
whole team is out of cards.

- 2019 (Appendix II): the losing team swaps active players at the end of the round, both
  teams on a tie. "Play Reactions or Maneuvers any time": any player of either team may
  play a reaction or a maneuver at any moment of a game (before the reveal, after it, after
  the round resolved). Our readings of what such a card does:

  - a reaction played before the reveal acts on that round's contest; one played after the
    reveal acts on it as in the 2-player game; one played after the round resolved acts on
    the next round's contest;
  - a maneuver never changes the round it is played in, only the next one;
  - a card played this way is a card in play of the round it acts on: it goes with that
    round's cards to the winner, to the tie pool on a tie, or (nullified) to its own side;
  - except the winner's follow-up (2019 Maneuvers), which keeps the 2-player reading: a
    maneuver played by a player of the team that won the round, once revealed, resolves the
    round if needed and goes to its player's score pile;
  - a card played for a next round that never comes (the game ends) does nothing and goes
    to its player's own score pile, as a maneuver played in the last round does.

- 2017 (Appendix III): each player has the data's Tag cards (3); the resting partner tags in
  as a reaction (event :class:`Tag`): the active partner's card goes back to their hand,
  the tagger's card replaces it, the other team scores the Tag card; once per team per
  round. Tag cards are not part of a hand: they are never readied, and unused ones score
  nothing. Only the active players play reactions and maneuvers.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import (
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from card_data.engine import (
    Choice,
    Engine,
    Event,
    FormField,
    GameState,
    Model,
    Move,
    ReadOnlyDict,
    RuleError,
    Seat,
    Words,
    replace_at,
)
from card_data.engine.wording import Said
from card_data.games.cartisora import TITLE
from card_data.games.cartisora.cards import (
    BASE_SET_CHARACTER_DECKS,
    FORCED_RESULT_PRIORITY,
    KIND_NAMES,
    BoastCard,
    CannotBeUndercut,
    Effect,
    ForcedResult,
    MoveCard,
    NumberCard,
    PowerModifier,
    SpecialCard,
    TagCard,
    TokenCard,
    WinCondition,
    WinsAgainstTies,
)

Edition = Literal["2019", "2017"]
RoundStep = Literal["draft", "pick", "ready", "react", "resolved"]
"""The game's own steps. Phase ``setup``: ``draft`` (bans and draft picks), ``pick``
(choosing decks for the next game). Phase ``play``: ``ready`` (waiting for the round's
reveal), ``react`` (revealed, reactions may follow), ``resolved`` (the round's cards have
moved, maneuvers may follow). Once the match is over the phase is ``over``."""
How = Literal["overpower", "undercut", "tie", "forced", "wins_against_ties", "nullified"]
Side = Annotated[int, Field(ge=0, le=1)]
"""A side: 0 for seat 0 (and its tag-team partner, seat 2), 1 for seat 1 (and seat 3)."""

SpecialKind = SpecialCard.model_fields["special_kind"].annotation
SPECIAL_NUMBERED, ACTION, REACTION, MANEUVER = typing.get_args(SpecialKind)
"""The special card kinds, as the card schema names them."""
CardKind = Literal["number", "boast", SpecialKind]

_PHASE_OF_STEP = {"draft": "setup", "pick": "setup", "ready": "play", "react": "play", "resolved": "play"}

DRAFT_PICK_ORDER = (0, 1, 1, 0, 0, 1)
"""Which seat makes each draft pick: the rulebook's grid numbers Player 1's picks 1, 4, 5 and
Player 2's picks 2, 3, 6 (2017 rulebook, Appendix II: Draft Mode; the 2019 text lost its grid)."""
DRAFT_BAN_ORDER = (0, 1)
"""With more than 6 decks, each player bans one, Player 1 first (2019 Appendix I: Draft Mode)."""
DRAFT_GAMES = 3
"""Draft mode plays 3 games (the rulebook's "matches"), 3 decks each (2019 Appendix I)."""

HOW_WORDS: dict[str, Words] = {
    "overpower": Words("Overpower"), "undercut": Words("Undercut"), "forced": Words("a forced result"),
    "wins_against_ties": Words("winning against a tie")}
"""How a side won, as "<side> wins by <how>" says it."""

HOW_SHORT: dict[str, Words] = {
    "overpower": Words("overpower"), "undercut": Words("undercut"), "forced": Words("forced"),
    "wins_against_ties": Words("wins against ties")}
"""How a side won, as the round log says it: "Bob wins (undercut)"."""

_SECTIONS: dict[str, tuple[Words, Words]] = {
    # topic: (2019 heading, 2017 heading)
    "players": (Words("Setup (2 players); Appendix II: Tag Team (4 players)"),
                Words("Setup (2 players); Appendix III: Tag Team (4-Player)")),
    "setup": (Words("Setup"), Words("Setup")),
    "draft": (Words("Appendix I: Draft Mode"), Words("Appendix II: Draft Mode")),
    "round": (Words("How to Play"), Words("How to Play")),
    "reactions": (Words("Reaction Cards"), Words("Reactions")),
    "maneuvers": (Words("Maneuvers"), Words("Maneuvers")),
    "tag_team": (Words("Appendix II: Tag Team"), Words("Appendix III: Tag Team (4-Player)")),
    "face_up": (Words("How to Play"), Words("Appendix I: Special Circumstances (Ready Face Up)")),
    "end": (Words("Ending the Game"), Words("Ending the Game")),
}

RULEBOOKS = Words("2019 and 2017 rulebooks")


def _rule(edition: str, topic: str, text: Words) -> Words:
    """``"<edition> rulebook, <heading>: <text>"`` for a topic of :data:`_SECTIONS`."""
    heading = _SECTIONS[topic][0 if edition == "2019" else 1]
    return Words("%(edition)s rulebook, %(section)s: %(rule)s", edition=edition, section=heading, rule=text)


def _listed(pieces: Sequence[str], separator: Literal[", ", "; "]) -> str:
    """``pieces`` (Words or names, at least one) joined by ``separator``, kept translatable:
    the one piece, or a :class:`Words` ``"<first><separator><rest>"``."""
    if len(pieces) == 1:
        return pieces[0]
    rest = _listed(pieces[1:], separator)
    if separator == "; ":
        return Words("%(first)s; %(rest)s", first=pieces[0], rest=rest)
    return Words("%(first)s, %(rest)s", first=pieces[0], rest=rest)


def _then(line: str, more: str) -> Words:
    """``"<line>; <more>"``: a history line going on."""
    return Words("%(line)s; %(more)s", line=line, more=more)


# --- Options ------------------------------------------------------------------------------


class Options(Model):
    """Table options.

    Attributes:
        edition: ``"2019"`` (default) or ``"2017"``: negative power, undercutting with 0 and
            the tag team differ (see the module docstring).
        match_length: games in the match: 1, or best of 3 or 5 (2017 rulebook, Ending the
            Game). Draft mode always plays 3: a match length left at 1 becomes 3.
        draft: draft mode (2019 Appendix I; 2017 Appendix II): 2 players draft 3 decks each
            and play them in the order picked, banning one each first if more than 6 decks exist.
        tag_team: the 4-player tag team (2019 Appendix II; 2017 Appendix III).
    Values may come as form strings (``"3"``, ``"true"``). Raises ``ValueError`` (pydantic
    ``ValidationError``) for draft mode with a match of 5.
    """

    edition: Edition = Field("2019", title=Words("Rulebook edition"),
                             description=Words("2019 (Analog Game Studios) or 2017 (Moshe-Tozer Games)"))
    match_length: Literal[1, 3, 5] = Field(1, title=Words("Games in the match"),
                                           description=Words("1, or best of 3 or 5; draft mode plays 3"))
    draft: bool = Field(False, title=Words("Draft mode"),
                        description=Words("2 players draft 3 decks each and play them in the order picked"))
    tag_team: bool = Field(False, title=Words("Tag team"),
                           description=Words("4 players in 2 teams (seats 1 & 3 against 2 & 4)"))

    @model_validator(mode="before")
    @classmethod
    def _form_values(cls, data: object) -> object:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if isinstance(data.get("match_length"), str) and data["match_length"].strip().isdigit():
            data["match_length"] = int(data["match_length"])
        try:
            draft = TypeAdapter(bool).validate_python(data.get("draft", False))
        except ValidationError:
            return data  # the field's own validation reports it
        if draft and data.get("match_length", 1) == 1:
            data["match_length"] = DRAFT_GAMES
        return data

    @model_validator(mode="after")
    def _draft_match_length(self) -> Options:
        if self.draft and self.match_length != DRAFT_GAMES:
            raise ValueError(Words("draft mode plays %(games)d games (2019 rulebook, Appendix I: "
                                   "Draft Mode), not %(length)d", games=DRAFT_GAMES, length=self.match_length))
        return self


# --- The card data a table plays with ------------------------------------------------------


class CardInfo(Model):
    """One playing card of a character deck, copied from the card data.

    ``kind``: ``"number"``, ``"boast"`` or the special card's ``special_kind``. ``power``: the
    printed power (``None`` for actions, reactions and maneuvers). ``points``: what the card
    is worth in a score pile (the boast card's ``score_points``, else 1). ``effects``: the
    card data's structured effects; ``text`` the printed effect in a few words.
    """

    id: str
    title: str
    deck: str
    kind: CardKind
    power: int | None = None
    points: int = 1
    text: Said = ""
    effects: tuple[Effect, ...] = ()

    @property
    def label(self) -> Words:
        """For people: ``"Knight 5 (5)"``, ``"Knight Boast (1) · boast"``, ``"Parry · reaction"``."""
        if self.power is None:
            return Words("%(card)s · %(kind)s", card=self.title, kind=KIND_NAMES[self.kind])
        if self.kind == "boast":
            return Words("%(card)s (%(power)d) · boast", card=self.title, power=self.power)
        return Words("%(card)s (%(power)d)", card=self.title, power=self.power)


class DeckInfo(Model):
    """A character deck: id, name and its 12 playing cards' ids in deck-list order."""

    id: str
    title: str
    cards: tuple[str, ...]


class Token(Model):
    """A bonus token from the card data (First Blood, Finisher): id, title, points (2)."""

    id: str
    title: str
    points: int


class Catalog(Model):
    """The card data a table plays with, copied once at set-up and never changed.

    ``decks`` / ``cards``: every character deck on offer for the edition and every playing
    card, by id; ``first_blood`` / ``finisher``: the bonus tokens (2019 Bonus Points);
    ``tag_card`` / ``tag_copies``: the 2017 Tag card's id and copies per player (``None`` / 0
    unless the 2017 tag team is played).
    """

    decks: ReadOnlyDict[str, DeckInfo]
    cards: ReadOnlyDict[str, CardInfo]
    first_blood: Token
    finisher: Token
    tag_card: str | None = None
    tag_copies: int = 0


# --- State --------------------------------------------------------------------------------


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


# --- Set-up -------------------------------------------------------------------------------


def _card_info(card: object, deck: str) -> CardInfo | None:
    """The engine's copy of a playing card, or ``None`` for a reference card."""
    if isinstance(card, NumberCard):
        return CardInfo(id=card.id, title=card.title, deck=deck, kind="number", power=card.power)
    if isinstance(card, BoastCard):
        return CardInfo(id=card.id, title=card.title, deck=deck, kind="boast", power=card.power,
                        points=card.score_points,
                        text=Words("Worth %(points)d points in a score pile.", points=card.score_points))
    if isinstance(card, SpecialCard):
        return CardInfo(id=card.id, title=card.title, deck=deck, kind=card.special_kind,
                        power=card.power, text=card.effect, effects=tuple(card.effects))
    return None


def set_up(players: tuple[str, ...], options: Options, game: object) -> State:
    """Set up a table: ``players`` (2, or 4 with ``tag_team``), ``options`` and the game's
    card data (``card_data.loader.Game``).

    Copies every character deck (deck lists of kind ``character`` whose cards all belong to
    the edition), the bonus tokens and the Tag card from the data. Starts in the draft, or
    with each player picking a deck (2019 Setup).
    Raises :class:`RuleError` for a wrong number of players, draft mode with tag team, or
    too few decks for the draft.
    """
    edition = options.edition
    wanted = 4 if options.tag_team else 2
    if len(players) != wanted:
        rule = _rule(edition, "players", Words("a duel is for 2 players; the tag team for 4 in 2 teams"))
        if options.tag_team:
            raise RuleError(rule, Words("%(count)d players for a tag team; it needs %(wanted)d", count=len(players),
                                        wanted=wanted))
        raise RuleError(rule, Words("%(count)d players for a duel; it needs %(wanted)d", count=len(players),
                                    wanted=wanted))
    if options.draft and options.tag_team:
        raise RuleError(_rule(edition, "draft", Words("draft mode is for 2 players")),
                        Words("draft mode cannot be combined with the tag team"))

    cards: dict[str, CardInfo] = {}
    decks: dict[str, DeckInfo] = {}
    for deck in game.decks.values():
        entries = [game.cards[e.card] for e in deck.cards if e.card in game.cards]
        if deck.kind != "character" or any(int(edition) not in c.editions for c in entries):
            continue
        ids = []
        for card in entries:
            info = _card_info(card, deck.id)
            if info is not None:
                cards[info.id] = info
                ids.append(info.id)
        decks[deck.id] = DeckInfo(id=deck.id, title=deck.title, cards=tuple(ids))

    tokens = {c.award: Token(id=c.id, title=c.title, points=c.bonus_points)
              for c in game.cards.values() if isinstance(c, TokenCard)}
    tag = next((c for c in game.cards.values() if isinstance(c, TagCard)), None)
    use_tags = options.tag_team and edition == "2017" and tag is not None

    if options.draft:
        needed = DRAFT_GAMES * 2 + (len(DRAFT_BAN_ORDER) if len(decks) > BASE_SET_CHARACTER_DECKS else 0)
        if len(decks) < needed:
            raise RuleError(_rule(edition, "draft", Words("each player drafts 3 different decks, after "
                                                        "one ban each when more than 6 decks are available")),
                            Words("%(count)d decks are available; the draft needs %(needed)d", count=len(decks),
                                  needed=needed))
    catalog = Catalog(decks=decks, cards=cards, first_blood=tokens["first_contest_win"],
                      finisher=tokens["last_contest_win"], tag_card=tag.id if use_tags else None,
                      tag_copies=tag.copies_per_player if use_tags else 0)
    step = "draft" if options.draft else "pick"
    return State(players=players, phase=_PHASE_OF_STEP[step], step=step, options=options, catalog=catalog,
                 game_decks=(None,) * len(players), hands=((),) * len(players))


ENGINE: Engine[State] = Engine(
    game_id="cartisora", title=TITLE, min_players=2, max_players=4, options=Options, state=State, setup=set_up,
    over_rule=Words("%(rulebooks)s, Ending the Game: when all cards are played the game is over, and a match "
                    "once a player has won it", rulebooks=RULEBOOKS),
    rulebook=Words("%(rulebooks)s, Setup (2 players); Tag Team (4 players)", rulebooks=RULEBOOKS))


def _at(state: State, step: str, **changes: object) -> State:
    """``state`` at ``step`` (and the phase it belongs to), with ``changes``."""
    return state.evolve(step=step, phase=_PHASE_OF_STEP[step], **changes)


def _start_game(state: State, decks: Sequence[str]) -> State:
    """The state at round 1 of a new game with ``decks[seat]`` as each seat's hand."""
    return _at(state, "ready", game_decks=tuple(decks), hands=tuple(state.catalog.decks[d].cards for d in decks),
               active=(0, 1), round=1, readied=(), face_up=(False, False), reactions=(), maneuvers=(),
               carried=(), next_cards=(), contest=None, modifiers=(), next_modifiers=(), score_piles=((), ()),
               tie_pool=(), uncounted=(), first_blood_side=None, finisher_side=None,
               tags_left=(state.catalog.tag_copies,) * len(state.players) if state.catalog.tag_card else (),
               tagged=(False, False), round_log=())


# --- The contest --------------------------------------------------------------------------


def _target(player: str, side: int) -> int:
    """The side an effect of ``side``'s card concerns ("you" or "opponent")."""
    return side if player == "you" else 1 - side


def _compare(powers: list[int], cannot_undercut: list[str | None], edition: str) -> tuple[int | None, How, list[str]]:
    """Overpower, undercut or tie (2019 How to Play; Negative Power; 2017 Appendix I).

    ``cannot_undercut[side]`` names a card of that side that cannot be undercut, if any.
    Returns ``(winning side or None, how, notes)``.
    """
    if edition == "2017" and powers[0] <= 0 and powers[1] <= 0:
        return None, "nullified", [Words("both powers are 0 or less: the round is nullified (2017)")]
    if powers[0] == powers[1]:
        return None, "tie", []
    high = 0 if powers[0] > powers[1] else 1
    low = 1 - high
    if powers[high] - powers[low] >= 2:
        return high, "overpower", []
    # "Cannot" beats "can": these stop the exactly-1-lower card's undercut.
    if edition == "2019" and powers[low] == 0:
        return high, "overpower", [Words("0 cannot undercut")]
    if cannot_undercut[high]:
        return high, "overpower", [Words("%(card)s cannot be undercut", card=cannot_undercut[high])]
    return low, "undercut", []


ActingEffect = tuple[int, CardInfo, Effect]
"""An effect acting this round: the side whose card it is, the card, the effect."""


def _moved_and_acting(state: State, readied: list[CardInfo], notes: list[str]) -> tuple[list[bool], list[ActingEffect]]:
    """Moves first (2019 Complex Resolutions: effects that move or play cards occur before any
    other). Returns which sides' readied cards were moved to the tie pool and the
    ``(side, card, effect)`` of every effect that then acts: those of readied special numbered
    cards and actions not moved, and of reactions. A reaction or maneuver readied normally
    has no effect (2019 Reaction or Maneuvers played normally)."""
    sources: list[tuple[int, CardInfo, bool]] = []  # (side, card, readied?)
    for side, card in enumerate(readied):
        if card.kind in (SPECIAL_NUMBERED, ACTION):
            sources.append((side, card, True))
        elif card.kind in (REACTION, MANEUVER):
            notes.append(Words("%(card)s was readied normally: power 0, no effect", card=card.title))
    sources += [(state.side_of(p.seat), state.catalog.cards[p.card], False) for p in state.reactions]
    moved = [False, False]
    for side, card, _ in sources:
        for effect in card.effects:
            if isinstance(effect, MoveCard):
                target = _target(effect.player, side)
                moved[target] = True
                notes.append(Words("%(card)s moves %(target)s to the tie pool: its effect does not occur, power 0",
                                   card=card.title, target=readied[target].title))
    effects = [(side, card, e) for side, card, is_readied in sources if not (is_readied and moved[side])
               for e in card.effects]
    return moved, effects


def _powers(state: State, readied: list[CardInfo], moved: list[bool],
            effects: list[ActingEffect], notes: list[str]) -> list[int | None]:
    """Each side's power: printed power plus this round's modifiers and those carried from
    last round, never below 0 in 2019 (Negative Power). Fixed at 0 for a moved card and a
    reaction or maneuver readied normally; ``None`` for an action (no number)."""
    change = [0, 0]
    for side, _, effect in effects:
        if isinstance(effect, PowerModifier) and effect.round == "this":
            change[_target(effect.player, side)] += effect.amount
    for modifier in state.modifiers:
        change[modifier.side] += modifier.amount
    powers: list[int | None] = [None, None]
    for side, card in enumerate(readied):
        if moved[side] or card.kind in (REACTION, MANEUVER):
            powers[side] = 0
        elif card.kind != ACTION:
            power = card.power + change[side]
            if state.options.edition == "2019" and power < 0:
                notes.append(Words("%(card)s's power cannot fall below 0", card=card.title))
                power = 0
            powers[side] = power
    return powers


def _action_claims(readied: list[CardInfo], powers: list[int | None], notes: list[str]) -> list[tuple[str, int, str]]:
    """A readied action whose win condition is met claims a win (2019 Special Cards); one
    whose condition is unfulfilled has power 0 (2019 Unfulfilled condition). An action has
    no number, so to the other card's condition it counts as 0. Returns
    ``(result, side, card title)`` claims."""
    claims = []
    for side, card in enumerate(readied):
        if powers[side] is not None:
            continue
        conditions = [e for e in card.effects if isinstance(e, WinCondition)]
        opposing = powers[1 - side] or 0
        if any((c.opponent_power_min is None or opposing >= c.opponent_power_min)
               and (c.opponent_power_max is None or opposing <= c.opponent_power_max) for c in conditions):
            claims.append(("win", side, card.title))
            notes.append(Words("%(card)s's win condition is met", card=card.title))
        elif conditions:
            notes.append(Words("%(card)s's win condition is unfulfilled: power 0", card=card.title))
    return claims


def _settle_claims(state: State, claims: list[tuple[str, int, str]], notes: list[str]) -> int | None:
    """The winning side (``None``: a tie) when effects force results: a loss beats a tie beats
    a win (2019 Complex Resolutions). Claims of the top priority pointing different ways
    (each side's "you win") cancel into a tie (our reading)."""
    first = min(FORCED_RESULT_PRIORITY.index(result) for result, _, _ in claims)
    top = [c for c in claims if FORCED_RESULT_PRIORITY.index(c[0]) == first]
    outcomes = {None if result == "tie" else side if result == "win" else 1 - side for result, side, _ in top}
    for result, side, title in top:
        if result == "tie":
            notes.append(Words("%(card)s forces a tie", card=title))
        elif result == "win":
            notes.append(Words("%(card)s forces a win for %(side)s", card=title, side=state.side_name(side)))
        else:
            notes.append(Words("%(card)s forces a loss for %(side)s", card=title, side=state.side_name(side)))
    overruled = sorted({title for result, _, title in claims if FORCED_RESULT_PRIORITY.index(result) != first})
    if overruled:
        cards = ", ".join(overruled)  # card titles: names in every language
        beats = {"lose": Words("a loss beats %(cards)s: loss beats tie beats win", cards=cards),
                 "tie": Words("a tie beats %(cards)s: loss beats tie beats win", cards=cards),
                 "win": Words("a win beats %(cards)s: loss beats tie beats win", cards=cards)}
        notes.append(beats[FORCED_RESULT_PRIORITY[first]])
    if len(outcomes) > 1:
        notes.append(Words("these forced results point different ways: a tie"))
        return None
    return next(iter(outcomes))


def _judge(state: State) -> Contest:
    """Work out the round's contest from the readied cards, reactions and carried modifiers.

    Order (2019 Complex Resolutions; play order never matters, only effect priority): moves
    first (:func:`_moved_and_acting`); powers (:func:`_powers`); action win conditions and
    forced results (:func:`_settle_claims`: a loss beats a tie beats a win); the power
    comparison (:func:`_compare`) when nothing is forced; last, "wins against ties" turns a
    tie, forced or not, into a win for the one side that has it (Brutal Strike vs Parry).
    """
    readied = [state.catalog.cards[c] for c in state.readied]
    notes: list[str] = []
    moved, effects = _moved_and_acting(state, readied, notes)
    powers = _powers(state, readied, moved, effects, notes)
    claims = _action_claims(readied, powers, notes)
    claims += [(e.result, _target(e.player, side), card.title)
               for side, card, e in effects if isinstance(e, ForcedResult)]
    final_powers = [p or 0 for p in powers]

    def titled(kind: type, side: int) -> str | None:
        return next((c.title for s, c, e in effects if s == side and isinstance(e, kind)), None)

    if claims:
        winner, how = _settle_claims(state, claims, notes), "forced"
    else:
        cannot = [titled(CannotBeUndercut, side) for side in (0, 1)]
        winner, how, compare_notes = _compare(final_powers, cannot, state.options.edition)
        notes += compare_notes
    if winner is None and how != "nullified":
        breakers = [titled(WinsAgainstTies, side) for side in (0, 1)]
        if (breakers[0] is None) != (breakers[1] is None):
            winner = 0 if breakers[0] else 1
            how = "wins_against_ties"
            notes.append(Words("%(card)s wins against ties", card=breakers[winner]))

    next_round = tuple(Modifier(side=_target(e.player, side), amount=e.amount, source=card.title)
                       for side, card, e in effects if isinstance(e, PowerModifier) and e.round == "next")
    return Contest(round=state.round, seats=state.active, cards=state.readied, powers=tuple(final_powers),
                   winner=winner, how=how, moved=tuple(moved), next_round=next_round, notes=tuple(notes))


def _resolve(state: State) -> State:
    """Move the round's cards (2019 Round Result; 2017 How to Play, Appendix I Negative Power).

    Moved cards go to the tie pool first. Won: the winner takes the cards in play (readied,
    reaction and carried cards) and the tie pool, and First Blood if nobody has it. Tie: the
    cards in play join the tie pool. Nullified (2017): each side's cards in play go to its
    own score pile (reactions too: our reading).
    """
    contest = state.contest
    tie_pool = list(state.tie_pool) + [c for side, c in enumerate(contest.cards) if contest.moved[side]]
    in_play = [[c for side, c in enumerate(contest.cards) if side == s and not contest.moved[side]]
               + [p.card for p in (*state.reactions, *state.carried) if state.side_of(p.seat) == s] for s in (0, 1)]
    piles = [list(p) for p in state.score_piles]
    first_blood = state.first_blood_side
    if contest.how == "nullified":
        for side in (0, 1):
            piles[side] += in_play[side]
    elif contest.winner is None:
        tie_pool += in_play[0] + in_play[1]
    else:
        piles[contest.winner] += in_play[0] + in_play[1] + tie_pool
        tie_pool = []
        if first_blood is None:
            first_blood = contest.winner
    return _at(state, "resolved", score_piles=piles, tie_pool=tie_pool, first_blood_side=first_blood,
               next_modifiers=(*state.next_modifiers, *contest.next_round))


def _end_game(state: State, out: list[bool]) -> State:
    """End the game after the last round (2019 Ending the Game; Leftover Cards; Bonus Points;
    Tie on Last Round). The last contest's winner takes the Finisher; if it tied (or, 2017,
    was nullified) nobody does and the tie pool is not counted. Cards played for a next round
    that never comes go to their own side's pile (our reading). If one side ran out first,
    the other side's remaining cards go to the score pile of the side that ran out. Then
    the match score is updated and the match ends or the next game is set up.
    """
    contest = state.contest
    piles = [list(p) for p in state.score_piles]
    for played in state.next_cards:
        piles[state.side_of(played.seat)].append(played.card)
    leftover_to = None
    leftover: list[str] = []
    if out[0] != out[1]:
        leftover_to = 0 if out[0] else 1
        leftover = [c for s in state.seats_of(1 - leftover_to) for c in state.hands[s]]
        piles[leftover_to] += leftover
    ended = state.evolve(score_piles=piles, finisher_side=contest.winner, tie_pool=(), uncounted=state.tie_pool,
                         hands=((),) * len(state.hands), readied=(), face_up=(False, False), reactions=(),
                         maneuvers=(), carried=(), next_cards=(), modifiers=(), next_modifiers=())
    scores = (ended.score(0), ended.score(1))
    winner = None if scores[0].total == scores[1].total else (0 if scores[0].total > scores[1].total else 1)
    games_won = list(state.games_won)
    if winner is not None:
        games_won[winner] += 1
    result = GameResult(game=state.game, decks=state.game_decks, scores=scores, winner=winner,
                        leftover=len(leftover), leftover_to=leftover_to if leftover else None,
                        rounds=len(state.round_log))
    ended = ended.evolve(results=(*state.results, result), games_won=games_won)
    remaining = state.options.match_length - state.game
    if remaining == 0 or abs(games_won[0] - games_won[1]) > remaining:
        return ended.evolve(phase="over")
    ended = ended.evolve(game=state.game + 1)
    if state.options.draft:
        return _start_game(ended, _draft_decks(ended, ended.game))
    return _at(ended, "pick", game_decks=(None,) * len(state.players))


def _draft_decks(state: State, game: int) -> list[str]:
    """Each seat's deck for a draft game: decks are played in the order picked."""
    return [state.drafted(seat)[game - 1] for seat in range(len(state.players))]


# --- Shared checks and words ---------------------------------------------------------------


def _check_in_hand(state: State, seat: int, card_id: str, topic: str) -> CardInfo:
    """The card, if it is in the seat's hand; else a :class:`RuleError` saying whether it was
    already played or is not in the seat's deck at all."""
    edition = state.options.edition
    name = state.players[seat]
    deck = state.catalog.decks[state.game_decks[seat]]
    rule = _rule(edition, topic, Words("a player plays only cards still in their hand, from their own character "
                                       "deck"))
    if card_id not in deck.cards:
        raise RuleError(rule, Words("'%(card)s' is not a card of %(player)s's deck (%(deck)s)", card=card_id,
                                    player=name, deck=deck.title))
    card = state.catalog.cards[card_id]
    if card_id not in state.hands[seat]:
        raise RuleError(rule, Words("%(card)s was already played: it is not in %(player)s's hand", card=card.title,
                                    player=name))
    return card


def _without(hand: tuple[str, ...], card_id: str) -> tuple[str, ...]:
    return tuple(c for c in hand if c != card_id)


def _contest_line(state: State, contest: Contest) -> Words:
    """E.g. "Bob wins by Undercut (Ann 5, Bob 4)" or "tie (Ann 3, Bob 3): cards to the tie pool"."""
    # Names and numbers only: the same in every language.
    powers = ", ".join(f"{state.side_name(side)} {contest.powers[side]}" for side in (0, 1))
    if contest.how == "nullified":
        return Words("nullified (%(powers)s): each card to its own score pile", powers=powers)
    if contest.winner is None:
        if contest.how == "forced":
            return Words("forced tie (%(powers)s): cards to the tie pool", powers=powers)
        return Words("tie (%(powers)s): cards to the tie pool", powers=powers)
    return Words("%(wins)s by %(how)s (%(powers)s)", wins=state.side_wins(contest.winner), how=HOW_WORDS[contest.how],
                 powers=powers)


def _with_notes(line: str, contest: Contest) -> str:
    """``"<line> [<note>; <note>]"``, or the line alone when the contest has no notes."""
    if not contest.notes:
        return line
    return Words("%(line)s [%(notes)s]", line=line, notes=_listed(contest.notes, "; "))


def _with_first_blood(state: State, line: str) -> str:
    """``line`` + ``"; Ann takes First Blood"`` if resolving the round now gives its winner the token."""
    winner = state.contest.winner if state.contest and state.contest.how != "nullified" else None
    if winner is None or state.first_blood_side is not None:
        return line
    return _then(line, Words("%(side)s takes %(token)s", side=state.side_name(winner),
                             token=state.catalog.first_blood.title))


def _card_choices(state: State, cards: Sequence[str], owner: bool = False) -> list[Choice]:
    """The cards as form choices, the printed effect (or, with ``owner``, the holder) as the note."""
    holder = {c: state.players[s] for s, hand in enumerate(state.hands) for c in hand}
    return [Choice(c, state.card_label(c), holder.get(c, "") if owner else state.catalog.cards[c].text) for c in cards]


def _deck_choices(state: State) -> list[Choice]:
    """The decks still open, by name."""
    return [Choice(d, state.catalog.decks[d].title) for d in state.decks_open()]


# --- Events -------------------------------------------------------------------------------


class CartisoraEvent(Event):
    """Base of the Duels of Cartisora events."""


class PlayCard(CartisoraEvent):
    """Base of the events that play a card of one kind from a player's hand."""

    card_kind: typing.ClassVar[str]
    """The kind of card played (:data:`REACTION`, :data:`MANEUVER`)."""


def _draft(state: State, seat: int, deck: str, action: str) -> State:
    """A draft ban or pick (2019 Appendix I: Draft Mode; 2017 Appendix II)."""
    edition = state.options.edition
    turn = state.draft_turn()
    if turn is None:
        raise RuleError(_rule(edition, "draft", Words("decks are banned and drafted before the first game")),
                        Words("the draft is over") if state.options.draft
                        else Words("this table does not use draft mode"))
    step, turn_seat = turn
    if step != action:
        raise RuleError(_rule(edition, "draft", Words("with more than 6 decks each player bans one deck before "
                                                    "selection starts; with 6 there are no bans")),
                        Words("it is time to ban a deck, not to pick one") if step == "ban"
                        else Words("it is time to pick a deck, not to ban one"))
    if seat != turn_seat:
        rule = _rule(edition, "draft", Words("bans start with Player 1; picks go in the order 1-2-2-1-1-2"))
        if step == "ban":
            raise RuleError(rule, Words("the next ban is %(player)s's, not %(other)s's",
                                        player=state.players[turn_seat], other=state.players[seat]))
        raise RuleError(rule, Words("the next pick %(pick)d is %(player)s's, not %(other)s's",
                                    pick=len(state.picks) + 1, player=state.players[turn_seat],
                                    other=state.players[seat]))
    if deck not in state.catalog.decks:
        raise RuleError(_rule(edition, "draft", Words("the decks are the character decks available")),
                        Words("there is no character deck '%(deck)s' (decks: %(decks)s)", deck=deck,
                              decks=", ".join(state.catalog.decks)))
    if deck not in state.decks_open():
        raise RuleError(_rule(edition, "draft", Words("each deck is banned or picked at most once; "
                                                    "each player plays 3 different decks")),
                        Words("%(deck)s is already banned or picked", deck=state.catalog.decks[deck].title))
    entry = Pick(seat=seat, deck=deck)
    if action == "ban":
        return state.evolve(bans=(*state.bans, entry))
    state = state.evolve(picks=(*state.picks, entry))
    if len(state.picks) == len(DRAFT_PICK_ORDER):
        return _start_game(state, _draft_decks(state, 1))
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
            return [cls.offer(state, seat=turn, deck=_deck_choices(state),
                              label=Words("%(player)s drafts (pick %(pick)d of %(picks)d)", player=state.players[turn],
                                          pick=len(state.picks) + 1, picks=state.draft_picks))]
        if state.step != "pick":
            return []
        return [cls.offer(state, seat=s, deck=_deck_choices(state),
                          label=Words("%(player)s takes a deck", player=state.players[s]))
                for s, deck in enumerate(state.game_decks) if deck is None]

    def apply(self, state: State) -> State:
        edition = state.options.edition
        name = state.players[self.seat]
        if state.step == "draft":
            return _draft(state, self.seat, self.deck, "pick")
        if state.step != "pick":
            raise RuleError(_rule(edition, "setup", Words("each player takes a deck before the game starts")),
                            Words("game %(game)d is under way; decks are picked before a game", game=state.game))
        if state.game_decks[self.seat] is not None:
            raise RuleError(_rule(edition, "setup", Words("each player takes 1 deck as their hand")),
                            Words("%(player)s already took %(deck)s", player=name,
                                  deck=state.catalog.decks[state.game_decks[self.seat]].title))
        if self.deck not in state.catalog.decks:
            raise RuleError(_rule(edition, "setup", Words("the decks are the character decks of the set")),
                            Words("there is no character deck '%(deck)s' (decks: %(decks)s)", deck=self.deck,
                                  decks=", ".join(state.catalog.decks)))
        taken_by = [s for s, d in enumerate(state.game_decks) if d == self.deck]
        if taken_by:
            raise RuleError(_rule(edition, "setup", Words("each player takes their own deck; the set holds one of "
                                                        "each")),
                            Words("%(player)s already took %(deck)s", player=state.players[taken_by[0]],
                                  deck=state.catalog.decks[self.deck].title))
        decks = replace_at(state.game_decks, self.seat, self.deck)
        if all(decks):
            return _start_game(state, decks)
        return state.evolve(game_decks=decks)

    def describe(self, before: State, after: State) -> str:
        player, deck = before.players[self.seat], before.catalog.decks[self.deck].title
        if before.step == "draft":
            line = Words("%(player)s drafted (pick %(pick)d) %(deck)s", player=player, pick=len(before.picks) + 1,
                         deck=deck)
        else:
            line = Words("%(player)s took %(deck)s", player=player, deck=deck)
        if after.step == "ready":
            return _then(line, Words("game %(game)d begins", game=after.game))
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
        return [cls.offer(state, seat=turn[1], deck=_deck_choices(state),
                          label=Words("%(player)s bans a deck", player=state.players[turn[1]]))]

    def apply(self, state: State) -> State:
        return _draft(state, self.seat, self.deck, "ban")

    def describe(self, before: State, after: State) -> str:
        return Words("%(player)s banned %(deck)s", player=before.players[self.seat],
                     deck=before.catalog.decks[self.deck].title)


@ENGINE.event
class Reveal(CartisoraEvent):
    """Both readied cards, revealed together (2019 How to Play): ``cards[side]`` is the card
    of that side's active player (seat order in a 2-player game), from their hand.

    ``face_up`` (2017 only; Appendix I: Special Circumstances, Ready Face Up): the sides whose
    card an effect made its player ready face up; such a card cannot be exchanged willingly
    (the 2017 tag-in refuses it).
    """

    label = Words("Reveal the readied cards")
    cards: Annotated[tuple[str, ...], Field(min_length=2, max_length=2, title=Words("Readied cards"),
                                            description=Words("each side's readied card, in seat order"))]
    face_up: Annotated[tuple[Side, ...], Field(max_length=2, title=Words("Readied face up (2017)"),
                                               description=Words("cards an effect made their players ready face "
                                                                 "up: they cannot be exchanged willingly"))] = ()

    @field_validator("face_up")
    @classmethod
    def _each_side_once(cls, sides: tuple[int, ...]) -> tuple[int, ...]:
        if len(set(sides)) != len(sides):
            raise ValueError(Words("name each side at most once"))
        return tuple(sorted(sides))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "ready":
            return []
        seats = state.active
        cards = FormField(name="cards", label=cls.model_fields["cards"].title, kind="multi", count=len(seats),
                          item_labels=tuple(Words("%(player)s revealed", player=state.players[s]) for s in seats),
                          item_choices=tuple(tuple(_card_choices(state, state.hands[s])) for s in seats))
        label = Words("Reveal round %(round)d", round=state.round)
        if state.options.edition != "2017":  # Ready Face Up is a 2017 rule: nothing to ask in 2019
            return [cls.offer(state, label=label, cards=cards, face_up=())]
        info = cls.model_fields["face_up"]
        face_up = FormField(name="face_up", label=info.title, kind="multi", required=False, default=(),
                            help=info.description,
                            choices=tuple(Choice(side, Words("%(player)s's card", player=state.players[s]))
                                          for side, s in enumerate(seats)))
        return [cls.offer(state, label=label, cards=cards, face_up=face_up)]

    def apply(self, state: State) -> State:
        edition = state.options.edition
        if state.step in ("react", "resolved"):
            raise RuleError(_rule(edition, "round", Words("each round both players ready one card and reveal it")),
                            Words("round %(round)d's cards are already revealed; go on to the next round",
                                  round=state.round))
        if state.step != "ready":
            raise RuleError(_rule(edition, "setup", Words("each player takes a deck before the first round")),
                            Words("the decks are not picked yet"))
        if self.face_up and edition != "2017":
            raise RuleError(_rule(edition, "face_up", Words("both players ready a card face down (Ready Face Up is "
                                                          "a 2017 rule: 2017 rulebook, Appendix I: Special "
                                                          "Circumstances)")),
                            Words("no card is readied face up in the 2019 rules"))
        hands = list(state.hands)
        for side, card_id in enumerate(self.cards):
            seat = state.active[side]
            _check_in_hand(state, seat, card_id, "round")
            hands[seat] = _without(hands[seat], card_id)
        revealed = _at(state, "react", hands=hands, readied=self.cards,
                       face_up=tuple(side in self.face_up for side in (0, 1)))
        return revealed.evolve(contest=_judge(revealed))

    def describe(self, before: State, after: State) -> str:
        shown = []
        for side, c in enumerate(self.cards):
            player, card = before.players[before.active[side]], before.catalog.cards[c].title
            shown.append(Words("%(player)s revealed %(card)s (readied face up)", player=player, card=card)
                         if side in self.face_up else Words("%(player)s revealed %(card)s", player=player, card=card))
        line = Words("Round %(round)d: %(shown)s – %(result)s", round=before.round,
                     shown=_listed(shown, ", "), result=_contest_line(after, after.contest))
        return _with_notes(line, after.contest)


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
            moves.append(cls.offer(state, seat=s, label=label, card=_card_choices(state, cards)))
        return moves

    def apply(self, state: State) -> State:
        edition = state.options.edition
        if state.plays_any_time:
            rule = _rule(edition, "tag_team", Words("play reactions or maneuvers any time"))
            if state.phase != "play":
                raise RuleError(rule, Words("no round is under way"))
        else:
            rule = _rule(edition, "reactions", Words("reactions are played after both readied cards are revealed "
                                                   "and before the round is resolved"))
            if state.step == "ready":
                raise RuleError(rule, Words("round %(round)d's cards are not revealed yet", round=state.round))
            if state.step == "resolved":
                raise RuleError(rule, Words("round %(round)d is already resolved (a maneuver was played)",
                                            round=state.round))
            if state.step != "react":
                raise RuleError(rule, Words("no round is under way"))
            if not state.may_react(self.seat):
                raise RuleError(_rule(edition, "reactions", Words("the duelling players play the reactions (2017 "
                                                                "tag team: the resting partner joins in only by "
                                                                "tagging in)")),
                                Words("%(player)s is not in this round's duel", player=state.players[self.seat]))
        card = _check_in_hand(state, self.seat, self.card, "reactions")
        if card.kind != REACTION:
            raise RuleError(rule, Words("%(card)s is not a reaction card; only reactions are played after the reveal",
                                        card=card.title))
        played = Played(seat=self.seat, card=self.card)
        hands = replace_at(state.hands, self.seat, _without(state.hands[self.seat], self.card))
        if state.step == "resolved":  # 2019 tag team: it acts on the next round
            return state.evolve(hands=hands, next_cards=(*state.next_cards, played))
        reacted = state.evolve(hands=hands, reactions=(*state.reactions, played))
        return reacted.evolve(contest=_judge(reacted)) if state.step == "react" else reacted

    def describe(self, before: State, after: State) -> str:
        player, card = before.players[self.seat], before.catalog.cards[self.card].title
        if before.step == "ready":
            return Words("%(player)s played %(card)s (reaction) before the reveal: it acts on round %(round)d's "
                         "contest", player=player, card=card, round=before.round)
        if before.step == "resolved":
            return Words("%(player)s played %(card)s (reaction) after round %(round)d resolved: it acts on round "
                         "%(next)d's contest", player=player, card=card, round=before.round, next=before.round + 1)
        return _with_notes(Words("%(player)s played %(card)s (reaction): now %(result)s", player=player, card=card,
                                 result=_contest_line(after, after.contest)), after.contest)


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
        return [cls.offer(state, seat=s, card=_card_choices(state, state.hands[s]),
                          label=Words("%(player)s tags in for %(partner)s", player=state.players[s],
                                      partner=state.players[state.active[state.side_of(s)]]))
                for s in range(len(state.players)) if state.can_tag(s) and state.hands[s]]

    def apply(self, state: State) -> State:
        edition = state.options.edition
        rule = _rule(edition, "tag_team", Words("the resting partner tags in as a reaction with a Tag card (3 each), "
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
            raise RuleError(_rule(edition, "face_up", Words("if a card must be readied face up it cannot be "
                                                          "exchanged willingly for another card")),
                            Words("%(player)s's %(card)s was readied face up: tagging in cannot exchange it",
                                  player=state.players[partner], card=state.catalog.cards[returned].title))
        _check_in_hand(state, self.seat, self.card, "tag_team")
        order = state.catalog.decks[state.game_decks[partner]].cards
        hands = replace_at(state.hands, self.seat, _without(state.hands[self.seat], self.card))
        hands = replace_at(hands, partner, tuple(c for c in order if c in state.hands[partner] or c == returned))
        piles = replace_at(state.score_piles, 1 - side, (*state.score_piles[1 - side], state.catalog.tag_card))
        tagged = state.evolve(hands=hands, readied=replace_at(state.readied, side, self.card),
                              active=replace_at(state.active, side, self.seat),
                              tags_left=replace_at(state.tags_left, self.seat, state.tags_left[self.seat] - 1),
                              tagged=replace_at(state.tagged, side, True), score_piles=piles)
        return tagged.evolve(contest=_judge(tagged))

    def describe(self, before: State, after: State) -> str:
        side = before.side_of(self.seat)
        return Words("%(player)s tagged in for %(partner)s with %(card)s; %(side)s scores the Tag card – now "
                     "%(result)s", player=before.players[self.seat], partner=before.players[before.active[side]],
                     card=before.catalog.cards[self.card].title, side=before.side_name(1 - side),
                     result=_contest_line(after, after.contest))


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
            moves.append(cls.offer(state, seat=s, label=label, hint=note, card=_card_choices(state, cards)))
        return moves

    def apply(self, state: State) -> State:
        edition = state.options.edition
        follow_up = self.seat in state.follow_up_seats()
        rule = _rule(edition, "maneuvers", Words("a maneuver is played by the winner after winning a round; "
                                               "it affects only the next round"))
        if state.plays_any_time and not follow_up:
            rule = _rule(edition, "tag_team", Words("play reactions or maneuvers any time"))
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
        card = _check_in_hand(state, self.seat, self.card, "maneuvers")
        if card.kind != MANEUVER:
            raise RuleError(rule, Words("%(card)s is not a maneuver card", card=card.title))
        side = state.side_of(self.seat)
        # Maneuvers never change the round they are played in, whatever round their effect names.
        carried = tuple(Modifier(side=_target(e.player, side), amount=e.amount, source=card.title)
                        for e in card.effects if isinstance(e, PowerModifier))
        played = Played(seat=self.seat, card=self.card)
        hands = replace_at(state.hands, self.seat, _without(state.hands[self.seat], self.card))
        if not follow_up:  # 2019 tag team, any time: a card in play of the next round
            return state.evolve(hands=hands, maneuvers=(*state.maneuvers, played),
                                next_cards=(*state.next_cards, played),
                                next_modifiers=(*state.next_modifiers, *carried))
        if state.step == "react":
            state = _resolve(state)
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
                         result=_with_first_blood(before, _contest_line(before, before.contest)))
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
            raise RuleError(_rule(edition, "round", Words("a round ends after both cards are revealed and resolved")),
                            Words("round %(round)d's cards are not revealed yet", round=state.round)
                            if state.step == "ready" else Words("no round is under way"))
        if state.step == "react":
            state = _resolve(state)
        contest = state.contest
        active = list(state.active)
        if state.options.tag_team:
            if edition == "2019" and contest.how != "nullified":
                for side in (s for s in (0, 1) if s != contest.winner):
                    partner = active[side] + 2 if active[side] < 2 else active[side] - 2
                    if state.hands[partner]:
                        active[side] = partner
            for side in (0, 1):  # a player out of cards hands over to their partner
                if not state.hands[active[side]]:
                    active[side] = next((s for s in state.seats_of(side) if state.hands[s]), active[side])
        state = state.evolve(active=active, round_log=(*state.round_log, contest))
        out = [not any(state.hands[s] for s in state.seats_of(side)) for side in (0, 1)]
        if any(out):
            return _end_game(state, out)
        return _at(state, "ready", round=state.round + 1, readied=(), face_up=(False, False),
                   reactions=tuple(p for p in state.next_cards if state.catalog.cards[p.card].kind == REACTION),
                   carried=tuple(p for p in state.next_cards if state.catalog.cards[p.card].kind != REACTION),
                   maneuvers=(), next_cards=(), contest=None, modifiers=state.next_modifiers, next_modifiers=(),
                   tagged=(False, False))

    def describe(self, before: State, after: State) -> str:
        if before.step == "react":
            line = Words("Round %(round)d resolved: %(result)s", round=before.round,
                         result=_with_first_blood(before, _contest_line(before, before.contest)))
        else:  # an earlier maneuver resolved it
            line = Words("Round %(round)d over", round=before.round)
        if len(after.results) > len(before.results):
            result = after.results[-1]
            if before.next_cards:
                # Card titles: names in every language.
                titles = ", ".join(before.catalog.cards[p.card].title for p in before.next_cards)
                line = _then(line, Words("no next round for %(cards)s: to their players' own score piles",
                                         cards=titles))
            if result.leftover:
                side = before.side_name(result.leftover_to)
                line = _then(line, Words("%(count)d leftover card goes to %(side)s", count=result.leftover, side=side)
                             if result.leftover == 1 else
                             Words("%(count)d leftover cards go to %(side)s", count=result.leftover, side=side))
            # Names and numbers only: the same in every language.
            scores = " – ".join(f"{before.side_name(s)} {result.scores[s].total}" for s in (0, 1))
            line = Words("%(line)s. Game %(game)d over: %(scores)s", line=line, game=result.game, scores=scores)
            if after.finished:
                line = Words("%(line)s. %(summary)s", line=line, summary=after.summary())
        elif after.step == "ready":
            line = _then(line, Words("round %(round)d begins", round=after.round))
        return line
