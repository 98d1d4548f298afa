"""Carpe Cras scorekeeper: first player, mulligans, rounds and turns, the Carpe Cras Token,
morale, agency and lanes, with a Tempo helper.

Rulebook: ``carpe-cras.txt`` (V1.0, August 2025). Its text lost most headings; rules cite the
topic names the card data uses (``card_data/carpe_cras/README.md``): Pre-Game Setup, The
battlefield, Morale, Round Start, Player Actions, Round End, Carpe Cras Token, Gaining agency,
Striking the city, Tempo, Glossary.

Everything the engine says to players (move labels, form fields, history lines, summaries,
refusals) is :class:`~card_data.engine.Words`: English text that the companion says in the
player's language. Player names and an action's note are params, shown as written; the
rulebook's section names stay as printed, the rulebook being in English only.

The engine's modules: :mod:`.rulebook` (the rulebook's numbers and the rules cited),
:mod:`.state` (the table's state, options, set-up and :data:`ENGINE`), :mod:`.agency` (where
gained agency goes), :mod:`.turns` (turn checks and the events' base classes), and the events
by concern: :mod:`.events_setup`, :mod:`.events_rounds`, :mod:`.events_effects`,
:mod:`.events_tempo`.

What the players enter, one event class each (in the order of a game):

1. :class:`Mulligan` (each player at most once, before round 1), :class:`FirstPlayerRoll`
   (both dice; a tie rolls again), then :class:`ChooseStartingPlayer` by the low roller
   (Pre-Game Setup).
2. :class:`StartRound`: cards ready, each player draws 1 and gains 1 agency, placed in a
   city space of their choice (Round Start).
3. Turns, alternating: :class:`Action` (any player action: the rulebook's list of actions
   did not survive in the source text), :class:`Pass`, :class:`TakeToken`;
   :class:`StrikeCity` with ``ends_turn`` is an attack on a city space taken as the turn's
   action. The round ends when a player passes right after the other passed (Player
   Actions); then :class:`StartRound` again.
4. Effects, at any time from the first round on, not tied to a turn unless ``ends_turn``:
   :class:`StrikeCity` (from an ability), :class:`GainAgency`, :class:`AddLane`,
   :class:`RecoverMorale`.
5. :class:`TempoRoll`: the Tempo helper (:mod:`.tempo` does the arithmetic); it records the
   result in ``State.last_tempo`` (the scorekeeper does not track units); :class:`CardTempo`
   (:mod:`.events_card_tempo`) takes the striker and the target from the game's cards, each
   with its upgrades, and works out their stats (Upgrades, Examples 1 and 2).

Readings of ours where the rulebook is silent or unclear (each is also noted where applied):

- Full city spaces (option ``full_city_agency``). The main text ("Gaining agency") says agency
  gained while all your city spaces are full goes to the bottom of your agency deck. The
  glossary ("Gain Agency") says it is sacrificed if you do not control the Carpe Cras Token.
  Sacrificing also puts agency on the bottom of the agency deck (glossary, "Sacrifice"), so
  the two differ only for the Token's holder, whom the glossary exempts without saying where
  the agency goes instead (the list of the Token's advantages is lost). Default
  ``"bottom_of_deck"`` (main text); ``"sacrifice_unless_token"`` (glossary) sets the holder's
  card aside next to their city (``State.agency_set_aside``), to be placed by a later
  :class:`GainAgency` from ``"set_aside"`` once a city space is free.
- Taking the Token is that player's turn, and all their further turns that round are passes:
  the opponent then acts until they pass, which ends the round. Taking it never ends the
  round by itself, even right after the opponent passed.
- A round after one in which no one took the Token begins with the Token's holder, or with
  the starting player if no one has ever held it (the rulebook names only the player who
  took the Token in the previous round).
- Recovering morale never raises it above the starting amount (Morale: "cannot ever have
  more"); recovery at full morale is entered and changes nothing.
- The mulligan ("one shot before the first round") may be taken any time before round 1
  starts, once per player; the scorekeeper records it so that a second one is refused.
"""

from __future__ import annotations

# The events register with ENGINE as their modules are imported, in this order: the order in
# which a page offers their forms (Engine.allowed) and the API lists them. Not sorted, then.
# isort: off
from card_data.games.carpe_cras.rules.events_setup import (
    ChooseStartingPlayer,
    FirstPlayerRoll,
    Mulligan,
)
from card_data.games.carpe_cras.rules.events_rounds import (
    Action,
    Pass,
    StartRound,
    TakeToken,
)
from card_data.games.carpe_cras.rules.events_effects import (
    AddLane,
    GainAgency,
    LoseMorale,
    RecoverMorale,
    StrikeCity,
)
from card_data.games.carpe_cras.rules.events_tempo import TempoRoll
from card_data.games.carpe_cras.rules.events_card_tempo import CardTempo
# isort: on
from card_data.games.carpe_cras.rules.state import ENGINE, Options, State

__all__ = ["ENGINE", "Options", "State", "Mulligan", "FirstPlayerRoll", "ChooseStartingPlayer", "StartRound",
           "Action", "Pass", "TakeToken", "StrikeCity", "GainAgency", "AddLane", "RecoverMorale", "LoseMorale",
           "TempoRoll", "CardTempo"]
