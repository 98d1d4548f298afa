"""Tables: a game in progress as the fold of its event log through the game's rule engine.

Sits between the web layer and storage; no Flask here. Every change is checked against the
rules before it is stored, so a refused event changes nothing. What it says to players (its
refusals, the engines' history lines) is :class:`~card_data.engine.Words`: English for the JSON
API, said in the player's language by the pages (:func:`companion.web.language.say`).

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

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from threading import Lock
from typing import Any

from pydantic import BaseModel

from card_data.engine import Engine, RuleError, Step, Words
from card_data.engine.declared import declared_engines
from card_data.engine.seats import MAX_PLAYER_NAME, unshowable_character
from card_data.games import registry
from card_data.loader import Database
from card_data.problems import InvalidInput, Problem
from companion.scorekeeping.late_entries import AlreadyDone, Recorders, late_entry
from companion.scorekeeping.store.storage import Conflict, EventRecord, TableRecord, TableStore, TableWriter
from companion.scorekeeping.table_view import (
    CHECKPOINT_EVERY,
    HistoryLine,
    TableFold,
    TableView,
    fold_entries,
    play_order,
    seat_colours,
)

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
    made it illegal), else ``None``. ``first``: of those changes, the first entry of the same
    kind as the refused one (two phones entered the same step, differently), if any; ``by``:
    the name of the player whose phone made it, where this process knows it.
    """

    def __init__(self, view: TableView | None = None, since: list[HistoryLine] | None = None,
                 reason: RuleError | None = None, first: HistoryLine | None = None, by: str | None = None):
        self.view = view
        self.since = since or []
        self.reason = reason
        self.first, self.by = first, by
        super().__init__("the table changed")


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

    def find(self, key: str, at_least: int | None = None) -> TableRecord:
        """The table whose link token or code is ``key``, at version ``at_least`` or later where
        it is (the client has seen that one). Raises :class:`TableNotFound` if there is none, or
        if its game keeps no score here: the database may be shared with a companion that served
        other games (another project, the bundled ones), or a declared game's ``scoring:`` may
        have changed since to seat another number of players."""
        record = self.store.find(key, at_least)
        if record is None or record.game not in self.engines:
            raise TableNotFound(key)
        engine = self.engines[record.game]
        if not engine.min_players <= len(record.players) <= engine.max_players:
            # A declared game whose game.yaml now seats other counts: the table cannot be set up again.
            raise TableNotFound(key)
        return record

    def _found(self, key: str | TableRecord) -> TableRecord:
        """``key`` itself if it is a record :meth:`find` gave (a request looks its table up
        once), else the table :meth:`find` finds by token or code."""
        return key if isinstance(key, TableRecord) else self.find(key)

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
        cached = self._kept_fold(record.id)
        if cached is not None and cached.version == record.version:
            return record, cached
        fold = None
        if cached is not None:
            current, changed = self.store.changes_since(record.id, cached.version)
            fold = self._caught_up(current, cached, changed)
        if fold is None:
            current, events = self.store.snapshot(record.id)
            fold = self._refold(current, events, cached)
        self._remember(record.id, fold)
        return current, fold

    def _fold_in(self, writer: TableWriter) -> TableFold:
        """The fold at the version the write transaction sees (the log read inside it)."""
        cached = self._kept_fold(writer.record.id)
        if cached is not None and cached.version == writer.record.version:
            return cached
        fold = self._caught_up(writer.record, cached, writer.changes_since(cached.version)) if cached else None
        return fold if fold is not None else self._refold(writer.record, writer.events(), cached)

    def _caught_up(self, record: TableRecord, base: TableFold, changed: list[EventRecord]) -> TableFold | None:
        """``base`` (a fold at an earlier version) brought to ``record.version`` with the rows
        ``changed`` since (see :meth:`TableStore.changes_since`): entries appended after it (by
        another process, most often) are applied to its state, one step each, as this process
        applies its own; after an undo or a correction the log (the rows ``base`` holds with
        those changed) is folded again from the checkpoint before the first change. Either way
        the same fold as folding the whole log afresh. ``None`` where the rows do not account
        for every version since ``base`` (a change made outside the companion's writes, which
        mark the rows they write): then only the whole log says what changed."""
        if record.version == base.version and not changed:
            return base
        marked = {row.at_version for row in changed} | {row.undone_at_version for row in changed}
        if not marked.issuperset(range(base.version + 1, record.version + 1)):
            return None
        last = max(base.events, default=0)
        if base.problem is None and changed and all(
                r.seq > last and r.status == "active" and r.corrects is None and r.at_version is not None
                for r in changed):
            engine = self.engines[record.game]
            fold = base
            try:
                for row in changed:
                    fold = self._appended(fold, row.at_version, row, engine.step(fold.state, row.payload))
                engine.outcome(fold.state)
            except Exception:  # noqa: BLE001 - an entry that cannot be applied: the full fold says why
                fold = None
            if fold is not None and fold.version == record.version:
                return fold
        rows = {**base.events, **{row.seq: row for row in changed}}
        return self._refold(record, [rows[seq] for seq in sorted(rows)], base)

    def changes_since(self, view: TableView, version: int) -> list[HistoryLine]:
        """The history lines of the entries written, undone or corrected after ``version``,
        oldest first (rows written before versions were kept count as changed)."""
        changed = [line for line, e in zip(view.history, view._fold.events.values())
                   if e.at_version is None or e.at_version > version
                   or (e.undone_at_version is not None and e.undone_at_version > version)]
        return changed

    def _kept_fold(self, table_id: int) -> TableFold | None:
        """The fold this process keeps of table ``table_id`` (at whatever version), if any."""
        with self._lock:
            return self._folds.get(table_id)

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
                         {**fold.texts, row.seq: step.line}, lines=fold.lines, made_lines=fold.made_lines)

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
        :data:`~card_data.engine.seats.MAX_PLAYER_NAME` or repeated, unknown or repeated colours) or
        :class:`RuleError` (e.g. too many players for the game)."""
        engine = self.engine_for(game)
        too_long = [Problem(field=f"players.{seat}", message=Words("longer than %(most)d characters",
                                                                    most=MAX_PLAYER_NAME))
                    for seat, name in enumerate(players) if isinstance(name, str) and len(name.strip()) > MAX_PLAYER_NAME]
        if too_long:
            raise InvalidInput(Words("player names are at most %(most)d characters", most=MAX_PLAYER_NAME), too_long)
        unshowable = [Problem(field=f"players.{seat}", message=Words("holds %(character)s, a control character",
                                                                      character=found))
                      for seat, name in enumerate(players)
                      if isinstance(name, str) and (found := unshowable_character(name)) is not None]
        if unshowable:
            raise InvalidInput(Words("player names hold letters, digits, signs and emoji only"), unshowable)
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

    def _change(self, record: TableRecord, expected_version: int | None,
                attempt: Callable[[TableWriter, TableFold], TableFold]) -> TableView:
        """Run ``attempt(writer, fold) -> new fold`` in one write transaction holding the
        table's lock: writers take turns, so an unpinned change never fails for a race. With
        ``expected_version``, a table that moved on since is refused (:class:`StaleVersion`),
        changing nothing."""
        with self.store.writing(record.id) as writer:
            fold = self._fold_in(writer)
            if expected_version is not None and expected_version != writer.record.version:
                view = self._view(writer.record, fold)
                raise StaleVersion(view, self.changes_since(view, expected_version))
            fold = attempt(writer, fold)
        self._remember(record.id, fold)  # only once committed
        return self._view(writer.record, fold)

    def act(self, key: str | TableRecord, payload: Any, expected_version: int | None = None,
            since: int | None = None, by: int | None = None) -> TableView:
        """Check ``payload`` (a JSON event) against the rules and append it.

        ``expected_version``: refused (:class:`StaleVersion`) unless the table is still at it.
        ``since``: the version the client's form was drawn at: a repeat of an entry recorded
        since raises :class:`AlreadyDone`, a refusal :class:`StaleVersion` with the rules'
        ``reason`` (:mod:`companion.scorekeeping.late_entries`). ``by``: the sending phone's seat, if known.
        ``key``: the table's token or code, or its record as :meth:`find` gave it.

        Where this process holds the table as it was just read (a table's requests go to one
        process), the entry is checked against that and written if the table is still at its
        version, with no lock held (one statement on PostgreSQL,
        :meth:`~companion.scorekeeping.store.storage.TableStore.append`); else, or if another change
        got there first, checked and written in a transaction holding the table's lock.

        Raises :class:`TableNotFound`, :class:`InvalidInput` (malformed event, a value out of
        its bounds), :class:`RuleError` (the rules forbid it, or the table has an entry it could
        not apply, which must be undone or corrected first; nothing is stored),
        :class:`StaleVersion` or :class:`AlreadyDone`.
        """
        record = self._found(key)
        engine = self.engines[record.game]
        event = engine.parse_event(payload)

        def checked(current: TableRecord, fold: TableFold) -> Step:
            """The entry's step on ``fold`` (the log at ``current.version``), or the refusal."""
            if fold.problem is not None:
                raise RuleError(fold.problem.rule or engine.rulebook,
                                Words("entry %(entry)d could not be applied (%(reason)s): undo it or correct it "
                                      "before entering anything more", entry=fold.problem.entry,
                                      reason=fold.problem.message))
            moved_on = since is not None and since < current.version
            try:
                same, step = late_entry(engine, fold.state, fold.events, event, since if moved_on else None)
            except RuleError as refusal:
                if not moved_on:
                    raise
                view = self._view(current, fold)
                changes = self.changes_since(view, since)
                kind = event.to_json().get("type")
                # Once the game is over, the entry lost no race for a step: nothing is entered any more.
                first = None if fold.state.finished else next(
                    (h for h in changes if h.status == "active" and h.payload.get("type") == kind), None)
                by = self.recorders.name(record.id, first.seq, record.players) if first is not None else None
                raise StaleVersion(view, changes, refusal, first, by) from refusal
            if same is not None:
                view = self._view(current, fold)
                line = next(h for h in view.history if h.seq == same.seq)
                raise AlreadyDone(view, line, self.recorders.name(record.id, same.seq, record.players))
            return step

        # A fold is the log at its version: its last seq is the log's.
        view = None
        fold = self._kept_fold(record.id)
        if fold is not None and fold.version == record.version and expected_version in (None, record.version):
            # This process holds the table as it was just read: check the entry against it, then
            # write it if the table is still at that version, with no lock held in between.
            step = checked(record, fold)
            try:
                row = self.store.append(record.id, record.version, event.to_json(), seq=max(fold.events, default=0) + 1)
            except Conflict:
                pass  # another change got there first: the entry is checked again below, holding the lock
            else:
                fold = self._appended(fold, row.at_version, row, step)
                self._remember(record.id, fold)
                view = self._view(replace(record, version=row.at_version), fold)

        def attempt(writer: TableWriter, fold: TableFold) -> TableFold:
            step = checked(writer.record, fold)
            row = writer.append(event.to_json(), seq=max(fold.events, default=0) + 1)
            return self._appended(fold, row.at_version, row, step)

        if view is None:
            view = self._change(record, expected_version, attempt)
        self.recorders.note(record.id, view.last_line().seq, by)  # once the entry is stored
        return view

    def undo(self, key: str | TableRecord, expected_version: int | None = None, seq: int | None = None,
             by: int | None = None) -> TableView:
        """Undo the last event that counts (when ``seq`` is given, only if that is still it:
        :class:`AlreadyDone` if it was undone already, else :class:`StaleVersion`; ``by``: the
        phone's seat, if known). Raises :class:`RuleError` if there is nothing to undo."""
        record = self._found(key)
        table_id = record.id

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

        return self._change(record, expected_version, attempt)

    def correct(self, key: str | TableRecord, seq: int, payload: Any, expected_version: int | None = None,
                since: int | None = None) -> TableView:
        """Replace the event at ``seq`` and re-check every later event; refuses (RuleError) if
        any of them would no longer be allowed, changing nothing.

        ``key``: the table's token or code, or its record as :meth:`find` gave it.
        ``expected_version``: refused (:class:`StaleVersion`) unless the table is still at it.
        ``since``: the version the correction's form was drawn at: entries made since do not
        matter (every later entry is checked again anyway), but a correction of the same entry
        made since is a conflict (:class:`StaleVersion` listing it), unless it says just what
        that correction says (a repeat: nothing changes). Raises :class:`InvalidInput` when
        ``seq`` is no active entry (undone since)."""
        record = self._found(key)
        engine = self.engines[record.game]
        stored = engine.parse_event(payload).to_json()

        def attempt(writer: TableWriter, fold: TableFold) -> TableFold:
            events = list(fold.events.values())
            target = next((e for e in play_order(events) if e.seq == seq or e.corrects == seq), None)
            if target is None:
                raise InvalidInput(Words("no entry %(seq)d to correct", seq=seq),
                                   [Problem(field="seq", message=Words("not an active entry"))])
            if since is not None and target.seq != seq and (target.at_version or 0) > since:
                if target.payload == stored:  # the same correction, made since: a repeat
                    return fold
                view = self._view(writer.record, fold)
                raise StaleVersion(view, [h for h in view.history if h.seq == target.seq])
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

        return self._change(record, expected_version, attempt)
