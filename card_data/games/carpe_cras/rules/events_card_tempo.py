"""The Tempo helper from the cards: the striker and the target chosen among the game's unit and
hero cards, each with the upgrades it holds, their stats worked out by
:func:`card_data.games.carpe_cras.tempo.equip` (Upgrades, Examples 1 and 2) and the check by
:func:`~card_data.games.carpe_cras.tempo.tempo_differential` (Tempo).

The choices are the cards of the card database the table was set up with
(``State.fighters``, ``State.upgrades``), offered by printed title: a page says a title in the
player's language where the game's data translates it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field

from card_data.engine import Choice, Move, RuleError, Seat, Words
from card_data.games.carpe_cras import BOOK
from card_data.games.carpe_cras.rules.state import (
    ENGINE,
    CardInPlay,
    Die,
    State,
    TempoResult,
)
from card_data.games.carpe_cras.rules.events_tempo import roll_outcome
from card_data.games.carpe_cras.rules.turns import CarpeCrasEvent, require_started
from card_data.games.carpe_cras.tempo import (
    TEMPO_CERTAIN_AT,
    TempoCheck,
    equip,
    tempo_differential,
    tempo_needs_roll,
    tempo_succeeds,
)
from card_data.problems import InvalidInput, Problem

MOST_UPGRADES = 6
"""Upgrades one unit may be entered with: a sane bound (the rulebook's limit on the upgrades a
unit holds did not survive in its text; Swarm: "Any upgrades we cannot hold are discarded")."""
CARD_ID_CHARS = 80

CardId = Annotated[str, Field(min_length=1, max_length=CARD_ID_CHARS)]
SkillName = Annotated[str, Field(min_length=1, max_length=CARD_ID_CHARS)]

RULE_UPGRADES = Words("%(book)s, Upgrades: an upgrade adds its skills and stats to its holder; a strike "
                      "names the skill it strikes with", book=BOOK)

_CHECK_WORDS = {"dodge": Words("dodging a first strike"),
                "dodge_strike_twice": Words("dodging a Strike Twice strike"),
                "strike_twice": Words("to Strike Twice")}


@ENGINE.event
class CardTempo(CarpeCrasEvent):
    """A Tempo check from the cards: the striker (a unit or hero card id) with its upgrades
    (upgrade card ids, at most :data:`MOST_UPGRADES`) striking with ``skill``, the target with
    its upgrades, and the roller's die.

    ``seat`` is the player who rolls (the target's for a dodge, the attacker's for Strike
    Twice). ``roll`` may be left out when the differential is 0 or less, or 6 or more. A card
    id that is not one of the table's cards, or a skill the striker lacks with its upgrades,
    is refused (:class:`~card_data.engine.RuleError`).
    """

    label = Words("Tempo check from the cards")
    seat: Seat = Field(title=Words("Who rolls"))
    check: TempoCheck = Field(title=Words("Check"), json_schema_extra={"labels": {
        "dodge": Words("Dodge a first strike"), "dodge_strike_twice": Words("Dodge a Strike Twice strike"),
        "strike_twice": Words("Strike Twice")}})
    striker: CardId = Field(title=Words("Striker"))
    striker_upgrades: list[CardId] = Field([], max_length=MOST_UPGRADES, title=Words("Striker's upgrades"))
    skill: SkillName = Field(title=Words("Striking with"))
    target: CardId = Field(title=Words("Target"))
    target_upgrades: list[CardId] = Field([], max_length=MOST_UPGRADES, title=Words("Target's upgrades"))
    roll: Die | None = Field(None, title=Words("Die roll (not needed at 0 or less, or %(certain)d or more)",
                                               certain=TEMPO_CERTAIN_AT))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.round == 0 or not state.fighters:
            return []
        fighters = sorted(state.fighters.values(), key=lambda c: (c.title, c.id))
        upgrades = sorted(state.upgrades.values(), key=lambda c: (c.title, c.id))
        skills = sorted({s.name for c in fighters for s in c.skills} | {s.name for c in upgrades for s in c.skills})
        # Titles as plain text: a page says a title the game's data translates in its language.
        units = [Choice(c.id, c.title) for c in fighters]
        held = [Choice(c.id, c.title) for c in upgrades]
        if not skills:
            return []
        return [cls.offer(state, striker=units, target=units, skill=[Choice(s, s) for s in skills],
                          **({"striker_upgrades": held, "target_upgrades": held} if held else {}))]

    def in_play(self, state: State, card: str, upgrades: list[str], field: str) -> CardInPlay:
        """``card`` holding ``upgrades`` (ids of the table's cards, from the form's ``field``),
        with its stats. Raises :class:`InvalidInput` naming the field for an id the table lacks."""
        fighter = state.fighters.get(card)
        if fighter is None:
            raise InvalidInput(Words("invalid %(event)s event", event=self.type_name), [Problem(
                field=field, message=Words("%(card)s is not a unit or hero card of this game", card=repr(card)))])
        held = []
        for upgrade in upgrades:
            if upgrade not in state.upgrades:
                raise InvalidInput(Words("invalid %(event)s event", event=self.type_name), [Problem(
                    field=f"{field}_upgrades",
                    message=Words("%(card)s is not an upgrade card of this game", card=repr(upgrade)))])
            held.append(state.upgrades[upgrade])
        return CardInPlay(card=card, title=fighter.title, upgrades=tuple(upgrades),
                          upgrade_titles=tuple(u.title for u in held), stats=equip(fighter, held))

    def apply(self, state: State) -> State:
        require_started(state)
        striker = self.in_play(state, self.striker, self.striker_upgrades, "striker")
        target = self.in_play(state, self.target, self.target_upgrades, "target")
        skill = striker.stats.skills.get(self.skill)
        if skill is None:
            has = ", ".join(striker.stats.skills) or Words("no skill")
            raise RuleError(RULE_UPGRADES, Words(
                "%(unit)s has no %(skill)s skill with these upgrades (it has: %(skills)s)",
                unit=striker.title, skill=self.skill, skills=has))
        differential = tempo_differential(self.check, striker_speed=striker.stats.speed,
                                          target_speed=target.stats.speed, accuracy=skill.accuracy,
                                          dexterity=skill.dexterity, evade=target.stats.evade)
        succeeded = tempo_succeeds(differential, self.roll)
        striking = striker.stats.speed_striking_with(self.skill, first_strike=self.check == "dodge")
        targeted = target.stats.speed_targeted()
        roller, opposing = (striking, targeted) if self.check == "strike_twice" else (targeted, striking)
        result = TempoResult(seat=self.seat, check=self.check, roller_speed=roller, opposing_speed=opposing,
                             differential=differential, roll=self.roll if tempo_needs_roll(differential) else None,
                             succeeded=succeeded, striker=striker, target=target, skill=self.skill)
        return state.evolve(last_tempo=result)

    def describe(self, before: State, after: State) -> str:
        t = after.last_tempo
        how = roll_outcome(t)
        return Words("Tempo, %(player)s %(check)s: %(striker)s strikes with %(skill)s at %(target)s; speed "
                     "%(speed)d vs %(against)d, differential %(differential)d; %(how)s",
                     player=before.players[self.seat], check=_CHECK_WORDS[self.check],
                     striker=t.striker.said(), skill=t.skill, target=t.target.said(),
                     speed=t.roller_speed, against=t.opposing_speed, differential=t.differential, how=how)
