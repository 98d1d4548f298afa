"""C.A.H.R.D. card database: the bundled data, the schema's rules and the deck-building rules.

Failing inputs are built by copying ``card_data/cahrd`` to a temporary folder and editing one
file; each test checks the exact ``FILE:LINE: cahrd/<id>: <field>:`` prefix of the problem.
"""

from collections import Counter
from pathlib import Path

import pytest
from database_edits import copy_game, edit, line_of, problem_lines

from card_data.games.cahrd.cards import (
    STAT_NAMES,
    OfficerCard,
    rank_value,
    reserves_label,
)
from card_data.declared.deck_rules import deck_problems
from card_data.loader import check_database
from card_data.schema import DeckList

RULEBOOK_GLOSSARY = [
    "Active Effects", "Base Stats", "Battle/Battled", "Battle Damage", "Cards on the Field", "Damage",
    "Defeated", "Disregard", "Effects of Cards", "Excavate", "Passive Effects", "Pay a Cost", "Random",
    "Reveal", "Search", "Sent to the Discard Pile", "Set", "Shuffle", "Stats", "Items of Mass Destruction",
]
CARDS_NAMED_IN_RULEBOOK = {
    "oda-nobunaga": "Oda Nobunaga",
    "george-washington": "George Washington",
    "julius-caesar": "Julius Caesar",
    "serpent-spear-of-zhang-fei": "Serpent Spear of Zhang Fei",
    "crescent-blade": "Crescent Blade",
}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    root = tmp_path_factory.mktemp("bundled")
    copy_game(root, "cahrd")
    db, problems = check_database(root)
    assert problems == []
    return db.games["cahrd"]


def entry_index(text: str, line: int) -> int:
    """Index in the deck's ``cards`` list of the entry written on or just above ``line``."""
    return sum(1 for row in text.splitlines()[:line] if row.startswith("  - card:")) - 1


def copy_and_edit(root: Path, relative: str, old: str, new: str) -> tuple[Path, str]:
    """Copy the game to ``root``, replace ``old`` (exactly once) by ``new`` in one file."""
    path = copy_game(root, "cahrd") / relative
    return path, edit(path, old, new)


def only_problem(root: Path, within: Path | None = None) -> str:
    """The one problem found in the database at ``root`` (or in file ``within``)."""
    found = problem_lines(root, within)
    assert len(found) == 1, found
    return found[0]


# ---- the bundled data ------------------------------------------------------------------------

def test_bundled_data_loads_without_problems(tmp_path):
    copy_game(tmp_path, "cahrd")
    db, problems = check_database(tmp_path)
    assert [str(p) for p in problems] == []
    game = db.games["cahrd"]
    counts = Counter(card.type for card in game.cards.values())
    assert counts["officer"] >= 20 and counts["item"] >= 5 and counts["tactic"] >= 4 and counts["strategy"] >= 6
    assert game.info.title == "C.A.H.R.D."
    assert "Combat Alliance History Retelling Division" in game.info.summary
    assert "Kenneth Davis and Angelo Medina" in game.info.summary
    assert game.info.backs == {"army": "Army deck", "strategy": "Strategy deck"}


def test_cards_named_in_rulebook_keep_their_titles_and_list_assumed_values(game):
    for card_id, title in CARDS_NAMED_IN_RULEBOOK.items():
        card = game.cards[card_id]
        assert card.title == title
        assert not card.example
        assert card.assumed and card.note
    assert set(game.cards["oda-nobunaga"].assumed) >= {*STAT_NAMES, "trait", "men_under_command", "recruitment_cost"}


def test_invented_cards_are_marked_example_and_every_card_has_cited_rulings(game):
    for card in game.cards.values():
        assert card.example or card.id in CARDS_NAMED_IN_RULEBOOK, card.id
        assert card.rulings, card.id
        for ruling in card.rulings:
            assert ruling.section.startswith("Official Rulebook 1.0, "), card.id


def test_example_decks_are_legal_and_playable(game):
    kinds = Counter(deck.kind for deck in game.decks.values())
    assert kinds == {"army": 2, "strategy": 2}
    for deck in game.decks.values():
        assert deck_problems(deck, game.spec, game.info.deck_rules, game.cards) == []
        total = sum(entry.qty for entry in deck.cards)
        if deck.kind == "army":
            assert 40 <= total <= 60
            officers = sum(e.qty for e in deck.cards if game.cards[e.card].type == "officer")
            # An opening hand of 7 must hold 3 officers (Prepare for Battle); fewer than ~16 means endless mulligans.
            assert officers >= 16, deck.id
        else:
            assert 4 <= total <= 10


def test_s_rank_counts_as_ten_and_keeps_its_printed_value(game):
    vanguard = game.cards["iron-vanguard"]
    assert isinstance(vanguard, OfficerCard)
    assert vanguard.war == "S"
    assert vanguard.base_stat("war") == 10
    assert vanguard.base_stats == {"ldr": 3, "war": 10, "int": 1, "chm": 1}
    assert rank_value("S") == 10 and rank_value(4) == 4
    with pytest.raises(ValueError):
        rank_value(6)
    with pytest.raises(KeyError):
        vanguard.base_stat("speed")
    assert any("S" in (c.ldr, c.war, c.int, c.chm) for c in game.cards.values() if c.id != "iron-vanguard"
               and isinstance(c, OfficerCard))


def test_reserves_print_in_thousands(game):
    assert game.cards["oda-nobunaga"].recruitment_cost == 25000
    assert game.cards["oda-nobunaga"].recruitment_cost_label == "25k"
    assert reserves_label(2500) == "2.5k" and reserves_label(500) == "500"


def test_backs_and_glossary_text(game):
    assert game.cards["supply-lines"].back_kind() == "strategy"
    assert {game.cards[i].back_kind() for i in ("oda-nobunaga", "crescent-blade", "counter-order")} == {"army"}
    assert "excavate" in game.cards["war-chronicler"].glossary_text()
    assert "Disregard" in game.cards["counter-order"].glossary_text()
    assert "grain is 3000" in game.cards["supply-lines"].glossary_text()


def test_glossary_holds_every_glossary_of_terms_entry(game):
    terms = {entry.term for entry in game.glossary}
    assert set(RULEBOOK_GLOSSARY) <= terms
    assert {"LDR", "WAR", "INT", "CHM", "Reserves", "Grain", "Men Under Command", "Initiative player",
            "Commander", "Strategist", "Lieutenant", "Chain"} <= terms


def test_tables_hold_the_scorekeeper_constants(game):
    constants = game.tables.constants
    assert constants.starting_grain.value == 4000
    assert constants.reserves_per_chm_point.value == 1000
    assert constants.grain_damage_per_war_point.value == 100
    assert constants.starting_lieutenants.value == 1
    assert constants.max_extra_lieutenants.value == 2
    assert constants.opening_hand.value == 7
    assert constants.min_officers_in_opening_hand.value == 3
    assert constants.battles_per_war.value == 3
    imd = game.tables.items_of_mass_destruction
    assert imd.long_games == [] and imd.short_games == [] and "names no entries" in imd.note


# ---- army deck rules (Getting Started: Deck) -------------------------------------------------

ARMY_RULE = "Getting Started: Deck (40 to 60 cards)"
STRATEGY_RULE = "Getting Started: Strategy Deck (0 to 10 cards)"

def test_army_deck_of_39_cards(tmp_path):
    path, text = copy_and_edit(tmp_path, "decks/shield-wall.yaml", "  - card: ambush\n    qty: 2\n", "  - card: ambush\n")
    assert only_problem(tmp_path) == (f"{path}:{line_of(text, 'cards:')}: cahrd/shield-wall: cards: "
                                      f"an army deck holds 40 to 60 cards (this one has 39) [{ARMY_RULE}]")


def test_army_deck_of_61_cards(tmp_path, game):
    officers = [c.id for c in game.cards.values() if c.type == "officer"]
    items = [c.id for c in game.cards.values() if c.type == "item"]
    lines = [f"  - card: {card_id}" for card_id in officers]
    lines += [f"  - card: {card_id}\n    qty: 3" for card_id in items]
    extra = 61 - len(officers) - 3 * len(items)
    assert 1 <= extra <= 3
    lines.append(f"  - card: counter-order\n    qty: {extra}")
    text = "id: big-army\ntitle: Too big\nkind: army\ncards:\n" + "\n".join(lines) + "\n"
    path = copy_game(tmp_path, "cahrd") / "decks" / "big-army.yaml"
    path.write_text(text, encoding="utf-8")
    assert only_problem(tmp_path) == (f"{path}:4: cahrd/big-army: cards: an army deck holds 40 to 60 cards "
                                      f"(this one has 61) [{ARMY_RULE}]")


def test_two_copies_of_an_officer(tmp_path):
    path, text = copy_and_edit(tmp_path, "decks/shield-wall.yaml", "  - card: oda-nobunaga\n",
                             "  - card: oda-nobunaga\n    qty: 2\n")
    line = line_of(text, "qty: 2", after="oda-nobunaga")
    assert only_problem(tmp_path) == (f"{path}:{line}: cahrd/shield-wall: cards.0.qty: an army deck holds at most "
                                      f"1 copy of an officer: 'Oda Nobunaga' appears 2 times [{ARMY_RULE}]")


def test_an_officer_listed_twice(tmp_path):
    path, text = copy_and_edit(tmp_path, "decks/shield-wall.yaml", "  - card: ambush\n    qty: 2\n",
                             "  - card: ambush\n  - card: julius-caesar\n")
    line = line_of(text, "julius-caesar", after="ambush")
    assert only_problem(tmp_path) == (f"{path}:{line}: cahrd/shield-wall: cards.{entry_index(text, line)}.card: "
                                      "an army deck holds at most "
                                      f"1 copy of an officer: 'Julius Caesar' appears 2 times [{ARMY_RULE}]")


def test_four_copies_of_an_item(tmp_path):
    path, text = copy_and_edit(tmp_path, "decks/shield-wall.yaml", "  - card: signal-drums\n    qty: 3\n",
                             "  - card: signal-drums\n    qty: 4\n")
    line = line_of(text, "qty: 4")
    assert only_problem(tmp_path) == (f"{path}:{line}: cahrd/shield-wall: cards.{entry_index(text, line)}.qty: "
                                      "an army deck holds at most "
                                      f"3 copies of an item: 'Signal Drums' appears 4 times [{ARMY_RULE}]")


def test_a_strategy_in_the_army_deck(tmp_path):
    path, text = copy_and_edit(tmp_path, "decks/shield-wall.yaml", "  - card: ambush\n    qty: 2\n",
                             "  - card: ambush\n    qty: 2\n  - card: supply-lines\n")
    line = line_of(text, "supply-lines")
    assert only_problem(tmp_path) == (f"{path}:{line}: cahrd/shield-wall: cards.{entry_index(text, line)}.card: "
                                      "an army deck holds only officer, item and tactic cards "
                                      f"('supply-lines' is a strategy card) [{ARMY_RULE}]")


# ---- strategy deck rules (Getting Started: Strategy Deck) ------------------------------------

def test_eleven_strategies(tmp_path):
    folder = copy_game(tmp_path, "cahrd")
    extra = "".join(f"- id: extra-plan-{n}\n  type: strategy\n  title: Extra Plan {n}\n  example: true\n"
                    f"  requirement: None.\n  passive_effect: None.\n" for n in (1, 2, 3))
    (folder / "cards" / "extra.yaml").write_text(extra, encoding="utf-8")
    ids = ["supply-lines", "scorched-earth", "war-of-attrition", "high-ground", "council-of-war", "open-treasury",
           "long-campaign", "fortified-lines", "extra-plan-1", "extra-plan-2", "extra-plan-3"]
    path = folder / "decks" / "shield-wall-strategies.yaml"
    path.write_text("id: shield-wall-strategies\ntitle: Too many\nkind: strategy\ncards:\n"
                    + "".join(f"  - card: {i}\n" for i in ids), encoding="utf-8")
    assert only_problem(tmp_path) == (f"{path}:4: cahrd/shield-wall-strategies: cards: "
                                      f"a strategy deck holds 0 to 10 cards (this one has 11) [{STRATEGY_RULE}]")


def test_a_duplicate_strategy(tmp_path):
    path, text = copy_and_edit(tmp_path, "decks/shield-wall-strategies.yaml", "  - card: fortified-lines\n",
                             "  - card: fortified-lines\n  - card: high-ground\n")
    line = line_of(text, "high-ground", after="fortified-lines")
    assert entry_index(text, line) == 5
    assert only_problem(tmp_path) == (f"{path}:{line}: cahrd/shield-wall-strategies: cards.5.card: a strategy deck "
                                      f"holds at most 1 copy of a card: 'High Ground' appears 2 times [{STRATEGY_RULE}]")


def test_an_officer_in_the_strategy_deck(tmp_path):
    path, text = copy_and_edit(tmp_path, "decks/shield-wall-strategies.yaml", "  - card: fortified-lines\n",
                             "  - card: fortified-lines\n  - card: border-captain\n")
    assert only_problem(tmp_path) == (f"{path}:{line_of(text, 'border-captain')}: cahrd/shield-wall-strategies: "
                                      "cards.5.card: a strategy deck holds only strategy cards "
                                      f"('border-captain' is an officer card) [{STRATEGY_RULE}]")


def test_an_unknown_deck_kind(tmp_path):
    path, text = copy_and_edit(tmp_path, "decks/shield-wall-strategies.yaml", "kind: strategy\n", "kind: reserve\n")
    assert only_problem(tmp_path) == (f"{path}:{line_of(text, 'kind: reserve')}: cahrd/shield-wall-strategies: kind: "
                                      "unknown deck kind 'reserve' (this game's deck kinds, from deck_rules "
                                      "in game.yaml: 'army', 'strategy')")


def test_an_unknown_card_id_in_a_deck(tmp_path):
    path, text = copy_and_edit(tmp_path, "decks/shield-wall.yaml", "  - card: border-captain\n", "  - card: border-captian\n")
    line = line_of(text, "border-captian")
    assert only_problem(tmp_path) == (f"{path}:{line}: cahrd/shield-wall: cards.{entry_index(text, line)}.card: "
                                      "unknown card id 'border-captian'")


# ---- card schema -----------------------------------------------------------------------------

BORDER_CAPTAIN_WAR = "  title: Border Captain\n  example: true\n  ldr: 3\n  war: 3\n"


@pytest.mark.parametrize("printed", ["6", "0", "s", "'5'"])
def test_a_stat_printed_outside_1_to_5_or_S(tmp_path, printed):
    path, text = copy_and_edit(tmp_path, "cards/officers.yaml", BORDER_CAPTAIN_WAR,
                             BORDER_CAPTAIN_WAR.replace("war: 3", f"war: {printed}"))
    line = line_of(text, f"war: {printed}")
    assert only_problem(tmp_path, path).startswith(f"{path}:{line}: cahrd/border-captain: war: "
                                                   "a printed stat is 1 to 5 or S")


def test_a_missing_field(tmp_path):
    path, text = copy_and_edit(tmp_path, "cards/officers.yaml", "  men_under_command: 3\n  recruitment_cost: 15000\n"
                             "  trait:\n    name: Hold the Line\n", "  recruitment_cost: 15000\n  trait:\n    name: Hold the Line\n")
    # A missing key has no line of its own; the problem points at the card's first line.
    assert only_problem(tmp_path, path) == (f"{path}:{line_of(text, '- id: border-captain')}: cahrd/border-captain: "
                                            "men_under_command: required field is missing")


def test_a_value_of_the_wrong_type(tmp_path):
    old = "  men_under_command: 3\n  recruitment_cost: 15000\n  trait:\n    name: Hold the Line\n"
    path, text = copy_and_edit(tmp_path, "cards/officers.yaml", old, old.replace("men_under_command: 3", "men_under_command: many"))
    assert only_problem(tmp_path, path).startswith(f"{path}:{line_of(text, 'men_under_command: many')}: cahrd/border-captain: "
                                                   "men_under_command: 'many' is not a whole number")


def test_no_men_under_command(tmp_path):
    old = "  men_under_command: 3\n  recruitment_cost: 15000\n  trait:\n    name: Hold the Line\n"
    path, text = copy_and_edit(tmp_path, "cards/officers.yaml", old, old.replace("men_under_command: 3", "men_under_command: 0"))
    assert only_problem(tmp_path, path).startswith(f"{path}:{line_of(text, 'men_under_command: 0')}: cahrd/border-captain: "
                                                   "men_under_command: Input should be greater than or equal to 1")


def test_an_unknown_card_type(tmp_path):
    path, text = copy_and_edit(tmp_path, "cards/tactics.yaml", "- id: ambush\n  type: tactic\n", "- id: ambush\n  type: ploy\n")
    assert only_problem(tmp_path, path).startswith(f"{path}:{line_of(text, 'type: ploy')}: cahrd/ambush: type: "
                                                   "'ploy' is not one of ")


def test_an_unknown_field(tmp_path):
    path, text = copy_and_edit(tmp_path, "cards/items.yaml", "  reserve_cost: 1000\n  effect: Your army gains 200 grain.\n",
                             "  reserve_cost: 1000\n  men_under_command: 2\n  effect: Your army gains 200 grain.\n")
    assert only_problem(tmp_path, path) == (f"{path}:{line_of(text, 'men_under_command: 2')}: cahrd/field-rations: "
                                            "men_under_command: unknown field")


def test_assumed_names_a_field_the_card_does_not_have(tmp_path):
    old = "  assumed: [reserve_cost, effect]\n"
    path = copy_game(tmp_path, "cahrd") / "cards" / "items.yaml"
    text = path.read_text(encoding="utf-8").replace(old, "  assumed: [reserve_cost, war]\n", 1)
    path.write_text(text, encoding="utf-8")
    assert only_problem(tmp_path, path) == (f"{path}:{line_of(text, 'assumed: [reserve_cost, war]')}: "
                                            "cahrd/serpent-spear-of-zhang-fei: assumed: 'war' is not a field of a item card")


def test_malformed_yaml(tmp_path):
    path, text = copy_and_edit(tmp_path, "cards/officers.yaml", "  title: Border Captain\n", "  title: Border Captain: bad\n")
    assert only_problem(tmp_path, path).startswith(f"{path}:{line_of(text, 'Border Captain: bad')}: cahrd/-: yaml: "
                                                   "malformed YAML")


# ---- tables.yaml -----------------------------------------------------------------------------

def test_items_of_mass_destruction_level_out_of_range(tmp_path):
    path, text = copy_and_edit(tmp_path, "tables.yaml", "  long_games: []\n",
                             "  long_games:\n    - card: crescent-blade\n      level: 4\n")
    assert only_problem(tmp_path).startswith(f"{path}:{line_of(text, 'level: 4')}: cahrd/tables: "
                                             "items_of_mass_destruction.long_games.0.level: Input should be 1, 2 or 3")


def test_items_of_mass_destruction_unknown_card(tmp_path):
    path, _ = copy_and_edit(tmp_path, "tables.yaml", "  short_games: []\n",
                          "  short_games:\n    - card: doom-cannon\n      level: 2\n")
    # Cross-record problems in tables.yaml are reported at line 1 by the shared loader.
    assert only_problem(tmp_path) == (f"{path}:1: cahrd/items-of-mass-destruction: "
                                      "items_of_mass_destruction.short_games.0.card: unknown card id 'doom-cannon'")


def test_items_of_mass_destruction_card_listed_twice(tmp_path):
    path, text = copy_and_edit(tmp_path, "tables.yaml", "  long_games: []\n",
                             "  long_games:\n    - card: crescent-blade\n      level: 1\n"
                             "    - card: crescent-blade\n      level: 2\n")
    assert only_problem(tmp_path).startswith(f"{path}:{line_of(text, 'long_games:')}: cahrd/tables: "
                                             "items_of_mass_destruction.long_games: "
                                             "'crescent-blade' is listed twice")


def test_check_deck_counts_repeated_entries_together(game):
    cards = {"a": OfficerCard(id="a", type="officer", title="A", ldr=1, war=1, int=1, chm=1,
                              trait={"name": "T", "text": "T."}, men_under_command=1, recruitment_cost=0)}
    deck = DeckList(id="d", title="D", kind="army", cards=[{"card": "a"}, {"card": "a"}])
    messages = [(p.field, p.message) for p in deck_problems(deck, game.spec, game.info.deck_rules, cards)]
    assert ("cards.1.card", "an army deck holds at most 1 copy of an officer: 'A' appears 2 times "
                            f"[{ARMY_RULE}]") in messages


# ---- rulings checked against the rulebook ----------------------------------------------------

def ruling(game, card_id: str, words: str):
    """The ruling of ``card_id`` whose text holds ``words`` (exactly one)."""
    found = [r for r in game.cards[card_id].rulings if words in " ".join(r.text.split())]
    assert len(found) == 1, [r.text for r in game.cards[card_id].rulings]
    return found[0]


def all_ruling_text(game, card_id: str) -> str:
    return " ".join(" ".join(r.text.split()) for r in game.cards[card_id].rulings)


def test_supply_clerk_reserves_pay_items_whenever_they_are_activated__timings(game):
    """Step 2 ties only recruiting to the Strategy Step ("You may ONLY recruit officers during the
    Strategy Step"); items are activated by the initiative player, or in response (Timings)."""
    assert "spent only in the Strategy Step" not in all_ruling_text(game, "supply-clerk")
    rule = ruling(game, "supply-clerk", "Only recruiting officers is tied to your Strategy Step")
    assert "in response" in rule.text and "Timings" in rule.section and "Item Card" in rule.section


def test_high_ground_is_played_as_timings_allow_not_only_in_the_strategy_step__the_game_mat_3(game):
    assert "can be played only in your Strategy Step" not in all_ruling_text(game, "high-ground")
    rule = ruling(game, "high-ground", "whenever you hold the initiative")
    assert "only in response" in " ".join(rule.text.split()) and "disregards an effect" in rule.text
    assert "The Game Mat (3 - The Strategy Deck)" in rule.section and "Timings" in rule.section


def test_high_ground_s_rank_requirement_is_not_a_card_effect__stats(game):
    """Stats: S is 10 "in regards to Card effects and in battle"; Effects of Cards: a strategy's
    requirement is not an effect. LDR S still meets "4 or more", by our reading."""
    assert "as S counts as 10" not in all_ruling_text(game, "high-ground")
    rule = ruling(game, "high-ground", "requirement is not an effect")
    assert "our reading" in rule.text.lower() and "Effects of Cards" in rule.section and "Stats" in rule.section


def test_long_campaign_keeps_the_discard_pile_private__the_game_mat_2(game):
    """The Game Mat 2: the contents are not public knowledge; the opponent can only know the top card."""
    assert "is not secret" not in all_ruling_text(game, "long-campaign")
    rule = ruling(game, "long-campaign", "only the top card of your discard pile")
    assert "our reading" in rule.text.lower() and "The Game Mat (2 - The Discard Pile)" in rule.section


@pytest.mark.parametrize("card_id,words", [
    ("scorched-earth", "only while that army's grain is 2000 or less"),
    ("long-campaign", "only while their own discard pile also holds 10"),
    ("high-ground", "only while their own commander's LDR is 4 or more"),
    ("supply-lines", "only while their own grain is 3000 or more"),
])
def test_passive_effects_serve_a_player_who_meets_the_requirement__passive_effects(game, card_id, words):
    """Passive Effects; Strategy Cards: "actionable by both players provided that the requirement
    ... is met by both players" (our reading: each player who uses it must meet it)."""
    rule = ruling(game, card_id, words)
    assert "Passive Effects" in rule.section
    assert "so your own attacks on the grain are weakened too" not in all_ruling_text(game, "scorched-earth")


def test_frontier_envoy_chm_s_in_the_recruitment_step_is_our_reading__stats(game):
    """Stats: S is 10 in card effects and in battle; the Recruitment Step is neither."""
    text = all_ruling_text(game, "frontier-envoy")
    assert "alone adds 10000 reserves in each" not in text
    rule = ruling(game, "frontier-envoy", "Our reading: the highest printed rank, 5")
    assert "adds 5000 reserves" in " ".join(rule.text.split()) and "Stats" in rule.section


def test_no_ruling_or_glossary_entry_counts_s_as_10_in_the_recruitment_step__stats(game):
    for card in game.cards.values():
        for r in card.rulings:
            text = " ".join(r.text.split())
            assert not ("counts as 10" in text and "reserves" in text and "our reading" not in text.lower()), \
                (card.id, text)
    stats = next(e for e in game.glossary if e.term == "Stats")
    assert "our reading" in stats.text and "5, the highest printed rank" in " ".join(stats.text.split())


def test_only_enemy_lieutenants_win_the_battle__defeat_three_lieutenants(game):
    defeated = next(e for e in game.glossary if e.term == "Defeated")
    text = " ".join(defeated.text.split())
    assert "three tokens win the battle" not in text
    assert "by defeating three enemy lieutenants" in text
