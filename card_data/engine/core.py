"""The engine core: immutable validated states, events as classes, one engine per game.

A game plugs in with three things:

- a state class (:class:`GameState`): frozen, every field validated on every transition
  (:meth:`Model.evolve`), tuples rather than lists, read-only mappings
  (:data:`ReadOnlyDict`). It says where the game stands: :attr:`GameState.phase` (one
  vocabulary for every game, :data:`Phase`), its scores, winners and a summary;
- one class per event (:class:`Event`), registered with ``@engine.event``. The class holds
  everything about the event: its fields and their validation (pydantic; every number
  bounded, :class:`~card_data.engine.bounds.Bounded`, or the class is refused), its handler
  (:meth:`Event.apply`), its history line (:meth:`Event.describe`, or a :class:`Step` from
  ``apply``) and its form (:meth:`Event.moves`: who may enter it now and with which
  choices). Nothing else names it: its stored name, :attr:`Event.type_name`, is derived
  from the class name;
- an :class:`Engine`: the game's id, title, player counts, options and set-up.

Adding an event to a game is writing one class. For example, a C.A.H.R.D. rule "a player may
concede the battle during their own turn" would be, in
``card_data/games/cahrd/rules/events_turn.py`` (``tests/test_rules_cahrd.py`` runs this example)::

    @ENGINE.event
    class Concede(CahrdEvent):
        \"\"\"Winning the Battle: the initiative player gives up the battle.\"\"\"

        label = Words("Concede the battle")
        seat: Seat

        @classmethod
        def moves(cls, state, seat):
            if not state.turn_in_progress():
                return []
            return [cls.offer(state, seat=state.initiative)]

        def apply(self, state):
            if not state.turn_in_progress() or self.seat != state.initiative:
                raise RuleError(RULE_ORDER, Words("only the initiative player concedes, in their turn"))
            return end_battle(state, 1 - self.seat, Words("%(name)s conceded", name=state.players[self.seat]))

        def describe(self, before, after):
            return Words("%(name)s conceded battle %(n)d", name=before.players[self.seat], n=before.battle_number)

The engine then parses it from JSON (``{"type": "concede", "seat": 0}``), checks its seat,
applies it, words its history line, offers its form to the page and describes it in the
API's OpenAPI document.

Everything an engine says to players is :class:`~card_data.engine.wording.Words` (a label, a
rule, a refusal, a history line, a summary): English wherever a ``str`` is, said in the
player's language by the pages. A model field that carries such text is typed
:data:`~card_data.engine.wording.Said` (a field typed ``str`` would turn it into a plain
``str``); dataclasses and exceptions keep it as given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
import dataclasses
from dataclasses import dataclass
from types import MappingProxyType
from typing import (
    Annotated,
    Any,
    ClassVar,
    Generic,
    Literal,
    Self,
    TypeVar,
)

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    ValidationError,
    WrapSerializer,
)

from card_data.engine.bounds import unbounded_numbers
from card_data.engine.forms import Choice, Counter, FormField, Move, derive_field, offer, seat_moves
from card_data.engine.scoreboard import Scoreboard, scoreboard
from card_data.engine.seats import SEAT
from card_data.engine.tracked import Tracked
from card_data.engine.wording import Said, Words
from card_data.problems import InvalidInput, Problem


class RuleError(Exception):
    """An event the rules forbid.

    Attributes:
        rule: the rule broken, naming the rulebook and section, e.g.
            ``"Carpe Cras rulebook V1.0, Morale: a city can never have more than its starting morale"``.
        message: what was wrong with this event, e.g. ``"Blue's morale is already 15"``.

    Both are :class:`~card_data.engine.wording.Words` where a page should say them in the
    player's language (kept as given). ``str(error)`` is ``"<message> (<rule>)"`` in English,
    for the JSON API and logs.
    """

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{message} ({rule})")


class Model(BaseModel):
    """Base for states, events and options: unknown fields are errors, values immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def evolve(self, **changes: Any) -> Self:
        """A copy with ``changes``, validated like a new instance.

        Every field goes through validation again (nested models already validated are
        taken as they are), so a wrong type or an unknown field raises pydantic's
        ``ValidationError`` here, at the transition that made it, and lists given for tuple
        fields become tuples.
        """
        data = {name: getattr(self, name) for name in type(self).model_fields}
        data.update(changes)
        return type(self).model_validate(data)


K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


def replace_at(items: Sequence[T], index: int, value: T) -> tuple[T, ...]:
    """``items`` as a tuple with item ``index`` replaced by ``value``: how a state's per-seat
    tuples change (``replace_at(state.morale, seat, 12)``)."""
    return tuple(value if i == index else item for i, item in enumerate(items))


def _read_only(mapping: dict) -> Mapping:
    return MappingProxyType(mapping)


ReadOnlyDict = Annotated[dict[K, V], AfterValidator(_read_only), WrapSerializer(lambda value, nxt: nxt(dict(value)))]
"""A mapping field that cannot be changed in place (a ``MappingProxyType`` over a validated
dict); serialised as a plain JSON object. Use as ``ReadOnlyDict[str, CardInfo]``."""


Phase = Literal["setup", "play", "scoring", "over"]
"""Where any game stands, in one vocabulary: ``setup`` (before play: rolling for the first
player, choosing decks, placing officers, between battles), ``play`` (rounds and turns),
``scoring`` (scores being entered, e.g. Carpe Diem's scoring periods) and ``over`` (the
game, match or war has ended: nothing more is accepted). A game's own finer steps are its
state's ``step``."""


class Outcome(Model):
    """Where a game stands, for any game.

    ``finished``: the game is over. ``winners``: seats of the winner(s), empty while
    unfinished or for a draw. ``scores``: one number per seat (points, morale, battles won...
    as the game counts it); ``score_label`` says what they are. ``summary``: one line for
    people, e.g. ``"Red wins: Blue's morale fell to 0"``. The two texts keep the
    :class:`~card_data.engine.wording.Words` they are given (:data:`Said`); JSON has them as
    English strings.
    """

    finished: bool
    winners: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()
    score_label: Said = Words("Score")
    summary: Said = ""


class GameState(Model):
    """Base of every game's state: the players by seat and the :data:`Phase`.

    Games add their own fields and implement :meth:`scores`, :meth:`winners` and
    :meth:`summary`; :func:`outcome` builds the :class:`Outcome` from them.
    """

    score_label: ClassVar[str] = Words("Score")
    """What :meth:`scores` counts, e.g. ``Words("Morale")``."""
    highest_wins: ClassVar[bool] = True
    """Whether a higher number in :meth:`scores` is better (play logs such as BG Stats' ``highestWins``)."""

    players: tuple[str, ...]
    phase: Phase

    @property
    def finished(self) -> bool:
        """Whether the game is over (``phase == "over"``)."""
        return self.phase == "over"

    def scores(self) -> tuple[float, ...]:
        """One number per seat, as the game counts it."""
        raise NotImplementedError

    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over; empty for a draw."""
        raise NotImplementedError

    def summary(self) -> str:
        """One line for people: who won and why, or where the game stands (a
        :class:`~card_data.engine.wording.Words`, to be said in the page's language)."""
        raise NotImplementedError

    def counters(self) -> list[Counter]:
        """The numbers players change by hand most, with their −/+ moves (none by default)."""
        return []

    def tracked(self) -> tuple[Tracked, ...]:
        """The numbers each player has that a picture of the game follows over its entries, each
        with one value per seat: by default the :meth:`scores` under :attr:`score_label`. A game
        with more to follow (e.g. C.A.H.R.D.'s grain) adds its own, the same ones in the same
        order in every state of a game."""
        return (Tracked(self.score_label, tuple(float(s) for s in self.scores())),)

    def scoreboard(self) -> Scoreboard:
        """What the table's first screen shows: by default each seat's :meth:`scores` under
        :attr:`score_label`, and :meth:`summary` as the line. Games override it to show more
        (e.g. grain beside battles won) or to say whose turn it is."""
        return scoreboard([self.score_label], [[score] for score in self.scores()], self.summary())

    def rounds_played(self) -> int:
        """Rounds played so far, as the game counts them (for play logs such as BG Stats'
        ``rounds``); 0 for a game without rounds."""
        return 0

    def start_seat(self) -> int | None:
        """The seat that takes the game's first turn, once this state knows it (play logs'
        start player): ``None`` until then, and always for a game without one (simultaneous
        play). A game that forgets it later says it in the states where it is known: a
        caller takes the first answer of the states in play order."""
        return None

    def seat_choices(self) -> tuple[tuple[int, str], ...]:
        """``(seat, name)`` of every player, for forms."""
        return tuple(enumerate(self.players))


def outcome(state: GameState) -> Outcome:
    """Where ``state`` stands, for any game: finished once its phase is ``over``."""
    return Outcome(finished=state.finished, winners=state.winners() if state.finished else (),
                   scores=tuple(float(s) for s in state.scores()), score_label=state.score_label,
                   summary=state.summary())


S = TypeVar("S", bound=GameState)


@dataclass(frozen=True)
class Step(Generic[S]):
    """The result of one event: the new ``state`` and the history ``line`` that tells it (a
    :class:`~card_data.engine.wording.Words`, kept as it is: a dataclass does not convert it)."""

    state: S
    line: str


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class Event(Model):
    """One thing that happened at the table; subclass once per kind of event.

    Class attributes:
        type_name: the name the stored log and the JSON API use: the class name in snake
            case (class ``ScorePoint``: ``score_point``); set it to keep a stored name when
            renaming a class.
        label: what the form's button says, e.g. ``Words("Strike the city")`` (without one,
            the class name in words, which no page can translate).

    Override :meth:`apply` (required), :meth:`describe` (unless ``apply`` returns a
    :class:`Step`) and :meth:`moves`.
    """

    type_name: ClassVar[str] = ""
    label: ClassVar[str] = ""
    engine: ClassVar[Engine]
    """The engine the class is registered with (set by :meth:`Engine.event`)."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if "type_name" not in cls.__dict__:
            cls.type_name = _snake(cls.__name__)
        if "label" not in cls.__dict__:
            cls.label = _snake(cls.__name__).replace("_", " ").capitalize()

    def apply(self, state: Any) -> Any:
        """The state after this event, or a :class:`Step` with its history line; ``state`` is
        never changed. Raises :class:`RuleError` naming the rulebook section when the rules
        forbid it."""
        raise NotImplementedError(f"{type(self).__name__}.apply")

    def describe(self, before: Any, after: Any) -> str:
        """The history line for this event, from the states before and after it (called only
        when :meth:`apply` returned a plain state; it must not apply the event again)."""
        return self.label

    @classmethod
    def moves(cls, state: Any, seat: int | None) -> Sequence[Move]:
        """The forms for this event that the rules allow now, with their choices (see
        :meth:`offer`); empty when the event is not allowed. ``seat``: the player asking, or
        ``None`` for the whole table. The default offers a plain form of every field."""
        return [cls.offer(state)]

    @classmethod
    def offer(cls, state: Any, *, label: str | None = None, seat: int | None = None, hint: str = "",
              defaults: Mapping[str, Any] | None = None, **values: Any) -> Move:
        """A form for this event (see :func:`card_data.engine.forms.offer`)."""
        return offer(cls, state, label=label, seat=seat, hint=hint, defaults=defaults, **values)

    def to_json(self) -> dict[str, Any]:
        """The event as the stored log and the API hold it: ``{"type": ..., field: value...}``."""
        return {"type": self.type_name, **self.model_dump(mode="json")}


E = TypeVar("E", bound=Event)



GAME_OVER = Words("the game is over")
"""What an entry after the end is told when the state's summary says nothing more."""

class Engine(Generic[S]):
    """One game's rules: its events, set-up and options, over pure functions of the state.

    Args:
        game_id: the card database's game id, e.g. ``"carpe_cras"``.
        title: the game's name for people.
        min_players, max_players: how many seats a table may have.
        options: the table options model (editions, variants), every field defaulted.
        state: the game's :class:`GameState` class.
        setup: ``(players, options, game) -> state``: a new table, ``game`` being the
            game's ``card_data.loader.Game``; raises :class:`RuleError` for an impossible
            set-up (e.g. an unknown deck).
        over_rule: the rule cited when an event arrives after the game is over.
        rulebook: how rule texts name the rulebook (e.g. ``"C.A.H.R.D. Official Rulebook
            1.0"``), for the seat and player-count refusals.
        stored_defaults: for options added after tables were first stored, the value that
            gives a table stored without them the rules it was played under (today's default
            may read the rules differently); see :meth:`stored_options`.
        option_choices: ``game -> {option: choices}``: for options whose value must be one of
            the card data's (e.g. an army deck), the legal values of ``game`` (the same
            ``card_data.loader.Game`` as ``setup``'s) as :class:`Choice` objects, so that a
            form offers them (:meth:`option_fields`); ``setup`` still refuses any other.
    """

    def __init__(self, *, game_id: str, title: str, min_players: int, max_players: int,
                 options: type[Model], state: type[S], setup: Callable[[tuple[str, ...], Any, Any], S],
                 over_rule: str, rulebook: str, stored_defaults: Mapping[str, Any] | None = None,
                 option_choices: Callable[[Any], Mapping[str, Sequence[Choice]]] | None = None):
        self.game_id = game_id
        self.title = title
        self.min_players = min_players
        self.max_players = max_players
        self.options_model = options
        self.state_model = state
        self.over_rule = over_rule
        self.rulebook = rulebook
        self._setup = setup
        self.stored_defaults = dict(stored_defaults or {})
        self._option_choices = option_choices
        self.events: dict[str, type[Event]] = {}
        _require_bounds(f"{game_id} options", options)

    def __repr__(self) -> str:
        return f"Engine({self.game_id!r}, {len(self.events)} events)"

    def event(self, cls: type[E]) -> type[E]:
        """Class decorator: register ``cls`` as one of this game's events. Raises
        ``ValueError`` if another event already has its ``type_name``, ``TypeError`` if one of
        its numbers (nested ones included) lacks a lower or an upper bound (type it
        :class:`~card_data.engine.bounds.Bounded`)."""
        if cls.type_name in self.events:
            raise ValueError(f"{self.game_id}: two events named {cls.type_name!r}")
        _require_bounds(f"{self.game_id} event {cls.__name__}", cls)
        self.events[cls.type_name] = cls
        cls.engine = self
        return cls

    # -- tables ------------------------------------------------------------------------------

    def parse_options(self, data: Mapping[str, Any] | Model | None) -> Model:
        """The table options from their JSON (missing ones defaulted). Raises
        :class:`InvalidInput` listing every bad option as ``options.<name>``."""
        if isinstance(data, self.options_model):
            return data
        try:
            return self.options_model.model_validate(dict(data or {}))
        except ValidationError as exc:
            raise InvalidInput(Words("invalid options"), Problem.from_validation_error(exc, data=data,
                                                                                       prefix="options")) from None

    def option_fields(self, game: Any) -> tuple[FormField, ...]:
        """The new-table form's inputs, one per option, from the options model (see
        :func:`~card_data.engine.forms.derive_field`); an option the card data narrows
        (``option_choices``) is a choice of ``game``'s values, with no empty choice."""
        narrowed = dict(self._option_choices(game)) if self._option_choices is not None and game is not None else {}
        fields = []
        for name in self.options_model.model_fields:
            form_field = derive_field(self.options_model, name, None)
            if name in narrowed:
                form_field = dataclasses.replace(form_field, kind="choice", choices=tuple(narrowed[name]),
                                                 none_label="")
            fields.append(form_field)
        return tuple(fields)

    def stored_options(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """A table's options as stored, with :attr:`stored_defaults` for those it was stored
        without: a table keeps the readings it was started with. (A new table stores every
        option, so a missing one means the table predates it.)"""
        return {**self.stored_defaults, **stored}

    def new_state(self, players: Sequence[str], options: Mapping[str, Any] | Model | None, game: Any) -> S:
        """A new table for ``players`` (names by seat) with ``options`` (model or JSON).

        Raises :class:`RuleError` for a number of players the game is not for, or a set-up
        the game refuses; :class:`InvalidInput` for bad options.
        """
        players = tuple(players)
        if not self.min_players <= len(players) <= self.max_players:
            wanted = (str(self.min_players) if self.min_players == self.max_players
                      else Words("%(least)d to %(most)d", least=self.min_players, most=self.max_players))
            raise RuleError(Words("%(rulebook)s: %(game)s is for %(count)s players", rulebook=self.rulebook,
                                  game=self.title, count=wanted),
                            Words("this table has %(count)d players", count=len(players)))
        return self._setup(players, self.parse_options(options), game)

    # -- events ------------------------------------------------------------------------------

    def parse_event(self, data: Any) -> Event:
        """An event from its JSON (``{"type": ..., ...}``). Raises :class:`InvalidInput` for a
        missing or unknown type, unknown fields or wrong types."""
        names = ", ".join(self.events)
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
            raise InvalidInput(Words('an event is a JSON object with a "type"'),
                               [Problem(field="type", message=Words("one of: %(names)s", names=names))])
        cls = self.events.get(data["type"])
        if cls is None:
            raise InvalidInput(Words("%(game)s has no event %(type)r", game=self.title, type=data["type"]),
                               [Problem(field="type", message=Words("one of: %(names)s", names=names))])
        fields = {key: value for key, value in data.items() if key != "type"}
        try:
            return cls.model_validate(fields)
        except ValidationError as exc:
            raise InvalidInput(Words("invalid %(event)s event", event=cls.type_name),
                               Problem.from_validation_error(exc, data=fields)) from None

    def step(self, state: S, event: Event | Mapping[str, Any]) -> Step[S]:
        """Apply ``event`` (an event or its JSON) once: the new state and its history line.

        Raises :class:`RuleError` once the game is over, for a seat that is not the table's,
        or when the event's own rules forbid it; :class:`InvalidInput` for malformed JSON.
        ``state`` is never changed.
        """
        if not isinstance(event, Event):
            event = self.parse_event(event)
        if type(event) is not self.events.get(event.type_name):
            raise TypeError(f"{type(event).__name__} is not a {self.title} event")
        if state.finished:
            summary = state.summary()
            said = summary and str(summary) != str(GAME_OVER)  # a result to tell, not the same words again
            raise RuleError(self.over_rule, Words("the game is over – %(result)s – nothing more is entered",
                                                  result=summary) if said else GAME_OVER)
        self._check_seats(state, event)
        result = event.apply(state)
        if isinstance(result, Step):
            return result
        return Step(result, event.describe(state, result))

    def apply(self, state: S, event: Event | Mapping[str, Any]) -> S:
        """The state after ``event``; see :meth:`step`."""
        return self.step(state, event).state

    def _check_seats(self, state: GameState, event: Event) -> None:
        for name, info in type(event).model_fields.items():
            if SEAT not in info.metadata and not _optional_seat(info.annotation):
                continue
            value = getattr(event, name)
            if value is not None and value >= len(state.players):
                raise RuleError(Words("%(rulebook)s: one seat per player", rulebook=self.rulebook),
                                Words("%(field)s %(seat)d is not a seat at this table of %(count)d "
                                      "(seats 0 to %(last)d)", field=name, seat=value, count=len(state.players),
                                      last=len(state.players) - 1))

    # -- where the game stands -----------------------------------------------------------------

    def outcome(self, state: S) -> Outcome:
        """Where ``state`` stands (see :func:`outcome`)."""
        return outcome(state)

    def allowed(self, state: S, seat: int | None = None) -> list[Move]:
        """Every event the rules allow now, as forms with their legal choices.

        ``seat``: the player asking (only their moves and the table's are returned, a free
        choice of seat narrowed to them), or ``None`` for everyone's. Empty once the game is
        over.
        """
        moves = self.offered(state, seat)
        return moves if seat is None else seat_moves(moves, seat)

    def counters(self, state: S) -> list[Counter]:
        """The state's :meth:`GameState.counters`, their −/+ moves left out once the game is
        over (as :meth:`allowed` offers nothing then): the numbers stay to read."""
        counters = state.counters()
        if not state.finished:
            return counters
        return [dataclasses.replace(c, minus=None, plus=None) for c in counters]

    def offered(self, state: S, seat: int | None = None) -> list[Move]:
        """Every event the rules offer now to the player ``seat`` asks for (``None``: the whole
        table), as each event class's :meth:`Event.moves` gives them: other players' moves
        included, a free choice of seat not narrowed (what :meth:`allowed` narrows). Empty
        once the game is over."""
        if state.finished:
            return []
        return [move for cls in self.events.values() for move in cls.moves(state, seat)]

    # -- description ---------------------------------------------------------------------------

    def event_schema(self, ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
        """A JSON schema of every event of this game: one object per event with its ``type``
        constant, discriminated on ``type``; nested models under ``$defs``."""
        defs: dict[str, Any] = {}
        variants = []
        mapping = {}
        for name, cls in self.events.items():
            schema = cls.model_json_schema(ref_template=ref_template)
            defs.update(schema.pop("$defs", {}))
            schema["properties"] = {"type": {"const": name, "type": "string"}, **schema.get("properties", {})}
            schema["required"] = ["type", *schema.get("required", [])]
            defs[cls.__name__] = schema
            ref = ref_template.format(model=cls.__name__)
            variants.append({"$ref": ref})
            mapping[name] = ref
        return {"oneOf": variants, "discriminator": {"propertyName": "type", "mapping": mapping}, "$defs": defs}


def _require_bounds(what: str, model: type[BaseModel]) -> None:
    """Raise ``TypeError`` naming every number of ``model`` without both bounds: what players
    send is stored, so each of its numbers must have a range (see :mod:`card_data.engine.bounds`)."""
    missing = unbounded_numbers(model.model_json_schema())
    if missing:
        raise TypeError(f"{what}: every number needs a lowest and a highest value (Bounded[low, high]): "
                        + "; ".join(missing))


def _optional_seat(annotation: Any) -> bool:
    """Whether ``annotation`` is ``Seat | None``."""
    args = getattr(annotation, "__args__", ())
    return any(SEAT in getattr(arg, "__metadata__", ()) for arg in args)
