"""C.A.H.R.D. (Combat Alliance History Retelling Division), Official Rulebook 1.0.

- :mod:`.cards`: the card schema (officers, items, tactics, strategies), printed ranks and
  the army and strategy deck rules; data in ``card_data/cahrd/`` (numbers in ``tables.yaml``).
- :mod:`.rules`: the scorekeeper's rule engine (grain, reserves, officers, battles, the war).
"""

TITLE = "C.A.H.R.D."
