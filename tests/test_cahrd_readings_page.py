"""C.A.H.R.D.'s readings the rulebook leaves open, through the pages (no JavaScript): the
new-table form offers each reading with the rulebook's sentences in its help (in English and in
German), a table started there with readings other than the defaults says which are in force
(and counts lieutenants on the field, as its cap does), and its forms follow them: Blue battles on its first turn (the battle's second), and George Washington is the
vanguard of both of Red's attacks in one turn."""

from __future__ import annotations

import scenarios_cahrd as s
from bs4 import BeautifulSoup
from test_table_forms import form_for, post_data

from card_data.games.cahrd.rules import DamageStep, DeclareAttack, EndTurn, Recruitment, StartTurn, Vanguard

NEW = "/tables/new/cahrd"
CHOSEN = {"first_turn_without_battle": "starting_player", "vanguard_in_a_turn": "may_defend_again",
          "lieutenant_cap": "on_the_field"}
PLAYED = [s.RED_SET_UP, s.BLUE_SET_UP, *[e.to_json() for e in [
    StartTurn(seat=0), Recruitment(seat=0), EndTurn(seat=0), StartTurn(seat=1), Recruitment(seat=1),
    DeclareAttack(seat=1, officer="river-scout"),  # Blue's first turn, not the battle's: only by this reading
    Vanguard(seat=0, to_grain=True),
    EndTurn(seat=1), StartTurn(seat=0), Recruitment(seat=0),
    DeclareAttack(seat=0, officer="border-captain"),
    Vanguard(seat=1, officer="george-washington"),
    DamageStep(attacker_war_modifier=1),
    DeclareAttack(seat=0, officer="oda-nobunaga"),
    Vanguard(seat=1, officer="george-washington"),  # the same turn: only by this reading
    DamageStep(),
]]]


def form_values(form) -> dict[str, list[str]]:
    """What the browser posts for ``form`` left as it is: each select's chosen option, each input's value."""
    data: dict[str, list[str]] = {}
    for select in form.select("select"):
        chosen = select.select_one("option[selected]") or select.select_one("option")
        data.setdefault(select["name"], []).append(chosen.get("value", ""))
    for field in form.select("input"):
        if field.get("type") not in ("checkbox", "submit"):
            data.setdefault(field["name"], []).append(field.get("value", ""))
    return data


def test_the_new_table_form_quotes_the_rulebook_for_each_reading(scorekeeper_app):
    client = scorekeeper_app.test_client()
    page = BeautifulSoup(client.get(NEW).get_data(as_text=True), "html.parser")
    select = page.select_one('select[name="vanguard_in_a_turn"]')
    assert {o["value"]: o.get_text() for o in select.select("option") if o["value"]} == {
        "battles_once": "No: a vanguard has battled this turn", "may_defend_again": "Yes: it may defend every attack"}
    assert select.select_one("option[selected]")["value"] == "battles_once"
    help_text = select.find_parent("label").select_one("small").get_text()
    assert "Glossary of Terms (Battle/Battled): \"An officer 'Battles' (and is battling)" in help_text
    first = page.select_one('select[name="first_turn_without_battle"]').find_parent("label").get_text()
    assert "(except on the first turn)" in first and "If this is the first turn for a player" in first
    cap = page.select_one('select[name="lieutenant_cap"]').find_parent("label").get_text()
    assert "the ability to recruit two more later" in cap and "you can recruit up to two more" in cap
    client.set_cookie("lang", "de")
    german = BeautifulSoup(client.get(NEW).get_data(as_text=True), "html.parser")
    label = german.select_one('select[name="vanguard_in_a_turn"]').find_parent("label").get_text()
    assert "Erneut Vorhut im selben Zug" in label and "Ja: sie darf jeden Angriff abwehren" in label
    assert ("„Ein Offizier ‚kämpft‘ (und ist im Kampf), sobald er angreift oder zur Vorhut bestimmt "
            "wird.“") in label


def test_a_table_started_with_other_readings_says_so_and_plays_by_them(scorekeeper_app):
    client = scorekeeper_app.test_client()
    form = BeautifulSoup(client.get(NEW).get_data(as_text=True), "html.parser").select_one("form")
    data = {**form_values(form), "players[]": s.PLAYERS, **{name: [value] for name, value in CHOSEN.items()}}
    made = client.post(NEW, data=data)
    assert made.status_code == 303, made.get_data(as_text=True)[:2000]
    url = made.headers["Location"]
    readings = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser").select_one("#cahrd-readings")
    said = [" ".join(li.get_text().split()) for li in readings.select("li")]
    assert "No battle on the first turn: Only the starting player's first turn" in said
    assert "A vanguard again in the same turn: Yes: it may defend every attack" in said
    assert ('The lieutenant cap ("recruit two more"): Lieutenants on the field at a time (a defeated lieutenant '
            'may be replaced)') in said
    for n, event in enumerate(PLAYED, start=1):
        page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
        form = form_for(page, event)
        assert form is not None, f"entry {n}: the page offers no form for {event}"
        response = client.post(form["action"], data=post_data(form, event))
        assert response.status_code == 303, (n, event, response.get_data(as_text=True)[:1500])
    page = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
    assert "Blue attacked with River Scout (WAR 2)" in page.get_text()
    assert page.get_text().count("Blue declared George Washington the vanguard") == 2
    blue = " ".join(page.select_one("#army-1").get_text().split())
    assert "George Washington WAR 3 · CHM 4 · men under command 2/4" in blue
    assert str(page.select_one("#army-1 dl")).count("<dt>Lieutenants</dt><dd>1 / 3 on the field</dd>") == 1
