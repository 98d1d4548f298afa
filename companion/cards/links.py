"""Links between pages that work both on the live server and in an exported static site.

Live, a link is what :func:`flask.url_for` gives (``/r/cartisora/parry``). In a static
export each page is a file (``r/cartisora/parry/index.html``) and the site may be served
from a sub-path (``https://host/project/``), so every link is made relative to the page
that holds it.
"""

from __future__ import annotations

import posixpath
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, current_app, request, url_for


def export_file_for(url_path: str) -> str:
    """The file of a static export that serves ``url_path``, relative to the export root.

    ``"/"`` -> ``"index.html"``, ``"/r/cartisora/"`` -> ``"r/cartisora/index.html"``,
    ``"/r/cartisora/parry"`` -> ``"r/cartisora/parry/index.html"``; static files and
    ``.html``, ``.js`` and ``.json`` paths keep their own name (``"/static/companion.css"`` ->
    ``"static/companion.css"``, ``"/sw.js"`` -> ``"sw.js"``, ``"/r/cartisora/offline.json"`` ->
    ``"r/cartisora/offline.json"``).
    """
    path = url_path.lstrip("/")
    if path.startswith("static/") or path.endswith((".html", ".js", ".json")):
        return path
    path = path.rstrip("/")
    return f"{path}/index.html" if path else "index.html"


def relative_url(url: str, from_path: str) -> str:
    """``url`` (an app-absolute URL, query and fragment kept) relative to the page at ``from_path``."""
    parts = urlsplit(url)
    here = posixpath.dirname(export_file_for(from_path)) or "."
    target = posixpath.relpath(export_file_for(parts.path), here)
    return urlunsplit(("", "", target, parts.query, parts.fragment))


def page_url(endpoint: str, **values) -> str:
    """URL of a page or static file, as :func:`flask.url_for` takes it.

    In a static export (``STATIC_EXPORT``) the URL is relative to the page being rendered,
    so the exported site works from any directory of any static host.
    """
    url = url_for(endpoint, **values)
    if not current_app.config["STATIC_EXPORT"]:
        return url
    return relative_url(url, request.path)


def asset_url(filename: str) -> str:
    """URL of ``companion/static/<filename>`` (see :func:`page_url`)."""
    return page_url("static", filename=filename)


def canonical_url() -> str | None:
    """The page's public address under ``BASE_URL`` (what a QR code opens), or ``None``.

    A card's versioned page (``/r/<game>/<card>/<version>``, what a printed copy's QR code
    opens) names the card's own page as canonical: every version shows the current card.
    """
    base = current_app.config.get("BASE_URL")
    if not base:
        return None
    path = request.path
    if request.endpoint == "rulings.card_version_page" and request.view_args:
        args = {k: v for k, v in request.view_args.items() if k != "version"}
        # url_for includes the mount point (SCRIPT_NAME); BASE_URL already does.
        path = url_for("rulings.card_page", **args).removeprefix(request.script_root)
    return base.rstrip("/") + path


def init_app(app: Flask) -> None:
    """Make the link helpers available to every template."""
    app.add_template_global(page_url)
    app.add_template_global(asset_url)
    app.add_template_global(canonical_url)
