"""The change feed (companion.scorekeeping.store.table_feed): a table looked up once is known from
PostgreSQL's notices, so a poll asks the database nothing; and what is known is never older than
what the database said, than this process wrote, or than what the phone already shows.

The first half drives the feed's own thread on a stand-in connection (notices and failures on
demand); the second half runs on PostgreSQL: its triggers, two servers on one database, a feed
connection killed, and polls answered without a statement."""

from __future__ import annotations

import queue
import threading
import time
from contextlib import contextmanager
from datetime import UTC, datetime
from unittest import mock

import pytest
from sqlalchemy import delete, text

from companion import create_app
from companion.scorekeeping.store import table_feed
from companion.scorekeeping.store.storage import FEED_APPLICATION_NAME, TableRecord, TableStore, game_tables
from companion.scorekeeping.store.table_feed import TableFeed
from sent_sql import statements
from waiting import wait_for


def record(table_id: int = 7, version: int = 4, rematch: str | None = None) -> TableRecord:
    return TableRecord(table_id, f"token-{table_id}-abcdefghijklmn", f"C{table_id:05d}", "carpe_diem", ["Anna", "Bea"],
                       {}, version, datetime(2026, 11, 27, tzinfo=UTC), (), rematch)


class StandIn:
    """What the feed needs of a psycopg connection: notices the test puts, a failure on demand,
    and a hang (a connection that stops answering without closing)."""

    def __init__(self):
        self.notices: queue.Queue[str] = queue.Queue()
        self.broken = threading.Event()
        self.hung = threading.Event()
        self.sent: list[str] = []
        self.autocommit = False
        self.refuse_next = False  # the database refuses new connections while this one is broken

    def execute(self, sql: str) -> None:
        while self.hung.is_set():
            time.sleep(0.01)
        if self.broken.is_set():
            raise OSError("server closed the connection unexpectedly")
        self.sent.append(sql)

    def notifies(self, timeout: float):
        deadline = time.monotonic() + timeout
        while True:
            if self.broken.is_set():
                raise OSError("server closed the connection unexpectedly")
            try:
                payload = self.notices.get(timeout=max(0.0, min(0.02, deadline - time.monotonic())))
            except queue.Empty:
                if time.monotonic() >= deadline:
                    return
                continue
            yield mock.Mock(payload=payload)

    def close(self) -> None:
        pass


@pytest.fixture
def fast_heartbeat(monkeypatch):
    monkeypatch.setattr(table_feed, "HEARTBEAT_S", 0.05)
    monkeypatch.setattr(table_feed, "STALE_AFTER_S", 0.3)
    monkeypatch.setattr(table_feed, "RETRY_FIRST_S", 0.05)


@contextmanager
def listening(**bounds):
    """A started feed on stand-in connections (the list grows by one each time it connects)."""
    connections: list[StandIn] = []

    def connect() -> StandIn:
        if connections and connections[-1].broken.is_set() and connections[-1].refuse_next:
            raise OSError("connection refused")
        connections.append(StandIn())
        return connections[-1]

    feed = TableFeed(connect, **bounds)
    feed.start()
    wait_for(lambda: feed.live, "the feed to listen", 10)
    try:
        yield feed, connections
    finally:
        feed.stop()


def test_the_feed_listens_on_its_channel_and_keeps_notices_versions(fast_heartbeat):
    with listening() as (feed, connections):
        assert connections[0].autocommit and connections[0].sent[0] == f"LISTEN {table_feed.CHANNEL}"
        feed.keep("token-7-abcdefghijklmn", record(7, 4), feed.epoch())
        feed.keep("token-8-abcdefghijklmn", record(8, 1), feed.epoch())
        connections[0].notices.put("7 5")
        wait_for(lambda: feed.look_up("token-7-abcdefghijklmn").version == 5, "the notice")
        connections[0].notices.put("7 3")  # a late notice of an older version changes nothing
        connections[0].notices.put("8 2")
        wait_for(lambda: feed.look_up("token-8-abcdefghijklmn").version == 2, "the notice after it")
        assert feed.look_up("token-7-abcdefghijklmn").version == 5


def test_a_row_read_while_its_notice_came_is_kept_at_the_noticed_version(fast_heartbeat):
    """The read began before the write committed, the notice came before the read ended: the
    row is kept at the version noticed (versions only grow), never at the older one read."""
    with listening() as (feed, _):
        epoch = feed.epoch()
        feed.notice("7 5")
        feed.keep("token-7-abcdefghijklmn", record(7, 4), epoch)
        assert feed.look_up("token-7-abcdefghijklmn").version == 5
        feed.wrote(7, 6)  # this process's own write, before its notice comes back
        assert feed.look_up("token-7-abcdefghijklmn").version == 6
        feed.notice("7 6")
        assert feed.look_up("token-7-abcdefghijklmn").version == 6


def test_a_rematch_noticed_while_a_row_is_read_keeps_nothing_and_forgets_the_table(fast_heartbeat):
    with listening() as (feed, _):
        feed.keep("C00007", record(7, 4), feed.epoch())
        epoch = feed.epoch()
        feed.notice("7 -")  # the row changed otherwise than its version (a rematch recorded on it)
        assert feed.look_up("C00007") is None
        feed.keep("C00007", record(7, 4), epoch)  # read before the notice: its rematch may be missing
        assert feed.look_up("C00007") is None
        feed.keep("C00007", record(7, 4, rematch="x"), feed.epoch())
        assert feed.look_up("C00007").rematch_token == "x"
        feed.changed(7)  # this process recorded one
        assert feed.look_up("C00007") is None


def test_a_client_that_shows_a_later_version_than_the_one_known_is_sent_to_the_database(fast_heartbeat):
    with listening() as (feed, _):
        feed.keep("C00007", record(7, 4), feed.epoch())
        assert feed.look_up("C00007", at_least=4).version == 4
        assert feed.look_up("C00007", at_least=5) is None  # the notice of 5 is still on its way


@pytest.mark.parametrize("payload", ["*", "7", "x 5", "7 five", "", "7 ５"])
def test_a_truncate_or_a_notice_not_understood_forgets_everything(fast_heartbeat, payload):
    with listening() as (feed, _):
        feed.keep("C00007", record(7, 4), feed.epoch())
        epoch = feed.epoch()
        feed.notice(payload)
        assert feed.look_up("C00007") is None and feed.epoch() != epoch and feed.live


def test_what_the_feed_keeps_is_bounded(fast_heartbeat):
    with listening(records_kept=2, versions_kept=2) as (feed, _):
        for table_id in (1, 2, 3):
            feed.keep(f"C0000{table_id}", record(table_id, 1), feed.epoch())
        assert feed.look_up("C00001") is None and feed.look_up("C00002") and feed.look_up("C00003")
        feed.notice("1 2")  # a table no longer known: nothing to bring up to date
        feed.notice("2 2")
        assert feed.look_up("C00002").version == 2
        epoch = feed.epoch()
        feed.notice("3 2")  # past the versions kept: a row being read meanwhile may have missed one
        assert feed.epoch() != epoch and feed.look_up("C00003").version == 2


def test_a_lost_connection_forgets_everything_and_look_ups_ask_the_database_until_it_is_back(fast_heartbeat):
    with listening() as (feed, connections):
        feed.keep("C00007", record(7, 4), feed.epoch())
        connections[0].refuse_next = True
        connections[0].broken.set()
        wait_for(lambda: not feed.live, "the feed to be down", 10)
        assert feed.look_up("C00007") is None
        epoch = feed.epoch()
        feed.keep("C00007", record(7, 4), epoch)  # nothing is kept while it is down
        connections[0].refuse_next = False
        wait_for(lambda: feed.live and len(connections) == 2, "the feed back on a new connection", 10)
        assert feed.look_up("C00007") is None  # notices may have been missed meanwhile
        assert feed.epoch() != epoch


def test_a_connection_that_stops_answering_is_not_trusted(fast_heartbeat):
    with listening() as (feed, connections):
        feed.keep("C00007", record(7, 4), feed.epoch())
        connections[0].hung.set()  # its heartbeat never comes back
        wait_for(lambda: not feed.live, "the silent feed to be distrusted", 10)
        assert feed.look_up("C00007") is None
        connections[0].hung.clear()
        wait_for(lambda: feed.live, "the feed to answer again", 10)


def test_a_stopped_feed_knows_nothing_and_its_thread_ends(fast_heartbeat):
    with listening() as (feed, _):
        feed.keep("C00007", record(7, 4), feed.epoch())
        thread = feed._thread
    assert not feed.live and feed.look_up("C00007") is None
    thread.join(5)
    assert not thread.is_alive()


# -- on PostgreSQL ---------------------------------------------------------------------------------


@pytest.fixture
def postgres_url(database_url):
    """A fresh PostgreSQL database (SQLite has no change feed: one process serves it)."""
    return database_url


on_postgresql = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


def known(store: TableStore, key: str) -> TableRecord:
    """``key``'s row once ``store``'s feed is live and knows it (a look-up that sends nothing)."""
    store.find(key)  # the feed starts listening on a process's first look-up
    wait_for(lambda: store.feed.live, "the feed to listen", 30)

    def without_a_statement():
        store.find(key)
        with statements(store) as sent:
            found = store.find(key)
        return not sent and found

    return wait_for(without_a_statement, f"{key} to be known")


@on_postgresql
def test_postgresql_notifies_each_committed_change_of_a_tables_row(postgres_url):
    import psycopg

    store = TableStore(postgres_url, change_feed=False)
    made = store.create_table("carpe_diem", ["Anna", "Bea"], {})
    with psycopg.connect(postgres_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as listener:
        listener.execute(f"LISTEN {table_feed.CHANNEL}")

        def heard() -> list[str]:
            return [n.payload for n in listener.notifies(timeout=0.5)]

        store.append(made.id, 0, {"type": "adjust_victory_points", "seat": 0, "change": 1})
        assert heard() == [f"{made.id} 1"]
        with store.writing(made.id) as writer:
            writer.append({"type": "adjust_victory_points", "seat": 1, "change": 1})
        assert heard() == [f"{made.id} 2"]
        with pytest.raises(ZeroDivisionError), store.writing(made.id) as writer:
            writer.append({"type": "adjust_victory_points", "seat": 1, "change": 1})
            1 / 0  # rolled back: nothing committed, nothing said
        assert heard() == []
        store.set_rematch(made.id, "another-token")
        assert heard() == [f"{made.id} -"]
        with store.engine.begin() as conn:
            conn.execute(delete(game_tables).where(game_tables.c.id == made.id))
        assert heard() == [f"{made.id} -"]
        with store.engine.begin() as conn:
            conn.execute(text("TRUNCATE game_tables CASCADE"))
        assert heard() == ["*"]
    store.dispose()


@on_postgresql
def test_a_table_another_server_changed_is_known_from_the_notice_without_a_query(postgres_url):
    one, two = TableStore(postgres_url), TableStore(postgres_url)
    made = one.create_table("carpe_diem", ["Anna", "Bea"], {})
    assert known(two, made.token).version == 0 and known(two, made.code.lower()).version == 0
    one.append(made.id, 0, {"type": "adjust_victory_points", "seat": 0, "change": 1})
    with statements(two) as sent:
        wait_for(lambda: two.find(made.token).version == 1 and two.find(made.code).version == 1, "two to see 1")
    assert sent == []
    one.set_rematch(made.id, "rematch-token")
    assert wait_for(lambda: two.find(made.token).rematch_token, "two to see the rematch") == "rematch-token"
    one.dispose()
    two.dispose()


@on_postgresql
def test_a_killed_feed_connection_sends_look_ups_to_the_database_until_it_is_back(postgres_url):
    one, two = TableStore(postgres_url), TableStore(postgres_url)
    made = one.create_table("carpe_diem", ["Anna", "Bea"], {})
    known(two, made.token)
    with one.engine.connect() as conn:
        killed = conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   "WHERE application_name = :name AND datname = current_database()"),
                              {"name": FEED_APPLICATION_NAME}).all()
    assert len(killed) == 1  # two's feed (one's has not started: it looked nothing up)
    wait_for(lambda: not two.feed.live, "two's feed to notice", 30)
    one.append(made.id, 0, {"type": "adjust_victory_points", "seat": 0, "change": 1})
    with statements(two) as sent:
        assert two.find(made.token).version == 1  # from the database: no notice can come
    assert sent
    assert known(two, made.token).version == 1  # back, and it knows the table again
    one.append(made.id, 1, {"type": "adjust_victory_points", "seat": 0, "change": 1})
    wait_for(lambda: two.find(made.token).version == 2, "two to see 2 from the notice")
    one.dispose()
    two.dispose()


@on_postgresql
def test_polls_of_a_known_table_ask_the_database_nothing_and_an_entry_is_one_statement(postgres_url):
    app = create_app({"TESTING": True, "DATABASE_URL": postgres_url, "WTF_CSRF_ENABLED": False})
    store = app.extensions["companion.scorekeeping.tables"].store
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "Bea"]}).get_json()
    code, token = table["code"], table["token"]
    known(store, code.upper())
    known(store, token)
    client.get(f"/api/tables/{code}")  # a client's first look-up by code checks its misses (a query)
    entry = {"type": "adjust_victory_points", "seat": 0, "change": 1, "note": "first"}
    with statements(store) as sent:
        assert client.get(f"/api/tables/{code}", headers={"If-None-Match": '"0"'}).status_code == 304
        assert client.get(f"/t/{token}/live?v=0", headers={"HX-Request": "true"}).status_code == 204
        posted = client.post(f"/api/tables/{code}/events", json=entry, headers={"If-Match": '"0"'})
        assert posted.status_code == 200 and posted.get_json()["version"] == 1
        live = client.get(f"/t/{token}/live?v=0", headers={"HX-Request": "true"})
        assert live.status_code == 200 and 'data-version="1"' in live.get_data(as_text=True)
        assert client.get(f"/api/tables/{code}", headers={"If-None-Match": '"1"'}).status_code == 304
    assert len(sent) == 1 and sent[0].startswith("WITH bumped AS (UPDATE game_tables")
    store.dispose()


@on_postgresql
def test_a_phone_showing_a_version_whose_notice_is_late_gets_the_table_from_the_database(postgres_url):
    """Another server wrote version 1 and its phone shows it, but this server has not heard yet
    (the notice is held back here): a poll or an entry saying version 1 reads the table from
    the database, so no phone is ever shown an older table than it already had."""
    app = create_app({"TESTING": True, "DATABASE_URL": postgres_url, "WTF_CSRF_ENABLED": False})
    store = app.extensions["companion.scorekeeping.tables"].store
    other = TableStore(postgres_url, change_feed=False)
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "Bea"]}).get_json()
    code, token = table["code"], table["token"]
    known(store, code.upper())
    known(store, token)
    entry = {"type": "adjust_victory_points", "seat": 0, "change": 1, "note": "through the other server"}
    table_id = store.find(token).id
    with mock.patch.object(store.feed, "notice"):  # the notice is late
        other.append(table_id, 0, entry)
        assert store.find(token).version == 0  # what this server knows, until the notice comes
        assert client.get(f"/api/tables/{code}", headers={"If-None-Match": '"1"'}).status_code == 304
        assert client.get(f"/t/{token}/live?v=1", headers={"HX-Request": "true"}).status_code == 204
        # Those reads of the database brought what this server knows up to version 1.
        assert client.get(f"/api/tables/{code}").headers["ETag"] == '"1"'
        posted = client.post(f"/api/tables/{code}/events", headers={"If-Match": '"1"'},
                             json={**entry, "note": "after it"})
        assert posted.status_code == 200 and posted.get_json()["version"] == 2
    wait_for(lambda: store.find(token).version == 2, "the table known at 2")
    other.dispose()
    store.dispose()


@on_postgresql
def test_a_store_without_the_feed_asks_the_database_every_time(postgres_url):
    store = TableStore(postgres_url, change_feed=False)
    made = store.create_table("carpe_diem", ["Anna", "Bea"], {})
    assert store.feed is None
    for _ in range(2):
        with statements(store) as sent:
            assert store.find(made.token).id == made.id
        assert sent
    store.dispose()


@on_postgresql
def test_the_record_a_feed_keeps_is_the_one_the_database_holds(postgres_url):
    store = TableStore(postgres_url)
    made = store.create_table("carpe_diem", ["Anna", "Bea"], {})
    assert known(store, made.token) == made
    store.dispose()


@on_postgresql
@pytest.mark.parametrize(("setting", "config", "listens"), [
    (None, None, True), ("off", None, False), ("OFF", None, False), ("0", None, False), ("no", None, False),
    ("on", None, True), (None, False, False), ("off", True, True)])
def test_an_operator_turns_the_feed_off_where_the_database_cannot_listen(postgres_url, monkeypatch, setting, config,
                                                                           listens):
    """``COMPANION_TABLE_CHANGE_FEED=off`` (behind PgBouncer in transaction mode), or the app's
    ``TABLE_CHANGE_FEED`` config, which wins: every look-up then asks the database."""
    if setting is None:
        monkeypatch.delenv("COMPANION_TABLE_CHANGE_FEED", raising=False)
    else:
        monkeypatch.setenv("COMPANION_TABLE_CHANGE_FEED", setting)
    app = create_app({"TESTING": True, "DATABASE_URL": postgres_url,
                      **({} if config is None else {"TABLE_CHANGE_FEED": config})})
    store = app.extensions["companion.scorekeeping.tables"].store
    client = app.test_client()
    token = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "Bea"]}).get_json()["token"]
    if listens:
        known(store, token)
    else:
        assert store.feed is None
        for _ in range(2):
            with statements(store) as sent:
                assert client.get(f"/api/tables/{token}", headers={"If-None-Match": '"0"'}).status_code == 304
            assert sent
    store.dispose()
