"""What the rule engines say (card_data.engine.wording.Words) and how it reaches a page.

A :class:`Words` is its English text everywhere a ``str`` is (equality, hashing, JSON, pickling,
copies) and keeps its message through the engine's own types (dataclasses, pydantic models with
:data:`Said` fields, forms derived from pydantic fields, rule errors), so that
:func:`companion.web.language.say` can say it in the page's language, its params in turn. A toy
game here goes through the engine core; the German comes from the shipped catalogue.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Sequence
from typing import Literal

import pytest
from pydantic import BaseModel, Field, ValidationError

from card_data.engine import (
    Counter,
    Engine,
    Event,
    GameState,
    Model,
    Move,
    Outcome,
    RuleError,
    Said,
    Seat,
    Step,
    Words,
    choices,
)
from card_data.problems import InvalidInput, Problem
from companion.web.language import say

GERMAN = {"Accept-Language": "de"}


class Options(Model):
    pass


class State(GameState):
    score_label = Words("Score")
    points: tuple[int, ...]
    note: Said = ""

    def scores(self):
        return self.points

    def winners(self):
        return (0,)

    def summary(self):
        return Words("the game is over") if self.finished else Words("Undo")

    def counters(self):
        return [Counter(Words("Score"), self.points[0], 0, None, Nudge.offer(self, seat=0, label=Words("Rematch")))]


TOY = Engine(game_id="toy", title="Toy", min_players=2, max_players=2, options=Options, state=State,
             setup=lambda players, options, game: State(players=players, phase="play", points=(0, 0)),
             over_rule=Words("Rematch"), rulebook="Toy rules")


@TOY.event
class Nudge(Event):
    """``seat`` scores; a point past 2 ends the game. Every text it says is Words."""

    label = Words("Undo")
    seat: Seat
    points: int = Field(1, ge=1, le=9, title=Words("Score"), description=Words("one of: %(names)s", names="1, 2"))
    how: Literal["up", "down"] = Field("up", json_schema_extra={"labels": {"up": Words("Rematch")}})

    @classmethod
    def moves(cls, state, seat) -> Sequence[Move]:
        return [cls.offer(state, hint=Words("repeated"))]

    def apply(self, state):
        if self.points > 2:
            raise RuleError(Words("Undo"), Words("longer than %(most)d characters", most=2))
        points = tuple(p + self.points * (s == self.seat) for s, p in enumerate(state.points))
        after = state.evolve(points=points, note=Words("duplicate name"))
        return Step(after.evolve(phase="over") if max(points) > 2 else after,
                    Words("entry %(entry)d would no longer be allowed: %(reason)s", entry=self.points,
                          reason=Words("the game is over")))


def words(value) -> bool:
    return type(value) is Words


def test_words_is_its_english_text_and_survives_pickling_and_copies():
    w = Words("entry %(entry)d would no longer be allowed: %(reason)s", entry=3, reason=Words("the game is over"))
    assert w == "entry 3 would no longer be allowed: the game is over" and hash(w) == hash(str(w))
    assert {w: 1}["entry 3 would no longer be allowed: the game is over"] == 1
    assert json.dumps({"text": w}) == '{"text": "entry 3 would no longer be allowed: the game is over"}'
    for twin in (pickle.loads(pickle.dumps(w)), copy.copy(w), copy.deepcopy(w)):
        assert words(twin) and twin == w and twin.template == w.template
        assert twin.params == {"entry": 3, "reason": "the game is over"} and words(twin.params["reason"])
    assert type(str(w)) is str and type(w + "!") is str  # new strings made from Words are plain
    plain = Words("100% sure")  # without params no % formatting
    assert plain == "100% sure" and plain.template == "100% sure"
    with pytest.raises(KeyError):
        Words("%(missing)s", other=1)


def test_said_fields_keep_words_and_write_plain_json():
    class Line(BaseModel):
        text: Said
        many: tuple[Said, ...] = ()

    line = Line(text=Words("the game is over"), many=(Words("Undo"), "as typed"))
    assert words(line.text) and words(line.many[0]) and type(line.many[1]) is str
    assert line.model_dump(mode="json") == {"text": "the game is over", "many": ["Undo", "as typed"]}
    assert json.loads(line.model_dump_json()) == {"text": "the game is over", "many": ["Undo", "as typed"]}
    assert Line.model_json_schema()["properties"]["text"]["type"] == "string"
    with pytest.raises(ValidationError):
        Line(text=3)  # refused as for str
    # A plain str field turns Words into a plain str: what Said is for.
    class Plain(BaseModel):
        text: str
    assert type(Plain(text=Words("Undo")).text) is str


def test_words_survive_the_engine_core():
    state = TOY.new_state(["Ann", "Bo"], {}, None)
    outcome = TOY.outcome(state)
    assert words(outcome.summary) and words(outcome.score_label)
    assert words(Outcome(finished=False).score_label)  # the default too
    assert Outcome.model_json_schema()["properties"]["score_label"]["default"] == "Score"
    assert outcome.model_dump(mode="json")["summary"] == "Undo"

    [move] = TOY.allowed(state)
    assert words(move.label) and words(move.hint)
    seat, points, how = move.fields
    assert words(seat.label) and seat.label == "Player"  # the Seat type's own title
    assert words(points.label) and words(points.help) and points.help == "one of: 1, 2"
    assert [(c.label, words(c.label)) for c in how.choices] == [("Rematch", True), ("Down", False)]
    narrowed = move.for_seat(1)
    assert words(narrowed.label) and [f.name for f in narrowed.fields] == ["points", "how"]
    assert "Rematch" in json.dumps(TOY.event_schema())  # Words in a schema are plain JSON
    picked = choices([(0, Words("Player")), (1, "Bo"), 2])
    assert [words(c.label) for c in picked] == [True, False, False] and picked[2].label == "2"

    [counter] = state.counters()
    assert words(counter.label) and words(counter.plus.label)

    step = TOY.step(state, {"type": "nudge", "seat": 0, "points": 2})
    assert words(step.line) and words(step.line.params["reason"])
    assert words(step.state.note)  # a Said field of a game's state, through evolve()

    with pytest.raises(RuleError) as refused:
        TOY.step(state, {"type": "nudge", "seat": 0, "points": 3})
    assert words(refused.value.rule) and words(refused.value.message)
    assert str(refused.value) == "longer than 2 characters (Undo)"

    over = TOY.step(step.state, {"type": "nudge", "seat": 0, "points": 1}).state
    with pytest.raises(RuleError) as late:
        TOY.step(over, {"type": "nudge", "seat": 1})
    assert words(late.value.rule) and words(late.value.message) and late.value.message == "the game is over"


def test_the_core_refuses_in_words():
    state = TOY.new_state(["Ann", "Bo"], {}, None)
    with pytest.raises(RuleError) as seat:
        TOY.step(state, {"type": "nudge", "seat": 5})
    assert words(seat.value.rule) and seat.value.rule == "Toy rules: one seat per player"
    assert words(seat.value.message) and seat.value.message == "seat 5 is not a seat at this table of 2 (seats 0 to 1)"
    with pytest.raises(RuleError) as count:
        TOY.new_state(["Ann"], {}, None)
    assert count.value.rule == "Toy rules: Toy is for 2 players" and words(count.value.rule)
    assert words(count.value.message) and count.value.message == "this table has 1 players"
    with pytest.raises(InvalidInput) as unknown:
        TOY.parse_event({"type": "fly"})
    assert words(unknown.value.message) and unknown.value.message == "Toy has no event 'fly'"
    assert words(unknown.value.problems[0].message) and unknown.value.problems[0].message == "one of: nudge"
    assert str(unknown.value) == "Toy has no event 'fly': type: one of: nudge"  # the API's English


def test_say_translates_a_words_and_its_params_in_the_page_language(app):
    nested = Words("entry %(entry)d would no longer be allowed: %(reason)s", entry=4,
                   reason=Words("%(rulebook)s: one seat per player", rulebook="Toy rules"))
    with app.test_request_context(headers=GERMAN):
        assert say(nested) == "Eintrag 4 wäre nicht mehr erlaubt: Toy rules: ein Platz pro Spieler"
        assert say(Words("Player")) == "Spieler"
        assert say("Player") == "Player"  # a plain str is shown as written
        assert say(None) is None and say(3) == 3
        problem = Problem(field="colours", message=Words("repeated"))
        assert words(problem.message)  # a dataclass keeps it
    with app.test_request_context():
        assert say(nested) == "entry 4 would no longer be allowed: Toy rules: one seat per player"
        assert say(Words("Player")) == "Player"
