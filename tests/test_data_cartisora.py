"""Duels of Cartisora card database: the bundled data, its deck rules and its schema rules.

Each failing-input test copies the bundled ``cartisora`` folder to ``tmp_path``, breaks one
file and checks the exact ``FILE:LINE: cartisora/<id>: <field>:`` prefix of the problem the
loader reports (the line is computed from the text the test wrote).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from database_edits import assert_reported, copy_game, edit, line_of, problem_lines

from card_data.declared.deck_rules import deck_problems
from card_data.loader import check_database

REAL_CARDS = {"brutal-strike", "parry", "cornered-prey", "stunning-blow", "en-garde", "stalwart",
              "first-blood", "finisher", "tag"}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A private copy of the bundled Duels of Cartisora data; returns its game folder
    (``data.parent`` is the database root)."""
    return copy_game(tmp_path, "cartisora")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory):
    """The bundled Duels of Cartisora data, loaded on its own (other games' data cannot interfere)."""
    root = tmp_path_factory.mktemp("db")
    copy_game(root, "cartisora")
    return check_database(root)[0].games["cartisora"]


# --- The bundled data ---------------------------------------------------------------------------


def test_bundled_data_loads_without_problems(data: Path):
    assert problem_lines(data.parent) == []


def test_six_legal_character_decks(game):
    assert len(game.decks) == 6
    for deck in game.decks.values():
        assert deck.kind == "character"
        assert deck_problems(deck, game.spec, game.info.deck_rules, game.cards) == []
        types = [game.cards[e.card].type for e in deck.cards]
        assert (types.count("reference"), types.count("number"), types.count("boast"),
                types.count("special")) == (1, 7, 1, 4)
        assert len({game.cards[e.card].deck for e in deck.cards}) == 1


def test_card_counts_and_the_knight(game):
    by_type: dict[str, list] = {}
    for card in game.cards.values():
        by_type.setdefault(card.type, []).append(card)
    assert {t: len(c) for t, c in by_type.items()} == {
        "reference": 6, "number": 42, "boast": 6, "special": 24, "token": 2, "tag": 1}
    assert game.decks["knight"].title == "The Knight"
    assert not game.decks["knight"].example
    assert all(game.decks[d].example for d in game.decks if d != "knight")


def test_cards_the_rulebooks_name_are_real_and_say_what_the_rulebooks_say(game):
    cards = game.cards
    assert {c.id for c in cards.values() if not c.example} == REAL_CARDS
    assert cards["brutal-strike"].special_kind == "action"
    assert [e.kind for e in cards["brutal-strike"].effects] == ["wins_against_ties"]
    assert cards["parry"].special_kind == "reaction"
    assert [(e.kind, e.result) for e in cards["parry"].effects] == [("forced_result", "tie")]
    assert [(e.kind, e.result) for e in cards["en-garde"].effects] == [("forced_result", "tie")]
    assert [(e.kind, e.result, e.player) for e in cards["stalwart"].effects] == [
        ("forced_result", "lose", "opponent")]
    assert cards["stalwart"].special_kind == "reaction"
    assert [(e.kind, e.to) for e in cards["cornered-prey"].effects] == [("move_card", "tie_pool")]
    assert [(e.amount, e.round) for e in cards["stunning-blow"].effects] == [(-1, "next")]
    assert cards["en-garde"].deck == "knight"
    assert cards["tag"].editions == [2017]
    assert {cards["first-blood"].bonus_points, cards["finisher"].bonus_points} == {2}


def test_every_number_value_is_marked_assumed(game):
    cards = game.cards.values()
    for card in cards:
        if getattr(card, "power", None) is not None:
            assert "power" in card.assumed, card.id
            assert card.note, card.id


def test_boast_cards_are_low_numbers_worth_two(game):
    cards = game.cards.values()
    boasts = [c for c in cards if c.type == "boast"]
    assert boasts and all(c.power <= 2 and c.score_points == 2 for c in boasts)


def test_rulings_cite_a_rulebook_section(game):
    cards = game.cards
    for card in cards.values():
        assert card.rulings, card.id
        for ruling in card.rulings:
            assert ruling.section.startswith(("2019 rulebook", "2017 rulebook")), (card.id, ruling.section)
    complex_rulings = {c: [r.section for r in cards[c].rulings if "Complex Resolutions (" in r.section]
                       for c in ("brutal-strike", "parry", "cornered-prey", "stunning-blow", "en-garde", "stalwart")}
    assert all(complex_rulings.values()), complex_rulings


def test_backs_and_glossary_text(game):
    cards = game.cards
    assert cards["first-blood"].back_kind() == "token"
    assert {c.back_kind() for c in cards.values() if c.type != "token"} == {"character"}
    assert set(game.info.backs) == {"character", "token"}
    assert "Tie Pool" in cards["cornered-prey"].glossary_text()
    assert "Reaction" in cards["parry"].glossary_text()
    assert "Maneuver" in cards["press-on"].glossary_text()
    assert "Boast" in cards["knight-boast"].glossary_text()
    terms = {e.term for e in game.glossary}
    for term in ("Overpower", "Undercut", "Tie", "Tie Pool", "Score Pile", "In Play", "Ready", "Reveal",
                 "React", "Contest", "Resolve", "Reaction", "Maneuver", "Action", "Special Numbered Card",
                 "Boast Card", "First Blood", "Finisher", "Leftover Cards", "Negative Power",
                 "Ready Face Up", "Draft Mode", "Tag Team"):
        assert term in terms, term
    negative = [e.section for e in game.glossary if e.term == "Negative Power"]
    assert any(s.startswith("2019") for s in negative) and any(s.startswith("2017") for s in negative)


def test_game_info(game):
    info = game.info
    assert info.title == "Duels of Cartisora"
    assert info.publisher == "Analog Game Studios"
    assert set(info.rulebooks) == {"2017", "2019"} and info.default_edition == "2019"
    assert "Moshe-Tozer Games" in info.summary and "Jeremy Moshe" in info.summary
    assert (info.card_size.width_mm, info.card_size.height_mm) == (63.5, 88.9)


# --- Deck rules (2019 rulebook, Setup) ----------------------------------------------------------

SETUP = "2019 rulebook, Setup"


def test_six_number_cards(data: Path):
    deck = data / "decks" / "knight.yaml"
    text = edit(deck, "- card: knight-8\n", "")
    assert problem_lines(data.parent) == [
        f"{deck}:{line_of(text, 'cards:')}: cartisora/knight: cards: "
        f"a character deck holds exactly 7 basic number cards (this one has 6) [{SETUP}]"]


def test_two_boast_cards(data: Path):
    cards = data / "cards" / "knight.yaml"
    edit(cards, "- id: knight-8\n  type: number\n", "- id: knight-8\n  type: boast\n")
    deck = data / "decks" / "knight.yaml"
    line = line_of(deck.read_text(), "cards:")
    found = problem_lines(data.parent)
    assert_reported(found, f"{deck}:{line}: cartisora/knight: cards: a character deck holds exactly 1 boast card "
                           f"(this one has 2) [{SETUP}]")
    assert_reported(found, f"{deck}:{line}: cartisora/knight: cards: a character deck holds exactly 7 basic "
                           f"number cards (this one has 6) [{SETUP}]")
    assert len(found) == 2


def test_card_from_another_deck(data: Path):
    deck = data / "decks" / "knight.yaml"
    text = edit(deck, "- card: knight-8\n", "- card: brute-9\n")
    assert problem_lines(data.parent) == [
        f"{deck}:{line_of(text, '- card: brute-9')}: cartisora/knight: cards.7.card: all cards of a character "
        "deck belong to the same character ('brute-9' is from 'brute', this deck is 'knight')"]


def test_missing_reference_card(data: Path):
    deck = data / "decks" / "knight.yaml"
    text = edit(deck, "- card: knight-reference\n", "")
    assert problem_lines(data.parent) == [
        f"{deck}:{line_of(text, 'cards:')}: cartisora/knight: cards: "
        f"a character deck holds exactly 1 reference card (this one has 0) [{SETUP}]"]


def test_duplicate_card(data: Path):
    deck = data / "decks" / "knight.yaml"
    text = edit(deck, "- card: knight-8\n", "- card: knight-2\n")
    second = [i for i, ln in enumerate(text.splitlines(), 1) if ln.strip() == "- card: knight-2"][1]
    found = problem_lines(data.parent)
    assert found == [f"{deck}:{second}: cartisora/knight: cards.7.card: a character deck holds at most 1 copy "
                     f"of a card: 'Knight 2' appears 2 times [{SETUP}]"]


def test_two_copies_of_a_card(data: Path):
    deck = data / "decks" / "knight.yaml"
    text = edit(deck, "- card: knight-2\n", "- card: knight-2\n  qty: 2\n")
    found = problem_lines(data.parent)
    assert_reported(found, f"{deck}:{line_of(text, 'qty: 2')}: cartisora/knight: cards.1.qty: a character deck "
                           f"holds at most 1 copy of a card: 'Knight 2' appears 2 times [{SETUP}]")
    assert_reported(found, f"{deck}:{line_of(text, 'cards:')}: cartisora/knight: cards: a character deck holds "
                           f"exactly 7 basic number cards (this one has 8) [{SETUP}]")


def test_token_in_a_character_deck(data: Path):
    deck = data / "decks" / "knight.yaml"
    text = edit(deck, "- card: knight-8\n", "- card: first-blood\n")
    found = problem_lines(data.parent)
    assert_reported(found, f"{deck}:{line_of(text, '- card: first-blood')}: cartisora/knight: cards.7.card: "
                           "a character deck holds only reference, number, boast and special cards "
                           f"('first-blood' is a token card) [{SETUP}]")


def test_deck_list_of_the_wrong_kind(data: Path):
    deck = data / "decks" / "knight.yaml"
    text = edit(deck, "kind: character\n", "kind: army\n")
    assert problem_lines(data.parent) == [
        f"{deck}:{line_of(text, 'kind:')}: cartisora/knight: kind: unknown deck kind 'army' (this game's deck "
        "kinds, from deck_rules in game.yaml: 'character')"]


def test_unknown_card_id(data: Path):
    deck = data / "decks" / "knight.yaml"
    text = edit(deck, "- card: knight-8\n", "- card: knight-10\n")
    assert problem_lines(data.parent) == [
        f"{deck}:{line_of(text, '- card: knight-10')}: cartisora/knight: cards.7.card: unknown card id 'knight-10'"]


# --- Schema rules -------------------------------------------------------------------------------


def test_missing_field(data: Path):
    cards = data / "cards" / "knight.yaml"
    text = edit(cards, "  deck: knight\n  power: 5\n", "  deck: knight\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, '- id: knight-5')}: cartisora/knight-5: power: "
                    "required field is missing")


def test_wrong_value_type(data: Path):
    cards = data / "cards" / "knight.yaml"
    text = edit(cards, "  deck: knight\n  power: 5\n", "  deck: knight\n  power: high\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, 'power: high')}: cartisora/knight-5: power: ")


def test_power_out_of_range(data: Path):
    cards = data / "cards" / "knight.yaml"
    text = edit(cards, "  deck: knight\n  power: 5\n", "  deck: knight\n  power: 12\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, 'power: 12')}: cartisora/knight-5: power: "
                    "Input should be less than or equal to 9")


def test_unknown_card_type(data: Path):
    cards = data / "cards" / "knight.yaml"
    text = edit(cards, "- id: knight-5\n  type: number\n", "- id: knight-5\n  type: wizard\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, 'type: wizard')}: cartisora/knight-5: type: "
                    "'wizard' is not one of 'reference', 'number'")


def test_unknown_field(data: Path):
    cards = data / "cards" / "knight.yaml"
    text = edit(cards, "  deck: knight\n  power: 5\n", "  deck: knight\n  power: 5\n  strength: 5\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, 'strength: 5')}: cartisora/knight-5: strength: "
                    "unknown field")


def test_reaction_has_no_printed_power(data: Path):
    cards = data / "cards" / "fencer.yaml"
    text = edit(cards, "  special_kind: reaction\n  effect: Forces a tie.\n",
                "  special_kind: reaction\n  power: 3\n  effect: Forces a tie.\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, 'power: 3', after='- id: parry')}: cartisora/parry: power: "
                    "a reaction card has no printed power")


def test_special_numbered_card_needs_a_power(data: Path):
    cards = data / "cards" / "brute.yaml"
    text = edit(cards, "  special_kind: special_numbered\n  power: 6\n", "  special_kind: special_numbered\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, '- id: stunning-blow')}: cartisora/stunning-blow: "
                    "power: a special numbered card needs a power")


def test_unknown_special_kind(data: Path):
    cards = data / "cards" / "fencer.yaml"
    text = edit(cards, "  special_kind: reaction\n  effect: Forces a tie.\n",
                "  special_kind: counter\n  effect: Forces a tie.\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, 'special_kind: counter')}: cartisora/parry: "
                    "special_kind: Input should be")


def test_unknown_effect_kind(data: Path):
    cards = data / "cards" / "fencer.yaml"
    text = edit(cards, "  effect: Forces a tie.\n  effects:\n  - kind: forced_result\n",
                "  effect: Forces a tie.\n  effects:\n  - kind: teleport\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, '- kind: teleport')}: cartisora/parry: effects.0.kind: "
                    "'teleport' is not one of ")


def test_unknown_edition(data: Path):
    cards = data / "cards" / "tag.yaml"
    text = edit(cards, "  editions:\n  - 2017\n", "  editions:\n  - 2018\n")
    assert problem_lines(data.parent) == [
        f"{cards}:{line_of(text, '- 2018')}: cartisora/tag: editions.0: Input should be 2017"]


def test_malformed_yaml(data: Path):
    cards = data / "cards" / "knight.yaml"
    text = edit(cards, "  title: Knight 5\n", "  title: Knight 5: the sequel\n")
    assert_reported(problem_lines(data.parent),
                    f"{cards}:{line_of(text, 'title: Knight 5: the sequel')}: cartisora/-: yaml: "
                    "malformed YAML")


# --- Rules spanning records ---------------------------------------------------------------------


def test_reference_card_must_describe_its_specials(data: Path):
    cards = data / "cards" / "knight.yaml"
    text = edit(cards, "  - card: en-garde\n    title: En Garde\n", "  - card: en-garde\n    title: On Guard\n")
    assert problem_lines(data.parent) == [
        f"{cards}:{line_of(text, '- id: knight-reference')}: cartisora/knight-reference: specials: 'en-garde' is "
        "'En Garde' (action), the reference card says 'On Guard' (action)"]


def test_base_set_has_six_character_decks(data: Path):
    # A withdrawn card's versions go with it: printings.yaml names only cards of the game.
    withdrawn = {card["id"] for card in yaml.safe_load((data / "cards" / "trickster.yaml").read_text())}
    printings = yaml.safe_load((data / "printings.yaml").read_text())
    (data / "printings.yaml").write_text(yaml.safe_dump({k: v for k, v in printings.items() if k not in withdrawn}))
    (data / "cards" / "trickster.yaml").unlink()
    (data / "decks" / "trickster.yaml").unlink()
    first = data / "cards" / "brute.yaml"
    assert problem_lines(data.parent) == [
        f"{first}:{line_of(first.read_text(), '- id: brute-reference')}: cartisora/brute-reference: deck: the base "
        "set has 6 character decks, each with a reference card; found 5"]


def test_deck_card_without_reference_card(data: Path):
    cards = data / "cards" / "knight.yaml"
    text = edit(cards, "- id: knight-8\n  type: number\n  title: Knight 8\n  example: true\n  deck: knight\n",
                "- id: knight-8\n  type: number\n  title: Knight 8\n  example: true\n  deck: paladin\n")
    found = problem_lines(data.parent)
    assert_reported(found, f"{cards}:{line_of(text, '- id: knight-8')}: cartisora/knight-8: deck: character deck "
                           "'paladin' has no reference card")
