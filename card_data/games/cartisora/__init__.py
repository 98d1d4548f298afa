"""Duels of Cartisora (2019 Analog Game Studios edition by default; 2017 Moshe-Tozer Games).

- :mod:`.cards`: the card schema (number, boast, special, tag and token cards), structured
  effects and the character-deck rules; data beside it in this folder.
- :mod:`.rules`: the scorekeeper's rule engine (contests, reactions, maneuvers, score piles,
  matches, draft and tag team).
"""

TITLE = "Duels of Cartisora"
ORDER = 20
"""Where menus and builds list it (see :mod:`card_data.games`)."""
