"""Paper sizes, in millimetres, portrait."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """A sheet of paper: ``name`` and portrait ``width_mm`` x ``height_mm``."""

    name: str
    width_mm: float
    height_mm: float


PAPERS: dict[str, Paper] = {
    "letter": Paper("letter", 215.9, 279.4),
    "a4": Paper("a4", 210.0, 297.0),
}


def paper_by_name(name: str) -> Paper:
    """The paper called ``name`` (case-insensitive: ``letter`` or ``a4``); ``KeyError`` if unknown."""
    return PAPERS[name.lower()]
