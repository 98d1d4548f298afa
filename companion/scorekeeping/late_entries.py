"""Entries sent from a page drawn before the table last changed: record, repeat or conflict.

A phone's form was drawn at some table version (``since``); by the time it is sent, other
phones may have entered more. That alone is no reason to refuse it: the rules are checked
against the table as it is now anyway. Such an entry is

- a **repeat** when an entry recorded since the form was drawn is the same event with the same
  fields (both phones tapped "Next round"), or this one would change nothing now and says all
  that one said (both phones set Bea's coins to 4; one form also sent the fish she already
  had): nothing is recorded again, and the phone is told, neutrally, who
  recorded it (:class:`AlreadyDone`);
- a **conflict** when the rules refuse it now (:class:`companion.scorekeeping.tables.StaleVersion`, saying
  what changed and why it is refused);
- else recorded as sent.

An Undo names the entry it takes back; an Undo of an entry already undone is likewise
:class:`AlreadyDone`.

Who recorded an entry is known to the process that recorded it (:class:`Recorders`, a bounded
memory, not stored: a table served by several processes may not know it, and then just says
"Already recorded").
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from threading import Lock
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from card_data.engine import Engine, Event, Step, Words
from companion.scorekeeping.entry_problems import apply_entry
from companion.scorekeeping.store.storage import EventRecord

if TYPE_CHECKING:
    from companion.scorekeeping.table_view import HistoryLine, TableView

REMEMBERED_RECORDERS = 4096
"""How many recent entries (and undos) :class:`Recorders` remembers the recorder of."""


class AlreadyDone(Exception):
    """The entry (``undone`` false) or the undo (``undone`` true) another phone already made
    since the page was drawn: nothing was changed. ``line``: that entry's history line;
    ``by``: the name of the player whose phone made it, if known; ``view``: the table now.
    ``message`` is what to tell the player (:class:`~card_data.engine.Words`)."""

    def __init__(self, view: TableView, line: HistoryLine, by: str | None, undone: bool = False):
        self.view, self.line, self.by, self.undone = view, line, by, undone
        if undone:
            self.message = (Words("Already undone by %(name)s: %(entry)s", name=by, entry=line.text) if by
                            else Words("Already undone: %(entry)s", entry=line.text))
        else:
            self.message = (Words("Already recorded by %(name)s: %(entry)s", name=by, entry=line.text) if by
                            else Words("Already recorded: %(entry)s", entry=line.text))
        super().__init__(str(self.message))


def late_entry(engine: Engine, state: BaseModel, events: dict[int, EventRecord], event: Event,
               since: int | None) -> tuple[EventRecord | None, Step | None]:
    """``event``, drawn at table version ``since`` (``None``: nothing recorded since), as the
    table ``state`` with log ``events`` takes it: ``(row, None)`` when it repeats ``row``, an
    entry recorded since (see the module); else ``(None, step)``, its step on ``state``.
    Raises what :func:`~companion.scorekeeping.entry_problems.apply_entry` raises (:class:`RuleError`:
    the rules refuse it now)."""
    payload = event.to_json()
    if since is not None and (same := repeat_of(events, since, lambda stored: stored == payload)):
        return same, None
    step = apply_entry(engine, state, event)
    if since is not None and step.state == state:  # changes nothing: the same as one just recorded?
        alike = repeat_of(events, since, lambda stored: all(payload.get(name) == value
                                                            for name, value in stored.items() if value is not None))
        if alike is not None:
            return alike, None
    return None, step


def repeat_of(events: dict[int, EventRecord], since: int,
              same: Callable[[dict[str, Any]], bool]) -> EventRecord | None:
    """The newest active entry of ``events`` written after table version ``since`` whose
    stored payload is ``same``, or ``None``."""
    for row in reversed(events.values()):
        if row.at_version is None or row.at_version <= since:
            break  # rows are in seq order, and versions grow with seq
        if row.status == "active" and isinstance(row.payload, dict) and same(row.payload):
            return row
    return None


class Recorders:
    """Which seat's phone recorded (or undid) each recent entry, by ``(table id, seq, undone)``:
    at most :data:`REMEMBERED_RECORDERS` of them, the oldest forgotten first. Thread-safe."""

    def __init__(self, most: int = REMEMBERED_RECORDERS):
        self._seats: OrderedDict[tuple[int, int, bool], int] = OrderedDict()
        self._most = most
        self._lock = Lock()

    def note(self, table_id: int, seq: int, seat: int | None, undone: bool = False) -> None:
        """Remember that ``seat``'s phone made it (nothing for a phone that said no seat)."""
        if seat is None:
            return
        with self._lock:
            self._seats[(table_id, seq, undone)] = seat
            while len(self._seats) > self._most:
                self._seats.popitem(last=False)

    def name(self, table_id: int, seq: int, players: list[str], undone: bool = False) -> str | None:
        """The name of the player whose phone made it, or ``None`` if not known."""
        with self._lock:
            seat = self._seats.get((table_id, seq, undone))
        return players[seat] if seat is not None and 0 <= seat < len(players) else None
