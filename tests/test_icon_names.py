"""Card text's inline icons said in words where no image can go (card_data/reading/icon_names.py)."""

from __future__ import annotations

import pytest

from card_data.reading.icon_names import ICON_NAME, icons_in_words


@pytest.mark.parametrize("text, said", [
    ("Forces a :tie: tie.", "Forces a tie."),  # the word after the icon says it: the icon goes
    ("+1 to your :power: power this round.", "+1 to your power this round."),
    (":power: Power first", "Power first"),
    ("Gain 2 :gold_coin:.", "Gain 2 gold coin."),  # alone, it is said by its name
    ("Gain 2 :gold_coin: and a :tie-breaker:", "Gain 2 gold coin and a tie breaker"),
    ("Ratio 3:2, at 10:30: no icons", "Ratio 3:2, at 10:30: no icons"),
    ("a :tie: tiebreak", "a tie tiebreak"),  # "tiebreak" is another word
])
def test_icons_in_words(text, said):
    assert icons_in_words(text) == said
    assert ICON_NAME.search(said) is None
