"""Tables: a game in progress as the fold of its event log through the game's rule engine.

Sits between the web layer and storage; no Flask here. Every change is checked by replaying
the log through the engine before it is stored, so a refused event changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from card_data.loader import Database
from card_data.engine import Engine, Outcome, RuleError
from card_data.games import registry
from companion.storage import Conflict, EventRecord, TableRecord, TableStore

MAX_RETRIES = 8


class TableNotFound(Exception):
    """No table has that link token or code."""


class BadRequest(Exception):
    """Input that is not a well-formed request (unknown game, field or type): HTTP 400.

    ``errors`` lists ``{"field": ..., "message": ...}``.
    """

    def __init__(self, message: str, errors: list[dict[str, str]] | None = None):
        self.message = message
        self.errors = errors or []
        super().__init__(message)


class StaleVersion(Exception):
    """The client acted on a version of the table that is no longer current: reload."""


def validation_errors(exc: ValidationError) -> list[dict[str, str]]:
    """Pydantic errors as ``[{"field": "a.b", "message": ...}]`` (the union tag left out)."""
    out = []
    for err in exc.errors(include_url=False):
        loc = [str(p) for p in err["loc"]]
        msg = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        out.append({"field": ".".join(loc[1:] if len(loc) > 1 else loc) or "-", "message": msg})
    return out


@dataclass(frozen=True)
class HistoryLine:
    """One logged event for people: its ``seq``, ``payload``, ``status`` and a readable ``text``."""

    seq: int
    payload: dict[str, Any]
    status: str
    corrects: int | None
    text: str
    created_at: str


@dataclass(frozen=True)
class TableView:
    """A table as players see it: its record, current state and outcome, and its history."""

    record: TableRecord
    engine: Engine
    state: BaseModel
    outcome: Outcome
    history: list[HistoryLine]

    def as_json(self, with_history: bool = False) -> dict[str, Any]:
        data = {
            "code": self.record.code,
            "token": self.record.token,
            "game": self.record.game,
            "players": self.record.players,
            "options": self.record.options,
            "version": self.record.version,
            "state": self.state.model_dump(mode="json"),
            "outcome": self.outcome.model_dump(mode="json"),
        }
        if with_history:
            data["events"] = [h.__dict__ for h in self.history]
        return data


def play_order(events: list[EventRecord]) -> list[EventRecord]:
    """The events that count, in the order they count: undone ones left out, a corrected event
    replaced (at its own position) by the event that corrects it."""
    replacement = {e.corrects: e for e in events if e.corrects is not None}
    out = []
    for e in events:
        if e.corrects is not None:
            continue
        current = e
        while current.status == "corrected" and current.seq in replacement:
            current = replacement[current.seq]
        if current.status == "active":
            out.append(current)
    return out


class TableService:
    """Create tables and act on them, checking every event against the game's rules.

    ``store``: a :class:`TableStore`; ``db``: the card database the engines take their data from.
    """

    def __init__(self, store: TableStore, db: Database):
        self.store = store
        self.db = db
        self.engines = {gid: e.engine for gid, e in registry().items() if gid in db.games}
        self._cache: dict[tuple[int, int], tuple[BaseModel, list[HistoryLine]]] = {}

    def engine_for(self, game: str) -> Engine:
        try:
            return self.engines[game]
        except KeyError:
            raise BadRequest(f"unknown game {game!r}; one of: {', '.join(self.engines)}",
                             [{"field": "game", "message": "unknown game"}]) from None

    def parse_options(self, engine: Engine, options: dict[str, Any]) -> BaseModel:
        try:
            return engine.options_model.model_validate(options)
        except ValidationError as exc:
            raise BadRequest("invalid options", [{**e, "field": f"options.{e['field']}"}
                                                 for e in validation_errors(exc)]) from None

    def parse_event(self, engine: Engine, payload: Any) -> Any:
        if not isinstance(payload, dict) or "type" not in payload:
            raise BadRequest("an event is a JSON object with a \"type\"",
                             [{"field": "type", "message": f"one of: {', '.join(engine.event_types())}"}])
        try:
            return engine.event_adapter.validate_python(payload)
        except ValidationError as exc:
            raise BadRequest("invalid event", validation_errors(exc)) from None

    def create(self, game: str, players: list[str], options: dict[str, Any] | None = None) -> TableView:
        """A new table. Raises :class:`BadRequest` (unknown game, bad options) or
        :class:`RuleError` (e.g. too many players for the game)."""
        engine = self.engine_for(game)
        players = [p.strip() for p in players if isinstance(p, str) and p.strip()]
        if not engine.min_players <= len(players) <= engine.max_players:
            raise RuleError(f"{engine.title}: {engine.min_players} to {engine.max_players} players",
                            f"this table has {len(players)} players")
        if len(set(players)) != len(players):
            raise BadRequest("player names must differ", [{"field": "players", "message": "duplicate name"}])
        opts = self.parse_options(engine, options or {})
        engine.new_state(players, opts, self.db.games[game])  # refuses an impossible set-up now
        record = self.store.create_table(game, players, opts.model_dump(mode="json"))
        return self.view_record(record)

    def find(self, key: str) -> TableRecord:
        record = self.store.find(key)
        if record is None:
            raise TableNotFound(key)
        return record

    def view(self, key: str) -> TableView:
        return self.view_record(self.find(key))

    def _replay(self, record: TableRecord, events: list[EventRecord]) -> tuple[BaseModel, list[HistoryLine]]:
        """Fold the log; raises :class:`RuleError` (with the seq in its message) if an event no
        longer applies."""
        engine = self.engines[record.game]
        opts = engine.options_model.model_validate(record.options)
        state = engine.new_state(record.players, opts, self.db.games[record.game])
        texts: dict[int, str] = {}
        for e in play_order(events):
            event = engine.event_adapter.validate_python(e.payload)
            try:
                texts[e.seq] = engine.describe(state, event)
                state = engine.apply(state, event)
            except RuleError as err:
                raise RuleError(err.rule, f"entry {e.corrects or e.seq} would no longer be allowed: {err.message}") \
                    from None
        history = [HistoryLine(e.seq, e.payload, e.status, e.corrects,
                               texts.get(e.seq) or _describe_inactive(engine, e), e.created_at.isoformat())
                   for e in events]
        return state, history

    def view_record(self, record: TableRecord) -> TableView:
        key = (record.id, record.version)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._replay(record, self.store.events(record.id))
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[key] = cached
        engine = self.engines[record.game]
        state, history = cached
        return TableView(record, engine, state, engine.outcome(state), history)

    def _change(self, key: str, expected_version: int | None, attempt) -> TableView:
        """Run ``attempt(record, events) -> stored version`` against the current log, retrying on a
        lost race unless the client pinned ``expected_version``."""
        for _ in range(MAX_RETRIES):
            record = self.find(key)
            if expected_version is not None and expected_version != record.version:
                raise StaleVersion()
            try:
                attempt(record, self.store.events(record.id))
            except Conflict:
                if expected_version is not None:
                    raise StaleVersion() from None
                continue
            return self.view_record(self.find(key))
        raise StaleVersion()

    def act(self, key: str, payload: Any, expected_version: int | None = None) -> TableView:
        """Check ``payload`` (a JSON event) against the rules and append it.

        Raises :class:`TableNotFound`, :class:`BadRequest` (malformed event), :class:`RuleError`
        (the rules forbid it; nothing is stored) or :class:`StaleVersion`.
        """
        record = self.find(key)
        engine = self.engines[record.game]
        event = self.parse_event(engine, payload)
        stored = event.model_dump(mode="json")

        def attempt(rec: TableRecord, events: list[EventRecord]) -> int:
            view = self.view_record(rec)
            if view.outcome.finished:
                raise RuleError(f"{engine.title}: the game is over", view.outcome.summary or "the game has ended")
            engine.apply(view.state, event)
            return self.store.append(rec.id, rec.version, stored)

        return self._change(key, expected_version, attempt)

    def undo(self, key: str, expected_version: int | None = None) -> TableView:
        """Undo the last event that counts. Raises :class:`RuleError` if there is none."""

        def attempt(rec: TableRecord, events: list[EventRecord]) -> int:
            active = play_order(events)
            if not active:
                raise RuleError("Undo", "there is nothing to undo")
            return self.store.set_status(rec.id, rec.version, active[-1].seq, "undone")

        return self._change(key, expected_version, attempt)

    def correct(self, key: str, seq: int, payload: Any, expected_version: int | None = None) -> TableView:
        """Replace the event at ``seq`` and re-check every later event; refuses (RuleError) if
        any of them would no longer be allowed, changing nothing."""
        record = self.find(key)
        engine = self.engines[record.game]
        event = self.parse_event(engine, payload)
        stored = event.model_dump(mode="json")

        def attempt(rec: TableRecord, events: list[EventRecord]) -> int:
            target = next((e for e in play_order(events) if e.seq == seq or e.corrects == seq), None)
            if target is None:
                raise BadRequest(f"no entry {seq} to correct", [{"field": "seq", "message": "not an active entry"}])
            trial = [e for e in events if e.seq != target.seq] + [
                EventRecord(target.seq, stored, "active", target.corrects, target.created_at)]
            trial.sort(key=lambda e: e.seq)
            self._replay(rec, trial)
            return self.store.correct(rec.id, rec.version, target.seq, stored)

        return self._change(key, expected_version, attempt)


def _describe_inactive(engine: Engine, e: EventRecord) -> str:
    return f"{e.payload.get('type', 'event')} ({e.status})"
