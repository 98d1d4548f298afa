"""Duels of Cartisora scorekeeper: decks, rounds, reactions, maneuvers, score piles, matches.

Rulebooks: ``duels-of-cartisora-2019.txt`` (Analog Game Studios, the default edition) and
``duels-of-cartisora-2017.txt`` (Moshe-Tozer Games); option ``edition`` picks one. Each
round the players enter what happened at the table:

1. ``reveal``: both readied cards, taken from the cards left in each hand (2019 How to Play).
2. ``reaction`` (any number, optional): a reaction card played after the reveal and before
   the round resolves (2019 Reaction Cards). The contest result is worked out again after
   each one and shown as it stands.
3. ``maneuver`` (optional): played by the round's winner once the round has resolved; it
   changes only the next round (2019 Maneuvers). The first maneuver resolves the round.
4. ``next_round``: resolves the round if no maneuver did, moves the cards (score pile or tie
   pool), and starts the next round, or ends the game when a player has run out of cards.

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
- 2017 "Ready Face Up": a card an effect makes a player ready face up cannot be swapped
  willingly. No card in the database makes anyone ready face up, so nothing is enforced.

Tag team (option ``tag_team``, 4 players): seats 0 and 2 are one team, seats 1 and 3 the
other; seats 0 and 1 start ("choose 2 players to start": seat the starters first). Score
piles, the tie pool, tokens and effects belong to a team (a *side*); each player keeps a
hand. 2019 (Appendix II): the losing team swaps active players at the end of the round,
both teams on a tie; either player of a team may play reactions and maneuvers (our reading
of "any time"). 2017 (Appendix III): each player has the data's Tag cards (3); the resting
partner tags in as a reaction (event ``tag``): the active partner's card goes back to their
hand, the tagger's card replaces it, the other team scores the Tag card; once per team per
round. Tag cards are not part of a hand: they are never readied, and unused ones score
nothing. Both editions: a player out of cards hands over to their partner; the game ends
when a whole team is out of cards.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter, ValidationError, model_validator

from card_data.engine import RuleError
from card_data.engine.legacy import LegacyEngine as Engine
from card_data.engine.legacy import Model, Outcome
from card_data.games.cartisora.cards import (
    BASE_SET_CHARACTER_DECKS,
    FORCED_RESULT_PRIORITY,
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
Phase = Literal["draft", "pick", "ready", "react", "resolved", "over"]
"""``draft``: bans and draft picks; ``pick``: choosing decks for the next game; ``ready``:
waiting for the round's reveal; ``react``: revealed, reactions may follow; ``resolved``:
the round's cards have moved, maneuvers may follow; ``over``: the match has ended."""
How = Literal["overpower", "undercut", "tie", "forced", "wins_against_ties", "nullified"]

DRAFT_PICK_ORDER = (0, 1, 1, 0, 0, 1)
"""Which seat makes each draft pick: the rulebook's grid numbers Player 1's picks 1, 4, 5 and
Player 2's picks 2, 3, 6 (2017 rulebook, Appendix II: Draft Mode; the 2019 text lost its grid)."""
DRAFT_BAN_ORDER = (0, 1)
"""With more than 6 decks, each player bans one, Player 1 first (2019 Appendix I: Draft Mode)."""
DRAFT_GAMES = 3
"""Draft mode plays 3 games (the rulebook's "matches"), 3 decks each (2019 Appendix I)."""

_SECTIONS: dict[str, tuple[str, str]] = {
    # topic: (2019 heading, 2017 heading)
    "players": ("Setup (2 players); Appendix II: Tag Team (4 players)",
                "Setup (2 players); Appendix III: Tag Team (4-Player)"),
    "setup": ("Setup", "Setup"),
    "draft": ("Appendix I: Draft Mode", "Appendix II: Draft Mode"),
    "round": ("How to Play", "How to Play"),
    "reaction": ("Reaction Cards", "Reactions"),
    "maneuver": ("Maneuvers", "Maneuvers"),
    "tag": ("Appendix II: Tag Team", "Appendix III: Tag Team (4-Player)"),
    "end": ("Ending the Game", "Ending the Game"),
}


def _rule(edition: str, topic: str, text: str) -> str:
    """``"<edition> rulebook, <heading>: <text>"`` for a topic of :data:`_SECTIONS`."""
    heading = _SECTIONS[topic][0 if edition == "2019" else 1]
    return f"{edition} rulebook, {heading}: {text}"


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

    edition: Edition = Field("2019", title="Rulebook edition",
                             description="2019 (Analog Game Studios) or 2017 (Moshe-Tozer Games)")
    match_length: Literal[1, 3, 5] = Field(1, title="Games in the match",
                                           description="1, or best of 3 or 5; draft mode plays 3")
    draft: bool = Field(False, title="Draft mode",
                        description="2 players draft 3 decks each and play them in the order picked")
    tag_team: bool = Field(False, title="Tag team", description="4 players in 2 teams (seats 1 & 3 against 2 & 4)")

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
            raise ValueError(f"draft mode plays {DRAFT_GAMES} games (2019 rulebook, Appendix I: "
                             f"Draft Mode), not {self.match_length}")
        return self


# --- State --------------------------------------------------------------------------------


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
    kind: Literal["number", "boast", "special_numbered", "action", "reaction", "maneuver"]
    power: int | None = None
    points: int = 1
    text: str = ""
    effects: list[Effect] = []


class DeckInfo(Model):
    """A character deck: id, name and its 12 playing cards' ids in deck-list order."""

    id: str
    title: str
    cards: list[str]


class Token(Model):
    """A bonus token from the card data (First Blood, Finisher): id, title, points (2)."""

    id: str
    title: str
    points: int


class Pick(Model):
    """A draft ban or pick: who (seat) and which deck."""

    seat: int
    deck: str


class Played(Model):
    """A reaction or maneuver played this round: by whom (seat) and which card id."""

    seat: int
    card: str


class Modifier(Model):
    """A power change carried into the next round: the side it applies to, the amount and
    the title of the card it comes from."""

    side: int
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
    seats: list[int]
    cards: list[str]
    powers: list[int]
    winner: int | None
    how: How
    moved: list[bool] = [False, False]
    next_round: list[Modifier] = []
    notes: list[str] = []


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
    decks: list[str]
    scores: list[Score]
    winner: int | None
    leftover: int = 0
    leftover_to: int | None = None


class State(Model):
    """A Duels of Cartisora table.

    Sides: in a 2-player game side ``s`` is seat ``s``; in tag team, side ``s`` is the team of
    seats ``s`` and ``s + 2``. Score piles, the tie pool, tokens and effects are per side;
    hands are per seat.

    Attributes:
        players / options: the table's players (seat order) and options.
        decks / cards: every character deck on offer for this edition and every playing card,
            copied from the card data; ``first_blood`` / ``finisher``: the bonus tokens.
        tag_card / tag_copies: the 2017 Tag card's id and copies per player (``None`` / 0 if unused).
        phase: see :data:`Phase`.
        bans / picks: draft bans and picks in order.
        game / game_decks: the game number (1-based) and each seat's deck for it.
        hands: each seat's card ids not yet played, in deck order.
        active: each side's active seat.
        round: the round number; ``readied`` / ``reactions`` / ``maneuvers``: this round's
            cards; ``contest`` this round's result as it stands (``None`` before the reveal).
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

    players: list[str]
    options: Options
    decks: dict[str, DeckInfo]
    cards: dict[str, CardInfo]
    first_blood: Token
    finisher: Token
    tag_card: str | None = None
    tag_copies: int = 0
    phase: Phase
    bans: list[Pick] = []
    picks: list[Pick] = []
    game: int = 1
    game_decks: list[str | None]
    hands: list[list[str]]
    active: list[int] = [0, 1]
    round: int = 0
    readied: list[str] = []
    reactions: list[Played] = []
    maneuvers: list[Played] = []
    contest: Contest | None = None
    modifiers: list[Modifier] = []
    next_modifiers: list[Modifier] = []
    score_piles: list[list[str]] = [[], []]
    tie_pool: list[str] = []
    uncounted: list[str] = []
    first_blood_side: int | None = None
    finisher_side: int | None = None
    tags_left: list[int] = []
    tagged: list[bool] = [False, False]
    round_log: list[Contest] = []
    results: list[GameResult] = []
    games_won: list[int] = [0, 0]

    # -- helpers for the engine and the page template --

    def side_of(self, seat: int) -> int:
        """The side (0 or 1) a seat plays for."""
        return seat % 2

    def seats_of(self, side: int) -> list[int]:
        """The seats of a side: ``[side]``, or ``[side, side + 2]`` in tag team."""
        return [side, side + 2] if self.options.tag_team else [side]

    def side_name(self, side: int) -> str:
        """A side's name for people: the player, or "Ann & Cid" for a team."""
        return " & ".join(self.players[s] for s in self.seats_of(side))

    def side_wins(self, side: int) -> str:
        """"Ann wins" or, for a team, "Ann & Cid win"."""
        return f"{self.side_name(side)} {'win' if self.options.tag_team else 'wins'}"

    def score(self, side: int) -> Score:
        """The side's score now: cards in its score pile, boast bonus and tokens
        (2019 Ending the Game; Bonus Points)."""
        pile = self.score_piles[side]
        cards = len(pile)
        boast = sum(self.cards[c].points - 1 for c in pile if c in self.cards)
        blood = self.first_blood.points if self.first_blood_side == side else 0
        finish = self.finisher.points if self.finisher_side == side else 0
        return Score(cards=cards, boast_bonus=boast, first_blood=blood, finisher=finish,
                     total=cards + boast + blood + finish)

    def hand_of_kind(self, seat: int, kind: str) -> list[str]:
        """The seat's cards in hand of one kind (``"reaction"``, ``"maneuver"``, ...)."""
        return [c for c in self.hands[seat] if self.cards[c].kind == kind]

    def draft_turn(self) -> tuple[str, int] | None:
        """``("ban" | "pick", seat)`` for the next draft step, or ``None`` outside the draft."""
        if self.phase != "draft":
            return None
        if len(self.decks) > BASE_SET_CHARACTER_DECKS and len(self.bans) < len(DRAFT_BAN_ORDER):
            return "ban", DRAFT_BAN_ORDER[len(self.bans)]
        return "pick", DRAFT_PICK_ORDER[len(self.picks)]

    def decks_open(self) -> list[str]:
        """Deck ids still free to ban or pick: in the draft, neither banned nor drafted; else
        not picked by another seat for this game."""
        if self.phase == "draft":
            taken = {b.deck for b in self.bans} | {p.deck for p in self.picks}
        else:
            taken = {d for d in self.game_decks if d}
        return [d for d in self.decks if d not in taken]

    def can_react(self, seat: int) -> bool:
        """Whether the seat may play a reaction now (the reveal is done, the round not
        resolved; active players only, except in the 2019 tag team)."""
        if self.phase != "react":
            return False
        return seat in self.active or (self.options.tag_team and self.options.edition == "2019")

    def can_tag(self, seat: int) -> bool:
        """Whether the seat may tag in now (2017 tag team, resting player, once per team per
        round, Tag cards left)."""
        side = self.side_of(seat)
        return (self.phase == "react" and self.tag_card is not None
                and seat not in self.active and not self.tagged[side] and self.tags_left[seat] > 0)

    def maneuver_seats(self) -> list[int]:
        """Seats that may play a maneuver now: the round's winner (either player of the winning
        team in the 2019 tag team); empty when the round has no winner."""
        if self.phase not in ("react", "resolved") or self.contest is None or self.contest.winner is None:
            return []
        side = self.contest.winner
        if self.options.tag_team and self.options.edition == "2019":
            return self.seats_of(side)
        return [self.active[side]]


# --- Events -------------------------------------------------------------------------------


class PickDeck(Model):
    """A player takes a character deck for the next game (2019 Setup), or makes a draft
    pick in draft mode (2019 Appendix I: Draft Mode)."""

    type: Literal["pick_deck"]
    seat: int
    deck: str


class BanDeck(Model):
    """Draft mode with more than 6 decks: a player bans a deck (2019 Appendix I)."""

    type: Literal["ban_deck"]
    seat: int
    deck: str


class Reveal(Model):
    """Both readied cards, revealed together (2019 How to Play): ``cards[side]`` is the card
    of that side's active player (seat order in a 2-player game)."""

    type: Literal["reveal"]
    cards: Annotated[list[str], Field(min_length=2, max_length=2)]


class Reaction(Model):
    """A reaction card played after the reveal, before the round resolves (2019 Reaction Cards)."""

    type: Literal["reaction"]
    seat: int
    card: str


class Tag(Model):
    """2017 tag team: the resting partner tags in with ``card`` from their hand
    (2017 Appendix III: Tag Team)."""

    type: Literal["tag"]
    seat: int
    card: str


class Maneuver(Model):
    """The round's winner plays a maneuver; it affects the next round (2019 Maneuvers)."""

    type: Literal["maneuver"]
    seat: int
    card: str


class NextRound(Model):
    """No more reactions or maneuvers: the round resolves and the next begins, or the game
    ends when a player (a team) is out of cards (2019 Round Result; Ending the Game)."""

    type: Literal["next_round"]


Event = Annotated[Union[PickDeck, BanDeck, Reveal, Reaction, Tag, Maneuver, NextRound],
                  Field(discriminator="type")]
EVENT_ADAPTER: TypeAdapter = TypeAdapter(Event)


# --- Set-up -------------------------------------------------------------------------------


def _card_info(card: object, deck: str) -> CardInfo | None:
    """The engine's copy of a playing card, or ``None`` for a reference card."""
    if isinstance(card, NumberCard):
        return CardInfo(id=card.id, title=card.title, deck=deck, kind="number", power=card.power)
    if isinstance(card, BoastCard):
        return CardInfo(id=card.id, title=card.title, deck=deck, kind="boast", power=card.power,
                        points=card.score_points, text=f"Worth {card.score_points} points in a score pile.")
    if isinstance(card, SpecialCard):
        return CardInfo(id=card.id, title=card.title, deck=deck, kind=card.special_kind,
                        power=card.power, text=card.effect, effects=list(card.effects))
    return None


def new_state(players: list[str], options: Options, game: object) -> State:
    """Set up a table: ``players`` (2, or 4 with ``tag_team``), ``options`` and the game's
    card data (``card_data.loader.Game``).

    Copies every character deck (deck lists of kind ``character`` whose cards all belong to
    the edition), the bonus tokens and the Tag card from the data. Starts in the draft, or
    with each player picking a deck (2019 Setup).
    Raises :class:`RuleError` for a wrong number of players, draft mode with tag team, or
    too few decks for the draft.
    """
    if isinstance(options, dict):
        options = Options.model_validate(options)
    edition = options.edition
    wanted = 4 if options.tag_team else 2
    if len(players) != wanted:
        raise RuleError(_rule(edition, "players", "a duel is for 2 players; the tag team for 4 in 2 teams"),
                        f"{len(players)} players for {'a tag team' if options.tag_team else 'a duel'}; "
                        f"it needs {wanted}")
    if options.draft and options.tag_team:
        raise RuleError(_rule(edition, "draft", "draft mode is for 2 players"),
                        "draft mode cannot be combined with the tag team")

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
        decks[deck.id] = DeckInfo(id=deck.id, title=deck.title, cards=ids)

    tokens = {c.award: Token(id=c.id, title=c.title, points=c.bonus_points)
              for c in game.cards.values() if isinstance(c, TokenCard)}
    tag = next((c for c in game.cards.values() if isinstance(c, TagCard)), None)
    use_tags = options.tag_team and edition == "2017" and tag is not None

    if options.draft:
        needed = DRAFT_GAMES * 2 + (len(DRAFT_BAN_ORDER) if len(decks) > BASE_SET_CHARACTER_DECKS else 0)
        if len(decks) < needed:
            raise RuleError(_rule(edition, "draft", "each player drafts 3 different decks, after "
                                  "one ban each when more than 6 decks are available"),
                            f"{len(decks)} decks are available; the draft needs {needed}")
    return State(
        players=list(players), options=options, decks=decks, cards=cards,
        first_blood=tokens["first_contest_win"], finisher=tokens["last_contest_win"],
        tag_card=tag.id if use_tags else None, tag_copies=tag.copies_per_player if use_tags else 0,
        phase="draft" if options.draft else "pick",
        game_decks=[None] * len(players), hands=[[] for _ in players],
    )


def _start_game(state: State, decks: list[str]) -> State:
    """The state at round 1 of a new game with ``decks[seat]`` as each seat's hand."""
    return state.model_copy(update=dict(
        phase="ready", game_decks=list(decks), hands=[list(state.decks[d].cards) for d in decks],
        active=[0, 1], round=1, readied=[], reactions=[], maneuvers=[], contest=None,
        modifiers=[], next_modifiers=[], score_piles=[[], []], tie_pool=[], uncounted=[],
        first_blood_side=None, finisher_side=None,
        tags_left=[state.tag_copies] * len(state.players) if state.tag_card else [],
        tagged=[False, False], round_log=[],
    ))


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
        return None, "nullified", ["both powers are 0 or less: the round is nullified (2017)"]
    if powers[0] == powers[1]:
        return None, "tie", []
    high = 0 if powers[0] > powers[1] else 1
    low = 1 - high
    if powers[high] - powers[low] >= 2:
        return high, "overpower", []
    # "Cannot" beats "can": these stop the exactly-1-lower card's undercut.
    if edition == "2019" and powers[low] == 0:
        return high, "overpower", ["0 cannot undercut"]
    if cannot_undercut[high]:
        return high, "overpower", [f"{cannot_undercut[high]} cannot be undercut"]
    return low, "undercut", []


ActingEffect = tuple[int, CardInfo, Effect]
"""An effect acting this round: the side whose card it is, the card, the effect."""


def _moves(state: State, readied: list[CardInfo], notes: list[str]) -> tuple[list[bool], list[ActingEffect]]:
    """Moves first (2019 Complex Resolutions: effects that move or play cards occur before any
    other). Returns which sides' readied cards were moved to the tie pool and the
    ``(side, card, effect)`` of every effect that then acts: those of readied special numbered
    cards and actions not moved, and of reactions. A reaction or maneuver readied normally
    has no effect (2019 Reaction or Maneuvers played normally)."""
    sources: list[tuple[int, CardInfo, bool]] = []  # (side, card, readied?)
    for side, card in enumerate(readied):
        if card.kind in ("special_numbered", "action"):
            sources.append((side, card, True))
        elif card.kind in ("reaction", "maneuver"):
            notes.append(f"{card.title} was readied normally: power 0, no effect")
    sources += [(state.side_of(p.seat), state.cards[p.card], False) for p in state.reactions]
    moved = [False, False]
    for side, card, _ in sources:
        for effect in card.effects:
            if isinstance(effect, MoveCard):
                target = _target(effect.player, side)
                moved[target] = True
                notes.append(f"{card.title} moves {readied[target].title} to the tie pool: "
                             f"its effect does not occur, power 0")
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
        if moved[side] or card.kind in ("reaction", "maneuver"):
            powers[side] = 0
        elif card.kind != "action":
            power = card.power + change[side]
            if state.options.edition == "2019" and power < 0:
                notes.append(f"{card.title}'s power cannot fall below 0")
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
            notes.append(f"{card.title}'s win condition is met")
        elif conditions:
            notes.append(f"{card.title}'s win condition is unfulfilled: power 0")
    return claims


def _settle_claims(state: State, claims: list[tuple[str, int, str]], notes: list[str]) -> int | None:
    """The winning side (``None``: a tie) when effects force results: a loss beats a tie beats
    a win (2019 Complex Resolutions). Claims of the top priority pointing different ways
    (each side's "you win") cancel into a tie (our reading)."""
    first = min(FORCED_RESULT_PRIORITY.index(result) for result, _, _ in claims)
    top = [c for c in claims if FORCED_RESULT_PRIORITY.index(c[0]) == first]
    outcomes = {None if result == "tie" else side if result == "win" else 1 - side for result, side, _ in top}
    phrase = {"win": "a win", "tie": "a tie", "lose": "a loss"}
    for result, side, title in top:
        whom = "" if result == "tie" else f" for {state.side_name(side)}"
        notes.append(f"{title} forces {phrase[result]}{whom}")
    overruled = sorted({title for result, _, title in claims if FORCED_RESULT_PRIORITY.index(result) != first})
    if overruled:
        notes.append(f"{phrase[FORCED_RESULT_PRIORITY[first]]} beats {', '.join(overruled)}: "
                     f"loss beats tie beats win")
    if len(outcomes) > 1:
        notes.append("these forced results point different ways: a tie")
        return None
    return next(iter(outcomes))


def _judge(state: State) -> Contest:
    """Work out the round's contest from the readied cards, reactions and carried modifiers.

    Order (2019 Complex Resolutions; play order never matters, only effect priority): moves
    first (:func:`_moves`); powers (:func:`_powers`); action win conditions and forced
    results (:func:`_settle_claims`: a loss beats a tie beats a win); the power comparison
    (:func:`_compare`) when nothing is forced; last, "wins against ties" turns a tie, forced
    or not, into a win for the one side that has it (Brutal Strike vs Parry).
    """
    readied = [state.cards[c] for c in state.readied]
    notes: list[str] = []
    moved, effects = _moves(state, readied, notes)
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
            notes.append(f"{breakers[winner]} wins against ties")

    next_round = [Modifier(side=_target(e.player, side), amount=e.amount, source=card.title)
                  for side, card, e in effects if isinstance(e, PowerModifier) and e.round == "next"]
    return Contest(round=state.round, seats=[state.active[0], state.active[1]], cards=list(state.readied),
                   powers=final_powers, winner=winner, how=how, moved=moved, next_round=next_round, notes=notes)


def _resolve(state: State) -> State:
    """Move the round's cards (2019 Round Result; 2017 How to Play, Appendix I Negative Power).

    Moved cards go to the tie pool first. Won: the winner takes the cards in play (readied
    and reaction cards) and the tie pool, and First Blood if nobody has it. Tie: the cards in
    play join the tie pool. Nullified (2017): each side's readied and reaction cards go to its
    own score pile (reactions too: our reading).
    """
    contest = state.contest
    tie_pool = list(state.tie_pool) + [c for side, c in enumerate(contest.cards) if contest.moved[side]]
    in_play = [[c for side, c in enumerate(contest.cards) if side == s and not contest.moved[side]]
               + [p.card for p in state.reactions if state.side_of(p.seat) == s] for s in (0, 1)]
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
    return state.model_copy(update=dict(
        phase="resolved", score_piles=piles, tie_pool=tie_pool, first_blood_side=first_blood,
        next_modifiers=list(state.next_modifiers) + list(contest.next_round),
    ))


# --- Checks shared by the events -------------------------------------------------------


def _check_seat(state: State, seat: int) -> None:
    if not 0 <= seat < len(state.players):
        raise RuleError(_rule(state.options.edition, "players", "seats are numbered from 0"),
                        f"there is no seat {seat} at this table of {len(state.players)}")


def _check_in_hand(state: State, seat: int, card_id: str, topic: str) -> CardInfo:
    """The card, if it is in the seat's hand; else a :class:`RuleError` saying whether it was
    already played or is not in the seat's deck at all."""
    edition = state.options.edition
    name = state.players[seat]
    deck = state.decks[state.game_decks[seat]]
    rule = _rule(edition, topic, "a player plays only cards still in their hand, from their own character deck")
    if card_id not in deck.cards:
        raise RuleError(rule, f"'{card_id}' is not a card of {name}'s deck ({deck.title})")
    card = state.cards[card_id]
    if card_id not in state.hands[seat]:
        raise RuleError(rule, f"{card.title} was already played: it is not in {name}'s hand")
    return card


def _without(hand: list[str], card_id: str) -> list[str]:
    return [c for c in hand if c != card_id]


def _replace(items: list, index: int, value: object) -> list:
    return [value if i == index else item for i, item in enumerate(items)]


# --- Events -------------------------------------------------------------------------------


def _pick_deck(state: State, event: PickDeck) -> State:
    """Each player takes their own deck; the game starts once all have (2019 Setup)."""
    edition = state.options.edition
    _check_seat(state, event.seat)
    name = state.players[event.seat]
    if state.phase == "draft":
        return _draft(state, event, "pick")
    if state.phase != "pick":
        raise RuleError(_rule(edition, "setup", "each player takes a deck before the game starts"),
                        f"game {state.game} is under way; decks are picked before a game")
    if state.game_decks[event.seat] is not None:
        raise RuleError(_rule(edition, "setup", "each player takes 1 deck as their hand"),
                        f"{name} already took {state.decks[state.game_decks[event.seat]].title}")
    if event.deck not in state.decks:
        raise RuleError(_rule(edition, "setup", "the decks are the character decks of the set"),
                        f"there is no character deck '{event.deck}' (decks: {', '.join(state.decks)})")
    taken_by = [s for s, d in enumerate(state.game_decks) if d == event.deck]
    if taken_by:
        raise RuleError(_rule(edition, "setup", "each player takes their own deck; the set holds one of each"),
                        f"{state.players[taken_by[0]]} already took {state.decks[event.deck].title}")
    decks = _replace(state.game_decks, event.seat, event.deck)
    if all(decks):
        return _start_game(state, decks)
    return state.model_copy(update=dict(game_decks=decks))


def _draft(state: State, event: PickDeck | BanDeck, action: str) -> State:
    """A draft ban or pick (2019 Appendix I: Draft Mode; 2017 Appendix II)."""
    edition = state.options.edition
    _check_seat(state, event.seat)
    turn = state.draft_turn()
    if turn is None:
        raise RuleError(_rule(edition, "draft", "decks are banned and drafted before the first game"),
                        "the draft is over" if state.options.draft else "this table does not use draft mode")
    step, seat = turn
    if step != action:
        raise RuleError(_rule(edition, "draft", "with more than 6 decks each player bans one deck before "
                              "selection starts; with 6 there are no bans"),
                        f"it is time to {step} a deck, not to {action} one")
    if event.seat != seat:
        what = ("ban" if step == "ban" else f"pick {len(state.picks) + 1}")
        raise RuleError(_rule(edition, "draft", "bans start with Player 1; picks go in the order 1-2-2-1-1-2"),
                        f"the next {what} is {state.players[seat]}'s, not {state.players[event.seat]}'s")
    if event.deck not in state.decks:
        raise RuleError(_rule(edition, "draft", "the decks are the character decks available"),
                        f"there is no character deck '{event.deck}' (decks: {', '.join(state.decks)})")
    if event.deck not in state.decks_open():
        raise RuleError(_rule(edition, "draft", "each deck is banned or picked at most once; "
                              "each player plays 3 different decks"),
                        f"{state.decks[event.deck].title} is already banned or picked")
    entry = Pick(seat=event.seat, deck=event.deck)
    if action == "ban":
        return state.model_copy(update=dict(bans=[*state.bans, entry]))
    picks = [*state.picks, entry]
    state = state.model_copy(update=dict(picks=picks))
    if len(picks) == len(DRAFT_PICK_ORDER):
        return _start_game(state, _draft_decks(state, 1))
    return state


def _draft_decks(state: State, game: int) -> list[str]:
    """Each seat's deck for a draft game: decks are played in the order picked."""
    return [[p.deck for p in state.picks if p.seat == seat][game - 1] for seat in range(len(state.players))]


def _ban_deck(state: State, event: BanDeck) -> State:
    return _draft(state, event, "ban")


def _reveal(state: State, event: Reveal) -> State:
    """Both readied cards, from the active players' hands (2019 How to Play)."""
    edition = state.options.edition
    if state.phase in ("react", "resolved"):
        raise RuleError(_rule(edition, "round", "each round both players ready one card and reveal it"),
                        f"round {state.round}'s cards are already revealed; go on to the next round")
    if state.phase != "ready":
        raise RuleError(_rule(edition, "setup", "each player takes a deck before the first round"),
                        "the decks are not picked yet")
    hands = list(state.hands)
    for side, card_id in enumerate(event.cards):
        seat = state.active[side]
        _check_in_hand(state, seat, card_id, "round")
        hands[seat] = _without(hands[seat], card_id)
    revealed = state.model_copy(update=dict(phase="react", hands=hands, readied=list(event.cards)))
    return revealed.model_copy(update=dict(contest=_judge(revealed)))


def _reaction(state: State, event: Reaction) -> State:
    """A reaction between the reveal and the resolution (2019 Reaction Cards)."""
    edition = state.options.edition
    _check_seat(state, event.seat)
    rule = _rule(edition, "reaction", "reactions are played after both readied cards are revealed "
                 "and before the round is resolved")
    if state.phase == "ready":
        raise RuleError(rule, f"round {state.round}'s cards are not revealed yet")
    if state.phase == "resolved":
        raise RuleError(rule, f"round {state.round} is already resolved (a maneuver was played)")
    if state.phase != "react":
        raise RuleError(rule, "no round is under way")
    if not state.can_react(event.seat):
        raise RuleError(_rule(edition, "reaction", "the duelling players play the reactions "
                              "(2017 tag team: the resting partner joins in only by tagging in)"),
                        f"{state.players[event.seat]} is not in this round's duel")
    card = _check_in_hand(state, event.seat, event.card, "reaction")
    if card.kind != "reaction":
        raise RuleError(rule, f"{card.title} is not a reaction card; only reactions are played after the reveal")
    reacted = state.model_copy(update=dict(
        hands=_replace(state.hands, event.seat, _without(state.hands[event.seat], event.card)),
        reactions=[*state.reactions, Played(seat=event.seat, card=event.card)],
    ))
    return reacted.model_copy(update=dict(contest=_judge(reacted)))


def _tag(state: State, event: Tag) -> State:
    """The resting partner tags in (2017 Appendix III: Tag Team)."""
    edition = state.options.edition
    _check_seat(state, event.seat)
    rule = _rule(edition, "tag", "the resting partner tags in as a reaction with a Tag card (3 each), "
                 "once per team per round; the partner's card returns to their hand and the enemy "
                 "scores the Tag card")
    if state.tag_card is None:
        raise RuleError(rule, "Tag cards are used only in the 2017 tag team")
    if state.phase != "react":
        raise RuleError(rule, "tagging in is a reaction: after the reveal, before the round resolves")
    side = state.side_of(event.seat)
    if event.seat in state.active:
        raise RuleError(rule, f"{state.players[event.seat]} is already duelling")
    if state.tagged[side]:
        raise RuleError(rule, f"{state.side_name(side)} already tagged this round")
    if state.tags_left[event.seat] == 0:
        raise RuleError(rule, f"{state.players[event.seat]} has no Tag cards left")
    _check_in_hand(state, event.seat, event.card, "tag")
    partner = state.active[side]
    returned = state.readied[side]
    order = state.decks[state.game_decks[partner]].cards
    hands = _replace(state.hands, event.seat, _without(state.hands[event.seat], event.card))
    hands = _replace(hands, partner, [c for c in order if c in state.hands[partner] or c == returned])
    tagged = state.model_copy(update=dict(
        hands=hands, readied=_replace(state.readied, side, event.card),
        active=_replace(state.active, side, event.seat),
        tags_left=_replace(state.tags_left, event.seat, state.tags_left[event.seat] - 1),
        tagged=_replace(state.tagged, side, True),
        score_piles=_replace(state.score_piles, 1 - side, [*state.score_piles[1 - side], state.tag_card]),
    ))
    return tagged.model_copy(update=dict(contest=_judge(tagged)))


def _maneuver(state: State, event: Maneuver) -> State:
    """The winner's maneuver: resolves the round if needed; its effect waits for the next
    round and the card joins its player's score pile (2019 Maneuvers; our reading)."""
    edition = state.options.edition
    _check_seat(state, event.seat)
    rule = _rule(edition, "maneuver", "a maneuver is played by the winner after winning a round; "
                 "it affects only the next round")
    if state.phase not in ("react", "resolved"):
        raise RuleError(rule, f"round {state.round} has not been revealed yet" if state.phase == "ready"
                        else "no round is under way")
    contest = state.contest
    if contest.winner is None:
        why = "nullified" if contest.how == "nullified" else "a tie"
        raise RuleError(rule, f"round {state.round} has no winner ({why})")
    if event.seat not in state.maneuver_seats():
        raise RuleError(rule, f"{state.players[event.seat]} did not win round {state.round}; "
                              f"{state.side_name(contest.winner)} did")
    card = _check_in_hand(state, event.seat, event.card, "maneuver")
    if card.kind != "maneuver":
        raise RuleError(rule, f"{card.title} is not a maneuver card")
    if state.phase == "react":
        state = _resolve(state)
    side = state.side_of(event.seat)
    # Maneuvers never change the round just won, whatever round their effect names.
    carried = [Modifier(side=_target(e.player, side), amount=e.amount, source=card.title)
               for e in card.effects if isinstance(e, PowerModifier)]
    return state.model_copy(update=dict(
        hands=_replace(state.hands, event.seat, _without(state.hands[event.seat], event.card)),
        score_piles=_replace(state.score_piles, side, [*state.score_piles[side], event.card]),
        maneuvers=[*state.maneuvers, Played(seat=event.seat, card=event.card)],
        next_modifiers=[*state.next_modifiers, *carried],
    ))


def _next_round(state: State, event: NextRound) -> State:
    """Resolve the round if needed, swap tag-team players (2019 Appendix II: the losing team,
    both on a tie; either edition: a player out of cards hands over), then start the next
    round or end the game when a side is out of cards (2019 Ending the Game)."""
    edition = state.options.edition
    if state.phase not in ("react", "resolved"):
        raise RuleError(_rule(edition, "round", "a round ends after both cards are revealed and resolved"),
                        f"round {state.round}'s cards are not revealed yet" if state.phase == "ready"
                        else "no round is under way")
    if state.phase == "react":
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
    state = state.model_copy(update=dict(active=active, round_log=[*state.round_log, contest]))
    out = [not any(state.hands[s] for s in state.seats_of(side)) for side in (0, 1)]
    if any(out):
        return _end_game(state, out)
    return state.model_copy(update=dict(
        phase="ready", round=state.round + 1, readied=[], reactions=[], maneuvers=[], contest=None,
        modifiers=list(state.next_modifiers), next_modifiers=[], tagged=[False, False],
    ))


def _end_game(state: State, out: list[bool]) -> State:
    """End the game after the last round (2019 Ending the Game; Leftover Cards; Bonus Points;
    Tie on Last Round). The last contest's winner takes the Finisher; if it tied (or, 2017,
    was nullified) nobody does and the tie pool is not counted. If one side ran out first,
    the other side's remaining cards go to the score pile of the side that ran out. Then
    the match score is updated and the match ends or the next game is set up.
    """
    contest = state.contest
    finisher = contest.winner
    piles = [list(p) for p in state.score_piles]
    leftover_to = None
    leftover: list[str] = []
    if out[0] != out[1]:
        leftover_to = 0 if out[0] else 1
        leftover = [c for s in state.seats_of(1 - leftover_to) for c in state.hands[s]]
        piles[leftover_to] += leftover
    ended = state.model_copy(update=dict(
        score_piles=piles, finisher_side=finisher, tie_pool=[], uncounted=list(state.tie_pool),
        hands=[[] for _ in state.hands], readied=[], reactions=[], maneuvers=[], modifiers=[], next_modifiers=[],
    ))
    scores = [ended.score(0), ended.score(1)]
    winner = None if scores[0].total == scores[1].total else (0 if scores[0].total > scores[1].total else 1)
    games_won = list(state.games_won)
    if winner is not None:
        games_won[winner] += 1
    result = GameResult(game=state.game, decks=list(state.game_decks), scores=scores, winner=winner,
                        leftover=len(leftover), leftover_to=leftover_to if leftover else None)
    ended = ended.model_copy(update=dict(results=[*state.results, result], games_won=games_won))
    remaining = state.options.match_length - state.game
    if remaining == 0 or abs(games_won[0] - games_won[1]) > remaining:
        return ended.model_copy(update=dict(phase="over"))
    ended = ended.model_copy(update=dict(game=state.game + 1))
    if state.options.draft:
        return _start_game(ended, _draft_decks(ended, ended.game))
    return ended.model_copy(update=dict(phase="pick", game_decks=[None] * len(state.players)))


_HANDLERS = {
    "pick_deck": _pick_deck, "ban_deck": _ban_deck, "reveal": _reveal, "reaction": _reaction,
    "tag": _tag, "maneuver": _maneuver, "next_round": _next_round,
}


def apply(state: State, event: object) -> State:
    """Apply one event (a model of :data:`Event` or its JSON dict) and return the new state.

    Never mutates ``state``. Raises :class:`RuleError` when the rules forbid the event
    (naming the edition's rulebook section), including any event once the match is over.
    """
    if isinstance(event, dict):
        event = EVENT_ADAPTER.validate_python(event)
    if state.phase == "over":
        raise RuleError(_rule(state.options.edition, "end", "when all cards are played the game is over"),
                        "the match is over")
    return _HANDLERS[event.type](state, event)


# --- Outcome and history ------------------------------------------------------------------


def _seat_scores(state: State, per_side: list[float]) -> list[float]:
    return [float(per_side[state.side_of(seat)]) for seat in range(len(state.players))]


def outcome(state: State) -> Outcome:
    """Where the table stands.

    One game: ``scores`` are each seat's points (its side's score pile, boast bonus and
    tokens); a match of 3 or 5: each seat's games won. ``winners`` are the seats of the
    side with more (none for a draw); a tag team's two players share their team's score.
    """
    finished = state.phase == "over"
    if state.options.match_length == 1:
        if state.results:
            totals = [s.total for s in state.results[-1].scores]
        else:
            totals = [state.score(0).total, state.score(1).total]
        label = "Points"
    else:
        totals = list(state.games_won)
        label = "Games won"
    scores = _seat_scores(state, totals)
    winners: list[int] = []
    summary = ""
    if finished:
        if totals[0] != totals[1]:
            side = 0 if totals[0] > totals[1] else 1
            winners = state.seats_of(side)
            summary = state.side_wins(side)
        else:
            summary = "Draw"
        if state.options.match_length == 1:
            summary += f": {totals[0]} to {totals[1]} points"
        else:
            summary += f" the match {max(totals)}–{min(totals)} in games"
    elif state.phase in ("draft", "pick"):
        summary = f"Game {state.game}: choosing decks"
    else:
        summary = f"Game {state.game}, round {state.round}"
    return Outcome(finished=finished, winners=winners, scores=scores, score_label=label, summary=summary)


def _contest_line(state: State, contest: Contest) -> str:
    """E.g. "Bob wins by Undercut (Ann 5, Bob 4)" or "tie (Ann 3, Bob 3): cards to the tie pool"."""
    powers = ", ".join(f"{state.side_name(side)} {contest.powers[side]}" for side in (0, 1))
    if contest.how == "nullified":
        return f"nullified ({powers}): each card to its own score pile"
    if contest.winner is None:
        return f"{'forced tie' if contest.how == 'forced' else 'tie'} ({powers}): cards to the tie pool"
    how = {"overpower": "Overpower", "undercut": "Undercut", "forced": "a forced result",
           "wins_against_ties": "winning against a tie"}[contest.how]
    return f"{state.side_wins(contest.winner)} by {how} ({powers})"


def _with_notes(line: str, contest: Contest) -> str:
    return f"{line} [{'; '.join(contest.notes)}]" if contest.notes else line


def _first_blood_note(state: State) -> str:
    """"; Ann takes First Blood" if resolving the round now gives its winner the token."""
    winner = state.contest.winner if state.contest and state.contest.how != "nullified" else None
    if winner is None or state.first_blood_side is not None:
        return ""
    return f"; {state.side_name(winner)} takes {state.first_blood.title}"


def describe(state: State, event: object) -> str:
    """One history line for ``event`` applied to ``state`` (the state before it), e.g.
    "Round 2: Ann revealed Knight 5, Bob revealed Fencer 4 – Bob wins by Undercut (4 vs 5)"."""
    if isinstance(event, dict):
        event = EVENT_ADAPTER.validate_python(event)
    after = apply(state, event)
    name = state.players[event.seat] if hasattr(event, "seat") else ""
    if isinstance(event, BanDeck):
        return f"{name} banned {state.decks[event.deck].title}"
    if isinstance(event, PickDeck):
        verb = f"drafted (pick {len(state.picks) + 1})" if state.phase == "draft" else "took"
        line = f"{name} {verb} {state.decks[event.deck].title}"
        if after.phase == "ready":
            line += f"; game {after.game} begins"
        return line
    if isinstance(event, Reveal):
        shown = ", ".join(f"{state.players[state.active[side]]} revealed {state.cards[c].title}"
                          for side, c in enumerate(event.cards))
        return _with_notes(f"Round {state.round}: {shown} – {_contest_line(after, after.contest)}", after.contest)
    if isinstance(event, Reaction):
        return _with_notes(f"{name} played {state.cards[event.card].title} (reaction): now "
                           f"{_contest_line(after, after.contest)}", after.contest)
    if isinstance(event, Tag):
        side = state.side_of(event.seat)
        return (f"{name} tagged in for {state.players[state.active[side]]} with {state.cards[event.card].title}; "
                f"{state.side_name(1 - side)} scores the Tag card – now {_contest_line(after, after.contest)}")
    if isinstance(event, Maneuver):
        card = state.cards[event.card]
        line = f"{name} played {card.title} (maneuver) for next round: {card.text}"
        if state.phase == "react":
            line += f" Round {state.round} resolved: {_contest_line(state, state.contest)}{_first_blood_note(state)}"
        return line
    # next_round
    if state.phase == "react":
        line = f"Round {state.round} resolved: {_contest_line(state, state.contest)}{_first_blood_note(state)}"
    else:  # an earlier maneuver resolved it
        line = f"Round {state.round} over"
    if after.results and len(after.results) > len(state.results):
        result = after.results[-1]
        if result.leftover:
            cards = "card goes" if result.leftover == 1 else "cards go"
            line += f"; {result.leftover} leftover {cards} to {state.side_name(result.leftover_to)}"
        scores = " – ".join(f"{state.side_name(s)} {result.scores[s].total}" for s in (0, 1))
        line += f". Game {result.game} over: {scores}"
        if after.phase == "over":
            line += f". {outcome(after).summary}"
    elif after.phase == "ready":
        line += f"; round {after.round} begins"
    return line


ENGINE = Engine(
    game_id="cartisora",
    title="Duels of Cartisora",
    min_players=2,
    max_players=4,
    options_model=Options,
    state_model=State,
    event_adapter=EVENT_ADAPTER,
    new_state_fn=new_state,
    apply_fn=apply,
    outcome_fn=outcome,
    describe_fn=describe,
)
