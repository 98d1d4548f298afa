"""QR codes as vector paths: zxing-cpp computes the matrix, reportlab draws it.

The encoder is zxing-cpp's (the ``zxing-cpp`` package: the C++ ZXing port, whose writer is
the long-standing zint library, and the scanner the tests read the codes back with) rather
than the pure-Python ``qrcode`` package: both do
the standard ISO/IEC 18004 encoding with its mask penalty search, and for the same mask they
give the same modules bit for bit (checked on every bundled card's payload), but zxing-cpp
takes about 0.3 ms a code where ``qrcode`` takes 4-5 ms, most of a card sheet build's time.
The two score the eight masks slightly differently (the standard's penalty rules leave room),
so they pick a different mask for some payloads; either is a valid, standard choice.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from urllib.parse import urlsplit

import zxingcpp

from card_data.editions.short_codes import SHORT_PATH

QUIET_ZONE_MODULES = 4
"""White modules around the symbol, as the standard (ISO/IEC 18004) asks: phone scanners find a
code on a busy card reliably only with the full quiet zone. A region's ``size_mm`` includes it."""

MIN_MODULE_MM = 0.45
"""The smallest module every common scanner reads from a phone's photo of a card, the module of
a version-2 code in the cards' 15 mm regions. On simulated phone photos of the card sheets (15
degrees of tilt, blur, JPEG, uneven light; tests/qr_scan.py) zbar (Debian's libzbar0, inside
many scanner apps) starts missing codes below about 5 pixels a module, zxing-cpp below about
3.5: in photos at 250 dpi zbar missed 31 of 172 version-4 codes (0.366 mm) and 5 of 172
version-2 ones (0.455 mm), at 200 dpi 142 and 54. Smaller modules earn the build a warning
(:func:`long_payload_warning`)."""

MAX_COMFORTABLE_VERSION = 2
"""The largest QR version whose modules reach :data:`MIN_MODULE_MM` in the cards' 15 mm
regions: 25 modules plus the quiet zone make 33, 0.455 mm each (version 3: 0.405 mm, version
4: 0.366 mm). A card's short address (:mod:`card_data.editions.short_codes`) fits it for a base URL of up
to 27 characters without a path at error correction M (36 with the fallback to L)."""


QR_CACHE_CODES = 64
"""Symbols kept in memory, by payload, about 2 KB each: a card's symbol is needed twice in a
row, its long-URL check as it is laid out and its drawing once its sheet is full (a sheet of
cards later at most: nine poker cards on Letter or A4), so more would only grow every drawing
process of a build of hundreds of cards (1 MiB at 512; a full build of the bundled games
encodes one symbol more at 64 than at 512; a sheet of more than 64 small cards encodes each
again, which costs time, never a different code)."""

ERROR_CORRECTION = "M"
"""15 % of the symbol may be lost: enough for scuffed cards without making codes much bigger."""

FALLBACK_ERROR_CORRECTION = "L"
"""For a payload that M would take past :data:`MAX_COMFORTABLE_VERSION` but L keeps within it:
bigger modules help a phone more than the 8 % of recovery given up (7 % lost may still be
restored), so a somewhat long base URL still gives version-2 codes (47 alphanumeric characters
instead of 38)."""

_DARK = 0
"""zxing-cpp's image value of a dark module (light ones are 255)."""


@lru_cache(maxsize=QR_CACHE_CODES)
def _symbol_rows(payload: str) -> tuple[bytes, ...]:
    """``payload``'s symbol, one ``bytes`` per row, one byte per module (0 = dark), without
    quiet zone; cached because a card drawn twice in a build (catalog, deck, single cards) and
    its long-URL check need it again. Raises ``ValueError`` for a payload no QR code can hold."""
    image = _symbol_image(payload, ERROR_CORRECTION)
    if _version_of(image) > MAX_COMFORTABLE_VERSION:
        fallback = _symbol_image(payload, FALLBACK_ERROR_CORRECTION)
        if _version_of(fallback) <= MAX_COMFORTABLE_VERSION:
            image = fallback
    size = image.shape[0]
    pixels = bytes(memoryview(image))
    return tuple(pixels[r * size:(r + 1) * size] for r in range(size))


def _symbol_image(payload: str, ec_level: str):
    """zxing-cpp's image of ``payload`` at error correction ``ec_level``, one pixel a module."""
    try:
        barcode = zxingcpp.create_barcode(payload, zxingcpp.BarcodeFormat.QRCode, ec_level=ec_level)
    except Exception as exc:  # noqa: BLE001 - the bindings raise their own error types for "too long"
        raise ValueError(f"cannot encode {len(payload)} characters as a QR code: {exc}") from None
    return barcode.to_image(scale=1, add_quiet_zones=False)


def _version_of(image) -> int:
    """The QR version of a symbol image without quiet zone (``17 + 4 * version`` pixels wide)."""
    return (image.shape[0] - 17) // 4


def qr_matrix(payload: str) -> tuple[tuple[bool, ...], ...]:
    """The module matrix (rows of booleans, ``True`` = dark) for ``payload``, without quiet zone.

    Error correction M (:data:`ERROR_CORRECTION`), or L where only L keeps the symbol within
    :data:`MAX_COMFORTABLE_VERSION` (:data:`FALLBACK_ERROR_CORRECTION`); the smallest version that holds the payload,
    the mask chosen by the standard penalty search; the symbol is cached by payload.
    Raises ``ValueError`` for a payload too long for any QR code.
    """
    return tuple(tuple(v == _DARK for v in row) for row in _symbol_rows(payload))


def qr_size(payload: str) -> int:
    """Modules along a side of ``payload``'s symbol, quiet zone excluded (``17 + 4 * version``)."""
    return len(_symbol_rows(payload))


def qr_version(payload: str) -> int:
    """The QR version (1-40; the symbol is ``17 + 4 * version`` modules square) that
    :func:`qr_matrix` uses for ``payload``."""
    return (qr_size(payload) - 17) // 4


def module_mm(version: int, size_mm: float) -> float:
    """Module size in mm of a ``version`` code drawn ``size_mm`` square, quiet zone included."""
    return size_mm / (17 + 4 * version + 2 * QUIET_ZONE_MODULES)


def long_payload_warning(payload: str, size_mm: float) -> str | None:
    """A warning when ``payload``'s symbol drawn ``size_mm`` square (quiet zone included) has
    modules under :data:`MIN_MODULE_MM`, naming the module size in mm, the QR version and what
    to change; ``None`` when every common scanner reads it.

    A card's payload is its short address (:func:`card_data.editions.short_codes.short_url`): what can
    make it long is the base URL, either by its length or by a path, which stays as written
    (paths are case-sensitive) and, in lower case, needs byte mode."""
    version = qr_version(payload)
    module = module_mm(version, size_mm)
    if module >= MIN_MODULE_MM:
        return None
    base = payload.rsplit(f"/{SHORT_PATH}/", 1)[0]
    needed_mm = math.ceil(MIN_MODULE_MM * (17 + 4 * version + 2 * QUIET_ZONE_MODULES) * 2) / 2
    fits = (f"a version-{MAX_COMFORTABLE_VERSION} code holds {COMFORTABLE_CHARACTERS} characters of digits, "
            f"upper-case letters and $%*+-./: (the scheme and host are written in upper case, as URLs allow)")
    path = urlsplit(base).path
    region = f"print a QR region of at least {needed_mm:g} mm"
    if version <= MAX_COMFORTABLE_VERSION:
        advice = region  # the code is as small as it gets
    elif any(c not in ALPHANUMERIC for c in path):
        advice = (f"the base URL's path ({path}) is kept as written, because paths are case-sensitive, which "
                  f"needs byte mode; {fits}: serve the companion at a base URL (--base-url) without a path, such "
                  f"as a host name or port of its own, or with an upper-case path, or {region}")
    elif any(c not in ALPHANUMERIC for c in payload):
        odd = "".join(sorted({c for c in base if c not in ALPHANUMERIC}))
        advice = (f"the base URL's characters {odd!r} need byte mode; {fits}: use a base URL (--base-url) without "
                  f"them, or {region}")
    else:
        room = COMFORTABLE_CHARACTERS - len(payload) + len(base)
        advice = f"{fits}: use a base URL (--base-url) of at most {room} characters, or {region}"
    return (f"QR codes such as {payload} ({len(payload)} characters) are QR version {version}: modules of "
            f"{module:.3f} mm in a {size_mm:g} mm region, under the {MIN_MODULE_MM} mm that every common scanner "
            f"reads from a phone's photo; {advice}.")


ALPHANUMERIC = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
"""The characters of QR's alphanumeric mode (5.5 bits each; every other character needs byte mode, 8)."""

COMFORTABLE_CHARACTERS = 47
"""Alphanumeric characters a version-2 code holds (at error correction L, the fallback; 38 at M)."""


def dark_runs(matrix: tuple[tuple[bool, ...], ...] | list[list[bool]]) -> list[tuple[int, int, int]]:
    """Horizontal runs of dark modules as ``(row, first_col, length)``, in module units.

    One rectangle per run instead of per module: fewer path operators, smaller and
    faster PDFs (see shared/notes/pdf-performance.md).
    """
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        n = len(row)
        while c < n:
            if row[c]:
                start = c
                while c < n and row[c]:
                    c += 1
                runs.append((r, start, c - start))
            else:
                c += 1
    return runs


_DARK_RUN = re.compile(bytes([_DARK]) + b"+")


def qr_dark_runs(payload: str) -> list[tuple[int, int, int]]:
    """:func:`dark_runs` of ``payload``'s symbol, straight from its cached rows (no matrix of
    booleans): ``(row, first_col, length)`` in modules, quiet zone excluded.

    Merging runs of consecutive rows too was measured: 1 % smaller PDFs once compressed, 50 %
    more time, so runs are left as they are.
    """
    return [(row, run.start(), run.end() - run.start())
            for row, pixels in enumerate(_symbol_rows(payload)) for run in _DARK_RUN.finditer(pixels)]


def qr_fill_operators(payload: str) -> str:
    """PDF operators filling ``payload``'s dark modules in module units (origin at the symbol's
    top-left corner, y down, quiet zone excluded): one ``col row length 1 re`` per run of
    :func:`qr_dark_runs`, in the same order, then ``f``. Raises ``ValueError`` as :func:`qr_matrix`.

    The runs' numbers are gathered flat and formatted by one ``%`` of a repeated pattern: about
    160 runs a code, where a formatted string per run costs ~15 % more."""
    flat: list[int] = []
    for row, pixels in enumerate(_symbol_rows(payload)):
        for run in _DARK_RUN.finditer(pixels):
            start, end = run.span()
            flat += (start, row, end - start)
    return ("%d %d %d 1 re\n" * (len(flat) // 3)) % tuple(flat) + "f"
