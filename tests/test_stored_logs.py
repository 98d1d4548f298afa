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
from companion.storage import TableStore, game_tables, table_events
from companion.tables import TableService

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
