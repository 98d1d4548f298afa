"""A finished table's result as CSV and as a BG Stats play file (JSON)."""

from __future__ import annotations

import csv
import io
from typing import Any

from companion.tables import TableView

CSV_COLUMNS = ["game", "table", "date", "seat", "player", "score", "score_label", "winner", "result"]


def results_csv(view: TableView, game_title: str) -> str:
    """One row per player: ``game, table, date, seat (1-based), player, score, score_label,
    winner (yes/no), result`` (the outcome summary). UTF-8 text with a header row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    o = view.outcome
    date = view.record.created_at.date().isoformat()
    for seat, name in enumerate(view.record.players):
        score = o.scores[seat] if seat < len(o.scores) else ""
        writer.writerow([game_title, view.record.code, date, seat + 1, name, _number(score), o.score_label,
                         "yes" if seat in o.winners else "no", o.summary])
    return out.getvalue()


def bgstats_play_file(view: TableView, game_title: str) -> dict[str, Any]:
    """The play in the shape of a BG Stats play file (``about``, ``players``, ``games``,
    ``locations``, ``plays`` with ``playerScores`` referring to players by id), which the BG
    Stats app opens with "open in"/import. Seat order and the winners come from the outcome."""
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
            "rounds": 0,
            "board": "",
            "comments": f"{o.summary} (table {view.record.code})",
            "playerScores": scores,
        }],
    }


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
