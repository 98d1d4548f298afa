"""In the player's language (issue 12, part 4): the companion's interface in English and German.

- The German catalogues, the shared one (companion/translations/) and each bundled game's
  (card_data/games/<game>/translations/), are complete (every message the code and templates mark
  has a German translation, none fuzzy, placeholders kept), each message in the one catalogue it
  belongs to, each committed ``.mo`` the compiled form of its ``.po``; the companion serves them
  all (every game the registry knows), the shared catalogue having the last word.
- A page's language: the ``lang`` cookie (the switcher's), else ``Accept-Language``, else
  English; the switcher only redirects within the site and needs the form's CSRF token.
- Dates and counts are written the language's way.
- In Chromium at 390 x 844, a German phone sees German pages, taps "English" and stays English.
"""

from __future__ import annotations

import datetime
import gettext
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.dates import format_date
from babel.messages.mofile import write_mo
from bs4 import BeautifulSoup
from markupsafe import Markup

import catalogues

from card_data.loader import load_database
from card_data.rulings.ruling_records import all_rulings
from companion import create_app
from companion.cards.field_labels import KNOWN_LABELS

ROOT = Path(__file__).resolve().parent.parent
GERMAN = {"Accept-Language": "de"}

SHARED = "The two bonus tokens are awarded separately."
"""The start of a bundled Duels of Cartisora ruling (rulings.yaml, dated 2026-11-23) that shows
on the First Blood and Finisher pages; card data, so English on every page."""


def text_of(response) -> str:
    """The page's visible text (scripts and JSON blocks left out), spacing collapsed."""
    soup = BeautifulSoup(response.get_data(as_text=True), "html.parser")
    for script in soup(["script", "style"]):
        script.decompose()
    return " ".join(soup.get_text(" ").split())


def lang_of(response) -> str:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser").html["lang"]


def german_catalogue():
    """The shared German catalogue (the companion's own words)."""
    return catalogues.read_catalogue(catalogues.SHARED)


# ---- the catalogues ----------------------------------------------------------------------------

CATALOGUES = list(catalogues.catalogue_dirs())
"""``"shared"`` (companion/translations/) and each bundled game's id (its folder's translations/)."""


def marked_messages(under: str = "") -> set[str]:
    """Every message id marked in ``companion/`` (code and templates), the engine core and each
    bundled game's folder (its rule engine, its table page), extracted as ``tools/translations.sh``
    does. ``under``: only the messages of files under that folder (e.g. ``"companion/"``)."""
    return set().union(*(catalogues.marked(name, under) for name in CATALOGUES))


def test_every_marked_message_has_a_german_translation():
    marked = marked_messages()
    assert len(marked) > 150  # the extraction found the templates and the code
    assert {"All rulings, newest first", "Designer's answer: %(reference)s", "Men under command",
            "The CSRF token is missing.", "%(num)s card", "Scoring sheet"} <= marked
    messages = {}
    for folder in catalogues.catalogue_dirs().values():
        messages.update({catalogues.msgid(m.id): m for m in catalogues.read_catalogue(folder) if m.id})
    missing, fuzzy = [], []
    for message_id in sorted(marked):
        message = messages.get(message_id)
        if message is None:
            missing.append(message_id)
            continue
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if not all(strings):
            missing.append(message_id)
        if message.fuzzy:
            fuzzy.append(message_id)
    assert missing == [], f"no German for {len(missing)} messages (run tools/translations.sh, translate): {missing}"
    assert fuzzy == [], f"fuzzy (unchecked) German for: {fuzzy}"


def test_each_message_is_in_the_one_catalogue_it_belongs_to():
    """A game's catalogue holds exactly the messages marked in its folder and nowhere else; the
    shared one those of companion/ and the engine core, and those two games' folders both mark.
    So no message has two translations."""
    marked = {name: catalogues.marked(name) for name in CATALOGUES}
    held = {name: {catalogues.msgid(m.id) for m in catalogues.read_catalogue(folder) if m.id}
            for name, folder in catalogues.catalogue_dirs().items()}
    games = [name for name in CATALOGUES if name != "shared"]
    by_two_games = {message for game in games for message in marked[game]
                    if sum(message in marked[other] for other in games) > 1}
    assert by_two_games  # e.g. "%(first)s, %(rest)s": the check below is not vacuous
    assert held["shared"] == marked["shared"] | by_two_games
    for game in games:
        others = set().union(marked["shared"], *(marked[other] for other in games if other != game))
        assert held[game] == marked[game] - others, game
        assert len(held[game]) > 100, game  # each game's rule engine speaks through its own catalogue
    for name in CATALOGUES:
        for other in CATALOGUES:
            assert name == other or not held[name] & held[other], (name, other)


@pytest.mark.parametrize("name", CATALOGUES)
def test_german_translations_keep_their_placeholders(name):
    # Babel's own checks: %(name)s placeholders the same in msgid and msgstr, plural forms complete.
    catalogue = catalogues.read_catalogue(catalogues.catalogue_dirs()[name])
    problems = [(message.id, [str(e) for e in errors]) for message, errors in catalogue.check()]
    assert problems == []


@pytest.mark.parametrize("name", CATALOGUES)
def test_the_committed_mo_is_the_compiled_po(name):
    folder = catalogues.catalogue_dirs()[name]
    fresh = io.BytesIO()
    write_mo(fresh, catalogues.read_catalogue(folder))
    fresh.seek(0)
    with catalogues.po_path(folder).with_suffix(".mo").open("rb") as fh:
        committed = gettext.GNUTranslations(fh)
    compiled = gettext.GNUTranslations(fresh)
    # The header entry ("") is metadata whose bytes differ between Babel releases; what the app
    # reads is every message and the plural rule, so those are compared.
    messages = {key: text for key, text in compiled._catalog.items() if key != ""}
    assert {key: text for key, text in committed._catalog.items() if key != ""} == messages, \
        f"{name}: messages.mo is stale: run tools/translations.sh"
    assert [committed.plural(n) for n in range(200)] == [compiled.plural(n) for n in range(200)], \
        f"{name}: messages.mo has another plural rule than messages.po"


@pytest.mark.parametrize("name", CATALOGUES)
def test_the_companion_serves_every_catalogues_german(app, name):
    """In a German request the companion says every message of every catalogue (the shared one
    and each game's, found through the registry) as that catalogue's .po translates it."""
    from flask_babel import get_translations

    catalogue = [m for m in catalogues.read_catalogue(catalogues.catalogue_dirs()[name]) if m.id]
    with app.test_request_context(headers=GERMAN):
        served = get_translations()
        for message in catalogue:
            if isinstance(message.id, str):
                assert served.ugettext(message.id) == message.string, message.id
            else:
                assert [served.ungettext(*message.id, n) for n in (1, 2)] == list(message.string), message.id
    with app.test_request_context():
        english = get_translations()
        assert all(english.ugettext(m.id) == m.id for m in catalogue if isinstance(m.id, str))


def test_the_committed_catalogues_are_what_tools_translations_sh_makes():
    """Every catalogue file (each .pot, .po and .mo) is byte for byte what the tool makes from
    the sources as they are: nothing marked is left out, nothing stale left in."""
    result = subprocess.run([sys.executable, str(ROOT / "tools/translations.py"), "--check"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr


def test_a_message_a_second_game_starts_using_moves_to_the_shared_catalogue_with_its_german(tmp_path):
    """Run on a copy of the repository where Carpe Diem's folder starts saying one of C.A.H.R.D.'s
    messages: the tool first reports both catalogues as stale, then moves the message into the
    shared catalogue, its German kept; every other message keeps its catalogue and its German."""
    for folder in ("card_data", "companion", "tools"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    moving = "S counts as 10, as in battle and card effects"
    copy_dirs = {name: tmp_path / folder.relative_to(ROOT) for name, folder in catalogues.catalogue_dirs().items()}

    def german(name: str) -> dict[str, object]:
        return {m.id if isinstance(m.id, str) else m.id[0]: m.string
                for m in catalogues.read_catalogue(copy_dirs[name]) if m.id}

    before = {name: german(name) for name in copy_dirs}
    assert before["cahrd"][moving] == "S zählt als 10, wie im Kampf und bei Karteneffekten"
    (tmp_path / "card_data/games/carpe_diem/extra_words.py").write_text(
        f"from card_data.engine.wording import Words\n\nSAID = Words({moving!r})\n", encoding="utf-8")
    tool = [sys.executable, str(tmp_path / "tools/translations.py")]
    check = subprocess.run([*tool, "--check"], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert check.returncode == 1
    assert "companion/translations/de/LC_MESSAGES/messages.po" in check.stderr
    assert "card_data/games/cahrd/translations/de/LC_MESSAGES/messages.mo" in check.stderr
    subprocess.run(tool, check=True, capture_output=True, timeout=600, cwd=tmp_path)
    after = {name: german(name) for name in copy_dirs}
    assert after["shared"][moving] == before["cahrd"][moving]
    assert moving not in after["cahrd"] and moving not in after["carpe_diem"]
    before["shared"][moving] = before["cahrd"].pop(moving)
    assert after == before
    assert subprocess.run([*tool, "--check"], capture_output=True, timeout=600, cwd=tmp_path).returncode == 0


def test_an_installed_games_catalogue_is_read_but_not_over_the_companions(tmp_path, monkeypatch):
    """A registered game's catalogue (here a stand-in for an installed game) is merged into what
    the companion serves; a message the shared catalogue also has keeps the shared translation."""
    import types

    from babel.messages.catalog import Catalog
    from flask_babel import get_translations

    import companion.web.language as language

    package = tmp_path / "dice_game"
    (package / "translations/de/LC_MESSAGES").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    own = Catalog(locale="de")
    own.add("Roll the die", "Wirf den Würfel")
    own.add("All rulings, newest first", "Falsch übersetzt")  # the shared catalogue's message
    with (package / "translations/de/LC_MESSAGES/messages.mo").open("wb") as fh:
        write_mo(fh, own)
    entry = types.SimpleNamespace(package=types.SimpleNamespace(__file__=str(package / "__init__.py")))
    monkeypatch.setattr(language, "registry", lambda: {"dice_game": entry})
    assert language.translation_directories() == [package / "translations", language.SHARED_TRANSLATIONS]
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite'}"})
    with app.test_request_context(headers=GERMAN):
        assert get_translations().ugettext("Roll the die") == "Wirf den Würfel"
        assert get_translations().ugettext("All rulings, newest first") == "Alle Regelklärungen, neueste zuerst"


def test_every_field_label_of_the_bundled_games_has_words_to_translate(app):
    """A card page names fields, types and icons at run time (companion.cards.field_labels lists their
    words for the catalogue): every one the bundled games show is listed, except abbreviations
    printed on the cards (``VP``, ``LDR``), which stay as printed."""
    from companion.cards.catalog import get_database
    from companion.cards.card_fields import card_stats, field_label

    shown = set()
    with app.test_request_context():
        for game in get_database().games.values():
            shown.update(field_label(card.type) for card in game.cards.values())
            shown.update(field_label(deck.kind) for deck in game.decks.values())
            shown.update(field_label(icon.stem) for icon in (game.folder / "icons").glob("*.svg"))
            for card in game.cards.values():
                stats = card_stats(card)
                for stat in (*stats.stats, *stats.prose):
                    shown.add(stat.label)
                    if stat.kind == "table":
                        shown.update(stat.value.columns)
                    elif stat.kind == "items":
                        shown.update(label for item in stat.value for label, _ in item.pairs)
    printed_abbreviations = {label for label in shown if len(label) <= 3 and label.isupper()}
    assert shown - printed_abbreviations - KNOWN_LABELS == set()
    assert {"Men under command", "Cost", "Power"} <= shown


# ---- which language a page is in -------------------------------------------------------------

GERMAN_PAGES = [
    # (address, status, German interface text on it, English interface text that must be gone)
    ("/", 200, "Werte, Regelklärungen und Glossar zu jeder Karte.", "Stats, rulings and glossary"),
    ("/r/cartisora/", 200, "Alle Regelklärungen, neueste zuerst", "All rulings, newest first"),
    ("/r/cartisora/first-blood", 200, "Alle Regelklärungen zu Duels of Cartisora, neueste zuerst", "All rulings of"),
    ("/r/cartisora/rulings", 200, "Regelklärungen, neueste zuerst.", "rulings, newest first"),
    ("/search?q=awarded+separately", 200, "Karten und Regelklärungen suchen", "Search cards and rulings"),
    ("/r/cartisora/no-such-card", 404, "Karte nicht gefunden", "Card not found"),
]


@pytest.mark.parametrize("path,status,german,english", GERMAN_PAGES)
def test_accept_language_de_gives_the_german_page(client, path, status, german, english):
    page = client.get(path, headers=GERMAN)
    assert page.status_code == status
    assert lang_of(page) == "de"
    text = text_of(page)
    assert german in text and english not in text
    assert "Karten-Begleiter" in text and "Punkte zählen" in text  # base.html's own words


def interface_words(min_length: int = 12) -> set[str]:
    """English messages of the companion's own interface (no placeholders, at least
    ``min_length`` characters) whose German differs: none of them may show on a German page.
    The rule engines' messages (card_data/) are left out: the rulings pages do not show them,
    and some read like card data or rulings, which are English where the data has no German."""
    interface = marked_messages("companion/")
    return {m.id for m in german_catalogue() if isinstance(m.id, str) and m.id and "%(" not in m.id
            and len(m.id) >= min_length and m.string and m.string != m.id and m.id in interface}


@pytest.mark.parametrize("path", ["/", "/r/cartisora/", "/r/cartisora/first-blood", "/r/carpe_cras/barbarian-tyro",
                                  "/r/cartisora/rulings", "/search?q=power", "/r/cartisora/no-such-card"])
def test_no_english_interface_text_is_left_on_a_german_page(client, path):
    text = text_of(client.get(path, headers=GERMAN))
    assert [words for words in interface_words() if words in text] == []


def test_without_accept_language_or_with_an_unknown_one_the_page_is_english(client):
    for headers in ({}, {"Accept-Language": "fr"}, {"Accept-Language": "fr-FR, es;q=0.8"}):
        page = client.get("/r/cartisora/", headers=headers)
        assert lang_of(page) == "en", headers
        assert "All rulings, newest first" in text_of(page)
    assert lang_of(client.get("/", headers={"Accept-Language": "fr, de;q=0.3"})) == "de"  # German over none


@pytest.mark.parametrize("header,expected", [
    ("de-DE", "de"), ("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "de"), ("en-US,en;q=0.9", "en"),
    # The phone's first language wins, regional or not, over one it ranks lower.
    ("en-GB, de;q=0.5", "en"), ("de-AT, en;q=0.5", "de"), ("fr, de;q=0", "en"),
])
def test_the_phones_first_language_wins_even_when_regional(client, header, expected):
    assert lang_of(client.get("/", headers={"Accept-Language": header})) == expected


def test_the_cookie_beats_the_header_and_an_unknown_cookie_is_ignored(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    assert lang_of(client.get("/", headers=GERMAN)) == "en"
    client.set_cookie("lang", "de")
    assert lang_of(client.get("/", headers={"Accept-Language": "en"})) == "de"
    assert lang_of(client.get("/")) == "de"
    client.set_cookie("lang", "xx")
    assert lang_of(client.get("/", headers=GERMAN)) == "de"
    assert lang_of(client.get("/")) == "en"


def test_pages_say_they_vary_by_language(client):
    page = client.get("/r/cartisora/first-blood", headers=GERMAN)
    assert {"Accept-Language", "Cookie"} <= set(page.vary)


# ---- the switcher ------------------------------------------------------------------------------

def test_the_switcher_remembers_the_choice_and_goes_back_to_the_page(app):
    client = app.test_client()
    response = client.post("/language", data={"lang": "de", "next": "/r/cartisora/rulings?type=token"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/r/cartisora/rulings?type=token"
    cookie = client.get_cookie("lang")
    assert cookie.value == "de" and cookie.http_only
    assert lang_of(client.get("/r/cartisora/rulings?type=token")) == "de"
    client.post("/language", data={"lang": "en", "next": "/"})
    assert lang_of(client.get("/", headers=GERMAN)) == "en"


@pytest.mark.parametrize("target", ["//evil.com", "https://evil.com", "http://evil.com/r/", "evil.com",
                                    "javascript:alert(1)", "", "/\\evil.com"])
def test_the_switcher_redirects_only_within_the_site(client, target):
    response = client.post("/language", data={"lang": "de", "next": target})
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\")), location


def test_the_switcher_refuses_an_unknown_language(client):
    response = client.post("/language", data={"lang": "fr", "next": "/"})
    assert response.status_code == 400
    assert "lang" not in response.headers.get("Set-Cookie", "")


def test_the_switcher_needs_the_forms_token_when_csrf_is_on(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite'}",
                      "SECRET_KEY": "test-secret"})
    try:
        client = app.test_client()
        refused = client.post("/language", data={"lang": "de", "next": "/"}, headers=GERMAN)
        assert refused.status_code == 400
        assert client.get_cookie("lang") is None
        # The refusal is a page in the player's language.
        assert lang_of(refused) == "de"
        assert "Dieses Formular konnte nicht angenommen werden" in text_of(refused)
        assert "Das CSRF-Token fehlt." in text_of(refused)
        form = BeautifulSoup(client.get("/").get_data(as_text=True), "html.parser").select_one(
            "form.language-switcher")
        token = form.select_one('input[name="csrf_token"]')["value"]
        accepted = client.post(form["action"], data={"lang": "de", "next": "/", "csrf_token": token})
        assert accepted.status_code == 303 and client.get_cookie("lang").value == "de"
    finally:
        app.extensions["companion.scorekeeping.tables"].store.dispose()


# ---- dates and counts ------------------------------------------------------------------------

def test_ruling_dates_are_written_the_languages_way(client):
    day = datetime.date(2026, 11, 23)
    assert format_date(day, "long", locale="de") == "23. November 2026"
    german = client.get("/r/cartisora/first-blood", headers=GERMAN).get_data(as_text=True)
    english = client.get("/r/cartisora/first-blood").get_data(as_text=True)
    assert '<time datetime="2026-11-23">23. November 2026</time>' in german
    assert '<time datetime="2026-11-23">23 November 2026</time>' in english
    assert "Spielregel: 2019 rulebook, Bonus Points" in german  # the section stays as written
    # A card ruling of the 22nd, and the search's ruling heading.
    assert "22. November 2026" in text_of(client.get("/r/cartisora/parry", headers=GERMAN))
    search = text_of(client.get("/search?q=awarded+separately", headers=GERMAN))
    assert "Duels of Cartisora: Regelklärung vom 23. November 2026" in search


def test_counts_are_german_with_a_german_noun(client):
    game = load_database().games["cartisora"]
    total = len(all_rulings(game))
    assert f"Alle {total} Regelklärungen, neueste zuerst." in text_of(client.get("/r/cartisora/rulings", headers=GERMAN))
    filtered = text_of(client.get("/r/cartisora/rulings?type=token&q=tie+pool", headers=GERMAN))
    assert re.search(rf"\d+ von {total} Regelklärungen zu einer Karte vom Typ Marker mit „tie pool“", filtered)
    english = text_of(client.get("/r/cartisora/rulings?type=token&q=tie+pool"))
    assert re.search(rf"\d+ of {total} rulings about a token card with “tie pool”", english)
    index = text_of(client.get("/", headers=GERMAN))
    assert f"{len(game.cards)} Karten" in index


def test_card_labels_and_yes_no_are_german(client):
    page = text_of(client.get("/r/carpe_cras/barbarian-tyro", headers=GERMAN))
    assert "Kosten" in page and "Lebenspunkte" in page and "Wert angenommen" in page
    english = text_of(client.get("/r/carpe_cras/barbarian-tyro"))
    assert "Cost" in english and "Health" in english and "Kosten" not in english


def test_the_offline_words_come_from_the_page_in_its_language(client):
    import json

    def words(response):
        meta = BeautifulSoup(response.get_data(as_text=True), "html.parser").select_one(
            'meta[name="companion-offline-words"]')
        return json.loads(meta["content"])

    german, english = words(client.get("/r/carpe_diem/", headers=GERMAN)), words(client.get("/r/carpe_diem/"))
    assert german.keys() == english.keys()
    assert german["save"] == "Dieses Spiel offline speichern" and english["save"] == "Save this game for offline"
    assert "%(time)s" in german["copyOffline"] and "%(time)s" in english["copyOffline"]
    script = (ROOT / "companion" / "static" / "offline.js").read_text()
    assert "Saved for offline on " not in script and "Not saved on this phone yet" not in script


def test_the_static_export_is_english(tmp_path):
    from companion.cards.site import export_site

    out = tmp_path / "site"
    export_site(out)
    page = (out / "r" / "cartisora" / "index.html").read_text()
    assert '<html lang="en">' in page and "All rulings, newest first" in page
    assert 'class="language-switcher"' not in page


# ---- as a player would: Chromium at 390 x 844 -----------------------------------------------

def test_a_german_phone_reads_german_then_switches_to_english_and_it_stays(browser, server):
    from phones import ARTIFACTS, PHONE
    from playwright.sync_api import expect

    context = browser.new_context(**PHONE, locale="de-DE")
    page = context.new_page()
    page.goto(f"{server}/r/carpe_diem/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("link", name="Alle Regelklärungen, neueste zuerst")).to_be_visible()
    expect(page.get_by_role("heading", name="Karten", exact=True)).to_be_visible()
    # static/offline.js speaks the page's language too (127.0.0.1 is a secure context).
    expect(page.locator("#offline-state")).to_contain_text("Noch nicht auf diesem Handy gespeichert")
    expect(page.get_by_role("button", name="Dieses Spiel offline speichern")).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390

    page.goto(f"{server}/r/cartisora/first-blood")
    ruling = page.locator("article.ruling", has_text=SHARED)
    expect(ruling.locator("time")).to_have_text("23. November 2026")
    expect(ruling).to_contain_text("Spielregel: 2019 rulebook, Bonus Points")
    expect(page.get_by_role("heading", name="Regelklärungen", exact=True)).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "card-de-390.png"), full_page=True)

    switcher = page.get_by_role("group", name="Sprache")
    expect(switcher.get_by_role("button", name="Deutsch")).to_have_attribute("aria-pressed", "true")
    switcher.get_by_role("button", name="English").tap()
    expect(page).to_have_url(f"{server}/r/cartisora/first-blood")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(ruling.locator("time")).to_have_text("23 November 2026")
    expect(page.get_by_role("heading", name="Rulings", exact=True)).to_be_visible()
    expect(page.get_by_role("group", name="Language").get_by_role("button", name="English")).to_have_attribute(
        "aria-pressed", "true")

    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("link", name=re.compile("^All rulings of"))).to_be_visible()
    page.goto(f"{server}/r/carpe_diem/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("link", name="All rulings, newest first")).to_be_visible()
    expect(page.locator("#offline-state")).to_contain_text("Not saved on this phone yet")
    context.close()


def test_a_templates_strings_are_said_in_the_pages_language_filled_and_escaped(app):
    """The templates' ``_()`` and ``{% trans %}``: the page's language, placeholders filled with
    their values escaped (markup kept), ``%%`` read as ``%`` with or without values (Jinja's
    newstyle gettext)."""
    source = ('{{ _("%(count)s grapes", count=count) }}|{{ _("Banderole bar") }}|{{ _("100%%") }}|'
              '{{ _("%(n)s%% left", n=name) }}|{% trans who=name %}{{ who }}: space 3{% endtrans %}')
    for language, said in [("en", "<b>2</b> grapes|Banderole bar|100%|Ann &amp; Bo% left|Ann &amp; Bo: space 3"),
                           ("de", "<b>2</b> Trauben|Banderolenleiste|100%|Ann &amp; Bo% left|Ann &amp; Bo: space 3")]:
        with app.test_request_context("/", headers={"Accept-Language": language}):
            html = app.jinja_env.from_string(source).render(count=Markup("<b>2</b>"), name="Ann & Bo")
            assert html == said, language
