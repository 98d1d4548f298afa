"""How fast a long table stays: appends, corrections, undo and a cold start at 2,000 events.

A Carpe Cras table on SQLite (a file in a temporary folder) gets ``--events`` entries (turns
of one long round, each checked by the rules), through the companion's table service and
through its JSON API (Flask's test client, no network). Prints, at several log lengths, the
median and 99th percentile time of one append, then the time of a correction near the start
and near the end, of an undo, and of a cold start (a fresh process's first view, which folds
the whole log). Each event is applied once; a correction replays from the checkpoint before
the corrected entry, not from event 0.

    .venv/bin/python benchmarks/bench_tables.py --events 2000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from checkout import import_from_here  # noqa: E402

import_from_here()

from card_data.games.carpe_cras.rules import (  # noqa: E402
    Action,
    ChooseStartingPlayer,
    FirstPlayerRoll,
    StartRound,
)
from card_data.loader import load_database  # noqa: E402
from companion import create_app  # noqa: E402
from companion.scorekeeping.store.storage import TableStore  # noqa: E402
from companion.scorekeeping.tables import TableService  # noqa: E402

OPENING = [FirstPlayerRoll(rolls=(1, 6)), ChooseStartingPlayer(seat=0, starting_seat=0),
           StartRound(agency_lane_0=1, agency_lane_1=1)]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def turn(n: int) -> dict:
    """The n-th turn of the long round: the seats alternate, Red first."""
    return Action(seat=n % 2, note=f"turn {n}").to_json()


def bench_service(folder: Path, events: int, marks: list[int]) -> None:
    db = load_database()
    url = f"sqlite:///{folder / 'service.sqlite'}"
    service = TableService(TableStore(url), db)
    table = service.create("carpe_cras", ["Red", "Blue"]).record
    for event in OPENING:
        service.act(table.token, event.to_json())
    print(f"\ntable service, SQLite ({events} entries)")
    print(f"{'log length':>11} {'append p50':>12} {'append p99':>12}")
    done, window = 0, []
    for n in range(events):
        start = time.perf_counter()
        service.act(table.token, turn(n))
        window.append(time.perf_counter() - start)
        done += 1
        if done in marks:
            print(f"{done:>11} {ms(statistics.median(window)):>12} {ms(_p99(window)):>12}")
            window = []
    length = len(OPENING) + events
    for label, seq in (("correct entry 5 (near the start)", 5), (f"correct entry {length - 5} (near the end)",
                                                                length - 5)):
        payload = service.view(table.token).history[seq - 1].payload
        start = time.perf_counter()
        service.correct(table.token, seq, payload)
        print(f"{label:>40}: {ms(time.perf_counter() - start)}")
    start = time.perf_counter()
    service.undo(table.token)
    print(f"{'undo the last entry':>40}: {ms(time.perf_counter() - start)}")
    cold = TableService(TableStore(url), db)
    start = time.perf_counter()
    cold.view(table.token)
    print(f"{'cold start (fold the whole log)':>40}: {ms(time.perf_counter() - start)}")
    start = time.perf_counter()
    cold.act(table.token, turn(events - 1))  # the undone turn, entered again
    print(f"{'then one append':>40}: {ms(time.perf_counter() - start)}")


def bench_api(folder: Path, events: int) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{folder / 'api.sqlite'}"})
    client = app.test_client()
    code = client.post("/api/tables", json={"game": "carpe_cras", "players": ["Red", "Blue"]}).get_json()["code"]
    for event in OPENING:
        client.post(f"/api/tables/{code}/events", json=event.to_json())
    times = []
    for n in range(events):
        start = time.perf_counter()
        response = client.post(f"/api/tables/{code}/events", json=turn(n))
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.get_json()
    last = times[-200:]
    print(f"\nJSON API POST /events (Flask test client), last 200 of {events}: "
          f"p50 {ms(statistics.median(last)).strip()}, p99 {ms(_p99(last)).strip()}")


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    args = parser.parse_args()
    marks = sorted({m for m in (100, 500, 1000, 2000, args.events) if m <= args.events})
    with tempfile.TemporaryDirectory() as tmp:
        bench_service(Path(tmp), args.events, marks)
        bench_api(Path(tmp), args.events)


if __name__ == "__main__":
    main()
