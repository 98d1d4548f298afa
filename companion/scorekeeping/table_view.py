"""A table as its pages and the API show it: the fold of its event log through the game's
rule engine (:class:`TableFold`, :func:`fold_entries`), the view of one folded table
(:class:`TableView`: its state, history lines, colours, times, its states entry by entry for
charts and play logs) and the seats' colours (:func:`seat_colours`). No Flask, no storage
writes: :mod:`companion.scorekeeping.tables` keeps the folds and changes tables."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from pydantic import BaseModel

from card_data.engine import Engine, Move, Outcome, Step, Words, seat_moves
from card_data.engine.seats import PLAYER_COLOURS
from card_data.games import registry
from card_data.problems import InvalidInput, Problem
from companion.scorekeeping.entry_problems import EntryProblem, apply_entry, entry_problem
from companion.scorekeeping.store.storage import EventRecord, TableRecord

CHECKPOINT_EVERY = 64
"""A replay starts at most this many events before the entry it must change."""


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
    keeps the line it had); ``moves``: the moves a page offers on ``state`` (the seat's and the
    other players'), by the seat asking (``None``: the whole table), filled in by
    :meth:`TableView.moves_for` on first use;
    ``dumped``: ``state`` and its outcome as JSON, made by :meth:`TableView.as_json` on first use
    (every phone polling the API at this version gets the same);
    ``lines``: a mark of what the history's lines say, unique in this process: a fold made by
    appending an entry to another (each earlier line as it was) keeps that fold's mark, every
    other fold (a new fold, an undo, a correction) gets a new one; so two folds of one table with
    the same mark show the same line for every entry both hold (see :attr:`TableView.lines_mark`),
    and share ``made_lines``, the history lines made so far by seq (each made once, not at every
    version that shows it).
    """

    version: int
    events: dict[int, EventRecord]
    order: list[int]
    checkpoints: dict[int, BaseModel]
    state: BaseModel
    texts: dict[int, str] = field(default_factory=dict)
    problem: EntryProblem | None = None
    moves: dict[int | None, tuple[tuple[Move, ...], tuple[Move, ...]]] = field(default_factory=dict, compare=False,
                                                                               repr=False)
    dumped: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    lines: int = field(default_factory=lambda: next(_LINES_MARKS), compare=False)
    made_lines: dict[int, HistoryLine] = field(default_factory=dict, compare=False, repr=False)


_LINES_MARKS = itertools.count()
"""The source of :attr:`TableFold.lines`: never the same number twice in a process."""


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
        """When play started: the table's first entry (undone or not), else, before any entry,
        when the table was made (players may make a table long before they play)."""
        return self.first_entry_at or self.record.created_at

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
        """How long the game took, from :attr:`started_at` to its end (``None`` while it goes on).
        The one duration the table page, past games and exports say."""
        return self.finished_at - self.started_at if self.finished_at else None

    @property
    def duration_min(self) -> int | None:
        """:attr:`duration` in whole minutes, at least 1 (``None`` while the game goes on)."""
        return whole_minutes(self.duration) if self.duration is not None else None

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

    def moves_for(self, seat: int | None) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
        """What the page of the phone at ``seat`` offers (``None``: the whole table's phone): its
        moves (:meth:`card_data.engine.Engine.allowed` for ``seat``) and the other players' (the
        moves fixed to another seat that the rules offer when ``seat`` asks; none for the whole
        table's phone), from one pass of the rules (:meth:`~card_data.engine.Engine.offered`),
        worked out once per table version and seat: the fold of a version is shared by every
        request that shows it (every phone polling the table), and its state never changes."""
        kept = self._fold.moves.get(seat)
        if kept is None:
            offered = self.engine.offered(self.state, seat)
            if seat is None:
                kept = (tuple(offered), ())
            else:
                kept = (tuple(seat_moves(offered, seat)),
                        tuple(m for m in offered if m.seat is not None and m.seat != seat))
            self._fold.moves[seat] = kept
        return kept

    @cached_property
    def history(self) -> list[HistoryLine]:
        """Every entry, oldest first, undone and corrected ones included."""
        return [self._line(e) for e in self._fold.events.values()]

    def recent(self, count: int) -> list[HistoryLine]:
        """The newest ``count`` entries, newest first (undone and corrected ones included),
        without listing the rest of the log."""
        return [self._line(self._fold.events[seq]) for seq in itertools.islice(reversed(self._fold.events), count)]

    @property
    def lines_mark(self) -> int:
        """A mark of what the history's lines say (:attr:`TableFold.lines`): at two versions of
        this table with the same mark, every entry both hold has the same line (status, text,
        what it corrects), so a line drawn at one is drawn alike at the other (given the same
        colours and the same entry that could not be applied)."""
        return self._fold.lines

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

    def undo_line(self) -> HistoryLine | None:
        """The line of the entry Undo takes back (:attr:`undo_seq`), or ``None`` if none."""
        seq = self.undo_seq
        return self._line(self._fold.events[seq]) if seq is not None else None

    def last_line(self) -> HistoryLine | None:
        """The newest entry, or ``None`` for an empty log."""
        events = self._fold.events
        return self._line(events[max(events)]) if events else None

    def _line(self, e: EventRecord) -> HistoryLine:
        made = self._fold.made_lines.get(e.seq)
        if made is None:
            text = self._fold.texts.get(e.seq) or _inactive_text(self.engine, e)
            made = self._fold.made_lines[e.seq] = HistoryLine(e.seq, e.payload, e.status, e.corrects, text,
                                                              e.created_at.isoformat())
        return made

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
        """The table as the JSON API gives it (a new dict each call; its ``state`` and
        ``outcome`` are made once per table version and shared: not to be changed)."""
        dumped = self._fold.dumped
        if not dumped:  # two threads may both make it: the same either way
            dumped.update(state=self.state.model_dump(mode="json"), outcome=self.outcome.model_dump(mode="json"))
        data = {
            "code": self.record.code,
            "token": self.record.token,
            "game": self.record.game,
            "players": self.record.players,
            "colours": self.colours,
            "options": self.record.options,
            "version": self.record.version,
            "state": dumped["state"],
            "outcome": dumped["outcome"],
            "problem": self.problem.as_json() if self.problem else None,
        }
        if with_history:
            data["events"] = [h.__dict__ for h in self.history]
        return data

    def shared_json(self, dumps: Callable[[Any], str]) -> str:
        """The members ``"outcome": {...}, "state": {...}`` of :meth:`as_json` as JSON text
        (``dumps``: the app's encoder, the same each call), encoded once per table version and
        shared: a Carpe Diem state is ~11 kB of JSON, most of it the board, and every API
        client polling the table at this version gets the same."""
        dumped = self._fold.dumped
        text = dumped.get("text")
        if text is None:  # two threads may both make it: the same either way
            data = self.as_json()
            text = dumped["text"] = dumps({"outcome": data["outcome"], "state": data["state"]})[1:-1]
        return text


def _inactive_text(engine: Engine, e: EventRecord) -> str:
    """A line for an entry never folded here (undone or corrected before this process saw it):
    its event's label (Words where the game made one), else its type in words."""
    kind = e.payload.get("type") if isinstance(e.payload, dict) else None
    cls = engine.events.get(kind) if isinstance(kind, str) else None
    label = getattr(cls, "label", None)
    return label or str(e.payload.get("type", "entry")).replace("_", " ").capitalize()


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
    spare = iter([c for c in dict.fromkeys((*own, *PLAYER_COLOURS)) if c not in taken])  # each colour once
    return [chosen[seat] if seat < len(chosen) else named.get(seat) or next(spare) for seat in range(len(names))]


def whole_minutes(duration: timedelta) -> int:
    """``duration`` rounded to whole minutes, at least 1 (a game played is never 0 minutes)."""
    return max(1, round(duration.total_seconds() / 60))
