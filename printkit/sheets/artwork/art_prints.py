"""Raster art at print resolution: each image cropped to what its box shows and resampled to
its placed size at the build's ``print_dpi`` (300 by default), never upsampled, and cached on disk
by content so a rebuild does not resample again.

A 1200 x 1680 photograph covering a 57.5 x 35 mm box shows 680 x 413 of its pixels' worth at
300 dpi; embedding it whole costs seven times the bytes and, as reportlab keeps every image of
a file until it is saved, seven times the memory. What is written instead:

- the pixels the box shows (``cover`` crops the rest; the clip to the box stays, so the print
  is the same), resampled with Pillow's LANCZOS to ``print_dpi`` at their placed size, or left
  at their own size when that is less (:func:`print_plan`);
- a JPEG as a JPEG (DCTDecode: quality :data:`JPEG_QUALITY`, 4:4:4, or the file's own bytes
  when nothing needs cropping nor resampling), anything else as a PNG, its alpha kept (the PDF's
  soft mask);
- in ``<out>/.printkit-art-cache/`` (:data:`ART_CACHE_DIR`, beside the build's record), named by
  a digest of the source's bytes, the crop, the pixel size and the format
  (:func:`prepare_art`), at most :data:`ART_CACHE_MAX_BYTES`, the least recently used files
  removed first (:func:`prune_art_cache`, only files named as printkit names them).

The images are placed as XObjects named by that digest (:func:`draw_print_image`): the bytes
of a PDF do not depend on where the cache is, and an image used twice is stored once. A
resampled image is read from its cache file only while the PDF is written, so a file's images
do not pile up in memory as its pages are drawn (reportlab still holds the whole PDF's bytes
while it saves).

Resampling is in force only within :func:`art_prints_in` (``printkit build`` puts it in force
for every file it draws, in every worker); elsewhere art is drawn as the file holds it.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow and reportlab are imported where used: `printkit --help` reads the dpi bounds
    from printkit.sheets.artwork.art import Artwork

PRINT_DPI = 300
"""The default print resolution of raster art (``printkit build --print-dpi``)."""
PRINT_DPI_MIN = 72
PRINT_DPI_MAX = 1200
"""The bounds of ``--print-dpi``: below 72 dpi art prints blocky; no printer resolves more than
1200 dpi of a photograph."""
JPEG_QUALITY = 94
"""Quality of a resampled JPEG (with 4:4:4 chroma): no visible loss in print."""
ART_CACHE_DIR = ".printkit-art-cache"
ART_CACHE_MAX_BYTES = 1024 * 1024 * 1024
"""Resampled art kept at most (1 GiB: thousands of card pictures at 300 dpi)."""
KEEP_WHOLE = 0.9
"""Art that needs no resampling and of which the box shows at least this share of the pixels
is embedded as its file holds it (a JPEG's bytes as they are) rather than cropped and encoded
again."""
_CACHE_FORMAT = 1
"""Bumped whenever what a cached file holds changes for the same key."""
_JPEG_FORMATS = ("JPEG", "MPO")
MM_PER_INCH = 25.4


@dataclass(frozen=True)
class PrintPlan:
    """What to embed of one raster artwork (see :func:`print_plan`).

    Attributes:
        crop_px: ``(left, top, right, bottom)`` source pixels kept.
        size_px: ``(width, height)`` written.
        rect_mm: ``(dx, dy, w, h)`` where the kept pixels are drawn, from the region's top-left
            corner (may reach up to a source pixel past the region: the region clips it).
    """

    crop_px: tuple[int, int, int, int]
    size_px: tuple[int, int]
    rect_mm: tuple[float, float, float, float]

    def whole(self, art: Artwork) -> bool:
        """Whether this embeds ``art`` as its file holds it."""
        return self.crop_px == (0, 0, int(art.width), int(art.height)) and self.size_px == (int(art.width),
                                                                                             int(art.height))


def print_plan(art: Artwork, region_w_mm: float, region_h_mm: float, placed_mm: tuple[float, float, float, float],
               dpi: float) -> PrintPlan:
    """The pixels of raster ``art`` to embed when it is placed at ``placed_mm`` (``(dx, dy, w, h)``
    from the top-left corner of a ``region_w_mm`` x ``region_h_mm`` region, as
    :func:`printkit.sheets.artwork.art.placement` gives) at ``dpi``: the source pixels inside the region
    (whole pixels, so the crop is exact), at ``dpi`` over their placed size rounded up, never
    more than they are. Art needing no resampling whose box shows at least :data:`KEEP_WHOLE`
    of it is kept whole."""
    src_w, src_h = int(art.width), int(art.height)
    dx, dy, w, h = placed_mm
    sx, sy = src_w / w, src_h / h  # source pixels per mm
    left = max(0, math.floor((-dx) * sx + 1e-6))
    top = max(0, math.floor((-dy) * sy + 1e-6))
    right = min(src_w, math.ceil((region_w_mm - dx) * sx - 1e-6))
    bottom = min(src_h, math.ceil((region_h_mm - dy) * sy - 1e-6))
    crop = (left, top, max(right, left + 1), max(bottom, top + 1))
    cw, ch = crop[2] - crop[0], crop[3] - crop[1]
    size = (min(cw, math.ceil(cw / sx / MM_PER_INCH * dpi - 1e-6)),
            min(ch, math.ceil(ch / sy / MM_PER_INCH * dpi - 1e-6)))
    size = (max(1, size[0]), max(1, size[1]))
    if size == (cw, ch) and cw * ch >= KEEP_WHOLE * src_w * src_h:
        crop, size = (0, 0, src_w, src_h), (src_w, src_h)
        cw, ch = src_w, src_h
    return PrintPlan(crop, size, (dx + crop[0] / sx, dy + crop[1] / sy, cw / sx, ch / sy))


@dataclass(frozen=True)
class PrintImage:
    """An image ready to embed: ``jpeg`` bytes (DCTDecode as they are) or any other format
    Pillow reads, from ``path`` or ``data``; ``name`` is a digest of what it shows;
    ``resampled``: printkit encoded it (JPEG, or PNG of mode L, LA, RGB or RGBA)."""

    name: str
    jpeg: bool
    path: Path | None = None
    data: bytes | None = None
    resampled: bool = False

    def read(self) -> bytes:
        """The encoded bytes. Raises ``OSError`` if the file cannot be read."""
        return self.data if self.data is not None else self.path.read_bytes()


@dataclass(frozen=True)
class _Settings:
    dpi: float
    cache_dir: Path | None


_SETTINGS: _Settings | None = None


@contextmanager
def art_prints_in(dpi: float | None = PRINT_DPI, cache_dir: Path | None = None) -> Iterator[None]:
    """Within the block, raster art laid out (:func:`read_print_art`) and drawn by
    :class:`printkit.sheets.render.PageDrawer` is resampled to ``dpi`` (:func:`print_plan`) and
    cached in ``cache_dir`` (``None``: in this process's memory only); ``dpi=None``: art is
    drawn as its file holds it. Raises ``ValueError`` for a ``dpi`` outside
    ``PRINT_DPI_MIN..PRINT_DPI_MAX``."""
    global _SETTINGS
    if dpi is not None and not PRINT_DPI_MIN <= dpi <= PRINT_DPI_MAX:
        raise ValueError(f"art dpi must be between {PRINT_DPI_MIN} and {PRINT_DPI_MAX}, got {dpi:g}")
    before = _SETTINGS
    _SETTINGS = _Settings(dpi, cache_dir) if dpi is not None else None
    try:
        yield
    finally:
        _SETTINGS = before


def art_prints_dpi() -> float | None:
    """The dpi :func:`art_prints_in` put in force, ``None`` outside it (art drawn as it is)."""
    return _SETTINGS.dpi if _SETTINGS is not None else None


def read_print_art(art: Artwork, root: Path | None, region_w_mm: float, region_h_mm: float,
                   placed_mm: tuple[float, float, float, float]) -> Artwork:
    """:func:`printkit.sheets.artwork.art.read_artwork` for art laid out in a region (see
    :func:`print_plan`; ``root`` as there): when resampling is in force and the art needs it, its pixels are
    decoded once, to resample them (which checks them) for drawing, instead of once to check
    them and again to resample. Returns ``art``; raises
    :class:`~printkit.sheets.artwork.art.ArtError` for a corrupt file."""
    from printkit.sheets.artwork.art import ArtError, read_artwork, unreadable_reason

    dpi = art_prints_dpi()
    if dpi is not None and art.kind == "raster":
        plan = print_plan(art, region_w_mm, region_h_mm, placed_mm, dpi)
        if not plan.whole(art):
            try:
                prepare_art(art, plan)
            except Exception as exc:  # noqa: BLE001 - Pillow raises OSError, SyntaxError, ValueError... on corrupt files
                raise ArtError(f"{art.path.name} is not a readable image ({unreadable_reason(exc)})") from None
            return art
    return read_artwork(art.path, root)


_PREPARED: dict[str, PrintImage] = {}
_PREPARED_KEPT = 64
"""Prepared images remembered in this process (those not cached on disk hold their bytes)."""


def prepare_art(art: Artwork, plan: PrintPlan) -> PrintImage:
    """``art`` (raster) as :func:`print_plan` planned it: the file itself when the plan keeps it
    whole, else cropped, resampled (LANCZOS) and encoded (JPEG stays JPEG, anything else becomes
    PNG with its alpha), taken from or written to the cache folder in force.

    Raises ``OSError`` if the artwork cannot be read (it was checked when laid out)."""
    from PIL import Image as PILImage

    jpeg = art.format in _JPEG_FORMATS
    if plan.whole(art):
        return PrintImage(f"pkart{art.digest}", jpeg, path=art.path)
    key = hashlib.sha256(repr((_CACHE_FORMAT, PILImage.__version__, art.digest, plan.crop_px, plan.size_px,
                               jpeg, JPEG_QUALITY)).encode()).hexdigest()
    name = f"pkart{key[:24]}"
    cache_dir = _SETTINGS.cache_dir if _SETTINGS is not None else None
    cached = cache_dir / f"{key}.{'jpg' if jpeg else 'png'}" if cache_dir is not None else None
    known = _PREPARED.get(key)
    if known is not None and (known.path is None or known.path == cached) and (cached is None or cached.is_file()):
        return known
    if cached is not None and cached.is_file():
        try:
            os.utime(cached)  # recently used: pruned last
        except OSError:
            pass
        return _remember(key, PrintImage(name, jpeg, path=cached, resampled=True))
    data = _resample(art.path, plan, jpeg)
    if cached is not None:
        _write_cache_file(cached, data)
    on_disk = cached is not None and cached.is_file()
    return _remember(key, PrintImage(name, jpeg, path=cached if on_disk else None, data=None if on_disk else data,
                                     resampled=True))


def _remember(key: str, image: PrintImage) -> PrintImage:
    _PREPARED.pop(key, None)
    _PREPARED[key] = image
    for old in list(_PREPARED)[:-_PREPARED_KEPT]:
        del _PREPARED[old]
    return image


def _resample(path: Path, plan: PrintPlan, jpeg: bool) -> bytes:
    from PIL import Image as PILImage

    with PILImage.open(path) as im:
        icc = im.info.get("icc_profile")
        if jpeg:
            mode = im.mode if im.mode in ("L", "RGB", "CMYK") else "RGB"
        elif im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
            mode = "LA" if im.mode in ("L", "LA") else "RGBA"
        else:
            mode = "L" if im.mode in ("1", "L") else "RGB"
        (left, top, right, bottom), (w, h) = plan.crop_px, plan.size_px
        if (w, h) == (right - left, bottom - top):
            out = (im.convert(mode) if im.mode != mode else im).crop(plan.crop_px)
        else:
            src_w, src_h = im.size
            if jpeg:
                # A JPEG decodes at 1/2, 1/4 or 1/8 of its size in a fraction of the time; at
                # least twice the pixels LANCZOS then makes (as Pillow's thumbnail does).
                im.draft(im.mode, (math.ceil(2 * w * src_w / (right - left)), math.ceil(2 * h * src_h / (bottom - top))))
            fx, fy = im.size[0] / src_w, im.size[1] / src_h
            im = im.convert(mode) if im.mode != mode else im
            out = im.resize((w, h), PILImage.Resampling.LANCZOS, box=(left * fx, top * fy, right * fx, bottom * fy))
    buf = io.BytesIO()
    extra = {"icc_profile": icc} if icc else {}
    if jpeg:
        # An optimized JPEG is encoded into one buffer: Pillow sizes it at a byte a pixel below
        # quality 95, too small for detailed art at 4:4:4 ("Suspension not allowed here"), and
        # takes no size from the caller but its floor, ImageFile.MAXBLOCK: raised for this save.
        from PIL import ImageFile

        floor = ImageFile.MAXBLOCK
        ImageFile.MAXBLOCK = max(floor, out.size[0] * out.size[1] * len(out.getbands()) + 65536)
        try:
            out.save(buf, "JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=True, **extra)
        finally:
            ImageFile.MAXBLOCK = floor
    else:
        # Fast deflate: reportlab decodes it and compresses the pixels again for the PDF.
        out.save(buf, "PNG", compress_level=1, **extra)
    return buf.getvalue()


def _write_cache_file(path: Path, data: bytes) -> None:
    """``data`` to ``path`` whole or not at all (a worker writing the same key is harmless)."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # the cache only saves time: the image is embedded from memory


def _is_cache_entry(path: Path) -> bool:
    stem, _, suffix = path.name.partition(".")
    return suffix in ("jpg", "png") and len(stem) == 64 and all(c in "0123456789abcdef" for c in stem)


def prune_art_cache(cache_dir: Path, max_bytes: int | None = None) -> None:
    """Remove the least recently used files :func:`prepare_art` wrote in ``cache_dir`` until the
    rest take at most ``max_bytes`` (default :data:`ART_CACHE_MAX_BYTES`); no other file is
    touched. Errors are ignored: the cache only saves time."""
    max_bytes = ART_CACHE_MAX_BYTES if max_bytes is None else max_bytes
    try:
        entries = []
        for p in cache_dir.iterdir():
            if _is_cache_entry(p):
                st = p.stat()
                entries.append((st.st_mtime_ns, p.name, st.st_size, p))
    except OSError:
        return
    total = sum(e[2] for e in entries)
    for _, _, size, path in sorted(entries):
        if total <= max_bytes:
            break
        try:
            path.unlink()
            total -= size
        except OSError:
            pass


def draw_print_image(canvas, image: PrintImage, x_pt: float, y_pt: float, w_pt: float, h_pt: float) -> None:
    """Draw ``image`` into the box whose lower-left corner is (``x_pt``, ``y_pt``), as an image
    XObject named ``image.name`` defined on first use (as reportlab's ``drawImage`` does, but
    named by content, not by file name, and a JPEG's bytes never decoded). Alpha becomes the
    image's soft mask. Raises ``OSError`` if the image cannot be read."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase.pdfdoc import PDFImageXObject, PDFObjectReference

    doc = canvas._doc
    reg_name = doc.getXObjectName(image.name)
    if doc.idToObject.get(reg_name) is None and image.resampled:
        # Read only when the PDF is written, so a file's images do not pile up in memory while
        # its pages are drawn (the cached file, or the bytes kept, hold them meanwhile).
        obj = _LazyImage(image.name, image, alpha=False)
        canvas._setXObjects(obj)
        doc.Reference(obj, reg_name)
        doc.addForm(image.name, obj)
        if not image.jpeg and _has_alpha(image):
            mask = _LazyImage(image.name + "a", image, alpha=True)
            mask_name = doc.getXObjectName(mask.name)
            canvas._setXObjects(mask)
            obj.smask = doc.Reference(mask, mask_name)
    elif doc.idToObject.get(reg_name) is None:
        obj = PDFImageXObject(image.name, None, mask="auto")
        data = io.BytesIO(image.read())
        if not (image.jpeg and obj.loadImageFromJPEG(data)):
            obj.loadImageFromSRC(ImageReader(data))
        obj.name = image.name
        canvas._setXObjects(obj)
        doc.Reference(obj, reg_name)
        doc.addForm(image.name, obj)
        smask = getattr(obj, "_smask", None)
        if smask is not None:
            mask_name = doc.getXObjectName(smask.name)
            if doc.idToObject.get(mask_name) is None:
                canvas._setXObjects(smask)
                obj.smask = doc.Reference(smask, mask_name)
            else:
                obj.smask = PDFObjectReference(mask_name)
            del obj._smask
    canvas._currentPageHasImages = 1
    canvas.saveState()
    canvas.translate(x_pt, y_pt)
    canvas.scale(w_pt, h_pt)
    canvas._code.append(f"/{reg_name} Do")
    canvas.restoreState()
    canvas._formsinuse.append(image.name)


def _has_alpha(image: PrintImage) -> bool:
    from PIL import Image as PILImage

    with PILImage.open(io.BytesIO(image.read()) if image.data is not None else image.path) as im:
        return im.mode in ("LA", "RGBA")


def _lazy_image_class():
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase.pdfdoc import PDFImageXObject

    class LazyImage(PDFImageXObject):
        """An image XObject of a resampled :class:`PrintImage` (``alpha``: its soft mask) whose
        stream is read and encoded only while the PDF is written, and dropped after."""

        def __init__(self, name: str, image: PrintImage, alpha: bool):
            super().__init__(name, None, mask=None)
            self.name, self._image, self._alpha = name, image, alpha

        def format(self, document):
            data = io.BytesIO(self._image.read())
            if self._alpha:
                from PIL import Image as PILImage

                with PILImage.open(data) as im:
                    self.loadImageFromSRC(ImageReader(im.getchannel("A")))
                self._decode = [0, 1]
            elif not (self._image.jpeg and self.loadImageFromJPEG(data)):
                self.loadImageFromSRC(ImageReader(data))
            try:
                return super().format(document)
            finally:
                self.streamContent = b""

    return LazyImage


def _LazyImage(name: str, image: PrintImage, alpha: bool):
    global _LAZY_IMAGE
    if _LAZY_IMAGE is None:
        _LAZY_IMAGE = _lazy_image_class()
    return _LAZY_IMAGE(name, image, alpha)


_LAZY_IMAGE = None
