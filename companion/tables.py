"""Tables: a game in progress as the fold of its event log through the game's rule engine.

Sits between the web layer and storage; no Flask here. Every change is checked against the
rules before it is stored, so a refused event changes nothing. What it says to players (its
refusals, the engines' history lines) is :class:`~card_data.engine.Words`: English for the JSON
API, said in the player's language by the pages (:func:`companion.language.say`).

Each event is applied once: the engine's step gives the new state and the history line
together. A table's fold is kept (:class:`TableFold`), with the state every
:data:`CHECKPOINT_EVERY` events, so that an append folds one event, and an undo or a
correction replays from the checkpoint before the entry it changes, not from event 0.
Another process's changes (several server workers) are picked up by folding again from the
first entry that differs.

A stored entry that can no longer be applied (stored by an older version, or breaking the
engine in any way) does not take the table down: the fold stops there, the table stands as it
was before it, and the entry and why are reported (:class:`EntryProblem`) until it is undone
or corrected. No new entry is taken meanwhile.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cached_property
from threading import Lock
from typing import Any

from pydantic import BaseModel

from card_data.engine import Engine, Outcome, RuleError, Step, Words
from card_data.engine.declared import declared_engines
from card_data.engine.seats import PLAYER_COLOURS
from card_data.games import registry
from card_data.loader import Database
from card_data.problems import InvalidInput, Problem
from companion.entry_problems import EntryProblem, apply_entry, entry_problem
from companion.late_entries import AlreadyDone, Recorders, late_entry
from companion.storage import EventRecord, TableRecord, TableStore, TableWriter

CHECKPOINT_EVERY = 64
"""A replay starts at most this many events before the entry it must change."""
CACHED_TABLES = 128
MAX_NUMBER_SENT = 2**31 - 1
"""The largest table version, entry number or seat a client may send (the database's INTEGER)."""


def whole_number(raw: str | None, most: int = MAX_NUMBER_SENT) -> int | None:
    """``raw`` (a form field, header or cookie) as a whole number from 0 to ``most``, or ``None``
    if it is anything else: ASCII digits only (``"²".isdigit()`` is true, and ``int`` refuses
    it), and never more digits than ``most`` has (``int`` refuses over 4300)."""
    raw = (raw or "").strip()
    if not raw or not raw.isascii() or not raw.isdigit() or len(raw) > len(str(most)):
        return None
    value = int(raw)
    return value if value <= most else None


class TableNotFound(Exception):
    """No table has that link token or code."""


class StaleVersion(Exception):
    """The client acted on a version of the table that is no longer current.

    ``view``: the table as it is now; ``since``: the history lines of what changed after the
    version the client saw, oldest first (what to tell the player before they try again);
    ``reason``: for an entry sent from an older page, the rules' refusal of it now (the changes
    made it illegal), else ``None``.
    """

    def __init__(self, view: TableView | None = None, since: list[HistoryLine] | None = None,
                 reason: RuleError | None = None):
        self.view = view
        self.since = since or []
        self.reason = reason
        super().__init__("the table changed")


@dataclass(frozen=True)
class HistoryLine:
    """One logged event for people: its ``seq``, ``payload``, ``status`` and a readable ``text``
    (the engine's history line, a :class:`~card_data.engine.Words` where the engine made one:
    made again by the fold, never read back from storage, so a page can say it in any language)."""

    seq: int
    payload: dict[str, Any]
    status: str
    corrects: int | None
    text: str
    created_at: str


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


@dataclass
class TableFold:
    """A table's log folded through its engine.

    ``version``: the table version it reflects; ``events``: every row, by seq; ``order``:
    the seqs that count, in play order; ``checkpoints``: position -> state after that many
    events of ``order`` (0 is the new table); ``state``: after all of them, or before
    ``problem``'s entry (the first that could not be applied; ``None`` when all were);
    ``texts``: the history line of every event that was ever folded, by seq (an undone entry
    keeps the line it had).
    """

    version: int
    events: dict[int, EventRecord]
    order: list[int]
    checkpoints: dict[int, BaseModel]
    state: BaseModel
    texts: dict[int, str] = field(default_factory=dict)
    problem: EntryProblem | None = None


def fold_entries(engine: Engine, rows: dict[int, EventRecord], order: list[int], start: int,
                 checkpoints: dict[int, BaseModel], texts: dict[int, str]) -> tuple[BaseModel, EntryProblem | None]:
    """Apply the entries ``order[start:]`` (seqs of ``rows``) to ``checkpoints[start]``, adding
    to ``checkpoints`` every :data:`CHECKPOINT_EVERY` and to ``texts`` each history line.
    Returns the state after the last, or, at the first entry that raises anything at all (its
    outcome too: see :func:`apply_entry`), the state before it and its :class:`EntryProblem`."""
    state, problem = _fold_steps(lambda before, payload: engine.step(before, payload), rows, order, start,
                                 checkpoints, texts)
    if problem is not None:
        return state, problem
    try:
        engine.outcome(state)  # once, not after every entry: it costs up to half a step
    except Exception:
        # Rare: some entry left a state without an outcome. Find it, from the new table on.
        for position in [p for p in checkpoints if p > 0]:
            del checkpoints[position]
        for seq in order:  # a line only for the entries that still apply
            texts.pop(seq, None)
        state, problem = _fold_steps(lambda before, payload: apply_entry(engine, before, payload), rows, order, 0,
                                     checkpoints, texts)
    return state, problem


def _fold_steps(step: Callable[[BaseModel, dict[str, Any]], Step], rows: dict[int, EventRecord], order: list[int],
                start: int, checkpoints: dict[int, BaseModel], texts: dict[int, str]) \
        -> tuple[BaseModel, EntryProblem | None]:
    """:func:`fold_entries`' loop, each entry applied by ``step``."""
    state = checkpoints[start]
    for position in range(start, len(order)):
        row = rows[order[position]]
        try:
            result = step(state, row.payload)
        except Exception as error:  # an entry an older version stored may fail in any way
            return state, entry_problem(row, error)
        state = result.state
        texts[row.seq] = result.line
        if (position + 1) % CHECKPOINT_EVERY == 0:
            checkpoints[position + 1] = state
    return state, None



class TableView:
    """A table as players see it: its record, current state and outcome, and its history
    (built on first use: an append answers with its own line without listing the whole log)."""

    def __init__(self, record: TableRecord, engine: Engine, fold: TableFold):
        self.record = record
        self.engine = engine
        self.state: BaseModel = fold.state
        self.outcome: Outcome = engine.outcome(fold.state)
        self.problem: EntryProblem | None = fold.problem
        """The entry the table could not apply (it stands as it was before it), if any."""
        self._fold = fold

    @property
    def started_at(self) -> datetime:
        """When the table was started."""
        return self.record.created_at

    @property
    def finished_at(self) -> datetime | None:
        """When the game ended: the time of the entry that finished it (``None`` while it goes on)."""
        if not self.outcome.finished or not self._fold.order:
            return None
        return self._fold.events[self._fold.order[-1]].created_at

    @property
    def first_entry_at(self) -> datetime | None:
        """When the table's first entry was made, undone or not (``None`` before any)."""
        first = next(iter(self._fold.events.values()), None)
        return first.created_at if first is not None else None

    @property
    def duration(self) -> timedelta | None:
        """How long the game took, from the table's start to its end (``None`` while it goes on)."""
        return self.finished_at - self.started_at if self.finished_at else None

    def states(self) -> Iterator[BaseModel]:
        """The new table's state, then the state after each entry that counts, in play order
        (replayed lazily: a caller that stops early replays little; it stops before an entry
        that could not be applied, as the table does)."""
        state = self._fold.checkpoints[0]
        yield state
        for seq in self._fold.order:
            if self.problem is not None and seq == self.problem.seq:
                return
            state = self.engine.step(state, self._fold.events[seq].payload).state
            yield state

    @cached_property
    def history(self) -> list[HistoryLine]:
        """Every entry, oldest first, undone and corrected ones included."""
        return [self._line(e) for e in self._fold.events.values()]

    def recent(self, count: int) -> list[HistoryLine]:
        """The newest ``count`` entries, newest first (undone and corrected ones included),
        without listing the rest of the log."""
        return [self._line(self._fold.events[seq]) for seq in itertools.islice(reversed(self._fold.events), count)]

    @property
    def history_length(self) -> int:
        """How many lines :attr:`history` has (without building them)."""
        return len(self._fold.events)

    @property
    def entries(self) -> int:
        """How many entries count (undone ones and replaced originals left out)."""
        return len(self._fold.order)

    @property
    def undo_seq(self) -> int | None:
        """The entry Undo takes back: the last that counts in play order (``None`` if none).
        Not the highest ``seq``: a correction gets a new ``seq`` but keeps its place."""
        return self._fold.order[-1] if self._fold.order else None

    def last_line(self) -> HistoryLine | None:
        """The newest entry, or ``None`` for an empty log."""
        events = self._fold.events
        return self._line(events[max(events)]) if events else None

    def _line(self, e: EventRecord) -> HistoryLine:
        text = self._fold.texts.get(e.seq) or _inactive_text(self.engine, e)
        return HistoryLine(e.seq, e.payload, e.status, e.corrects, text, e.created_at.isoformat())

    def replay(self) -> Iterator[tuple[EventRecord | None, BaseModel]]:
        """The new table's state (with ``None``), then each entry that counts, in play order, with
        the state after it: the fold's own entries applied again by the engine, up to the entry
        it could not apply (see :attr:`problem`)."""
        state = self._fold.checkpoints[0]
        yield None, state
        for seq in self._fold.order:
            if self.problem is not None and seq == self.problem.seq:
                return
            row = self._fold.events[seq]
            state = self.engine.apply(state, row.payload)
            yield row, state

    @property
    def colours(self) -> list[str]:
        """Each player's colour by seat (tables from before colours get the defaults)."""
        return list(self.record.colours) or seat_colours(self.record.game, self.record.players,
                                                         own=getattr(self.engine, "player_colours", None))

    def as_json(self, with_history: bool = False) -> dict[str, Any]:
        data = {
            "code": self.record.code,
            "token": self.record.token,
            "game": self.record.game,
            "players": self.record.players,
            "colours": self.colours,
            "options": self.record.options,
            "version": self.record.version,
            "state": self.state.model_dump(mode="json"),
            "outcome": self.outcome.model_dump(mode="json"),
            "problem": self.problem.as_json() if self.problem else None,
        }
        if with_history:
            data["events"] = [h.__dict__ for h in self.history]
        return data


MAX_PLAYER_NAME = 40
"""Longest player name (characters): it has to fit a phone's score line."""


def seat_colours(game: str, players: int | list[str], chosen: list[str] | None = None,
                 own: Sequence[str] | None = None) -> list[str]:
    """One colour per seat: ``chosen`` where given; else a player named after a colour takes
    it ("Red"); the others the game's own colours (``own``, by default its package's
    ``PLAYER_COLOURS``, e.g. Carpe Cras's Blue and Red; a declared game's are its engine's
    ``player_colours``), then :data:`PLAYER_COLOURS` in order, each colour once. ``players``:
    the names by seat, or how many. Raises :class:`InvalidInput` for an unknown or repeated
    colour."""
    names = list(players) if isinstance(players, list) else [""] * players
    chosen = [c for c in (chosen or []) if c]
    for colour in chosen:
        if colour not in PLAYER_COLOURS:
            raise InvalidInput(Words("unknown colour %(colour)r", colour=colour),
                               [Problem(field="colours", message=Words("one of: %(colours)s",
                                                                       colours=", ".join(PLAYER_COLOURS)))])
    if len(set(chosen)) != len(chosen):
        raise InvalidInput(Words("each player takes a different colour"),
                           [Problem(field="colours", message=Words("repeated"))])
    if own is None:
        entry = registry().get(game)
        own = getattr(entry.package, "PLAYER_COLOURS", ()) if entry is not None else ()
    named = {seat: name.strip().lower() for seat, name in enumerate(names)
             if seat >= len(chosen) and name.strip().lower() in PLAYER_COLOURS}
    taken = set(chosen) | set(named.values())
    spare = iter([c for c in (*own, *PLAYER_COLOURS) if c not in taken])
    return [chosen[seat] if seat < len(chosen) else named.get(seat) or next(spare) for seat in range(len(names))]


class TableService:
    """Create tables and act on them, checking every event against the game's rules.

    ``store``: a :class:`TableStore`; ``db``: the card database the engines take their data from.
    """

    def __init__(self, store: TableStore, db: Database):
        self.store = store
        self.db = db
        self.engines = {gid: e.engine for gid, e in registry().items() if gid in db.games}
        # A declared game keeps score when its game.yaml declares scoring: (no Python of its own).
        self.engines.update(declared_engines(db.games))
        self._folds: OrderedDict[int, TableFold] = OrderedDict()
        self._lock = Lock()
        self.recorders = Recorders()

    # -- look-ups ------------------------------------------------------------------------------

    def engine_for(self, game: str) -> Engine:
        try:
            return self.engines[game]
        except KeyError:
            raise InvalidInput(Words("unknown game %(game)r; one of: %(games)s", game=game,
                                     games=", ".join(self.engines)),
                               [Problem(field="game", message=Words("unknown game"))]) from None

    def find(self, key: str) -> TableRecord:
        """The table whose link token or code is ``key``. Raises :class:`TableNotFound` if there
        is none, or if its game keeps no score here: the database may be shared with a companion
        that served other games (another project, the bundled ones), or a declared game's
        ``scoring:`` may have changed since to seat another number of players."""
        record = self.store.find(key)
        if record is None or record.game not in self.engines:
            raise TableNotFound(key)
        engine = self.engines[record.game]
        if not engine.min_players <= len(record.players) <= engine.max_players:
            # A declared game whose game.yaml now seats other counts: the table cannot be set up again.
            raise TableNotFound(key)
        return record

    def view(self, key: str) -> TableView:
        return self.view_record(self.find(key))

    def view_record(self, record: TableRecord) -> TableView:
        """The table as of ``record.version`` or later (folded again only where the log changed)."""
        return self._view(*self._fold(record))

    def _view(self, record: TableRecord, fold: TableFold) -> TableView:
        return TableView(record, self.engines[record.game], fold)

    def state_before(self, record: TableRecord, seq: int) -> BaseModel:
        """The table's state just before the active entry ``seq`` (folded from the checkpoint
        before it; for an entry after one that could not be applied, the state before that
        one). Raises ``KeyError`` if ``seq`` is not an active entry."""
        _, fold = self._fold(record)
        position = fold.order.index(seq) if seq in fold.order else None
        if position is None:
            raise KeyError(seq)
        engine = self.engines[record.game]
        start = max(p for p in fold.checkpoints if p <= position)
        state = fold.checkpoints[start]
        for row_seq in fold.order[start:position]:
            if fold.problem is not None and row_seq == fold.problem.seq:
                break
            state = engine.apply(state, fold.events[row_seq].payload)
        return state

    # -- folding -------------------------------------------------------------------------------

    def _fold(self, record: TableRecord) -> tuple[TableRecord, TableFold]:
        """The table and its fold at ``record.version``, or at the version a fresh, consistent
        read of the database finds (a snapshot of the row and its log together)."""
        with self._lock:
            cached = self._folds.get(record.id)
        if cached is not None and cached.version == record.version:
            return record, cached
        current, events = self.store.snapshot(record.id)
        fold = self._refold(current, events, cached)
        self._remember(record.id, fold)
        return current, fold

    def _fold_in(self, writer: TableWriter) -> TableFold:
        """The fold at the version the write transaction sees (the log read inside it)."""
        with self._lock:
            cached = self._folds.get(writer.record.id)
        if cached is not None and cached.version == writer.record.version:
            return cached
        return self._refold(writer.record, writer.events(), cached)

    def changes_since(self, view: TableView, version: int) -> list[HistoryLine]:
        """The history lines of the entries written, undone or corrected after ``version``,
        oldest first (rows written before versions were kept count as changed)."""
        changed = [line for line, e in zip(view.history, view._fold.events.values())
                   if e.at_version is None or e.at_version > version
                   or (e.undone_at_version is not None and e.undone_at_version > version)]
        return changed

    def _remember(self, table_id: int, fold: TableFold) -> None:
        with self._lock:
            current = self._folds.get(table_id)
            if current is None or current.version <= fold.version:
                self._folds[table_id] = fold
                self._folds.move_to_end(table_id)
            while len(self._folds) > CACHED_TABLES:
                self._folds.popitem(last=False)

    def _refold(self, record: TableRecord, events: list[EventRecord], base: TableFold | None) -> TableFold:
        """Fold ``events``, starting from the last checkpoint of ``base`` that the new play
        order shares, up to the first entry that cannot be applied (the fold's ``problem``)."""
        engine = self.engines[record.game]
        rows = {e.seq: e for e in events}
        order = [e.seq for e in play_order(events)]
        start, texts = 0, {}
        checkpoints: dict[int, BaseModel] = {}
        if base is not None:
            same = 0
            while (same < min(len(order), len(base.order)) and order[same] == base.order[same]
                   and rows[order[same]].payload == base.events[order[same]].payload):
                same += 1
            start = max((p for p in base.checkpoints if p <= same), default=0)
            checkpoints = {p: s for p, s in base.checkpoints.items() if p <= start}
            texts = dict(base.texts)
        if 0 not in checkpoints:
            start = 0
            options = engine.stored_options(record.options)
            checkpoints = {0: engine.new_state(record.players, options, self.db.games[record.game])}
        state, problem = fold_entries(engine, rows, order, start, checkpoints, texts)
        return TableFold(record.version, rows, order, checkpoints, state, texts, problem)

    def _appended(self, fold: TableFold, version: int, row: EventRecord, step: Step) -> TableFold:
        order = [*fold.order, row.seq]
        checkpoints = dict(fold.checkpoints)
        if len(order) % CHECKPOINT_EVERY == 0:
            checkpoints[len(order)] = step.state
        return TableFold(version, {**fold.events, row.seq: row}, order, checkpoints, step.state,
                         {**fold.texts, row.seq: step.line})

    def _undone(self, record: TableRecord, fold: TableFold, version: int) -> TableFold:
        """``fold`` after its last entry in play order was undone at ``version``: the state
        replayed from the checkpoint before it (no log read; the same as a refold of the log)."""
        engine = self.engines[record.game]
        seq = fold.order[-1]
        order = fold.order[:-1]
        events = {**fold.events, seq: replace(fold.events[seq], status="undone", undone_at_version=version)}
        checkpoints = {p: state for p, state in fold.checkpoints.items() if p <= len(order)}
        texts = dict(fold.texts)
        state, problem = fold_entries(engine, events, order, max(checkpoints), checkpoints, texts)
        return TableFold(version, events, order, checkpoints, state, texts, problem)

    # -- changes -------------------------------------------------------------------------------

    def create(self, game: str, players: list[str], options: dict[str, Any] | None = None,
               colours: list[str] | None = None) -> TableView:
        """A new table: ``players`` by seat, the game's ``options``, one colour name per seat
        (from :data:`PLAYER_COLOURS`; the game's defaults where left out). Raises
        :class:`InvalidInput` (unknown game, bad options, names longer than
        :data:`MAX_PLAYER_NAME` or repeated, unknown or repeated colours) or
        :class:`RuleError` (e.g. too many players for the game)."""
        engine = self.engine_for(game)
        too_long = [Problem(field=f"players.{seat}", message=Words("longer than %(most)d characters",
                                                                    most=MAX_PLAYER_NAME))
                    for seat, name in enumerate(players) if isinstance(name, str) and len(name.strip()) > MAX_PLAYER_NAME]
        if too_long:
            raise InvalidInput(Words("player names are at most %(most)d characters", most=MAX_PLAYER_NAME), too_long)
        players = [p.strip() for p in players if isinstance(p, str) and p.strip()]
        if len(set(players)) != len(players):
            raise InvalidInput(Words("player names must differ"), [Problem(field="players", message=Words("duplicate name"))])
        opts = engine.parse_options(options or {})
        engine.new_state(players, opts, self.db.games[game])  # refuses an impossible set-up now
        record = self.store.create_table(game, players, opts.model_dump(mode="json"),
                                         seat_colours(game, players, colours,
                                                      own=getattr(engine, "player_colours", None)))
        return self.view_record(record)

    def rematch(self, key: str) -> TableRecord:
        """A new table with the players, options and colours of the finished table ``key``, or
        the rematch someone already started (two phones tapping Rematch start one table).
        Raises :class:`RuleError` while the game is still going."""
        record = self.find(key)
        if record.rematch_token:
            return self.find(record.rematch_token)
        view = self.view_record(record)
        if not view.outcome.finished:
            raise RuleError(Words("Rematch"), Words("the game is not finished yet"))
        fresh = self.store.create_table(record.game, record.players, record.options, list(record.colours))
        return self.find(self.store.set_rematch(record.id, fresh.token))

    def _change(self, key: str, expected_version: int | None,
                attempt: Callable[[TableWriter, TableFold], TableFold]) -> TableView:
        """Run ``attempt(writer, fold) -> new fold`` in one write transaction holding the
        table's lock: writers take turns, so an unpinned change never fails for a race. With
        ``expected_version``, a table that moved on since is refused (:class:`StaleVersion`),
        changing nothing."""
        record = self.find(key)
        with self.store.writing(record.id) as writer:
            fold = self._fold_in(writer)
            if expected_version is not None and expected_version != writer.record.version:
                view = self._view(writer.record, fold)
                raise StaleVersion(view, self.changes_since(view, expected_version))
            fold = attempt(writer, fold)
        self._remember(record.id, fold)  # only once committed
        return self._view(writer.record, fold)

    def act(self, key: str, payload: Any, expected_version: int | None = None, since: int | None = None,
            by: int | None = None) -> TableView:
        """Check ``payload`` (a JSON event) against the rules and append it.

        ``expected_version``: refused (:class:`StaleVersion`) unless the table is still at it.
        ``since``: the version the client's form was drawn at: a repeat of an entry recorded
        since raises :class:`AlreadyDone`, a refusal :class:`StaleVersion` with the rules'
        ``reason`` (:mod:`companion.late_entries`). ``by``: the sending phone's seat, if known.

        Raises :class:`TableNotFound`, :class:`InvalidInput` (malformed event, a value out of
        its bounds), :class:`RuleError` (the rules forbid it, or the table has an entry it could
        not apply, which must be undone or corrected first; nothing is stored),
        :class:`StaleVersion` or :class:`AlreadyDone`.
        """
        record = self.find(key)
        engine = self.engines[record.game]
        event = engine.parse_event(payload)

        def attempt(writer: TableWriter, fold: TableFold) -> TableFold:
            if fold.problem is not None:
                raise RuleError(fold.problem.rule or engine.rulebook,
                                Words("entry %(entry)d could not be applied (%(reason)s): undo it or correct it "
                                      "before entering anything more", entry=fold.problem.entry,
                                      reason=fold.problem.message))
            moved_on = since is not None and since < writer.record.version
            try:
                same, step = late_entry(engine, fold.state, fold.events, event, since if moved_on else None)
            except RuleError as refusal:
                if not moved_on:
                    raise
                view = self._view(writer.record, fold)
                raise StaleVersion(view, self.changes_since(view, since), refusal) from refusal
            if same is not None:
                view = self._view(writer.record, fold)
                line = next(h for h in view.history if h.seq == same.seq)
                raise AlreadyDone(view, line, self.recorders.name(record.id, same.seq, record.players))
            row = writer.append(event.to_json())
            self.recorders.note(record.id, row.seq, by)
            return self._appended(fold, row.at_version, row, step)

        return self._change(key, expected_version, attempt)

    def undo(self, key: str, expected_version: int | None = None, seq: int | None = None,
             by: int | None = None) -> TableView:
        """Undo the last event that counts (when ``seq`` is given, only if that is still it:
        :class:`AlreadyDone` if it was undone already, else :class:`StaleVersion`; ``by``: the
        phone's seat, if known). Raises :class:`RuleError` if there is nothing to undo."""
        table_id = self.find(key).id

        def attempt(writer: TableWriter, fold: TableFold) -> TableFold:
            if seq is not None and seq in fold.events and fold.events[seq].status == "undone":
                view = self._view(writer.record, fold)
                line = next(h for h in view.history if h.seq == seq)
                raise AlreadyDone(view, line, self.recorders.name(table_id, seq, writer.record.players, True), True)
            if not fold.order:
                raise RuleError(Words("Undo"), Words("there is nothing to undo"))
            if seq is not None and fold.order[-1] != seq:
                view = self._view(writer.record, fold)
                raise StaleVersion(view, [h for h in view.history if h.seq > seq or h.seq == fold.order[-1]])
            self.recorders.note(table_id, fold.order[-1], by, undone=True)
            version = writer.set_status(fold.order[-1], "undone")
            return self._undone(writer.record, fold, version)

        return self._change(key, expected_version, attempt)

    def correct(self, key: str, seq: int, payload: Any, expected_version: int | None = None) -> TableView:
        """Replace the event at ``seq`` and re-check every later event; refuses (RuleError) if
        any of them would no longer be allowed, changing nothing."""
        record = self.find(key)
        engine = self.engines[record.game]
        stored = engine.parse_event(payload).to_json()

        def attempt(writer: TableWriter, fold: TableFold) -> TableFold:
            events = list(fold.events.values())
            target = next((e for e in play_order(events) if e.seq == seq or e.corrects == seq), None)
            if target is None:
                raise InvalidInput(Words("no entry %(seq)d to correct", seq=seq),
                                   [Problem(field="seq", message=Words("not an active entry"))])
            # The log as it will be, folded before anything is written: a later entry the
            # correction breaks raises RuleError here, storing nothing.
            version, seq_new = writer.record.version + 1, max(fold.events) + 1
            after = [replace(e, status="corrected", undone_at_version=version) if e.seq == target.seq else e
                     for e in events]
            after.append(EventRecord(seq_new, stored, "active", target.seq, target.created_at, version))
            folded = self._refold(writer.record, after, fold)
            if folded.problem is not None:
                raise RuleError(folded.problem.rule or engine.rulebook,
                                Words("entry %(entry)d would no longer be allowed: %(reason)s",
                                      entry=folded.problem.entry, reason=folded.problem.message))
            row = writer.correct(target.seq, stored)
            if (row.seq, row.at_version) != (seq_new, version):  # the lock makes this impossible
                raise RuntimeError(f"table {writer.record.id} changed under its lock")
            folded.events[row.seq] = row
            folded.version = version
            return folded

        return self._change(key, expected_version, attempt)


def _inactive_text(engine: Engine, e: EventRecord) -> str:
    """A line for an entry never folded here (undone or corrected before this process saw it):
    its event's label (Words where the game made one), else its type in words."""
    kind = e.payload.get("type") if isinstance(e.payload, dict) else None
    cls = engine.events.get(kind) if isinstance(kind, str) else None
    label = getattr(cls, "label", None)
    return label or str(e.payload.get("type", "entry")).replace("_", " ").capitalize()
