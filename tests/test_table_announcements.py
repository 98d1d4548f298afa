"""A screen reader hears the other phones' entries: two phones (Debian's Chromium, two browser
contexts at 390 x 844) on one Carpe Cras table on a real server. Phone B enters, undoes, and
the game is finished from a third client; phone A's polite live region says each in the
history's words, and B's says nothing of what B did itself."""

from __future__ import annotations

import json
import urllib.request

import scenarios_carpe_cras as s
from phones import PHONE, api, fill_event_form, new_table
from playwright.sync_api import expect

UPTO = 6  # Blue has taken the Carpe Cras Token; next, Red strikes
WAIT_MS = 5000  # a poll a second: the news is on phone A well within this

# Everything put into the live region, in order, as a screen reader is handed it (the region
# itself shows only the latest news).
RECORD_ANNOUNCEMENTS = """document.addEventListener("DOMContentLoaded", () => {
  window.said = [];
  const log = document.getElementById("announcer");
  if (log) new MutationObserver(changes => changes.forEach(change => change.addedNodes.forEach(
    node => window.said.push(node.textContent.trim())))).observe(log, {childList: true, subtree: true});
});"""


def open_as(browser, server: str, table: dict, seat: int):
    context = browser.new_context(**PHONE)
    context.add_init_script(RECORD_ANNOUNCEMENTS)
    page = context.new_page()
    page.goto(f"{server}/t/{table['token']}")
    page.locator("#seat-ask").locator(f'button[value="{seat}"]').click()
    page.wait_for_url(f"**/t/{table['token']}")
    return page


def events(server: str, table: dict) -> list[dict]:
    with urllib.request.urlopen(f"{server}/api/tables/{table['code']}/events") as response:
        return json.load(response)["events"]


def test_the_other_phones_entries_are_announced_in_the_historys_words(browser, server):
    table = new_table(server, "carpe_cras", UPTO)
    phone_a = open_as(browser, server, table, 1)  # Blue
    phone_b = open_as(browser, server, table, 0)  # Red
    log_a = phone_a.locator("#announcer")

    # A polite live region, in the page from the start (one added with its text is not read).
    assert log_a.get_attribute("aria-live") == "polite"
    assert log_a.get_attribute("role") in ("status", "log")
    assert log_a.inner_text().strip() == ""

    # B enters Red's strike through its own page.
    fill_event_form(phone_b, s.EVENTS[UPTO])
    phone_b.wait_for_selector(f'#live[data-version="{UPTO + 1}"]')
    strike = events(server, table)[-1]["text"]
    assert strike.startswith("Red ")
    expect(log_a).to_have_text(strike, timeout=WAIT_MS)
    # In the same words as A's history.
    assert phone_a.locator("ol.history li").first.get_attribute("data-text") == strike

    # B takes it back.
    phone_b.locator("#undo-form button").click()
    expect(log_a).to_have_text(f"Undone: {strike}", timeout=WAIT_MS)

    # The rest of the game arrives from elsewhere, in one poll or several: every entry is said,
    # in order, then the result.
    for event in s.EVENTS[UPTO:]:
        api(server, f"/api/tables/{table['code']}/events", event)
    expect(log_a).to_contain_text("Game over:", timeout=WAIT_MS)
    rest = [e["text"] for e in events(server, table) if e["seq"] > UPTO + 1]
    summary = phone_a.locator("#result").get_attribute("data-summary")
    assert phone_a.evaluate("window.said") == [strike, f"Undone: {strike}", *rest, f"Game over: {summary}"]

    # B heard the same news from elsewhere, and nothing of its own entry and undo.
    expect(phone_b.locator("#announcer")).to_contain_text("Game over:", timeout=WAIT_MS)
    assert phone_b.evaluate("window.said") == [*rest, f"Game over: {summary}"]
