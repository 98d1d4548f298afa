"""Deck-building rules as data: the ``deck_rules:`` section of ``<game>/game.yaml`` and its checker.

A game declares, for each kind of deck its deck lists may have (the ``kind:`` of
``<game>/decks/*.yaml``), how big the deck is, how many copies of a card it may hold and how
many cards of each card type. A designer's own game writes the same section in its own
``game.yaml``, e.g.::

    deck_rules:
      draw:                          # a deck list with kind: draw
        name: draw deck              # how messages call it (default "<kind> deck")
        size: {exact: 40, rule: "Building your decks"}
        copies: {max: 3, rule: "Building your decks"}
        card_types: {only: [unit, hero, event], rule: "Building your decks"}
      army:
        size: {min: 40, max: 60}
        copies:
          by_type:                   # a card type's own limit; types not named use max
            officer: {max: 1}
            item: {max: 3}
        counts:                      # cards of one type in the deck
          officer: {min: 1, label: officers}

Every rule may carry ``rule:``, the rulebook section it comes from, which the problem message
quotes in brackets. A deck list whose kind is not declared is a problem; a game without a
``deck_rules`` section checks its decks in Python only (its ``GameSpec.check_deck``).

Two things come from the card schema, not from this section: what makes two records the same
card for the copy limit (:meth:`card_data.schema.Card.identity`, by default the id) and a
card's own copy limit (a card field ``max_copies`` written in its record, e.g. Carpe Cras's
Time Flies, "up to 6 copies"), which replaces the deck's limit for that card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Mapping

from pydantic import Field, model_validator

from card_data.model_base import Slug, Strict
from card_data.problems import Problem

if TYPE_CHECKING:
    from card_data.schema import Card, DeckList, GameSpec

MAX_DECK_CARDS = 10_000
"""The largest number a deck rule may name (a deck list holds at most 99 copies per line)."""

MAX_DECK_KINDS = 50
"""Deck kinds one game may declare."""

Count = Annotated[int, Field(ge=0, le=MAX_DECK_CARDS)]
Citation = Annotated[str, Field(min_length=1, max_length=200)]


class CountRule(Strict):
    """How many cards: ``exact``, or ``min`` and/or ``max`` (0 to :data:`MAX_DECK_CARDS`).

    ``rule`` cites the rulebook section. Raises (via pydantic) when none is given, when
    ``exact`` comes with ``min``/``max``, or when ``min`` is more than ``max``.
    """

    exact: Count | None = None
    min: Count | None = None
    max: Count | None = None
    rule: Citation | None = None

    @model_validator(mode="after")
    def _consistent(self) -> "CountRule":
        if self.exact is None and self.min is None and self.max is None:
            raise ValueError("give exact, or min and/or max")
        if self.exact is not None and (self.min is not None or self.max is not None):
            raise ValueError("give either exact or min/max, not both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min} is more than max {self.max}")
        return self

    def broken_by(self, count: int) -> bool:
        """Whether ``count`` cards break this rule."""
        if self.exact is not None:
            return count != self.exact
        return (self.min is not None and count < self.min) or (self.max is not None and count > self.max)

    def wording(self, what: str) -> str:
        """``"exactly 40 cards"``, ``"40 to 60 cards"``, ``"at least 1 officers"`` for ``what`` cards."""
        if self.exact is not None:
            return f"exactly {self.exact} {what}"
        if self.max is None:
            return f"at least {self.min} {what}"
        return f"{self.min or 0} to {self.max} {what}"


class TypeCount(CountRule):
    """Cards of one type in a deck; ``label`` is how messages call them (default ``"<type> cards"``)."""

    label: Annotated[str, Field(min_length=1, max_length=80)] | None = None


class CopyLimit(Strict):
    """At most ``max`` (1-999) copies of a card; ``rule`` cites the rulebook section."""

    max: Annotated[int, Field(ge=1, le=999)]
    rule: Citation | None = None


class CopiesRule(Strict):
    """Copies of one card a deck may hold: ``max`` for every card, ``by_type`` for cards of a
    type (which replaces ``max``); a type in neither is not limited. Needs one of them."""

    max: Annotated[int, Field(ge=1, le=999)] | None = None
    rule: Citation | None = None
    by_type: Annotated[dict[Slug, CopyLimit], Field(max_length=100)] = {}

    @model_validator(mode="after")
    def _something(self) -> "CopiesRule":
        if self.max is None and not self.by_type:
            raise ValueError("give max, or by_type limits")
        return self

    def limit_for(self, card_type: str) -> tuple[int, str | None, bool] | None:
        """``(max, citation, by its type)`` for a card of ``card_type``, ``None`` if unlimited."""
        if card_type in self.by_type:
            own = self.by_type[card_type]
            return own.max, own.rule or self.rule, True
        return (self.max, self.rule, False) if self.max is not None else None


class CardTypesRule(Strict):
    """The card types a deck may hold (``only``, 1-100 type names); others are refused."""

    only: Annotated[list[Slug], Field(min_length=1, max_length=100)]
    rule: Citation | None = None


class DeckKindRules(Strict):
    """The rules of one kind of deck (see the module docstring for an example).

    Attributes:
        name: how messages call the deck, e.g. ``"draw deck"`` (default ``"<kind> deck"``).
        size: total cards (sum of ``qty``).
        copies: copies of one card.
        card_types: the only card types allowed.
        counts: cards of each named type, by type; every type named must be allowed by
            ``card_types`` when that is given.
    """

    name: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    size: CountRule | None = None
    copies: CopiesRule | None = None
    card_types: CardTypesRule | None = None
    counts: Annotated[dict[Slug, TypeCount], Field(max_length=100)] = {}

    @model_validator(mode="after")
    def _counted_types_allowed(self) -> "DeckKindRules":
        if self.card_types is not None:
            refused = [t for t in self.counts if t not in self.card_types.only]
            if refused:
                raise ValueError(f"counts names {', '.join(refused)}, which card_types.only does not allow")
        return self


DeckRules = Annotated[dict[Slug, DeckKindRules], Field(max_length=MAX_DECK_KINDS)]
"""``deck_rules`` of ``game.yaml``: the rules of each deck kind, by kind."""


def _a(words: str) -> str:
    return f"an {words}" if words[:1].lower() in "aeiou" else f"a {words}"


def _cite(message: str, rule: str | None) -> str:
    return f"{message} [{rule}]" if rule else message


def _list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def check_deck_rules(rules: Mapping[str, DeckKindRules], deck: DeckList, cards: Mapping[str, Card]
                     ) -> list[Problem]:
    """Problems of ``deck`` under ``rules`` (a game's ``deck_rules``); ``cards`` maps card id to card.

    Each problem's ``field`` is a path into the deck list: ``"kind"``, ``"cards"`` for the
    deck as a whole, ``"cards.<i>.qty"`` / ``"cards.<i>.card"`` for an entry. Whole-deck
    problems come first, then entries in list order. Entries whose card is not in ``cards``
    are skipped (the loader reports them). Never raises.
    """
    kind_rules = rules.get(deck.kind)
    if kind_rules is None:
        known = ", ".join(f"'{k}'" for k in rules)
        return [Problem(field="kind", message=f"unknown deck kind '{deck.kind}' (this game's deck kinds, "
                                              f"from deck_rules in game.yaml: {known})")]
    name = _a(kind_rules.name or f"{deck.kind} deck")
    entries = [(i, e, cards[e.card]) for i, e in enumerate(deck.cards) if e.card in cards]
    whole: list[Problem] = []
    per_entry: list[tuple[int, Problem]] = []

    total = sum(e.qty for _, e, _ in entries)
    if kind_rules.size is not None and kind_rules.size.broken_by(total):
        whole.append(Problem(field="cards", message=_cite(
            f"{name} holds {kind_rules.size.wording('cards')} (this one has {total})", kind_rules.size.rule)))
    for card_type, count_rule in kind_rules.counts.items():
        count = sum(e.qty for _, e, c in entries if c.type == card_type)
        if count_rule.broken_by(count):
            label = count_rule.label or f"{card_type} card{'' if count_rule.exact == 1 else 's'}"
            whole.append(Problem(field="cards", message=_cite(
                f"{name} holds {count_rule.wording(label)} (this one has {count})", count_rule.rule)))

    allowed = kind_rules.card_types
    if allowed is not None:
        for i, entry, card in entries:
            if card.type not in allowed.only:
                per_entry.append((i, Problem(field=f"cards.{i}.card", message=_cite(
                    f"{name} holds only {_list(allowed.only)} cards ('{entry.card}' is {_a(card.type)} card)",
                    allowed.rule))))
    if kind_rules.copies is not None:
        per_entry += _copy_problems(kind_rules.copies, name, entries,
                                    refused=set() if allowed is None else {i for i, _, c in entries
                                                                           if c.type not in allowed.only})
    per_entry.sort(key=lambda item: item[0])
    return whole + [p for _, p in per_entry]


def _copy_problems(copies: CopiesRule, name: str, entries: list[tuple[int, Any, Card]], refused: set[int]
                   ) -> list[tuple[int, Problem]]:
    """One problem per card (by :meth:`Card.identity`) listed more often than its limit, at the
    entry where the count passes it: its ``qty`` when that entry alone is too many, else its
    ``card`` (the card is listed again)."""
    groups: dict[Any, list[tuple[int, Any, Card]]] = {}
    for item in entries:
        if item[0] not in refused:
            groups.setdefault(item[2].identity(), []).append(item)
    problems = []
    for members in groups.values():
        first = members[0][2]
        own = [c.max_copies for _, _, c in members if getattr(c, "max_copies", None) is not None]
        found = copies.limit_for(first.type)
        if own:
            limit, rule = min(own), copies.rule
            wording = f"{name} holds at most {limit} copies of '{first.title}' (the card's own limit)"
        elif found is not None:
            limit, rule, by_type = found
            of = _a(first.type) if by_type else "a card"
            wording = f"{name} holds at most {limit} cop{'y' if limit == 1 else 'ies'} of {of}"
        else:
            continue
        count = 0
        for i, entry, _ in members:
            count += entry.qty
            if count > limit:
                break
        else:
            continue
        total = sum(entry.qty for _, entry, _ in members)
        ids = sorted({c.id for _, _, c in members})
        same = f"; {', '.join(ids)} are the same card ({first.IDENTITY_WORDS})" if len(ids) > 1 else ""
        fld = "qty" if entry.qty > limit else "card"
        problems.append((i, Problem(field=f"cards.{i}.{fld}", message=_cite(
            f"{wording}: '{first.title}' appears {total} times{same}", rule))))
    return problems


def deck_problems(deck: DeckList, spec: GameSpec, deck_rules: DeckRules | None, cards: Mapping[str, Card]
                  ) -> list[Problem]:
    """The game's deck-building rules applied to ``deck``: those of ``deck_rules`` (the game's
    ``game.yaml`` section, ``None`` when it has none), then ``spec.check_deck``'s (what data
    cannot say), unless the deck's kind is not one ``deck_rules`` declares. Problems' fields
    are paths into the deck list, without file or line. Never raises."""
    if deck_rules is None:
        return spec.check_deck(deck, cards) if spec.check_deck is not None else []
    found = check_deck_rules(deck_rules, deck, cards)
    if spec.check_deck is not None and deck.kind in deck_rules:
        found += spec.check_deck(deck, cards)
    return found
