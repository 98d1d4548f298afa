"""Wiring the scorekeeper into the app: the table service, the database URL, look-ups by code."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, abort, current_app, jsonify, make_response, request
from flask_babel import gettext

from companion.cards.catalog import get_database
from companion.web.ratelimit import MissLimiter
from companion.scorekeeping.store.storage import TableRecord, TableStore, unusable_database_errors
from companion.scorekeeping.tables import TableNotFound, TableService, whole_number

_SERVICE = "companion.scorekeeping.tables"
_LIMITER = "companion.web.ratelimit"
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})
"""The bodies whose ``_version`` field a look-up reads (a page's forms)."""


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
    """Create (or migrate) the tables' schema and attach the service and the look-up limiter.

    Config keys: ``LOOKUP_MAX_MISSES`` (default 10) wrong codes or tokens a client may try
    within ``LOOKUP_WINDOW_S`` seconds (default 60); ``TABLE_CHANGE_FEED`` (see
    :func:`change_feed_wanted`); Flask-Limiter's ``RATELIMIT_*`` keys (see
    :mod:`companion.web.ratelimit`); ``TABLE_STORE``, a :class:`TableStore` to play on instead
    of opening the database anew (``companion run --watch`` hands a reloaded app the one its
    previous app played on, :func:`table_store_of`).
    """
    store = app.config.get("TABLE_STORE")
    if store is None:
        url = database_url(app)
        try:
            store = TableStore(url, change_feed=change_feed_wanted(app))
        except unusable_database_errors() as exc:
            raise DatabaseUnusable(url, exc) from exc
    app.extensions[_SERVICE] = TableService(store, get_database_for(app))
    app.add_template_global(keeps_score)
    app.extensions[_LIMITER] = MissLimiter(app, store.engine, client_id, app.config.get("LOOKUP_MAX_MISSES", 10),
                                           app.config.get("LOOKUP_WINDOW_S", 60.0))


class DatabaseUnusable(Exception):
    """The tables' database at ``url`` cannot be opened or brought up to date; ``cause`` is what
    its driver or Alembic raised (:func:`~companion.scorekeeping.store.storage.unusable_database_errors`)."""

    def __init__(self, url: str, cause: BaseException):
        self.url, self.cause = url, cause
        super().__init__(f"cannot set up the database: {cause}")


FEED_OFF = frozenset({"0", "off", "false", "no"})
"""Values of ``$COMPANION_TABLE_CHANGE_FEED`` that turn the change feed off (any case)."""


def change_feed_wanted(app: Flask) -> bool:
    """Whether, on PostgreSQL, tables looked up once are known from its notices
    (:mod:`companion.scorekeeping.store.table_feed`): ``TABLE_CHANGE_FEED`` from the config, else
    ``$COMPANION_TABLE_CHANGE_FEED`` (``off``, ``0``, ``false`` or ``no`` turn it off), else on.
    Off where the database cannot ``LISTEN`` for the companion (behind PgBouncer in transaction
    mode): every look-up then asks the database."""
    wanted = app.config.get("TABLE_CHANGE_FEED")
    if wanted is None:
        return os.environ.get("COMPANION_TABLE_CHANGE_FEED", "on").strip().lower() not in FEED_OFF
    return bool(wanted)


def get_database_for(app: Flask):
    with app.app_context():
        return get_database()


def table_store_of(app: Flask) -> TableStore | None:
    """The :class:`TableStore` ``app``'s tables are kept in (``None`` for an app without a
    scorekeeper, e.g. a static export's)."""
    service_ = app.extensions.get(_SERVICE)
    return service_.store if service_ is not None else None


def service() -> TableService:
    return current_app.extensions[_SERVICE]


def keeps_score() -> bool:
    """Whether a game served here has a scorekeeper (a project whose declared games declare no
    ``scoring:`` has none: the pages then offer no table)."""
    return bool(service().engines)


def client_id() -> str:
    """Whom a look-up miss counts against: the client's address. Behind a reverse proxy, run
    ``companion run --trusted-proxy ADDRESS`` so that this is the phone's, not the proxy's."""
    return request.remote_addr or "unknown"


def client_version() -> int | None:
    """The latest table version the request says its client has seen, if any: a page's ``v``
    (its poll) or ``_version`` (its forms), the API's ``If-Match``, ``If-None-Match``,
    ``?version=`` or ``Drawn-At-Version``, each read as :func:`whole_number` reads it (what it
    refuses is ignored here; the view that reads it says what is wrong). A look-up then never
    answers with an older table than the phone already shows."""
    seen = [request.args.get("v"), request.args.get("version"), request.headers.get("Drawn-At-Version", "").strip('"'),
            *request.if_match.as_set(include_weak=True), *request.if_none_match.as_set(include_weak=True)]
    if request.method == "POST" and request.mimetype in FORM_TYPES:
        seen.append(request.form.get("_version"))
    return max((version for version in map(whole_number, seen) if version is not None), default=None)


def find_table_or_abort(key: str, api: bool) -> TableRecord:
    """The table with token or code ``key``; a miss counts against the client's rate limit.

    A client with too many misses is refused look-ups by code, right or wrong, so that guessing
    gains nothing; a table's link token still opens it (128 random bits cannot be guessed, and a
    phone that mistyped a few codes keeps its table page working), and so does a code the client
    opened before it was refused (:meth:`MissLimiter.opened`: it learns nothing new, and a phone
    polling its table by code is not refused for another phone's typing behind the same
    address). Correct look-ups never count.

    Aborts with 429 (too many misses, with Retry-After) or 404.
    """
    try:
        record: TableRecord | None = service().find(key, client_version())
    except TableNotFound:
        record = None
    if record is not None and record.token == key:
        return record  # the polling table pages take this path: no rate-limit query
    limiter: MissLimiter = current_app.extensions[_LIMITER]
    client = client_id()
    if record is not None and limiter.opened(client, key):
        return record
    wait_s = limiter.blocked_for_s(client)
    if wait_s > 0:
        seconds = int(wait_s) + 1
        if api:  # the JSON API speaks English
            response = make_response(jsonify(error=f"too many wrong table codes; try again in {seconds} s"), 429)
        else:
            response = make_response(gettext("Too many wrong table codes; try again in %(seconds)d s.",
                                             seconds=seconds), 429)
        response.headers["Retry-After"] = str(int(wait_s) + 1)
        abort(response)
    if record is None:
        limiter.record_miss(client)
        if api:
            abort(make_response(jsonify(error="no table with that code"), 404))
        abort(404)
    limiter.remember_opened(client, key)
    return record
