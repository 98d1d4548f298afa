"""What every rule engine shares: the rule error, models, the outcome, and the engine bundle."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter


class RuleError(Exception):
    """An event the rules forbid.

    Attributes:
        rule: the rule broken, naming the rulebook and section, e.g.
            ``"Carpe Cras rulebook, Morale: morale can never exceed its starting value"``.
        message: what was wrong with this event, e.g. ``"Blue's morale is already 15"``.
    ``str(error)`` is ``"<message> (<rule>)"``, fit to show a player.
    """

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{message} ({rule})")


class Model(BaseModel):
    """Base for states, events and options: unknown fields are errors, values immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Outcome(Model):
    """Where a game stands.

    ``finished``: the game is over. ``winners``: seat indexes (0-based) of the winner(s),
    empty while unfinished or for a draw. ``scores``: one number per seat (points, morale,
    grain... as the game counts it), ``score_label`` says what it is. ``summary``: one line
    for people, e.g. ``"Red wins: Blue's morale fell to 0"``.
    """

    finished: bool
    winners: list[int] = []
    scores: list[float] = []
    score_label: str = "Score"
    summary: str = ""


@dataclass(frozen=True)
class Engine:
    """One game's rules, as plain functions over pydantic models.

    Attributes:
        game_id: the card database's game id, e.g. ``"carpe_cras"``.
        title: the game's name for people.
        min_players / max_players: how many seats a table may have.
        options_model: the table options (editions, variants) with defaults; extra fields refused.
        state_model: the game state; JSON-serialisable with ``model_dump(mode="json")``.
        event_adapter: validates an event dict (discriminated on ``"type"``) into an event model.
        new_state: ``(players: list[str], options, game: card_data.loader.Game) -> state``;
            raises :class:`RuleError` for an impossible set-up (e.g. 5 players).
        apply: ``(state, event) -> new state``; raises :class:`RuleError`; never mutates ``state``.
        outcome: ``(state) -> Outcome``.
        describe: ``(state_before, event) -> str``, one readable history line.
    """

    game_id: str
    title: str
    min_players: int
    max_players: int
    options_model: type[BaseModel]
    state_model: type[BaseModel]
    event_adapter: TypeAdapter
    new_state: Callable[[list[str], Any, Any], BaseModel]
    apply: Callable[[BaseModel, Any], BaseModel]
    outcome: Callable[[BaseModel], Outcome]
    describe: Callable[[BaseModel, Any], str]

    def event_types(self) -> list[str]:
        """The ``type`` values this game's events take, from the event union's schema."""
        schema = self.event_adapter.json_schema()
        mapping = schema.get("discriminator", {}).get("mapping", {})
        return sorted(mapping)
