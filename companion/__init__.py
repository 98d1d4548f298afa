"""The companion: a phone-first Flask app serving one rulings page per card.

The QR code printed on each card opens its short address ``<BASE>/Q/<CODE>``, which leads to
the card's page ``<base-url>/r/<game>/<card-id>/<version>`` (:mod:`companion.cards.short_links`;
cards printed before short addresses open that page directly). The same pages can
be exported as a static site (:mod:`companion.cards.site`). Run it with ``companion run`` or
``flask --app companion run``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# Flask and the card data are imported by create_app, not here: `companion --help` imports this
# package and should not pay for them.
if TYPE_CHECKING:
    from flask import Flask


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the companion app (Flask application factory).

    Config keys, besides Flask's own:
        CARD_DATA_DIR: card database directory (str or Path); default: the card data of the
            project found from ``PROJECT_DIR``, else the bundled database
            (:mod:`companion.cards.card_source`). After start it holds the folder served.
        PROJECT_DIR: a project folder (holding ``printkit.toml``, or below one) whose games to
            serve; default: the project found from the current folder up, if any. After start
            it holds the project's folder, or ``None``.
        BASE_URL: public base URL the printed QR codes point at (e.g.
            ``"https://example.org/cards"``), used for canonical links; default: the project's
            (``$PRINTKIT_BASE_URL``, then ``printkit.toml``), else ``None``.
        DATABASE_URL: SQLAlchemy URL of the scorekeeper's database; default ``$DATABASE_URL``,
            else SQLite in the instance folder. The schema is created on start; existing
            tables are kept.
        STATIC_EXPORT: ``True`` while :func:`companion.cards.site.export_site` renders pages, which
            makes every link relative to the page and swaps the server-side search for a
            client-side filter.
        SECRET_KEY, WTF_CSRF_ENABLED (default ``True``), MAX_CONTENT_LENGTH: see
            :func:`companion.web.security.init_app`.
        LOOKUP_MAX_MISSES, LOOKUP_WINDOW_S, TABLE_CHANGE_FEED, TABLE_STORE, RATELIMIT_*: see
            :func:`companion.scorekeeping.scorekeeper.init_app`.

    The card database is loaded once, here. Raises :class:`card_data.problems.DatabaseError`
    listing every problem if it does not load cleanly, and
    :class:`card_data.project.base_url.ConfigError` for a broken ``printkit.toml`` or a
    ``PROJECT_DIR`` that is no project.
    """
    from flask import Flask

    from companion.cards.card_source import card_source, served_base_url

    from companion.web import templating

    app = Flask(__name__)
    templating.init_app(app)  # before anything makes the app's template environment
    app.config.from_mapping(
        CARD_DATA_DIR=None,
        PROJECT_DIR=None,
        BASE_URL=None,
        STATIC_EXPORT=False,
    )
    if config:
        app.config.update(config)
    source = card_source(app.config["CARD_DATA_DIR"], app.config["PROJECT_DIR"])
    app.config["CARD_DATA_DIR"] = str(source.data_dir)
    app.config["PROJECT_DIR"] = str(source.project.root) if source.project is not None else None
    app.config["BASE_URL"] = served_base_url(app.config["BASE_URL"], source)

    from companion.cards import browse, catalog, errors, links, offline, rulings, short_links
    from companion.scorekeeping import api, scorekeeper
    from companion.scorekeeping.pages import charts, game_pages, past_games, table_pages
    from companion.web import compression, language, security, static_files, webapp

    compression.init_app(app)  # first: its after_request hook runs last, on the final answer
    static_files.init_app(app)
    security.init_app(app)
    language.init_app(app)
    catalog.init_app(app)
    links.init_app(app)
    errors.init_app(app)
    app.register_blueprint(browse.bp)
    app.register_blueprint(rulings.bp)
    short_links.init_app(app)
    webapp.init_app(app)
    offline.init_app(app)
    if not app.config["STATIC_EXPORT"]:
        scorekeeper.init_app(app)
        app.register_blueprint(api.bp)
        security.exempt_from_csrf(api.bp)  # the API has its own guard: JSON bodies, same-origin only
        app.register_blueprint(table_pages.bp)
        charts.init_app(app)
        app.register_blueprint(past_games.bp)
        game_pages.init_app(app)  # each game's own part of the table page, from its folder
    return app
