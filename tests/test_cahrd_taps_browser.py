"""Issue 20, fewer bookkeeping taps, in a real headless Chromium at 390 x 844: Red's phone starts
a C.A.H.R.D. turn with one tap on the first start button (draw and Recruitment Step, one
entry), ends it with a second; Undo takes back the one-tap start as one entry."""

from __future__ import annotations

import scenarios_cahrd as s
from phones import PHONE, api


def test_a_cahrd_turn_in_two_taps_and_its_start_undone_as_one_entry(browser, server):
    from playwright.sync_api import expect

    table = api(server, "/api/tables", {"game": "cahrd", "players": s.PLAYERS, "options": s.OPTIONS})
    for event in s.EVENTS_FEWER_TAPS[:2]:  # both armies set up
        api(server, f"/api/tables/{table['code']}/events", event)
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server}/t/{table['token']}")
    page.locator("#seat-ask").locator('button[value="0"]').click()
    page.wait_for_selector("#seat-ask", state="detached")

    start = page.locator("#moves").get_by_role("button", name="Start Red's turn: draw a card, Recruitment Step")
    expect(start).to_have_count(1)
    assert start.is_visible() and start.bounding_box()["y"] + start.bounding_box()["height"] <= 844
    start.click()
    page.wait_for_selector('#live[data-version="3"]')
    expect(page.locator("#cahrd-turn")).to_contain_text("Strategy Step")
    passed = "Draw Step passed, nothing played; Red's Recruitment Step"
    expect(page.locator("#history li").first).to_contain_text(passed)
    expect(page.locator("#army-0 dl.stats dd").nth(1)).not_to_have_text("0")  # reserves gained

    page.locator("#moves").get_by_role("button", name="End Red's turn").click()
    page.wait_for_selector('#live[data-version="4"]')
    assert page.locator("#history li").count() == 4  # two set-ups, the turn in two entries

    page.locator("#undo-form button").click()  # the end
    page.wait_for_selector('#live[data-version="5"]')
    page.locator("#undo-form button").click()  # the one-tap start: draw and Recruitment Step
    page.wait_for_selector('#live[data-version="6"]')
    expect(page.locator("#cahrd-turn")).not_to_contain_text("Strategy Step")
    expect(page.locator("#army-0 dl.stats dd").nth(1)).to_have_text("0")
    expect(page.locator("#army-0")).to_contain_text("Officers placed face down")
    expect(start).to_have_count(1)
