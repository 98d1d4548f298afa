"""What makes the companion fit to leave running on a shared network.

- A secret key for the session cookie that carries the forms' CSRF token: from the config,
  ``$COMPANION_SECRET_KEY``, or a random key kept in the instance folder, so that it survives
  restarts and every worker process and thread signs with the same key.
- Flask-WTF's :class:`~flask_wtf.csrf.CSRFProtect` on every HTML form (``WTF_CSRF_ENABLED``,
  on by default). The JSON API is exempt from the form token; it has its own guard
  (:func:`cross_site_request`, and JSON-only bodies, in :mod:`companion.scorekeeping.api`).
- Security headers on every response (:data:`SECURITY_HEADERS`).
- Request limits: :data:`MAX_CONTENT_LENGTH`, :data:`MAX_JSON_DEPTH`.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, Request, Response, render_template_string, request
from flask_babel import gettext, lazy_gettext
from flask_wtf.csrf import CSRFError, CSRFProtect

from card_data.engine.seats import MAX_PLAYER_NAME

SECRET_KEY_ENV = "COMPANION_SECRET_KEY"
SECRET_KEY_FILE = "secret_key"

MAX_CONTENT_LENGTH = 64 * 1024
"""Largest request body (bytes); the biggest real one, a table of six players, is under 1 KiB."""
MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects in a JSON body; real events nest three levels at most."""

# form-action: a form may also lead to BG Stats' import link ("Open in BG Stats" is a form that the
# server redirects there; browsers hold a form's redirects to form-action too).
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "object-src 'none'; base-uri 'self'; form-action 'self' https://app.bgstatsapp.com; "
                           "frame-ancestors 'none'")
SECURITY_HEADERS = {
    # No inline script or style: injected markup (a player's name, say) cannot run anything.
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # Same-origin keeps the Referer that CSRF checks need on HTTPS, and sends table links nowhere else.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
}

ERROR_PAGE = """{% extends "base.html" %}
{% block title %}{{ title }}{% endblock %}
{% block content %}
<h1>{{ title }}</h1>
<p>{{ reason }}</p>
{% endblock %}"""

csrf = CSRFProtect()

#: Flask-WTF's reasons for refusing a form (it writes them in English only), in the page's
#: language: its own words in English, so a reason it adds later still shows, untranslated.
CSRF_REASONS = {
    "The CSRF token is missing.": lazy_gettext("The CSRF token is missing."),
    "The CSRF session token is missing.": lazy_gettext("The CSRF session token is missing."),
    "The CSRF token has expired.": lazy_gettext("The CSRF token has expired."),
    "The CSRF token is invalid.": lazy_gettext("The CSRF token is invalid."),
    "The CSRF tokens do not match.": lazy_gettext("The CSRF tokens do not match."),
    "The referrer header is missing.": lazy_gettext("The referrer header is missing."),
    "The referrer does not match the host.": lazy_gettext("The referrer does not match the host."),
}


def init_app(app: Flask) -> None:
    """Install the secret key, CSRF protection, request-size limit and security headers.

    Config keys (each may be set by the caller first):
        SECRET_KEY: see :func:`secret_key`.
        WTF_CSRF_ENABLED: Flask-WTF's switch for the form token (default ``True``).
        WTF_CSRF_TIME_LIMIT: default ``None``, the token lasts as long as the browser session:
            a table page may sit open through a long game and must still post.
        MAX_CONTENT_LENGTH: default (also for ``None``) :data:`MAX_CONTENT_LENGTH`; a bigger
            body is a 413.
        SESSION_COOKIE_SAMESITE: default ``"Lax"``.
    """
    # Flask's own defaults for these are None (unlimited, no SameSite), so setdefault would not do.
    if app.config.get("MAX_CONTENT_LENGTH") is None:
        app.config["MAX_CONTENT_LENGTH"] = MAX_CONTENT_LENGTH
    if app.config.get("SESSION_COOKIE_SAMESITE") is None:
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    app.after_request(add_security_headers)
    if app.config.get("STATIC_EXPORT"):
        return  # static pages have no forms and no server: no key to create
    app.config["SECRET_KEY"] = secret_key(app)
    csrf.init_app(app)
    app.register_error_handler(CSRFError, csrf_refused)
    app.register_error_handler(413, too_large)


def exempt_from_csrf(blueprint) -> None:
    """Take ``blueprint`` (the JSON API) out of the form-token check."""
    csrf.exempt(blueprint)


def secret_key(app: Flask) -> str:
    """The app's secret key: ``SECRET_KEY`` from the config, else ``$COMPANION_SECRET_KEY``, else
    the key in ``<instance folder>/secret_key``, created (random, 256 bits) on first start.

    Creating the file is atomic (a hard link that fails if the file exists), so workers starting
    at once all end up with the one key that won. Raises ``OSError`` if the instance folder
    cannot be written.
    """
    configured = app.config.get("SECRET_KEY") or os.environ.get(SECRET_KEY_ENV)
    if configured:
        return configured
    folder = Path(app.instance_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SECRET_KEY_FILE
    if not path.exists():
        draft = folder / f".{SECRET_KEY_FILE}.{secrets.token_hex(8)}"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another worker got there first: use its key
        finally:
            draft.unlink()
    return path.read_text().strip()


def add_security_headers(response: Response) -> Response:
    """``after_request`` hook: :data:`SECURITY_HEADERS` on every response (pages, JSON, static)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def csrf_refused(error: CSRFError):
    """A form posted without a valid token: a 400 page that says what to do. A form posted by
    htmx gets ``HX-Refresh`` as well: a whole page must not be swapped into a part of one, and
    the reloaded page carries a fresh token."""
    why = CSRF_REASONS.get(error.description, error.description)
    page = render_template_string(ERROR_PAGE, title=gettext("This form could not be accepted"),
                                  reason=gettext("%(why)s Go back, reload the page and try again.", why=why))
    headers = {"HX-Refresh": "true"} if request.headers.get("HX-Request") else {}
    return page, 400, headers


def too_large(_error):
    """A request body over ``MAX_CONTENT_LENGTH``: a 413 page (the API answers in JSON)."""
    return render_template_string(ERROR_PAGE, title=gettext("Too much text"),
                                  reason=gettext("That form held far more text than any table needs; shorten it "
                                                 "(player names are at most %(max)s characters) and try again.",
                                                 max=MAX_PLAYER_NAME)), 413


def _netloc(url_or_host: str, scheme: str) -> str:
    """``host[:port]``, lower-case, without the scheme's default port."""
    netloc = url_or_host.lower()
    for default in ((":80",) if scheme == "http" else (":443",) if scheme == "https" else ()):
        netloc = netloc.removesuffix(default)
    return netloc


def cross_site_request(request: Request) -> bool:
    """True if a browser sent ``request`` from another site: its ``Origin`` (or, without one, its
    ``Referer``) names a different host than the request's own ``Host``.

    A request with neither header (curl, scripts, the test client) is not cross-site: browsers
    send ``Origin`` with every cross-origin POST, PUT and DELETE. ``Origin: null`` (a sandboxed
    frame, a local file) counts as cross-site.
    """
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if source is None:
        return False
    if source.strip() == "null":
        return True
    parts = urlsplit(source.strip())
    if not parts.netloc:
        return True
    return _netloc(parts.netloc, parts.scheme) != _netloc(request.host, request.scheme)


_JSON_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def json_depth(raw: bytes, limit: int = MAX_JSON_DEPTH) -> int:
    """How deeply arrays and objects nest in the JSON text ``raw`` (strings skipped), counted
    up to ``limit + 1`` at most: enough to refuse a body before the parser recurses into it."""
    depth = deepest = 0
    for match in _JSON_TOKEN.finditer(raw):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif token in (b"]", b"}"):
            depth -= 1
    return deepest
