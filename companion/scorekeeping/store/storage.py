"""The tables' event logs in a real database, through SQLAlchemy (SQLite or PostgreSQL).

Persistence only: this module knows nothing of the rules. A table row holds the game,
players, options, colours and a ``version`` that every change bumps. Changes go through
:meth:`TableStore.writing`, one transaction holding the table's lock (``SELECT ... FOR
UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite): writers to one table take turns, so
none of them fails for having raced another, and a client that says which version it saw is
refused exactly when that version is stale. Reads of a table and its log come from one
transaction (:meth:`TableStore.snapshot`), so a version is never paired with another
version's events.

The schema is migrated on start by Alembic (``companion/migrations``): existing tables are
kept; ``companion init-db`` runs the same migrations explicitly.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from companion.scorekeeping.store.table_feed import TableFeed

metadata = MetaData()

game_tables = Table(
    "game_tables", metadata,
    Column("id", Integer, primary_key=True),
    Column("token", String(32), nullable=False, unique=True),
    Column("code", String(8), nullable=False, unique=True),
    Column("game", String(32), nullable=False),
    Column("players", JSON, nullable=False),
    Column("options", JSON, nullable=False),
    Column("version", Integer, nullable=False, default=0),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("colours", JSON, nullable=True),
    # The table a rematch of this one started (its token), once someone started it.
    Column("rematch_token", String(32), nullable=True),
)

table_events = Table(
    "table_events", metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("payload", JSON, nullable=False),
    # "active", "undone" (by undo) or "corrected" (replaced by a later correction row).
    Column("status", String(12), nullable=False, default="active"),
    Column("corrects", Integer, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # The table version the row's write produced, and the one that undid it (what changed since v).
    Column("at_version", Integer, nullable=True),
    Column("undone_at_version", Integer, nullable=True),
    UniqueConstraint("table_id", "seq", name="uq_event_seq"),
)

# Built once: a polled look-up then skips building the statement (SQLAlchemy caches its SQL).
_BY_TOKEN = select(game_tables).where(game_tables.c.token == bindparam("key"))
_BY_CODE = select(game_tables).where(game_tables.c.code == bindparam("key"))
# Built once too: every entry writes these (a bind name may not be a column's in a SET clause).
_LOCKED = select(game_tables).where(game_tables.c.id == bindparam("table_key"))
_BUMP = (update(game_tables).where(game_tables.c.id == bindparam("table_key"))
         .values(version=bindparam("new_version")))
_LOCKED_FOR_UPDATE = _LOCKED.with_for_update()
_APPEND = insert(table_events)
_BUMP_IF_AT = (update(game_tables)
               .where(game_tables.c.id == bindparam("table_key"), game_tables.c.version == bindparam("version_before"))
               .values(version=bindparam("new_version")))
_ROW_COLUMNS = ("table_id", "seq", "payload", "status", "corrects", "created_at", "at_version")
# One statement, so one round trip and no lock held between two: bump the version if it is still
# the one the caller folded, and append the row only then (PostgreSQL; SQLite has no UPDATE in WITH).
_BUMPED = _BUMP_IF_AT.returning(game_tables.c.id).cte("bumped")
# (Its binds are named apart from every column: SQLAlchemy would add a bind named as a column
# of the updated table to the UPDATE's SET.)
_APPEND_IF_AT = insert(table_events).from_select(_ROW_COLUMNS, select(
    _BUMPED.c.id, bindparam("row_seq", type_=Integer), bindparam("row_payload", type_=JSON),
    bindparam("row_status", type_=String), bindparam("row_corrects", type_=Integer),
    bindparam("row_created_at", type_=DateTime(timezone=True)), bindparam("row_at_version", type_=Integer))
).returning(table_events.c.seq)
_SET_STATUS = (update(table_events)
               .where(table_events.c.table_id == bindparam("table_key"), table_events.c.seq == bindparam("at_seq"))
               .values(status=bindparam("new_status"), undone_at_version=bindparam("new_version")))

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"

POOL_SIZE = 16
"""Connections a server process keeps open to a database server (PostgreSQL): a thread holds
one only while it answers a request."""
POOL_OVERFLOW = 16
"""Connections opened past :data:`POOL_SIZE` in a burst, closed after use: a process opens at
most 32, one for each thread of ``companion run --threads 32`` (its default is 8, which the
kept connections cover; PostgreSQL's default ``max_connections`` of 100 serves three processes
of 32 threads)."""

FEED_APPLICATION_NAME = "companion table feed"
"""How the change feed's connection names itself to PostgreSQL (``pg_stat_activity``)."""

# Short codes are read aloud and typed on phones: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
TOKEN_BYTES = 16  # 128 bits: unguessable
_KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a table's token (URL-safe base64) or code can look like; any other key is no table's."""


class Conflict(Exception):
    """The table changed since the version the change was based on."""


@dataclass(frozen=True)
class TableRecord:
    """A table's row: ``token`` (the unguessable link part), ``code`` (the short join code),
    ``colours`` (one colour name per seat, or empty), ``rematch_token`` (the token of the
    table a rematch started, if any)."""

    id: int
    token: str
    code: str
    game: str
    players: list[str]
    options: dict[str, Any]
    version: int
    created_at: datetime
    colours: tuple[str, ...] = ()
    rematch_token: str | None = None


@dataclass(frozen=True)
class EventRecord:
    """One logged event: ``seq`` (1-based order), the event ``payload`` (JSON dict) and its
    ``status`` (``active``, ``undone`` or ``corrected``); ``corrects`` is the seq it replaced;
    ``at_version`` the table version its write produced, ``undone_at_version`` the one that
    undid it (``None`` for rows written before these were kept)."""

    seq: int
    payload: dict[str, Any]
    status: str
    corrects: int | None
    created_at: datetime
    at_version: int | None = None
    undone_at_version: int | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    # SQLite keeps no time zone: what it gives back was written in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _record(row) -> TableRecord:
    return TableRecord(row.id, row.token, row.code, row.game, list(row.players), dict(row.options), row.version,
                       _utc(row.created_at), tuple(row.colours or ()), row.rematch_token)


def _changed_since(table_id: int, version: int):
    """The statement reading the rows of table ``table_id`` that a write after ``version`` made
    or changed (and any row written before versions were kept), in seq order."""
    return (select(table_events)
            .where(table_events.c.table_id == table_id,
                   or_(table_events.c.at_version > version, table_events.c.undone_at_version > version,
                       table_events.c.at_version.is_(None)))
            .order_by(table_events.c.seq))


def _event(row) -> EventRecord:
    return EventRecord(row.seq, dict(row.payload), row.status, row.corrects, _utc(row.created_at), row.at_version,
                       row.undone_at_version)


@dataclass
class TableWriter:
    """One write transaction on one table, holding its lock (see :meth:`TableStore.writing`).

    ``record`` is the table as it stands inside the transaction; each change bumps its
    version by one and returns the new version.
    """

    conn: Connection
    record: TableRecord
    _events: list[EventRecord] | None = field(default=None, repr=False)

    def events(self) -> list[EventRecord]:
        """The whole log as it stands inside the transaction."""
        if self._events is None:
            rows = self.conn.execute(select(table_events).where(table_events.c.table_id == self.record.id)
                                     .order_by(table_events.c.seq)).all()
            self._events = [_event(r) for r in rows]
        return self._events

    def changes_since(self, version: int) -> list[EventRecord]:
        """The rows written or changed after table version ``version``, as they stand inside
        the transaction (see :meth:`TableStore.changes_since`)."""
        return [_event(r) for r in self.conn.execute(_changed_since(self.record.id, version)).all()]

    def _bump(self) -> int:
        version = self.record.version + 1
        self.conn.execute(_BUMP, {"table_key": self.record.id, "new_version": version})
        self.record = replace(self.record, version=version)
        self._events = None
        return version

    def _next_seq(self) -> int:
        last = self.conn.execute(select(table_events.c.seq).where(table_events.c.table_id == self.record.id)
                                 .order_by(table_events.c.seq.desc()).limit(1)).scalar()
        return (last or 0) + 1

    def append(self, payload: dict[str, Any], corrects: int | None = None, seq: int | None = None) -> EventRecord:
        """Append an event (a correction of entry ``corrects`` if given); returns its row.
        ``seq``: the row's seq, one past the last of the log as this transaction sees it, where
        the caller holds that log (one query fewer); read here if not given. A wrong one is
        refused by the database (the log's seqs are unique), writing nothing."""
        seq = self._next_seq() if seq is None else seq
        version = self._bump()
        row = EventRecord(seq, payload, "active", corrects, _now(), version)
        self.conn.execute(_APPEND, {"table_id": self.record.id, "seq": seq, "payload": payload, "status": "active",
                                    "corrects": corrects, "created_at": row.created_at, "at_version": version})
        return row

    def set_status(self, seq: int, status: str) -> int:
        """Mark event ``seq`` ``undone`` or ``corrected``; returns the new version."""
        version = self._bump()
        self.conn.execute(_SET_STATUS, {"table_key": self.record.id, "at_seq": seq, "new_status": status,
                                        "new_version": version})
        return version

    def correct(self, seq: int, payload: dict[str, Any]) -> EventRecord:
        """Replace event ``seq`` by ``payload``: the old row is kept as ``corrected`` for the
        history, the new one takes its place in the order. One version for both."""
        seq_new = self._next_seq()
        version = self._bump()
        self.conn.execute(_SET_STATUS, {"table_key": self.record.id, "at_seq": seq, "new_status": "corrected",
                                        "new_version": version})
        row = EventRecord(seq_new, payload, "active", seq, _now(), version)
        self.conn.execute(_APPEND, {"table_id": self.record.id, "seq": seq_new, "payload": payload, "status": "active",
                                    "corrects": seq, "created_at": row.created_at, "at_version": version})
        return row



def unusable_database_errors() -> tuple[type[BaseException], ...]:
    """What opening a database URL a person wrote may raise: SQLAlchemy's errors (no server
    there, a wrong password, not a URL), ``ImportError`` (a driver that is not installed,
    ``mysql://``), ``ValueError`` (a port that is no number), ``UnicodeError`` (a host name too
    long to encode) and Alembic's ``CommandError`` (a schema a newer companion made). A function:
    Alembic takes ~0.1 s to import, and an ``except`` clause evaluates it only on an error."""
    from alembic.util.exc import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    return (SQLAlchemyError, ImportError, ValueError, UnicodeError, CommandError)


class TableStore:
    """Tables and their event logs in the database at ``url`` (any SQLAlchemy URL).

    Migrates the schema on start (Alembic; existing tables are never dropped). Raises
    SQLAlchemy errors for an unreachable database. ``change_feed``: on PostgreSQL, keep the
    tables looked up, kept true by the database's notices (:mod:`.table_feed`; off where
    LISTEN cannot work, e.g. behind PgBouncer in transaction mode).
    """

    def __init__(self, url: str, migrate: bool = True, change_feed: bool = True):
        kwargs: dict[str, Any] = {"future": True}
        self.sqlite = url.startswith("sqlite")
        if self.sqlite:
            # Writers wait for each other instead of failing with "database is locked".
            kwargs["connect_args"] = {"timeout": 30, "check_same_thread": False}
        else:
            # SQLAlchemy keeps 5 connections and closes every one past them after use: with 32
            # server threads under load each request then paid a new PostgreSQL connection.
            kwargs.update(pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW)
        self.engine: Engine = create_engine(url, **kwargs)
        # One-statement reads (a polled look-up) and writes (an append at a known version) on
        # PostgreSQL run without a transaction: the statement sees one snapshot and is atomic
        # all the same, and it saves the BEGIN and the ROLLBACK or COMMIT round trips, two
        # thirds of an unchanged poll's database time.
        self._one_statement: Engine = self.engine
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
        else:
            self._one_statement = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.feed: TableFeed | None = None
        if not self.sqlite and change_feed:
            self.feed = TableFeed(self._feed_connection)
        if migrate:
            self.migrate()

    def dispose(self) -> None:
        if self.feed is not None:
            self.feed.stop()
        self.engine.dispose()

    def _feed_connection(self):
        """A connection of its own (not the pool's) for :attr:`feed` to listen on."""
        cargs, cparams = self.engine.dialect.create_connect_args(self.engine.url)
        return self.engine.dialect.connect(*cargs, **{**cparams, "application_name": FEED_APPLICATION_NAME})

    def migrate(self) -> None:
        """Bring the schema up to date (Alembic ``upgrade head``), one process at a time."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self._locked_connection() as conn:
            if not self.sqlite:
                conn.execute(text("SELECT pg_advisory_xact_lock(7889)"))  # one migrating process
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def schema_revision(self) -> str | None:
        """The Alembic revision the database is at (``None`` for an empty database)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    @contextmanager
    def _locked_connection(self) -> Iterator[Connection]:
        """A transaction that holds the database's write lock on SQLite from its start."""
        with self.engine.connect() as conn:
            conn.execution_options(sqlite_immediate=True)
            with conn.begin():
                yield conn

    # -- tables ---------------------------------------------------------------------------------

    def create_table(self, game: str, players: list[str], options: dict[str, Any],
                     colours: list[str] | None = None) -> TableRecord:
        """A new table with a fresh token and short code (retried on the rare collision)."""
        for _ in range(20):
            token = secrets.token_urlsafe(TOKEN_BYTES)
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.engine.begin() as conn:
                    result = conn.execute(insert(game_tables).values(
                        token=token, code=code, game=game, players=players, options=options, version=0,
                        created_at=_now(), colours=list(colours or [])))
                    table_id = result.inserted_primary_key[0]
                return self.get(table_id)
            except IntegrityError:
                continue
        raise RuntimeError("could not allocate a unique table code")

    def get(self, table_id: int) -> TableRecord:
        with self.engine.connect() as conn:
            row = conn.execute(select(game_tables).where(game_tables.c.id == table_id)).one()
        return _record(row)

    def find(self, key: str, at_least: int | None = None) -> TableRecord | None:
        """The table whose token, or short code (case-insensitive), is ``key``. With a live
        change feed (:attr:`feed`) a table found before is known without a query, unless it is
        known at a version older than ``at_least`` (one the client has seen)."""
        if not _KEY_SHAPE.fullmatch(key):  # no table has it; and PostgreSQL refuses a NUL in text
            return None
        code = len(key) == CODE_LENGTH  # the API's clients poll by code (a token is 22 characters)
        feed, known_as = self.feed, key.upper() if code else key
        if feed is not None:
            feed.start()
            record = feed.look_up(known_as, at_least)
            if record is not None:
                return record
            epoch = feed.epoch()
        with self._one_statement.connect() as conn:
            row = conn.execute(_BY_CODE, {"key": known_as}).first() if code else None
            if row is None:
                known_as = key
                row = conn.execute(_BY_TOKEN, {"key": key}).first()
        if row is None:
            return None
        record = _record(row)
        if feed is not None:
            feed.keep(known_as, record, epoch)
        return record

    def newest(self, limit: int) -> list[TableRecord]:
        """The ``limit`` most recently started tables, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(game_tables).order_by(game_tables.c.created_at.desc(), game_tables.c.id.desc())
                                .limit(limit)).all()
        return [_record(row) for row in rows]

    def set_rematch(self, table_id: int, token: str) -> str:
        """Record that a rematch of table ``table_id`` started at ``token``, unless one already
        did; returns the rematch's token (the first one recorded)."""
        with self.engine.begin() as conn:
            conn.execute(update(game_tables).where(game_tables.c.id == table_id,
                                                   game_tables.c.rematch_token.is_(None))
                         .values(rematch_token=token))
            token = conn.execute(select(game_tables.c.rematch_token).where(game_tables.c.id == table_id)).scalar()
        if self.feed is not None:
            self.feed.changed(table_id)
        return token

    # -- logs -----------------------------------------------------------------------------------

    def events(self, table_id: int) -> list[EventRecord]:
        """The whole log in order, undone and corrected events included."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(table_events).where(table_events.c.table_id == table_id)
                                .order_by(table_events.c.seq)).all()
        return [_event(r) for r in rows]

    def snapshot(self, table_id: int) -> tuple[TableRecord, list[EventRecord]]:
        """The table and its whole log as of one moment (one repeatable-read transaction)."""
        with self.engine.connect() as conn:
            if not self.sqlite:
                conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                row = conn.execute(select(game_tables).where(game_tables.c.id == table_id)).one()
                rows = conn.execute(select(table_events).where(table_events.c.table_id == table_id)
                                    .order_by(table_events.c.seq)).all()
        return _record(row), [_event(r) for r in rows]

    def changes_since(self, table_id: int, version: int) -> tuple[TableRecord, list[EventRecord]]:
        """The table and the rows of its log that a write after ``version`` made or changed
        (appended, undone or corrected; rows written before versions were kept always come), in
        seq order, as of one moment (as :meth:`snapshot`): what a process that folded the log
        at ``version`` needs to catch up, without reading the whole log again."""
        with self.engine.connect() as conn:
            if not self.sqlite:
                conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                row = conn.execute(select(game_tables).where(game_tables.c.id == table_id)).one()
                rows = conn.execute(_changed_since(table_id, version)).all()
        return _record(row), [_event(r) for r in rows]

    @contextmanager
    def writing(self, table_id: int) -> Iterator[TableWriter]:
        """A write transaction on one table, holding its lock until it ends: committed when
        the block ends, rolled back (nothing written) if it raises."""
        with self._locked_connection() as conn:
            row = conn.execute(_LOCKED if self.sqlite else _LOCKED_FOR_UPDATE, {"table_key": table_id}).one()
            writer = TableWriter(conn, _record(row))
            yield writer
        if self.feed is not None and writer.record.version != row.version:  # committed
            self.feed.wrote(table_id, writer.record.version)

    # -- compare-and-set writes (for clients that hold a version) ---------------------------------

    def append(self, table_id: int, expected_version: int, payload: dict[str, Any],
               seq: int | None = None) -> EventRecord:
        """Append an event if the table is still at ``expected_version``, taking no lock: on
        PostgreSQL one statement (one round trip, its version check and its write atomic
        together), on SQLite one short write transaction. ``seq``: the row's seq, one past the
        last of the log at that version, where the caller holds that log; read here if not
        given. Returns the row written.

        Raises :class:`Conflict` if another change got there first (nothing written).
        """
        if seq is None:
            with self._one_statement.connect() as conn:
                seq = (conn.execute(select(table_events.c.seq).where(table_events.c.table_id == table_id)
                                    .order_by(table_events.c.seq.desc()).limit(1)).scalar() or 0) + 1
        row = EventRecord(seq, payload, "active", None, _now(), expected_version + 1)
        bump = {"table_key": table_id, "version_before": expected_version, "new_version": row.at_version}
        columns = {"table_id": table_id, "seq": seq, "payload": payload, "status": row.status, "corrects": None,
                   "created_at": row.created_at, "at_version": row.at_version}
        if self.sqlite:
            with self._locked_connection() as conn:
                if conn.execute(_BUMP_IF_AT, bump).rowcount != 1:
                    raise Conflict()
                conn.execute(_APPEND, columns)
        else:
            with self._one_statement.connect() as conn:
                rows = {f"row_{name}": value for name, value in columns.items() if name != "table_id"}
                if conn.execute(_APPEND_IF_AT, {**bump, **rows}).first() is None:  # the version moved on
                    raise Conflict()
        if self.feed is not None:
            self.feed.wrote(table_id, row.at_version)
        return row

    def set_status(self, table_id: int, expected_version: int, seq: int, status: str) -> int:
        """Mark event ``seq`` (e.g. ``undone``); returns the new version. Raises :class:`Conflict`."""
        with self._expecting(table_id, expected_version) as writer:
            return writer.set_status(seq, status)

    def correct(self, table_id: int, expected_version: int, seq: int, payload: dict[str, Any]) -> int:
        """Replace event ``seq`` by ``payload`` (see :meth:`TableWriter.correct`); returns the new
        version. Raises :class:`Conflict`."""
        with self._expecting(table_id, expected_version) as writer:
            return writer.correct(seq, payload).at_version

    @contextmanager
    def _expecting(self, table_id: int, expected_version: int) -> Iterator[TableWriter]:
        with self.writing(table_id) as writer:
            if writer.record.version != expected_version:
                raise Conflict()
            yield writer


def _sqlite_connect(dbapi_connection, _record) -> None:
    # SQLAlchemy issues BEGIN itself (see _sqlite_begin): the driver's own implicit BEGIN would
    # start every transaction deferred, and a writer could then lose its lock to another.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # WAL lets pages read while another phone writes; foreign keys for the cascade.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    immediate = conn.get_execution_options().get("sqlite_immediate")
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
