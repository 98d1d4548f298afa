"""The scorekeeper's pages in the player's language: with ``Accept-Language: de`` the new-table,
join, table and history pages and the refusals the web layer writes are German; without it
they stay English; the JSON API stays English whatever the header. The rule engines' own words
(move names, form fields, counters, history lines, outcomes, the games' status lines) are
German too: the page says the engines' :class:`~card_data.engine.Words` in its language.

"No leftover English" is checked against the catalogue itself: every message the table
templates mark (read from the templates as ``pybabel extract`` reads them) that German words
differently must not stand alone as an element's text, or as its label or placeholder, on the
German page. What the engines write is checked against the English page of the same table:
each engine-made element (:data:`ENGINE_MADE`) must read differently in German unless all it
says is names from the data (players, cards, decks), numbers or the stat abbreviations printed
on cards. Then the same in Chromium at 390 x 844 with a German phone (locale ``de-DE``): a
table started and a move entered through the page, German all along.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from pathlib import Path

import catalogues
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from bs4 import BeautifulSoup
from phones import PHONE, fill_event_form
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
DE = {"Accept-Language": "de"}
LABELS = ("aria-label", "placeholder", "title")


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


@pytest.fixture(scope="module")
def german():
    """The compiled German catalogues, the shared one and each bundled game's (the shared one
    last, as the companion merges them): msgid -> msgstr (plural msgids by their singular)."""
    german = {}
    dirs = catalogues.catalogue_dirs()
    for name in [*(n for n in dirs if n != "shared"), "shared"]:
        with catalogues.po_path(dirs[name]).with_suffix(".mo").open("rb") as fh:
            german.update({(m.id if isinstance(m.id, str) else m.id[0]): m.string for m in read_mo(fh) if m.id})
    return german


@pytest.fixture(scope="module")
def table_messages(german):
    """The plain messages of the table templates (no placeholders) that German words
    differently: none of these may be left standing on a German page."""
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2)}
    # The generic table pages, and each game's own (card_data/games/<game>/table.html).
    found = [*extract_from_dir(str(ROOT / "companion/templates/tables"), method_map=[("**.html", "jinja2")],
                               keywords=keywords),
             *extract_from_dir(str(ROOT / "card_data/games"), method_map=[("*/table.html", "jinja2")],
                               keywords=keywords)]
    assert any(message == "Scoring sheet" for _file, _line, message, _comments, _context in found)  # Carpe Diem's
    plain = set()
    for _file, _line, message, _comments, _context in found:
        msgid = message if isinstance(message, str) else message[0]
        if "%(" in msgid or "<" in msgid:
            continue
        assert german.get(msgid), f"no German for {msgid!r}"
        if german[msgid] != msgid:
            plain.add(msgid)
    assert {"Undo the last entry", "History", "Join", "Start the table"} <= plain
    return plain


ENGINE_WORDS = ("form.event-form label", "form.event-form legend", "form.event-form option", "details.move > summary",
                "form.event-form button", ".counter-label", "#result thead th", "#cd-owned tbody th")
"""Elements whose own text the rule engine writes (field titles, move names, counter and score
labels, tracked things): the check against the interface's messages leaves their text out (an
engine may say a word the interface also marks); :func:`engine_english` checks them."""


def leftover_english(html: str, messages: set[str], names: tuple[str, ...] = ()) -> list[str]:
    """Marked messages standing in ``html`` untranslated: an element's own text (its text
    nodes, children left out; not for :data:`ENGINE_WORDS`) or a label, equal to one of
    ``messages`` (player ``names``, which may be colour words, left out)."""
    page = BeautifulSoup(html, "html.parser")
    for hidden in page(["script", "style", "svg"]):
        hidden.decompose()
    engine_made = {id(e) for e in page.select(", ".join(ENGINE_WORDS))}
    left = []
    for element in page.find_all(True):
        own = "" if id(element) in engine_made else " ".join(
            " ".join(s.split()) for s in element.find_all(string=True, recursive=False)).strip()
        for text in (own, *(element.get(a, "") for a in LABELS)):
            text = text.strip().rstrip(":")
            if text in messages and text not in names:
                left.append(text)
            elif text + ":" in messages and text not in names:
                left.append(text + ":")
    return left


def start_table(client, game: str, headers=None) -> str:
    s = scenario(game)
    form = {"players[]": s.PLAYERS, **{k: str(v).lower() if isinstance(v, bool) else str(v)
                                       for k, v in s.OPTIONS.items() if not isinstance(v, (list, dict))}}
    response = client.post(f"/tables/new/{game}", data=form, headers=headers or {})
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"]


def table_code(client, url: str) -> str:
    return re.search(r'class="table-code">([A-Z0-9]{6})<', client.get(url).get_data(as_text=True)).group(1)


def play(client, game: str, url: str, upto: int) -> str:
    code = table_code(client, url)
    for event in scenario(game).EVENTS[:upto]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    return code


ENGINE_MADE = (*ENGINE_WORDS, "ol.history li > span", "ol.history li > s", "#turn strong", "#result > p > strong",
               "form.event-form small", "#rule-error p",
               # the games' own status lines (their templates' engine calls)
               "#cd-status", "#cd-holdings li", "#cd-cards li small", "#cd-winner", "#cc-result strong",
               "#cahrd-turn > strong", ".cahrd-zones dt", "#cahrd-results li", "#cahrd-readings li", "mark",
               "#dc-status header strong", "#dc-result strong", "#dc-round li small", "#dc-log li",
               "#dc-effects p", "#dc-results h3", "#dc-scores thead th", "#dc-hands li")
"""Elements whose text a rule engine writes, wholly or in part (each compared with the same
element of the English page)."""
SAME_IN_GERMAN = ("WAR", "CHM", "VP")
"""Words a German page shows as the English one does: the stat abbreviations printed on cards."""
LABELLED = (*LABELS, "data-text", "data-summary")


def data_names(app, game: str, players: Sequence[str]) -> tuple[str, ...]:
    """What a page shows as the data writes it in any language: the players' names and every
    text of the game's cards, decks and tables (titles, effects), longest first (so that a name
    inside a longer one is taken out with it)."""
    from companion.scorekeeping.scorekeeper import service

    with app.app_context():
        data = service().db.games[game]
        records = [*(c.model_dump() for c in data.cards.values()), *(d.model_dump() for d in data.decks.values())]
        if data.tables is not None:  # Carpe Diem's scoring cards and fountain cards (tables.yaml)
            records.append(data.tables.model_dump())
    names = set(players)
    while records:
        value = records.pop()
        if isinstance(value, dict):
            records.extend(value.values())
        elif isinstance(value, (list, tuple)):
            records.extend(value)
        elif isinstance(value, str) and len(value) > 1:
            names.add(value)
    return tuple(sorted(names, key=len, reverse=True))


def engine_english(english: str, german: str, names: Sequence[str]) -> list[str]:
    """Engine-made texts (:data:`ENGINE_MADE`: an element's text, or a label) that the German
    page shows exactly as the English page does, though they say more than ``names``, numbers
    and :data:`SAME_IN_GERMAN`. The two pages are of one table in one state, so their elements
    pair up in document order."""
    pages = []
    for html in (english, german):
        page = BeautifulSoup(html, "html.parser")
        for hidden in page(["script", "style", "svg"]):
            hidden.decompose()
        pages.append(page)
    made = [{id(e) for e in page.select(", ".join(ENGINE_MADE))} for page in pages]
    en_elements, de_elements = (page.find_all(True) for page in pages)
    assert [e.name for e in en_elements] == [e.name for e in de_elements], "the two pages differ in shape"
    left = []
    for en, de in zip(en_elements, de_elements):
        if id(en) not in made[0]:
            continue
        assert id(de) in made[1]
        pairs = [(" ".join(en.get_text(" ").split()), " ".join(de.get_text(" ").split())),
                 *((en.get(a, ""), de.get(a, "")) for a in LABELLED)]
        for en_text, de_text in pairs:
            if en_text == de_text and says_words(en_text, names):
                left.append(en_text)
    return left


def says_words(text: str, names: Sequence[str]) -> bool:
    """Whether ``text`` says more than ``names``, numbers and :data:`SAME_IN_GERMAN`."""
    for name in (*names, *SAME_IN_GERMAN):
        text = text.replace(name, " ")
    return re.search(r"[^\W\d_]{2,}", text) is not None


def engine_texts(html: str, selector: str) -> list[str]:
    return [" ".join(e.get_text(" ").split()) for e in BeautifulSoup(html, "html.parser").select(selector)]


def html_lang(html: str) -> str:
    return BeautifulSoup(html, "html.parser").html["lang"]


def test_the_new_table_and_join_pages_are_german_for_a_german_browser(client, table_messages):
    new = client.get("/tables/new/carpe_diem", headers=DE).get_data(as_text=True)
    assert html_lang(new) == "de"
    page = BeautifulSoup(new, "html.parser")
    assert page.select_one('form button[type="submit"]').text == "Tisch starten"
    assert "Spieler (2–4), in Sitzreihenfolge, mit ihren Farben" in page.select_one("fieldset legend").text
    assert page.select_one('input[name="players[]"]')["placeholder"] == "Spieler 1"
    assert [o.text for o in page.select('select[name="colours[]"]')[0].select("option")][:3] == ["Blau", "Rot", "Grün"]
    assert page.select('select[name="colours[]"]')[0].select("option")[0]["value"] == "blue"  # the value stays
    assert leftover_english(new, table_messages) == []

    choose = client.get("/tables/new", headers=DE).get_data(as_text=True)
    assert "Einen Tisch starten" in choose and leftover_english(choose, table_messages) == []

    join = client.get("/join", headers=DE).get_data(as_text=True)
    assert html_lang(join) == "de"
    page = BeautifulSoup(join, "html.parser")
    assert page.h1.text == "Einem Tisch beitreten" and page.select_one("form button").text == "Beitreten"
    assert page.select_one('input[name="code"]')["placeholder"] == "z. B. K7PQ3M"
    assert leftover_english(join, table_messages) == []

    wrong = client.post("/join", data={"code": "ZZZZZZ"}, headers=DE)
    assert wrong.status_code == 404
    assert BeautifulSoup(wrong.get_data(as_text=True), "html.parser").select_one("#join-error").text == (
        "Kein Tisch hat den Code ZZZZZZ: prüfe ihn auf einem Handy am Tisch.")


@pytest.mark.parametrize("game, upto", [("carpe_diem", 8), ("cartisora", 6), ("carpe_cras", 5), ("cahrd", 12)])
def test_a_live_table_page_is_german_for_a_german_browser(client, table_messages, game, upto):
    url = start_table(client, game)
    play(client, game, url, upto)
    html = client.get(url, headers=DE).get_data(as_text=True)
    assert html_lang(html) == "de"
    page = BeautifulSoup(html, "html.parser")
    assert page.select_one("#history-h").text == f"Verlauf ({upto} Einträge, neueste zuerst)"
    assert page.select_one("#undo-form button").text == "Letzten Eintrag rückgängig machen"
    assert page.select_one("#status-h").text == "Der Tisch"
    assert page.select_one("#seat-choice legend").text == "Dieses Handy ist"
    assert page.select_one(".join-qr svg")["aria-label"] == "QR-Code zum Beitreten an diesem Tisch"
    assert page.select_one("#wake-lock").text == "Bildschirm anlassen"
    assert page.select_one("#announcer")["data-undone"] == "Rückgängig gemacht: {entry}"
    assert "Begonnen" in page.select_one(".clock").text
    assert leftover_english(html, table_messages, tuple(scenario(game).PLAYERS)) == []


def test_a_finished_game_and_the_history_page_are_german(client, table_messages):
    s = scenario("carpe_diem")
    url = start_table(client, "carpe_diem")
    play(client, "carpe_diem", url, len(s.EVENTS))
    page = BeautifulSoup(client.get(url, headers=DE).get_data(as_text=True), "html.parser")
    result = page.select_one("#result")
    assert result.h2.text == "Spiel vorbei" and result.select_one("#duration").text.startswith("Gespielt in ")
    assert result.select_one('form button[type="submit"]').text == "Revanche: gleiche Spieler und Optionen"
    assert leftover_english(str(page), table_messages, tuple(s.PLAYERS)) == []

    history = client.get(f"{url}/history", headers=DE).get_data(as_text=True)
    assert html_lang(history) == "de"
    page = BeautifulSoup(history, "html.parser")
    assert page.h1.text == "Carpe Diem: Verlauf"
    assert page.title.text.startswith("Carpe Diem · Tisch ") and "· Verlauf ·" in page.title.text
    assert page.select_one(".correct-link").text == "Korrigieren (Eintrag %d)" % len(s.EVENTS)
    assert leftover_english(history, table_messages, tuple(s.PLAYERS)) == []


def test_without_a_language_the_pages_stay_english(client, table_messages):
    url = start_table(client, "carpe_diem")
    play(client, "carpe_diem", url, 1)
    html = client.get(url).get_data(as_text=True)
    assert html_lang(html) == "en"
    # The check the German pages pass finds the English ones.
    assert {"Undo the last entry", "History", "The table", "This phone is"} <= set(leftover_english(html, table_messages))
    page = BeautifulSoup(html, "html.parser")
    assert page.select_one("#history-h").text == "History (1 entry, newest first)"
    assert page.select_one("#undo-form button").text == "Undo the last entry"
    assert page.select_one(".join-qr svg")["aria-label"] == "QR code to join this table"
    assert "Verlauf" not in html and "Tisch" not in html
    new = BeautifulSoup(client.get("/tables/new/carpe_diem").get_data(as_text=True), "html.parser")
    assert new.select_one('form button[type="submit"]').text == "Start the table"
    assert new.select('select[name="colours[]"]')[0].select("option")[0].text == "Blue"
    assert "Join a table" in client.get("/join").get_data(as_text=True)
    history = client.get(f"{url}/history").get_data(as_text=True)
    assert "Carpe Diem: history" in history and html_lang(history) == "en"


def test_refusals_the_web_layer_writes_are_german(client):
    code_url = start_table(client, "carpe_diem")
    code = play(client, "carpe_diem", code_url, 0)
    # An Undo of an entry that is no longer the last (another phone entered one since).
    client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 1, "coins": 4})
    client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 1, "coins": 5})
    stale = client.post(f"{code_url}/undo", data={"_seq": "1"}, headers={**DE, "HX-Request": "true"})
    assert stale.status_code == 409
    error = BeautifulSoup(stale.get_data(as_text=True), "html.parser").select_one("#rule-error")
    assert error.p.text == ("Nicht erlaubt: Der Tisch hat sich geändert, bevor dein Eintrag ankam: Das ist "
                            "passiert.")
    # Undo with nothing to undo: the service's own refusal, and the rule it names.
    fresh = start_table(client, "carpe_cras")
    assert client.post(f"{fresh}/undo", data={}, headers=DE).status_code == 303
    shown = BeautifulSoup(client.get(fresh, headers=DE).get_data(as_text=True), "html.parser").select_one("#rule-error")
    assert shown.select("p")[0].text == "Nicht erlaubt: es gibt nichts rückgängig zu machen"
    assert shown.select("p")[1].text == "Rückgängig"
    # Invalid set-up: repeated colours.
    same = client.post("/tables/new/carpe_cras", data={"players[]": ["Ann", "Bo"], "colours[]": ["red", "red"]},
                       headers=DE)
    assert same.status_code == 400
    alert = BeautifulSoup(same.get_data(as_text=True), "html.parser").select_one('[role="alert"]')
    assert alert.text.strip() == "jeder Spieler nimmt eine andere Farbe: colours: mehrfach gewählt"
    long = client.post("/tables/new/carpe_cras", data={"players[]": ["C" * 41, "Bo"]}, headers=DE)
    assert long.status_code == 400 and "Spielernamen haben höchstens 40 Zeichen: players.0: länger als 40 Zeichen" in (
        long.get_data(as_text=True))
    # A rematch before the end.
    assert client.post(f"{fresh}/rematch", headers=DE).status_code == 303
    assert "das Spiel ist noch nicht zu Ende" in client.get(fresh, headers=DE).get_data(as_text=True)
    # No such entry to correct.
    missing = client.get(f"{fresh}/events/99", headers=DE)
    assert missing.status_code == 404
    assert "Es gibt keinen Eintrag 99 zum Korrigieren." in missing.get_data(as_text=True)


def test_the_json_api_stays_english_for_a_german_client(client):
    url = start_table(client, "carpe_cras")
    code = table_code(client, url)
    response = client.post(f"/api/tables/{code}/undo", json={}, headers=DE)
    assert response.status_code == 422 and "nothing to undo" in response.get_json()["error"]
    same = client.post("/api/tables", json={"game": "carpe_cras", "players": ["Ann", "Ann"]}, headers=DE)
    assert same.status_code in (400, 422) and "player names must differ" in same.get_data(as_text=True)


def test_a_german_phone_starts_a_table_and_enters_a_move_in_german(browser, server):
    """Chromium at 390 x 844 with a German locale: the set-up form, the seat question, the move
    and the history all in German; the move is recorded."""
    s = scenario("carpe_diem")
    context = browser.new_context(**PHONE, locale="de-DE")
    page = context.new_page()
    page.goto(f"{server}/tables/new/carpe_diem")
    assert page.locator("html").get_attribute("lang") == "de"
    names = page.locator('input[name="players[]"]')
    assert names.first.get_attribute("placeholder") == "Spieler 1"
    for i, name in enumerate(s.PLAYERS):
        names.nth(i).fill(name)
    page.get_by_role("button", name="Tisch starten").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    page.get_by_role("button", name="Der ganze Tisch").first.click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    assert page.locator("#turn .whoami").inner_text().startswith("Dieses Handy: der ganze Tisch")
    assert page.locator("#history").inner_text().strip().endswith("Noch nichts eingetragen.")
    fill_event_form(page, s.EVENTS[0])
    page.locator('#live ol.history li[data-seq="1"]').wait_for()
    assert page.locator("#history-h").inner_text() == "Verlauf (1 Eintrag, neuester zuerst)"
    assert page.locator("#undo-form button").inner_text() == "Letzten Eintrag rückgängig machen"
    assert page.locator("#live ol.history li").count() == 1
    # The clock's "how long ago" comes from Intl in the page's language.
    # (A live update's morph drops the title until companion.js sets it again: wait for it.)
    expect(page.locator("time[data-started]")).to_have_attribute("title", re.compile(r"Min\."))
    body = page.locator("body").inner_text()
    for english in ("History", "Undo the last entry", "This phone", "Keep the screen on", "screen", "Counters"):
        assert english not in body, english
    token = page.url.rsplit("/", 1)[1]
    recorded = context.request.get(f"{server}/api/tables/{token}/events").json()["events"]
    assert [e["payload"]["type"] for e in recorded] == [s.EVENTS[0]["type"]]
    # The engine's history line in German; the API keeps the English one.
    line = page.locator('#live ol.history li[data-seq="1"] > span').inner_text()
    assert line and line != recorded[0]["text"]
    page.screenshot(path=str(ROOT / "test-artifacts" / "table-de.png"))
    context.close()


MOVES = "form.event-form:not(.counter-button) > button, details.move > summary"
HISTORY = "ol.history li > span, ol.history li > s"


@pytest.mark.parametrize("game, upto", [("carpe_diem", 8), ("cartisora", 6), ("carpe_cras", 5), ("cahrd", 12),
                                        ("carpe_diem", None), ("cartisora", None), ("carpe_cras", None),
                                        ("cahrd", None)])
def test_what_the_rule_engines_say_is_german_for_a_german_browser(scorekeeper_app, client, game, upto):
    """Part-way through (``upto`` entries) and finished (every entry of the scenario): the move
    buttons, the history lines and every other engine-made text differ from the English page's
    of the same table, except names from the data; the JSON API stays English."""
    s = scenario(game)
    url = start_table(client, game)
    code = play(client, game, url, len(s.EVENTS) if upto is None else upto)
    english, german = client.get(url).get_data(as_text=True), client.get(url, headers=DE).get_data(as_text=True)
    names = data_names(scorekeeper_app, game, s.PLAYERS)
    assert engine_english(english, german, names) == []

    history_en, history_de = engine_texts(english, HISTORY), engine_texts(german, HISTORY)
    assert len(history_de) == min(len(s.EVENTS) if upto is None else upto, 50)
    assert all(en != de for en, de in zip(history_en, history_de) if says_words(en, names)), (
        [(en, de) for en, de in zip(history_en, history_de) if en == de])
    moves_en, moves_de = engine_texts(english, MOVES), engine_texts(german, MOVES)
    if upto is None:  # over: no moves, the result says who won
        assert moves_de == []
        summary_en, summary_de = engine_texts(english, "#result > p > strong"), engine_texts(german, "#result > p > strong")
        assert summary_de and summary_de != summary_en
    else:
        assert moves_de and all(en != de for en, de in zip(moves_en, moves_de) if says_words(en, names)), (
            [(en, de) for en, de in zip(moves_en, moves_de) if en == de])
    # The history page of the same table says the same German lines (newest first, as the live
    # part); the JSON API gives the English ones whatever the header.
    history_page = client.get(f"{url}/history", headers=DE).get_data(as_text=True)
    assert engine_texts(history_page, HISTORY)[:len(history_de)] == history_de
    events = client.get(f"/api/tables/{code}/events", headers=DE).get_json()["events"]
    assert [e["text"] for e in reversed(events)][:len(history_en)] == history_en
