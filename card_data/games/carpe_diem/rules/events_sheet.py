"""A Carpe Diem sheet set by hand: holdings typed in, and victory points gained or handed
back (summary, Components)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field, field_validator

from card_data.engine import Bounded, Move, RuleError, Seat, Words
from card_data.games.carpe_diem.requirements import listed
from card_data.games.carpe_diem.rules.bounds import MOST_HELD, MOST_VP_CHANGE
from card_data.games.carpe_diem.rules.citations import RULE_FINAL, RULE_HOLDINGS
from card_data.games.carpe_diem.rules.engine import ENGINE
from card_data.games.carpe_diem.rules.state import RESOURCE_NAMES, State
from card_data.games.carpe_diem.rules.steps import CarpeDiemEvent, with_sheet
from card_data.games.carpe_diem.rules.wording import HOLDING_CHANGES

# --- holdings (summary, Components) ---------------------------------------------------------------


@ENGINE.event
class SetResources(CarpeDiemEvent):
    """``seat`` enters their holdings; each field given replaces the count on the sheet
    (summary, Components). Building rewards and scoring cards change holdings themselves:
    this is for everything else (and for corrections). Each is at most :data:`MOST_HELD`."""

    label = Words("Set holdings")
    seat: Seat
    grapes: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Grapes"))
    herbs: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Herbs"))
    chicken: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Chicken"))
    fish: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Fish"))
    coins: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Coins"))
    bread: Bounded[0, MOST_HELD] | None = Field(None, title=Words("Bread"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("%(name)s's holdings", name=state.players[s]),
                          blanks=state.sheets[s].holdings())
                for s in range(len(state.players)) if state.may_set_holdings(s)]

    def given(self) -> dict[str, int]:
        """Holdings entered: resource -> count."""
        return {r: getattr(self, r) for r in RESOURCE_NAMES if getattr(self, r) is not None}

    def apply(self, state: State) -> State:
        if not self.given():
            raise RuleError(RULE_HOLDINGS, Words("enter at least one of grapes, herbs, chicken, fish, coins, bread"))
        if not state.may_set_holdings(self.seat):
            raise RuleError(RULE_FINAL, Words("%(name)s's leftovers are already scored",
                                              name=state.players[self.seat]))
        return with_sheet(state, self.seat, **self.given())

    def describe(self, before: State, after: State) -> str:
        sheet = before.sheets[self.seat]
        changes = [HOLDING_CHANGES[r](getattr(sheet, r), n) for r, n in self.given().items() if getattr(sheet, r) != n]
        name = before.players[self.seat]
        if not changes:
            return Words("%(name)s's holdings: unchanged", name=name)
        return Words("%(name)s's holdings: %(changes)s", name=name, changes=listed(changes))


@ENGINE.event
class AdjustVictoryPoints(CarpeDiemEvent):
    """``seat`` gains (``change`` > 0) or hands back (< 0) victory points the scorekeeper does not
    work out itself, with what it was for (summary, Components: VP cards). The scoring periods
    and the final scoring add their own points; this is for the rest (a correction by hand, a
    house rule). VP may go below 0 (as after penalties). A change is at most
    :data:`MOST_VP_CHANGE` either way."""

    label = Words("Adjust victory points")
    seat: Seat
    change: Annotated[Bounded[-MOST_VP_CHANGE, MOST_VP_CHANGE],
                      Field(title=Words("VP change"), description=Words("negative to hand points back"))]
    note: Annotated[str, Field(max_length=200, title=Words("What for (optional)"))] = ""

    @field_validator("change")
    @classmethod
    def _not_zero(cls, change: int) -> int:
        if change == 0:
            raise ValueError("a change of 0 changes nothing")
        return change

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("Adjust %(name)s's VP", name=state.players[s]),
                          defaults={"change": 1})
                for s in range(len(state.players))]

    def apply(self, state: State) -> State:
        return with_sheet(state, self.seat, vp=state.sheets[self.seat].vp + self.change)

    def describe(self, before: State, after: State) -> str:
        words = {"name": before.players[self.seat], "change": self.change, "was": before.sheets[self.seat].vp,
                 "now": after.sheets[self.seat].vp}
        if self.note:
            # The note is the players' own text, shown as typed.
            return Words("%(name)s's VP adjusted by %(change)+d (%(note)s): %(was)d → %(now)d", note=self.note,
                         **words)
        return Words("%(name)s's VP adjusted by %(change)+d: %(was)d → %(now)d", **words)
