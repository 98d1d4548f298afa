"""Carpe Cras Tempo, stats and damage: the rules' arithmetic, written once.

The rule engine (:mod:`card_data.games.carpe_cras.rules`) checks Tempo rolls with these
functions, and the reference cards print :func:`tempo_table`, so the two cannot disagree.
Rulebook: ``carpe-cras.txt`` (V1.0, August 2025): Tempo; Card anatomy (Range, Accuracy,
Dexterity, Evade); Upgrades; Combat; Glossary (Damage, Heal, Stats).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from card_data.engine import RuleError, Words
from card_data.games.carpe_cras import BOOK
from card_data.games.carpe_cras.cards import MELEE_MAX_RANGE, Fighter, Upgrade

DIE_FACES = 6
TEMPO_CERTAIN_AT = 6
"""A speed differential of 6 or more succeeds without a roll (Tempo)."""

RULE_TEMPO = Words("%(book)s, Tempo: a roll no higher than the speed differential succeeds; at 0 or less "
                   "success is impossible, at %(certain)d or more it is certain",
                   book=BOOK, certain=TEMPO_CERTAIN_AT)

TempoCheck = Literal["dodge", "dodge_strike_twice", "strike_twice"]
"""``dodge``: the target rolls to dodge a first strike (the striker's Accuracy and Dexterity
count); ``dodge_strike_twice``: the target rolls to dodge a Strike Twice strike (Dexterity
counts, Accuracy does not); ``strike_twice``: the attacker rolls to strike again after the
defender's retaliation (Dexterity counts, Accuracy does not; the target's Evade counts)."""
DamageKind = Literal["physical", "magic", "unspecified"]


def stat_total(printed: int, *modifiers: int) -> int:
    """A stat after modifiers, never below 0 (Glossary: Stats). ``stat_total(1, -3) == 0``."""
    return max(0, printed + sum(modifiers))


def striking_speed(speed: int, *, accuracy: int = 0, dexterity: int = 0, first_strike: bool = True) -> int:
    """A striker's speed for the speed differential (Card anatomy: Accuracy, Dexterity).

    Dexterity adds to every strike; Accuracy only to a first strike, never to a Strike Twice
    strike. All inputs are stats (>= 0); returns an int >= 0.
    """
    return stat_total(speed, dexterity, accuracy if first_strike else 0)


def targeted_speed(speed: int, *, evade: int = 0) -> int:
    """A target's speed for the speed differential: speed + Evade (Card anatomy: Evade)."""
    return stat_total(speed, evade)


def speed_differential(own_speed: int, opposing_speed: int) -> int:
    """Your card's speed minus the opposing card's speed (Tempo), as an int (may be negative).

    Give each speed as :func:`striking_speed` / :func:`targeted_speed` return it.
    """
    return own_speed - opposing_speed


def tempo_needs_roll(differential: int) -> bool:
    """Whether a Tempo roll is needed: only for a differential from 1 to 5 (Tempo)."""
    return 0 < differential < TEMPO_CERTAIN_AT


def tempo_succeeds(differential: int, roll: int | None = None) -> bool:
    """Whether a Tempo check succeeds (Tempo).

    A differential of 6 or more always succeeds and 0 or less never does, whatever ``roll``
    says (rolling is unnecessary; a roll made anyway is ignored). Otherwise a die ``roll``
    (1-6) succeeds when it is at most the differential.

    Raises:
        RuleError: a roll is needed and ``roll`` is ``None`` or not 1-6.
    """
    if not tempo_needs_roll(differential):
        return differential >= TEMPO_CERTAIN_AT
    if roll is None:
        raise RuleError(RULE_TEMPO, Words("a speed differential of %(differential)d needs a die roll",
                                          differential=differential))
    if not 1 <= roll <= DIE_FACES:
        raise RuleError(RULE_TEMPO, Words("a die shows 1 to %(faces)d, not %(roll)d", faces=DIE_FACES, roll=roll))
    return roll <= differential


def tempo_differential(check: TempoCheck, *, striker_speed: int, target_speed: int, accuracy: int = 0,
                       dexterity: int = 0, evade: int = 0) -> int:
    """The roller's speed differential for a Tempo ``check`` (Tempo; Glossary: Dodge, Strike Twice).

    ``striker_speed``/``target_speed`` are base speeds (upgrades' speed included);
    ``accuracy`` and ``dexterity`` are the striking skill's, ``evade`` the target's. For
    ``"dodge"`` and ``"dodge_strike_twice"`` the target rolls (its speed minus the striker's);
    for ``"strike_twice"`` the attacker rolls (its speed minus the target's).
    """
    striker = striking_speed(striker_speed, accuracy=accuracy, dexterity=dexterity,
                             first_strike=check == "dodge")
    target = targeted_speed(target_speed, evade=evade)
    if check == "strike_twice":
        return speed_differential(striker, target)
    return speed_differential(target, striker)


def damage_taken(power: int, kind: DamageKind = "unspecified", *, armor: int = 0, resistance: int = 0) -> int:
    """Damage a card takes from ``power`` (Glossary: Damage), never below 0.

    Armor reduces physical damage, Resistance magic damage; damage of no stated kind is
    reduced by neither.
    """
    if kind == "physical":
        return stat_total(power, -armor)
    if kind == "magic":
        return stat_total(power, -resistance)
    return stat_total(power)


def is_defeated(damage: int, health: int) -> bool:
    """Whether a unit with ``damage`` on it and max ``health`` is defeated (Glossary: Damage).

    The Damage entry: defeated once damage equals or exceeds health; the glossary's entry on
    defeat (heading lost) says "exceeds". We follow the Damage entry.
    """
    return damage >= health


DEFAULT_RANGE = 1
"""A skill that shows no range has a range of 1 (Card anatomy: Range)."""


def spaces_away(dx: int, dy: int) -> int:
    """How many spaces apart two spaces ``dx`` lanes and ``dy`` rows apart are (Card anatomy:
    Range, "Diagonals are 2 spaces"; Glossary: the current space is 0 away, adjacent ones 1)."""
    return abs(dx) + abs(dy)


def combat_kind(reach: int) -> str:
    """``"melee"`` for a strike up to 1 space away, ``"projectile"`` beyond (Combat)."""
    return "melee" if reach <= MELEE_MAX_RANGE else "projectile"


def healed(damage: int, amount: int) -> int:
    """Damage left on a card after healing ``amount`` (Glossary: Heal, "cannot heal over max
    health"): damage never goes below 0, so health never rises above its max."""
    return max(0, damage - amount)


class SkillInHand(BaseModel):
    """One skill of an equipped unit: power (Generic Power included), range, Accuracy, Dexterity."""

    model_config = ConfigDict(frozen=True)

    power: int
    range: int = DEFAULT_RANGE
    accuracy: int = 0
    dexterity: int = 0


class Equipped(BaseModel):
    """A unit's stats with its upgrades (see :func:`equip`). ``skills`` maps skill name to skill."""

    model_config = ConfigDict(frozen=True)

    speed: int
    evade: int
    health: int
    armor: int
    resistance: int
    skills: dict[str, SkillInHand]

    def speed_striking_with(self, skill: str, *, first_strike: bool = True) -> int:
        """Speed when striking with ``skill`` (KeyError if the unit lacks it), see :func:`striking_speed`."""
        s = self.skills[skill]
        return striking_speed(self.speed, accuracy=s.accuracy, dexterity=s.dexterity, first_strike=first_strike)

    def speed_targeted(self) -> int:
        """Speed when targeted (trying to dodge), see :func:`targeted_speed`."""
        return targeted_speed(self.speed, evade=self.evade)

    def reaches(self, skill: str, distance: int) -> bool:
        """Whether a strike with ``skill`` reaches a target ``distance`` spaces away (see
        :func:`spaces_away`): up to the skill's range (Card anatomy: Range; Strike: "the
        target must be in the striker's range"). KeyError if the unit lacks the skill."""
        return 0 <= distance <= self.skills[skill].range


def equip(unit: Fighter, upgrades: list[Upgrade]) -> Equipped:
    """A unit's or hero's stats while it holds ``upgrades`` (Upgrades; Examples 1 and 2).

    Matching skills (same name) add their power, Accuracy and Dexterity, and the upgrade's
    range bonus adds to the skill's range (Example 1: the Dagger's +1 range with Knife). An
    upgrade's skill the unit lacks becomes a separate skill, with the default range of 1
    plus the bonus (our reading: the rulebook gives that range only for skills showing none).
    Non-skill stats add to the base stats. Generic Power raises every skill; a unit with no
    skill gets nothing from it.
    """
    skills = {s.name: SkillInHand(power=s.power, range=s.range, accuracy=s.accuracy, dexterity=s.dexterity)
              for s in unit.skills}
    speed, evade, health = unit.speed, unit.evade, unit.health
    armor, resistance, generic = unit.armor, unit.resistance, unit.generic_power
    for upgrade in upgrades:
        for s in upgrade.skills:
            have = skills.get(s.name, SkillInHand(power=0))
            skills[s.name] = SkillInHand(power=have.power + s.power, range=have.range + s.range_bonus,
                                         accuracy=have.accuracy + s.accuracy, dexterity=have.dexterity + s.dexterity)
        b = upgrade.bonuses
        speed, evade, health = speed + b.speed, evade + b.evade, health + b.health
        armor, resistance, generic = armor + b.armor, resistance + b.resistance, generic + b.generic_power
    skills = {name: s.model_copy(update={"power": s.power + generic}) for name, s in skills.items()}
    return Equipped(speed=speed, evade=evade, health=health, armor=armor, resistance=resistance, skills=skills)


def tempo_table() -> list[dict[str, Any]]:
    """For each speed differential, the die rolls that succeed (Tempo), for the reference cards.

    Returns rows ``{"differential": "≤ 0" | "1".."5" | "≥ 6", "successes": k, "chance": "k/6",
    "outcome": words}``, in ascending order, computed with :func:`tempo_succeeds`.
    """
    def successes(differential: int) -> int:
        if not tempo_needs_roll(differential):
            return DIE_FACES if tempo_succeeds(differential) else 0
        return sum(tempo_succeeds(differential, roll) for roll in range(1, DIE_FACES + 1))

    rows = [{"differential": "≤ 0", "successes": successes(0), "chance": f"{successes(0)}/{DIE_FACES}",
             "outcome": "impossible, no roll"}]
    for differential in range(1, TEMPO_CERTAIN_AT):
        rolls = "roll 1" if differential == 1 else f"roll 1–{differential}"
        rows.append({"differential": str(differential), "successes": successes(differential),
                     "chance": f"{successes(differential)}/{DIE_FACES}", "outcome": f"{rolls} succeeds"})
    certain = successes(TEMPO_CERTAIN_AT)
    rows.append({"differential": f"≥ {TEMPO_CERTAIN_AT}", "successes": certain,
                 "chance": f"{certain}/{DIE_FACES}", "outcome": "certain, no roll"})
    return rows
