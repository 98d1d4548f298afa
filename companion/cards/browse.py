"""Finding a card: the list of games and the card search."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from companion.cards.catalog import (
    all_cards,
    card_count,
    get_database,
    search_cards,
    search_rulings,
)

bp = Blueprint("browse", __name__)


@bp.route("/")
def index():
    """The games (title, number of cards, link) and a card search box."""
    games = [(game, card_count(game)) for game in get_database().games.values()]
    return render_template("index.html", games=games)


@bp.route("/search")
def search():
    """Cards whose title, id or rules text match ``q`` (optionally only in ``game``), then
    the rulings whose text matches it.

    A static export has no server to search: there the page lists every card and
    ``companion.js`` filters the list in the browser (without JavaScript, the full list);
    rulings are not listed there, the page links each game's rulings page instead.
    """
    query = request.args.get("q", "").strip()
    game_id = request.args.get("game", "").strip()
    if game_id not in get_database().games:
        game_id = ""
    if current_app.config["STATIC_EXPORT"]:
        return render_template("search.html", query="", game_id="", hits=all_cards(), ruling_hits=[],
                               filter_in_browser=True)
    hits = search_cards(query, game_id or None)
    return render_template("search.html", query=query, game_id=game_id, hits=hits,
                           ruling_hits=search_rulings(query, game_id or None), filter_in_browser=False)
