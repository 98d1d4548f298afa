"""``companion run --watch``: the companion loads the card data again when a designer saves it.

A designer edits a card, builds the PDFs again (``printkit build --watch``) and opens the card's
QR code: the rulings page should show the card as saved, without restarting the server.
:class:`ReloadingApp` is the WSGI application the server runs: it hands each request to the
app it holds, and :meth:`ReloadingApp.reload` makes a new app from the same configuration and
swaps it in whole, so a request sees either the old data or the new, never a mix. Why a new
app rather than a new database inside the old one: the app derives more than the database at
start (short QR addresses, the games' own table parts, the scorekeepers' engines), and one
factory already derives all of it.

What is kept across a reload: the tables. The new app plays on the old one's
:class:`~companion.scorekeeping.store.storage.TableStore` (the same database connections and
change feed, ``TABLE_STORE`` of :func:`companion.create_app`), so a game in progress goes on,
and the new app's rules (from the data just saved) judge its next entries.

A save with problems is not served: the problems are printed, ``FILE:LINE: game/id: field:
message``, and the previous data stays served until a save that loads.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from card_data.problems import DatabaseError
from card_data.project.watching import describe, timestamp, watch

if TYPE_CHECKING:
    from flask import Flask


class ReloadingApp:
    """A WSGI application serving the app ``make_app(None)`` made, until :meth:`reload` makes
    the next with ``make_app(previous_app)``.

    ``make_app(previous)`` returns a Flask app, keeping what it wants of ``previous`` (``None``
    the first time). It raises :class:`card_data.problems.DatabaseError` for card data that
    does not load and :class:`card_data.project.base_url.ConfigError` for a broken
    ``printkit.toml``: :meth:`reload` reports them, the constructor lets them through.
    """

    def __init__(self, make_app: Callable[[Flask | None], Flask]):
        self._make_app = make_app
        self.app: Flask = make_app(None)
        self._lock = threading.Lock()  # one reload at a time; requests never wait on it

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        return self.app(environ, start_response)

    def reload(self) -> list[str]:
        """Make a new app and serve it from the next request on. Returns what kept it from
        loading, a line per problem (``[]`` when it loaded); the previous app is then still
        served. Any other exception propagates, the previous app still served."""
        from card_data.project.base_url import ConfigError

        with self._lock:
            try:
                app = self._make_app(self.app)
            except DatabaseError as error:
                return [str(problem) for problem in error.problems]
            except ConfigError as error:
                return [str(error)]
            self.app = app  # one reference swapped: a request started before ends on the old app
            return []


def reloading_companion(config: dict[str, Any]) -> ReloadingApp:
    """The companion :func:`companion.create_app` makes from ``config``, made again from the
    same ``config`` on each :meth:`ReloadingApp.reload`, on the tables' store of the app it
    replaces (``TABLE_STORE``): games in progress go on. Raises what ``create_app`` raises."""
    from companion import create_app
    from companion.scorekeeping.scorekeeper import table_store_of

    def make_app(previous: Flask | None) -> Flask:
        store = table_store_of(previous) if previous is not None else None
        return create_app(dict(config, TABLE_STORE=store) if store is not None else config)

    return ReloadingApp(make_app)


def watched_roots(app: Flask) -> list[Path]:
    """What ``app`` was made from that a designer saves: its card data folder and, serving a
    project, the project's ``printkit.toml`` (its limits and base URL)."""
    roots = [Path(app.config["CARD_DATA_DIR"])]
    if app.config.get("PROJECT_DIR"):
        roots.append(Path(app.config["PROJECT_DIR"]) / "printkit.toml")
    return roots


def watch_and_reload(served: ReloadingApp, roots: Iterable[Path], say: Callable[[str], None],
                     stop: threading.Event | None = None) -> threading.Thread:
    """Start a daemon thread that calls ``served.reload()`` after each settled change under
    ``roots`` (:func:`card_data.project.watching.watch`), saying each change and its outcome
    through ``say`` (one line each; a problem a line). Returns the thread; it ends when
    ``stop`` is set, else with the process."""
    roots = list(roots)

    def on_change(changed: set[Path]) -> None:
        say(f"[{timestamp()}] {describe(changed)} changed: loading the card data again")
        try:
            problems = served.reload()
        except Exception:  # noqa: BLE001 - a crash on one save must not stop the server or the watch
            say(traceback.format_exc().rstrip())
            say(f"[{timestamp()}] the companion crashed loading the saved data (a bug: please report it with "
                "the lines above); still serving the data loaded before.")
            return
        if not problems:
            say(f"[{timestamp()}] serving the saved card data.")
            return
        for line in problems:
            say(line)
        say(f"[{timestamp()}] the saved card data has {_problems(len(problems))}: still serving the data "
            "loaded before; save again once they are mended.")

    thread = threading.Thread(target=watch, args=(roots, on_change, stop), name="companion-watch", daemon=True)
    thread.start()
    return thread


def _problems(n: int) -> str:
    return "1 problem" if n == 1 else f"{n} problems"
