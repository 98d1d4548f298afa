"""The SQL a table store sends, for tests that count its round trips to the database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event

from companion.scorekeeping.store.storage import TableStore


@contextmanager
def statements(store: TableStore) -> Iterator[list[str]]:
    """The SQL statements ``store`` sends (through its pool) while the block runs, each on one
    line, in order."""
    sent: list[str] = []

    def note(conn, cursor, statement, *_args) -> None:
        sent.append(" ".join(statement.split()))

    event.listen(store.engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", note)
