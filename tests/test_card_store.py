"""The compact card store (card_data.reading.card_store): every bundled card reads back equal to the
model the loader validated, through a worker's pickled subset too, and decks as id lists."""

from __future__ import annotations

import pickle
import sys

from card_data.reading.card_store import DECODED_CARDS_KEPT, CardRefs, CardStore
from card_data.loader import load_database

DB = load_database()


def test_every_bundled_card_reads_back_as_validated():
    for game in DB.games.values():
        assert isinstance(game.cards, CardStore)
        adapter = game.spec.card_adapter()
        for card_id, card in game.cards.items():
            # The store's record against the YAML read again, validated by the game's schema.
            assert card.id == card_id
            assert adapter.validate_python(card.model_dump()) == card


def test_a_store_is_much_smaller_than_its_models():
    game = DB.games["carpe_cras"]
    records = sum(sys.getsizeof(r) for r in game.cards._records.values())
    models = sum(sys.getsizeof(c.__dict__) + sum(sys.getsizeof(v) for v in c.__dict__.values())
                 for c in game.cards.values())
    assert records < models / 2


def test_a_subset_pickles_with_its_records_and_nothing_else():
    game = DB.games["cartisora"]
    ids = list(game.cards)[3:7]
    sub = game.cards.subset([*ids, "no-such-card"])
    assert list(sub) == ids
    back = pickle.loads(pickle.dumps(sub))
    assert [back[i] for i in ids] == [game.cards[i] for i in ids]
    assert len(pickle.dumps(sub)) < len(pickle.dumps(game.cards)) / 3


def test_decoded_cards_kept_are_bounded_and_reads_stay_equal():
    game = DB.games["carpe_cras"]
    store = CardStore(game.spec, game.cards.values())
    first = next(iter(store))
    card = store[first]
    for i in range(DECODED_CARDS_KEPT + 5):
        store.add(card.model_copy(update={"id": f"copy-{i}"}))
        store[f"copy-{i}"]
    assert len(store._decoded) <= DECODED_CARDS_KEPT
    assert store[first] == card  # decoded again after being dropped


def test_card_refs_slice_repeat_and_move_to_a_subset():
    game = DB.games["carpe_diem"]
    ids = [*list(game.cards)[:3], next(iter(game.cards))]  # the first card twice
    refs = CardRefs(game.cards, ids)
    assert len(refs) == 4 and refs[3] == refs[0]
    assert isinstance(refs[1:3], CardRefs) and refs[1:3].ids == tuple(ids[1:3])
    moved = refs.over(game.cards.subset(ids))
    assert moved == refs and list(moved) == [game.cards[i] for i in ids]

