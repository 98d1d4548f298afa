"""No English on German pages (issue 20, problem 7), and times in the phone's time zone.

Every table page of every bundled game is rendered in German (Flask test client, the ``lang``
cookie): the list of games, joining, each game's new-table form, a table just started, part-way
through and finished (its result), its history and its correction page. Each page's visible text
(text nodes and the labels a screen reader or a tooltip says) is split into words; a word is
English interface text when the English side of the catalogues uses it (any msgid) and the
German side never does (no msgstr), or when it is a raw option key (``bottom_of_deck``). What
the page may say as written is taken out first: the players' names and what they typed, every
text of the game's card data (titles, effects, deck names) **except** the card texts the game's
German data translation has (``translations/de.yaml``: those must be shown in German), and the
abbreviations printed on cards. The check finds the English of an English page (so it can fail).

Times: the page's script keeps the phone's zone in a cookie (``companion/web/time_zone.py``); the
server writes the table's start in that zone, and in UTC saying "UTC" when it does not know the
zone (no JavaScript yet, or a cookie naming no zone). In Chromium at 390 x 844 with a phone set
to Berlin, the clock shows Berlin time at once and after a reload; with JavaScript off it says UTC.
"""

from __future__ import annotations

import importlib
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import catalogues
import pytest
from bs4 import BeautifulSoup
from phones import PHONE

from card_data.loader import load_database
from card_data.editions.translations import find_translation

GAMES = ("carpe_diem", "cartisora", "carpe_cras", "cahrd")
LABELS = ("aria-label", "placeholder", "title", "alt", "data-text", "data-summary")
PRINTED = ("WAR", "CHM", "VP", "UTC")
"""Words a German page shows as printed: the stat abbreviations on cards; the zone name."""
RAW_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
WORD = re.compile(r"[^\W\d_]{2,}")


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


@pytest.fixture(scope="module")
def vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """``(english, german)``: the lower-cased words of every catalogue's msgids and msgstrs."""
    english, german = set(), set()
    for folder in catalogues.catalogue_dirs().values():
        for message in catalogues.read_catalogue(folder):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            for text in ids:
                english.update(w.lower() for w in WORD.findall(re.sub(r"%\(\w+\)[sd]|<[^>]*>", " ", text)))
            for text in strings:
                german.update(w.lower() for w in WORD.findall(re.sub(r"%\(\w+\)[sd]|<[^>]*>", " ", text or "")))
    return frozenset(english), frozenset(german)


@pytest.fixture(scope="module")
def bundled():
    return load_database()


def as_printed(bundled, game_id: str) -> tuple[str, ...]:
    """What a German page may show as the data writes it: every text of the game's cards, decks
    and tables, less the card titles and texts its German translation has; longest first."""
    game = bundled.games[game_id]
    translation = find_translation(game.translations, "de")
    translated = set()
    if translation is not None:
        for card in game.cards.values():
            fields = translation.printed_fields(card.id)
            translated.update(getattr(card, f) for f in ("title", "text") if fields.get(f))
    records = [*(c.model_dump() for c in game.cards.values()), *(d.model_dump() for d in game.decks.values())]
    if game.tables is not None:
        records.append(game.tables.model_dump())
    texts = set()
    while records:
        value = records.pop()
        if isinstance(value, dict):
            records.extend(value.values())
        elif isinstance(value, (list, tuple)):
            records.extend(value)
        elif isinstance(value, str) and len(value) > 1 and value not in translated:
            texts.add(value)
    return tuple(sorted(texts, key=len, reverse=True))


def typed(game: str) -> tuple[str, ...]:
    """The players' names and every text the scenario's players typed (notes, ids they chose)."""
    s = scenario(game)
    found = set(s.PLAYERS)
    stack = list(s.EVENTS)
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(v for k, v in value.items() if k != "type")
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, str):
            found.add(value)
    return tuple(sorted(found, key=len, reverse=True))


def page_texts(html: str) -> list[str]:
    """The visible text of ``html`` (each text node, each label), scripts and styles left out,
    and anything marked ``lang="en"`` (the data's original, shown on purpose)."""
    page = BeautifulSoup(html, "html.parser")
    for hidden in page(["script", "style"]):
        hidden.decompose()
    for original in page.select('[lang="en"]'):
        if original.name != "html":
            original.decompose()
    texts = [" ".join(s.split()) for s in page.find_all(string=True)]
    texts += [" ".join(e[a].split()) for e in page.find_all(True) for a in LABELS if e.get(a)]
    return [t for t in texts if t]


def english_on(html: str, vocabulary, allowed: tuple[str, ...]) -> list[str]:
    """The texts of ``html`` that say an English interface word (see the module docstring),
    each with the words found: ``["Bottom of deck  [bottom, deck]", ...]``."""
    english, german = vocabulary
    found = []
    for text in page_texts(html):
        rest = text
        for name in allowed:
            rest = rest.replace(name, " ")
        words = [w for w in WORD.findall(rest) if w not in PRINTED and w.lower() in english and w.lower() not in german]
        words += RAW_KEY.findall(rest)
        if words:
            found.append(f"{text}  {sorted(set(words))}")
    return found


@pytest.fixture
def german_client(scorekeeper_app):
    client = scorekeeper_app.test_client()
    client.set_cookie("lang", "de")
    return client


def start(client, game: str) -> str:
    s = scenario(game)
    form = {"players[]": s.PLAYERS, **{k: str(v).lower() if isinstance(v, bool) else str(v)
                                       for k, v in s.OPTIONS.items() if not isinstance(v, (list, dict))}}
    response = client.post(f"/tables/new/{game}", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"]


def table_code(client, url: str) -> str:
    return re.search(r'class="table-code">([A-Z0-9]{6})<', client.get(url).get_data(as_text=True)).group(1)


def every_page(client, game: str):
    """``(name, response, code)`` of each page of ``game``'s table, as a scenario's game goes
    on; ``code``: the table's join code, which the pages show (``None`` before there is one)."""
    yield "new table", client.get(f"/tables/new/{game}"), None
    url = start(client, game)
    code = table_code(client, url)
    yield "started", client.get(url), code
    events = scenario(game).EVENTS
    for i, event in enumerate(events, start=1):
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
        if i in (2, len(events) // 2):
            yield f"after {i} entries", client.get(url), code
            yield f"correcting entry {i}", client.get(f"{url}/events/{i}"), code
    yield "finished", client.get(url), code
    yield "history", client.get(f"{url}/history"), code


@pytest.mark.parametrize("game", GAMES)
def test_every_table_page_of_a_game_is_german(german_client, vocabulary, bundled, game):
    allowed = (*typed(game), *as_printed(bundled, game))
    left = {}
    for name, response, code in every_page(german_client, game):
        assert response.status_code == 200, name
        html = response.get_data(as_text=True)
        assert 'lang="de"' in html[:300], name
        # A join code is random letters and digits, so it may hold an English word ("5BY6X7").
        if found := english_on(html, vocabulary, (code, *allowed) if code else allowed):
            left[name] = found
    assert left == {}


def test_the_pages_around_the_tables_are_german(german_client, vocabulary):
    for url in ("/tables/new", "/join"):
        response = german_client.get(url)
        assert response.status_code == 200
        assert english_on(response.get_data(as_text=True), vocabulary, ()) == [], url


def test_the_check_finds_english(scorekeeper_app, vocabulary, bundled):
    """The same pages in English fail the check, and a raw option key is found on any page."""
    client = scorekeeper_app.test_client()
    new = client.get("/tables/new/carpe_cras").get_data(as_text=True)
    found = " ".join(english_on(new, vocabulary, ()))
    assert "agency" in found and "deck" in found
    [raw] = english_on("<p>bottom_of_deck: Haupttext</p>", vocabulary, ())
    assert "'bottom_of_deck'" in raw


def test_a_card_the_german_data_translates_is_said_in_german(german_client, bundled):
    """Carpe Diem's example fountain card has a German title in its data: the fountain choice,
    the history line and the scoring sheet say it in German; English pages keep the printed one."""
    german_title = find_translation(bundled.games["carpe_diem"].translations, "de").card_fields(
        "fountain-gardens")["title"]
    english_title = bundled.games["carpe_diem"].cards["fountain-gardens"].title
    assert german_title != english_title
    url = start(german_client, "carpe_diem")
    code = table_code(german_client, url)
    new_page = german_client.get(url).get_data(as_text=True)
    assert german_title in new_page and english_title not in new_page
    fountain = next(e for e in scenario("carpe_diem").EVENTS if e.get("fountain_card") == "fountain-gardens")
    preview = german_client.post(f"{url}/preview", data={k: str(v) for k, v in fountain.items()})
    assert preview.status_code == 200 and german_title in preview.get_data(as_text=True)
    for event in scenario("carpe_diem").EVENTS:
        german_client.post(f"/api/tables/{code}/events", json=event)
    page = BeautifulSoup(german_client.get(url).get_data(as_text=True), "html.parser")
    assert any(german_title in li.get_text() for li in page.select("ol.history li"))
    assert english_title not in page.get_text()
    german_client.delete_cookie("lang")
    assert english_title in german_client.get(url).get_data(as_text=True)


# --- times in the phone's time zone -------------------------------------------------------------

def clock(html: str) -> tuple[datetime, str]:
    """The table's start (its ``<time datetime>``) and the time the page shows for it."""
    time = BeautifulSoup(html, "html.parser").select_one(".clock time[data-started]")
    return datetime.fromisoformat(time["datetime"]), time.get_text()


def test_the_start_time_is_in_the_zone_the_phone_sent(german_client):
    url = start(german_client, "carpe_cras")
    started, shown = clock(german_client.get(url).get_data(as_text=True))
    assert shown == started.astimezone(ZoneInfo("UTC")).strftime("%H:%M UTC")  # not told: UTC, said
    for zone in ("Europe/Berlin", "America/St_Johns", "Asia/Kolkata"):
        german_client.set_cookie("tz", zone)
        started, shown = clock(german_client.get(url).get_data(as_text=True))
        assert shown == started.astimezone(ZoneInfo(zone)).strftime("%H:%M"), zone
    for made_up in ("Mars/Olympus", "../../etc/passwd", "Europe/" + "B" * 100, ""):
        german_client.set_cookie("tz", made_up)
        response = german_client.get(url)
        assert response.status_code == 200
        started, shown = clock(response.get_data(as_text=True))
        assert shown.endswith(" UTC"), made_up


def test_a_phone_set_to_berlin_sees_berlin_time(browser, server):
    """Chromium at 390 x 844, German, in Berlin: the clock shows Berlin time on the first page
    (the script) and after a reload (the server, from the cookie the script set); with
    JavaScript off the page says its time is UTC."""
    context = browser.new_context(**PHONE, locale="de-DE", timezone_id="Europe/Berlin")
    page = context.new_page()
    page.goto(f"{server}/tables/new/carpe_cras")
    names = page.locator('input[name="players[]"]')
    for i, name in enumerate(scenario("carpe_cras").PLAYERS):
        names.nth(i).fill(name)
    page.get_by_role("button", name="Tisch starten").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    table_url = page.url
    for _ in range(2):
        time = page.locator(".clock time[data-started]")
        started = datetime.fromisoformat(time.get_attribute("datetime"))
        berlin = started.astimezone(ZoneInfo("Europe/Berlin")).strftime("%H:%M")
        page.wait_for_function("(t) => document.querySelector('.clock time').textContent === t", arg=berlin)
        assert "UTC" not in page.locator(".clock").inner_text()
        page.reload()
    assert {c["name"]: c["value"] for c in context.cookies()}["tz"] == "Europe/Berlin"
    server_html = context.request.get(table_url).text()
    assert clock(server_html)[1] == berlin
    context.close()

    no_js = browser.new_context(**PHONE, locale="de-DE", timezone_id="Europe/Berlin", java_script_enabled=False)
    page = no_js.new_page()
    page.goto(table_url)
    time = page.locator(".clock time[data-started]")
    started = datetime.fromisoformat(time.get_attribute("datetime"))
    assert time.inner_text() == started.astimezone(ZoneInfo("UTC")).strftime("%H:%M UTC")
    no_js.close()

