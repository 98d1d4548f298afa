"""Locust phones for ``benchmarks/bench_companion.py`` (a locustfile; that script starts Locust
with it in processes of their own, so the phones do not share the server's interpreter).

Each Locust user is one phone. Within a Locust process, phones come in groups of four, one
table per group: the group's first phone creates a Carpe Diem table through the JSON API, the
others join it by its code, each playing its own seat. Even phones are pages (they join with the
page's form, choose their seat, post the table's form as htmx does with the ``_version`` they
last saw, and poll the live fragment every second with ``?v=<version>``); odd phones use the JSON
API (they join with ``GET /api/tables/<code>``, then address the table by the link token that
answer gives, as the page does after its join form: ``POST /api/tables/<token>/events``, and
``GET /api/tables/<token>`` with ``If-None-Match`` every second). Each posts a VP adjustment for
its seat every 0.5-2.5 s (``BENCH_POST_EVERY``), carrying a note unique to the run, so the script
can find every acknowledged entry in the log
afterwards.

A phone polls as the page's htmx does (``data-hx-trigger="every 1s"``): a tick every second, and
a tick that comes while the phone still waits for an answer (a poll, or a post, which htmx
queues on the live part) is dropped, as htmx drops it (its default ``hx-sync``): an answer late
by three seconds is followed by one poll at the next tick, not by the three missed ones at once.
While the server answers within the second, every tick polls.

Settings come from the environment: ``BENCH_OUT`` (folder for each process's results,
``phones-<pid>.json``), ``BENCH_UNTIL`` (Unix time at which phones stop posting and polling),
``BENCH_HOSTS`` (space-separated base URLs: phone ``n`` of a process uses
``hosts[n % len(hosts)]``; one URL when a proxy spreads the load), ``BENCH_POST_EVERY`` ("MIN MAX"
seconds between one phone's posts, drawn evenly; default "0.5 2.5").
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections import Counter, defaultdict
from pathlib import Path

import gevent
from gevent.event import AsyncResult
from locust import FastHttpUser, events, task
from locust.runners import MasterRunner

GAME = "carpe_diem"
PLAYERS = ["Anna", "Bea", "Cato", "Dido"]
POST_EVERY_S = tuple(float(x) for x in os.environ.get("BENCH_POST_EVERY", "0.5 2.5").split())
POLL_EVERY_S = 1.0  # companion/scorekeeping/pages/table_pages.py POLL_INTERVAL_S: the page's own interval
VERSION_IN_PAGE = re.compile(r"/live\?v=(\d+)")
CSRF_IN_PAGE = re.compile(r'name="csrf_token" value="([^"]+)"')

OUT = Path(os.environ.get("BENCH_OUT", "."))
UNTIL = float(os.environ.get("BENCH_UNTIL", "0")) or time.time() + 30
HOSTS = os.environ.get("BENCH_HOSTS", "").split()


class Results:
    """What this process's phones saw; written to ``BENCH_OUT/phones-<pid>.json`` at the end."""

    def __init__(self):
        self.times: dict[str, list[float]] = defaultdict(list)  # kind -> seconds
        self.status: Counter = Counter()
        self.accepted: dict[str, list[str]] = defaultdict(list)  # table code -> notes acknowledged
        self.page_posts = 0
        self.page_refused = 0
        self.errors: list[str] = []

    def dump(self) -> None:
        data = {"times": self.times, "status": dict(self.status), "accepted": self.accepted,
                "page_posts": self.page_posts, "page_refused": self.page_refused, "errors": self.errors[:50]}
        target = OUT / f"phones-{os.getpid()}.json"
        target.with_suffix(".tmp").write_text(json.dumps(data))
        target.with_suffix(".tmp").replace(target)


RESULTS = Results()
GROUPS: list[AsyncResult] = []  # one per table of this process: set to the table's code and token
NEXT_PHONE = [0]


@events.test_stop.add_listener
def _write_results(environment, **_kwargs) -> None:
    if not isinstance(environment.runner, MasterRunner):
        RESULTS.dump()


class Phone(FastHttpUser):
    """One player's phone: a page (htmx) or a JSON API client, at one seat of a table of four."""

    host = HOSTS[0] if HOSTS else None
    connection_timeout = 30.0
    network_timeout = 30.0

    def on_start(self) -> None:
        number = NEXT_PHONE[0]
        NEXT_PHONE[0] += 1
        if HOSTS:
            self.client.base_url = HOSTS[number % len(HOSTS)]
        self.number = f"{os.getpid()}-{number}"
        self.seat = number % len(PLAYERS)
        self.page = number % 2 == 0
        self.random = random.Random(self.number)
        self.version = 0
        self.etag: str | None = None
        self.csrf = ""
        self.sent = 0
        if self.seat == 0:
            group = AsyncResult()
            GROUPS.append(group)
            response = self.client.post("/api/tables", json={"game": GAME, "players": PLAYERS}, name="create")
            if response.status_code != 201:
                group.set(None)
                raise RuntimeError(f"create answered {response.status_code}")
            table = response.json()
            group.set((table["code"], table["token"]))
        else:
            group = GROUPS[-1]
        joined = group.get(timeout=60)
        if joined is None:
            raise RuntimeError("the group's table was not created")
        self.code, self.token = joined
        if self.page:
            self._join_page()
        else:
            response = self.client.get(f"/api/tables/{self.code}", name="join api")
            self.version = response.json()["version"]
            self.key = response.json()["token"]  # the table's link from now on, as the page goes on by it
            self.etag = response.headers.get("etag")

    def _join_page(self) -> None:
        """Join as a player does: the join form with the code, the seat, then the table page."""
        self._read(self.client.get("/join", name="join page").text)
        response = self.client.post("/join", data={"code": self.code, "csrf_token": self.csrf},
                                    allow_redirects=False, name="join page")
        assert response.status_code == 303, response.status_code
        self.client.post(f"/t/{self.token}/me", data={"seat": self.seat, "csrf_token": self.csrf},
                         allow_redirects=False, name="choose seat")
        self._read(self.client.get(f"/t/{self.token}", name="table page").text)

    def _read(self, html: str) -> None:
        if match := VERSION_IN_PAGE.search(html):
            self.version = int(match.group(1))
        if match := CSRF_IN_PAGE.search(html):
            self.csrf = match.group(1)

    @task
    def play(self) -> None:
        """Post and poll until ``BENCH_UNTIL``, then idle until Locust stops the phone."""
        now = time.monotonic()
        until = now + (UNTIL - time.time())
        next_post = now + self.random.uniform(*POST_EVERY_S)
        next_poll = now + self.random.uniform(0, POLL_EVERY_S)
        while True:
            due = min(next_post, next_poll)
            if due >= until:
                break
            gevent.sleep(max(0.0, due - time.monotonic()))
            try:
                if next_post <= next_poll:
                    self.post()
                    next_post = time.monotonic() + self.random.uniform(*POST_EVERY_S)
                else:
                    self.poll()
                    next_poll += POLL_EVERY_S
            except Exception as exc:  # noqa: BLE001 - reported at the end, the phone goes on
                RESULTS.errors.append(f"phone {self.number}: {exc!r}")
            late = time.monotonic() - next_poll
            if late > 0:  # ticks that came while this phone waited for an answer: dropped, as htmx does
                next_poll += POLL_EVERY_S * (int(late / POLL_EVERY_S) + 1)
        gevent.sleep(3600)

    def post(self) -> None:
        self.sent += 1
        note = f"phone {self.number} entry {self.sent}"
        event = {"type": "adjust_victory_points", "seat": self.seat, "change": 1, "note": note}
        if not self.page:
            start = time.perf_counter()
            response = self.client.post(f"/api/tables/{self.key}/events", json=event, name="event api")
            self._record("api", response.status_code, time.perf_counter() - start, note)
            if response.status_code == 200:
                self.version = response.json()["version"]
            return
        for _ in range(3):  # a stale form comes back with the new version: the player sends it again
            form = {**event, "_version": self.version, "csrf_token": self.csrf}
            start = time.perf_counter()
            response = self.client.post(f"/t/{self.token}/events", data=form, headers={"HX-Request": "true"},
                                        name="event page")
            self._record("page", response.status_code, time.perf_counter() - start, note)
            self._read(response.text or "")
            if response.status_code != 409:
                return

    def _record(self, kind: str, status: int, seconds: float, note: str) -> None:
        RESULTS.times[f"event {kind}"].append(seconds)
        RESULTS.status[f"event {kind} {status}"] += 1
        if kind == "page":
            RESULTS.page_posts += 1
            RESULTS.page_refused += status in (409, 422)
        if status == 200:
            RESULTS.accepted[self.code].append(note)
        elif status != 409:
            RESULTS.errors.append(f"phone {self.number}: POST answered {status}")

    def poll(self) -> None:
        start = time.perf_counter()
        if self.page:
            response = self.client.get(f"/t/{self.token}/live?v={self.version}", headers={"HX-Request": "true"},
                                       name="poll page")
            if response.status_code == 200:
                self._read(response.text)
            kind = "poll page live"
        else:
            headers = {"If-None-Match": self.etag} if self.etag else {}
            response = self.client.get(f"/api/tables/{self.key}", headers=headers, name="poll api")
            self.etag = response.headers.get("etag") or self.etag
            kind = "poll api state"
        RESULTS.times[kind].append(time.perf_counter() - start)
        RESULTS.status[f"{kind} {response.status_code}"] += 1
