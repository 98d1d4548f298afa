"""The VP printed on the players' boards where the data only assumes them (2018 rulebook, Final
scoring).

The final scoring reads two tables of ``tables.yaml`` whose figures are printed as icons on the
boards and mostly illegible in the rulebook's text: ``villa_chimneys`` (the overview board: only
3 chimneys = 3 VP and 5 chimneys = 7 VP are legible, the other rows are assumed) and
``banderole_bar`` (every space assumed). A row marked ``assumed`` may be replaced, in a player's
final scoring, by the figure printed on the board at their table; a row taken from the rulebook
may not (its own figure entered is taken as it is). The figure entered is the one scored.

Here: the bound on a figure entered, the form fields that offer the assumed rows (pre-filled
with the assumed figure, labelled as assumed, the help naming where the data assumes it) and the
checked lookup the final scoring uses (:func:`printed_figures`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from card_data.engine import Bounded, RuleError, Words
from card_data.engine.forms import FormField
from card_data.games.carpe_diem.cards import BanderoleBarRow, VillaChimneyRow
from card_data.games.carpe_diem.rules.citations import RULEBOOK
from card_data.games.carpe_diem.rules.state import State, Tables

MOST_PRINTED_VP = 99
"""A sane bound on a figure printed on a board row (either way: the sources do not show the
figures, so a negative one is not ruled out); the legible ones are 3 and 7."""
PrintedVp = Bounded[-MOST_PRINTED_VP, MOST_PRINTED_VP]
MOST_PRINTED_ROWS = 99
"""A sane bound on the villa rows one final scoring may enter (the data has 8)."""

RULE_PRINTED = Words("%(source)s, Final scoring: completed villas score the VP printed for their chimneys on "
                     "the overview board and the banderole bar the VP printed on the space under the disc; "
                     "only figures the data marks assumed may be entered from the board", source=RULEBOOK)

VILLA_HELP = Words("Assumed in the data (tables.yaml, villa_chimneys): the rulebook's text shows these rows only "
                   "as icons, so each is pre-filled with the assumed figure. Enter the VP printed on your "
                   "overview board: the figure entered is the one scored.")
BAR_HELP = Words("Assumed in the data (tables.yaml, banderole_bar): the rulebook's text does not show the "
                 "banderole bar's values, so this is pre-filled with the assumed figure. Enter the VP printed on "
                 "the space under your disc: the figure entered is the one scored.")


def villa_row(tables: Tables, chimneys: int) -> VillaChimneyRow | None:
    """The villa table's row that scores a completed villa with ``chimneys`` chimneys: the last
    row at or below it (a count above the last row scores the last row), ``None`` below the first."""
    rows = [r for r in tables.villa_chimneys.rows if r.chimneys <= chimneys]
    return rows[-1] if rows else None


def bar_row(tables: Tables, space: int) -> BanderoleBarRow | None:
    """The banderole bar's row that scores a disc on ``space`` (the last row at or below it)."""
    rows = [r for r in tables.banderole_bar.rows if r.space <= space]
    return rows[-1] if rows else None


def assumed_villa_rows(tables: Tables) -> tuple[VillaChimneyRow, ...]:
    """The villa table's rows the data assumes, in chimney order."""
    return tuple(r for r in tables.villa_chimneys.rows if r.assumed)


def final_form_values(state: State, seat: int) -> dict[str, Any]:
    """The final-scoring form's printed-VP inputs for ``seat``, by event field (see
    :meth:`~card_data.engine.Event.offer`): every assumed villa row as a number pre-filled with
    its assumed figure (``printed_villa_chimneys`` fixed to their chimney counts), and the
    banderole bar's VP for the player's space if that row is assumed; fixed to nothing where
    the data holds no assumed figure."""
    tables = state.board.tables
    values: dict[str, Any] = {"printed_villa_chimneys": (), "printed_villa_vp": (), "banderole_vp": None}
    villas = assumed_villa_rows(tables)
    if villas:
        values["printed_villa_chimneys"] = tuple(r.chimneys for r in villas)
        values["printed_villa_vp"] = FormField(
            name="printed_villa_vp", label=Words("VP printed for a completed villa (assumed rows)"), kind="multi",
            count=len(villas), default=tuple(r.vp for r in villas), help=VILLA_HELP,
            item_labels=tuple(Words("%(chimneys)d chimneys (assumed figure)", chimneys=r.chimneys) for r in villas))
    space = state.sheets[seat].space
    row = bar_row(tables, space)
    if row is not None and row.assumed:
        values["banderole_vp"] = FormField(
            name="banderole_vp", kind="number", required=False, default=row.vp, minimum=-MOST_PRINTED_VP,
            maximum=MOST_PRINTED_VP, help=BAR_HELP,
            label=Words("VP printed on banderole bar space %(space)d (assumed figure)", space=space))
    return values


@dataclass(frozen=True)
class PrintedFigures:
    """The figures a final scoring scores with: the villa table's VP by row (chimney count),
    the entered ones in place of the assumed ones, and the banderole bar's VP for the player's
    space."""

    villa_vp: Mapping[int, int]
    bar_vp: int

    def villa(self, tables: Tables, chimneys: int) -> int:
        """VP of one completed villa with ``chimneys`` chimneys (0 below the first row)."""
        row = villa_row(tables, chimneys)
        return self.villa_vp[row.chimneys] if row is not None else 0


def printed_figures(state: State, seat: int, chimneys: Sequence[int], villa_vp: Sequence[int],
                    banderole_vp: int | None) -> PrintedFigures:
    """The figures ``seat``'s final scoring scores with: the data's, with the entered villa VP
    (``villa_vp[i]`` for villas of ``chimneys[i]`` chimneys) and banderole bar VP in place of
    assumed ones.

    A figure entered for a row the data does not assume is taken only if it is the data's own:
    a final scoring sent from the form before the data was corrected (the assumed figure left
    as it was) still reads the same once the row is the rulebook's.

    Raises :class:`RuleError` (:data:`RULE_PRINTED`) for counts and figures of different lengths,
    a chimney count entered twice or with no row of its own in the data, another figure for a
    row or a banderole bar space the data takes from the rulebook (not assumed).
    """
    tables = state.board.tables
    if len(chimneys) != len(villa_vp):
        raise RuleError(RULE_PRINTED, Words("%(figures)d villa VP entered for %(rows)d chimney counts",
                                            figures=len(villa_vp), rows=len(chimneys)))
    if len(set(chimneys)) != len(chimneys):
        twice = next(c for c in chimneys if list(chimneys).count(c) > 1)
        raise RuleError(RULE_PRINTED, Words("the VP for %(chimneys)d chimneys was entered twice", chimneys=twice))
    rows = {r.chimneys: r for r in tables.villa_chimneys.rows}
    figures = {r.chimneys: r.vp for r in tables.villa_chimneys.rows}
    for count, vp in zip(chimneys, villa_vp):
        row = rows.get(count)
        if row is None:
            raise RuleError(RULE_PRINTED, Words("the villa table has no row for %(chimneys)d chimneys",
                                                chimneys=count))
        if not row.assumed and vp != row.vp:
            raise RuleError(RULE_PRINTED, Words("%(chimneys)d chimneys = %(vp)d VP is the rulebook's figure, not "
                                                "an assumed one", chimneys=count, vp=row.vp))
        figures[count] = vp
    space = state.sheets[seat].space
    row = bar_row(tables, space)
    bar_vp = row.vp if row is not None else 0
    if banderole_vp is not None and banderole_vp != bar_vp:
        if row is None or not row.assumed:
            raise RuleError(RULE_PRINTED, Words("the data's VP for banderole bar space %(space)d is not assumed: "
                                                "it cannot be entered", space=space))
        bar_vp = banderole_vp
    return PrintedFigures(villa_vp=figures, bar_vp=bar_vp)
