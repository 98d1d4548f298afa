"""TRANSITIONAL: the engines not yet moved onto :mod:`card_data.engine.core`, behind the same
interface (``step``, ``parse_event``, ``allowed``...). Removed once every game has moved."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from card_data.engine.core import RuleError, Step
from card_data.problems import InvalidInput, Problem


class Model(BaseModel):
    """The old base: unknown fields are errors, values immutable (shallowly)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Outcome(Model):
    """The old outcome, with lists: where a game stands (see :class:`card_data.engine.Outcome`)."""

    finished: bool
    winners: list[int] = []
    scores: list[float] = []
    score_label: str = "Score"
    summary: str = ""


@dataclass(frozen=True)
class LegacyEngine:
    """An engine as plain functions: ``apply(state, event)``, ``describe(state, event)``..."""

    game_id: str
    title: str
    min_players: int
    max_players: int
    options_model: type[BaseModel]
    state_model: type[BaseModel]
    event_adapter: TypeAdapter
    new_state_fn: Callable[[list[str], Any, Any], BaseModel]
    apply_fn: Callable[[BaseModel, Any], BaseModel]
    outcome_fn: Callable[[BaseModel], Outcome]
    describe_fn: Callable[[BaseModel, Any], str]

    @property
    def events(self) -> dict[str, Any]:
        mapping = self.event_adapter.json_schema().get("discriminator", {}).get("mapping", {})
        return {name: None for name in sorted(mapping)}

    def parse_options(self, data: Mapping[str, Any] | BaseModel | None) -> BaseModel:
        if isinstance(data, self.options_model):
            return data
        try:
            return self.options_model.model_validate(dict(data or {}))
        except ValidationError as exc:
            raise InvalidInput("invalid options", Problem.from_validation_error(exc, data=data,
                                                                                prefix="options")) from None

    def new_state(self, players: Sequence[str], options: Any, game: Any) -> BaseModel:
        players = list(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise RuleError(f"{self.title}: {self.min_players} to {self.max_players} players",
                            f"this table has {len(players)} players")
        return self.new_state_fn(players, self.parse_options(options), game)

    def parse_event(self, data: Any) -> Any:
        if not isinstance(data, Mapping) or "type" not in data:
            raise InvalidInput('an event is a JSON object with a "type"',
                               [Problem(field="type", message=f"one of: {', '.join(self.events)}")])
        try:
            return self.event_adapter.validate_python(data)
        except ValidationError as exc:
            raise InvalidInput("invalid event", Problem.from_validation_error(exc, data=data)) from None

    def step(self, state: BaseModel, event: Any) -> Step:
        if isinstance(event, Mapping):
            event = self.parse_event(event)
        line = self.describe_fn(state, event)
        return Step(self.apply_fn(state, event), line)

    def apply(self, state: BaseModel, event: Any) -> BaseModel:
        return self.apply_fn(state, event)

    def describe(self, state: BaseModel, event: Any) -> str:
        return self.describe_fn(state, event)

    def outcome(self, state: BaseModel) -> Outcome:
        return self.outcome_fn(state)

    def allowed(self, state: BaseModel, seat: int | None = None) -> None:
        """Unknown: a legacy engine's page template holds its own forms."""
        return None

    def event_json(self, event: Any) -> dict[str, Any]:
        return event.model_dump(mode="json")

    def event_schema(self, ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
        return self.event_adapter.json_schema(ref_template=ref_template)
