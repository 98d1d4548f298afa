"""The not-found page: a search box already holding the words of the address that failed."""

from __future__ import annotations

from flask import Flask, render_template, request
from werkzeug.exceptions import NotFound

from companion.cards.catalog import close_card_ids, get_database, query_words, search_cards


def words_from_request() -> str:
    """Search words for the address that was not found.

    ``/r/cartisora/brutal-strik`` gives ``"brutal strik"``: the card id's words, else
    the game id's, else the last part of the path.
    """
    args = request.view_args or {}
    missing = args.get("card_id") or args.get("game")
    if missing is None:
        missing = request.path.rstrip("/").rsplit("/", 1)[-1]
    return " ".join(query_words(missing))


def render_not_found(words: str = "", base_href: str | None = None, message: str = "") -> str:
    """HTML of the not-found page with ``words`` in its search box, and nearby cards.

    ``base_href`` (an absolute URL ending in ``/``), if given, becomes the page's ``<base>``:
    a static host serves ``404.html`` at any depth, so its relative links need it.
    ``message``: what exactly was not found (e.g. a card version), shown under the heading.
    """
    suggestions = []
    if words:
        game_id = (request.view_args or {}).get("game")
        if game_id not in get_database().games:
            game_id = None
        suggestions = search_cards(words, game_id) or close_card_ids(words.replace(" ", "-"), game_id)
    return render_template("404.html", words=words, suggestions=suggestions[:10], base_href=base_href,
                           message=message)


def not_found(error: NotFound):
    """Error handler: the not-found page with HTTP status 404."""
    # abort(404, description=...) says what is missing; werkzeug's own text says nothing more.
    message = error.description if error.description != NotFound.description else ""
    return render_not_found(words_from_request(), message=message), 404


def init_app(app: Flask) -> None:
    app.register_error_handler(404, not_found)
