"""What lets a phone install the companion like an app: the web app manifest.

``/manifest.webmanifest`` names the app, opens it at the list of games without the browser's
bars (``display: standalone``) and lists its home-screen icons under ``static/icons/`` (drawn by
``tools/draw_icons.py``). ``base.html`` links it, with the ``theme-color`` and the
``apple-touch-icon`` that iOS reads instead of the manifest's icons.
"""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, url_for

bp = Blueprint("webapp", __name__)

NAME = "Card companion"
SHORT_NAME = "Companion"  # under the icon on a home screen, where about 12 characters fit
THEME_COLOUR = "#0172ad"  # the icon's blue (Pico's primary): the bar above an installed app
BACKGROUND_COLOUR = "#ffffff"  # the splash screen while the first page loads: Pico's page white
ICONS = [
    # file under static/icons/, size in px, purpose
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("icon-maskable-512.png", 512, "maskable"),
]


@bp.get("/manifest.webmanifest")
def manifest():
    start = url_for("browse.index")
    body = {
        "id": start,
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": "Card rulings one scan away, and the score kept at the table.",
        "lang": "en",
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{"src": url_for("static", filename=f"icons/{name}"), "sizes": f"{size}x{size}",
                   "type": "image/png", "purpose": purpose} for name, size, purpose in ICONS],
    }
    response = current_app.json.response(body)
    response.mimetype = "application/manifest+json"
    return response


def init_app(app: Flask) -> None:
    """The theme colour for every page; the manifest on the live server (a static export has
    no server to open as an app, only pages to read)."""
    app.add_template_global(THEME_COLOUR, "theme_colour")
    if not app.config["STATIC_EXPORT"]:
        app.register_blueprint(bp)
