"""A table page keeps the phone's screen on (Screen Wake Lock API), with a toggle that shows
whether it does; where the browser has no such API the toggle is gone and the page says so.
Debian's Chromium at 390 x 844, its ``navigator.wakeLock`` replaced by a recorder (an init
script of the test's) so that every request and release is seen."""

from __future__ import annotations

import pytest
from phones import PHONE, api
from playwright.sync_api import expect

# navigator.wakeLock.request("screen") resolves to a sentinel that records its release and fires
# "release" as a real one does; window.wakeLockCalls lists what the page asked, in order.
# ``refuse`` makes every request fail as a phone in battery saver may.
FAKE_WAKE_LOCK = """(() => {
  const calls = window.wakeLockCalls = [];
  class Sentinel extends EventTarget {
    constructor(type) { super(); this.type = type; this.released = false; }
    release() {
      if (!this.released) {
        this.released = true;
        calls.push("release");
        this.dispatchEvent(new Event("release"));
      }
      return Promise.resolve();
    }
  }
  Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
    request(type) {
      calls.push("request:" + type);
      if (REFUSE) return Promise.reject(new DOMException("Battery saver is on", "NotAllowedError"));
      return Promise.resolve(window.lastWakeLock = new Sentinel(type));
    },
  }});
})();"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"


@pytest.fixture
def table_url(server):
    table = api(server, "/api/tables", {"game": "carpe_cras", "players": ["Red", "Blue"], "options": {}})
    return f"{server}/t/{table['token']}"


def open_page(browser, url: str, init_script: str):
    context = browser.new_context(**PHONE)
    context.add_init_script(init_script)
    page = context.new_page()
    page.goto(url)
    return page


def calls(page) -> list[str]:
    return page.evaluate("window.wakeLockCalls")


def test_the_table_page_keeps_the_screen_on_and_the_toggle_lets_it_sleep(browser, table_url):
    page = open_page(browser, table_url, FAKE_WAKE_LOCK.replace("REFUSE", "false"))
    toggle = page.get_by_role("button", name="Keep the screen on")
    state = page.locator("#wake-lock-state")

    # Asked for as the page opens, and the toggle says it is on.
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_be_visible()
    assert calls(page) == ["request:screen"]
    expect(state).to_contain_text("stays on")
    assert page.locator("#wake-lock-unsupported").is_hidden()

    # A tap lets the screen sleep again.
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert calls(page) == ["request:screen", "release"]
    expect(state).to_contain_text("sleeps")

    # Another tap keeps it on again.
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert calls(page) == ["request:screen", "release", "request:screen"]

    # The phone takes the lock back while the page is in sight: the toggle does not pretend.
    page.evaluate("window.lastWakeLock.release()")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(state).to_contain_text("sleep again")


def test_a_refused_wake_lock_leaves_the_toggle_off_saying_so(browser, table_url):
    page = open_page(browser, table_url, FAKE_WAKE_LOCK.replace("REFUSE", "true"))
    toggle = page.get_by_role("button", name="Keep the screen on")
    expect(page.locator("#wake-lock-state")).to_contain_text("would not keep the screen on")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert calls(page) == ["request:screen"]
    toggle.tap()  # try again
    expect(page.locator("#wake-lock-state")).to_contain_text("would not keep the screen on")
    assert calls(page) == ["request:screen", "request:screen"]


def test_without_the_api_the_toggle_is_hidden_and_the_page_says_so(browser, table_url):
    page = open_page(browser, table_url, NO_WAKE_LOCK)
    expect(page.locator("#wake-lock-unsupported")).to_be_visible()
    expect(page.locator("#wake-lock-unsupported")).to_contain_text("cannot keep the screen on")
    assert page.locator("#wake-lock").is_hidden()


def test_over_plain_http_the_page_says_https_is_what_it_takes(browser, table_url):
    """Browsers keep the API from pages that are not secure (plain http on a home network, as
    the companion is often served); the test's own page, on loopback, counts as secure, so the
    page is told otherwise."""
    page = open_page(browser, table_url, NO_WAKE_LOCK + """
      Object.defineProperty(window, "isSecureContext", {configurable: true, get: () => false});""")
    expect(page.locator("#wake-lock-unsupported")).to_contain_text("only for pages served over HTTPS")
    assert page.locator("#wake-lock").is_hidden()
