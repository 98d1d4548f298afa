"""What changes a Carpe Diem sheet in the rounds: the banderole bar, and the building rewards
(summary, Actions: Building Completions and Rewards)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from card_data.engine import Bounded, Choice, Move, RuleError, Seat, Words
from card_data.games.carpe_diem.requirements import Ware
from card_data.games.carpe_diem.rules.bounds import BUILDING_TILES, MOST_BANDEROLE_SPACES, MOST_CHIMNEYS
from card_data.games.carpe_diem.rules.citations import (
    BAKERY_BREAD,
    FOUNTAIN_DRAW,
    FOUNTAIN_KEEP,
    MARKET_COINS,
    RULE_BAR,
    RULE_FINAL,
    RULE_FOUNTAIN,
    RULE_LANDSCAPE,
    RULE_PLACE,
)
from card_data.games.carpe_diem.rules.engine import ENGINE
from card_data.games.carpe_diem.rules.state import WARE_NAMES, State
from card_data.games.carpe_diem.rules.steps import (
    CarpeDiemEvent,
    advance,
    owning_more,
    pick,
    require_rounds,
    with_sheet,
)
from card_data.games.carpe_diem.rules.wording import HOLDING_CHANGES, WARE_GAINS, counts_line

Landscape = Literal["pond", "garden", "other"]
Dwelling = Literal["merchant", "baker", "administrator", "craftsman"]
Building = Literal["market", "bakery", "fountain"]


# --- the banderole bar --------------------------------------------------------------------------


@ENGINE.event
class BanderoleMove(CarpeDiemEvent):
    """``seat`` advances ``spaces`` on the banderole bar (a banderole space built over...); the
    disc goes on top of any already on the new space (summary, Building Rules; 2018 rulebook,
    Set-up details). An administrator dwelling's move comes with :class:`CompleteDwelling`. At
    most :data:`MOST_BANDEROLE_SPACES` at once (summary, Components: 36 banderoles)."""

    label = Words("Banderole bar move")
    seat: Seat
    spaces: Bounded[1, MOST_BANDEROLE_SPACES] = Field(title=Words("Spaces forward"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state, defaults={"spaces": 1})] if state.step == "rounds" else []

    def apply(self, state: State) -> State:
        if state.step == "scoring":
            raise RuleError(RULE_BAR, Words("enter %(name)s's move before the scoring period or after it",
                                            name=state.players[self.seat]))
        if state.step == "final":
            raise RuleError(RULE_FINAL, Words("the banderole bar no longer moves after the last scoring period"))
        return advance(state, self.seat, self.spaces)

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s advanced %(spaces)d on the banderole bar: space %(was)d → %(now)s",
                     name=before.players[self.seat], spaces=self.spaces, was=before.sheets[self.seat].space,
                     now=after.bar_line(self.seat))


# --- building rewards (summary, Actions: Building Completions and Rewards) ----------------------


@ENGINE.event
class CompleteLandscape(CarpeDiemEvent):
    """``seat`` completed a landscape of ``tiles`` tiles: (tiles - 1) wares of ``ware`` (summary,
    Actions; 2018 rulebook, Other rules a checker can hold). ``kind``: a pond or a garden also
    counts as such for the cards that ask for them; "other" is any of the kinds the sources do
    not name. The sources do not say which ware each kind gives: the player chooses it.
    ``tiles`` is at most :data:`BUILDING_TILES`; the rules then refuse a size outside the
    landscape's 2-4 (``tables.yaml``, ``landscape_reward``) with their own message."""

    label = Words("Complete a landscape")
    seat: Seat
    kind: Landscape = Field(title=Words("Landscape"), json_schema_extra={"labels": {
        "pond": Words("Pond"), "garden": Words("Garden"),
        "other": Words("Another kind (the sources name only ponds and gardens)")}})
    tiles: Bounded[1, BUILDING_TILES] = Field(title=Words("Tiles in the landscape"))
    ware: Ware = Field(title=Words("Matching ware"),
                       description=Words("the sources do not say which ware each landscape gives"),
                       json_schema_extra={"labels": {"grapes": Words("Grapes"), "herbs": Words("Herbs"),
                                                     "chicken": Words("Chicken"), "fish": Words("Fish")}})

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "rounds":
            return []
        reward = state.board.tables.landscape_reward
        sizes = [Choice(n, Words("%(n)d tiles", n=n), Words("%(n)d wares", n=reward.wares_for(n)))
                 for n in range(reward.min_tiles, reward.max_tiles + 1)]
        return [cls.offer(state, tiles=pick(cls, "tiles", state, sizes))]

    def apply(self, state: State) -> State:
        require_rounds(state, self.seat, "landscape")
        reward = state.board.tables.landscape_reward
        if not reward.min_tiles <= self.tiles <= reward.max_tiles:
            raise RuleError(RULE_LANDSCAPE, Words("a landscape has %(least)d-%(most)d tiles, not %(tiles)d",
                                                  least=reward.min_tiles, most=reward.max_tiles, tiles=self.tiles))
        sheet = state.sheets[self.seat]
        return with_sheet(state, self.seat, owned=owning_more(state, self.seat, *self.things()),
                          **{self.ware: getattr(sheet, self.ware) + reward.wares_for(self.tiles)})

    def describe(self, before: State, after: State) -> str:
        was, now = getattr(before.sheets[self.seat], self.ware), getattr(after.sheets[self.seat], self.ware)
        words = {"name": before.players[self.seat], "tiles": self.tiles, "gain": WARE_GAINS[self.ware](now - was),
                 "change": HOLDING_CHANGES[self.ware](was, now),
                 "counted": counts_line(after, self.seat, self.things())}
        if self.kind == "pond":
            return Words("%(name)s completed a pond of %(tiles)d tiles: %(gain)s (%(change)s); %(counted)s", **words)
        if self.kind == "garden":
            return Words("%(name)s completed a garden of %(tiles)d tiles: %(gain)s (%(change)s); %(counted)s",
                         **words)
        return Words("%(name)s completed a landscape of %(tiles)d tiles: %(gain)s (%(change)s); %(counted)s", **words)

    def things(self) -> list[str]:
        """The owned things this landscape counts as: a completed landscape, and a completed
        pond or garden for those kinds."""
        return ["completed_landscape"] + ([f"completed_{self.kind}"] if self.kind != "other" else [])


@ENGINE.event
class CompleteDwelling(CarpeDiemEvent):
    """``seat`` completed a dwelling (summary, Actions and Player Reference; numbers from
    ``tables.dwelling_rewards``): merchant (red roof): every ware back to the supply, that many
    coins + 1; baker (brown): bread; administrator (blue): banderole bar spaces; craftsman
    (green): recorded only (its free dark green tile is placed at the table, not tracked)."""

    label = Words("Complete a dwelling")
    seat: Seat
    dwelling: Dwelling = Field(title=Words("Dwelling"), json_schema_extra={"labels": {
        "merchant": Words("Merchant (red roof)"), "baker": Words("Baker (brown roof)"),
        "administrator": Words("Administrator (blue roof)"), "craftsman": Words("Craftsman (green roof)")}})

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "rounds":
            return []
        rewards = state.board.tables.dwelling_rewards
        labels = cls.model_fields["dwelling"].json_schema_extra["labels"]
        notes = {"merchant": Words("every ware back: %(each)d coin each + %(bonus)d",
                                   each=rewards.merchant.coins_per_ware, bonus=rewards.merchant.bonus_coins),
                 "baker": Words("%(n)d bread", n=rewards.baker.bread),
                 "administrator": Words("%(n)d banderole bar spaces", n=rewards.administrator.banderole),
                 "craftsman": Words("a dark green tile, placed at the table")}
        return [cls.offer(state, dwelling=[Choice(d, labels[d], notes[d]) for d in Dwelling.__args__])]

    def apply(self, state: State) -> State:
        require_rounds(state, self.seat, "dwelling")
        rewards = state.board.tables.dwelling_rewards
        sheet = state.sheets[self.seat]
        owned = owning_more(state, self.seat, f"completed_{self.dwelling}_dwelling")
        if self.dwelling == "merchant":
            returned = sum(sheet.wares().values())
            return with_sheet(state, self.seat, owned=owned, coins=sheet.coins + rewards.merchant.coins_for(returned),
                              **{w: 0 for w in WARE_NAMES})
        if self.dwelling == "baker":
            return with_sheet(state, self.seat, owned=owned, bread=sheet.bread + rewards.baker.bread)
        if self.dwelling == "administrator":
            return advance(with_sheet(state, self.seat, owned=owned), self.seat, rewards.administrator.banderole)
        return with_sheet(state, self.seat, owned=owned)

    def describe(self, before: State, after: State) -> str:
        was, now = before.sheets[self.seat], after.sheets[self.seat]
        name = before.players[self.seat]
        counted = counts_line(after, self.seat, [f"completed_{self.dwelling}_dwelling"])
        if self.dwelling == "merchant":
            return Words("%(name)s completed a merchant dwelling: %(wares)d wares back to the supply, +%(gain)d coins "
                         "(coins %(was)d → %(now)d); %(counted)s", name=name, wares=sum(was.wares().values()),
                         gain=now.coins - was.coins, was=was.coins, now=now.coins, counted=counted)
        if self.dwelling == "baker":
            return Words("%(name)s completed a baker dwelling: +%(gain)d bread (bread %(was)d → %(now)d); "
                         "%(counted)s", name=name, gain=now.bread - was.bread, was=was.bread, now=now.bread,
                         counted=counted)
        if self.dwelling == "administrator":
            return Words("%(name)s completed an administrator dwelling: advanced %(spaces)d on the banderole bar: "
                         "space %(was)d → %(now)s; %(counted)s", name=name, spaces=now.space - was.space,
                         was=was.space, now=after.bar_line(self.seat), counted=counted)
        return Words("%(name)s completed a craftsman dwelling: its dark green tile is placed at the table; "
                     "%(counted)s", name=name, counted=counted)


@ENGINE.event
class CompleteVilla(CarpeDiemEvent):
    """``seat`` completed a villa with ``chimneys`` chimneys (summary, Actions: no reward at
    once; it scores by its chimneys at the end, 2018 rulebook, Final scoring). Recorded for the
    cards counting completed villas and for the final scoring."""

    label = Words("Complete a villa")
    seat: Seat
    chimneys: Bounded[1, MOST_CHIMNEYS] = Field(title=Words("Chimneys in the villa"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        return [cls.offer(state)] if state.step == "rounds" else []

    def apply(self, state: State) -> State:
        require_rounds(state, self.seat, "villa")
        sheet = state.sheets[self.seat]
        return with_sheet(state, self.seat, owned=owning_more(state, self.seat, "completed_villa"),
                          villas=(*sheet.villas, self.chimneys))

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s completed a villa with %(chimneys)d chimneys; %(counted)s",
                     name=before.players[self.seat], chimneys=self.chimneys,
                     counted=counts_line(after, self.seat, ["completed_villa"]))


@ENGINE.event
class PlaceBuilding(CarpeDiemEvent):
    """``seat`` placed a market (for coins), a bakery (for bread) or a fountain (draw fountain
    cards, keep one: ``fountain_card``, if the table knows it) (summary, Actions; 2018
    rulebook, Other rules a checker can hold). Refused without the coin or bread to pay."""

    label = Words("Place a building")
    seat: Seat
    building: Building = Field(title=Words("Building"), json_schema_extra={"labels": {
        "market": Words("Market"), "bakery": Words("Bakery"), "fountain": Words("Fountain")}})
    fountain_card: str | None = Field(None, title=Words("Fountain card kept (a fountain only)"),
                                      json_schema_extra={"none_label": Words("None (not a fountain)")})

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "rounds":
            return []
        kept = [Choice(c.id, c.title, Words("%(vp)d VP per %(condition)s", vp=c.vp, condition=c.condition_line()))
                for c in state.board.fountain_cards.values()]
        fountain_card = pick(cls, "fountain_card", state, kept) if kept else None
        moves = []
        for s, sheet in enumerate(state.sheets):
            choices = []
            if sheet.coins >= MARKET_COINS:
                choices.append(Choice("market", Words("Market"),
                                      Words("pay %(cost)d coin of %(have)d", cost=MARKET_COINS, have=sheet.coins)))
            if sheet.bread >= BAKERY_BREAD:
                choices.append(Choice("bakery", Words("Bakery"),
                                      Words("pay %(cost)d bread of %(have)d", cost=BAKERY_BREAD, have=sheet.bread)))
            choices.append(Choice("fountain", Words("Fountain"), Words("draw %(draw)d fountain cards, keep %(keep)d",
                                                                       draw=FOUNTAIN_DRAW, keep=FOUNTAIN_KEEP)))
            moves.append(cls.offer(state, seat=s, label=Words("%(name)s places a building", name=state.players[s]),
                                   building=choices, fountain_card=fountain_card))
        return moves

    def apply(self, state: State) -> State:
        require_rounds(state, self.seat, self.building)
        sheet = state.sheets[self.seat]
        name = state.players[self.seat]
        owned = owning_more(state, self.seat, self.building)
        if self.building != "fountain" and self.fountain_card is not None:
            raise RuleError(RULE_FOUNTAIN, Words("only a fountain draws fountain cards, not a market")
                            if self.building == "market"
                            else Words("only a fountain draws fountain cards, not a bakery"))
        if self.building == "market":
            if sheet.coins < MARKET_COINS:
                raise RuleError(RULE_PLACE, Words("%(name)s has %(have)d coins: a market costs %(cost)d", name=name,
                                                  have=sheet.coins, cost=MARKET_COINS))
            return with_sheet(state, self.seat, owned=owned, coins=sheet.coins - MARKET_COINS)
        if self.building == "bakery":
            if sheet.bread < BAKERY_BREAD:
                raise RuleError(RULE_PLACE, Words("%(name)s has %(have)d bread: a bakery costs %(cost)d", name=name,
                                                  have=sheet.bread, cost=BAKERY_BREAD))
            return with_sheet(state, self.seat, owned=owned, bread=sheet.bread - BAKERY_BREAD)
        kept = sheet.fountain_cards
        if self.fountain_card is not None:
            if self.fountain_card not in state.board.fountain_cards:
                raise RuleError(RULE_FOUNTAIN, Words("there is no fountain card '%(card)s'", card=self.fountain_card))
            kept = (*kept, self.fountain_card)
        return with_sheet(state, self.seat, owned=owned, fountain_cards=kept)

    def describe(self, before: State, after: State) -> str:
        was, now = before.sheets[self.seat], after.sheets[self.seat]
        name, counted = before.players[self.seat], counts_line(after, self.seat, [self.building])
        if self.building == "market":
            return Words("%(name)s placed a market for %(cost)d coin (coins %(was)d → %(now)d); %(counted)s",
                         name=name, cost=MARKET_COINS, was=was.coins, now=now.coins, counted=counted)
        if self.building == "bakery":
            return Words("%(name)s placed a bakery for %(cost)d bread (bread %(was)d → %(now)d); %(counted)s",
                         name=name, cost=BAKERY_BREAD, was=was.bread, now=now.bread, counted=counted)
        if self.fountain_card:
            return Words("%(name)s placed a fountain and kept %(card)s; %(counted)s", name=name,
                         card=before.board.fountain_cards[self.fountain_card].title, counted=counted)
        return Words("%(name)s placed a fountain (drew %(draw)d fountain cards, kept %(keep)d); %(counted)s",
                     name=name, draw=FOUNTAIN_DRAW, keep=FOUNTAIN_KEEP, counted=counted)
