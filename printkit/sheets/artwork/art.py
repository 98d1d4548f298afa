"""Artwork: where an image region's file may come from, whether it can be printed, how it
fills its box (``fit``, ``focus``) and at what effective resolution; SVG files drawn as vectors.

Raster files (PNG, JPEG, ...) are read once with Pillow to catch corrupt files before
anything is drawn, and placed by file name so reportlab stores a shared image once per PDF.
Their pixel count is read from the file's header first, and art with far more pixels than
any print can use is refused before it is decoded: more than the limits in force allow
(:func:`card_data.project.limits.current_limits`: ``art_megapixels`` at all, 64 unless a project's
``printkit.toml`` raises it; more than its placed size needs at ``art_dpi``, 1200 unless raised,
see :func:`check_art_pixels`; art up to :data:`ART_PIXELS_ALWAYS_ALLOWED` is never refused for
that). Decoding a 90-megapixel PNG takes about a gigabyte of memory, and none of those pixels
would print.
SVG files are converted by svglib into reportlab drawings and placed as Form XObjects, so
they stay vectors and a shared one is stored once too.
"""

from __future__ import annotations

import io
import logging
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from card_data.project.limits import Limits, current_limits

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfgen.canvas import Canvas

# Pillow, reportlab's graphics and the fonts are imported where an image is read or drawn: a
# rebuild that carries every file over, and the commands that only name this module's errors,
# need none of them.

Fit = Literal["contain", "cover", "stretch"]

WARN_DPI = 300
"""Below this effective resolution art prints visibly soft: a warning naming the card."""
MIN_DPI = 150
"""Below this it prints blocky: a problem, the build refuses it."""
MAX_ART_BYTES = 128 * 1024 * 1024
"""Larger files are refused rather than read into memory. Fixed: a JPEG of the most pixels
printkit takes (89 megapixels) is some 30 MB; a photograph that large saved as PNG can be more,
and prints no better than as a JPEG."""
ART_PIXELS_ALWAYS_ALLOWED = 4_000_000
"""Art of up to this many pixels (2000 x 2000) is never refused for the ``art_dpi`` rule
(:func:`art_pixel_limit`): a logo in a small box costs little to decode (16 MB). Fixed: it only
ever lets art through."""

MM_PER_INCH = 25.4


class ArtError(ValueError):
    """Artwork that cannot be used; ``str()`` says which file and why."""


@dataclass(frozen=True)
class Artwork:
    """A readable artwork file.

    Attributes:
        path: the file.
        kind: ``raster`` (Pillow reads it) or ``svg`` (svglib draws it).
        width, height: pixels for raster art, points (the SVG's own size) for SVG.
        digest: a digest of the file's content (names its Form XObject).
        format: Pillow's name of a raster file's format (``"JPEG"``, ``"PNG"``...), ``""`` for SVG.
    """

    path: Path
    kind: Literal["raster", "svg"]
    width: float
    height: float
    digest: str
    format: str = ""

    def dpi(self, placed_w_mm: float, placed_h_mm: float) -> float | None:
        """Effective resolution (pixels per inch, the lower of the two axes) when drawn
        ``placed_w_mm`` x ``placed_h_mm``; ``None`` for vector art."""
        if self.kind == "svg":
            return None
        return min(self.width / (placed_w_mm / MM_PER_INCH), self.height / (placed_h_mm / MM_PER_INCH))


def resolve_inside(root: Path, src: str, what: str = "artwork") -> Path:
    """``root / src``, refusing a ``src`` that is absolute or leads outside ``root`` (``..``
    or a symbolic link pointing elsewhere): data shared by others must not embed a file it
    does not hold.

    Raises :class:`ArtError` saying so.
    """
    rel = Path(src)
    if rel.is_absolute() or src.startswith(("/", "\\")) or (len(src) > 1 and src[1] == ":"):
        raise ArtError(f"{what} path {src} is absolute; give it relative to the game's folder")
    path = root / rel
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        raise ArtError(f"{what} path {src} leads outside the game's folder {root}") from None
    return path


_ARTWORK: dict[tuple[str, int, int], Artwork] = {}
_DECODED: set[tuple[str, int, int]] = set()


def _key(path: Path) -> tuple[str, int, int]:
    try:
        stat = path.stat()
    except OSError as exc:
        raise ArtError(f"cannot read {path.name}: {exc.strerror or exc}") from None
    return str(path), stat.st_mtime_ns, stat.st_size


def artwork_header(path: Path, root: Path | None = None, limits: Limits | None = None) -> Artwork:
    """``path``'s :class:`Artwork` from its header (read once per file and modification),
    without decoding its pixels: what :func:`check_art_pixels` needs before :func:`read_artwork`.

    ``root`` bounds what an SVG's own references may load. ``limits``: default
    :func:`~card_data.project.limits.current_limits`. Raises :class:`ArtError` for an unreadable or
    oversized file, a raster file of more than ``limits.art_megapixels`` (saying how to raise
    it), or an SVG that cannot be drawn.
    """
    limits = limits if limits is not None else current_limits()
    key = _key(path)
    art = _ARTWORK.get(key)
    if art is None:
        if key[2] > MAX_ART_BYTES:
            raise ArtError(f"{path.name} is larger than {MAX_ART_BYTES // 2**20} MB, the most printkit reads: "
                           f"save it as JPEG, or scale it down")
        from printkit.sheets.text.fonts import file_digest

        try:
            digest = file_digest(path)
        except OSError as exc:
            raise ArtError(f"cannot read {path.name}: {exc.strerror or exc}") from None
        if path.suffix.lower() in (".svg", ".svgz"):
            drawing = load_svg(path, root)
            art = Artwork(path, "svg", float(drawing.width), float(drawing.height), digest)
        else:
            width, height, image_format = _raster_size(path, limits)
            art = Artwork(path, "raster", width, height, digest, image_format)
        _ARTWORK[key] = art
    # Checked on every use, not once with the header: the limits may differ from one build to
    # the next in one process (``printkit preview`` after an edit of printkit.toml).
    pixels = int(art.width) * int(art.height)
    if art.kind == "raster" and pixels > limits.art_pixels:
        raise ArtError(f"{path.name} is {int(art.width)} x {int(art.height)} px ({pixels / 1e6:.1f} megapixels), "
                       f"more than the {limits.art_megapixels:g} megapixels printkit reads: scale it down, or "
                       f"{limits.raise_hint('art_megapixels')}")
    return art


def read_artwork(path: Path, root: Path | None = None, limits: Limits | None = None) -> Artwork:
    """``path``'s :class:`Artwork` (see :func:`artwork_header`), its pixels decoded once per
    file and modification, so a truncated or corrupt file is caught here and not when
    reportlab draws it.

    Raises :class:`ArtError` for an unreadable, corrupt, empty or oversized file.
    """
    art = artwork_header(path, root, limits)
    key = _key(path)
    if art.kind == "raster" and key not in _DECODED:
        _decode(path)
        _DECODED.add(key)
    return art


def art_pixel_limit(placed_w_mm: float, placed_h_mm: float, limits: Limits | None = None) -> int:
    """The most pixels raster art drawn ``placed_w_mm`` x ``placed_h_mm`` may have: what that
    size needs at ``limits.art_dpi``, at least :data:`ART_PIXELS_ALWAYS_ALLOWED`, at most
    ``limits.art_megapixels`` (``limits``: default :func:`~card_data.project.limits.current_limits`)."""
    limits = limits if limits is not None else current_limits()
    dpi = limits.art_dpi
    needed = (placed_w_mm / MM_PER_INCH * dpi) * (placed_h_mm / MM_PER_INCH * dpi)
    return int(min(limits.art_pixels, max(ART_PIXELS_ALWAYS_ALLOWED, needed)))


def check_art_pixels(art: Artwork, placed_w_mm: float, placed_h_mm: float, src: str | None = None,
                     limits: Limits | None = None) -> None:
    """Refuse raster ``art`` with more pixels than :func:`art_pixel_limit` allows for its placed
    size (from its header: call before :func:`read_artwork` decodes it). ``src``: its name
    in the message (default: the file's name); ``limits``: default
    :func:`~card_data.project.limits.current_limits`. Raises :class:`ArtError` naming both sizes, the
    limit and how to raise it."""
    limits = limits if limits is not None else current_limits()
    limit = art_pixel_limit(placed_w_mm, placed_h_mm, limits)
    if art.kind != "raster" or art.width * art.height <= limit:
        return
    key = "art_megapixels" if limit == limits.art_pixels else "art_dpi"
    raise ArtError(f"{src or art.path.name} is {int(art.width)} x {int(art.height)} px "
                   f"({art.width * art.height / 1e6:.1f} megapixels), far more than {placed_w_mm:.1f} x "
                   f"{placed_h_mm:.1f} mm can print: printkit takes at most {limit / 1e6:.1f} megapixels there "
                   f"({limits.art_dpi:g} dpi, never under {ART_PIXELS_ALWAYS_ALLOWED / 1e6:g} megapixels); "
                   f"scale it down, or {limits.raise_hint(key)}")


def _raster_size(path: Path, limits: Limits) -> tuple[int, int, str]:
    """Width, height and format from the file's header (Pillow reads no pixels to open a file)."""
    from PIL import Image as PILImage

    try:
        with warnings.catch_warnings():
            # Pillow's own "decompression bomb" warning comes above art_megapixels at its
            # highest, which is checked with a message naming it; its error (twice that) is
            # caught here.
            warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
            with PILImage.open(path) as im:
                size, image_format = im.size, im.format or ""
    except PILImage.DecompressionBombError:
        raise ArtError(f"{path.name} has more than {2 * PILImage.MAX_IMAGE_PIXELS / 1e6:.0f} megapixels, far "
                       f"more than the {limits.art_megapixels:g} printkit reads: scale it down") from None
    except Exception as exc:  # noqa: BLE001 - Pillow raises OSError, SyntaxError, ValueError... on corrupt files
        raise ArtError(f"{path.name} is not a readable image ({unreadable_reason(exc)})") from None
    if not all(size):
        raise ArtError(f"{path.name} is an empty image")
    return *size, image_format


def _decode(path: Path) -> None:
    from PIL import Image as PILImage

    try:
        with PILImage.open(path) as im:
            im.load()
    except Exception as exc:  # noqa: BLE001 - Pillow raises OSError, SyntaxError, ValueError... on corrupt files
        raise ArtError(f"{path.name} is not a readable image ({unreadable_reason(exc)})") from None


def unreadable_reason(exc: Exception) -> str:
    """Why Pillow could not read an image, in a few words (from its exception ``exc``)."""
    text = str(exc).strip() or type(exc).__name__
    return text.replace("cannot identify image file", "not an image format Pillow knows").split(" '")[0]


_SVG: dict[tuple[str, int, str | None], Drawing] = {}


def load_svg(path: Path, root: Path | None = None, colour: str | None = None) -> Drawing:
    """``path`` as a reportlab :class:`Drawing` (cached per file, modification and colour).

    ``colour`` (``#rrggbb``) replaces ``currentColor`` in the file: icons drawn in one colour
    take the colour of the text they sit in. References to other files are allowed only
    inside ``root`` (none when it is ``None``); entities are not expanded.
    Raises :class:`ArtError` if the file cannot be read or is not a drawable SVG.
    """
    try:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, colour)
        if key in _SVG:
            return _SVG[key]
        data = path.read_bytes()
    except OSError as exc:
        raise ArtError(f"cannot read {path.name}: {exc.strerror or exc}") from None
    from svglib.svglib import svg2rlg

    source: str | io.BytesIO = str(path)
    if colour is not None and b"currentColor" in data:
        source = io.BytesIO(data.replace(b"currentColor", colour.encode()))
    logger = logging.getLogger("svglib.svglib")
    level = logger.level
    logger.setLevel(logging.CRITICAL)  # its errors are reported as our problem instead
    try:
        drawing = svg2rlg(source, external_reference_root=str(root) if root is not None else str(path.parent))
    except Exception as exc:  # noqa: BLE001 - lxml and svglib raise many kinds on malformed input
        raise ArtError(f"{path.name} is not a readable SVG ({unreadable_reason(exc)})") from None
    finally:
        logger.setLevel(level)
    if drawing is None or not drawing.width or not drawing.height or float(drawing.width) <= 0:
        raise ArtError(f"{path.name} is not a readable SVG (no drawing, or no width and height)")
    _SVG[key] = drawing
    return drawing


def placement(box_w_mm: float, box_h_mm: float, art_w: float, art_h: float, fit: Fit,
              focus: tuple[float, float] = (0.5, 0.5)) -> tuple[float, float, float, float]:
    """Where art of aspect ``art_w : art_h`` goes in a ``box_w_mm`` x ``box_h_mm`` box:
    ``(dx_mm, dy_mm, w_mm, h_mm)`` from the box's top-left corner.

    ``contain`` scales the whole art into the box, ``cover`` fills the box and is cropped
    (clip to the box when drawing), ``stretch`` fills it exactly, changing the aspect.
    ``focus`` = (x, y) fractions of the art that sit at the same fractions of the box (as CSS
    ``object-position``): (0.5, 0.5) centres, (0.5, 0.3) keeps the upper part of a tall
    picture when ``cover`` crops it.
    """
    if fit == "stretch":
        return 0.0, 0.0, box_w_mm, box_h_mm
    scale = (max if fit == "cover" else min)(box_w_mm / art_w, box_h_mm / art_h)
    w, h = art_w * scale, art_h * scale
    return (box_w_mm - w) * focus[0], (box_h_mm - h) * focus[1], w, h


def draw_svg(canvas: Canvas, drawing: Drawing, form_name: str, x_pt: float, y_pt: float, w_pt: float,
             h_pt: float) -> None:
    """Draw ``drawing`` scaled into the box whose lower-left corner is (``x_pt``, ``y_pt``).

    The drawing becomes a Form XObject named ``form_name`` the first time a PDF uses it, so
    repeats cost one ``Do`` operator each.
    """
    if not canvas.hasForm(form_name):
        from reportlab.graphics import renderPDF

        from printkit.sheets.text.fonts import REGULAR

        canvas.beginForm(form_name, 0, 0, float(drawing.width), float(drawing.height))
        # reportlab's graphics start every drawing in Helvetica, which is never embedded and which
        # a print shop's preflight flags as a missing font even when no text uses it.
        drawing.initialFontName = REGULAR
        renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)
        canvas.endForm()
    canvas.saveState()
    canvas.translate(x_pt, y_pt)
    canvas.scale(w_pt / float(drawing.width), h_pt / float(drawing.height))
    canvas.doForm(form_name)
    canvas.restoreState()
