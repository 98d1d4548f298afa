"""Carpe Cras card database: the bundled data, its deck lists, and one failing input per rule.

Every failing-input test copies ``card_data/carpe_cras`` to a temporary folder, edits one
file, and checks the exact ``FILE:LINE: carpe_cras/<id>: <field>:`` the loader reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from database_edits import copy_game, edit, line_of, problem_lines

from card_data.declared.deck_rules import deck_problems
from card_data.games.carpe_cras.cards import AgencyCard, Duality
from card_data.loader import bundled_data_dir, check_database

SIX_AGENCY_TYPES = {"Might", "Cunning", "Fortitude", "Zeal", "Authority", "Affluence"}
RULEBOOK_CARDS = {"barbarian-tyro", "royal-scout", "dagger", "katana", "well-read-squirrel", "time-flies"}


@pytest.fixture(scope="module")
def game():
    db, problems = check_database(bundled_data_dir())
    assert [str(p) for p in problems if p.game == "carpe_cras"] == []
    return db.games["carpe_cras"]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A private copy of the Carpe Cras data: ``<tmp>/carpe_cras``; returns ``<tmp>``."""
    copy_game(tmp_path, "carpe_cras")
    return tmp_path


# ---- the bundled data --------------------------------------------------------------------

def test_the_copied_data_loads_with_no_problems(data):
    assert problem_lines(data) == []


def test_card_counts_and_every_card_type(game):
    types = [c.type for c in game.cards.values()]
    assert {"unit", "hero", "upgrade", "event", "environment", "duality", "agency"} <= set(types)
    assert {c.agency_type for c in game.cards.values() if isinstance(c, AgencyCard)} == SIX_AGENCY_TYPES
    assert types.count("agency") == 6
    real = {cid for cid, c in game.cards.items() if not c.example and c.type != "agency"}
    assert real == RULEBOOK_CARDS
    for kind in ("hero", "upgrade", "event", "environment", "duality"):
        assert any(c.example and c.type == kind for c in game.cards.values()), kind


def test_game_info_is_the_rulebooks(game):
    assert game.info.title == "Carpe Cras"
    assert game.info.publisher == "Weis Guys Gaming, LLC"
    assert game.info.rulebooks == {"v1.0": "carpe-cras.txt (V1.0, August 2025)"}
    assert game.info.backs == {"draw": "Draw deck", "agency": "Agency deck"}
    assert (game.info.card_size.width_mm, game.info.card_size.height_mm) == (63.5, 88.9)


def test_bundled_decks_are_legal_two_draw_and_two_agency(game):
    kinds = sorted(d.kind for d in game.decks.values())
    assert kinds == ["agency", "agency", "draw", "draw"]
    for deck in game.decks.values():
        assert deck_problems(deck, game.spec, game.info.deck_rules, game.cards) == []
        assert sum(e.qty for e in deck.cards) == {"draw": 40, "agency": 18}[deck.kind]


def test_rulebook_stats_and_upgrade_examples(game):
    c = game.cards
    tyro = c["barbarian-tyro"]
    assert tyro.agency == ["Might"] and [s.power for s in tyro.skills] == [2]
    scout = c["royal-scout"]
    assert scout.agency == ["Cunning", "Authority"] and scout.speed == 3
    assert {s.name: s.power for s in scout.skills} == {"Knife": 2, "Sword": 2}
    # Upgrades, Example 1: Dagger on Royal Scout -> Knife 4, +1 range, speed 4.
    dagger = c["dagger"]
    knife = next(s for s in dagger.skills if s.name == "Knife")
    assert scout.skills[0].power + knife.power == 4 and knife.range_bonus == 1
    assert scout.speed + dagger.bonuses.speed == 4
    # Upgrades, Example 2: Katana on Well Read Squirrel -> Sword 3, speed 6 striking, 4 dodging.
    squirrel, katana = c["well-read-squirrel"], c["katana"]
    sword = next(s for s in katana.skills if s.name == "Sword")
    assert sword.power == 3 and squirrel.speed + sword.dexterity == 6
    assert squirrel.speed + katana.bonuses.speed + katana.bonuses.evade == 4
    assert c["time-flies"].max_copies == 6
    for cid in RULEBOOK_CARDS:
        assert c[cid].assumed and c[cid].note, cid


def test_every_card_has_rulings_that_cite_the_rulebook(game):
    for card in game.cards.values():
        assert card.rulings, card.id
        for ruling in card.rulings:
            assert ruling.section.startswith("carpe-cras.txt V1.0 – "), card.id


def test_both_readings_of_gaining_agency_with_full_cities(game):
    text = " ".join(r.text for r in game.cards["might"].rulings)
    assert "bottom of your" in text and "Carpe Cras Token" in text
    gain = next(e for e in game.glossary if e.id == "gain-agency")
    assert "sacrificed" in gain.text and "bottom of your agency deck" in gain.text


def test_backs_and_glossary_text(game):
    assert game.cards["might"].back_kind() == "agency"
    assert {c.back_kind() for c in game.cards.values() if c.type != "agency"} == {"draw"}
    assert "Knockback" in game.cards["axe-recruit"].glossary_text()
    assert "Axe" in game.cards["axe-recruit"].glossary_text()
    duality = game.cards["oath-keeper"]
    assert isinstance(duality, Duality) and "Zealot" in duality.glossary_text()
    assert "Heal" in game.cards["mending-prayer"].glossary_text()
    assert "Dexterity" in game.cards["katana"].glossary_text()
    assert "Exit Steps" in game.cards["snare-pit"].glossary_text()


def test_glossary_keeps_lost_names_lost(game):
    by_id = {e.id: e for e in game.glossary}
    for lost in ("lost-always-strikes-first", "lost-no-other-cards-in-space", "lost-removed-from-game"):
        assert by_id[lost].term is None and by_id[lost].name_lost
        # Said to designers in the entry's note; the text is the rule, printed for players.
        assert "lost this entry's name" in by_id[lost].note
        assert "lost" not in by_id[lost].text
    for name in ("Retaliation", "Morale", "Mulligan", "Strike Twice", "Tempo", "Evade", "Accuracy",
                 "Dexterity", "Range", "Melee", "Projectile", "Knockback", "Swarm", "Growth", "Poison"):
        assert any(e.term == name and not e.name_lost for e in game.glossary), name


def test_every_trait_on_a_card_is_in_the_glossary(game):
    terms = {e.term for e in game.glossary if e.term}
    for card in game.cards.values():
        parts = [card, card.centre, *card.sides] if isinstance(card, Duality) else [card]
        for part in parts:
            for trait in getattr(part, "traits", []):
                assert trait in terms, (card.id, trait)


# ---- deck-building rules ------------------------------------------------------------------

def test_a_39_card_draw_deck(data):
    path = data / "carpe_cras/decks/might-cunning-draw.yaml"
    text = edit(path, "{card: time-flies, qty: 6}", "{card: time-flies, qty: 5}")
    assert problem_lines(data) == [
        f"{path}:{line_of(text, 'cards:')}: carpe_cras/might-cunning-draw: cards: "
        "a draw deck holds exactly 40 cards (this one has 39) [Building your decks]"]


def test_four_copies_of_a_card(data):
    path = data / "carpe_cras/decks/might-cunning-draw.yaml"
    edit(path, "{card: time-flies, qty: 6}", "{card: time-flies, qty: 5}")
    text = edit(path, "{card: barbarian-tyro, qty: 3}", "{card: barbarian-tyro, qty: 4}")
    assert problem_lines(data) == [
        f"{path}:{line_of(text, 'barbarian-tyro')}: carpe_cras/might-cunning-draw: cards.1.qty: "
        "a draw deck holds at most 3 copies of a card: 'Barbarian Tyro' appears 4 times [Building your decks]"]


def test_seven_time_flies(data):
    path = data / "carpe_cras/decks/might-cunning-draw.yaml"
    edit(path, "{card: katana, qty: 2}", "{card: katana, qty: 1}")
    text = edit(path, "{card: time-flies, qty: 6}", "{card: time-flies, qty: 7}")
    assert problem_lines(data) == [
        f"{path}:{line_of(text, 'time-flies')}: carpe_cras/might-cunning-draw: cards.0.qty: "
        "a draw deck holds at most 6 copies of 'Time Flies' (the card's own limit): "
        "'Time Flies' appears 7 times [Building your decks]"]


def test_an_agency_card_in_a_draw_deck(data):
    path = data / "carpe_cras/decks/might-cunning-draw.yaml"
    text = edit(path, "{card: leather-jerkin, qty: 2}", "{card: might, qty: 2}")
    assert problem_lines(data) == [
        f"{path}:{line_of(text, 'card: might')}: carpe_cras/might-cunning-draw: cards.14.card: "
        "a draw deck holds only unit, hero, upgrade, event, environment and duality cards "
        "('might' is an agency card) [Building your decks]"]


def test_17_agency_cards(data):
    path = data / "carpe_cras/decks/might-cunning-agency.yaml"
    text = edit(path, "{card: might, qty: 9}", "{card: might, qty: 8}")
    assert problem_lines(data) == [
        f"{path}:{line_of(text, 'cards:')}: carpe_cras/might-cunning-agency: cards: "
        "an agency deck holds exactly 18 cards (this one has 17) [Building your decks]"]


def test_a_draw_card_in_an_agency_deck(data):
    path = data / "carpe_cras/decks/might-cunning-agency.yaml"
    text = edit(path, "{card: cunning, qty: 9}", "{card: cunning, qty: 8}\n  - {card: dagger, qty: 1}")
    assert problem_lines(data) == [
        f"{path}:{line_of(text, 'dagger')}: carpe_cras/might-cunning-agency: cards.2.card: "
        "an agency deck holds only agency cards ('dagger' is an upgrade card) [Building your decks]"]


def test_an_unknown_deck_kind(data):
    path = data / "carpe_cras/decks/authority-zeal-agency.yaml"
    text = edit(path, "kind: agency", "kind: sideboard")
    assert problem_lines(data) == [
        f"{path}:{line_of(text, 'kind:')}: carpe_cras/authority-zeal-agency: kind: "
        "unknown deck kind 'sideboard' (this game's deck kinds, from deck_rules in game.yaml: 'draw', 'agency')"]


def test_an_unknown_card_id_in_a_deck(data):
    path = data / "carpe_cras/decks/might-cunning-draw.yaml"
    text = edit(path, "{card: war-cry, qty: 3}", "{card: war-cri, qty: 3}")
    assert problem_lines(data) == [
        f"{path}:{line_of(text, 'war-cri')}: carpe_cras/might-cunning-draw: cards.10.card: "
        "unknown card id 'war-cri'"]


PROMO = """
- id: royal-scout-promo
  type: unit
  title: Royal Scout
  example: true
  cost: {cost}
  agency: [Cunning, Authority]
  skills:
    - {{name: Knife, power: 2, combat: melee}}
  speed: 3
  health: 3
  steps: 3
  rulings:
    - {{text: A second printing of Royal Scout., section: "carpe-cras.txt V1.0 – Building your decks"}}
"""


def _add_promo(data: Path, cost: int = 2, art: str | None = None) -> Path:
    """Add a second Royal Scout record and put 3 + 1 of them in the Authority / Zeal deck."""
    cards = data / "carpe_cras/cards/examples-authority-zeal.yaml"
    promo = PROMO.format(cost=cost)
    if art is not None:
        (data / "carpe_cras" / art).parent.mkdir(parents=True, exist_ok=True)
        (data / "carpe_cras" / art).write_bytes(b"")
        promo = promo.replace("  example: true\n", f"  example: true\n  art: {art}\n")
    cards.write_text(cards.read_text(encoding="utf-8") + promo, encoding="utf-8")
    deck = data / "carpe_cras/decks/authority-zeal-draw.yaml"
    edit(deck, "{card: ram-crew, qty: 3}", "{card: ram-crew, qty: 2}\n  - {card: royal-scout-promo, qty: 1}")
    return deck


def test_same_cost_title_and_art_is_the_same_card(data):
    deck = _add_promo(data)
    text = deck.read_text(encoding="utf-8")
    assert problem_lines(data) == [
        f"{deck}:{line_of(text, 'royal-scout-promo')}: carpe_cras/authority-zeal-draw: cards.15.card: "
        "a draw deck holds at most 3 copies of a card: 'Royal Scout' appears 4 times; "
        "royal-scout, royal-scout-promo are the same card (same cost, title and artwork) [Building your decks]"]


@pytest.mark.parametrize("change", [{"cost": 3}, {"art": "art/royal-scout-alt.png"}])
def test_a_different_cost_or_artwork_is_a_different_card(data, change):
    _add_promo(data, **change)
    assert problem_lines(data) == []


# ---- card records ---------------------------------------------------------------------------
# A card the loader rejects is also unknown to every deck that lists it; these tests look at
# the problems in carpe_cras/cards only.

def test_a_missing_field(data):
    path = data / "carpe_cras/cards/rulebook.yaml"
    text = edit(path, "  speed: 3\n  health: 3\n  steps: 3\n", "  health: 3\n  steps: 3\n")
    assert problem_lines(data, data / "carpe_cras/cards") == [
        f"{path}:{line_of(text, 'id: royal-scout')}: carpe_cras/royal-scout: speed: "
        "required field is missing"]


def test_a_wrong_value_type(data):
    path = data / "carpe_cras/cards/rulebook.yaml"
    text = edit(path, "  speed: 2\n  health: 3\n  steps: 2\n", "  speed: fast\n  health: 3\n  steps: 2\n")
    found = problem_lines(data, data / "carpe_cras/cards")
    prefix = f"{path}:{line_of(text, 'speed: fast')}: carpe_cras/barbarian-tyro: speed: "
    assert found == [prefix + "'fast' is not a whole number"]


@pytest.mark.parametrize("file, anchor, old, new, field", [
    ("rulebook.yaml", "id: royal-scout", "  speed: 3\n", "  speed: -1\n", "speed"),
    ("rulebook.yaml", "id: royal-scout", "{name: Knife, power: 2, combat", "{name: Knife, power: -2, combat",
     "skills.0.power"),
    ("rulebook.yaml", "id: dagger", "bonuses: {speed: 1}", "bonuses: {speed: -1}", "bonuses.speed"),
    ("examples-might-cunning.yaml", "id: snare-pit", "exit_steps: 2", "exit_steps: -2", "exit_steps"),
    ("examples-authority-zeal.yaml", "id: oath-keeper", "      speed: 3\n", "      speed: -3\n",
     "sides.1.speed"),
])
def test_a_negative_stat(data, file, anchor, old, new, field):
    path = data / "carpe_cras/cards" / file
    text = edit(path, old, new)
    card_id = anchor.removeprefix("id: ")
    line = line_of(text, new.strip(), after=anchor)
    assert problem_lines(data, data / "carpe_cras/cards") == [
        f"{path}:{line}: carpe_cras/{card_id}: {field}: Input should be greater than or equal to 0"]


def test_a_melee_skill_cannot_reach_three_spaces(data):
    path = data / "carpe_cras/cards/examples-might-cunning.yaml"
    text = edit(path, "range: 3, combat: projectile", "range: 3, combat: melee")
    assert problem_lines(data, data / "carpe_cras/cards") == [
        f"{path}:{line_of(text, 'name: Sling')}: carpe_cras/sling-skirmisher: skills.0.combat: "
        "a melee skill reaches at most 1 space (Combat); range 3 makes it projectile"]


def test_a_duality_card_needs_two_sides(data):
    path = data / "carpe_cras/cards/examples-authority-zeal.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("    - title: Oath Breaker")
    end = text.index("  centre:", start)
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    found = problem_lines(data, data / "carpe_cras/cards")
    prefix = f"{path}:{line_of(text, 'sides:', after='id: oath-keeper')}: carpe_cras/oath-keeper: sides: "
    assert len(found) == 1 and found[0].startswith(prefix) and "at least 2" in found[0]


def test_an_unknown_card_type(data):
    path = data / "carpe_cras/cards/rulebook.yaml"
    text = edit(path, "  type: unit\n  title: Royal Scout", "  type: monster\n  title: Royal Scout")
    found = problem_lines(data, data / "carpe_cras/cards")
    prefix = f"{path}:{line_of(text, 'type: monster')}: carpe_cras/royal-scout: type: "
    assert len(found) == 1 and found[0].startswith(prefix) and "'monster'" in found[0]
    # The two decks that list the rejected card know its id: the card's own problem is the only one.
    assert problem_lines(data) == found


def test_an_unknown_field(data):
    path = data / "carpe_cras/cards/rulebook.yaml"
    text = edit(path, "  title: Dagger\n", "  title: Dagger\n  colour: silver\n")
    assert problem_lines(data, data / "carpe_cras/cards") == [
        f"{path}:{line_of(text, 'colour:')}: carpe_cras/dagger: colour: unknown field"]


def test_assumed_must_name_real_fields(data):
    path = data / "carpe_cras/cards/rulebook.yaml"
    text = edit(path, "  assumed: [cost, agency, traits, ability]\n", "  assumed: [cost, wingspan]\n")
    assert problem_lines(data, data / "carpe_cras/cards") == [
        f"{path}:{line_of(text, 'wingspan')}: carpe_cras/dagger: assumed: "
        "'wingspan' is not a field of a upgrade card"]


def test_malformed_yaml(data):
    path = data / "carpe_cras/decks/authority-zeal-agency.yaml"
    text = edit(path, "title: Authority / Zeal – agency deck", "title: Authority: Zeal")
    found = problem_lines(data)
    # The parser's own wording after "malformed YAML:" varies between PyYAML and libyaml.
    prefix = f"{path}:{line_of(text, 'title:')}: carpe_cras/-: yaml: malformed YAML: mapping values"
    assert len(found) == 1 and found[0].startswith(prefix)
