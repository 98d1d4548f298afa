"""The engine core every game's rules plug into (see :mod:`card_data.engine.core`)."""

from card_data.engine.core import Engine, Model, Outcome, RuleError

__all__ = ["Engine", "Model", "Outcome", "RuleError"]
