"""The rule-engine core every game plugs into: :mod:`.core` (states, events, the engine),
:mod:`.forms` (the forms a page renders from the events the rules allow now),
:mod:`.seats` (the one seat type), :mod:`.scoreboard` (what a table's first screen shows), :mod:`.bounds` (the bounded numbers events take) and
:mod:`.wording` (what the engines say, translatable).

Pure Python: no web framework, database or I/O. State in, event in, new state (and its
history line) or a :class:`RuleError` out.

The names below are imported from their modules when first asked for: a game's package
imports :mod:`.wording` for the words it names its rulebook with, and a print build that
discovers the games (it reads each one's ``ORDER``) then does not import the engine core.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from card_data.engine.bounds import Bounded
    from card_data.engine.core import (
        Engine,
        Event,
        GameState,
        Model,
        Outcome,
        Phase,
        ReadOnlyDict,
        RuleError,
        Step,
        outcome,
        replace_at,
    )
    from card_data.engine.forms import Choice, Counter, FormField, Move, choices
    from card_data.engine.scoreboard import Scoreboard
    from card_data.engine.seats import MAX_SEATS, Seat
    from card_data.engine.wording import Said, Words

_HOMES = {
    "bounds": ("Bounded",),
    "core": ("Engine", "Event", "GameState", "Model", "Outcome", "Phase", "ReadOnlyDict", "RuleError", "Step",
             "outcome", "replace_at"),
    "forms": ("Choice", "Counter", "FormField", "Move", "choices", "seat_moves"),
    "scoreboard": ("Scoreboard",),
    "seats": ("MAX_SEATS", "Seat"),
    "wording": ("Said", "Words"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = list(_HOME_OF)


def __getattr__(name: str) -> Any:
    """``name`` (one of :data:`__all__`) from its module, imported now if it was not yet.
    Raises ``AttributeError`` for any other name, as a module does."""
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
