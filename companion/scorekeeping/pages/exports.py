"""A finished table's result as CSV and as a BG Stats play (JSON, in BG Stats' documented import
format: see :data:`BGSTATS_FORMAT`)."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
import uuid
from datetime import datetime, tzinfo
from typing import Any
from urllib.parse import quote, urlencode

from companion.scorekeeping.table_view import TableView

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


BGSTATS_FORMAT = ("Push plays to BG Stats from other apps or websites",
                  "https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/")
"""The document the BG Stats play follows (title, address): BG Stats' only published import
format, the JSON a ``createPlay`` link carries (:data:`BGSTATS_IMPORT_URL`)."""
BGSTATS_IMPORT_URL = "https://app.bgstatsapp.com/createPlay.html"
"""Opened with ``?data=`` and the play as URL-encoded JSON, BG Stats (3.3.2 or later) shows its
import dialog (same document)."""
SOURCE_NAME = "printkit companion"
UUID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:printkit:companion:bgstats")
"""The namespace of the export's uuid5 ids: the same table, game or player name always gets
the same id, so BG Stats remembers a match made once and knows a play it already has. Never
change it: every id exported before would change with it."""
def server_zone_name() -> str:
    """The server's own time zone as it is called now (``"UTC"``, ``"CET"``): the zone of a
    play's date when the phone sent none."""
    return datetime.now().astimezone().tzname() or "UTC"


def bgstats_play(view: TableView, game_title: str, zone: tzinfo | None = None) -> dict[str, Any]:
    """A finished table's play in BG Stats' documented import format (the document is
    :data:`BGSTATS_FORMAT`: "Push plays to BG Stats from other apps or websites",
    https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/).

    Shape: ``sourceName``, ``sourcePlayId``, ``playDate`` (``"YYYY-MM-DD HH:MM:SS"``, when play
    started (:attr:`TableView.started_at`: the first entry) in ``zone``, else in the server's
    zone), ``durationMin`` (:attr:`TableView.duration_min`: to the entry that ended the game), ``board``, ``comments`` (the outcome,
    the rounds played, the table's code),
    ``game`` (``name``, ``highestWins``, ``noPoints``, ``sourceGameId``) and ``players`` in seat
    order (``name``, ``score`` as a number, ``winner``, ``rank`` (1 = best, ties share),
    ``startPlayer``, ``role``, ``sourcePlayerId``). Ids are uuid5 strings
    (:data:`UUID_NAMESPACE`): the play's from the table (code and start time), the game's from
    its id, a player's from the name, so two exports are identical and BG Stats matches a
    player across tables. The start player is the engine's (:meth:`GameState.start_seat`,
    first known state in play order); a game without one (simultaneous play) marks none."""
    o = view.outcome
    record = view.record
    players = list(record.players)
    scores = [_score(o.scores[seat]) if seat < len(o.scores) else None for seat in range(len(players))]
    highest_wins = getattr(view.state, "highest_wins", True)
    start = start_seat(view)
    started = view.started_at
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": _uuid("table", record.code, record.created_at.isoformat()),
        "playDate": _local(started, zone).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": view.duration_min or 1,
        "board": "",
        "comments": _comments(view),
        "game": {"name": game_title, "highestWins": highest_wins, "noPoints": not o.scores,
                 "sourceGameId": _uuid("game", record.game)},
        "players": [],
    }
    for seat, name in enumerate(players):
        player: dict[str, Any] = {"name": name, "winner": seat in o.winners,
                                  "rank": _rank(seat, scores, o.winners, highest_wins),
                                  "startPlayer": seat == start, "role": "",
                                  "sourcePlayerId": _uuid("player", _same_name(name))}
        if scores[seat] is not None:
            player["score"] = scores[seat]
        play["players"].append(player)
    return play


def bgstats_import_url(play: dict[str, Any]) -> str:
    """The link that opens ``play`` (:func:`bgstats_play`) in BG Stats' import dialog."""
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return f"{BGSTATS_IMPORT_URL}?{urlencode({'data': data}, quote_via=quote)}"


def start_seat(view: TableView) -> int | None:
    """The seat that took the game's first turn: the first answer of
    :meth:`~card_data.engine.core.GameState.start_seat` over the table's states in play order
    (``None`` for a game without a start player)."""
    for state in view.states():
        seat = state.start_seat()
        if seat is not None:
            return seat
    return None


def _rank(seat: int, scores: list[float | int | None], winners: tuple[int, ...], highest_wins: bool) -> int:
    """1 for a winner; else 1 + the players ahead (winners, then better scores): ties share."""
    if seat in winners:
        return 1
    mine = scores[seat]

    def ahead(other: int) -> bool:
        theirs = scores[other]
        if other in winners:
            return True
        if mine is None or theirs is None:
            return False
        return theirs > mine if highest_wins else theirs < mine

    return 1 + sum(1 for other in range(len(scores)) if other != seat and ahead(other))


def _comments(view: TableView) -> str:
    # the documented format has no field for rounds: they go in the play's comments
    rounds = view.state.rounds_played()
    played = f"; rounds played: {rounds}" if rounds else ""
    return f"{view.outcome.summary}{played} (table {view.record.code})"


def _local(moment: datetime, zone: tzinfo | None) -> datetime:
    # astimezone() without a zone uses the server's rules for that very moment (summer time included)
    return moment.astimezone(zone) if zone is not None else moment.astimezone()


def _uuid(*parts: str) -> str:
    return str(uuid.uuid5(UUID_NAMESPACE, "\x1f".join(parts)))


def _same_name(name: str) -> str:
    """One player however the name was typed at a table: "Ann", " ann " and "ANN" get one id."""
    return unicodedata.normalize("NFC", " ".join(name.split())).casefold()


def _score(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
