"""What a C.A.H.R.D. table is set up with: its options and the card data it copies once
(:func:`~card_data.games.cahrd.rules.engine.set_up`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from card_data.engine import Model, ReadOnlyDict, Words
from card_data.games.cahrd.ranks import DEFAULT_S_RANK_IN_RECRUITMENT, S_RANK_READINGS, SRankInRecruitment
from card_data.games.cahrd.rules.readings import (
    DEFAULT_FIRST_TURN,
    DEFAULT_LIEUTENANT_CAP,
    DEFAULT_VANGUARD,
    FIRST_TURN_HELP,
    FIRST_TURN_LABELS,
    LIEUTENANT_CAP_HELP,
    LIEUTENANT_CAP_LABELS,
    VANGUARD_HELP,
    VANGUARD_LABELS,
    FirstTurnWithoutBattle,
    LieutenantCap,
    VanguardInATurn,
)

ANY_ARMY = "any"
"""Option value for an army that may field any officer, item and tactic of the card data."""
ANY_ARMY_LABEL = Words("Any officer, item and tactic of the card data")
"""What the new-table form calls :data:`ANY_ARMY` among the army decks."""
CardKind = Literal["officer", "item", "tactic", "strategy"]


S_RANK_LABELS = {"highest_printed_rank": Words("Highest printed rank"), "s_rank_value": Words("S rank value")}
"""What the new-table form calls each reading of a CHM of S in the Recruitment Step."""


class Options(Model):
    """Table options.

    Attributes:
        army_seat_1, army_seat_2: the id of each seat's army deck in the card data (e.g.
            ``"shield-wall"``), or ``"any"`` to field any officer, item and tactic of the card data.
        defeat_token_to: who holds the token of a defeated lieutenant: ``"initiative_player"``
            (Glossary of Terms: Defeated; the default) or ``"defeating_player"`` (Defeat three
            Lieutenants). Either way the battle is won by defeating three enemy lieutenants.
        s_rank_in_recruitment: what a CHM of S counts as in the Recruitment Step (see :mod:`.ranks`).
        first_turn_without_battle, vanguard_in_a_turn, lieutenant_cap: readings the rulebook
            leaves open (see :mod:`.readings`).
    """

    # The card data's army decks: the form offers them by title (engine.army_choices).
    army_seat_1: str = Field("shield-wall", title=Words("Army of seat 1"),
                             description=Words("one of the card data's army decks, or any card"))
    army_seat_2: str = Field("swift-riders", title=Words("Army of seat 2"),
                             description=Words("one of the card data's army decks, or any card"))
    # The labels are what the form derived from the values before ("Initiative player"), made
    # translatable.
    defeat_token_to: Literal["initiative_player", "defeating_player"] = Field(
        "initiative_player", title=Words("Lieutenant defeat token goes to"),
        description=Words("the initiative player (Glossary: Defeated) or the player who defeated it (Defeat three "
                          "Lieutenants); either way, defeating three enemy lieutenants wins the battle"),
        json_schema_extra={"labels": {"initiative_player": Words("Initiative player"),
                                      "defeating_player": Words("Defeating player")}})
    s_rank_in_recruitment: SRankInRecruitment = Field(
        DEFAULT_S_RANK_IN_RECRUITMENT, title=Words("A CHM of S in the Recruitment Step"),
        description=Words("%(highest_label)s: %(highest)s; %(s10_label)s: %(s10)s (Glossary of Terms: Stats)",
                          highest_label=S_RANK_LABELS["highest_printed_rank"], highest=S_RANK_READINGS["highest_printed_rank"],
                          s10_label=S_RANK_LABELS["s_rank_value"], s10=S_RANK_READINGS["s_rank_value"]),
        json_schema_extra={"labels": S_RANK_LABELS})
    first_turn_without_battle: FirstTurnWithoutBattle = Field(
        DEFAULT_FIRST_TURN, title=Words("No battle on the first turn"),
        description=FIRST_TURN_HELP, json_schema_extra={"labels": FIRST_TURN_LABELS})
    vanguard_in_a_turn: VanguardInATurn = Field(
        DEFAULT_VANGUARD, title=Words("A vanguard again in the same turn"),
        description=VANGUARD_HELP, json_schema_extra={"labels": VANGUARD_LABELS})
    lieutenant_cap: LieutenantCap = Field(
        DEFAULT_LIEUTENANT_CAP, title=Words('The lieutenant cap ("recruit two more")'),
        description=LIEUTENANT_CAP_HELP, json_schema_extra={"labels": LIEUTENANT_CAP_LABELS})


# ---- the card data, copied once --------------------------------------------------------------

class Constants(Model):
    """The numbers of ``tables.yaml`` (``constants.<name>.value``) a scorekeeper uses."""

    starting_grain: int
    reserves_per_chm_point: int
    grain_damage_per_war_point: int
    battle_damage_to_losing_officer: int
    s_rank_value: int
    starting_lieutenants: int
    max_extra_lieutenants: int
    lieutenants_defeated_to_win: int
    opening_hand: int
    min_officers_in_opening_hand: int
    battles_per_war: int
    battles_to_win_war: int


class OfficerStats(Model):
    """An officer card's numbers: ``war`` as it counts in battle (S as 10), ``chm`` as it counts
    in this table's Recruitment Step (:mod:`.ranks`), and both as printed (``"S"`` or a digit)."""

    title: str
    war: int
    chm: int
    printed_war: str
    printed_chm: str
    men_under_command: int
    recruitment_cost: int


class CardInfo(Model):
    """Any card of the card data: its title, type and, for an item, its reserve cost."""

    title: str
    kind: CardKind
    reserve_cost: int = 0


class ArmyDeck(Model):
    """A seat's army: the deck id (or ``"any"``), the ids of the officers, items and tactics it
    holds, and its ``title`` as the deck list gives it (``""`` in a table stored before titles
    were kept: then its id is shown)."""

    id: str
    cards: tuple[str, ...]
    title: str = ""


class CardBook(Model):
    """Everything the table copies from the card data once (:func:`set_up`): the tables'
    constants, every card by id, the officers' numbers and each seat's army deck."""

    constants: Constants
    cards: ReadOnlyDict[str, CardInfo]
    officers: ReadOnlyDict[str, OfficerStats]
    armies: tuple[ArmyDeck, ...]
