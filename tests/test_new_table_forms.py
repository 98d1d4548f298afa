"""The forms a table is started and played with, as rendered from the engines' models: an option
whose value must be one of the game's decks is a select of the decks by title (the server still
refusing any other value, with a message and the form kept); a select offers an empty choice
only where the value may be left out, and says in words what leaving it means; a number input
is not pre-filled with a value to type over where empty stands for it (a 0 there made "2" typed
on a phone "02"), has its bounds, and a numeric keypad where it takes no negatives.

Checked on the new-table form and on every page of each bundled game's scenario (and a
declared game's), read with an HTML parser; one phone in Chromium at 390 x 844 types "2".
"""

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


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


def problems_in_forms(html: str, *, entered_values: bool = False, engine=None) -> list[str]:
    """What is wrong with the page's selects and number inputs (empty: nothing). An empty
    choice says what it means in words, and (with the game's ``engine``) is offered only for a
    value its event may leave out; a select marked required starts with an empty choice (HTML's
    rule); a number input has min and max, a numeric keypad unless it takes negatives, and no
    value that only repeats what empty stands for (its placeholder); unless ``entered_values``
    (a correction page shows what was entered), no number input holds a 0 to type over."""
    page = BeautifulSoup(html, "html.parser")
    found = []
    for select in page.select("select"):
        name = select.get("name")
        options = select.select("option")
        if select.has_attr("required") and options and options[0].get("value", "") != "":
            found.append(f"select {name}: required without an empty first choice")
        form = select.find_parent("form")
        kind = form.select_one('input[name="type"]') if form is not None else None
        event = engine.events.get(kind["value"]) if engine is not None and kind is not None else None
        info = event.model_fields.get(name.removesuffix("[]")) if event is not None else None
        needed = info is not None and info.is_required()
        for option in options:
            text = option.get_text(" ", strip=True)
            if not text or text in {"—", "-", "–"}:
                found.append(f"select {name}: an option without words: {option}")
            if option.get("value", "") == "" and needed:
                found.append(f"select {name}: its event needs a value, yet it offers an empty choice ({text!r})")
    for field in page.select('input[type="number"]'):
        name = field.get("name")
        if not (field.has_attr("min") and field.has_attr("max")):
            found.append(f"number {name}: no min/max: {field}")
        elif int(field["min"]) >= 0 and field.get("inputmode") != "numeric":
            found.append(f"number {name}: no numeric keypad: {field}")
        if field.has_attr("value") and field.has_attr("placeholder") and field["value"] == field["placeholder"]:
            found.append(f"number {name}: pre-filled with what empty stands for: {field}")
        # Carpe Diem's assumed villa rows are pre-filled with the figure the data assumes (0 VP
        # for one chimney): a printed figure to check against the board, not what empty stands
        # for (companion.js selects it on focus, so typing replaces it).
        if not entered_values and field.get("value") == "0" and name != "printed_villa_vp[]":
            found.append(f"number {name}: pre-filled with 0: {field}")
    return found


# -- the new-table form ----------------------------------------------------------------------------------


def army_decks(app) -> dict[str, str]:
    with app.app_context():
        from companion.cards.catalog import get_database

        decks = get_database().games["cahrd"].decks.values()
        return {d.id: d.title for d in decks if d.kind == "army"}


def test_the_cahrd_army_is_a_select_of_the_card_datas_army_decks_by_title(client, scorekeeper_app):
    page = BeautifulSoup(client.get("/tables/new/cahrd").text, "html.parser")
    decks = army_decks(scorekeeper_app)
    assert len(decks) >= 2
    for seat, default in ((1, "shield-wall"), (2, "swift-riders")):
        select = page.select_one(f'select[name="army_seat_{seat}"]')
        assert select is not None, f"army of seat {seat} is not a select"
        assert select.find_parent("label") is not None  # labelled
        offered = {o["value"]: o.get_text(strip=True) for o in select.select("option")}
        # Every army deck by its title, and any card; no strategy deck, no empty choice.
        assert offered == {**decks, "any": "Any officer, item and tactic of the card data"}
        assert select.select_one("option[selected]")["value"] == default
    assert not page.select('input[name^="army_seat"]')
    assert problems_in_forms(str(page)) == []


def test_the_army_choices_are_in_german_on_a_german_page(client):
    page = BeautifulSoup(client.get("/tables/new/cahrd", headers={"Accept-Language": "de"}).text, "html.parser")
    select = page.select_one('select[name="army_seat_1"]')
    assert select.select_one('option[value="any"]').get_text(strip=True) == \
        "Jeder Offizier, Gegenstand und jede Taktik der Kartendaten"
    assert "eines der Armeedecks der Kartendaten" in select.find_parent("label").text


def test_a_forged_army_is_refused_with_a_message_and_the_form_keeps_what_was_sent(client):
    sent = {"players[]": ["Red", "Blue"], "army_seat_1": "no-such-deck", "army_seat_2": "any",
            "defeat_token_to": "defeating_player"}
    answer = client.post("/tables/new/cahrd", data=sent)
    assert answer.status_code == 422
    page = BeautifulSoup(answer.text, "html.parser")
    alert = page.select_one('[role="alert"]').text
    assert "no army deck 'no-such-deck'" in alert and "shield-wall" in alert
    assert [i.get("value") for i in page.select('input[name="players[]"]')][:2] == ["Red", "Blue"]
    assert page.select_one('select[name="army_seat_2"] option[selected]')["value"] == "any"
    assert page.select_one('select[name="defeat_token_to"] option[selected]')["value"] == "defeating_player"
    # Nothing was started: the page lists no table, and a real army starts one.
    assert client.post("/tables/new/cahrd", data={**sent, "army_seat_1": "swift-riders"}).status_code == 303


@pytest.mark.parametrize("game", GAMES)
def test_the_new_table_form_offers_no_blank_choice_and_no_number_to_type_over(client, game):
    html = client.get(f"/tables/new/{game}").text
    assert problems_in_forms(html) == []
    page = BeautifulSoup(html, "html.parser")
    engine = registry()[game].engine
    for name, info in engine.options_model.model_fields.items():
        select = page.select_one(f'select[name="{name}"]')
        if select is not None:  # an option always has a value: no empty choice at all
            assert "" not in [o.get("value", "") for o in select.select("option")], name
            assert select.select_one("option[selected]")["value"] == str(info.default), name
        number = page.select_one(f'input[type="number"][name="{name}"]')
        if number is not None:  # empty stands for the default, which shows as the placeholder
            assert not number.has_attr("value") and number["placeholder"] == str(info.default), name


def test_a_number_option_left_empty_is_its_default_and_a_typed_one_is_kept(client):
    default = client.post("/tables/new/carpe_cras", data={"players[]": ["Red", "Blue"], "starting_morale": ""})
    typed = client.post("/tables/new/carpe_cras", data={"players[]": ["Red", "Blue"], "starting_morale": "2"})
    codes = [re.search(r'class="table-code">([A-Z0-9]{6})<', client.get(a.headers["Location"]).text).group(1)
             for a in (default, typed)]
    morale = [client.get(f"/api/tables/{code}").get_json()["options"]["starting_morale"] for code in codes]
    assert morale == [15, 2]


# -- the table pages' entry forms ------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_page_of_a_game_has_no_blank_dash_and_no_number_to_type_over(client, game):
    s = scenario(game)
    table = client.post("/api/tables", json={"game": game, "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    url = f"/t/{table['token']}"
    blanks, numbers = set(), set()
    for n, event in enumerate([None, *s.EVENTS]):
        if event is not None:
            assert client.post(f"/api/tables/{table['code']}/events", json=event).status_code == 200
        html = client.get(url).text
        assert problems_in_forms(html, engine=registry()[game].engine) == [], f"after event {n}"
        page = BeautifulSoup(html, "html.parser")
        blanks |= {o.get_text(strip=True) for o in page.select('#moves option[value=""]')}
        numbers |= {i["name"] for i in page.select('#moves input[type="number"]')}
    assert "None" not in blanks or game != "cahrd"  # C.A.H.R.D.'s say what an empty card or officer means
    for seq in range(1, len(s.EVENTS) + 1, 3):  # correction forms, filled with what was entered
        correction = client.get(f"{url}/events/{seq}")
        if correction.status_code == 200:
            assert problems_in_forms(correction.text, entered_values=True, engine=registry()[game].engine) == [], \
                f"correcting entry {seq}"
    if game != "cartisora":  # its moves are all picks
        assert numbers


def test_an_optional_select_says_what_leaving_it_means(client):
    s = scenario("cahrd")
    table = client.post("/api/tables", json={"game": "cahrd", "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    for event in s.EVENTS[:4]:  # both set up, Red's turn started
        assert client.post(f"/api/tables/{table['code']}/events", json=event).status_code == 200
    page = BeautifulSoup(client.get(f"/t/{table['token']}").text, "html.parser")
    form = page.select_one('form[data-event="card_effect"]')
    card = form.select_one('select[name="card"]')
    assert not card.has_attr("required")
    assert card.select("option")[0]["value"] == "" and \
        card.select("option")[0].get_text(strip=True) == "No card (a trait, a ruling, a house rule)"
    seat = form.select_one('select[name="seat"]')  # always someone: no empty choice
    assert "" not in [o.get("value", "") for o in seat.select("option")]


def test_holdings_left_empty_stay_as_they_are_and_a_typed_count_is_recorded(client):
    """Carpe Diem's holdings form shows each count as its placeholder (empty keeps it), so a
    player types only what changed, and gets the number typed."""
    s = scenario("carpe_diem")
    table = client.post("/api/tables", json={"game": "carpe_diem", "players": s.PLAYERS,
                                              "options": s.OPTIONS}).get_json()
    code, url = table["code"], f"/t/{table['token']}"
    client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 0, "grapes": 3, "coins": 5})
    page = BeautifulSoup(client.get(url).text, "html.parser")
    form = next(f for f in page.select('form[data-event="set_resources"]')
                if f.select_one('input[name="seat"]')["value"] == "0")
    grapes = form.select_one('input[name="grapes"]')
    assert not grapes.has_attr("value") and grapes["placeholder"] == "3"
    data = {i["name"]: i.get("value", "") for i in form.select("input[name]")
            if i.get("type") == "hidden" or i["name"] == "grapes"}
    data["coins"] = "2"
    assert client.post(form["action"], data=data).status_code == 303
    sheet = client.get(f"/api/tables/{code}").get_json()["state"]["sheets"][0]
    assert (sheet["grapes"], sheet["coins"]) == (3, 2)


# -- a declared game -------------------------------------------------------------------------------------


@pytest.fixture
def declared(tmp_path, monkeypatch):
    from companion import create_app
    from test_declared_scoring import GAME, make_project

    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    project = make_project(tmp_path / "quiz")
    app = create_app({"TESTING": True, "PROJECT_DIR": str(project), "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    yield app.test_client(), GAME
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_a_declared_games_forms_have_no_blank_choice_and_their_numbers_the_declared_bounds(declared):
    client, game = declared
    assert problems_in_forms(client.get(f"/tables/new/{game}").text) == []
    made = client.post(f"/tables/new/{game}", data={"players[]": ["Ann", "Bo"]})
    html = client.get(made.headers["Location"]).text
    assert problems_in_forms(html) == []
    page = BeautifulSoup(html, "html.parser")
    by = page.select_one('#moves input[type="number"][name="by"]')
    assert not by.has_attr("value") and by.has_attr("required")
    assert (int(by["min"]), int(by["max"])) == (-20, 20)  # the widest counter's span (points: 0 to 20)
    counter = page.select_one('#moves select[name="counter"]')
    assert "" not in [o.get("value", "") for o in counter.select("option")]


# -- a phone -----------------------------------------------------------------------------------------------


def test_a_phone_typing_2_into_a_number_field_records_2(browser, server):
    """At 390 x 844: the starting morale of a new Carpe Cras table (empty, its default as the
    placeholder), then a Carpe Diem entry's number pre-filled with 1 (selected on focus): "2"
    typed is 2 recorded, not "02" or "12"."""
    from phones import ARTIFACTS, PHONE

    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server}/tables/new/carpe_cras")
    page.locator('input[name="players[]"]').nth(0).fill("Red")
    page.locator('input[name="players[]"]').nth(1).fill("Blue")
    morale = page.locator('input[name="starting_morale"]')
    morale.tap()
    page.keyboard.type("2")
    assert morale.input_value() == "2"
    page.screenshot(path=str(ARTIFACTS / "new-table-number-typed.png"))
    page.get_by_role("button", name="Start the table").tap()
    page.wait_for_url("**/t/*")
    code = page.locator(".table-code").first.inner_text().strip()
    assert page.request.get(f"{server}/api/tables/{code}").json()["options"]["starting_morale"] == 2

    from phones import api

    s = scenario("carpe_diem")
    table = api(server, "/api/tables", {"game": "carpe_diem", "players": s.PLAYERS, "options": s.OPTIONS})
    page.goto(f"{server}/t/{table['token']}")
    form = page.locator('form[data-event="banderole_move"]').first
    form.locator("xpath=ancestor::details").locator("summary").tap()
    spaces = form.locator('input[name="spaces"]')
    assert spaces.input_value() == "1"
    spaces.tap()
    page.keyboard.type("2")
    assert spaces.input_value() == "2"
    form.locator('button[type="submit"]').tap()
    for _ in range(250):  # a guard against a hang, not a timing
        events = page.request.get(f"{server}/api/tables/{table['code']}/events").json()["events"]
        if events:
            break
        page.wait_for_timeout(20)
    assert events[-1]["payload"]["spaces"] == 2
    context.close()


def test_without_javascript_a_phone_typing_2_into_an_empty_number_field_records_2(browser, server):
    from phones import PHONE

    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server}/tables/new/carpe_cras")
    page.locator('input[name="players[]"]').nth(0).fill("Red")
    page.locator('input[name="players[]"]').nth(1).fill("Blue")
    page.locator('input[name="starting_morale"]').tap()
    page.keyboard.type("2")
    page.get_by_role("button", name="Start the table").tap()
    page.wait_for_url("**/t/*")
    code = page.locator(".table-code").first.inner_text().strip()
    assert page.request.get(f"{server}/api/tables/{code}").json()["options"]["starting_morale"] == 2
    context.close()


# -- the engine's side, pure Python ------------------------------------------------------------------------


def test_an_option_the_card_data_narrows_is_a_choice_of_its_values_and_the_others_come_from_the_model():
    from types import SimpleNamespace

    engine = registry()["cahrd"].engine
    decks = {"north": SimpleNamespace(id="north", title="Northern army", kind="army"),
             "north-strategies": SimpleNamespace(id="north-strategies", title="Northern plans", kind="strategy")}
    fields = {f.name: f for f in engine.option_fields(SimpleNamespace(decks=decks))}
    army = fields["army_seat_1"]
    assert army.kind == "choice" and army.none_label == ""
    assert [(c.value, c.label) for c in army.choices] == [
        ("north", "Northern army"), ("any", "Any officer, item and tactic of the card data")]
    assert fields["defeat_token_to"].kind == "choice" and fields["defeat_token_to"].none_label == ""
    # Without the card data (an API schema, say) the option is as its model has it.
    assert {f.name: f.kind for f in engine.option_fields(None)}["army_seat_1"] == "text"


def test_a_number_field_has_its_bounds_and_what_empty_stands_for_however_it_was_made():
    from card_data.engine import FormField
    from card_data.engine.forms import derive_field
    from card_data.games.cahrd.rules import DamageStep
    from card_data.games.carpe_cras.rules.events_tempo import TempoRoll

    roll = derive_field(TempoRoll, "roll", None)  # a die or nothing: Annotated[int, Field(ge=1, le=6)] | None
    assert (roll.minimum, roll.maximum, roll.blank, roll.required) == (1, 6, None, False)
    by_hand = FormField(name="attacker_war_modifier", label="WAR modifier", kind="number", required=False, default=0)
    field = DamageStep.offer(None, attacker_war_modifier=by_hand).field("attacker_war_modifier")
    # Made by hand (as the engine's Damage Step form is), completed from the event's definition.
    assert (field.minimum, field.maximum, field.blank, field.default) == (-100, 100, 0, 0)
