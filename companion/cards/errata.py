"""What a player holding an older printing of a card is told: the text on their copy, the text
now, a word-level diff of the two and each erratum's reason (see :mod:`card_data.editions.printings`)."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from babel.dates import format_date
from flask_babel import gettext
from markupsafe import Markup, escape

from card_data.declared.declared_game import players_see
from card_data.declared.field_declarations import DeclaredGameInfo
from card_data.loader import Game
from card_data.editions.printings import CardVersion, printed_fields, same_fields
from card_data.schema import Card, Printing
from companion.web.language import current_language
from companion.cards.card_fields import field_label

ABSENT = "—"
"""How a field that one version has and the other does not reads."""


def field_text(value: Any) -> str:
    """A printed field's value as one line of words: lists joined by ``"; "``, a mapping as
    ``"Label: value"`` parts, ``None`` as :data:`ABSENT`, booleans as yes/no (in the page's
    language), a snake_case choice (``completed_garden``) as words."""
    if value is None:
        return ABSENT
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, dict):
        return ", ".join(f"{field_label(str(k))}: {field_text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "; ".join(field_text(v) for v in value)
    if isinstance(value, str) and _IDENTIFIER.fullmatch(value):
        return field_label(value)  # a schema's choice such as completed_garden, in words
    return str(value)


_IDENTIFIER = re.compile(r"[a-z]+(?:_[a-z0-9]+)+")


def word_diff(old: str, new: str) -> Markup:
    """``old`` turned into ``new`` word by word (:class:`difflib.SequenceMatcher` over the
    whitespace-separated words): words only in ``old`` in ``<del>``, words only in ``new`` in
    ``<ins>``, the rest as they are; everything escaped. ``<del>`` and ``<ins>`` are struck
    through and underlined by browsers and named by screen readers, so the change reads
    without colour."""
    a, b = old.split(), new.split()
    parts: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            parts.append(str(escape(" ".join(a[i1:i2]))))
            continue
        if i2 > i1:
            parts.append(f"<del>{escape(' '.join(a[i1:i2]))}</del>")
        if j2 > j1:
            parts.append(f"<ins>{escape(' '.join(b[j1:j2]))}</ins>")
    return Markup(" ".join(parts))


@dataclass(frozen=True)
class FieldChange:
    """One printed field that differs: its label, the two texts and their word diff."""

    label: str
    printed: str
    current: str
    diff: Markup


@dataclass(frozen=True)
class Erratum:
    """What changed between the version a player's copy was printed with and the card now.

    Attributes:
        printed: that version as recorded.
        current: the version the card is at now (released or not, see
            :class:`~card_data.editions.printings.CardVersion`).
        printed_lines: ``[(label, text)]`` of every printed field of the copy.
        current_lines: the same for the card now.
        changes: the fields that differ, in the card's field order.
        later: the recorded versions after ``printed``, oldest first (each with its date and
            reason).
    """

    printed: Printing
    current: CardVersion
    printed_lines: list[tuple[str, str]]
    current_lines: list[tuple[str, str]]
    changes: list[FieldChange]
    later: list[Printing]


def _lines(game: Game, fields: dict[str, Any], order: list[str], card: Card) -> list[tuple[str, str]]:
    return [(_label(card, name), _text(game, name, fields.get(name))) for name in order if name in fields]


def _text(game: Game, name: str, value: Any) -> str:
    """:func:`field_text` of the printed field ``name``; a declared game's card type by its
    declared label (``Bonus round``, as the card's page names it), not its name."""
    info = game.info
    if name == "type" and isinstance(info, DeclaredGameInfo) and isinstance(value, str) \
            and value in info.type_names():
        return info.type_label(value)
    return field_text(value)


def _label(card: Card, name: str) -> str:
    """What the card's page calls the field ``name``: the schema's title (a declared game's
    ``label``), else the name in words."""
    info = type(card).model_fields.get(name)
    return field_label(name, info.title if info is not None else None)


def _players_see(card: Card, name: str) -> bool:
    """Whether the card's page may show the field ``name`` (not a ``players_see: false``
    field, such as a quiz card's answer); a field the schema no longer has was printed, so yes."""
    info = type(card).model_fields.get(name)
    return info is None or players_see(info)


def erratum_for(game: Game, card: Card, version: int) -> Erratum | None:
    """The :class:`Erratum` of ``card`` for a copy printed as ``version``, or ``None`` when
    that copy is the card as it is now (its current version, or a version whose fields are
    the current ones). Raises ``LookupError`` when the game records no such version of the
    card and it is not the current one (the QR code was not made from this data); its message,
    in the page's language, is what the not-found page says."""
    current = game.printings.card_version(card)
    if current is None:
        raise LookupError(gettext("%(game)s does not record versions of its cards", game=game.info.title))
    if version == current.version:
        return None
    printed = game.printings.printing(card.id, version)
    if printed is None:
        known = ", ".join(f"v{p.version}" for p in game.printings.versions(card.id))
        if current.released:
            message = (gettext("%(card)s has no version %(version)s: the versions known are %(known)s.",
                               card=card.title, version=version, known=known) if known else
                       gettext("%(card)s has no version %(version)s: no versions are known.",
                               card=card.title, version=version))
        else:
            message = (gettext("%(card)s has no version %(version)s: the versions known are %(known)s "
                               "and v%(current)s (not released yet).", card=card.title, version=version,
                               known=known, current=current.version) if known else
                       gettext("%(card)s has no version %(version)s: the only version known is "
                               "v%(current)s (not released yet).", card=card.title, version=version,
                               current=current.version))
        raise LookupError(message)
    now = printed_fields(card)
    if same_fields(printed.fields, now):
        return None
    # What players may not see on the card's page stays off its erratum too (the reason says why
    # the card changed).
    # A declared game's title is a copy of its title field (title_field): that field is shown,
    # under its own label, and the title not again.
    copied = "title" if getattr(type(card), "TITLE_FIELD", None) else None
    order = [name for name in (*now, *(n for n in printed.fields if n not in now))
             if _players_see(card, name) and name != copied]
    changes = []
    for name in order:
        before, after = printed.fields.get(name), now.get(name)
        if same_fields({"v": before}, {"v": after}):
            continue
        old, new = _text(game, name, before), _text(game, name, after)
        changes.append(FieldChange(_label(card, name), old, new, word_diff(old, new)))
    later = [p for p in game.printings.versions(card.id) if p.version > version]
    return Erratum(printed, current, _lines(game, printed.fields, order, card), _lines(game, now, order, card),
                   changes, later)


#: Babel locale of the long dates per interface language, where it is not the language itself:
#: Babel's ``en`` writes dates the American way ("November 23, 2026"); the interface is British.
DATE_LOCALES = {"en": "en_GB"}


def long_date(day: datetime.date) -> str:
    """``day`` written out in the page's language: ``"23 November 2026"``, German
    ``"23. November 2026"`` (Babel's ``long`` format; English outside a request)."""
    language = current_language()
    return format_date(day, "long", locale=DATE_LOCALES.get(language, language))
