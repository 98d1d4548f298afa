"""What the Carpe Diem engine says that is not one event's own: the names of owned things,
holdings and tie-breakers, and the pieces of lines several events share (each a
:class:`~card_data.engine.Words`, said in the player's language by the pages)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from card_data.engine import Words
from card_data.games.carpe_diem.requirements import Need, listed

if TYPE_CHECKING:
    from card_data.games.carpe_diem.rules.state import State

OWNED_TITLES: dict[str, Words] = {
    "chimney": Words("Chimneys (in every villa, complete or not)"),
    "completed_villa": Words("Completed villas"),
    "completed_merchant_dwelling": Words("Completed merchant dwellings"),
    "completed_baker_dwelling": Words("Completed baker dwellings"),
    "completed_administrator_dwelling": Words("Completed administrator dwellings"),
    "completed_craftsman_dwelling": Words("Completed craftsman dwellings"),
    "completed_landscape": Words("Completed landscapes (any kind)"),
    "completed_pond": Words("Completed ponds"),
    "completed_garden": Words("Completed gardens"),
    "market": Words("Markets"),
    "bakery": Words("Bakeries"),
    "fountain": Words("Fountains"),
}
"""What each owned thing is called on forms and on the page."""

OWNED_COUNTS: dict[str, Callable[[int], Words]] = {
    "chimney": lambda n: Words("chimneys %(n)d", n=n),
    "completed_villa": lambda n: Words("completed villas %(n)d", n=n),
    "completed_merchant_dwelling": lambda n: Words("completed merchant dwellings %(n)d", n=n),
    "completed_baker_dwelling": lambda n: Words("completed baker dwellings %(n)d", n=n),
    "completed_administrator_dwelling": lambda n: Words("completed administrator dwellings %(n)d", n=n),
    "completed_craftsman_dwelling": lambda n: Words("completed craftsman dwellings %(n)d", n=n),
    "completed_landscape": lambda n: Words("completed landscapes %(n)d", n=n),
    "completed_pond": lambda n: Words("completed ponds %(n)d", n=n),
    "completed_garden": lambda n: Words("completed gardens %(n)d", n=n),
    "market": lambda n: Words("markets %(n)d", n=n),
    "bakery": lambda n: Words("bakeries %(n)d", n=n),
    "fountain": lambda n: Words("fountains %(n)d", n=n),
}
"""An owned thing's count as history lines give it, e.g. ``"completed ponds 1"``."""

GOAL_TITLES: dict[str, Words] = {
    "chimney": Words("Chimney"),
    "completed_villa": Words("Completed villa"),
    "completed_merchant_dwelling": Words("Completed merchant dwelling"),
    "completed_baker_dwelling": Words("Completed baker dwelling"),
    "completed_administrator_dwelling": Words("Completed administrator dwelling"),
    "completed_craftsman_dwelling": Words("Completed craftsman dwelling"),
    "completed_landscape": Words("Completed landscape"),
    "completed_pond": Words("Completed pond"),
    "completed_garden": Words("Completed garden"),
    "market": Words("Market"),
    "bakery": Words("Bakery"),
    "fountain": Words("Fountain"),
}
"""What a frame goal showing an owned thing is called on the final-scoring form."""

HOLDING_CHANGES: dict[str, Callable[[int, int], Words]] = {
    "grapes": lambda was, now: Words("grapes %(was)d → %(now)d", was=was, now=now),
    "herbs": lambda was, now: Words("herbs %(was)d → %(now)d", was=was, now=now),
    "chicken": lambda was, now: Words("chicken %(was)d → %(now)d", was=was, now=now),
    "fish": lambda was, now: Words("fish %(was)d → %(now)d", was=was, now=now),
    "coins": lambda was, now: Words("coins %(was)d → %(now)d", was=was, now=now),
    "bread": lambda was, now: Words("bread %(was)d → %(now)d", was=was, now=now),
}
"""A holding's change as history lines give it, e.g. ``"herbs 0 → 4"``."""

WARE_GAINS: dict[str, Callable[[int], Words]] = {
    "grapes": lambda n: Words("+%(n)d grapes", n=n),
    "herbs": lambda n: Words("+%(n)d herbs", n=n),
    "chicken": lambda n: Words("+%(n)d chicken", n=n),
    "fish": lambda n: Words("+%(n)d fish", n=n),
}
"""Wares gained, as history lines give them, e.g. ``"+2 herbs"``."""

WHOSE: dict[str, Callable[[str], Words]] = {
    "landscape": lambda name: Words("%(name)s's landscape", name=name),
    "dwelling": lambda name: Words("%(name)s's dwelling", name=name),
    "villa": lambda name: Words("%(name)s's villa", name=name),
    "market": lambda name: Words("%(name)s's market", name=name),
    "bakery": lambda name: Words("%(name)s's bakery", name=name),
    "fountain": lambda name: Words("%(name)s's fountain", name=name),
}
"""A player's building entered in the rounds, as refusals name it (:func:`require_rounds`)."""

TIE_BREAKER_NAMES: dict[str, Words] = {"summary": Words("summary"), "rulebook": Words("rulebook")}
"""The tie-breaker options as the final line names them (``"summary tie-breaker"``)."""


def amount_words(what: str, count: int) -> str:
    """``"4 coins"``, ``"3 bread"``, or a ware or owned thing as the cards print it (``"4× herbs"``)."""
    if what == "coins":
        return Words("%(n)d coin", n=count) if count == 1 else Words("%(n)d coins", n=count)
    if what == "bread":
        return Words("%(n)d bread", n=count)
    if not count:
        return Words("no %(thing)s", thing=Need(what=what).label())
    return Need(what=what, count=count).label()


def counts_line(state: State, seat: int, things: Sequence[str]) -> str:
    """``"completed landscapes 2, completed ponds 1"``: ``seat``'s counts of ``things`` now."""
    owned = state.sheets[seat].owned
    return listed([OWNED_COUNTS[t](owned.get(t, 0)) for t in things])


def ask_for_counts(missing: Sequence[str], title: str) -> Words:
    """The refusal asking for owned counts neither tracked nor entered (``missing`` owned things)
    that card ``title`` needs."""
    return Words("enter how many you own of: %(things)s (for %(card)s)",
                 things=listed([Need(what=m).label() for m in missing]), card=title)
