"""Reading a build's card QR codes back the way scanners do: where each code is (from the PDF's
geometry), how big its modules are, and what zxing-cpp and zbar decode from a rendered page or
from a simulated phone photo of the code.

Used by tests/test_qr_scanners.py; the figures it gives are in shared notes (qr-codes.md).
"""

from __future__ import annotations

import io
import os
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pdfplumber
import pytest
import pypdfium2
import zxingcpp
from PIL import Image, ImageChops, ImageFilter
from pdf_measure import Box, mm

PHONE_TILT_DEG = 15.0
"""How far the simulated phone leans away from the card (rotation about the code's horizontal axis)."""
PHONE_BLUR_PX = 1.0
"""Gaussian blur radius of the simulated photo (a slightly unsteady hand or focus)."""
PHONE_JPEG_QUALITY = 60
"""JPEG quality of the simulated photo (what a messenger app re-sends)."""
PHONE_LIGHT = (0.55, 1.0)
"""Brightness at the darkest and the brightest corner of the simulated photo (a lamp to one side)."""
PHONE_DISTANCE_PAGES = 1.1
"""The simulated camera's distance from the page, in page heights: a phone's main camera (about
50 x 65 degrees of view) framing a whole Letter page is about 30 cm away."""
CARD_MARGIN_MM = 20.0
"""What is cropped around a QR region before decoding it: a 55 mm square, about a card, so the
scanner has to find the code among the card's print, and never part of another card's code
(cards sit at least 63.5 mm apart). zbar misses codes of a whole sheet that it reads card by card
(several codes in one picture confuse it), and a player scans one card."""


@dataclass(frozen=True)
class QrOnPage:
    """One QR code of a PDF: ``page`` (0-based), ``region`` (the white square drawn under it,
    quiet zone included; mm from the page's top-left corner) and ``module_mm`` (one module's
    side, measured from the drawn dark rectangles, each one module tall)."""

    pdf: Path
    page: int
    region: Box
    module_mm: float

    @property
    def modules(self) -> int:
        """Modules along a side, quiet zone included (``17 + 4 * version + 8``)."""
        return round((self.region.x1 - self.region.x0) / self.module_mm)

    @property
    def version(self) -> int:
        return (self.modules - 8 - 17) // 4


def _is_white(colour) -> bool:
    values = colour if isinstance(colour, (list, tuple)) else (colour,)
    return values is not None and len(values) in (1, 3, 4) and (
        all(v == 1 for v in values) if len(values) != 4 else all(v == 0 for v in values))


def qr_codes_in(pdf: Path) -> list[QrOnPage]:
    """Every QR code drawn in ``pdf``: a white square holding black rectangles a whole number
    of modules wide and exactly one module tall (how printkit draws a code)."""
    found = []
    with pdfplumber.open(pdf) as doc:
        for index, page in enumerate(doc.pages):
            rects = page.rects
            squares = [r for r in rects if _is_white(r.get("non_stroking_color"))
                       and abs(r["width"] - r["height"]) < 0.01 and r["width"] > 20]
            for square in squares:
                inside = [r for r in rects if r is not square and not _is_white(r.get("non_stroking_color"))
                          and r["x0"] >= square["x0"] - 0.01 and r["x1"] <= square["x1"] + 0.01
                          and r["top"] >= square["top"] - 0.01 and r["bottom"] <= square["bottom"] + 0.01]
                if len(inside) < 20:
                    continue
                module_pt = min(r["height"] for r in inside)
                found.append(QrOnPage(pdf, index, Box(mm(square["x0"]), mm(square["top"]), mm(square["x1"]),
                                                      mm(square["bottom"])), mm(module_pt)))
    return found


def rendered_pages(pdf: Path, dpi: int) -> Iterator[tuple[int, Image.Image]]:
    """``(page index, greyscale image)`` of every page of ``pdf`` rendered by pdfium at ``dpi``."""
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        for index, page in enumerate(doc):
            yield index, page.render(scale=dpi / 72).to_pil().convert("L")
    finally:
        doc.close()


def crop_mm(image: Image.Image, box: Box, dpi: int, margin_mm: float = CARD_MARGIN_MM) -> Image.Image:
    """The part of a page image (rendered at ``dpi``) around ``box`` with ``margin_mm`` on each side."""
    px = dpi / 25.4
    return image.crop((max(0, math.floor((box.x0 - margin_mm) * px)), max(0, math.floor((box.top - margin_mm) * px)),
                       min(image.width, math.ceil((box.x1 + margin_mm) * px)),
                       min(image.height, math.ceil((box.bottom + margin_mm) * px))))


def _perspective_coefficients(source: list[tuple[float, float]], target: list[tuple[float, float]]) -> list[float]:
    """Pillow's PERSPECTIVE coefficients mapping each ``target`` (output) corner to its ``source`` point."""
    rows = []
    for (x, y), (u, v) in zip(target, source):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, v])
    # Gauss-Jordan elimination with partial pivoting: 8 unknowns, no numpy needed.
    for col in range(8):
        pivot = max(range(col, 8), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(8):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][8] / rows[i][i] for i in range(8)]


@dataclass(frozen=True)
class PhonePhoto:
    """A simulated photo of a page (:func:`phone_photo`): ``image`` and ``project``, which maps
    a point of the page image (pixels) to where it shows in the photo."""

    image: Image.Image
    project: Callable[[float, float], tuple[float, float]]
    dpi: int

    def crop(self, box: Box, margin_mm: float = CARD_MARGIN_MM) -> Image.Image:
        """The part of the photo showing ``box`` (mm on the page) with ``margin_mm`` around it:
        what a scanner app looking at that one code has to read."""
        px = self.dpi / 25.4
        corners = [self.project(x * px, y * px) for x in (box.x0 - margin_mm, box.x1 + margin_mm)
                   for y in (box.top - margin_mm, box.bottom + margin_mm)]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        w, h = self.image.size
        return self.image.crop((max(0, math.floor(min(xs))), max(0, math.floor(min(ys))),
                                min(w, math.ceil(max(xs))), min(h, math.ceil(max(ys)))))


def phone_photo(page: Image.Image, dpi: int, tilt_deg: float = PHONE_TILT_DEG) -> PhonePhoto:
    """``page`` (a greyscale page rendered at ``dpi``) as a phone held over it would photograph
    it, deterministically: the page leaning ``tilt_deg`` away from the camera about its
    horizontal middle (pinhole camera at twice the page's height, so the far half comes out
    narrower and every card shorter: the codes there have fewer pixels a module), resampled
    nearest-neighbour (Pillow's default for ``transform``, jagged as a sensor's pixels), a
    :data:`PHONE_BLUR_PX` Gaussian blur, light falling off from one corner to the opposite one
    (:data:`PHONE_LIGHT`) and JPEG at :data:`PHONE_JPEG_QUALITY`, decoded again."""
    w, h = page.size
    distance = PHONE_DISTANCE_PAGES * max(w, h)
    tilt = math.radians(tilt_deg)

    def project(x: float, y: float) -> tuple[float, float]:
        dx, dy = x - w / 2, y - h / 2
        y3, z3 = dy * math.cos(tilt), dy * math.sin(tilt)
        scale = distance / (distance + z3)
        return w / 2 + dx * scale, h / 2 + y3 * scale

    corners = [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))]
    photo = page.transform((w, h), Image.Transform.PERSPECTIVE,
                           _perspective_coefficients(corners, [project(x, y) for x, y in corners]),
                           resample=Image.Resampling.NEAREST, fillcolor=200)
    photo = photo.filter(ImageFilter.GaussianBlur(PHONE_BLUR_PX))
    low, high = PHONE_LIGHT
    # Brightness rising from the top-left corner to the bottom-right one: the mean of a
    # top-to-bottom and a left-to-right ramp.
    down = Image.linear_gradient("L").resize((w, h))
    across = Image.linear_gradient("L").rotate(90).transpose(Image.Transpose.FLIP_LEFT_RIGHT).resize((w, h))
    light = Image.blend(down, across, 0.5).point(lambda v: round(255 * (low + (high - low) * v / 255)))
    photo = ImageChops.multiply(photo, light)
    buffer = io.BytesIO()
    photo.save(buffer, format="JPEG", quality=PHONE_JPEG_QUALITY)
    buffer.seek(0)
    return PhonePhoto(Image.open(buffer).convert("L"), project, dpi)


def read_matrix(matrix) -> zxingcpp.Barcode:
    """zxing-cpp's reading (text, error correction level...) of a module matrix drawn 4 px a
    module with its quiet zone."""
    size = len(matrix) + 8
    image = Image.new("L", (size, size), 255)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                image.putpixel((x + 4, y + 4), 0)
    (result,) = zxingcpp.read_barcodes(image.resize((size * 4, size * 4), Image.Resampling.NEAREST),
                                       formats=zxingcpp.BarcodeFormat.QRCode)
    return result


def zxing_texts(image: Image.Image) -> list[str]:
    """What zxing-cpp decodes from ``image`` (QR codes only)."""
    return [r.text for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]


def zbar_missing() -> str | None:
    """Why zbar cannot be used here (pyzbar is installed with the tests, Debian's libzbar0 is
    not), or ``None`` when it can."""
    try:
        from pyzbar import pyzbar  # noqa: F401
    except ImportError as exc:
        return str(exc)
    return None


def require_zbar() -> None:
    """Skip the calling test with a note where zbar is missing; on CI (``.ci/run`` installs
    libzbar0) that is a failure."""
    missing = zbar_missing()
    if missing and os.environ.get("CI"):
        pytest.fail(f"CI must provide zbar (.ci/run installs Debian's libzbar0): {missing}")
    if missing:
        pytest.skip("no zbar here; `apt-get install libzbar0` to read the codes with zbar too")


def zbar_texts(image: Image.Image) -> list[str]:
    """What zbar (libzbar0 through pyzbar) decodes from ``image`` (QR codes only)."""
    from pyzbar import pyzbar

    return [r.data.decode("utf-8") for r in pyzbar.decode(image, symbols=[pyzbar.ZBarSymbol.QRCODE])]


def opened_page(client, payload: str) -> str:
    """The companion page a scanned ``payload`` (a card's short address) leads to, through the
    Flask test ``client``: the short address must answer 302, and its target 200. Returns the
    target's path (``/r/<game>/<card>/<version>``)."""
    response = client.get(urlsplit(payload).path)
    assert response.status_code == 302, (payload, response.status_code)
    target = urlsplit(response.headers["Location"]).path
    assert client.get(target).status_code == 200, (payload, target)
    return target
