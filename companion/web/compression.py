"""Compressed responses: text the companion sends (pages, JSON, CSS, JavaScript, SVG, CSV) goes
gzip-compressed to a browser that accepts it, through Flask-Compress.

- Only gzip (every browser takes it; one way to do it), level 1: a table's live fragment
  (about 65 kB with its history) is polled by every phone each second, and level 6 cost five
  times the CPU of level 1 (0.75 against 0.15 ms) for a body 17% smaller (6.5 against 7.8 kB).
- Only bodies of :data:`MIN_SIZE_BYTES` or more: below that the gzip header outweighs the gain.
- Every answer says ``Vary: Accept-Encoding``, so a shared cache keeps the two forms apart.
- Static files are sent as a stream (Flask's ``send_file``): they are compressed as they go out
  (no ``Content-Length`` then), and still answer ``If-None-Match`` with 304 (their ETag gets a
  ``:gzip`` suffix, so the two forms never pass for each other).
- The companion sends no endless stream (no server-sent events: a table page polls), so nothing
  is held back waiting for a compressor to flush.
"""

from __future__ import annotations

from flask import Flask
from flask_compress import Compress

MIN_SIZE_BYTES = 500
"""Smallest body compressed (bytes)."""

MIMETYPES = [
    "text/html",
    "application/json",
    "application/manifest+json",
    "text/css",
    "text/javascript",
    "application/javascript",
    "image/svg+xml",
    "text/csv",
]
"""The types compressed: the text the companion sends. Images (PNG) are compressed already."""


def init_app(app: Flask) -> None:
    """Compress ``app``'s answers (see the module). Call it before any other ``after_request``
    hook is registered: Flask runs those last-registered first, so this one sees each answer last,
    with its body and headers final. Config keys (set first to change them): Flask-Compress's
    ``COMPRESS_*``."""
    app.config.setdefault("COMPRESS_ALGORITHM", ["gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["gzip"])
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    app.config.setdefault("COMPRESS_MIN_SIZE", MIN_SIZE_BYTES)
    app.config.setdefault("COMPRESS_LEVEL", 1)
    # Streamed answers that still answer If-None-Match: the static files, and the service worker
    # (no-cache: checked on every visit).
    app.config.setdefault("COMPRESS_STREAMING_ENDPOINT_CONDITIONAL", ["static", "offline.worker"])
    Compress(app)
