"""QR codes as vector paths: the ``qrcode`` package computes the matrix, reportlab draws it."""

from __future__ import annotations

import qrcode
from qrcode.constants import ERROR_CORRECT_M

QUIET_ZONE_MODULES = 4
"""White modules around the symbol, as the standard (ISO/IEC 18004) asks: phone scanners find a
code on a busy card reliably only with the full quiet zone. A region's ``size_mm`` includes it."""

MAX_COMFORTABLE_VERSION = 4
"""Up to version 4 (33 x 33 modules, about 60 characters of URL) a 15 mm code has modules of
0.37 mm, which phones read at arm's length; each version above adds 4 modules."""

MIN_MODULE_MM = 0.4
"""Modules smaller than this are hard for phone cameras; together with a version above
:data:`MAX_COMFORTABLE_VERSION` it earns the long-URL warning."""


def qr_matrix(payload: str) -> list[list[bool]]:
    """The module matrix (rows of booleans, ``True`` = dark) for ``payload``, without quiet zone.

    Error correction M (15 %): enough for scuffed cards without making codes much bigger.
    """
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    code.add_data(payload)
    code.make(fit=True)
    return code.get_matrix()


def qr_version(payload: str) -> int:
    """The QR version (1-40; the symbol is ``17 + 4 * version`` modules square) that
    :func:`qr_matrix` uses for ``payload``, without the costly choice of mask."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    code.add_data(payload)
    return code.best_fit()


def module_mm(version: int, size_mm: float) -> float:
    """Module size in mm of a ``version`` code drawn ``size_mm`` square, quiet zone included."""
    return size_mm / (17 + 4 * version + 2 * QUIET_ZONE_MODULES)


def long_payload_warning(payload: str, size_mm: float) -> str | None:
    """A warning when ``payload`` needs a version above :data:`MAX_COMFORTABLE_VERSION` and its
    modules come out under :data:`MIN_MODULE_MM` at ``size_mm``; ``None`` when it reads fine."""
    version = qr_version(payload)
    module = module_mm(version, size_mm)
    if version <= MAX_COMFORTABLE_VERSION or module >= MIN_MODULE_MM:
        return None
    suffix = "/r/" + payload.rsplit("/r/", 1)[1] if "/r/" in payload else ""
    room = COMFORTABLE_CHARACTERS - len(suffix)
    return (f"QR codes such as {payload} ({len(payload)} characters) need QR version {version}: modules of "
            f"{module:.2f} mm in a {size_mm:g} mm region, hard for phones to read (under {MIN_MODULE_MM} mm). "
            f"A version-{MAX_COMFORTABLE_VERSION} code holds {COMFORTABLE_CHARACTERS} characters: "
            + (f"use a base URL (--base-url) of at most {room} characters." if room >= 20 else
               f"that leaves {max(room, 0)} for the base URL with this card's id, so shorten the card ids too "
               f"(or print a larger QR region)."))


COMFORTABLE_CHARACTERS = 62
"""Bytes a version-4 code holds at error correction M."""


def dark_runs(matrix: list[list[bool]]) -> list[tuple[int, int, int]]:
    """Horizontal runs of dark modules as ``(row, first_col, length)``.

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
