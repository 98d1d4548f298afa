"""Carpe Diem's scorekeeper says everything a player reads as translatable Words.

A short scripted game (the two-player scenario of ``scenarios_carpe_diem``, a branch through
every building reward, and one refusal of each kind) is played through the engine. Every move
label, form field title, help line and choice, counter, status and summary line, history line
and refusal (rule and message) it produces must be a :class:`Words` whose template, and every
nested template, has a German translation in the committed catalogue; the only plain strings
allowed are names from the data (players, card titles and ids, card codes). Each is also filled
in German from the compiled catalogue, to catch translations whose placeholders do not fit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
import scenarios_carpe_diem as scenario
from wording_checks import GERMAN_PO, german, untranslated

import card_data.games.carpe_diem.rules as cd
from card_data.engine import RuleError, Words
from card_data.games.carpe_diem.cards import SCORING_SET_PLAYERS
from card_data.loader import load_database

GAME = load_database().games["carpe_diem"]
ENGINE = cd.ENGINE



def start(options: dict | None = None) -> cd.State:
    return ENGINE.new_state(scenario.PLAYERS, options or scenario.OPTIONS, GAME)


def play(state: cd.State, events) -> cd.State:
    for event in events:
        state = ENGINE.apply(state, event)
    return state


TYPED = {"house rule", "nope"}
"""What the script's players type (a note, an unknown card id): shown as typed."""


def data_names(state: cd.State) -> set[str]:
    """Names the data or the players give, shown as written in every language."""
    names = set(state.players) | TYPED | set(SCORING_SET_PLAYERS)
    for card_id, card in GAME.cards.items():
        names |= {card_id, card.title}
    for row in state.board.layout:
        for card_id in row:
            names |= {state.card_code(card_id), state.card_label(card_id)}
    return names


def is_name(text: str, names: set[str]) -> bool:
    """A name, or names joined with ", " (the only lists built in English)."""
    return text in names or all(part in names for part in text.split(", "))


def problems(text: object, where: str, names: set[str]) -> Iterator[str]:
    """What is wrong with ``text`` as something a player reads (nothing if it is fine)."""
    return untranslated(text, where, lambda plain, _where: is_name(plain, names))


class Said:
    """Everything the engine said during the script: ``(where, text)`` pairs."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, object]] = []
        self.names: set[str] = set()

    def add(self, where: str, text: object) -> None:
        self.texts.append((where, text))

    def state(self, state: cd.State, where: str) -> None:
        """Where the game stands and every form the rules allow now."""
        self.names |= data_names(state)
        self.add(f"{where} summary", state.summary())
        self.add(f"{where} status", state.status())
        out = ENGINE.outcome(state)
        self.add(f"{where} outcome summary", out.summary)
        self.add(f"{where} score label", out.score_label)
        for seat in range(len(state.players)):
            self.add(f"{where} bar space {seat}", state.bar_line(seat))
        for thing in cd.OWNED_NAMES:
            self.add(f"{where} thing title {thing}", state.thing_title(thing))
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
                for choice in field.choices:
                    if not isinstance(choice.value, int):
                        self.add(f"{at} field {field.name} choice {choice.value}", choice.label)
                    if choice.note:
                        self.add(f"{at} field {field.name} choice {choice.value} note", choice.note)

    def game(self, state: cd.State, events, where: str) -> cd.State:
        """Play ``events`` from ``state``, noting each state and history line."""
        self.state(state, f"{where} start")
        for i, event in enumerate(events):
            step = ENGINE.step(state, event)
            event_type = event["type"] if isinstance(event, dict) else type(event).type_name
            self.add(f"{where} line {i} ({event_type})", step.line)
            state = step.state
            self.state(state, f"{where} after {i}")
        return state

    def refusal(self, state: cd.State, event, where: str) -> RuleError:
        with pytest.raises(RuleError) as caught:
            ENGINE.apply(state, event)
        self.add(f"refusal {where} rule", caught.value.rule)
        self.add(f"refusal {where} message", caught.value.message)
        return caught.value


def building_events() -> list:
    """Phase 1 with every building reward and holdings event, then its last round."""
    return [
        cd.SetResources(seat=0, herbs=2, fish=1, coins=2, bread=2),
        cd.SetResources(seat=0, herbs=2),  # unchanged
        cd.CompleteLandscape(seat=0, kind="pond", tiles=3, ware="fish"),
        cd.CompleteLandscape(seat=0, kind="garden", tiles=2, ware="herbs"),
        cd.CompleteLandscape(seat=1, kind="other", tiles=4, ware="chicken"),
        cd.CompleteLandscape(seat=1, kind="other", tiles=2, ware="grapes"),
        cd.CompleteDwelling(seat=0, dwelling="merchant"),
        cd.CompleteDwelling(seat=0, dwelling="baker"),
        cd.CompleteDwelling(seat=1, dwelling="administrator"),
        cd.CompleteDwelling(seat=1, dwelling="craftsman"),
        cd.CompleteVilla(seat=0, chimneys=4),
        cd.PlaceBuilding(seat=0, building="market"),
        cd.PlaceBuilding(seat=0, building="bakery"),
        cd.PlaceBuilding(seat=0, building="fountain", fountain_card="fountain-gardens"),
        cd.PlaceBuilding(seat=1, building="fountain"),
        cd.BanderoleMove(seat=1, spaces=1),
        cd.AdjustVictoryPoints(seat=0, change=2, note="house rule"),
        cd.AdjustVictoryPoints(seat=1, change=-1),
        *[cd.RoundPlayed()] * GAME.tables.phases.rounds_per_phase,
    ]


def refusals(said: Said) -> None:
    """One refusal of each kind the rules give, at the point of the game where it can happen."""
    events = scenario.EVENTS
    rounds = start()
    scoring = play(start(), events[:6])  # scoring period 1, Anna first
    final = play(start(), events[:-2])  # final scoring, nobody entered yet
    anna_done = play(start(), events[:-1])
    over = play(start(), events)
    layout_ids = [c for row in scoring.board.layout for c in row]
    not_beside = next(c for c in layout_ids if c not in scoring.circle(5).cards)
    cases = [
        ("landscape size", rounds, cd.CompleteLandscape(seat=0, kind="pond", tiles=9, ware="fish")),
        ("market unpaid", rounds, cd.PlaceBuilding(seat=0, building="market")),
        ("bakery unpaid", rounds, cd.PlaceBuilding(seat=0, building="bakery")),
        ("market card", rounds, cd.PlaceBuilding(seat=0, building="market", fountain_card="fountain-gardens")),
        ("bakery card", rounds, cd.PlaceBuilding(seat=0, building="bakery", fountain_card="fountain-gardens")),
        ("unknown fountain", rounds, cd.PlaceBuilding(seat=0, building="fountain", fountain_card="nope")),
        ("no holdings", rounds, cd.SetResources(seat=0)),
        ("score in rounds", rounds, cd.Score(seat=0, circle=1)),
        ("final in rounds", rounds, cd.FinalScore(seat=0)),
        ("landscape in scoring", scoring, cd.CompleteLandscape(seat=0, kind="pond", tiles=2, ware="fish")),
        ("dwelling in scoring", scoring, cd.CompleteDwelling(seat=0, dwelling="baker")),
        ("villa in scoring", scoring, cd.CompleteVilla(seat=0, chimneys=3)),
        ("market in scoring", scoring, cd.PlaceBuilding(seat=0, building="fountain")),
        ("bar in scoring", scoring, cd.BanderoleMove(seat=0, spaces=1)),
        ("round in scoring", scoring, cd.RoundPlayed()),
        ("phase in scoring", scoring, cd.PhaseEnded()),
        ("must wait", scoring, cd.Score(seat=1, circle=2)),
        ("no such circle", scoring, cd.Score(seat=0, circle=99)),
        ("not beside", scoring, cd.Score(seat=0, circle=5, first_card=not_beside, completed_villa=1)),
        ("bread and times", scoring, cd.Score(seat=0, circle=5, bread_first=True, times_first=1)),
        ("no bread", scoring, cd.Score(seat=0, circle=5, bread_first=True, completed_villa=1)),
        ("red too often", scoring, cd.Score(seat=0, circle=5, times_first=5, completed_villa=1)),
        ("green times", scoring, cd.Score(seat=0, circle=5, times_second=1, completed_villa=1)),
        ("green counts missing", scoring, cd.Score(seat=0, circle=4)),
        ("already scored", play(scoring, events[6:7]), cd.Score(seat=0, circle=1)),
        ("circle taken", play(start(), events[:scenario.ILLEGAL[0]]), scenario.ILLEGAL[1]),
        ("score in final", final, cd.Score(seat=0, circle=1)),
        ("round in final", final, cd.RoundPlayed()),
        ("villa in final", final, cd.CompleteVilla(seat=0, chimneys=3)),
        ("bar in final", final, cd.BanderoleMove(seat=0, spaces=1)),
        ("villas recorded", final, cd.FinalScore(seat=0, completed_villa=3)),
        ("villas listed", final, cd.FinalScore(seat=0, villa_chimneys=(3,), completed_villa=2)),
        ("chimneys", final, cd.FinalScore(seat=0, chimney=2)),
        ("fountain card", final, cd.FinalScore(seat=0, fountain_cards=("nope",))),
        ("frame goal", final, cd.FinalScore(seat=0, frame_goals=("market",))),
        ("final twice", anna_done, cd.FinalScore(seat=0)),
        ("leftovers scored", anna_done, cd.SetResources(seat=0, coins=1)),
        ("game over", over, cd.RoundPlayed()),
    ]
    for where, state, event in cases:
        said.refusal(state, event, where)
    with pytest.raises(RuleError) as caught:
        ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, dataclasses.replace(GAME, decks={}))
    said.add("refusal no scoring set rule", caught.value.rule)
    said.add("refusal no scoring set message", caught.value.message)
    circles = GAME.tables.circle_spaces.model_copy(update={"p2": 99})
    with pytest.raises(RuleError) as caught:
        ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS,
                         dataclasses.replace(GAME, tables=GAME.tables.model_copy(update={"circle_spaces": circles})))
    said.add("refusal layout rule", caught.value.rule)
    said.add("refusal layout message", caught.value.message)


@pytest.fixture(scope="module")
def said() -> Said:
    said = Said()
    over = said.game(start(), scenario.EVENTS, "scenario")
    said.game(start(), building_events(), "buildings")
    # Tied winners under either tie-breaker (the summary names it).
    for option in ("summary", "rulebook"):
        finished = play(start({"tie_breaker": option}), scenario.EVENTS)
        tied = cd.with_sheet(finished, 1, vp=finished.sheets[0].vp)
        said.add(f"tied summary ({option})", tied.summary())
    said.add("final summary", over.summary())
    refusals(said)
    return said


def test_the_script_covers_every_kind_of_text(said):
    """The script reaches what the checks below are about (a check of nothing cannot fail)."""
    kinds = {where.split(" ")[0] for where, _ in said.texts}
    assert {"scenario", "buildings", "refusal", "tied", "final"} <= kinds
    lines = [text for where, text in said.texts if " line " in where]
    assert len(lines) == len(scenario.EVENTS) + len(building_events())
    assert sum(where.startswith("refusal") for where, _ in said.texts) == 2 * 40
    fields = {where.split(" field ")[1].split(" ")[0] for where, _ in said.texts if " field " in where}
    assert {"first_card", "times_first", "bread_second", "building", "dwelling", "kind", "ware", "tiles", "fountain_cards",
            "frame_goals", "change", "note", "completed_villa"} <= fields


def test_everything_said_is_translated_words(said):
    """Every text is Words translated in the German catalogue, names from the data excepted."""
    wrong = [p for where, text in said.texts for p in problems(text, where, said.names)]
    assert wrong == []


def test_everything_said_fills_in_german(said):
    """Each text fills in German (placeholders fit) and, where its words differ, reads differently."""
    for where, text in said.texts:
        if not isinstance(text, Words):
            continue
        in_german = german(text)
        assert "%(" not in in_german, where
        if GERMAN_PO.get(text.template, text.template) != text.template:
            assert in_german != text, (where, text)


def test_history_lines_and_refusals_read_german(said):
    """Spot checks: a line, a refusal and a form read as a German player expects."""
    texts = dict(said.texts)
    assert german(texts["scenario line 0 (round_played)"]) == "Runde 1 von Phase 1 gespielt"
    assert german(texts["refusal must wait message"]) == "Bea muss warten: Anna ist mit Werten dran"
    assert german(texts["refusal green counts missing message"]).startswith(
        "trage ein, wie viele du besitzt von: Schornstein (für ")
    assert german(texts["buildings line 2 (complete_landscape)"]) == (
        "Anna hat einen Teich aus 3 Plättchen fertiggestellt: +2 Fische (Fische 1 → 3); "
        "fertiggestellte Landschaften 1, fertiggestellte Teiche 1")
    assert german(texts["scenario start counter"]).startswith("SP von ")
