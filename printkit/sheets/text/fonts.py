"""Fonts: the bundled libre font (DejaVu Sans) and a designer's own TTF/OTF files, registered
with reportlab so that they are embedded (subset) in every PDF.

Shipping our own TTF makes text identical on every machine, and print shops accept PDFs
whose fonts are embedded. DejaVu covers the symbols card texts use (× → ★ ⚔ ●). A game
(``fonts:`` in ``game.yaml``) or a layout template (``fonts:`` at its top) may name its own
regular, bold and italic files instead; see ``templates/README.md``.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).parent.parent.parent / "fonts"
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
ITALIC = "DejaVuSans-Oblique"
FONT_NAMES = {"regular": REGULAR, "bold": BOLD, "italic": ITALIC}
FACES = ("regular", "bold", "italic")
"""The faces a region's ``font`` may name, and the keys of a ``fonts:`` mapping."""

MAX_FONT_FILE_BYTES = 32 * 1024 * 1024
"""A font file larger than this is refused: card fonts are well under 1 MB, and reportlab reads
the whole file into memory."""


class FontError(ValueError):
    """A font file that cannot be used; ``str()`` says which file and why."""


@dataclass(frozen=True)
class FontSet:
    """reportlab font names for the three faces, regular being the family name ``<b>`` and
    ``<i>`` in paragraph markup are mapped from."""

    regular: str = REGULAR
    bold: str = BOLD
    italic: str = ITALIC

    def name(self, face: str) -> str:
        """The font name for ``face`` (``regular``, ``bold`` or ``italic``), its file parsed
        now if this is the first time it is named (see :func:`register_fonts`)."""
        name = getattr(self, face)
        if name in _UNPARSED:
            _parse_named(name)
        return name


DEFAULT_FONTS = FontSet()


@cache
def register_fonts() -> None:
    """Register the bundled regular and bold faces and the family mapping (idempotent). The
    italic face is parsed when first named (:meth:`FontSet.name`, :func:`register_italic`):
    card text never prints it unless a region asks, and a parsed face holds ~2.5 MiB in every
    drawing process."""
    _register(REGULAR, str(FONT_DIR / "DejaVuSans.ttf"))
    _register(BOLD, str(FONT_DIR / "DejaVuSans-Bold.ttf"))
    _parse_when_named(ITALIC, str(FONT_DIR / "DejaVuSans-Oblique.ttf"))
    _map_family(DEFAULT_FONTS)


def register_italic() -> None:
    """Register the bundled faces, the italic one included: for paragraph markup with ``<i>``
    in the bundled family, which reaches the italic face without naming it."""
    register_fonts()
    _parse_named(ITALIC)


_UNPARSED: dict[str, str] = {}
"""Fonts registered by name whose files are parsed when first named: name -> file."""
_UNPARSED_LOCK = threading.Lock()


def _parse_when_named(name: str, path: str) -> None:
    """Register font ``name`` (file ``path``) to be parsed when first named (:func:`_parse_named`)."""
    with _UNPARSED_LOCK:
        _UNPARSED.setdefault(name, path)


def _parse_named(name: str) -> None:
    """Parse and register ``name``'s file if it waits in :data:`_UNPARSED` (once, whichever
    thread of a preview server asks first)."""
    with _UNPARSED_LOCK:
        path = _UNPARSED.get(name)
        if path is not None:
            _load_font(name, path)
            del _UNPARSED[name]


def _register(name: str, path: str) -> None:
    font = TTFont(name, path)
    # reportlab's getAscentDescent, asked for every line wrapped and drawn, looks for these on
    # the font and, for a TrueType font, falls back to its face's through an exception.
    font.ascent, font.descent = font.face.ascent, font.face.descent
    pdfmetrics.registerFont(font)


def _map_family(fonts: FontSet) -> None:
    # Paragraph's <b> and <i> need a family mapping to find the other faces.
    for bold, italic, face in ((0, 0, fonts.regular), (1, 0, fonts.bold), (0, 1, fonts.italic),
                               (1, 1, fonts.bold)):
        addMapping(fonts.regular, bold, italic, face)


def file_digest(path: Path) -> str:
    """The first 16 hex digits of the SHA-256 of the file (a stable name for its content).

    Raises ``OSError`` if it cannot be read.
    """
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@cache
def _load_font(name: str, path: str) -> None:
    _register(name, path)


DEFAULT_FILES = {"regular": FONT_DIR / "DejaVuSans.ttf", "bold": FONT_DIR / "DejaVuSans-Bold.ttf",
                 "italic": FONT_DIR / "DejaVuSans-Oblique.ttf"}


def check_font_file(path: Path) -> str:
    """Check that ``path`` is a TrueType font reportlab can embed (``.ttf``, or ``.otf`` with
    TrueType outlines); returns a digest of its content.

    Raises :class:`FontError` saying why the file cannot be used (missing, unreadable, not a
    font, PostScript (CFF) outlines, too large).
    """
    try:
        if not path.is_file():
            raise FontError(f"font file not found: {path.name}")
        if path.stat().st_size > MAX_FONT_FILE_BYTES:
            raise FontError(f"font file {path.name} is larger than {MAX_FONT_FILE_BYTES // 2**20} MB")
        digest = file_digest(path)
    except OSError as exc:
        raise FontError(f"cannot read font file {path.name}: {exc.strerror or exc}") from None
    try:
        _load_font(f"PK-{digest}", str(path))
    except Exception as exc:  # noqa: BLE001 - reportlab raises TTFError, struct.error, IndexError... on bad files
        reason = str(exc) or type(exc).__name__
        if "postscript outlines" in reason.lower():
            reason = "its outlines are PostScript (CFF); reportlab embeds TrueType outlines only"
        raise FontError(f"{path.name} is not a usable TrueType/OpenType font: {reason}") from None
    return digest


def font_set(files: dict[str, Path]) -> FontSet:
    """The :class:`FontSet` for ``files`` (``{"regular"|"bold"|"italic": path}``), the bundled
    DejaVu faces standing in for those left out; :data:`DEFAULT_FONTS` when ``files`` is empty.

    Each set registers its faces under names of its own (``PK-<set digest>-<face>``): the
    family mapping behind ``<b>`` is keyed by the regular face's name, so two sets that share
    a regular face but differ in bold never clash. Raises :class:`FontError` for a file that
    cannot be used (see :func:`check_font_file`).
    """
    register_fonts()
    if not files:
        return DEFAULT_FONTS
    try:
        key = tuple((face, str(files[face]), files[face].stat().st_mtime_ns) for face in FACES if face in files)
    except OSError:
        key = None
    if key is not None and key in _SETS:
        return _SETS[key]
    digests = {face: check_font_file(files[face]) for face in FACES if face in files}
    set_id = hashlib.sha256(repr(sorted(digests.items())).encode()).hexdigest()[:12]
    names = {}
    for face in FACES:
        names[face] = f"PK-{set_id}-{face}"
        if face == "italic" and face not in files:  # the bundled one standing in: parsed if named
            _parse_when_named(names[face], str(DEFAULT_FILES[face]))
        else:  # bold is reached through the family mapping (<b>), without being named
            _load_font(names[face], str(files.get(face, DEFAULT_FILES[face])))
    fonts = FontSet(**names)
    _map_family(fonts)
    if key is not None:
        _SETS[key] = fonts
    return fonts


_SETS: dict[tuple, FontSet] = {}
"""Font sets by their files and modification times: a build asks once per card, reads once."""
