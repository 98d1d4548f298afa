"""Noticing saves: ``printkit build --watch`` and ``printkit preview`` rebuild, and ``companion run
--watch`` loads the card data again, when a project file changes.

Changes are found by polling: every ``interval_s`` the watched folders are listed and each
file's modification time and size compared with the previous listing. Why polling rather than
operating-system events (watchdog, inotify): a project is a few hundred small files, so a
listing costs about a millisecond; polling sees changes on network drives, Docker bind mounts
and WSL folders where file events do not arrive; an editor's save-by-rename and a file
replaced by ``git checkout`` look the same as any other change; and no dependency or
per-OS back end is needed. The price, up to ``interval_s`` of delay, is below the time a
build takes.

Debounce: after a change, the watcher waits until the listing has stayed the same for
``debounce_s`` before calling back, so an editor writing several files (or one file in
several steps) gives one rebuild. Editor droppings (hidden files, ``*~``, ``*.swp``,
``*.tmp``) are ignored.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

Listing = dict[Path, tuple[int, int]]
"""``{file: (mtime_ns, size_bytes)}``."""

POLL_INTERVAL_S = 0.4
DEBOUNCE_S = 0.3
_IGNORED_SUFFIXES = (".swp", ".swx", ".tmp", ".pyc")


def _ignored(path: Path) -> bool:
    name = path.name
    return name.startswith(".") or name.endswith("~") or name.endswith(_IGNORED_SUFFIXES) or "__pycache__" in path.parts


def listing(roots: Iterable[Path]) -> Listing:
    """Every file under ``roots`` (folders, or single files such as ``printkit.toml``) with its
    ``(mtime_ns, size_bytes)``; missing roots and files that vanish meanwhile are left out."""
    out: Listing = {}
    for root in roots:
        root = Path(root)
        candidates = [root] if root.is_file() else (root.rglob("*") if root.is_dir() else [])
        for path in candidates:
            if _ignored(path):
                continue
            try:
                st = path.stat()
            except OSError:
                continue
            if path.is_file():
                out[path] = (st.st_mtime_ns, st.st_size)
    return out


def changed_files(old: Listing, new: Listing) -> set[Path]:
    """Files added, removed or modified between two listings."""
    return {p for p in old.keys() | new.keys() if old.get(p) != new.get(p)}


def watch(roots: Iterable[Path], on_change: Callable[[set[Path]], None], stop: threading.Event | None = None,
          interval_s: float = POLL_INTERVAL_S, debounce_s: float = DEBOUNCE_S) -> None:
    """Call ``on_change(changed files)`` after each settled change under ``roots``, until
    ``stop`` is set (forever without one; Ctrl-C ends it with ``KeyboardInterrupt``).

    ``on_change`` runs in this thread, so a rebuild and the next poll never overlap; files
    saved during a rebuild are seen by the next poll. Exceptions from ``on_change`` propagate.
    """
    roots = list(roots)
    stop = stop or threading.Event()
    seen = listing(roots)
    while not stop.wait(interval_s):
        now = listing(roots)
        if now == seen:
            continue
        # Wait for the writes to settle: the listing must hold still for debounce_s.
        while not stop.wait(debounce_s):
            settled = listing(roots)
            if settled == now:
                break
            now = settled
        if stop.is_set():
            return
        changed = changed_files(seen, now)
        seen = now
        if changed:
            on_change(changed)


def describe(changed: set[Path], limit: int = 3) -> str:
    """A short line naming the changed files, e.g. ``cards/brute.yaml, back-token.yaml``."""
    names = sorted(p.name for p in changed)
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def timestamp() -> str:
    """Local wall-clock time for a rebuild line (``14:03:07``)."""
    return time.strftime("%H:%M:%S")
