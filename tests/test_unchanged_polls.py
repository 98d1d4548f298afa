"""Unchanged polls are cheap (one read without a transaction on PostgreSQL, statements built
once) and still honest: two server processes on one database, a change made through one is
seen by the next poll through the other, and a guesser is refused even a conditional poll."""

from __future__ import annotations

import importlib

from companion import create_app

PLAYERS = ["Anna", "Bea"]


def make_app(database_url: str, **config):
    return create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                       "WTF_CSRF_ENABLED": False, **config})


def dispose(*apps) -> None:
    for app in apps:
        app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_a_poll_after_another_servers_change_shows_it(database_url):
    """Phone A polls server 1 (204 / 304: nothing changed); phone B enters an event through
    server 2; A's next poll through server 1, with the same version it held, gets the change."""
    event = importlib.import_module("scenarios_carpe_diem").EVENTS[0]
    first, second = make_app(database_url), make_app(database_url)
    poller, other = first.test_client(), second.test_client()
    table = poller.post("/api/tables", json={"game": "carpe_diem", "players": PLAYERS}).get_json()
    code, token = table["code"], table["token"]
    live = f"/t/{token}/live?v=0"
    for _ in range(2):  # the second poll finds whatever the first left behind, if anything
        same = poller.get(live, headers={"HX-Request": "true", "Accept-Encoding": "gzip"})
        assert same.status_code == 204 and same.get_data() == b""
        assert "Content-Encoding" not in same.headers  # no gzip header on a body that is not there
        assert same.headers["X-Frame-Options"] == "DENY" and "Accept-Encoding" in same.headers["Vary"]
        unchanged = poller.get(f"/api/tables/{code}", headers={"If-None-Match": '"0"'})
        assert unchanged.status_code == 304 and unchanged.headers["ETag"] == '"0"'
        assert unchanged.headers["Cache-Control"] == "no-cache"
        assert unchanged.headers["X-Content-Type-Options"] == "nosniff" and unchanged.get_data() == b""

    assert other.post(f"/api/tables/{code}/events", json=event).status_code == 200

    fresh = poller.get(live, headers={"HX-Request": "true"})
    assert fresh.status_code == 200 and 'data-version="1"' in fresh.get_data(as_text=True)
    changed = poller.get(f"/api/tables/{code}", headers={"If-None-Match": '"0"'})
    assert changed.status_code == 200 and changed.headers["ETag"] == '"1"'
    assert changed.get_json()["version"] == 1
    assert poller.get(f"/t/{token}/live?v=1", headers={"HX-Request": "true"}).status_code == 204
    assert poller.get(f"/api/tables/{code}", headers={"If-None-Match": '"1"'}).status_code == 304
    dispose(first, second)


def test_a_guesser_is_refused_even_a_conditional_poll_of_a_right_code(database_url):
    """Misses counted through server 1 block look-ups by code through server 2, the cheap
    conditional poll included (a 304 would tell the guesser the code exists); a code that does
    not exist is refused too, and another client still polls."""
    first, second = make_app(database_url, LOOKUP_MAX_MISSES=3), make_app(database_url, LOOKUP_MAX_MISSES=3)
    table = first.test_client().post("/api/tables", json={"game": "carpe_diem", "players": PLAYERS}).get_json()
    guesser = {"REMOTE_ADDR": "10.3.3.3"}
    for _ in range(3):
        assert first.test_client().get("/api/tables/ZZZZZZ", environ_base=guesser).status_code == 404
    client = second.test_client()
    for code in ("ZZZZZZ", "YYYYYY", table["code"], table["code"].lower()):
        refused = client.get(f"/api/tables/{code}", headers={"If-None-Match": '"0"'}, environ_base=guesser)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0, code
    polled = client.get(f"/api/tables/{table['code']}", headers={"If-None-Match": '"0"'},
                        environ_base={"REMOTE_ADDR": "10.4.4.4"})
    assert polled.status_code == 304
    dispose(first, second)
