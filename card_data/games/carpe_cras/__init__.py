"""Carpe Cras (Weis Guys Gaming, rulebook V1.0, August 2025).

- :mod:`.cards`: the card schema and deck rules; data beside it in this folder.
- :mod:`.tempo`: Tempo, stats and damage, computed from the rules once: the rule engine's
  helpers and the reference cards' tempo table.
- :mod:`.rules`: the scorekeeper's rule engine (morale, agency, lanes, rounds, the Token).
"""

from __future__ import annotations

from typing import Any

from card_data.engine.wording import Words

TITLE = "Carpe Cras"
ORDER = 10
"""Where menus and builds list it (see :mod:`card_data.games`)."""
BOOK = Words("Carpe Cras rulebook V1.0")
"""How rule texts name the rulebook (translated: the rulebook's name is ours, not printed)."""
PLAYER_COLOURS = ("blue", "red")
"""The battlefield's two sides: the Blue Player and the Red Player (The battlefield)."""


def reference_values(game: Any) -> dict[str, Any]:
    """What the reference cards print that the rules compute: ``tempo_table``."""
    from card_data.games.carpe_cras.tempo import tempo_table

    return {"tempo_table": tempo_table()}
