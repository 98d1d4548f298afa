"""Schema for C.A.H.R.D. (Combat Alliance History Retelling Division), Official Rulebook 1.0.

Card types, in the rulebook's terms (section "Cards of CAHRD"):

- ``officer`` (white background): the four stats LDR, WAR, INT and CHM, one trait, men
  under command and a recruitment cost in reserves;
- ``item`` (blue): a reserve cost and an active effect;
- ``tactic`` (purple): an active effect, set face down before it is activated, no cost;
- ``strategy`` (brown face, black back): a requirement and a passive effect.

Deck lists come in two kinds, ``army`` (the 40-60 card main deck) and ``strategy`` (the
optional 0-10 card strategy deck); their rules ("Getting Started") are data: ``deck_rules``
in ``card_data/cahrd/game.yaml``.
``tables.yaml`` holds the Items of Mass Destruction lists and the numbers a scorekeeper
needs (:class:`CahrdTables`).
"""

from typing import Annotated, Literal, Union

from pydantic import AfterValidator, BeforeValidator, Field

from card_data.schema import Card, DeckList, GameSpec, Slug, Strict

RULEBOOK = "Official Rulebook 1.0"

S_RANK_VALUE = 10
"""What a printed S rank counts as in card effects and in battle (Glossary of Terms: Stats).
The rulebook is silent on S in the Recruitment Step: see :mod:`.ranks`."""

HIGHEST_PRINTED_RANK = 5
"""Stats are printed at rank 1 to 5, or S (Glossary of Terms: Stats)."""

STAT_NAMES = ("ldr", "war", "int", "chm")


def printed_rank(value: object) -> int | str:
    """``value`` if it is a rank printed on an officer, 1 to 5 or ``"S"`` (Glossary of Terms:
    Stats); raises ``ValueError`` otherwise."""
    # bool is an int in Python; "yes" in YAML must not pass as rank 1.
    if value == "S" or (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= HIGHEST_PRINTED_RANK):
        return value
    raise ValueError(f"a printed stat is 1 to {HIGHEST_PRINTED_RANK} or S (got {value!r}); "
                     "ranks 6 to 9 come only from card effects")


PrintedRank = Annotated[Union[int, Literal["S"]], BeforeValidator(printed_rank)]
"""A stat as printed on an officer: 1-5, or ``"S"`` (Glossary of Terms: Stats)."""

Reserves = Annotated[int, Field(ge=0)]
"""An amount of reserves, e.g. ``25000`` (printed "25k")."""

MenUnderCommand = Annotated[int, Field(ge=1)]


def rank_value(printed: int | str) -> int:
    """The number a printed rank counts as in card effects and in battle: ``1``-``5`` as
    printed, ``"S"`` as 10.

    Implements Glossary of Terms: Stats. (In the Recruitment Step's combined CHM the rulebook
    is silent on S: see :func:`card_data.games.cahrd.ranks.recruitment_value`.) Raises
    ``ValueError`` for anything else.
    """
    return S_RANK_VALUE if printed == "S" else int(printed_rank(printed))


def reserves_label(amount: int) -> str:
    """Reserves the way cards print them: ``25000`` -> ``"25k"``, ``2500`` -> ``"2.5k"``, ``500`` -> ``"500"``."""
    if amount < 1000:
        return str(amount)
    thousands = amount / 1000
    return f"{thousands:g}k"


class Trait(Strict):
    """An officer's trait: a name and its rules text (Officer Card: How to Read)."""

    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


class OfficerCard(Card):
    """An officer (Officer Card: How to Read).

    Attributes:
        ldr, war, int, chm: Leadership, battle power, Intelligence and Charm as printed:
            1-5 or ``"S"``. :meth:`base_stat` gives the value S counts as (10).
        trait: the officer's one trait, usable while it holds a position of authority.
        men_under_command: points of men; the officer is defeated when it reaches 0.
        recruitment_cost: reserves paid to recruit it as a lieutenant (25000 prints "25k").
    """

    type: Literal["officer"]
    ldr: PrintedRank
    war: PrintedRank
    int: PrintedRank
    chm: PrintedRank
    trait: Trait
    men_under_command: MenUnderCommand
    recruitment_cost: Reserves

    def back_kind(self) -> str:
        return "army"

    def glossary_text(self) -> str:
        return f"{self.trait.name}. {self.trait.text}"

    def base_stat(self, stat: str) -> int:
        """The base stat ``stat`` (``"ldr"``, ``"war"``, ``"int"`` or ``"chm"``) as a number, S being 10.

        Implements Glossary of Terms: Base Stats and Stats. Raises ``KeyError`` for another name.
        """
        if stat not in STAT_NAMES:
            raise KeyError(f"no stat {stat!r}; officers have {', '.join(STAT_NAMES)}")
        return rank_value(getattr(self, stat))

    @property
    def base_stats(self) -> dict[str, int]:
        """``{"ldr": n, "war": n, "int": n, "chm": n}`` with S counted as 10."""
        return {name: self.base_stat(name) for name in STAT_NAMES}

    @property
    def recruitment_cost_label(self) -> str:
        """The recruitment cost as printed, e.g. ``"25k"``."""
        return reserves_label(self.recruitment_cost)


class ItemCard(Card):
    """An item (Item Card: How to Read): the reserve cost must be paid to activate the effect."""

    type: Literal["item"]
    reserve_cost: Reserves
    effect: str = Field(min_length=1)

    def back_kind(self) -> str:
        return "army"

    def glossary_text(self) -> str:
        return self.effect

    @property
    def reserve_cost_label(self) -> str:
        """The reserve cost as printed, e.g. ``"3k"``."""
        return reserves_label(self.reserve_cost)


class TacticCard(Card):
    """A tactic (Tactics Card: How to read): no reserve cost; set face down before activation."""

    type: Literal["tactic"]
    effect: str = Field(min_length=1)

    def back_kind(self) -> str:
        return "army"

    def glossary_text(self) -> str:
        return self.effect


class StrategyCard(Card):
    """A strategy (Strategy Cards: How to Read): a passive effect for both players who meet the requirement."""

    type: Literal["strategy"]
    requirement: str = Field(min_length=1)
    passive_effect: str = Field(min_length=1)

    def back_kind(self) -> str:
        return "strategy"

    def glossary_text(self) -> str:
        return f"{self.requirement} {self.passive_effect}"


CahrdCard = Annotated[Union[OfficerCard, ItemCard, TacticCard, StrategyCard], Field(discriminator="type")]


# ---- tables.yaml ----------------------------------------------------------------------------

class GameConstant(Strict):
    """A number from the rules, with its unit (e.g. ``"grain"``) and the rulebook section it comes from."""

    value: int
    unit: str = Field(min_length=1)
    section: str = Field(min_length=1)


class GameConstants(Strict):
    """The numbers a scorekeeper needs, each citing its section of the Official Rulebook 1.0."""

    starting_grain: GameConstant
    reserves_per_chm_point: GameConstant
    grain_damage_per_war_point: GameConstant
    battle_damage_to_losing_officer: GameConstant
    s_rank_value: GameConstant
    starting_lieutenants: GameConstant
    max_extra_lieutenants: GameConstant
    lieutenants_defeated_to_win: GameConstant
    opening_hand: GameConstant
    min_officers_in_opening_hand: GameConstant
    battles_per_war: GameConstant
    battles_to_win_war: GameConstant


class ImdEntry(Strict):
    """A card on an Items of Mass Destruction list, at level 1, 2 or 3.

    The rulebook does not say what each level does; ``note`` may record what the developers'
    announcement said. ``example`` marks an entry we made up to show the format.
    """

    card: Slug
    level: Literal[1, 2, 3]
    example: bool = False
    note: str | None = None


def _unique_cards(entries: list[ImdEntry]) -> list[ImdEntry]:
    seen: set[str] = set()
    for entry in entries:
        if entry.card in seen:
            raise ValueError(f"'{entry.card}' is listed twice; a card has one level on each list")
        seen.add(entry.card)
    return entries


ImdList = Annotated[list[ImdEntry], AfterValidator(_unique_cards), Field(default_factory=list)]


class ItemsOfMassDestruction(Strict):
    """The Items of Mass Destruction lists (Glossary of Terms): three levels, one list for long
    games and one for short games, maintained by the game's developers."""

    section: str = Field(min_length=1)
    note: str | None = None
    long_games: ImdList
    short_games: ImdList


class CahrdTables(Strict):
    """``cahrd/tables.yaml``: game constants and the Items of Mass Destruction lists."""

    constants: GameConstants
    items_of_mass_destruction: ItemsOfMassDestruction


def check_database(cards: dict[str, Card], decks: dict[str, DeckList], tables: CahrdTables | None
                   ) -> list[tuple[str, str, str, str]]:
    """Cross-record rules: every Items of Mass Destruction entry names a card in the database.

    Returns ``(kind, id, field, message)`` tuples as :class:`GameSpec` describes; never raises.
    """
    if tables is None:
        return []
    problems = []
    imd = tables.items_of_mass_destruction
    for list_name in ("long_games", "short_games"):
        for i, entry in enumerate(getattr(imd, list_name)):
            if entry.card not in cards:
                problems.append(("tables", "items-of-mass-destruction",
                                 f"items_of_mass_destruction.{list_name}.{i}.card",
                                 f"unknown card id '{entry.card}'"))
    return problems


SPEC = GameSpec(game_id="cahrd", card_model=CahrdCard, tables_model=CahrdTables,
                check_database=check_database)
