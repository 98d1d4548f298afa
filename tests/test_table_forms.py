"""The table page's forms hold every move of a real game: for each event of each game's
scenario, the page served just before it has a form that posts that event (its hidden
``type`` and fixed values match, every value the player gives has an input there, a choice
among the offered options); the event is then posted as that form would post it. The page
is read with an HTML parser, so this runs without a browser."""

from __future__ import annotations

import importlib
import re

import pytest
from bs4 import BeautifulSoup

from card_data.games import registry

GAMES = ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()



def _text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def form_for(page: BeautifulSoup, event: dict):
    """The form posting ``event``: same hidden type, hidden values agreeing with the event."""
    for form in page.select("form"):
        hidden = _fixed(form)
        if form.select_one('input[name="type"]') is None or form.select_one('input[name="type"]')["value"] != event["type"]:
            continue
        fixed = {name.removesuffix("[]"): values for name, values in hidden.items() if name != "type"}
        if form.get("id") == "retry-form":
            continue
        if all(_matches(event.get(name), values) for name, values in fixed.items()):
            return form
    return None


def _fixed(form) -> dict[str, list[str]]:
    """The form's hidden values, but for page plumbing and the "no" behind a checkbox."""
    shown = {f.get("name") for f in form.select("input, select, textarea") if f.get("type") != "hidden"}
    fixed: dict[str, list[str]] = {}
    for field in form.select('input[type="hidden"]'):
        if field["name"] not in shown and not field["name"].startswith("_") and field["name"] != "csrf_token":
            fixed.setdefault(field["name"], []).append(field.get("value", ""))
    return fixed


def _matches(value, posted: list[str]) -> bool:
    values = value if isinstance(value, list) else [value]
    return [_text(v).lower() for v in values if v is not None] == [p.lower() for p in posted]


def post_data(form, event: dict) -> dict:
    """What the browser sends when a person fills ``form`` with ``event``'s values; asserts the
    form has an input for each value and that a choice is among its options."""
    data: dict = {name: values for name, values in _fixed(form).items()}
    for field in form.select('input[type="hidden"]'):
        if field["name"].startswith("_") or field["name"] == "csrf_token":
            data[field["name"]] = [field.get("value", "")]
    for key, value in event.items():
        if key == "type" or value is None or (f"{key}[]" in data or key in data):
            continue
        values = value if isinstance(value, list) else [value]
        inputs = form.select(f'[name="{key}[]"]') or form.select(f'[name="{key}"]')
        if not inputs:
            assert value in ("", []), f"no input for {key}={value!r}"
            continue
        name = inputs[0]["name"]
        kinds = {i.name + ":" + i.get("type", "") for i in inputs}
        if "select:" in kinds:
            for select, v in zip(inputs, values):
                offered = [o.get("value", "") for o in select.select("option")]
                assert _text(v) in offered, f"{key}: {v!r} is not among {offered}"
            data[name] = [_text(v) for v in values]
        elif kinds & {"input:radio", "input:checkbox"}:
            offered = [i.get("value", "") for i in inputs]
            assert all(_text(v) in offered for v in values), f"{key}: {values!r} not among {offered}"
            data[name] = [_text(v) for v in values]
        else:
            data[name] = [", ".join(_text(v) for v in values)] if len(inputs) == 1 else [_text(v) for v in values]
    return data


@pytest.mark.parametrize("game", GAMES)
def test_every_scenario_event_is_entered_through_the_page_form_that_offers_it(client, game):
    s = importlib.import_module(f"scenarios_{game}")
    created = client.post("/api/tables", json={"game": game, "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    url = f"/t/{created['token']}"
    for n, event in enumerate(s.EVENTS, start=1):
        page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
        form = form_for(page, event)
        assert form is not None, f"event {n}: no form for {event}"
        assert form["action"] == f"{url}/events"
        response = client.post(form["action"], data=post_data(form, event))
        assert response.status_code == 303, (n, event, response.get_data(as_text=True)[:1500])
    final = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    assert final.select_one("#result") is not None
    assert not final.select("#moves form"), "a finished game offers no more moves"


@pytest.mark.parametrize("game", GAMES)
def test_no_rule_knowledge_in_the_page_templates(game):
    """The page's forms come from the engine: no template names an event type."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    pages = [*(root / "companion" / "templates" / "tables").glob("*.html"),
             *(root / "card_data" / "games").glob("*/table.html")]
    assert root / "card_data" / "games" / game / "table.html" in pages  # the game's own page among them
    engine = registry()[game].engine
    for path in pages:
        html = path.read_text(encoding="utf-8")
        named = [name for name in engine.events if re.search(rf'["\']{name}["\']', html)]
        assert not named, f"{path.relative_to(root)} names {game} events {named}"


def test_a_cahrd_turn_starts_with_its_recruitment_step_in_one_tap_through_the_page(client):
    """Issue 20, fewer bookkeeping taps: the page's first start of a C.A.H.R.D. turn takes the
    Recruitment Step in the same entry. The scenario's war played through the page's forms,
    each turn started with that first button, takes 33 entries where the three-entry turns took
    40, and ends as a table played the old way does (same state, result and winners)."""
    import scenarios_cahrd as s

    created = client.post("/api/tables", json={"game": "cahrd", "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    url = f"/t/{created['token']}"
    for n, event in enumerate(s.EVENTS_FEWER_TAPS, start=1):
        page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
        form = form_for(page, event)
        assert form is not None, f"event {n}: no form for {event}"
        if event["type"] == "start_turn":
            starts = [f for f in page.select("#moves form") if f.select_one('input[name="type"][value="start_turn"]')]
            first = starts[0]
            assert form is first and "Recruitment Step +" in form.get_text(), f"event {n}: not the first start"
        assert client.post(form["action"], data=post_data(form, event)).status_code == 303, (n, event)
    events = client.get(f"/api/tables/{created['code']}/events").get_json()["events"]
    assert [e["status"] for e in events] == ["active"] * 33 and len(s.EVENTS) == 40
    assert sum("Draw Step passed, nothing played" in e["text"] for e in events) == 7
    old = client.post("/api/tables", json={"game": "cahrd", "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    for event in s.EVENTS:
        assert client.post(f"/api/tables/{old['code']}/events", json=event).status_code == 200
    now, then = (client.get(f"/api/tables/{t['code']}").get_json() for t in (created, old))
    assert now["state"] == then["state"] and now["outcome"] == then["outcome"]
    assert now["outcome"]["finished"] and now["outcome"]["winners"] == s.WINNERS


def test_undo_of_a_one_tap_turn_start_takes_back_the_draw_and_the_recruitment_step(client):
    """One tap, one entry: Undo of a turn started with its Recruitment Step takes back both (the
    card drawn, the officers revealed, the reserves gained) and offers the start again."""
    import scenarios_cahrd as s

    created = client.post("/api/tables", json={"game": "cahrd", "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    code, url = created["code"], f"/t/{created['token']}"
    for event in s.EVENTS_FEWER_TAPS[:2]:  # both armies set up
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    before = client.get(f"/api/tables/{code}").get_json()["state"]
    start = s.EVENTS_FEWER_TAPS[2]
    form = form_for(BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser"), start)
    assert client.post(form["action"], data=post_data(form, start)).status_code == 303
    started = client.get(f"/api/tables/{code}").get_json()["state"]
    assert started["step"] == "strategy" and started["armies"][0]["reserves"] > 0 and started["armies"][0]["revealed"]
    page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    assert "Draw Step passed, nothing played" in page.select_one("#history li").get_text()
    undo = page.select_one("#undo-form")
    assert client.post(undo["action"], data={i["name"]: i["value"] for i in undo.select("input[type=hidden]")}
                       ).status_code == 303
    assert client.get(f"/api/tables/{code}").get_json()["state"] == before
    statuses = [e["status"] for e in client.get(f"/api/tables/{code}/events").get_json()["events"]]
    assert statuses == ["active", "active", "undone"]
    again = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    assert form_for(again, start) is not None
