"""The scorekeeper's pages, without JavaScript: start a table from a form, join by code,
enter events as forms, see refusals explained, undo, correct, and the live fragment."""

from __future__ import annotations

import importlib
import re

import pytest
from bs4 import BeautifulSoup

GAMES = ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


def form_data(event: dict) -> dict:
    """A JSON event as the table page's forms post it (lists as ``name[]``, bools as text)."""
    data: dict = {}
    for key, value in event.items():
        if isinstance(value, list):
            data[f"{key}[]"] = [str(v) for v in value]
        elif isinstance(value, bool):
            data[key] = "true" if value else "false"
        elif value is not None:
            data[key] = str(value)
    return data


def posts_as_form(event: dict) -> bool:
    return not any(isinstance(v, dict) or (isinstance(v, list) and any(isinstance(i, (dict, list)) for i in v))
                   for v in event.values())


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


def start_table(client, game: str) -> str:
    s = scenario(game)
    form = {"players[]": s.PLAYERS, **{k: str(v).lower() if isinstance(v, bool) else str(v)
                                         for k, v in s.OPTIONS.items() if not isinstance(v, (list, dict))}}
    response = client.post(f"/tables/new/{game}", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"]


def test_choose_game_lists_the_four_games(client):
    page = client.get("/tables/new").get_data(as_text=True)
    for title in ("Carpe Cras", "Duels of Cartisora", "C.A.H.R.D.", "Carpe Diem"):
        assert title in page


@pytest.mark.parametrize("game", GAMES)
def test_start_a_table_and_play_it_with_forms(client, game):
    s = scenario(game)
    url = start_table(client, game)
    page = client.get(url)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'name="viewport"' in html and "<svg" in html  # phone layout and the join QR code
    code = re.search(r'class="table-code">([A-Z0-9]{6})<', html).group(1)
    for name in s.PLAYERS:
        assert name in html
    posted = 0
    for event in s.EVENTS:
        if not posts_as_form(event):
            client.post(f"/api/tables/{code}/events", json=event)
            continue
        response = client.post(f"{url}/events", data=form_data(event))
        assert response.status_code == 303, (event, response.get_data(as_text=True)[:3000])
        posted += 1
    assert posted > 0
    final = client.get(url).get_data(as_text=True)
    assert "Game over" in final and "Export CSV" in final


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_form_comes_back_with_the_rule_and_the_values_typed(client, game):
    """Post/redirect/get: a refused plain form post redirects to the page, which shows the rule
    once (a reload does not post again, nor repeat the message) with the form filled in again;
    posted by htmx, the answer is the live fragment itself, 422."""
    s = scenario(game)
    index, illegal, words = s.ILLEGAL
    url = start_table(client, game)
    code = re.search(r'class="table-code">([A-Z0-9]{6})<', client.get(url).get_data(as_text=True)).group(1)
    for event in s.EVENTS[:index]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    if not posts_as_form(illegal):
        pytest.skip("this refusal needs a structured event; the API test covers it")
    response = client.post(f"{url}/events", data=form_data(illegal))
    assert response.status_code == 303 and response.headers["Location"] == url
    html = client.get(url).get_data(as_text=True)
    assert "Not allowed" in html and words.lower() in html.lower()
    assert 'id="retry-form"' in html
    again = client.get(url).get_data(as_text=True)
    assert "Not allowed" not in again
    fragment = client.post(f"{url}/events", data=form_data(illegal), headers={"HX-Request": "true"})
    assert fragment.status_code == 422
    body = fragment.get_data(as_text=True)
    assert body.lstrip().startswith("<section id=\"live\"") and words.lower() in body.lower()


def test_each_games_part_of_the_page_is_the_table_html_in_its_folder(scorekeeper_app):
    """A game is one folder: its scorekeeper page part is ``card_data/games/<game>/table.html``,
    found by the companion's template loader, not among the companion's own templates."""
    from pathlib import Path

    from card_data.loader import bundled_data_dir
    from companion.scorekeeping.pages.game_pages import table_page

    for game in GAMES:
        template = scorekeeper_app.jinja_env.get_template(table_page(game))
        assert Path(template.filename).resolve() == (bundled_data_dir() / game / "table.html").resolve()
    assert not list((Path(scorekeeper_app.root_path) / "templates").rglob(f"{GAMES[0]}*.html"))


def test_join_by_code_and_wrong_codes(client):
    url = start_table(client, "cartisora")
    html = client.get(url).get_data(as_text=True)
    code = re.search(r'class="table-code">([A-Z0-9]{6})<', html).group(1)
    joined = client.post("/join", data={"code": code.lower()})
    assert joined.status_code == 303 and joined.headers["Location"] == url
    # The short code in an address goes to the table's token address.
    assert client.get(f"/t/{code}").headers["Location"] == url
    assert client.post("/join", data={"code": "NOPE99"}).status_code == 404


def test_no_page_lists_other_tables(client):
    url = start_table(client, "carpe_diem")
    token = url.rsplit("/", 1)[1]
    for page in ("/", "/tables/new", "/join", "/search?q=table"):
        assert token not in client.get(page).get_data(as_text=True)


def test_live_fragment_is_204_until_something_changes(client):
    s = scenario("carpe_diem")
    url = start_table(client, "carpe_diem")
    code = re.search(r'class="table-code">([A-Z0-9]{6})<', client.get(url).get_data(as_text=True)).group(1)
    assert client.get(f"{url}/live?v=0").status_code == 204
    client.post(f"/api/tables/{code}/events", json=s.EVENTS[0])
    fresh = client.get(f"{url}/live?v=0")
    assert fresh.status_code == 200 and 'data-version="1"' in fresh.get_data(as_text=True)


def test_undo_and_correct_from_the_page(client):
    s = scenario("carpe_diem")
    url = start_table(client, "carpe_diem")
    code = re.search(r'class="table-code">([A-Z0-9]{6})<', client.get(url).get_data(as_text=True)).group(1)
    for event in s.EVENTS[:2]:
        client.post(f"/api/tables/{code}/events", json=event)
    assert client.post(f"{url}/undo").status_code == 303
    history = client.get(f"/api/tables/{code}/events").get_json()["events"]
    assert history[-1]["status"] == "undone"
    form = client.get(f"{url}/events/1")
    assert form.status_code == 200 and "Save correction" in form.get_data(as_text=True)
    if posts_as_form(s.EVENTS[0]):
        saved = client.post(f"{url}/events/1", data=form_data(s.EVENTS[0]))
        assert saved.status_code == 303
        assert client.get(f"/api/tables/{code}/events").get_json()["events"][-1]["corrects"] == 1


def test_carpe_cras_page_shows_the_table_at_a_glance(client):
    """Morale, agency pips per lane, the turn and the Token, the two full-city readings, and the
    result; player names escaped."""
    s = scenario("carpe_cras")
    created = client.post("/api/tables", json={"game": "carpe_cras", "players": ["<b>Red</b>", "Blue"],
                                               "options": {"full_city_agency": "sacrifice_unless_token"}}).get_json()
    url, code = f"/t/{created['token']}", created["code"]

    def page() -> str:
        return client.get(url).get_data(as_text=True)

    first = page()
    assert "<b>Red</b>" not in first and "&lt;b&gt;Red&lt;/b&gt;" in first
    assert "Main text (Gaining agency)" in first and "Glossary (Gain Agency), used at this table" in first
    for event in s.EVENTS[:5]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    during = page()
    assert "&lt;b&gt;Red&lt;/b&gt;</span></strong>'s turn" in during or "Blue</span></strong>'s turn" in during
    assert "●○○" in during  # one agency pip in lane 1
    assert "no one has it yet" in during
    assert client.post(f"/api/tables/{code}/events", json=s.EVENTS[5]).status_code == 200  # Blue takes the Token
    assert "taken this round" in page()
    for event in s.EVENTS[6:]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    finished = page()
    assert "&lt;b&gt;Red&lt;/b&gt; wins: Blue&#39;s morale fell to 0" in finished
    assert "<strong>0</strong> of 15" in finished


def test_correcting_an_entry_shows_its_own_form_filled_in(client):
    """The correction form is the event's own: players by name, choices, typed inputs, each
    holding what was entered; saving it re-checks the rest."""
    from bs4 import BeautifulSoup

    s = scenario("carpe_cras")
    created = client.post("/api/tables", json={"game": "carpe_cras", "players": s.PLAYERS}).get_json()
    url, code = f"/t/{created['token']}", created["code"]
    for event in s.EVENTS[:8]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    page = BeautifulSoup(client.get(f"{url}/events/7").get_data(as_text=True), "html.parser")  # Red's strike
    form = page.select_one("form")
    seat = form.select_one('select[name="seat"]')
    assert [o.text for o in seat.select("option")] == ["Red", "Blue"]
    assert seat.select_one("option[selected]").text == "Red"
    assert form.select_one('input[name="power"]')["value"] == "2"
    assert form.select_one('input[name="ends_turn"][value="true"]').has_attr("checked")
    assert "Seat 0" not in page.text
    rolls = BeautifulSoup(client.get(f"{url}/events/2").get_data(as_text=True), "html.parser")
    dice = rolls.select('select[name="rolls[]"]')
    assert [d.select_one("option[selected]")["value"] for d in dice] == ["2", "5"]
    assert [o["value"] for o in dice[0].select("option")] == ["1", "2", "3", "4", "5", "6"]
    saved = client.post(f"{url}/events/7", data={"type": "strike_city", "seat": "0", "lane": "1", "power": "3",
                                                 "sacrificed": "1", "ends_turn": "true"})
    assert saved.status_code == 303
    state = client.get(f"/api/tables/{code}").get_json()["state"]
    assert state["morale"] == [15, 13]


def test_cartisora_page_shows_the_table_at_a_glance(client):
    """Deck picks, the contest as it stands, the tie pool, maneuvers waiting, score piles and
    tokens, hands, the finished game with its leftover card, and the rounds played; a tag
    team's duelling players and what was readied face up (2017); player names escaped."""
    s = scenario("cartisora")
    created = client.post("/api/tables", json={"game": "cartisora", "players": ["<b>Ann</b>", "Bob"],
                                               "options": s.OPTIONS}).get_json()
    url, code = f"/t/{created['token']}", created["code"]

    def page() -> str:
        return client.get(url).get_data(as_text=True)

    def post(*events) -> None:
        for event in events:
            assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200

    first = page()
    ann = f'<span class="player c-{created["colours"][0]}">&lt;b&gt;Ann&lt;/b&gt;</span>'
    assert "<b>Ann</b>" not in first and f'{ann}: <span class="muted">choosing a deck' in first
    assert "Game 1: pick decks" in first and "The Knight" in first  # among the deck choices
    post(*s.EVENTS[:3])  # both decks taken, round 1 revealed: a tie
    revealed = page()
    assert "Round 1</h3>" in revealed and "Tie: the cards go to the tie pool" in revealed
    assert "(as it stands; resolves at the next round)" in revealed
    assert "Knight 5 (5)" in revealed and "11 left" in revealed
    post(*s.EVENTS[3:7])  # round 2: Second Wind, then Press On resolves it
    resolved = page()
    assert "Tie pool</strong>: 0 cards" in resolved
    assert f"Maneuvers for next round: {ann}: Press On" in resolved
    assert "✔ 2" in resolved  # First Blood taken
    post(*s.EVENTS[7:])
    finished = page()
    assert "Game 1: &lt;b&gt;Ann&lt;/b&gt; wins" in finished and "<strong>24</strong>" in finished
    assert "1 leftover card went to Bob, who ran out first" in finished
    assert "First Blood" in finished and "Finisher" in finished
    assert "Rounds of game 1" in finished and "forced tie" in finished

    team = client.post("/api/tables", json={"game": "cartisora", "players": ["Ann", "Bob", "Cid", "Dee"],
                                            "options": {"tag_team": True, "edition": "2017"}}).get_json()
    for seat, deck in enumerate(("knight", "fencer", "guardian", "hunter")):
        assert client.post(f"/api/tables/{team['code']}/events",
                           json={"type": "pick_deck", "seat": seat, "deck": deck}).status_code == 200
    assert client.post(f"/api/tables/{team['code']}/events",
                       json={"type": "reveal", "cards": ["knight-2", "fencer-5"], "face_up": [0]}).status_code == 200
    html = client.get(f"/t/{team['token']}").get_data(as_text=True)
    text = " ".join(BeautifulSoup(html, "html.parser").get_text(" ").split())
    assert "Ann & Cid" in text and "Ann vs Bob" in text and "3 Tag cards" in text
    assert "(readied face up)" in html


def test_cahrd_page_shows_the_war_at_a_glance(client):
    """Both armies: officers face down until revealed, grain, reserves, men under command and
    attack markers, the attack being fought, the Tactics and Items Zones and the strategy, who
    defeated whom and the tokens, the battles, the readings in use and the war's result; player
    names escaped."""
    from card_data.games.cahrd.rules import (
        ActivateCard,
        CannotDraw,
        PlayStrategy,
        SetCard,
    )

    s = scenario("cahrd")
    created = client.post("/api/tables", json={"game": "cahrd", "players": ["<b>Red</b>", "Blue"],
                                               "options": s.OPTIONS}).get_json()
    url, code = f"/t/{created['token']}", created["code"]
    red = "&lt;b&gt;Red&lt;/b&gt;"

    def page() -> str:
        return client.get(url).get_data(as_text=True)

    def post(*events) -> None:
        for event in events:
            event = event if isinstance(event, dict) else event.to_json()
            assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200, event

    first = page()
    assert "<b>Red</b>" not in first and red in first
    assert "Officers not placed yet." in first and "S counts as the highest printed rank, 5" in first
    post(*s.EVENTS[:2])
    face_down = page()
    assert "Officers placed face down" in face_down and "Oda Nobunaga" not in face_down.split('id="moves"')[0]
    post(*s.EVENTS[2:11])  # Red's third turn, Strategy Step
    post(SetCard(seat=0, zone="tactics"), ActivateCard(seat=0, card="signal-drums"),
         PlayStrategy(seat=0, card="supply-lines"))
    zones = page()
    assert f"Turn 3: <strong>{in_colour(red, created, 0)}</strong> has the initiative · <strong>Strategy Step</strong>" in zones
    assert '<dd id="army-0-tactics">1 of 2:' in zones and "face down" in zones
    assert "<strong>Signal Drums</strong> (active)" in zones
    assert '<dd id="army-0-strategy">Supply Lines</dd>' in zones
    post(*s.EVENTS[11:13])  # Border Captain attacks, River Scout is the vanguard
    fight = page()
    assert "Damage Step next" in fight and "attacked this turn" in fight
    assert "<dt>Grain</dt><dd>4,000</dd>" in fight
    battle_over_at = s.EVENTS.index(CannotDraw(seat=1).to_json()) + 1
    post(*s.EVENTS[13:battle_over_at])
    battle_over = page()
    assert "won: Blue could not draw" in battle_over
    assert "Blue chooses who goes first in battle 2" in battle_over  # the loser's form
    assert f"River Scout (lieutenant, by {in_colour(red, created, 0)})" in battle_over
    assert "Discard pile (entered here; top card last): Signal Drums" in battle_over  # resolved in the End Step
    post(*s.EVENTS[battle_over_at:])
    final = page()
    assert "War over" in final and not re.search(r'<section id="moves"', final)
    assert f"battles won: {red} <strong>2</strong> – Blue <strong>0</strong>" in final


def test_carpe_diem_page_shows_the_sheet_at_a_glance(client):
    """The status, VP, the banderole bar (the scoring order), holdings, the counts tracked from
    play, the scoring cards with their circles, whose turn it is to score, the final sheet and
    the tie-breaker in use; the forms below it are the rules' own; player names escaped."""
    from card_data.games.carpe_diem.rules import CompleteLandscape, PlaceBuilding

    s = scenario("carpe_diem")
    created = client.post("/api/tables", json={"game": "carpe_diem", "players": ["<b>Anna</b>", "Bea"],
                                               "options": s.OPTIONS}).get_json()
    url, code = f"/t/{created['token']}", created["code"]
    anna = "&lt;b&gt;Anna&lt;/b&gt;"

    def page() -> str:
        return client.get(url).get_data(as_text=True)

    first = page()
    assert "<b>Anna</b>" not in first and anna in first
    assert "Phase 1 of 4 · round 1 of 7" in first and "Summary rule (in use)" in first
    for event in s.EVENTS[:5]:  # Anna moves 2, both enter holdings, Anna completes a villa
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    rounds = page()
    assert "Phase 1 of 4 · round 2 of 7" in rounds and f"{in_colour(anna, created, 0)}: space 2" in rounds
    assert f"{in_colour(anna, created, 0)}: 0 grapes, 4 herbs, 0 chicken, 0 fish, 1 coins, 0 bread" in rounds
    assert '<th scope="row">Completed villas</th>\n          <td>1</td><td>0</td>' in rounds
    for built in (CompleteLandscape, PlaceBuilding):  # the building rewards' forms, from the rules
        assert f'data-event="{built.type_name}"' in rounds
    for event in s.EVENTS[5:7]:  # the phase ends; Anna places her disc on circle 5
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    scoring = page()
    assert "Scoring period 1: Bea scores" in scoring and "●5↓" in scoring and "○4→" in scoring
    assert "Bea: circle 4, B2 One of each ware + C1 Chimneys for coin and banderole" in scoring
    assert "circle 5," not in scoring.split('id="moves"')[1]  # taken
    for event in s.EVENTS[7:]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    final = page()
    assert f'<p id="cd-winner"><strong>{anna} wins with 53 VP</strong></p>' in final
    assert 'id="cd-final-sheet"' in final and f"{in_colour(anna, created, 0)} ★" in final and "Garden fountain" in final
    assert not re.search(r'<section id="moves"', final)


def _code_and_url(client, game: str, players=None, options=None) -> tuple[str, str]:
    s = scenario(game)
    created = client.post("/api/tables", json={"game": game, "players": players or s.PLAYERS,
                                               "options": s.OPTIONS if options is None else options}).get_json()
    return created["code"], f"/t/{created['token']}"


def test_a_phone_says_who_it_is_and_sees_its_moves_first(client):
    """"I am Red" is remembered for this table on this phone: Red's moves come first, Blue's
    one tap away; the whole-table view lists everyone's."""
    from bs4 import BeautifulSoup

    s = scenario("carpe_cras")
    code, url = _code_and_url(client, "carpe_cras")
    for event in s.EVENTS[:4]:
        client.post(f"/api/tables/{code}/events", json=event)
    first = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    assert first.select_one("#seat-ask") is not None  # asked once
    chosen = client.post(f"{url}/me", data={"seat": "0"})
    assert chosen.status_code == 303 and f"seat_{code}=0" in chosen.headers["Set-Cookie"]
    page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    assert page.select_one("#seat-ask") is None
    assert "This phone:" in page.select_one(".whoami").text and "Red" in page.select_one(".whoami").text
    mine = {f.get("data-seat") for f in page.select("#moves form.event-form")}
    assert mine <= {"0", None} and "0" in mine
    others = {f.get("data-seat") for f in page.select("#other-moves form.event-form")}
    assert others == {"1"}
    client.post(f"{url}/me", data={"seat": "table"})
    everyone = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    assert {"0", "1"} <= {f.get("data-seat") for f in everyone.select("#moves form.event-form")}


def test_the_history_is_newest_first_in_players_words(client):
    from bs4 import BeautifulSoup

    s = scenario("carpe_cras")
    code, url = _code_and_url(client, "carpe_cras")
    for event in s.EVENTS[:8]:
        client.post(f"/api/tables/{code}/events", json=event)
    client.post(f"/api/tables/{code}/undo")
    page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    lines = [li.get_text(" ", strip=True) for li in page.select("#history ol.history li")]
    assert lines[0].startswith("Red passed") and "(undone)" in lines[0] and lines[0].count("undone") == 1
    assert lines[1].startswith("Red struck Blue's city")
    assert not any("_" in line.split("Correct")[0] for line in lines)  # no raw event names
    assert page.select_one("#older-history") is not None  # older entries folded away


def test_undo_names_the_entry_it_takes_back(client):
    """Two phones tapping Undo at once take back one entry: the second Undo still names the
    entry the first one took back, and is told it is undone already (tests/test_late_entries.py)."""
    s = scenario("carpe_diem")
    code, url = _code_and_url(client, "carpe_diem")
    for event in s.EVENTS[:3]:
        client.post(f"/api/tables/{code}/events", json=event)
    tap = {"_version": "3", "_seq": "3"}
    assert client.post(f"{url}/undo", data=tap).status_code == 303
    second = client.post(f"{url}/undo", data=tap, headers={"HX-Request": "true"})
    assert second.status_code == 200 and "Already undone" in second.get_data(as_text=True)
    events = client.get(f"/api/tables/{code}/events").get_json()
    assert [e["status"] for e in events["events"]] == ["active", "active", "undone"]


def test_undo_after_correcting_an_earlier_entry_takes_back_the_last_entry_in_play(client):
    """A correction gets the highest seq but keeps its place in play: the page's Undo must name
    the last entry in play order, or the tap would be refused as stale."""
    from bs4 import BeautifulSoup

    s = scenario("carpe_diem")
    code, url = _code_and_url(client, "carpe_diem")
    for event in s.EVENTS[:3]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    assert client.put(f"/api/tables/{code}/events/1", json=s.EVENTS[0]).status_code == 200  # seq 4 replaces 1
    form = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser").select_one("#undo-form")
    tap = {i["name"]: i["value"] for i in form.select("input[type=hidden]")}
    assert tap["_seq"] == "3"
    assert client.post(f"{url}/undo", data=tap).status_code == 303
    statuses = {e["seq"]: e["status"] for e in client.get(f"/api/tables/{code}/events").get_json()["events"]}
    assert statuses == {1: "corrected", 2: "active", 3: "undone", 4: "active"}


def test_a_new_table_shows_how_to_join_first_and_a_wrong_code_says_so(client):
    from bs4 import BeautifulSoup

    code, url = _code_and_url(client, "cartisora")
    page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    top = page.select_one("#live .join-top")
    assert top is not None and top.select_one(".table-code").text == code and top.select_one("svg")
    wrong = client.post("/join", data={"code": "ZZZZZZ"})
    assert wrong.status_code == 404
    text = wrong.get_data(as_text=True)
    assert "No table has the code ZZZZZZ" in text and "Card not found" not in text


def test_player_colours_are_chosen_at_set_up_and_shown(client):
    from bs4 import BeautifulSoup

    form = BeautifulSoup(client.get("/tables/new/carpe_cras").get_data(as_text=True), "html.parser")
    defaults = [s.select_one("option[selected]")["value"] for s in form.select('select[name="colours[]"]')]
    assert defaults == ["blue", "red"]  # Carpe Cras: the Blue Player and the Red Player
    made = client.post("/tables/new/carpe_cras", data={"players[]": ["Ann", "Bo"], "colours[]": ["green", "red"]})
    page = BeautifulSoup(client.get(made.headers["Location"]).get_data(as_text=True), "html.parser")
    assert [p["class"] for p in page.select(".table-header .player")] == [["player", "c-green"], ["player", "c-red"]]
    same = client.post("/tables/new/carpe_cras", data={"players[]": ["Ann", "Bo"], "colours[]": ["red", "red"]})
    assert same.status_code == 400 and "different colour" in same.get_data(as_text=True)


def test_a_finished_game_offers_one_rematch_and_says_how_long_it_took(client):
    from bs4 import BeautifulSoup

    s = scenario("carpe_cras")
    code, url = _code_and_url(client, "carpe_cras")
    assert client.post(f"{url}/rematch").status_code == 303  # not finished: refused, shown on the page
    assert "not finished yet" in client.get(url).get_data(as_text=True)
    for event in s.EVENTS:
        client.post(f"/api/tables/{code}/events", json=event)
    page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    assert "Played in" in page.select_one("#duration").text
    first = client.post(f"{url}/rematch")
    second = client.post(f"{url}/rematch")  # another phone, a moment later
    assert first.headers["Location"] == second.headers["Location"] != url
    rematch = client.get(first.headers["Location"]).get_data(as_text=True)
    assert "Red" in rematch and "Blue" in rematch and 'data-version="0"' in rematch
    assert BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser").select_one("#rematch-link")


def test_a_form_previews_what_it_would_enter(client):
    """Carpe Diem's scoring form (any form) shows, before it is sent, the line it would add: the
    VP each card gives, or why the rules refuse it."""
    s = scenario("carpe_diem")
    code, url = _code_and_url(client, "carpe_diem")
    for event in s.EVENTS[:6]:
        client.post(f"/api/tables/{code}/events", json=event)
    form = {k: str(v) for k, v in s.EVENTS[6].items() if v is not None and not isinstance(v, bool)}
    preview = client.post(f"{url}/preview", data=form).get_data(as_text=True)
    assert "Would enter:" in preview and "Anna scored circle 5" in preview and "VP" in preview
    taken = client.post(f"{url}/preview", data={**form, "seat": "1"}).get_data(as_text=True)
    assert "Not allowed" in taken
    assert client.get(f"/api/tables/{code}").get_json()["version"] == 6  # nothing was entered


def in_colour(name_html: str, table: dict, seat: int) -> str:
    """How a table page shows a player's (escaped) name: in their colour."""
    return f'<span class="player c-{table["colours"][seat]}">{name_html}</span>'


@pytest.mark.parametrize("game", GAMES)
def test_players_appear_in_their_colours_on_the_status_and_in_the_history(client, game):
    """Chosen colours follow the players: on the game's status (each name at least once, in a
    swatch of its colour), on the counters, and on the history lines of their entries."""
    s = scenario(game)
    palette = ["purple", "orange", "green", "yellow"][:len(s.PLAYERS)]
    created = client.post("/api/tables", json={"game": game, "players": s.PLAYERS, "options": s.OPTIONS,
                                                "colours": palette}).get_json()
    assert created["colours"] == palette
    for event in s.EVENTS[:len(s.EVENTS) // 2]:
        assert client.post(f"/api/tables/{created['code']}/events", json=event).status_code == 200
    soup = BeautifulSoup(client.get(f"/t/{created['token']}").get_data(as_text=True), "html.parser")
    status = soup.select_one("#status")
    for seat, (name, colour) in enumerate(zip(s.PLAYERS, palette, strict=True)):
        shown = {span.get_text() for span in status.select(f"span.player.c-{colour}")}
        assert shown == {name}, (game, seat, shown)
    entries = {seat for seat, colour in enumerate(palette) if soup.select(f"ol.history li.c-{colour}")}
    acted = {e["seat"] for e in s.EVENTS[:len(s.EVENTS) // 2] if isinstance(e.get("seat"), int)}
    assert acted <= entries, (game, acted, entries)
    counters = soup.select(".counter")
    assert bool(counters) == (game != "cartisora")  # Duels has nothing players count by hand
    for counter in counters:
        seat = next(i for i, name in enumerate(s.PLAYERS) if name in counter.get_text())
        assert f"c-{palette[seat]}" in counter["class"], (game, counter.get_text(" ", strip=True))
