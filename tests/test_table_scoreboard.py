"""The first screen of a table page and the rematch (issue 20, problems 3 and 4).

- Every game's state says what its scoreboard shows (:meth:`GameState.scoreboard`): one row
  per player with the game's own numbers, and a line saying the round and whose turn it is.
- In a real Chromium at 390 x 844, right after a table is set up through its form (the most
  players the game takes), and in the middle of a game, the scoreboard is wholly on the
  first screen, without scrolling, with JavaScript on and off; the page has no axe violation.
- A rematch reaches every phone on the finished table (a link on the page, also brought by
  the live update and said to screen readers), and each phone following it is at the new
  table as the same player (with JavaScript off too).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from phones import PHONE, api, new_table

from card_data.engine import GameState, Scoreboard
from card_data.games import registry
from card_data.loader import bundled_data_dir, load_database

GAMES = ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]
NAMES = ["Ann", "Bob", "Cleo", "Dan"]
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
DE = {"Accept-Language": "de"}


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


@pytest.fixture(scope="module")
def database():
    return load_database(bundled_data_dir())


def states(game: str, database):
    """The scenario's states: the new table, after each entry."""
    s = scenario(game)
    engine = registry()[game].engine
    state = engine.new_state(s.PLAYERS, engine.parse_options(s.OPTIONS), database.games[game])
    yield state
    for event in s.EVENTS:
        state = engine.apply(state, event)
        yield state


# -- the engines say what the scoreboard shows ------------------------------------------------------------


def own_numbers(game: str, state) -> list[list[int]]:
    """What the rules keep per seat, read from the state's own fields (not its scoreboard)."""
    if game == "carpe_cras":
        return [[m] for m in state.morale]
    if game == "carpe_diem":
        return [[sheet.vp] for sheet in state.sheets]
    if game == "cahrd":
        return [[state.wins()[seat], army.grain] for seat, army in enumerate(state.armies)]
    return [[state.side_totals()[state.side_of(seat)]] for seat in range(len(state.players))]


@pytest.mark.parametrize("game", GAMES)
def test_every_state_of_a_game_gives_a_scoreboard_of_its_own_numbers(game, database):
    turns = set()
    for state in states(game, database):
        board = state.scoreboard()
        assert isinstance(board, Scoreboard)
        assert [list(row) for row in board.values] == own_numbers(game, state)
        assert board.line and all(column for column in board.columns)
        assert board.turn is None or 0 <= board.turn < len(state.players)
        turns.add(board.turn)
    assert board.line == state.summary()  # the game over: who won
    if game in ("carpe_cras", "cahrd"):  # turn by turn: it says whose turn it is, both players' in time
        assert {0, 1} <= turns


def test_the_default_scoreboard_is_the_scores_and_a_bad_one_is_refused(database):
    state = next(states("carpe_diem", database))
    default = GameState.scoreboard(state)
    assert default.columns == ("VP",) and default.values == ((8.0,), (9.0,)) and default.line == state.summary()
    assert default.rows() == [(0, "VP", 8.0), (1, "VP", 9.0)]
    with pytest.raises(ValueError):
        Scoreboard(("VP",), ((1, 2),), "Round 1")
    with pytest.raises(ValueError):
        Scoreboard(("VP",), ((1,),), "Round 1", turn=1)


# -- the page: the scoreboard first, a rematch for every phone --------------------------------------------


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


def finished_table(client, game: str = "carpe_cras") -> dict:
    s = scenario(game)
    table = client.post("/api/tables", json={"game": game, "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    for event in s.EVENTS:
        assert client.post(f"/api/tables/{table['code']}/events", json=event).status_code == 200
    return table


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


@pytest.mark.parametrize("game", GAMES)
def test_the_json_api_gives_the_scoreboard_the_page_shows(client, database, game):
    """``GET /api/tables/{code}`` and every entry's answer carry the scoreboard: the game's own
    numbers by seat (read here from the state's fields), the round line, whose turn; the same
    columns as the page's scoreboard; and the OpenAPI document describes it."""
    from companion.scorekeeping.api import TableOut

    s = scenario(game)
    upto = len(s.EVENTS) // 2
    table = client.post("/api/tables", json={"game": game, "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    assert table["scoreboard"]["values"] == own_numbers(game, next(states(game, database)))
    for event in s.EVENTS[:upto]:
        answer = client.post(f"/api/tables/{table['code']}/events", json=event).get_json()
    state = list(states(game, database))[upto]
    got = client.get(f"/api/tables/{table['code']}").get_json()
    assert got["scoreboard"] == answer["scoreboard"]
    board = got["scoreboard"]
    assert board["values"] == own_numbers(game, state)
    assert (board["line"], board["turn"]) == (state.scoreboard().line, state.scoreboard().turn)
    assert TableOut.model_validate(got).scoreboard.columns == board["columns"]
    page = soup(client.get(f"/t/{table['token']}"))
    assert [th.get_text(strip=True) for th in page.select("#scoreboard thead th")][1:] == board["columns"]
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert schemas["TableOut"]["properties"]["scoreboard"]["$ref"].endswith("/ScoreboardOut")
    assert set(schemas["ScoreboardOut"]["properties"]) == {"columns", "values", "line", "turn"}


def test_the_scoreboard_comes_before_the_moves_and_the_history_in_german_too(client):
    s = scenario("cahrd")
    table = client.post("/api/tables", json={"game": "cahrd", "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    for event in s.EVENTS[:10]:
        client.post(f"/api/tables/{table['code']}/events", json=event)
    page = soup(client.get(f"/t/{table['token']}", headers=DE))
    live = page.select_one("#live")
    order = [el.get("id") for el in live.find_all(id=["turn", "scoreboard", "moves", "history", "status"])]
    assert order == ["turn", "scoreboard", "moves", "history", "status"]
    board = page.select_one("#scoreboard table")
    assert [th.get_text(strip=True) for th in board.select("thead th")] == ["Spieler", "Gewonnene Schlachten", "Getreide"]
    rows = [[cell.get_text(" ", strip=True) for cell in tr.find_all(["th", "td"])] for tr in board.select("tbody tr")]
    assert rows == [["Red (am Zug)", "0", "4.000"], ["Blue", "0", "4.000"]]
    assert board.select_one('tr[aria-current="true"]').th.get_text(" ", strip=True).startswith("Red")
    assert page.select_one("#turn strong").get_text().startswith("Schlacht 1, Zug 3: Red · ")


def choose(client, table: dict, seat) -> None:
    assert client.post(f"/t/{table['token']}/me", data={"seat": seat}).status_code == 303


def whoami(client, token: str) -> str:
    return soup(client.get(f"/t/{token}")).select_one("#turn .whoami").get_text(" ", strip=True)


def test_a_rematch_reaches_every_phone_and_keeps_who_each_is(scorekeeper_app):
    ann, bob, nobody = (scorekeeper_app.test_client() for _ in range(3))
    table = finished_table(ann)
    choose(ann, table, 0)
    choose(bob, table, 1)
    token = table["token"]
    live = soup(bob.get(f"/t/{token}")).select_one("#live")["data-hx-get"]
    assert bob.get(live).status_code == 204 and not soup(bob.get(f"/t/{token}")).select_one("#rematch-link")

    started = ann.post(f"/t/{token}/rematch")  # Ann's phone starts it: Ann there too
    fresh = started.headers["Location"].rsplit("/t/", 1)[1]
    assert fresh != token and whoami(ann, fresh).startswith("This phone: Red")

    update = bob.get(live)  # Bob's page asks as it did before: the live part now offers it
    assert update.status_code == 200
    link = soup(update).select_one("#rematch-notice #rematch-link")
    assert link and soup(bob.get(f"/t/{token}")).select_one("#rematch-link")
    followed = bob.get(link["href"])
    assert followed.status_code == 303 and followed.headers["Location"].endswith(f"/t/{fresh}")
    assert whoami(bob, fresh).startswith("This phone: Blue")
    page = soup(bob.get(f"/t/{fresh}"))
    assert not page.select_one("#seat-ask") and page.select_one("#live")["data-version"] == "0"

    # A phone that never said who it is is asked at the new table too; the link is in German.
    german = soup(nobody.get(f"/t/{token}", headers=DE))
    assert "Eine Revanche hat begonnen" in german.select_one("#rematch-notice").get_text()
    nobody.get(german.select_one("#rematch-link")["href"])
    assert soup(nobody.get(f"/t/{fresh}")).select_one("#seat-ask")


def test_following_a_rematch_that_is_not_there_goes_back_to_the_table(client):
    table = finished_table(client)
    answer = client.get(f"/t/{table['token']}/rematch")
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/t/{table['token']}")


# -- in Chromium at 390 x 844 ------------------------------------------------------------------------------


FULLY_ON_FIRST_SCREEN = """() => {
  const box = document.querySelector('#scoreboard').getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, left: box.left, right: box.right, scrollY: window.scrollY,
          width: window.innerWidth, height: window.innerHeight};
}"""


def assert_scoreboard_on_first_screen(page, players: list[str]) -> None:
    found = page.evaluate(FULLY_ON_FIRST_SCREEN)
    assert found["scrollY"] == 0, found
    assert 0 <= found["top"] and found["bottom"] <= found["height"], found
    assert 0 <= found["left"] and found["right"] <= found["width"], found
    rows = page.locator("#scoreboard tbody tr")
    assert rows.count() == len(players)
    for n, name in enumerate(players):
        assert rows.nth(n).locator("th").inner_text().startswith(name)


def set_up_through_the_form(page, base: str, game: str) -> list[str]:
    """Start a table of ``game`` on its new-table page with as many players as it takes (the
    tallest scoreboard)."""
    page.goto(f"{base}/tables/new/{game}")
    names = NAMES[:registry()[game].engine.max_players]
    for n, name in enumerate(names):
        page.locator('input[name="players[]"]').nth(n).fill(name)
    if game == "cartisora":  # four players duel as two teams
        page.get_by_label("Tag team").check()
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url("**/t/*")
    return names


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("game", GAMES)
def test_the_scoreboard_is_on_the_first_screen_of_every_game(browser, server, game, javascript):
    context = browser.new_context(**PHONE, java_script_enabled=javascript)
    if javascript:
        context.add_init_script(path=AXE)
    page = context.new_page()
    try:
        names = set_up_through_the_form(page, server, game)
        assert_scoreboard_on_first_screen(page, names)
        if javascript:
            violations = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']}))"
                                       ".violations.map(v => v.id + ': ' + v.nodes.map(n => n.target).join(' '))")
            assert not violations, violations
        # In the middle of a game, having said who this phone is.
        s = scenario(game)
        table = new_table(server, game, len(s.EVENTS) // 2)
        page.goto(f"{server}/t/{table['token']}")
        page.locator("#seat-ask").locator('button[value="0"]').click()
        page.wait_for_selector("#seat-ask", state="detached")
        assert_scoreboard_on_first_screen(page, s.PLAYERS)
    finally:
        context.close()


def test_a_rematch_reaches_the_other_phone_live_and_keeps_who_it_is(browser, server):
    s = scenario("cartisora")
    table = new_table(server, "cartisora", len(s.EVENTS))
    phones = []
    for seat, javascript in ((0, True), (1, True), (1, False)):
        page = browser.new_context(**PHONE, java_script_enabled=javascript).new_page()
        page.goto(f"{server}/t/{table['token']}")
        page.locator("#seat-ask").locator(f'button[value="{seat}"]').click()
        page.wait_for_selector("#seat-ask", state="detached")
        phones.append(page)
    ann, bob, bob_without_js = phones
    assert bob.locator("#rematch-link").count() == 0

    ann.get_by_role("button", name="Rematch").click()
    ann.wait_for_url(lambda url: table["token"] not in url)
    fresh = ann.url.rsplit("/t/", 1)[1]
    assert ann.locator("#turn .whoami").inner_text().startswith(f"This phone: {s.PLAYERS[0]}")

    bob.wait_for_selector("#rematch-link", timeout=10_000)  # brought by the live update, no reload
    # ... and said to a screen reader: the announcer is written when htmx settles the swap
    # (about 20 ms after the link appears), so the test waits for it rather than racing it.
    bob.wait_for_selector("#announcer p:has-text('A rematch has started')", timeout=5_000)
    bob.locator("#rematch-link").click()
    bob.wait_for_url(f"**/t/{fresh}")
    assert bob.locator("#turn .whoami").inner_text().startswith(f"This phone: {s.PLAYERS[1]}")
    assert bob.locator("#seat-ask").count() == 0

    bob_without_js.reload()
    bob_without_js.locator("#rematch-link").click()
    bob_without_js.wait_for_url(f"**/t/{fresh}")
    assert bob_without_js.locator("#turn .whoami").inner_text().startswith(f"This phone: {s.PLAYERS[1]}")
    for page in phones:
        page.context.close()
