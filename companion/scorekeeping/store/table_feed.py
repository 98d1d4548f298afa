"""What a companion process knows of the tables' rows between database reads: their look-ups,
kept true by PostgreSQL's change feed (LISTEN/NOTIFY), so that a phone's poll or entry asks the
database nothing to find its table.

Every phone polls its table each second and every answer starts by looking the table up by its
link token or code: a query, a round trip to the database server, and a wait for Python's
lock (GIL) again on the way back, which under load costs more than the query. A table's row
changes only when it changes version, apart from a rematch recorded on it (see migration 0003):
PostgreSQL says so on the channel :data:`CHANNEL` once each write commits, and
:class:`TableFeed`'s thread listens, so a row read once stays known, its version brought up to
date as the notices come.

Correct first, fast second:

- The feed is trusted only while it is known to work: its connection answered within
  :data:`STALE_AFTER_S` (a heartbeat every :data:`HEARTBEAT_S`). Otherwise, and until it is
  back, every look-up asks the database as before; a lost connection forgets everything known,
  since notices may have been missed meanwhile.
- Versions only grow, so a notice and a read of the row agree whichever comes first: a row read
  while a notice for it came in is kept at the greater version. A notice that something else
  changed (a rematch), a TRUNCATE, or the feed restarting forgets what it concerns and every row
  being read meanwhile (:meth:`TableFeed.epoch`).
- A client that shows a later version than the one known (it wrote through another process, whose
  notice is still on its way) has its table read from the database (``at_least``).
- This process's own writes bring what it knows up to date at once (:meth:`TableFeed.wrote`).

A notice takes about a millisecond to arrive: until then another process's change reads as not
yet made, as if the phone had polled a moment earlier.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

log = logging.getLogger(__name__)

CHANNEL = "companion_tables"
"""The channel migration 0003's triggers notify: ``"<id> <version>"``, ``"<id> -"`` or ``"*"``."""
HEARTBEAT_S = 2.0
"""How often the feed's connection is asked whether it still works, when no notice came (s)."""
STALE_AFTER_S = 3 * HEARTBEAT_S
"""The feed is not trusted once its connection has not answered for this long (s)."""
RETRY_FIRST_S = 0.5
RETRY_MOST_S = 30.0
"""The wait before connecting again after the feed's connection failed: doubling from the
first to the most (s)."""
RECORDS_KEPT = 4096
"""Look-ups kept (least recently used go first): a row is under 1 kB, so at most a few MB."""
VERSIONS_KEPT = 65536
"""Tables whose latest notified version is kept for rows being read as it came (ints)."""


class TableFeed:
    """Table rows by look-up key (token or upper-case code), kept up to date by PostgreSQL's
    notices on :data:`CHANNEL`, which a daemon thread of this process listens to on a connection
    of its own from ``connect()`` (a psycopg connection; started by :meth:`start`, again in a
    forked process). Thread-safe. ``records_kept``, ``versions_kept``: bounds (entries)."""

    def __init__(self, connect: Callable[[], Any], records_kept: int = RECORDS_KEPT,
                 versions_kept: int = VERSIONS_KEPT):
        self._connect = connect
        self.records_kept = records_kept
        self.versions_kept = versions_kept
        self._lock = threading.Lock()
        self._records: OrderedDict[str, Any] = OrderedDict()  # key -> TableRecord
        self._keys: dict[int, set[str]] = {}  # table id -> its keys in _records
        self._versions: OrderedDict[int, int] = OrderedDict()  # table id -> latest version noticed
        self._epoch = 0
        self._alive_at = -float("inf")
        self._thread: threading.Thread | None = None
        self._pid: int | None = None
        self._stop = threading.Event()
        self._down_said = False

    # -- the listening thread ---------------------------------------------------------------

    def start(self) -> None:
        """Listen, from a daemon thread of this process, unless that already runs (cheap to
        call on every look-up; a forked process starts its own)."""
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._stop = threading.Event()
            self._forget_all(alive=False)
            self._thread = threading.Thread(target=self._listen, args=(self._stop,), name="table-feed", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop listening and forget what is known. The thread ends, closing its connection,
        when it next wakes (within :data:`HEARTBEAT_S`): nothing waits for it."""
        with self._lock:
            self._stop.set()
            self._thread, self._pid = None, None
            self._forget_all(alive=False)

    @property
    def live(self) -> bool:
        """Whether the feed works: its connection answered within :data:`STALE_AFTER_S`."""
        return time.monotonic() - self._alive_at < STALE_AFTER_S

    def _listen(self, stop: threading.Event) -> None:
        delay = RETRY_FIRST_S
        while not stop.is_set():
            try:
                conn = self._connect()
                try:
                    conn.autocommit = True
                    conn.execute(f"LISTEN {CHANNEL}")
                    with self._lock:
                        if stop.is_set():
                            return
                        self._forget_all(alive=True)  # what was known before may have missed notices
                    if self._down_said:
                        log.warning("table change feed back: polls find their tables without asking the database")
                        self._down_said = False
                    delay = RETRY_FIRST_S
                    while not stop.is_set():
                        for notice in conn.notifies(timeout=HEARTBEAT_S):
                            self.notice(notice.payload)
                        conn.execute("SELECT 1")
                        # Notices that came with the answer first: then the feed is as new as it.
                        for notice in conn.notifies(timeout=0):
                            self.notice(notice.payload)
                        with self._lock:
                            if not stop.is_set():
                                self._alive_at = time.monotonic()
                finally:
                    conn.close()
            except Exception as exc:  # noqa: BLE001 - any failure: look tables up in the database meanwhile
                with self._lock:
                    if stop.is_set():
                        return
                    self._forget_all(alive=False)
                if not self._down_said:
                    log.warning("table change feed down (%s): tables are looked up in the database until it is "
                                "back; retrying", str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
                    self._down_said = True
            stop.wait(delay)
            delay = min(2 * delay, RETRY_MOST_S)

    # -- what is known ----------------------------------------------------------------------

    def epoch(self) -> int:
        """A mark to take before reading a row from the database and to give :meth:`keep`: it
        changes whenever something known is forgotten, so a row read meanwhile is not kept."""
        return self._epoch

    def look_up(self, key: str, at_least: int | None = None):
        """The row known under ``key`` (a token, or a code in upper case) as of the latest notice,
        or ``None``: none known, the feed not live, or the row known is older than version
        ``at_least`` (what the client already showed)."""
        if not self.live:
            return None
        with self._lock:
            record = self._records.get(key)
            if record is None:
                return None
            self._records.move_to_end(key)
        return None if at_least is not None and record.version < at_least else record

    def keep(self, key: str, record: Any, epoch: int) -> None:
        """Keep ``record``, read from the database under ``key`` after :meth:`epoch` gave
        ``epoch``, unless something was forgotten since or the feed is not live; at the latest
        version noticed for it meanwhile."""
        with self._lock:
            if epoch != self._epoch or not self.live:
                return
            noticed = self._versions.get(record.id)
            if noticed is not None and noticed > record.version:
                record = replace(record, version=noticed)
            self._records[key] = record
            self._records.move_to_end(key)
            self._keys.setdefault(record.id, set()).add(key)
            while len(self._records) > self.records_kept:
                old_key, old = self._records.popitem(last=False)
                keys = self._keys.get(old.id)
                if keys is not None:
                    keys.discard(old_key)
                    if not keys:
                        del self._keys[old.id]

    def wrote(self, table_id: int, version: int) -> None:
        """This process's write of table ``table_id`` committed at ``version`` (its notice is
        on its way)."""
        with self._lock:
            self._moved_on(table_id, version)

    def changed(self, table_id: int) -> None:
        """Something besides the version of table ``table_id`` changed (a rematch recorded)."""
        with self._lock:
            self._forget(table_id)

    def notice(self, payload: str) -> None:
        """One notice from :data:`CHANNEL` (see migration 0003); one not understood forgets all."""
        head, _, tail = payload.partition(" ")
        table_id = int(head) if head.isascii() and head.isdigit() else None
        with self._lock:
            if table_id is not None and tail.isascii() and tail.isdigit():
                self._moved_on(table_id, int(tail))
            elif table_id is not None and tail == "-":
                self._forget(table_id)
            else:
                self._forget_all(alive=self.live)

    # -- under the lock ---------------------------------------------------------------------

    def _moved_on(self, table_id: int, version: int) -> None:
        if self._versions.get(table_id, -1) < version:
            self._versions[table_id] = version
        self._versions.move_to_end(table_id)
        if len(self._versions) > self.versions_kept:
            self._versions.popitem(last=False)
            self._epoch += 1  # a row being read may have missed that table's notice
        for key in self._keys.get(table_id, ()):
            record = self._records[key]
            if record.version < version:
                self._records[key] = replace(record, version=version)

    def _forget(self, table_id: int) -> None:
        self._epoch += 1
        self._versions.pop(table_id, None)
        for key in self._keys.pop(table_id, ()):
            del self._records[key]

    def _forget_all(self, alive: bool) -> None:
        self._epoch += 1
        self._records.clear()
        self._keys.clear()
        self._versions.clear()
        self._alive_at = time.monotonic() if alive else -float("inf")
