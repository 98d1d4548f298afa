"""The rule-engine core every game plugs into: :mod:`.core` (states, events, the engine),
:mod:`.forms` (the forms a page renders from the events the rules allow now),
:mod:`.seats` (the one seat type), :mod:`.scoreboard` (what a table's first screen shows), :mod:`.bounds` (the bounded numbers events take) and
:mod:`.wording` (what the engines say, translatable).

Pure Python: no web framework, database or I/O. State in, event in, new state (and its
history line) or a :class:`RuleError` out.
"""

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

__all__ = ["Bounded", "MAX_SEATS", "Engine", "Event", "GameState", "Model", "Outcome", "Phase", "ReadOnlyDict", "RuleError",
           "Seat", "Step", "outcome", "replace_at", "Choice", "Counter", "FormField", "Move", "choices", "Scoreboard",
           "Said", "Words"]
