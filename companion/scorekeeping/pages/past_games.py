"""Past games and statistics: the finished tables on this server, and per player name and per
game how many games, wins, and the average and best score; both as pages and as CSV, and the
past games as BG Stats plays (an "Open in BG Stats" link per game, and all of them as one JSON
list of plays).

A table's result is its log folded through its engine (:class:`companion.scorekeeping.table_view.TableView`),
as on its own page. The lists name no table's link or code: those let anyone change the table
(see ``test_no_page_lists_other_tables``), so a past game is shown, never linked.
"""

from __future__ import annotations

import csv
import io
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from threading import Lock

from flask import Blueprint, Response, jsonify, render_template

from card_data.engine.wording import Said
from companion.scorekeeping.pages.exports import bgstats_import_url, bgstats_play, spreadsheet_safe
from companion.scorekeeping.scorekeeper import service
from companion.scorekeeping.table_view import TableView, whole_minutes
from companion.scorekeeping.tables import TableService
from companion.web.time_zone import export_zone

bp = Blueprint("past_games", __name__)

TABLES_SCANNED = 200
"""How many of the newest tables the pages look at (each is folded through its rules): older
finished games drop off the list and out of the statistics."""
PAST_CSV_COLUMNS = ["finished", "game", "seat", "player", "score", "score_label", "winner", "result",
                    "duration_min"]
STATS_CSV_COLUMNS = ["player", "game", "games", "wins", "average_score", "best_score"]


@dataclass(frozen=True)
class PastGame:
    """A finished table: ``game`` (its id) and ``title``, ``players`` and ``colours`` by seat,
    ``scores`` by seat (as the game counts them, under ``score_label``), the ``winners``' seats
    (none for a draw), the ``summary`` line, when it ``started`` (its first entry) and
    ``finished`` (UTC), and ``duration`` (:attr:`TableView.duration`). ``view``: the table itself, for exports."""

    game: str
    title: str
    players: tuple[str, ...]
    colours: tuple[str, ...]
    scores: tuple[float, ...]
    score_label: Said
    winners: tuple[int, ...]
    summary: Said
    started: datetime
    finished: datetime
    duration: timedelta
    view: TableView | None = None

    @property
    def minutes(self) -> int:
        """The duration in whole minutes (at least 1), as the table's page says it."""
        return whole_minutes(self.duration)


_known: OrderedDict[tuple[str, int], PastGame | None] = OrderedDict()
"""Each table version looked at (its token and version): its past game, or ``None`` while it
is not finished. A table is folded again only when its version changed, so the pages cost one
query once the tables are known, however often they are asked for."""
_known_lock = Lock()


def finished_games(tables: TableService, newest: int = TABLES_SCANNED) -> list[PastGame]:
    """The finished games among the ``newest`` tables of ``tables``' store whose game this server
    keeps score for, the last finished first. A table whose log has an entry that cannot be
    applied is left out."""
    games = []
    for record in tables.store.newest(newest):
        if record.game not in tables.engines:
            continue
        key = (record.token, record.version)
        with _known_lock:
            known = key in _known
            game = _known.get(key)
        if not known:
            game = _past_game(tables.view_record(record))
            with _known_lock:
                _known[key] = game
                while len(_known) > 2 * TABLES_SCANNED:
                    _known.popitem(last=False)
        if game is not None:
            games.append(game)
    games.sort(key=lambda g: g.finished, reverse=True)
    return games


def _past_game(view: TableView) -> PastGame | None:
    if not view.outcome.finished or view.problem is not None or view.finished_at is None:
        return None
    o, record = view.outcome, view.record
    return PastGame(record.game, view.engine.title, tuple(record.players), tuple(view.colours), tuple(o.scores),
                    o.score_label, tuple(o.winners), o.summary, view.started_at, view.finished_at, view.duration, view)


@dataclass
class Tally:
    """Games, wins and scores of one player (in one game, or in all when ``game`` is ``None``)."""

    player: str
    game: str | None
    title: str
    games: int = 0
    wins: int = 0
    scores: list[float] | None = None

    @property
    def average(self) -> float | None:
        """The mean score, or ``None`` without scores (or across games, whose scores differ)."""
        return sum(self.scores) / len(self.scores) if self.scores else None

    @property
    def best(self) -> float | None:
        """The highest score, or ``None`` (every bundled game's winner has the highest)."""
        return max(self.scores) if self.scores else None


def statistics(games: list[PastGame]) -> tuple[list[Tally], list[Tally], list[Tally]]:
    """``(players, players by game, games)``: per player name over all games (games and wins
    only: scores of different games do not add up), per player name and game (games, wins,
    average and best score), and per game (``player`` empty: games played, average and best
    score of every seat). Each sorted by game title, then most wins, most games and name."""
    overall: dict[str, Tally] = {}
    by_game: dict[tuple[str, str], Tally] = {}
    per_game: dict[str, Tally] = {}
    for g in games:
        table = per_game.setdefault(g.game, Tally("", g.game, g.title, scores=[]))
        table.games += 1
        for seat, name in enumerate(g.players):
            won = seat in g.winners
            for tally in (overall.setdefault(name, Tally(name, None, "")),
                          by_game.setdefault((name, g.game), Tally(name, g.game, g.title, scores=[]))):
                tally.games += 1
                tally.wins += won
            if seat < len(g.scores):
                by_game[(name, g.game)].scores.append(g.scores[seat])
                table.scores.append(g.scores[seat])

    def order(tallies) -> list[Tally]:
        return sorted(tallies, key=lambda t: (t.title.casefold(), -t.wins, -t.games, t.player.casefold()))

    return order(overall.values()), order(by_game.values()), order(per_game.values())


def past_csv(games: list[PastGame], say: Callable[[Said], str] = str) -> str:
    """One row per player of every finished game (:data:`PAST_CSV_COLUMNS`): the finish time
    (UTC, ISO 8601), game title, seat (1-based), player, score, score label, winner (yes/no),
    result and duration in minutes. Texts through :func:`spreadsheet_safe`; ``say`` turns the
    engine's words into text (English by default)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PAST_CSV_COLUMNS)
    for g in games:
        for seat, name in enumerate(g.players):
            row = [g.finished.isoformat(timespec="seconds"), g.title, seat + 1, name,
                   g.scores[seat] if seat < len(g.scores) else "", say(g.score_label),
                   "yes" if seat in g.winners else "no", say(g.summary), g.minutes]
            writer.writerow([spreadsheet_safe(cell) for cell in row])
    return out.getvalue()


def stats_csv(games: list[PastGame]) -> str:
    """The statistics as CSV (:data:`STATS_CSV_COLUMNS`): a row per player over all games
    (``game`` empty, no scores), then per player and game; the average to 2 decimals."""
    overall, by_game, _ = statistics(games)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STATS_CSV_COLUMNS)
    for t in [*overall, *by_game]:
        row = [t.player, t.title, t.games, t.wins, "" if t.average is None else round(t.average, 2),
               "" if t.best is None else t.best]
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    return out.getvalue()


def bgstats_plays(games: list[PastGame], zone: tzinfo | None = None) -> list[dict]:
    """Each finished game of ``games`` as a BG Stats play (:func:`companion.scorekeeping.pages.exports.bgstats_play`:
    BG Stats' documented import format, one play per object; its dates in ``zone``, else the
    server's), in the order given. BG Stats documents one play per import link, not a file of
    many: the list is for other tools and for opening plays one by one."""
    return [bgstats_play(g.view, g.title, zone) for g in games if g.view is not None]


def _csv(text: str, name: str) -> Response:
    return Response(text, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/tables/past")
def past():
    """The finished games on this server, the last finished first."""
    games = finished_games(service())
    links = [bgstats_import_url(play) for play in bgstats_plays(games, export_zone())]
    return render_template("tables/past.html", games=list(zip(games, links, strict=True)),
                           scanned=TABLES_SCANNED)


@bp.get("/tables/stats")
def stats():
    """Games, wins, average and best score per player name and per game."""
    overall, by_game, per_game = statistics(finished_games(service()))
    return render_template("tables/stats.html", overall=overall, by_game=by_game, per_game=per_game,
                           scanned=TABLES_SCANNED)


@bp.get("/tables/past.csv")
def past_export():
    return _csv(past_csv(finished_games(service())), "past-games.csv")


@bp.get("/tables/stats.csv")
def stats_export():
    return _csv(stats_csv(finished_games(service())), "statistics.csv")


@bp.get("/tables/past-plays.json")
def past_bgstats():
    """Every past game as a BG Stats play, in one JSON list (:func:`bgstats_plays`), dates in the
    phone's time zone (its ``tz`` cookie) else the server's."""
    response = jsonify(bgstats_plays(finished_games(service()), export_zone()))
    response.headers["Content-Disposition"] = 'attachment; filename="past-games-bgstats.json"'
    return response
