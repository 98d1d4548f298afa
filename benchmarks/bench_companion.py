"""The companion under load: 20 phones posting and polling the production server on loopback.

Starts ``companion run`` (waitress) on a free loopback port with a fresh SQLite database in a
temporary folder, then:

1. the per-event server cost at event 0 and at event 2,000: one client enters events one
   after another on a Carpe Diem table (``adjust_victory_points``, legal at any time), and the
   median wall time per append and the server process's CPU per append (``/proc``) are taken
   over the first ``--sample`` events and again after the log reached ``--long`` events; then
   one undo and one correction at that length;
2. ``--phones`` phones (default 20) on Carpe Diem tables of four, one phone per seat, for
   ``--seconds`` seconds. Each phone enters a VP adjustment for its own seat every 0.5-2.5 s
   and polls every 1.5 s. Half the phones are pages: they post the table's form as htmx does
   (form fields, CSRF token, the ``_version`` they last saw: usually other phones entered
   something since; a refused form (409) is sent again with the new version, as a player
   would) and poll the live fragment with ``?v=<version>`` (204 when nothing changed). A VP
   adjustment is legal at any time and each carries its own note, so no page post is a true
   conflict (nor a repeat): every refused one counts in "refused page posts that were not true
   conflicts". The other half use the JSON API: POST
   ``/events`` without If-Match, and GET the table with ``If-None-Match`` (304 when nothing
   changed).

Prints p50/p95/p99 per event and per poll, the poll answers (changed or not), and events
accepted against events stored, each accepted entry found in the log by its note (zero lost).
The phones are threads of this process, so on a small machine they compete with the server
for the CPU: the figures are an upper bound of what the server alone costs.

    .venv/bin/python benchmarks/bench_companion.py --seconds 60
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlencode

GAME = "carpe_diem"
PLAYERS = ["Anna", "Bea", "Cato", "Dido"]
POST_EVERY_S = (0.5, 2.5)
POLL_EVERY_S = 1.5
VERSION_IN_PAGE = re.compile(r"/live\?v=(\d+)")
CSRF_IN_PAGE = re.compile(r'name="csrf_token" value="([^"]+)"')


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

    def __init__(self, port: int):
        self.port = port
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
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(folder: Path, port: int) -> subprocess.Popen:
    """``companion run`` on ``port`` with a fresh SQLite database in ``folder``; waits until it answers."""
    companion = shutil.which("companion", path=str(Path(sys.executable).parent)) or "companion"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite'}",
           "COMPANION_SECRET_KEY": "bench-" + "0" * 58}
    server = subprocess.Popen([companion, "run", "--host", "127.0.0.1", "--port", str(port)], env=env,
                              cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"companion run exited: {server.stderr.read().decode()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("companion run did not start within 60 s")


def server_cpu_s(pid: int) -> float:
    """User + system CPU seconds the process has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def new_table(client: Client, players: list[str]) -> dict:
    status, table, _, _ = client.json("POST", "/api/tables", {"game": GAME, "players": players})
    assert status == 201, table
    return table


def vp_event(seat: int, note: str) -> dict:
    return {"type": "adjust_victory_points", "seat": seat, "change": 1, "note": note}


# -- 1. per-event cost at event 0 and at event N ------------------------------------------------------


def cost_per_event(port: int, pid: int, long: int, sample: int) -> None:
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
    print(f"\nper-event cost, one client, Carpe Diem table on SQLite (median wall / server CPU per append, "
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


# -- 2. twenty phones ------------------------------------------------------------------------------------


class Results:
    """What the phones saw, shared between their threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.event_s: dict[str, list[float]] = defaultdict(list)
        self.poll_s: dict[str, list[float]] = defaultdict(list)
        self.poll_status: Counter = Counter()
        self.sent: Counter = Counter()
        self.page_posts = 0
        self.page_refused = 0  # a VP adjustment is legal at any time: no refusal is a true conflict
        self.accepted: dict[str, set[str]] = defaultdict(set)  # table code -> notes of accepted entries
        self.refused_notes: dict[str, set[str]] = defaultdict(set)
        self.errors: list[str] = []

    def add(self, bucket: dict[str, list[float]], kind: str, seconds: float) -> None:
        with self.lock:
            bucket[kind].append(seconds)


class Phone(threading.Thread):
    """One player's phone at ``table``, playing ``seat``: a page (htmx) or a JSON API client."""

    def __init__(self, number: int, port: int, table: dict, seat: int, page: bool, until: float,
                 results: Results):
        super().__init__(daemon=True)
        self.number, self.table, self.seat, self.page, self.until = number, table, seat, page, until
        self.client = Client(port)
        self.results = results
        self.version = table["version"]
        self.etag: str | None = None
        self.csrf = ""
        self.random = random.Random(number)
        self.sent = 0

    def run(self) -> None:
        try:
            if self.page:
                status, _, html, _ = self.client.request("GET", f"/t/{self.table['token']}")
                assert status == 200, status
                self._read_page(html)
            now = time.monotonic()
            next_post = now + self.random.uniform(*POST_EVERY_S)
            next_poll = now + self.random.uniform(0, POLL_EVERY_S)
            while True:
                due = min(next_post, next_poll)
                if due >= self.until:
                    break
                time.sleep(max(0.0, due - time.monotonic()))
                if next_post <= next_poll:
                    self.post()
                    next_post = time.monotonic() + self.random.uniform(*POST_EVERY_S)
                else:
                    self.poll()
                    next_poll += POLL_EVERY_S
        except (OSError, AssertionError, ValueError, http.client.HTTPException) as exc:  # said at the end
            with self.results.lock:
                self.results.errors.append(f"phone {self.number}: {exc!r}")

    def _read_page(self, html: bytes) -> None:
        text = html.decode()
        if match := VERSION_IN_PAGE.search(text):
            self.version = int(match.group(1))
        if match := CSRF_IN_PAGE.search(text):
            self.csrf = match.group(1)

    def post(self) -> None:
        self.sent += 1
        note = f"phone {self.number} entry {self.sent}"
        code = self.table["code"]
        if not self.page:
            status, body, elapsed, _ = self.client.json("POST", f"/api/tables/{code}/events",
                                                        vp_event(self.seat, note))
            self._record("api", status, elapsed, note)
            if status == 200:
                self.version = body["version"]
            return
        for _ in range(3):  # a stale form comes back with the new version: the player sends it again
            form = {"type": "adjust_victory_points", "seat": self.seat, "change": 1, "note": note,
                    "_version": self.version, "csrf_token": self.csrf}
            status, _, html, elapsed = self.client.request(
                "POST", f"/t/{self.table['token']}/events", urlencode(form).encode(),
                {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"})
            self._record("page", status, elapsed, note)
            self._read_page(html)
            if status != 409:
                return

    def _record(self, kind: str, status: int, elapsed: float, note: str) -> None:
        r = self.results
        with r.lock:
            r.event_s[kind].append(elapsed)
            r.sent[f"{kind} {status}"] += 1
            if kind == "page":
                r.page_posts += 1
                r.page_refused += status in (409, 422)
            if status == 200:
                r.accepted[self.table["code"]].add(note)
            elif status != 409:
                r.errors.append(f"phone {self.number}: POST answered {status}")

    def poll(self) -> None:
        if self.page:
            status, _, html, elapsed = self.client.request(
                "GET", f"/t/{self.table['token']}/live?v={self.version}", headers={"HX-Request": "true"})
            if status == 200:
                self._read_page(html)
            kind = "page live"
        else:
            headers = {"If-None-Match": self.etag} if self.etag else {}
            status, hdrs, _, elapsed = self.client.request("GET", f"/api/tables/{self.table['code']}",
                                                           headers=headers)
            self.etag = hdrs.get("etag", self.etag)
            kind = "api state"
        self.results.add(self.results.poll_s, kind, elapsed)
        with self.results.lock:
            self.results.poll_status[f"{kind} {status}"] += 1


def twenty_phones(port: int, pid: int, phones: int, seconds: float) -> bool:
    setup = Client(port)
    tables = [new_table(setup, PLAYERS) for _ in range((phones + len(PLAYERS) - 1) // len(PLAYERS))]
    results = Results()
    until = time.monotonic() + seconds
    threads = [Phone(n, port, tables[n // len(PLAYERS)], n % len(PLAYERS), page=n % 2 == 0, until=until,
                     results=results) for n in range(phones)]
    cpu_before = server_cpu_s(pid)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    cpu_s = server_cpu_s(pid) - cpu_before

    print(f"\n{phones} phones on {len(tables)} tables for {seconds:.0f} s (posting every "
          f"{POST_EVERY_S[0]}-{POST_EVERY_S[1]} s, polling every {POLL_EVERY_S} s)")
    everything = [t for kind in results.event_s.values() for t in kind]
    print(f"  per event, all:          {percentiles(everything)}")
    for kind, times in sorted(results.event_s.items()):
        print(f"  per event, {kind + ':':<13} {percentiles(times)}")
    polls = [t for kind in results.poll_s.values() for t in kind]
    print(f"  per poll, all:           {percentiles(polls)}")
    for kind, times in sorted(results.poll_s.items()):
        print(f"  per poll, {kind + ':':<14} {percentiles(times)}")
    print(f"  poll answers: {dict(sorted(results.poll_status.items()))}")
    print(f"  event answers: {dict(sorted(results.sent.items()))} (409: a refused form, sent again)")
    share = results.page_refused / max(results.page_posts, 1)
    print(f"  refused page posts that were not true conflicts: {results.page_refused} of {results.page_posts} "
          f"({share:.1%})")

    accepted = stored = lost = extra = 0
    for table in tables:
        status, body, _, _ = setup.json("GET", f"/api/tables/{table['code']}/events")
        assert status == 200, body
        notes = {e["payload"].get("note") for e in body["events"] if e["status"] == "active"}
        wanted = results.accepted[table["code"]]
        accepted += len(wanted)
        stored += len(body["events"])
        lost += len(wanted - notes)
        extra += len(notes - wanted)
    requests = sum(results.sent.values()) + sum(results.poll_status.values())
    print(f"  server CPU {cpu_s:.1f} s in {seconds:.0f} s ({cpu_s / seconds:.0%} of one core), "
          f"{ms(cpu_s / max(requests, 1))} per request")
    print(f"  events accepted {accepted}, stored {stored}, lost {lost}, stored but never accepted {extra}")
    for error in results.errors[:10]:
        print(f"  ERROR {error}")
    return lost == 0 and extra == 0 and not results.errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the phones play")
    parser.add_argument("--long", type=int, default=2000, help="the log length of the second cost sample")
    parser.add_argument("--sample", type=int, default=100, help="appends per cost sample")
    args = parser.parse_args()
    print(f"companion under load, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs, Python "
          f"{sys.version.split()[0]}, waitress, SQLite")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp), port)
        try:
            cost_per_event(port, server.pid, args.long, args.sample)
            ok = twenty_phones(port, server.pid, args.phones, args.seconds)
        finally:
            server.terminate()
            server.wait(10)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
