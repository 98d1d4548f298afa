"""The JSON API: everything the table pages do, for other clients (and the tests).

Errors are JSON ``{"error": message, ...}``: 400 malformed JSON, unknown fields or wrong
types; 404 unknown table; 409 the table changed since the version you sent (reload); 422 the
rules refuse the event (``rule`` names the rulebook section; nothing changed); 429 too many
wrong codes.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from werkzeug.exceptions import HTTPException

from card_data.engine import RuleError
from card_data.problems import InvalidInput, Problem
from companion.exports import bgstats_play_file, results_csv
from companion.openapi import openapi_document
from companion.scorekeeper import find_table_or_abort, service
from companion.tables import StaleVersion, TableView

bp = Blueprint("api", __name__, url_prefix="/api")


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    game: str
    players: list[str] = Field(min_length=1, max_length=8)
    options: dict[str, Any] = {}


def _error(status: int, message: str, **extra: Any) -> Response:
    response = jsonify(error=message, **extra)
    response.status_code = status
    return response


def _body() -> Any:
    data = request.get_json(force=True, silent=True)
    if data is None:
        raise InvalidInput("the request body must be JSON")
    return data


def _expected_version() -> int | None:
    """The version the client acted on: ``If-Match: "<n>"`` or ``?version=n``; None if not given."""
    raw = request.headers.get("If-Match") or request.args.get("version")
    if raw is None:
        return None
    raw = raw.strip().strip('"').removeprefix("W/").strip('"')
    if not raw.isdigit():
        raise InvalidInput("If-Match must be the table version number",
                           [Problem(field="If-Match", message="not a number")])
    return int(raw)


def _table_json(view: TableView, status: int = 200, **extra: Any) -> Response:
    data = view.as_json()
    data["url"] = url_for("table_pages.table", token=view.record.token, _external=True)
    data.update(extra)
    response = jsonify(data)
    response.status_code = status
    response.headers["ETag"] = f'"{view.record.version}"'
    return response


@bp.errorhandler(InvalidInput)
def _bad_request(exc: InvalidInput):
    return _error(400, exc.message, errors=[p.as_json() for p in exc.problems])


@bp.errorhandler(RuleError)
def _rule_error(exc: RuleError):
    return _error(422, exc.message, rule=exc.rule)


@bp.errorhandler(StaleVersion)
def _stale(exc: StaleVersion):
    return _error(409, "the table changed, reload")


@bp.errorhandler(HTTPException)
def _http_error(exc: HTTPException):
    if exc.response is not None:
        return exc.response
    return _error(exc.code or 500, exc.description or exc.name)


@bp.post("/tables")
def create_table():
    """Create a table: ``{"game", "players", "options"}`` -> 201 with its code, token and state."""
    try:
        body = CreateTable.model_validate(_body())
    except ValidationError as exc:
        raise InvalidInput("invalid table", Problem.from_validation_error(exc, data=request.get_json(silent=True))) from None
    view = service().create(body.game, body.players, body.options)
    response = _table_json(view, 201)
    response.headers["Location"] = url_for("api.get_table", code=view.record.code)
    return response


@bp.get("/tables/<code>")
def get_table(code: str):
    record = find_table_or_abort(code, api=True)
    return _table_json(service().view_record(record))


@bp.post("/tables/<code>/events")
def post_event(code: str):
    """Append an event (``{"type": ..., ...}``) after checking it against the rules."""
    record = find_table_or_abort(code, api=True)
    view = service().act(record.token, _body(), _expected_version())
    return _table_json(view, event=view.history[-1].__dict__ if view.history else None)


@bp.put("/tables/<code>/events/<int:seq>")
def correct_event(code: str, seq: int):
    """Replace entry ``seq``; every later entry is re-checked, and nothing changes if one fails."""
    record = find_table_or_abort(code, api=True)
    return _table_json(service().correct(record.token, seq, _body(), _expected_version()))


@bp.post("/tables/<code>/undo")
def undo(code: str):
    record = find_table_or_abort(code, api=True)
    return _table_json(service().undo(record.token, _expected_version()))


@bp.get("/tables/<code>/events")
def events(code: str):
    record = find_table_or_abort(code, api=True)
    view = service().view_record(record)
    return jsonify(version=view.record.version, events=[h.__dict__ for h in view.history])


def _export(code: str, suffix: str, render) -> Response:
    """A finished table's result as a download; 409 while the game is still going."""
    view = service().view_record(find_table_or_abort(code, api=True))
    if not view.outcome.finished:
        return _error(409, "the game is not finished yet")
    response = render(view)
    response.headers["Content-Disposition"] = f'attachment; filename="{view.record.game}-{view.record.code}.{suffix}"'
    return response


@bp.get("/tables/<code>/export.csv")
def export_csv(code: str):
    return _export(code, "csv", lambda v: Response(results_csv(v, v.engine.title), mimetype="text/csv"))


@bp.get("/tables/<code>/export.bgsplay")
def export_bgstats(code: str):
    return _export(code, "bgsplay", lambda v: jsonify(bgstats_play_file(v, v.engine.title)))


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document(service().engines))
