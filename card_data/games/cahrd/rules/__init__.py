"""C.A.H.R.D. scorekeeper: grain, reserves, officers, zones, battles and the war (Official Rulebook 1.0).

A table holds a whole war (How to Play: battles are played in sets of three, the first to win
two takes the war). Each battle the players enter, in rulebook order, one event class each:

1. Prepare for Battle: :class:`Mulligan` (step 3: an opening hand with too few officers is
   shown to the opponent and mulliganed, as often as needed), then :class:`SetUp` once per
   player (step 4: commander, strategist and the starting lieutenant(s), officers of the seat's
   army deck). They stay face down until their owner's first Draw Step (Glossary of Terms: Set).
2. Each turn (Turn Structure): :class:`StartTurn` (Draw Step; :class:`CannotDraw` instead
   loses the battle), :class:`Recruitment` (Recruitment Step: combined CHM x the tables'
   reserves per point; a :class:`StartTurn` with ``recruitment`` takes it in the same entry
   when nothing is played in the Draw Step), :class:`RecruitLieutenant` (Strategy Step only),
   then the Battle Step as often as the officers allow: :class:`DeclareAttack` (Declaration Step),
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

The engine's modules: :mod:`.book` (the options and the card data a table copies),
:mod:`.state` (the war, battle and armies), :mod:`.engine` (set-up and :data:`ENGINE`),
:mod:`.citations` (the rulebook sections cited), :mod:`.wording` (names and shared lines),
:mod:`.bounds` (the bounds of what players enter), :mod:`.steps` (what the events share) and
one ``events_*`` module per part of the game, in the order above.
"""

from card_data.games.cahrd.rules.book import (
    ANY_ARMY,
    ArmyDeck,
    CardBook,
    CardInfo,
    CardKind,
    Constants,
    OfficerStats,
    Options,
)
from card_data.games.cahrd.rules.citations import BOOK
from card_data.games.cahrd.rules.engine import ENGINE, set_up
from card_data.games.cahrd.rules.state import (
    Army,
    Attack,
    BattleResult,
    CahrdStep,
    DefeatedOfficer,
    FieldOfficer,
    Position,
    State,
    Zone,
    ZoneCard,
    other,
)
from card_data.games.cahrd.rules.steps import CahrdEvent

# The events register with ENGINE as their modules are first imported, and pages offer them in
# that order: keep these imports in the order of the game.
from card_data.games.cahrd.rules.events_prepare import Mulligan, SetUp  # isort: skip
from card_data.games.cahrd.rules.events_turn import CannotDraw, RecruitLieutenant, Recruitment, StartTurn  # isort: skip
from card_data.games.cahrd.rules.events_battle import DamageStep, DeclareAttack, Vanguard  # isort: skip
from card_data.games.cahrd.rules.events_end import EndTurn, NextBattle  # isort: skip
from card_data.games.cahrd.rules.events_effects import CardEffect, StopAttack  # isort: skip
from card_data.games.cahrd.rules.events_cards import (  # isort: skip
    ActivateCard,
    DiscardCard,
    DiscardStrategy,
    PlayStrategy,
    SetCard,
)

__all__ = [
    "ENGINE", "set_up", "BOOK", "ANY_ARMY", "Options", "Constants", "OfficerStats", "CardInfo", "ArmyDeck", "CardBook",
    "CardKind", "Position", "Zone", "CahrdStep", "FieldOfficer", "DefeatedOfficer", "ZoneCard", "Army", "Attack",
    "BattleResult", "State", "other", "CahrdEvent",
    "Mulligan", "SetUp", "StartTurn", "CannotDraw", "Recruitment", "RecruitLieutenant", "DeclareAttack", "Vanguard",
    "DamageStep", "EndTurn", "NextBattle", "StopAttack", "CardEffect", "SetCard", "ActivateCard", "DiscardCard",
    "PlayStrategy", "DiscardStrategy",
]
