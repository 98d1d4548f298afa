"""Cards in play in C.A.H.R.D. (The Game Mat 2, 3, 7 and 8; Timings): tactics and items set,
activated and sent to the discard pile, and the active strategy."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from card_data.engine import Bounded, Choice, FormField, Move, RuleError, Seat, Words, replace_at
from card_data.games.cahrd.rules.bounds import MOST_DECK, CardId
from card_data.games.cahrd.rules.citations import (
    RULE_ARMY,
    RULE_ITEM,
    RULE_PAY,
    RULE_SET_CARDS,
    RULE_STRATEGY,
    RULE_TACTIC_SET_FIRST,
    ZONE_RULES,
)
from card_data.games.cahrd.rules.engine import ENGINE
from card_data.games.cahrd.rules.state import State, Zone, ZoneCard
from card_data.games.cahrd.rules.steps import (
    CahrdEvent,
    card_choices,
    check_battle_going,
    check_card,
    check_initiative,
    check_room,
    check_timing,
    with_army,
    with_zone,
    zone_field,
)
from card_data.games.cahrd.rules.wording import A_KIND, ZONE_NAMES, cannot_pay, zone_card_name


@ENGINE.event
class SetCard(CahrdEvent):
    """Step 3; The Game Mat 7 and 8: the initiative player ``seat`` sets a card face down in its
    ``zone`` (a tactic in the Tactics Zone, an item in the Items Zone), unnamed until it is
    activated. Refused beyond the zone's limit: one card per officer in play, the strategist
    not counted."""

    label = Words("Set a card face down")
    seat: Seat
    zone: Zone = zone_field()

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if state.step != "strategy":
            return []
        me = state.initiative
        zones = [Choice(zone, name, Words("%(held)d of %(limit)d", held=len(state.armies[me].zone(zone)),
                                          limit=state.zone_limit(me)))
                 for zone, name in ZONE_NAMES.items() if state.zone_room(me, zone) > 0]
        return [cls.offer(state, seat=me, label=Words("%(name)s: set a tactic or item face down",
                                                      name=state.players[me]), zone=zones)] if zones else []

    def apply(self, state: State) -> State:
        check_initiative(state, self.seat, Words("setting a card"))
        if state.step != "strategy":
            raise RuleError(RULE_SET_CARDS, Words("cards are set in the Strategy Step: take the Recruitment Step "
                                                  "first") if state.step == "draw"
                            else Words("cards are set in the Strategy Step"))
        check_room(state, self.seat, self.zone)
        army = state.armies[self.seat]
        return with_army(state, self.seat, with_zone(army, self.zone, (*army.zone(self.zone), ZoneCard())))

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s set a card face down in the %(zone)s (%(held)d of %(limit)d)",
                     name=before.players[self.seat], zone=ZONE_NAMES[self.zone],
                     held=len(after.armies[self.seat].zone(self.zone)), limit=after.zone_limit(self.seat))


@ENGINE.event
class ActivateCard(CahrdEvent):
    """Timings; Item Card; Tactics Card: ``seat`` activates ``card``, an item or a tactic.

    A tactic is always one set earlier (``was_set``) in the Tactics Zone, turned face up. An
    item is turned face up in the Items Zone if it was set there, or else played from the hand
    into it (refused beyond the zone's limit); either way its reserve cost is paid now (Pay a
    Cost). Outside their turn a player activates only tactics, or an item that disregards an
    effect (``disregards``).
    """

    label = Words("Activate a card")
    seat: Seat
    card: CardId = Field(title=Words("Card"))
    was_set: bool = Field(False, title=Words("It was set face down earlier"),
                          description=Words("a tactic always was; an item may also be played from the hand"))
    disregards: bool = Field(False, title=Words("Its effect disregards another effect"),
                             description=Words("outside their turn a player responds only with tactics, or with "
                                               "items that disregard effects (Timings)"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.turn_in_progress():
            return []
        moves = []
        for s in range(len(state.players)):
            name = state.players[s]
            if state.face_down(s, "tactics"):
                moves.append(cls.offer(state, seat=s, label=Words("%(name)s: activate a set tactic", name=name),
                                       was_set=True, disregards=False,
                                       card=card_choices(state, state.deck_cards(s, "tactic"))))
            reserves = state.armies[s].reserves
            items = [c for c in state.deck_cards(s, "item") if state.cards.cards[c].reserve_cost <= reserves]
            set_items, room = state.face_down(s, "items"), state.zone_room(s, "items") > 0
            if not items or not (set_items or room):
                continue
            initiative = s == state.initiative
            was_set = FormField(name="was_set", label=Words("It was set face down earlier"), kind="flag",
                                required=False, default=bool(set_items)) if set_items and room else bool(set_items)
            note = "" if initiative else Words("only an item that disregards an effect, in response (Timings)")
            moves.append(cls.offer(state, seat=s, label=Words("%(name)s: activate an item (%(n)d reserves)",
                                                              name=name, n=reserves),
                                   hint=note, was_set=was_set, disregards=not initiative,
                                   card=card_choices(state, items,
                                                      lambda c: Words("%(n)d reserves",
                                                                      n=state.cards.cards[c].reserve_cost))))
        return moves

    def apply(self, state: State) -> State:
        check_card(state, self.card)
        kind = state.cards.cards[self.card].kind
        if kind not in ("item", "tactic"):
            raise RuleError(RULE_ITEM, Words("%(title)s is %(kind)s: only items and tactics are activated from "
                                             "their zone", title=state.title(self.card), kind=A_KIND[kind]))
        check_timing(state, self.seat, kind, self.disregards, Words("activating a card"))
        name = state.players[self.seat]
        if self.card not in state.deck_cards(self.seat, kind):
            raise RuleError(RULE_ARMY, Words("%(title)s is not a card of %(name)s's army (%(army)s)",
                                             title=state.title(self.card), name=name, army=state.army_id(self.seat)))
        zone = "tactics" if kind == "tactic" else "items"
        army = state.armies[self.seat]
        cards = army.zone(zone)
        if kind == "tactic" and not self.was_set:
            raise RuleError(RULE_TACTIC_SET_FIRST, Words("%(title)s is a tactic: set it face down first",
                                                         title=state.title(self.card)))
        if self.was_set:
            slot = next((i for i, c in enumerate(cards) if not c.face_up), None)
            if slot is None:
                rule = RULE_TACTIC_SET_FIRST if kind == "tactic" else RULE_ITEM
                raise RuleError(rule, Words("%(name)s has no face-down card in the %(zone)s", name=name,
                                            zone=ZONE_NAMES[zone]))
            cards = replace_at(cards, slot, ZoneCard(card=self.card, face_up=True))
        else:
            check_room(state, self.seat, zone)
            cards = (*cards, ZoneCard(card=self.card, face_up=True))
        cost = state.cards.cards[self.card].reserve_cost
        if army.reserves < cost:
            raise RuleError(RULE_PAY, cannot_pay(state.title(self.card), cost, name, army.reserves))
        return with_army(state, self.seat, with_zone(army.evolve(reserves=army.reserves - cost), zone, cards))

    def describe(self, before: State, after: State) -> str:
        name = before.players[self.seat]
        title = before.title(self.card)
        kind = before.cards.cards[self.card].kind
        where = Words("set earlier") if self.was_set else Words("from the hand")
        cost = before.cards.cards[self.card].reserve_cost
        if kind == "item":
            line = Words("%(name)s activated the item %(title)s (%(where)s)", name=name, title=title, where=where)
            line = Words("%(line)s, paying %(cost)d reserves (reserves %(old)d → %(new)d)", line=line, cost=cost,
                         old=before.armies[self.seat].reserves, new=after.armies[self.seat].reserves)
        else:  # a tactic (apply refuses the other types)
            line = Words("%(name)s activated the tactic %(title)s (%(where)s)", name=name, title=title, where=where)
        if self.disregards and self.seat != before.initiative:
            line = Words("%(line)s, in response, to disregard an effect", line=line)
        return line


@ENGINE.event
class DiscardCard(CahrdEvent):
    """The Game Mat (2 - The Discard Pile): ``seat`` sends the card in ``slot`` (1 = the first) of
    its ``zone`` to the discard pile: used, disregarded, or destroyed by an effect. A zone never
    holds more than :data:`MOST_DECK` cards."""

    label = Words("Send a card of a zone to the discard pile")
    seat: Seat
    zone: Zone = zone_field()
    slot: Bounded[1, MOST_DECK] = Field(title=Words("Card"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.battle_going():
            return []
        moves = []
        for s, army in enumerate(state.armies):
            for zone, zone_name in ZONE_NAMES.items():
                cards = army.zone(zone)
                if cards:
                    moves.append(cls.offer(state, seat=s, zone=zone,
                                           label=Words("%(name)s: a card of the %(zone)s to the discard pile",
                                                       name=state.players[s], zone=zone_name),
                                           slot=[Choice(i, Words("%(n)d: %(card)s", n=i, card=zone_card_name(state, c)))
                                                 for i, c in enumerate(cards, start=1)]))
        return moves

    def apply(self, state: State) -> State:
        check_battle_going(state)
        army = state.armies[self.seat]
        cards = army.zone(self.zone)
        if self.slot > len(cards):
            raise RuleError(ZONE_RULES[self.zone], Words("%(name)s's %(zone)s holds %(n)d card(s): there is no card "
                                                         "%(slot)d", name=state.players[self.seat],
                                                         zone=ZONE_NAMES[self.zone], n=len(cards), slot=self.slot))
        card = cards[self.slot - 1]
        army = with_zone(army, self.zone, cards[:self.slot - 1] + cards[self.slot:])
        if card.card is not None:
            army = army.evolve(discarded=(*army.discarded, card.card))
        return with_army(state, self.seat, army)

    def describe(self, before: State, after: State) -> str:
        card = before.armies[self.seat].zone(self.zone)[self.slot - 1]
        return Words("%(name)s sent %(card)s from the %(zone)s to the discard pile", name=before.players[self.seat],
                     card=zone_card_name(before, card), zone=ZONE_NAMES[self.zone])


@ENGINE.event
class PlayStrategy(CahrdEvent):
    """The Game Mat 3; Timings: ``seat`` plays the strategy ``card``, face up in front of its
    strategy deck (its requirement met, as the players check). Its active strategy, if any,
    goes to the discard pile. Outside their turn a player plays only a strategy that disregards
    an effect (``disregards``), in response."""

    label = Words("Play a strategy")
    seat: Seat
    card: CardId = Field(title=Words("Strategy"))
    disregards: bool = Field(False, title=Words("Its effect disregards another effect"),
                             description=Words("outside their turn a player responds only with strategies that "
                                               "disregard effects (Timings)"))

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.turn_in_progress():
            return []
        moves = []
        for s, army in enumerate(state.armies):
            playable = [c for c in state.deck_cards(s, "strategy") if c != army.strategy and c not in army.discarded]
            if not playable:
                continue
            initiative = s == state.initiative
            label = (Words("%(name)s: play a strategy (replaces %(old)s)", name=state.players[s],
                           old=state.title(army.strategy)) if army.strategy
                     else Words("%(name)s: play a strategy", name=state.players[s]))
            moves.append(cls.offer(state, seat=s, label=label,
                                   hint="" if initiative else Words("only one that disregards an effect, in "
                                                                    "response (Timings)"),
                                   disregards=not initiative, card=card_choices(state, playable)))
        return moves

    def apply(self, state: State) -> State:
        check_card(state, self.card, "strategy")
        check_timing(state, self.seat, "strategy", self.disregards, Words("playing a strategy"))
        army = state.armies[self.seat]
        name = state.players[self.seat]
        if self.card == army.strategy:
            raise RuleError(RULE_STRATEGY, Words("%(title)s is already %(name)s's active strategy",
                                                 title=state.title(self.card), name=name))
        if self.card in army.discarded:
            raise RuleError(RULE_STRATEGY, Words("%(title)s is in %(name)s's discard pile: a strategy deck holds one "
                                                 "copy of it", title=state.title(self.card), name=name))
        discarded = (*army.discarded, army.strategy) if army.strategy else army.discarded
        return with_army(state, self.seat, army.evolve(strategy=self.card, discarded=discarded))

    def describe(self, before: State, after: State) -> str:
        old = before.armies[self.seat].strategy
        line = Words("%(name)s played the strategy %(title)s", name=before.players[self.seat],
                     title=before.title(self.card))
        if self.disregards and self.seat != before.initiative:
            line = Words("%(line)s in response, to disregard an effect", line=line)
        if old:
            line = Words("%(line)s; %(old)s goes to the discard pile", line=line, old=before.title(old))
        return line


@ENGINE.event
class DiscardStrategy(CahrdEvent):
    """The Game Mat 3: ``seat``'s active strategy goes to the discard pile, its requirement no
    longer met by its controller."""

    label = Words("Strategy requirement no longer met")
    seat: Seat

    @classmethod
    def moves(cls, state: State, seat: int | None) -> Sequence[Move]:
        if not state.battle_going():
            return []
        return [cls.offer(state, seat=s, label=Words("%(name)s's %(title)s: requirement no longer met, to the "
                                                     "discard pile", name=state.players[s],
                                                     title=state.title(army.strategy)))
                for s, army in enumerate(state.armies) if army.strategy]

    def apply(self, state: State) -> State:
        check_battle_going(state)
        army = state.armies[self.seat]
        if army.strategy is None:
            raise RuleError(RULE_STRATEGY, Words("%(name)s has no active strategy", name=state.players[self.seat]))
        return with_army(state, self.seat, army.evolve(strategy=None, discarded=(*army.discarded, army.strategy)))

    def describe(self, before: State, after: State) -> str:
        return Words("%(name)s's strategy %(title)s no longer meets its requirement and goes to the discard pile",
                     name=before.players[self.seat], title=before.title(before.armies[self.seat].strategy))
