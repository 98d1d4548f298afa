"""Paper sizes, in millimetres, portrait (a landscape sheet is the same paper turned)."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Paper:
    """A sheet of paper: ``name`` (``letter``, ``a4``, ``a3``), ``width_mm`` x ``height_mm``
    as it lies on the page (portrait unless :meth:`turned`), and ``label`` as printed in messages."""

    name: str
    width_mm: float
    height_mm: float
    label: str = ""

    @property
    def landscape(self) -> bool:
        return self.width_mm > self.height_mm

    def turned(self) -> "Paper":
        """The same sheet turned a quarter turn (portrait <-> landscape)."""
        return replace(self, width_mm=self.height_mm, height_mm=self.width_mm)


PAPERS: dict[str, Paper] = {
    "letter": Paper("letter", 215.9, 279.4, "Letter"),
    "a4": Paper("a4", 210.0, 297.0, "A4"),
    "a3": Paper("a3", 297.0, 420.0, "A3"),
}


def paper_by_name(name: str) -> Paper:
    """The portrait paper called ``name`` (case-insensitive: ``letter``, ``a4`` or ``a3``);
    ``KeyError`` if unknown."""
    return PAPERS[name.lower()]
