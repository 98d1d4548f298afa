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
