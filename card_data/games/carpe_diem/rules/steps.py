"""What the Carpe Diem events share: their base classes, the changes several events make to a
sheet or the banderole bar, the check that tiles are placed in the rounds only, and the form
helpers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pydantic import Field

from card_data.engine import Bounded, Choice, Event, FormField, Move, RuleError, Words, replace_at
from card_data.engine.forms import derive_field
from card_data.games.carpe_diem.rules.bounds import MOST_CHIMNEYS, OwnedCount
from card_data.games.carpe_diem.rules.citations import RULE_BUILDING
from card_data.games.carpe_diem.rules.state import OWNED_NAMES, State
from card_data.games.carpe_diem.rules.wording import OWNED_TITLES, WHOSE


def with_sheet(state: State, seat: int, **changes) -> State:
    """``state`` with ``seat``'s sheet changed (validated like a new sheet)."""
    return state.evolve(sheets=replace_at(state.sheets, seat, state.sheets[seat].evolve(**changes)))


def owning_more(state: State, seat: int, *things: str) -> dict[str, int]:
    """``seat``'s owned counts with one more of each of ``things``."""
    owned = dict(state.sheets[seat].owned)
    for thing in things:
        owned[thing] = owned.get(thing, 0) + 1
    return owned


def advance(state: State, seat: int, spaces: int) -> State:
    """``seat``'s disc moves ``spaces`` ahead and goes on top of any disc on its new space
    (2018 rulebook, Set-up details)."""
    space = state.sheets[seat].space + spaces
    moved = with_sheet(state, seat, space=space)
    others = [s for s in state.bar_order if s != seat]
    at = next((i for i, s in enumerate(others) if moved.sheets[s].space <= space), len(others))
    return moved.evolve(bar_order=(*others[:at], seat, *others[at:]))


def require_rounds(state: State, seat: int, what: str) -> None:
    """Refuse ``what`` (a key of :data:`WHOSE`) outside a phase's rounds (tiles are placed only then)."""
    whose = WHOSE[what](state.players[seat])
    if state.step == "scoring":
        raise RuleError(RULE_BUILDING, Words("no tiles are placed in scoring period %(period)d: enter "
                                             "%(whose)s before the scoring period or after it",
                                             period=state.phase_number, whose=whose))
    if state.step == "final":
        raise RuleError(RULE_BUILDING, Words("the rounds are over: %(whose)s can no longer be entered", whose=whose))


def pick(cls: type[Event], name: str, state: State, options: Sequence[Choice],
         required: bool | None = None) -> FormField:
    """Field ``name`` of ``cls`` as a pick among ``options`` (a select, whatever its type);
    ``required`` overrides whether the form may leave it empty."""
    derived = derive_field(cls, name, state)
    return replace(derived, kind="choice", choices=tuple(options),
                   required=derived.required if required is None else required)


def owned_fields_last(move: Move) -> Move:
    """``move`` with its owned-count inputs after the event's own (they come from a base class)."""
    own = [f for f in move.fields if f.name not in OWNED_TITLES]
    return replace(move, fields=(*own, *(f for f in move.fields if f.name in OWNED_TITLES)))


class CarpeDiemEvent(Event):
    """Base of the Carpe Diem events."""


class OwnedCounts(CarpeDiemEvent):
    """How many of each owned thing the player says they have; ``None`` = not entered (the
    tracked count is used, see :mod:`card_data.games.carpe_diem.rules`).

    One field per :data:`card_data.games.carpe_diem.requirements.Owned` thing, named exactly like it
    (``chimney`` counts chimneys in every villa, complete or not; ``completed_*`` finished
    buildings and landscapes only). Each count is at most :data:`BUILDING_TILES` (chimneys:
    :data:`MOST_CHIMNEYS`).
    """

    chimney: Bounded[0, MOST_CHIMNEYS] | None = Field(None, title=OWNED_TITLES["chimney"])
    completed_villa: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_villa"])
    completed_merchant_dwelling: OwnedCount | None = Field(
        None, title=OWNED_TITLES["completed_merchant_dwelling"])
    completed_baker_dwelling: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_baker_dwelling"])
    completed_administrator_dwelling: OwnedCount | None = Field(
        None, title=OWNED_TITLES["completed_administrator_dwelling"])
    completed_craftsman_dwelling: OwnedCount | None = Field(
        None, title=OWNED_TITLES["completed_craftsman_dwelling"])
    completed_landscape: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_landscape"])
    completed_pond: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_pond"])
    completed_garden: OwnedCount | None = Field(None, title=OWNED_TITLES["completed_garden"])
    market: OwnedCount | None = Field(None, title=OWNED_TITLES["market"])
    bakery: OwnedCount | None = Field(None, title=OWNED_TITLES["bakery"])
    fountain: OwnedCount | None = Field(None, title=OWNED_TITLES["fountain"])

    def given(self) -> dict[str, int]:
        """The counts entered: thing -> count."""
        return {t: getattr(self, t) for t in OWNED_NAMES if getattr(self, t) is not None}

    @classmethod
    def offer_counts(cls, state: State, seat: int, things: Sequence[str], *, label: str,
                     defaults: Mapping[str, object] | None = None, **values: object) -> Move:
        """A form for ``seat`` asking only for the owned counts of ``things`` (each left empty,
        standing for the count the scorekeeper knows), after the event's own inputs."""
        owned = state.sheets[seat].owned
        known = {t: owned[t] for t in things if t in owned}
        hidden = {t: None for t in OWNED_NAMES if t not in things}
        move = cls.offer(state, seat=seat, label=label, defaults=defaults, blanks=known, **hidden, **values)
        return owned_fields_last(move)
