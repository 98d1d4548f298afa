"""A finished table's result as CSV and as a BG Stats play file (JSON)."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

from companion.tables import TableView

CSV_COLUMNS = ["game", "table", "date", "seat", "player", "score", "score_label", "winner", "result"]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these is a formula to Excel, LibreOffice or Google Sheets."""


def spreadsheet_safe(value: Any) -> str:
    """``value`` as CSV cell text that no spreadsheet runs as a formula: text starting with
    ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'`` (a player named
    ``=HYPERLINK(...)`` stays a name). Numbers are left alone, so a negative score stays a number."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def results_csv(view: TableView, game_title: str) -> str:
    """One row per player: ``game, table, date, seat (1-based), player, score, score_label,
    winner (yes/no), result`` (the outcome summary). UTF-8 text with a header row; every text
    cell goes through :func:`spreadsheet_safe`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    o = view.outcome
    date = view.record.created_at.date().isoformat()
    for seat, name in enumerate(view.record.players):
        score = o.scores[seat] if seat < len(o.scores) else ""
        row = [game_title, view.record.code, date, seat + 1, name, score, o.score_label,
               "yes" if seat in o.winners else "no", o.summary]
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    return out.getvalue()


def bgstats_play_file(view: TableView, game_title: str) -> dict[str, Any]:
    """The play in the shape of a BG Stats play file (``about``, ``players``, ``games``,
    ``locations``, ``plays`` with ``playerScores`` referring to players by id), which the BG
    Stats app opens with "open in"/import. Seat order and the winners come from the outcome;
    ``rounds`` from the game's own count (:meth:`~card_data.engine.core.GameState.rounds_played`);
    ``durationMin`` is the table's start to its last entry in whole minutes (at least 1)."""
    o = view.outcome
    played = view.record.created_at.strftime("%Y-%m-%d %H:%M:%S")
    players = [{"id": seat + 1, "name": name, "isAnonymous": False, "modificationDate": played}
               for seat, name in enumerate(view.record.players)]
    game = {"id": 1, "name": game_title, "modificationDate": played, "cooperative": False,
            "highestWins": True, "noPoints": not o.scores, "usesTeams": False,
            "sourceGameId": view.record.game}
    scores = [{"playerRefId": seat + 1, "score": _number(o.scores[seat]) if seat < len(o.scores) else "",
               "winner": seat in o.winners, "seatOrder": seat + 1, "startPlayer": seat == 0, "newPlayer": False}
              for seat in range(len(view.record.players))]
    return {
        "about": "A play exported by the printkit companion, for Board Game Stats.",
        "players": players,
        "locations": [],
        "games": [game],
        "plays": [{
            "playDate": played,
            "entryDate": played,
            "gameRefId": 1,
            "ignored": False,
            "manualWinner": False,
            "rounds": view.state.rounds_played(),
            "durationMin": _minutes(view.duration),
            "board": "",
            "comments": f"{o.summary} (table {view.record.code})",
            "playerScores": scores,
        }],
    }


def _minutes(duration: timedelta | None) -> int:
    if duration is None:
        return 0
    return max(1, round(duration.total_seconds() / 60))


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
