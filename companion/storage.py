"""The tables' event logs in a real database, through SQLAlchemy (SQLite or PostgreSQL).

Persistence only: this module knows nothing of the rules. A table row holds the game,
players, options and a ``version`` that every change bumps with a compare-and-set, so two
phones acting at once can never overwrite each other's event: the loser of the race sees
:class:`Conflict` and the service retries on the fresh log (or refuses, if the client said
which version it saw).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
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
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

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
    UniqueConstraint("table_id", "seq", name="uq_event_seq"),
)

# Short codes are read aloud and typed on phones: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
TOKEN_BYTES = 16  # 128 bits: unguessable


class Conflict(Exception):
    """The table changed since the version the change was based on."""


@dataclass(frozen=True)
class TableRecord:
    """A table's row: ``token`` (the unguessable link part), ``code`` (the short join code)."""

    id: int
    token: str
    code: str
    game: str
    players: list[str]
    options: dict[str, Any]
    version: int
    created_at: datetime


@dataclass(frozen=True)
class EventRecord:
    """One logged event: ``seq`` (1-based order), the event ``payload`` (JSON dict) and its
    ``status`` (``active``, ``undone`` or ``corrected``); ``corrects`` is the seq it replaced."""

    seq: int
    payload: dict[str, Any]
    status: str
    corrects: int | None
    created_at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def _record(row) -> TableRecord:
    return TableRecord(row.id, row.token, row.code, row.game, list(row.players), dict(row.options), row.version,
                       row.created_at)


class TableStore:
    """Tables and their event logs in the database at ``url`` (any SQLAlchemy URL).

    The schema is created on first use; existing tables are never dropped or altered.
    Raises SQLAlchemy errors for an unreachable database.
    """

    def __init__(self, url: str):
        kwargs: dict[str, Any] = {"future": True}
        if url.startswith("sqlite"):
            # Writers wait for each other instead of failing with "database is locked".
            kwargs["connect_args"] = {"timeout": 30, "check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine, checkfirst=True)

    def dispose(self) -> None:
        self.engine.dispose()

    def create_table(self, game: str, players: list[str], options: dict[str, Any]) -> TableRecord:
        """A new table with a fresh token and short code (retried on the rare collision)."""
        for _ in range(20):
            token = secrets.token_urlsafe(TOKEN_BYTES)
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.engine.begin() as conn:
                    result = conn.execute(insert(game_tables).values(
                        token=token, code=code, game=game, players=players, options=options, version=0,
                        created_at=_now()))
                    table_id = result.inserted_primary_key[0]
                return self.get(table_id)
            except IntegrityError:
                continue
        raise RuntimeError("could not allocate a unique table code")

    def get(self, table_id: int) -> TableRecord:
        with self.engine.connect() as conn:
            row = conn.execute(select(game_tables).where(game_tables.c.id == table_id)).one()
        return _record(row)

    def find(self, key: str) -> TableRecord | None:
        """The table whose token, or short code (case-insensitive), is ``key``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(game_tables).where(game_tables.c.token == key)).first()
            if row is None and len(key) == CODE_LENGTH:
                row = conn.execute(select(game_tables).where(game_tables.c.code == key.upper())).first()
        return _record(row) if row is not None else None

    def events(self, table_id: int) -> list[EventRecord]:
        """The whole log in order, undone and corrected events included."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(table_events).where(table_events.c.table_id == table_id)
                                .order_by(table_events.c.seq)).all()
        return [EventRecord(r.seq, dict(r.payload), r.status, r.corrects, r.created_at) for r in rows]

    def _bump(self, conn, table_id: int, expected_version: int) -> int:
        result = conn.execute(update(game_tables)
                              .where(game_tables.c.id == table_id, game_tables.c.version == expected_version)
                              .values(version=expected_version + 1))
        if result.rowcount != 1:
            raise Conflict()
        return expected_version + 1

    def _next_seq(self, conn, table_id: int) -> int:
        last = conn.execute(select(table_events.c.seq).where(table_events.c.table_id == table_id)
                            .order_by(table_events.c.seq.desc()).limit(1)).scalar()
        return (last or 0) + 1

    def append(self, table_id: int, expected_version: int, payload: dict[str, Any]) -> int:
        """Append an event if the table is still at ``expected_version``; returns the new version.

        Raises :class:`Conflict` if another change got there first.
        """
        return self.append_event(table_id, expected_version, payload)[0]

    def append_event(self, table_id: int, expected_version: int,
                     payload: dict[str, Any]) -> tuple[int, EventRecord]:
        """:meth:`append`, returning the new version and the row written."""
        created = _now()
        try:
            with self.engine.begin() as conn:
                version = self._bump(conn, table_id, expected_version)
                seq = self._next_seq(conn, table_id)
                conn.execute(insert(table_events).values(table_id=table_id, seq=seq, payload=payload,
                                                         status="active", created_at=created))
            return version, EventRecord(seq, payload, "active", None, created)
        except IntegrityError:
            raise Conflict() from None

    def set_status(self, table_id: int, expected_version: int, seq: int, status: str) -> int:
        """Mark event ``seq`` (e.g. ``undone``); returns the new version. Raises :class:`Conflict`."""
        with self.engine.begin() as conn:
            version = self._bump(conn, table_id, expected_version)
            conn.execute(update(table_events).where(table_events.c.table_id == table_id, table_events.c.seq == seq)
                         .values(status=status))
        return version

    def correct(self, table_id: int, expected_version: int, seq: int, payload: dict[str, Any]) -> int:
        """Replace event ``seq`` by ``payload``: the old row is kept as ``corrected`` for the
        history and the new one takes its place in the order. Returns the new version."""
        try:
            with self.engine.begin() as conn:
                version = self._bump(conn, table_id, expected_version)
                conn.execute(update(table_events).where(table_events.c.table_id == table_id,
                                                        table_events.c.seq == seq).values(status="corrected"))
                conn.execute(insert(table_events).values(table_id=table_id, seq=self._next_seq(conn, table_id),
                                                         payload=payload, status="active", corrects=seq,
                                                         created_at=_now()))
            return version
        except IntegrityError:
            raise Conflict() from None


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets pages read while another phone writes; foreign keys for the cascade.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
