"""The card ids a game's card files define or might define (see :class:`CardIds`)."""

from __future__ import annotations

import re
from pathlib import Path

from card_data.project.limits import FileTooLarge, Limits, read_limited


class CardIds:
    """The card ids a game's card files define or might define: what a deck list may name
    without being told its card is unknown.

    ``card_id in ids`` is true for the id of every card record, whether or not the card
    passed its schema (its own problems say what is wrong with it), and for every slug-like
    word of a card file whose records could not all be read (it does not parse, or holds
    something other than mappings with an id). An id defined in such a file is written in
    it: only a YAML escape inside a quoted id, which nobody writes in a slug, could hide
    it; so no deck entry is called unknown because a card file is broken, while an id
    written nowhere (a typo in the deck list) is still reported in the same run. Skipping
    the check for the whole game instead would hide those typos until the file is fixed.
    A card file that cannot be read at all could hold any id.
    """

    _WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

    def __init__(self, limits: Limits) -> None:
        self.defined: set[str] = set()
        self._words: set[str] = set()
        self._anything = False
        self._limits = limits

    def add_text_of(self, path: Path) -> None:
        """Count every slug-like word of ``path`` as a card id it might define."""
        try:
            self._words.update(self._WORD.findall(read_limited(path, self._limits).decode("utf-8", "replace")))
        except (OSError, FileTooLarge):
            self._anything = True

    def __contains__(self, card_id: object) -> bool:
        return self._anything or card_id in self.defined or card_id in self._words
