"""The keys of ``[printkit.limits]`` in a project's ``printkit.toml``: each limit a designer may
raise, its unit, its default and the most it may be raised to.

Every size and number printkit takes from outside is bounded; these are the bounds a real
project can outgrow. Each has a ceiling of its own, because a limit raised to any number at all
would be no limit. The rest stay fixed (see the README's table of limits): the bits of a
template's numbers (:data:`printkit.sheets.templating.template_limits.MAX_INT_BITS`), the characters one
render makes in all (``MAX_TEMPLATE_WORK``), an artwork file's bytes, a spreadsheet's rows,
cells and nesting.

:mod:`card_data.project.base_url` checks a ``printkit.toml`` against these keys,
:class:`card_data.project.limits.Limits` holds the values in force.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LimitKey:
    """One key of ``[printkit.limits]``.

    Attributes:
        name: the key (``"art_megapixels"``).
        unit: what its value counts, plural (``"megapixels"``); a value is a number of them.
        default: the limit unless ``printkit.toml`` sets it.
        most: the largest value ``printkit.toml`` may set (values must also be above 0).
        whole: only whole numbers (an integer in TOML) are taken.
        why_most: why ``most`` is where it is, said when a value is over it.
    """

    name: str
    unit: str
    default: int | float
    most: int | float
    whole: bool = False
    why_most: str = ""


FILE_MB = LimitKey(
    "file_mb", "megabytes", 20, 1_000,
    why_most="reading YAML takes about 28 bytes of memory per byte: 28 GB for 1,000 MB")
"""One YAML file (and a spreadsheet ``printkit import`` reads), in megabytes of 10**6 bytes;
see :mod:`card_data.project.limits` for the defaults' reasons."""

GAME_MB = LimitKey(
    "game_mb", "megabytes", 100, 5_000,
    why_most="reading takes most of a second per megabyte: over an hour for 5,000 MB")
"""All of one game's YAML files together, in megabytes."""

ART_MEGAPIXELS = LimitKey(
    "art_megapixels", "megapixels", 64, 89,
    why_most="Pillow takes a larger image for a decompression bomb (Image.MAX_IMAGE_PIXELS, 89.48 megapixels)")
"""Pixels (in millions) raster art or an icon may have wherever it is placed; more is refused
from the file's header, before it is decoded (3 or 4 bytes of memory a pixel). 64 megapixels
(8000 x 8000 px) is a 677 mm square board at 300 dpi, and decodes to 256 MB."""

ART_DPI = LimitKey(
    "art_dpi", "dpi", 1200, 4800,
    why_most="no printer claims a finer resolution (4800 x 1200 dpi inkjets)")
"""Raster art with more pixels than its placed size needs at this resolution (pixels per inch)
is refused, unread: four times the 300 dpi a sharp print needs, in each direction. A poker
card's 57.5 x 34 mm art box takes up to 2717 x 1606 px (4.4 megapixels) at 1200 dpi. Art of up
to 4 megapixels is never refused for it (:data:`printkit.sheets.artwork.art.ART_PIXELS_ALWAYS_ALLOWED`)."""

TEMPLATE_SECONDS = LimitKey(
    "template_seconds", "seconds", 3, 60,
    why_most="a template that needs a minute for one card needs days for a deck")
"""Processor seconds one template render (one text, expression or board) may take; a card's
templates take milliseconds."""

TEMPLATE_CHARACTERS = LimitKey(
    "template_characters", "characters", 100_000, 1_000_000, whole=True,
    why_most="a tenth of the 10,000,000 characters and items one render may make in all, which is fixed")
"""Characters one render may output, and the largest value it may make (characters of a
string or of the text a value prints as, items of a list): far beyond any card's text."""

LIMIT_KEYS: dict[str, LimitKey] = {key.name: key for key in (
    FILE_MB, GAME_MB, ART_MEGAPIXELS, ART_DPI, TEMPLATE_SECONDS, TEMPLATE_CHARACTERS)}
"""Every key of ``[printkit.limits]``, by name."""
