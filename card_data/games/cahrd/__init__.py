"""C.A.H.R.D. (Combat Alliance History Retelling Division), Official Rulebook 1.0.

- :mod:`.cards`: the card schema (officers, items, tactics, strategies), printed ranks and
  the army and strategy deck rules; data beside it in this folder (numbers in ``tables.yaml``).
- :mod:`.ranks`: what a printed rank counts as and the reserves a Recruitment Step brings,
  computed once: the rule engine's numbers and the reference cards' alike.
- :mod:`.rules`: the scorekeeper's rule engine (grain, reserves, officers, zones, battles, the war).
"""

from __future__ import annotations

from typing import Any

TITLE = "C.A.H.R.D."
ORDER = 30
"""Where menus and builds list it (see :mod:`card_data.games`)."""


def reference_values(game: Any) -> dict[str, Any]:
    """What the reference cards may print that the rules compute, from ``game`` (the loaded
    ``cahrd`` game): ``recruitment_table`` (per printed CHM rank 1-5 and S, what it counts as in
    the Recruitment Step and the reserves it adds, under the default reading) and
    ``s_chm_in_recruitment`` (what a CHM of S counts as there by default)."""
    from card_data.games.cahrd.ranks import recruitment_table

    constants = game.tables.constants
    table = recruitment_table(constants.reserves_per_chm_point.value, constants.s_rank_value.value)
    return {"recruitment_table": table, "s_chm_in_recruitment": table[-1].counts_as}
