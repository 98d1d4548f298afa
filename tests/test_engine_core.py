"""The engine core (card_data.engine) on a toy game defined here, and what it guarantees every
game: events named from their class, parsed with problems named by field, seats checked,
applied once with their history line, nothing accepted after the game is over, states
immutable and validated on every transition, forms narrowed to the player asking."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pydantic import Field, ValidationError

from card_data.engine import (
    Engine,
    Event,
    GameState,
    Model,
    Move,
    ReadOnlyDict,
    RuleError,
    Seat,
    Step,
)
from card_data.games import registry
from card_data.problems import InvalidInput


class Options(Model):
    target: int = Field(3, ge=1, le=9, title="Points to win")


class State(GameState):
    score_label = "Points"
    points: tuple[int, ...]
    target: int
    names: ReadOnlyDict[str, str] = {}

    def scores(self):
        return self.points

    def winners(self):
        return tuple(s for s, p in enumerate(self.points) if p >= self.target)

    def summary(self):
        return "over" if self.finished else f"first to {self.target}"


def set_up(players, options, game):
    return State(players=players, phase="play", points=(0,) * len(players), target=options.target,
                 names={"a": "A"})


TOY = Engine(game_id="toy", title="Toy", min_players=2, max_players=3, options=Options, state=State,
             setup=set_up, over_rule="Toy rules, End: the first to the target wins", rulebook="Toy rules")


@TOY.event
class ScorePoint(Event):
    """``seat`` scores ``points``; reaching the target ends the game."""

    label = "Score"
    seat: Seat
    points: int = Field(1, ge=1, le=3)

    @classmethod
    def moves(cls, state, seat) -> Sequence[Move]:
        return [cls.offer(state, seat=s, label=f"{state.players[s]} scores") for s in range(len(state.players))]

    def apply(self, state):
        points = tuple(p + self.points * (s == self.seat) for s, p in enumerate(state.points))
        after = state.evolve(points=points)
        return after.evolve(phase="over") if max(points) >= state.target else after

    def describe(self, before, after):
        return f"{before.players[self.seat]} scored {self.points}"


@TOY.event
class Bonus(Event):
    """Anyone at the table gives ``seat`` a bonus; the history line comes with the state."""

    seat: Seat

    @classmethod
    def moves(cls, state, seat):
        return [cls.offer(state)]

    def apply(self, state):
        return Step(state, f"bonus for {state.players[self.seat]}")


@TOY.event
class Corrupt(Event):
    """A deliberately broken handler: it builds a state with a wrong type."""

    what: str

    def apply(self, state):
        if self.what == "type":
            return state.evolve(target="seven")
        return state.evolve(targte=7)


@pytest.fixture
def state():
    return TOY.new_state(["Ann", "Bob"], {}, game=None)


def test_events_are_named_from_their_class_and_registered_once():
    assert list(TOY.events) == ["score_point", "bonus", "corrupt"]
    assert ScorePoint.type_name == "score_point" and ScorePoint.engine is TOY
    assert ScorePoint(seat=0).to_json() == {"type": "score_point", "seat": 0, "points": 1}
    with pytest.raises(ValueError, match="two events named 'score_point'"):
        TOY.event(type("ScorePoint", (Event,), {"__annotations__": {}}))


def test_parse_names_the_problem_by_field(state):
    assert TOY.parse_event({"type": "score_point", "seat": "1"}) == ScorePoint(seat=1)
    with pytest.raises(InvalidInput) as info:
        TOY.parse_event({"type": "score_point", "seat": 0, "points": 9, "colour": "red"})
    assert [str(p) for p in info.value.problems] == [
        "points: Input should be less than or equal to 3", "colour: unknown field"]
    with pytest.raises(InvalidInput) as info:
        TOY.parse_event({"type": "chess"})
    assert "Toy has no event 'chess'" in str(info.value) and "score_point" in str(info.value)
    with pytest.raises(InvalidInput):
        TOY.parse_event(["score_point"])


def test_a_seat_must_be_one_of_the_tables(state):
    with pytest.raises(RuleError) as info:
        TOY.apply(state, ScorePoint(seat=2))
    assert info.value.rule == "Toy rules: one seat per player"
    assert "seat 2 is not a seat at this table of 2" in info.value.message


def test_player_counts_and_options_are_checked():
    with pytest.raises(RuleError, match="Toy is for 2 to 3 players"):
        TOY.new_state(["Ann"], {}, None)
    with pytest.raises(InvalidInput) as info:
        TOY.new_state(["Ann", "Bob"], {"target": 0}, None)
    assert info.value.problems[0].field == "options.target"


def test_each_event_is_applied_once_and_words_its_own_line(state):
    step = TOY.step(state, {"type": "score_point", "seat": 1, "points": 2})
    assert step.state.points == (0, 2) and step.line == "Bob scored 2"
    assert state.points == (0, 0)  # the input is untouched
    assert TOY.step(state, Bonus(seat=0)).line == "bonus for Ann"


def test_nothing_is_accepted_once_the_game_is_over(state):
    over = TOY.apply(state, ScorePoint(seat=0, points=3))
    outcome = TOY.outcome(over)
    assert outcome.finished and outcome.winners == (0,) and outcome.scores == (3.0, 0.0)
    assert outcome.score_label == "Points"
    with pytest.raises(RuleError) as info:
        TOY.apply(over, ScorePoint(seat=1))
    assert info.value.rule == TOY.over_rule
    assert TOY.allowed(over) == []


def test_a_transition_that_builds_a_wrong_state_fails_at_once(state):
    """States are validated on every transition: a wrong type or an unknown field is an error
    where it is made, not a corrupt table later."""
    with pytest.raises(ValidationError, match="int_parsing|Input should be a valid integer"):
        TOY.apply(state, Corrupt(what="type"))
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        TOY.apply(state, Corrupt(what="field"))


def test_states_cannot_be_changed_in_place(state):
    with pytest.raises(ValidationError):
        state.points = (1, 1)
    with pytest.raises(AttributeError):
        state.points.append(1)
    with pytest.raises(TypeError):
        state.names["b"] = "B"
    assert state.evolve(points=[1, 2]).points == (1, 2)  # lists become tuples
    assert State.model_validate(state.model_dump(mode="json")) == state


def test_forms_are_narrowed_to_the_player_asking(state):
    everyone = TOY.allowed(state)
    assert [m.label for m in everyone if m.event is ScorePoint] == ["Ann scores", "Bob scores"]
    bob = [m for m in TOY.allowed(state, 1) if m.event is ScorePoint]
    assert [m.seat for m in bob] == [1]
    bonus = next(m for m in TOY.allowed(state, 1) if m.event is Bonus)
    assert bonus.fixed == {"seat": 1} and not bonus.field("seat")  # a free seat narrowed to Bob
    points = next(m for m in everyone if m.event is ScorePoint).field("points")
    assert (points.kind, points.minimum, points.maximum, points.default) == ("number", 1, 3, 1)
    seat = next(m for m in everyone if m.event is Bonus).field("seat")
    assert [(c.value, c.label) for c in seat.choices] == [(0, "Ann"), (1, "Bob")]
    # What Bob's page asks the rules once: every move offered to him, Ann's and a free seat's
    # included, of which allowed() keeps his own.
    offered = TOY.offered(state, 1)
    assert [m.seat for m in offered if m.event is ScorePoint] == [0, 1]
    assert next(m for m in offered if m.event is Bonus).field("seat") is not None
    assert [m for m in (m.for_seat(1) for m in offered) if m is not None] == TOY.allowed(state, 1)


def test_event_schema_is_discriminated_on_type():
    schema = TOY.event_schema()
    assert schema["discriminator"]["mapping"]["score_point"] == "#/$defs/ScorePoint"
    score = schema["$defs"]["ScorePoint"]
    assert score["properties"]["type"] == {"const": "score_point", "type": "string"}
    assert "type" in score["required"]


@pytest.mark.parametrize("game", ["carpe_cras", "cartisora", "cahrd", "carpe_diem"])
def test_every_event_of_a_game_is_documented_and_labelled(game):
    for cls in registry()[game].engine.events.values():
        assert (cls.__doc__ or "").strip(), cls
        assert cls.label and cls.label[0].isupper(), cls


@pytest.mark.parametrize("game", ["carpe_cras", "cartisora", "cahrd", "carpe_diem"])
def test_no_event_is_named_by_string_outside_its_class(game):
    """Adding an event touches one class: no production file names an event type as a string
    (its name comes from the class; only stored logs and the API's JSON carry it). Read: the
    engine core, the game's own rules and tables (not its card schema, whose card kinds are
    the data's words: a Duels "reaction" card), the companion's code and templates, printkit."""
    import re
    from pathlib import Path

    engine = registry()[game].engine
    root = Path(__file__).resolve().parent.parent
    files = [*(root / "card_data" / "engine").glob("*.py"),
             *(p for p in (root / "card_data" / "games" / game).rglob("*.py") if p.name != "cards.py"),
             # exports.py and past_games.py write other programs' formats (BG Stats' own "score"
             # key, a spreadsheet's "score" column), not events
             *(p for p in (root / "companion").rglob("*.py") if p.name not in ("exports.py", "past_games.py")),
             *(root / "companion" / "templates").rglob("*.html"), *(root / "card_data" / "games").glob("*/table.html"),
             root / "companion" / "static" / "companion.js", *(root / "printkit").rglob("*.py")]
    pattern = re.compile(r"""["'](%s)["']""" % "|".join(map(re.escape, engine.events)))
    # A package's __all__ names its own Python names (C.A.H.R.D.'s function set_up is spelt as
    # its SetUp event's stored name): not an event named by string. Blanked, lines kept.
    exports = re.compile(r"^__all__\s*=\s*\[.*?\]", re.S | re.M)

    def lines(p: Path) -> list[str]:
        text = exports.sub(lambda m: "\n" * m.group(0).count("\n"), p.read_text(encoding="utf-8"))
        return text.splitlines()

    found = [f"{p.relative_to(root)}:{n}: {line.strip()}" for p in files
             for n, line in enumerate(lines(p), 1) if pattern.search(line)]
    assert not found, "\n".join(found)


def test_a_seat_field_offers_each_tables_own_players_and_a_list_default_is_never_shared():
    """What a field's definition gives is worked out once per event class, but a seat's
    choices are each table's players, and a list default is each form's own."""
    from card_data.engine.forms import derive_field

    class Pick(Event):
        seat: Seat
        order: list[int] = Field(default_factory=list)

    first = TOY.new_state(("Ann", "Bo"), Options(), None)
    second = TOY.new_state(("Cy", "Di", "Ed"), Options(), None)
    for _ in range(2):  # asked again: the same answers
        assert [c.label for c in Bonus.moves(first, None)[0].fields[0].choices] == ["Ann", "Bo"]
        assert [c.label for c in Bonus.moves(second, None)[0].fields[0].choices] == ["Cy", "Di", "Ed"]
    assert [c.value for c in derive_field(Pick, "seat", second).choices] == [0, 1, 2]
    one, other = derive_field(Pick, "order", first), derive_field(Pick, "order", first)
    assert one.default == [] and one.default is not other.default


def test_a_forms_values_are_replaced_as_dataclasses_replace_does():
    """The forms' quick copy-with-changes (offered again at every entry) makes what
    :func:`dataclasses.replace` makes, and refuses a name that is no field."""
    import dataclasses

    from card_data.engine.forms import Choice, FormField, Move, _with

    choice = Choice(1, "Bo")
    form_field = FormField("seat", "Seat", "choice", choices=(choice,), default=1)
    move = Move(type("E", (), {"type_name": "e"}), "Enter", None, {"a": 1}, (form_field,))
    for value, changes in ((choice, {"label": "Bea"}), (form_field, {"default": 0, "blank": 2}),
                           (move, {"seat": 1, "fixed": {"seat": 1}, "fields": ()})):
        made = _with(value, **changes)
        assert made == dataclasses.replace(value, **changes) and made is not value
        assert value == dataclasses.replace(value)  # the original unchanged
        with pytest.raises(TypeError):
            _with(value, colour="red")
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.label = "x"
