"""The scorekeeper of a declared game: an :class:`~card_data.engine.Engine` made from the
``scoring:`` of its ``game.yaml`` (:mod:`card_data.declared.scoring_declarations`), no Python of the
game's own.

:func:`declared_engine` makes, once per declaration, a state class and the events the
declaration asks for, registered with the engine like a bundled game's:

- :class:`AdjustCounter` (every game): a player's counter changes by a whole number, bounded
  by the declaration (``by`` within the counter's whole range, :class:`~card_data.engine.Bounded`;
  the result within its ``min``..``max``, else a :class:`~card_data.engine.RuleError`). The
  counters' − and + buttons are its forms with every value fixed, one per declared step;
- :class:`NextRound` (``rounds: round``) or :class:`NextTurn` (``rounds: turn``: whose turn
  passes clockwise, a round being every player's turn once);
- :class:`EndGame` (``end: by_hand``, the default).

The game ends when a counter reaches ``end.reaches``, when round ``end.after_rounds`` is over,
or by hand; the players with the highest (or lowest) ``winner.counter`` win, tied players
sharing the win. The rule a refusal cites is the game's ``game.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import Field

from card_data.engine.bounds import Bounded
from card_data.engine.core import Engine, Event, GameState, Model, RuleError, Step
from card_data.engine.forms import Counter, Move
from card_data.engine.scoreboard import Scoreboard, scoreboard
from card_data.engine.seats import Seat
from card_data.engine.wording import Words
from card_data.declared.scoring_declarations import ScoringDeclaration

Ended = Literal["", "reached", "rounds", "hand"]
"""Why a declared game is over: not yet, a counter reached its end value, the last round is
over, the table ended it."""


class DeclaredOptions(Model):
    """A declared game's table options: none (its rules are all in its game.yaml)."""


class DeclaredState(GameState):
    """A declared game's table: each player's counters, the round and whose turn it is.

    Attributes:
        values: by seat, each counter's value in the declaration's order.
        round: the round being played, from 1 (stays 1 in a game without rounds).
        turn: the seat whose turn it is (``rounds: turn``; 0 otherwise).
        ended: why the game is over (:data:`Ended`; ``""`` while it goes on).

    The declaration is the class's (:attr:`rules`): :func:`declared_engine` makes one state
    class per declaration.
    """

    rules: ClassVar[ScoringDeclaration]
    rule_source: ClassVar[str] = "game.yaml"
    adjust_event: ClassVar[type[AdjustCounter]]
    """The engine's :class:`AdjustCounter` class (its counters' buttons are its forms)."""

    values: tuple[tuple[int, ...], ...]
    round: int = 1
    turn: int = 0
    ended: Ended = ""

    # -- the declaration, read ---------------------------------------------------------------

    @classmethod
    def counter_names(cls) -> tuple[str, ...]:
        """The counters, in the declaration's order."""
        return tuple(cls.rules.counters)

    @classmethod
    def counter_label(cls, name: str) -> str:
        """What people call counter ``name`` (its declared label)."""
        return cls.rules.counters[name].label_text(name)

    def value(self, seat: int, name: str) -> int:
        """Player ``seat``'s counter ``name`` now."""
        return self.values[seat][self.counter_names().index(name)]

    def rows(self) -> list[tuple[int, list[int]]]:
        """``(seat, [value of each counter])`` of every player, for the scoreboard."""
        return [(seat, list(values)) for seat, values in enumerate(self.values)]

    # -- where the game stands ----------------------------------------------------------------

    def scores(self) -> tuple[float, ...]:
        name = self.rules.winner_counter()
        return tuple(float(self.value(seat, name)) for seat in range(len(self.players)))

    def winners(self) -> tuple[int, ...]:
        """Every seat with the best value of the winner counter: tied players share the win."""
        scores = self.scores()
        if not scores:
            return ()
        best = max(scores) if self.rules.winner.wins == "highest" else min(scores)
        return tuple(seat for seat, score in enumerate(scores) if score == best)

    def summary(self) -> str:
        if self.finished:
            winners = self.winners()
            names = ", ".join(self.players[s] for s in winners)
            counter = self.counter_label(self.rules.winner_counter())
            best = int(self.scores()[winners[0]]) if winners else 0
            if len(winners) == 1:
                return Words("%(name)s wins with %(value)d %(counter)s", name=names, value=best, counter=counter)
            return Words("%(names)s share the win with %(value)d %(counter)s", names=names, value=best,
                         counter=counter)
        if self.rules.rounds == "turn":
            return Words("Round %(round)d: %(name)s's turn", round=self.round, name=self.players[self.turn])
        if self.rules.rounds == "round":
            return Words("Round %(round)d", round=self.round)
        return Words("The game is on")

    def scoreboard(self) -> Scoreboard:
        """Every player's counters (the declaration's labels, its order), the :meth:`summary`
        as the line, whose turn it is when the game has turns."""
        turn = self.turn if self.rules.rounds == "turn" and not self.finished else None
        return scoreboard([self.counter_label(n) for n in self.counter_names()], self.values, self.summary(), turn)

    def rounds_played(self) -> int:
        if self.rules.rounds is None:
            return 0
        return self.round if self.finished else self.round - 1

    def counters(self) -> list[Counter]:
        """Every player's counters with their − and + buttons, one pair per declared step."""
        adjust = type(self).adjust_event
        out = []
        for seat in range(len(self.players)):
            for name in self.counter_names():
                decl = self.rules.counters[name]
                value = self.value(seat, name)
                for step in decl.steps:
                    label = Words("%(name)s's %(counter)s", name=self.players[seat], counter=self.counter_label(name)) \
                        if len(decl.steps) == 1 else Words("%(name)s's %(counter)s, by %(step)d",
                                                           name=self.players[seat], counter=self.counter_label(name),
                                                           step=step)
                    out.append(Counter(
                        label=label, value=value, seat=seat,
                        minus=adjust.tap(self, seat, name, -step) if value - step >= decl.min else None,
                        plus=adjust.tap(self, seat, name, step) if value + step <= decl.max else None,
                        step=step))
        return out


class DeclaredEvent(Event):
    """Base of a declared game's events: the rule they cite is the game's declaration."""

    @classmethod
    def rule(cls, state: DeclaredState, what: str) -> str:
        """The rule a refusal cites: the game's declaration, saying ``what`` it declares
        (e.g. ``"Pub Quiz Night, game.yaml scoring: Points goes from 0 to 20"``)."""
        return Words("%(game)s, %(file)s scoring: %(what)s", game=cls.engine.title, file=state.rule_source, what=what)


class AdjustCounter(DeclaredEvent):
    """A player's counter changes by ``by`` (the declaration's subclass narrows ``counter``
    to its counters and ``by`` to their range)."""

    label = Words("Change a counter")

    seat: Seat
    counter: str
    by: int

    @classmethod
    def tap(cls, state: DeclaredState, seat: int, counter: str, by: int) -> Move:
        """The fully fixed form of one − or + tap."""
        sign = "−" if by < 0 else "+"
        return cls.offer(state, seat=seat, counter=counter, by=by,
                         label=Words("%(name)s: %(counter)s %(sign)s%(step)d", name=state.players[seat],
                                     counter=state.counter_label(counter), sign=sign, step=abs(by)))

    @classmethod
    def moves(cls, state: DeclaredState, seat: int | None) -> Sequence[Move]:
        names = state.counter_names()
        fixed: dict[str, Any] = {"counter": names[0]} if len(names) == 1 else {}
        return [cls.offer(state, seat=s, label=Words("%(name)s: change a counter", name=name), **fixed)
                for s, name in enumerate(state.players)]

    def apply(self, state: DeclaredState) -> Step[DeclaredState]:
        decl = state.rules.counters[self.counter]
        label = state.counter_label(self.counter)
        name = state.players[self.seat]
        if self.by == 0:
            raise RuleError(self.rule(state, label), Words("a change of 0 changes nothing"))
        before = state.value(self.seat, self.counter)
        after = before + self.by
        if not decl.min <= after <= decl.max:
            raise RuleError(self.rule(state, Words("%(counter)s goes from %(low)d to %(high)d", counter=label,
                                                   low=decl.min, high=decl.max)),
                            Words("%(name)s's %(counter)s would be %(value)d", name=name, counter=label,
                                  value=after))
        index = state.counter_names().index(self.counter)
        row = tuple(after if i == index else v for i, v in enumerate(state.values[self.seat]))
        changed = state.evolve(values=tuple(row if s == self.seat else v for s, v in enumerate(state.values)))
        signed = ("−" if self.by < 0 else "+") + str(abs(self.by))
        line = Words("%(name)s: %(counter)s %(by)s, now %(value)d", name=name, counter=label, by=signed, value=after)
        reaches = state.rules.end.reaches
        if reaches is not None and reaches.counter == self.counter and _reached(decl.start, reaches.value, after):
            changed = changed.evolve(phase="over", ended="reached")
            line = Words("%(line)s: the game is over", line=line)
        return Step(changed, line)


def _reached(start: int, goal: int, value: int) -> bool:
    return value >= goal if goal > start else value <= goal


class NextRound(DeclaredEvent):
    """The round is over: the next begins, or the game ends after the last (``end.after_rounds``)."""

    label = Words("Next round")

    def apply(self, state: DeclaredState) -> Step[DeclaredState]:
        return _round_over(state, Words("Round %(round)d begins", round=state.round + 1))


class NextTurn(DeclaredEvent):
    """The player whose turn it is is done: the next player's turn (a new round after the last
    seat's), or the end of the game after the last round."""

    label = Words("Next turn")

    def apply(self, state: DeclaredState) -> Step[DeclaredState]:
        following = (state.turn + 1) % len(state.players)
        if following:
            return Step(state.evolve(turn=following),
                        Words("%(name)s's turn", name=state.players[following]))
        return _round_over(state.evolve(turn=0), Words("Round %(round)d begins: %(name)s's turn",
                                                       round=state.round + 1, name=state.players[0]))


def _round_over(state: DeclaredState, line: str) -> Step[DeclaredState]:
    last = state.rules.end.after_rounds
    if last is not None and state.round >= last:
        return Step(state.evolve(phase="over", ended="rounds"),
                    Words("Round %(round)d is over: the game is over", round=state.round))
    return Step(state.evolve(round=state.round + 1), line)


class EndGame(DeclaredEvent):
    """The table ends the game (``end: by_hand``): the winners are counted as they stand."""

    label = Words("End the game")

    def apply(self, state: DeclaredState) -> DeclaredState:
        return state.evolve(phase="over", ended="hand")

    def describe(self, before: DeclaredState, after: DeclaredState) -> str:
        return Words("The game was ended by hand")


class DeclaredEngine(Engine[DeclaredState]):
    """A declared game's engine: an :class:`Engine` that also knows its ``scoring``
    declaration and the colours its first seats take by default (``player_colours``)."""

    def __init__(self, *, scoring: ScoringDeclaration, **kwargs: Any):
        super().__init__(**kwargs)
        self.scoring = scoring
        self.player_colours: tuple[str, ...] = tuple(scoring.players.colours)


def declared_engine(game_id: str, title: str, scoring: ScoringDeclaration) -> DeclaredEngine:
    """The engine of the declared game ``game_id`` (named ``title``) that keeps score as
    ``scoring`` says. Made once per declaration and process (the same declaration gives the
    same engine, so a table's states stay of one class)."""
    return _engine(game_id, title, scoring.model_dump_json())


@lru_cache(maxsize=64)
def _engine(game_id: str, title: str, scoring_json: str) -> DeclaredEngine:
    scoring = ScoringDeclaration.model_validate_json(scoring_json)
    names = tuple(scoring.counters)
    span = max(max(c.max - c.min for c in scoring.counters.values()), 1)
    labels = {name: c.label_text(name) for name, c in scoring.counters.items()}

    class State(DeclaredState):
        rules: ClassVar[ScoringDeclaration] = scoring
        score_label: ClassVar[str] = labels[scoring.winner_counter()]
        highest_wins: ClassVar[bool] = scoring.winner.wins == "highest"

    def set_up(players: tuple[str, ...], options: DeclaredOptions, game: Any) -> State:
        start = tuple(c.start for c in scoring.counters.values())
        return State(players=players, phase="play", values=tuple(start for _ in players))

    engine = DeclaredEngine(
        game_id=game_id, title=title, min_players=scoring.players.min, max_players=scoring.players.max,
        options=DeclaredOptions, state=State, setup=set_up, scoring=scoring,
        over_rule=Words("%(game)s, game.yaml scoring: nothing is entered once the game is over", game=title),
        rulebook=Words("%(game)s, game.yaml scoring", game=title))

    @engine.event
    class Adjust(AdjustCounter):
        type_name = "adjust_counter"
        label = AdjustCounter.label
        counter: Literal[names] = Field(title=Words("Counter"),  # type: ignore[valid-type]
                                        json_schema_extra={"labels": labels})
        by: Bounded[-span, span] = Field(title=Words("By (− to take away)"))

    State.adjust_event = Adjust
    # Each engine its own event classes: an event class knows the one engine it is registered with.
    wanted = [{"round": NextRound, "turn": NextTurn}.get(scoring.rounds), EndGame if scoring.end.by_hand else None]
    for base in filter(None, wanted):
        engine.event(type(base.__name__, (base,), {"__module__": __name__, "type_name": base.type_name,
                                                   "label": base.label}))
    return engine


def declared_engines(games: Mapping[str, Any]) -> dict[str, DeclaredEngine]:
    """The engines of the declared games among ``games`` (game id -> ``card_data.loader.Game``)
    whose ``game.yaml`` declares ``scoring:``, by id; a declared game without it keeps no score."""
    out = {}
    for game_id, game in games.items():
        scoring = getattr(getattr(game.spec, "info", None), "scoring", None)
        if isinstance(scoring, ScoringDeclaration):
            out[game_id] = declared_engine(game_id, game.info.title, scoring)
    return out
