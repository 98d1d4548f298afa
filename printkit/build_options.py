"""How ``printkit build`` prints: the paper, duplex, bleed, colours and marks of a build
(:class:`BuildOptions`), which every part of the build reads."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from printkit.sheets.artwork.art_prints import PRINT_DPI
from printkit.sheets.prepress.paper import Paper
from printkit.sheets.prepress.registration_marks import RegistrationMarks

if TYPE_CHECKING:
    from printkit.sheets.render import PdfOutput

BLEED_MM = 3.0
Duplex = Literal["long", "short", "none", "fold"]


@dataclass(frozen=True)
class BuildOptions:
    """How to print.

    Attributes:
        paper: the sheet (portrait; fold-over may turn it).
        base_url: where the QR codes point (no trailing slash needed).
        duplex: ``long``/``short`` flip edge (backs on the page after their fronts), ``none``
            (backs in a separate file) or ``fold`` (fold-over pairs, for single-sided printers).
        bleed_mm: bleed around each card's trim.
        back_offset_mm: ``(x, y)`` in mm, right and down as seen on the back page, added to
            every back (and the back page's crop marks) to cancel a printer's duplex drift; as
            read off ``printkit calibration``'s registration page. Not used with ``fold``.
        cmyk: write every colour as CMYK (``k``/``K`` operators, converted through the FOGRA39
            profile) instead of RGB.
        pdfx: write PDF/X-4 files for a print shop: CMYK colours and artwork through the
            FOGRA39 profile, which is embedded as the OutputIntent (implies ``cmyk``).
        registration_marks: print-then-cut marks for a Silhouette cutter on every page of
            card fronts and in its cut file (instead of crop marks; the cards keep clear of
            them, so fewer may fit). Not with ``fold``.
        lang: a language code (``"de"``): cards print with the text fields that game's
            ``translations/<lang>.yaml`` gives them, the others in the original
            (:mod:`card_data.editions.translations`); ``None`` prints the original. QR codes, versions
            and everything but the card fronts stay the same.
        print_dpi: the resolution raster art is embedded at, in pixels per inch of its placed
            size (:mod:`printkit.sheets.artwork.art_prints`: cropped to its box, never upsampled),
            ``PRINT_DPI_MIN..PRINT_DPI_MAX`` (72..1200), 300 by default.
    """

    paper: Paper
    base_url: str
    duplex: Duplex = "long"
    bleed_mm: float = BLEED_MM
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    cmyk: bool = False
    registration_marks: RegistrationMarks | None = None
    pdfx: bool = False
    lang: str | None = None
    print_dpi: int = PRINT_DPI

    @property
    def pdf_output(self) -> PdfOutput:
        """How the PDFs' colours and standard are written (from ``cmyk`` and ``pdfx``)."""
        from printkit.sheets.render import PdfOutput  # the renderer: only a build that draws needs it

        return PdfOutput.of(self.cmyk, self.pdfx)
