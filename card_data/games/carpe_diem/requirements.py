"""What Carpe Diem's scoring and fountain cards ask for: the wares and the things a player
owns, one item of a requirement (:class:`Need`), and how requirements are written and counted.

Sources (``/work/shared/rules``): ``carpe-diem-summary.txt`` (the "summary") and
``carpe-diem-published-rules-notes.md`` (notes on the published 2018 rulebook, the "2018
rulebook").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from pydantic import PositiveInt

from card_data.engine.wording import Words
from card_data.schema import Strict

Ware = Literal["grapes", "herbs", "chicken", "fish"]
"""The four wares (summary, Components). Coins replace any ware on red cards only."""

Owned = Literal[
    "chimney",
    "completed_villa",
    "completed_merchant_dwelling",
    "completed_baker_dwelling",
    "completed_administrator_dwelling",
    "completed_craftsman_dwelling",
    "completed_landscape",
    "completed_pond",
    "completed_garden",
    "market",
    "bakery",
    "fountain",
]
"""Things in a player's district a green card or a fountain card counts.

``chimney`` counts chimneys in every villa, complete or not; the ``completed_*`` things
count finished buildings and landscapes only (2018 rulebook, Scoring periods).
"""

Thing = Literal[Ware, Owned]

WARES: frozenset[str] = frozenset(Ware.__args__)
VILLA_THINGS: frozenset[str] = frozenset({"chimney", "completed_villa"})
"""What C cards count (summary: "C cards = villa-related")."""

_LABELS: dict[str, tuple[Words, Callable[[int], Words]]] = {
    # (one, how many): the card's symbols in words; "×" as the cards count icons.
    "grapes": (Words("grape"), lambda n: Words("%(n)d× grapes", n=n)),
    "herbs": (Words("herb"), lambda n: Words("%(n)d× herbs", n=n)),
    "chicken": (Words("chicken"), lambda n: Words("%(n)d× chickens", n=n)),
    "fish": (Words("fish"), lambda n: Words("%(n)d× fish", n=n)),
    "chimney": (Words("chimney"), lambda n: Words("%(n)d× chimneys", n=n)),
    "completed_villa": (Words("completed villa"), lambda n: Words("%(n)d× completed villas", n=n)),
    "completed_merchant_dwelling": (Words("completed merchant dwelling"),
                                    lambda n: Words("%(n)d× completed merchant dwellings", n=n)),
    "completed_baker_dwelling": (Words("completed baker dwelling"),
                                 lambda n: Words("%(n)d× completed baker dwellings", n=n)),
    "completed_administrator_dwelling": (Words("completed administrator dwelling"),
                                         lambda n: Words("%(n)d× completed administrator dwellings", n=n)),
    "completed_craftsman_dwelling": (Words("completed craftsman dwelling"),
                                     lambda n: Words("%(n)d× completed craftsman dwellings", n=n)),
    "completed_landscape": (Words("completed landscape"), lambda n: Words("%(n)d× completed landscapes", n=n)),
    "completed_pond": (Words("completed pond"), lambda n: Words("%(n)d× completed ponds", n=n)),
    "completed_garden": (Words("completed garden"), lambda n: Words("%(n)d× completed gardens", n=n)),
    "market": (Words("market"), lambda n: Words("%(n)d× markets", n=n)),
    "bakery": (Words("bakery"), lambda n: Words("%(n)d× bakeries", n=n)),
    "fountain": (Words("fountain"), lambda n: Words("%(n)d× fountains", n=n)),
}
"""Owned thing or ware -> (its name for one, its name with a count) as requirements print them."""


def added(pieces: Sequence[str]) -> str:
    """``"a + b + c"``, kept translatable: a :class:`Words` (or the one piece) from a non-empty
    sequence of pieces (Words or names)."""
    if len(pieces) == 1:
        return pieces[0]
    return Words("%(first)s + %(rest)s", first=pieces[0], rest=added(pieces[1:]))


def listed(pieces: Sequence[str]) -> str:
    """``"a, b, c"``, kept translatable: a :class:`Words` (or the one piece) from a non-empty
    sequence of pieces (Words or names)."""
    if len(pieces) == 1:
        return pieces[0]
    return Words("%(first)s, %(rest)s", first=pieces[0], rest=listed(pieces[1:]))


class Need(Strict):
    """One item of a requirement: ``count`` of ``what`` (a ware, or a thing the player owns)."""

    what: Thing
    count: PositiveInt = 1

    def label(self) -> Words:
        """``"3× chimneys"``, or just ``"chicken"`` for a count of one."""
        one, many = _LABELS[self.what]
        return one if self.count == 1 else many(self.count)


def needs_line(needs: list[Need]) -> str:
    """``needs`` as the cards print them, e.g. ``"chicken + grape + fish"``."""
    return added([n.label() for n in needs])


def sets_owned(needs: list[Need], have: Mapping[str, int]) -> int:
    """Full sets of ``needs`` held in ``have`` (thing -> how many the player owns)."""
    return min(have.get(n.what, 0) // n.count for n in needs)
