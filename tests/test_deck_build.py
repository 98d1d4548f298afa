"""``printkit build --deck``: one deck list's cards in its quantities (printkit.sheets.decklist).

Failing inputs check the exact ``FILE:LINE: game/deck-id: field:`` prefix of each problem.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from card_data.loader import load_database
from card_data.problems import DatabaseError
from printkit.sheets.decklist import cards_for_deck, find_deck, game_for_deck

DB = load_database()
CARPE_CRAS = DB.games["carpe_cras"]
DRAW_DECK = CARPE_CRAS.folder / "decks" / "might-cunning-draw.yaml"


def problems_of(game, deck) -> list[str]:
    with pytest.raises(DatabaseError) as info:
        cards_for_deck(game, deck)
    return [str(p) for p in info.value.problems]


def line_of(text: str, snippet: str) -> int:
    assert text.count(snippet) == 1
    return text[: text.index(snippet)].count("\n") + 1


def test_a_bundled_draw_deck_by_id_gives_its_40_cards_in_their_quantities():
    cards = cards_for_deck(CARPE_CRAS, "might-cunning-draw")
    assert len(cards) == 40
    deck = CARPE_CRAS.decks["might-cunning-draw"]
    assert Counter(c.id for c in cards) == Counter({e.card: e.qty for e in deck.cards})
    assert Counter(c.id for c in cards)["time-flies"] == 6
    assert {c.back_kind() for c in cards} == {"draw"}
    # In the list's order: every copy of an entry before the next entry's.
    assert [c.id for c in cards] == [e.card for e in deck.cards for _ in range(e.qty)]


@pytest.mark.parametrize("game_id", list(DB.games))
def test_every_bundled_deck_by_file_matches_the_same_deck_by_id(game_id):
    game = DB.games[game_id]
    for deck_id, deck in game.decks.items():
        path = Path(game.sources[("deck", deck_id)][0])
        by_file = cards_for_deck(game, path)
        assert by_file == cards_for_deck(game, deck_id)
        assert len(by_file) == sum(e.qty for e in deck.cards)


def test_a_deck_file_outside_the_database(tmp_path):
    text = DRAW_DECK.read_text(encoding="utf-8").replace("id: might-cunning-draw", "id: my-draft")
    path = tmp_path / "my-draft.yaml"
    path.write_text(text, encoding="utf-8")
    assert find_deck(CARPE_CRAS, path).id == "my-draft"
    assert len(cards_for_deck(CARPE_CRAS, path)) == 40


def test_an_unknown_card_id_is_reported_at_its_line(tmp_path):
    original = DRAW_DECK.read_text(encoding="utf-8")
    first = CARPE_CRAS.decks["might-cunning-draw"].cards[1].card
    text = original.replace(f"card: {first},", "card: no-such-card,", 1)
    assert text != original
    path = tmp_path / "draft.yaml"
    path.write_text(text, encoding="utf-8")
    assert problems_of(CARPE_CRAS, path) == [
        f"{path}:{line_of(text, 'no-such-card')}: carpe_cras/might-cunning-draw: cards.1.card: "
        "unknown card id 'no-such-card'"]


def test_a_deck_breaking_the_game_s_deck_rules_is_reported(tmp_path):
    text = DRAW_DECK.read_text(encoding="utf-8").replace("{card: time-flies, qty: 6}", "{card: time-flies, qty: 7}")
    path = tmp_path / "draft.yaml"
    path.write_text(text, encoding="utf-8")
    found = problems_of(CARPE_CRAS, path)
    assert found[0].startswith(f"{path}:") and ": carpe_cras/might-cunning-draw: cards: " in found[0]
    assert "exactly 40 cards (this one has 41)" in found[0]
    line = line_of(text, "time-flies, qty: 7")
    assert any(p.startswith(f"{path}:{line}: carpe_cras/might-cunning-draw: cards.0.qty: ") for p in found), found


def test_schema_problems_in_a_deck_file(tmp_path):
    path = tmp_path / "draft.yaml"
    text = "id: draft\ntitle: Draft\nkind: draw\ncards:\n  - {card: time-flies, qty: 0}\n"
    path.write_text(text, encoding="utf-8")
    found = problems_of(CARPE_CRAS, path)
    assert len(found) == 1 and found[0].startswith(f"{path}:5: carpe_cras/draft: cards.0.qty: ")


def test_a_name_that_is_neither_a_file_nor_a_deck_id():
    found = problems_of(CARPE_CRAS, "brute")  # a Duels deck, not a Carpe Cras one
    assert found == ["brute:1: carpe_cras/-: deck: no such deck list file or carpe_cras deck id "
                     f"(deck ids: {', '.join(CARPE_CRAS.decks)})"]


def test_the_game_of_a_deck_is_found_from_its_id_or_file(tmp_path):
    assert game_for_deck(DB, "brute").game_id == "cartisora"
    assert game_for_deck(DB, DRAW_DECK).game_id == "carpe_cras"
    outside = tmp_path / "draft.yaml"
    outside.write_text(DRAW_DECK.read_text(encoding="utf-8"), encoding="utf-8")
    assert game_for_deck(DB, outside).game_id == "carpe_cras"
    assert game_for_deck(DB, "no-such-deck") is None
