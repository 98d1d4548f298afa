"""The phone's time zone: the times a page shows are the phone's local times.

A server cannot know where a phone is. Each page's script (``static/companion.js``) tells it:
it keeps the browser's zone (``Intl.DateTimeFormat().resolvedOptions().timeZone``, an IANA
name such as ``"Europe/Berlin"``) in the cookie :data:`COOKIE`, and writes the times of the page
it is on in that zone at once. The server formats times (Flask-Babel's ``timeformat`` and
friends) in the zone the cookie names, if it is a zone :mod:`zoneinfo` knows; otherwise (no
JavaScript, a first visit, a cookie made up) in UTC, and the page says so
(:func:`zone_suffix`).
"""

from __future__ import annotations

import functools
import zoneinfo

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


def init_app(app: Flask) -> None:
    """Give templates ``zone_suffix()`` (the selector itself goes to Flask-Babel in
    :func:`companion.language.init_app`)."""
    app.add_template_global(zone_suffix)
