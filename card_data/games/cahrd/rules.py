"""C.A.H.R.D. scorekeeper: grain, reserves, officers, zones, battles and the war (Official Rulebook 1.0).

A table holds a whole war (How to Play: battles are played in sets of three, the first to win
two takes the war). Each battle the players enter, in rulebook order, one event class each:

1. Prepare for Battle: :class:`Mulligan` (step 3: an opening hand with too few officers is
   shown to the opponent and mulliganed, as often as needed), then :class:`SetUp` once per
   player (step 4: commander, strategist and the starting lieutenant(s), officers of the seat's
   army deck). They stay face down until their owner's first Draw Step (Glossary of Terms: Set).
2. Each turn (Turn Structure): :class:`StartTurn` (Draw Step; :class:`CannotDraw` instead
   loses the battle), :class:`Recruitment` (Recruitment Step: combined CHM x the tables'
   reserves per point), :class:`RecruitLieutenant` (Strategy Step only), then the Battle Step
   as often as the officers allow: :class:`DeclareAttack` (Declaration Step),
   :class:`Vanguard` (Vanguard Step: an officer, or the attack goes through to the grain),
   :class:`DamageStep` (Damage Step: WAR compared, with the WAR modifiers entered for that
   battle), and :class:`EndTurn` (End Step: active items and tactics are resolved).
3. Cards: :class:`SetCard` (a tactic or an item set face down in its zone),
   :class:`ActivateCard` (a set tactic or item turned face up, or an item played from the hand;
   an item's reserve cost is paid), :class:`DiscardCard` (a card of the Tactics or Items Zone
   sent to the discard pile), :class:`PlayStrategy` and :class:`DiscardStrategy` (The Game Mat
   3). :class:`CardEffect` records what an effect did to men under command, grain or reserves
   (trait damage, healing, costs), naming its card or not; :class:`StopAttack` records a card
   that stopped an attack before damage (Glossary of Terms: Battle/Battled).
4. After a battle, :class:`NextBattle`: the loser chooses who goes first (Prepare for Battle,
   step 5).

Every number (starting grain, reserves per CHM point, grain per WAR point, damage to a losing
officer, lieutenants, opening hand, battles of a war, what S counts as) comes from
``card_data/cahrd/tables.yaml`` through :mod:`.ranks`, and every officer's stats from the card
data; :func:`set_up` copies them into the state once (:class:`CardBook`).

Readings of ours where the rulebook is unclear or silent:

- Winning by lieutenants: "You win the battle if ... you defeat three enemy Lieutenants". The
  scorekeeper records who defeated each officer (the winner of the Damage Step, or the player
  of the card effect) and a player wins on defeating the tables' number (3) of the enemy's
  lieutenants, whoever holds the tokens. The physical token goes as option ``defeat_token_to``
  says: to the initiative player (Glossary of Terms: Defeated; the default) or to the player
  who defeated the officer (Defeat three Lieutenants). The two differ only when a lieutenant
  falls on its owner's turn, and a token so held never counts toward its holder's win.
- S in the Recruitment Step: S counts as 10 in battle and in card effects (Glossary of Terms:
  Stats), but the rulebook is silent on the Recruitment Step's combined CHM. By default a CHM
  of S counts there as the highest printed rank, 5; option ``s_rank_in_recruitment`` counts
  it as 10 (:mod:`.ranks`).
- Mulligans (Prepare for Battle, step 3) are entered before the player places their officers,
  as often as needed, each with the number of officers the hand shown held (fewer than the
  tables' 3); they are counted per battle.
- Zones (The Game Mat 7 and 8): each army's Tactics Zone and Items Zone hold at most one card
  per officer in play, the strategist not counted. Set cards are entered without their name
  (they are face down) and named when activated. When the limit later shrinks (an officer is
  defeated), no card is discarded, but no new card enters that zone until it is under the
  limit again. Cards are set (and items played from the hand) by the initiative player in
  their Strategy Step (Step 3: "Play Items, set tactics"). Only items and tactics of the
  seat's army deck are activated (any, for an army ``"any"``).
- Activation (Timings): during a turn, the initiative player may activate items, tactics and
  strategies; the non-initiative player may respond with tactics, or with items and
  strategies that disregard effects (the event says so in ``disregards``; the scorekeeper
  cannot read card text). The End Step (Step 5) sends every active (face-up) item and tactic
  of both armies to the discard pile, except those the player names as lasting.
  :class:`CardEffect` only records what an effect did, so either player enters it during a turn.
- Strategies (The Game Mat 3): one active strategy per player; playing another sends the old
  one to the discard pile, as does :class:`DiscardStrategy` when its requirement no longer
  holds. A strategy deck holds one copy of each strategy (Getting Started), so a strategy
  sent to the discard pile cannot be played again that battle. Looking through the strategy
  deck is limited to your Strategy Step; playing one follows Timings, as above.
- "Recruit up to two more" lieutenants counts recruitments during the battle (the tables'
  ``max_extra_lieutenants``), so a defeated lieutenant's place is not refilled beyond that.
- The attack marker (Declaration Step) stays on the officer until its owner's next
  Recruitment Step (Step 2): while it is there the officer may not attack again nor be
  declared a vanguard (Vanguard Step: "may not attack the previous turn").
- "No battle on the first turn" (Summary of the steps) applies to each player's first turn.
- The strategist never attacks nor is declared a vanguard, except by a card effect: the
  event then names the card in ``allowed_by_card``. On a vanguard that card also lifts the
  attacked-on-the-previous-turn rule (e.g. Horse Master's trait).
- :class:`CannotDraw` is entered in place of the Draw Step of the player who cannot draw (Step 1).
- A battle where both players meet a losing condition at once (e.g. an effect on both armies'
  grain) is drawn; a drawn battle counts for nobody, and either player may choose who goes
  first in the next. After the tables' number of battles (3) the player with more wins takes
  the war; equal wins draw the war.
- Battle 1: whoever enters the first :class:`StartTurn` goes first (the players decide, step 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import Field

from card_data.engine import (
    Bounded,
    Choice,
    Counter,
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
from card_data.games.cahrd import TITLE
from card_data.games.cahrd.cards import RULEBOOK as EDITION
from card_data.games.cahrd.ranks import (
    DEFAULT_S_RANK_IN_RECRUITMENT,
    S_RANK_READINGS,
    SRankInRecruitment,
    battle_value,
    recruitment_reserves,
    recruitment_value,
)

BOOK = f"C.A.H.R.D. {EDITION}"
ANY_ARMY = "any"
"""Option value for an army that may field any officer, item and tactic of the card data."""

# Each rule is one message "<book>, <section>: <text>": the book's title is a name (a param); the
# section and the text are translated together, so a translation may keep the English section
# names a reader looks up in the (English-only) rulebook.
RULE_ARMY = Words("%(book)s, Getting Started (Deck): each player commands an army deck of officers, items and "
                  "tactics", book=BOOK)
RULE_MULLIGAN = Words("%(book)s, Prepare for Battle (step 3): a player whose opening hand holds too few officers "
                      "shows it to the opponent and mulligans, as often as needed, before placing officers",
                      book=BOOK)
RULE_SETUP = Words("%(book)s, Prepare for Battle (step 4): each player places a commander, a strategist and the "
                   "starting lieutenants, all different officers of their own army", book=BOOK)
RULE_ORDER = Words("%(book)s, Turn Structure: each turn runs Draw, Recruitment, Strategy, Battle and End Step, "
                   "and the initiative passes to the other player each turn", book=BOOK)
RULE_FIRST = Words("%(book)s, Prepare for Battle (step 5): in a war, the loser of the previous battle decides who "
                   "goes first", book=BOOK)
RULE_RECRUITMENT = Words("%(book)s, Step 2: The Recruitment Step: once a turn, after the Draw Step, the army "
                         "gains reserves at the rate of its combined CHM", book=BOOK)
RULE_RECRUIT = Words("%(book)s, Step 3: Strategy Step; The Game Mat (6 - The Lieutenant Zone): officers are "
                     "recruited only in your Strategy Step, paying their recruitment cost from reserves, and only "
                     "a few more lieutenants a battle", book=BOOK)
RULE_FIRST_TURN = Words("%(book)s, Summary of the steps (Battle Step): no battle on a player's first turn",
                        book=BOOK)
RULE_DECLARE = Words("%(book)s, Step 4: The Declaration Step: the initiative player appoints an attacking "
                     "officer; each officer attacks at most once a turn", book=BOOK)
RULE_STRATEGIST = Words("%(book)s, The Game Mat (5 - The Strategist Zone); The Declaration Step: the strategist "
                        "never attacks nor is attacked, except by card effect", book=BOOK)
RULE_VANGUARD = Words("%(book)s, Step 4: The Vanguard Step: the defender names a lieutenant or the commander that "
                      "did not attack on the previous turn, or lets the attack through to the grain", book=BOOK)
RULE_DAMAGE = Words("%(book)s, Step 4: The Damage Step: the officers' WAR is compared and the loser takes damage; "
                    "an attack on the grain costs grain by the attacker's base WAR", book=BOOK)
RULE_BATTLED = Words("%(book)s, Glossary of Terms (Battle/Battled): an attack may stop before damage calculation",
                     book=BOOK)
RULE_PAY = Words("%(book)s, Glossary of Terms (Pay a Cost): a cost must be paid in full from what the player has",
                 book=BOOK)
RULE_EFFECT = Words("%(book)s, Glossary of Terms (Effects of Cards; Damage): a card effect changes men under "
                    "command, grain or reserves as its text says", book=BOOK)
RULE_SET_CARDS = Words("%(book)s, Step 3: Strategy Step; Item Card (How to Read): the initiative player plays "
                       "items and sets tactics in their Strategy Step", book=BOOK)
RULE_TACTIC_SET_FIRST = Words("%(book)s, Cards of CAHRD (Tactics); Tactics Card (How to read): a tactic must be "
                              "set face down before it is activated", book=BOOK)
RULE_ITEM = Words("%(book)s, Item Card (How to Read); Glossary of Terms (Pay a Cost): an item is activated from "
                  "the hand or after being set, its reserve cost paid on activation", book=BOOK)
RULE_TIMINGS = Words("%(book)s, Timings: the initiative player may activate items, tactics, traits and "
                     "strategies; the non-initiative player responds only with tactics, or with items, traits and "
                     "strategies that disregard effects", book=BOOK)
RULE_STRATEGY = Words("%(book)s, The Game Mat (3 - The Strategy Deck): one active strategy per player: a new one, "
                      "or a requirement no longer met by its controller, sends it to the discard pile; a strategy "
                      "deck holds one copy of each strategy", book=BOOK)
RULE_END_STEP = Words("%(book)s, Step 5: The End Step: active items and tactics not yet resolved are resolved, "
                      "unless their effect continues beyond the turn", book=BOOK)
RULE_BATTLE_OVER = Words("%(book)s, Winning the Battle: a battle ends when a player meets a victory condition",
                         book=BOOK)
RULE_WAR = Words("%(book)s, How to Play: battles are played in a war; the war ends once a player has won most of "
                 "its battles, or after its last battle", book=BOOK)

ZONE_RULES = {
    "tactics": Words("%(book)s, The Game Mat (7 - Tactics Zone): the tactics in play are limited to the number of "
                     "officers in play, the strategist not counted", book=BOOK),
    "items": Words("%(book)s, The Game Mat (8 - Items Zone): the items in play are limited to the number of "
                   "officers in play, the strategist not counted", book=BOOK),
}

Position = Literal["commander", "strategist", "lieutenant"]
CardKind = Literal["officer", "item", "tactic", "strategy"]
Zone = Literal["tactics", "items"]
ZONE_NAMES = {"tactics": Words("Tactics Zone"), "items": Words("Items Zone")}
ZONE_KINDS: dict[str, CardKind] = {"tactics": "tactic", "items": "item"}
CahrdStep = Literal["setting_up", "between_turns", "draw", "strategy", "battle", "battle_over"]
"""The game's own steps: ``setting_up``: officers being placed (phase ``setup``);
``between_turns``: waiting for the next Draw Step; ``draw``: drawn, Recruitment Step next;
``strategy``: Strategy Step; ``battle``: Battle Step (an attack was declared this turn)
(these four: phase ``play``); ``battle_over``: waiting for :class:`NextBattle` (phase
``setup``), or the war's last battle (phase ``over``)."""

STEP_PHASES = {"setting_up": "setup", "between_turns": "play", "draw": "play", "strategy": "play", "battle": "play",
               "battle_over": "setup"}
STEP_LABELS = {
    "setting_up": Words("Set-up: place your officers"),
    "between_turns": Words("Next: Draw Step"),
    "draw": Words("Draw Step done: Recruitment Step next"),
    "strategy": Words("Strategy Step"),
    "battle": Words("Battle Step"),
    "battle_over": Words("Battle over"),
}
TURN_STEPS = ("draw", "strategy", "battle")
TOKEN_READINGS = {
    "initiative_player": Words("the initiative player (Glossary of Terms: Defeated)"),
    "defeating_player": Words("the player who defeated the lieutenant (Defeat three Lieutenants)"),
}
POSITION_NAMES = {"commander": Words("commander"), "strategist": Words("strategist"),
                  "lieutenant": Words("lieutenant")}
"""Each officer position as a choice's note names it."""
A_KIND = {"officer": Words("an officer"), "item": Words("an item"), "tactic": Words("a tactic"),
          "strategy": Words("a strategy")}
"""Each card type with its article, as refusals say it (``"... is an item"``)."""
STRATEGIST_NOTE = Words("strategist: only by a card's effect")

CardId = Annotated[str, Field(min_length=1)]

# The bounds of what players enter (every number an event takes has one, see
# card_data.engine.bounds): from the rulebook where it sets one, a sane value elsewhere.
OPENING_HAND = 7
"""Prepare for Battle (step 3): "Both players draw 7 cards": a hand shown holds at most 7 officers."""
MOST_DECK = 60
"""Getting Started (Deck): "The deck must consist of 40 to 60 cards": no zone holds more cards,
and no list of an army's cards is longer."""
MOST_WAR_MODIFIER = 100
"""A sane bound on a WAR modifier entered: ten times S, the highest rank (10; Glossary of Terms:
Stats)."""
MOST_MEN_CHANGE = 100
"""A sane bound on a change of men under command: an officer card prints a few points (Officer
Card: "Men Under Command: 4 Points")."""
MOST_GRAIN_CHANGE = 100_000
"""A sane bound on a change of grain: 25 times the 4000 an army starts with (Winning the Battle);
an attack on the grain takes the attacker's base WAR x100 (Step 4: The Damage Step)."""
MOST_RESERVES_CHANGE = 1_000_000
"""A sane bound on a change of reserves: they come at the army's combined CHM x1000 a turn (Step
2: The Recruitment Step)."""


class Options(Model):
    """Table options.

    Attributes:
        army_seat_1, army_seat_2: the id of each seat's army deck in the card data (e.g.
            ``"shield-wall"``), or ``"any"`` to field any officer, item and tactic of the card data.
        defeat_token_to: who holds the token of a defeated lieutenant: ``"initiative_player"``
            (Glossary of Terms: Defeated; the default) or ``"defeating_player"`` (Defeat three
            Lieutenants). Either way the battle is won by defeating three enemy lieutenants.
        s_rank_in_recruitment: what a CHM of S counts as in the Recruitment Step (see :mod:`.ranks`).
    """

    army_seat_1: str = Field("shield-wall", title=Words("Army of seat 1"),
                             description=Words("army deck id from the card data, or 'any'"))
    army_seat_2: str = Field("swift-riders", title=Words("Army of seat 2"),
                             description=Words("army deck id from the card data, or 'any'"))
    # The labels are what the form derived from the values before ("Initiative player"), made
    # translatable.
    defeat_token_to: Literal["initiative_player", "defeating_player"] = Field(
        "initiative_player", title=Words("Lieutenant defeat token goes to"),
        description=Words("the initiative player (Glossary: Defeated) or the player who defeated it (Defeat three "
                          "Lieutenants); either way, defeating three enemy lieutenants wins the battle"),
        json_schema_extra={"labels": {"initiative_player": Words("Initiative player"),
                                      "defeating_player": Words("Defeating player")}})
    s_rank_in_recruitment: SRankInRecruitment = Field(
        DEFAULT_S_RANK_IN_RECRUITMENT, title=Words("A CHM of S in the Recruitment Step"),
        description=Words("highest_printed_rank: %(highest)s; s_rank_value: %(s10)s (Glossary of Terms: Stats)",
                          highest=S_RANK_READINGS["highest_printed_rank"], s10=S_RANK_READINGS["s_rank_value"]),
        json_schema_extra={"labels": {"highest_printed_rank": Words("Highest printed rank"),
                                      "s_rank_value": Words("S rank value")}})


# ---- the card data, copied once --------------------------------------------------------------

class Constants(Model):
    """The numbers of ``tables.yaml`` (``constants.<name>.value``) a scorekeeper uses."""

    starting_grain: int
    reserves_per_chm_point: int
    grain_damage_per_war_point: int
    battle_damage_to_losing_officer: int
    s_rank_value: int
    starting_lieutenants: int
    max_extra_lieutenants: int
    lieutenants_defeated_to_win: int
    opening_hand: int
    min_officers_in_opening_hand: int
    battles_per_war: int
    battles_to_win_war: int


class OfficerStats(Model):
    """An officer card's numbers: ``war`` as it counts in battle (S as 10), ``chm`` as it counts
    in this table's Recruitment Step (:mod:`.ranks`), and both as printed (``"S"`` or a digit)."""

    title: str
    war: int
    chm: int
    printed_war: str
    printed_chm: str
    men_under_command: int
    recruitment_cost: int


class CardInfo(Model):
    """Any card of the card data: its title, type and, for an item, its reserve cost."""

    title: str
    kind: CardKind
    reserve_cost: int = 0


class ArmyDeck(Model):
    """A seat's army: the deck id (or ``"any"``) and the ids of the officers, items and tactics it holds."""

    id: str
    cards: tuple[str, ...]


class CardBook(Model):
    """Everything the table copies from the card data once (:func:`set_up`): the tables'
    constants, every card by id, the officers' numbers and each seat's army deck."""

    constants: Constants
    cards: ReadOnlyDict[str, CardInfo]
    officers: ReadOnlyDict[str, OfficerStats]
    armies: tuple[ArmyDeck, ...]


# ---- the battle ---------------------------------------------------------------------------------

class FieldOfficer(Model):
    """An officer on the field: its card id, zone, men under command left, and whether the
    Declaration Step's attack marker is on it (placed when it attacks, removed in its owner's
    next Recruitment Step)."""

    card: str
    position: Position
    men_under_command: int
    attack_marker: bool = False


class DefeatedOfficer(Model):
    """An officer sent to the discard pile this battle: its card, the zone it held, and the seat
    of the player who defeated it (the Damage Step's winner, or the player of the card effect)."""

    card: str
    position: Position
    defeated_by: int


class ZoneCard(Model):
    """A card in a Tactics or Items Zone: face down (set; ``card`` unknown until it is
    activated) or face up (active, ``card`` named)."""

    card: str | None = None
    face_up: bool = False


class Army(Model):
    """One player's side of the current battle.

    ``grain``, ``reserves``: amounts; ``officers``: on the field; ``defeated``: officers sent to
    the discard pile this battle, in order; ``lieutenants_recruited``: recruited after set-up;
    ``defeat_tokens``: lieutenant defeat tokens this player holds (see ``defeat_token_to``);
    ``turns_taken`` this battle; ``set_up``: officers placed; ``revealed``: the starting
    officers have been revealed (first Draw Step); ``mulligans``: opening hands shown and
    mulliganed; ``tactics``, ``items``: the Tactics and Items Zones; ``strategy``: the active
    strategy's id; ``discarded``: ids of the cards entered here as sent to the discard pile
    (strategies, resolved items and tactics; defeated officers are in ``defeated``).
    """

    grain: int
    reserves: int = 0
    officers: tuple[FieldOfficer, ...] = ()
    defeated: tuple[DefeatedOfficer, ...] = ()
    lieutenants_recruited: int = 0
    defeat_tokens: int = 0
    turns_taken: int = 0
    set_up: bool = False
    revealed: bool = False
    mulligans: int = 0
    tactics: tuple[ZoneCard, ...] = ()
    items: tuple[ZoneCard, ...] = ()
    strategy: str | None = None
    discarded: tuple[str, ...] = ()

    def officer(self, card: str) -> FieldOfficer | None:
        """The officer ``card`` if it is on this army's field, else ``None``."""
        return next((o for o in self.officers if o.card == card), None)

    @property
    def commander(self) -> FieldOfficer | None:
        return next((o for o in self.officers if o.position == "commander"), None)

    @property
    def strategist(self) -> FieldOfficer | None:
        return next((o for o in self.officers if o.position == "strategist"), None)

    @property
    def lieutenants(self) -> tuple[FieldOfficer, ...]:
        return tuple(o for o in self.officers if o.position == "lieutenant")

    def zone(self, zone: str) -> tuple[ZoneCard, ...]:
        """The cards in the ``"tactics"`` or ``"items"`` zone."""
        return self.tactics if zone == "tactics" else self.items

    def lieutenants_defeated_by(self, seat: int) -> int:
        """How many of this army's lieutenants player ``seat`` defeated this battle."""
        return sum(1 for d in self.defeated if d.position == "lieutenant" and d.defeated_by == seat)


class Attack(Model):
    """The attack being fought: the attacking seat and officer, and the vanguard once declared."""

    seat: int
    officer: str
    vanguard: str | None = None


class BattleResult(Model):
    """A finished battle: the winning seat (``None`` for a draw) and why, for people."""

    winner: int | None
    reason: Said


class State(GameState):
    """A C.A.H.R.D. table: a war of battles between two armies.

    Attributes:
        phase: ``setup`` while officers are placed and between battles, ``play`` during the
            turns of a battle, ``over`` once the war has ended.
        step: the game's own step (:data:`CahrdStep`).
        options: the table's :class:`Options`.
        cards: the card data the table uses (:class:`CardBook`), copied once.
        armies: one per seat, for the current battle.
        battle_number: 1-based; ``results``: finished battles.
        initiative: whose turn it is (``None`` before the battle's first turn); ``turn``: turns
            started this battle; ``first_seat``: who must go first, when the loser chose;
        attack: the attack in progress, if any.
    """

    score_label = Words("Battles won")

    step: CahrdStep = "setting_up"
    options: Options
    cards: CardBook
    armies: tuple[Army, ...]
    battle_number: int = 1
    results: tuple[BattleResult, ...] = ()
    initiative: int | None = None
    turn: int = 0
    first_seat: int | None = None
    attack: Attack | None = None

    # -- where the game stands --

    def scores(self) -> tuple[float, ...]:
        """Battles won by each seat."""
        return tuple(float(w) for w in self.wins())

    def winners(self) -> tuple[int, ...]:
        """The seat with more battles won once the war is over; none for equal wins."""
        wins = self.wins()
        best = max(wins)
        return (wins.index(best),) if self.finished and wins.count(best) == 1 else ()

    def rounds_played(self) -> int:
        """Battles fought to their end: the war's rounds (C.A.H.R.D. has turns, not rounds)."""
        return len(self.results)

    def summary(self) -> str:
        """``"Battle 2; battles won: Red 1 – Blue 0"``, or once the war is over ``"Red wins the
        war, Red 2 – Blue 0 (Blue could not draw)"`` / ``"The war is drawn, ..."``."""
        # Names and numbers only: the same in every language.
        score = " – ".join(f"{name} {w}" for name, w in zip(self.players, self.wins()))
        if not self.finished:
            return Words("Battle %(n)d; battles won: %(score)s", n=self.battle_number, score=score)
        winners = self.winners()
        if not self.results:
            return (Words("%(player)s wins the war, %(score)s", player=self.players[winners[0]], score=score)
                    if winners else Words("The war is drawn, %(score)s", score=score))
        reason = self.results[-1].reason
        return (Words("%(player)s wins the war, %(score)s (%(reason)s)", player=self.players[winners[0]],
                      score=score, reason=reason) if winners
                else Words("The war is drawn, %(score)s (%(reason)s)", score=score, reason=reason))

    def wins(self) -> tuple[int, ...]:
        """Battles won by each seat so far."""
        return tuple(sum(1 for r in self.results if r.winner == seat) for seat in range(len(self.players)))

    def step_label(self) -> str:
        """The current step for people, e.g. ``"Strategy Step"``."""
        return Words("War over") if self.finished else STEP_LABELS[self.step]

    # -- the numbers a page shows --

    @property
    def constants(self) -> Constants:
        """The tables' numbers this table plays with."""
        return self.cards.constants

    def title(self, card: str | None) -> str:
        """A card's title by id (the id itself if unknown)."""
        info = self.cards.cards.get(card) if card is not None else None
        return info.title if info is not None else str(card)

    def army_id(self, seat: int) -> str:
        """The id of ``seat``'s army deck, or ``"any"``."""
        return self.cards.armies[seat].id

    def officer_pool(self, seat: int) -> tuple[str, ...]:
        """Officer ids ``seat``'s army may field."""
        return self.deck_cards(seat, "officer")

    def deck_cards(self, seat: int, kind: CardKind) -> tuple[str, ...]:
        """Ids of ``seat``'s army deck cards of type ``kind`` (every strategy for ``"strategy"``:
        strategy decks are not chosen at this table)."""
        cards = self.cards.cards if kind == "strategy" else self.cards.armies[seat].cards
        return tuple(card for card in cards if self.cards.cards[card].kind == kind)

    def officer_label(self, card: str) -> str:
        """``"Oda Nobunaga (WAR 4, CHM 3, men 4)"``."""
        o = self.cards.officers[card]
        return Words("%(title)s (WAR %(war)s, CHM %(chm)s, men %(men)d)", title=o.title, war=o.printed_war,
                     chm=o.printed_chm, men=o.men_under_command)

    def available(self, seat: int) -> tuple[str, ...]:
        """Officer ids of ``seat``'s pool neither on the field nor defeated this battle."""
        army = self.armies[seat]
        used = {o.card for o in army.officers} | {o.card for o in army.defeated}
        return tuple(card for card in self.officer_pool(seat) if card not in used)

    def next_starter(self) -> int | None:
        """The seat whose turn starts next, or ``None`` when either may (a battle's first turn
        with no loser's choice); only meaningful between turns."""
        if self.turn == 0:
            return self.first_seat
        return 1 - self.initiative

    def counters(self) -> list[Counter]:
        """Each army's grain and reserves, one tap to change them by a grain-damage point
        (100 grain) or a CHM point's worth (1000 reserves) during a turn: a card effect entered
        without naming a card (:class:`CardEffect`), checked like any other (Pay a Cost: no
        reserves below 0; Destroy the enemy Grain: grain at 0 ends the battle)."""
        if not self.turn_in_progress():
            return []
        grain_step = self.constants.grain_damage_per_war_point
        reserves_step = self.constants.reserves_per_chm_point
        counters = []
        for seat, name in enumerate(self.players):
            army = self.armies[seat]

            def tap(label: str, **change: int) -> Move:
                return CardEffect.offer(self, label=label, seat=seat, card=None, target_seat=seat, officer=None,
                                        men_change=0, **{"grain_change": 0, "reserves_change": 0, **change})

            counters.append(Counter(label=Words("%(name)s's grain", name=name), value=army.grain, seat=seat,
                                    step=grain_step,
                                    minus=tap(Words("%(name)s: −%(n)d grain", name=name, n=grain_step),
                                              grain_change=-grain_step),
                                    plus=tap(Words("%(name)s: +%(n)d grain", name=name, n=grain_step),
                                             grain_change=grain_step)))
            counters.append(Counter(label=Words("%(name)s's reserves", name=name), value=army.reserves, seat=seat,
                                    step=reserves_step,
                                    minus=tap(Words("%(name)s: −%(n)d reserves", name=name, n=reserves_step),
                                              reserves_change=-reserves_step)
                                    if army.reserves >= reserves_step else None,
                                    plus=tap(Words("%(name)s: +%(n)d reserves", name=name, n=reserves_step),
                                             reserves_change=reserves_step)))
        return counters

    def turn_in_progress(self) -> bool:
        """Whether a turn is being played (Draw, Strategy or Battle Step)."""
        return self.step in TURN_STEPS

    def battle_going(self) -> bool:
        """Whether a battle's turns are on (both set up, the battle not over)."""
        return self.phase == "play"

    def marker_label(self, seat: int, officer: FieldOfficer) -> str:
        """What the attack marker on ``officer`` (of ``seat``) means now: ``"attacked this turn"``
        during its owner's turn after the Recruitment Step, ``"attacked the previous turn"``
        otherwise; ``""`` without a marker or once the battle is over."""
        if not officer.attack_marker or not self.battle_going():
            return ""
        if self.initiative == seat and self.step in ("strategy", "battle"):
            return Words("attacked this turn")
        return Words("attacked the previous turn")

    def defending_seat(self) -> int | None:
        """The seat defending against the attack in progress, if any."""
        return None if self.attack is None else other(self.attack.seat)

    def may_attack(self) -> bool:
        """The initiative player may declare an attack now (first-turn rule included)."""
        return (self.step in ("strategy", "battle") and self.attack is None
                and self.armies[self.initiative].turns_taken > 1)

    def combined_chm(self, seat: int) -> int:
        """The combined CHM of ``seat``'s officers on the field, as the Recruitment Step counts it."""
        return sum(self.cards.officers[o.card].chm for o in self.armies[seat].officers)

    def recruitment_reserves(self, seat: int) -> int:
        """Reserves ``seat`` gains in a Recruitment Step now: the combined CHM of its officers on
        the field x the tables' reserves per CHM point (Step 2: The Recruitment Step)."""
        return recruitment_reserves([self.cards.officers[o.card].chm for o in self.armies[seat].officers],
                                    self.constants.reserves_per_chm_point)

    def grain_damage(self, officer: str) -> int:
        """Grain an attack by ``officer`` costs when let through: its base WAR (S as 10) x the
        tables' grain per WAR point (Step 4: The Damage Step)."""
        return self.cards.officers[officer].war * self.constants.grain_damage_per_war_point

    def battle_loser(self) -> int | None:
        """The loser of the last finished battle (``None`` before any, or after a draw)."""
        if not self.results or self.results[-1].winner is None:
            return None
        return 1 - self.results[-1].winner

    def enemy_lieutenants_defeated(self, seat: int) -> int:
        """Lieutenants of the enemy that ``seat`` defeated this battle (Defeat three Lieutenants)."""
        return self.armies[1 - seat].lieutenants_defeated_by(seat)

    def officers_in_play(self, seat: int) -> int:
        """Officers on ``seat``'s field, the strategist not counted (The Game Mat 7 and 8)."""
        return sum(1 for o in self.armies[seat].officers if o.position != "strategist")

    def zone_limit(self, seat: int) -> int:
        """Cards ``seat``'s Tactics Zone, and its Items Zone, may hold (The Game Mat 7 and 8)."""
        return self.officers_in_play(seat)

    def zone_room(self, seat: int, zone: str) -> int:
        """Cards that may still enter ``seat``'s ``zone``; 0 or less when full (a limit that
        shrank below the cards already there discards nothing: see the module docstring)."""
        return self.zone_limit(seat) - len(self.armies[seat].zone(zone))

    def zones(self, seat: int) -> tuple[tuple[str, str, tuple[ZoneCard, ...]], ...]:
        """``(zone, name, cards)`` of ``seat``'s Tactics Zone and Items Zone, for pages."""
        return tuple((zone, name, self.armies[seat].zone(zone)) for zone, name in ZONE_NAMES.items())

    def s_rank_reading(self) -> str:
        """What a CHM of S counts as in this table's Recruitment Step, in words."""
        return S_RANK_READINGS[self.options.s_rank_in_recruitment]

    def token_reading(self) -> str:
        """Who gets a defeated lieutenant's token at this table, in words."""
        return TOKEN_READINGS[self.options.defeat_token_to]

    def face_down(self, seat: int, zone: str) -> int:
        """Set (face-down) cards in ``seat``'s ``zone``."""
        return sum(1 for c in self.armies[seat].zone(zone) if not c.face_up)

    def active_cards(self) -> tuple[tuple[int, str, str], ...]:
        """``(seat, zone, card)`` of every face-up item and tactic on the field."""
        return tuple((seat, zone, c.card) for seat, army in enumerate(self.armies) for zone in ZONE_NAMES
                     for c in army.zone(zone) if c.face_up)

    def may_activate(self, seat: int, disregards: bool, kind: CardKind) -> bool:
        """Whether ``seat`` may activate a card of ``kind`` now (Timings; see the module docstring)."""
        return self.turn_in_progress() and (seat == self.initiative or kind == "tactic" or disregards)


def other(seat: int) -> int:
    """The opponent's seat."""
    return 1 - seat


# ---- set-up -------------------------------------------------------------------------------------

def _army_deck(army: str, game: Any) -> ArmyDeck:
    if army == ANY_ARMY:
        return ArmyDeck(id=army, cards=tuple(c.id for c in game.cards.values()
                                             if c.type in ("officer", "item", "tactic")))
    deck = game.decks.get(army)
    if deck is None or deck.kind != "army":
        known = ", ".join(sorted(d.id for d in game.decks.values() if d.kind == "army"))
        raise RuleError(RULE_ARMY, Words("there is no army deck %(army)s in the card data; choose one of: "
                                         "%(known)s, or %(any)s", army=repr(army), known=known, any=repr(ANY_ARMY)))
    return ArmyDeck(id=army, cards=tuple(dict.fromkeys(e.card for e in deck.cards)))


def _fresh_army(constants: Constants) -> Army:
    return Army(grain=constants.starting_grain)


def set_up(players: tuple[str, ...], options: Options, game: Any) -> State:
    """A war about to start: two armies from the options' decks, the tables' constants.

    ``players``: two names, in seat order (the engine checks the count); ``game``: the
    ``cahrd`` card data. Raises :class:`RuleError` for an army that is not an army deck of
    the card data (Getting Started), or one with too few officers to set up.
    """
    table = game.tables.constants
    constants = Constants(**{name: getattr(table, name).value for name in Constants.model_fields})
    decks = tuple(_army_deck(army, game) for army in (options.army_seat_1, options.army_seat_2))
    for deck in decks:
        officers = [c for c in deck.cards if game.cards[c].type == "officer"]
        if len(officers) < 2 + constants.starting_lieutenants:
            raise RuleError(RULE_SETUP, Words("army %(army)s has only %(n)d officers, too few to set up",
                                              army=repr(deck.id), n=len(officers)))
    officers = {
        card.id: OfficerStats(title=card.title, war=battle_value(card.war, constants.s_rank_value),
                              chm=recruitment_value(card.chm, options.s_rank_in_recruitment, constants.s_rank_value),
                              printed_war=str(card.war), printed_chm=str(card.chm),
                              men_under_command=card.men_under_command, recruitment_cost=card.recruitment_cost)
        for card in game.cards.values() if card.type == "officer"
    }
    cards = {card.id: CardInfo(title=card.title, kind=card.type, reserve_cost=getattr(card, "reserve_cost", 0))
             for card in game.cards.values()}
    book = CardBook(constants=constants, cards=cards, officers=officers, armies=decks)
    return State(players=players, phase="setup", options=options, cards=book,
                 armies=tuple(_fresh_army(constants) for _ in players))


ENGINE: Engine[State] = Engine(
    game_id="cahrd", title=TITLE, min_players=2, max_players=2, options=Options, state=State, setup=set_up,
    over_rule=RULE_WAR, rulebook=BOOK,
    # Tables stored before the option existed counted a CHM of S as 10 in the Recruitment Step.
    stored_defaults={"s_rank_in_recruitment": "s_rank_value"})


# ---- shared steps -------------------------------------------------------------------------------

def _at(state: State, step: str, **changes: object) -> State:
    """``state`` at ``step``, its phase following (:data:`STEP_PHASES`)."""
    return state.evolve(step=step, phase=STEP_PHASES[step], **changes)


def _with_army(state: State, seat: int, army: Army) -> State:
    return state.evolve(armies=replace_at(state.armies, seat, army))


def _with_officer(army: Army, officer: FieldOfficer) -> Army:
    return army.evolve(officers=tuple(officer if o.card == officer.card else o for o in army.officers))


def _check_card(state: State, card: str | None, kind: CardKind | None = None) -> None:
    if card is None:
        return
    info = state.cards.cards.get(card)
    if info is None:
        raise RuleError(RULE_EFFECT, Words("there is no card %(card)s in the C.A.H.R.D. card data", card=repr(card)))
    if kind is not None and info.kind != kind:
        raise RuleError(RULE_EFFECT, Words("%(title)s is %(kind)s, not %(wanted)s", title=info.title,
                                           kind=A_KIND[info.kind], wanted=A_KIND[kind]))


def _check_battle_going(state: State) -> None:
    if state.step == "battle_over":
        raise RuleError(RULE_BATTLE_OVER, _battle_is_over(state))
    if state.step == "setting_up":
        raise RuleError(RULE_SETUP, Words("both players set up their officers first"))


def _battle_is_over(state: State) -> Words:
    return Words("battle %(n)d is over: start the next battle first", n=state.battle_number)


# ``doing`` (what the player tried, e.g. "setting a card") is a Words phrase that fits after
# "before" and "(... is for the initiative player)"; translations give it as a phrase that fits
# their versions of both.
def _check_turn(state: State, doing: Words) -> None:
    _check_battle_going(state)
    if not state.turn_in_progress():
        raise RuleError(RULE_ORDER, Words("no turn is in progress: start a turn before %(doing)s", doing=doing))


def _check_initiative(state: State, seat: int, doing: Words) -> None:
    """``seat`` must be the initiative player with a turn in progress."""
    _check_turn(state, doing)
    if seat != state.initiative:
        raise RuleError(RULE_ORDER, Words("it is %(active)s's turn, not %(player)s's (%(doing)s is for the "
                                          "initiative player)", active=state.players[state.initiative],
                                          player=state.players[seat], doing=doing))


def _check_no_attack(state: State, doing: Words) -> None:
    if state.attack is not None:
        raise RuleError(RULE_DAMAGE, Words("an attack is still being fought: finish it before %(doing)s",
                                           doing=doing))


def _check_timing(state: State, seat: int, kind: CardKind, disregards: bool, doing: Words) -> None:
    """Timings: outside their turn a player only responds, with a tactic or a disregarding card."""
    _check_turn(state, doing)
    if not state.may_activate(seat, disregards, kind):
        # One whole message per card type: a translation may need the type in another case.
        active, player = state.players[state.initiative], state.players[seat]
        if kind == "item":
            message = Words("it is %(active)s's turn: %(player)s may respond only with a tactic, or with an item "
                            "that disregards an effect", active=active, player=player)
        else:  # a strategy (a tactic is always allowed: may_activate)
            message = Words("it is %(active)s's turn: %(player)s may respond only with a tactic, or with a "
                            "strategy that disregards an effect", active=active, player=player)
        raise RuleError(RULE_TIMINGS, message)


def _defeat(state: State, seat: int, officer: FieldOfficer, by_seat: int) -> State:
    """``officer`` of ``seat`` reached 0 men: to the discard pile, recording who defeated it; a
    lieutenant's token goes as the ``defeat_token_to`` option says (Glossary of Terms:
    Defeated; Defeat three Lieutenants)."""
    army = state.armies[seat]
    army = army.evolve(officers=tuple(o for o in army.officers if o.card != officer.card),
                       defeated=(*army.defeated, DefeatedOfficer(card=officer.card, position=officer.position,
                                                                 defeated_by=by_seat)))
    state = _with_army(state, seat, army)
    if officer.position == "lieutenant":
        to = state.initiative if state.options.defeat_token_to == "initiative_player" else by_seat
        holder = state.armies[to]
        state = _with_army(state, to, holder.evolve(defeat_tokens=holder.defeat_tokens + 1))
    attack = state.attack
    fighting = None if attack is None else attack.officer if attack.seat == seat else attack.vanguard
    if officer.card == fighting:
        state = state.evolve(attack=None)  # one side of the fight is gone: no Damage Step
    return state


def _change_men(state: State, seat: int, card: str, change: int, by_seat: int) -> State:
    officer = state.armies[seat].officer(card)
    men = officer.men_under_command + change
    if men <= 0:
        return _defeat(state, seat, officer, by_seat)
    return _with_army(state, seat, _with_officer(state.armies[seat], officer.evolve(men_under_command=men)))


def _end_battle(state: State, winner: int | None, reason: str) -> State:
    results = (*state.results, BattleResult(winner=winner, reason=reason))
    wins = [sum(1 for r in results if r.winner == seat) for seat in range(len(state.players))]
    over = max(wins) >= state.constants.battles_to_win_war or len(results) >= state.constants.battles_per_war
    after = _at(state, "battle_over", results=results, attack=None)
    return after.evolve(phase="over") if over else after


def _settle(state: State) -> State:
    """End the battle if a victory condition is met (Winning the Battle): an army whose commander
    is defeated or whose grain is 0 or less loses, and so does one whose enemy has defeated the
    tables' number of its lieutenants. Both sides losing at once is a draw."""
    losers: set[int] = set()
    reasons: list[Words] = []
    for seat, army in enumerate(state.armies):
        name = state.players[seat]
        if army.set_up and army.commander is None:
            losers.add(seat)
            reasons.append(Words("%(name)s's commander was defeated", name=name))
        if army.grain <= 0:
            losers.add(seat)
            reasons.append(Words("%(name)s's grain was destroyed", name=name))
        defeated = army.lieutenants_defeated_by(other(seat))
        if defeated >= state.constants.lieutenants_defeated_to_win:
            losers.add(seat)
            reasons.append(Words("%(winner)s defeated %(n)d of %(name)s's lieutenants",
                                 winner=state.players[other(seat)], n=defeated, name=name))
    if not losers:
        return state
    winner = None if len(losers) > 1 else other(losers.pop())
    return _end_battle(state, winner, _joined(reasons))


def _joined(parts: Sequence[Words]) -> Words:
    """``parts`` (at least one) as one ``"a; b; c"`` message, each part still translatable."""
    joined = parts[0]
    for part in parts[1:]:
        joined = Words("%(first)s; %(then)s", first=joined, then=part)
    return joined


def _men_line(before: State, after: State, seat: int, card: str) -> Words:
    old = before.armies[seat].officer(card)
    new = after.armies[seat].officer(card)
    title = before.title(card)
    if new is None:
        line = Words("%(title)s loses its last men and is defeated", title=title)
        if old.position == "lieutenant":
            holder = next(s for s in range(2) if after.armies[s].defeat_tokens > before.armies[s].defeat_tokens)
            line = Words("%(line)s; %(player)s gets a defeat token (%(n)d)", line=line,
                         player=after.players[holder], n=after.armies[holder].defeat_tokens)
            by = after.armies[seat].defeated[-1].defeated_by
            if by != holder:
                line = Words("%(line)s, though %(player)s defeated it", line=line, player=after.players[by])
        return line
    return Words("%(title)s men under command %(old)d → %(new)d", title=title, old=old.men_under_command,
                 new=new.men_under_command)


def _with_result(line: Words, before: State, after: State) -> Words:
    """``line``, followed by the battle's result if this event ended the battle."""
    if len(after.results) == len(before.results):
        return line
    result = after.results[-1]
    won = (Words("%(player)s wins battle %(n)d", player=after.players[result.winner], n=after.battle_number)
           if result.winner is not None else Words("battle %(n)d is drawn", n=after.battle_number))
    return Words("%(line)s. %(result)s: %(reason)s", line=line, result=won, reason=result.reason)


def _card_choices(state: State, cards: Sequence[str], note=None) -> list[Choice]:
    return [Choice(card, state.title(card), note(card) if note else "") for card in cards]


def _officer_choices(state: State, seat: int, note=None) -> list[Choice]:
    return [Choice(o.card, state.officer_label(o.card), note(o) if note else "") for o in state.armies[seat].officers]


class CahrdEvent(Event):
    """Base of the C.A.H.R.D. events."""



# ---- Prepare for Battle ---------------------------------------------------------------------------

@ENGINE.event
class Mulligan(CahrdEvent):
    """Prepare for Battle, step 3: ``seat``'s opening hand held only ``officers_shown`` officers
    (fewer than the tables' 3; at most the :data:`OPENING_HAND` cards drawn), so it was shown
    to the opponent and mulliganed. As often as needed, before ``seat`` places its officers;
    counted per battle."""

    label = Words("Show the opening hand and mulligan")
    seat: Seat
    officers_shown: Bounded[0, OPENING_HAND] = Field(title=Words("Officers in the hand shown"),
                                description=Words("a hand with fewer than the required officers is shown and "
                                                  "mulliganed"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "setting_up":
            return []
        c = state.constants
        shown = [Choice(n, str(n)) for n in range(c.min_officers_in_opening_hand)]
        return [cls.offer(state, seat=s, officers_shown=shown,
                          label=Words("%(name)s: fewer than %(n)d officers in the opening hand, mulligan",
                                      name=state.players[s], n=c.min_officers_in_opening_hand))
                for s, army in enumerate(state.armies) if not army.set_up]

    def apply(self, state: State) -> State:
        name = state.players[self.seat]
        c = state.constants
        if state.step == "battle_over":
            raise RuleError(RULE_BATTLE_OVER, _battle_is_over(state))
        if state.step != "setting_up" or state.armies[self.seat].set_up:
            raise RuleError(RULE_MULLIGAN, Words("%(name)s has already placed their officers: the opening hand is "
                                                 "kept", name=name))
        if self.officers_shown >= c.min_officers_in_opening_hand:
            raise RuleError(RULE_MULLIGAN, Words("a hand with %(shown)d officers is kept: only one with fewer than "
                                                 "%(n)d is shown and mulliganed", shown=self.officers_shown,
                                                 n=c.min_officers_in_opening_hand))
        army = state.armies[self.seat]
        return _with_army(state, self.seat, army.evolve(mulligans=army.mulligans + 1))

    def describe(self, before: State, after: State) -> str:
        army = after.armies[self.seat]
        return Words("%(name)s showed %(opponent)s an opening hand with %(shown)d officer(s) and mulliganed "
                     "(mulligan %(n)d of battle %(battle)d)", name=before.players[self.seat],
                     opponent=before.players[other(self.seat)], shown=self.officers_shown, n=army.mulligans,
                     battle=before.battle_number)


@ENGINE.event
class SetUp(CahrdEvent):
    """Prepare for Battle, step 4: ``seat`` places ``commander``, ``strategist`` and
    ``lieutenants`` (as many as the tables' ``starting_lieutenants``), officer ids of its army,
    face down until its first Draw Step."""

    label = Words("Place your officers")
    seat: Seat
    commander: CardId = Field(title=Words("Commander"))
    strategist: CardId = Field(title=Words("Strategist"))
    lieutenants: tuple[CardId, ...] = Field(max_length=MOST_DECK, title=Words("Starting lieutenant(s)"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "setting_up":
            return []
        need = state.constants.starting_lieutenants
        moves = []
        for s, army in enumerate(state.armies):
            if army.set_up:
                continue
            pool = [Choice(card, state.officer_label(card)) for card in state.officer_pool(s)]
            lieutenants = FormField(name="lieutenants", label=Words("Starting lieutenant(s)"), kind="multi",
                                    choices=tuple(pool), count=need, item_labels=(Words("Lieutenant"),) * need)
            moves.append(cls.offer(state, seat=s, label=Words("%(name)s: place your officers", name=state.players[s]),
                                   commander=pool, strategist=pool, lieutenants=lieutenants))
        return moves

    def apply(self, state: State) -> State:
        if state.step == "battle_over":
            raise RuleError(RULE_BATTLE_OVER, _battle_is_over(state))
        if state.step != "setting_up":
            raise RuleError(RULE_SETUP, Words("officers are placed before the battle's first turn"))
        army = state.armies[self.seat]
        name = state.players[self.seat]
        if army.set_up:
            raise RuleError(RULE_SETUP, Words("%(name)s has already set up for this battle", name=name))
        need = state.constants.starting_lieutenants
        if len(self.lieutenants) != need:
            raise RuleError(RULE_SETUP, Words("an army starts with %(need)d lieutenant(s), not %(got)d", need=need,
                                              got=len(self.lieutenants)))
        chosen = [self.commander, self.strategist, *self.lieutenants]
        if len(set(chosen)) != len(chosen):
            raise RuleError(RULE_SETUP, Words("the commander, strategist and lieutenants must be different officers"))
        pool = state.officer_pool(self.seat)
        for card in chosen:
            if card not in pool:
                raise RuleError(RULE_SETUP, _not_of_army(state, card, self.seat))
        positions = ["commander", "strategist", *["lieutenant"] * need]
        officers = tuple(FieldOfficer(card=card, position=pos,
                                      men_under_command=state.cards.officers[card].men_under_command)
                         for card, pos in zip(chosen, positions))
        state = _with_army(state, self.seat, army.evolve(officers=officers, set_up=True))
        if all(a.set_up for a in state.armies):
            state = _at(state, "between_turns")
        return state

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s placed a commander, a strategist and %(n)d lieutenant(s), face down",
                     name=before.players[self.seat], n=len(self.lieutenants))


def _not_of_army(state: State, card: str, seat: int) -> Words:
    return Words("%(title)s is not an officer of %(name)s's army (%(army)s)", title=state.title(card),
                 name=state.players[seat], army=state.army_id(seat))


# ---- Steps 1 and 2: Draw and Recruitment ---------------------------------------------------------

def _check_turn_may_start(state: State, seat: int) -> None:
    _check_battle_going(state)
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


@ENGINE.event
class StartTurn(CahrdEvent):
    """Step 1, the Draw Step: ``seat`` starts its turn and draws a card; on its first turn of the
    battle it then reveals its officers."""

    label = Words("Start the turn: draw a card")
    seat: Seat

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("Start %(name)s's turn: draw a card", name=state.players[s]))
                for s in _starters(state)]

    def apply(self, state: State) -> State:
        _check_turn_may_start(state, self.seat)
        army = state.armies[self.seat]
        state = _with_army(state, self.seat, army.evolve(turns_taken=army.turns_taken + 1, revealed=True))
        return _at(state, "draw", initiative=self.seat, turn=state.turn + 1)

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
        return _end_battle(state, other(self.seat), Words("%(name)s could not draw", name=state.players[self.seat]))

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
        _check_initiative(state, self.seat, Words("the Recruitment Step"))
        if state.step != "draw":
            raise RuleError(RULE_RECRUITMENT, Words("%(name)s has already taken the Recruitment Step this turn",
                                                    name=state.players[self.seat]))
        army = state.armies[self.seat]
        army = army.evolve(reserves=army.reserves + state.recruitment_reserves(self.seat),
                           officers=tuple(o.evolve(attack_marker=False) for o in army.officers))
        return _at(_with_army(state, self.seat, army), "strategy")

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
                          officer=_card_choices(state, affordable,
                                                lambda c: Words("%(cost)d reserves, WAR %(war)s, CHM %(chm)s",
                                                                cost=stats[c].recruitment_cost,
                                                                war=stats[c].printed_war, chm=stats[c].printed_chm)))]

    def apply(self, state: State) -> State:
        _check_initiative(state, self.seat, Words("recruiting"))
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
                raise RuleError(RULE_RECRUIT, _not_of_army(state, self.officer, self.seat))
            if army.officer(self.officer) is not None:
                raise RuleError(RULE_RECRUIT, Words("%(title)s is already on the field", title=title))
            raise RuleError(RULE_RECRUIT, Words("%(title)s was defeated this battle", title=title))
        stats = state.cards.officers[self.officer]
        if army.reserves < stats.recruitment_cost:
            raise RuleError(RULE_RECRUIT, _costs(stats.title, stats.recruitment_cost, name, army.reserves))
        recruit = FieldOfficer(card=self.officer, position="lieutenant", men_under_command=stats.men_under_command)
        army = army.evolve(reserves=army.reserves - stats.recruitment_cost, officers=(*army.officers, recruit),
                           lieutenants_recruited=army.lieutenants_recruited + 1)
        return _with_army(state, self.seat, army)

    def describe(self, before: State, after: State) -> str:
        cost = before.cards.officers[self.officer].recruitment_cost
        return Words("%(name)s recruited %(title)s as a lieutenant for %(cost)d reserves (reserves %(left)d left)",
                     name=before.players[self.seat], title=before.title(self.officer), cost=cost,
                     left=after.armies[self.seat].reserves)


def _costs(title: str, cost: int, name: str, reserves: int) -> Words:
    return Words("%(title)s costs %(cost)d reserves and %(name)s has only %(have)d", title=title, cost=cost,
                 name=name, have=reserves)


# ---- Step 4: the Battle Step -------------------------------------------------------------------------

def _all_cards(state: State) -> list[Choice]:
    return [Choice(card, info.title) for card, info in state.cards.cards.items()]


@ENGINE.event
class DeclareAttack(CahrdEvent):
    """Step 4, the Declaration Step: ``seat`` attacks with ``officer``. ``allowed_by_card``: the
    id of the card whose effect lets the strategist attack."""

    label = Words("Declare an attack")
    seat: Seat
    officer: CardId = Field(title=Words("Attacking officer"))
    allowed_by_card: CardId | None = Field(None, title=Words("By the effect of (the strategist only)"),
                                           description=Words("the card whose effect lets the strategist attack"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.may_attack():
            return []
        me = state.initiative
        officers = [Choice(o.card, state.officer_label(o.card),
                           STRATEGIST_NOTE if o.position == "strategist" else POSITION_NAMES[o.position])
                    for o in state.armies[me].officers if not o.attack_marker]
        if not officers:
            return []
        return [cls.offer(state, seat=me, label=Words("%(name)s: declare an attack", name=state.players[me]),
                          officer=officers, allowed_by_card=_all_cards(state))]

    def apply(self, state: State) -> State:
        _check_initiative(state, self.seat, Words("attacking"))
        _check_card(state, self.allowed_by_card)
        name = state.players[self.seat]
        if state.step == "draw":
            raise RuleError(RULE_ORDER, Words("take the Recruitment Step before the Battle Step"))
        _check_no_attack(state, Words("declaring another"))
        army = state.armies[self.seat]
        if army.turns_taken <= 1:
            raise RuleError(RULE_FIRST_TURN, Words("this is %(name)s's first turn of the battle: no battle yet",
                                                   name=name))
        officer = army.officer(self.officer)
        if officer is None:
            raise RuleError(RULE_DECLARE, _not_on_field(state, self.officer, name))
        if officer.position == "strategist" and self.allowed_by_card is None:
            raise RuleError(RULE_STRATEGIST, Words("%(title)s is %(name)s's strategist and cannot attack (name the "
                                                   "card whose effect allows it)", title=state.title(officer.card),
                                                   name=name))
        if officer.attack_marker:
            raise RuleError(RULE_DECLARE, Words("%(title)s has already attacked this turn",
                                                title=state.title(officer.card)))
        state = _with_army(state, self.seat, _with_officer(army, officer.evolve(attack_marker=True)))
        return _at(state, "battle", attack=Attack(seat=self.seat, officer=officer.card))

    def describe(self, before: State, after: State) -> str:
        said = {"name": before.players[self.seat], "title": before.title(self.officer),
                "war": before.cards.officers[self.officer].war}
        if self.allowed_by_card:
            return Words("%(name)s attacked with %(title)s (WAR %(war)d) (by %(card)s)",
                         card=before.title(self.allowed_by_card), **said)
        return Words("%(name)s attacked with %(title)s (WAR %(war)d)", **said)


def _not_on_field(state: State, card: str, name: str) -> Words:
    return Words("%(title)s is not on %(name)s's field", title=state.title(card), name=name)


@ENGINE.event
class Vanguard(CahrdEvent):
    """Step 4, the Vanguard Step: the defending ``seat`` names ``officer``, or ``to_grain`` lets
    the attack through to the grain (exactly one of the two). ``allowed_by_card``: the card whose
    effect lets the strategist, or an officer that attacked on the previous turn, defend."""

    label = Words("Vanguard Step")
    seat: Seat
    officer: CardId | None = Field(None, title=Words("Vanguard"))
    to_grain: bool = Field(False, title=Words("Let the attack through to the grain"))
    allowed_by_card: CardId | None = Field(None, title=Words("By the effect of (strategist, or attacked the "
                                                             "previous turn)"),
                                           description=Words("the card whose effect lets this officer defend"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        attack = state.attack
        if attack is None or attack.vanguard is not None:
            return []
        defender = other(attack.seat)
        name = state.players[defender]

        def note(o: FieldOfficer) -> Words:
            if o.position == "strategist":
                return STRATEGIST_NOTE
            return (Words("attacked the previous turn: only by a card's effect") if o.attack_marker
                    else POSITION_NAMES[o.position])

        return [
            cls.offer(state, seat=defender, label=Words("%(name)s: let it through to the grain (−%(n)d)", name=name,
                                                        n=state.grain_damage(attack.officer)),
                      officer=None, to_grain=True, allowed_by_card=None),
            cls.offer(state, seat=defender, label=Words("%(name)s: declare the vanguard", name=name), to_grain=False,
                      officer=_officer_choices(state, defender, note), allowed_by_card=_all_cards(state)),
        ]

    def apply(self, state: State) -> State:
        _check_battle_going(state)
        _check_card(state, self.allowed_by_card)
        attack = state.attack
        if attack is None or attack.vanguard is not None:
            raise RuleError(RULE_VANGUARD, Words("there is no attack waiting for a vanguard"))
        if self.seat == attack.seat:
            raise RuleError(RULE_VANGUARD, Words("the defender (%(name)s) declares the vanguard, not the attacker",
                                                 name=state.players[other(attack.seat)]))
        if (self.officer is None) == (not self.to_grain):
            raise RuleError(RULE_VANGUARD, Words("name one vanguard officer, or let the attack through to the grain"))
        army = state.armies[self.seat]
        name = state.players[self.seat]
        if self.to_grain:
            army = army.evolve(grain=army.grain - state.grain_damage(attack.officer))
            return _settle(_with_army(state, self.seat, army).evolve(attack=None))
        officer = army.officer(self.officer)
        if officer is None:
            raise RuleError(RULE_VANGUARD, _not_on_field(state, self.officer, name))
        if officer.position == "strategist" and self.allowed_by_card is None:
            raise RuleError(RULE_STRATEGIST, Words("%(title)s is %(name)s's strategist and cannot be attacked (name "
                                                   "the card whose effect allows it)",
                                                   title=state.title(officer.card), name=name))
        if officer.attack_marker and self.allowed_by_card is None:
            raise RuleError(RULE_VANGUARD, Words("%(title)s attacked the previous turn and cannot be the vanguard",
                                                 title=state.title(officer.card)))
        return state.evolve(attack=attack.evolve(vanguard=officer.card))

    def describe(self, before: State, after: State) -> str:
        name = before.players[self.seat]
        if self.to_grain:
            old, new = before.armies[self.seat].grain, after.armies[self.seat].grain
            return _with_result(Words("%(name)s let %(officer)s's attack through to the grain: grain %(old)d → "
                                      "%(new)d", name=name, officer=before.title(before.attack.officer), old=old,
                                      new=new), before, after)
        if self.allowed_by_card:
            return Words("%(name)s declared %(title)s the vanguard (by %(card)s)", name=name,
                         title=before.title(self.officer), card=before.title(self.allowed_by_card))
        return Words("%(name)s declared %(title)s the vanguard", name=name, title=before.title(self.officer))


@ENGINE.event
class DamageStep(CahrdEvent):
    """Step 4, the Damage Step of an officer-against-officer battle: WAR (S as 10) is compared
    after the modifiers entered (items, tactics, traits, strategies in play for this battle);
    the loser takes the tables' battle damage. Each modifier is at most
    :data:`MOST_WAR_MODIFIER` either way."""

    label = Words("Damage Step: compare WAR")
    attacker_war_modifier: Bounded[-MOST_WAR_MODIFIER, MOST_WAR_MODIFIER] = Field(
        0, title=Words("Attacker's WAR modifier"))
    vanguard_war_modifier: Bounded[-MOST_WAR_MODIFIER, MOST_WAR_MODIFIER] = Field(
        0, title=Words("Vanguard's WAR modifier"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        attack = state.attack
        if attack is None or attack.vanguard is None:
            return []
        war = state.cards.officers

        def modifier(name: str, card: str, role: Words) -> FormField:
            return FormField(name=name, label=Words("%(title)s (%(role)s, WAR %(war)d): WAR modifier",
                                                    title=state.title(card), role=role, war=war[card].war),
                             kind="number", required=False, default=0,
                             help=Words("from items, tactics, traits and strategies in this battle"))

        return [cls.offer(state, label=cls.label,
                          attacker_war_modifier=modifier("attacker_war_modifier", attack.officer,
                                                         Words("the attacker")),
                          vanguard_war_modifier=modifier("vanguard_war_modifier", attack.vanguard,
                                                         Words("the vanguard")))]

    def _wars(self, state: State) -> tuple[int, int]:
        attack = state.attack
        war = state.cards.officers
        return (war[attack.officer].war + self.attacker_war_modifier,
                war[attack.vanguard].war + self.vanguard_war_modifier)

    def apply(self, state: State) -> State:
        _check_battle_going(state)
        attack = state.attack
        if attack is None or attack.vanguard is None:
            raise RuleError(RULE_DAMAGE, Words("the Damage Step comes after an attack and its vanguard are declared"))
        attacker_war, vanguard_war = self._wars(state)
        state = state.evolve(attack=None)
        if attacker_war == vanguard_war:
            return state
        loser, card, winner = ((other(attack.seat), attack.vanguard, attack.seat) if attacker_war > vanguard_war
                               else (attack.seat, attack.officer, other(attack.seat)))
        state = _change_men(state, loser, card, -state.constants.battle_damage_to_losing_officer, winner)
        return _settle(state)

    def describe(self, before: State, after: State) -> str:
        attack = before.attack
        a_war, v_war = self._wars(before)
        t = before.title
        if a_war == v_war:
            outcome = Words("no winner, nothing happens")
        else:
            loser, card = (other(attack.seat), attack.vanguard) if a_war > v_war else (attack.seat, attack.officer)
            outcome = _men_line(before, after, loser, card)
        return _with_result(Words("Damage Step: %(attacker)s WAR %(a)d against %(vanguard)s WAR %(v)d: %(outcome)s",
                                  attacker=t(attack.officer), a=a_war, vanguard=t(attack.vanguard), v=v_war,
                                  outcome=outcome), before, after)


# ---- Step 5: the End Step, and the war -----------------------------------------------------------------

@ENGINE.event
class EndTurn(CahrdEvent):
    """Step 5, the End Step: ``seat`` ends its turn. Every active (face-up) item and tactic of
    both armies is resolved and sent to the discard pile, except the cards in ``lasting``,
    whose effect continues beyond the turn."""

    label = Words("End the turn")
    seat: Seat
    lasting: Annotated[tuple[CardId, ...], Field(max_length=MOST_DECK)] | None = Field(None, title=Words("Active cards whose effect lasts beyond this turn"),
                                               description=Words("none: every active item and tactic is resolved"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.turn_in_progress() or state.step == "draw" or state.attack is not None:
            return []
        me = state.initiative
        active = list(dict.fromkeys(card for _, _, card in state.active_cards()))
        lasting = (FormField(name="lasting", label=Words("Active cards whose effect lasts beyond this turn"),
                             kind="multi", choices=tuple(_card_choices(state, active)), required=False,
                             help=Words("every other active item and tactic is resolved, to the discard pile"))
                   if active else None)
        return [cls.offer(state, seat=me, label=Words("End %(name)s's turn", name=state.players[me]),
                          lasting=lasting)]

    def apply(self, state: State) -> State:
        _check_initiative(state, self.seat, Words("ending the turn"))
        if state.step == "draw":
            raise RuleError(RULE_RECRUITMENT, Words("take the Recruitment Step before ending the turn"))
        _check_no_attack(state, Words("the End Step"))
        active = {card for _, _, card in state.active_cards()}
        lasting = self.lasting or ()
        for card in lasting:
            if card not in active:
                raise RuleError(RULE_END_STEP, Words("%(title)s is not an active item or tactic",
                                                     title=state.title(card)))
        armies = []
        for army in state.armies:
            for zone in ZONE_NAMES:
                cards = army.zone(zone)
                resolved = tuple(c.card for c in cards if c.face_up and c.card not in lasting)
                kept = tuple(c for c in cards if not c.face_up or c.card in lasting)
                army = _with_zone(army, zone, kept).evolve(discarded=(*army.discarded, *resolved))
            armies.append(army)
        return _at(state.evolve(armies=tuple(armies)), "between_turns")

    def describe(self, before: State, after: State) -> str:
        line = Words("%(name)s ended the turn", name=before.players[self.seat])
        lasting = self.lasting or ()
        resolved = [before.title(card) for _, _, card in before.active_cards() if card not in lasting]
        # Card titles joined: names, the same in every language.
        if resolved:
            line = Words("%(line)s; resolved, to the discard pile: %(cards)s", line=line, cards=", ".join(resolved))
        if lasting:
            line = Words("%(line)s; still active: %(cards)s", line=line,
                         cards=", ".join(before.title(c) for c in lasting))
        return line


@ENGINE.event
class NextBattle(CahrdEvent):
    """After a battle: ``seat`` (the loser; either seat after a draw) chooses ``first_seat`` to
    go first in the next battle of the war (Prepare for Battle, step 5)."""

    label = Words("Start the next battle")
    seat: Seat = Field(title=Words("Chosen by"))
    first_seat: Seat = Field(title=Words("Goes first"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "battle_over":
            return []
        loser = state.battle_loser()
        number = state.battle_number + 1
        if loser is None:
            return [cls.offer(state, label=Words("Battle %(n)d: choose who goes first (battle drawn)", n=number))]
        return [cls.offer(state, seat=loser, label=Words("%(name)s chooses who goes first in battle %(n)d",
                                                         name=state.players[loser], n=number))]

    def apply(self, state: State) -> State:
        if state.step != "battle_over":
            raise RuleError(RULE_BATTLE_OVER, Words("battle %(n)d is still being fought", n=state.battle_number))
        loser = state.battle_loser()
        if loser is not None and self.seat != loser:
            raise RuleError(RULE_FIRST, Words("%(loser)s lost the battle and chooses who goes first, not %(name)s",
                                              loser=state.players[loser], name=state.players[self.seat]))
        return _at(state, "setting_up", armies=tuple(_fresh_army(state.constants) for _ in state.armies),
                   battle_number=state.battle_number + 1, initiative=None, turn=0, first_seat=self.first_seat,
                   attack=None)

    def describe(self, before: State, after: State) -> str:
        p = before.players
        if self.first_seat == self.seat:
            return Words("Battle %(n)d begins; %(name)s chose to go first", n=after.battle_number, name=p[self.seat])
        return Words("Battle %(n)d begins; %(name)s chose %(first)s to go first", n=after.battle_number,
                     name=p[self.seat], first=p[self.first_seat])


# ---- cards in play: zones, strategies and effects (The Game Mat; Timings) ---------------------------

@ENGINE.event
class StopAttack(CahrdEvent):
    """Glossary of Terms (Battle/Battled): ``card``, played by ``seat``, stops the attack in
    progress before damage is calculated; the attacker still counts as having attacked."""

    label = Words("A card stopped the attack")
    seat: Seat = Field(title=Words("Played by"))
    card: CardId = Field(title=Words("Card"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.attack is None:
            return []
        return [cls.offer(state, card=_all_cards(state), defaults={"seat": other(state.attack.seat)})]

    def apply(self, state: State) -> State:
        _check_battle_going(state)
        _check_card(state, self.card)
        if state.attack is None:
            raise RuleError(RULE_BATTLED, Words("there is no attack to stop"))
        return state.evolve(attack=None)

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s's %(card)s stopped %(officer)s's attack before damage", name=before.players[self.seat],
                     card=before.title(self.card), officer=before.title(before.attack.officer))


@ENGINE.event
class CardEffect(CahrdEvent):
    """Glossary of Terms (Effects of Cards; Damage): an effect, played by ``seat``, changes
    ``target_seat``'s army: ``officer``'s men under command by ``men_change``, its
    ``grain_change`` and ``reserves_change`` (a negative ``reserves_change`` on one's own army
    is a cost paid). Amounts may be negative, each at most :data:`MOST_MEN_CHANGE`,
    :data:`MOST_GRAIN_CHANGE` and :data:`MOST_RESERVES_CHANGE` either way.

    ``card``: the card whose effect it is, or ``None`` for an effect the players enter without
    naming a card (a trait, a ruling, a house effect). ``target_seat`` ``None``: the effect
    changes both armies' grain and reserves alike (an officer is then refused).
    """

    label = Words("Card effect: men, grain or reserves")
    seat: Seat = Field(title=Words("Played by"))
    card: CardId | None = Field(None, title=Words("Card"),
                                description=Words("leave out for an effect entered without naming a card"))
    target_seat: Seat | None = Field(None, title=Words("Army changed"),
                                     description=Words("leave out for an effect on both armies"))
    officer: CardId | None = Field(None, title=Words("Officer (for men under command)"))
    men_change: Bounded[-MOST_MEN_CHANGE, MOST_MEN_CHANGE] = Field(0, title=Words("Men under command change"))
    grain_change: Bounded[-MOST_GRAIN_CHANGE, MOST_GRAIN_CHANGE] = Field(0, title=Words("Grain change"))
    reserves_change: Bounded[-MOST_RESERVES_CHANGE, MOST_RESERVES_CHANGE] = Field(
        0, title=Words("Reserves change (a cost is negative)"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.turn_in_progress():
            return []
        me = state.initiative
        cards = _all_cards(state)
        moves = [cls.offer(state, label=Words("Card effect on %(name)s's army", name=state.players[target]),
                           target_seat=target, card=cards, officer=_officer_choices(state, target),
                           defaults={"seat": me})
                 for target in range(len(state.players))]
        moves.append(cls.offer(state, label=Words("Card effect on both armies' grain or reserves"), target_seat=None,
                               officer=None, men_change=0, card=cards, defaults={"seat": me}))
        return moves

    def apply(self, state: State) -> State:
        _check_card(state, self.card)
        _check_battle_going(state)
        if not state.turn_in_progress():
            raise RuleError(RULE_ORDER, Words("cards are played during a turn: start the turn first"))
        if not (self.men_change or self.grain_change or self.reserves_change):
            raise RuleError(RULE_EFFECT, Words("enter what the effect changed (men under command, grain or reserves)"))
        if (self.officer is None) != (self.men_change == 0):
            raise RuleError(RULE_EFFECT, Words("a change of men under command needs the officer, and an officer "
                                               "needs a change of men under command"))
        targets = range(len(state.players)) if self.target_seat is None else [self.target_seat]
        if self.target_seat is None and self.officer is not None:
            raise RuleError(RULE_EFFECT, Words("an effect on both armies changes their grain or reserves: enter an "
                                               "officer's men for one army"))
        for target in targets:
            army = state.armies[target]
            name = state.players[target]
            if self.officer is not None and army.officer(self.officer) is None:
                raise RuleError(RULE_EFFECT, _not_on_field(state, self.officer, name))
            reserves = army.reserves + self.reserves_change
            if reserves < 0:
                raise RuleError(RULE_PAY, Words("%(name)s has only %(have)d reserves, %(need)d needed", name=name,
                                                have=army.reserves, need=-self.reserves_change))
            state = _with_army(state, target, army.evolve(reserves=reserves, grain=army.grain + self.grain_change))
            if self.officer is not None:
                state = _change_men(state, target, self.officer, self.men_change, self.seat)
        return _settle(state)

    def describe(self, before: State, after: State) -> str:
        p = before.players
        parts = []
        targets = range(len(p)) if self.target_seat is None else [self.target_seat]
        for target in targets:
            if self.officer is not None:
                parts.append(_men_line(before, after, target, self.officer))
            if self.grain_change:
                parts.append(Words("%(name)s's grain %(old)d → %(new)d", name=p[target],
                                   old=before.armies[target].grain, new=after.armies[target].grain))
            if self.reserves_change:
                parts.append(Words("%(name)s's reserves %(old)d → %(new)d", name=p[target],
                                   old=before.armies[target].reserves, new=after.armies[target].reserves))
        source = before.title(self.card) if self.card else Words("card effect (no card named)")
        # apply refuses an effect that changes nothing, so there is at least one part.
        return _with_result(Words("%(name)s's %(source)s: %(changes)s", name=p[self.seat], source=source,
                                  changes=_joined(parts)), before, after)


def _zone_field():
    return Field(title=Words("Zone"), json_schema_extra={"labels": ZONE_NAMES})


@ENGINE.event
class SetCard(CahrdEvent):
    """Step 3; The Game Mat 7 and 8: the initiative player ``seat`` sets a card face down in its
    ``zone`` (a tactic in the Tactics Zone, an item in the Items Zone), unnamed until it is
    activated. Refused beyond the zone's limit: one card per officer in play, the strategist
    not counted."""

    label = Words("Set a card face down")
    seat: Seat
    zone: Zone = _zone_field()

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "strategy":
            return []
        me = state.initiative
        zones = [Choice(zone, name, Words("%(held)d of %(limit)d", held=len(state.armies[me].zone(zone)),
                                          limit=state.zone_limit(me)))
                 for zone, name in ZONE_NAMES.items() if state.zone_room(me, zone) > 0]
        return [cls.offer(state, seat=me, label=Words("%(name)s: set a tactic or item face down",
                                                      name=state.players[me]), zone=zones)] if zones else []

    def apply(self, state: State) -> State:
        _check_initiative(state, self.seat, Words("setting a card"))
        if state.step != "strategy":
            raise RuleError(RULE_SET_CARDS, Words("cards are set in the Strategy Step: take the Recruitment Step "
                                                  "first") if state.step == "draw"
                            else Words("cards are set in the Strategy Step"))
        _check_room(state, self.seat, self.zone)
        army = state.armies[self.seat]
        return _with_army(state, self.seat, _with_zone(army, self.zone, (*army.zone(self.zone), ZoneCard())))

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s set a card face down in the %(zone)s (%(held)d of %(limit)d)",
                     name=before.players[self.seat], zone=ZONE_NAMES[self.zone],
                     held=len(after.armies[self.seat].zone(self.zone)), limit=after.zone_limit(self.seat))


def _check_room(state: State, seat: int, zone: str) -> None:
    if state.zone_room(seat, zone) <= 0:
        held = len(state.armies[seat].zone(zone))
        raise RuleError(ZONE_RULES[zone], Words("%(name)s's %(zone)s holds %(held)d card(s) for %(limit)d officer(s) "
                                                "in play: no room for another", name=state.players[seat],
                                                zone=ZONE_NAMES[zone], held=held, limit=state.zone_limit(seat)))


def _with_zone(army: Army, zone: str, cards: tuple[ZoneCard, ...]) -> Army:
    return army.evolve(**{zone: cards})


@ENGINE.event
class ActivateCard(CahrdEvent):
    """Timings; Item Card; Tactics Card: ``seat`` activates ``card``, an item or a tactic.

    A tactic is always one set earlier (``was_set``) in the Tactics Zone, turned face up. An
    item is turned face up in the Items Zone if it was set there, or else played from the hand
    into it (refused beyond the zone's limit); either way its reserve cost is paid now (Pay a
    Cost). Outside their turn a player activates only tactics, or an item that disregards an
    effect (``disregards``).
    """

    label = Words("Activate a card")
    seat: Seat
    card: CardId = Field(title=Words("Card"))
    was_set: bool = Field(False, title=Words("It was set face down earlier"),
                          description=Words("a tactic always was; an item may also be played from the hand"))
    disregards: bool = Field(False, title=Words("Its effect disregards another effect"),
                             description=Words("outside their turn a player responds only with tactics, or with "
                                               "items that disregard effects (Timings)"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.turn_in_progress():
            return []
        moves = []
        for s in range(len(state.players)):
            name = state.players[s]
            if state.face_down(s, "tactics"):
                moves.append(cls.offer(state, seat=s, label=Words("%(name)s: activate a set tactic", name=name),
                                       was_set=True, disregards=False,
                                       card=_card_choices(state, state.deck_cards(s, "tactic"))))
            reserves = state.armies[s].reserves
            items = [c for c in state.deck_cards(s, "item") if state.cards.cards[c].reserve_cost <= reserves]
            set_items, room = state.face_down(s, "items"), state.zone_room(s, "items") > 0
            if not items or not (set_items or room):
                continue
            initiative = s == state.initiative
            was_set = FormField(name="was_set", label=Words("It was set face down earlier"), kind="flag",
                                required=False, default=bool(set_items)) if set_items and room else bool(set_items)
            note = "" if initiative else Words("only an item that disregards an effect, in response (Timings)")
            moves.append(cls.offer(state, seat=s, label=Words("%(name)s: activate an item (%(n)d reserves)",
                                                              name=name, n=reserves),
                                   hint=note, was_set=was_set, disregards=not initiative,
                                   card=_card_choices(state, items,
                                                      lambda c: Words("%(n)d reserves",
                                                                      n=state.cards.cards[c].reserve_cost))))
        return moves

    def apply(self, state: State) -> State:
        _check_card(state, self.card)
        kind = state.cards.cards[self.card].kind
        if kind not in ("item", "tactic"):
            raise RuleError(RULE_ITEM, Words("%(title)s is %(kind)s: only items and tactics are activated from "
                                             "their zone", title=state.title(self.card), kind=A_KIND[kind]))
        _check_timing(state, self.seat, kind, self.disregards, Words("activating a card"))
        name = state.players[self.seat]
        if self.card not in state.deck_cards(self.seat, kind):
            raise RuleError(RULE_ARMY, Words("%(title)s is not a card of %(name)s's army (%(army)s)",
                                             title=state.title(self.card), name=name, army=state.army_id(self.seat)))
        zone = "tactics" if kind == "tactic" else "items"
        army = state.armies[self.seat]
        cards = army.zone(zone)
        if kind == "tactic" and not self.was_set:
            raise RuleError(RULE_TACTIC_SET_FIRST, Words("%(title)s is a tactic: set it face down first",
                                                         title=state.title(self.card)))
        if self.was_set:
            slot = next((i for i, c in enumerate(cards) if not c.face_up), None)
            if slot is None:
                rule = RULE_TACTIC_SET_FIRST if kind == "tactic" else RULE_ITEM
                raise RuleError(rule, Words("%(name)s has no face-down card in the %(zone)s", name=name,
                                            zone=ZONE_NAMES[zone]))
            cards = replace_at(cards, slot, ZoneCard(card=self.card, face_up=True))
        else:
            _check_room(state, self.seat, zone)
            cards = (*cards, ZoneCard(card=self.card, face_up=True))
        cost = state.cards.cards[self.card].reserve_cost
        if army.reserves < cost:
            raise RuleError(RULE_PAY, _costs(state.title(self.card), cost, name, army.reserves))
        return _with_army(state, self.seat, _with_zone(army.evolve(reserves=army.reserves - cost), zone, cards))

    def describe(self, before: State, after: State) -> str:
        name = before.players[self.seat]
        title = before.title(self.card)
        kind = before.cards.cards[self.card].kind
        where = Words("set earlier") if self.was_set else Words("from the hand")
        cost = before.cards.cards[self.card].reserve_cost
        if kind == "item":
            line = Words("%(name)s activated the item %(title)s (%(where)s)", name=name, title=title, where=where)
            line = Words("%(line)s, paying %(cost)d reserves (reserves %(old)d → %(new)d)", line=line, cost=cost,
                         old=before.armies[self.seat].reserves, new=after.armies[self.seat].reserves)
        else:  # a tactic (apply refuses the other types)
            line = Words("%(name)s activated the tactic %(title)s (%(where)s)", name=name, title=title, where=where)
        if self.disregards and self.seat != before.initiative:
            line = Words("%(line)s, in response, to disregard an effect", line=line)
        return line


@ENGINE.event
class DiscardCard(CahrdEvent):
    """The Game Mat (2 - The Discard Pile): ``seat`` sends the card in ``slot`` (1 = the first) of
    its ``zone`` to the discard pile: used, disregarded, or destroyed by an effect. A zone never
    holds more than :data:`MOST_DECK` cards."""

    label = Words("Send a card of a zone to the discard pile")
    seat: Seat
    zone: Zone = _zone_field()
    slot: Bounded[1, MOST_DECK] = Field(title=Words("Card"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.battle_going():
            return []
        moves = []
        for s, army in enumerate(state.armies):
            for zone, zone_name in ZONE_NAMES.items():
                cards = army.zone(zone)
                if cards:
                    moves.append(cls.offer(state, seat=s, zone=zone,
                                           label=Words("%(name)s: a card of the %(zone)s to the discard pile",
                                                       name=state.players[s], zone=zone_name),
                                           slot=[Choice(i, Words("%(n)d: %(card)s", n=i, card=_zone_card(state, c)))
                                                 for i, c in enumerate(cards, start=1)]))
        return moves

    def apply(self, state: State) -> State:
        _check_battle_going(state)
        army = state.armies[self.seat]
        cards = army.zone(self.zone)
        if self.slot > len(cards):
            raise RuleError(ZONE_RULES[self.zone], Words("%(name)s's %(zone)s holds %(n)d card(s): there is no card "
                                                         "%(slot)d", name=state.players[self.seat],
                                                         zone=ZONE_NAMES[self.zone], n=len(cards), slot=self.slot))
        card = cards[self.slot - 1]
        army = _with_zone(army, self.zone, cards[:self.slot - 1] + cards[self.slot:])
        if card.card is not None:
            army = army.evolve(discarded=(*army.discarded, card.card))
        return _with_army(state, self.seat, army)

    def describe(self, before: State, after: State) -> str:
        card = before.armies[self.seat].zone(self.zone)[self.slot - 1]
        return Words("%(name)s sent %(card)s from the %(zone)s to the discard pile", name=before.players[self.seat],
                     card=_zone_card(before, card), zone=ZONE_NAMES[self.zone])


def _zone_card(state: State, card: ZoneCard) -> Words:
    return (Words("%(title)s (face up)", title=state.title(card.card)) if card.face_up
            else Words("a face-down card"))


@ENGINE.event
class PlayStrategy(CahrdEvent):
    """The Game Mat 3; Timings: ``seat`` plays the strategy ``card``, face up in front of its
    strategy deck (its requirement met, as the players check). Its active strategy, if any,
    goes to the discard pile. Outside their turn a player plays only a strategy that disregards
    an effect (``disregards``), in response."""

    label = Words("Play a strategy")
    seat: Seat
    card: CardId = Field(title=Words("Strategy"))
    disregards: bool = Field(False, title=Words("Its effect disregards another effect"),
                             description=Words("outside their turn a player responds only with strategies that "
                                               "disregard effects (Timings)"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.turn_in_progress():
            return []
        moves = []
        for s, army in enumerate(state.armies):
            playable = [c for c in state.deck_cards(s, "strategy") if c != army.strategy and c not in army.discarded]
            if not playable:
                continue
            initiative = s == state.initiative
            label = (Words("%(name)s: play a strategy (replaces %(old)s)", name=state.players[s],
                           old=state.title(army.strategy)) if army.strategy
                     else Words("%(name)s: play a strategy", name=state.players[s]))
            moves.append(cls.offer(state, seat=s, label=label,
                                   hint="" if initiative else Words("only one that disregards an effect, in "
                                                                    "response (Timings)"),
                                   disregards=not initiative, card=_card_choices(state, playable)))
        return moves

    def apply(self, state: State) -> State:
        _check_card(state, self.card, "strategy")
        _check_timing(state, self.seat, "strategy", self.disregards, Words("playing a strategy"))
        army = state.armies[self.seat]
        name = state.players[self.seat]
        if self.card == army.strategy:
            raise RuleError(RULE_STRATEGY, Words("%(title)s is already %(name)s's active strategy",
                                                 title=state.title(self.card), name=name))
        if self.card in army.discarded:
            raise RuleError(RULE_STRATEGY, Words("%(title)s is in %(name)s's discard pile: a strategy deck holds one "
                                                 "copy of it", title=state.title(self.card), name=name))
        discarded = (*army.discarded, army.strategy) if army.strategy else army.discarded
        return _with_army(state, self.seat, army.evolve(strategy=self.card, discarded=discarded))

    def describe(self, before: State, after: State) -> str:
        old = before.armies[self.seat].strategy
        line = Words("%(name)s played the strategy %(title)s", name=before.players[self.seat],
                     title=before.title(self.card))
        if self.disregards and self.seat != before.initiative:
            line = Words("%(line)s in response, to disregard an effect", line=line)
        if old:
            line = Words("%(line)s; %(old)s goes to the discard pile", line=line, old=before.title(old))
        return line


@ENGINE.event
class DiscardStrategy(CahrdEvent):
    """The Game Mat 3: ``seat``'s active strategy goes to the discard pile, its requirement no
    longer met by its controller."""

    label = Words("Strategy requirement no longer met")
    seat: Seat

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.battle_going():
            return []
        return [cls.offer(state, seat=s, label=Words("%(name)s's %(title)s: requirement no longer met, to the "
                                                     "discard pile", name=state.players[s],
                                                     title=state.title(army.strategy)))
                for s, army in enumerate(state.armies) if army.strategy]

    def apply(self, state: State) -> State:
        _check_battle_going(state)
        army = state.armies[self.seat]
        if army.strategy is None:
            raise RuleError(RULE_STRATEGY, Words("%(name)s has no active strategy", name=state.players[self.seat]))
        return _with_army(state, self.seat, army.evolve(strategy=None, discarded=(*army.discarded, army.strategy)))

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s's strategy %(title)s no longer meets its requirement and goes to the discard pile",
                     name=before.players[self.seat], title=before.title(before.armies[self.seat].strategy))
