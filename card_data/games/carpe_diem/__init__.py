"""Carpe Diem (alea/Ravensburger 2018): the scoring the players keep on paper.

- :mod:`.cards`: scoring and fountain cards, the numbers printed as icons (``tables.yaml``)
  and the scoring-set rules; data beside it in this folder.
- :mod:`.rules`: the scorekeeper's rule engine (phases, banderole bar, scoring periods,
  final scoring).
"""

TITLE = "Carpe Diem"
ORDER = 40
"""Where menus and builds list it (see :mod:`card_data.games`)."""
