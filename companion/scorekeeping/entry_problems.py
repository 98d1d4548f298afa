"""Entries a table cannot apply: how an entry is applied as a table applies it, and what players
are told when one of its log's entries raises (:class:`EntryProblem`).

A log may hold an entry that today's rules refuse, that no longer reads as an event (stored by
an older version: an event since renamed, a value since bounded), or that breaks the engine in
some other way; the fold (:func:`companion.scorekeeping.table_view.fold_entries`) stops there instead of failing
the whole table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from card_data.engine import Engine, Event, RuleError, Step, Words
from card_data.problems import InvalidInput
from companion.scorekeeping.store.storage import EventRecord

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EntryProblem:
    """The first entry of a table's log that could not be applied: the fold stopped there, and
    the table stands as it was before it.

    ``seq``: its row; ``entry``: the number players know it by (the entry it corrects, else
    its own seq); ``message``: why, for people (:class:`~card_data.engine.Words`, said in the
    page's language); ``rule``: the rule that refused it, where a rule did.
    """

    seq: int
    entry: int
    message: str
    rule: str | None = None

    def as_json(self) -> dict[str, Any]:
        """``{"seq", "entry", "error", "rule"}``, the texts in English."""
        return {"seq": self.seq, "entry": self.entry, "error": str(self.message),
                "rule": None if self.rule is None else str(self.rule)}


def apply_entry(engine: Engine, state: BaseModel, event: Event | dict[str, Any]) -> Step:
    """``event`` (an event or its JSON) applied to ``state`` as a table entry: the engine's step
    (see :meth:`~card_data.engine.Engine.step` for what it raises), the new state's outcome
    worked out as well, since every page shows it (a state that cannot give one, e.g. a score
    too large for a float, raises here rather than on the page)."""
    step = engine.step(state, event)
    engine.outcome(step.state)
    return step


def entry_problem(row: EventRecord, error: Exception) -> EntryProblem:
    """What to tell players about log entry ``row``, which raised ``error`` when applied: the
    rule's refusal, the problems of an entry that no longer reads as an event, or, for any other
    error (a bug, or a value an older version let through), the error itself (also logged)."""
    entry = row.corrects or row.seq
    if isinstance(error, RuleError):
        return EntryProblem(row.seq, entry, error.message, error.rule)
    if isinstance(error, InvalidInput):
        if not error.problems:
            return EntryProblem(row.seq, entry, Words("this scorekeeper no longer reads it (%(what)s)",
                                                      what=error.message))
        problems = "; ".join(f"{p.field}: {p.message}" for p in error.problems)
        return EntryProblem(row.seq, entry, Words("this scorekeeper no longer reads it (%(what)s: %(problems)s)",
                                                  what=error.message, problems=problems))
    log.warning("log entry %s (seq %s) could not be applied", entry, row.seq, exc_info=error)
    what = f"{type(error).__name__}: {error}"
    return EntryProblem(row.seq, entry, Words("this scorekeeper could not apply it (%(error)s)", error=what))
