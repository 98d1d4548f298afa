"""The security settings in a real headless Chromium (Debian's, driven by Playwright) against
waitress: the page's own forms carry their CSRF token, and no page breaks the Content
Security Policy (Chromium reports every violation on the console)."""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from pathlib import Path

import pytest
import waitress

from companion import create_app

POLL_WAIT_MS = 3500  # longer than the table page's poll interval, so a poll has happened


def chromium_path() -> str | None:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")
    return path if path and Path(path).exists() else None


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("CI must provide Chromium (.ci/run installs Debian's chromium)")
        pytest.skip("no Chromium here; `apt-get install chromium` to run the browser test")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        yield browser
        browser.close()


@contextlib.contextmanager
def waitress_server(database_url: str):
    """The companion as shipped (CSRF on) under waitress on a free loopback port; yields its URL."""
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "browser-test-secret"})
    assert app.config["WTF_CSRF_ENABLED"]
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
        app.extensions["companion.scorekeeping.tables"].store.dispose()


class Console:
    """What a page reports: console messages and uncaught errors."""

    def __init__(self):
        self.lines: list[str] = []

    def watch(self, page):
        page.on("console", lambda message: self.lines.append(f"{message.type}: {message.text}"))
        page.on("pageerror", lambda error: self.lines.append(f"pageerror: {error}"))
        return page

    def csp_violations(self) -> list[str]:
        return [line for line in self.lines if "Content Security Policy" in line or "pageerror" in line]


def test_real_forms_post_with_their_token_and_no_page_breaks_the_csp(browser, tmp_path):
    console = Console()
    with waitress_server(f"sqlite:///{tmp_path / 'companion.sqlite'}") as base:
        phone_a = console.watch(browser.new_context().new_page())
        phone_b = console.watch(browser.new_context().new_page())
        for url in ("/", "/tables/new", "/search?q=agency", "/no/such/page"):
            phone_b.goto(f"{base}{url}")

        phone_a.goto(f"{base}/tables/new/carpe_diem")
        seats = phone_a.locator('input[name="players[]"]')
        seats.nth(0).fill("Anna")
        seats.nth(1).fill("Bea")
        phone_a.get_by_role("button", name="Start the table").click()
        phone_a.wait_for_url("**/t/*")
        table_url = phone_a.url

        # Joining by code posts the join form (token and all) from another browser.
        code = phone_a.locator(".table-code").first.text_content().strip()
        phone_b.goto(f"{base}/join")
        phone_b.get_by_label("Table code").fill(code)
        phone_b.get_by_role("button", name="Join").click()
        phone_b.wait_for_url(table_url)

        # An entry through the page's own form; the other phone's poll picks it up.
        phone_a.locator('form:has(input[name="type"][value="round_played"]) button').first.click()
        phone_a.wait_for_selector('#live[data-version="1"]')
        phone_b.wait_for_selector('#live[data-version="1"]', timeout=POLL_WAIT_MS + 2000)
        phone_b.wait_for_timeout(POLL_WAIT_MS)

        # A form whose token was tampered with is refused.
        phone_a.evaluate("document.querySelectorAll('input[name=csrf_token]').forEach(i => i.value = 'forged')")
        with phone_a.expect_response(lambda r: r.request.method == "POST") as posted:
            phone_a.locator('form:has(input[name="type"][value="round_played"]) button').first.click()
        assert posted.value.status == 400
    assert console.csp_violations() == [], console.lines
