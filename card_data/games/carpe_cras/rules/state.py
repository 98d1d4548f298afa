"""A Carpe Cras table: its state, options and set-up, and :data:`ENGINE`, the engine its
events register with (:mod:`.events_setup`, :mod:`.events_rounds`, :mod:`.events_effects`,
:mod:`.events_tempo`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from card_data.engine import (
    Bounded,
    Choice,
    Counter,
    Engine,
    GameState,
    Model,
    ReadOnlyDict,
    Words,
)
from card_data.engine.scoreboard import Scoreboard, scoreboard
from card_data.games.carpe_cras import BOOK, TITLE
from card_data.games.carpe_cras.cards import AGENCY_DECK_SIZE, Hero, Unit, Upgrade
from card_data.games.carpe_cras.rules.card_words import card_words
from card_data.games.carpe_cras.rules.rulebook import (
    CITY_SPACE_CAPACITY,
    DEFAULT_STARTING_MORALE,
    MAX_LANES,
    MOST_STARTING_MORALE,
    MOST_STAT,
    PLAYER_COUNT,
    RULE_GAIN_GLOSSARY,
    RULE_GAIN_MAIN,
    STARTING_LANES,
)
from card_data.games.carpe_cras.tempo import DIE_FACES, Equipped, TempoCheck

Lane = Annotated[int, Field(ge=1, le=MAX_LANES, title=Words("Lane"))]
"""A lane number as players say it: 1 to 6 (lane 1 is the one the game starts with)."""
Die = Annotated[int, Field(ge=1, le=DIE_FACES)]
Stat = Bounded[0, MOST_STAT]
"""A stat as entered: never negative (Glossary: Stats), at most :data:`MOST_STAT`."""
FullCityAgency = Literal["bottom_of_deck", "sacrifice_unless_token"]
FULL_CITY_AGENCY_LABELS = {"bottom_of_deck": Words("Bottom of the agency deck"),
                           "sacrifice_unless_token": Words("Sacrificed unless you hold the Token")}
"""What the new-table form calls each reading (the help says which rulebook text each follows)."""
Step_ = Literal["first_player", "round_start", "turns"]
"""The game's own steps: ``first_player``: rolling for (and choosing) the starting player;
``round_start``: waiting for the next round to start (before round 1, or after a round
ended); ``turns``: a round is on."""

STEP_LABELS = {"first_player": Words("Rolling for the starting player"), "round_start": Words("Round start"),
               "turns": Words("Player actions")}


class Options(Model):
    """Table options.

    Attributes:
        full_city_agency: what happens to agency gained while all your city spaces are full:
            ``"bottom_of_deck"`` (default; main text, Gaining agency) or
            ``"sacrifice_unless_token"`` (Glossary: Gain Agency; the Token's holder sets it aside).
        starting_morale: each city's morale at the start (Morale: 15, "possibly modified in
            different game modes").
    """

    full_city_agency: FullCityAgency = Field(
        default="bottom_of_deck", title=Words("Agency gained with all city spaces full"),
        description=Words("%(bottom)s: rulebook main text (Gaining agency), it goes to the bottom of the agency "
                          "deck. %(sacrifice)s: the glossary (Gain Agency), it is sacrificed unless you control "
                          "the Carpe Cras Token.", bottom=FULL_CITY_AGENCY_LABELS["bottom_of_deck"],
                          sacrifice=FULL_CITY_AGENCY_LABELS["sacrifice_unless_token"]),
        json_schema_extra={"labels": FULL_CITY_AGENCY_LABELS})
    starting_morale: int = Field(default=DEFAULT_STARTING_MORALE, ge=1, le=MOST_STARTING_MORALE, title=Words("Starting morale"),
                                 description=Words("%(morale)d in the standard game; other game modes may differ.",
                                                   morale=DEFAULT_STARTING_MORALE))


FighterCard = Annotated[Unit | Hero, Field(discriminator="type")]
"""A unit or hero card as the Tempo helper keeps it (see :func:`tempo_cards`)."""


class CardInPlay(Model):
    """A unit or hero with its upgrades, as a Tempo check from the cards found it: the cards'
    ids and printed titles, and its stats while it holds them (:func:`~card_data.games.carpe_cras.tempo.equip`)."""

    card: str
    title: str
    upgrades: tuple[str, ...] = ()
    upgrade_titles: tuple[str, ...] = ()
    stats: Equipped

    def said(self) -> Words:
        """The card, its upgrades and its stats in words (:func:`.card_words.card_words`)."""
        return card_words(self)


class TempoResult(Model):
    """The last Tempo check entered: who rolled, both speeds, differential, roll, success.

    From the cards (:class:`~card_data.games.carpe_cras.rules.events_card_tempo.CardTempo`),
    also the striker and the target as :class:`CardInPlay` and the striking ``skill``.
    """

    seat: int
    check: TempoCheck
    roller_speed: int
    opposing_speed: int
    differential: int
    roll: int | None
    succeeded: bool
    striker: CardInPlay | None = None
    target: CardInPlay | None = None
    skill: str | None = None


class State(GameState):
    """A Carpe Cras table.

    Attributes:
        phase: ``setup`` until round 1 starts, then ``play``; ``over`` once a city's morale is 0.
        step: the game's own step, see :data:`Step_`.
        options: the table's :class:`Options`.
        agency_deck_size: cards in a full agency deck (18, from the card schema).
        mulligans: whether each seat has taken its mulligan.
        first_player_rolls: each pair of dice entered, by seat, ties included.
        low_roller: the seat that rolled low and chooses who starts, once known.
        starting_seat: the seat that takes the first turn of round 1.
        round: the current round (0 before round 1 starts).
        lanes: lanes on the battlefield (1-6).
        morale: each seat's morale.
        city_agency: ``city_agency[seat][lane - 1]``: agency in that city space (0-3).
        agency_set_aside: agency held beside the city (``sacrifice_unless_token`` only).
        turn: seat to act (``None`` outside a round).
        last_turn_passed: the last turn this round was a pass (a pass now ends the round).
        passes: passes by each seat this round.
        token_holder: seat holding the Carpe Cras Token (``None`` until someone takes it).
        token_taken_round: the round in which the Token was last taken.
        last_tempo: the last :class:`TempoRoll` entered.
        fighters, upgrades: the game's unit and hero cards and its upgrade cards by id, from
            the card database the table was set up with (the Tempo helper's choices).
    """

    score_label = Words("Morale")

    step: Step_ = "first_player"
    options: Options
    agency_deck_size: int
    mulligans: tuple[bool, ...]
    first_player_rolls: tuple[tuple[int, int], ...] = ()
    low_roller: int | None = None
    starting_seat: int | None = None
    round: int = 0
    lanes: Annotated[int, Field(ge=1, le=MAX_LANES)] = STARTING_LANES
    morale: tuple[int, ...]
    city_agency: tuple[tuple[Annotated[int, Field(ge=0, le=CITY_SPACE_CAPACITY)], ...], ...]
    agency_set_aside: tuple[int, ...]
    turn: int | None = None
    last_turn_passed: bool = False
    passes: tuple[int, ...]
    token_holder: int | None = None
    token_taken_round: int | None = None
    last_tempo: TempoResult | None = None
    fighters: ReadOnlyDict[str, FighterCard] = Field(default_factory=dict, validate_default=True)
    upgrades: ReadOnlyDict[str, Upgrade] = Field(default_factory=dict, validate_default=True)

    # -- where the game stands --

    def scores(self) -> tuple[float, ...]:
        """Each seat's morale."""
        return tuple(float(m) for m in self.morale)

    def winners(self) -> tuple[int, ...]:
        """The seat whose city still has morale when the other's fell to 0 (Morale)."""
        return tuple(seat for seat, m in enumerate(self.morale) if m > 0) if self.finished else ()

    def rounds_played(self) -> int:
        """Rounds started so far; the round in progress counts."""
        return self.round

    def start_seat(self) -> int | None:
        """The starting player the low roller chose (Set Up: "the low roller chooses the
        starting player"), once chosen."""
        return self.starting_seat

    def summary(self) -> Words:
        if self.finished:
            loser = next(i for i, m in enumerate(self.morale) if m <= 0)
            return Words("%(winner)s wins: %(loser)s's morale fell to 0", winner=self.players[other(loser)],
                         loser=self.players[loser])
        if self.step == "first_player":
            return Words("Rolling for the starting player")
        if self.step == "round_start":
            return Words("Round %(round)d about to start", round=self.round + 1)
        return Words("Round %(round)d, %(player)s's turn", round=self.round, player=self.players[self.turn])

    def scoreboard(self) -> Scoreboard:
        """Each city's morale; the round and whose turn it is (:meth:`summary`)."""
        turn = self.turn if self.step == "turns" and not self.finished else None
        return scoreboard([self.score_label], [[m] for m in self.morale], self.summary(), turn)

    def step_label(self) -> Words:
        return STEP_LABELS[self.step]

    # -- what the rules ask of the state --

    @property
    def city_space_capacity(self) -> int:
        """Agency one city space holds (The battlefield)."""
        return CITY_SPACE_CAPACITY

    @property
    def max_lanes(self) -> int:
        """Lanes the battlefield can grow to (The battlefield)."""
        return MAX_LANES

    @property
    def token_passer(self) -> int | None:
        """The seat that took the Token this round and so passes all further turns, if any."""
        return self.token_holder if self.token_taken_round == self.round and self.step == "turns" else None

    def agency_in_deck(self, seat: int) -> int:
        """Cards left in ``seat``'s agency deck: the deck less what is in the city or set aside."""
        return self.agency_deck_size - sum(self.city_agency[seat]) - self.agency_set_aside[seat]

    def lanes_with_room(self, seat: int) -> list[int]:
        """Lane numbers (1-based) whose city space of ``seat`` holds fewer than 3 agency."""
        return [i + 1 for i, n in enumerate(self.city_agency[seat]) if n < CITY_SPACE_CAPACITY]

    def next_round_starter(self) -> int | None:
        """Who takes the first turn of the next round (Round Start; see :mod:`card_data.games.carpe_cras.rules`)."""
        if self.round == 0:
            return self.starting_seat
        if self.token_holder is not None:
            return self.token_holder
        return self.starting_seat

    def may_act(self, seat: int) -> bool:
        """Whether it is ``seat``'s turn and they may take an action other than a pass."""
        return self.step == "turns" and self.turn == seat and self.token_passer != seat

    def token_free(self) -> bool:
        """Whether the Carpe Cras Token may still be claimed this round."""
        return self.step == "turns" and self.token_taken_round != self.round

    def lane_choices(self, seat: int) -> list[Choice]:
        """The lanes where ``seat`` may place a gained agency, with what each holds."""
        return [Choice(lane, Words("Lane %(lane)d", lane=lane),
                       Words("%(count)d of %(most)d", count=self.city_agency[seat][lane - 1], most=CITY_SPACE_CAPACITY))
                for lane in self.lanes_with_room(seat)]

    def counters(self) -> list[Counter]:
        """Each city's morale, one tap to lose or recover 1 (:class:`LoseMorale`,
        :class:`RecoverMorale`), once round 1 has started."""
        # Those events register with ENGINE, defined below: imported here, once both modules exist.
        from card_data.games.carpe_cras.rules.events_effects import LoseMorale, RecoverMorale

        if self.round == 0:
            return []
        return [Counter(label=Words("%(name)s's morale", name=name), value=self.morale[seat], seat=seat, step=1,
                        minus=LoseMorale.offer(self, seat=seat, label=Words("%(name)s: −1 morale", name=name),
                                               amount=1),
                        plus=RecoverMorale.offer(self, seat=seat, label=Words("%(name)s: +1 morale", name=name),
                                                 amount=1,
                                                 ends_turn=False)
                        if self.morale[seat] < self.options.starting_morale else None)
                for seat, name in enumerate(self.players)]

    def gain_rule(self) -> Words:
        return RULE_GAIN_MAIN if self.options.full_city_agency == "bottom_of_deck" else RULE_GAIN_GLOSSARY


def other(seat: int) -> int:
    """The opponent's seat."""
    return 1 - seat


def set_up(players: tuple[str, ...], options: Options, game: object) -> State:
    """A new table for two ``players``: one lane, empty cities, full morale (Pre-Game Setup).

    ``game`` is the card database's Carpe Cras game: its unit, hero and upgrade cards are the
    Tempo helper's (:func:`tempo_cards`); the agency deck size comes from the card schema.
    """
    seats = range(len(players))
    fighters, upgrades = tempo_cards(game)
    return State(players=players, phase="setup", options=options, agency_deck_size=AGENCY_DECK_SIZE,
                 fighters=fighters, upgrades=upgrades,
                 mulligans=tuple(False for _ in seats), morale=tuple(options.starting_morale for _ in seats),
                 city_agency=tuple((0,) * STARTING_LANES for _ in seats),
                 agency_set_aside=tuple(0 for _ in seats), passes=tuple(0 for _ in seats))


def tempo_cards(game: object) -> tuple[dict[str, Unit | Hero], dict[str, Upgrade]]:
    """``(fighters, upgrades)``: the unit and hero cards and the upgrade cards of ``game`` (a
    ``card_data.loader.Game``, or anything without ``cards``: none) by id, without their
    rulings and note (a state's JSON stays small; the Tempo helper needs only the stats)."""
    cards = getattr(game, "cards", None) or {}

    def bare(card):
        return type(card).model_validate({**card.model_dump(), "rulings": [], "note": None})

    fighters = {cid: bare(c) for cid, c in cards.items() if isinstance(c, (Unit, Hero))}
    upgrades = {cid: bare(c) for cid, c in cards.items() if isinstance(c, Upgrade)}
    return fighters, upgrades


ENGINE: Engine[State] = Engine(
    game_id="carpe_cras", title=TITLE, min_players=PLAYER_COUNT, max_players=PLAYER_COUNT,
    options=Options, state=State, setup=set_up, rulebook=BOOK,
    over_rule=Words("%(book)s, Morale: at 0 morale the game ends and the opponent wins", book=BOOK))
