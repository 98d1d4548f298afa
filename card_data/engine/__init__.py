"""The rule-engine core every game plugs into: :mod:`.core` (states, events, the engine) and
:mod:`.forms` (the forms a page renders from the events the rules allow now).

Pure Python: no web framework, database or I/O. State in, event in, new state (and its
history line) or a :class:`RuleError` out.
"""

from card_data.engine.core import (
    MAX_SEATS,
    Engine,
    Event,
    GameState,
    Model,
    Outcome,
    Phase,
    ReadOnlyDict,
    RuleError,
    Seat,
    Step,
    outcome,
)
from card_data.engine.forms import Choice, FormField, Move, choices

__all__ = ["MAX_SEATS", "Engine", "Event", "GameState", "Model", "Outcome", "Phase", "ReadOnlyDict", "RuleError",
           "Seat", "Step", "outcome", "Choice", "FormField", "Move", "choices"]
