"""Waiting for something a background process does (a rebuild, a server's reload), with a
generous deadline: a slow CI machine waits longer, a broken feature still fails."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

DEADLINE_S = 120


def wait_for(predicate: Callable[[], T], what: str, deadline_s: float = DEADLINE_S) -> T:
    """Poll ``predicate`` every 0.2 s until it returns something truthy, and return that.
    Raises ``AssertionError`` naming ``what`` after ``deadline_s`` seconds."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")
