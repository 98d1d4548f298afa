"""The scorekeeper's pages: start a table, join one, play it, undo, correct, rematch, export.

Complete without JavaScript: every form posts and the server answers with a redirect (a
reload never posts again); a refused entry comes back on the page with the rule's message and
the values typed, ready to send again. With JavaScript, htmx posts the same forms and swaps
the answer in without leaving the page, and polls the live part of the page every second.
The swap is a morph (idiomorph): the new page is merged into the old one, so a form a player
has open, its typed values, its focus, the open sections and the scroll position survive
another phone's entry (``companion.js`` keeps a form a player has started out of the merge,
and says so in place if the rules no longer offer it).

Every form carries the table version it was rendered from (``_version``), not as a lock: a
form sent after other phones' entries is checked against the table as it is now and recorded
as typed, unless the changes made it illegal (refused, saying what changed, with its values
kept) or another phone recorded the same entry since (two phones tapping "Next round": one
entry, and the other phone is told, neutrally, "Already recorded by ..."). See
:mod:`companion.scorekeeping.late_entries`. Undo names the entry it undoes: undone once, however many
phones tap it.

Each phone may say who it is ("I am Red", a cookie per table): its moves come first, the
other players' one tap away. A rematch is offered on the finished table to every phone there,
and following it keeps who the phone is.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import typing
import zlib
from dataclasses import dataclass
from typing import Any

import qrcode
import qrcode.image.svg
from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext, lazy_gettext
from markupsafe import Markup
from werkzeug.exceptions import NotFound

from card_data.engine import Engine, Move, RuleError
from card_data.engine.forms import derive_field
from card_data.problems import InvalidInput
from companion.scorekeeping.pages.exports import server_zone_name
from companion.web.language import say
from companion.scorekeeping.late_entries import AlreadyDone
from companion.scorekeeping.scorekeeper import find_table_or_abort, service
from companion.scorekeeping.pages.shared_parts import shared_parts, viewing
from card_data.engine.seats import PLAYER_COLOURS
from companion.scorekeeping.table_view import TableView, seat_colours
from companion.scorekeeping.tables import StaleVersion, whole_number
from companion.cards.translated_data import speak_data_of

bp = Blueprint("table_pages", __name__)

POLL_INTERVAL_S = 1
"""How often a table page asks whether the table changed: a change reaches the other phones
within about a second (a poll answers 204, a few bytes, when nothing changed)."""
HISTORY_SHOWN = 50
"""How many entries, newest first, the live part of the page lists: it is rendered at every
change, so its size must not grow with the log (the full history is its own page)."""
WHOLE_TABLE = "table"
"""The seat cookie's value for a phone that plays no one seat (it shows everyone's moves)."""
COLOUR_NAMES = {
    "blue": lazy_gettext("Blue"), "red": lazy_gettext("Red"), "green": lazy_gettext("Green"),
    "yellow": lazy_gettext("Yellow"), "purple": lazy_gettext("Purple"), "orange": lazy_gettext("Orange"),
    "black": lazy_gettext("Black"), "white": lazy_gettext("White"),
}
"""Each colour of :data:`card_data.engine.seats.PLAYER_COLOURS` as the set-up form names it, in the
page's language (the value sent stays the English key)."""
KEPT_VALUE_CHARS = 400
"""The longest value (as JSON) a refused form keeps to fill the form again: a refusal travels in
the session cookie, which browsers drop past 4 KB (a 5,000-digit number would lose the refusal
itself)."""


# -- forms to JSON -----------------------------------------------------------------------------------


def event_from_form(form, engine: Engine | None = None) -> dict[str, Any]:
    """A posted form as a JSON event: fields named ``x[]`` become lists, empty fields and fields
    starting with ``_`` (page plumbing) are dropped; values stay strings for pydantic to convert.

    With the ``engine``, a list field of the event typed as one text (``"3, 5"``) is split at
    its commas.
    """
    event: dict[str, Any] = {}
    for key in form.keys():
        if key.startswith("_") or key == "csrf_token":
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


def _form_int(name: str) -> int | None:
    """Form field ``name`` as a whole number (a version, an entry), or ``None`` (see :func:`whole_number`)."""
    return whole_number(request.form.get(name))


def _json(value: Any) -> Any:
    """``value`` as JSON carries it (tuples become lists), to compare stored and offered values."""
    return json.loads(json.dumps(value))


def filled_form(event_class, state, payload: dict[str, Any], label: str, plain: bool = True) -> Move | None:
    """A form for an entry of ``event_class`` holding ``payload``'s values: the move the rules
    offer for it on ``state`` with the same fixed values (the round it was drawn for, say),
    every value free to change (the seat included), filled in. Without such a move, with
    ``plain``, a plain form of the event's fields (an entry the page never offered as it is:
    values the player may still mend); else ``None``: for an entry sent before the table
    changed, the move the rules offer now is another entry than the player made (a reveal for
    the next round, once another phone revealed this one). ``None`` too once the game is over."""
    if state.finished:  # nothing is offered once the game is over (Engine.offered), nor sent again
        return None
    entered = {k: v for k, v in payload.items() if k != "type"}
    offered = [m for m in event_class.moves(state, None)
               if all(_same_value(entered, name, value) for name, value in m.fixed.items() if name != "seat")]
    if not offered:
        return event_class.offer(state, label=label, defaults=entered) if plain else None
    move = offered[0]
    fields = tuple(dataclasses.replace(f, default=entered.get(f.name, f.default)) for f in move.fields)
    if "seat" in move.fixed:  # who made the entry may be what needs correcting
        fields = (dataclasses.replace(derive_field(event_class, "seat", state), default=entered.get("seat")), *fields)
    fixed = {name: value for name, value in move.fixed.items() if name != "seat"}
    return dataclasses.replace(move, label=label, seat=None, fixed=fixed, fields=fields)


def _same_value(entered: dict[str, Any], name: str, value: Any) -> bool:
    """Whether the entry ``entered`` holds ``value`` as ``name``: a form leaves out empty
    values, so a name it did not send holds nothing (``None``, ``""`` or an empty list)."""
    if name in entered:
        return _json(entered[name]) == _json(value)
    return value is None or value == "" or (isinstance(value, (list, tuple)) and not value)


def move_id(move: Move) -> str:
    """A stable HTML id for a move's form, from its event, fixed values and label, so that a
    page merged into an older one keeps each form where it was."""
    parts = [move.type_name, *(f"{k}-{v}" for k, v in sorted(move.fixed.items())
                              if isinstance(v, (int, str)) and not isinstance(v, bool))]
    readable = re.sub(r"[^a-z0-9_-]+", "-", "-".join(parts).lower())[:60]
    return f"move-{readable}-{zlib.crc32(move.label.encode()):08x}"


def in_words(exc: Exception) -> str:
    """What a refused change says to the player, in the page's language (:func:`say`): a
    :class:`RuleError`'s ``message``; an :class:`InvalidInput`'s message and its problems, each
    after its field, as ``str(exc)`` has them in English. Text that is not
    :class:`~card_data.engine.Words` (e.g. pydantic's own problem messages) stays as written."""
    if isinstance(exc, RuleError):
        return say(exc.message)
    if isinstance(exc, InvalidInput):
        said = say(exc.message)
        if exc.problems:  # "message: field: problem; field: problem"
            said += ": " + "; ".join(f"{p.field}: {say(p.message)}" for p in exc.problems)
        return said
    return str(exc)


# -- the page's context ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """An entry the table did not take: ``message`` and ``rule`` (the rulebook's), ``changes``
    (what changed since the form's version, for a stale form), and the ``values`` sent, to
    fill the form again. Its texts are already said in the page's language (:meth:`of`): a
    refusal is kept in the session across a redirect, which keeps plain strings only.
    ``notice``: not a refusal but a neutral answer (an entry or undo another phone made
    already: nothing to send again)."""

    message: str
    rule: str | None = None
    changes: tuple[str, ...] = ()
    values: dict[str, Any] | None = None
    status: int = 422
    notice: bool = False
    correct_seq: int | None = None
    """The entry another phone made first of the same step, which this phone may correct."""

    @classmethod
    def of(cls, exc: Exception, values: dict[str, Any] | None) -> Refusal:
        """The refusal of ``exc`` (a :class:`RuleError`, :class:`StaleVersion` or
        :class:`InvalidInput`), in the page's language, keeping the ``values`` sent (but a value
        longer than :data:`KEPT_VALUE_CHARS`); for :class:`AlreadyDone`, the neutral notice."""
        if isinstance(exc, AlreadyDone):
            return cls(say(exc.message), status=200, notice=True)
        if values is not None:
            values = {k: v for k, v in values.items() if len(json.dumps(v)) <= KEPT_VALUE_CHARS}
        if isinstance(exc, RuleError):
            return cls(in_words(exc), say(exc.rule), values=values, status=422)
        if isinstance(exc, StaleVersion) and exc.reason is not None and exc.first is not None:
            # Two phones entered the same step, differently: no one broke a rule. Said neutrally,
            # with what to do if this phone's was the right one.
            entry = say(exc.first.text)
            message = (gettext("%(name)s entered this first: %(entry)s. Yours was not entered. If yours was "
                               "right, correct that entry.", name=exc.by, entry=entry) if exc.by else
                       gettext("Another phone entered this first: %(entry)s. Yours was not entered. If yours "
                               "was right, correct that entry.", entry=entry))
            return cls(message, None, tuple(say(h.text) for h in exc.since), values, 200, notice=True,
                       correct_seq=exc.first.seq)
        if isinstance(exc, StaleVersion) and exc.reason is not None:
            return cls(gettext("The table changed before your entry arrived, and the rules no longer allow it "
                               "(%(reason)s). Here is what happened:", reason=in_words(exc.reason)),
                       say(exc.reason.rule), tuple(say(h.text) for h in exc.since), values, 409)
        if isinstance(exc, StaleVersion):
            return cls(gettext("The table changed before your entry arrived: here is what happened."), None,
                       tuple(say(h.text) for h in exc.since), values, 409)
        return cls(in_words(exc), None, values=values, status=400)


def _seat_cookie(record) -> str:
    return f"seat_{record.code}"


def viewer_seat(record) -> tuple[int | None, bool]:
    """The seat this phone said it plays at ``record`` (``None``: the whole table), and whether
    it said anything yet."""
    raw = request.cookies.get(_seat_cookie(record))
    seat = whole_number(raw, len(record.players) - 1)
    if seat is not None:
        return seat, True
    return None, raw == WHOLE_TABLE


def join_qr_svg(url: str) -> Markup:
    """An inline SVG QR code of ``url`` (vector, so it stays sharp on any screen), named for
    screen readers in the page's language."""
    label = Markup.escape(gettext("QR code to join this table"))
    return Markup(_qr_svg(url).replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1))


@functools.lru_cache(maxsize=256)
def _qr_svg(url: str) -> str:
    """The bare SVG of ``url``'s QR code. Kept per URL: encoding one (its mask search) cost
    more than the rest of a live update."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    return image.to_string(encoding="unicode")


def _context(view: TableView, refusal: Refusal | None = None) -> dict[str, Any]:
    record, engine, state = view.record, view.engine, view.state
    speak_data_of(record.game)
    seat, chosen = viewer_seat(record)
    mine, others = view.moves_for(seat)
    retry = None
    if refusal is not None and refusal.values and refusal.values.get("type") in engine.events:
        # 409: sent before the table changed; its values are no longer the player's to mend.
        retry = filled_form(engine.events[refusal.values["type"]], state, refusal.values, gettext("Send again"),
                            plain=refusal.status != 409)
    table_url = url_for("table_pages.table", token=record.token, _external=True)
    context = dict(
        view=view, table=record, state=state, outcome=view.outcome, engine=engine, version=record.version,
        problem=view.problem,
        board=state.scoreboard(),
        seat=seat, seat_chosen=chosen, my_moves=mine, other_moves=others, counters=engine.counters(state),
        colours=view.colours,
        history=view.recent(HISTORY_SHOWN), entries=view.entries, last_seq=view.undo_seq, undo_line=view.undo_line(),
        history_url=url_for("table_pages.history", token=record.token), history_shown=HISTORY_SHOWN,
        refusal=refusal, retry=retry, poll_interval_s=POLL_INTERVAL_S,
        post_url=url_for("table_pages.post_event", token=record.token),
        live_url=url_for("table_pages.live", token=record.token),
        preview_url=url_for("table_pages.preview", token=record.token),
        join_url=table_url, join_qr=join_qr_svg(table_url),
        rematch=service().find(record.rematch_token) if record.rematch_token else None,
        server_time_zone=server_zone_name(),
    )
    # The parts every phone at this version sees alike, rendered once and shared between them.
    parts = shared_parts()
    where = viewing()
    colours = tuple(view.colours)
    problem_seq = view.problem.seq if view.problem else None
    context["shared"] = lambda name: parts.render(name, context, record.id, record.version, where)
    context["shared_entries"] = lambda macro, lines: parts.render_entries(
        macro, lines, record.token, view.lines_mark, colours, problem_seq, where)
    context["shared_moves"] = lambda moves, open_first=True: parts.render_moves(
        moves, context["post_url"], record.version, context["preview_url"], open_first, where)
    context["shared_move_form"] = lambda move, button=None, extra_class="": parts.render_move_form(
        move, context["post_url"], record.version, button, extra_class, where)
    return context


def _page(view: TableView, refusal: Refusal | None = None, status: int = 200):
    return _rendered("tables/table.html", _context(view, refusal)), status


def _live(view: TableView, refusal: Refusal | None = None, status: int = 200):
    return _rendered("tables/_live.html", _context(view, refusal)), status


def _rendered(name: str, context: dict[str, Any]) -> str:
    """Template ``name`` rendered with ``context`` (:func:`_context`), then ``context`` emptied:
    its shared-part functions hold it, a cycle that would keep the whole table view alive
    until the cyclic collector found it (see :mod:`companion.web.templating`)."""
    try:
        return render_template(name, **context)
    finally:
        context.clear()


def _htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def _answer(token: str, change) -> Any:
    """Run ``change(record, values)`` (``values``: the form's event, parsed once, or ``None``
    for a form without one); answer as the browser asked: the live fragment (htmx), or a
    redirect to the page (a plain form post), a refusal carried there in the session."""
    record = find_table_or_abort(token, api=False)
    values = event_from_form(request.form, service().engines[record.game]) if request.form.get("type") else None
    try:
        view = change(record, values)
    except (RuleError, InvalidInput, StaleVersion, AlreadyDone) as exc:
        return _refuse(record, Refusal.of(exc, values))
    if _htmx():
        return _live(view)
    return redirect(url_for("table_pages.table", token=record.token), 303)


def _refuse(record, refusal: Refusal) -> Any:
    """The page with ``refusal`` on it: the live fragment (htmx), or a redirect to the page
    that shows it once (the refusal kept in the session, so a reload does not post again)."""
    if refusal.correct_seq is not None and refusal.values:
        # Another phone entered this step first: its correction link opens with what this
        # phone sent, so that a player whose entry was the right one need not type it again.
        session[_correction_key(record.token, refusal.correct_seq)] = dataclasses.asdict(Refusal(
            gettext("Filled in with what your phone sent: save it to replace the entry made first."),
            values=refusal.values, status=200, notice=True))
    if _htmx():
        return _live(service().view(record.token), refusal, refusal.status)
    session[f"refusal:{record.token}"] = dataclasses.asdict(refusal)
    return redirect(url_for("table_pages.table", token=record.token), 303)


def _correction_key(token: str, seq: int) -> str:
    """Where the session keeps what the correction form of entry ``seq`` opens with once."""
    return f"correction:{token}:{seq}"


# -- starting and joining ------------------------------------------------------------------------------


@bp.get("/tables/new")
def choose_game():
    return render_template("tables/choose_game.html", engines=service().engines)


@bp.route("/tables/new/<game>", methods=["GET", "POST"])
def new_table(game: str):
    """Players by seat (with their colours) and the game's options, as a form from its models."""
    engine = service().engines.get(game)
    if engine is None:
        return render_template("tables/choose_game.html", engines=service().engines,
                               error=gettext("No game called %(game)r.", game=game)), 404
    error = rule = None
    status = 200
    players = [""] * engine.max_players
    colours = seat_colours(game, engine.max_players, own=getattr(engine, "player_colours", None))
    if request.method == "POST":
        players = request.form.getlist("players[]")
        chosen = request.form.getlist("colours[]")
        named = [(p, c) for p, c in zip(players, chosen + [""] * len(players)) if p.strip()]
        options = {k: v for k, v in event_from_form(request.form).items() if k not in ("players", "colours")}
        try:
            view = service().create(game, [p for p, _ in named], options, [c for _, c in named])
            return redirect(url_for("table_pages.table", token=view.record.token), 303)
        except RuleError as exc:
            error, rule, status = in_words(exc), say(exc.rule), 422
        except InvalidInput as exc:
            error, status = in_words(exc), 400
        colours = chosen or colours
    speak_data_of(game)
    # A value sent is shown again (a refused form keeps what was typed).
    fields = [dataclasses.replace(f, default=request.form.get(f.name, f.default))
              for f in engine.option_fields(service().db.games.get(game))]
    return render_template("tables/new.html", engine=engine, fields=fields, players=players, colours=colours,
                           palette=PLAYER_COLOURS, colour_names=COLOUR_NAMES, error=error, rule=rule), status


@bp.route("/join", methods=["GET", "POST"])
def join():
    """Join by the table's code; a mistyped code says so here (a miss counts against the
    client's limit like any other)."""
    error = None
    status = 200
    if request.method == "POST":
        code = request.form.get("code", "").strip().upper().replace(" ", "")
        if code:
            try:
                record = find_table_or_abort(code, api=False)
            except NotFound:
                error, status = gettext("No table has the code %(code)s: check it on a phone at the table.",
                                        code=code), 404
            else:
                return redirect(url_for("table_pages.table", token=record.token), 303)
    return render_template("tables/join.html", error=error, code=request.form.get("code", "")), status


# -- the table -------------------------------------------------------------------------------------------


@bp.get("/t/<token>")
def table(token: str):
    record = find_table_or_abort(token, api=False)
    if record.token != token:  # the short code is only for joining; the page lives at the token
        return redirect(url_for("table_pages.table", token=record.token), 303)
    kept = session.pop(f"refusal:{token}", None)
    refusal = Refusal(**{**kept, "changes": tuple(kept["changes"])}) if kept else None
    return _page(service().view_record(record), refusal)


@bp.get("/t/<token>/history")
def history(token: str):
    """Every entry of the table, newest first, each with its correction link (the live part
    of the page lists only the newest :data:`HISTORY_SHOWN`)."""
    record = find_table_or_abort(token, api=False)
    view = service().view_record(record)
    speak_data_of(record.game)
    return render_template("tables/history.html", view=view, table=record, engine=view.engine,
                           colours=view.colours, history=list(reversed(view.history)), entries=view.entries,
                           problem=view.problem)


@bp.get("/t/<token>/chart")
def chart(token: str):
    """The pictures of the game so far (each number the game tracks per player, entry by
    entry), on a page of their own: drawn by replaying the log, so not on every entry's answer."""
    record = find_table_or_abort(token, api=False)
    view = service().view_record(record)
    speak_data_of(record.game)
    return render_template("tables/chart.html", view=view, table=record, engine=view.engine)


@bp.get("/t/<token>/live")
def live(token: str):
    """The live part of the page, or 204 (the page keeps what it has) if nothing changed since ``v``
    (a finished table's page asks with ``r=0`` until it shows a rematch: starting one changes
    no entry, so not the version)."""
    record = find_table_or_abort(token, api=False)
    rematch_unseen = request.args.get("r") == "0" and record.rematch_token is not None
    if request.args.get("v") == str(record.version) and not rematch_unseen:
        # An empty body of known length: without one the compressor gzipped nothing on every
        # poll and marked the bodiless 204 "Content-Encoding: gzip".
        return Response(b"", status=204)
    return _live(service().view_record(record))


@bp.post("/t/<token>/events")
def post_event(token: str):
    """Enter an event from a page form, checked against the table as it is now (``_version``:
    the version the form was drawn at, to tell a repeat or a conflict from another phone)."""
    return _answer(token, lambda record, values: service().act(
        record, values if values is not None else event_from_form(request.form, service().engines[record.game]),
        since=_form_int("_version"), by=viewer_seat(record)[0]))


@bp.post("/t/<token>/undo")
def undo(token: str):
    """Undo the entry the page showed last (``_seq``), if it still is the last (if another phone
    undid it already, say so)."""
    return _answer(token, lambda record, _values: service().undo(record, seq=_form_int("_seq"),
                                                                 by=viewer_seat(record)[0]))


@bp.post("/t/<token>/me")
def choose_seat(token: str):
    """Remember on this phone (a cookie for this table) which player it is, or the whole table."""
    record = find_table_or_abort(token, api=False)
    seat = whole_number(request.form.get("seat"), len(record.players) - 1)
    value = str(seat) if seat is not None else WHOLE_TABLE
    return _remember_seat(redirect(url_for("table_pages.table", token=record.token), 303), record, value)


def _remember_seat(response: Response, record, value: str) -> Response:
    """``response`` setting this phone's seat cookie for ``record`` to ``value`` (a seat number
    or :data:`WHOLE_TABLE`)."""
    response.set_cookie(_seat_cookie(record), value, max_age=60 * 60 * 24 * 30, samesite="Lax", httponly=True,
                        path=url_for("table_pages.table", token=record.token))
    return response


def _to_rematch(record, fresh) -> Response:
    """A redirect to the rematch ``fresh`` of ``record`` that keeps who this phone is: the seat
    of the same name there ("I am Ann" stays Ann), or the whole table; nothing if it said
    nothing (or its player is not at the new table)."""
    response = redirect(url_for("table_pages.table", token=fresh.token), 303)
    seat, chosen = viewer_seat(record)
    if seat is not None and record.players[seat] in fresh.players:
        return _remember_seat(response, fresh, str(fresh.players.index(record.players[seat])))
    if seat is None and chosen:
        return _remember_seat(response, fresh, WHOLE_TABLE)
    return response


@bp.post("/t/<token>/rematch")
def rematch(token: str):
    """The same players and options at a new table (one table however many phones tap)."""
    record = find_table_or_abort(token, api=False)
    try:
        fresh = service().rematch(record.token)
    except RuleError as exc:
        return _refuse(record, Refusal.of(exc, None))
    return _to_rematch(record, fresh)


@bp.get("/t/<token>/rematch")
def follow_rematch(token: str):
    """Go to the rematch another phone started at this table, as the same player (see
    :func:`_to_rematch`); back to this table if there is none (yet)."""
    record = find_table_or_abort(token, api=False)
    if not record.rematch_token:
        return redirect(url_for("table_pages.table", token=record.token), 303)
    return _to_rematch(record, service().find(record.rematch_token))


@bp.post("/t/<token>/preview")
def preview(token: str):
    """What a form would enter, without entering it: the history line it would give, or why
    the rules refuse it (for the page to show under the form as it is filled in)."""
    record = find_table_or_abort(token, api=False)
    view = service().view_record(record)
    speak_data_of(record.game)
    try:
        line = view.engine.step(view.state, event_from_form(request.form, view.engine)).line
    except RuleError as exc:
        return render_template("tables/_preview.html", line=None, problem=say(exc.message))
    except InvalidInput:
        return render_template("tables/_preview.html", line=None, problem=None)  # not filled in yet
    return render_template("tables/_preview.html", line=line, problem=None)


@bp.route("/t/<token>/events/<int:seq>", methods=["GET", "POST"])
def correct(token: str, seq: int):
    """Correct entry ``seq``: the entry's own form, filled in with what was entered and offering
    the choices of the moment it was entered; saving re-checks every later entry."""
    record = find_table_or_abort(token, api=False)
    view = service().view_record(record)
    # An entry another phone corrected since this link was drawn is its correction now.
    line = next((h for h in view.history if h.status == "active" and seq in (h.seq, h.corrects)), None)
    if line is None:
        return _page(view, Refusal(gettext("There is no entry %(seq)d to correct.", seq=seq), status=404), 404)
    kind = line.payload.get("type")
    event_class = view.engine.events.get(kind) if isinstance(kind, str) else None
    if event_class is None:  # stored by an older version that had such an entry
        return _page(view, Refusal(gettext("Entry %(seq)d is of a kind this scorekeeper no longer knows: undo it "
                                           "instead.", seq=seq), status=422), 422)
    key = _correction_key(record.token, seq)
    if request.method == "POST":
        values = event_from_form(request.form, view.engine)
        try:
            # The page's version says what the form was drawn at: entries made since are checked
            # with the correction, not a reason to refuse it (companion.scorekeeping.late_entries).
            service().correct(record, seq, values, since=_form_int("_version"))
        except (RuleError, InvalidInput, StaleVersion) as exc:
            session[key] = dataclasses.asdict(Refusal.of(exc, values))
            return redirect(url_for("table_pages.correct", token=record.token, seq=seq), 303)
        return redirect(url_for("table_pages.table", token=record.token), 303)
    kept = session.pop(key, None)
    refusal = Refusal(**{**kept, "changes": tuple(kept["changes"])}) if kept else None
    payload = refusal.values if refusal and refusal.values else line.payload
    move = filled_form(event_class, service().state_before(record, line.seq), payload, gettext("Save correction"))
    speak_data_of(record.game)
    return render_template("tables/correct.html", view=view, table=record, line=line, move=move, refusal=refusal,
                           version=record.version)


@bp.app_template_filter("move_id")
def _move_id_filter(move: Move) -> str:
    return move_id(move)
