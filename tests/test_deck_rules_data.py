"""Deck-building rules are data: each game's ``deck_rules`` in its ``game.yaml`` decides.

Each test copies the bundled database, changes one number or key of a ``deck_rules`` section
by plain text replacement and checks the loader's ``FILE:LINE: game/id: field: message``
lines: a changed rule judges the bundled decks by the new number (naming the deck file), and a
malformed section is reported at its line in ``game.yaml``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from database_edits import copy_database, edit, line_of, problem_lines

from card_data.declared.deck_rules import deck_problems
from card_data.loader import check_database, load_database
from card_data.schema import DeckList


@pytest.fixture
def data(tmp_path) -> Path:
    return copy_database(tmp_path / "data")


def decks_of(root: Path, game: str) -> list[Path]:
    return sorted((root / game / "decks").glob("*.yaml"))


def test_every_bundled_deck_passes_its_games_data_rules():
    db = load_database()
    rules_of = {g.game_id: g.info.deck_rules for g in db.games.values()}
    assert set(rules_of["carpe_cras"]) == {"draw", "agency"}
    assert set(rules_of["cahrd"]) == {"army", "strategy"}
    assert set(rules_of["cartisora"]) == {"character"}
    assert set(rules_of["carpe_diem"]) == {"scoring-2p", "scoring-3p", "scoring-4p"}
    for game in db.games.values():
        assert game.decks
        for deck in game.decks.values():
            assert deck_problems(deck, game.spec, game.info.deck_rules, game.cards) == [], deck.id


def test_carpe_cras_draw_deck_size_comes_from_game_yaml(data):
    game_yaml = data / "carpe_cras" / "game.yaml"
    edit(game_yaml, "size: {exact: 40, rule: Building your decks}", "size: {exact: 41, rule: Building your decks}")
    found = problem_lines(data, within=data / "carpe_cras")
    draw_decks = [p for p in decks_of(data, "carpe_cras") if p.name.endswith("-draw.yaml")]
    assert len(draw_decks) == 2
    assert found == [
        f"{deck}:{line_of(deck.read_text(), 'cards:')}: carpe_cras/{deck.stem}: cards: "
        "a draw deck holds exactly 41 cards (this one has 40) [Building your decks]"
        for deck in draw_decks]


def test_carpe_cras_copy_limit_comes_from_game_yaml(data):
    game_yaml = data / "carpe_cras" / "game.yaml"
    edit(game_yaml, "copies: {max: 3, ", "copies: {max: 2, ")
    found = problem_lines(data, within=data / "carpe_cras")
    deck = data / "carpe_cras" / "decks" / "might-cunning-draw.yaml"
    text = deck.read_text()
    # Time Flies keeps its own limit (6); a card with 3 copies is now one too many.
    expected = (f"{deck}:{line_of(text, 'barbarian-tyro')}: carpe_cras/might-cunning-draw: cards.1.qty: "
                "a draw deck holds at most 2 copies of a card: 'Barbarian Tyro' appears 3 times [Building your decks]")
    assert expected in found
    assert not any("Time Flies" in p for p in found)


def test_cahrd_per_type_copy_limit_comes_from_game_yaml(data):
    game_yaml = data / "cahrd" / "game.yaml"
    edit(game_yaml, "        item: {max: 3}\n", "        item: {max: 1}\n")
    found = problem_lines(data, within=data / "cahrd")
    assert found, "two copies of an item must now be too many"
    assert all(": an army deck holds at most 1 copy of an item: " in p for p in found), found
    assert all(Path(p.split(":")[0]).parent == data / "cahrd" / "decks" for p in found)


def test_cartisora_count_per_type_comes_from_game_yaml(data):
    game_yaml = data / "cartisora" / "game.yaml"
    edit(game_yaml, "number: {exact: 7,", "number: {exact: 8,")
    found = problem_lines(data, within=data / "cartisora")
    decks = decks_of(data, "cartisora")
    assert len(decks) == 6
    assert found == [
        f"{deck}:{line_of(deck.read_text(), 'cards:')}: cartisora/{deck.stem}: cards: "
        "a character deck holds exactly 8 basic number cards (this one has 7) [2019 rulebook, Setup]"
        for deck in decks]


def test_carpe_diem_scoring_set_size_comes_from_game_yaml(data):
    game_yaml = data / "carpe_diem" / "game.yaml"
    edit(game_yaml, 'size: {exact: 8, rule: "2018 rulebook, Set-up details"}',
         'size: {exact: 9, rule: "2018 rulebook, Set-up details"}')
    deck = data / "carpe_diem" / "decks" / "scoring-2p.yaml"
    assert problem_lines(data, within=data / "carpe_diem") == [
        f"{deck}:{line_of(deck.read_text(), 'cards:')}: carpe_diem/scoring-2p: cards: "
        "a 2-player scoring set holds exactly 9 cards (this one has 8) [2018 rulebook, Set-up details]"]


def test_carpe_diem_card_listed_twice_is_one_problem_from_game_yaml_the_type_counts_from_python(data):
    """The copy limit is game.yaml's (its message, once, at the second listing); how many cards
    of each scoring type a set holds stays in Python (cards.py), which data cannot say."""
    deck = data / "carpe_diem" / "decks" / "scoring-2p.yaml"
    text = edit(deck, "  - card: b-chicken-grape-fish\n", "  - card: a-two-herbs\n")
    line = line_of(text, "  - card: b-chicken-grape-herb-fish") - 1
    assert sorted(problem_lines(data, within=data / "carpe_diem")) == sorted([
        f"{deck}:{line_of(text, 'cards:')}: carpe_diem/scoring-2p: cards: "
        "a 2-player scoring set needs 2 A cards, found 3",
        f"{deck}:{line_of(text, 'cards:')}: carpe_diem/scoring-2p: cards: "
        "a 2-player scoring set needs 2 B cards, found 1",
        f"{deck}:{line}: carpe_diem/scoring-2p: cards.2.card: a 2-player scoring set holds at most 1 copy "
        "of a card: 'Two herbs' appears 2 times [2018 rulebook, Set-up details]"])


def test_a_game_without_a_deck_kind_rule_refuses_that_kind(data):
    """Removing the strategy deck's rules makes the bundled strategy decks of an unknown kind."""
    game_yaml = data / "cahrd" / "game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(text[:text.index("  strategy:\n    name: strategy deck")], encoding="utf-8")
    found = problem_lines(data, within=data / "cahrd")
    decks = [p for p in decks_of(data, "cahrd") if p.stem.endswith("-strategies")]
    assert found == [
        f"{deck}:{line_of(deck.read_text(), 'kind:')}: cahrd/{deck.stem}: kind: unknown deck kind 'strategy' "
        "(this game's deck kinds, from deck_rules in game.yaml: 'army')"
        for deck in decks]


@pytest.mark.parametrize("old, new, field, words", [
    ("size: {exact: 18, rule: Building your decks}", "size: {exact: 18, rule: Building your decks, most: 3}",
     "deck_rules.agency.size.most", "unknown field"),
    ("size: {exact: 18, rule: Building your decks}", "size: {min: 20, max: 18}",
     "deck_rules.agency.size", "min 20 is more than max 18"),
    ("size: {exact: 18, rule: Building your decks}", "size: {exact: -1}",
     "deck_rules.agency.size.exact", "greater than or equal to 0"),
    ("size: {exact: 18, rule: Building your decks}", "size: {exact: 18, max: 20}",
     "deck_rules.agency.size", "either exact or min/max"),
    ("copies: {max: 3, rule: Building your decks}", "copies: {max: 0}",
     "deck_rules.draw.copies.max", "greater than or equal to 1"),
    ("size: {exact: 18, rule: Building your decks}", "sise: {exact: 18}",
     "deck_rules.agency.sise", "unknown field"),
    ("size: {exact: 40, rule: Building your decks}", "size: {exact: 100000}",
     "deck_rules.draw.size.exact", "less than or equal to 10000"),
])
def test_a_bad_deck_rules_section_is_a_problem_at_its_line_in_game_yaml(data, old, new, field, words):
    game_yaml = data / "carpe_cras" / "game.yaml"
    text = edit(game_yaml, old, new)
    found = problem_lines(data, within=game_yaml)
    prefix = f"{game_yaml}:{line_of(text, new)}: carpe_cras/-: {field}: "
    assert len(found) == 1 and found[0].startswith(prefix) and words in found[0], found


def test_counts_of_a_type_the_deck_refuses_is_a_problem_in_game_yaml(data):
    game_yaml = data / "cartisora" / "game.yaml"
    text = edit(game_yaml, "only: [reference, number, boast, special]", "only: [reference, number, boast]")
    found = problem_lines(data, within=game_yaml)
    assert len(found) == 1, found
    assert found[0].startswith(f"{game_yaml}:{line_of(text, 'character:', after='deck_rules:')}: "
                               "cartisora/-: deck_rules.character: ")
    assert "counts names special, which card_types.only does not allow" in found[0]


def test_a_designers_own_rules_for_a_new_deck_kind(data):
    """A game.yaml may declare a kind of its own; a deck list of that kind is judged by it."""
    game_yaml = data / "carpe_cras" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + (
        "  starter:\n"
        "    size: {min: 2, max: 3}\n"
        "    copies: {max: 1}\n"
        "    counts:\n"
        "      agency: {max: 1, label: agency cards, rule: House rules}\n"), encoding="utf-8")
    deck = data / "carpe_cras" / "decks" / "starter.yaml"
    text = ("id: starter\ntitle: Starter\nkind: starter\ncards:\n"
            "  - {card: might, qty: 2}\n  - {card: dagger}\n  - {card: cunning}\n")
    deck.write_text(text, encoding="utf-8")
    found = problem_lines(data, within=deck)
    assert sorted(found) == sorted([
        f"{deck}:4: carpe_cras/starter: cards: a starter deck holds 2 to 3 cards (this one has 4)",
        f"{deck}:4: carpe_cras/starter: cards: a starter deck holds 0 to 1 agency cards (this one has 3) [House rules]",
        f"{deck}:{line_of(text, 'might')}: carpe_cras/starter: cards.0.qty: a starter deck holds at most 1 copy "
        "of a card: 'Might' appears 2 times"])


def test_the_bundled_data_loads_without_problems():
    _, found = check_database()
    assert found == []


def test_entries_past_their_limit_only_once_per_card():
    """Three listings of an officer over a one-copy limit: one problem, at the second listing."""
    db = load_database()
    game = db.games["cahrd"]
    officer = next(c.id for c in game.cards.values() if c.type == "officer")
    deck = DeckList(id="d", title="D", kind="army", cards=[{"card": officer}] * 3)
    found = [p.field for p in deck_problems(deck, game.spec, game.info.deck_rules, game.cards)]
    assert found == ["cards", "cards.1.card"]
