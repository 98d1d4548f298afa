"""Card versions and errata: what each card looked like when it was printed.

A game that has been released keeps, beside its hand-edited card files, a machine-written
``<game>/printings.yaml``::

    fountain-gardens:
      - version: 1
        date: 2026-11-23
        fields: {type: fountain, title: Garden fountain, text: ..., ...}
      - version: 2
        date: 2026-11-24
        reason: The wording now says ...
        fields: {...}

Each entry is one printed version of the card (:class:`~card_data.schema.Printing`): its
number, the day it was released, why it changed (an erratum, from version 2 on) and its
*printed fields* (:func:`printed_fields`). ``printkit release`` appends a version for every
card whose printed fields differ from its last recorded version; the QR code of a printed
card encodes its version (``/r/<game>/<card-id>/<version>``), and the companion shows a
player holding an older copy what has changed since.

A card's *current version* (:func:`card_version`) is its last recorded version when that
version's fields equal the card's printed fields now; otherwise the card has unreleased
changes and prints as the next version (last + 1), which the next ``printkit release``
records. A game without ``printings.yaml`` is unversioned: its QR codes carry no version.
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from card_data.reading.card_ids import CardIds
from card_data.problems import Problem
from card_data.schema import Card, Printing
from card_data.reading.yaml_records import Collector, read_game_yaml

PRINTINGS_FILE = "printings.yaml"
"""The file of a game's folder that holds its card versions."""

UNPRINTED_FIELDS = frozenset({"id", "rulings", "note", "example", "assumed", "art", "qty"})
"""Card fields that are not part of a version.

``id`` names the card across versions; ``rulings`` and ``note`` are shown on the companion,
never printed; ``example`` and ``assumed`` are marks about where the data came from, not
rules; ``art`` is the illustration, and a new picture (or a moved file) changes nothing about
how the card plays, so it is not an erratum; ``qty`` (a declared game's copies to print) says
how many of the card are printed, not what one says, so printing more or fewer is not an
erratum either. Everything else (title, type, text, stats, cost, whatever the game's schema
or ``game.yaml`` declares) is printed and versioned: a card moved to another card type is.
"""


def printed_fields(card: Card) -> dict[str, Any]:
    """The card's printed fields as JSON values: every field but :data:`UNPRINTED_FIELDS`,
    fields at their default left out (so that a field the schema gains later, with a default,
    does not count as a change of every card), in the schema's order."""
    data = card.model_dump(mode="json", exclude_defaults=True, exclude=set(UNPRINTED_FIELDS))
    # A discriminated union's tag may have a default; a version always names the card's type.
    return {"type": card.type, **{k: v for k, v in data.items() if k != "type"}}


def _canonical(value: Any) -> str:
    # YAML gives 2 where JSON gave 2.0, and keeps key order; compare what the values mean.
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def same_fields(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two sets of printed fields are the same (key order and int/float spelling aside)."""
    return _canonical(a) == _canonical(b)


@dataclass(frozen=True)
class CardVersion:
    """The version a card prints as.

    Attributes:
        version: its number (1, 2...).
        released: ``True`` when ``printings.yaml`` records this version with the card's
            current printed fields; ``False`` for a card with unreleased changes (or never
            released), printed as the version the next ``printkit release`` will record.
    """

    version: int
    released: bool

    @property
    def label(self) -> str:
        """The small type on the printed card, e.g. ``"v2"``."""
        return f"v{self.version}"


@dataclass
class Printings:
    """A game's ``printings.yaml``, validated: card id -> its versions, oldest first.

    ``path`` is the file (``None`` for a game without one, which is unversioned).
    """

    path: Path | None = None
    cards: dict[str, tuple[Printing, ...]] = field(default_factory=dict)

    @property
    def versioned(self) -> bool:
        """Whether the game has a ``printings.yaml`` (its QR codes then carry versions)."""
        return self.path is not None

    def versions(self, card_id: str) -> tuple[Printing, ...]:
        """The recorded versions of ``card_id``, oldest first (empty if none)."""
        return self.cards.get(card_id, ())

    def card_version(self, card: Card) -> CardVersion | None:
        """The version ``card`` prints as (see the module's docstring); ``None`` when the game
        is unversioned."""
        if not self.versioned:
            return None
        recorded = self.versions(card.id)
        if recorded and same_fields(recorded[-1].fields, printed_fields(card)):
            return CardVersion(recorded[-1].version, True)
        return CardVersion(len(recorded) + 1, False)

    def subset(self, card_ids: Iterable[str]) -> Printings:
        """The same file's versions of ``card_ids`` only (what laying those cards out needs)."""
        return Printings(self.path, {card_id: self.cards[card_id] for card_id in card_ids if card_id in self.cards})

    def printing(self, card_id: str, version: int) -> Printing | None:
        """Version ``version`` of ``card_id`` as recorded, or ``None``."""
        for printing in self.versions(card_id):
            if printing.version == version:
                return printing
        return None


@dataclass(frozen=True)
class ReleasedCard:
    """One card that a release gives a new version.

    Attributes:
        card_id: the card.
        printing: the version recorded for it.
        first: ``True`` for the card's first version (no earlier one, no reason needed).
    """

    card_id: str
    printing: Printing
    first: bool


def plan_release(cards: Iterable[Card], printings: Printings, date: datetime.date,
                 reason: str | None, reasons: Mapping[str, str] | None = None) -> list[ReleasedCard]:
    """The versions a release on ``date`` adds: one for each card of ``cards`` whose printed
    fields differ from its last recorded version, or that has none (version 1, without a
    reason); every later version gets its card's own reason (``reasons``: card id -> why),
    else ``reason``.

    Raises ``ValueError`` when a card that has a version changed and has no reason (an
    erratum must say why), naming those cards; when ``reasons`` names a card that gets no
    erratum here (a misspelt id would otherwise lose its reason silently); or when ``date`` is
    before a card's last recorded version.
    """
    changed: list[tuple[Card, dict[str, Any], tuple[Printing, ...]]] = []
    for card in cards:
        fields = printed_fields(card)
        recorded = printings.versions(card.id)
        if recorded and same_fields(recorded[-1].fields, fields):
            continue
        if recorded and date < recorded[-1].date:
            raise ValueError(f"{card.id}: the release date {date} is before its version {recorded[-1].version} "
                             f"({recorded[-1].date})")
        changed.append((card, fields, recorded))
    reason = reason.strip() if reason else None
    own = {card_id: why.strip() for card_id, why in (reasons or {}).items() if why and why.strip()}
    errata = {card.id for card, _, recorded in changed if recorded}
    stray = sorted(set(own) - errata)
    if stray:
        raise ValueError("no erratum to explain for " + ", ".join(stray) + ": each --card-reason names a card "
                         "that changed since its last version")
    unexplained = [card.id for card, _, recorded in changed if recorded and card.id not in own]
    if unexplained and not reason:
        raise ValueError("cards changed since their last version; give the erratum's reason with --reason "
                         "(or --card-reason CARD TEXT): " + ", ".join(unexplained))
    return [ReleasedCard(card.id, Printing(version=len(recorded) + 1, date=date,
                                           reason=own.get(card.id, reason) if recorded else None, fields=fields),
                         not recorded)
            for card, fields, recorded in changed]


def with_release(printings: Printings, planned: Iterable[ReleasedCard]) -> dict[str, list[dict[str, Any]]]:
    """The contents of ``printings.yaml`` after adding ``planned``: ``{card id: [version, ...]}``,
    cards in their earlier order and new ones after, each version a plain mapping."""
    out = {card_id: [_plain(p) for p in versions] for card_id, versions in printings.cards.items()}
    for item in planned:
        out.setdefault(item.card_id, []).append(_plain(item.printing))
    return out


def _plain(printing: Printing) -> dict[str, Any]:
    data: dict[str, Any] = {"version": printing.version, "date": printing.date}
    if printing.reason:
        data["reason"] = printing.reason
    data["fields"] = printing.fields
    return data


class _PlainDumper(yaml.SafeDumper):
    """Writes every value out: no ``&id001`` anchors where versions share a date object."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


HEADER = ("# Written by `printkit release`: the printed versions of this game's cards, oldest first.\n"
          "# Edit the cards in cards/*.yaml and run `printkit release --reason TEXT`, not this file.\n")


def write_printings(path: Path, data: Mapping[str, list[dict[str, Any]]]) -> None:
    """Write ``data`` (see :func:`with_release`) to ``path`` as YAML, atomically: a temporary
    file beside it, then a rename, so a reader never sees half a file. Raises ``OSError``."""
    text = HEADER + yaml.dump(dict(data), Dumper=_PlainDumper, sort_keys=False, allow_unicode=True, width=100,
                              default_flow_style=False)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def printed_versions(printings: Printings, card: Card) -> list[int]:
    """Every version of ``card`` a QR code may carry: the recorded ones and, when the card
    has unreleased changes, the one it prints as now; empty for an unversioned game. The
    static site and the offline manifest hold a page for each."""
    current = printings.card_version(card)
    if current is None:
        return []
    numbers = [p.version for p in printings.versions(card.id)]
    return numbers if current.released else [*numbers, current.version]


def read_printings(path: Path, col: Collector, ids: CardIds) -> Printings:
    """The game's ``printings.yaml`` at ``path`` (the format above), its problems added to
    ``col``: a file that is not a mapping of card ids to lists, an unknown card id, a version
    that fails the :class:`Printing` schema, versions not numbered 1, 2, 3... in order, an
    erratum (version 2 on) without a reason, a date before the version it follows.
    Versions with problems are left out; a game without the file is unversioned."""
    if not path.exists():
        return Printings()
    printings = Printings(path)
    read = read_game_yaml(path, col)
    if read is None:
        return printings
    data, lines = read
    if data is None:
        return printings
    if not isinstance(data, dict):
        col.add(path, lines.line_for(()), "-", "printings",
                f"expected a mapping of card ids to their versions, got {type(data).__name__}")
        return printings
    for card_id, items in data.items():
        rid = str(card_id)
        if not isinstance(card_id, str) or card_id not in ids:
            col.add(path, lines.line_for((card_id,)), rid, "-",
                    f"unknown card id '{rid}': printed copies of it exist, but no card of the game has "
                    f"it; keep the card (its id is in their QR codes), or remove its versions here if it "
                    f"is withdrawn")
            continue
        if not isinstance(items, list) or not items:
            col.add(path, lines.line_for((card_id,)), rid, "-", "expected a list of versions, oldest first")
            continue
        versions: list[Printing] = []
        for i, item in enumerate(items):
            where = (card_id, i)
            try:
                printing = Printing.model_validate(item)
            except ValidationError as exc:
                col.problems += Problem.from_validation_error(exc, data=item, file=str(path), lines=lines, base=where,
                                                              game=col.game_id, card_id=rid, prefix=str(i))
                break
            if printing.version != i + 1:
                col.add(path, lines.line_for(where + ("version",)), rid, f"{i}.version",
                        f"version {printing.version} where {i + 1} was expected: a card's versions count "
                        f"1, 2, 3... in order")
                break
            if printing.version > 1 and printing.reason is None:
                col.add(path, lines.line_for(where), rid, f"{i}.reason",
                        f"version {printing.version} is an erratum: give its reason")
                break
            if versions and printing.date < versions[-1].date:
                col.add(path, lines.line_for(where + ("date",)), rid, f"{i}.date",
                        f"{printing.date} is before version {versions[-1].version} ({versions[-1].date})")
                break
            versions.append(printing)
        printings.cards[card_id] = tuple(versions)
    return printings
