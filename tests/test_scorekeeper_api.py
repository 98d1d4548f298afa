"""The scorekeeper's JSON API on a real database (SQLite; PostgreSQL too when CI provides it):
every game played to its end from a rulebook-based scenario, refusals that change nothing,
malformed input that is a 400 (never a 500), undo, corrections, concurrency and restarts."""

from __future__ import annotations

import csv
import importlib
import io
import threading

import pytest

from companion import create_app
from waiting import wait_for

GAMES = ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


def create(client, game: str, **overrides):
    s = scenario(game)
    body = {"game": game, "players": s.PLAYERS, "options": s.OPTIONS, **overrides}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def post(client, code: str, event: dict, **kw):
    return client.post(f"/api/tables/{code}/events", json=event, **kw)


def play(client, code: str, events: list[dict]) -> dict:
    data = None
    for i, event in enumerate(events):
        response = post(client, code, event)
        assert response.status_code == 200, (i, event, response.get_json())
        data = response.get_json()
    return data


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


@pytest.mark.parametrize("game", GAMES)
def test_a_short_game_is_played_to_its_end(client, game):
    s = scenario(game)
    table = create(client, game)
    assert table["version"] == 0 and not table["outcome"]["finished"]
    assert table["url"].endswith(f"/t/{table['token']}")
    final = play(client, table["code"], s.EVENTS)
    assert final["outcome"]["finished"] is True
    assert final["outcome"]["winners"] == s.WINNERS
    assert final["version"] == len(s.EVENTS)
    history = client.get(f"/api/tables/{table['code']}/events").get_json()["events"]
    assert len(history) == len(s.EVENTS) and all(h["text"] for h in history)
    # After the end, nothing more is accepted.
    assert post(client, table["code"], s.EVENTS[-1]).status_code == 422


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_event_is_422_and_changes_nothing(client, game):
    s = scenario(game)
    index, illegal, words = s.ILLEGAL
    table = create(client, game)
    play(client, table["code"], s.EVENTS[:index])
    before = client.get(f"/api/tables/{table['code']}").get_json()
    response = post(client, table["code"], illegal)
    assert response.status_code == 422
    body = response.get_json()
    assert words.lower() in (body["error"] + " " + body["rule"]).lower()
    assert body["rule"]
    after = client.get(f"/api/tables/{table['code']}").get_json()
    assert after == before


@pytest.mark.parametrize("game", GAMES)
def test_undo_returns_to_the_state_before(client, game):
    s = scenario(game)
    table = create(client, game)
    play(client, table["code"], s.EVENTS[:2])
    before = client.get(f"/api/tables/{table['code']}").get_json()
    assert post(client, table["code"], s.EVENTS[2]).status_code == 200
    undone = client.post(f"/api/tables/{table['code']}/undo").get_json()
    assert undone["state"] == before["state"]
    assert undone["version"] == before["version"] + 2
    history = client.get(f"/api/tables/{table['code']}/events").get_json()["events"]
    assert [h["status"] for h in history][-1] == "undone"


def test_undo_with_nothing_to_undo_is_refused(client):
    table = create(client, "cartisora")
    response = client.post(f"/api/tables/{table['code']}/undo")
    assert response.status_code == 422 and "nothing to undo" in response.get_json()["error"]


@pytest.mark.parametrize("game", GAMES)
def test_correcting_an_entry_replays_and_rechecks_the_rest(client, game):
    s = scenario(game)
    table = create(client, game)
    play(client, table["code"], s.EVENTS)
    # Correcting entry 1 into itself replays everything and keeps the same result.
    same = client.put(f"/api/tables/{table['code']}/events/1", json=s.EVENTS[0])
    assert same.status_code == 200, same.get_json()
    assert same.get_json()["outcome"]["winners"] == s.WINNERS
    # A correction that would make a later entry illegal is refused, and nothing changes.
    before = client.get(f"/api/tables/{table['code']}").get_json()
    index, illegal, _ = s.ILLEGAL
    bad = client.put(f"/api/tables/{table['code']}/events/{index}", json=illegal)
    assert bad.status_code == 422
    assert client.get(f"/api/tables/{table['code']}").get_json() == before


@pytest.mark.parametrize("body,field", [
    ({"game": "chess", "players": ["a", "b"]}, "game"),
    ({"game": "cartisora", "players": ["a", "b"], "colour": "red"}, "colour"),
    ({"game": "cartisora", "players": "ab"}, "players"),
    ({"game": "cartisora", "players": ["a", "b"], "options": {"no_such_option": 1}}, "options.no_such_option"),
])
def test_malformed_table_requests_are_400(client, body, field):
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert field in {e["field"] for e in response.get_json()["errors"]}


@pytest.mark.parametrize("game", GAMES)
def test_malformed_events_are_400_and_change_nothing(client, game):
    table = create(client, game)
    code = table["code"]
    first = scenario(game).EVENTS[0]
    for raw in (b"{not json", b"[1, 2]", b'"text"', b"{}"):
        response = client.post(f"/api/tables/{code}/events", data=raw, content_type="application/json")
        assert response.status_code == 400, raw
    unknown_type = post(client, code, {"type": "teleport"})
    assert unknown_type.status_code == 400
    extra = post(client, code, {**first, "sneaky": 1})
    assert extra.status_code == 400
    assert {"field": "sneaky", "message": "unknown field"} in extra.get_json()["errors"]
    assert client.get(f"/api/tables/{code}").get_json()["version"] == 0


def test_unknown_tables_are_404_and_guessing_codes_is_rate_limited(database_url):
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "LOOKUP_MAX_MISSES": 5})
    client = app.test_client()
    table = create(client, "cartisora")
    for _ in range(5):
        assert client.get("/api/tables/ZZZZZZ").status_code == 404
    limited = client.get("/api/tables/ZZZZZZ")
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0
    # While limited, even a right code is refused: guessing gains nothing.
    assert client.get(f"/api/tables/{table['code']}").status_code == 429
    other_client = app.test_client()
    assert other_client.get(f"/api/tables/{table['code']}",
                            environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code == 200
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_a_stale_if_match_is_409_the_table_changed(client):
    s = scenario("carpe_diem")
    table = create(client, "carpe_diem")
    assert post(client, table["code"], s.EVENTS[0], headers={"If-Match": '"0"'}).status_code == 200
    stale = post(client, table["code"], s.EVENTS[1], headers={"If-Match": '"0"'})
    body = stale.get_json()
    assert stale.status_code == 409 and body["error"] == "the table changed since the version you sent: reload"
    assert body["changes"] == [client.get(f"/api/tables/{table['code']}/events").get_json()["events"][0]["text"]]
    assert client.get(f"/api/tables/{table['code']}").get_json()["version"] == 1


@pytest.mark.parametrize("game", GAMES)
def test_two_phones_posting_at_once_never_lose_an_event(scorekeeper_app, game):
    """Phones race to post; every accepted event is in the log exactly once, every refusal
    left nothing behind, and nothing is a 500."""
    s = scenario(game)
    table = create(scorekeeper_app.test_client(), game)
    code = table["code"]
    results: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(4)

    def phone(event):
        client = scorekeeper_app.test_client()
        barrier.wait()
        status = post(client, code, event).status_code
        with lock:
            results.append(status)

    # Everyone sends the scenario's opening events at the same moment.
    threads = [threading.Thread(target=phone, args=(s.EVENTS[i % 2],)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert set(results) <= {200, 422}, results  # no If-Match: writers take turns, none gets a 409
    client = scorekeeper_app.test_client()
    history = client.get(f"/api/tables/{code}/events").get_json()
    assert len(history["events"]) == results.count(200) == history["version"]
    assert results.count(200) >= 1


def test_many_racing_writes_without_if_match_are_all_applied(scorekeeper_app):
    """Thirty phones post legal entries at once: each is applied, in turn; none is refused for
    the race, none is lost, and the version counts them."""
    table = create(scorekeeper_app.test_client(), "carpe_diem")
    results: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(30)

    def phone(n: int) -> None:
        client = scorekeeper_app.test_client()
        barrier.wait()
        status = post(client, table["code"], {"type": "set_resources", "seat": n % 2, "coins": n}).status_code
        with lock:
            results.append(status)

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(30)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert results == [200] * 30
    history = scorekeeper_app.test_client().get(f"/api/tables/{table['code']}/events").get_json()
    assert history["version"] == 30 and sorted(e["payload"]["coins"] for e in history["events"]) == list(range(30))


def test_a_read_is_one_moment_of_the_table(scorekeeper_app):
    """A table's state, version and history come from one transaction: while writers append,
    every read's version equals the entries it lists."""
    table = create(scorekeeper_app.test_client(), "carpe_diem")
    stop = threading.Event()

    def writer() -> None:
        client = scorekeeper_app.test_client()
        n = 0
        while not stop.is_set() and n < 60:
            post(client, table["code"], {"type": "set_resources", "seat": 0, "coins": n})
            n += 1

    threads = [threading.Thread(target=writer) for _ in range(2)]
    for th in threads:
        th.start()
    reader = scorekeeper_app.test_client()
    checked = 0
    while any(th.is_alive() for th in threads):
        events = reader.get(f"/api/tables/{table['code']}/events").get_json()
        assert events["version"] == len(events["events"]), events["version"]
        checked += 1
    stop.set()
    for th in threads:
        th.join()
    assert checked > 0


def test_restarting_the_app_keeps_every_table(database_url):
    s = scenario("cahrd")
    first = create_app({"TESTING": True, "DATABASE_URL": database_url})
    client = first.test_client()
    table = create(client, "cahrd")
    play(client, table["code"], s.EVENTS[:3])
    before = client.get(f"/api/tables/{table['code']}").get_json()
    first.extensions["companion.scorekeeping.tables"].store.dispose()

    second = create_app({"TESTING": True, "DATABASE_URL": database_url})
    after = second.test_client().get(f"/api/tables/{table['code']}").get_json()
    assert after == before
    second.extensions["companion.scorekeeping.tables"].store.dispose()


@pytest.mark.parametrize("game", GAMES)
def test_finished_games_export_csv_and_bg_stats(client, game):
    s = scenario(game)
    table = create(client, game)
    assert client.get(f"/api/tables/{table['code']}/export.csv").status_code == 409
    final = play(client, table["code"], s.EVENTS)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/tables/{table['code']}/export.csv").get_data(as_text=True))))
    assert [r["player"] for r in rows] == s.PLAYERS
    assert [r["winner"] == "yes" for r in rows] == [i in s.WINNERS for i in range(len(s.PLAYERS))]
    play_file = client.get(f"/api/tables/{table['code']}/export.bgstats.json").get_json()
    assert [p["name"] for p in play_file["players"]] == s.PLAYERS
    assert [p["winner"] for p in play_file["players"]] == [i in s.WINNERS for i in range(len(s.PLAYERS))]
    assert f"rounds played: {s.ROUNDS} " in play_file["comments"]
    assert play_file["durationMin"] >= 1
    assert final["outcome"]["finished"]


def test_openapi_document_is_valid_and_describes_every_game(client):
    from openapi_spec_validator import validate

    doc = client.get("/api/openapi.json").get_json()
    validate(doc)
    for game in GAMES:
        assert f"{game}.Event" in doc["components"]["schemas"]
    for path in ("/api/tables", "/api/tables/{code}", "/api/tables/{code}/events", "/api/tables/{code}/undo"):
        assert path in doc["paths"]


def test_openapi_document_is_generated_from_the_routes_and_models(scorekeeper_app):
    """Every API route is in the document, with the methods it serves; bodies and responses
    come from the models (a field of a model or an event is in the document)."""
    import re

    from card_data.games import registry

    doc = scorekeeper_app.test_client().get("/api/openapi.json").get_json()
    served: dict[str, set[str]] = {}
    for rule in scorekeeper_app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            served.setdefault(path, set()).update(m.lower() for m in rule.methods - {"HEAD", "OPTIONS"})
    assert {path: set(ops) for path, ops in doc["paths"].items()} == served
    schemas = doc["components"]["schemas"]
    assert set(schemas["TableOut"]["properties"]) >= {"code", "token", "version", "state", "outcome", "event"}
    assert set(schemas["ErrorOut"]["properties"]) == {"error", "rule", "errors", "changes"}
    for game, entry in registry().items():
        mapping = schemas[f"{game}.Event"]["discriminator"]["mapping"]
        assert set(mapping) == set(entry.engine.events)
        for name, ref in mapping.items():
            event = schemas[ref.rsplit("/", 1)[1]]
            assert event["properties"]["type"]["const"] == name
    post = doc["paths"]["/api/tables/{code}/events"]["post"]
    assert set(post["responses"]) == {"200", "400", "403", "404", "409", "413", "415", "422", "429"}


@pytest.mark.parametrize("game", GAMES)
def test_responses_are_what_the_document_says(client, game):
    """The models the OpenAPI document is generated from validate the real responses."""
    from companion.scorekeeping.api import ErrorOut, EventsOut, TableOut

    s = scenario(game)
    table = create(client, game)
    TableOut.model_validate(table)
    after = post(client, table["code"], s.EVENTS[0]).get_json()
    assert TableOut.model_validate(after).event.seq == 1
    EventsOut.model_validate(client.get(f"/api/tables/{table['code']}/events").get_json())
    refused = post(client, table["code"], {"type": "no_such_event"})
    assert refused.status_code == 400 and ErrorOut.model_validate(refused.get_json()).errors[0].field == "type"


def test_every_documented_error_of_entering_an_event_happens_as_documented(client):
    """Each status the document lists for POST /tables/{code}/events is produced by the request
    it describes, with an ErrorOut body: the document is not a wish list."""
    from companion.scorekeeping.api import ErrorOut

    s = scenario("carpe_cras")
    table = create(client, "carpe_cras")
    url = f"/api/tables/{table['code']}/events"
    at, illegal, _ = s.ILLEGAL
    play(client, table["code"], s.EVENTS[:at])
    first = s.EVENTS[at]
    answers = {
        400: post(client, table["code"], {"type": "no_such_event"}),
        403: client.post(url, json=first, headers={"Origin": "https://elsewhere.example"}),
        404: post(client, "ZZZZZZ", first),
        413: client.post(url, data=b'{"type": "' + b"x" * 70_000 + b'"}', content_type="application/json"),
        415: client.post(url, data="type=x", content_type="application/x-www-form-urlencoded"),
        409: post(client, table["code"], first, headers={"If-Match": '"99"'}),
        422: post(client, table["code"], illegal),
    }
    doc = client.get("/api/openapi.json").get_json()
    documented = {int(s) for s in doc["paths"]["/api/tables/{code}/events"]["post"]["responses"]} - {200, 429}
    assert set(answers) == documented
    for status, response in answers.items():
        assert response.status_code == status, (status, response.get_json())
        assert ErrorOut.model_validate(response.get_json()).error


def test_the_bg_stats_play_has_the_games_duration_and_rounds(client, monkeypatch):
    """The play's ``durationMin`` runs from the first entry to the entry that ended the game (a
    47-minute Carpe Cras game says 47), and its comments give the rounds the game played (BG
    Stats' documented format has no field for them)."""
    from datetime import UTC, datetime, timedelta

    import companion.scorekeeping.store.storage

    s = scenario("carpe_cras")
    clock = [datetime(2026, 11, 21, 19, 0, tzinfo=UTC)]
    monkeypatch.setattr(companion.scorekeeping.store.storage, "_now", lambda: clock[0])
    table = create(client, "carpe_cras")
    for event in s.EVENTS:
        clock[0] += timedelta(minutes=47) / len(s.EVENTS)
        assert post(client, table["code"], event).status_code == 200
    clock[0] += timedelta(hours=2)  # looking at the result later does not lengthen the game
    play = client.get(f"/api/tables/{table['code']}/export.bgstats.json", query_string={"tz": "UTC"}).get_json()
    assert play["durationMin"] == round(47 - 47 / len(s.EVENTS))
    assert "rounds played: 2 " in play["comments"]
    first_entry = datetime(2026, 11, 21, 19, 0, tzinfo=UTC) + timedelta(minutes=47) / len(s.EVENTS)
    assert play["playDate"] == first_entry.strftime("%Y-%m-%d %H:%M:%S")


def test_two_servers_on_one_database_racing_300_writes_apply_every_one(database_url):
    """Two companions (each with its own cache of folded tables, as two worker processes have)
    share one database; 300 entries posted at once through both, without If-Match, are all
    applied once, in turn, and both servers then show the same table."""
    apps = [create_app({"TESTING": True, "DATABASE_URL": database_url, "WTF_CSRF_ENABLED": False})
            for _ in range(2)]
    table = create(apps[0].test_client(), "carpe_diem")
    for app in apps:  # both have folded the table before the race
        assert app.test_client().get(f"/api/tables/{table['code']}").status_code == 200
    results: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(20)

    def phone(n: int) -> None:
        client = apps[n % 2].test_client()
        barrier.wait()
        for k in range(15):
            coins = n * 15 + k
            status = post(client, table["code"], {"type": "set_resources", "seat": n % 2, "coins": coins}).status_code
            with lock:
                results.append(status)

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(20)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    try:
        assert results == [200] * 300
        # (PostgreSQL's notice of the last write through the other server takes a millisecond.)
        seen = wait_for(lambda: (logs := [app.test_client().get(f"/api/tables/{table['code']}/events").get_json()
                                          for app in apps])[0]["version"] == logs[1]["version"] == 300 and logs,
                        "both servers to show version 300")
        assert seen[0] == seen[1]
        assert sorted(e["payload"]["coins"] for e in seen[0]["events"]) == list(range(300))
    finally:
        for app in apps:
            app.extensions["companion.scorekeeping.tables"].store.dispose()
