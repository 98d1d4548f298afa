"""The event-log storage on a real database (SQLite, and PostgreSQL in CI): compare-and-set
versions, nothing lost or overwritten by concurrent writers, and nothing lost on restart."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import inspect

from companion.scorekeeping.store.storage import CODE_ALPHABET, CODE_LENGTH, Conflict, TableStore


@pytest.fixture
def store(database_url):
    s = TableStore(database_url)
    yield s
    s.dispose()


def test_tables_have_an_unguessable_token_and_a_short_code(store):
    record = store.create_table("carpe_cras", ["Blue", "Red"], {"full_city_agency": "bottom_of_deck"})
    assert len(record.token) >= 20
    assert len(record.code) == CODE_LENGTH and set(record.code) <= set(CODE_ALPHABET)
    assert store.find(record.token) == record
    assert store.find(record.code.lower()) == record
    assert store.find("NOPE42") is None
    other = store.create_table("carpe_cras", ["A", "B"], {})
    assert {other.token, other.code}.isdisjoint({record.token, record.code})


def test_append_is_compare_and_set(store):
    t = store.create_table("cartisora", ["A", "B"], {})
    assert store.append(t.id, 0, {"type": "x", "n": 1}).at_version == 1
    assert store.append(t.id, 1, {"type": "x", "n": 2}).at_version == 2
    with pytest.raises(Conflict):
        store.append(t.id, 1, {"type": "x", "n": 3})  # someone else already moved it to 2
    assert [e.payload["n"] for e in store.events(t.id)] == [1, 2]
    assert store.find(t.token).version == 2


def test_racing_writers_never_overwrite_each_other(store):
    """Many threads append against the same version: exactly one wins each round, and every
    event that was accepted is in the log exactly once."""
    t = store.create_table("cahrd", ["A", "B"], {})
    accepted: list[int] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        for _ in range(50):
            version = store.find(t.token).version
            try:
                store.append(t.id, version, {"type": "x", "n": n})
            except Conflict:
                continue
            with lock:
                accepted.append(n)
            return

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    events = store.events(t.id)
    assert sorted(e.payload["n"] for e in events) == sorted(accepted) == list(range(8))
    assert [e.seq for e in events] == list(range(1, 9))
    assert store.find(t.token).version == 8


def test_undo_and_correct_keep_the_history(store):
    t = store.create_table("carpe_diem", ["A", "B"], {})
    store.append(t.id, 0, {"type": "x", "n": 1})
    store.append(t.id, 1, {"type": "x", "n": 2})
    assert store.set_status(t.id, 2, 2, "undone") == 3
    assert store.correct(t.id, 3, 1, {"type": "x", "n": 10}) == 4
    events = store.events(t.id)
    assert [(e.seq, e.payload["n"], e.status, e.corrects) for e in events] == [
        (1, 1, "corrected", None), (2, 2, "undone", None), (3, 10, "active", 1)]


def test_restart_keeps_everything_and_never_drops_tables(database_url):
    first = TableStore(database_url)
    t = first.create_table("cartisora", ["A", "B"], {"edition": "2017"})
    first.append(t.id, 0, {"type": "x", "n": 1})
    first.dispose()

    again = TableStore(database_url)  # schema creation runs again on start
    assert again.find(t.code).options == {"edition": "2017"}
    assert [e.payload for e in again.events(t.id)] == [{"type": "x", "n": 1}]
    assert {"game_tables", "table_events"} <= set(inspect(again.engine).get_table_names())
    again.dispose()


def test_a_database_of_the_schema_before_migrations_is_migrated_and_kept(tmp_path):
    """A database the companion created before it used Alembic (its two tables, no
    alembic_version) gains the new columns on start; every table and entry is kept."""
    from sqlalchemy import create_engine, text

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    old = create_engine(url)
    with old.begin() as conn:
        conn.execute(text("CREATE TABLE game_tables (id INTEGER PRIMARY KEY, token VARCHAR(32) NOT NULL UNIQUE, "
                          "code VARCHAR(8) NOT NULL UNIQUE, game VARCHAR(32) NOT NULL, players JSON NOT NULL, "
                          "options JSON NOT NULL, version INTEGER NOT NULL, created_at DATETIME NOT NULL)"))
        conn.execute(text("CREATE TABLE table_events (id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL "
                          "REFERENCES game_tables(id) ON DELETE CASCADE, seq INTEGER NOT NULL, payload JSON NOT NULL, "
                          "status VARCHAR(12) NOT NULL, corrects INTEGER, created_at DATETIME NOT NULL, "
                          "CONSTRAINT uq_event_seq UNIQUE (table_id, seq))"))
        conn.execute(text("INSERT INTO game_tables VALUES (1, 'tok', 'ABCDEF', 'carpe_diem', '[\"A\", \"B\"]', "
                          "'{}', 1, '2026-11-01 10:00:00')"))
        conn.execute(text("INSERT INTO table_events VALUES (1, 1, 1, '{\"type\": \"round_played\"}', 'active', "
                          "NULL, '2026-11-01 10:01:00')"))
    old.dispose()
    store = TableStore(url)
    record = store.find("ABCDEF")
    assert (record.players, record.version, record.colours, record.rematch_token) == (["A", "B"], 1, (), None)
    assert [(e.seq, e.payload, e.at_version) for e in store.events(record.id)] == [
        (1, {"type": "round_played"}, None)]
    assert "alembic_version" in inspect(store.engine).get_table_names()
    with store.writing(record.id) as writer:
        assert writer.append({"type": "phase_ended"}).at_version == 2
    TableStore(url).dispose()  # a second start finds nothing to migrate
    store.dispose()
