"""Two phones at a real table (Debian's Chromium, two browser contexts at 390 x 844): a form
half filled while another phone makes an unrelated entry is recorded as typed; both phones
sending the same entry, or tapping Undo, at once record it once, and neither sees "Not
allowed" (companion.scorekeeping.late_entries)."""

from __future__ import annotations

import importlib

from phones import ARTIFACTS, PHONE, event_form, fill_event_form, new_table


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


def open_as(browser, server: str, table: dict, seat: int | None):
    """A phone showing the table, having said who it is (``None``: the whole table)."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server}/t/{table['token']}")
    page.locator("#seat-ask, #seat-choice").first.locator(
        f'button[value="{"table" if seat is None else seat}"]').click()
    page.wait_for_url(f"**/t/{table['token']}")
    return page


def version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def wait_for_version(page, at_least: int) -> None:
    for _ in range(250):  # a guard against a hang, not a timing
        if version(page) >= at_least:
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"version {at_least} did not arrive")


def wait_for_notice(page_a, page_b, starting: str = "Already recorded") -> None:
    """Until one of the phones shows the neutral notice starting with ``starting``."""
    for _ in range(250):  # a guard against a hang, not a timing
        if any(p.locator("#already-done").count() and p.inner_text("#already-done").startswith(starting)
               for p in (page_a, page_b)):
            return
        page_a.wait_for_timeout(20)
    raise AssertionError(f"no phone says {starting!r}")


def events(page, server: str, table: dict) -> list[dict]:
    return page.request.get(f"{server}/api/tables/{table['code']}/events").json()["events"]


def test_a_half_filled_form_is_recorded_as_typed_after_another_phones_entry(browser, server):
    table = new_table(server, "carpe_diem", 0)
    anna = open_as(browser, server, table, 0)
    bea = open_as(browser, server, table, 1)
    mine = {"type": "set_resources", "seat": 0, "coins": 7}
    fill_event_form(anna, mine, submit=False)  # half: the coins typed, the fish not yet
    fill_event_form(bea, {"type": "set_resources", "seat": 1, "coins": 4})
    wait_for_version(anna, 1)
    form = event_form(anna, mine)
    assert form.locator('[name="coins"]').input_value() == "7"
    form.locator('[name="fish"]').fill("2")
    form.locator('button[type="submit"]').click()
    wait_for_version(anna, 2)
    assert anna.locator("#rule-error").count() == 0
    last = events(anna, server, table)[-1]["payload"]
    assert (last["seat"], last["coins"], last["fish"]) == (0, 7, 2)
    anna.screenshot(path=str(ARTIFACTS / "late-entry-recorded.png"))


def _send_both(page_a, page_b, event: dict) -> None:
    """Both phones send the same filled form as near at once as a test can: both presses are
    sent before either answer is back."""
    for page in (page_a, page_b):
        fill_event_form(page, event, submit=False)
    for page in (page_a, page_b):
        event_form(page, event).locator('button[type="submit"]').dispatch_event("click")


def test_both_phones_sending_the_same_entry_record_it_once_and_neither_sees_not_allowed(browser, server):
    s = scenario("carpe_cras")
    table = new_table(server, "carpe_cras", 8)  # round 1 over: the next round begins
    red = open_as(browser, server, table, 0)
    blue = open_as(browser, server, table, 1)
    _send_both(red, blue, s.EVENTS[8])
    for page in (red, blue):
        wait_for_version(page, 9)
    wait_for_notice(red, blue)
    for page in (red, blue):
        assert page.locator("#rule-error").count() == 0 and "Not allowed" not in page.inner_text("#live")
    notices = [p.inner_text("#already-done") for p in (red, blue) if p.locator("#already-done").count()]
    assert len(notices) == 1 and notices[0].startswith("Already recorded by ")
    assert len(events(red, server, table)) == 9
    # Both tap Undo on that entry: one undo, the other phone told it is undone already.
    for page in (red, blue):
        page.locator("#undo-form button").dispatch_event("click")
    for page in (red, blue):
        wait_for_version(page, 10)
    wait_for_notice(red, blue, "Already undone")
    for page in (red, blue):
        assert page.locator("#rule-error").count() == 0 and "Not allowed" not in page.inner_text("#live")
    assert [e["status"] for e in events(red, server, table)][-1] == "undone"
    assert [e["status"] for e in events(red, server, table)].count("undone") == 1
