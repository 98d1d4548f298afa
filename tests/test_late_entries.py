"""Forms sent after another phone's entry (companion.scorekeeping.late_entries): recorded as typed unless the
change made them illegal; a repeat of an entry just recorded, or a second Undo of the same
entry, is answered neutrally, never with "Not allowed"."""

from __future__ import annotations

import importlib

import pytest
from bs4 import BeautifulSoup

DE = {"Accept-Language": "de"}
HTMX = {"HX-Request": "true"}


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


def new_table(client, game: str) -> tuple[str, str]:
    s = scenario(game)
    made = client.post("/api/tables", json={"game": game, "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    return made["code"], f"/t/{made['token']}"


def form(event: dict, version: int) -> dict:
    return {**{k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in event.items() if v is not None},
            "_version": str(version)}


def log(client, code: str) -> list[tuple[dict, str]]:
    return [(e["payload"], e["status"]) for e in client.get(f"/api/tables/{code}/events").get_json()["events"]]


def i_am(client, url: str, seat: int) -> None:
    assert client.post(f"{url}/me", data={"seat": str(seat)}).status_code == 303


def test_a_form_drawn_before_an_unrelated_entry_is_recorded_as_typed(client):
    code, url = new_table(client, "carpe_diem")
    drawn_at = client.get(f"/api/tables/{code}").get_json()["version"]
    # Another phone enters Bea's coins while Anna's phone has her form half filled.
    assert client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 1, "coins": 4}).status_code == 200
    answer = client.post(f"{url}/events", data=form({"type": "set_resources", "seat": 0, "coins": 7}, drawn_at),
                         headers=HTMX)
    assert answer.status_code == 200
    page = BeautifulSoup(answer.get_data(as_text=True), "html.parser")
    assert page.select_one("#rule-error") is None and page.select_one("#already-done") is None
    assert [(p["seat"], p["coins"]) for p, _ in log(client, code)] == [(1, 4), (0, 7)]


def test_both_phones_tapping_the_same_button_record_it_once_and_the_second_is_told_who(client):
    s = scenario("carpe_cras")
    code, url = new_table(client, "carpe_cras")
    for event in s.EVENTS[:8]:  # round 1 played out: "Start the round" is the button
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    start_round = s.EVENTS[8]
    i_am(client, url, 1)  # phone B: Blue
    assert client.post(f"{url}/events", data=form(start_round, 8), headers=HTMX).status_code == 200
    other = client.application.test_client()  # phone A, drawn at the same version
    i_am(other, url, 0)
    second = other.post(f"{url}/events", data=form(start_round, 8), headers=HTMX)
    assert second.status_code == 200
    page = BeautifulSoup(second.get_data(as_text=True), "html.parser")
    assert page.select_one("#rule-error") is None and "Not allowed" not in page.text
    notice = page.select_one("#already-done")
    assert notice["role"] == "status" and notice.text.strip().startswith("Already recorded by Blue: ")
    assert [p for p, _ in log(client, code)].count(start_round) == 2  # round 1's and this one: not a third
    assert len(log(client, code)) == 9


def test_a_repeat_without_a_known_phone_says_already_recorded_and_without_js_too(client):
    s = scenario("carpe_cras")
    code, url = new_table(client, "carpe_cras")
    for event in s.EVENTS[:3]:
        client.post(f"/api/tables/{code}/events", json=event)
    client.post(f"/api/tables/{code}/events", json=s.EVENTS[3])  # the API's phone says no seat
    plain = client.post(f"{url}/events", data=form(s.EVENTS[3], 3))  # no JavaScript: redirect, then the page
    assert plain.status_code == 303
    page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    assert page.select_one("#already-done").text.strip().startswith("Already recorded: ")
    assert len(log(client, code)) == 4


def test_a_different_entry_of_the_same_step_made_first_is_told_neutrally_with_a_link_to_correct_it(client):
    """Phone B: Red chooses Red to start. Phone A, drawn before, chooses Blue: no one broke a
    rule, two phones entered the same step. Told who entered it first, and how to correct it."""
    s = scenario("carpe_cras")
    code, url = new_table(client, "carpe_cras")
    for event in s.EVENTS[:2]:
        client.post(f"/api/tables/{code}/events", json=event)
    i_am(client, url, 0)
    assert client.post(f"{url}/events", data=form(s.EVENTS[2], 2)).status_code == 303
    other = client.application.test_client()
    answer = other.post(f"{url}/events", data=form(s.EVENTS[2] | {"starting_seat": 1}, 2), headers=HTMX)
    assert answer.status_code == 200
    page = BeautifulSoup(answer.get_data(as_text=True), "html.parser")
    assert page.select_one("#rule-error") is None and "Not allowed" not in page.text
    notice = page.select_one("#already-done")
    assert notice["role"] == "status"
    assert notice.text.strip().startswith("Red entered this first: Red chose themselves to take the first turn. "
                                          "Yours was not entered. If yours was right, correct that entry.")
    assert notice.select_one("#correct-first")["href"] == f"{url}/events/3"
    assert page.select_one("#retry-form") is None
    assert len(log(client, code)) == 3

    # The link opens the correction filled in with what this phone sent (Blue), said so; saved,
    # it replaces Red's entry.
    correction = BeautifulSoup(other.get(f"{url}/events/3").get_data(as_text=True), "html.parser")
    assert correction.select_one("#sent-values")["role"] == "status"
    assert correction.select_one('select[name="starting_seat"] option[selected]')["value"] == "1"
    fields = correction.select_one('input[name="type"]').find_parent("form")
    form_values = {i["name"]: i.get("value", "") for i in fields.select("input[name]")}
    saved = other.post(f"{url}/events/3", data={**form_values, "seat": "0", "starting_seat": "1"})
    assert saved.status_code == 303 and saved.headers["Location"].endswith(url)
    assert [(p.get("starting_seat"), status) for p, status in log(client, code)][2:] == [(0, "corrected"), (1, "active")]
    again = BeautifulSoup(other.get(f"{url}/events/4").get_data(as_text=True), "html.parser")
    assert again.select_one("#sent-values") is None  # said once


def test_a_reveal_made_first_by_another_phone_is_never_offered_again_as_the_next_rounds(client):
    """Phone B reveals round 1; phone A, drawn before, reveals other cards. Sent again, A's
    cards would be the next round's reveal, cards never played: told neutrally, no form."""
    s = scenario("cartisora")
    code, url = new_table(client, "cartisora")
    for event in s.EVENTS[:2]:
        client.post(f"/api/tables/{code}/events", json=event)
    assert client.post(f"{url}/events", data=form({"type": "reveal", "cards": "knight-5,fencer-5"}, 2)).status_code == 303
    assert len(log(client, code)) == 3
    other = client.application.test_client()
    mine = form({"type": "reveal", "cards": "knight-2,fencer-4"}, 2)
    answer = other.post(f"{url}/events", data=mine, headers=HTMX)
    page = BeautifulSoup(answer.get_data(as_text=True), "html.parser")
    assert answer.status_code == 200 and page.select_one("#rule-error") is None
    assert page.select_one("#already-done").text.strip().startswith("Another phone entered this first: ")
    assert page.select_one("#retry-form") is None
    assert [p["type"] for p, _ in log(client, code)] == ["pick_deck", "pick_deck", "reveal"]


def test_an_entry_another_kind_of_change_made_illegal_is_refused_saying_what_changed(client):
    """Phone A's reaction was drawn while round 1 awaited reactions; phone B went on to the next
    round meanwhile. Refused, saying what happened, with no form to send it again (no reaction
    is possible now)."""
    s = scenario("cartisora")
    code, url = new_table(client, "cartisora")
    for event in s.EVENTS[:3]:
        client.post(f"/api/tables/{code}/events", json=event)
    assert client.post(f"/api/tables/{code}/events", json={"type": "next_round"}).status_code == 200
    answer = client.post(f"{url}/events", data=form(s.EVENTS[5], 3), headers=HTMX)
    assert answer.status_code == 409
    error = BeautifulSoup(answer.get_data(as_text=True), "html.parser").select_one("#rule-error")
    assert "Not allowed:" in error.text and "the rules no longer allow it" in error.text
    assert "Here is what happened:" in error.text
    assert len(error.select("ol.changes li")) == 1
    assert error.select_one("#retry-form") is None and "send" not in error.text.lower()
    assert len(log(client, code)) == 4


def test_two_undos_of_the_same_entry_undo_it_once_and_the_second_is_told_neutrally(client):
    s = scenario("carpe_diem")
    code, url = new_table(client, "carpe_diem")
    for event in s.EVENTS[:3]:
        client.post(f"/api/tables/{code}/events", json=event)
    tap = {"_version": "3", "_seq": "3"}
    i_am(client, url, 1)
    assert client.post(f"{url}/undo", data=tap, headers=HTMX).status_code == 200
    other = client.application.test_client()
    second = other.post(f"{url}/undo", data=tap, headers=HTMX)
    assert second.status_code == 200
    page = BeautifulSoup(second.get_data(as_text=True), "html.parser")
    assert page.select_one("#rule-error") is None
    assert page.select_one("#already-done").text.strip().startswith(f"Already undone by {s.PLAYERS[1]}: ")
    assert [status for _, status in log(client, code)] == ["active", "active", "undone"]


def test_undo_of_an_entry_that_is_no_longer_the_last_is_still_refused(client):
    s = scenario("carpe_diem")
    code, url = new_table(client, "carpe_diem")
    for event in s.EVENTS[:3]:
        client.post(f"/api/tables/{code}/events", json=event)
    client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 1, "coins": 4})
    answer = client.post(f"{url}/undo", data={"_version": "3", "_seq": "3"}, headers=HTMX)
    assert answer.status_code == 409 and "The table changed" in answer.get_data(as_text=True)
    assert [status for _, status in log(client, code)] == ["active"] * 4


def test_the_neutral_answers_are_german_on_german_pages(client):
    s = scenario("carpe_cras")
    code, url = new_table(client, "carpe_cras")
    for event in s.EVENTS[:2]:
        client.post(f"/api/tables/{code}/events", json=event)
    i_am(client, url, 0)
    assert client.post(f"{url}/events", data=form(s.EVENTS[2], 2), headers=DE).status_code == 303
    repeat = client.post(f"{url}/events", data=form(s.EVENTS[2], 2), headers={**DE, **HTMX})
    notice = BeautifulSoup(repeat.get_data(as_text=True), "html.parser").select_one("#already-done")
    assert notice.text.strip().startswith("Bereits eingetragen von Red: ")
    conflict = client.post(f"{url}/events", data=form(s.EVENTS[2] | {"starting_seat": 1}, 2), headers={**DE, **HTMX})
    notice = BeautifulSoup(conflict.get_data(as_text=True), "html.parser").select_one("#already-done")
    assert notice.text.strip().startswith("Red hat das zuerst eingetragen: ")
    assert notice.select_one("#correct-first").text == "Eintrag 3 korrigieren"
    client.post(f"{url}/undo", data={"_seq": "3"}, headers=DE)
    again = client.post(f"{url}/undo", data={"_seq": "3"}, headers={**DE, **HTMX})
    notice = BeautifulSoup(again.get_data(as_text=True), "html.parser").select_one("#already-done")
    assert notice.text.strip().startswith("Bereits rückgängig gemacht von Red: ")


def test_the_api_with_drawn_at_version_records_an_unrelated_entry_answers_a_repeat_and_refuses_a_conflict(client):
    s = scenario("carpe_cras")
    code, _ = new_table(client, "carpe_cras")
    for event in s.EVENTS[:2]:
        client.post(f"/api/tables/{code}/events", json=event)
    drawn = {"Drawn-At-Version": '"2"'}
    first = client.post(f"/api/tables/{code}/events", json=s.EVENTS[2], headers=drawn)
    assert first.status_code == 200 and first.get_json().get("already") is None
    repeat = client.post(f"/api/tables/{code}/events", json=s.EVENTS[2], headers=drawn)
    body = repeat.get_json()
    assert repeat.status_code == 200 and body["version"] == 3
    assert body["already"] == "Already recorded: Red chose themselves to take the first turn"
    assert body["event"]["seq"] == 3
    conflict = client.post(f"/api/tables/{code}/events", json=s.EVENTS[2] | {"starting_seat": 1}, headers=drawn)
    body = conflict.get_json()
    assert conflict.status_code == 409 and "no longer allow" in body["error"] and body["rule"]
    assert body["changes"] == ["Red chose themselves to take the first turn"]
    later = client.post(f"/api/tables/{code}/events", json=s.EVENTS[3], headers=drawn)  # drawn at 2, legal now
    assert later.status_code == 200 and later.get_json()["version"] == 4
    assert client.post(f"/api/tables/{code}/events", json=s.EVENTS[4],
                       headers={"Drawn-At-Version": "x"}).status_code == 400


def test_a_form_that_says_all_a_recorded_entry_said_and_changes_nothing_more_is_a_repeat(client):
    """Both phones set Bea's coins to 4; one form also sent the fish she already had (0)."""
    code, url = new_table(client, "carpe_diem")
    client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 1, "coins": 4})
    answer = client.post(f"{url}/events", data=form({"type": "set_resources", "seat": 1, "coins": 4, "fish": 0}, 0),
                         headers=HTMX)
    notice = BeautifulSoup(answer.get_data(as_text=True), "html.parser").select_one("#already-done")
    assert answer.status_code == 200 and notice.text.strip().startswith("Already recorded: Bea's holdings")
    assert len(log(client, code)) == 1
    more = client.post(f"{url}/events", data=form({"type": "set_resources", "seat": 1, "coins": 4, "fish": 2}, 0),
                       headers=HTMX)  # says more: her fish
    assert more.status_code == 200 and len(log(client, code)) == 2


def test_two_entries_of_the_same_kind_that_differ_are_both_recorded(client):
    """Bea's coins set to 4 on one phone, to 5 on another drawn before: both recorded, in order."""
    code, url = new_table(client, "carpe_diem")
    client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 1, "coins": 4})
    answer = client.post(f"{url}/events", data=form({"type": "set_resources", "seat": 1, "coins": 5}, 0),
                         headers=HTMX)
    assert answer.status_code == 200
    assert [p["coins"] for p, _ in log(client, code)] == [4, 5]


def correction_page_version(client, url: str, seq: int) -> int:
    page = BeautifulSoup(client.get(f"{url}/events/{seq}").get_data(as_text=True), "html.parser")
    return int(page.select_one('input[name="_version"]')["value"])


def test_a_correction_drawn_before_another_phones_entry_is_recorded(client):
    """Anna opens the correction of her coins; Bea's phone enters her own coins meanwhile: the
    correction is saved as typed (every later entry is checked again anyway), not refused."""
    code, url = new_table(client, "carpe_diem")
    assert client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 0, "coins": 7}).status_code == 200
    drawn_at = correction_page_version(client, url, 1)
    assert client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 1, "coins": 4}).status_code == 200
    answer = client.post(f"{url}/events/1", data=form({"type": "set_resources", "seat": 0, "coins": 6}, drawn_at))
    assert answer.status_code == 303 and answer.headers["Location"].endswith(url)
    assert sorted((p["seat"], p["coins"], status) for p, status in log(client, code)) == [
        (0, 6, "active"), (0, 7, "corrected"), (1, 4, "active")]


def test_a_correction_of_an_entry_another_phone_corrected_since_is_a_conflict(client):
    """Both phones correct the same entry: the second is refused saying what changed, with its
    values kept, and the first phone's correction stands."""
    code, url = new_table(client, "carpe_diem")
    assert client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 0, "coins": 7}).status_code == 200
    drawn_at = correction_page_version(client, url, 1)
    first = client.post(f"{url}/events/1", data=form({"type": "set_resources", "seat": 0, "coins": 5}, drawn_at))
    assert first.status_code == 303
    second = client.post(f"{url}/events/1", data=form({"type": "set_resources", "seat": 0, "coins": 9}, drawn_at))
    assert second.status_code == 303 and second.headers["Location"].endswith(f"{url}/events/1")
    page = BeautifulSoup(client.get(second.headers["Location"]).get_data(as_text=True), "html.parser")
    assert page.select_one("#rule-error") is not None
    assert page.select_one('input[name="coins"]')["value"] == "9"
    assert [(p["coins"], status) for p, status in log(client, code) if status == "active"] == [(5, "active")]


def test_a_correction_that_repeats_one_made_since_changes_nothing(client):
    code, url = new_table(client, "carpe_diem")
    assert client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 0, "coins": 7}).status_code == 200
    drawn_at = correction_page_version(client, url, 1)
    for _ in range(2):
        answer = client.post(f"{url}/events/1", data=form({"type": "set_resources", "seat": 0, "coins": 5}, drawn_at))
        assert answer.status_code == 303 and answer.headers["Location"].endswith(url)
    assert [(p["coins"], status) for p, status in log(client, code)] == [(7, "corrected"), (5, "active")]


def test_undo_names_the_entry_it_takes_back_which_after_a_correction_is_not_the_top_line(client):
    """Anna's coins corrected after Bea's entry: the correction is the newest line, but Undo takes
    back the last entry in play order, Bea's, and says so before it is tapped."""
    code, url = new_table(client, "carpe_diem")
    client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 0, "coins": 7})
    client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 1, "coins": 4})
    answer = client.post(f"{url}/events/1", data=form({"type": "set_resources", "seat": 0, "coins": 6}, 2))
    assert answer.status_code == 303
    page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    top = page.select_one("ol.history li")
    assert top["data-seq"] == "3" and top["data-corrects"] == "1"
    beas = page.select_one('ol.history li[data-seq="2"]')["data-text"]
    assert page.select_one("#undo-what").text.strip() == f"Takes back: {beas}"
    assert page.select_one('#undo-form input[name="_seq"]')["value"] == "2"
    assert client.post(f"{url}/undo", data={"_seq": "2", "_version": "3"}).status_code == 303
    assert [(p["coins"], status) for p, status in log(client, code)] == [(7, "corrected"), (4, "undone"), (6, "active")]


@pytest.mark.parametrize("key", ["AB%00CD", "%00", "x" * 65, "ABC%20DEF", "%E2%80%AE"])
def test_a_table_key_no_table_could_have_is_not_found_on_every_database(client, key):
    """A code or link token holding a NUL (PostgreSQL refuses it in text: it was a 500 there), a
    space or a control character, or longer than any: 404, on every route that looks one up."""
    assert client.get(f"/t/{key}").status_code == 404
    assert client.get(f"/api/tables/{key}").status_code == 404
    assert client.get(f"/api/tables/{key}/events").status_code == 404
    assert client.post(f"/api/tables/{key}/events", json={"type": "next_round"}).status_code == 404


def test_a_player_name_with_control_characters_is_refused_naming_the_seat(client):
    """NUL, a line break or a right-to-left override (which turns every score line after it
    around) in a name: 400 naming the seat; emoji with their joiners are names like any."""
    for name in ("Ann\u0000", "Ann\nBo", "\u202eAnn"):
        made = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Bea", name]})
        assert made.status_code == 400, name
        [problem] = made.get_json()["errors"]
        assert problem["field"] == "players.1" and problem["message"].startswith("holds U+")
    made = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Bea", "👩\u200d👩\u200d👧 Ann"]})
    assert made.status_code == 201, made.get_json()
