"""Schema for Carpe Diem: scoring cards, fountain cards, scoring sets and the scorekeeper's tables.

Sources (``/work/shared/rules``): ``carpe-diem-summary.txt`` (the "summary") and
``carpe-diem-published-rules-notes.md`` (notes on the published 2018 rulebook, the "2018
rulebook"). Numbers the rulebook prints only as icons (villa chimney points, banderole bar
points) live in ``tables.yaml`` as data, each row saying whether its value is assumed. What a
card asks for (wares, owned things, :class:`Need`) is in :mod:`.requirements`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import (
    Field,
    NonNegativeInt,
    PositiveInt,
    ValidationInfo,
    field_validator,
    model_validator,
)

from card_data.engine.wording import Words
from card_data.games.carpe_diem.requirements import (
    VILLA_THINGS,
    WARES,
    Need,
    Owned,
    added,
    needs_line,
    sets_owned,
)
from card_data.problems import Problem
from card_data.schema import Card, DeckList, GameSpec, Strict

SCORING_SET_PLAYERS: dict[str, int] = {"scoring-2p": 2, "scoring-3p": 3, "scoring-4p": 4}
"""Deck list ``kind`` of a scoring set -> player count."""

SCORING_CARDS_BY_PLAYERS: dict[int, dict[str, int]] = {
    2: {"A": 2, "B": 2, "C": 2, "D": 2},
    3: {"A": 2, "B": 3, "C": 2, "D": 3},
    4: {"A": 3, "B": 3, "C": 2, "D": 4},
}
"""Scoring cards laid out per type, by player count (2018 rulebook, Set-up details)."""



class Reward(Strict):
    """What a scoring card gives each time its requirement is met.

    ``vp`` victory points, ``coins`` gold coins, ``bread`` bread tokens, ``banderole``
    spaces to advance on the banderole bar. At least one is above zero.
    """

    vp: NonNegativeInt = 0
    coins: NonNegativeInt = 0
    bread: NonNegativeInt = 0
    banderole: NonNegativeInt = 0

    @model_validator(mode="after")
    def _gives_something(self) -> Reward:
        if not (self.vp or self.coins or self.bread or self.banderole):
            raise ValueError("a reward gives at least one of vp, coins, bread, banderole")
        return self

    def line(self) -> str:
        """Printed form, e.g. ``"1 coin + 1 banderole bar space"``; ``★`` stands for VP."""
        parts = []
        if self.vp:
            parts.append(Words("%(n)d ★", n=self.vp))
        if self.coins:
            parts.append(Words("%(n)d coins", n=self.coins) if self.coins > 1 else Words("%(n)d coin", n=self.coins))
        if self.bread:
            parts.append(Words("%(n)d bread", n=self.bread))
        if self.banderole:
            parts.append(Words("%(n)d banderole bar spaces", n=self.banderole) if self.banderole > 1
                         else Words("%(n)d banderole bar space", n=self.banderole))
        return added(parts)


class ScoringCard(Card):
    """A scoring card (summary, Scoring / Victory Conditions; 2018 rulebook, Scoring periods).

    Attributes:
        scoring_type: ``A`` (pay one kind of ware), ``B`` (pay different wares), ``C``
            (villas and chimneys) or ``D`` (landscapes, dwellings, markets, bakeries).
        colour: ``red`` cards take payment in wares (coins replace any ware, red cards only);
            ``green`` cards count what the player owns. A and B are red, C and D green.
        requirement: one full set, e.g. ``[{what: chimney, count: 3}]``; red cards list wares
            only, green cards owned things only, each thing at most once.
        reward: given once per full set met ("multiples", see :meth:`multiples`).
        text: the card's rule in our words, printed under the symbols.

    Raises (on validation): ``ValueError`` when colour and type disagree or a requirement
    lists something its colour or type cannot ask for.
    """

    type: Literal["scoring"]
    scoring_type: Literal["A", "B", "C", "D"]
    colour: Literal["green", "red"]
    requirement: list[Need] = Field(min_length=1)
    reward: Reward
    text: str = Field(min_length=1, max_length=300)

    @field_validator("colour")
    @classmethod
    def _colour_matches_type(cls, colour: str, info: ValidationInfo) -> str:
        scoring_type = info.data.get("scoring_type")
        expected = "red" if scoring_type in ("A", "B") else "green"
        if scoring_type is not None and colour != expected:
            raise ValueError(f"{scoring_type} cards are {expected}, not {colour}")
        return colour

    @field_validator("requirement")
    @classmethod
    def _requirement_fits_card(cls, needs: list[Need], info: ValidationInfo) -> list[Need]:
        things = [n.what for n in needs]
        doubled = sorted({t for t in things if things.count(t) > 1})
        if doubled:
            raise ValueError(f"list {', '.join(doubled)} once, with a count")
        colour, scoring_type = info.data.get("colour"), info.data.get("scoring_type")
        if colour == "red" and not WARES.issuperset(things):
            raise ValueError(f"a red card asks for wares only ({', '.join(sorted(WARES))})")
        if colour == "green" and WARES.intersection(things):
            raise ValueError("a green card counts things owned, not wares")
        if scoring_type == "A" and len(needs) != 1:
            raise ValueError("an A card asks for one kind of ware")
        if scoring_type == "B" and len(needs) < 2:
            raise ValueError("a B card asks for different wares")
        if scoring_type == "C" and not VILLA_THINGS.issuperset(things):
            raise ValueError("a C card counts chimneys or completed villas")
        if scoring_type == "D" and VILLA_THINGS.intersection(things):
            raise ValueError("a D card counts landscapes, dwellings, markets or bakeries, not villas")
        return needs

    def back_kind(self) -> str:
        return "scoring"

    def multiples(self, have: Mapping[str, int], coins: int = 0) -> int:
        """How many times the card is met, i.e. how many times its reward is given.

        ``have`` maps a ware or owned thing to how many the player has. A green card counts
        full sets owned (``coins`` ignored). A red card counts full sets the player can pay,
        coins filling any ware short (2018 rulebook, Scoring periods: Multiples). Zero means
        unmet: no reward and the penalty from ``tables.unmet_card_penalty`` (3 bread can
        still fulfil it once, ``tables.bread_to_fulfil_card``).
        """
        if self.colour == "green":
            return sets_owned(self.requirement, have)
        times = 0
        while sum(max(0, (times + 1) * n.count - have.get(n.what, 0)) for n in self.requirement) <= coins:
            times += 1
        return times

    def requirement_line(self) -> str:
        """Printed requirement, e.g. ``"chicken + grape + fish"`` or ``"3× chimneys"``."""
        return needs_line(self.requirement)

    def reward_line(self) -> str:
        """Printed reward, e.g. ``"5 ★"``."""
        return self.reward.line()

    def glossary_text(self) -> str:
        """Colour, symbols and rule text, for finding the glossary terms the card uses."""
        kind = "Red card: pay wares" if self.colour == "red" else "Green card: own"
        return f"{kind}. {self.requirement_line()} → {self.reward_line()}. {self.text}"


class FountainCard(Card):
    """A fountain card: scores its own condition at the end of the game (2018 rulebook,
    Final scoring). Two cards of the same kind both score.

    Attributes:
        condition: one full set of owned things, e.g. ``[{what: completed_garden}]``.
        vp: victory points per full set owned.
        text: the card's rule in our words.
    """

    type: Literal["fountain"]
    condition: list[Need] = Field(min_length=1)
    vp: PositiveInt
    text: str = Field(min_length=1, max_length=300)

    @field_validator("condition")
    @classmethod
    def _counts_owned_things(cls, needs: list[Need]) -> list[Need]:
        if WARES.intersection(n.what for n in needs):
            raise ValueError("a fountain card counts things owned, not wares")
        return needs

    def back_kind(self) -> str:
        return "fountain"

    def final_vp(self, have: Mapping[str, int]) -> int:
        """VP at the final scoring: ``vp`` per full set of ``condition`` in ``have``."""
        return self.vp * sets_owned(self.condition, have)

    def condition_line(self) -> str:
        """Printed condition, e.g. ``"completed garden"``."""
        return needs_line(self.condition)

    def glossary_text(self) -> str:
        """Symbols and rule text, for finding the glossary terms the card uses."""
        return f"Fountain card. {self.condition_line()} → {self.vp} ★. {self.text}"


CarpeDiemCard = Annotated[ScoringCard | FountainCard, Field(discriminator="type")]


def check_deck(deck: DeckList, cards: Mapping[str, Card]) -> list[Problem]:
    """What ``deck_rules`` in ``card_data/games/carpe_diem/game.yaml`` cannot say about a
    scoring set (``kind`` ``scoring-2p`` / ``scoring-3p`` / ``scoring-4p``): how many cards of
    each scoring type it holds, by its player count (2018 rulebook, Set-up details: 2p 2A 2B 2C
    2D; 3p 2A 3B 2C 3D; 4p 3A 3B 2C 4D). Its size, scoring cards only and each card once
    (each record in our database is one printed card) are that data's.

    ``cards`` maps every known card id to its card. Returns the rules broken (empty list if
    none); never raises. A kind that is not a scoring set has no such counts.
    """
    players = SCORING_SET_PLAYERS.get(deck.kind)
    if players is None:
        return []
    counts: Counter[str] = Counter()
    for entry in deck.cards:
        card = cards[entry.card]
        if isinstance(card, ScoringCard):  # another card is refused by card_types in game.yaml
            counts[card.scoring_type] += entry.qty
    return [Problem(field="cards", message=f"a {players}-player scoring set needs {wanted} "
                                           f"{scoring_type} cards, found {counts[scoring_type]}")
            for scoring_type, wanted in SCORING_CARDS_BY_PLAYERS[players].items()
            if counts[scoring_type] != wanted]


def check_database(cards: Mapping[str, Card], decks: Mapping[str, DeckList],
                   tables: CarpeDiemTables | None) -> list[tuple[str, str, str, str]]:
    """Rules across records: a scoring set exists for 2, 3 and 4 players, and a set holding
    an example card is itself marked ``example: true``.

    Returns ``(kind, id, field, message)`` tuples as :class:`GameSpec` describes.
    """
    problems: list[tuple[str, str, str, str]] = []
    kinds = {deck.kind for deck in decks.values()}
    for kind, players in SCORING_SET_PLAYERS.items():
        if kind not in kinds:
            problems.append(("deck", "-", "kind", f"no scoring set for {players} players (kind {kind})"))
    for deck in decks.values():
        examples = [e.card for e in deck.cards if e.card in cards and cards[e.card].example]
        if examples and not deck.example:
            problems.append(("deck", deck.id, "example",
                             f"holds example cards ({', '.join(examples)}); mark the set example: true"))
    return problems


# --- tables.yaml -------------------------------------------------------------------------


class Sourced(Strict):
    """A table entry naming where its values come from (rulebook file/edition and heading)."""

    source: str = Field(min_length=1)
    note: str | None = None


class StartingVp(Sourced):
    """Starting VP by seat (index 0 = start player), per player count (2018 rulebook, Set-up details)."""

    p2: list[PositiveInt] = Field(alias="2p", min_length=2, max_length=2)
    p3: list[PositiveInt] = Field(alias="3p", min_length=3, max_length=3)
    p4: list[PositiveInt] = Field(alias="4p", min_length=4, max_length=4)

    def for_players(self, players: int) -> list[int]:
        """Starting VP by seat for 2-4 players; ``KeyError`` for other counts."""
        return {2: self.p2, 3: self.p3, 4: self.p4}[players]


class Phases(Sourced):
    """Phases in a game and rounds per phase; a scoring period follows each phase."""

    count: PositiveInt
    rounds_per_phase: PositiveInt


class CircleSpaces(Sourced):
    """Circle spaces for scoring discs, per player count."""

    p2: PositiveInt = Field(alias="2p")
    p3: PositiveInt = Field(alias="3p")
    p4: PositiveInt = Field(alias="4p")


class TypeCounts(Strict):
    """Scoring cards of each type."""

    A: NonNegativeInt
    B: NonNegativeInt
    C: NonNegativeInt
    D: NonNegativeInt


class ScoringCardCounts(Sourced):
    """Scoring cards per type, per player count. Mirrors the set-up rule that
    :func:`check_deck` applies, so the two cannot drift apart."""

    p2: TypeCounts = Field(alias="2p")
    p3: TypeCounts = Field(alias="3p")
    p4: TypeCounts = Field(alias="4p")

    @field_validator("p2", "p3", "p4")
    @classmethod
    def _matches_setup_rule(cls, counts: TypeCounts, info: ValidationInfo) -> TypeCounts:
        players = int(info.field_name[1])
        if counts.model_dump() != SCORING_CARDS_BY_PLAYERS[players]:
            rule = " ".join(f"{n}{t}" for t, n in SCORING_CARDS_BY_PLAYERS[players].items())
            raise ValueError(f"the set-up rule for {players} players is {rule}")
        return counts


class UnmetCardPenalty(Sourced):
    """VP lost for each scoring card not fully met (summary, Scoring; 2018 rulebook, Scoring periods)."""

    vp: PositiveInt


class BreadToFulfilCard(Sourced):
    """Bread paid to fulfil one scoring card of either colour without meeting it."""

    bread: PositiveInt


class MerchantReward(Sourced):
    """Completing a merchant dwelling: all wares go back; ``coins_per_ware`` each plus ``bonus_coins``."""

    coins_per_ware: PositiveInt
    bonus_coins: NonNegativeInt

    def coins_for(self, wares_returned: int) -> int:
        """Coins received for returning ``wares_returned`` wares."""
        return wares_returned * self.coins_per_ware + self.bonus_coins


class BakerReward(Sourced):
    """Completing a baker dwelling: ``bread`` bread tokens."""

    bread: PositiveInt


class AdministratorReward(Sourced):
    """Completing an administrator dwelling: advance ``banderole`` spaces on the banderole bar."""

    banderole: PositiveInt


class CraftsmanReward(Sourced):
    """Completing a craftsman dwelling: take and place ``dark_green_tiles`` dark green tiles."""

    dark_green_tiles: PositiveInt


class DwellingRewards(Strict):
    """Rewards for completing each of the four kinds of dwelling (summary, Actions)."""

    merchant: MerchantReward
    baker: BakerReward
    administrator: AdministratorReward
    craftsman: CraftsmanReward


class LandscapeReward(Sourced):
    """Completing a landscape of ``min_tiles``-``max_tiles`` tiles gives tiles minus
    ``wares_fewer_than_tiles`` matching wares."""

    min_tiles: PositiveInt
    max_tiles: PositiveInt
    wares_fewer_than_tiles: NonNegativeInt

    @model_validator(mode="after")
    def _range(self) -> LandscapeReward:
        if self.min_tiles > self.max_tiles:
            raise ValueError("min_tiles is above max_tiles")
        return self

    def wares_for(self, tiles: int) -> int:
        """Wares for completing a landscape of ``tiles`` tiles; ``ValueError`` outside the range."""
        if not self.min_tiles <= tiles <= self.max_tiles:
            raise ValueError(f"a landscape has {self.min_tiles}-{self.max_tiles} tiles, not {tiles}")
        return tiles - self.wares_fewer_than_tiles


class Leftovers(Sourced):
    """Final scoring of leftovers: the sum of ``counted`` divided by ``divisor``, rounded down."""

    divisor: PositiveInt
    counted: list[Literal["wares", "coins", "bread", "stored_tiles"]] = Field(min_length=1)

    def vp(self, total: int) -> int:
        """VP for ``total`` leftover items (wares + coins + bread + face-down stored tiles)."""
        return total // self.divisor


class VillaChimneyRow(Strict):
    """One row of the villa table: a completed villa with ``chimneys`` chimneys scores ``vp``."""

    chimneys: PositiveInt
    vp: int
    assumed: bool = False


class VillaChimneys(Sourced):
    """Final scoring of completed villas by chimney count (overview board; incomplete villas
    score nothing). Rows ascend; a count above the last row scores the last row."""

    rows: list[VillaChimneyRow] = Field(min_length=1)

    @field_validator("rows")
    @classmethod
    def _ascending(cls, rows: list[VillaChimneyRow]) -> list[VillaChimneyRow]:
        for before, after in zip(rows, rows[1:]):
            if after.chimneys <= before.chimneys:
                raise ValueError(f"rows must ascend by chimneys ({after.chimneys} after {before.chimneys})")
        return rows

    def vp(self, chimneys: int) -> int:
        """VP for one completed villa with ``chimneys`` chimneys (0 below the first row)."""
        rows = [r for r in self.rows if r.chimneys <= chimneys]
        return rows[-1].vp if rows else 0


class BanderoleBarRow(Strict):
    """The VP printed on banderole bar space ``space`` (the start space is 0)."""

    space: NonNegativeInt
    vp: int
    assumed: bool = False


class BanderoleBar(Sourced):
    """Final scoring from the banderole bar: the VP of the space under the player's disc.
    Rows ascend; a disc beyond the last row scores the last row."""

    rows: list[BanderoleBarRow] = Field(min_length=1)

    @field_validator("rows")
    @classmethod
    def _ascending(cls, rows: list[BanderoleBarRow]) -> list[BanderoleBarRow]:
        for before, after in zip(rows, rows[1:]):
            if after.space <= before.space:
                raise ValueError(f"rows must ascend by space ({after.space} after {before.space})")
        return rows

    def vp(self, space: int) -> int:
        """VP for a disc on ``space`` (0 before the first row)."""
        rows = [r for r in self.rows if r.space <= space]
        return rows[-1].vp if rows else 0


class FrameGoal(Strict):
    """One frame goal: a completed ``what`` crossed by the line from the frame part's arrow."""

    what: Owned
    vp: PositiveInt


class FrameGoals(Sourced):
    """Example frame goals (values printed as icons on the frame parts)."""

    examples: list[FrameGoal] = Field(min_length=1)


class TieBreaker(Strict):
    """Who wins among the players tied for most VP."""

    winner: Literal["furthest_ahead_on_banderole_bar", "furthest_behind_on_banderole_bar"]
    source: str = Field(min_length=1)


class TieBreakers(Strict):
    """The two tie-breakers the sources give; ``default`` names the one used unless the
    table chooses the other (summary: furthest ahead wins; 2018 rulebook: furthest behind)."""

    default: Literal["summary", "rulebook"]
    summary: TieBreaker
    rulebook: TieBreaker
    note: str | None = None

    def rule(self, option: Literal["summary", "rulebook"] | None = None) -> TieBreaker:
        """The tie-breaker for ``option`` (the default when ``None``)."""
        return getattr(self, option or self.default)


class CarpeDiemTables(Strict):
    """``carpe_diem/tables.yaml``: every number a scorekeeper needs, each entry citing its source."""

    starting_vp: StartingVp
    phases: Phases
    circle_spaces: CircleSpaces
    scoring_cards: ScoringCardCounts
    unmet_card_penalty: UnmetCardPenalty
    bread_to_fulfil_card: BreadToFulfilCard
    dwelling_rewards: DwellingRewards
    landscape_reward: LandscapeReward
    leftovers: Leftovers
    villa_chimneys: VillaChimneys
    banderole_bar: BanderoleBar
    frame_goals: FrameGoals
    tie_breakers: TieBreakers


SPEC = GameSpec(
    game_id="carpe_diem",
    card_model=CarpeDiemCard,
    check_deck=check_deck,
    tables_model=CarpeDiemTables,
    check_database=check_database,
)
