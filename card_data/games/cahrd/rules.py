"""C.A.H.R.D. scorekeeper: grain, reserves, officers, battles and the war (Official Rulebook 1.0).

A table holds a whole war (How to Play: battles are played in sets of three, the first to win
two takes the war). Each battle the players enter, in rulebook order:

1. ``set_up`` once per player: commander, strategist and the starting lieutenant(s), chosen
   from the officers of the seat's army deck (Prepare for Battle, step 4). They stay face
   down until their owner's first Draw Step (Glossary of Terms: Set).
2. Each turn (Turn Structure): ``start_turn`` (Draw Step; ``cannot_draw`` instead loses the
   battle), ``recruitment`` (Recruitment Step: combined CHM x the table's reserves per point),
   ``recruit_lieutenant`` (Strategy Step only), then the Battle Step as often as the officers
   allow: ``declare_attack`` (Declaration Step), ``vanguard`` (Vanguard Step: an officer, or
   the attack goes through to the grain), ``damage_step`` (Damage Step: WAR compared, with the
   WAR modifiers entered for that battle), and ``end_turn`` (End Step).
3. ``card_effect`` records what a card did to men under command, grain or reserves (item
   costs paid, trait damage, healing); ``stop_attack`` records a card that stopped an attack
   before damage (Glossary of Terms: Battle/Battled).
4. After a battle, ``next_battle``: the loser chooses who goes first (Prepare for Battle, step 5).

Every number (starting grain, reserves per CHM point, grain per WAR point, damage to a losing
officer, lieutenants, battles of a war, what S counts as) comes from ``card_data/cahrd/tables.yaml``
and every officer's stats from the card data; :func:`new_state` copies them into the state.

Readings of ours where the rulebook is unclear:

- Defeat tokens: the Glossary (Defeated) gives the token for a defeated lieutenant to the
  initiative player; Defeat three Lieutenants gives it to the player who defeated the officer.
  We follow the Glossary; option ``defeat_token_to="defeating_player"`` follows the other
  (for a battle, the winner's owner; for a card effect, the card's controller). A player
  holding the tables' number of tokens (3) wins the battle. Under the Glossary reading a
  lieutenant that falls on its owner's turn gives its owner the token, as written.
- "Recruit up to two more" lieutenants counts recruitments during the battle (the tables'
  ``max_extra_lieutenants``), so a defeated lieutenant's place is not refilled beyond that.
- The attack marker (Declaration Step) stays on the officer until its owner's next
  Recruitment Step (Step 2): while it is there the officer may not attack again nor be
  declared a vanguard (Vanguard Step: "may not attack the previous turn").
- "No battle on the first turn" (Summary of the steps) applies to each player's first turn.
- The strategist never attacks nor is declared a vanguard, except by a card effect: the
  event then names the card in ``allowed_by_card``. On a vanguard that card also lifts the
  attacked-on-the-previous-turn rule (e.g. Horse Master's trait).
- ``cannot_draw`` is entered in place of the Draw Step of the player who cannot draw (Step 1).
- A battle where both players meet a losing condition at once is drawn; a drawn battle
  counts for nobody, and either player may go first in the next. After the tables' number
  of battles (3) the player with more wins takes the war; equal wins draw the war.
- Battle 1: whoever enters the first ``start_turn`` goes first (the players decide, step 5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal, Union

from pydantic import Field, TypeAdapter

from card_data.engine import RuleError
from card_data.engine.legacy import LegacyEngine as Engine
from card_data.engine.legacy import Model, Outcome
from card_data.games.cahrd.cards import RULEBOOK as EDITION

if TYPE_CHECKING:
    from card_data.loader import Game

BOOK = f"C.A.H.R.D. {EDITION}"
ANY_ARMY = "any"
"""Option value for an army that may field any officer of the card data."""


def _rule(section: str, text: str) -> str:
    return f"{BOOK}, {section}: {text}"


RULE_PLAYERS = _rule("How to Play", "a battle is fought between two armies")
RULE_ARMY = _rule("Getting Started (Deck)", "each player commands an army deck of officers, items and tactics")
RULE_SETUP = _rule("Prepare for Battle (step 4)", "each player places a commander, a strategist and the starting "
                                                  "lieutenants, all different officers of their own army")
RULE_ORDER = _rule("Turn Structure", "each turn runs Draw, Recruitment, Strategy, Battle and End Step, "
                                     "and the initiative passes to the other player each turn")
RULE_FIRST = _rule("Prepare for Battle (step 5)", "in a war, the loser of the previous battle decides who goes first")
RULE_RECRUITMENT = _rule("Step 2: The Recruitment Step", "once a turn, after the Draw Step, the army gains "
                                                         "reserves at the rate of its combined CHM")
RULE_RECRUIT = _rule("Step 3: Strategy Step; The Game Mat (6 - The Lieutenant Zone)",
                     "officers are recruited only in your Strategy Step, paying their recruitment cost "
                     "from reserves, and only a few more lieutenants a battle")
RULE_FIRST_TURN = _rule("Summary of the steps (Battle Step)", "no battle on a player's first turn")
RULE_DECLARE = _rule("Step 4: The Declaration Step", "the initiative player appoints an attacking officer; "
                                                     "each officer attacks at most once a turn")
RULE_STRATEGIST = _rule("The Game Mat (5 - The Strategist Zone); The Declaration Step",
                        "the strategist never attacks nor is attacked, except by card effect")
RULE_VANGUARD = _rule("Step 4: The Vanguard Step",
                      "the defender names a lieutenant or the commander that did not attack on the previous turn, "
                      "or lets the attack through to the grain")
RULE_DAMAGE = _rule("Step 4: The Damage Step", "the officers' WAR is compared and the loser takes damage; "
                                               "an attack on the grain costs grain by the attacker's base WAR")
RULE_BATTLED = _rule("Glossary of Terms (Battle/Battled)", "an attack may stop before damage calculation")
RULE_PAY = _rule("Glossary of Terms (Pay a Cost)", "a cost must be paid in full from what the player has")
RULE_EFFECT = _rule("Glossary of Terms (Effects of Cards; Damage)", "a card effect changes men under command, "
                                                                   "grain or reserves as its text says")
RULE_BATTLE_OVER = _rule("Winning the Battle", "a battle ends when a player meets a victory condition")
RULE_WAR = _rule("How to Play", "battles are played in a war; who wins most of its battles wins the war")

Position = Literal["commander", "strategist", "lieutenant"]
Step = Literal["set_up", "between_turns", "draw", "strategy", "battle", "battle_over", "war_over"]
"""``set_up``: officers being placed; ``between_turns``: waiting for the next Draw Step;
``draw``: drawn, Recruitment Step next; ``strategy``: Strategy Step; ``battle``: Battle Step
(an attack was declared this turn); ``battle_over``: waiting for ``next_battle``;
``war_over``: the table's game has ended."""

STEP_LABELS = {
    "set_up": "Set-up: place your officers",
    "between_turns": "Next: Draw Step",
    "draw": "Draw Step done: Recruitment Step next",
    "strategy": "Strategy Step",
    "battle": "Battle Step",
    "battle_over": "Battle over",
    "war_over": "War over",
}


class Options(Model):
    """Table options.

    ``army_seat_1`` / ``army_seat_2``: the id of each seat's army deck in the card data (e.g.
    ``"shield-wall"``), or ``"any"`` to field any officer of the card data.
    ``defeat_token_to``: who gets the token for a defeated lieutenant: ``"initiative_player"``
    (Glossary of Terms: Defeated; the default) or ``"defeating_player"`` (Defeat three Lieutenants).
    """

    army_seat_1: str = Field("shield-wall", title="Army of seat 1",
                             description="army deck id from the card data, or 'any'")
    army_seat_2: str = Field("swift-riders", title="Army of seat 2",
                             description="army deck id from the card data, or 'any'")
    defeat_token_to: Literal["initiative_player", "defeating_player"] = Field(
        "initiative_player", title="Lieutenant defeat token goes to",
        description="the initiative player (Glossary: Defeated) or the player who defeated it "
                    "(Defeat three Lieutenants)")


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
    battles_per_war: int
    battles_to_win_war: int


class OfficerStats(Model):
    """An officer card's numbers, S already counted as the tables' ``s_rank_value``."""

    title: str
    war: int
    chm: int
    men_under_command: int
    recruitment_cost: int


class FieldOfficer(Model):
    """An officer on the field: its card id, zone, men under command left, and whether the
    Declaration Step's attack marker is on it (placed when it attacks, removed in its owner's
    next Recruitment Step)."""

    card: str
    position: Position
    men_under_command: int
    attack_marker: bool = False


class Army(Model):
    """One player's side of a battle.

    ``army``: the deck id (or ``"any"``); ``officer_pool``: officer ids it may field;
    ``grain``, ``reserves``: amounts; ``officers``: on the field; ``defeated``: officers sent
    to the discard pile this battle, in order; ``lieutenants_recruited``: recruited after set-up;
    ``defeat_tokens``: lieutenant defeat tokens this player holds; ``turns_taken`` this battle;
    ``revealed``: the starting officers have been revealed (first Draw Step).
    """

    army: str
    officer_pool: list[str]
    grain: int
    reserves: int = 0
    officers: list[FieldOfficer] = []
    defeated: list[FieldOfficer] = []
    lieutenants_recruited: int = 0
    defeat_tokens: int = 0
    turns_taken: int = 0
    set_up: bool = False
    revealed: bool = False

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
    def lieutenants(self) -> list[FieldOfficer]:
        return [o for o in self.officers if o.position == "lieutenant"]

    def available(self) -> list[str]:
        """Officer ids of the pool neither on the field nor defeated this battle."""
        used = {o.card for o in self.officers} | {o.card for o in self.defeated}
        return [card for card in self.officer_pool if card not in used]


class Attack(Model):
    """The attack being fought: the attacking seat and officer, and the vanguard once declared."""

    seat: int
    officer: str
    vanguard: str | None = None


class BattleResult(Model):
    """A finished battle: the winning seat (``None`` for a draw) and why, for people."""

    winner: int | None
    reason: str


class State(Model):
    """A C.A.H.R.D. table: a war of battles between two armies.

    ``constants``, ``officer_cards`` (id -> stats) and ``card_titles`` (every card id -> title)
    are copied from the card data. ``armies``: one per seat, for the current battle.
    ``battle_number``: 1-based; ``results``: finished battles. ``step``: see :data:`Step`.
    ``initiative``: whose turn it is (``None`` before the battle's first turn); ``turn``: turns
    started this battle; ``first_seat``: who must go first, when the loser chose; ``attack``:
    the attack in progress, if any.
    """

    players: list[str]
    options: Options
    constants: Constants
    officer_cards: dict[str, OfficerStats]
    card_titles: dict[str, str]
    armies: list[Army]
    battle_number: int = 1
    results: list[BattleResult] = []
    step: Step = "set_up"
    initiative: int | None = None
    turn: int = 0
    first_seat: int | None = None
    attack: Attack | None = None

    def title(self, card: str) -> str:
        """A card's title by id (the id itself if unknown)."""
        return self.card_titles.get(card, card)

    def wins(self) -> list[int]:
        """Battles won by each seat so far."""
        return [sum(1 for r in self.results if r.winner == seat) for seat in range(len(self.players))]

    def step_label(self) -> str:
        """The current step for people, e.g. ``"Strategy Step"``."""
        return STEP_LABELS[self.step]

    def next_starter(self) -> int | None:
        """The seat whose turn starts next, or ``None`` when either may (a battle's first turn
        with no loser's choice); only meaningful between turns."""
        if self.turn == 0:
            return self.first_seat
        return 1 - self.initiative

    def turn_in_progress(self) -> bool:
        return self.step in ("draw", "strategy", "battle")

    def marker_label(self, seat: int, officer: FieldOfficer) -> str:
        """What the attack marker on ``officer`` (of ``seat``) means now: ``"attacked this turn"``
        during its owner's turn after the Recruitment Step, ``"attacked the previous turn"``
        otherwise; ``""`` without a marker or once the battle is over."""
        if not officer.attack_marker or self.step in ("battle_over", "war_over"):
            return ""
        if self.initiative == seat and self.step in ("strategy", "battle"):
            return "attacked this turn"
        return "attacked the previous turn"

    def may_attack(self) -> bool:
        """The initiative player may declare an attack now (first-turn rule included)."""
        return (self.step in ("strategy", "battle") and self.attack is None
                and self.armies[self.initiative].turns_taken > 1)

    def recruitment_reserves(self, seat: int) -> int:
        """Reserves ``seat`` gains in a Recruitment Step now: the combined CHM of its officers on
        the field x the tables' reserves per CHM point (Step 2: The Recruitment Step)."""
        chm = sum(self.officer_cards[o.card].chm for o in self.armies[seat].officers)
        return chm * self.constants.reserves_per_chm_point

    def grain_damage(self, officer: str) -> int:
        """Grain an attack by ``officer`` costs when let through: its base WAR x the tables'
        grain per WAR point (Step 4: The Damage Step)."""
        return self.officer_cards[officer].war * self.constants.grain_damage_per_war_point

    def battle_loser(self) -> int | None:
        """The loser of the last finished battle (``None`` before any, or after a draw)."""
        if not self.results or self.results[-1].winner is None:
            return None
        return 1 - self.results[-1].winner


# ---- events ----------------------------------------------------------------------------------

Seat = Annotated[int, Field(ge=0)]
CardId = Annotated[str, Field(min_length=1)]


class SetUp(Model):
    """Prepare for Battle, step 4: ``seat`` places ``commander``, ``strategist`` and
    ``lieutenants`` (as many as the tables' ``starting_lieutenants``), officer ids of its army."""

    type: Literal["set_up"]
    seat: Seat
    commander: CardId
    strategist: CardId
    lieutenants: list[CardId]


class StartTurn(Model):
    """Step 1, the Draw Step: ``seat`` starts its turn and draws a card."""

    type: Literal["start_turn"]
    seat: Seat


class CannotDraw(Model):
    """Step 1: ``seat`` cannot draw at the start of its turn and loses the battle."""

    type: Literal["cannot_draw"]
    seat: Seat


class Recruitment(Model):
    """Step 2, the Recruitment Step of ``seat``: reserves gained, attack markers removed."""

    type: Literal["recruitment"]
    seat: Seat


class RecruitLieutenant(Model):
    """Step 3: ``seat`` recruits ``officer`` as a lieutenant, paying its recruitment cost."""

    type: Literal["recruit_lieutenant"]
    seat: Seat
    officer: CardId


class DeclareAttack(Model):
    """Step 4, the Declaration Step: ``seat`` attacks with ``officer``. ``allowed_by_card``: the
    id of the card whose effect lets the strategist attack."""

    type: Literal["declare_attack"]
    seat: Seat
    officer: CardId
    allowed_by_card: CardId | None = None


class Vanguard(Model):
    """Step 4, the Vanguard Step: the defending ``seat`` names ``officer``, or ``to_grain`` lets
    the attack through to the grain (exactly one of the two). ``allowed_by_card``: the card whose
    effect lets the strategist, or an officer that attacked on the previous turn, defend."""

    type: Literal["vanguard"]
    seat: Seat
    officer: CardId | None = None
    to_grain: bool = False
    allowed_by_card: CardId | None = None


class DamageStep(Model):
    """Step 4, the Damage Step of an officer-against-officer battle: WAR is compared after the
    modifiers entered (items, tactics, traits, strategies in play for this battle)."""

    type: Literal["damage_step"]
    attacker_war_modifier: int = 0
    vanguard_war_modifier: int = 0


class StopAttack(Model):
    """Glossary of Terms (Battle/Battled): ``card``, played by ``seat``, stops the attack in
    progress before damage is calculated; the attacker still counts as having attacked."""

    type: Literal["stop_attack"]
    seat: Seat
    card: CardId


class CardEffect(Model):
    """A card's effect, played by ``seat``, changes ``target_seat``'s army: ``officer``'s men
    under command by ``men_change``, its ``grain_change`` and ``reserves_change`` (a negative
    ``reserves_change`` on one's own army is a cost paid). Amounts may be negative."""

    type: Literal["card_effect"]
    seat: Seat
    card: CardId
    target_seat: Seat
    officer: CardId | None = None
    men_change: int = 0
    grain_change: int = 0
    reserves_change: int = 0


class EndTurn(Model):
    """Step 5, the End Step: ``seat`` ends its turn."""

    type: Literal["end_turn"]
    seat: Seat


class NextBattle(Model):
    """After a battle: ``seat`` (the loser; either seat after a draw) chooses ``first_seat`` to
    go first in the next battle of the war (Prepare for Battle, step 5)."""

    type: Literal["next_battle"]
    seat: Seat
    first_seat: Seat


Event = Annotated[
    Union[SetUp, StartTurn, CannotDraw, Recruitment, RecruitLieutenant, DeclareAttack, Vanguard, DamageStep,
          StopAttack, CardEffect, EndTurn, NextBattle],
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter = TypeAdapter(Event)


# ---- set-up ----------------------------------------------------------------------------------

def _officer_pool(army: str, game: Game) -> list[str]:
    if army == ANY_ARMY:
        return [card.id for card in game.cards.values() if card.type == "officer"]
    deck = game.decks.get(army)
    if deck is None or deck.kind != "army":
        known = ", ".join(sorted(d.id for d in game.decks.values() if d.kind == "army"))
        raise RuleError(RULE_ARMY, f"there is no army deck {army!r} in the card data; choose one of: "
                                   f"{known}, or {ANY_ARMY!r}")
    return [e.card for e in deck.cards if game.cards[e.card].type == "officer"]


def _fresh_army(army: str, pool: list[str], constants: Constants) -> Army:
    return Army(army=army, officer_pool=pool, grain=constants.starting_grain)


def new_state(players: list[str], options: Options, game: Game) -> State:
    """A war about to start: two armies from the options' decks, the tables' constants.

    ``players``: two names, in seat order; ``game``: the ``cahrd`` card data.
    Raises :class:`RuleError` for another number of players, or an army that is not an army
    deck of the card data (Getting Started), or one with too few officers to set up.
    """
    if len(players) != 2:
        raise RuleError(RULE_PLAYERS, f"C.A.H.R.D. is played by 2 players (this table has {len(players)})")
    table = game.tables.constants
    constants = Constants(**{name: getattr(table, name).value for name in Constants.model_fields})

    def rank(printed: int | str) -> int:
        return constants.s_rank_value if printed == "S" else int(printed)

    armies = []
    for army in (options.army_seat_1, options.army_seat_2):
        pool = _officer_pool(army, game)
        if len(pool) < 2 + constants.starting_lieutenants:
            raise RuleError(RULE_SETUP, f"army {army!r} has only {len(pool)} officers, too few to set up")
        armies.append(_fresh_army(army, pool, constants))
    officer_ids = {card for army in armies for card in army.officer_pool}
    officer_cards = {
        card.id: OfficerStats(title=card.title, war=rank(card.war), chm=rank(card.chm),
                              men_under_command=card.men_under_command, recruitment_cost=card.recruitment_cost)
        for card in game.cards.values() if card.id in officer_ids
    }
    return State(players=list(players), options=options, constants=constants, officer_cards=officer_cards,
                 card_titles={card.id: card.title for card in game.cards.values()}, armies=armies)


# ---- helpers ---------------------------------------------------------------------------------

def _replace(items: list, index: int, value: object) -> list:
    return [value if i == index else item for i, item in enumerate(items)]


def _with_army(state: State, seat: int, army: Army) -> State:
    return state.model_copy(update={"armies": _replace(state.armies, seat, army)})


def _with_officer(army: Army, officer: FieldOfficer) -> Army:
    return army.model_copy(update={"officers": [officer if o.card == officer.card else o for o in army.officers]})


def _check_seat(state: State, seat: int, field: str = "seat") -> None:
    if seat >= len(state.players):
        raise RuleError(RULE_PLAYERS, f"{field} {seat} is not a seat at this table (seats 0 and 1)")


def _check_card(state: State, card: str | None) -> None:
    if card is not None and card not in state.card_titles:
        raise RuleError(RULE_EFFECT, f"there is no card {card!r} in the C.A.H.R.D. card data")


def _check_battle_going(state: State) -> None:
    if state.step == "battle_over":
        raise RuleError(RULE_BATTLE_OVER, f"battle {state.battle_number} is over: start the next battle first")
    if state.step == "set_up":
        raise RuleError(RULE_SETUP, "both players set up their officers first")


def _check_initiative(state: State, seat: int, doing: str) -> None:
    """``seat`` must be the initiative player with a turn in progress."""
    _check_seat(state, seat)
    _check_battle_going(state)
    if not state.turn_in_progress():
        raise RuleError(RULE_ORDER, f"no turn is in progress: start a turn before {doing}")
    if seat != state.initiative:
        raise RuleError(RULE_ORDER, f"it is {state.players[state.initiative]}'s turn, not "
                                    f"{state.players[seat]}'s ({doing} is for the initiative player)")


def _check_no_attack(state: State, doing: str) -> None:
    if state.attack is not None:
        raise RuleError(RULE_DAMAGE, f"an attack is still being fought: finish it before {doing}")


def _defeat(state: State, seat: int, officer: FieldOfficer, by_seat: int) -> State:
    """``officer`` of ``seat`` reached 0 men: to the discard pile; a lieutenant's token is given
    per the ``defeat_token_to`` option (Glossary of Terms: Defeated; Defeat three Lieutenants)."""
    army = state.armies[seat]
    army = army.model_copy(update={
        "officers": [o for o in army.officers if o.card != officer.card],
        "defeated": [*army.defeated, officer.model_copy(update={"men_under_command": 0, "attack_marker": False})],
    })
    state = _with_army(state, seat, army)
    if officer.position == "lieutenant":
        to = state.initiative if state.options.defeat_token_to == "initiative_player" else by_seat
        holder = state.armies[to]
        state = _with_army(state, to, holder.model_copy(update={"defeat_tokens": holder.defeat_tokens + 1}))
    attack = state.attack
    fighting = None if attack is None else attack.officer if attack.seat == seat else attack.vanguard
    if officer.card == fighting:
        state = state.model_copy(update={"attack": None})  # one side of the fight is gone: no Damage Step
    return state


def _change_men(state: State, seat: int, card: str, change: int, by_seat: int) -> State:
    officer = state.armies[seat].officer(card)
    men = officer.men_under_command + change
    if men <= 0:
        return _defeat(state, seat, officer, by_seat)
    return _with_army(state, seat, _with_officer(state.armies[seat], officer.model_copy(
        update={"men_under_command": men})))


def _end_battle(state: State, winner: int | None, reason: str) -> State:
    results = [*state.results, BattleResult(winner=winner, reason=reason)]
    wins = [sum(1 for r in results if r.winner == seat) for seat in range(len(state.players))]
    over = max(wins) >= state.constants.battles_to_win_war or len(results) >= state.constants.battles_per_war
    return state.model_copy(update={"results": results, "attack": None,
                                    "step": "war_over" if over else "battle_over"})


def _settle(state: State) -> State:
    """End the battle if a victory condition is met (Winning the Battle): an army whose commander
    is defeated or whose grain is 0 or less loses; a player holding the tables' number of defeat
    tokens wins. Both sides losing at once is a draw."""
    losers: set[int] = set()
    reasons: list[str] = []
    for seat, army in enumerate(state.armies):
        name = state.players[seat]
        if army.set_up and army.commander is None:
            losers.add(seat)
            reasons.append(f"{name}'s commander was defeated")
        if army.grain <= 0:
            losers.add(seat)
            reasons.append(f"{name}'s grain was destroyed")
        if army.defeat_tokens >= state.constants.lieutenants_defeated_to_win:
            losers.add(1 - seat)
            reasons.append(f"{name} holds {army.defeat_tokens} lieutenant defeat tokens")
    if not losers:
        return state
    winner = None if len(losers) > 1 else 1 - losers.pop()
    return _end_battle(state, winner, "; ".join(reasons))


# ---- event handlers --------------------------------------------------------------------------

def _set_up(state: State, event: SetUp) -> State:
    _check_seat(state, event.seat)
    if state.step == "battle_over":
        raise RuleError(RULE_BATTLE_OVER, f"battle {state.battle_number} is over: start the next battle first")
    if state.step != "set_up":
        raise RuleError(RULE_SETUP, "officers are placed before the battle's first turn")
    army = state.armies[event.seat]
    name = state.players[event.seat]
    if army.set_up:
        raise RuleError(RULE_SETUP, f"{name} has already set up for this battle")
    need = state.constants.starting_lieutenants
    if len(event.lieutenants) != need:
        raise RuleError(RULE_SETUP, f"an army starts with {need} lieutenant(s), not {len(event.lieutenants)}")
    chosen = [event.commander, event.strategist, *event.lieutenants]
    if len(set(chosen)) != len(chosen):
        raise RuleError(RULE_SETUP, "the commander, strategist and lieutenants must be different officers")
    for card in chosen:
        if card not in army.officer_pool:
            raise RuleError(RULE_SETUP, f"{state.title(card)} is not an officer of {name}'s army ({army.army})")
    positions: list[Position] = ["commander", "strategist", *["lieutenant"] * need]
    officers = [FieldOfficer(card=card, position=pos, men_under_command=state.officer_cards[card].men_under_command)
                for card, pos in zip(chosen, positions)]
    state = _with_army(state, event.seat, army.model_copy(update={"officers": officers, "set_up": True}))
    if all(a.set_up for a in state.armies):
        state = state.model_copy(update={"step": "between_turns"})
    return state


def _check_turn_may_start(state: State, seat: int) -> None:
    _check_seat(state, seat)
    _check_battle_going(state)
    if state.turn_in_progress():
        raise RuleError(RULE_ORDER, f"{state.players[state.initiative]}'s turn is still going: end it first")
    starter = state.next_starter()
    if starter is not None and seat != starter:
        rule = RULE_FIRST if state.turn == 0 else RULE_ORDER
        why = "goes first this battle" if state.turn == 0 else "has the initiative this turn"
        raise RuleError(rule, f"{state.players[starter]} {why}, not {state.players[seat]}")


def _start_turn(state: State, event: StartTurn) -> State:
    _check_turn_may_start(state, event.seat)
    army = state.armies[event.seat]
    army = army.model_copy(update={"turns_taken": army.turns_taken + 1, "revealed": True})
    state = _with_army(state, event.seat, army)
    return state.model_copy(update={"initiative": event.seat, "turn": state.turn + 1, "step": "draw"})


def _cannot_draw(state: State, event: CannotDraw) -> State:
    _check_turn_may_start(state, event.seat)
    return _end_battle(state, 1 - event.seat, f"{state.players[event.seat]} could not draw")


def _recruitment(state: State, event: Recruitment) -> State:
    _check_initiative(state, event.seat, "the Recruitment Step")
    if state.step != "draw":
        raise RuleError(RULE_RECRUITMENT, f"{state.players[event.seat]} has already taken the Recruitment Step "
                                          "this turn")
    army = state.armies[event.seat]
    army = army.model_copy(update={
        "reserves": army.reserves + state.recruitment_reserves(event.seat),
        "officers": [o.model_copy(update={"attack_marker": False}) for o in army.officers],
    })
    return _with_army(state, event.seat, army).model_copy(update={"step": "strategy"})


def _recruit_lieutenant(state: State, event: RecruitLieutenant) -> State:
    _check_initiative(state, event.seat, "recruiting")
    if state.step != "strategy":
        where = "take the Recruitment Step first" if state.step == "draw" else "the Battle Step has begun"
        raise RuleError(RULE_RECRUIT, f"officers are recruited only in the Strategy Step: {where}")
    army = state.armies[event.seat]
    name = state.players[event.seat]
    most = state.constants.max_extra_lieutenants
    if army.lieutenants_recruited >= most:
        raise RuleError(RULE_RECRUIT, f"{name} has already recruited {most} lieutenants this battle")
    if event.officer not in army.available():
        if event.officer not in army.officer_pool:
            why = f"is not an officer of {name}'s army ({army.army})"
        elif army.officer(event.officer) is not None:
            why = "is already on the field"
        else:
            why = "was defeated this battle"
        raise RuleError(RULE_RECRUIT, f"{state.title(event.officer)} {why}")
    stats = state.officer_cards[event.officer]
    if army.reserves < stats.recruitment_cost:
        raise RuleError(RULE_RECRUIT, f"{stats.title} costs {stats.recruitment_cost} reserves and {name} has "
                                      f"only {army.reserves}")
    army = army.model_copy(update={
        "reserves": army.reserves - stats.recruitment_cost,
        "officers": [*army.officers, FieldOfficer(card=event.officer, position="lieutenant",
                                                  men_under_command=stats.men_under_command)],
        "lieutenants_recruited": army.lieutenants_recruited + 1,
    })
    return _with_army(state, event.seat, army)


def _declare_attack(state: State, event: DeclareAttack) -> State:
    _check_initiative(state, event.seat, "attacking")
    _check_card(state, event.allowed_by_card)
    name = state.players[event.seat]
    if state.step == "draw":
        raise RuleError(RULE_ORDER, "take the Recruitment Step before the Battle Step")
    _check_no_attack(state, "declaring another")
    army = state.armies[event.seat]
    if army.turns_taken <= 1:
        raise RuleError(RULE_FIRST_TURN, f"this is {name}'s first turn of the battle: no battle yet")
    officer = army.officer(event.officer)
    if officer is None:
        raise RuleError(RULE_DECLARE, f"{state.title(event.officer)} is not on {name}'s field")
    if officer.position == "strategist" and event.allowed_by_card is None:
        raise RuleError(RULE_STRATEGIST, f"{state.title(officer.card)} is {name}'s strategist and cannot attack "
                                         "(name the card whose effect allows it)")
    if officer.attack_marker:
        raise RuleError(RULE_DECLARE, f"{state.title(officer.card)} has already attacked this turn")
    army = _with_officer(army, officer.model_copy(update={"attack_marker": True}))
    state = _with_army(state, event.seat, army)
    return state.model_copy(update={"attack": Attack(seat=event.seat, officer=officer.card), "step": "battle"})


def _vanguard(state: State, event: Vanguard) -> State:
    _check_seat(state, event.seat)
    _check_battle_going(state)
    _check_card(state, event.allowed_by_card)
    attack = state.attack
    if attack is None or attack.vanguard is not None:
        raise RuleError(RULE_VANGUARD, "there is no attack waiting for a vanguard")
    if event.seat == attack.seat:
        raise RuleError(RULE_VANGUARD, f"the defender ({state.players[1 - attack.seat]}) declares the vanguard, "
                                       f"not the attacker")
    if (event.officer is None) == (not event.to_grain):
        raise RuleError(RULE_VANGUARD, "name one vanguard officer, or let the attack through to the grain")
    army = state.armies[event.seat]
    name = state.players[event.seat]
    if event.to_grain:
        army = army.model_copy(update={"grain": army.grain - state.grain_damage(attack.officer)})
        state = _with_army(state, event.seat, army).model_copy(update={"attack": None})
        return _settle(state)
    officer = army.officer(event.officer)
    if officer is None:
        raise RuleError(RULE_VANGUARD, f"{state.title(event.officer)} is not on {name}'s field")
    if officer.position == "strategist" and event.allowed_by_card is None:
        raise RuleError(RULE_STRATEGIST, f"{state.title(officer.card)} is {name}'s strategist and cannot be "
                                         "attacked (name the card whose effect allows it)")
    if officer.attack_marker and event.allowed_by_card is None:
        raise RuleError(RULE_VANGUARD, f"{state.title(officer.card)} attacked the previous turn and cannot be "
                                       "the vanguard")
    return state.model_copy(update={"attack": attack.model_copy(update={"vanguard": officer.card})})


def _damage_step(state: State, event: DamageStep) -> State:
    _check_battle_going(state)
    attack = state.attack
    if attack is None or attack.vanguard is None:
        raise RuleError(RULE_DAMAGE, "the Damage Step comes after an attack and its vanguard are declared")
    defender = 1 - attack.seat
    attacker_war = state.officer_cards[attack.officer].war + event.attacker_war_modifier
    vanguard_war = state.officer_cards[attack.vanguard].war + event.vanguard_war_modifier
    state = state.model_copy(update={"attack": None})
    if attacker_war == vanguard_war:
        return state
    loser, card, winner = ((defender, attack.vanguard, attack.seat) if attacker_war > vanguard_war
                           else (attack.seat, attack.officer, defender))
    state = _change_men(state, loser, card, -state.constants.battle_damage_to_losing_officer, winner)
    return _settle(state)


def _stop_attack(state: State, event: StopAttack) -> State:
    _check_seat(state, event.seat)
    _check_battle_going(state)
    _check_card(state, event.card)
    if state.attack is None:
        raise RuleError(RULE_BATTLED, "there is no attack to stop")
    return state.model_copy(update={"attack": None})


def _card_effect(state: State, event: CardEffect) -> State:
    _check_seat(state, event.seat)
    _check_seat(state, event.target_seat, "target_seat")
    _check_battle_going(state)
    _check_card(state, event.card)
    if not state.turn_in_progress():
        raise RuleError(RULE_ORDER, "cards are played during a turn: start the turn first")
    if not (event.men_change or event.grain_change or event.reserves_change):
        raise RuleError(RULE_EFFECT, "enter what the effect changed (men under command, grain or reserves)")
    army = state.armies[event.target_seat]
    name = state.players[event.target_seat]
    if (event.officer is None) != (event.men_change == 0):
        raise RuleError(RULE_EFFECT, "a change of men under command needs the officer, and an officer needs "
                                     "a change of men under command")
    if event.officer is not None and army.officer(event.officer) is None:
        raise RuleError(RULE_EFFECT, f"{state.title(event.officer)} is not on {name}'s field")
    reserves = army.reserves + event.reserves_change
    if reserves < 0:
        raise RuleError(RULE_PAY, f"{name} has only {army.reserves} reserves, {-event.reserves_change} needed")
    state = _with_army(state, event.target_seat, army.model_copy(
        update={"reserves": reserves, "grain": army.grain + event.grain_change}))
    if event.officer is not None:
        state = _change_men(state, event.target_seat, event.officer, event.men_change, event.seat)
    return _settle(state)


def _end_turn(state: State, event: EndTurn) -> State:
    _check_initiative(state, event.seat, "ending the turn")
    if state.step == "draw":
        raise RuleError(RULE_RECRUITMENT, "take the Recruitment Step before ending the turn")
    _check_no_attack(state, "the End Step")
    return state.model_copy(update={"step": "between_turns"})


def _next_battle(state: State, event: NextBattle) -> State:
    _check_seat(state, event.seat)
    _check_seat(state, event.first_seat, "first_seat")
    if state.step != "battle_over":
        raise RuleError(RULE_BATTLE_OVER, f"battle {state.battle_number} is still being fought")
    loser = state.battle_loser()
    if loser is not None and event.seat != loser:
        raise RuleError(RULE_FIRST, f"{state.players[loser]} lost the battle and chooses who goes first, "
                                    f"not {state.players[event.seat]}")
    armies = [_fresh_army(a.army, a.officer_pool, state.constants) for a in state.armies]
    return state.model_copy(update={"armies": armies, "battle_number": state.battle_number + 1, "step": "set_up",
                                    "initiative": None, "turn": 0, "first_seat": event.first_seat,
                                    "attack": None})


_HANDLERS = {
    "set_up": _set_up, "start_turn": _start_turn, "cannot_draw": _cannot_draw, "recruitment": _recruitment,
    "recruit_lieutenant": _recruit_lieutenant, "declare_attack": _declare_attack, "vanguard": _vanguard,
    "damage_step": _damage_step, "stop_attack": _stop_attack, "card_effect": _card_effect,
    "end_turn": _end_turn, "next_battle": _next_battle,
}


def apply(state: State, event: object) -> State:
    """``state`` after ``event`` (an event model above, or its JSON dict); ``state`` is not changed.

    Raises :class:`RuleError` naming the Official Rulebook 1.0 section when the rules forbid the
    event: out of turn or out of step (Turn Structure), set-up (Prepare for Battle), recruitment
    (Steps 2 and 3), battle (Step 4; the Strategist Zone; first turn), costs (Pay a Cost), and
    anything after the war has ended.
    """
    if isinstance(event, dict):
        event = EVENT_ADAPTER.validate_python(event)
    if state.step == "war_over":
        raise RuleError(RULE_WAR, "the war is over")
    return _HANDLERS[event.type](state, event)


def outcome(state: State) -> Outcome:
    """The war's standing: battles won per seat; finished when the war is over (Winning the
    Battle; How to Play). The winner has more battles won; equal wins after the last battle
    is a drawn war (no winners)."""
    wins = state.wins()
    finished = state.step == "war_over"
    score = " – ".join(f"{name} {w}" for name, w in zip(state.players, wins))
    last = f" ({state.results[-1].reason})" if state.results else ""
    if not finished:
        return Outcome(finished=False, scores=wins, score_label="Battles won",
                       summary=f"Battle {state.battle_number}; battles won: {score}")
    best = max(wins)
    winners = [seat for seat, w in enumerate(wins) if w == best] if wins.count(best) == 1 else []
    summary = (f"{state.players[winners[0]]} wins the war, {score}{last}" if winners
               else f"The war is drawn, {score}{last}")
    return Outcome(finished=True, winners=winners, scores=wins, score_label="Battles won", summary=summary)


# ---- history lines ---------------------------------------------------------------------------

def _men_line(before: State, after: State, seat: int, card: str) -> str:
    old = before.armies[seat].officer(card)
    new = after.armies[seat].officer(card)
    title = before.title(card)
    if new is None:
        line = f"{title} loses its last men and is defeated"
        if old.position == "lieutenant":
            holder = next(s for s in range(2) if after.armies[s].defeat_tokens > before.armies[s].defeat_tokens)
            line += f"; {after.players[holder]} gets a defeat token ({after.armies[holder].defeat_tokens})"
        return line
    return f"{title} men under command {old.men_under_command} → {new.men_under_command}"


def _result_line(before: State, after: State) -> str:
    if len(after.results) == len(before.results):
        return ""
    result = after.results[-1]
    won = f"{after.players[result.winner]} wins battle {after.battle_number}" if result.winner is not None \
        else f"battle {after.battle_number} is drawn"
    return f". {won}: {result.reason}"


def describe(state: State, event: object) -> str:
    """One history line for ``event`` applied to ``state``, e.g. ``"Red attacked with Oda Nobunaga
    (WAR 4)"``. Raises :class:`RuleError` like :func:`apply` if the event is refused."""
    if isinstance(event, dict):
        event = EVENT_ADAPTER.validate_python(event)
    after = apply(state, event)
    p = state.players
    t = state.title
    seat = getattr(event, "seat", None)
    if isinstance(event, SetUp):
        return f"{p[seat]} placed a commander, a strategist and {len(event.lieutenants)} lieutenant(s), face down"
    if isinstance(event, StartTurn):
        line = f"{p[seat]}'s turn (turn {after.turn} of battle {after.battle_number}): drew a card"
        if not state.armies[seat].revealed:
            army = after.armies[seat]
            line += (f"; revealed commander {t(army.commander.card)}, strategist {t(army.strategist.card)}, "
                     f"lieutenant(s) {', '.join(t(o.card) for o in army.lieutenants)}")
        return line
    if isinstance(event, CannotDraw):
        return f"{p[seat]} could not draw and loses battle {state.battle_number}"
    if isinstance(event, Recruitment):
        old, new = state.armies[seat].reserves, after.armies[seat].reserves
        chm = state.recruitment_reserves(seat) // state.constants.reserves_per_chm_point
        return f"{p[seat]}'s Recruitment Step: combined CHM {chm}, reserves {old} → {new}"
    if isinstance(event, RecruitLieutenant):
        cost = state.officer_cards[event.officer].recruitment_cost
        return (f"{p[seat]} recruited {t(event.officer)} as a lieutenant for {cost} reserves "
                f"(reserves {after.armies[seat].reserves} left)")
    if isinstance(event, DeclareAttack):
        via = f" (by {t(event.allowed_by_card)})" if event.allowed_by_card else ""
        return f"{p[seat]} attacked with {t(event.officer)} (WAR {state.officer_cards[event.officer].war}){via}"
    if isinstance(event, Vanguard):
        if event.to_grain:
            old, new = state.armies[seat].grain, after.armies[seat].grain
            return (f"{p[seat]} let {t(state.attack.officer)}'s attack through to the grain: grain {old} → {new}"
                    + _result_line(state, after))
        via = f" (by {t(event.allowed_by_card)})" if event.allowed_by_card else ""
        return f"{p[seat]} declared {t(event.officer)} the vanguard{via}"
    if isinstance(event, DamageStep):
        attack = state.attack
        a_war = state.officer_cards[attack.officer].war + event.attacker_war_modifier
        v_war = state.officer_cards[attack.vanguard].war + event.vanguard_war_modifier
        line = f"Damage Step: {t(attack.officer)} WAR {a_war} against {t(attack.vanguard)} WAR {v_war}: "
        if a_war == v_war:
            return line + "no winner, nothing happens"
        loser_seat, card = (1 - attack.seat, attack.vanguard) if a_war > v_war else (attack.seat, attack.officer)
        return line + _men_line(state, after, loser_seat, card) + _result_line(state, after)
    if isinstance(event, StopAttack):
        return f"{p[seat]}'s {t(event.card)} stopped {t(state.attack.officer)}'s attack before damage"
    if isinstance(event, CardEffect):
        target = event.target_seat
        parts = []
        if event.officer is not None:
            parts.append(_men_line(state, after, target, event.officer))
        if event.grain_change:
            parts.append(f"{p[target]}'s grain {state.armies[target].grain} → {after.armies[target].grain}")
        if event.reserves_change:
            parts.append(f"{p[target]}'s reserves {state.armies[target].reserves} → {after.armies[target].reserves}")
        return f"{p[seat]}'s {t(event.card)}: " + "; ".join(parts) + _result_line(state, after)
    if isinstance(event, EndTurn):
        return f"{p[seat]} ended the turn"
    if isinstance(event, NextBattle):
        who = "to go first" if event.first_seat == seat else f"{p[event.first_seat]} to go first"
        return f"Battle {after.battle_number} begins; {p[seat]} chose {who}"
    return event.type


ENGINE = Engine(
    game_id="cahrd",
    title="C.A.H.R.D.",
    min_players=2,
    max_players=2,
    options_model=Options,
    state_model=State,
    event_adapter=EVENT_ADAPTER,
    new_state_fn=new_state,
    apply_fn=apply,
    outcome_fn=outcome,
    describe_fn=describe,
)
