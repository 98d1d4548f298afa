"""Rate limiting of failed table look-ups, so short codes cannot be guessed by brute force.

Built on Flask-Limiter: its extension reads the storage and strategy from the config
(``RATELIMIT_STORAGE_URI``, ``RATELIMIT_STRATEGY``, ...) and this module drives its strategy
(:attr:`flask_limiter.Limiter.limiter`) from :func:`companion.scorekeeping.scorekeeper.find_table_or_abort`.
Flask-Limiter's route decorators count a request before its view runs; whether a look-up
missed is known only after it, and only misses may count, so the look-up asks the strategy
itself: *test* before looking up, *hit* on a miss.

The counts live in the companion's own database by default (:mod:`companion.web.limiter_storage`,
``companion-sql://``), so every worker process shares them; set ``RATELIMIT_STORAGE_URI`` to
any other ``limits`` storage (e.g. ``redis://...``) to keep them there instead.
"""

from __future__ import annotations

import math
import threading
import time
import urllib.parse
from collections import OrderedDict
from collections.abc import Callable

from flask import Flask
from flask_limiter import Limiter
from limits import RateLimitItem, RateLimitItemPerSecond
from sqlalchemy.engine import Engine

from companion.web import limiter_storage

SCOPE = "table-lookup-misses"
OPENED_KEPT = 4096
"""Codes a client opened that each process remembers (see :meth:`MissLimiter.opened`), the least
recently used forgotten first: ~100 bytes each."""


class MissLimiter:
    """Counts failed look-ups per client in a moving window of ``window_s`` seconds, through a
    Flask-Limiter extension installed on ``app``.

    A client with ``max_misses`` misses within the window is refused code look-ups until the
    oldest of them leaves it (see :func:`companion.scorekeeping.scorekeeper.find_table_or_abort`). Correct
    look-ups never count. ``engine``: the database the default storage keeps the counts in.
    ``window_s`` is rounded up to whole seconds (``limits`` counts in seconds).
    Raises :class:`limits.errors.ConfigurationError` for an unknown storage or strategy.
    """

    def __init__(self, app: Flask, engine: Engine, key_func: Callable[[], str], max_misses: int = 10,
                 window_s: float = 60.0):
        uri = app.config.setdefault("RATELIMIT_STORAGE_URI", f"{limiter_storage.SCHEME}://")
        app.config.setdefault("RATELIMIT_STRATEGY", "moving-window")
        options: dict = {}
        if urllib.parse.urlsplit(uri).scheme == limiter_storage.SCHEME:
            options["engine"] = engine
        self.extension = Limiter(key_func, app=app, storage_options=options)
        self.item: RateLimitItem = RateLimitItemPerSecond(max_misses, max(1, math.ceil(window_s)))
        self._opened: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._opened_lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        """False when ``RATELIMIT_ENABLED`` is off: nothing is counted or refused."""
        return self.extension.enabled and self.extension.initialized

    def blocked_for_s(self, client: str) -> float:
        """0 if ``client`` may try a look-up now, else the seconds until it may."""
        if not self.enabled:
            return 0.0
        strategy = self.extension.limiter
        if strategy.test(self.item, SCOPE, client):
            return 0.0
        reset_at = strategy.get_window_stats(self.item, SCOPE, client).reset_time
        now = getattr(self.extension.storage, "clock", time.time)()  # the storage's own clock
        return max(0.0, reset_at - now)

    def opened(self, client: str, code: str) -> bool:
        """Whether ``client`` opened table code ``code`` in this process before, while it was not
        refused: a phone polling its table by code is not asked about again (a query of the
        counts each poll), and keeps its table should it be refused later, as a table's link
        does; a guesser learns nothing it did not know. Remembers :data:`OPENED_KEPT` pairs."""
        with self._opened_lock:
            if (client, code) not in self._opened:
                return False
            self._opened.move_to_end((client, code))
            return True

    def remember_opened(self, client: str, code: str) -> None:
        """``client`` opened table code ``code`` while it was not refused (see :meth:`opened`)."""
        with self._opened_lock:
            self._opened[(client, code)] = None
            self._opened.move_to_end((client, code))
            while len(self._opened) > OPENED_KEPT:
                self._opened.popitem(last=False)

    def record_miss(self, client: str) -> None:
        """Count one failed look-up against ``client``."""
        if self.enabled:
            self.extension.limiter.hit(self.item, SCOPE, client)

    def clear(self, client: str) -> None:
        """Forget ``client``'s misses."""
        if self.enabled:
            self.extension.limiter.clear(self.item, SCOPE, client)
