"""Tables stored before the game core stay readable: each file in ``fixtures/stored_logs`` is a
table's rows as the companion at commit 4c256c2 wrote them (a whole game of its scenario,
with an entry undone and entered again and the first entry corrected), with the history
lines and the outcome that companion showed. Loaded into a fresh database, each replays
through today's engine to the same outcome and the same history."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import insert

from card_data.loader import load_database
from companion.scorekeeping.store.storage import TableStore, game_tables, table_events
from companion.scorekeeping.tables import TableService

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "stored_logs"
GAMES = ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]


@pytest.fixture(scope="module")
def database():
    return load_database()


def stored(store: TableStore, data: dict) -> int:
    """The fixture's table and event rows written as they were; returns the table id."""
    table = data["table"]
    now = datetime(2026, 11, 23, tzinfo=UTC)
    with store.engine.begin() as conn:
        table_id = conn.execute(insert(game_tables).values(
            token="t" * 22, code="OLDLOG", game=table["game"], players=table["players"], options=table["options"],
            version=table["version"], created_at=now)).inserted_primary_key[0]
        for e in data["events"]:
            conn.execute(insert(table_events).values(table_id=table_id, seq=e["seq"], payload=e["payload"],
                                                     status=e["status"], corrects=e["corrects"], created_at=now))
    return table_id


@pytest.mark.parametrize("game", GAMES)
def test_a_log_written_before_the_game_core_replays_to_the_same_game(tmp_path, database, game):
    data = json.loads((FIXTURES / f"{game}.json").read_text(encoding="utf-8"))
    store = TableStore(f"sqlite:///{tmp_path / 'old.sqlite'}")
    stored(store, data)
    view = TableService(store, database).view("OLDLOG")
    old = data["outcome"]
    assert view.outcome.finished is old["finished"] is True
    assert list(view.outcome.winners) == old["winners"]
    assert view.outcome.summary == old["summary"]
    assert [float(s) for s in view.outcome.scores] == old["scores"]
    active = [(e["seq"], text) for e, text in zip(data["events"], data["history"]) if e["status"] == "active"]
    assert [(h.seq, h.text) for h in view.history if h.status == "active"] == active
    for line in view.history:
        if line.status != "active":  # once "strike_city (undone)", now the event's own words
            assert "_" not in line.text and "(" not in line.text, line.text
    store.dispose()


def test_a_cahrd_table_stored_before_the_reading_options_replays_as_it_was_played(tmp_path, database):
    """A C.A.H.R.D. table stored without the reading options (``rules/readings.py``) keeps the
    readings it was played under: George Washington, the vanguard of both of Red's attacks in one
    turn, lost men twice, and still does. A table started today, entering the same, is refused
    the second vanguard (a vanguard has battled: Glossary of Terms, Battle/Battled)."""
    import scenarios_cahrd as s

    from card_data.engine import RuleError

    events = [s.RED_SET_UP, s.BLUE_SET_UP, *s.VANGUARD_TWICE]
    data = {"table": {"game": "cahrd", "players": s.PLAYERS, "options": s.OLD_OPTIONS, "version": len(events)},
            "events": [{"seq": n, "payload": e, "status": "active", "corrects": None}
                       for n, e in enumerate(events, start=1)]}
    store = TableStore(f"sqlite:///{tmp_path / 'old.sqlite'}")
    stored(store, data)
    service = TableService(store, database)
    view = service.view("OLDLOG")
    assert view.problem is None
    assert view.state.options.vanguard_in_a_turn == "may_defend_again"
    assert view.state.armies[1].officer("george-washington").men_under_command == 2
    lines = [h.text for h in view.history if h.status == "active"]
    assert lines.count("Blue declared George Washington the vanguard") == 2

    today = service.create("cahrd", s.PLAYERS, s.OPTIONS)
    second = 2 + s.GEORGE_TWICE_AT
    for event in events[:second]:
        service.act(today.record.code, event)
    with pytest.raises(RuleError, match="already a vanguard this turn"):
        service.act(today.record.code, events[second])
    store.dispose()
