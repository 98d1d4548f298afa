"""``companion run``: waitress with threads enough for a room of phones; Flask's development
server only with ``--debug``. One test starts the real command and talks to it over HTTP."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import waitress
from click.testing import CliRunner
from flask import Flask

from companion.cli import SERVER_THREADS
from companion.cli import main as companion_cli


@pytest.fixture
def env(tmp_path, monkeypatch):
    """The command's environment: a scratch database and a fixed secret key."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'companion.sqlite'}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "server-test-secret")
    return tmp_path


def test_run_help_offers_debug_and_names_waitress():
    result = CliRunner().invoke(companion_cli, ["run", "--help"])
    assert result.exit_code == 0
    assert "--debug" in result.output and "waitress" in result.output and "--threads" in result.output


def test_run_serves_with_waitress_and_its_default_threads(env, monkeypatch):
    calls = []
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: calls.append((app, kw)))
    monkeypatch.setattr(Flask, "run", lambda *a, **kw: pytest.fail("the development server must need --debug"))
    result = CliRunner().invoke(companion_cli, ["run", "--port", "5123"])
    assert result.exit_code == 0, result.output
    assert "On this computer:  http://127.0.0.1:5123/" in result.output
    [(app, options)] = calls
    assert isinstance(app, Flask) and app.config["WTF_CSRF_ENABLED"] is True
    assert options["host"] == "0.0.0.0" and options["port"] == 5123
    # Twenty phones at once on these threads: test_companion_run_serves_pages_and_the_api_over_http.
    assert options["threads"] == SERVER_THREADS
    assert "trusted_proxy" not in options  # proxy headers are dropped unless a proxy is named


def test_run_takes_a_thread_count_and_a_trusted_proxy(env, monkeypatch):
    calls = []
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: calls.append(kw))
    result = CliRunner().invoke(companion_cli, ["run", "--threads", "48", "--trusted-proxy", "127.0.0.1"])
    assert result.exit_code == 0, result.output
    assert calls[0]["threads"] == 48 and calls[0]["trusted_proxy"] == "127.0.0.1"
    assert "x-forwarded-for" in calls[0]["trusted_proxy_headers"]
    assert calls[0]["trusted_proxy_count"] == 1


def test_debug_uses_flasks_development_server_on_loopback(env, monkeypatch):
    calls = []
    monkeypatch.setattr(waitress, "serve", lambda *a, **kw: pytest.fail("--debug must not use waitress"))
    monkeypatch.setattr(Flask, "run", lambda self, **kw: calls.append(kw))
    result = CliRunner().invoke(companion_cli, ["run", "--debug", "--port", "5124"])
    assert result.exit_code == 0, result.output
    assert calls == [{"host": "127.0.0.1", "port": 5124, "debug": True, "use_reloader": False}]
    assert "never use it on a shared network" in result.output


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, timeout_s: float = 90.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"companion run exited with {process.returncode}: {process.stdout.read()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise AssertionError(f"companion run did not answer at {url} within {timeout_s} s")


@contextlib.contextmanager
def companion_run(env_dir, *args: str):
    """``companion run`` on a free loopback port in a subprocess; yields its base URL, then stops it."""
    port = free_port()
    environ = {**os.environ, "DATABASE_URL": f"sqlite:///{env_dir / 'served.sqlite'}",
               "COMPANION_SECRET_KEY": "server-test-secret", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-c", "from companion.cli import main; main()", "run",
                                "--host", "127.0.0.1", "--port", str(port), *args],
                               env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/", process)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()


def fetch(url: str, data: bytes | None = None, headers: dict | None = None):
    request = urllib.request.Request(url, data=data, headers=headers or {}, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_companion_run_serves_pages_and_the_api_over_http(env):
    with companion_run(env) as base:
        status, headers, body = fetch(f"{base}/")
        assert status == 200 and b"<html" in body
        assert headers["Server"] == "waitress"
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        status, headers, body = fetch(f"{base}/api/openapi.json")
        assert status == 200 and json.loads(body)["openapi"].startswith("3.")
        assert headers["X-Content-Type-Options"] == "nosniff"

        # Twenty phones at once, each starting a table and reading it back.
        def phone(n: int) -> tuple[int, int]:
            body = json.dumps({"game": "carpe_diem", "players": [f"P{n}a", f"P{n}b"]}).encode()
            status, _, created = fetch(f"{base}/api/tables", body, {"Content-Type": "application/json"})
            code = json.loads(created)["code"]
            return status, fetch(f"{base}/api/tables/{code}")[0]

        with ThreadPoolExecutor(max_workers=20) as pool:
            assert list(pool.map(phone, range(20))) == [(201, 200)] * 20

        cross_site = fetch(f"{base}/api/tables", b'{"game": "carpe_diem", "players": ["A", "B"]}',
                           {"Content-Type": "application/json", "Origin": "http://evil.example"})
        assert cross_site[0] == 403


@pytest.mark.parametrize("url, said", [
    ("postgresql://companion:hunter2@127.0.0.1:1/postgres", "postgresql+psycopg://companion:***@127.0.0.1:1/postgres"),
    ("nonsense://somewhere", "nonsense://somewhere: NoSuchModuleError"),
    ("not a url", "not a url: ArgumentError"),
    ("mysql+nosuchdriver://u:hunter2@127.0.0.1:1/x", "mysql+nosuchdriver://u:***@127.0.0.1:1/x: NoSuchModuleError"),
    ("postgresql://u:hunter2@localhost:abc/x", "localhost:abc/x: ValueError"),
    ("postgresql://u:hunter2@" + "a" * 5000 + "/x", "postgresql+psycopg://u:***@" + "a" * 73 + "... (5,029 characters)"
                                                    ": UnicodeError"),
])
def test_a_database_the_server_cannot_use_is_named_without_a_traceback(env, monkeypatch, url, said):
    """A wrong DATABASE_URL (no server there, no such driver, not a URL): one line naming it,
    its password hidden, and exit 1; nothing is served."""
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setattr(waitress, "serve", lambda *a, **kw: pytest.fail("nothing must be served"))
    result = CliRunner().invoke(companion_cli, ["run", "--port", "5125"])
    assert result.exit_code == 1
    assert f"Error: cannot set up the database at {said}" in result.output
    assert "Traceback" not in result.output and "hunter2" not in result.output


def test_run_says_where_the_tables_are_kept(env, monkeypatch):
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: None)
    result = CliRunner().invoke(companion_cli, ["run", "--port", "5126"])
    assert result.exit_code == 0, result.output
    assert f"Tables are kept in sqlite:///{env / 'companion.sqlite'} (set DATABASE_URL to keep them elsewhere)." \
        in result.output.splitlines()


def test_a_database_a_newer_companion_made_is_named_without_a_traceback(env, monkeypatch):
    """A schema this companion does not know (made by a newer one): said, nothing served."""
    import sqlite3

    database = env / "companion.sqlite"
    assert CliRunner().invoke(companion_cli, ["init-db"]).exit_code == 0
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'zzzz_future'")
    monkeypatch.setattr(waitress, "serve", lambda *a, **kw: pytest.fail("nothing must be served"))
    for command in (["run", "--port", "5127"], ["init-db"]):
        result = CliRunner().invoke(companion_cli, command)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert f"cannot set up the database at sqlite:///{database}: CommandError: Can't locate revision " \
               "identified by 'zzzz_future'" in result.output


def test_an_address_the_server_cannot_listen_on_is_said_without_a_traceback(env):
    """``--host`` that is no address, ``--trusted-proxy`` that is no IP: one line, exit non-zero."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for args, said in ((["--host", "not a host", "--port", "5128"], "cannot listen on not a host:5128: "),
                           (["--host", "127.0.0.1", "--port", str(port)], f"cannot listen on 127.0.0.1:{port}: "),
                           (["--trusted-proxy", "garbage!!"], "'garbage!!' is not an IP address")):
            result = CliRunner().invoke(companion_cli, ["run", *args])
            assert result.exit_code != 0 and "Traceback" not in result.output, result.output
            assert said in result.output, result.output
