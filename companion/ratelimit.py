"""Rate limiting of failed table look-ups, so short codes cannot be guessed by brute force."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class MissLimiter:
    """Counts failed look-ups per client in a sliding window.

    A client with ``max_misses`` misses within ``window_s`` seconds is refused (every look-up,
    right or wrong) until the oldest miss leaves the window. Thread-safe; ``clock`` returns
    seconds and is injectable for tests.
    """

    def __init__(self, max_misses: int = 10, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic):
        self.max_misses = max_misses
        self.window_s = window_s
        self.clock = clock
        self._misses: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str) -> deque[float]:
        misses = self._misses.setdefault(client, deque())
        cutoff = self.clock() - self.window_s
        while misses and misses[0] <= cutoff:
            misses.popleft()
        return misses

    def blocked_for_s(self, client: str) -> float:
        """0 if ``client`` may try a look-up now, else the seconds until it may."""
        with self._lock:
            misses = self._recent(client)
            if len(misses) < self.max_misses:
                return 0.0
            return max(0.0, misses[0] + self.window_s - self.clock())

    def record_miss(self, client: str) -> None:
        with self._lock:
            self._recent(client).append(self.clock())
