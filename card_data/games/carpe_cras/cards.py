"""Carpe Cras cards and deck-building rules (rulebook ``carpe-cras.txt``, V1.0, August 2025).

A player has two decks that never mix (rulebook, "Building your decks"): the draw deck
(exactly 40 cards, at most 3 copies of a card unless the card allows more) and the agency
deck (exactly 18 agency cards). Those rules are data (``deck_rules`` in
``card_data/carpe_cras/game.yaml``); what stays here is what makes two records the same card
(:meth:`DrawCard.identity`: cost, title and artwork; changing any one makes a different card)
and a card's own copy limit (``max_copies``: Time Flies allows 6).

Section names cited in docstrings are those of the rulebook text; where its headings dropped
out of the source, the topic is named instead (see ``card_data/carpe_cras/README.md``).
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, ValidationInfo, field_validator

from card_data.schema import Card, GameSpec, Strict

AgencyType = Literal["Might", "Cunning", "Fortitude", "Zeal", "Authority", "Affluence"]
"""The six leadership styles (rulebook introduction and "Building your decks")."""

Stat = Annotated[int, Field(ge=0)]
"""A printed stat. Glossary, "Stats": the total for any stat can never be negative."""

CombatType = Literal["melee", "projectile"]
"""Combat: melee reaches up to 1 space, projectile more than 1 space."""

AGENCY_DECK_SIZE = 18
"""Agency cards a player starts with, for the scorekeeper (rules.py); the deck rule itself is in game.yaml."""
MELEE_MAX_RANGE = 1


class Skill(Strict):
    """A skill printed on a unit, hero or duality side (card anatomy "Skill", "Range").

    Attributes:
        name: the weapon or magic, e.g. ``"Knife"``, ``"Sword"``.
        power: damage dealt to a target's health by a successful strike (>= 0).
        range: spaces away the skill can strike; 1 when the card shows none; 0 means only the
            unit's own space (>= 0).
        combat: ``"melee"`` (range up to 1) or ``"projectile"`` (range more than 1).
        accuracy: added to the unit's speed for its first strike only (>= 0).
        dexterity: added to the unit's speed for every strike, first or Strike Twice (>= 0).

    Raises (via pydantic) when ``combat`` disagrees with ``range``.
    """

    name: str = Field(min_length=1)
    power: Stat
    range: Stat = 1
    combat: CombatType
    accuracy: Stat = 0
    dexterity: Stat = 0

    @field_validator("combat")
    @classmethod
    def _combat_fits_range(cls, combat: str, info: ValidationInfo) -> str:
        reach = info.data.get("range")
        if reach is None:
            return combat
        if combat == "melee" and reach > MELEE_MAX_RANGE:
            raise ValueError(f"a melee skill reaches at most {MELEE_MAX_RANGE} space (Combat); "
                             f"range {reach} makes it projectile")
        if combat == "projectile" and reach <= MELEE_MAX_RANGE:
            raise ValueError(f"a projectile skill reaches more than {MELEE_MAX_RANGE} space (Combat); "
                             f"range {reach} makes it melee")
        return combat


class UpgradeSkill(Strict):
    """A skill an upgrade confers on its holder (rulebook "Upgrades").

    Its power adds to the holder's skill of the same name; if the holder has no such skill,
    the upgrade's skill is added as a separate one. ``range_bonus`` adds to that skill's range
    (Dagger: +1 range with Knife). ``combat`` is ``None`` when the rulebook does not say.
    """

    name: str = Field(min_length=1)
    power: Stat = 0
    range_bonus: Stat = 0
    combat: CombatType | None = None
    accuracy: Stat = 0
    dexterity: Stat = 0


class StatBonus(Strict):
    """Non-skill stats an upgrade adds to its holder's base stats, usable at any time ("Upgrades")."""

    speed: Stat = 0
    evade: Stat = 0
    health: Stat = 0
    steps: Stat = 0
    armor: Stat = 0
    resistance: Stat = 0
    generic_power: Stat = 0


class DrawCard(Card):
    """Fields of every card that goes in the draw deck.

    Attributes:
        cost: agency needed to play the card (>= 0).
        agency: the agency types any of which can pay the cost (at least one).
        traits: printed traits, e.g. ``["Knockback"]``.
        ability: printed ability text, or ``None``.
        max_copies: copies a draw deck may hold when the card says (Time Flies: 6);
            ``None``: the deck's limit (``deck_rules`` in game.yaml).
    """

    cost: Stat
    agency: list[AgencyType] = Field(min_length=1)
    traits: list[str] = []
    ability: str | None = None
    max_copies: Annotated[int, Field(ge=1, le=99)] | None = None

    IDENTITY_WORDS = "same cost, title and artwork"

    def back_kind(self) -> str:
        return "draw"

    def identity(self) -> tuple:
        """What makes two records the same card: ``(cost, title, art)`` ("Building your decks")."""
        return (self.cost, self.title, self.art)

    def glossary_text(self) -> str:
        return _join(self.traits, self.ability)


class Fighter(DrawCard):
    """Stats shared by units and heroes (card anatomy; "Upgrades" for generic power).

    ``skills`` may be empty: such a unit cannot attack until an upgrade gives it a skill.
    ``health`` is at least 1: every other stat may be 0, but a unit with no health could
    not stay in play.
    """

    skills: list[Skill] = []
    speed: Stat
    evade: Stat = 0
    health: int = Field(ge=1)
    steps: Stat
    armor: Stat = 0
    resistance: Stat = 0
    generic_power: Stat = 0

    def glossary_text(self) -> str:
        return _join(self.traits, _skill_words(self.skills), _stat_words(self), self.ability)


class Unit(Fighter):
    """A unit: enters the battlefield on its owner's spawn row ("Spawn row")."""

    type: Literal["unit"]


class Hero(Fighter):
    """A hero unit; heroes cannot be converted (Traits, the converted status)."""

    type: Literal["hero"]


class Upgrade(DrawCard):
    """An upgrade held by a unit: adds ``skills`` and ``bonuses`` to it ("Upgrades", Examples 1-2)."""

    type: Literal["upgrade"]
    skills: list[UpgradeSkill] = []
    bonuses: StatBonus = StatBonus()

    def glossary_text(self) -> str:
        return _join(self.traits, _skill_words(self.skills), _stat_words(self.bonuses), self.ability)


class Event(DrawCard):
    """An event: its ability is the whole card; completed events go to the discard pile."""

    type: Literal["event"]
    ability: str = Field(min_length=1)


class Environment(DrawCard):
    """An environment claiming a space; ``exit_steps`` is what a unit pays to leave that space.

    Card anatomy, "Exit Steps": a unit whose steps do not exceed the exit cost cannot leave.
    """

    type: Literal["environment"]
    exit_steps: Stat

    def glossary_text(self) -> str:
        return _join("Exit Steps", self.traits, self.ability)


class DualityStats(Strict):
    """Stats, traits and ability printed on one part of a duality card (``None`` = not printed)."""

    skills: list[Skill] = []
    speed: Stat | None = None
    evade: Stat | None = None
    health: Annotated[int, Field(ge=1)] | None = None
    steps: Stat | None = None
    armor: Stat | None = None
    resistance: Stat | None = None
    generic_power: Stat | None = None
    traits: list[str] = []
    ability: str | None = None


class DualitySide(DualityStats):
    """One playable side of a duality card, with its own title, cost and paying agency."""

    title: str = Field(min_length=1)
    cost: Stat
    agency: list[AgencyType] = Field(min_length=1)


class Duality(Card):
    """A two-sided card ("Duality Cards (two sided)"): play one side and pay that side's cost.

    The card gains the chosen side's stats, traits and ability; ``centre`` holds what is
    printed centred at the bottom and applies whichever side was played. ``title`` names the
    whole card (e.g. ``"Hedge Knight / Hedge Thief"``).
    """

    type: Literal["duality"]
    sides: Annotated[list[DualitySide], Field(min_length=2, max_length=2)]
    centre: DualityStats = DualityStats()
    max_copies: Annotated[int, Field(ge=1, le=99)] | None = None

    IDENTITY_WORDS = "same cost, title and artwork"

    def back_kind(self) -> str:
        return "draw"

    def identity(self) -> tuple:
        """``((side costs), title, art)``: cost, title and artwork, as for any draw card."""
        return (tuple(s.cost for s in self.sides), self.title, self.art)

    def glossary_text(self) -> str:
        parts = (self.centre, *self.sides)
        return _join("Duality", *[(p.traits, _skill_words(p.skills), _stat_words(p), p.ability)
                                  for p in parts])


class AgencyCard(Card):
    """An agency card of one of the six types; lives in the agency deck and the city row."""

    type: Literal["agency"]
    agency_type: AgencyType

    def back_kind(self) -> str:
        return "agency"

    def glossary_text(self) -> str:
        return "Agency"


CarpeCrasCard = Annotated[
    Union[Unit, Hero, Upgrade, Event, Environment, Duality, AgencyCard],
    Field(discriminator="type"),
]
"""One Carpe Cras card record, chosen by its ``type``."""

_STAT_TERMS = {"evade": "Evade", "armor": "Armor", "resistance": "Resistance",
               "generic_power": "Generic Power", "speed": "Speed", "steps": "Steps", "health": "Health"}
_SPECIAL_STATS = ("evade", "armor", "resistance", "generic_power")


def _stat_words(stats: Fighter | StatBonus | DualityStats) -> list[str]:
    """Glossary terms for the special stats a card prints (non-zero Evade, Armor, ...)."""
    fields = _STAT_TERMS if isinstance(stats, StatBonus) else _SPECIAL_STATS
    return [_STAT_TERMS[f] for f in fields if getattr(stats, f)]


def _skill_words(skills: list[Skill] | list[UpgradeSkill]) -> list[str]:
    """Each skill's name, combat type and the skill stats it prints."""
    words: list[str] = []
    for s in skills:
        words += [s.name, s.combat or ""]
        if getattr(s, "range_bonus", 0):
            words.append("Range")
        if s.accuracy:
            words.append("Accuracy")
        if s.dexterity:
            words.append("Dexterity")
    return words


def _join(*parts) -> str:
    """Strings and (nested) lists of strings joined by spaces; ``None`` and empty parts skipped."""
    words: list[str] = []
    for part in parts:
        if part is None:
            continue
        if isinstance(part, str):
            words.append(part)
        else:
            words.append(_join(*part))
    return " ".join(w for w in words if w)


# The deck-building rules are data: deck_rules in card_data/carpe_cras/game.yaml.
SPEC = GameSpec(game_id="carpe_cras", card_model=CarpeCrasCard)
