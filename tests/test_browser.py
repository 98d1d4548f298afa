"""Two phones at one table, in a real headless Chromium (Debian's, driven by Playwright) at a
390 x 844 phone viewport: one starts a table, the other joins by code, one acts, the other
sees it within about two seconds. Screenshots are saved under ``test-artifacts/``."""

from __future__ import annotations

import importlib

import pytest
from phones import ARTIFACTS, PHONE, api, engine_title, fill_event_form, running_server

# Carpe Cras: its scenario's refused entry (sacrificing agency a city space does not hold) is one
# a player can really type into the page's strike form.
GAME = "carpe_cras"


def test_two_phones_join_one_table_and_see_each_others_entries(browser, server):
    s = importlib.import_module(f"scenarios_{GAME}")
    phone_a = browser.new_context(**PHONE).new_page()
    phone_b = browser.new_context(**PHONE).new_page()

    # Phone A starts a table.
    phone_a.goto(f"{server}/tables/new")
    phone_a.get_by_role("button", name=engine_title(GAME)).click()
    seats = phone_a.locator('input[name="players[]"]')
    for i, name in enumerate(s.PLAYERS):
        seats.nth(i).fill(name)
    phone_a.get_by_role("button", name="Start the table").click()
    phone_a.wait_for_url("**/t/*")
    table_url = phone_a.url
    code = phone_a.locator(".join-top .table-code").inner_text().strip()  # a new table shows how to join first
    assert len(code) == 6

    # Phone B joins with the short code.
    phone_b.goto(f"{server}/join")
    phone_b.get_by_label("Table code").fill(code)
    phone_b.get_by_role("button", name="Join").click()
    phone_b.wait_for_url(table_url)
    assert phone_b.locator("#live").get_attribute("data-version") == "0"

    # Phone A enters the first event; phone B sees it without reloading.
    fill_event_form(phone_a, s.EVENTS[0])
    phone_a.wait_for_selector('#live[data-version="1"]')
    phone_b.wait_for_selector('#live[data-version="1"]', timeout=4000)
    first_line = phone_b.locator(".history li").first.text_content()
    assert first_line.strip() == phone_a.locator(".history li").first.text_content().strip() != ""

    # A refused entry is explained on the phone that made it, and the other phone sees no change.
    index, illegal, words = s.ILLEGAL
    for n, event in enumerate(s.EVENTS[1:index], start=2):
        fill_event_form(phone_a, event)
        phone_a.wait_for_selector(f'#live[data-version="{n}"]')
    version = phone_a.locator("#live").get_attribute("data-version")
    fill_event_form(phone_a, illegal)
    phone_a.wait_for_selector("#rule-error")
    assert words.lower() in phone_a.locator("#rule-error").inner_text().lower()
    assert phone_a.locator("#live").get_attribute("data-version") == version

    # Phone-sized: nothing wider than the screen.
    for page in (phone_a, phone_b):
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    phone_a.screenshot(path=str(ARTIFACTS / "phone-a.png"), full_page=True)
    phone_b.screenshot(path=str(ARTIFACTS / "phone-b.png"), full_page=True)



@pytest.mark.parametrize("game", ["carpe_cras", "cartisora", "cahrd", "carpe_diem"])
def test_every_game_page_fits_a_360_px_phone(browser, server, game):
    """Mid-game and finished, each game's page is no wider than a small phone, and its buttons
    are big enough to tap (at least 40 px high)."""
    s = importlib.import_module(f"scenarios_{game}")
    table = api(server, "/api/tables", {"game": game, "players": s.PLAYERS, "options": s.OPTIONS})
    page = browser.new_context(viewport={"width": 360, "height": 780}).new_page()
    for upto in (len(s.EVENTS) // 2, len(s.EVENTS)):
        done = 0 if upto == len(s.EVENTS) // 2 else len(s.EVENTS) // 2
        for event in s.EVENTS[done:upto]:
            api(server, f"/api/tables/{table['code']}/events", event)
        page.goto(f"{server}/t/{table['token']}")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 360, (game, upto)
        heights = page.evaluate("[...document.querySelectorAll('#live button')]"
                                ".filter(b => b.offsetParent).map(b => b.getBoundingClientRect().height)")
        assert all(h >= 40 for h in heights), (game, heights)
        if game == "carpe_diem":  # the card grid fits as it is, without scrolling sideways
            grid = page.locator("#cd-layout")
            assert grid.evaluate("t => t.scrollWidth <= t.closest('.scroll-x').clientWidth"), upto
    assert page.locator("#result").is_visible()
    page.screenshot(path=str(ARTIFACTS / f"{game}-finished-360.png"), full_page=True)


@pytest.mark.parametrize("game", ["carpe_cras", "cahrd"])
def test_a_player_name_of_one_long_word_never_widens_the_page(browser, server, game):
    """A name of 40 letters with no space or hyphen (the scoreboard widened to 448 px on a 390 px
    phone): it breaks where it must, on the scoreboard, the moves and the history alike."""
    players = ["Bartholomewbartholomewbartholomewbartho", "Maximilianmaximilianmaximilianmaximilia"]
    table = api(server, "/api/tables", {"game": game, "players": players})
    page = browser.new_context(viewport={"width": 360, "height": 780}).new_page()
    page.goto(f"{server}/t/{table['token']}")
    page.locator('#seat-ask button[value="table"]').click()
    page.wait_for_selector("#scoreboard")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360


def test_a_table_wider_than_the_phone_shows_there_is_more_to_its_right(browser, server):
    """Four players with 40-character names make Carpe Diem's "what each player owns" table
    wider than a 360 px phone: it scrolls inside its box, which fades out at the right edge
    (data-more) until it is scrolled to the end."""
    from playwright.sync_api import expect

    from card_data.games import registry

    players = [f"{name:-<40}" for name in ("Anna", "Bea", "Cleo", "Dora")][:registry()["carpe_diem"].engine.max_players]
    table = api(server, "/api/tables", {"game": "carpe_diem", "players": players})
    page = browser.new_context(viewport={"width": 360, "height": 780}).new_page()
    page.goto(f"{server}/t/{table['token']}")
    page.locator('#seat-ask button[value="table"]').click()
    page.locator("#cd-owned summary").click()
    box = page.locator("#cd-owned .scroll-x")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    expect(box).to_have_attribute("data-more", "")
    assert "linear-gradient" in box.evaluate("b => getComputedStyle(b).maskImage")
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    expect(box).not_to_have_attribute("data-more", "")
    assert box.evaluate("b => getComputedStyle(b).maskImage") == "none"


@pytest.mark.parametrize("game", ["carpe_cras", "cartisora", "cahrd", "carpe_diem"])
def test_a_whole_game_played_through_the_page_survives_a_restart(browser, tmp_path, game):
    """Start from the phone, enter every scenario event through the page's own forms, see the
    result; then restart the server on the same database and find the finished table intact."""
    s = importlib.import_module(f"scenarios_{game}")
    db_url = f"sqlite:///{tmp_path / 'companion.sqlite'}"
    page = browser.new_context(**PHONE).new_page()
    with running_server(db_url) as base:
        page.goto(f"{base}/tables/new/{game}")
        seats = page.locator('input[name="players[]"]')
        for i, name in enumerate(s.PLAYERS):
            seats.nth(i).fill(name)
        for key, value in s.OPTIONS.items():
            field = page.locator(f'[name="{key}"]')
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(str(value).lower() if isinstance(value, bool) else str(value))
            else:
                field.fill(str(value))
        page.get_by_role("button", name="Start the table").click()
        page.wait_for_url("**/t/*")
        table_url = page.url
        for n, event in enumerate(s.EVENTS, start=1):
            fill_event_form(page, event)
            page.wait_for_selector(f'#live[data-version="{n}"]')
        assert page.locator("#result").is_visible()
        result = page.locator("#result").inner_text()
    with running_server(db_url) as base:
        page.goto(table_url.replace(table_url.split("/t/")[0], base))
        assert page.locator("#result").inner_text() == result
        assert page.locator("#live").get_attribute("data-version") == str(len(s.EVENTS))
    page.screenshot(path=str(ARTIFACTS / f"{game}-played-through.png"), full_page=True)
