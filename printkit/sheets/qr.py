"""QR codes as vector paths: the ``qrcode`` package computes the matrix, reportlab draws it."""

from __future__ import annotations

import qrcode
from qrcode.constants import ERROR_CORRECT_M

QUIET_ZONE_MODULES = 2
"""White modules around the symbol. The standard asks for 4; 2 keeps codes small on a card and
still decodes reliably at 300 dpi (tested), provided the region has a light background."""


def qr_matrix(payload: str) -> list[list[bool]]:
    """The module matrix (rows of booleans, ``True`` = dark) for ``payload``, without quiet zone.

    Error correction M (15 %): enough for scuffed cards without making codes much bigger.
    """
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    code.add_data(payload)
    code.make(fit=True)
    return code.get_matrix()


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
