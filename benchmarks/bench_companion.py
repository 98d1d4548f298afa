"""The companion under load: phones from Locust processes against the production server(s).

Starts ``companion run`` (waitress, as in production) on free loopback ports: one server, or
``--servers K`` server processes on one database behind nginx (each table's requests to one
server, as the README's deployment routes them; ``--round-robin`` spreads every request; if nginx
is not installed, the phones are spread across the K ports and the script says so). The database is
SQLite in a temporary folder, or with ``--postgres URL`` a fresh PostgreSQL database created
for the run on that server (and dropped after it). Then:

1. the per-event server cost at event 0 and at event ``--long``: one client enters events one
   after another on a Carpe Diem table (``adjust_victory_points``, legal at any time), and the
   median wall time and the server's CPU per append are taken over ``--sample`` events, at
   the start and again at that length; then one undo and one correction (``--long 0`` skips);
2. ``--phones`` phones (default 20) for ``--seconds`` seconds, simulated by Locust in processes
   of their own (``benchmarks/companion_phones.py``): tables of four, each phone posting a VP
   adjustment for its seat every 0.5-2.5 s (``--post-every``) and polling every second as the
   page does (a tick
   that comes while the phone waits for an answer is dropped, as htmx drops it), half as
   pages (forms, htmx live fragment) and half through the JSON API. A VP adjustment is legal at
   any time and each carries its own note, so no page post is a true conflict: every refused
   one counts in "refused page posts that were not true conflicts".
3. with several servers, a probe enters an event through server 1 every second and polls
   server 2 every 5 ms until it shows it: the propagation time across servers.

Prints p50/p95/p99 per event and per poll; the servers' CPU per request and per event, from
their own CPU times (``/proc``), beside the proxy's, the phones' and, when it runs on this
machine, PostgreSQL's (its server process and every backend, ended ones included); events acknowledged
against events stored (each acknowledged entry found in its table's log by its note); and the
goals beside. The default posting rate is a stress rate: a table of four enters ~2.7 entries a
second, where a played game enters one every 10-30 s; ``--post-every 20 100`` (each of four
phones every 20-100 s: a table's entry every ~15 s) is a table at play. Needs the ``bench`` extra (``pip install -c constraints.txt -e '.[bench]'``).

    .venv/bin/python benchmarks/bench_companion.py --seconds 60
    .venv/bin/python benchmarks/bench_companion.py --phones 200 --servers 2 --postgres URL
"""

from __future__ import annotations

import argparse
import glob
import http.client
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from checkout import child_env, import_from_here  # noqa: E402

import_from_here()
from companion.web.proxy_routing import nginx_table_map  # noqa: E402

HERE = Path(__file__).resolve().parent
GAME = "carpe_diem"
PLAYERS = ["Anna", "Bea", "Cato", "Dido"]
SETUP_S = 15.0
"""Seconds the phones get to start and join their tables before they play."""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def percentiles(values: list[float]) -> str:
    """``p50/p95/p99`` of ``values`` (seconds) in ms."""
    if not values:
        return "-"
    if len(values) == 1:
        return f"{ms(values[0])} (one sample)"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {ms(cuts[49])}, p95 {ms(cuts[94])}, p99 {ms(cuts[98])} (n={len(values)})"


class Client:
    """One phone's keep-alive HTTP connection to the server, with its cookies."""

    def __init__(self, port: int, timeout_s: float = 30):
        self.port, self.timeout_s = port, timeout_s
        self.conn: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes, float]:
        """Send one request; ``(status, headers, body, seconds)`` (reconnects once if the
        server closed the kept-alive connection)."""
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout_s)
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
                continue
            elapsed = time.perf_counter() - start
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key] = rest.split(";", 1)[0]
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data, elapsed
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, body: object | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict, float, dict[str, str]]:
        raw = json.dumps(body).encode() if body is not None else None
        status, hdrs, data, elapsed = self.request(method, path, raw, {"Content-Type": "application/json",
                                                                       **(headers or {})})
        return status, (json.loads(data) if data else {}), elapsed, hdrs


def new_table(client: Client, players: list[str]) -> dict:
    status, table, _, _ = client.json("POST", "/api/tables", {"game": GAME, "players": players})
    assert status == 201, table
    return table


def vp_event(seat: int, note: str) -> dict:
    return {"type": "adjust_victory_points", "seat": seat, "change": 1, "note": note}


# -- 1. per-event cost at event 0 and at event N ------------------------------------------------------


def cost_per_event(port: int, pid: int, long: int, sample: int, store: str) -> None:
    client = Client(port)
    code = new_table(client, PLAYERS[:2])["code"]
    path = f"/api/tables/{code}/events"

    def measure(start: int) -> tuple[float, float]:
        times = []
        cpu_before = server_cpu_s(pid)
        for n in range(sample):
            status, body, elapsed, _ = client.json("POST", path, vp_event(n % 2, f"cost {start + n}"))
            assert status == 200, body
            times.append(elapsed)
        return statistics.median(times), (server_cpu_s(pid) - cpu_before) / sample

    for n in range(5):  # warm the server's code paths before measuring event 0
        client.json("POST", path, vp_event(0, "warm-up"))
    client.json("POST", f"/api/tables/{code}/undo")
    at_start = measure(0)
    for n in range(sample, long):
        status, body, _, _ = client.json("POST", path, vp_event(n % 2, f"fill {n}"))
        assert status == 200, body
    at_long = measure(long)
    print(f"\nper-event cost, one client, Carpe Diem table on {store} (median wall / server CPU per append, "
          f"{sample} appends each)")
    print(f"  at event 0:      {ms(at_start[0]):>9} / {ms(at_start[1]):>9}")
    print(f"  at event {long:,}: {ms(at_long[0]):>9} / {ms(at_long[1]):>9}")
    status, _, undo_s, _ = client.json("POST", f"/api/tables/{code}/undo")
    assert status == 200
    status, _, correct_s, _ = client.json("PUT", f"/api/tables/{code}/events/10", vp_event(1, "corrected"))
    assert status == 200
    entries = 4 + long + sample  # the warm-up left 4, then the two samples and the fill
    print(f"  at {entries:,} entries: undo {ms(undo_s)}, correct entry 10 (replays the log after it) "
          f"{ms(correct_s)}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def log_path(folder: Path, what: str, port: int) -> Path:
    """Where a server's or proxy's stderr goes: a file, never a pipe nobody reads (a full pipe
    blocks the writer: waitress logging "Task queue depth" under load once stalled a whole
    server, every request on it waiting 30 s)."""
    return folder / f"{what.replace(' ', '-')}-{port}.log"


def wait_for_port(port: int, process: subprocess.Popen, what: str, log: Path | None = None) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = log.read_text(errors="replace")[-4000:] if log is not None and log.is_file() else ""
            raise SystemExit(f"{what} exited: {said}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit(f"{what} did not start within 60 s")


def companion_command() -> str:
    return shutil.which("companion", path=str(Path(sys.executable).parent)) or "companion"


def start_server(folder: Path, port: int, database_url: str, proxied: bool, threads: int | None = None) -> subprocess.Popen:
    """``companion run`` on ``port`` as in production (waitress), on ``database_url``; waits
    until it answers. Every server shares one secret key, so a page's session and CSRF token
    hold on whichever server answers."""
    env = child_env({**os.environ, "DATABASE_URL": database_url, "COMPANION_SECRET_KEY": "bench-" + "0" * 58})
    command = [companion_command(), "run", "--host", "127.0.0.1", "--port", str(port)]
    if proxied:
        command += ["--trusted-proxy", "127.0.0.1"]
    if threads:
        command += ["--threads", str(threads)]
    log = log_path(folder, "companion run", port)
    with log.open("wb") as stderr:  # the child keeps its own copy of the file
        server = subprocess.Popen(command, env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=stderr)
    wait_for_port(port, server, "companion run", log)
    return server


NGINX_CONF = """worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/nginx-body;
    proxy_temp_path {tmp}/nginx-proxy;
    fastcgi_temp_path {tmp}/nginx-fastcgi;
    uwsgi_temp_path {tmp}/nginx-uwsgi;
    scgi_temp_path {tmp}/nginx-scgi;
{table_map}
    upstream companion {{
{balance}
{servers}
        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://companion;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
"""


def start_nginx(folder: Path, ports: list[int], by_table: bool) -> tuple[subprocess.Popen, int] | None:
    """nginx on a free port in front of ``ports``: each table's requests to one of them
    (``by_table``, hashed on the table in the path, as the README's deployment does), or every
    request round-robin; ``None`` if nginx is not installed."""
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if nginx is None:
        return None
    port = free_port()
    servers = "\n".join(f"        server 127.0.0.1:{p};" for p in ports)
    conf = folder / "nginx.conf"
    table_map = nginx_table_map(indent="    ")
    balance = "        hash $companion_table;" if by_table else ""
    conf.write_text(NGINX_CONF.format(tmp=folder, servers=servers, port=port, table_map=table_map, balance=balance))
    log = log_path(folder, "nginx", port)
    with log.open("wb") as stderr:
        process = subprocess.Popen([nginx, "-p", str(folder), "-c", str(conf)], stdout=subprocess.DEVNULL,
                                   stderr=stderr)
    wait_for_port(port, process, "nginx", log)
    return process, port


def tree_cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` and its living children (``/proc``)."""
    try:
        root = psutil.Process(pid)
        total = 0.0
        for process in [root, *root.children(recursive=True)]:
            times = process.cpu_times()
            total += times.user + times.system
        return total
    except psutil.NoSuchProcess:
        return 0.0


def server_cpu_s(pid: int) -> float:
    """User + system CPU seconds one server process has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Database:
    """SQLite in ``folder``, or a fresh PostgreSQL database on the server of ``postgres_url``
    (dropped on exit)."""

    def __init__(self, folder: Path, postgres_url: str | None):
        self.admin_url = postgres_url
        self.name = None
        if postgres_url is None:
            self.url = f"sqlite:///{folder / 'bench.sqlite'}"
            return
        import psycopg
        from sqlalchemy.engine import make_url

        self.name = f"companion_bench_{os.getpid()}_{secrets.token_hex(3)}"
        url = make_url(postgres_url)
        with psycopg.connect(self._libpq(url), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        self.url = url.set(drivername="postgresql+psycopg", database=self.name).render_as_string(
            hide_password=False)

    @staticmethod
    def _libpq(url) -> str:
        return url.set(drivername="postgresql").render_as_string(hide_password=False)

    def postgres_cpu(self) -> Callable[[], float] | None:
        """CPU seconds the PostgreSQL server has used so far (its postmaster, its living
        processes and those that ended), if it runs on this machine; else ``None``."""
        if self.name is None:
            return None
        import psycopg
        from sqlalchemy.engine import make_url

        try:
            with psycopg.connect(self._libpq(make_url(self.url)), autocommit=True) as conn:
                backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
                postmaster = psutil.Process(psutil.Process(backend).ppid())  # while the backend lives
            if "postgres" not in postmaster.name():
                return None
        except psutil.Error:
            return None  # another machine's, or not ours to read

        def used() -> float:
            try:
                times = postmaster.cpu_times()
                ended = times.children_user + times.children_system  # backends that have ended
                return times.user + times.system + ended + sum(
                    t.user + t.system for t in (c.cpu_times() for c in postmaster.children(recursive=True)))
            except psutil.Error:
                return 0.0

        return used

    def drop(self) -> None:
        if self.name is None:
            return
        import psycopg
        from sqlalchemy.engine import make_url

        with psycopg.connect(self._libpq(make_url(self.admin_url)), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def init_db(url: str) -> None:
    done = subprocess.run([companion_command(), "init-db", "--database-url", url], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"companion init-db failed: {done.stderr}")


# -- 2. the phones ---------------------------------------------------------------------------------------


def run_phones(folder: Path, hosts: list[str], phones: int, seconds: float, processes: int,
               cpu_of: dict[str, callable], post_every_s: tuple[float, float]) -> tuple[dict, dict[str, float]]:
    """Locust with ``phones`` users in ``processes`` processes; the merged results of its
    processes and each CPU figure of ``cpu_of`` (name -> CPU seconds so far) over the play;
    each phone posts every ``post_every_s`` (min, max) seconds."""
    out = folder / "phones"
    out.mkdir()
    start_play = time.time() + SETUP_S
    until = start_play + seconds
    env = {**os.environ, "BENCH_OUT": str(out), "BENCH_UNTIL": str(until), "BENCH_HOSTS": " ".join(hosts),
           "BENCH_POST_EVERY": " ".join(str(x) for x in post_every_s)}
    locust = shutil.which("locust", path=str(Path(sys.executable).parent)) or "locust"
    command = [locust, "-f", str(HERE / "companion_phones.py"), "--headless", "-u", str(phones),
               "-r", str(max(10, phones // 5)), "-t", f"{int(SETUP_S + seconds + 5)}s", "--stop-timeout", "0",
               "--only-summary", "-L", "ERROR", "--host", hosts[0]]
    if processes > 1:
        command += ["--processes", str(processes)]
    log = open(folder / "locust.log", "w")
    swarm = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    cpu_of = {**cpu_of, "phones (Locust)": lambda: tree_cpu_s(swarm.pid)}
    time.sleep(max(0.0, start_play - time.time()))
    before = {name: f() for name, f in cpu_of.items()}
    time.sleep(max(0.0, until - time.time()))
    used = {name: f() - before[name] for name, f in cpu_of.items()}
    try:
        swarm.wait(SETUP_S + 60)
    except subprocess.TimeoutExpired:
        swarm.terminate()
        swarm.wait(10)
    log.close()
    merged: dict = {"times": {}, "status": Counter(), "accepted": {}, "page_posts": 0, "page_refused": 0,
                    "errors": []}
    dumps = sorted(glob.glob(str(out / "phones-*.json")))
    if not dumps:
        raise SystemExit(f"Locust wrote no results; its log: {(folder / 'locust.log').read_text()[-3000:]}")
    for dump in dumps:
        data = json.loads(Path(dump).read_text())
        for kind, times in data["times"].items():
            merged["times"].setdefault(kind, []).extend(times)
        merged["status"].update(data["status"])
        for code, notes in data["accepted"].items():
            merged["accepted"].setdefault(code, []).extend(notes)
        merged["page_posts"] += data["page_posts"]
        merged["page_refused"] += data["page_refused"]
        merged["errors"] += data["errors"]
    return merged, used


def count_stored(port: int, accepted: dict[str, list[str]]) -> tuple[int, int, int, int]:
    """``(acknowledged, stored, lost, stored but never acknowledged)`` over the tables in
    ``accepted`` (code -> notes acknowledged), from their logs through the API. An overloaded
    server may still be answering the phones' last requests: its answers are awaited."""
    client = Client(port, timeout_s=600)
    acknowledged = stored = lost = extra = 0
    for code, notes in accepted.items():
        status, body, _, _ = client.json("GET", f"/api/tables/{code}/events")
        assert status == 200, body
        kept = {e["payload"].get("note") for e in body["events"] if e["status"] == "active"}
        wanted = set(notes)
        acknowledged += len(wanted)
        stored += len(kept)
        lost += len(wanted - kept)
        extra += len(kept - wanted)
    return acknowledged, stored, lost, extra


# -- 3. propagation across servers -----------------------------------------------------------------------


class Propagation(threading.Thread):
    """Every second, an event entered through server ``write_port`` and the time until a poller
    of server ``read_port`` (every 5 ms, with If-None-Match) sees its version."""

    def __init__(self, write_port: int, read_port: int, until: float):
        super().__init__(daemon=True)
        self.writer, self.reader = Client(write_port), Client(read_port)
        self.until = until
        self.delays_s: list[float] = []
        self.errors: list[str] = []

    def run(self) -> None:
        try:
            table = new_table(self.writer, PLAYERS)
            code, etag, n = table["code"], None, 0
            while time.time() < self.until:
                n += 1
                status, body, _, _ = self.writer.json("POST", f"/api/tables/{code}/events", vp_event(0, f"probe {n}"))
                assert status == 200, body
                acked, version = time.perf_counter(), body["version"]
                while True:
                    status, hdrs, data, _ = self.reader.request(
                        "GET", f"/api/tables/{code}", headers={"If-None-Match": etag} if etag else {})
                    if status == 200:
                        etag = hdrs.get("etag")
                        if json.loads(data)["version"] >= version:
                            self.delays_s.append(time.perf_counter() - acked)
                            break
                    elif status != 304:
                        raise AssertionError(f"GET answered {status}")
                    if time.perf_counter() - acked > 10:
                        raise AssertionError(f"server 2 did not show version {version} within 10 s")
                    time.sleep(0.005)
                time.sleep(1.0)
        except (OSError, AssertionError, http.client.HTTPException) as exc:
            self.errors.append(repr(exc))


# -- the report ------------------------------------------------------------------------------------------


def p99_ms(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] * 1000 if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[98] * 1000


def goal(label: str, value: float, limit: float, unit: str = "ms") -> str:
    verdict = "met" if value < limit else "NOT met"
    return f"  goal: {label} {value:.1f} {unit} < {limit:g} {unit}: {verdict}"


def report(results: dict, used: dict[str, float], seconds: float, phones: int, servers: int, postgres: bool,
           stored: tuple[int, int, int, int], probe: Propagation | None, spread: str,
           post_every_s: tuple[float, float]) -> bool:
    times = results["times"]
    tables = len(results["accepted"])
    print(f"\n{phones} phones on {tables} tables for {seconds:.0f} s, {servers} server process(es) {spread} "
          f"(each posting every {post_every_s[0]:g}-{post_every_s[1]:g} s, polling every 1 s)")
    events = [t for kind, ts in times.items() if kind.startswith("event") for t in ts]
    polls = [t for kind, ts in times.items() if kind.startswith("poll") for t in ts]
    print(f"  per event, all:          {percentiles(events)}")
    for kind in sorted(k for k in times if k.startswith("event")):
        print(f"  per {kind + ':':<20} {percentiles(times[kind])}")
    print(f"  per poll, all:           {percentiles(polls)}")
    for kind in sorted(k for k in times if k.startswith("poll")):
        print(f"  per {kind + ':':<20} {percentiles(times[kind])}")
    status = results["status"]
    print(f"  answers: {dict(sorted(status.items()))} (409: a refused form, sent again)")
    share = results["page_refused"] / max(results["page_posts"], 1)
    print(f"  refused page posts that were not true conflicts: {results['page_refused']} of "
          f"{results['page_posts']} ({share:.1%})")
    requests = sum(status.values())
    acknowledged, stored_n, lost, extra = stored
    server_cpu = used["servers"]
    print(f"  server CPU {server_cpu:.1f} s in {seconds:.0f} s ({server_cpu / seconds:.0%} of one core): "
          f"{ms(server_cpu / max(requests, 1))} per request ({requests}), "
          f"{ms(server_cpu / max(acknowledged, 1))} per event ({acknowledged})")
    each = [f"{cpu:.1f} s" for name, cpu in used.items() if name.startswith("server ")]
    if each:
        print(f"  each server's CPU: {', '.join(each)}")
    others = ", ".join(f"{name} {cpu:.1f} s" for name, cpu in used.items()
                       if name != "servers" and not name.startswith("server "))
    print(f"  other CPU in that time: {others}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"  events acknowledged {acknowledged}, stored {stored_n}, lost {lost}, "
          f"stored but never acknowledged {extra}")
    if probe is not None:
        print(f"  propagation, entered through server 1, seen by a poller of server 2 (polling every 5 ms): "
              f"{percentiles(probe.delays_s)}")
        for error in probe.errors:
            print(f"  PROBE ERROR {error}")
    for error in results["errors"][:10]:
        print(f"  ERROR {error}")
    if postgres and servers > 1:
        limits = {"event": 100, "poll": 50, "cpu": None}
    else:
        limits = {"event": 50, "poll": 30, "cpu": 5}
    print(goal("p99 per event", p99_ms(events), limits["event"]))
    print(goal("p99 per poll", p99_ms(polls), limits["poll"]))
    if limits["cpu"]:
        print(goal("server CPU per request", server_cpu * 1000 / max(requests, 1), limits["cpu"]))
    print(f"  goal: zero lost: {'met' if lost == 0 else 'NOT met'} ({lost} lost)")
    return lost == 0 and not results["errors"] and (probe is None or not probe.errors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--servers", type=int, default=1, help="server processes on one database")
    parser.add_argument("--postgres", metavar="URL", default=None,
                        help="a PostgreSQL server (a fresh database is created on it for the run); "
                             "default: SQLite in a temporary folder")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the phones play")
    parser.add_argument("--locust-processes", type=int, default=None,
                        help="Locust processes [default: 1 up to 50 phones, else 2]")
    parser.add_argument("--long", type=int, default=2000,
                        help="the log length of the second per-event cost sample (0: skip that part)")
    parser.add_argument("--sample", type=int, default=100, help="appends per cost sample")
    parser.add_argument("--threads", type=int, default=None,
                        help="worker threads of each server (companion run --threads; default: its own)")
    parser.add_argument("--round-robin", action="store_true",
                        help="nginx spreads every request round-robin over the servers, instead of each "
                             "table's requests to one server (the README's deployment)")
    parser.add_argument("--post-every", type=float, nargs=2, metavar=("MIN", "MAX"), default=(0.5, 2.5),
                        help="seconds between one phone's posts, drawn evenly (default: 0.5 2.5, a stress "
                             "rate; 20 100 is a table at play)")
    args = parser.parse_args()
    low, high = args.post_every
    if not 0.1 <= low <= high <= 3600:
        parser.error("--post-every takes MIN <= MAX, each 0.1-3600 seconds")
    processes = args.locust_processes or (1 if args.phones <= 50 else 2)
    store = "PostgreSQL" if args.postgres else "SQLite"
    print(f"companion under load, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}, Python {sys.version.split()[0]}, waitress, {store}, "
          f"{args.servers} server(s), Locust in {processes} process(es)")
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        folder = Path(tmp)
        database = Database(folder, args.postgres)
        stack.callback(database.drop)
        init_db(database.url)
        ports = [free_port() for _ in range(args.servers)]
        proxy = start_nginx(folder, ports, by_table=not args.round_robin) if args.servers > 1 else None
        servers = []
        for port in ports:
            server = start_server(folder, port, database.url, proxied=proxy is not None, threads=args.threads)
            servers.append(server)
            stack.callback(server.wait, 10)
            stack.callback(server.terminate)
        if proxy is not None:
            stack.callback(proxy[0].wait, 10)
            stack.callback(proxy[0].terminate)
            hosts = [f"http://127.0.0.1:{proxy[1]}"]
            spread = "behind nginx (round-robin)" if args.round_robin else "behind nginx (each table to one server)"
        elif args.servers > 1:
            hosts = [f"http://127.0.0.1:{p}" for p in ports]
            spread = "(no nginx: the phones are spread across their ports)"
        else:
            hosts, spread = [f"http://127.0.0.1:{ports[0]}"], "(waitress, no proxy)"
        if args.long:
            cost_per_event(ports[0], servers[0].pid, args.long, args.sample, store)
        cpu_of = {"servers": lambda: sum(server_cpu_s(s.pid) for s in servers)}
        if len(servers) > 1:
            cpu_of.update({f"server {n}": (lambda pid=s.pid: server_cpu_s(pid)) for n, s in enumerate(servers, 1)})
        if proxy is not None:
            cpu_of["nginx"] = lambda: tree_cpu_s(proxy[0].pid)
        postgres_cpu = database.postgres_cpu()
        if postgres_cpu is not None:
            cpu_of["PostgreSQL"] = postgres_cpu
        probe = None
        if args.servers > 1:
            probe = Propagation(ports[0], ports[1], time.time() + SETUP_S + args.seconds)
            probe.start()
        results, used = run_phones(folder, hosts, args.phones, args.seconds, processes, cpu_of,
                                   tuple(args.post_every))
        if probe is not None:
            probe.join(30)
        stored = count_stored(ports[-1], results["accepted"])
        ok = report(results, used, args.seconds, args.phones, args.servers, bool(args.postgres), stored, probe,
                    spread, tuple(args.post_every))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
