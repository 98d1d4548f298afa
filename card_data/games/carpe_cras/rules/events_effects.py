"""Effects, taken as a turn's action or outside a turn: strikes on a city, agency gained,
lanes added, morale recovered and lost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field

from card_data.engine import (
    Bounded,
    Choice,
    Move,
    RuleError,
    Seat,
    Step,
    Words,
    replace_at,
)
from card_data.games.carpe_cras.rules.agency import (
    gain,
    lane_field,
    no_lane,
    placed,
)
from card_data.games.carpe_cras.rules.rulebook import (
    CITY_SPACE_CAPACITY,
    MAX_LANES,
    MOST_STARTING_MORALE,
    RULE_LANES,
    RULE_STRIKE_CITY,
)
from card_data.games.carpe_cras.rules.state import (
    ENGINE,
    Lane,
    Stat,
    State,
    other,
)
from card_data.games.carpe_cras.rules.turns import (
    CarpeCrasEvent,
    TurnOrEffect,
    check_morale,
    require_started,
    round_end_note,
)


@ENGINE.event
class StrikeCity(TurnOrEffect):
    """``seat`` strikes the opponent's city space in ``lane`` with ``power`` (Striking the city).

    ``sacrificed``: agency the defender sacrifices from that space, 1 damage prevented each: at
    most the :data:`CITY_SPACE_CAPACITY` a city space holds (The battlefield). ``power``: a
    stat, at most :data:`MOST_STAT`.
    ``ends_turn``: the strike was this turn's action (an attack); false for a strike from an
    ability outside the striker's own turn action.
    """

    label = Words("Strike the city")
    lane: Lane
    power: Stat = Field(title=Words("Power of the striking skill"))
    sacrificed: Bounded[0, CITY_SPACE_CAPACITY] = Field(
        0, title=Words("Agency the defender sacrifices from that space"))
    ends_turn: bool = Field(True, title=Words("This was the turn's action"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("%(striker)s strikes %(defender)s's city",
                                                     striker=state.players[s], defender=state.players[other(s)]),
                          lane=[Choice(lane, Words("Lane %(lane)d", lane=lane),
                                       Words("%(count)d agency there", count=state.city_agency[other(s)][lane - 1]))
                                for lane in range(1, state.lanes + 1)],
                          defaults={"ends_turn": state.may_act(s)})
                for s in TurnOrEffect.effect_seats(state)]

    def apply(self, state: State) -> State:
        self.turn_checked(state, Words("a strike as the turn's action"))
        defender = other(self.seat)
        name = state.players[defender]
        if self.lane > state.lanes:
            raise RuleError(RULE_LANES, no_lane(self.lane, state.lanes))
        there = state.city_agency[defender][self.lane - 1]
        if self.sacrificed > there:
            raise RuleError(RULE_STRIKE_CITY, Words("%(name)s can sacrifice only agency in the struck city space, "
                                                    "and lane %(lane)d holds only %(count)d",
                                                    name=name, lane=self.lane, count=there))
        if self.sacrificed > self.power:
            raise RuleError(RULE_STRIKE_CITY, Words("sacrificing %(sacrificed)d agency prevents at most %(power)d "
                                                    "damage (the strike's power): sacrifice no more",
                                                    sacrificed=self.sacrificed, power=self.power))
        row = replace_at(state.city_agency[defender], self.lane - 1, there - self.sacrificed)
        morale = max(0, state.morale[defender] - (self.power - self.sacrificed))
        struck = state.evolve(city_agency=replace_at(state.city_agency, defender, row),
                              morale=replace_at(state.morale, defender, morale))
        return check_morale(self.end_turn(state, struck))

    def describe(self, before: State, after: State) -> str:
        d = other(self.seat)
        said = {"striker": before.players[self.seat], "defender": before.players[d], "lane": self.lane,
                "power": self.power, "before": before.morale[d], "after": after.morale[d],
                "end": round_end_note(before, after)}
        if self.sacrificed:
            return Words("%(striker)s struck %(defender)s's city in lane %(lane)d for %(power)d; %(defender)s "
                         "sacrificed %(sacrificed)d agency, morale %(before)d → %(after)d%(end)s",
                         sacrificed=self.sacrificed, **said)
        return Words("%(striker)s struck %(defender)s's city in lane %(lane)d for %(power)d; morale %(before)d → "
                     "%(after)d%(end)s", **said)


@ENGINE.event
class GainAgency(TurnOrEffect):
    """``seat`` gains 1 agency (Gaining agency), placed in its city space in ``lane``.

    Leave ``lane`` out when all of the player's city spaces are full. ``source``:
    ``"set_aside"`` places a card set aside earlier (``sacrifice_unless_token`` only).
    """

    label = Words("Gain 1 agency")
    lane: Lane | None = None
    source: Literal["agency_deck", "set_aside"] = Field(
        "agency_deck", title=Words("From"),
        json_schema_extra={"labels": {"agency_deck": Words("The agency deck"),
                                      "set_aside": Words("Beside the city (set aside)")}})

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        moves = []
        for s in TurnOrEffect.effect_seats(state):
            room = state.lane_choices(s)
            lane = lane_field("lane", Words("Place it in"), room) if room else None
            if state.agency_in_deck(s):
                moves.append(cls.offer(state, seat=s, label=Words("%(player)s gains 1 agency", player=state.players[s]),
                                       lane=lane, source="agency_deck"))
            if state.agency_set_aside[s] and room:
                moves.append(cls.offer(state, seat=s, label=Words("%(player)s places agency set aside",
                                                                  player=state.players[s]),
                                       lane=lane, source="set_aside"))
        return moves

    def apply(self, state: State) -> Step[State]:
        self.turn_checked(state, Words("gaining agency as the turn's action"))
        gained, where = gain(state, self.seat, self.lane, self.source)
        after = self.end_turn(state, gained)
        said = {"player": state.players[self.seat], "where": placed(after, self.seat, self.lane, where),
                "end": round_end_note(state, after)}
        if self.source == "set_aside":
            return Step(after, Words("%(player)s gained 1 agency from beside the city → %(where)s%(end)s", **said))
        return Step(after, Words("%(player)s gained 1 agency → %(where)s%(end)s", **said))


@ENGINE.event
class AddLane(TurnOrEffect):
    """``seat`` adds a lane to the battlefield (The battlefield), up to 6: one new, empty city space each."""

    label = Words("Add a lane")

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.lanes >= MAX_LANES:
            return []
        return [cls.offer(state, seat=s, label=Words("%(player)s adds lane %(lane)d", player=state.players[s],
                                                     lane=state.lanes + 1),
                          defaults={"ends_turn": state.may_act(s)})
                for s in TurnOrEffect.effect_seats(state)]

    def apply(self, state: State) -> State:
        self.turn_checked(state, Words("adding a lane as the turn's action"))
        if state.lanes >= MAX_LANES:
            raise RuleError(RULE_LANES, Words("the battlefield already has %(most)d lanes", most=MAX_LANES))
        grown = state.evolve(lanes=state.lanes + 1, city_agency=tuple((*row, 0) for row in state.city_agency))
        return self.end_turn(state, grown)

    def describe(self, before: State, after: State) -> str:
        return Words("%(player)s added lane %(lane)d%(end)s", player=before.players[self.seat], lane=after.lanes,
                     end=round_end_note(before, after))


@ENGINE.event
class RecoverMorale(TurnOrEffect):
    """``seat``'s city recovers ``amount`` morale, never above the starting morale (Morale: a
    city "cannot ever have more than its starting amount"): at full morale it changes nothing.
    ``amount`` is at most :data:`MOST_STARTING_MORALE`, the most any city can have."""

    label = Words("Recover morale")
    amount: Annotated[Bounded[1, MOST_STARTING_MORALE], Field(title=Words("Morale recovered"))]

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("%(player)s recovers morale", player=state.players[s]),
                          defaults={"ends_turn": state.may_act(s), "amount": 1})
                for s in TurnOrEffect.effect_seats(state)]

    def apply(self, state: State) -> State:
        self.turn_checked(state, Words("recovering morale as the turn's action"))
        morale = min(state.options.starting_morale, state.morale[self.seat] + self.amount)
        return self.end_turn(state, state.evolve(morale=replace_at(state.morale, self.seat, morale)))

    def describe(self, before: State, after: State) -> str:
        start = before.options.starting_morale
        said = {"player": before.players[self.seat], "amount": self.amount, "before": before.morale[self.seat],
                "after": after.morale[self.seat], "most": start, "end": round_end_note(before, after)}
        if before.morale[self.seat] >= start:
            return Words("%(player)s recovered %(amount)d morale: %(before)d → %(after)d (at most %(most)d) "
                         "(already full)%(end)s", **said)
        return Words("%(player)s recovered %(amount)d morale: %(before)d → %(after)d (at most %(most)d)%(end)s",
                     **said)


@ENGINE.event
class LoseMorale(CarpeCrasEvent):
    """A card's effect damages ``seat``'s city: it loses ``amount`` morale outside a strike on a
    city space (Glossary: effect damage, "effects that deal damage outside of combat"; our
    reading: such damage to a city comes off its morale). Morale stops at 0, which ends the game
    (Morale). Not a turn's action. ``amount`` is at most :data:`MOST_STARTING_MORALE`: no city
    has more to lose."""

    label = Words("Lose morale")
    seat: Seat = Field(title=Words("City"))
    amount: Annotated[Bounded[1, MOST_STARTING_MORALE], Field(title=Words("Morale lost"))]

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=Words("%(player)s loses morale to an effect", player=state.players[s]),
                          defaults={"amount": 1})
                for s in TurnOrEffect.effect_seats(state)]

    def apply(self, state: State) -> State:
        require_started(state)
        morale = max(0, state.morale[self.seat] - self.amount)
        return check_morale(state.evolve(morale=replace_at(state.morale, self.seat, morale)))

    def describe(self, before: State, after: State) -> str:
        return Words("%(player)s's city lost %(amount)d morale to an effect: %(before)d → %(after)d",
                     player=before.players[self.seat], amount=self.amount, before=before.morale[self.seat],
                     after=after.morale[self.seat])
