"""The Carpe Diem sources as the engine cites them: every rule an event may break
(:class:`~card_data.engine.RuleError`'s ``rule``), naming the source and its section, and the
numbers the summary states in words."""

from __future__ import annotations

from card_data.engine import Words

SUMMARY = Words("Carpe Diem summary (carpe-diem-summary.txt)")
RULEBOOK = Words("Carpe Diem 2018 rulebook (carpe-diem-published-rules-notes.md)")

MARKET_COINS = 1
BAKERY_BREAD = 1
"""Summary, Actions (Building Completions and Rewards): "Markets: Place for 1 coin. Bakeries:
Place for 1 bread." (stated in words, not printed as icons, so not in ``tables.yaml``)."""
FOUNTAIN_DRAW, FOUNTAIN_KEEP = 2, 1
"""Summary, Actions: "Fountains: Place to draw 2 fountain cards, keep 1"."""

RULE_ROUNDS = Words("%(source)s, Turn Structure: each phase is a set number of rounds followed by a scoring "
                    "period, in which no rounds are played", source=SUMMARY)
RULE_SCORING_ORDER = Words("%(source)s, Scoring periods: players score furthest along the banderole bar "
                           "first, on one space the disc on top first, each placing one disc", source=RULEBOOK)
RULE_CIRCLES = Words("%(source)s, Scoring periods: a disc goes on an empty circle space; discs from "
                     "earlier scoring periods block theirs for good", source=RULEBOOK)
RULE_CARD_ORDER = Words("%(source)s, Special Rules & Edge Cases: the disc triggers the two cards beside its "
                        "circle, in the order the player picks", source=SUMMARY)
RULE_RED = Words("%(source)s, Scoring periods: a red card takes payment in wares, coins replacing any "
                 "ware; paying it k times gives the reward k times", source=RULEBOOK)
RULE_GREEN = Words("%(source)s, Scoring periods: a green card counts what the player owns; every full "
                   "set owned gives the reward once", source=RULEBOOK)
RULE_BREAD = Words("%(source)s, Scoring periods: bread fulfils one scoring card of either colour once",
                   source=RULEBOOK)
RULE_FINAL = Words("%(source)s, Final scoring: after the last scoring period each player scores once",
                   source=RULEBOOK)
RULE_VILLAS = Words("%(source)s, Final scoring: each completed villa scores by its chimneys", source=RULEBOOK)
RULE_FOUNTAINS = Words("%(source)s, Final scoring: fountain cards score their own conditions", source=RULEBOOK)
RULE_FRAME = Words("%(source)s, Final scoring: frame goals", source=RULEBOOK)
RULE_BAR = Words("%(source)s, Scoring periods: players only place discs and resolve cards, so only "
                 "scoring-card rewards move discs on the banderole bar", source=RULEBOOK)
RULE_HOLDINGS = Words("%(source)s, Components: wares, coins and bread", source=SUMMARY)
RULE_BUILDING = Words("%(source)s, Turn Structure: tiles are taken and placed in the rounds, and completed "
                      "buildings and landscapes give their rewards at once", source=SUMMARY)
RULE_LANDSCAPE = Words("%(source)s, Actions (Building Completions and Rewards): a landscape of 2-4 tiles "
                       "gives (tiles - 1) matching wares", source=SUMMARY)
RULE_PLACE = Words("%(source)s, Actions (Building Completions and Rewards): a market is placed for "
                   "%(coins)d coin, a bakery for %(bread)d bread", source=SUMMARY, coins=MARKET_COINS,
                   bread=BAKERY_BREAD)
RULE_FOUNTAIN = Words("%(source)s, Other rules a checker can hold: a fountain draws %(draw)d "
                      "fountain cards and keeps %(keep)d", source=RULEBOOK, draw=FOUNTAIN_DRAW, keep=FOUNTAIN_KEEP)
RULE_OVER = Words("%(source)s, Scoring / Victory Conditions (End of game): the game ends with the final scoring",
                  source=SUMMARY)
RULE_VP = Words("%(source)s, Components: victory point cards (values 1, 3, 5, 10, 25) are taken and handed back "
                "as players gain and lose points", source=SUMMARY)
