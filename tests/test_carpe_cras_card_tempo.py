"""Carpe Cras's Tempo helper from the cards, through the table page: the striker and the target
chosen by title among the game's unit and upgrade cards, their stats worked out by the engine
(card_data/games/carpe_cras/tempo.py) and shown as the rulebook tells Example 1 (Upgrades:
"Dagger on Royal Scout: Knife 4, +1 range, speed 4; Sword stays 2"). Plain form posts in a
fresh app (no JavaScript), one check in Chromium at phone size, and refusals of a bad card id."""

from __future__ import annotations

import re

import pytest
import scenarios_carpe_cras as scenario
from bs4 import BeautifulSoup

UPTO = 4
"""The scenario's entries up to round 1's start: the helper is offered from then on."""
EXAMPLE_1 = {"type": "card_tempo", "seat": 1, "check": "dodge", "striker": "royal-scout",
             "striker_upgrades": ["dagger"], "skill": "Knife", "target": "barbarian-tyro"}
"""Blue's Barbarian Tyro tries to dodge Red's Royal Scout holding a Dagger, striking with its Knife."""
SCOUT_WITH_DAGGER = "Royal Scout with Dagger (Speed 4; Knife: power 4, range 2; Sword: power 2, range 1)"
DE = {"Accept-Language": "de"}


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


def start(client) -> tuple[str, str]:
    """A Carpe Cras table in round 1 (the scenario's first entries through the API): its page
    URL and code."""
    response = client.post("/tables/new/carpe_cras", data={"players[]": scenario.PLAYERS, **scenario.OPTIONS})
    assert response.status_code == 303
    url = response.headers["Location"]
    code = re.search(r'class="table-code">([A-Z0-9]{6})<', client.get(url).get_data(as_text=True)).group(1)
    for event in scenario.EVENTS[:UPTO]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    return url, code


def as_form(event: dict) -> dict:
    """``event`` as the page's form posts it (lists as ``name[]``)."""
    return {(f"{k}[]" if isinstance(v, list) else k): ([str(i) for i in v] if isinstance(v, list) else str(v))
            for k, v in event.items()}


def refusal_text(html: str) -> str:
    return " ".join(BeautifulSoup(html, "html.parser").select_one("#rule-error").text.split())


def helper_form(html: str):
    return BeautifulSoup(html, "html.parser").select_one('form:has(input[name="type"][value="card_tempo"])')


def test_the_helper_offers_the_games_units_and_upgrades_by_title(client):
    url, _code = start(client)
    form = helper_form(client.get(url).get_data(as_text=True))
    assert form is not None
    strikers = {o["value"]: o.text for o in form.select('select[name="striker"] option')}
    assert strikers["royal-scout"] == "Royal Scout" and strikers["barbarian-tyro"] == "Barbarian Tyro"
    assert "dagger" not in strikers  # an upgrade is not a striker
    targets = {o["value"] for o in form.select('select[name="target"] option')}
    assert targets == set(strikers)
    upgrades = {box["value"]: box.parent.text.strip() for box in form.select('input[name="striker_upgrades[]"]')}
    assert upgrades["dagger"] == "Dagger" and "royal-scout" not in upgrades
    assert {o["value"] for o in form.select('select[name="skill"] option')} >= {"Knife", "Sword"}


def test_example_1_through_the_page_without_javascript(client):
    """A plain form post (post/redirect/get): the page shows Royal Scout with the Dagger as
    Example 1 has it, and the Tempo check made with its speed 4 (the Dagger's +1)."""
    url, code = start(client)
    response = client.post(f"{url}/events", data=as_form(EXAMPLE_1))
    assert response.status_code == 303 and response.headers["Location"] == url
    page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    cards = page.select_one("#cc-last-tempo-cards").text
    assert f"Striker: {SCOUT_WITH_DAGGER}, striking with Knife" in " ".join(cards.split())
    assert "Target: Barbarian Tyro (Speed 2; Sword: power 2, range 1)" in " ".join(cards.split())
    # The Tyro (speed 2) dodging the Scout (speed 4 with the Dagger): differential -2, no roll.
    assert "speed 2 vs 4, differential -2" in " ".join(page.select_one("#cc-last-tempo").text.split())
    history = client.get(f"/api/tables/{code}/events").get_json()["events"][-1]["text"]
    assert SCOUT_WITH_DAGGER in history and "no roll needed: success impossible" in history
    # Without the Dagger the Scout strikes at its printed speed 3 and Knife 2.
    bare = {**EXAMPLE_1, "striker_upgrades": []}
    del bare["striker_upgrades"]  # no box ticked: the form sends nothing for it
    assert client.post(f"{url}/events", data=as_form(bare)).status_code == 303
    cards = " ".join(BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
                     .select_one("#cc-last-tempo-cards").text.split())
    assert "Striker: Royal Scout (Speed 3; Knife: power 2, range 1; Sword: power 2, range 1)" in cards


def test_example_1_on_a_german_page(client):
    url, _code = start(client)
    form = helper_form(client.get(url, headers=DE).get_data(as_text=True))
    labels = " ".join(form.text.split())
    assert "Angreifer" in labels and "Aufwertungen des Angreifers" in labels and "Schlägt mit" in labels
    assert client.post(f"{url}/events", data=as_form(EXAMPLE_1), headers=DE).status_code == 303
    cards = " ".join(BeautifulSoup(client.get(url, headers=DE).get_data(as_text=True), "html.parser")
                     .select_one("#cc-last-tempo-cards").text.split())
    assert ("Angreifer: Royal Scout mit Dagger (Geschwindigkeit 4; Knife: Stärke 4, Reichweite 2; "
            "Sword: Stärke 2, Reichweite 1), schlägt mit Knife") in cards


@pytest.mark.parametrize("field, value", [("striker", "no-such-unit"), ("target", "dagger"),
                                          ("striker_upgrades", ["royal-scout"])])
def test_a_card_id_the_game_lacks_is_refused_with_a_message(client, field, value):
    """An id that is not one of the game's unit (or upgrade) cards: HTTP 400 naming the field,
    from the page (htmx) and from the API; a plain post shows it on the page; nothing is recorded."""
    url, code = start(client)
    bad = {**EXAMPLE_1, field: value}
    fragment = client.post(f"{url}/events", data=as_form(bad), headers={"HX-Request": "true"})
    assert fragment.status_code == 400
    said = refusal_text(fragment.get_data(as_text=True))
    shown = value[0] if isinstance(value, list) else value
    kind = "an upgrade card" if field.endswith("upgrades") else "a unit or hero card"
    assert f"{field}: '{shown}' is not {kind} of this game" in said
    api = client.post(f"/api/tables/{code}/events", json=bad)
    assert api.status_code == 400 and api.get_json()["errors"][0]["field"] == field
    assert client.post(f"{url}/events", data=as_form(bad)).status_code == 303
    shown_page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser").select_one("#rule-error").text
    assert f"'{shown}' is not {kind} of this game" in shown_page
    assert len(client.get(f"/api/tables/{code}/events").get_json()["events"]) == UPTO


def test_a_skill_the_striker_lacks_is_refused_by_the_rules(client):
    url, _code = start(client)
    fragment = client.post(f"{url}/events", data=as_form({**EXAMPLE_1, "skill": "Bite"}),
                           headers={"HX-Request": "true"})
    assert fragment.status_code == 422
    said = refusal_text(fragment.get_data(as_text=True))
    assert "Royal Scout has no Bite skill with these upgrades (it has: Knife, Sword)" in said


def test_example_1_in_chromium_on_a_phone(browser, server):
    """At 390 x 844: the helper's form filled as a player would (selects by title, a box ticked),
    the result on the page as Example 1 tells it; axe finds nothing on the page."""
    from phones import PHONE, fill_event_form, new_table
    from test_accessibility import AXE, axe_violations

    table = new_table(server, "carpe_cras", UPTO)
    context = browser.new_context(**PHONE)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.goto(f"{server}/t/{table['token']}")
    fill_event_form(page, EXAMPLE_1)
    page.wait_for_selector(f'#live[data-version="{UPTO + 1}"]')
    cards = " ".join(page.locator("#cc-last-tempo-cards").inner_text().split())
    assert f"Striker: {SCOUT_WITH_DAGGER}, striking with Knife" in cards
    assert axe_violations(page) == []
    context.close()


def test_a_german_page_says_the_titles_the_data_translates(scorekeeper_app, client):
    """Where the game's data translates a card's title (``translations/de.yaml``; Carpe Cras ships
    none yet, so the test gives the app's database one), a German page offers and tells the card
    by it; the values sent stay the card ids."""
    from pathlib import Path

    from card_data.editions.translations import Translation
    from companion.cards.catalog import get_database

    with scorekeeper_app.app_context():
        game = get_database().games["carpe_cras"]
        game.translations = {**game.translations, "de": Translation(
            language="de", path=Path("de.yaml"),
            cards={"royal-scout": {"title": "Königlicher Späher"}, "dagger": {"title": "Dolch"}})}
    url, _code = start(client)
    form = helper_form(client.get(url, headers=DE).get_data(as_text=True))
    assert form.select_one('select[name="striker"] option[value="royal-scout"]').text == "Königlicher Späher"
    assert form.select_one('input[name="striker_upgrades[]"][value="dagger"]').parent.text.strip() == "Dolch"
    assert client.post(f"{url}/events", data=as_form(EXAMPLE_1), headers=DE).status_code == 303
    cards = " ".join(BeautifulSoup(client.get(url, headers=DE).get_data(as_text=True), "html.parser")
                     .select_one("#cc-last-tempo-cards").text.split())
    assert "Angreifer: Königlicher Späher mit Dolch (Geschwindigkeit 4; Knife: Stärke 4, Reichweite 2;" in cards
    english = " ".join(BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
                       .select_one("#cc-last-tempo-cards").text.split())
    assert f"Striker: {SCOUT_WITH_DAGGER}" in english
