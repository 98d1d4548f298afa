"""The phone's time zone: the times a page shows are the phone's local times.

A server cannot know where a phone is. Each page's script (``static/companion.js``) tells it:
it keeps the browser's zone (``Intl.DateTimeFormat().resolvedOptions().timeZone``, an IANA
name such as ``"Europe/Berlin"``) in the cookie :data:`COOKIE`, and writes the times of the page
it is on in that zone at once. The server formats times (Flask-Babel's ``timeformat`` and
friends) in the zone the cookie names, if it is a zone :mod:`zoneinfo` knows; otherwise (no
JavaScript, a first visit, a cookie made up) in UTC, and the page says so
(:func:`zone_suffix`).

The cookie is the one way a page carries the zone: the BG Stats exports (a table's, opened
from its page, and the past games') date their plays by it too (:func:`export_zone`); a client
that is not a browser names the zone in the export's ``tz`` parameter instead.
"""

from __future__ import annotations

import functools
import zoneinfo
from datetime import tzinfo

from flask import Flask, has_request_context, request

COOKIE = "tz"
"""The cookie the page's script sets to the phone's time zone."""
MAX_ZONE_NAME = 64
"""Longest zone name looked at (the IANA names are at most 32 characters)."""
FALLBACK_ZONE = "UTC"


@functools.cache
def known_zones() -> frozenset[str]:
    """Every IANA zone name this Python's :mod:`zoneinfo` knows (read once)."""
    return frozenset(zoneinfo.available_timezones())


def phone_zone() -> str | None:
    """The time zone the request's cookie names, or ``None`` when it names none this server
    knows (missing, too long, not an IANA name) or there is no request."""
    if not has_request_context():
        return None
    name = request.cookies.get(COOKIE, "")
    return name if 0 < len(name) <= MAX_ZONE_NAME and name in known_zones() else None


def select_time_zone() -> str:
    """Flask-Babel's time zone selector: the phone's zone, else :data:`FALLBACK_ZONE`."""
    return phone_zone() or FALLBACK_ZONE


def zone_suffix() -> str:
    """What follows a time on a page: ``""`` when it is in the phone's own zone, else
    ``" UTC"`` (the zone it is in). A template global."""
    return "" if phone_zone() else f" {FALLBACK_ZONE}"


def zone_named(name: str) -> zoneinfo.ZoneInfo:
    """The IANA time zone ``name`` (``Europe/Berlin``, as a phone's ``Intl`` says it). Raises
    ``ValueError`` naming the field ``tz`` for a name that is too long (over
    :data:`MAX_ZONE_NAME` characters) or that :mod:`zoneinfo` does not know."""
    if len(name) > MAX_ZONE_NAME:
        raise ValueError(f"tz: a time zone name has at most {MAX_ZONE_NAME} characters")
    if name not in known_zones():
        raise ValueError(f"tz: unknown time zone {name!r} (an IANA name such as Europe/Berlin)")
    return zoneinfo.ZoneInfo(name)


def export_zone(given: str | None = None) -> tzinfo | None:
    """The zone an export dates a play in: ``given`` (an API client's ``tz`` parameter; raises
    ``ValueError`` as :func:`zone_named` for a bad one), else the phone's (the cookie, as the
    pages' times; a cookie this server does not know is ignored), else ``None`` (the caller's
    default: the server's zone)."""
    if given:
        return zone_named(given)
    phone = phone_zone()
    return zoneinfo.ZoneInfo(phone) if phone else None


def init_app(app: Flask) -> None:
    """Give templates ``zone_suffix()`` (the selector itself goes to Flask-Babel in
    :func:`companion.web.language.init_app`)."""
    app.add_template_global(zone_suffix)
