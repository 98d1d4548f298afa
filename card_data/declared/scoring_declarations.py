"""A declared game's scorekeeping as data: the ``scoring:`` of its ``game.yaml`` (see
:mod:`card_data.declared.field_declarations` for the rest of it; the engine that runs it is
:mod:`card_data.engine.declared`), e.g.::

    scoring:
      players: {min: 2, max: 6, colours: [red, blue]}   # colours: the first seats' defaults
      counters:                          # per player, in the order the table shows them
        points: {label: Points, start: 0, min: 0, max: 30, steps: [1, 3]}
        jokers: {label: Jokers, start: 2, min: 0, max: 2}
      rounds: round                      # "round" (a Next round button), "turn" (Next turn,
                                         #   whose turn shown), or left out: no rounds
      end:                               # any of these ends the game
        reaches: {counter: points, value: 10}   # first to 10 points
        after_rounds: 8                  # ... or after the 8th round
        by_hand: true                    # ... or when the table says so (default)
      winner: {counter: points, wins: highest}  # or lowest; tied players share the win

Every number is bounded (:data:`MOST_COUNTER_VALUE`, :data:`MOST_ROUNDS`, :data:`MOST_COUNTERS`,
:data:`MOST_STEPS`, :data:`~card_data.engine.seats.MAX_SEATS`), so a declaration from someone
else cannot make a table unbounded. What one key cannot judge alone (a counter named that is
not declared, ``after_rounds`` without rounds, a value a counter can never reach) is told by
:func:`scoring_problems`, at its place in ``game.yaml``.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field, model_validator

from card_data.engine.seats import MAX_SEATS, PLAYER_COLOURS
from card_data.model_base import Strict

MOST_COUNTER_VALUE = 1_000_000
"""A counter's values lie in ``-MOST_COUNTER_VALUE..MOST_COUNTER_VALUE``."""
MOST_COUNTERS = 8
"""Counters per player a game may declare (each is a row of buttons on a phone)."""
MOST_STEPS = 4
"""Steps (the amounts a tap changes a counter by) per counter."""
MOST_ROUNDS = 1000
"""The most rounds ``after_rounds`` may name."""

COUNTER_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")

Value = Annotated[int, Field(ge=-MOST_COUNTER_VALUE, le=MOST_COUNTER_VALUE, strict=True)]
Label = Annotated[str, Field(min_length=1, max_length=40)]
CounterName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
Colour = Literal[PLAYER_COLOURS]  # type: ignore[valid-type]


class PlayersDeclaration(Strict):
    """How many players a table seats (``min``..``max``, 1 to 8) and the colours the first
    seats get by default (names of :data:`~card_data.engine.seats.PLAYER_COLOURS`, each once)."""

    min: Annotated[int, Field(ge=1, le=MAX_SEATS, strict=True)] = 2
    max: Annotated[int, Field(ge=1, le=MAX_SEATS, strict=True)] = 4
    colours: Annotated[list[Colour], Field(max_length=MAX_SEATS)] = []

    @model_validator(mode="after")
    def _fits(self) -> PlayersDeclaration:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is more than max {self.max}")
        if len(set(self.colours)) != len(self.colours):
            raise ValueError("a colour is listed twice")
        return self


class CounterDeclaration(Strict):
    """One number every player has: its ``label`` (default the name in words), ``start``
    value, bounds ``min``..``max`` (default 0..999) and the ``steps`` a tap on − or + changes
    it by (default ``[1]``; 1 to :data:`MOST_STEPS` different positive whole numbers)."""

    label: Label | None = None
    start: Value = 0
    min: Value = 0
    max: Value = 999
    steps: Annotated[list[Annotated[int, Field(ge=1, le=2 * MOST_COUNTER_VALUE, strict=True)]],
                     Field(min_length=1, max_length=MOST_STEPS)] = [1]

    @model_validator(mode="after")
    def _fits(self) -> CounterDeclaration:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is more than max {self.max}")
        if not self.min <= self.start <= self.max:
            raise ValueError(f"start {self.start} is not between min {self.min} and max {self.max}")
        if len(set(self.steps)) != len(self.steps):
            raise ValueError("a step is listed twice")
        if self.max > self.min and max(self.steps) > self.max - self.min:
            raise ValueError(f"step {max(self.steps)} is more than the counter's whole range "
                             f"({self.min} to {self.max})")
        return self

    def label_text(self, name: str) -> str:
        """What people read: ``label``, else the name in words (``"victory_points"`` ->
        ``"Victory points"``)."""
        words = name.replace("_", " ")
        return self.label or words[:1].upper() + words[1:]


class ReachesDeclaration(Strict):
    """The game ends as soon as a player's ``counter`` reaches ``value`` (at or above it when
    it is above the counter's start, at or below it when below)."""

    counter: CounterName
    value: Value


class EndDeclaration(Strict):
    """What ends the game; any one of them does: ``reaches``, ``after_rounds`` (the game ends
    when that round is over), ``by_hand`` (an "End the game" button; default true)."""

    reaches: ReachesDeclaration | None = None
    after_rounds: Annotated[int, Field(ge=1, le=MOST_ROUNDS, strict=True)] | None = None
    by_hand: bool = True

    @model_validator(mode="after")
    def _something_ends_it(self) -> EndDeclaration:
        if self.reaches is None and self.after_rounds is None and not self.by_hand:
            raise ValueError("nothing would end the game: give reaches, after_rounds or by_hand: true")
        return self


class WinnerDeclaration(Strict):
    """Who wins once the game is over: the player(s) with the ``highest`` (default) or
    ``lowest`` value of ``counter`` (default the first counter); tied players share the win."""

    counter: CounterName | None = None
    wins: Literal["highest", "lowest"] = "highest"


class ScoringDeclaration(Strict):
    """``scoring:`` of a declared game's ``game.yaml`` (see the module docstring)."""

    players: PlayersDeclaration = PlayersDeclaration()
    counters: Annotated[dict[str, CounterDeclaration], Field(min_length=1, max_length=MOST_COUNTERS)]
    rounds: Literal["round", "turn"] | None = None
    end: EndDeclaration = EndDeclaration()
    winner: WinnerDeclaration = WinnerDeclaration()

    def winner_counter(self) -> str:
        """The counter that decides who wins (``winner.counter``, else the first)."""
        return self.winner.counter or next(iter(self.counters))


def scoring_problems(scoring: ScoringDeclaration) -> list[tuple[tuple, str]]:
    """What is wrong across a valid ``scoring:``, as ``[(location in game.yaml, message)]``
    (e.g. ``(("scoring", "end", "reaches", "counter"), "...")``): a counter name that is not
    a lower-case identifier, a counter named by ``end`` or ``winner`` that is not declared, a
    ``reaches`` value its counter can never reach (outside its bounds, or its start),
    ``after_rounds`` without ``rounds``."""
    found: list[tuple[tuple, str]] = []
    for name in scoring.counters:
        if not COUNTER_NAME.fullmatch(name):
            found.append((("scoring", "counters", name), f"counter name '{name}' must be lower-case letters, "
                                                         f"digits and _, from a letter (at most 40)"))
    known = ", ".join(scoring.counters)
    reaches = scoring.end.reaches
    if reaches is not None:
        counter = scoring.counters.get(reaches.counter)
        if counter is None:
            found.append((("scoring", "end", "reaches", "counter"),
                          f"'{reaches.counter}' is not one of counters (declared: {known})"))
        elif reaches.value == counter.start or not counter.min <= reaches.value <= counter.max:
            found.append((("scoring", "end", "reaches", "value"),
                          f"{reaches.counter} starts at {counter.start} and stays between {counter.min} and "
                          f"{counter.max}: it can never reach {reaches.value}"))
    if scoring.end.after_rounds is not None and scoring.rounds is None:
        found.append((("scoring", "end", "after_rounds"), "after_rounds needs rounds: round or rounds: turn"))
    if scoring.winner.counter is not None and scoring.winner.counter not in scoring.counters:
        found.append((("scoring", "winner", "counter"),
                      f"'{scoring.winner.counter}' is not one of counters (declared: {known})"))
    return found
