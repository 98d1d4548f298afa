"""Wiring the scorekeeper into the app: the table service, the database URL, look-ups by code."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, abort, current_app, jsonify, make_response, request

from companion.catalog import get_database
from companion.ratelimit import MissLimiter
from companion.storage import TableRecord, TableStore
from companion.tables import TableNotFound, TableService

_SERVICE = "companion.tables"
_LIMITER = "companion.ratelimit"


def database_url(app: Flask) -> str:
    """``DATABASE_URL`` from the config, else the environment, else SQLite in the instance folder."""
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    if url:
        return normalise_database_url(url)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{Path(app.instance_path) / 'companion.sqlite'}"


def normalise_database_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` URLs use the psycopg 3 driver; others unchanged."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def init_app(app: Flask) -> None:
    """Create (or migrate) the tables' schema and attach the service and the look-up limiter."""
    store = TableStore(database_url(app))
    app.extensions[_SERVICE] = TableService(store, get_database_for(app))
    app.extensions[_LIMITER] = MissLimiter(app.config.get("LOOKUP_MAX_MISSES", 10),
                                           app.config.get("LOOKUP_WINDOW_S", 60.0))


def get_database_for(app: Flask):
    with app.app_context():
        return get_database()


def service() -> TableService:
    return current_app.extensions[_SERVICE]


def client_id() -> str:
    return request.remote_addr or "unknown"


def find_table_or_abort(key: str, api: bool) -> TableRecord:
    """The table with token or code ``key``; a miss counts against the client's rate limit.

    Aborts with 429 (too many misses, with Retry-After) or 404.
    """
    limiter: MissLimiter = current_app.extensions[_LIMITER]
    wait_s = limiter.blocked_for_s(client_id())
    if wait_s > 0:
        message = f"too many wrong table codes; try again in {int(wait_s) + 1} s"
        response = make_response(jsonify(error=message) if api else message, 429)
        response.headers["Retry-After"] = str(int(wait_s) + 1)
        abort(response)
    try:
        return service().find(key)
    except TableNotFound:
        limiter.record_miss(client_id())
        if api:
            abort(make_response(jsonify(error="no table with that code"), 404))
        abort(404)
