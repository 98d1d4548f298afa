"""What keeps the companion fast, proved by behaviour (the timings are in
``benchmarks/bench_companion.py``): an append applies one event whatever the log's length; a
cache of folded state is never used once another server changed the table; undo and
corrections replayed from a snapshot give the state a full replay gives; a poll of an
unchanged table is answered without folding or rendering anything."""

from __future__ import annotations

import functools
import importlib
import re
from contextlib import contextmanager
from unittest import mock

import pytest
from bs4 import BeautifulSoup
from flask import template_rendered
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from card_data.engine import Engine, RuleError
from card_data.loader import load_database
from card_data.problems import InvalidInput
from companion import create_app
from companion.scorekeeping import tables as tables_module
from companion.scorekeeping.store.storage import TableStore, game_tables, table_events
from companion.scorekeeping.pages.table_pages import HISTORY_SHOWN
from companion.scorekeeping.table_view import play_order
from companion.scorekeeping.tables import StaleVersion, TableService
from sent_sql import statements
from waiting import wait_for

CARPE_CRAS = importlib.import_module("scenarios_carpe_cras")


def vp(seat: int, n: int) -> dict:
    """A Carpe Diem entry legal at any time: ``seat`` gains a victory point."""
    return {"type": "adjust_victory_points", "seat": seat, "change": 1, "note": f"entry {n}"}


@functools.cache
def bundled_cards():
    return load_database()


@pytest.fixture
def card_db():
    return bundled_cards()


@contextmanager
def counting_steps():
    """Count every event the engines apply (``Engine.step`` is the one way an event is applied)."""
    calls = []
    real = Engine.step

    def step(self, state, event):
        calls.append(event)
        return real(self, state, event)

    with mock.patch.object(Engine, "step", step):
        yield calls


def full_replay(service: TableService, token: str):
    """The table's state folded from event 0 from what is stored, by hand (no cache, no checkpoint)."""
    record = service.find(token)
    engine = service.engines[record.game]
    state = engine.new_state(record.players, engine.stored_options(record.options), service.db.games[record.game])
    for row in play_order(service.store.events(record.id)):
        state = engine.apply(state, row.payload)
    return state


# -- the append path ------------------------------------------------------------------------------


def test_an_append_applies_one_event_at_event_0_and_at_event_500(database_url, card_db):
    service = TableService(TableStore(database_url), card_db)
    token = service.create("carpe_diem", ["Anna", "Bea"]).record.token
    with counting_steps() as calls:
        service.act(token, vp(0, 0))
    assert len(calls) == 1
    for n in range(1, 500):
        service.act(token, vp(n % 2, n))
    with counting_steps() as calls:
        view = service.act(token, vp(1, 500))
        service.view(token)  # what the page shows next: the fold just stored
    assert len(calls) == 1
    assert view.state == full_replay(service, token)
    service.store.dispose()


def test_posts_through_the_api_and_the_page_apply_one_event_each(tmp_path):
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite'}"})
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "Bea"]}).get_json()
    for n in range(300):
        assert client.post(f"/api/tables/{table['code']}/events", json=vp(n % 2, n)).status_code == 200
    with counting_steps() as calls:
        assert client.post(f"/api/tables/{table['code']}/events", json=vp(0, 300)).status_code == 200
    assert len(calls) == 1
    with counting_steps() as calls:
        answer = client.post(f"/t/{table['token']}/events", data={**vp(1, 301), "_version": "301"},
                             headers={"HX-Request": "true"})
        assert answer.status_code == 200
    assert len(calls) == 1
    # The live part lists the newest entries only, so that what a post renders does not grow
    # with the log; the whole history is its own page.
    live = BeautifulSoup(answer.data, "html.parser")
    assert len(live.select("#history li")) == HISTORY_SHOWN
    assert live.select_one("#history li")["data-seq"] == "302"
    assert live.select_one("#older-history summary").text == "Older entries (297)"
    full = BeautifulSoup(client.get(live.select_one("#full-history")["href"]).data, "html.parser")
    assert len(full.select("#history li")) == 302
    assert "(302 entries" in full.select_one("#history-h").text
    app.extensions["companion.scorekeeping.tables"].store.dispose()


# -- two servers on one database ----------------------------------------------------------------------


def test_a_cached_fold_is_never_used_once_another_server_changed_the_table(database_url, card_db):
    one = TableService(TableStore(database_url), card_db)
    two = TableService(TableStore(database_url), card_db)
    created = one.create("carpe_diem", ["Anna", "Bea"])
    token, start_vp = created.record.token, created.state.sheets[1].vp
    for n in range(70):
        one.act(token, vp(0, n))
    assert two.view(token).record.version == 70  # two folds and caches version 70
    one.act(token, vp(1, 70))
    one.undo(token)
    one.act(token, vp(1, 71))
    one.correct(token, 3, vp(1, 72))
    # two's cache says version 70: it reads the rows since once PostgreSQL's notice of the
    # change has come (a millisecond; at once on SQLite, which has no feed).
    seen = wait_for(lambda: (view := two.view(token)).record.version == 74 and view, "two to see version 74")
    assert seen.state.sheets[1].vp == start_vp + 2
    assert two.act(token, vp(0, 73)).state == full_replay(one, token)
    assert one.undo(token).state == full_replay(two, token)  # one's cache is behind two's append
    assert two.undo(token).state == full_replay(one, token)
    with pytest.raises(StaleVersion):
        two.act(token, vp(0, 74), expected_version=74)
    wait_for(lambda: one.view(token).record.version == two.view(token).record.version == 77, "both at 77")
    assert one.view(token).state == two.view(token).state == full_replay(one, token)
    one.store.dispose()
    two.store.dispose()


def test_an_entry_on_the_fold_this_server_holds_is_written_without_the_tables_lock(database_url, card_db):
    """A server holding the table as just read checks the entry against it and writes it where
    the table is still at that version: no lock taken, no log read; on PostgreSQL the version's
    check, its bump and the row in one statement. The entry, its version and the state are
    those of a full replay."""
    service = TableService(TableStore(database_url), card_db)
    token = service.create("carpe_diem", ["Anna", "Bea"]).record.token
    service.act(token, vp(0, 0))
    with statements(service.store) as sent:
        view = service.act(token, vp(1, 1))
    assert view.record.version == 2 and view.last_line().seq == 2 and view.state == full_replay(service, token)
    assert not [s for s in sent if "FOR UPDATE" in s or s.startswith("SELECT table_events")]
    writes = [s for s in sent if s.startswith(("WITH", "UPDATE", "INSERT"))]
    if service.store.sqlite:
        assert [w.split()[0] for w in writes] == ["UPDATE", "INSERT"] and "version = ?" in writes[0]
    else:
        assert len(writes) == 1 and writes[0].startswith("WITH bumped AS (UPDATE game_tables")
        assert len(sent) == 2  # the look-up and the write: no BEGIN, no COMMIT
    assert service.store.find(token).version == 2
    service.store.dispose()


def test_an_entry_on_a_fold_another_server_moved_past_is_checked_again_under_the_lock(database_url, card_db):
    """Server one checks an entry against the table as it read it, but server two wrote in the
    meantime: one's write finds the version moved on, writes nothing, then checks the entry
    again holding the table's lock, on the log with two's entry, and appends it after that."""
    one = TableService(TableStore(database_url), card_db)
    two = TableService(TableStore(database_url), card_db)
    token = one.create("carpe_diem", ["Anna", "Bea"]).record.token
    one.act(token, vp(0, 0))
    record = one.find(token)  # one holds version 1
    two.act(token, vp(1, 1))  # the table moves to 2 behind one's back
    with statements(one.store) as sent:
        view = one.act(record, vp(0, 2), by=0)
    assert [line.payload["note"] for line in view.history] == ["entry 0", "entry 1", "entry 2"]
    assert view.record.version == 3 and view.state == full_replay(two, token) == two.view(token).state
    assert any(s.startswith(("WITH bumped", "UPDATE game_tables")) for s in sent)  # the write that found 2
    assert any("FOR UPDATE" in s for s in sent) or one.store.sqlite  # then the lock (SQLite: BEGIN IMMEDIATE)
    assert [e.at_version for e in one.store.events(record.id)] == [1, 2, 3]
    one.store.dispose()
    two.store.dispose()


def test_another_servers_entries_are_caught_up_one_step_each_without_reading_the_whole_log(database_url, card_db):
    """A server whose fold is behind reads only the rows written or changed since (not the whole
    log, which grows all game) and applies only the new entries; after another server's undo or
    correction it folds again from its checkpoint: the same state as a full replay each time."""
    one = TableService(TableStore(database_url), card_db)
    two = TableService(TableStore(database_url), card_db)
    token = one.create("carpe_diem", ["Anna", "Bea"]).record.token
    for n in range(120):
        one.act(token, vp(n % 2, n))
    assert two.view(token).record.version == 120  # two folds the whole log once
    read: list[int] = []
    real = TableStore.changes_since

    def changes_since(store, table_id, version):
        record, rows = real(store, table_id, version)
        read.append(len(rows))
        return record, rows

    with mock.patch.object(TableStore, "changes_since", changes_since), \
            mock.patch.object(TableStore, "snapshot", side_effect=AssertionError("the whole log read")):
        one.act(token, vp(0, 120))
        one.act(token, vp(1, 121))
        with counting_steps() as calls:
            seen = wait_for(lambda: (view := two.view(token)).record.version == 122 and view, "two at 122")
        assert read == [2] and len(calls) == 2
        assert seen.state == full_replay(one, token) and [h.seq for h in seen.recent(2)] == [122, 121]
        assert two.act(token, vp(1, 122)).state == full_replay(one, token)  # its write catches up in its lock
        one.undo(token)
        one.correct(token, 5, {**vp(1, 5), "change": 3})
        seen = wait_for(lambda: (view := two.view(token)).record.version == 125 and view, "two at 125")
        assert seen.state == full_replay(one, token)  # the correction: one version
        statuses = {h.seq: h.status for h in seen.history}
        assert statuses[123] == "undone" and statuses[5] == "corrected" and statuses[124] == "active"
    # A change made outside the companion's writes (a row edited, the version bumped, as an
    # operator might): no row says so, so the whole log is read again.
    with one.store.engine.begin() as conn:
        table_id = seen.record.id
        conn.execute(update(table_events).where(table_events.c.table_id == table_id, table_events.c.seq == 1)
                     .values(payload={**vp(0, 0), "note": "edited by hand"}))
        conn.execute(update(game_tables).where(game_tables.c.id == table_id).values(version=game_tables.c.version + 1))
    wait_for(lambda: "edited by hand" in str(two.view(token).history[0].text), "two to read the whole log again")
    one.store.dispose()
    two.store.dispose()


TWO_OPS = st.lists(st.tuples(st.sampled_from(["one", "two"]), st.sampled_from(["act", "undo", "correct"]),
                             st.integers(0, 60)), max_size=30)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=TWO_OPS)
def test_two_servers_taking_turns_at_one_table_each_see_the_state_of_a_full_replay(ops, tmp_path):
    url = f"sqlite:///{tmp_path / 'two.sqlite'}"
    card_db = bundled_cards()
    with mock.patch.object(tables_module, "CHECKPOINT_EVERY", 3):
        servers = {"one": TableService(TableStore(url), card_db)}
        servers["two"] = TableService(servers["one"].store, card_db)  # one database, two caches
        token = servers["one"].create("carpe_diem", ["Anna", "Bea"]).record.token
        for n, (server, op, pick) in enumerate(ops):
            service = servers[server]
            try:
                if op == "act":
                    service.act(token, vp(pick % 2, n))
                elif op == "undo":
                    service.undo(token)
                else:
                    active = [h.seq for h in service.view(token).history if h.status == "active"]
                    if active:
                        service.correct(token, active[pick % len(active)], {**vp(pick % 2, n), "change": -1})
            except (RuleError, InvalidInput):
                pass
            for each in servers.values():
                seen = each.view(token)
                assert seen.state == full_replay(each, token)
                assert [(h.seq, h.status) for h in seen.history] == \
                    [(e.seq, e.status) for e in each.store.events(seen.record.id)]
        servers["one"].store.dispose()


# -- snapshots: undo and corrections replay from the checkpoint before the change -------------------

POOL = [*CARPE_CRAS.EVENTS, *({"type": kind, "seat": seat} for kind in ("action", "pass") for seat in (0, 1))]
OPS = st.lists(st.one_of(
    st.tuples(st.just("act"), st.integers(0, len(POOL) - 1)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("correct"), st.integers(0, 40), st.integers(0, len(POOL) - 1)),
), max_size=40)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_undo_and_corrections_from_checkpoints_give_the_state_of_a_full_replay(ops, tmp_path):
    url = f"sqlite:///{tmp_path / 'snapshots.sqlite'}"
    card_db = bundled_cards()
    with mock.patch.object(tables_module, "CHECKPOINT_EVERY", 3):  # many checkpoints in a short game
        service = TableService(TableStore(url), card_db)
        token = service.create("carpe_cras", CARPE_CRAS.PLAYERS, CARPE_CRAS.OPTIONS).record.token
        position = 0
        warm = service.view(token)
        for op in ops:
            try:
                if op[0] == "act":
                    # mostly the scenario in order (legal), sometimes any event (often refused)
                    scripted = op[1] % 3 != 0 and position < len(CARPE_CRAS.EVENTS)
                    service.act(token, CARPE_CRAS.EVENTS[position] if scripted else POOL[op[1]])
                    position += scripted
                elif op[0] == "undo":
                    service.undo(token)
                else:
                    active = [h.seq for h in service.view(token).history if h.status == "active"]
                    if active:
                        service.correct(token, active[op[1] % len(active)], POOL[op[2]])
            except (RuleError, InvalidInput):
                pass  # refused: nothing stored, and the fold must say so too
            warm = service.view(token)
            assert warm.state == full_replay(service, token)
        cold = TableService(service.store, card_db).view(token)  # folds the whole log from event 0
        assert cold.state == warm.state
        assert [(h.seq, h.status, h.text) for h in cold.history if h.status == "active"] == \
            [(h.seq, h.status, h.text) for h in warm.history if h.status == "active"]
        service.store.dispose()


# -- polls of an unchanged table ------------------------------------------------------------------------


@contextmanager
def rendered_templates(app):
    names = []

    def record(sender, template, context, **extra):
        names.append(template.name)

    template_rendered.connect(record, app)
    try:
        yield names
    finally:
        template_rendered.disconnect(record, app)


def test_a_poll_of_an_unchanged_table_is_answered_without_folding_or_rendering(tmp_path):
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}"})
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "Bea"]}).get_json()
    code, token = table["code"], table["token"]
    client.post(f"/api/tables/{code}/events", json=vp(0, 0))
    page = client.get(f"/t/{token}").get_data(as_text=True)
    poll_url = re.search(r'data-hx-get="([^"]+/live\?v=\d+)"', page).group(1)
    state = client.get(f"/api/tables/{code}")
    assert state.headers["ETag"] == '"1"' and state.headers["Cache-Control"] == "no-cache"

    service = app.extensions["companion.scorekeeping.tables"]
    with rendered_templates(app) as templates, mock.patch.object(service, "view_record") as fold:
        live = client.get(poll_url.replace("&amp;", "&"), headers={"HX-Request": "true"})
        assert live.status_code == 204 and live.data == b""  # htmx swaps nothing on 204
        unchanged = client.get(f"/api/tables/{code}", headers={"If-None-Match": '"1"'})
        assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == '"1"'
        log = client.get(f"/api/tables/{code}/events", headers={"If-None-Match": '"1"'})
        assert log.status_code == 304
    assert templates == [] and not fold.called

    client.post(f"/api/tables/{code}/events", json=vp(1, 1))
    with rendered_templates(app) as templates:
        live = client.get(poll_url.replace("&amp;", "&"), headers={"HX-Request": "true"})
        assert live.status_code == 200 and 'data-version="2"' in live.get_data(as_text=True)
        changed = client.get(f"/api/tables/{code}", headers={"If-None-Match": '"1"'})
        assert changed.status_code == 200 and changed.headers["ETag"] == '"2"'
        assert changed.get_json()["version"] == 2
    assert templates == ["tables/_live.html"]
    service.store.dispose()


def test_the_api_encodes_a_versions_state_once_for_every_client_polling_it(tmp_path):
    """Two API clients at one table version get the same answer, whose ``state`` and
    ``outcome`` (most of its bytes) were encoded once; each answer still says its own
    ``event``, and the next version is encoded anew."""
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}"})
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "Bea"]}).get_json()
    code = table["code"]
    posted = client.post(f"/api/tables/{code}/events", json=vp(0, 0)).get_json()
    assert posted["event"]["seq"] == 1 and posted["state"]["sheets"][0]["vp"] == posted["scoreboard"]["values"][0][0]

    encoded = []
    real = app.json.dumps

    def dumps(obj, **kwargs):
        if isinstance(obj, dict) and "state" in obj:
            encoded.append(obj)
        return real(obj, **kwargs)

    service = app.extensions["companion.scorekeeping.tables"]
    with mock.patch.object(app.json, "dumps", dumps):
        first = client.get(f"/api/tables/{code}")
        second = app.test_client().get(f"/api/tables/{code}")
        assert first.data == second.data and len(encoded) == 0  # the post's answer encoded version 1
        view = service.view(code)
        assert first.get_json() == {**view.as_json(), "scoreboard": first.get_json()["scoreboard"],
                                    "url": first.get_json()["url"]}
        after = client.post(f"/api/tables/{code}/events", json=vp(1, 1)).get_json()
        assert len(encoded) == 1 and after["version"] == 2 and after["event"]["seq"] == 2
        assert after["state"] == service.view(code).state.model_dump(mode="json") != first.get_json()["state"]
    service.store.dispose()


def test_a_live_fragments_imports_look_at_the_globals_as_a_set(tmp_path):
    """Each ``{% from ... import %}`` of a table's live fragment compares the importing
    template's globals with the imported one's as sets (companion/web/templating.py), without
    a Python look-up per global (about forty) at each of its imports, every time it is drawn."""
    from collections import ChainMap

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}"})
    client = app.test_client()
    token = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "Bea"]}).get_json()["token"]
    client.get(f"/t/{token}")
    looked_up = []
    real = ChainMap.__contains__

    def contains(self, key):
        looked_up.append(key)
        return real(self, key)

    client.post(f"/api/tables/{token}/events", json=vp(0, 0))
    with mock.patch.object(ChainMap, "__contains__", contains), rendered_templates(app) as templates:
        live = client.get(f"/t/{token}/live?v=0", headers={"HX-Request": "true"})
        assert live.status_code == 200 and 'data-version="1"' in live.get_data(as_text=True)
    assert templates == ["tables/_live.html"] and looked_up == []
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_a_table_pages_objects_go_when_it_is_sent_not_when_the_cyclic_collector_runs(tmp_path):
    """Drawing a table's page and its live fragment, posting to it and polling it through the
    API leave no reference cycle holding the table's view, its forms or a template's context:
    what a request made is freed by reference counting as it ends. (Cyclic garbage made per
    request filled the collector's older generations under load; walking them paused every
    thread for 50-100 ms.)"""
    import gc

    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}"})
    client = app.test_client()
    token = client.post("/api/tables", json={"game": "carpe_diem", "players": ["Anna", "Bea"]}).get_json()["token"]
    client.get(f"/t/{token}")  # templates compiled, translations read: kept for the app's life

    def ours(garbage: list) -> list[str]:
        return sorted({f"{type(o).__module__}.{type(o).__qualname__}" for o in garbage
                       if type(o).__module__.startswith(("companion", "card_data", "jinja2", "markupsafe", "flask"))})

    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for n in range(3):
            assert client.get(f"/t/{token}").status_code == 200
            page = client.post(f"/t/{token}/events", data={**vp(n % 2, n), "_version": n}, headers={"HX-Request": "true"})
            assert page.status_code == 200 and f'data-version="{n + 1}"' in page.get_data(as_text=True)
            assert client.get(f"/t/{token}/live?v={n}", headers={"HX-Request": "true"}).status_code == 200
            assert client.get(f"/api/tables/{token}").get_json()["version"] == n + 1
        gc.collect()
        left = ours(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []
    app.extensions["companion.scorekeeping.tables"].store.dispose()
