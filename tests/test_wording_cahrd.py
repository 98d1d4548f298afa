"""C.A.H.R.D.'s rule engine says Words: a short war played through the engine, and every move
label, form field title, help and choice, counter, history line, summary and refusal it
produces is a :class:`~card_data.engine.Words` whose message has a German translation in the
companion's catalogue, and says itself in German with every placeholder filled. Names from the
data (players, card titles, deck ids) and bare numbers are exempt: they are said as written."""

from __future__ import annotations

import catalogues
import pytest
import scenarios_cahrd as scenario

from card_data.engine import RuleError, Words
from card_data.games.cahrd.rules import (
    ENGINE,
    ActivateCard,
    CannotDraw,
    CardEffect,
    DamageStep,
    DeclareAttack,
    DiscardCard,
    DiscardStrategy,
    EndTurn,
    Mulligan,
    NextBattle,
    PlayStrategy,
    RecruitLieutenant,
    Recruitment,
    SetCard,
    SetUp,
    StartTurn,
    State,
    StopAttack,
    Vanguard,
)
from card_data.loader import load_database

RED, BLUE = 0, 1


@pytest.fixture(scope="module")
def game():
    return load_database().games["cahrd"]


@pytest.fixture(scope="module")
def german() -> dict[str, str]:
    """The German catalogues (the shared one and each bundled game's): msgid -> msgstr,
    translated messages only."""
    return {message_id: text for message_id, text in catalogues.german_po().items() if isinstance(message_id, str)}


@pytest.fixture(scope="module")
def names(game) -> set[str]:
    """What is said as written: the players' names and every card title of the card data."""
    return {*scenario.PLAYERS, *(card.title for card in game.cards.values())}


def _turn(seat: int, *plays) -> list:
    return [StartTurn(seat=seat), Recruitment(seat=seat), *plays, EndTurn(seat=seat)]


def _one_tap_turn(seat: int, *plays) -> list:
    """A turn started with its Recruitment Step in the same entry."""
    return [StartTurn(seat=seat, recruitment=True), *plays, EndTurn(seat=seat)]


# A short war touching every event: Red mulligans once, sets, activates and discards cards and
# plays a strategy; Blue recruits, plays a strategy in response; attacks go to an officer, to the
# grain and are stopped; battle 2's turns start with their Recruitment Step in one entry; Red
# cannot draw in battle 1, Blue in battles 2 and 3: Red wins the war 2-1.
WAR = [
    Mulligan(seat=RED, officers_shown=1),
    scenario.RED_SET_UP,
    scenario.BLUE_SET_UP,
    *_turn(RED,
           SetCard(seat=RED, zone="tactics"),
           ActivateCard(seat=RED, card="counter-order", was_set=True),
           SetCard(seat=RED, zone="items"),
           DiscardCard(seat=RED, zone="items", slot=1),
           PlayStrategy(seat=RED, card="supply-lines")),
    *_turn(BLUE, RecruitLieutenant(seat=BLUE, officer="time-lost-cadet"),
           ActivateCard(seat=BLUE, card="scouting-map")),
    *_turn(RED,
           DeclareAttack(seat=RED, officer="border-captain"),
           Vanguard(seat=BLUE, officer="river-scout"),
           DamageStep(attacker_war_modifier=1),
           DeclareAttack(seat=RED, officer="oda-nobunaga"),
           StopAttack(seat=BLUE, card="smoke-screen"),
           PlayStrategy(seat=BLUE, card="scorched-earth", disregards=True),
           DiscardStrategy(seat=RED),
           CardEffect(seat=RED, card=None, target_seat=BLUE, grain_change=-100)),
    *_turn(BLUE,
           DeclareAttack(seat=BLUE, officer="time-lost-cadet"),
           Vanguard(seat=RED, to_grain=True)),
    CannotDraw(seat=RED),
    NextBattle(seat=RED, first_seat=BLUE),
    scenario.RED_SET_UP,
    scenario.BLUE_SET_UP,
    *_one_tap_turn(BLUE, CardEffect(seat=BLUE, card="field-rations", target_seat=BLUE, reserves_change=-1000,
                                    grain_change=200)),
    *_one_tap_turn(RED),
    CannotDraw(seat=BLUE),
    NextBattle(seat=BLUE, first_seat=BLUE),
    scenario.RED_SET_UP,
    scenario.BLUE_SET_UP,
    CannotDraw(seat=BLUE),
]


def _refusals(state: State) -> list:
    """Events the rules refuse at ``state`` (each refusal is checked, whichever it is)."""
    return [
        StartTurn(seat=BLUE if state.initiative != BLUE else RED),
        SetUp(seat=RED, commander="oda-nobunaga", strategist="oda-nobunaga", lieutenants=("border-captain",)),
        SetUp(seat=RED, commander="george-washington", strategist="supply-clerk", lieutenants=("border-captain",)),
        Mulligan(seat=RED, officers_shown=5),
        Recruitment(seat=RED),
        RecruitLieutenant(seat=RED, officer="oda-nobunaga"),
        DeclareAttack(seat=RED, officer="supply-clerk"),
        Vanguard(seat=BLUE, officer="frontier-envoy"),
        DamageStep(),
        EndTurn(seat=BLUE, lasting=("counter-order",)),
        SetCard(seat=BLUE, zone="tactics"),
        ActivateCard(seat=RED, card="oda-nobunaga"),
        ActivateCard(seat=RED, card="counter-order"),
        ActivateCard(seat=BLUE, card="crescent-blade"),
        DiscardCard(seat=RED, zone="tactics", slot=9),
        PlayStrategy(seat=BLUE, card="supply-lines"),
        DiscardStrategy(seat=BLUE),
        StopAttack(seat=RED, card="counter-order"),
        CardEffect(seat=RED, target_seat=RED),
        CardEffect(seat=RED, target_seat=RED, reserves_change=-10**6),
        NextBattle(seat=BLUE, first_seat=RED),
    ]


def _said(state: State, line: str | None) -> list[tuple[str, object]]:
    """Everything ``state`` shows players, with where it came from."""
    out: list[tuple[str, object]] = [("summary", state.summary()), ("step label", state.step_label()),
                                     ("S reading", state.s_rank_reading()), ("token reading", state.token_reading())]
    if line is not None:
        out.append(("history line", line))
    for seat, army in enumerate(state.armies):
        out += [("marker", state.marker_label(seat, o)) for o in army.officers]
        out += [("zone", name) for _, name, _ in state.zones(seat)]
    for move in ENGINE.allowed(state):
        out += [("move label", move.label), ("move hint", move.hint)]
        for field in move.fields:
            out += [("field title", field.label), ("field help", field.help)]
            out += [("choice", c.label) for c in field.choices] + [("choice note", c.note) for c in field.choices]
            out += [("item label", label) for label in field.item_labels]
    for counter in state.counters():
        out.append(("counter", counter.label))
        out += [("counter tap", m.label) for m in (counter.minus, counter.plus) if m is not None]
    return out


def _in_german(text: Words, german: dict[str, str]) -> str:
    """``text`` said in German, as the companion says it: the message translated, then filled
    with its params (Words params said in turn)."""
    params = {k: _in_german(v, german) if isinstance(v, Words) else v for k, v in text.params.items()}
    translated = german[text.template]
    return translated % params if params else translated


def _problems(where: str, text: object, german: dict[str, str], names: set[str]) -> list[str]:
    if not isinstance(text, str) or text == "" or text in names or text.isdigit():
        return []
    if not isinstance(text, Words):
        return [f"{where}: plain str {text!r}"]
    problems = []
    stack = [text]
    while stack:
        words = stack.pop()
        if words.template not in german:
            problems.append(f"{where}: no German for {words.template!r}")
        stack += [p for p in words.params.values() if isinstance(p, Words)]
    if not problems:
        _in_german(text, german)  # every placeholder of the translation is filled
    return problems


def test_every_text_of_a_war_is_words_with_a_german_translation(game, german, names):
    state = ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, game)
    said = _said(state, None)
    refusals: list[RuleError] = []
    for event in WAR:
        for wrong in _refusals(state):
            try:
                ENGINE.apply(state, wrong)
            except RuleError as error:
                refusals.append(error)
        step = ENGINE.step(state, event)
        state = step.state
        said += _said(state, step.line)
    assert state.finished and state.winners() == (RED,)
    with pytest.raises(RuleError) as over:
        ENGINE.apply(state, StartTurn(seat=RED))
    refusals.append(over.value)
    said += [("refusal rule", r.rule) for r in refusals] + [("refusal message", r.message) for r in refusals]

    problems = [p for where, text in said for p in _problems(where, text, german, names)]
    assert not problems, "\n".join(dict.fromkeys(problems))
    # The war said something of each kind, and refused many different things.
    kinds = {where for where, text in said if text}
    assert {"history line", "move label", "field title", "field help", "choice", "choice note", "item label",
            "counter", "counter tap", "refusal rule", "refusal message", "marker", "move hint"} <= kinds
    assert len({r.message for r in refusals}) >= 25


def test_the_options_form_and_its_choices_are_words(game, german, names):
    """The table options (Options) say their titles, help and choice labels as Words."""
    from card_data.engine.forms import derive_field
    from card_data.games.cahrd.rules import Options

    state = ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, game)
    problems = []
    for name in Options.model_fields:
        field = derive_field(Options, name, state)
        problems += _problems(f"option {name}", field.label, german, names)
        problems += _problems(f"option {name} help", field.help, german, names)
        for choice in field.choices:
            problems += _problems(f"option {name} choice", choice.label, german, names)
    assert not problems, "\n".join(problems)


def test_a_history_line_in_german_keeps_names_and_numbers(game, german):
    """A line nesting Words (a damage result inside the Damage Step line) reads in German, with
    the card titles and numbers as written."""
    state = ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, game)
    for event in WAR[:WAR.index(DamageStep(attacker_war_modifier=1))]:
        state = ENGINE.apply(state, event)
    line = ENGINE.step(state, DamageStep(attacker_war_modifier=1)).line
    assert line.startswith("Damage Step: Border Captain WAR 4 against River Scout WAR 2: ")
    assert _in_german(line, german).startswith("Schadensphase: Border Captain WAR 4 gegen River Scout WAR 2: "
                                               "River Scout Truppenstärke ")
