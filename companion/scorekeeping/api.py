"""The JSON API: everything the table pages do, for other clients (and the tests).

Errors are JSON ``{"error": message, ...}``: 400 malformed JSON, unknown fields or wrong
types; 403 a change sent from another site's page; 404 unknown table; 409 the table changed
since the If-Match version you sent (reload), or since the ``Drawn-At-Version`` you sent and
the change made your entry illegal (``changes`` and ``rule`` say why); 413 a body over ``MAX_CONTENT_LENGTH``; 415 a body that
is not ``Content-Type: application/json``; 422 the rules refuse the event (``rule`` names the
rulebook section; nothing changed), or the table has an entry it could not apply (its
``problem``: undo or correct that entry first); 429 too many wrong codes. Every number an
event takes has bounds (the OpenAPI document's ``minimum``/``maximum``): a value past them is a
400 naming the field and the bound.

The API takes no CSRF form token: instead a browser can only reach it with a JSON body (which
another site's page cannot send without a CORS preflight this API never grants) and a change
must come from this site's own pages or from a client that is not a browser (see
:func:`companion.web.security.cross_site_request`).
"""

from __future__ import annotations

import json
import math
import sys
from datetime import datetime
from typing import Annotated, Any, Literal

from flask import Blueprint, Response, abort, current_app, jsonify, redirect, request, url_for
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from werkzeug.exceptions import HTTPException

from card_data.engine import MAX_SEATS, Outcome, RuleError
from card_data.problems import InvalidInput, Problem
from companion.scorekeeping.pages.exports import bgstats_import_url, bgstats_play, results_csv
from companion.scorekeeping.openapi import EVENT_BODY, ApiDescription
from companion.scorekeeping.scorekeeper import find_table_or_abort, service
from companion.web.security import MAX_JSON_DEPTH, cross_site_request, json_depth
from companion.scorekeeping.late_entries import AlreadyDone
from card_data.engine.seats import MAX_PLAYER_NAME, PLAYER_COLOURS
from companion.scorekeeping.table_view import TableView
from companion.scorekeeping.tables import MAX_NUMBER_SENT, StaleVersion, whole_number
from companion.web.time_zone import export_zone

bp = Blueprint("api", __name__, url_prefix="/api")

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PlayerName = Annotated[str, Field(max_length=MAX_PLAYER_NAME)]
PlayerColour = Literal[PLAYER_COLOURS]


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``: the game's id, the players by seat, the game's options
    (see ``<game>.Options``; missing ones take their defaults) and, optionally, the players'
    colours by seat."""

    model_config = ConfigDict(extra="forbid")
    game: str
    players: list[PlayerName] = Field(min_length=1, max_length=MAX_SEATS)
    options: dict[str, Any] = {}
    colours: list[PlayerColour] = Field(
        [], max_length=MAX_SEATS,
        description="Colours by seat; seats without one take a colour named like the player, then the "
                    "game's own colours, then the rest in order.")


class ProblemOut(BaseModel):
    """One thing wrong with a request: the field and what is wrong with it."""

    field: str
    message: str


class ErrorOut(BaseModel):
    """Every error: ``error`` for people; on a 422 ``rule``, the rule broken (naming the
    rulebook section); on a 400 ``errors``, one per field."""

    error: str
    rule: str | None = None
    errors: list[ProblemOut] = []
    changes: list[str] = Field([], description="409 only: what changed since the version you sent, oldest first.")


class HistoryLineOut(BaseModel):
    """One entry of a table's history: its ``payload`` (the event), ``status`` and ``text``."""

    seq: int
    payload: dict[str, Any]
    status: Literal["active", "undone", "corrected"]
    corrects: int | None
    text: str
    created_at: datetime


class EntryProblemOut(BaseModel):
    """The first entry of the table's log that could not be applied (stored by an older version,
    say): the state and outcome are the table's as it stood before it. Undo it (and the entries
    after it) or correct it; until then no new entry is taken."""

    seq: int = Field(description="The entry's row in the history.")
    entry: int = Field(description="The entry's number as players know it (the entry a correction replaced).")
    error: str = Field(description="Why it could not be applied.")
    rule: str | None = Field(None, description="The rule that refused it, if a rule did.")


class ScoreboardOut(BaseModel):
    """The table's first screen as its game keeps it (:class:`card_data.engine.Scoreboard`, the
    scoreboard on top of the table page): what each number counts, the numbers by seat, the
    round and whose turn in one line, and the seat whose turn it is (``null``: no one's in
    particular). Texts in English, as the outcome's."""

    columns: list[str] = Field(description="What each number counts (e.g. 'Morale'), in the values' order.")
    values: list[list[float | int | str]] = Field(description="By seat: one value per column.")
    line: str = Field(description="The round and whose turn, in one line (e.g. 'Round 2: Ann's turn').")
    turn: int | None = Field(None, description="The seat whose turn it is, or null when it is no one's in particular.")


def scoreboard_json(view: TableView) -> dict[str, Any]:
    """The table's scoreboard (its state's, see :class:`ScoreboardOut`) as JSON-ready data."""
    board = view.state.scoreboard()
    return {"columns": [str(c) for c in board.columns],
            "values": [[v if isinstance(v, (int, float)) else str(v) for v in row] for row in board.values],
            "line": str(board.line), "turn": board.turn}


class TableOut(BaseModel):
    """A table: its codes, players, options, version (for If-Match), the game's state (see
    ``<game>.State``), outcome and scoreboard; after an entry, that entry as ``event``; ``problem``, an
    entry of its log that could not be applied."""

    code: str = Field(description="Short join code (6 characters).")
    token: str = Field(description="Unguessable link token.")
    url: str = Field(description="The table's page.")
    game: str
    players: list[str]
    colours: list[PlayerColour] = Field(description="Each player's colour, by seat.")
    options: dict[str, Any]
    version: int
    state: dict[str, Any]
    outcome: Outcome
    scoreboard: ScoreboardOut = Field(description="The numbers players watch, as on top of the table's page.")
    problem: EntryProblemOut | None = None
    event: HistoryLineOut | None = None
    already: str | None = Field(None, description=(
        "With Drawn-At-Version: the same entry was recorded by another client since, and nothing was "
        "recorded again (e.g. 'Already recorded by Bob: Round 2 begins'); ``event`` is that entry."))


class EventsOut(BaseModel):
    """A table's history, oldest first, with the table version it reflects."""

    version: int
    events: list[HistoryLineOut]


API = ApiDescription("Companion scorekeeper API",
                     "Tables for physical play: every change is an event checked against the game's rules.",
                     [CreateTable, TableOut, EventsOut, ErrorOut])
CODE = {"code": "The table's short code or link token."}
IF_NONE_MATCH = {"If-None-Match": 'The ETag the client holds (the table version, "<n>"): 304 if still current.'}
NOT_MODIFIED = "The table is still at the If-None-Match version: keep what you have (no body)."
IF_MATCH = {"If-Match": "The table version the client saw; a newer table gives 409 instead of applying."}
DRAWN_AT = {"Drawn-At-Version": (
    'The table version the client drew its entry from ("<n>"): the entry is checked against the table as '
    "it is now and recorded unless the changes since made it illegal (409 with what changed) or another "
    "client recorded the same entry since (200 with ``already``: nothing recorded again).")}
LOOKUP_ERRORS = {400: "Malformed JSON, an unknown field or a wrong type.", 404: "No table with that code.",
                 429: "Too many wrong codes; wait."}
# Every change passes _guard_changes and MAX_CONTENT_LENGTH before its view runs.
GUARD_ERRORS = {403: "A cross-site request (Origin or Referer from another site).",
                413: "The request body is larger than MAX_CONTENT_LENGTH.",
                415: "The body is not application/json."}
CHANGE_ERRORS = {**LOOKUP_ERRORS, **GUARD_ERRORS, 409: "The table changed since the If-Match version.",
                 422: "The rules refuse this, or the table has an entry it could not apply (its problem): "
                      "nothing changed."}


def _error(status: int, message: str, **extra: Any) -> Response:
    response = jsonify(error=message, **extra)
    response.status_code = status
    return response


def _has_body() -> bool:
    return bool(request.content_length or request.headers.get("Transfer-Encoding"))


def _refuse_non_json() -> None:
    """Abort with 415 if the request has a body not declared JSON (``Content-Type:
    application/json``): only a JSON body forces a browser to ask first (a CORS preflight)."""
    if _has_body() and not request.is_json:
        abort(_error(415, "the request body must be JSON, sent with Content-Type: application/json"))


class _Unreadable(ValueError):
    """A JSON number the API does not read (its message says which)."""


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as infinity
        raise _Unreadable(f"the JSON body holds a number too large for a float: {text[:20]}")
    return value


def _no_constant(name: str) -> Any:
    raise _Unreadable(f"the JSON body holds {name}, which is not JSON")


def _body() -> Any:
    """The request's JSON body. Aborts with 415 (a body not declared JSON) or 413 (too big);
    raises :class:`InvalidInput` (400) for no body, malformed JSON, nesting deeper than
    :data:`MAX_JSON_DEPTH`, ``NaN`` or ``Infinity`` (which JSON does not have), a float that is
    not finite (``1e999``) or an integer too long for Python to read (over its 4300 digits)."""
    _refuse_non_json()
    if not request.is_json:
        raise InvalidInput("the request body must be JSON")
    raw = request.get_data(cache=True)
    # Checked before parsing: the parser recurses once per level and a deep enough body
    # would exhaust Python's stack (a RecursionError, which no JSON error handler expects).
    if json_depth(raw) > MAX_JSON_DEPTH:
        raise InvalidInput(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        data = json.loads(raw, parse_float=_finite, parse_constant=_no_constant)
    except _Unreadable as exc:
        raise InvalidInput(str(exc)) from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        data = None
    except ValueError:  # int() refuses the digits of an integer past sys.get_int_max_str_digits()
        raise InvalidInput(f"the JSON body holds a number of more than {sys.get_int_max_str_digits()} digits, "
                           "more than Python reads") from None
    except RecursionError:
        data = None
    if data is None:
        raise InvalidInput("the request body must be JSON")
    return data


@bp.before_request
def _guard_changes():
    """A change (POST, PUT, PATCH, DELETE) from another site's page is a 403; one with a body
    that is not JSON is a 415, even where the body is not read."""
    if request.method not in CHANGING_METHODS:
        return None
    if cross_site_request(request):
        return _error(403, "cross-site requests may not change tables")
    _refuse_non_json()
    return None


def _expected_version() -> int | None:
    """The version the client acted on: ``If-Match: "<n>"`` or ``?version=n``; None if not given."""
    raw = request.headers.get("If-Match") or request.args.get("version")
    if raw is None:
        return None
    version = whole_number(raw.strip().strip('"').removeprefix("W/").strip('"'))
    if version is None:
        raise InvalidInput("If-Match must be the table version number",
                           [Problem(field="If-Match", message=f"not a number from 0 to {MAX_NUMBER_SENT}")])
    return version


def _drawn_at() -> int | None:
    """The ``Drawn-At-Version`` header as a version number, ``None`` if not given."""
    raw = request.headers.get("Drawn-At-Version")
    if raw is None:
        return None
    version = whole_number(raw.strip().strip('"'))
    if version is None:
        raise InvalidInput("Drawn-At-Version must be a table version number",
                           [Problem(field="Drawn-At-Version", message=f"not a number from 0 to {MAX_NUMBER_SENT}")])
    return version


def _etag(version: int) -> str:
    return f'"{version}"'


def _unchanged(version: int) -> Response | None:
    """304 Not Modified when the client's ``If-None-Match`` names table version ``version``,
    else ``None``. The version is the row's, read just now: every change bumps it."""
    if not request.if_none_match.contains(str(version)):
        return None
    response = Response(status=304)
    response.headers["ETag"] = _etag(version)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _table_json(view: TableView, status: int = 200, **extra: Any) -> Response:
    data = view.as_json()
    del data["state"], data["outcome"]  # encoded once per version (shared_json), joined in below
    data["scoreboard"] = scoreboard_json(view)
    data["url"] = url_for("table_pages.table", token=view.record.token, _external=True)
    data.update(extra)
    provider = current_app.json
    own = provider.dumps(data)  # "{...}": never empty, so a comma joins the shared members on
    response = current_app.response_class(f"{own[:-1]},{view.shared_json(provider.dumps)}}}\n",
                                          status=status, mimetype=provider.mimetype)
    response.headers["ETag"] = _etag(view.record.version)
    response.headers["Cache-Control"] = "no-cache"  # a browser revalidates: If-None-Match, 304
    return response


@bp.errorhandler(InvalidInput)
def _bad_request(exc: InvalidInput):
    return _error(400, exc.message, errors=[p.as_json() for p in exc.problems])


@bp.errorhandler(RuleError)
def _rule_error(exc: RuleError):
    return _error(422, exc.message, rule=exc.rule)


@bp.errorhandler(StaleVersion)
def _stale(exc: StaleVersion):
    if exc.reason is not None:
        return _error(409, f"the table changed since the version you sent and the rules no longer allow the "
                           f"entry: {exc.reason.message}", rule=exc.reason.rule, changes=[h.text for h in exc.since])
    return _error(409, "the table changed since the version you sent: reload", changes=[h.text for h in exc.since])


@bp.errorhandler(413)
def _too_large(exc: HTTPException):
    return _error(413, f"the request body is larger than {current_app.config['MAX_CONTENT_LENGTH']} bytes")


@bp.errorhandler(HTTPException)
def _http_error(exc: HTTPException):
    if exc.response is not None:
        return exc.response
    return _error(exc.code or 500, exc.description or exc.name)


@bp.post("/tables")
@API.operation("post", "/tables", body=CreateTable, response=TableOut, status=201, summary="Start a table",
               errors={400: LOOKUP_ERRORS[400], **GUARD_ERRORS, 422: "Impossible set-up, e.g. too many players."})
def create_table():
    """Create a table: ``{"game", "players", "options"}`` -> 201 with its code, token and state."""
    data = _body()
    try:
        body = CreateTable.model_validate(data)
    except ValidationError as exc:
        raise InvalidInput("invalid table", Problem.from_validation_error(exc, data=data)) from None
    view = service().create(body.game, body.players, body.options, body.colours)
    response = _table_json(view, 201)
    response.headers["Location"] = url_for("api.get_table", code=view.record.code)
    return response


@bp.get("/tables/<code>")
@API.operation("get", "/tables/<code>", response=TableOut, summary="A table's state",
               params={**CODE, **IF_NONE_MATCH}, errors={304: NOT_MODIFIED, **LOOKUP_ERRORS})
def get_table(code: str):
    """The table as JSON with its version as ETag; ``If-None-Match`` with the current version
    answers 304 without folding or serialising anything (what a polling client mostly gets)."""
    record = find_table_or_abort(code, api=True)
    return _unchanged(record.version) or _table_json(service().view_record(record))


@bp.post("/tables/<code>/events")
@API.operation("post", "/tables/<code>/events", body=EVENT_BODY, response=TableOut, summary="Enter an event",
               params={**CODE, **IF_MATCH, **DRAWN_AT}, errors=CHANGE_ERRORS)
def post_event(code: str):
    """Append an event (``{"type": ..., ...}``) after checking it against the rules."""
    record = find_table_or_abort(code, api=True)
    try:
        view = service().act(record, _body(), _expected_version(), since=_drawn_at())
    except AlreadyDone as done:
        return _table_json(done.view, event=done.line.__dict__, already=str(done.message))
    last = view.last_line()
    return _table_json(view, event=last.__dict__ if last else None)


@bp.put("/tables/<code>/events/<int:seq>")
@API.operation("put", "/tables/<code>/events/<int:seq>", body=EVENT_BODY, response=TableOut,
               summary="Correct an earlier entry (later entries are re-checked)",
               params={**CODE, "seq": "The entry's number in the history.", **IF_MATCH}, errors=CHANGE_ERRORS)
def correct_event(code: str, seq: int):
    """Replace entry ``seq``; every later entry is re-checked, and nothing changes if one fails."""
    record = find_table_or_abort(code, api=True)
    return _table_json(service().correct(record, seq, _body(), _expected_version()))


@bp.post("/tables/<code>/undo")
@API.operation("post", "/tables/<code>/undo", response=TableOut, summary="Undo the last entry",
               params={**CODE, **IF_MATCH}, errors=CHANGE_ERRORS)
def undo(code: str):
    record = find_table_or_abort(code, api=True)
    return _table_json(service().undo(record, _expected_version()))


@bp.get("/tables/<code>/events")
@API.operation("get", "/tables/<code>/events", response=EventsOut, summary="The table's history",
               operation_id="listEvents", params={**CODE, **IF_NONE_MATCH},
               errors={304: NOT_MODIFIED, **LOOKUP_ERRORS})
def events(code: str):
    record = find_table_or_abort(code, api=True)
    unchanged = _unchanged(record.version)
    if unchanged is not None:
        return unchanged
    view = service().view_record(record)
    response = jsonify(version=view.record.version, events=[h.__dict__ for h in view.history])
    response.headers["ETag"] = _etag(view.record.version)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _export(code: str, suffix: str, render) -> Response:
    """A finished table's result as a download; 409 while the game is still going."""
    view = service().view_record(find_table_or_abort(code, api=True))
    if not view.outcome.finished:
        return _error(409, "the game is not finished yet")
    response = render(view)
    response.headers["Content-Disposition"] = f'attachment; filename="{view.record.game}-{view.record.code}.{suffix}"'
    return response


@bp.get("/tables/<code>/export.csv")
@API.operation("get", "/tables/<code>/export.csv", response_media="text/csv", params=CODE,
               summary="Result as CSV (finished games)", errors={**LOOKUP_ERRORS, 409: "The game is not finished."})
def export_csv(code: str):
    return _export(code, "csv", lambda v: Response(results_csv(v, v.engine.title), mimetype="text/csv"))


TZ = {"tz": "The phone's IANA time zone (e.g. Europe/Berlin) for the play's date; when absent, the zone of the "
             "'tz' cookie the companion's pages set (a browser's), else the server's zone."}
BGSTATS_ERRORS = {**LOOKUP_ERRORS, 400: "An unknown time zone (tz).", 409: "The game is not finished."}


def _zone():
    """The play's time zone (:func:`companion.web.time_zone.export_zone`): the ``tz`` query
    parameter, else the phone's ``tz`` cookie, else ``None`` (the server's); 400 for an
    unknown ``tz``."""
    try:
        return export_zone(request.args.get("tz"))
    except ValueError as error:
        abort(_error(400, str(error)))


@bp.get("/tables/<code>/export.bgstats.json")
@API.operation("get", "/tables/<code>/export.bgstats.json", params={**CODE, **TZ}, operation_id="exportBgStats",
               summary="Result as a BG Stats play (finished games), in BG Stats' documented import format",
               errors=BGSTATS_ERRORS)
def export_bgstats(code: str):
    zone = _zone()
    response = _export(code, "bgstats.json", lambda v: jsonify(bgstats_play(v, v.engine.title, zone)))
    response.vary.add("Cookie")  # the phone's zone
    return response


@bp.get("/tables/<code>/bgstats")
@API.operation("get", "/tables/<code>/bgstats", params={**CODE, **TZ}, operation_id="openInBgStats", status=303,
               response_media="text/html", summary="Redirect to BG Stats' import link for the play (finished games)",
               errors=BGSTATS_ERRORS)
def open_in_bgstats(code: str):
    zone = _zone()
    view = service().view_record(find_table_or_abort(code, api=True))
    if not view.outcome.finished:
        return _error(409, "the game is not finished yet")
    response = redirect(bgstats_import_url(bgstats_play(view, view.engine.title, zone)), 303)
    response.vary.add("Cookie")  # the phone's zone
    return response


@bp.get("/openapi.json")
@API.operation("get", "/openapi.json", summary="This document")
def openapi():
    """This document."""
    return jsonify(API.document(service().engines, prefix=bp.url_prefix))
