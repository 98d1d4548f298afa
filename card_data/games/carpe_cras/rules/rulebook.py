"""The Carpe Cras rulebook's numbers, and the rules the engine cites.

Each ``RULE_*`` names the rulebook (:data:`~card_data.games.carpe_cras.BOOK`) and the topic the
card data uses (``card_data/carpe_cras/README.md``), as a :class:`~card_data.engine.RuleError`
cites it.
"""

from __future__ import annotations

from card_data.engine import Words
from card_data.games.carpe_cras import BOOK

PLAYER_COUNT = 2
STARTING_LANES = 1
MAX_LANES = 6
CITY_SPACE_CAPACITY = 3
DEFAULT_STARTING_MORALE = 15
MOST_STARTING_MORALE = 99
"""The highest starting morale a table may choose (Morale: 15, "possibly modified in different
game modes"): no city ever has more (Morale: it "cannot ever have more than its starting
amount"), so no effect gains or loses more at once."""
MOST_STAT = 99
"""A sane bound on a stat entered (power, speed, Accuracy, Dexterity, Evade): the cards print one
or two digits, and upgrades and swarms add to them (Card anatomy; Glossary: Stats)."""

# The rulebook's section names stay as printed (the rulebook is in English only); the book's
# name (BOOK) and the rules' wording are translated with the rest of what the engine says.
RULE_FIRST_PLAYER = Words("%(book)s, Pre-Game Setup: both players roll a die, the low roller chooses the "
                          "starting player, and a tie is rolled again", book=BOOK)
RULE_MULLIGAN = Words("%(book)s, Pre-Game Setup: each player may mulligan their opening hand once, before "
                      "the first round", book=BOOK)
RULE_ROUND_START = Words("%(book)s, Round Start: each round starts with cards readied and each player "
                         "drawing 1 card and gaining 1 agency; the starting player acts first in round 1",
                         book=BOOK)
RULE_TURNS = Words("%(book)s, Player Actions: players alternate turns, and the round ends when a player "
                   "passes right after the other passed", book=BOOK)
RULE_TOKEN = Words("%(book)s, Carpe Cras Token: once per round one player may claim the Token and then "
                   "passes all further turns that round", book=BOOK)
RULE_MORALE = Words("%(book)s, Morale: a city starts with %(morale)d morale, can never have more than its "
                    "starting amount, and at 0 the game ends and the opponent wins",
                    book=BOOK, morale=DEFAULT_STARTING_MORALE)
RULE_LANES = Words("%(book)s, The battlefield: the game starts with %(start)d lane and lanes can be "
                   "added up to %(most)d", book=BOOK, start=STARTING_LANES, most=MAX_LANES)
RULE_CITY_SPACE = Words("%(book)s, The battlefield: each lane has one city space per player, holding up to "
                        "%(most)d of its owner's agency", book=BOOK, most=CITY_SPACE_CAPACITY)
RULE_GAIN_MAIN = Words("%(book)s, Gaining agency: gained agency goes in a city space (up to %(most)d each); "
                       "while all are full it goes to the bottom of the agency deck",
                       book=BOOK, most=CITY_SPACE_CAPACITY)
RULE_GAIN_GLOSSARY = Words("%(book)s, Glossary: Gain Agency: gained agency goes in a city space (up to "
                           "%(most)d each); if all are full and you do not control the Carpe Cras Token, it "
                           "is sacrificed", book=BOOK, most=CITY_SPACE_CAPACITY)
RULE_STRIKE_CITY = Words("%(book)s, Striking the city: a strike on a city space deals its skill's power to "
                         "morale; each agency the defender sacrifices from that space prevents 1 damage",
                         book=BOOK)
