"""Carpe Diem's final scoring with the VP printed on the players' boards where the data assumes
them (2018 rulebook, Final scoring: "Completed villas score by their chimney count from a table
on the overview board (legible points: 3 chimneys = 3 VP, 5 chimneys = 7 VP)"; "Banderole bar:
the VP printed on the space under the disc (values not legible)").

tables.yaml marks every banderole bar row and 6 of the 8 villa rows ``assumed``. A player may
enter the figure printed on their board for those rows (the final-scoring form offers them,
pre-filled with the assumed figure); the engine scores the figure entered, refuses one for a row
the rulebook gives, and bounds it. Engine scenarios, then the page (plain form posts, a fresh
app per test).
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from bs4 import BeautifulSoup

import card_data.games.carpe_diem.rules as cd
from card_data.engine import RuleError
from card_data.games.carpe_diem.rules.printed_vp import MOST_PRINTED_VP
from card_data.loader import load_database
from card_data.problems import InvalidInput

GAME = load_database().games["carpe_diem"]
TABLES = GAME.tables
ENGINE = cd.ENGINE
ASSUMED_VILLAS = tuple(r for r in TABLES.villa_chimneys.rows if r.assumed)
DE = {"Accept-Language": "de"}


def final_stage(game=GAME, *before):
    """Anna and Bea after the fourth scoring period (every card failed), ``before`` entered in
    phase 1."""
    state = ENGINE.new_state(["Anna", "Bea"], {}, game)
    for event in before:
        state = ENGINE.apply(state, event)
    zero = {thing: 0 for thing in cd.OWNED_NAMES}
    for _ in range(TABLES.phases.count):
        state = ENGINE.apply(state, cd.PhaseEnded())
        for _ in range(2):
            state = ENGINE.apply(state, cd.Score(seat=state.next_to_score(), circle=state.free_circles()[0].number,
                                                 **zero))
    return state


ANNAS_GAME = (cd.CompleteVilla(seat=0, chimneys=4), cd.CompleteVilla(seat=0, chimneys=5),
              cd.BanderoleMove(seat=0, spaces=4))
"""Anna completes a villa of 4 chimneys (an assumed row) and one of 5 (the rulebook's 7 VP), and
ends on banderole bar space 4 (assumed)."""


def test_the_data_still_assumes_what_the_issue_says():
    """The premise: every banderole bar row and 6 of 8 villa rows are assumed; 3 and 5 chimneys
    are the rulebook's."""
    assert all(r.assumed for r in TABLES.banderole_bar.rows)
    assert len(ASSUMED_VILLAS) == 6 and len(TABLES.villa_chimneys.rows) == 8
    assert {(r.chimneys, r.vp) for r in TABLES.villa_chimneys.rows if not r.assumed} == {(3, 3), (5, 7)}


def test_the_figures_printed_on_the_board_are_scored__final_scoring():
    state = final_stage(GAME, *ANNAS_GAME)
    assumed = ENGINE.apply(state, cd.FinalScore(seat=0)).sheets[0].final
    assert assumed.villas == TABLES.villa_chimneys.vp(4) + 7
    assert assumed.banderole_bar == TABLES.banderole_bar.vp(4)
    # The board at this table prints 6 VP for 4 chimneys and 2 VP on space 4.
    step = ENGINE.step(state, cd.FinalScore(seat=0, printed_villa_chimneys=(4,), printed_villa_vp=(6,),
                                            banderole_vp=2))
    final = step.state.sheets[0].final
    assert (final.villas, final.banderole_bar) == (6 + 7, 2)
    assert step.state.sheets[0].vp == state.sheets[0].vp + final.total
    assert "villas +13" in step.line and "banderole bar +2" in step.line
    # The whole assumed table entered, as the form sends it: only the rows Anna's villas use count.
    figures = {r.chimneys: r.vp for r in ASSUMED_VILLAS} | {4: 8}
    whole = ENGINE.apply(state, cd.FinalScore(seat=0, printed_villa_chimneys=tuple(figures),
                                              printed_villa_vp=tuple(figures.values())))
    assert whole.sheets[0].final.villas == 8 + 7
    # A villa with more chimneys than the last row scores the last row's entered figure.
    big = final_stage(GAME, cd.CompleteVilla(seat=1, chimneys=12))
    last = TABLES.villa_chimneys.rows[-1].chimneys
    assert ENGINE.apply(big, cd.FinalScore(seat=1, printed_villa_chimneys=(last,), printed_villa_vp=(20,))) \
        .sheets[1].final.villas == 20


@pytest.mark.parametrize("fields, words", [
    ({"printed_villa_chimneys": [5], "printed_villa_vp": [9]}, "5 chimneys = 7 VP is the rulebook's figure"),
    ({"printed_villa_chimneys": [3], "printed_villa_vp": [4]}, "3 chimneys = 3 VP is the rulebook's figure"),
    ({"printed_villa_chimneys": [4, 6], "printed_villa_vp": [6]}, "1 villa VP entered for 2 chimney counts"),
    ({"printed_villa_chimneys": [4, 4], "printed_villa_vp": [6, 6]}, "the VP for 4 chimneys was entered twice"),
    ({"printed_villa_chimneys": [9], "printed_villa_vp": [15]}, "the villa table has no row for 9 chimneys"),
])
def test_only_assumed_rows_are_entered__final_scoring(fields, words):
    state = final_stage(GAME, *ANNAS_GAME)
    with pytest.raises(RuleError) as refused:
        ENGINE.apply(state, {"type": "final_score", "seat": 0, **fields})
    assert "Final scoring" in refused.value.rule and words in refused.value.message
    assert 0 not in state.scored


def test_a_rows_own_figure_is_taken_once_the_data_gives_it__final_scoring():
    """A final scoring sent with the assumed figures left as they were keeps its reading once the
    data takes those rows from the rulebook (a stored table folds again with the new data)."""
    state = final_stage(GAME, *ANNAS_GAME)
    sent = cd.FinalScore(seat=0, printed_villa_chimneys=(3, 4), printed_villa_vp=(3, TABLES.villa_chimneys.vp(4)))
    assert ENGINE.apply(state, sent).sheets[0].final.villas == TABLES.villa_chimneys.vp(4) + 7


def test_a_banderole_figure_the_data_takes_from_the_rulebook_is_not_entered__final_scoring():
    legible = TABLES.banderole_bar.model_copy(update={"rows": [
        r.model_copy(update={"assumed": False}) for r in TABLES.banderole_bar.rows]})
    game = dataclasses.replace(GAME, tables=TABLES.model_copy(update={"banderole_bar": legible}))
    state = final_stage(game, *ANNAS_GAME)
    own = TABLES.banderole_bar.vp(4)
    assert ENGINE.apply(state, cd.FinalScore(seat=0, banderole_vp=own)).sheets[0].final.banderole_bar == own
    with pytest.raises(RuleError) as refused:
        ENGINE.apply(state, cd.FinalScore(seat=0, banderole_vp=own + 1))
    assert refused.value.message == "the data's VP for banderole bar space 4 is not assumed: it cannot be entered"
    (move,) = [m for m in ENGINE.allowed(state, 0) if m.event is cd.FinalScore]
    assert move.field("banderole_vp") is None and move.fixed["banderole_vp"] is None


@pytest.mark.parametrize("fields", [{"banderole_vp": MOST_PRINTED_VP + 1}, {"banderole_vp": -MOST_PRINTED_VP - 1},
                                    {"printed_villa_chimneys": [4], "printed_villa_vp": [10 ** 6]}])
def test_a_figure_entered_is_bounded(fields):
    with pytest.raises(InvalidInput):
        ENGINE.parse_event({"type": "final_score", "seat": 0, **fields})


def test_the_form_offers_the_assumed_rows_prefilled_and_labelled():
    state = final_stage(GAME, *ANNAS_GAME)
    (move,) = [m for m in ENGINE.allowed(state, 0) if m.event is cd.FinalScore]
    villas = move.field("printed_villa_vp")
    assert move.fixed["printed_villa_chimneys"] == tuple(r.chimneys for r in ASSUMED_VILLAS)
    assert villas.kind == "multi" and villas.count == 6 and villas.default == tuple(r.vp for r in ASSUMED_VILLAS)
    assert [str(label) for label in villas.item_labels] == [f"{r.chimneys} chimneys (assumed figure)"
                                                            for r in ASSUMED_VILLAS]
    assert "Assumed in the data (tables.yaml, villa_chimneys)" in villas.help
    bar = move.field("banderole_vp")
    assert bar.default == TABLES.banderole_bar.vp(4) and "space 4 (assumed figure)" in bar.label
    assert "Assumed in the data (tables.yaml, banderole_bar)" in bar.help
    assert (bar.minimum, bar.maximum) == (-MOST_PRINTED_VP, MOST_PRINTED_VP)


# --- the page ----------------------------------------------------------------------------------------


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


def at_the_final_scoring(client) -> tuple[str, str]:
    """A Carpe Diem table (through the API) at its final scoring, Anna's villas and disc as in
    :data:`ANNAS_GAME`: its page URL and code."""
    created = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "Bea"]}).get_json()
    url, code = f"/t/{created['token']}", created["code"]
    events = [*ANNAS_GAME]
    zero = {thing: 0 for thing in cd.OWNED_NAMES}
    state = ENGINE.new_state(["Anna", "Bea"], {}, GAME)
    for event in ANNAS_GAME:
        state = ENGINE.apply(state, event)
    for _ in range(TABLES.phases.count):  # as final_stage, keeping the events to send
        events.append(cd.PhaseEnded())
        state = ENGINE.apply(state, events[-1])
        for _ in range(2):
            events.append(cd.Score(seat=state.next_to_score(), circle=state.free_circles()[0].number, **zero))
            state = ENGINE.apply(state, events[-1])
    for event in events:
        assert client.post(f"/api/tables/{code}/events", json=event.to_json()).status_code == 200
    return url, code


def annas_form(html: str):
    page = BeautifulSoup(html, "html.parser")
    return page.select_one('form[data-event="final_score"][data-seat="0"]')


def test_the_page_offers_the_assumed_figures_and_scores_the_ones_entered(client):
    """Without JavaScript: the form shows the assumed rows pre-filled and labelled; Anna types
    the figures printed on her board (4 chimneys: 6 VP; space 4: 2 VP); the page's sheet shows
    them scored."""
    url, code = at_the_final_scoring(client)
    form = annas_form(client.get(url).get_data(as_text=True))
    villa_inputs = form.select('input[name="printed_villa_vp[]"]')
    assert [i["value"] for i in villa_inputs] == [str(r.vp) for r in ASSUMED_VILLAS]
    labels = [" ".join(i.parent.text.split()) for i in villa_inputs]
    assert labels == [f"{r.chimneys} chimneys (assumed figure)" for r in ASSUMED_VILLAS]
    assert [h["value"] for h in form.select('input[type="hidden"][name="printed_villa_chimneys[]"]')] == \
        [str(r.chimneys) for r in ASSUMED_VILLAS]
    bar = form.select_one('input[name="banderole_vp"]')
    assert bar["value"] == str(TABLES.banderole_bar.vp(4)) and (bar["min"], bar["max"]) == ("-99", "99")
    assert "space 4 (assumed figure)" in bar.parent.text and "tables.yaml, banderole_bar" in bar.parent.text
    assert "tables.yaml, villa_chimneys" in form.text

    posted = {i["name"]: i["value"] for i in form.select('input[type="hidden"]') if not i["name"].endswith("[]")}
    posted["printed_villa_chimneys[]"] = [str(r.chimneys) for r in ASSUMED_VILLAS]
    posted["printed_villa_vp[]"] = [str(6 if r.chimneys == 4 else r.vp) for r in ASSUMED_VILLAS]
    posted["banderole_vp"] = "2"
    response = client.post(f"{url}/events", data=posted)
    assert response.status_code == 303
    line = client.get(f"/api/tables/{code}/events").get_json()["events"][-1]["text"]
    assert "Anna's final scoring: villas +13," in line and "banderole bar +2," in line
    too_big = {**posted, "seat": "1", "banderole_vp": str(MOST_PRINTED_VP + 1)}
    assert client.post(f"{url}/events", data=too_big, headers={"HX-Request": "true"}).status_code == 400


def test_the_german_page_says_where_the_data_is_assumed(client):
    url, _code = at_the_final_scoring(client)
    form = annas_form(client.get(url, headers=DE).get_data(as_text=True))
    text = " ".join(form.text.split())
    assert "In den Daten angenommen (tables.yaml, villa_chimneys)" in text
    assert "In den Daten angenommen (tables.yaml, banderole_bar)" in text
    assert "4 Schornsteine (angenommener Wert)" in text
    assert re.search(r"Gedruckte SP auf Feld 4 der Banderolenleiste \(angenommener Wert\)", text)
