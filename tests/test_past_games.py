"""Past games and statistics (companion/scorekeeping/pages/past_games.py): the finished tables on this server with
their winner and duration, games, wins, average and best score per player and per game, both as
CSV, and the past games as BG Stats plays (tests/bgstats_play.schema.json). Scripted games: Carpe Cras (seat 0 wins 15 to 0 in morale) and Duels of Cartisora
(Ann beats Bob 24 to 6)."""

from __future__ import annotations

import csv
import importlib
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import jsonschema
import pytest
from bs4 import BeautifulSoup
from sqlalchemy import update

from companion.scorekeeping.pages.past_games import PAST_CSV_COLUMNS, STATS_CSV_COLUMNS
from companion.scorekeeping.store.storage import game_tables, table_events

START = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
PLAY_SCHEMA = json.loads((Path(__file__).parent / "bgstats_play.schema.json").read_text(encoding="utf-8"))


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


def play(app, game: str, players: list[str], started: datetime, minutes: int, upto: int | None = None) -> str:
    """A table of ``game`` for ``players`` with its scenario's events, the first entry at
    ``started`` and the last ``minutes`` later, the others evenly between; its token."""
    s = scenario(game)
    tables = app.extensions["companion.scorekeeping.tables"]
    view = tables.create(game, players, s.OPTIONS)
    for event in s.EVENTS[:upto]:
        view = tables.act(view.record.token, event)
    store = tables.store
    count = len(s.EVENTS[:upto])
    with store.engine.begin() as conn:
        conn.execute(update(game_tables).where(game_tables.c.id == view.record.id).values(created_at=started))
        for seq in range(1, count + 1):
            at = started + timedelta(minutes=minutes) * (seq - 1) / max(1, count - 1)
            conn.execute(update(table_events).where(table_events.c.table_id == view.record.id,
                                                    table_events.c.seq == seq).values(created_at=at))
        # A new version, so that the server's kept fold is read again from the database.
        conn.execute(update(game_tables).where(game_tables.c.id == view.record.id)
                     .values(version=game_tables.c.version + 1))
    return view.record.token


@pytest.fixture
def client(scorekeeper_app):
    app = scorekeeper_app
    play(app, "carpe_cras", ["Red", "Blue"], START, 47)
    play(app, "carpe_cras", ["Ann", "Red"], START + timedelta(days=1), 30)
    play(app, "cartisora", ["Ann", "Bob"], START + timedelta(days=2), 12)
    play(app, "carpe_cras", ["Zed", "Yan"], START + timedelta(days=3), 5, upto=6)  # still going
    return app.test_client()


def cells(table) -> list[list[str]]:
    return [[c.get_text(" ", strip=True) for c in tr.find_all(["th", "td"])] for tr in table.select("tbody tr")]


def test_past_games_lists_finished_tables_with_winner_and_duration(client):
    response = client.get("/tables/past")
    assert response.status_code == 200
    soup = BeautifulSoup(response.get_data(as_text=True), "html.parser")
    rows = soup.select("#past-games tbody tr")
    assert [r["data-game"] for r in rows] == ["cartisora", "carpe_cras", "carpe_cras"], "finished ones, newest first"
    players = [[li.get_text(" ", strip=True) for li in r.select(".past-players li")] for r in rows]
    assert players == [["Ann ★ (winner) : 24", "Bob : 6"], ["Ann ★ (winner) : 15", "Red : 0"],
                       ["Red ★ (winner) : 15", "Blue : 0"]]
    assert [r.select_one(".past-duration").get_text(strip=True) for r in rows] == [
        "Duration:12 min", "Duration:30 min", "Duration:47 min"]  # the label shows on a phone only (CSS)
    assert [r.select_one("time")["datetime"] for r in rows][2] == (START + timedelta(minutes=47)).isoformat()
    assert "Blue's morale fell to 0" in rows[2].select_one(".past-result").get_text()
    assert "Zed" not in str(soup), "an unfinished table is no past game"
    assert not soup.select('a[href*="/t/"]'), "no link to a table: its link lets anyone change it"


def test_statistics_per_player_and_per_game(client):
    soup = BeautifulSoup(client.get("/tables/stats").get_data(as_text=True), "html.parser")
    assert cells(soup.select_one("#stats-players")) == [["Ann", "2", "2"], ["Red", "2", "1"], ["Blue", "1", "0"],
                                                        ["Bob", "1", "0"]]
    assert cells(soup.select_one("#stats-by-game")) == [
        ["Red", "Carpe Cras", "2", "1", "7.5", "15"], ["Ann", "Carpe Cras", "1", "1", "15", "15"],
        ["Blue", "Carpe Cras", "1", "0", "0", "0"],
        ["Ann", "Duels of Cartisora", "1", "1", "24", "24"], ["Bob", "Duels of Cartisora", "1", "0", "6", "6"]]
    assert cells(soup.select_one("#stats-games")) == [["Carpe Cras", "2", "7.5", "15"],
                                                      ["Duels of Cartisora", "1", "15", "24"]]


def test_statistics_in_german(client):
    soup = BeautifulSoup(client.get("/tables/stats", headers={"Accept-Language": "de"}).get_data(as_text=True),
                         "html.parser")
    assert soup.html["lang"] == "de"
    assert soup.h1.get_text() == "Statistik"
    assert ["Red", "Carpe Cras", "2", "1", "7,5", "15"] in cells(soup.select_one("#stats-by-game"))
    past = client.get("/tables/past", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Vergangene Partien" in past and "47 Min." in past


def read_csv(response) -> list[dict]:
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def test_past_games_and_statistics_as_csv(client):
    past = read_csv(client.get("/tables/past.csv"))
    assert list(past[0]) == PAST_CSV_COLUMNS
    assert [(r["game"], r["seat"], r["player"], r["score"], r["winner"], r["duration_min"]) for r in past] == [
        ("Duels of Cartisora", "1", "Ann", "24", "yes", "12"), ("Duels of Cartisora", "2", "Bob", "6", "no", "12"),
        ("Carpe Cras", "1", "Ann", "15", "yes", "30"), ("Carpe Cras", "2", "Red", "0", "no", "30"),
        ("Carpe Cras", "1", "Red", "15", "yes", "47"), ("Carpe Cras", "2", "Blue", "0", "no", "47")]
    assert past[-1]["finished"] == "2026-11-20T18:47:00+00:00" and past[-1]["score_label"] == "Morale"
    stats = read_csv(client.get("/tables/stats.csv"))
    assert list(stats[0]) == STATS_CSV_COLUMNS
    assert {"player": "Red", "game": "", "games": "2", "wins": "1", "average_score": "", "best_score": ""} in stats
    assert {"player": "Red", "game": "Carpe Cras", "games": "2", "wins": "1", "average_score": "7.5",
            "best_score": "15"} in stats


def test_a_player_named_like_a_formula_stays_text_in_the_csv(scorekeeper_app):
    play(scorekeeper_app, "carpe_cras", ["=HYPERLINK(1)", "Blue"], START, 3)
    client = scorekeeper_app.test_client()
    assert read_csv(client.get("/tables/past.csv"))[0]["player"] == "'=HYPERLINK(1)"
    assert read_csv(client.get("/tables/stats.csv"))[0]["player"] == "'=HYPERLINK(1)"


def test_no_finished_game_yet(scorekeeper_app):
    client = scorekeeper_app.test_client()
    assert "No game on this server has finished yet." in client.get("/tables/past").get_data(as_text=True)
    assert "No game on this server has finished yet." in client.get("/tables/stats").get_data(as_text=True)
    assert read_csv(client.get("/tables/stats.csv")) == []
    plays = client.get("/tables/past-plays.json")
    assert plays.status_code == 200 and plays.get_json() == []
    assert "BG Stats" not in client.get("/tables/past").get_data(as_text=True)


def test_a_table_is_listed_once_it_finishes_and_left_out_once_undone(scorekeeper_app):
    tables = scorekeeper_app.extensions["companion.scorekeeping.tables"]
    client = scorekeeper_app.test_client()
    events = scenario("carpe_cras").EVENTS
    token = play(scorekeeper_app, "carpe_cras", ["Zed", "Yan"], START, 5, upto=len(events) - 1)
    assert "Zed" not in client.get("/tables/past").get_data(as_text=True)
    tables.act(token, events[-1])
    assert "Zed" in client.get("/tables/past").get_data(as_text=True)
    tables.undo(token)
    assert "Zed" not in client.get("/tables/past").get_data(as_text=True)


def test_past_games_as_bg_stats_plays_in_the_phones_time_zone(client):
    """Every finished game is a play in BG Stats' documented format, dated in the phone's zone
    (its tz cookie); the past games page opens each one in BG Stats by its own link, which
    carries that play and not the table's code."""
    client.set_cookie("tz", "Europe/Berlin")
    response = client.get("/tables/past-plays.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    plays = response.get_json()
    for one in plays:
        jsonschema.validate(one, PLAY_SCHEMA)
    assert [(p["game"]["name"], [(q["name"], q["score"], q["winner"]) for q in p["players"]], p["durationMin"])
            for p in plays] == [
        ("Duels of Cartisora", [("Ann", 24, True), ("Bob", 6, False)], 12),
        ("Carpe Cras", [("Ann", 15, True), ("Red", 0, False)], 30),
        ("Carpe Cras", [("Red", 15, True), ("Blue", 0, False)], 47)]
    assert plays[-1]["playDate"] == "2026-11-20 19:00:00"  # its first entry, 18:00 UTC, in Berlin
    assert len({p["sourcePlayId"] for p in plays}) == 3

    page = BeautifulSoup(client.get("/tables/past").get_data(as_text=True), "html.parser")
    links = [a["href"] for a in page.select("#past-games a.bgstats-play")]
    opened = [json.loads(parse_qs(urlsplit(href).query)["data"][0]) for href in links]
    assert [urlsplit(href).netloc for href in links] == ["app.bgstatsapp.com"] * 3
    assert opened == plays
    tokens = [record.token for record in client.application.extensions["companion.scorekeeping.tables"].store.newest(10)]
    assert len(tokens) == 4 and not any(token in href for token in tokens for href in links)


def test_past_games_times_say_their_zone(client):
    """Without the phone's zone a time is said in UTC; with it, in the phone's time."""
    page = BeautifulSoup(client.get("/tables/past").get_data(as_text=True), "html.parser")
    assert page.select("#past-games time")[-1].get_text().endswith(" UTC")
    client.set_cookie("tz", "Europe/Berlin")
    page = BeautifulSoup(client.get("/tables/past").get_data(as_text=True), "html.parser")
    last = page.select("#past-games time")[-1].get_text()
    assert "UTC" not in last and "7:47" in last
