"""The companion on a shared network: CSRF tokens on the forms, a JSON API that other sites cannot
drive, security headers everywhere, request limits, a look-up rate limit shared through the
database (Flask-Limiter over :mod:`companion.web.limiter_storage`) and spreadsheet-safe CSV."""

from __future__ import annotations

import csv
import importlib
import io
import json
import os
import stat
import threading
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from bs4 import BeautifulSoup
from flask import Flask
from flask_limiter import Limiter
from limits.errors import ConfigurationError
from limits.storage import storage_from_string
from sqlalchemy import func, select

from companion import create_app

from companion.web import security
from companion.scorekeeping.pages.exports import results_csv, spreadsheet_safe
from companion.web.limiter_storage import SqlStorage, entries
from companion.web.security import MAX_JSON_DEPTH, json_depth

PLAYERS = ["Anna", "Bea"]
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}


def make_app(database_url: str, **config):
    """A companion with CSRF protection as shipped (on), a fixed secret key unless given."""
    return create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret", **config})


@pytest.fixture
def app(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'companion.sqlite'}")
    yield app
    app.extensions["companion.scorekeeping.tables"].store.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


def new_table(client, players=PLAYERS, game="carpe_diem", **kw) -> dict:
    response = client.post("/api/tables", json={"game": game, "players": players}, **kw)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def form_token(client, url: str) -> str:
    """The CSRF token of the first POST form on the page at ``url``, as a browser would send it."""
    page = client.get(url)
    assert page.status_code == 200
    field = BeautifulSoup(page.get_data(as_text=True), "html.parser").select_one(
        'form[method="post"] input[name="csrf_token"]')
    assert field is not None, f"no CSRF field on {url}"
    return field["value"]


# -- CSRF on the HTML forms -----------------------------------------------------------------


def test_csrf_is_on_by_default(app):
    assert app.config["WTF_CSRF_ENABLED"] is True
    assert "csrf" in app.extensions


def test_a_form_posted_without_its_token_is_refused(client):
    response = client.post("/tables/new/carpe_diem", data={"players[]": PLAYERS})
    assert response.status_code == 400
    assert "CSRF token is missing" in response.get_data(as_text=True)
    assert client.post("/join", data={"code": "ABCDEF"}).status_code == 400


def test_an_htmx_post_without_a_token_reloads_the_page(client):
    response = client.post("/join", data={"code": "ABCDEF"}, headers={"HX-Request": "true"})
    assert response.status_code == 400 and response.headers["HX-Refresh"] == "true"
    assert "HX-Refresh" not in client.post("/join", data={"code": "ABCDEF"}).headers


def test_a_form_posted_with_a_wrong_or_foreign_token_is_refused(app, client):
    form_token(client, "/tables/new/carpe_diem")  # this client has a session
    wrong = client.post("/tables/new/carpe_diem", data={"players[]": PLAYERS, "csrf_token": "forged"})
    assert wrong.status_code == 400
    other = app.test_client()
    foreign = form_token(other, "/tables/new/carpe_diem")  # valid, but for another browser's session
    stolen = client.post("/tables/new/carpe_diem", data={"players[]": PLAYERS, "csrf_token": foreign})
    assert stolen.status_code == 400


def test_forms_posted_with_the_pages_token_work(client):
    token = form_token(client, "/tables/new/carpe_diem")
    started = client.post("/tables/new/carpe_diem", data={"players[]": PLAYERS, "csrf_token": token})
    assert started.status_code == 303 and "/t/" in started.headers["Location"]
    table_url = started.headers["Location"]
    code = client.get(f"/api/tables/{table_url.rsplit('/', 1)[-1]}").get_json()["code"]

    joined = client.post("/join", data={"code": code, "csrf_token": form_token(client, "/join")})
    assert joined.status_code == 303 and joined.headers["Location"] == table_url

    page = BeautifulSoup(client.get(table_url).get_data(as_text=True), "html.parser")
    forms = page.select('form[method="post"]')
    assert forms and all(f.select_one('input[name="csrf_token"]') for f in forms), "every POST form has a token"
    event = {"type": "round_played"}
    posted = client.post(f"{table_url}/events", data={**event, "csrf_token": forms[0].select_one(
        'input[name="csrf_token"]')["value"]})
    assert posted.status_code in (303, 422), posted.get_data(as_text=True)[:300]


def test_csrf_can_be_switched_off_with_flask_wtfs_own_setting(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'c.sqlite'}", WTF_CSRF_ENABLED=False)
    assert app.test_client().post("/tables/new/carpe_diem", data={"players[]": PLAYERS}).status_code == 303
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_the_secret_key_comes_from_config_env_or_a_file_kept_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv(security.SECRET_KEY_ENV, raising=False)
    app = Flask("probe", instance_path=str(tmp_path / "instance"))
    first = security.secret_key(app)
    assert len(first) == 64
    path = tmp_path / "instance" / security.SECRET_KEY_FILE
    assert path.read_text().strip() == first
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert security.secret_key(Flask("probe", instance_path=str(tmp_path / "instance"))) == first  # a restart
    assert [p.name for p in path.parent.iterdir()] == [security.SECRET_KEY_FILE]  # no drafts left behind

    monkeypatch.setenv(security.SECRET_KEY_ENV, "from-the-environment")
    assert security.secret_key(app) == "from-the-environment"
    app.config["SECRET_KEY"] = "from-the-config"
    assert security.secret_key(app) == "from-the-config"


def test_workers_starting_at_once_agree_on_one_key(tmp_path, monkeypatch):
    monkeypatch.delenv(security.SECRET_KEY_ENV, raising=False)
    keys, barrier = [], threading.Barrier(8)

    def worker():
        barrier.wait()
        keys.append(security.secret_key(Flask("probe", instance_path=str(tmp_path))))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1


# -- the JSON API's own guard -----------------------------------------------------------------


def test_an_api_change_from_another_sites_page_is_403(client):
    body = {"game": "carpe_diem", "players": PLAYERS}
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Referer": "http://evil.example/page"}, {"Origin": "http://localhost:8080"}):
        response = client.post("/api/tables", json=body, headers=headers)
        assert response.status_code == 403, headers
        assert "cross-site" in response.get_json()["error"]
    table = new_table(client)
    assert client.post(f"/api/tables/{table['code']}/undo", headers={"Origin": "http://evil.example"}).status_code == 403
    assert client.put(f"/api/tables/{table['code']}/events/1", json={"type": "round_played"},
                      headers={"Origin": "https://evil.example"}).status_code == 403
    assert client.get(f"/api/tables/{table['code']}", headers={"Origin": "http://evil.example"}).status_code == 200


def test_an_api_change_from_the_same_site_or_a_non_browser_client_works(client):
    assert new_table(client, headers={"Origin": "http://localhost"})["code"]
    assert new_table(client, headers={"Origin": "http://localhost:80"})["code"]  # the default port, spelled out
    assert new_table(client, headers={"Referer": "http://localhost/tables/new"})["code"]
    assert new_table(client)["code"]  # neither header: curl, scripts
    response = client.post("/api/tables", json={"game": "carpe_diem", "players": PLAYERS},
                           base_url="http://phone-host.lan:5000", headers={"Origin": "http://phone-host.lan:5000"})
    assert response.status_code == 201


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_api_bodies_must_be_declared_json(client, content_type):
    body = json.dumps({"game": "carpe_diem", "players": PLAYERS})
    kwargs = {"content_type": content_type} if content_type else {}
    response = client.post("/api/tables", data=body, **kwargs)
    assert response.status_code == 415
    assert "application/json" in response.get_json()["error"]
    table = new_table(client)
    event = client.post(f"/api/tables/{table['code']}/events", data='{"type": "round_played"}', **kwargs)
    assert event.status_code == 415
    undo = client.post(f"/api/tables/{table['code']}/undo", data="x", **kwargs)  # a body it would not even read
    assert undo.status_code == 415


# -- security headers ---------------------------------------------------------------------------


def test_security_headers_are_on_html_json_static_and_error_responses(client):
    table = new_table(client)
    for url in ("/", "/tables/new", f"/t/{table['token']}", "/api/openapi.json", f"/api/tables/{table['code']}",
                "/static/companion.css", "/static/htmx/htmx.min.js", "/no/such/page", "/api/tables/ZZZZZZ"):
        response = client.get(url)
        csp = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in csp and "default-src 'self'" in csp, url
        assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp, url
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, url
        for name, value in HEADERS.items():
            assert response.headers.get(name) == value, (url, name)


def test_pages_carry_no_inline_script(client):
    table = new_table(client)
    for url in ("/", "/tables/new", "/tables/new/carpe_diem", "/join", f"/t/{table['token']}", "/no/such/page"):
        soup = BeautifulSoup(client.get(url).get_data(as_text=True), "html.parser")
        assert all(s.get("src") for s in soup.find_all("script")), url
        assert not soup.find_all("style") and not soup.select("[style]"), url
        assert not [t for t in soup.find_all(True) if any(a.startswith("on") for a in t.attrs)], url


# -- request limits -----------------------------------------------------------------------------


def test_player_names_are_at_most_40_characters_in_the_api(client):
    assert new_table(client, players=["A" * 40, "Bea"])["players"][0] == "A" * 40
    response = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "B" * 41]})
    assert response.status_code == 400
    assert "players.1" in {e["field"] for e in response.get_json()["errors"]}


def test_player_names_are_at_most_40_characters_in_the_new_table_form(client):
    token = form_token(client, "/tables/new/carpe_diem")
    response = client.post("/tables/new/carpe_diem", data={"players[]": ["C" * 41, "Bea"], "csrf_token": token})
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "players.0" in text and "40 characters" in text


def test_a_10_mb_player_name_is_413(client):
    huge = "x" * 10_000_000
    api = client.post("/api/tables", json={"game": "carpe_diem", "players": [huge, "Bea"]})
    assert api.status_code == 413 and "larger than" in api.get_json()["error"]
    token = form_token(client, "/tables/new/carpe_diem")
    page = client.post("/tables/new/carpe_diem", data={"players[]": [huge, "Bea"], "csrf_token": token})
    assert page.status_code == 413 and "Too much text" in page.get_data(as_text=True)


def test_the_body_limit_is_64_kib_by_default(app):
    assert app.config["MAX_CONTENT_LENGTH"] == 64 * 1024


def test_deeply_nested_json_is_400_not_500(tmp_path, monkeypatch):
    """100,000 nested brackets (over the default body limit, so with a bigger one), and 30,000
    (under it): refused by the depth check, and by the parser's RecursionError without it."""
    app = make_app(f"sqlite:///{tmp_path / 'deep.sqlite'}", MAX_CONTENT_LENGTH=1024 * 1024)
    client = app.test_client()
    table = new_table(client)

    def post_nested(depth: int, closed: bool = True):
        body = "[" * depth + ("]" * depth if closed else "")
        return [client.post(url, data=body, content_type="application/json")
                for url in ("/api/tables", f"/api/tables/{table['code']}/events")]

    for depth in (MAX_JSON_DEPTH + 1, 30_000, 100_000):
        for response in post_nested(depth) + post_nested(depth, closed=False):
            assert response.status_code == 400, depth
            assert "nests deeper" in response.get_json()["error"]
    monkeypatch.setattr("companion.scorekeeping.api.MAX_JSON_DEPTH", 10**9)  # the parser's own limit, as a second line
    for response in post_nested(100_000):
        assert response.status_code == 400 and response.get_json()["error"] == "the request body must be JSON"
    monkeypatch.undo()
    at_limit = client.post("/api/tables", data="[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH,
                           content_type="application/json")
    assert at_limit.status_code == 400 and at_limit.get_json()["error"] == "invalid table"
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_deep_json_within_the_default_body_limit_is_400(client):
    response = client.post("/api/tables", data="[" * 30_000 + "]" * 30_000, content_type="application/json")
    assert response.status_code == 400


def test_json_depth_skips_brackets_inside_strings():
    assert json_depth(b'{"a": [1, {"b": "[[[[{{{{"}]}') == 3
    assert json_depth(b'["\\"[[[", [[]]]') == 3
    assert json_depth(b"[" * 1000, limit=10) == 11  # stops counting past the limit


# -- the table-code rate limiter -----------------------------------------------------------------


def limited_app(database_url: str, **config):
    return make_app(database_url, LOOKUP_MAX_MISSES=3, **config)


def test_the_rate_limiter_is_flask_limiter_on_the_companions_database(database_url):
    app = limited_app(database_url)
    guard = app.extensions["companion.web.ratelimit"]
    assert isinstance(guard.extension, Limiter)
    assert isinstance(guard.extension.storage, SqlStorage)
    assert guard.extension.storage.engine is app.extensions["companion.scorekeeping.tables"].store.engine
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_two_app_instances_on_one_database_share_the_miss_counts(database_url):
    """Two worker processes: one counts the misses, the other refuses the guesser."""
    first, second = limited_app(database_url), limited_app(database_url)
    table = new_table(first.test_client())
    guesser = {"REMOTE_ADDR": "10.1.1.1"}
    for _ in range(3):
        assert first.test_client().get("/api/tables/ZZZZZZ", environ_base=guesser).status_code == 404
    blocked = second.test_client().get("/api/tables/YYYYYY", environ_base=guesser)
    assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) > 0
    assert second.test_client().get(f"/api/tables/{table['code']}", environ_base=guesser).status_code == 429
    assert second.test_client().get(f"/api/tables/{table['code']}",
                                    environ_base={"REMOTE_ADDR": "10.2.2.2"}).status_code == 200
    for app in (first, second):
        app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_a_blocked_client_still_opens_its_tables_link(database_url):
    app = limited_app(database_url, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    table = new_table(client)
    for _ in range(3):
        assert client.get("/api/tables/ZZZZZZ").status_code == 404
    assert client.get("/api/tables/ZZZZZZ").status_code == 429
    assert client.post("/join", data={"code": table["code"]}).status_code == 429  # codes: refused, right or wrong
    assert client.get(f"/api/tables/{table['code']}").status_code == 429
    # The link token opens the table, its page and its live part; the page can still change it.
    assert client.get(f"/api/tables/{table['token']}").status_code == 200
    assert client.get(f"/t/{table['token']}").status_code == 200
    assert client.get(f"/t/{table['token']}/live").status_code == 200
    assert client.post(f"/api/tables/{table['token']}/events", json={"type": "round_played"}).status_code in (200, 422)
    assert client.get("/t/not-a-real-token-at-all").status_code == 429  # a wrong token is no way round
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_a_code_a_phone_opened_is_polled_without_asking_the_counts_and_stays_open_when_refused(database_url,
                                                                                                 monkeypatch):
    """A phone polling its table by code (the JSON API) is not checked against the miss counts
    again (a database query a poll); refused later (another phone behind its address mistyping),
    it keeps the table it had opened, and nothing else: any other code, right or wrong, is refused."""
    app = limited_app(database_url)
    guard = app.extensions["companion.web.ratelimit"]
    asked: list[str] = []
    original = type(guard).blocked_for_s
    monkeypatch.setattr(type(guard), "blocked_for_s", lambda self, client: asked.append(client) or original(self, client))
    client = app.test_client()
    table, other = new_table(client), new_table(client)
    assert client.get(f"/api/tables/{table['code']}").status_code == 200
    assert len(asked) == 1
    for _ in range(5):
        assert client.get(f"/api/tables/{table['code']}").status_code == 200
    assert len(asked) == 1  # the polls: no query of the counts
    for _ in range(3):
        assert client.get("/api/tables/ZZZZZZ").status_code == 404
    assert client.get("/api/tables/ZZZZZZ").status_code == 429
    assert client.get(f"/api/tables/{other['code']}").status_code == 429  # right, but never opened: refused
    assert client.get(f"/api/tables/{table['code']}").status_code == 200  # the phone's own table
    another_process = limited_app(database_url)  # shares the counts, not what this one remembers
    assert another_process.test_client().get(f"/api/tables/{table['code']}").status_code == 429
    for each in (app, another_process):
        each.extensions["companion.scorekeeping.tables"].store.dispose()


def test_right_codes_never_count(database_url):
    app = limited_app(database_url)
    client = app.test_client()
    table = new_table(client)
    for _ in range(30):
        assert client.get(f"/api/tables/{table['code']}").status_code == 200
    for _ in range(2):
        assert client.get("/api/tables/ZZZZZZ").status_code == 404
    assert client.get(f"/api/tables/{table['code']}").status_code == 200
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_misses_expire_and_old_clients_are_forgotten(database_url):
    app = limited_app(database_url, LOOKUP_WINDOW_S=60)
    storage = app.extensions["companion.web.ratelimit"].extension.storage
    now = [1_000_000.0]
    storage.clock = lambda: now[0]
    client = app.test_client()
    table = new_table(client)
    for _ in range(3):
        client.get("/api/tables/ZZZZZZ")
    blocked = client.get(f"/api/tables/{table['code']}")
    assert blocked.status_code == 429 and 59 <= int(blocked.headers["Retry-After"]) <= 61
    now[0] += 30
    assert int(client.get(f"/api/tables/{table['code']}").headers["Retry-After"]) <= 31
    now[0] += 31
    assert client.get(f"/api/tables/{table['code']}").status_code == 200

    def rows() -> int:
        with storage.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(entries)).scalar_one()

    assert rows() == 3  # expired, but only writes clean up
    client.get("/api/tables/XXXXXX", environ_base={"REMOTE_ADDR": "10.3.3.3"})  # someone else's miss
    assert rows() == 1  # the old client is forgotten
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_the_sql_storage_is_a_limits_storage_under_its_own_scheme(tmp_path):
    url = f"sqlite:///{tmp_path / 'limits.sqlite'}"
    storage = storage_from_string("companion-sql://", url=url)
    assert isinstance(storage, SqlStorage) and storage.check()
    now = [500.0]
    storage.clock = lambda: now[0]
    # Fixed window.
    assert [storage.incr("k", 10) for _ in range(3)] == [1, 2, 3]
    assert storage.get("k") == 3 and storage.get_expiry("k") == 510.0
    now[0] = 511.0
    assert storage.get("k") == 0 and storage.incr("k", 10) == 1
    storage.clear("k")
    assert storage.get("k") == 0
    # Moving window.
    assert all(storage.acquire_entry("m", 2, 10) for _ in range(2))
    assert not storage.acquire_entry("m", 2, 10)
    now[0] += 5
    assert storage.get_moving_window("m", 2, 10) == (511.0, 2)
    now[0] += 6
    assert storage.get_moving_window("m", 2, 10) == (now[0], 0) and storage.acquire_entry("m", 2, 10)
    assert storage.reset() >= 1 and storage.get_moving_window("m", 2, 10)[1] == 0
    long_key = "k" * 1000
    assert storage.incr(long_key, 10) == 1 and storage.get(long_key) == 1
    with pytest.raises(ConfigurationError):
        storage_from_string("companion-sql://")
    storage.engine.dispose()


# -- CSV export -----------------------------------------------------------------------------------


@pytest.mark.parametrize("value,expected", [
    ("=HYPERLINK(\"http://evil.example\",\"x\")", "'=HYPERLINK(\"http://evil.example\",\"x\")"),
    ("+1+1", "'+1+1"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("Anna", "Anna"), ("a=b", "a=b"), (-3, "-3"), (2.0, "2"), ("", ""),
])
def test_spreadsheet_safe(value, expected):
    assert spreadsheet_safe(value) == expected


def test_csv_cells_never_start_a_formula():
    view = SimpleNamespace(
        record=SimpleNamespace(players=["=1+1", "@cmd"], code="ABCDEF", created_at=datetime(2025, 1, 1, tzinfo=UTC)),
        outcome=SimpleNamespace(scores=[-5, 7], winners=[1], score_label="-VP", summary="=1+1 loses"))
    rows = list(csv.reader(io.StringIO(results_csv(view, "+Game"))))
    assert rows[1] == ["'+Game", "ABCDEF", "2025-01-01", "1", "'=1+1", "-5", "'-VP", "no", "'=1+1 loses"]
    assert rows[2][4] == "'@cmd" and rows[2][5] == "7"


def test_a_finished_tables_csv_export_is_spreadsheet_safe(client):
    s = importlib.import_module("scenarios_carpe_diem")
    evil = ['=HYPERLINK("http://evil.example","x")', "@SUM(1+1)"]
    table = new_table(client, players=evil, game="carpe_diem")
    for event in s.EVENTS:
        response = client.post(f"/api/tables/{table['code']}/events", json=event)
        assert response.status_code == 200, response.get_json()
    exported = client.get(f"/api/tables/{table['code']}/export.csv")
    assert exported.status_code == 200
    rows = list(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    assert [r["player"] for r in rows] == ["'" + name for name in evil]
    for row in rows:
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row.values()), row
