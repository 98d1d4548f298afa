"""Static files under versioned URLs (companion/web/static_files.py): every page links each static
file with its content's digest (``?v=``), a changed file gets a new URL, and a versioned request
may be kept by the browser for a year (``immutable``), any other for a few minutes only."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest

from companion import create_app
from companion.web.static_files import LONG_CACHE, SHORT_MAX_AGE_S, file_digests

STATIC = Path(__file__).resolve().parent.parent / "companion" / "static"
STATIC_LINK = re.compile(r'(?:href|src)="/static/([^"?]+)(?:\?v=([^"&]*))?"')
SHORT_CACHE = f"public, max-age={SHORT_MAX_AGE_S}"


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    yield app
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def digest_of(name: str) -> str:
    """The first 12 hex characters of the SHA-256 of ``static/<name>``, worked out here."""
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


def test_pages_link_each_static_file_by_its_contents_digest(app):
    client = app.test_client()
    for path in ("/", "/r/cartisora/", "/r/cartisora/parry", "/tables/new", "/no/such/page"):
        links = STATIC_LINK.findall(client.get(path).get_data(as_text=True))
        assert {"companion.css", "companion.js", "pico/pico.min.css", "offline.js"} <= {name for name, _ in links}, path
        for name, version in links:
            assert version == digest_of(name), (path, name)
    icons = [icon["src"] for icon in client.get("/manifest.webmanifest").get_json()["icons"]]
    assert icons and all(re.fullmatch(r"/static/icons/[\w-]+\.png\?v=[0-9a-f]{12}", src) for src in icons)


def test_a_changed_file_gets_a_new_version_and_the_others_keep_theirs(tmp_path):
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    before = file_digests(folder)
    assert before["companion.css"] == digest_of("companion.css")
    css = folder / "companion.css"
    css.write_bytes(css.read_bytes() + b"\n/* changed */\n")
    after = file_digests(folder)
    assert after["companion.css"] != before["companion.css"]
    assert {name: v for name, v in after.items() if name != "companion.css"} == \
        {name: v for name, v in before.items() if name != "companion.css"}


def test_a_versioned_request_is_kept_a_year_any_other_a_few_minutes(app):
    client = app.test_client()
    versioned = f"/static/htmx/htmx.min.js?v={digest_of('htmx/htmx.min.js')}"
    answer = client.get(versioned)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == LONG_CACHE
    assert answer.get_data() == (STATIC / "htmx" / "htmx.min.js").read_bytes()
    again = client.get(versioned, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == LONG_CACHE
    for other in ("/static/htmx/htmx.min.js", "/static/htmx/htmx.min.js?v=0123456789ab"):
        answer = client.get(other)  # unversioned, or an earlier version: today's file, not for long
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == SHORT_CACHE, other
        assert "Expires" not in answer.headers
    missing = client.get("/static/no-such-file.css?v=0123456789ab")
    assert missing.status_code == 404 and "immutable" not in missing.headers.get("Cache-Control", "")


def test_pages_and_the_worker_are_not_kept_long(app):
    client = app.test_client()
    assert "immutable" not in client.get("/").headers.get("Cache-Control", "")
    assert client.get("/sw.js").headers["Cache-Control"] == "no-cache"
