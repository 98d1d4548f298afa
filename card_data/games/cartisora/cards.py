"""Schema for Duels of Cartisora (Analog Game Studios 2019 edition; Moshe-Tozer Games 2017 edition).

A Duels of Cartisora card is one of:

- ``reference`` – one per character deck: the deck's name and what its special cards do.
- ``number`` – a basic number card (7 per character deck) with a printed ``power``.
- ``boast`` – the deck's low-numbered Boast card, worth 2 points in a score pile.
- ``special`` – one of the deck's 4 special cards; ``special_kind`` says whether it is a
  special numbered card, an action (the 2017 rulebook's "special contest"), a reaction or
  a maneuver.
- ``token`` – the First Blood and Finisher bonus tokens (2 points each).
- ``tag`` – the 2017 tag-team Tag card (each player gets 3).

Rulebook sections are cited as "2019 rulebook, <heading>" / "2017 rulebook, <heading>".
Where the editions disagree the card's ``editions`` field (or a ruling per edition) says so.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, ValidationInfo, field_validator

from card_data.engine.wording import Words
from card_data.problems import Problem
from card_data.schema import Card, DeckList, GameSpec, Slug, Strict

Edition = Literal[2017, 2019]
"""A rulebook edition: 2017 (Moshe-Tozer Games) or 2019 (Analog Game Studios, the default)."""

Power = Annotated[int, Field(ge=0, le=9)]
"""A printed power. The rulebooks give no range; every card in this database prints 0-9."""

Player = Literal["you", "opponent"]
"""Whose card or result an effect concerns, seen from the player of the card."""

ContestResult = Literal["win", "tie", "lose"]

FORCED_RESULT_PRIORITY: tuple[ContestResult, ...] = ("lose", "tie", "win")
"""When two effects force different results on the same round, the earlier one here applies:
a forced loss beats a forced tie beats a forced win (2019 rulebook, Complex Resolutions).
Effects that move or play cards (:class:`MoveCard`) resolve before every other effect, and
play order never matters (same section)."""

BASE_SET_CHARACTER_DECKS = 6
"""Character decks in the base set (2019 rulebook, Setup)."""


# --- Structured effects: what a rules engine needs, beside the printed effect text. ---------


class ForcedResult(Strict):
    """The card forces the round's result for ``player``: "win", "tie" or "lose".

    E.g. Parry forces a tie; Stalwart makes the opposing knight lose. Conflicts resolve by
    :data:`FORCED_RESULT_PRIORITY` (2019 rulebook, Complex Resolutions).
    """

    kind: Literal["forced_result"]
    result: ContestResult
    player: Player = "you"


class WinsAgainstTies(Strict):
    """A round this card would tie, it wins instead, even against a forced tie (Brutal Strike
    vs Parry, 2019 rulebook, Complex Resolutions)."""

    kind: Literal["wins_against_ties"]


class WinCondition(Strict):
    """An action's win condition: it wins if the opposing power lies in
    ``opponent_power_min``..``opponent_power_max`` (either bound may be open). If the
    condition is unfulfilled the card's power is 0 (2019 rulebook, Unfulfilled condition;
    2017 rulebook, Appendix I: Special Circumstances)."""

    kind: Literal["win_condition"]
    opponent_power_min: Power | None = None
    opponent_power_max: Power | None = None


class PowerModifier(Strict):
    """Adds ``amount`` (e.g. +1, -1) to ``player``'s power this round or next round.

    Power never drops below 0 in the 2019 rules (2019 rulebook, Negative Power).
    """

    kind: Literal["power_modifier"]
    amount: Annotated[int, Field(ge=-9, le=9)]
    player: Player = "you"
    round: Literal["this", "next"] = "this"

    @field_validator("amount")
    @classmethod
    def _not_zero(cls, amount: int) -> int:
        if amount == 0:
            raise ValueError("a power modifier of 0 does nothing")
        return amount


class MoveCard(Strict):
    """Moves ``player``'s card in play to ``to``; a moved card's own effect does not occur
    (Cornered Prey vs Stunning Blow, 2019 rulebook, Complex Resolutions). Its player then
    contests with power 0 (our assumption; the rulebook does not say)."""

    kind: Literal["move_card"]
    player: Player = "opponent"
    to: Literal["tie_pool"] = "tie_pool"


class CannotBeUndercut(Strict):
    """Exactly-1-lower powers do not win against this card; the higher power wins instead."""

    kind: Literal["cannot_be_undercut"]


Effect = Annotated[
    Union[ForcedResult, WinsAgainstTies, WinCondition, PowerModifier, MoveCard, CannotBeUndercut],
    Field(discriminator="kind"),
]


# --- Cards ------------------------------------------------------------------------------------


class CartisoraCard(Card):
    """Fields every Duels of Cartisora card has.

    ``editions`` lists the rulebook editions the card belongs to (default both).
    """

    editions: list[Edition] = [2017, 2019]

    def back_kind(self) -> str:
        """``"character"``: every card but the bonus tokens is shuffled into a hand."""
        return "character"


class DeckCard(CartisoraCard):
    """A card of a character deck; ``deck`` is the character deck's id, e.g. ``"knight"``."""

    deck: Slug


class SpecialSummary(Strict):
    """One line of a reference card: a special card of the deck (id, title, kind) and a short
    description of what it does."""

    card: Slug
    title: str = Field(min_length=1)
    special_kind: Literal["special_numbered", "action", "reaction", "maneuver"]
    text: str = Field(min_length=1)


class ReferenceCard(DeckCard):
    """A character deck's reference card (2019 rulebook, Setup): its ``title`` is the deck's
    name, ``specials`` what each of its 4 special cards does."""

    type: Literal["reference"]
    specials: list[SpecialSummary] = Field(min_length=1)

    def glossary_text(self) -> str:
        # Titles and texts are the card data's own: joined as printed.
        return Words("Reference Card. %(specials)s", specials=" ".join(f"{s.title}: {s.text}" for s in self.specials))


class NumberCard(DeckCard):
    """A basic number card: contests with its printed ``power`` (2019 rulebook, How to Play)."""

    type: Literal["number"]
    power: Power

    def glossary_text(self) -> str:
        return Words("Basic Number Card. Overpower, Undercut or Tie.")


class BoastCard(DeckCard):
    """The deck's Boast card: a low number that plays as normal but scores ``score_points``
    (2) instead of 1 in whoever's score pile holds it (2019 rulebook, Special Cards, Bonus Points)."""

    type: Literal["boast"]
    power: Power
    score_points: Literal[2] = 2

    def glossary_text(self) -> str:
        return Words("Boast Card: worth 2 points in a Score Pile. Overpower, Undercut or Tie.")


SPECIAL_KIND_LABELS: dict[str, Words] = {
    "special_numbered": Words("Special Numbered Card"),
    "action": Words("Action"),
    "reaction": Words("Reaction"),
    "maneuver": Words("Maneuver"),
}

KIND_NAMES: dict[str, Words] = {
    "number": Words("number"),
    "boast": Words("boast"),
    "special_numbered": Words("special numbered"),
    "action": Words("action"),
    "reaction": Words("reaction"),
    "maneuver": Words("maneuver"),
}
"""A playing card's kind (``"number"``, ``"boast"`` or a special card's ``special_kind``) as a
scorekeeper's card label names it: ``"Parry · reaction"``."""


class SpecialCard(DeckCard):
    """One of a deck's 4 special cards (2019 rulebook, Special Cards).

    Attributes:
        special_kind: ``special_numbered`` (readied as normal, has a ``power``), ``action``
            (readied as normal, no number; wins by its condition, else power 0), ``reaction``
            (played after the reveal) or ``maneuver`` (played after winning a round).
        power: the printed power; only special numbered cards have one. A reaction or
            maneuver readied normally has power 0 and no effect (2019 rulebook, Reaction or
            Maneuvers played normally).
        effect: the effect as printed, in a few words.
        effects: the same effect as structured data for a rules engine (not shown to players:
            the printed ``effect`` says it).
    """

    type: Literal["special"]
    special_kind: Literal["special_numbered", "action", "reaction", "maneuver"]
    power: Power | None = Field(default=None, validate_default=True)
    effect: str = Field(min_length=1)
    effects: list[Effect] = Field(default=[], json_schema_extra={"players_see": False})

    @field_validator("power")
    @classmethod
    def _power_only_when_numbered(cls, power: int | None, info: ValidationInfo) -> int | None:
        kind = info.data.get("special_kind")
        if kind == "special_numbered" and power is None:
            raise ValueError("a special numbered card needs a power")
        if kind in ("action", "reaction", "maneuver") and power is not None:
            raise ValueError(f"a{'n' if kind == 'action' else ''} {kind} card has no printed power")
        return power

    @property
    def kind_label(self) -> Words:
        """"Action", "Reaction", "Maneuver" or "Special Numbered Card"."""
        return SPECIAL_KIND_LABELS[self.special_kind]

    def glossary_text(self) -> str:
        return Words("%(kind)s. %(effect)s", kind=self.kind_label, effect=self.effect)


class TokenCard(CartisoraCard):
    """A bonus token (First Blood, Finisher): worth ``bonus_points`` (2) to whoever takes it
    when ``awarded_for`` happens (2019 rulebook, Bonus Points)."""

    type: Literal["token"]
    award: Literal["first_contest_win", "last_contest_win"]
    awarded_for: str = Field(min_length=1)
    bonus_points: Literal[2] = 2

    def back_kind(self) -> str:
        """``"token"``: tokens are set out beside the play area, not held in a hand."""
        return "token"

    def glossary_text(self) -> str:
        return Words("Bonus Points: %(award)s", award=self.awarded_for)


class TagCard(CartisoraCard):
    """The 2017 tag-team Tag card (2017 rulebook, Appendix III: Tag Team): each player gets
    ``copies_per_player`` (3); played as a reaction to swap partners."""

    type: Literal["tag"]
    editions: list[Literal[2017]] = [2017]
    copies_per_player: Literal[3] = 3
    effect: str = Field(min_length=1)

    def glossary_text(self) -> str:
        return Words("Tag Team. Reaction. %(effect)s", effect=self.effect)


CartisoraCardModel = Annotated[
    Union[ReferenceCard, NumberCard, BoastCard, SpecialCard, TokenCard, TagCard],
    Field(discriminator="type"),
]


# --- Deck-building rules ----------------------------------------------------------------------


def check_deck(deck: DeckList, cards: dict[str, Card]) -> list[Problem]:
    """What ``deck_rules`` in ``card_data/cartisora/game.yaml`` cannot say about a character
    deck (2019 rulebook, Setup): all its cards are of one character, that of its reference card
    (else of its first card). Its size, copies and counts per type are that data's.

    ``cards`` maps every known card id to its card (the loader has already reported unknown
    ids). Returns the broken rules; never raises.
    """
    problems: list[Problem] = []
    references = [e.card for e in deck.cards if getattr(cards.get(e.card), "type", None) == "reference"]
    character = cards[references[0]].deck if references else None
    for i, entry in enumerate(deck.cards):
        card = cards.get(entry.card)
        if not isinstance(card, DeckCard):
            continue  # a token or tag: refused by card_types in game.yaml
        if character is None:
            character = card.deck
        elif card.deck != character:
            problems.append(Problem(field=f"cards.{i}.card", message=f"all cards of a character deck belong to the same "
                                                   f"character ('{entry.card}' is from '{card.deck}', "
                                                   f"this deck is '{character}')"))
    return problems


def check_database(cards: dict[str, Card], decks: dict[str, DeckList], tables: object) -> list[tuple[str, str, str, str]]:
    """Rules spanning records (2019 rulebook, Setup).

    - The base set has 6 character decks: at least 6 reference cards (expansions may add
      more; 2019 rulebook, Appendix I: Draft Mode).
    - Every deck card's ``deck`` has a reference card, and each reference card's
      ``specials`` list exactly its deck's special cards, with their titles and kinds.

    Returns ``(kind, id, field, message)`` tuples as :class:`GameSpec` describes.
    """
    problems: list[tuple[str, str, str, str]] = []
    references = {c.deck: c for c in cards.values() if isinstance(c, ReferenceCard)}
    if len(references) < BASE_SET_CHARACTER_DECKS:
        first = next(iter(references.values())).id if references else "-"
        problems.append(("card", first, "deck", f"the base set has {BASE_SET_CHARACTER_DECKS} character "
                                                 f"decks, each with a reference card; found {len(references)}"))

    specials: dict[str, list[SpecialCard]] = {}
    for card in cards.values():
        if isinstance(card, DeckCard) and card.deck not in references:
            problems.append(("card", card.id, "deck", f"character deck '{card.deck}' has no reference card"))
        if isinstance(card, SpecialCard):
            specials.setdefault(card.deck, []).append(card)

    for deck_id, ref in references.items():
        listed = {s.card: s for s in ref.specials}
        for special in specials.get(deck_id, []):
            line = listed.pop(special.id, None)
            if line is None:
                problems.append(("card", ref.id, "specials", f"the reference card does not describe "
                                                             f"special card '{special.id}'"))
            elif (line.title, line.special_kind) != (special.title, special.special_kind):
                problems.append(("card", ref.id, "specials", f"'{special.id}' is '{special.title}' "
                                                             f"({special.special_kind}), the reference card says "
                                                             f"'{line.title}' ({line.special_kind})"))
        for card_id in listed:
            if card_id not in cards:
                # Also what a card that failed validation looks like; its own problem names why.
                message = f"unknown or invalid card '{card_id}'"
            else:
                message = f"'{card_id}' is not a special card of character deck '{deck_id}'"
            problems.append(("card", ref.id, "specials", message))
    return problems


SPEC = GameSpec(
    game_id="cartisora",
    card_model=CartisoraCardModel,
    check_deck=check_deck,
    check_database=check_database,
)
