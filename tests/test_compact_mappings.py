"""The compact mappings a loaded database keeps (where each record is written, every ruling's
id) answer exactly as the dicts they replace, before and after pickling (a build hands them to
its processes), and a loaded game's say where its cards and rulings really are."""

from __future__ import annotations

import pickle

import pytest

from card_data.loader import bundled_data_dir, load_database
from card_data.reading.card_store import CardStore
from card_data.reading.source_lines import SourceLines
from card_data.rulings.ruling_ids import RulingIds


def entries() -> dict[tuple[str, str], tuple[str, int]]:
    return {("card", "a"): ("cards/a.yaml", 1), ("art", "a"): ("cards/a.yaml", 7), ("card", "b"): ("cards/b.yaml", 40),
            ("deck", "draw"): ("decks/draw.yaml", 1), ("ruling", "0"): ("rulings.yaml", 3),
            ("card", "odd"): ("cards/b.yaml", -1), ("glossary", "x"): ("glossary.yaml", 2**40)}


@pytest.mark.parametrize("roundtrip", [False, True])
def test_source_lines_answer_as_the_dict_they_replace(roundtrip):
    plain = entries()
    compact = SourceLines(plain)
    if roundtrip:
        compact = pickle.loads(pickle.dumps(compact))
    assert dict(compact.items()) == plain and compact == plain and len(compact) == len(plain)
    assert set(compact) == set(plain)
    for key, value in plain.items():
        assert compact[key] == value and key in compact
    for missing in [("card", "c"), ("art", "b"), ("nope", "a"), "card", ("card",), ("card", "a", 1), None]:
        assert missing not in compact
        assert compact.get(missing, ("game.yaml", 1)) == ("game.yaml", 1)
    for unhashable in (["card", "a"], ("card", ["a"])):
        with pytest.raises(TypeError):
            unhashable in plain  # noqa: B015 - what a dict does
        with pytest.raises(TypeError):
            unhashable in compact  # noqa: B015
    with pytest.raises(KeyError):
        compact[("card", "c")]
    compact[("card", "a")] = ("cards/moved.yaml", 12)
    compact[("card", "b")] = ("cards/b.yaml", -5)  # a value that does not pack replaces one that did
    del compact[("deck", "draw")]
    assert compact[("card", "a")] == ("cards/moved.yaml", 12) and compact[("card", "b")] == ("cards/b.yaml", -5)
    assert ("deck", "draw") not in compact and len(compact) == len(plain) - 1
    with pytest.raises(KeyError):
        del compact[("deck", "draw")]


@pytest.mark.parametrize("roundtrip", [False, True])
def test_ruling_ids_answer_as_the_dict_they_replace_and_give_a_part_of_them(roundtrip):
    plain = {("a", 0): "a-11111111", ("a", 2): "written-id", ("b", 0): "b-22222222", (None, 0): "game-33333333",
             (None, 1): "game-33333333-2"}
    compact = RulingIds(plain)
    if roundtrip:
        compact = pickle.loads(pickle.dumps(compact))
    assert dict(compact.items()) == plain and compact == plain and len(compact) == 5
    for missing in [("a", 1), ("a", 3), ("a", -1), ("c", 0), ("a", "0"), ("a",), None]:
        assert missing not in compact
        assert compact.get(missing, "") == ""
    part = compact.of([None, "a", "a", "c"])
    assert dict(part.items()) == {k: v for k, v in plain.items() if k[0] in (None, "a")} and len(part) == 4
    assert dict(compact.of(["b"]).items()) == {("b", 0): "b-22222222"}
    with pytest.raises(ValueError):
        RulingIds({("a", -1): "x"})


def test_a_loaded_game_says_where_its_cards_are_and_finds_its_rulings_by_id():
    db = load_database(bundled_data_dir())
    game = db.games["cartisora"]
    assert isinstance(game.sources, SourceLines) and isinstance(game.ruling_ids, RulingIds)
    for card_id in list(game.cards)[:20]:
        file, line = game.sources[("card", card_id)]
        text = open(file, encoding="utf-8").read().splitlines()
        assert f"id: {card_id}" in text[line - 1], (file, line)
    with_rulings = [card for card in game.cards.values() if card.rulings]
    assert with_rulings
    for card in with_rulings:
        for index, ruling in enumerate(card.rulings):
            rid = game.ruling_ids[(card.id, index)]
            assert rid == ruling.id or rid.startswith(f"{card.id}-")
        assert (card.id, len(card.rulings)) not in game.ruling_ids


def test_a_card_store_reads_types_and_backs_without_decoding_after_pickling_and_in_a_subset():
    game = load_database(bundled_data_dir()).games["carpe_cras"]
    store = game.cards
    assert isinstance(store, CardStore)
    expected = {cid: (card.type, card.back_kind()) for cid, card in store.items()}
    assert len(set(expected.values())) > 1
    copy = pickle.loads(pickle.dumps(store))
    some = list(expected)[::3]
    part = store.subset(some)
    for reader, ids in ((store, expected), (copy, expected), (part, some)):
        assert {cid: (reader.type_of(cid), reader.back_kind_of(cid)) for cid in ids} == \
               {cid: expected[cid] for cid in ids}
