"""Carpe Diem card database: the bundled data, its tables, and every rule the loader enforces.

Failing inputs are built by copying ``card_data/carpe_diem`` to a temporary folder and
editing one file; each test checks the exact ``FILE:LINE: carpe_diem/<id>: <field>:``
prefix, the line computed from the edit the test made.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from database_edits import assert_reported, copy_game, edit, line_of, problem_lines

from card_data.games.carpe_diem.cards import (
    SCORING_CARDS_BY_PLAYERS,
    FountainCard,
    ScoringCard,
    check_deck,
)
from card_data.loader import check_database

# --- helpers ---------------------------------------------------------------------------------


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A database folder holding a fresh copy of the Carpe Diem data only."""
    copy_game(tmp_path, "carpe_diem")
    return tmp_path


def game():
    """The bundled Carpe Diem data."""
    db, _ = check_database()
    return db.games["carpe_diem"]


# --- the bundled data ------------------------------------------------------------------------


def test_bundled_data_has_no_problems():
    _, found = check_database()
    assert [str(p) for p in found if p.game == "carpe_diem"] == []


def test_copied_data_alone_has_no_problems(root):
    assert problem_lines(root) == []


def test_card_counts_and_kinds():
    g = game()
    scoring = [c for c in g.cards.values() if isinstance(c, ScoringCard)]
    fountains = [c for c in g.cards.values() if isinstance(c, FountainCard)]
    assert Counter(c.scoring_type for c in scoring) == {"A": 3, "B": 3, "C": 4, "D": 4}
    assert len(fountains) == 1
    # Only the cards needed for a four-player set (and the fountain example) are invented.
    assert sorted(c.id for c in g.cards.values() if c.example) == ["a-two-grapes", "b-grape-herb-fish",
                                                                   "fountain-gardens"]


def test_colour_follows_scoring_type():
    for card in game().cards.values():
        if isinstance(card, ScoringCard):
            assert card.colour == ("red" if card.scoring_type in "AB" else "green"), card.id


def test_uncertain_readings_say_so():
    cards = game().cards
    assert "uncertain" in cards["b-chicken-grape-herb-fish"].note
    assert cards["c-chimneys-bread"].assumed == ["requirement"]
    assert cards["c-chimneys-bread"].note


def test_uncertain_four_ware_card_is_marked_assumed__scoring_periods():
    """2018 rulebook notes, Scoring periods: "chicken+grape+herb+fish -> 8 VP (uncertain)": both
    what the card asks for and what it gives are our reading, so both are marked assumed (and
    print with their "*"); the legible three-ware card is not."""
    cards = game().cards
    uncertain = cards["b-chicken-grape-herb-fish"]
    assert uncertain.assumed == ["requirement", "reward"]
    assert set(uncertain.assumed) <= set(type(uncertain).model_fields)
    assert cards["b-chicken-grape-fish"].assumed == []


def test_every_card_has_rulings_citing_a_section():
    for card in game().cards.values():
        assert card.rulings, card.id
        assert all(r.section for r in card.rulings)


def test_backs_and_glossary_text():
    cards = game().cards
    assert cards["a-two-herbs"].back_kind() == "scoring"
    assert cards["fountain-gardens"].back_kind() == "fountain"
    assert "Red card" in cards["a-two-herbs"].glossary_text()
    text = cards["c-completed-villa-coin-bread-banderole"].glossary_text()
    assert "Green card" in text and "completed villa" in text and "banderole bar" in text


def test_scoring_sets_are_legal_for_each_player_count():
    g = game()
    by_kind = {d.kind: d for d in g.decks.values()}
    assert set(by_kind) == {"scoring-2p", "scoring-3p", "scoring-4p"}
    for players in (2, 3, 4):
        deck = by_kind[f"scoring-{players}p"]
        assert check_deck(deck, g.cards) == []
        types = Counter(g.cards[e.card].scoring_type for e in deck.cards for _ in range(e.qty))
        assert dict(types) == SCORING_CARDS_BY_PLAYERS[players]


# --- scoring behaviour -----------------------------------------------------------------------


def test_green_card_multiples_count_full_sets_only():
    cards = game().cards
    assert cards["c-chimneys-coin-banderole"].multiples({"chimney": 8}) == 2
    assert cards["c-chimneys-coin-banderole"].multiples({"chimney": 2}) == 0
    pairs = cards["d-pond-garden-vp"]
    assert pairs.multiples({"completed_pond": 3, "completed_garden": 1}) == 1
    # Coins never help a green card.
    assert cards["c-completed-villa-vp"].multiples({}, coins=5) == 0


def test_red_card_multiples_let_coins_replace_any_ware():
    cards = game().cards
    herbs = cards["a-two-herbs"]
    assert herbs.multiples({"herbs": 4}) == 2
    assert herbs.multiples({"herbs": 3}, coins=1) == 2
    assert herbs.multiples({"herbs": 1}) == 0
    assert herbs.multiples({"fish": 5}) == 0
    mixed = cards["b-chicken-grape-fish"]
    assert mixed.multiples({"chicken": 2, "grapes": 1}, coins=1) == 1
    assert mixed.multiples({"chicken": 2, "grapes": 1}, coins=3) == 2


def test_fountain_card_scores_per_set():
    fountain = game().cards["fountain-gardens"]
    assert fountain.final_vp({"completed_garden": 3}) == 6
    assert fountain.final_vp({}) == 0


def test_printed_symbol_lines():
    cards = game().cards
    assert cards["a-three-chickens"].requirement_line() == "3× chickens"
    assert cards["a-three-chickens"].reward_line() == "7 ★"
    assert cards["d-pond-garden-vp"].requirement_line() == "completed pond + completed garden"
    assert cards["c-completed-villa-coin-bread-banderole"].reward_line() == "1 coin + 1 bread + 1 banderole bar space"


# --- tables ----------------------------------------------------------------------------------


def test_setup_tables():
    t = game().tables
    assert t.starting_vp.for_players(2) == [8, 9]
    assert t.starting_vp.for_players(3) == [8, 9, 13]
    assert t.starting_vp.for_players(4) == [8, 9, 10, 11]
    assert (t.phases.count, t.phases.rounds_per_phase) == (4, 7)
    assert (t.circle_spaces.p2, t.circle_spaces.p3, t.circle_spaces.p4) == (9, 13, 17)
    assert t.scoring_cards.p4.model_dump() == {"A": 3, "B": 3, "C": 2, "D": 4}


def test_scoring_tables():
    t = game().tables
    assert t.unmet_card_penalty.vp == 4
    assert t.bread_to_fulfil_card.bread == 3
    assert t.dwelling_rewards.merchant.coins_for(3) == 4
    assert t.dwelling_rewards.baker.bread == 2
    assert t.dwelling_rewards.administrator.banderole == 2
    assert t.dwelling_rewards.craftsman.dark_green_tiles == 1
    assert [t.landscape_reward.wares_for(n) for n in (2, 3, 4)] == [1, 2, 3]
    with pytest.raises(ValueError):
        t.landscape_reward.wares_for(5)
    assert t.leftovers.vp(7) == 3  # rounded down
    assert {(g.what, g.vp) for g in t.frame_goals.examples} == {("completed_baker_dwelling", 4),
                                                                ("completed_villa", 3)}


def test_villa_table_marks_every_row_it_could_not_read():
    villas = game().tables.villa_chimneys
    legible = {(r.chimneys, r.vp) for r in villas.rows if not r.assumed}
    assert legible == {(3, 3), (5, 7)}
    assert villas.vp(3) == 3 and villas.vp(5) == 7
    assert villas.vp(99) == villas.rows[-1].vp
    assert villas.note


def test_banderole_bar_is_all_assumed():
    bar = game().tables.banderole_bar
    assert all(r.assumed for r in bar.rows)
    assert bar.vp(bar.rows[-1].space + 10) == bar.rows[-1].vp


def test_tie_breakers():
    ties = game().tables.tie_breakers
    assert ties.default == "summary"
    assert ties.rule().winner == "furthest_ahead_on_banderole_bar"
    assert ties.rule("rulebook").winner == "furthest_behind_on_banderole_bar"


# --- failing inputs: deck lists --------------------------------------------------------------


def test_four_player_set_with_two_a_cards(root):
    deck = root / "carpe_diem" / "decks" / "scoring-4p.yaml"
    text = edit(deck, "  - card: a-two-grapes\n", "")
    line = line_of(text, "cards:")
    found = problem_lines(root)
    # How many of each scoring type is the Python rule (cards.py); the set's size is game.yaml's.
    assert_reported(found, f"{deck}:{line}: carpe_diem/scoring-4p: cards:",
                    "a 4-player scoring set needs 3 A cards, found 2")
    assert_reported(found, f"{deck}:{line}: carpe_diem/scoring-4p: cards:",
                    "a 4-player scoring set holds exactly 12 cards (this one has 11) [2018 rulebook, Set-up details]")


def test_fountain_card_in_a_scoring_set(root):
    deck = root / "carpe_diem" / "decks" / "scoring-4p.yaml"
    text = edit(deck, "  - card: a-two-grapes", "  - card: fountain-gardens")
    line = line_of(text, "  - card: fountain-gardens")
    found = problem_lines(root)
    assert_reported(found, f"{deck}:{line}: carpe_diem/scoring-4p: cards.2.card:",
                    "a 4-player scoring set holds only scoring cards ('fountain-gardens' is a fountain card) "
                    "[2018 rulebook, Set-up details]")
    assert len([p for p in found if f"{deck}:{line}:" in p]) == 1  # said once, by game.yaml's card_types


def test_card_twice_in_a_set(root):
    deck = root / "carpe_diem" / "decks" / "scoring-2p.yaml"
    line = line_of(deck.read_text(encoding="utf-8"), "  - card: a-three-chickens")
    edit(deck, "  - card: a-three-chickens", "  - card: a-two-herbs")
    assert_reported(problem_lines(root), f"{deck}:{line}: carpe_diem/scoring-2p: cards.1.card:",
                    "a 2-player scoring set holds at most 1 copy of a card: 'Two herbs' appears 2 times "
                    "[2018 rulebook, Set-up details]")


def test_quantity_above_one_in_a_set(root):
    deck = root / "carpe_diem" / "decks" / "scoring-2p.yaml"
    text = edit(deck, "  - card: a-two-herbs\n  - card: a-three-chickens\n", "  - card: a-two-herbs\n    qty: 2\n")
    line = line_of(text, "qty: 2")
    assert_reported(problem_lines(root), f"{deck}:{line}: carpe_diem/scoring-2p: cards.0.qty:",
                    "a 2-player scoring set holds at most 1 copy of a card: 'Two herbs' appears 2 times "
                    "[2018 rulebook, Set-up details]")


def test_unknown_card_id_in_a_set(root):
    deck = root / "carpe_diem" / "decks" / "scoring-3p.yaml"
    text = edit(deck, "  - card: d-bakery-vp", "  - card: d-bathhouse-vp")
    line = line_of(text, "  - card: d-bathhouse-vp")
    assert_reported(problem_lines(root), f"{deck}:{line}: carpe_diem/scoring-3p: cards.9.card:",
                    "unknown card id 'd-bathhouse-vp'")


def test_unknown_deck_kind(root):
    deck = root / "carpe_diem" / "decks" / "scoring-2p.yaml"
    text = edit(deck, "kind: scoring-2p", "kind: scoring-5p")
    found = problem_lines(root)
    assert_reported(found, f"{deck}:{line_of(text, 'kind:')}: carpe_diem/scoring-2p: kind:",
                    "unknown deck kind 'scoring-5p' (this game's deck kinds, from deck_rules in game.yaml: "
                    "'scoring-2p', 'scoring-3p', 'scoring-4p')")
    # With no two-player set left, the database check says so too.
    assert_reported(found, f"{root / 'carpe_diem' / 'game.yaml'}:1: carpe_diem/-: kind:",
                    "no scoring set for 2 players")


def test_set_with_example_cards_must_say_so(root):
    deck = root / "carpe_diem" / "decks" / "scoring-4p.yaml"
    edit(deck, "example: true\n", "")
    assert_reported(problem_lines(root), f"{deck}:1: carpe_diem/scoring-4p: example:", "a-two-grapes")


# --- failing inputs: cards -------------------------------------------------------------------

# (case, old text, new text, the part of the new text on the reported line, card id, field, message)
CARD_EDITS = [
    ("scoring type E", "scoring_type: C\n  colour: green\n  requirement:\n    - {what: chimney, count: 3}",
     "scoring_type: E\n  colour: green\n  requirement:\n    - {what: chimney, count: 3}", "scoring_type",
     "c-chimneys-coin-banderole", "scoring_type", "Input should be 'A', 'B', 'C' or 'D'"),
    ("colour blue", "colour: red\n  requirement:\n    - {what: chicken, count: 3}",
     "colour: blue\n  requirement:\n    - {what: chicken, count: 3}", "colour",
     "a-three-chickens", "colour", "Input should be 'green' or 'red'"),
    ("A card coloured green", "colour: red\n  requirement:\n    - {what: herbs, count: 2}",
     "colour: green\n  requirement:\n    - {what: herbs, count: 2}", "colour",
     "a-two-herbs", "colour", "A cards are red, not green"),
    ("red card asking for a building", "requirement:\n    - {what: chicken, count: 3}",
     "requirement:\n    - {what: bakery, count: 3}", "requirement",
     "a-three-chickens", "requirement", "a red card asks for wares only"),
    ("C card counting bakeries", "requirement:\n    - {what: chimney, count: 2}",
     "requirement:\n    - {what: bakery, count: 2}", "requirement",
     "c-chimneys-bread", "requirement", "a C card counts chimneys or completed villas"),
    ("unknown thing", "- {what: completed_merchant_dwelling}", "- {what: completed_bathhouse}", "what",
     "d-merchant-dwelling-vp", "requirement.0.what", "Input should be"),
    ("count of zero", "- {what: grapes, count: 2}", "- {what: grapes, count: 0}", "count",
     "a-two-grapes", "requirement.0.count", "greater than 0"),
    ("wrong value type", "reward: {vp: 8}", "reward: {vp: eight}", "vp",
     "b-chicken-grape-herb-fish", "reward.vp", "'eight' is not a whole number"),
    ("empty reward", "reward: {bread: 1}", "reward: {bread: 0}", "reward",
     "c-chimneys-bread", "reward", "gives at least one of"),
    ("assumed names no field", "assumed: [requirement]", "assumed: [ratio]", "assumed",
     "c-chimneys-bread", "assumed", "'ratio' is not a field of a scoring card"),
    ("unknown field", "reward: {vp: 3}\n  text: 3 VP for each bakery",
     "reward: {vp: 3}\n  points: 3\n  text: 3 VP for each bakery", "points",
     "d-bakery-vp", "points", "unknown field"),
]


@pytest.mark.parametrize("old,new,at,card_id,field,message",
                         [case[1:] for case in CARD_EDITS], ids=[case[0] for case in CARD_EDITS])
def test_bad_card_field(root, old, new, at, card_id, field, message):
    cards = root / "carpe_diem" / "cards" / "scoring.yaml"
    line = line_of(edit(cards, old, new), at, after=new)  # the line ``at`` ended up on
    assert_reported(problem_lines(root), f"{cards}:{line}: carpe_diem/{card_id}: {field}:", message)


def test_missing_field(root):
    cards = root / "carpe_diem" / "cards" / "scoring.yaml"
    text = edit(cards, "  reward: {vp: 4}\n  text: Pay 2 herbs", "  text: Pay 2 herbs")
    # A missing field is reported at the start of the card.
    line = line_of(text, "- id: a-two-herbs")
    assert_reported(problem_lines(root), f"{cards}:{line}: carpe_diem/a-two-herbs: reward:", "required field is missing")


def test_unknown_card_type(root):
    cards = root / "carpe_diem" / "cards" / "scoring.yaml"
    text = edit(cards, "type: scoring\n  title: Bakeries for VP", "type: villa\n  title: Bakeries for VP")
    line = line_of(text, "type: villa")
    assert_reported(problem_lines(root), f"{cards}:{line}: carpe_diem/d-bakery-vp: type:", "'villa'")


def test_fountain_card_counting_wares(root):
    cards = root / "carpe_diem" / "cards" / "fountain.yaml"
    text = edit(cards, "- {what: completed_garden}", "- {what: herbs}")
    line = line_of(text, "- {what: herbs}")
    assert_reported(problem_lines(root), f"{cards}:{line - 1}: carpe_diem/fountain-gardens: condition:",
                    "counts things owned, not wares")


def test_malformed_yaml(root):
    cards = root / "carpe_diem" / "cards" / "scoring.yaml"
    text = edit(cards, "title: Two herbs", "title: Two herbs: pay")
    line = line_of(text, "title: Two herbs: pay")
    assert_reported(problem_lines(root), f"{cards}:{line}: carpe_diem/-: yaml:", "malformed YAML")


# --- failing inputs: tables.yaml -------------------------------------------------------------


# (case, old text, new text, the part of the new text on the reported line, field, message)
TABLE_EDITS = [
    ("three-player start missing a seat", "3p: [8, 9, 13]", "3p: [8, 9]", "3p",
     "starting_vp.3p", "at least 3 items"),
    ("scoring cards off the set-up rule", "4p: {A: 3, B: 3, C: 2, D: 4}", "4p: {A: 2, B: 3, C: 2, D: 4}", "4p",
     "scoring_cards.4p", "the set-up rule for 4 players is 3A 3B 2C 4D"),
    ("negative penalty", "unmet_card_penalty:\n  vp: 4", "unmet_card_penalty:\n  vp: -4", "vp",
     "unmet_card_penalty.vp", "greater than 0"),
    ("villa rows out of order", "rows:\n    - {chimneys: 1, vp: 0, assumed: true}\n    - {chimneys: 2,",
     "rows:\n    - {chimneys: 1, vp: 0, assumed: true}\n    - {chimneys: 1,", "rows",
     "villa_chimneys.rows", "rows must ascend by chimneys"),
    ("unknown tie-breaker default", "default: summary", "default: house-rule", "default",
     "tie_breakers.default", "Input should be 'summary' or 'rulebook'"),
    ("landscape range reversed", "landscape_reward:\n  min_tiles: 2", "landscape_reward:\n  min_tiles: 5",
     "landscape_reward", "landscape_reward", "min_tiles is above max_tiles"),
    ("leftovers counting VP", "counted: [wares, coins, bread, stored_tiles]", "counted: [wares, vp]", "counted",
     "leftovers.counted.1", "Input should be"),
]


@pytest.mark.parametrize("old,new,at,field,message", [case[1:] for case in TABLE_EDITS],
                         ids=[case[0] for case in TABLE_EDITS])
def test_bad_tables_value(root, old, new, at, field, message):
    tables = root / "carpe_diem" / "tables.yaml"
    line = line_of(edit(tables, old, new), at, after=new)  # the line ``at`` ended up on
    assert_reported(problem_lines(root), f"{tables}:{line}: carpe_diem/tables: {field}:", message)
