"""What a printed rank counts as, and the reserves a Recruitment Step brings: computed once from
the rules and ``tables.yaml``, used by the rule engine (:mod:`.rules`) and, through
:func:`card_data.games.cahrd.reference_values`, by the printed reference cards.

Glossary of Terms (Stats): an officer's stats are printed at rank 1 to 5 or S, and "S rank is
considered 10 in regards to Card effects and in battle" (``tables.yaml``: ``s_rank_value``).
Step 2 (The Recruitment Step) adds reserves at the army's combined CHM x 1000, and the
rulebook does not say what a CHM of S counts as there: the Recruitment Step is neither a card
effect nor a battle. Our reading, the default (:data:`DEFAULT_S_RANK_IN_RECRUITMENT`): S counts
as the highest printed rank, 5 (:data:`~card_data.games.cahrd.cards.HIGHEST_PRINTED_RANK`); a
table may instead count it as 10, as in battle (option ``s_rank_in_recruitment``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from card_data.engine.wording import Words
from card_data.games.cahrd.cards import HIGHEST_PRINTED_RANK, printed_rank

SRankInRecruitment = Literal["highest_printed_rank", "s_rank_value"]
"""What a CHM of S counts as in the Recruitment Step: ``"highest_printed_rank"`` (5; our
reading, the default) or ``"s_rank_value"`` (10, the value S has in battle and card effects)."""

DEFAULT_S_RANK_IN_RECRUITMENT: SRankInRecruitment = "highest_printed_rank"

S_RANK_READINGS: dict[str, Words] = {
    "highest_printed_rank": Words("S counts as the highest printed rank, 5 (our reading: the rulebook is silent)"),
    "s_rank_value": Words("S counts as 10, as in battle and card effects"),
}
"""Each reading of :data:`SRankInRecruitment` in words, for forms and pages."""

PRINTED_RANKS: tuple[int | str, ...] = (*range(1, HIGHEST_PRINTED_RANK + 1), "S")


def battle_value(printed: int | str, s_rank_value: int) -> int:
    """The number a printed rank counts as in battle and in card effects (Glossary of Terms:
    Stats): 1-5 as printed, S as ``s_rank_value`` (10 in ``tables.yaml``).

    Raises ``ValueError`` for anything but a printed rank.
    """
    printed = printed_rank(printed)
    return s_rank_value if printed == "S" else int(printed)


def recruitment_value(printed: int | str, reading: SRankInRecruitment, s_rank_value: int) -> int:
    """The number a printed CHM counts as in the Recruitment Step's combined CHM (Step 2): 1-5
    as printed; S as :data:`HIGHEST_PRINTED_RANK` under ``"highest_printed_rank"`` (our
    reading), or as ``s_rank_value`` under ``"s_rank_value"``.

    Raises ``ValueError`` for anything but a printed rank.
    """
    printed = printed_rank(printed)
    if printed != "S":
        return int(printed)
    return HIGHEST_PRINTED_RANK if reading == "highest_printed_rank" else s_rank_value


def recruitment_reserves(chm_values: Iterable[int], reserves_per_chm_point: int) -> int:
    """Reserves an army gains in one Recruitment Step (Step 2): its officers' CHM values (as
    :func:`recruitment_value` counts them) summed, times ``reserves_per_chm_point`` (1000)."""
    return sum(chm_values) * reserves_per_chm_point


@dataclass(frozen=True)
class RecruitmentRow:
    """One printed CHM rank, what it counts as in the Recruitment Step and the reserves it adds."""

    printed: str
    counts_as: int
    reserves: int


def recruitment_table(reserves_per_chm_point: int, s_rank_value: int,
                      reading: SRankInRecruitment = DEFAULT_S_RANK_IN_RECRUITMENT) -> tuple[RecruitmentRow, ...]:
    """Each printed CHM rank (1-5, S) with what it counts as and the reserves one officer of that
    CHM adds to each Recruitment Step, under ``reading``."""
    rows = []
    for printed in PRINTED_RANKS:
        value = recruitment_value(printed, reading, s_rank_value)
        rows.append(RecruitmentRow(str(printed), value, recruitment_reserves([value], reserves_per_chm_point)))
    return tuple(rows)
