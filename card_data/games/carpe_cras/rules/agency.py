"""Gaining agency (Gaining agency; Glossary: Gain Agency; The battlefield): where a gained
agency goes, the lanes a form offers for it, and how a history line says where it went."""

from __future__ import annotations

from typing import Literal

from card_data.engine import Choice, FormField, RuleError, Words, replace_at
from card_data.games.carpe_cras.rules.rulebook import (
    CITY_SPACE_CAPACITY,
    RULE_CITY_SPACE,
    RULE_LANES,
)
from card_data.games.carpe_cras.rules.state import State

Where = Literal["lane", "bottom", "sacrificed", "set_aside", "none"]
"""Where one gained agency went: a city space, the bottom of the agency deck (city full, main
text), sacrificed (city full, no Token), set aside (city full, holds the Token), or nowhere
(the agency deck is empty at round start)."""

_WHERE_WORDS = {
    "bottom": Words("to the bottom of the agency deck (city full)"),
    "sacrificed": Words("sacrificed (city full, no Token)"),
    "set_aside": Words("set aside (city full, holds the Token)"),
    "none": Words("none (agency deck empty)"),
}


def gain(state: State, seat: int, lane: int | None, source: str = "agency_deck",
         at_round_start: bool = False) -> tuple[State, Where]:
    """``state`` after ``seat`` gains one agency placed in ``lane``, and where it went.

    Raises :class:`RuleError` for a lane given or missing wrongly (Gaining agency; Glossary:
    Gain Agency; The battlefield), an empty agency deck outside round start, or nothing set
    aside to place.
    """
    name = state.players[seat]
    rule = state.gain_rule()
    set_aside = list(state.agency_set_aside)
    if source == "set_aside":
        if set_aside[seat] == 0:
            raise RuleError(rule, Words("%(name)s has no agency set aside", name=name))
        set_aside[seat] -= 1
    elif state.agency_in_deck(seat) == 0:
        if not at_round_start:
            raise RuleError(rule, Words("%(name)s's agency deck is empty: there is no agency to gain", name=name))
        if lane is not None:
            raise RuleError(rule, Words("%(name)s's agency deck is empty: leave the lane out", name=name))
        return state, "none"
    room = state.lanes_with_room(seat)
    if not room:
        if source == "set_aside":
            raise RuleError(RULE_CITY_SPACE, Words("all of %(name)s's city spaces are full", name=name))
        if lane is not None:
            raise RuleError(rule, Words("all of %(name)s's city spaces are full: leave the lane out", name=name))
        if state.options.full_city_agency == "bottom_of_deck":
            return state, "bottom"
        if state.token_holder == seat:
            set_aside[seat] += 1
            return state.evolve(agency_set_aside=set_aside), "set_aside"
        return state, "sacrificed"
    if lane is None:
        # The lanes are numbers, so joining them with ", " says the same in any language.
        raise RuleError(rule, Words("choose a lane for %(name)s's agency (room in lane %(lanes)s)", name=name,
                                    lanes=", ".join(map(str, room))))
    if lane > state.lanes:
        raise RuleError(RULE_LANES, no_lane(lane, state.lanes))
    if lane not in room:
        raise RuleError(RULE_CITY_SPACE, Words("%(name)s's city space in lane %(lane)d already holds %(most)d "
                                               "agency", name=name, lane=lane, most=CITY_SPACE_CAPACITY))
    row = replace_at(state.city_agency[seat], lane - 1, state.city_agency[seat][lane - 1] + 1)
    return state.evolve(city_agency=replace_at(state.city_agency, seat, row), agency_set_aside=set_aside), "lane"


def no_lane(lane: int, lanes: int) -> Words:
    """The refusal of a lane number beyond the battlefield's ``lanes``."""
    return Words("there is no lane %(lane)d: the battlefield has %(lanes)d", lane=lane, lanes=lanes)


def lane_field(name: str, label: Words, room: list[Choice]) -> FormField:
    """A required choice among the lanes with room (see :meth:`State.lane_choices`)."""
    return FormField(name=name, label=label, kind="choice", choices=tuple(room))


def placed(state: State, seat: int, lane: int | None, where: Where) -> Words:
    """Where a gained agency went, for a history line (``state``: after the gain)."""
    if where == "lane":
        return Words("lane %(lane)d (now %(count)d)", lane=lane, count=state.city_agency[seat][lane - 1])
    return _WHERE_WORDS[where]
