"""Static files (``companion/static/``) under versioned URLs, cached for a year.

Every link to a static file carries its content's digest: ``url_for("static",
filename="companion.css")`` (and so :func:`companion.cards.links.asset_url`) gives
``/static/companion.css?v=<digest>``, the digest worked out once when the app starts. A changed
file gets a new URL, so a browser may keep each URL's answer for good:

- a request whose ``v`` is the file's digest is answered with ``Cache-Control:`` :data:`LONG_CACHE`
  (a year, ``immutable``: not even a reload asks again);
- any other request for a static file (no ``v``: a link from a stylesheet, an old page; or a
  ``v`` of an earlier version of the file, which is answered with today's file) gets the short
  ``public, max-age=`` :data:`SHORT_MAX_AGE_S`, so a changed file reaches it within minutes.

The offline manifests (:mod:`companion.cards.offline`) list the same versioned URLs the pages load, so
the service worker keeps exactly what a saved page asks for. The static export writes them too:
a static host serves the file whatever its query.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Flask, Response, current_app, request

DIGEST_CHARS = 12
"""Hex characters of a file's SHA-256 in its URL (48 bits: no two versions of a file collide)."""
LONG_CACHE = "public, max-age=31536000, immutable"
SHORT_MAX_AGE_S = 300
_DIGESTS = "companion.web.static_files.digests"


def file_digests(folder: str | Path) -> dict[str, str]:
    """``{path under folder ("pico/pico.min.css"): digest}`` for every file below ``folder``:
    the first :data:`DIGEST_CHARS` hex characters of the SHA-256 of its bytes."""
    root = Path(folder)
    return {path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()[:DIGEST_CHARS]
            for path in sorted(root.rglob("*")) if path.is_file()}


def static_digest(filename: str) -> str | None:
    """The current app's digest of ``static/<filename>``, or ``None`` for no such file."""
    return current_app.extensions[_DIGESTS].get(filename)


def _add_version(endpoint: str, values: dict) -> None:
    """``url_defaults``: a static file's URL gets ``v=<digest>`` (unless one is given)."""
    if endpoint == "static" and "v" not in values:
        digest = static_digest(str(values.get("filename", "")))
        if digest is not None:
            values["v"] = digest


def _cache_headers(response: Response) -> Response:
    """``after_request``: a static file's caching, by whether the request named its version."""
    if request.endpoint != "static" or response.status_code not in (200, 206, 304):
        return response
    filename = (request.view_args or {}).get("filename", "")
    versioned = request.args.get("v") is not None and request.args.get("v") == static_digest(filename)
    response.headers["Cache-Control"] = LONG_CACHE if versioned else f"public, max-age={SHORT_MAX_AGE_S}"
    response.headers.pop("Expires", None)  # Cache-Control says it; an Expires beside it could only disagree
    return response


def init_app(app: Flask) -> None:
    """Work out the digest of every static file of ``app`` (once: the files do not change while it
    runs) and version their URLs and caching (see the module)."""
    app.extensions[_DIGESTS] = file_digests(app.static_folder)
    app.url_defaults(_add_version)
    app.after_request(_cache_headers)
