"""Offline at the table (issue 12, part 3): a phone that opened a game keeps its rulings pages.

- The offline manifest ``/r/<game>/offline.json`` lists every page of the game and the static
  files the pages load; the worker ``/sw.js`` is served so that it may control ``/r/``.
- The static export writes the worker and each game's manifest, with relative URLs that
  resolve to files of the export.
- In Debian's Chromium at 390 x 844 (Playwright): save a game from its game page, cut the
  network (``context.set_offline(True)``), open a card page never opened before and the game
  page: both load from the saved copy and say when it was saved; a printed card's QR code
  (its short address ``/Q/<CODE>``) leads to the card's saved page. A page opened once while the
  worker ran loads offline too. A changed game is saved again when its page is opened online.
  The exported site under a sub-path of a static server behaves the same. Over plain http from
  another host name (a phone on the home network), or from a file, the game page says saving
  is not available instead of offering the button; a save that cannot reach the companion
  says it failed. axe-core and the 44 px tap targets are checked on the new states.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from phones import ARTIFACTS, PHONE, chromium_path, serving, static_server
from playwright.sync_api import expect
from test_accessibility import AXE, MIN_TARGET, SMALL_TARGETS, axe_violations

from card_data.loader import load_database
from card_data.editions.short_codes import card_code
from companion.cards.offline import asset_files
from companion.cards.site import export_site
from companion.web.static_files import file_digests

GAME = "cartisora"
LINK_ATTR = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
STATIC = Path(__file__).resolve().parent.parent / "companion" / "static"


def versioned(name: str) -> str:
    """``name`` (a path under ``static/``) as pages link it: with its content's digest."""
    return f"{name}?v={file_digests(STATIC)[name]}"


@pytest.fixture(scope="module")
def bundled():
    return load_database()


# --- The manifest and the worker, through Flask's test client ---------------------------------

@pytest.mark.parametrize("game_id", ["cartisora", "carpe_cras", "cahrd", "carpe_diem"])
def test_the_manifest_lists_every_card_page_and_the_static_files(client, bundled, game_id):
    response = client.get(f"/r/{game_id}/offline.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    manifest = response.get_json()
    urls = manifest["urls"]
    assert manifest["game"] == game_id and re.fullmatch(r"[0-9a-f]{16}", manifest["version"])
    assert urls[0] == f"/r/{game_id}/"
    game = bundled.games[game_id]
    for card_id in game.cards:
        assert f"/r/{game_id}/{card_id}" in urls, card_id
    assert len(urls) == len(set(urls))
    for name in ("companion.css", "companion.js", "offline.js", "pico/pico.min.css", "icons/icon-192.png"):
        assert f"/static/{versioned(name)}" in urls, name
    assert not any(u.endswith(("LICENSE", "LICENSE.md", ".md", "/sw.js")) for u in urls)
    # Every listed address answers, as the worker will fetch each one.
    for url in urls:
        assert client.get(url).status_code == 200, url
    # Each printed card's short code names a saved page: the one the companion redirects it to.
    codes = manifest["codes"]
    assert len(codes) >= len(game.cards)
    for code, url in codes.items():
        assert url in urls, (code, url)
        response = client.get(f"/Q/{code}")
        assert response.status_code == 302 and response.headers["Location"] == url, code


def test_every_file_a_rulings_page_loads_is_in_its_games_manifest(client):
    manifest = client.get(f"/r/{GAME}/offline.json").get_json()
    for page in (f"/r/{GAME}/", f"/r/{GAME}/parry"):
        html = client.get(page).get_data(as_text=True)
        static = {u for u in LINK_ATTR.findall(html) if u.startswith("/static/")}
        assert static, page
        assert static <= set(manifest["urls"]), static - set(manifest["urls"])


def test_the_manifest_lists_the_games_other_rulings_pages_too(app):
    """Any per-game page of the rulings blueprint (a GET route taking only ``game``) is saved."""
    from companion.cards.offline import game_page_endpoints

    per_game, per_card = game_page_endpoints(app)
    assert per_game[0] == "rulings.game_page" and "rulings.card_page" in per_card
    with app.test_request_context():
        from flask import url_for
        expected = [url_for(e, game=GAME) for e in per_game]
    urls = app.test_client().get(f"/r/{GAME}/offline.json").get_json()["urls"]
    assert urls[:len(expected)] == expected


def test_an_unknown_game_has_no_manifest(client):
    assert client.get("/r/no-such-game/offline.json").status_code == 404


def test_the_worker_is_served_fresh_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert b'addEventListener("fetch"' in response.get_data()
    # The site's strict policy holds for the worker too: a worker may come from 'self' only.
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_the_version_changes_when_a_card_changes(data_copy):
    before = data_copy.app().test_client().get(f"/r/{GAME}/offline.json").get_json()["version"]
    data_copy.edit_card(GAME, "parry", note="Reprinted with new wording.")
    after = data_copy.app().test_client().get(f"/r/{GAME}/offline.json").get_json()["version"]
    assert before != after


def test_the_version_is_the_data_of_a_game_folder_not_its_python(data_copy):
    """A bundled game's folder is its Python package too: bytecode written by another Python, an
    edit to the rules or to the scorekeeper page leaves the rulings pages, and so the saved
    copy's version, as they were; a changed glossary does not."""
    import shutil

    from card_data.loader import bundled_data_dir

    folder = data_copy.root / GAME
    for name in ("cards.py", "table.html"):
        shutil.copyfile(bundled_data_dir() / GAME / name, folder / name)
    before = data_copy.app().test_client().get(f"/r/{GAME}/offline.json").get_json()["version"]
    (folder / "cards.py").write_text("# edited\n", encoding="utf-8")
    (folder / "table.html").write_text("{# edited #}\n", encoding="utf-8")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "cards.cpython-399.pyc").write_bytes(b"\0")
    assert data_copy.app().test_client().get(f"/r/{GAME}/offline.json").get_json()["version"] == before
    data_copy.add_glossary_entries(GAME, [{"id": "new-term", "term": "New term", "text": "A new entry.",
                                             "section": "2019 rulebook, Setup"}])
    assert data_copy.app().test_client().get(f"/r/{GAME}/offline.json").get_json()["version"] != before


def test_pages_name_the_worker_and_the_game_page_its_manifest(client):
    page = client.get(f"/r/{GAME}/").get_data(as_text=True)
    assert '<meta name="companion-worker" content="/sw.js">' in page
    assert f'data-manifest="/r/{GAME}/offline.json"' in page
    assert f'<script src="/static/{versioned("offline.js")}" defer></script>' in page


# --- The static export -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("offline-export") / "site"
    export_site(out)
    return out


def test_the_export_holds_the_worker_and_each_games_manifest(site, bundled, app):
    assert (site / "sw.js").read_bytes() == (Path(app.static_folder) / "sw.js").read_bytes()
    for game in bundled.games.values():
        manifest = json.loads((site / "r" / game.game_id / "offline.json").read_text(encoding="utf-8"))
        assert manifest["game"] == game.game_id
        assert manifest["urls"][0] == "index.html"
        base = site / "r" / game.game_id
        for url in manifest["urls"]:
            assert not urlsplit(url).scheme and not url.startswith("/"), url
            assert (base / urlsplit(url).path).resolve().is_file(), url
        for card_id in game.cards:
            assert f"{card_id}/index.html" in manifest["urls"], card_id
        for code, url in manifest["codes"].items():
            assert url in manifest["urls"] and (base / url).resolve().is_file(), (code, url)
            assert (site / "Q" / code / "index.html").is_file(), code
        for name in asset_files(app):
            assert f"../../static/{versioned(name)}" in manifest["urls"], name


def test_exported_pages_name_the_worker_relative_to_themselves(site):
    card = (site / "r" / GAME / "parry" / "index.html").read_text(encoding="utf-8")
    assert '<meta name="companion-worker" content="../../../sw.js">' in card
    game = (site / "r" / GAME / "index.html").read_text(encoding="utf-8")
    assert 'data-manifest="offline.json"' in game


# --- A phone at the table, in Chromium ---------------------------------------------------------

WAIT_FOR_WORKER = """() => Promise.race([
  navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ? true
    : new Promise(done => navigator.serviceWorker.addEventListener("controllerchange", () => done(true)))),
  new Promise(done => setTimeout(() => done(false), 30000))])"""
"""Resolves to true once the worker controls the page, false if it does not within 30 s (a guard
against a hang: ``page.evaluate`` has no timeout of its own; a function, not a string: the
page's CSP forbids string eval, which ``wait_for_function`` would use)."""


@contextlib.contextmanager
def chromium(browser, *args: str):
    """Another Chromium like ``browser`` (same Playwright), with extra command-line ``args``."""
    other = browser.browser_type.launch(executable_path=chromium_path(), args=[
        "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", *args])
    try:
        yield other
    finally:
        other.close()


WAIT_FOR_SHORT_WORKER = """(scope) => new Promise(function (done) {
  var until = Date.now() + 30000;
  setTimeout(function () { done(false); }, 31000);  // even if getRegistration never settles
  (function check() {
    navigator.serviceWorker.getRegistration(scope).then(function (registration) {
      if (registration && registration.active && registration.scope === scope) done(true);
      else if (Date.now() > until) done(false);
      else setTimeout(check, 100);
    });
  })();
})"""
"""Resolves to true once a worker registered for the short addresses' scope (``<root>/Q/``) is
active, false if none is within 30 s (a guard against a hang, not a timing)."""


def printed_code(bundled, card_id: str) -> tuple[str, str]:
    """``(code, page)``: the short code a copy of ``card_id`` printed now carries, and the path
    of the card page it opens below the site's root (``r/<game>/<card>/<version>``)."""
    game = bundled.games[GAME]
    version = game.printings.card_version(game.cards[card_id]).version
    return card_code(GAME, card_id, version), f"r/{GAME}/{card_id}/{version}"


def save_game(page, game_url: str) -> str:
    """Open the game page, press "Save this game for offline", wait until the page says it is
    saved; the saved-at time the page shows (its ``<time datetime>``)."""
    page.goto(game_url)
    button = page.get_by_role("button", name="Save this game for offline")
    expect(button).to_be_visible()
    expect(page.locator("#offline")).to_have_attribute("data-offline", "not-saved")
    # The first visit registers the worker; it takes this page over (clients.claim) before the
    # save is asked. Chromium once left a page unclaimed for 30 s in a full run: a page loaded
    # while the worker is active is always controlled, so the page is then loaded again.
    if not page.evaluate(WAIT_FOR_WORKER):
        page.reload()
        assert page.evaluate(WAIT_FOR_WORKER)
        button = page.get_by_role("button", name="Save this game for offline")
    button.click()
    expect(page.locator("#offline")).to_have_attribute("data-offline", "saved", timeout=30000)
    expect(page.locator("#offline-state")).to_contain_text("Saved for offline on")
    return page.locator("#offline-state time").get_attribute("datetime")


def expect_saved_copy(page, saved_at: str | None = None) -> None:
    """The page came from the phone's saved copy and says so, with the time it was saved."""
    note = page.locator("#offline-copy")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Saved for offline on")
    # Which reason it gives rests on navigator.onLine; Playwright's offline mode (1.65,
    # Chromium 150) sets it on the page that was open but not on a page it navigates to, so
    # either wording is the saved copy. test_the_offline_note_says_when_the_phone_is_offline
    # checks the wording for a phone that knows it is offline.
    expect(note).to_contain_text(re.compile("you are offline|the companion cannot be reached"))
    if saved_at:
        expect(note.locator("time")).to_have_attribute("datetime", saved_at)


def test_a_saved_game_opens_with_the_network_cut(browser, server, bundled):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    saved_at = save_game(page, f"{server}/r/{GAME}/")
    assert saved_at.endswith("Z")
    assert page.evaluate(WAIT_FOR_SHORT_WORKER, f"{server}/Q/")

    context.set_offline(True)
    # A card page this phone never opened: from the saved copy, saying so and since when.
    card = bundled.games[GAME].cards["brutal-strike"]
    page.goto(f"{server}/r/{GAME}/brutal-strike")
    expect(page.locator("h1")).to_have_text(card.title)
    expect_saved_copy(page, saved_at)
    # Styled as online: the stylesheet came from the saved copy too.
    assert page.locator("html").evaluate("h => getComputedStyle(h).getPropertyValue('--pico-primary')").strip()
    assert page.locator("#offline-copy").evaluate("p => getComputedStyle(p).borderLeftStyle") == "solid"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "offline-card.png"), full_page=True)

    # Its links lead on through the saved copy: back to the game page.
    page.get_by_role("link", name=bundled.games[GAME].info.title).first.click()
    page.wait_for_url(f"{server}/r/{GAME}/")
    expect(page.locator("h1")).to_have_text(bundled.games[GAME].info.title)
    expect_saved_copy(page, saved_at)
    expect(page.locator("#offline-state")).to_contain_text("Saved for offline on")
    # Every card of the game is there, not only the ones opened.
    for card_id in list(bundled.games[GAME].cards)[:5]:
        page.goto(f"{server}/r/{GAME}/{card_id}")
        expect(page.locator("#offline-copy")).to_be_visible()

    # A printed card's QR code, scanned with no network: its short address leads to the card's
    # saved page for the version printed on it.
    code, card_page = printed_code(bundled, "feint")
    page.goto(f"{server}/Q/{code}")
    page.wait_for_url(f"{server}/{card_page}")
    expect(page.locator("h1")).to_have_text(bundled.games[GAME].cards["feint"].title)
    expect_saved_copy(page, saved_at)
    # A code no saved game knows: the worker's own page, not a browser error.
    page.goto(f"{server}/Q/ZZZZZZZZ")
    expect(page.locator("h1")).to_have_text("Not saved for offline")

    # Back online, the same page comes from the companion again, without the note.
    context.set_offline(False)
    page.goto(f"{server}/r/{GAME}/brutal-strike")
    expect(page.locator("h1")).to_have_text(card.title)
    expect(page.locator("#offline-copy")).to_have_count(0)
    context.close()


def test_a_page_opened_once_opens_offline_without_saving_the_game(browser, server):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server}/r/{GAME}/parry")
    assert page.evaluate(WAIT_FOR_WORKER)
    page.goto(f"{server}/r/{GAME}/feint")  # opened while the worker runs: kept
    expect(page.locator("h1")).to_be_visible()
    context.set_offline(True)
    for card_id in ("feint", "parry"):
        page.goto(f"{server}/r/{GAME}/{card_id}")
        expect(page.locator("h1")).not_to_have_text("Not saved for offline")
        expect_saved_copy(page)
    # A page never opened nor saved: the worker says so plainly instead of the browser's error.
    page.goto(f"{server}/r/{GAME}/brutal-strike")
    expect(page.locator("h1")).to_have_text("Not saved for offline")
    context.close()


def test_a_page_served_over_plain_http_says_it_cannot_save(browser, server):
    """A phone on the home network reaches the companion by a LAN name over http: no service
    worker there, and the game page says so instead of showing a button that does nothing."""
    port = urlsplit(server).port
    with chromium(browser, "--host-resolver-rules=MAP companion.lan 127.0.0.1") as lan_browser:
        context = lan_browser.new_context(**PHONE)
        context.add_init_script(path=AXE)
        page = context.new_page()
        page.goto(f"http://companion.lan:{port}/r/{GAME}/")
        assert page.evaluate("window.isSecureContext") is False
        expect(page.locator("#offline")).to_have_attribute("data-offline", "unavailable")
        expect(page.locator("#offline-state")).to_contain_text("needs the companion served over HTTPS")
        expect(page.get_by_role("button", name="Save this game for offline")).to_be_hidden()
        assert axe_violations(page) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_offline_ui_passes_axe_and_its_button_is_big_enough(browser, server, scheme):
    """The save button and its status (not saved, saved) and the saved-copy note, checked as
    tests/test_accessibility.py checks every page: axe-core's default rules, 44 px targets."""
    context = browser.new_context(**PHONE, color_scheme=scheme)
    context.add_init_script(path=AXE)
    page = context.new_page()
    found = {}

    def check(name: str) -> None:
        for kind, problems in (("axe", axe_violations(page)), ("targets", page.evaluate(SMALL_TARGETS, MIN_TARGET))):
            if problems:
                found[f"{name}: {kind}"] = problems

    page.goto(f"{server}/r/{GAME}/")
    expect(page.locator("#offline")).to_have_attribute("data-offline", "not-saved")
    check("game page, not saved")
    save_game(page, f"{server}/r/{GAME}/")
    check("game page, saved")
    context.set_offline(True)
    page.goto(f"{server}/r/{GAME}/parry")
    expect_saved_copy(page)
    check("card page, saved copy")
    context.close()
    assert not found, json.dumps(found, indent=1)


def test_the_exported_site_saves_a_game_and_opens_it_offline(browser, site, bundled):
    """The static export under a sub-path of a plain static server (on loopback, a secure
    context as an HTTPS host would be): the same save, the same offline pages, reached by the
    QR code's address (``r/<game>/<card>``, which the host redirects to ``.../<card>/``)."""
    with static_server(site.parent.parent) as host:
        root = f"{host}/{site.parent.name}/{site.name}/"
        context = browser.new_context(**PHONE)
        page = context.new_page()
        saved_at = save_game(page, urljoin(root, f"r/{GAME}/index.html"))
        context.set_offline(True)
        page.goto(urljoin(root, f"r/{GAME}/feint/"))
        expect(page.locator("h1")).to_have_text(bundled.games[GAME].cards["feint"].title)
        expect_saved_copy(page, saved_at)
        page.goto(urljoin(root, f"r/{GAME}/"))
        expect(page.locator("h1")).to_have_text(bundled.games[GAME].info.title)
        expect_saved_copy(page, saved_at)
        context.close()


def test_a_printed_code_opens_the_saved_card_of_the_exported_site_with_the_host_gone(browser, site, bundled):
    """A card's QR code holds its short address: on the static host its page (``Q/<CODE>/``)
    sends the browser on to the card's page; with the host out of reach, the worker leads it to
    the card's page in the saved game."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    with static_server(site.parent.parent) as host:
        root = f"{host}/{site.parent.name}/{site.name}/"
        code, card_page = printed_code(bundled, "brutal-strike")
        page.goto(urljoin(root, f"Q/{code}/"))
        page.wait_for_url(urljoin(root, f"{card_page}/index.html"))
        expect(page.locator("h1")).to_have_text(bundled.games[GAME].cards["brutal-strike"].title)
        saved_at = save_game(page, urljoin(root, f"r/{GAME}/index.html"))
        assert page.evaluate(WAIT_FOR_SHORT_WORKER, urljoin(root, "Q/"))
    # A code never opened before: only the worker knows where it leads (a browser alone would
    # show its own error page). The card page then comes from the saved game, or from the
    # browser's HTTP cache, which the save filled too and which may answer first for a static
    # host's files (Last-Modified, no Cache-Control), so the saved-copy note is not asserted here.
    code, card_page = printed_code(bundled, "feint")
    page.goto(urljoin(root, f"Q/{code}/"))
    page.wait_for_url(urljoin(root, f"{card_page}/index.html"))
    expect(page.locator("h1")).to_have_text(bundled.games[GAME].cards["feint"].title)
    assert saved_at
    context.close()


def test_a_changed_game_is_saved_again_when_its_page_is_opened_online(browser, data_copy):
    """How updates reach a saved game: the companion's pages change (new card data), the game
    page opened online sees a new manifest version and saves the game again; offline, a card
    page the phone never opened shows the new text."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    with serving(data_copy.app()) as base:
        port = urlsplit(base).port
        first = save_game(page, f"{base}/r/{GAME}/")
    data_copy.edit_card(GAME, "parry", note="Reprinted with new wording.")
    with serving(data_copy.app(), port) as base:
        page.goto(f"{base}/r/{GAME}/")
        expect(page.locator(f'#offline[data-offline="saved"] #offline-state time:not([datetime="{first}"])')).to_be_visible(
            timeout=30000)
        second = page.locator("#offline-state time").get_attribute("datetime")
    # The companion is gone now, and the phone offline as well.
    context.set_offline(True)
    page.goto(f"{base}/r/{GAME}/parry")
    expect(page.locator("main")).to_contain_text("Reprinted with new wording.")
    expect_saved_copy(page, second)
    context.close()


def test_an_exported_page_opened_from_a_file_says_it_cannot_save(browser, site):
    """Opened straight from the disk (file://) there is no worker to be had: the game page says
    so rather than offering a button that would wait for ever."""
    page = browser.new_context(**PHONE).new_page()
    page.goto((site / "r" / GAME / "index.html").as_uri())
    expect(page.locator("#offline")).to_have_attribute("data-offline", "unavailable")
    expect(page.locator("#offline-state")).to_contain_text("cannot save pages for offline")
    expect(page.locator("#offline-save")).to_be_hidden()
    page.context.close()


def test_saving_with_the_companion_out_of_reach_says_it_failed_and_keeps_nothing(browser, server):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server}/r/{GAME}/")
    assert page.evaluate(WAIT_FOR_WORKER)
    context.set_offline(True)
    page.get_by_role("button", name="Save this game for offline").click()
    expect(page.locator("#offline")).to_have_attribute("data-offline", "failed")
    expect(page.locator("#offline-state")).to_contain_text("Could not save this game")
    expect(page.get_by_role("button", name="Save this game for offline")).to_be_enabled()
    # No half-saved game passes for a saved one.
    names = page.evaluate("() => caches.keys()")
    assert not [n for n in names if n.startswith("companion-offline:game:")], names
    context.close()


def test_the_offline_note_says_when_the_phone_is_offline(browser, server):
    """A phone that knows it has no network (navigator.onLine false) is told so, rather than
    that the companion cannot be reached."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    save_game(page, f"{server}/r/{GAME}/")
    context.set_offline(True)
    # What a real phone in airplane mode reports on every page; see expect_saved_copy.
    context.add_init_script("Object.defineProperty(Navigator.prototype, 'onLine', "
                            "{configurable: true, get: () => false})")
    page.goto(f"{server}/r/{GAME}/brutal-strike")
    expect(page.locator("#offline-copy")).to_contain_text("you are offline")
    context.set_offline(False)
    page.goto(f"{server}/r/{GAME}/")
    expect(page.locator("#offline-copy")).to_have_count(0)
    context.close()


# --- The start page and search, for the installed app (issue 20) --------------------------------

def test_the_site_manifest_lists_the_start_page_the_offline_search_and_the_static_files(client, bundled):
    response = client.get("/offline.json")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    manifest = response.get_json()
    assert re.fullmatch(r"[0-9a-f]{16}", manifest["version"])
    assert manifest["urls"][:2] == ["/", "/search/offline"] and manifest["search"] == "/search/offline"
    for name in ("companion.css", "companion.js", "offline.js", "pico/pico.min.css"):
        assert f"/static/{versioned(name)}" in manifest["urls"], name
    for url in manifest["urls"]:
        assert client.get(url).status_code == 200, url
    # The offline search page lists every card of every game, for the phone to filter.
    page = client.get("/search/offline").get_data(as_text=True)
    listed = re.findall(r'<li data-search="[^"]*" data-game="([^"]+)"', page)
    assert len(listed) == sum(len(game.cards) for game in bundled.games.values())
    assert "data-filter-list" in page and 'data-one="{num} card matches."' in page


def test_the_export_holds_the_site_manifest(site):
    manifest = json.loads((site / "offline.json").read_text(encoding="utf-8"))
    assert manifest["urls"][:2] == ["index.html", "search/index.html"] and manifest["search"] == "search/index.html"
    for url in manifest["urls"]:
        assert not urlsplit(url).scheme and not url.startswith("/"), url
        assert (site / urlsplit(url).path).resolve().is_file(), url


WAIT_FOR_SITE_WORKER = WAIT_FOR_SHORT_WORKER
"""The same wait, for the worker registered for the site's root (active once its install,
which saves the start page and search, is done)."""


def test_the_installed_app_opens_offline_to_its_start_page_and_searches(browser, server, bundled):
    """A phone that opened the start page once (as when installing the app): with the network
    cut, the start page opens from the phone's copy, a search lists the matching cards (filtered
    in the phone), and a table page is not answered from a copy (it needs the companion)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server}/")
    assert page.evaluate(WAIT_FOR_SITE_WORKER, f"{server}/")
    title = bundled.games[GAME].info.title

    context.set_offline(True)
    page.goto(f"{server}/")
    expect(page.get_by_role("link", name=title).first).to_be_visible()
    expect_saved_copy(page)

    parry = bundled.games[GAME].cards["parry"].title
    page.goto(f"{server}/search?q=parry")
    expect(page.locator("h1")).not_to_have_text("Not saved for offline")
    expect_saved_copy(page)
    shown = page.locator("[data-filter-list] li:visible")
    expect(shown.filter(has_text=parry).first).to_be_visible()
    brutal = bundled.games[GAME].cards["brutal-strike"].title
    expect(shown.filter(has_text=brutal)).to_have_count(0)  # listed, but hidden: no match
    assert page.locator("[data-filter-list] li", has_text=brutal).count() > 0
    assert 0 < shown.count() < 20
    expect(page.locator("form.search input[name=q]")).to_have_value("parry")
    expect(page.locator("[data-filter-status]")).to_have_text(re.compile(r"^\d+ cards? match"))
    # Searching again from the saved page, with no network: the same page filters the new words.
    page.locator("form.search input[name=q]").fill("brutal strike")
    page.locator("form.search button").click()
    page.wait_for_url(re.compile(r"/search\?.*q=brutal"))
    expect(shown.filter(has_text=brutal).first).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "offline-search.png"), full_page=True)

    # A table must be live: the worker leaves it to the network, which is not there.
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
        page.goto(f"{server}/tables/new")
    context.close()


# --- The worker's own "Not saved for offline" page, in the page's language (issue 20) -------------

def test_the_not_saved_page_is_the_companions_own_in_every_language(client):
    """The site manifest names a "Not saved for offline" page per language, which the worker
    keeps with the start page; each is rendered in its language."""
    manifest = client.get("/offline.json").get_json()
    assert manifest["notSaved"] == {"en": "/offline/not-saved/en.html", "de": "/offline/not-saved/de.html"}
    assert set(manifest["notSaved"].values()) <= set(manifest["urls"])
    english = client.get("/offline/not-saved/en.html", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="en">' in english and "<h1>Not saved for offline</h1>" in english
    german = client.get("/offline/not-saved/de.html").get_data(as_text=True)
    assert '<html lang="de">' in german and "<h1>Nicht offline gespeichert</h1>" in german
    assert "Dieses Spiel offline speichern" in german and "saved copy" not in german
    assert client.get("/offline/not-saved/fr.html").status_code == 404


WAIT_FOR_LANGUAGE = """(lang) => new Promise(function (done) {
  var until = Date.now() + 30000;
  (function check() {
    caches.open("companion-offline:site").then(function (cache) {
      return cache.match(new URL("/?language", location.href).href);
    }).then(function (found) { return found ? found.text() : ""; }).then(function (told) {
      if (told === lang) done(true);
      else if (Date.now() > until) done(false);
      else setTimeout(check, 100);
    });
  })();
})"""
"""Resolves to true once the worker keeps ``lang`` as the language of the last page shown, false
if it does not within 30 s (a guard against a hang, not a timing)."""


def test_the_not_saved_page_is_in_the_language_of_the_page_last_shown(browser, server):
    """An English phone opens a card page, then switches the companion to Deutsch: with the
    network cut, a page never opened says it is not saved in German (the companion's own page,
    styled as the others, axe-clean); switched back to English, it says so in English."""
    context = browser.new_context(**PHONE, locale="en-GB")
    context.add_init_script(path=AXE)
    page = context.new_page()
    page.goto(f"{server}/r/{GAME}/parry")
    assert page.evaluate(WAIT_FOR_SITE_WORKER, f"{server}/")
    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert page.evaluate(WAIT_FOR_LANGUAGE, "de")

    context.set_offline(True)
    answer = page.goto(f"{server}/r/{GAME}/brutal-strike")
    assert answer.status == 503
    expect(page.locator("h1")).to_have_text("Nicht offline gespeichert")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("main p")).to_contain_text("Dieses Spiel offline speichern")
    assert page.locator("html").evaluate("h => getComputedStyle(h).getPropertyValue('--pico-primary')").strip()
    assert "Not saved" not in page.locator("body").inner_text()
    assert axe_violations(page) == []

    context.set_offline(False)
    page.goto(f"{server}/r/{GAME}/parry")
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.evaluate(WAIT_FOR_LANGUAGE, "en")
    context.set_offline(True)
    page.goto(f"{server}/r/{GAME}/feint-of-no-such-card")
    expect(page.locator("h1")).to_have_text("Not saved for offline")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    context.close()
