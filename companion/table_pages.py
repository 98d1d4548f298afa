"""The scorekeeper's pages: start a table, join one by code, play it, undo, correct, export.

Server-rendered and usable without JavaScript (plain forms, redirect after post); htmx polls
the live part of a table page so every phone sees a change within about two seconds.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any, Literal

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, redirect, render_template, request, url_for
from markupsafe import Markup

from card_data.engine import Engine, RuleError
from card_data.engine.forms import derive_field
from card_data.problems import InvalidInput
from companion.scorekeeper import find_table_or_abort, service
from companion.tables import StaleVersion, TableView

bp = Blueprint("table_pages", __name__)

POLL_INTERVAL_S = 1.5


def event_from_form(form, engine=None) -> dict[str, Any]:
    """A posted form as a JSON event: fields named ``x[]`` become lists, empty fields and fields
    starting with ``_`` (page plumbing) are dropped; values stay strings for pydantic to convert.

    With the ``engine``, a list field of the event typed as one text (``"3, 5"``) is split at
    its commas.
    """
    event: dict[str, Any] = {}
    for key in form.keys():
        if key.startswith("_"):
            continue
        if key.endswith("[]"):
            values = [v for v in form.getlist(key) if v.strip() != ""]
            event[key[:-2]] = values
        else:
            value = form.get(key, "")
            if value.strip() != "":
                event[key] = value.strip()
    cls = engine.events.get(event.get("type")) if engine is not None else None
    if cls is not None:
        for name, info in cls.model_fields.items():
            if isinstance(event.get(name), str) and typing.get_origin(info.annotation) in (list, tuple):
                event[name] = [part.strip() for part in event[name].split(",") if part.strip()]
    return event


def join_qr_svg(url: str) -> Markup:
    """An inline SVG QR code of ``url`` (vector, so it stays sharp on any screen)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    svg = image.to_string(encoding="unicode")
    return Markup(svg.replace("<svg ", '<svg role="img" aria-label="QR code to join this table" ', 1))


def option_fields(engine: Engine) -> list[dict[str, Any]]:
    """The options form of a game, from its options model: ``[{name, label, kind, choices, default}]``."""
    fields = []
    for name, info in engine.options_model.model_fields.items():
        annotation = info.annotation
        choices: list[str] = []
        kind = "text"
        if typing.get_origin(annotation) is Literal:
            kind, choices = "select", [str(c) for c in typing.get_args(annotation)]
        elif annotation is bool:
            kind, choices = "select", ["true", "false"]
        elif annotation is int:
            kind = "number"
        default = info.default
        fields.append({"name": name, "label": info.title or name.replace("_", " ").capitalize(),
                       "description": info.description or "", "kind": kind, "choices": choices,
                       "default": str(default).lower() if isinstance(default, bool) else default})
    return fields


def _render_table(view: TableView, error: str | None = None, rule: str | None = None, status: int = 200):
    html = render_template("tables/table.html", view=view, table=view.record, state=view.state,
                           outcome=view.outcome, engine=view.engine, error=error, rule=rule,
                           moves=view.engine.allowed(view.state),
                           post_url=url_for("table_pages.post_event", token=view.record.token),
                           join_url=url_for("table_pages.table", token=view.record.token, _external=True),
                           join_qr=join_qr_svg(url_for("table_pages.table", token=view.record.token, _external=True)),
                           poll_interval_s=POLL_INTERVAL_S)
    return html, status


@bp.get("/tables/new")
def choose_game():
    return render_template("tables/choose_game.html", engines=service().engines)


@bp.route("/tables/new/<game>", methods=["GET", "POST"])
def new_table(game: str):
    engine = service().engines.get(game)
    if engine is None:
        return render_template("tables/choose_game.html", engines=service().engines,
                               error=f"No game called {game!r}."), 404
    error = rule = None
    status = 200
    players = [""] * engine.max_players
    if request.method == "POST":
        players = request.form.getlist("players[]")
        options = {k: v for k, v in event_from_form(request.form).items() if k != "players"}
        try:
            view = service().create(game, players, options)
            return redirect(url_for("table_pages.table", token=view.record.token), 303)
        except RuleError as exc:
            error, rule, status = exc.message, exc.rule, 422
        except InvalidInput as exc:
            error, status = str(exc), 400
    return render_template("tables/new.html", engine=engine, fields=option_fields(engine), players=players,
                           form=request.form, error=error, rule=rule), status


@bp.route("/join", methods=["GET", "POST"])
def join():
    if request.method == "POST":
        code = request.form.get("code", "").strip().upper().replace(" ", "")
        if code:
            record = find_table_or_abort(code, api=False)
            return redirect(url_for("table_pages.table", token=record.token), 303)
    return render_template("tables/join.html")


@bp.get("/t/<token>")
def table(token: str):
    record = find_table_or_abort(token, api=False)
    if record.token != token:  # the short code is only for joining; the page lives at the token
        return redirect(url_for("table_pages.table", token=record.token), 303)
    return _render_table(service().view_record(record))


@bp.get("/t/<token>/live")
def live(token: str):
    """The live part of the page, or 204 (htmx keeps what it has) if nothing changed since ``v``."""
    record = find_table_or_abort(token, api=False)
    if request.args.get("v") == str(record.version):
        return Response(status=204)
    view = service().view_record(record)
    return render_template("tables/_live.html", view=view, table=record, state=view.state, outcome=view.outcome,
                           engine=view.engine, moves=view.engine.allowed(view.state),
                           post_url=url_for("table_pages.post_event", token=record.token),
                           poll_interval_s=POLL_INTERVAL_S)


def _change(token: str, action) -> Any:
    record = find_table_or_abort(token, api=False)
    try:
        action(record)
    except RuleError as exc:
        return _render_table(service().view_record(service().find(token)), exc.message, exc.rule, 422)
    except InvalidInput as exc:
        return _render_table(service().view_record(service().find(token)), str(exc), None, 400)
    except StaleVersion:
        return _render_table(service().view_record(service().find(token)), "The table changed, reload.", None, 409)
    return redirect(url_for("table_pages.table", token=record.token), 303)


@bp.post("/t/<token>/events")
def post_event(token: str):
    return _change(token, lambda record: service().act(
        record.token, event_from_form(request.form, service().engines[record.game])))


@bp.post("/t/<token>/undo")
def undo(token: str):
    return _change(token, lambda record: service().undo(record.token))


@bp.route("/t/<token>/events/<int:seq>", methods=["GET", "POST"])
def correct(token: str, seq: int):
    """Correct entry ``seq``: the entry's own form, filled in with what was entered and offering
    the choices of the moment it was entered; saving re-checks every later entry."""
    record = find_table_or_abort(token, api=False)
    view = service().view_record(record)
    line = next((h for h in view.history if h.seq == seq and h.status == "active"), None)
    if line is None:
        return _render_table(view, f"There is no entry {seq} to correct.", None, 404)
    if request.method == "POST":
        return _change(token, lambda r: service().correct(
            r.token, seq, event_from_form(request.form, service().engines[r.game])))
    event_class = view.engine.events[line.payload["type"]]
    move = correction_form(event_class, service().state_before(record, seq), line.payload)
    return render_template("tables/correct.html", view=view, table=record, line=line, move=move)


def _json(value: Any) -> Any:
    """``value`` as JSON carries it (tuples become lists), to compare stored and offered values."""
    return json.loads(json.dumps(value))


def correction_form(event_class, state, payload: dict[str, Any]):
    """The form to correct an entry: the move the rules offered for it on ``state`` (the state
    just before it), every value free to change (the seat included) and filled in with what was
    entered. Without a matching move (the entry's kind is no longer offered there), a plain form
    of the event's fields."""
    entered = {k: v for k, v in payload.items() if k != "type"}
    offered = [m for m in event_class.moves(state, None)
               if all(_json(entered.get(name)) == _json(value) for name, value in m.fixed.items() if name != "seat")]
    if not offered:
        return event_class.offer(state, label="Save correction", defaults=entered)
    move = offered[0]
    fields = tuple(dataclasses.replace(f, default=entered.get(f.name, f.default)) for f in move.fields)
    if "seat" in move.fixed:  # who made the entry may be what needs correcting
        fields = (dataclasses.replace(derive_field(event_class, "seat", state), default=entered.get("seat")), *fields)
    fixed = {name: value for name, value in move.fixed.items() if name != "seat"}
    return dataclasses.replace(move, label="Save correction", seat=None, fixed=fixed, fields=fields)
