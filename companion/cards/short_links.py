"""Short card addresses: ``/Q/<CODE>``, what the printed QR codes open, leads to the card's page.

A card's QR code encodes ``<BASE>/Q/<CODE>`` (:mod:`card_data.editions.short_codes`: short and upper
case, so that the code is QR version 2 with modules every scanner reads). The code is a digest of
the game, the card and the version printed on it, so nothing is stored: the map from codes to
card versions is computed from the card database once, when the app starts, over every version
a copy may carry (older ones included), so old printed codes keep working.

- Live, ``/Q/<CODE>`` answers 302 to the card's versioned page ``/r/<game>/<card>/<version>``
  (``/r/<game>/<card>`` for a game that records no versions). ``/q/<code>`` works the same, and
  the code in any case: a person typing an address from a card need not mind the case.
- In a static export (:mod:`companion.cards.site`) each code is a page of its own,
  ``Q/<CODE>/index.html``, which sends the browser on (``<meta http-equiv="refresh">``, with a
  visible link for a browser that does not follow it) and asks search engines not to index it.
- An unknown code is the not-found page (404) saying that this server does not know the code.
- The card pages' own addresses (``/r/...``), which cards printed before the short addresses
  carry, are unchanged.
"""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, redirect, render_template, url_for
from flask_babel import gettext

from card_data.problems import DatabaseError
from card_data.editions.short_codes import SHORT_PATH, PrintedCard, code_map, normalise_code
from companion.cards.catalog import get_database
from companion.cards.errors import render_not_found
from companion.cards.links import page_url
from companion.cards.translated_data import card_title

bp = Blueprint("short_links", __name__)

_CODES = "companion.short_codes"


def init_app(app: Flask) -> None:
    """Compute the app's code map from its card database (after :func:`companion.cards.catalog.init_app`)
    and register the routes. Raises :class:`~card_data.problems.DatabaseError` naming both cards
    when two printed card versions share a code (the loader reports it too)."""
    with app.app_context():
        codes, problems = code_map(get_database().games.values())
    if problems:
        raise DatabaseError(problems)
    app.extensions[_CODES] = codes
    app.register_blueprint(bp)


def printed_codes() -> dict[str, PrintedCard]:
    """The current app's codes: ``{code: printed card version}`` (needs an app context)."""
    return current_app.extensions[_CODES]


def target_endpoint(card: PrintedCard) -> tuple[str, dict]:
    """The rulings page ``card`` opens, as ``(endpoint, values)`` for :func:`flask.url_for`."""
    values = {"game": card.game_id, "card_id": card.card_id}
    if card.version is None:
        return "rulings.card_page", values
    return "rulings.card_version_page", {**values, "version": card.version}


@bp.get(f"/{SHORT_PATH}/<code>", strict_slashes=False)
@bp.get(f"/{SHORT_PATH.lower()}/<code>", strict_slashes=False, endpoint="open_code_lower")
def open_code(code: str):
    """A printed card's short address: a 302 to its page (live), a page that sends the browser
    there (static export), or 404 for a code this server does not know."""
    normal = normalise_code(code)
    card = printed_codes().get(normal) if normal else None
    if card is None:
        shown = code if len(code) <= 16 else code[:16] + "…"
        message = gettext("The card code %(code)s is not known on this server: the card was printed for "
                          "another server, or from newer card data than this server has.", code=shown)
        return render_not_found(message=message), 404
    endpoint, values = target_endpoint(card)
    if current_app.config["STATIC_EXPORT"]:
        game = get_database().games[card.game_id]
        return render_template("short_link.html", target=page_url(endpoint, **values),
                               title=card_title(card.game_id, game.cards[card.card_id]))
    return redirect(url_for(endpoint, **values), 302)


def short_paths() -> list[str]:
    """The short address path of every code (``/Q/<CODE>``), sorted: the static export writes a
    page for each (needs an app context)."""
    return [f"/{SHORT_PATH}/{code}" for code in sorted(printed_codes())]
