"""Carpe Cras's scorekeeper says everything a player reads as translatable Words.

Short scripted games are played through the engine: the two-player scenario of
``scenarios_carpe_cras`` (with mulligans), a game on the glossary's reading of full cities
(agency set aside and sacrificed, every Tempo outcome, morale lost and recovered) and one that
empties an agency deck; then one refusal of each kind the rules make. Every move label, form
field title, help line and choice, counter, summary and step line, history line and refusal
(rule and message) they produce must be a :class:`Words` whose template, and every nested
template, has a German translation in the committed catalogue; the only plain strings allowed
are what the players give (their names, an action's note) and numbers. Each is also filled in
German from the compiled catalogue, to catch translations whose placeholders do not fit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import scenarios_carpe_cras as scenario
from wording_checks import german, untranslated

import card_data.games.carpe_cras.rules as cc
from card_data.engine import RuleError, Words
from card_data.games.carpe_cras.rules import (
    Action,
    CardTempo,
    AddLane,
    ChooseStartingPlayer,
    FirstPlayerRoll,
    GainAgency,
    LoseMorale,
    Mulligan,
    Pass,
    RecoverMorale,
    StartRound,
    StrikeCity,
    TakeToken,
    TempoRoll,
)
from card_data.games.carpe_cras.tempo import tempo_succeeds
from card_data.loader import load_database

GAME = load_database().games["carpe_cras"]
ENGINE = cc.ENGINE
RED, BLUE = 0, 1
NOTE = "played Barbarian Tyro"


CARD_DATA = {card.title for card in GAME.cards.values()} | {
    skill.name for card in GAME.cards.values() for skill in getattr(card, "skills", [])}
"""Card titles and skill names (the Tempo helper from the cards): said as the card data writes
them, in the page's language where the game's data translates them (not the catalogue's)."""
TYPED = set(scenario.PLAYERS) | {NOTE} | CARD_DATA
"""What the players give (their names, an action's note) and the card data: shown as written."""
NUMBERS = re.compile(r"\d+(, \d+)*")
"""Numbers as text: a die's face, or lane numbers joined with ", " (the same in any language)."""


def problems(text: object, where: str) -> Iterator[str]:
    """What is wrong with ``text`` as something a player reads (nothing if it is fine)."""
    # "" is the empty end-of-round note inside a history line, never a whole text.
    return untranslated(text, where, lambda plain, at: bool(
        plain in TYPED or NUMBERS.fullmatch(plain) or plain == "" and "›" in at))


class Said:
    """Everything the engine said during the script: ``(where, text)`` pairs."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, object]] = []

    def add(self, where: str, text: object) -> None:
        self.texts.append((where, text))

    def state(self, state: cc.State, where: str) -> None:
        """Where the game stands, its counters and every form the rules allow now."""
        self.add(f"{where} summary", state.summary())
        self.add(f"{where} step", state.step_label())
        out = ENGINE.outcome(state)
        self.add(f"{where} outcome summary", out.summary)
        self.add(f"{where} score label", out.score_label)
        for counter in state.counters():
            self.add(f"{where} counter", counter.label)
            for move in (counter.minus, counter.plus):
                if move is not None:
                    self.add(f"{where} counter move", move.label)
        for move in ENGINE.allowed(state):
            at = f"{where} move {move.type_name}"
            self.add(at, move.label)
            if move.hint:
                self.add(f"{at} hint", move.hint)
            for field in move.fields:
                self.add(f"{at} field {field.name}", field.label)
                if field.help:
                    self.add(f"{at} field {field.name} help", field.help)
                for item in field.item_labels:
                    self.add(f"{at} field {field.name} item", item)
                for choice in field.choices:
                    self.add(f"{at} field {field.name} choice {choice.value}", choice.label)
                    if choice.note:
                        self.add(f"{at} field {field.name} choice {choice.value} note", choice.note)

    def game(self, state: cc.State, events, where: str) -> cc.State:
        """Play ``events`` from ``state``, noting each state and history line."""
        self.state(state, f"{where} start")
        for i, event in enumerate(events):
            step = ENGINE.step(state, event)
            event_type = event["type"] if isinstance(event, dict) else type(event).type_name
            self.add(f"{where} line {i} ({event_type})", step.line)
            state = step.state
            self.state(state, f"{where} after {i}")
        return state

    def refusal(self, state: cc.State, event, where: str) -> RuleError:
        with pytest.raises(RuleError) as caught:
            ENGINE.apply(state, event)
        self.add(f"refusal {where} rule", caught.value.rule)
        self.add(f"refusal {where} message", caught.value.message)
        return caught.value


def new(**options) -> cc.State:
    return ENGINE.new_state(scenario.PLAYERS, {**scenario.OPTIONS, **options}, GAME)


def apply(state: cc.State, *events) -> cc.State:
    for event in events:
        state = ENGINE.apply(state, event)
    return state


def fill_city(said: Said, state: cc.State, seat: int, where: str) -> cc.State:
    """Every city space of ``seat`` filled to 3 agency, one effect at a time."""
    events = [GainAgency(seat=seat, lane=lane) for lane in range(1, state.lanes + 1)
              for _ in range(3 - state.city_agency[seat][lane - 1])]
    return said.game(state, events, where)


GLOSSARY_GAME = [
    FirstPlayerRoll(rolls=(5, 5)),
    FirstPlayerRoll(rolls=(2, 3)),
    ChooseStartingPlayer(seat=RED, starting_seat=BLUE),
    StartRound(agency_lane_0=1, agency_lane_1=1),
    Action(seat=BLUE),
    Action(seat=RED, note=NOTE),
    TakeToken(seat=BLUE),
    RecoverMorale(seat=RED, amount=2, ends_turn=True),
    LoseMorale(seat=BLUE, amount=3),
    RecoverMorale(seat=BLUE, amount=1),
    TempoRoll(seat=RED, check="strike_twice", striker_speed=5, target_speed=2, roll=2),
    TempoRoll(seat=RED, check="dodge_strike_twice", striker_speed=2, dexterity=1, target_speed=5, roll=6),
    TempoRoll(seat=BLUE, check="dodge", striker_speed=1, accuracy=1, target_speed=9),
    TempoRoll(seat=BLUE, check="dodge", striker_speed=6, target_speed=2, evade=1),
    CardTempo(seat=BLUE, check="dodge", striker="royal-scout", striker_upgrades=["dagger"], skill="Knife",
              target="well-read-squirrel", target_upgrades=["katana", "dagger"], roll=1),
    CardTempo(seat=RED, check="strike_twice", striker="well-read-squirrel", skill="Sword",
              striker_upgrades=["katana"], target="barbarian-tyro", roll=3),
    StrikeCity(seat=RED, lane=1, power=3, sacrificed=1, ends_turn=False),
    Pass(seat=RED),
    StartRound(agency_lane_0=1, agency_lane_1=1),
]


@pytest.fixture(scope="module")
def said() -> Said:
    said = Said()
    scenario_events = [Mulligan(seat=RED), Mulligan(seat=BLUE), *scenario.EVENTS]
    over = said.game(new(), scenario_events, "scenario")
    assert over.finished and over.winners() == tuple(scenario.WINNERS)

    # The glossary's reading: Blue holds the Token, so Blue's agency is set aside, Red's sacrificed.
    glossary = said.game(new(full_city_agency="sacrifice_unless_token"), GLOSSARY_GAME, "glossary")
    assert glossary.token_holder == BLUE
    for seat in (RED, BLUE):
        glossary = fill_city(said, glossary, seat, f"glossary fill {seat}")
    glossary = said.game(glossary, [GainAgency(seat=BLUE), GainAgency(seat=RED), Pass(seat=BLUE)],
                         "glossary full")
    assert glossary.agency_set_aside[BLUE] == 1
    set_aside = glossary
    glossary = said.game(glossary, [AddLane(seat=BLUE), GainAgency(seat=BLUE, lane=2, source="set_aside"),
                                    Pass(seat=RED)], "glossary set aside")

    # The main text: a full city sends agency to the bottom; an empty agency deck gives none.
    main = apply(new(), *scenario_events[:6])
    main = said.game(main, [*[GainAgency(seat=RED, lane=1)] * 2, GainAgency(seat=RED), *[AddLane(seat=RED)] * 5],
                     "main full city")
    main = fill_city(said, main, RED, "main fill")
    assert main.agency_in_deck(RED) == 0
    main = said.game(main, [Pass(seat=RED), Pass(seat=BLUE), StartRound(agency_lane_1=1)], "main empty deck")

    # One refusal of each kind.
    before_roll = new()
    said.refusal(before_roll, Action(seat=RED), "turn before the roll")
    said.refusal(before_roll, StartRound(), "round before the roll")
    said.refusal(before_roll, ChooseStartingPlayer(seat=RED, starting_seat=RED), "choose before the roll")
    said.refusal(before_roll, TempoRoll(seat=RED, check="dodge", striker_speed=1, target_speed=1),
                 "tempo before round 1")
    low_known = apply(before_roll, FirstPlayerRoll(rolls=(1, 2)))
    said.refusal(low_known, FirstPlayerRoll(rolls=(3, 4)), "roll while the low roller chooses")
    said.refusal(low_known, ChooseStartingPlayer(seat=BLUE, starting_seat=BLUE), "the high roller chooses")
    settled = apply(low_known, ChooseStartingPlayer(seat=RED, starting_seat=RED))
    said.refusal(settled, FirstPlayerRoll(rolls=(3, 4)), "roll when settled")
    said.refusal(settled, ChooseStartingPlayer(seat=RED, starting_seat=BLUE), "choose when settled")
    said.refusal(settled, Action(seat=RED), "turn before round 1")
    mulliganed = apply(settled, Mulligan(seat=RED))
    said.refusal(mulliganed, Mulligan(seat=RED), "second mulligan")
    on = apply(mulliganed, StartRound(agency_lane_0=1, agency_lane_1=1))
    said.refusal(on, Mulligan(seat=BLUE), "mulligan in round 1")
    said.refusal(on, Action(seat=BLUE), "out of turn")
    said.refusal(on, StartRound(), "round still on")
    said.refusal(on, StrikeCity(seat=RED, lane=3, power=2), "strike a missing lane")
    said.refusal(on, StrikeCity(seat=RED, lane=1, power=0, sacrificed=1), "sacrifice more than the power")
    said.refusal(apply(new(), *scenario.EVENTS[:scenario.ILLEGAL[0]]), scenario.ILLEGAL[1],
                 "sacrifice more than the space holds")
    said.refusal(on, GainAgency(seat=RED), "gain without a lane")
    said.refusal(on, GainAgency(seat=RED, lane=5), "gain in a missing lane")
    said.refusal(on, GainAgency(seat=RED, lane=1, source="set_aside"), "nothing set aside")
    said.refusal(apply(on, *[GainAgency(seat=RED, lane=1)] * 2, AddLane(seat=RED)), GainAgency(seat=RED, lane=1),
                 "gain in a full space")
    said.refusal(on, TempoRoll(seat=RED, check="strike_twice", striker_speed=3, target_speed=1), "tempo roll missing")
    said.refusal(on, CardTempo(seat=RED, check="dodge", striker="well-read-squirrel", skill="Knife",
                               target="royal-scout", roll=1), "a skill the striker lacks")
    token = apply(on, TakeToken(seat=RED))
    said.refusal(token, TakeToken(seat=BLUE), "token taken twice")
    for event, what in [(Action(seat=RED), "action"), (Pass(seat=RED), "pass"), (TakeToken(seat=RED), "token"),
                        (StrikeCity(seat=RED, lane=1, power=1, ends_turn=True), "strike"),
                        (GainAgency(seat=RED, lane=1, ends_turn=True), "gain"),
                        (AddLane(seat=RED, ends_turn=True), "lane"),
                        (RecoverMorale(seat=RED, amount=1, ends_turn=True), "recover")]:
        said.refusal(token, event, f"token passer's {what}")
    said.refusal(fill_city(Said(), on, RED, "scratch"), GainAgency(seat=RED, lane=1), "full city with a lane")
    said.refusal(set_aside, GainAgency(seat=BLUE, source="set_aside"), "set aside into a full city")
    six = apply(on, *[AddLane(seat=RED)] * 5)
    said.refusal(six, AddLane(seat=RED), "a seventh lane")
    said.refusal(main, GainAgency(seat=RED), "empty agency deck")
    said.refusal(apply(main, Pass(seat=RED), Pass(seat=BLUE)), StartRound(agency_lane_0=1, agency_lane_1=1),
                 "a lane for an empty agency deck")
    said.refusal(over, Pass(seat=RED), "after the game")
    with pytest.raises(RuleError) as die:
        tempo_succeeds(3, 7)  # a die face the event's own validation keeps out of the engine
    said.add("refusal die face rule", die.value.rule)
    said.add("refusal die face message", die.value.message)
    return said


def test_the_script_covers_every_kind_of_history_line_and_refusal(said):
    """The script reaches what the module's branches say, so the other tests check them all."""
    templates = {text.template for _, text in said.texts if isinstance(text, Words)}
    def inside(text: Words) -> Iterator[str]:
        for value in text.params.values():
            if isinstance(value, Words):
                yield value.template
                yield from inside(value)

    nested = {t for _, text in said.texts if isinstance(text, Words) for t in inside(text)}
    for template in ("%(player)s took an action: %(note)s%(end)s", "%(player)s took an action%(end)s",
                     "%(player)s chose themselves to take the first turn",
                     "%(player)s chose %(chosen)s to take the first turn",
                     "First player: %(first)s, %(second)s; a tie, roll again",
                     "%(player)s gained 1 agency from beside the city → %(where)s%(end)s",
                     "%(player)s mulliganed: shuffled the opening hand back and drew 5",
                     "%(player)s's city lost %(amount)d morale to an effect: %(before)d → %(after)d",
                     "%(winner)s wins: %(loser)s's morale fell to 0"):
        assert template in templates, template
    for piece in ("to the bottom of the agency deck (city full)", "sacrificed (city full, no Token)",
                  "set aside (city full, holds the Token)", "none (agency deck empty)",
                  "rolled %(roll)d: success", "rolled %(roll)d: failure", "no roll needed: certain success",
                  "no roll needed: success impossible", "; round %(round)d ends", "passing", "taking the Token",
                  "a strike as the turn's action", "gaining agency as the turn's action",
                  "adding a lane as the turn's action", "recovering morale as the turn's action"):
        assert piece in nested, piece


def test_everything_said_is_words_translated_into_german(said):
    found = [p for where, text in said.texts for p in problems(text, where)]
    assert not found, "\n".join(found)


def test_everything_said_fills_in_german(said):
    """Each text fills in German (placeholders fit) and reads differently from the English."""
    for where, text in said.texts:
        if isinstance(text, Words):
            filled = german(text)
            assert isinstance(filled, str) and "%(" not in filled, where
    line = next(text for where, text in said.texts if where.startswith("scenario line 9 "))
    assert str(line) == "Red passed; round 1 ends"
    assert german(line) == "Red hat gepasst; Runde 1 endet"


def test_options_and_event_names_are_words_translated_into_german():
    texts = [(f"option {name} {what}", getattr(info, what)) for name, info in cc.Options.model_fields.items()
             for what in ("title", "description")]
    texts += [(f"event {cls.type_name}", cls.label) for cls in ENGINE.events.values()]
    texts += [("rulebook", ENGINE.rulebook), ("over rule", ENGINE.over_rule)]
    found = [p for where, text in texts for p in problems(text, where)]
    assert not found, "\n".join(found)
