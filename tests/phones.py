"""Phones for the browser tests: Debian's Chromium driven by Playwright, a real companion
server on loopback, and the helpers that find and fill a page's forms the way a player would.

The ``browser`` and ``server`` fixtures are in ``conftest.py``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import threading
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from companion import create_app

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
def engine_title(game: str) -> str:
    from card_data.games import registry

    return registry()[game].engine.title


def chromium_path() -> str | None:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")
    return path if path and Path(path).exists() else None


@contextlib.contextmanager
def launch_browser():
    """Debian's Chromium (``CHROMIUM_PATH``) under Playwright; skipped where there is none (a
    failure on CI, which installs it)."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("CI must provide Chromium (.ci/run installs Debian's chromium)")
        pytest.skip("no Chromium here; `apt-get install chromium` to run the browser test")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        yield browser
        browser.close()


@contextlib.contextmanager
def serving(app, port: int = 0):
    """``app`` on 127.0.0.1:``port`` (0: a free one); yields the base URL. The port is let go
    at the end, so the next server may take it: the same origin, as a restarted companion."""
    srv = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(timeout=10)
        app.extensions["companion.scorekeeping.tables"].store.dispose()


@contextlib.contextmanager
def running_server(database_url: str):
    """A real HTTP server for the companion on a free loopback port; yields its base URL."""
    with serving(create_app({"TESTING": True, "DATABASE_URL": database_url})) as base:
        yield base


@contextlib.contextmanager
def static_server(directory: Path):
    """A plain static file server (as a static web host) for ``directory`` on a free loopback
    port; yields its base URL (no trailing slash)."""
    handler = partial(SimpleHTTPRequestHandler, directory=str(directory))
    handler.log_message = lambda *args: None
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def event_form(page, event: dict):
    """The form on the page that posts this event: its hidden ``type`` matches, and so does every
    other hidden field (e.g. the seat of a per-player form)."""
    forms = page.locator(f'form:not(#retry-form):has(input[type="hidden"][name="type"][value="{event["type"]}"])')
    for i in range(forms.count()):
        form = forms.nth(i)
        hidden = form.evaluate("f => { const shown = new Set([...f.elements].filter(e => e.type !== 'hidden')"
                               ".map(e => e.name)); const out = {}; [...f.querySelectorAll('input[type=hidden]')]"
                               ".filter(e => !shown.has(e.name) && !e.name.startsWith('_') && e.name !== "
                               "'csrf_token').forEach(e => (out[e.name] = out[e.name] || []).push(e.value));"
                               " return out; }")
        # A fixed list is one hidden input per item, named "name[]".
        if all([str(v).lower() for v in (event.get(k[:-2]) or [])] == [v.lower() for v in values]
               if k.endswith("[]") else str(event.get(k, "")).lower() == values[-1].lower()
               for k, values in hidden.items() if k != "type"):
            return form
    raise AssertionError(f"no form for {event}")


def fill_event_form(page, event: dict, submit: bool = True) -> None:
    """Open the form that posts this event (as a person would: unfold its section), fill it
    field by field and submit it (or, with ``submit=False``, leave it filled in, unsent)."""
    form = event_form(page, event)
    form.evaluate("f => { for (let d = f.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }")
    for key, value in event.items():
        if key == "type" or value is None:
            continue
        values = value if isinstance(value, list) else [value]
        name = f"{key}[]" if isinstance(value, list) else key
        fields = form.locator(f'[name="{name}"]')
        for i, v in enumerate(values):
            field = fields.nth(i)
            text = ("true" if v else "false") if isinstance(v, bool) else str(v)
            kind = field.evaluate("e => e.tagName.toLowerCase() + ':' + (e.type || '')")
            if kind.startswith("select"):
                field.select_option(text)
            elif kind.endswith(":checkbox") and isinstance(value, list):
                form.locator(f'[name="{name}"][value="{text}"]').check()  # a list: tick each chosen value
            elif kind.endswith(":checkbox"):
                field.set_checked(text == "true")
            elif kind.endswith(":radio"):
                form.locator(f'[name="{name}"][value="{text}"]').check()
            elif not kind.endswith(":hidden"):
                field.fill(text)
    if submit:
        form.locator('button[type="submit"], button:not([type])').first.click()



def api(server: str, path: str, body: dict) -> dict:
    """POST ``body`` as JSON to the companion at ``server``; its JSON answer."""
    request = urllib.request.Request(f"{server}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def new_table(server: str, game: str, upto: int) -> dict:
    """A table of ``game`` on the companion at ``server``, with the first ``upto`` events of the
    game's scenario (``tests/scenarios_<game>.py``) entered through the API; its JSON."""
    s = importlib.import_module(f"scenarios_{game}")
    table = api(server, "/api/tables", {"game": game, "players": s.PLAYERS, "options": s.OPTIONS})
    for event in s.EVENTS[:upto]:
        api(server, f"/api/tables/{table['code']}/events", event)
    return table
