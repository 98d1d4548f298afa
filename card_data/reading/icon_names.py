"""Inline icons in card text, ``:name:`` (``Forces a :tie: tie.``): the one pattern printkit draws
them by and the companion shows them by, and the text said in words where no image can go.

An icon's name is a lower-case letter, then up to 39 lower-case letters, digits, ``_`` or
``-``: the file ``card_data/<game>/icons/<name>.svg`` (or ``.png``) printkit draws inline.
"""

from __future__ import annotations

import re

ICON_NAME = re.compile(r":([a-z][a-z0-9_-]{0,39}):")
"""An icon in card text; group 1 is its name."""


def icons_in_words(text: str) -> str:
    """``text`` with each ``:name:`` said in words, for what shows no images (a list of choices,
    a history line): left out, with the space after it, where the word after it says it
    already (``Forces a :tie: tie.`` reads ``Forces a tie.``), else its name in words (``Gain
    2 :gold_coin:`` reads ``Gain 2 gold coin``)."""

    def said(match: re.Match) -> str:
        name = match.group(1).replace("_", " ").replace("-", " ")
        if re.match(rf"{re.escape(name)}\b", text[match.end():], re.IGNORECASE):
            return ""
        return name + match.group(2)

    return _ICON_AND_SPACE.sub(said, text)


_ICON_AND_SPACE = re.compile(ICON_NAME.pattern + "( ?)")
