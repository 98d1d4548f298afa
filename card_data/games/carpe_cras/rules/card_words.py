"""A unit or hero card in play, in words, as the rulebook's Upgrades examples tell it: the unit and
its upgrades, its speed, then each skill's power and range (Example 1: "Royal Scout with Dagger
(Speed 4; Knife: power 4, range 2; Sword: power 2, range 1)"). The history line of a Tempo check
from the cards and the table page both say it so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from card_data.engine import Words
from card_data.games.carpe_cras.tempo import Equipped


class InPlay(Protocol):
    """What :func:`card_words` reads of a card in play (``rules.state.CardInPlay``)."""

    title: str
    upgrade_titles: tuple[str, ...]
    stats: Equipped


def card_words(card: InPlay) -> Words:
    """A card in play as the rulebook's Example 1 tells it: the unit and its upgrades, its speed,
    then each skill's power and range ("Royal Scout with Dagger (Speed 4; Knife: power 4,
    range 2; Sword: power 2, range 1)"). Titles stay plain text: a page says them in its language
    where the game's data translates them."""
    who = card.title if not card.upgrade_titles else Words(
        "%(unit)s with %(upgrades)s", unit=card.title, upgrades=_listed(card.upgrade_titles))
    return Words("%(who)s (%(stats)s)", who=who, stats=stats_words(card.stats))


def stats_words(stats: Equipped) -> Words:
    """Speed (and Evade, Accuracy, Dexterity where not 0), then each skill's power and range."""
    parts: list = [Words("Speed %(speed)d", speed=stats.speed)]
    if stats.evade:
        parts.append(Words("Evade %(evade)d", evade=stats.evade))
    for name, s in stats.skills.items():
        skill = Words("%(skill)s: power %(power)d, range %(range)d", skill=name, power=s.power, range=s.range)
        if s.accuracy:
            skill = Words("%(skill)s, Accuracy %(accuracy)d", skill=skill, accuracy=s.accuracy)
        if s.dexterity:
            skill = Words("%(skill)s, Dexterity %(dexterity)d", skill=skill, dexterity=s.dexterity)
        parts.append(skill)
    return _joined(parts, "; ")


def _listed(titles: Sequence[str]) -> Words | str:
    return _joined(list(titles), ", ")


def _joined(parts: list, sep: str) -> Words | str:
    """``parts`` (texts, some :class:`Words`) joined by ``sep`` (``"; "`` or ``", "``), keeping
    each part's words (a plain join would turn them into English)."""
    out = parts[0]
    for part in parts[1:]:
        out = Words("%(a)s; %(b)s", a=out, b=part) if sep == "; " else Words("%(a)s, %(b)s", a=out, b=part)
    return out
