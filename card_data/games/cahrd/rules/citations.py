"""The C.A.H.R.D. rulebook as the engine cites it: every rule an event may break
(:class:`~card_data.engine.RuleError`'s ``rule``), naming the rulebook and its section."""

from __future__ import annotations

from card_data.engine import Words
from card_data.games.cahrd.cards import RULEBOOK as EDITION

BOOK = f"C.A.H.R.D. {EDITION}"

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
RULE_FIRST_TURN_OF_BATTLE = Words("%(book)s, Summary of the steps (Battle Step): no battle on the first turn, the "
                                  "starting player's (this table's reading)", book=BOOK)
RULE_LIEUTENANTS_ON_FIELD = Words("%(book)s, The Game Mat (6 - The Lieutenant Zone): one lieutenant to start and up "
                                  "to two more on the field at a time (this table's reading)", book=BOOK)
RULE_DECLARE = Words("%(book)s, Step 4: The Declaration Step: the initiative player appoints an attacking "
                     "officer; each officer attacks at most once a turn", book=BOOK)
RULE_STRATEGIST = Words("%(book)s, The Game Mat (5 - The Strategist Zone); The Declaration Step: the strategist "
                        "never attacks nor is attacked, except by card effect", book=BOOK)
RULE_VANGUARD = Words("%(book)s, Step 4: The Vanguard Step: the defender names a lieutenant or the commander that "
                      "did not attack on the previous turn, or lets the attack through to the grain", book=BOOK)
RULE_DAMAGE = Words("%(book)s, Step 4: The Damage Step: the officers' WAR is compared and the loser takes damage; "
                    "an attack on the grain costs grain by the attacker's base WAR", book=BOOK)
RULE_BATTLED_ONCE = Words("%(book)s, Glossary of Terms (Battle/Battled): an officer battles the moment it is "
                          "declared a vanguard, and may not battle again that turn (this table's reading)", book=BOOK)
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
