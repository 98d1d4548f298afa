"""Compressed answers (companion/web/compression.py): the text the companion sends goes gzip-compressed
to a browser that accepts it (what Chromium sends: ``gzip, deflate, br, zstd``) and decompresses
to exactly the bytes sent to one that does not; small bodies and images go as they are; every
answer says ``Vary: Accept-Encoding``."""

from __future__ import annotations

import gzip
import importlib
import re
import urllib.request

import pytest
from phones import serving

from companion import create_app
from companion.web.compression import MIN_SIZE_BYTES

BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}


@pytest.fixture
def app(tmp_path):
    """A fresh companion (no form tokens: two fetches of a page must be the same bytes)."""
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}",
                      "WTF_CSRF_ENABLED": False})
    yield app
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def finished_table(client, game: str = "cartisora") -> dict:
    """A table of ``game`` played to its end (tests/scenarios_<game>.py) through the API; its JSON."""
    s = importlib.import_module(f"scenarios_{game}")
    table = client.post("/api/tables", json={"game": game, "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
    for event in s.EVENTS:
        assert client.post(f"/api/tables/{table['code']}/events", json=event).status_code in (200, 201)
    return table


def static_url(client, name: str) -> str:
    """The URL the start page loads ``static/<name>`` by (with its version)."""
    page = client.get("/").get_data(as_text=True)
    return re.search(rf'="(/static/{re.escape(name)}\?v=[0-9a-f]+)"', page).group(1)


def without_csrf_tokens(page: bytes) -> bytes:
    """``page`` with its CSRF tokens blanked: a token carries the second it was made, so two
    answers a second apart differ there and nowhere else."""
    return re.sub(rb'(name="csrf_token" value=")[^"]*', rb"\1", page)


def test_text_is_gzipped_for_a_browser_that_asks_and_decompresses_to_the_same_bytes(app):
    client = app.test_client()
    table = finished_table(client)
    for game in ("carpe_cras", "cahrd", "carpe_diem"):
        finished_table(client, game)
    answers = {  # path: the type it is sent as
        "/": "text/html",
        "/r/cartisora/parry": "text/html",
        f"/t/{table['token']}": "text/html",
        f"/t/{table['token']}/chart": "text/html",  # its pictures are SVG inside the page
        f"/api/tables/{table['code']}": "application/json",
        "/tables/past.csv": "text/csv",
        "/manifest.webmanifest": "application/manifest+json",
        static_url(client, "companion.css"): "text/css",
        static_url(client, "htmx/htmx.min.js"): "text/javascript",
        "/sw.js": "text/javascript",
    }
    for path, mimetype in answers.items():
        plain = client.get(path)
        assert plain.status_code == 200 and plain.mimetype == mimetype, path
        assert "Content-Encoding" not in plain.headers, path
        assert len(plain.get_data()) >= MIN_SIZE_BYTES, path  # big enough to be compressed
        packed = client.get(path, headers=BROWSER)
        assert packed.headers.get("Content-Encoding") == "gzip", path
        assert "Accept-Encoding" in packed.headers["Vary"], path
        body = packed.get_data()
        assert len(body) < len(plain.get_data()), path
        assert without_csrf_tokens(gzip.decompress(body)) == without_csrf_tokens(plain.get_data()), path


def test_small_answers_and_images_go_as_they_are(app):
    client = app.test_client()
    small = f"/api/tables/{finished_table(client)['code']}/export.csv"  # one table's result: 2 lines
    assert len(client.get(small).get_data()) < MIN_SIZE_BYTES
    for path in (small, static_url(client, "icons/icon-192.png")):
        plain = client.get(path).get_data()
        answer = client.get(path, headers=BROWSER)
        assert answer.status_code == 200 and "Content-Encoding" not in answer.headers, path
        assert answer.get_data() == plain and "Accept-Encoding" in answer.headers["Vary"], path


def test_a_compressed_static_file_is_revalidated_with_its_own_etag(app):
    client = app.test_client()
    url = static_url(client, "companion.js")
    packed = client.get(url, headers=BROWSER)
    plain = client.get(url)
    assert packed.headers["ETag"] != plain.headers["ETag"]  # the two forms never pass for each other
    again = client.get(url, headers={**BROWSER, "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""


def test_over_http_a_static_file_arrives_whole(app):
    """Through a real server (a static file is streamed, compressed as it goes out)."""
    client = app.test_client()
    url = static_url(client, "pico/pico.min.css")
    expected = client.get(url).get_data()
    with serving(app) as base:
        with urllib.request.urlopen(urllib.request.Request(base + url, headers=BROWSER), timeout=30) as answer:
            assert answer.headers["Content-Encoding"] == "gzip"
            assert gzip.decompress(answer.read()) == expected
