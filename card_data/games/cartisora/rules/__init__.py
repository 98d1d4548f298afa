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
   The next round also begins with its reveal: a :class:`Reveal` naming the next round, sent
   while the round before awaits reactions or maneuvers, first ends that round as
   :class:`NextRound` does, in the same entry (the rules leave nothing to decide there: the
   players revealing new cards play nothing more on the old ones). The game's last round
   still ends by its own :class:`NextRound`.

The engine's modules: :mod:`.options` (the table options), :mod:`.catalog` (the card data a
table plays with), :mod:`.state` (the table's state), :mod:`.table` (set-up and
:data:`ENGINE`), :mod:`.contest` (judging and resolving a round, ending a round and a game),
:mod:`.wording` (the rulebooks cited, results in words) and :mod:`.history` (history lines
about a contest and a round's end), and the events: :mod:`.events_base` (what they share),
:mod:`.events_decks`, :mod:`.events_contest`, :mod:`.events_round_end`.

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
  Option ``first_blood`` ``"first_round"`` plays Round Result's reading instead (2019 only):
  the winner of round 1 takes it, nobody after a tied first round.
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

# The events register with ENGINE as their modules are imported, in this order: the order in
# which a page offers their forms (Engine.allowed) and the API lists them. Not sorted, then.
# isort: off
from card_data.games.cartisora.rules.events_decks import BanDeck, PickDeck
from card_data.games.cartisora.rules.events_contest import Reaction, Reveal, Tag
from card_data.games.cartisora.rules.events_round_end import Maneuver, NextRound
# isort: on
from card_data.games.cartisora.rules.options import DRAFT_PICK_ORDER, Options
from card_data.games.cartisora.rules.state import Played, State
from card_data.games.cartisora.rules.table import ENGINE

__all__ = ["ENGINE", "DRAFT_PICK_ORDER", "Options", "Played", "State", "PickDeck", "BanDeck", "Reveal", "Reaction",
           "Tag", "Maneuver", "NextRound"]
