"""The parts of a table's live fragment every phone sees alike (the history, the game's own
part) are rendered once per table version and shared between the phones polling it
(companion/scorekeeping/pages/shared_parts.py), and each phone still gets its own forms' CSRF token."""

from __future__ import annotations

import re

import pytest

from companion import create_app
from companion.scorekeeping.pages.shared_parts import SharedParts

UNDO_FORM = re.compile(r'<form[^>]*id="undo-form".*?</form>', re.S)
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
HISTORY = re.compile(r'<section id="history".*?</section>', re.S)


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}",
                      "SECRET_KEY": "shared-parts-test-secret"})  # CSRF protection on, as served
    yield app
    app.extensions["companion.scorekeeping.tables"].store.dispose()


@pytest.fixture
def renders(monkeypatch):
    """The template names :class:`SharedParts` rendered, in order."""
    names: list[str] = []
    original = SharedParts._render

    def counting(self, name, context):
        names.append(name)
        return original(self, name, context)

    monkeypatch.setattr(SharedParts, "_render", counting)
    return names


def new_table(client) -> dict:
    response = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Ann", "Bo"]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def enter(client, table: dict, note: str) -> None:
    event = {"type": "adjust_victory_points", "seat": 0, "change": 1, "note": note}
    response = client.post(f"/api/tables/{table['code']}/events", json=event)
    assert response.status_code == 200, response.get_json()


def phone(app, table: dict, seat: int):
    """A phone's own session: it opened the table page and said which player it is."""
    client = app.test_client()
    page = client.get(f"/t/{table['token']}").get_data(as_text=True)
    token = CSRF.search(page).group(1)
    response = client.post(f"/t/{table['token']}/me", data={"seat": seat, "csrf_token": token})
    assert response.status_code == 303
    return client


def live(client, table: dict) -> str:
    response = client.get(f"/t/{table['token']}/live", headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_two_phones_at_one_version_share_one_render_of_the_history(app, renders):
    table = new_table(app.test_client())
    enter(app.test_client(), table, "first")
    renders.clear()
    ann, bo = phone(app, table, 0), phone(app, table, 1)  # each opens the page: the same parts
    first, second = live(ann, table), live(bo, table)
    assert renders.count("tables/_live_history.html") == 1
    assert renders.count("games/carpe_diem/table.html") == 1
    assert "This phone: " in first and "Ann" in first and "Bo" in second
    assert CSRF.sub("", HISTORY.search(first).group(0)) == CSRF.sub("", HISTORY.search(second).group(0))
    enter(app.test_client(), table, "second")
    live(ann, table)
    live(bo, table)
    assert renders.count("tables/_live_history.html") == 2  # once more for the new version
    assert "second" in live(bo, table)


def test_each_phone_gets_its_own_csrf_token_in_a_shared_part(app):
    table = new_table(app.test_client())
    enter(app.test_client(), table, "to be undone")
    ann, bo = phone(app, table, 0), phone(app, table, 1)
    live(ann, table)  # renders the history with Ann's token
    undo = UNDO_FORM.search(live(bo, table)).group(0)
    token = CSRF.search(undo).group(1)
    seq = re.search(r'name="_seq" value="(\d+)"', undo).group(1)
    response = bo.post(f"/t/{table['token']}/undo", data={"csrf_token": token, "_seq": seq})
    assert response.status_code == 303  # accepted: Bo's own token, not Ann's
    events = app.test_client().get(f"/api/tables/{table['code']}/events").get_json()["events"]
    assert [e["status"] for e in events] == ["undone"]


def test_another_phones_token_is_refused(app):
    """The guard the test above relies on: a token of another session does not pass."""
    table = new_table(app.test_client())
    enter(app.test_client(), table, "kept")
    ann, bo = phone(app, table, 0), phone(app, table, 1)
    undo = UNDO_FORM.search(live(ann, table)).group(0)
    token = CSRF.search(undo).group(1)
    seq = re.search(r'name="_seq" value="(\d+)"', undo).group(1)
    assert bo.post(f"/t/{table['token']}/undo", data={"csrf_token": token, "_seq": seq}).status_code == 400


# -- a seat's forms, drawn once per content and shared across versions ---------------------------------

VERSIONS = re.compile(r'name="_version" value="(\d+)"')
MOVES = re.compile(r'<section id="moves".*?</section>', re.S)


@pytest.fixture
def moves_drawn(monkeypatch):
    """How many times :class:`SharedParts` drew a list of moves."""
    drawn = [0]
    original = SharedParts._render_macro

    def counting(self, name, *args, **kwargs):
        drawn[0] += name == "moves_list"
        return original(self, name, *args, **kwargs)

    monkeypatch.setattr(SharedParts, "_render_macro", counting)
    return drawn


def drawn_afresh(app, client, table: dict) -> str:
    """The phone's live fragment drawn with nothing kept (a new store): what it must be."""
    kept = app.extensions[SHARED]
    app.extensions[SHARED] = SharedParts()
    try:
        return live(client, table)
    finally:
        app.extensions[SHARED] = kept


SHARED = "companion.scorekeeping.pages.shared_parts"


def test_a_seats_forms_are_drawn_once_and_carry_each_new_version(app, moves_drawn):
    table = new_table(app.test_client())
    ann, also_ann = phone(app, table, 0), phone(app, table, 0)  # two phones saying they are Ann
    enter(app.test_client(), table, "first")
    before = moves_drawn[0]
    first = live(ann, table)
    assert moves_drawn[0] == before + 2  # Ann's moves and the other players'
    assert live(also_ann, table) and moves_drawn[0] == before + 2  # the same forms: not drawn again
    enter(app.test_client(), table, "second")  # a VP adjustment: Ann's forms stay the same
    second = live(ann, table)
    assert moves_drawn[0] == before + 2
    assert set(VERSIONS.findall(first)) == {"1"} and set(VERSIONS.findall(second)) == {"2"}
    assert CSRF.sub("", second) == CSRF.sub("", drawn_afresh(app, ann, table))


def test_shared_forms_carry_each_phones_own_csrf_token_and_post(app):
    table = new_table(app.test_client())
    ann, also_ann = phone(app, table, 0), phone(app, table, 0)
    live(ann, table)  # draws Ann's forms with the first phone's token
    fragment = live(also_ann, table)
    form = re.search(r'<form method="post" action="[^"]*/events"[^>]*data-event="adjust_victory_points".*?</form>',
                     MOVES.search(fragment).group(0), re.S).group(0)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    response = also_ann.post(f"/t/{table['token']}/events",
                             data={**fields, "change": "2", "note": "from the second phone"})
    assert response.status_code == 303  # accepted: the second phone's own token
    events = app.test_client().get(f"/api/tables/{table['code']}/events").get_json()["events"]
    assert [e["payload"].get("note") for e in events] == ["from the second phone"]


@pytest.mark.parametrize("languages", [("en", "en"), ("en", "de")])
def test_a_change_by_one_phone_shows_on_the_others_next_poll(app, languages):
    """Two phones at different seats (and languages): after one posts, the other's next poll
    (with the version it has) shows the change, each phone's fragment exactly what it would be
    with nothing kept; a poll at the current version answers 204."""
    table = new_table(app.test_client())
    ann, bo = phone(app, table, 0), phone(app, table, 1)
    ann.set_cookie("lang", languages[0])
    bo.set_cookie("lang", languages[1])
    for client in (ann, bo):
        assert client.get(f"/t/{table['token']}/live?v=0", headers={"HX-Request": "true"}).status_code == 204
    form = re.search(r'<form method="post" action="[^"]*/events"[^>]*data-event="adjust_victory_points".*?</form>',
                     live(ann, table), re.S).group(0)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    answer = ann.post(f"/t/{table['token']}/events", data={**fields, "change": "3", "note": "Ann's entry"},
                      headers={"HX-Request": "true"})
    assert answer.status_code == 200 and 'data-version="1"' in answer.get_data(as_text=True)
    polled = bo.get(f"/t/{table['token']}/live?v=0", headers={"HX-Request": "true"})
    assert polled.status_code == 200
    seen = polled.get_data(as_text=True)
    assert 'data-version="1"' in seen and set(VERSIONS.findall(seen)) == {"1"}
    said = {"en": "Ann&#39;s VP adjusted by +3 (Ann&#39;s entry)", "de": "SP von Ann um +3 angepasst (Ann&#39;s entry)"}
    assert said[languages[1]] in seen
    assert CSRF.sub("", seen) == CSRF.sub("", drawn_afresh(app, bo, table))
    assert CSRF.sub("", live(ann, table)) == CSRF.sub("", drawn_afresh(app, ann, table))
    for client in (ann, bo):
        assert client.get(f"/t/{table['token']}/live?v=1", headers={"HX-Request": "true"}).status_code == 204
    api = app.test_client().get(f"/api/tables/{table['code']}", headers={"If-None-Match": '"0"'})
    assert api.status_code == 200 and api.get_json()["version"] == 1


def test_forms_are_kept_per_language(app):
    table = new_table(app.test_client())
    english, german = phone(app, table, 0), phone(app, table, 0)
    german.set_cookie("lang", "de")
    live(english, table)
    moves = MOVES.search(live(german, table)).group(0)
    assert CSRF.sub("", live(german, table)) == CSRF.sub("", drawn_afresh(app, german, table))
    assert "SP von Ann anpassen" in moves and "Adjust Ann&#39;s VP" not in moves


def test_each_history_line_is_kept_and_follows_its_entry_undone_or_corrected(app, monkeypatch):
    drawn: list[int] = []
    original = SharedParts.render_entries

    def counting(self, macro, lines, *args):
        def drawing(line):
            drawn.append(line.seq)
            return macro(line)
        return original(self, drawing, lines, *args)

    monkeypatch.setattr(SharedParts, "render_entries", counting)
    table = new_table(app.test_client())
    ann, bo = phone(app, table, 0), phone(app, table, 1)
    bo.set_cookie("lang", "de")
    for note in ("one", "two"):
        enter(app.test_client(), table, note)
    live(ann, table)
    assert drawn == [2, 1]
    enter(app.test_client(), table, "three")
    live(ann, table)
    assert drawn == [2, 1, 3]  # only the new line drawn
    api = app.test_client()
    assert api.post(f"/api/tables/{table['code']}/undo").status_code == 200
    corrected = {"type": "adjust_victory_points", "seat": 1, "change": 2, "note": "one, corrected"}
    assert api.put(f"/api/tables/{table['code']}/events/1", json=corrected).status_code == 200
    for client in (ann, bo):
        fragment = live(client, table)
        assert CSRF.sub("", fragment) == CSRF.sub("", drawn_afresh(app, client, table))
    history = HISTORY.search(live(ann, table)).group(0)
    assert re.search(r'data-seq="3" data-status="undone".*?<s>', history, re.S)
    assert re.search(r'data-seq="1" data-status="corrected"', history)
    assert "(corrected)" in history and "one, corrected" in history
    assert "(rückgängig gemacht)" in HISTORY.search(live(bo, table)).group(0)


def test_a_player_named_like_the_version_mark_keeps_the_name(app):
    """The mark standing for the version in kept forms cannot come from a player's name."""
    from companion.scorekeeping.pages.shared_parts import VERSION_MARK

    client = app.test_client()
    response = client.post("/api/tables", json={"game": "carpe_diem", "players": [str(VERSION_MARK), "Bo"]})
    table = response.get_json()
    ann = phone(app, table, 0)
    enter(client, table, "one")
    moves = MOVES.search(live(ann, table)).group(0)
    assert "Adjust &lt;companion-version&gt;&#39;s VP" in moves and set(VERSIONS.findall(moves)) == {"1"}


# -- a designer's declared game: its forms kept as a bundled game's are -----------------------------------

COUNTERS = re.compile(r'<section id="counters".*?</section>', re.S)


@pytest.fixture
def drawn_forms(monkeypatch):
    """The ``tables/_moves.html`` macros :class:`SharedParts` drew, by name."""
    names: list[str] = []
    original = SharedParts._render_macro

    def counting(self, name, *args, **kwargs):
        names.append(name)
        return original(self, name, *args, **kwargs)

    monkeypatch.setattr(SharedParts, "_render_macro", counting)
    return names


def test_a_declared_games_forms_and_counter_buttons_are_drawn_once_and_carry_each_new_version(tmp_path, drawn_forms):
    """A game declared in a designer's game.yaml has event classes made as its data is read
    (not importable by name); its moves and its counters' − and + are still drawn once and
    shared across versions, each phone's fragment exactly what it would be with nothing kept."""
    from test_companion_project import GAME
    from test_declared_scoring import make_project

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}", "SECRET_KEY": "declared-test",
                      "PROJECT_DIR": str(make_project(tmp_path / "quiz"))})
    try:
        client = app.test_client()
        table = client.post("/api/tables", json={"game": GAME, "players": ["Ann", "Bo"]}).get_json()

        def point(seat: int) -> None:
            event = {"type": "adjust_counter", "seat": seat, "counter": "points", "by": 1}
            assert client.post(f"/api/tables/{table['code']}/events", json=event).status_code == 200

        for seat in (0, 0, 1, 1):  # 2 points each: every − and + of the points is offered
            point(seat)
        ann, also_ann = phone(app, table, 0), phone(app, table, 0)
        app.extensions[SHARED] = SharedParts()  # nothing kept from the phones' first page
        drawn_forms.clear()
        first = live(ann, table)
        buttons = drawn_forms.count("move_form")
        assert buttons == COUNTERS.search(first).group(0).count("<form") >= 4
        assert drawn_forms.count("moves_list") == 2  # Ann's moves and the other players'
        assert live(also_ann, table) and len(drawn_forms) == buttons + 2
        point(1)
        second = live(ann, table)
        assert len(drawn_forms) == buttons + 2  # the same forms, the new version in each
        assert set(VERSIONS.findall(COUNTERS.search(first).group(0))) == {"4"}
        assert set(VERSIONS.findall(COUNTERS.search(second).group(0))) == {"5"}
        assert set(VERSIONS.findall(MOVES.search(second).group(0))) == {"5"}
        assert CSRF.sub("", second) == CSRF.sub("", drawn_afresh(app, ann, table))
        plus = re.search(r'<form[^>]*class="event-form counter-button counter-plus"[^>]*data-seat="0".*?</form>',
                         COUNTERS.search(live(also_ann, table)).group(0), re.S).group(0)
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', plus))
        assert also_ann.post(f"/t/{table['token']}/events", data=fields).status_code == 303  # its own token
        state = client.get(f"/api/tables/{table['code']}").get_json()
        assert state["version"] == 6
    finally:
        app.extensions["companion.scorekeeping.tables"].store.dispose()


# -- a game page's blocks kept by what they show ----------------------------------------------------------

LAYOUT = re.compile(r'<table id="cd-layout">.*?</table>', re.S)


def test_a_game_pages_kept_block_is_drawn_once_and_again_when_what_it_shows_changes(app, monkeypatch):
    """Carpe Diem's scoring cards (``{% call kept(...) %}`` in its table.html): drawn once while
    only points change, again when a scoring disc is placed or taken back, each fragment
    exactly what it would be with nothing kept."""
    from scenarios_carpe_diem import EVENTS, OPTIONS, PLAYERS

    drawn: list[str] = []
    original = SharedParts.render_block

    def counting(self, name, values, draw, where=None):
        return original(self, name, values, lambda: (name == "cd-layout" and drawn.append(name)) or draw(), where)

    monkeypatch.setattr(SharedParts, "render_block", counting)
    api = app.test_client()
    table = api.post("/api/tables", json={"game": "carpe_diem", "players": PLAYERS, "options": OPTIONS}).get_json()
    anna = phone(app, table, 0)
    first_score = next(i for i, e in enumerate(EVENTS) if e["type"] == "score")
    for event in EVENTS[:first_score]:
        assert api.post(f"/api/tables/{table['code']}/events", json=event).status_code == 200
    before = live(anna, table)
    assert "●" not in LAYOUT.search(before).group(0) and drawn == ["cd-layout"]
    enter(api, table, "a point")
    assert drawn == ["cd-layout"]  # the same cards and circles: kept
    disc = EVENTS[first_score]
    assert api.post(f"/api/tables/{table['code']}/events", json=disc).status_code == 200
    after = live(anna, table)
    assert drawn == ["cd-layout"] * 2
    assert f"●{disc['circle']}" in LAYOUT.search(after).group(0)
    assert api.post(f"/api/tables/{table['code']}/undo").status_code == 200
    undone = live(anna, table)
    assert "●" not in LAYOUT.search(undone).group(0) and drawn == ["cd-layout"] * 2  # as before the disc: kept
    assert CSRF.sub("", undone) == CSRF.sub("", drawn_afresh(app, anna, table))  # (a third draw, in a new store)
    assert api.post(f"/api/tables/{table['code']}/events", json=disc).status_code == 200
    again = live(anna, table)  # the disc placed again: the block as drawn for it before
    assert LAYOUT.search(again).group(0) == LAYOUT.search(after).group(0) and drawn.count("cd-layout") == 3


def test_carpe_diems_holdings_and_owned_things_are_drawn_again_only_when_they_change(app, monkeypatch):
    """Carpe Diem's holdings and "what each player owns" blocks (kept in its table.html): a
    point changes neither, a holdings entry redraws the holdings only, a completed villa the
    owned things only; an undo shows them as before; every fragment exactly what it would be
    with nothing kept."""
    from card_data.games.carpe_diem.rules import CompleteVilla, RoundPlayed, SetResources
    from scenarios_carpe_diem import OPTIONS, PLAYERS

    drawn: list[str] = []
    original = SharedParts.render_block

    def counting(self, name, values, draw, where=None):
        return original(self, name, values, lambda: drawn.append(name) or draw(), where)

    monkeypatch.setattr(SharedParts, "render_block", counting)
    api = app.test_client()
    table = api.post("/api/tables", json={"game": "carpe_diem", "players": PLAYERS, "options": OPTIONS}).get_json()
    anna = phone(app, table, 0)

    def shown() -> tuple[str, set[str]]:
        """The live fragment, and which of the two blocks it drew again."""
        drawn.clear()
        fragment = live(anna, table)
        names = {name for name in drawn if name in ("cd-holdings", "cd-owned")}
        assert CSRF.sub("", fragment) == CSRF.sub("", drawn_afresh(app, anna, table))  # (draws in a new store)
        return fragment, names

    def entered(event) -> tuple[str, set[str]]:
        assert api.post(f"/api/tables/{table['code']}/events", json=event.to_json()).status_code == 200
        return shown()

    assert entered(RoundPlayed())[1] == set()  # drawn when the phone opened the page; a round changes neither
    enter(api, table, "a point")
    assert shown()[1] == set()
    holdings = re.compile(r'<ul id="cd-holdings">.*?</ul>', re.S)
    fragment, redrawn = entered(SetResources(seat=0, herbs=4, coins=1))
    assert redrawn == {"cd-holdings"} and "4 herbs" in holdings.search(fragment).group(0)
    villas = re.compile(r"Villas recorded \(chimneys\)</th>\s*<td>([^<]*)</td>")
    assert villas.search(fragment).group(1) == "—"
    fragment, redrawn = entered(CompleteVilla(seat=0, chimneys=3))
    assert redrawn == {"cd-owned"} and villas.search(fragment).group(1) == "3"
    assert api.post(f"/api/tables/{table['code']}/undo").status_code == 200
    undone, redrawn = shown()
    assert redrawn == set() and villas.search(undone).group(1) == "—"  # as before the villa: kept
