"""Duels of Cartisora at the table: the next round begins with its reveal (fewer taps, each
still one entry that Undo takes back whole), and the table option for the 2019 First Blood
reading, chosen on the new-table form and shown on the table's page. Pages are read with an
HTML parser (the forms as test_table_forms posts them); no browser."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
import scenarios_cartisora as s  # tests/ is on sys.path under pytest
from bs4 import BeautifulSoup
from sqlalchemy import insert
from test_table_forms import form_for, post_data

from card_data.loader import load_database
from companion.scorekeeping.store.storage import TableStore, game_tables, table_events
from companion.scorekeeping.tables import TableService


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


def page_of(client, url: str) -> BeautifulSoup:
    return BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")


def code_of(client, url: str) -> str:
    return re.search(r'class="table-code">([A-Z0-9]{6})<', client.get(url).get_data(as_text=True)).group(1)


def enter(client, url: str, event: dict) -> None:
    """``event`` entered through the page form that offers it."""
    form = form_for(page_of(client, url), event)
    assert form is not None, f"no form for {event}"
    response = client.post(form["action"], data=post_data(form, event))
    assert response.status_code == 303, (event, response.get_data(as_text=True)[:1500])


def test_the_new_table_form_offers_both_first_blood_readings_with_the_rulebook_quoted(client):
    page = page_of(client, "/tables/new/cartisora")
    select = page.select_one('select[name="first_blood"]')
    offered = [(o["value"], o.has_attr("selected")) for o in select.select("option") if o["value"]]
    assert offered == [("first_win", True), ("first_round", False)]  # today's reading stays the default
    help_text = select.find_parent("label").get_text(" ", strip=True)
    assert '"The first player to win a contest gets the First Blood token." (2019 rulebook, Ending the Game, ' \
           'Bonus Points)' in help_text
    assert '"If this is the first round, also take the First Blood token." (2019 rulebook, How to Play, ' \
           'Round Result)' in help_text
    german = BeautifulSoup(client.get("/tables/new/cartisora", headers={"Accept-Language": "de"})
                           .get_data(as_text=True), "html.parser")
    label = german.select_one('select[name="first_blood"]').find_parent("label").get_text(" ", strip=True)
    assert "Nur wer Runde 1 gewinnt" in label
    assert "„Ist dies die erste Runde, nimm auch den First-Blood-Marker.“" in label
    assert "first" not in label.replace("First Blood", "").replace("First-Blood", "").lower(), label


def test_a_game_played_through_the_page_forms_in_fewer_taps_with_round_1s_first_blood(client):
    made = client.post("/tables/new/cartisora", data={"players[]": s.PLAYERS, "edition": "2019",
                                                       "first_blood": "first_round"})
    assert made.status_code == 303, made.get_data(as_text=True)[:2000]
    url = made.headers["Location"]
    code = code_of(client, url)
    shown = page_of(client, url).select_one("#dc-first-blood").get_text(" ", strip=True)
    assert shown == "goes to the winner of round 1; nobody after a tied first round (2019 rulebook, How to Play, " \
                    "Round Result)"
    for n, event in enumerate(s.EVENTS_FEWER_TAPS, start=1):
        if event.get("round"):  # the next round's reveal is offered while the last one awaits reactions
            form = form_for(page_of(client, url), event)
            assert form.select_one('input[type="hidden"][name="round"]')["value"] == str(event["round"]), n
            assert form.select_one("button").get_text(strip=True) == f"Reveal round {event['round']}"
        enter(client, url, event)
        if n == 4:  # round 1 (a tie) resolved, round 2 revealed: no one can take First Blood now
            note = page_of(client, url).select_one("#dc-scores").get_text(" ", strip=True)
            assert "Nobody takes First Blood in this game: round 1 was not won." in note
    entries = client.get(f"/api/tables/{code}/events").get_json()["events"]
    assert len(entries) == len(s.EVENTS_FEWER_TAPS) == 17  # 25 with a "Next round" after every reveal
    table = client.get(f"/api/tables/{code}").get_json()
    assert table["outcome"]["finished"] and table["outcome"]["scores"] == [22.0, 6.0]  # 24 with First Blood
    history = page_of(client, f"{url}/history").get_text(" ", strip=True)
    assert "Round 1 resolved: tie (Ann 5, Bob 5): cards to the tie pool; round 2 begins. Round 2: Ann revealed " \
           "Knight 2, Bob revealed Fencer 4" in history
    assert "takes First Blood" not in history


def test_undo_of_a_reveal_that_began_the_round_takes_back_the_round_end_too(client):
    made = client.post("/api/tables", json={"game": "cartisora", "players": s.PLAYERS, "options": s.OPTIONS})
    token, code = made.get_json()["token"], made.get_json()["code"]
    url = f"/t/{token}"
    for event in s.EVENTS_FEWER_TAPS[:3]:  # decks, round 1 revealed (a tie)
        enter(client, url, event)
    before = client.get(f"/api/tables/{code}").get_json()["state"]
    combined = s.EVENTS_FEWER_TAPS[3]
    assert combined["round"] == 2
    enter(client, url, combined)
    after = client.get(f"/api/tables/{code}").get_json()["state"]
    assert (after["round"], after["step"], len(after["round_log"])) == (2, "react", 1)  # round 1 ended
    assert client.post(f"{url}/undo", data={"_seq": "4"}).status_code == 303
    assert client.get(f"/api/tables/{code}").get_json()["state"] == before  # round 1 revealed, not resolved
    entries = client.get(f"/api/tables/{code}/events").get_json()["events"]
    assert [e["status"] for e in entries] == ["active"] * 3 + ["undone"]
    page = page_of(client, url)
    assert "Game 1, round 1: revealed" in page.select_one("#dc-status").get_text(" ", strip=True)
    assert form_for(page, combined) is not None  # the same tap is offered again


def test_a_table_stored_before_the_option_replays_as_before(tmp_path):
    """Options stored without first_blood (and reveals without a round): after a tied round 1,
    round 2's winner takes First Blood, as such tables always did."""
    store = TableStore(f"sqlite:///{tmp_path / 'old.sqlite'}")
    events = [{"type": "pick_deck", "seat": 0, "deck": "knight"}, {"type": "pick_deck", "seat": 1, "deck": "fencer"},
              {"type": "reveal", "cards": ["knight-5", "fencer-5"], "face_up": []}, {"type": "next_round"},
              {"type": "reveal", "cards": ["knight-2", "fencer-8"], "face_up": []}, {"type": "next_round"}]
    now = datetime(2026, 11, 23, tzinfo=UTC)
    with store.engine.begin() as conn:
        table_id = conn.execute(insert(game_tables).values(
            token="t" * 22, code="OLDDUE", game="cartisora", players=["Ann", "Bob"], options={"edition": "2019"},
            version=len(events), created_at=now)).inserted_primary_key[0]
        for seq, payload in enumerate(events, start=1):
            conn.execute(insert(table_events).values(table_id=table_id, seq=seq, payload=payload, status="active",
                                                     corrects=None, created_at=now))
    view = TableService(store, load_database()).view("OLDDUE")
    assert view.state.options.first_blood == "first_win"
    assert view.state.first_blood_side == 1 and view.state.round == 3
    assert [h.text for h in view.history][-1] == ("Round 2 resolved: Bob wins by Overpower (Ann 2, Bob 8); Bob takes "
                                                  "First Blood; round 3 begins")
    store.dispose()


def test_two_phones_sending_the_next_rounds_reveal_record_it_once_and_never_as_a_later_round(client):
    """The reveal names its round: the same tap from a second phone is a repeat, told
    neutrally; other cards for the round already revealed lost the race for that step, told
    neutrally too (with the entry to correct), and never recorded as round 3's reveal."""
    made = client.post("/api/tables", json={"game": "cartisora", "players": s.PLAYERS, "options": s.OPTIONS})
    token, code = made.get_json()["token"], made.get_json()["code"]
    url = f"/t/{token}"
    for event in s.EVENTS_FEWER_TAPS[:3]:
        enter(client, url, event)
    drawn = page_of(client, url)  # both phones show round 1 revealed
    combined = s.EVENTS_FEWER_TAPS[3]
    form = form_for(drawn, combined)
    assert client.post(form["action"], data=post_data(form, combined)).status_code == 303
    again = client.post(form["action"], data=post_data(form, combined), headers={"HX-Request": "true"})
    notice = BeautifulSoup(again.get_data(as_text=True), "html.parser").select_one("#already-done")
    assert notice is not None and notice.get_text(strip=True).startswith("Already recorded: Round 1 resolved")
    other = {**combined, "cards": ["knight-4", "fencer-6"]}
    conflict = client.post(form["action"], data=post_data(form, other), headers={"HX-Request": "true"})
    page = BeautifulSoup(conflict.get_data(as_text=True), "html.parser")
    assert conflict.status_code == 200 and page.select_one("#rule-error") is None
    notice = page.select_one("#already-done").get_text(" ", strip=True)
    assert notice.startswith("Another phone entered this first: Round 1 resolved") and "Yours was not entered" in notice
    assert page.select_one("#retry-form") is None
    entries = client.get(f"/api/tables/{code}/events").get_json()["events"]
    assert len(entries) == 4 and client.get(f"/api/tables/{code}").get_json()["state"]["round"] == 2
