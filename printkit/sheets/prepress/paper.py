"""Paper sizes, in millimetres, portrait (a landscape sheet is the same paper turned), and the
unprintable margin printers leave at the paper's edge."""

from __future__ import annotations

from dataclasses import dataclass, replace

PRINTER_MARGIN_MM = 5.0
"""Unprintable band at every paper edge: most laser printers cannot put ink nearer the edge than
about 4-5 mm (inkjets often 3 mm). Everything printkit draws keeps this far in where the paper
allows; where a card sheet cannot (3 x 3 poker cards on Letter), the build says so."""


@dataclass(frozen=True)
class Paper:
    """A sheet of paper: ``name`` (``letter``, ``a4``, ``a3``), ``width_mm`` x ``height_mm``
    as it lies on the page (portrait unless :meth:`turned`), and ``label`` as printed in messages.

    ``safe_margins``: card sheets must keep all ink (bleed and crop marks included)
    ``PRINTER_MARGIN_MM`` from every edge, even if fewer cards fit; otherwise they hold as
    many cards as the paper takes and report when that brings ink nearer the edge.
    """

    name: str
    width_mm: float
    height_mm: float
    label: str = ""
    safe_margins: bool = False

    @property
    def landscape(self) -> bool:
        return self.width_mm > self.height_mm

    def turned(self) -> Paper:
        """The same sheet turned a quarter turn (portrait <-> landscape)."""
        return replace(self, width_mm=self.height_mm, height_mm=self.width_mm)


PAPERS: dict[str, Paper] = {
    "letter": Paper("letter", 215.9, 279.4, "Letter"),
    "a4": Paper("a4", 210.0, 297.0, "A4"),
    "a3": Paper("a3", 297.0, 420.0, "A3"),
}


def paper_by_name(name: str, safe_margins: bool = False) -> Paper:
    """The portrait paper called ``name`` (case-insensitive: ``letter``, ``a4`` or ``a3``), with
    ``safe_margins`` as in :class:`Paper`; ``KeyError`` if unknown."""
    paper = PAPERS[name.lower()]
    return replace(paper, safe_margins=True) if safe_margins else paper
