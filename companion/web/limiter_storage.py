"""A ``limits`` storage backend in the companion's own database (SQLAlchemy: SQLite or PostgreSQL).

Flask-Limiter keeps its counts in a ``limits`` storage. Its in-memory one is per process, so with
several worker processes a guesser would get one allowance per worker, and ``limits`` has no SQL
storage; Redis or memcached would be a second server to run beside the one database the
companion already needs. This backend keeps the counts in that database instead, so every
process and thread that serves the same tables shares them, and they survive a restart.

It registers the URL scheme ``companion-sql://``; the database comes from the storage options:
``engine`` (an SQLAlchemy :class:`~sqlalchemy.engine.Engine` to share) or ``url`` (an SQLAlchemy
URL). It supports the fixed-window and moving-window strategies. Every row has an expiry; each
write deletes the rows that have expired, whoever they belonged to, so clients that stopped
coming are forgotten.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from limits.storage import MovingWindowSupport, Storage
from sqlalchemy import (
    Column,
    Double,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    delete,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

SCHEME = "companion-sql"
KEY_LENGTH = 255

metadata = MetaData()

counters = Table(
    "ratelimit_counters", metadata,
    Column("key", String(KEY_LENGTH), primary_key=True),
    Column("count", Integer, nullable=False),
    Column("expires_at", Double, nullable=False, index=True),
)
"""Fixed-window counts: one row per key, gone at ``expires_at`` (seconds since the epoch)."""

entries = Table(
    "ratelimit_entries", metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(KEY_LENGTH), nullable=False),
    Column("at", Double, nullable=False),
    Column("expires_at", Double, nullable=False, index=True),
    Index("ix_ratelimit_entries_key_at", "key", "at"),
)
"""Moving-window hits: one row per hit, at time ``at``, gone at ``expires_at``."""


# Built once: every look-up by code runs it (SQLAlchemy caches its SQL).
_RECENT_COUNT = (select(func.count()).select_from(entries)
                 .where(entries.c.key == bindparam("key"), entries.c.at > bindparam("since")))


def _key(key: str) -> str:
    """``key`` as stored: a key too long for the column is stored as its SHA-256."""
    return key if len(key) <= KEY_LENGTH else "sha256:" + hashlib.sha256(key.encode()).hexdigest()


class SqlStorage(Storage, MovingWindowSupport):
    """Rate-limit counts in an SQL database, shared by every process that uses it.

    ``companion-sql://`` with the option ``engine`` (an SQLAlchemy Engine) or ``url`` (an
    SQLAlchemy URL); raises :class:`limits.errors.ConfigurationError` with neither. The tables
    (``ratelimit_counters``, ``ratelimit_entries``) are created if missing. Times are wall-clock
    seconds (``clock``, default :func:`time.time`): processes compare them with each other.

    Two processes racing on one key may each let one hit through that the other would have
    counted; a guesser gains a hit or two, never a steady allowance.
    """

    STORAGE_SCHEME = [SCHEME]
    RETRIES = 5

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, *, engine: Engine | None = None,
                 url: str | None = None, clock: Callable[[], float] = time.time, **options: Any):
        from limits.errors import ConfigurationError

        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        if engine is None:
            if not url:
                raise ConfigurationError(f"{SCHEME}:// needs the storage option 'engine' or 'url'")
            engine = create_engine(url)
        self.engine = engine
        # The look-up check's reads run without a transaction on PostgreSQL (each statement sees
        # its own snapshot, as under READ COMMITTED): no BEGIN and ROLLBACK round trips.
        self._reads = (engine.execution_options(isolation_level="AUTOCOMMIT")
                      if engine.dialect.name == "postgresql" else engine)
        self.clock = clock
        metadata.create_all(engine, checkfirst=True)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    # -- forgetting ----------------------------------------------------------------------------

    def forget_expired(self, conn=None) -> int:
        """Delete every expired row (every key's); returns how many went."""
        if conn is None:
            with self.engine.begin() as conn:
                return self.forget_expired(conn)
        now = self.clock()
        gone = conn.execute(delete(counters).where(counters.c.expires_at <= now)).rowcount
        gone += conn.execute(delete(entries).where(entries.c.expires_at <= now)).rowcount
        return gone

    # -- fixed window --------------------------------------------------------------------------

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add ``amount`` to ``key``'s count, starting a window of ``expiry`` seconds if it has
        none; returns the new count."""
        key = _key(key)
        for _ in range(self.RETRIES):
            try:
                with self.engine.begin() as conn:
                    self.forget_expired(conn)
                    changed = conn.execute(update(counters).where(counters.c.key == key)
                                           .values(count=counters.c.count + amount)).rowcount
                    if not changed:
                        conn.execute(insert(counters).values(key=key, count=amount,
                                                             expires_at=self.clock() + expiry))
                    return conn.execute(select(counters.c.count).where(counters.c.key == key)).scalar_one()
            except IntegrityError:
                continue  # another process created the row first: add to it
        raise RuntimeError(f"could not count a hit for {key!r}")

    def get(self, key: str) -> int:
        """The count of ``key`` in its current window (0 without one)."""
        with self.engine.connect() as conn:
            count = conn.execute(select(counters.c.count).where(
                counters.c.key == _key(key), counters.c.expires_at > self.clock())).scalar()
        return count or 0

    def get_expiry(self, key: str) -> float:
        """When ``key``'s window ends (seconds since the epoch; now without one)."""
        now = self.clock()
        with self.engine.connect() as conn:
            expires = conn.execute(select(counters.c.expires_at).where(
                counters.c.key == _key(key), counters.c.expires_at > now)).scalar()
        return expires if expires is not None else now

    # -- moving window -------------------------------------------------------------------------

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        """Record ``amount`` hits on ``key`` if that keeps it within ``limit`` hits in the last
        ``expiry`` seconds; returns whether they were recorded."""
        if amount > limit:
            return False
        key = _key(key)
        with self.engine.begin() as conn:
            self.forget_expired(conn)
            now = self.clock()
            count = conn.execute(select(func.count()).select_from(entries).where(
                entries.c.key == key, entries.c.at > now - expiry)).scalar_one()
            if count + amount > limit:
                return False
            conn.execute(insert(entries), [{"key": key, "at": now, "expires_at": now + expiry}] * amount)
        return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """``(start, count)``: the hits on ``key`` in the last ``expiry`` seconds, and the time of
        the one whose leaving the window brings the count below ``limit`` (the oldest, while
        under it): the window frees up at ``start + expiry``."""
        key = _key(key)
        now = self.clock()
        with self._reads.connect() as conn:
            count = conn.execute(_RECENT_COUNT, {"key": key, "since": now - expiry}).scalar_one()
            if not count:
                return now, 0
            recent = (entries.c.key == key, entries.c.at > now - expiry)
            if count >= limit:
                start = conn.execute(select(entries.c.at).where(*recent).order_by(entries.c.at.desc())
                                     .limit(1).offset(max(limit, 1) - 1)).scalar_one()
            else:
                start = conn.execute(select(func.min(entries.c.at)).where(*recent)).scalar_one()
        return start, count

    # -- housekeeping --------------------------------------------------------------------------

    def check(self) -> bool:
        """Whether the database answers."""
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            return True
        except SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        """Forget every count; returns how many rows went."""
        with self.engine.begin() as conn:
            return (conn.execute(delete(counters)).rowcount or 0) + (conn.execute(delete(entries)).rowcount or 0)

    def clear(self, key: str) -> None:
        """Forget ``key``'s counts."""
        key = _key(key)
        with self.engine.begin() as conn:
            conn.execute(delete(counters).where(counters.c.key == key))
            conn.execute(delete(entries).where(entries.c.key == key))
