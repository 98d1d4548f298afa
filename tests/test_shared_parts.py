"""The parts of a table's live fragment every phone sees alike (the history, the game's own
part) are rendered once per table version and shared between the phones polling it
(companion/scorekeeping/shared_parts.py), and each phone still gets its own forms' CSRF token."""

from __future__ import annotations

import re

import pytest

from companion import create_app
from companion.scorekeeping.shared_parts import SharedParts

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
