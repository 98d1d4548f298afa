"""Schema pieces shared by every game: cards, rulings, glossary, deck lists, game metadata."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    Field,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)

from card_data.declared.deck_rules import DeckRules
from card_data.model_base import Slug, Strict
from card_data.problems import Problem


POKER_WIDTH_MM = 63.5
POKER_HEIGHT_MM = 88.9



RulingSource = Literal["rulebook", "designer", "our-reading"]
"""Where a ruling comes from: a rulebook section, a designer's answer, or our own reading
where the rules are silent."""


class Ruling(Strict):
    """A ruling, in our own words.

    Attributes:
        text: the ruling as players read it.
        date: when the ruling was written (an ISO date in YAML, ``2026-11-22``); ``None`` for a
            ruling nobody dated (an imported spreadsheet), shown as undated and listed last.
        source: ``"rulebook"`` (``section`` required), ``"designer"`` (a designer's answer:
            ``reference`` required, saying where it was given, e.g. a URL or forum post) or
            ``"our-reading"`` (the rules are silent; ``section`` optional, the closest one).
            Left out, it is ``"rulebook"`` when a ``section`` is given, so a ruling of older data
            (``text`` and ``section`` only) stays valid.
        section: rulebook and section, e.g. ``"2019 rulebook, Complex Resolutions"``.
        reference: where a designer gave the answer.
        cards: ids of the other cards of the same game the ruling concerns; it is shown on
            each of their pages too (the loader reports ids that name no card).
        id: a short slug naming the ruling for good (unique within the game, see
            :mod:`card_data.rulings.ruling_ids`): what a translation names it by and its link anchor
            (``#ruling-<id>``). Left out, one is derived from its holder and its text.

    Raises (through pydantic) a validation error naming the field for a missing or unknown
    source, a rulebook ruling without ``section`` or a designer's answer without ``reference``.
    """

    text: str = Field(min_length=1)
    date: datetime.date | None = None
    source: RulingSource | None = Field(None, validate_default=True)
    section: str | None = Field(None, min_length=1, validate_default=True)
    reference: str | None = Field(None, min_length=1, validate_default=True)
    cards: list[Slug] = []
    id: Slug | None = None

    @model_validator(mode="before")
    @classmethod
    def _rulebook_by_default(cls, data: Any) -> Any:
        # Older data gives only text and section: that is a rulebook ruling.
        if isinstance(data, dict) and data.get("source") is None and data.get("section"):
            return {**data, "source": "rulebook"}
        return data

    @field_validator("source")
    @classmethod
    def _source_given(cls, value: str | None) -> str:
        if value is None:
            raise ValueError("give the ruling's source: rulebook (with a section), designer (with a "
                             "reference) or our-reading")
        return value

    @field_validator("section")
    @classmethod
    def _rulebook_has_section(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("source") == "rulebook":
            raise ValueError("a rulebook ruling needs a section (rulebook and section it rests on)")
        return value

    @field_validator("reference")
    @classmethod
    def _designer_has_reference(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("source") == "designer":
            raise ValueError("a designer's answer needs a reference (where it was given, e.g. a URL)")
        return value

    @field_validator("cards")
    @classmethod
    def _cards_once(cls, value: list[str]) -> list[str]:
        repeated = sorted({card_id for card_id in value if value.count(card_id) > 1})
        if repeated:
            raise ValueError(f"card ids named twice: {', '.join(repeated)}")
        return value


class GameRuling(Ruling):
    """A ruling of a game's ``rulings.yaml``: about several cards at once, so ``cards`` names
    at least two (each card's page shows it)."""

    cards: list[Slug] = Field(min_length=2)


class Card(Strict):
    """Fields every card has, whatever the game.

    Attributes:
        id: stable slug, unique within its game; the QR URL is ``<base>/r/<game>/<id>``.
        type: card type; selects the layout template ``<game>/templates/<type>.yaml``.
        title: printed title.
        example: ``True`` for a card we invented to make a deck playable (not the publisher's).
        assumed: names of fields whose values the rulebook does not give (a real card whose
            printed stats are unknown); printed and shown as assumptions.
        note: free text shown on the rulings page (e.g. where the source lost a name).
        art: artwork file path relative to the game's folder, or ``None`` for a placeholder.
        rulings: rulings on this card, each with its date and source (see :class:`Ruling`).
    """

    id: Slug
    type: str
    title: str = Field(min_length=1)
    example: bool = False
    assumed: list[str] = []
    note: str | None = None
    art: str | None = None
    rulings: list[Ruling] = []

    #: Which card back this card gets; games override (e.g. ``"agency"``).
    def back_kind(self) -> str:
        return "default"

    IDENTITY_WORDS: ClassVar[str] = "same id"
    """What :meth:`identity` compares, in words, for a deck-rule message naming two records."""

    def identity(self) -> tuple:
        """What makes two records the same card for a deck's copy limit: by default the id.
        A game whose rules say otherwise (e.g. cost, title and artwork) overrides it."""
        return (self.id,)

    def glossary_text(self) -> str:
        """All of the card's rules text, for finding the glossary terms it uses."""
        return ""


class Printing(Strict):
    """One printed version of a card, as ``printkit release`` records it in the game's
    ``printings.yaml`` (``{card-id: [printing, ...]}``, oldest first).

    Attributes:
        version: 1 for the first printing, then 2, 3... with no gap (the loader checks).
        date: the day the version was released (an ISO date, ``2026-11-23``).
        reason: why the card changed, in our words: required from version 2 on (an erratum);
            version 1 has none.
        fields: the card's printed fields at that version (see
            :func:`card_data.editions.printings.printed_fields`), as JSON values.
    """

    version: Annotated[int, Field(ge=1)]
    date: datetime.date
    reason: str | None = Field(None, min_length=1)
    fields: dict[str, Any] = Field(min_length=1)


class GlossaryEntry(Strict):
    """A keyword or term explained by the rulebook, in our own words.

    ``term`` is ``None`` when the source text lost the term's name (e.g. an icon that
    dropped out of the Carpe Cras text); ``name_lost`` must then be ``True`` and the
    entry says so rather than inventing a name. ``text`` is the rule as players read it (it
    prints on reference cards); ``note`` is for designers (what the source lost or leaves
    unclear) and never prints.
    """

    id: Slug
    term: str | None
    name_lost: bool = False
    text: str = Field(min_length=1)
    section: str = Field(min_length=1)
    note: str | None = None
    aliases: list[str] = []


class DeckEntry(Strict):
    """One line of a deck list: a card id and how many copies (1-99)."""

    card: Slug
    qty: Annotated[int, Field(ge=1, le=99)] = 1


MAX_DECK_LINES = 2_000
"""Lines (card ids) one deck list may hold: several times any published deck's distinct cards."""
MAX_DECK_COPIES = 10_000
"""Copies one deck list may print in all: 1,112 sheets of nine cards, more than any kit."""


class DeckList(Strict):
    """A deck list (card id + quantity).

    ``kind`` says which deck of the game this is (e.g. ``"draw"`` or ``"agency"`` for Carpe
    Cras, ``"army"`` or ``"strategy"`` for C.A.H.R.D., ``"character"`` for Duels). At most
    :data:`MAX_DECK_LINES` lines and :data:`MAX_DECK_COPIES` copies in all (a validation error
    naming ``cards`` otherwise): a deck list is printed, and must not fill a disk.
    """

    id: Slug
    title: str
    kind: str
    example: bool = False
    note: str | None = None
    cards: list[DeckEntry] = Field(max_length=MAX_DECK_LINES)

    @field_validator("cards")
    @classmethod
    def _printable(cls, cards: list[DeckEntry]) -> list[DeckEntry]:
        copies = sum(entry.qty for entry in cards)
        if copies > MAX_DECK_COPIES:
            raise ValueError(f"{copies:,} copies in all; a deck list prints at most {MAX_DECK_COPIES:,}")
        return cards


CARD_SIZE_PRESETS_MM: dict[str, tuple[float, float]] = {
    "poker": (POKER_WIDTH_MM, POKER_HEIGHT_MM),
    "bridge": (57.2, 88.9),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 63.5),
}
"""Common card trim sizes, ``name: (width_mm, height_mm)``, portrait."""


class CardSize(Strict):
    """Trim size of a card in millimetres (poker, 63.5 x 88.9 mm, by default).

    Either a preset ``name`` (``poker``, ``bridge``, ``tarot``, ``mini``; see
    :data:`CARD_SIZE_PRESETS_MM`), which fills in ``width_mm`` and ``height_mm``, or a custom
    ``width_mm`` and ``height_mm``. Giving both a name and a differing width or height is an
    error. ``corner_radius_mm`` (default 3) rounds the cut outline (used by the SVG cut files)
    and must be at most half the shorter side.
    """

    name: Literal["poker", "bridge", "tarot", "mini"] | None = None
    width_mm: Annotated[float, Field(gt=10, le=300)] = POKER_WIDTH_MM
    height_mm: Annotated[float, Field(gt=10, le=300)] = POKER_HEIGHT_MM
    corner_radius_mm: Annotated[float, Field(ge=0)] = 3

    @model_validator(mode="before")
    @classmethod
    def _fill_in_preset(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("name") not in CARD_SIZE_PRESETS_MM:
            return data
        preset = dict(zip(("width_mm", "height_mm"), CARD_SIZE_PRESETS_MM[data["name"]]))
        for key, value in preset.items():
            given = data.get(key)
            if given is not None and given != value:
                raise ValueError(f"{key} {given} contradicts the {data['name']} size ({value} mm); "
                                 f"give either name or width_mm and height_mm")
        return {**data, **preset}

    @model_validator(mode="after")
    def _corner_fits(self) -> "CardSize":
        if self.corner_radius_mm > min(self.width_mm, self.height_mm) / 2:
            raise ValueError(f"corner_radius_mm {self.corner_radius_mm} is more than half the card's shorter side")
        return self

    @property
    def label(self) -> str:
        """``name``, or the preset these dimensions match, else ``"W x H mm"``."""
        if self.name:
            return self.name
        for name, dims in CARD_SIZE_PRESETS_MM.items():
            if dims == (self.width_mm, self.height_mm):
                return name
        return f"{self.width_mm:g} x {self.height_mm:g} mm"


class GameInfo(Strict):
    """``<game>/game.yaml``: what the game is, where its rules come from and how its cards print.

    ``backs`` maps a back kind (see :meth:`Card.back_kind`) to a title for that deck's back,
    e.g. ``{"draw": "Draw deck", "agency": "Agency deck"}``; each has a layout template
    ``<game>/templates/back-<kind>.yaml``. ``fonts`` names the game's own font files
    (``regular``, ``bold``, ``italic``: TTF/OTF paths relative to the game's folder) for every
    card text; faces left out stay the bundled DejaVu Sans. ``designers``: the game's designers
    exactly as its rulebook credits them (the printed files name them as author; a game
    without them is credited to its ``publisher``, or to no one). ``deck_rules``: the
    deck-building rules of each kind of deck, as data (see :mod:`card_data.declared.deck_rules` for how
    a game declares them); without it the game's decks are checked by ``GameSpec.check_deck`` only.
    """

    title: str
    short_title: str | None = None
    publisher: str | None = None
    designers: list[str] = []
    rulebooks: dict[str, str]
    default_edition: str | None = None
    card_size: CardSize = CardSize()
    backs: dict[str, str]
    summary: str | None = None
    fonts: dict[Literal["regular", "bold", "italic"], str] = {}
    deck_rules: DeckRules | None = None


@dataclass(frozen=True)
class GameSpec:
    """How one game's data is validated.

    Attributes:
        game_id: folder name and URL part, e.g. ``"carpe_cras"``.
        card_model: pydantic type (usually a discriminated union on ``type``) for one card.
        check_deck: optional ``(deck, cards_by_id) -> list[Problem]`` for the deck-building
            rules that ``deck_rules`` in ``game.yaml`` cannot say (e.g. "all cards of one
            character"), run after those; each problem's ``field`` a path into the deck list
            (``"cards"``, ``"cards.3.qty"``); the loader adds file, line and ids. Unknown card
            ids are checked by the loader before this is called. Not run on a deck whose kind
            ``deck_rules`` does not declare (that is already reported).
        tables_model: model for ``<game>/tables.yaml`` if the game has one, else ``None``.
        check_database: optional ``(cards_by_id, decks_by_id, tables) -> list[(kind, id, field, message)]``
            for rules that span records (e.g. "six legal character decks"), ``kind`` being
            ``"card"``, ``"deck"`` or ``"tables"``.
        declared: (class attribute) true for a declared game's spec.
    """

    game_id: str
    card_model: Any
    check_deck: Callable[[DeckList, dict[str, Card]], list[Problem]] | None = None
    tables_model: type[BaseModel] | None = None
    check_database: Callable[..., list[tuple[str, str, str, str]]] | None = None
    declared: ClassVar[bool] = False
    """Whether this is a declared game's spec (:class:`~card_data.declared.declared_game.DeclaredGameSpec`):
    asked of the class, so that a database without a declared game never imports that module
    (its field and scoring declarations build pydantic models on import)."""
    _adapter: ClassVar[dict[int, TypeAdapter]] = {}

    def card_adapter(self) -> TypeAdapter:
        key = id(self.card_model)
        if key not in GameSpec._adapter:
            GameSpec._adapter[key] = TypeAdapter(self.card_model)
        return GameSpec._adapter[key]
