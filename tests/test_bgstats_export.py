"""The BG Stats export: every finished game's play validates against BG Stats' documented import
format (tests/bgstats_play.schema.json, written from "Push plays to BG Stats from other apps or
websites", https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/),
with the real start player, numbers for scores, stable uuid5 ids, the phone's local date and the
game's duration from its first entry to its last; and the page's buttons that send it."""

from __future__ import annotations

import json
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import jsonschema
import pytest
from phones import PHONE, new_table
from test_scorekeeper_api import GAMES, create, play, post, scenario

from companion.scorekeeping.pages.exports import server_zone_name

SCHEMA = json.loads((Path(__file__).parent / "bgstats_play.schema.json").read_text(encoding="utf-8"))
STARTS = {"carpe_cras": 0, "cahrd": 0, "carpe_diem": 0, "cartisora": None}
"""Who took each scenario's first turn (Duels of Cartisora reveals both cards at once: no one)."""


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


def export(client, code: str, **query) -> dict:
    response = client.get(f"/api/tables/{code}/export.bgstats.json", query_string=query)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Content-Disposition"].endswith('.bgstats.json"')
    return response.get_json()


def mirrored_carpe_cras() -> list[dict]:
    """The Carpe Cras scenario with the seats swapped: Blue (seat 1) rolls low, chooses to
    start, and plays what Red played; Red (seat 0) plays what Blue played."""
    events = []
    for event in scenario("carpe_cras").EVENTS:
        event = dict(event)
        for key in ("seat", "starting_seat"):
            if key in event:
                event[key] = 1 - event[key]
        if "rolls" in event:
            event["rolls"] = list(reversed(event["rolls"]))
        if "agency_lane_0" in event:
            event["agency_lane_0"], event["agency_lane_1"] = event["agency_lane_1"], event["agency_lane_0"]
        events.append(event)
    return events


def test_the_schema_is_a_valid_json_schema_and_refuses_the_old_shape():
    """The schema itself is valid, and it is not vacuous: the shape the companion wrote before
    (BG Stats' undocumented backup shape, scores as strings) fails it."""
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    old = {"about": "A play", "players": [{"id": 1, "name": "Ann"}], "games": [{"id": 1, "name": "X"}],
           "plays": [{"playDate": "2026-11-21 19:00:00", "gameRefId": 1, "playerScores": [{"score": "3"}]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(old, SCHEMA)
    string_score = {"sourceName": "x", "sourcePlayId": "1", "playDate": "2026-11-21 19:00:00",
                    "game": {"name": "X"}, "players": [{"name": "Ann", "score": "3"}]}
    with pytest.raises(jsonschema.ValidationError, match="is not of type 'number'"):
        jsonschema.validate(string_score, SCHEMA)


@pytest.mark.parametrize("game", GAMES)
def test_every_games_play_passes_the_documented_format(client, game):
    s = scenario(game)
    table = create(client, game)
    assert client.get(f"/api/tables/{table['code']}/export.bgstats.json").status_code == 409
    final = play(client, table["code"], s.EVENTS)
    data = export(client, table["code"], tz="Europe/Berlin")
    jsonschema.validate(data, SCHEMA)
    assert [p["name"] for p in data["players"]] == s.PLAYERS
    assert [p["winner"] for p in data["players"]] == [i in s.WINNERS for i in range(len(s.PLAYERS))]
    assert [p["score"] for p in data["players"]] == final["outcome"]["scores"]
    assert all(type(p["score"]) in (int, float) for p in data["players"])  # numbers, never "3"
    assert [p["rank"] for p in data["players"] if p["winner"]] == [1] * len(s.WINNERS)
    assert [p["startPlayer"] for p in data["players"]] == [i == STARTS[game] for i in range(len(s.PLAYERS))]
    assert data["game"]["name"] and data["game"]["highestWins"] is True
    assert f"table {table['code']}" in data["comments"]


def test_the_start_player_is_who_started_not_seat_one(client):
    """Blue (seat 1, second in the list) starts a mirrored Carpe Cras game: the play says Blue."""
    table = create(client, "carpe_cras")
    final = play(client, table["code"], mirrored_carpe_cras())
    assert final["outcome"]["winners"] == [1]
    data = export(client, table["code"])
    jsonschema.validate(data, SCHEMA)
    assert [(p["name"], p["startPlayer"]) for p in data["players"]] == [("Red", False), ("Blue", True)]
    assert [(p["winner"], p["rank"]) for p in data["players"]] == [(False, 2), (True, 1)]


def test_ids_are_uuids_stable_across_exports_and_different_across_tables(client):
    s = scenario("carpe_cras")
    first, second = create(client, "carpe_cras"), create(client, "carpe_cras")
    for table in (first, second):
        play(client, table["code"], s.EVENTS)
    once, again = export(client, first["code"]), export(client, first["code"])
    other = export(client, second["code"])
    assert once == again  # the same file, ids and all
    ids = [once["sourcePlayId"], once["game"]["sourceGameId"], *(p["sourcePlayerId"] for p in once["players"])]
    assert all(uuid.UUID(i).version == 5 for i in ids)
    assert len(set(ids)) == len(ids)
    assert other["sourcePlayId"] != once["sourcePlayId"]  # another table is another play
    # the same people and game at another table: BG Stats matches them again without asking
    assert [p["sourcePlayerId"] for p in other["players"]] == [p["sourcePlayerId"] for p in once["players"]]
    assert other["game"]["sourceGameId"] == once["game"]["sourceGameId"]


def test_the_date_is_the_phones_and_the_duration_runs_from_first_to_last_entry(client, monkeypatch):
    """Created at 19:00 UTC, first entry at 19:05, the game ends 47 minutes later: a Berlin
    phone's play is dated 20:05 (UTC+1 in November) and lasts 47 minutes; without a zone the
    server's is used; a made-up zone is a 400 naming the field."""
    import companion.scorekeeping.store.storage

    s = scenario("carpe_cras")
    clock = [datetime(2026, 11, 21, 19, 0, tzinfo=UTC)]
    monkeypatch.setattr(companion.scorekeeping.store.storage, "_now", lambda: clock[0])
    table = create(client, "carpe_cras")
    clock[0] += timedelta(minutes=5)
    for i, event in enumerate(s.EVENTS):
        if i:
            clock[0] += timedelta(minutes=47) / (len(s.EVENTS) - 1)
        assert post(client, table["code"], event).status_code == 200
    clock[0] += timedelta(hours=2)  # looking at the result later does not lengthen the game
    berlin = export(client, table["code"], tz="Europe/Berlin")
    assert (berlin["playDate"], berlin["durationMin"]) == ("2026-11-21 20:05:00", 47)
    assert export(client, table["code"], tz="America/New_York")["playDate"] == "2026-11-21 14:05:00"
    first_entry = datetime(2026, 11, 21, 19, 5, tzinfo=UTC)
    assert export(client, table["code"])["playDate"] == first_entry.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    bad = client.get(f"/api/tables/{table['code']}/export.bgstats.json", query_string={"tz": "Mars/Olympus"})
    assert bad.status_code == 400 and "tz" in bad.get_json()["error"]
    too_long = client.get(f"/api/tables/{table['code']}/bgstats", query_string={"tz": "A" * 65})
    assert too_long.status_code == 400 and "tz" in too_long.get_json()["error"]


def test_the_export_dates_the_play_in_the_zone_of_the_phones_cookie(client):
    """One way carries a browser's zone: the ``tz`` cookie the pages' script keeps (the one the
    pages' times are in, companion/web/time_zone.py). The table page's export form has no zone field
    of its own; the ``tz`` parameter (a client that is not a browser) wins over the cookie; a
    cookie naming no zone is ignored (the server's zone, as with none), never a 400."""
    s = scenario("carpe_cras")
    table = create(client, "carpe_cras")
    play(client, table["code"], s.EVENTS)
    first = datetime.fromisoformat(client.get(f"/api/tables/{table['code']}/events").get_json()["events"][0]["created_at"])
    local = {zone: first.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M:%S")
             for zone in ("Asia/Kolkata", "America/St_Johns")}
    server = first.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    form = client.get(f"/t/{table['token']}").get_data(as_text=True)
    form = form[form.index('id="bgstats"'):form.index("</form>", form.index('id="bgstats"'))]
    assert 'name="tz"' not in form
    client.set_cookie("tz", "Asia/Kolkata")
    assert export(client, table["code"])["playDate"] == local["Asia/Kolkata"]
    assert export(client, table["code"], tz="America/St_Johns")["playDate"] == local["America/St_Johns"]
    redirect = client.get(f"/api/tables/{table['code']}/bgstats")
    assert redirect.status_code == 303 and "Cookie" in redirect.headers["Vary"]
    assert json.loads(parse_qs(urlsplit(redirect.headers["Location"]).query)["data"][0])["playDate"] == local["Asia/Kolkata"]
    for made_up in ("Mars/Olympus", "Europe/" + "B" * 100):
        client.set_cookie("tz", made_up)
        assert export(client, table["code"])["playDate"] == server, made_up


def test_open_in_bg_stats_redirects_to_its_documented_import_link(client):
    s = scenario("cahrd")
    table = create(client, "cahrd")
    assert client.get(f"/api/tables/{table['code']}/bgstats").status_code == 409
    play(client, table["code"], s.EVENTS)
    response = client.get(f"/api/tables/{table['code']}/bgstats", query_string={"tz": "Europe/Berlin"})
    assert response.status_code == 303
    link = urlsplit(response.headers["Location"])
    assert (link.scheme, link.netloc, link.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    data = json.loads(parse_qs(link.query)["data"][0])
    jsonschema.validate(data, SCHEMA)
    assert data == export(client, table["code"], tz="Europe/Berlin")


def first_entry_time(server: str, code: str) -> datetime:
    with urllib.request.urlopen(f"{server}/api/tables/{code}/events") as response:
        return datetime.fromisoformat(json.load(response)["events"][0]["created_at"])


def test_a_phone_sends_its_time_zone_with_the_export_buttons(browser, server):
    """In Chromium at 390 x 844 set to Berlin, on a finished table: "Download the BG Stats play"
    downloads a play dated in Berlin time (the zone the page's script keeps in the ``tz`` cookie), and "Open in BG Stats" opens BG Stats' import link
    with the same play. With JavaScript off, the page says the date is in the server's zone,
    and the download is dated so."""
    s = scenario("carpe_cras")
    table = new_table(server, "carpe_cras", len(s.EVENTS))
    first = first_entry_time(server, table["code"])
    context = browser.new_context(**PHONE, timezone_id="Europe/Berlin", accept_downloads=True)
    page = context.new_page()
    page.goto(f"{server}/t/{table['token']}")
    assert page.locator('#bgstats input[name="tz"]').count() == 0  # the zone goes in the pages' cookie
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the BG Stats play").click()
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    jsonschema.validate(data, SCHEMA)
    assert data["playDate"] == first.astimezone(ZoneInfo("Europe/Berlin")).strftime("%Y-%m-%d %H:%M:%S")

    opened = []
    page.route("https://app.bgstatsapp.com/**", lambda route: (opened.append(route.request.url),
                                                                route.fulfill(body="BG Stats")))
    page.get_by_role("button", name="Open in BG Stats").click()
    page.wait_for_url("https://app.bgstatsapp.com/**")
    assert json.loads(parse_qs(urlsplit(opened[0]).query)["data"][0]) == data
    context.close()

    plain = browser.new_context(**PHONE, timezone_id="Europe/Berlin", accept_downloads=True,
                                java_script_enabled=False)
    page = plain.new_page()
    page.goto(f"{server}/t/{table['token']}")
    assert f"server's time zone ({server_zone_name()})" in page.locator("#bgstats").inner_text()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the BG Stats play").click()
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["playDate"] == first.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    plain.close()
