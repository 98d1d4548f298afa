"""Offline at the table: a service worker keeps a game's rulings pages on the phone.

- ``/sw.js`` serves ``static/sw.js``, the worker. Served from the site's root it may control
  any page below it; the pages register it for ``/r/``, for ``/Q/`` and for the root
  (``static/offline.js``); it answers only for the pages it keeps (below), so the table pages,
  which must be live, always come from the network.
- ``/r/<game>/offline.json`` is the game's offline manifest (:func:`offline_manifest`): every
  URL a player needs with no network (the game page, each card's page, the game's other
  rulings pages, the static files they use), the page each of the game's short card codes
  opens (a printed QR code's ``/Q/<CODE>``: with no network the worker redirects it to that
  saved page) and a version that changes when any of them may have changed. "Save this game for offline" on the game page asks the worker to fetch it and
  cache every URL it lists under a cache named after the game and that version.

- ``/offline.json`` is the site's own manifest (:func:`site_manifest`): the start page, a search
  page that searches in the phone (``/search/offline``: every card listed, ``static/companion.js``
  filters them by the address's ``?q=&game=``, as on the static export's search page) and the
  static files. The worker saves them when it is installed and again with each game saved, so the
  installed app opens offline to its start page, and a search with no network is answered by
  that page (the search's own address kept, so the phone filters by it). The pages register the
  worker for the site's root too; it answers only for the start page, the search, ``r/``, ``Q/``
  and the static files, never for a table.

The static export (:mod:`companion.cards.site`) writes all three as files (``sw.js`` and
``offline.json`` at the site's root, ``r/<game>/offline.json``), with URLs relative to the
manifest, so a static HTTPS host gives the same offline pages (its search page already searches
in the phone).

Browsers run service workers only in a secure context (HTTPS, or ``http://localhost``); over
plain ``http://192.168...`` on the home network the game page says that saving for offline is
not available there instead of offering a button.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, render_template, send_from_directory

from card_data.loader import Game
from card_data.editions.printings import printed_versions
from card_data.project.project_folders import is_game_data
from card_data.editions.short_codes import printed_cards
from companion.cards.catalog import all_cards, get_database, get_game_or_404
from companion.web.language import LANGUAGES, force_locale
from companion.cards.links import page_url
from companion.cards.short_links import target_endpoint

bp = Blueprint("offline", __name__)

WORKER_FILE = "sw.js"
"""The worker script, in ``companion/static/``."""
ASSET_SUFFIXES = frozenset({".css", ".js", ".png", ".svg", ".ico", ".webp", ".woff", ".woff2"})
"""Static files a page may load; licences and notes (``.md``, ``LICENSE``) stay out of the cache."""
_VERSIONS = "companion.cards.offline.versions"


@bp.get("/sw.js")
def worker():
    """The service worker script. ``no-cache``: the browser checks for a new worker on every
    visit, so a fixed worker reaches the phones at once rather than after a day."""
    response = send_from_directory(current_app.static_folder, WORKER_FILE, mimetype="text/javascript",
                                   max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/r/<game>/offline.json")
def manifest(game: str):
    """The offline manifest of ``game`` (see :func:`offline_manifest`); 404 for an unknown game."""
    response = current_app.json.response(offline_manifest(get_game_or_404(game)))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline.json")
def site_manifest_route():
    """The site's offline manifest (see :func:`site_manifest`)."""
    response = current_app.json.response(site_manifest())
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/search/offline")
def offline_search():
    """The search page a phone keeps for searching with no network: every card, filtered in the
    browser by the address's ``?q=&game=`` (``static/companion.js``); without JavaScript, the
    whole list. Rulings are not searched here: it links each game's rulings page."""
    return render_template("search.html", query="", game_id="", hits=all_cards(), ruling_hits=[],
                           filter_in_browser=True)


@bp.get("/offline/not-saved/<lang>.html")
def not_saved_page(lang: str):
    """The page the worker shows for a page it has no copy of while the companion cannot be
    reached, in language ``lang`` (a code of :data:`~companion.web.language.LANGUAGES`; 404 for
    another): it keeps one per language (:func:`site_manifest`'s ``notSaved``) and shows the
    one of the language of the last page this phone showed. Served 200 here; the worker
    answers it as 503."""
    if lang not in LANGUAGES:
        abort(404)
    with force_locale(lang):
        return render_template("offline_not_saved.html")


def not_saved_urls() -> dict[str, str]:
    """``{language code: URL}`` of :func:`not_saved_page` in every language, live only: a static
    export is in English and has no such page (its worker writes its own, in English)."""
    if current_app.config.get("STATIC_EXPORT"):
        return {}
    return {code: page_url("offline.not_saved_page", lang=code) for code in LANGUAGES}


def offline_search_url() -> str:
    """The page that searches in the phone, in the request's link style: ``/search/offline``
    live; in a static export its own search page, which already does."""
    if current_app.config.get("STATIC_EXPORT"):
        return page_url("browse.search")
    return page_url("offline.offline_search")


def site_manifest() -> dict:
    """``{"version": str, "urls": [start page, search page, static files..., not-saved pages],
    "search": url, "notSaved": {language code: url}}``: what the worker keeps so that the
    installed app opens with no network (the start page), searches (``search``, the page
    :func:`offline_search_url` gives, answering every search address offline) and says, in the
    page's language, that a page is not saved (``notSaved``, :func:`not_saved_urls`). URLs in
    the request's link style; ``version`` (16 hex characters) changes with the templates, the
    static files and the card data of every game."""
    app = current_app._get_current_object()
    search = offline_search_url()
    not_saved = not_saved_urls()
    urls = [page_url("browse.index"), search, *(page_url("static", filename=name) for name in asset_files(app)),
            *not_saved.values()]
    listed = [content_version(app, game) for game in get_database().games.values()] + urls
    version = hashlib.sha256("\n".join(listed).encode()).hexdigest()[:16]
    return {"version": version, "urls": urls, "search": search, "notSaved": not_saved}


def game_page_endpoints(app: Flask) -> tuple[list[str], list[str]]:
    """The rulings blueprint's page endpoints: ``(per game, per card)``, sorted.

    A per-game page is a GET route whose only argument is ``game`` (the game page, and any
    other rulings page of the game); a per-card page takes ``game`` and ``card_id``. Found from
    the app's routes, so a rulings page added later is saved for offline without a change here.
    """
    per_game, per_card = set(), set()
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("rulings.") or "GET" not in (rule.methods or ()):
            continue
        if rule.arguments == {"game"}:
            per_game.add(rule.endpoint)
        elif rule.arguments == {"game", "card_id"}:
            per_card.add(rule.endpoint)
    # The game page first: it is the one a player saves from and opens first.
    return sorted(per_game, key=lambda e: (e != "rulings.game_page", e)), sorted(per_card)


def asset_files(app: Flask) -> list[str]:
    """The static files pages may load (by :data:`ASSET_SUFFIXES`), as paths under
    ``static/`` (``"pico/pico.min.css"``), sorted; the worker script itself is left out."""
    root = Path(app.static_folder)
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*")
                  if path.is_file() and path.suffix.lower() in ASSET_SUFFIXES and path.name != WORKER_FILE)


def offline_urls(game: Game) -> list[str]:
    """Every URL the phone needs to read ``game``'s rulings with no network, in the current
    request's link style (app-absolute live, relative to the manifest in a static export):
    the game's pages, each card's pages in file order (with the page of each version its
    printed QR codes may carry), then the static files."""
    app = current_app._get_current_object()
    per_game, per_card = game_page_endpoints(app)
    urls = [page_url(endpoint, game=game.game_id) for endpoint in per_game]
    for card_id in game.cards:
        urls.extend(page_url(endpoint, game=game.game_id, card_id=card_id) for endpoint in per_card)
        # The pages the printed QR codes open in a game with versions (see card_data.editions.printings).
        urls.extend(page_url("rulings.card_version_page", game=game.game_id, card_id=card_id, version=version)
                    for version in printed_versions(game.printings, game.cards[card_id]))
    urls.extend(page_url("static", filename=name) for name in asset_files(app))
    return urls


def content_version(app: Flask, game: Game) -> str:
    """A short hex digest (16 characters) of everything ``game``'s pages are made from: its
    data folder, the templates and the static files (names and bytes).

    The card data and templates are read once when the app starts, so the digest is worked out
    once per app and game. A new version tells the phones that saved the game to save it again.
    """
    versions: dict[str, str] = app.extensions.setdefault(_VERSIONS, {})
    if game.game_id not in versions:
        digest = hashlib.sha256()
        for label, root in (("data", game.folder), ("templates", Path(app.root_path) / "templates"),
                            ("static", Path(app.static_folder))):
            # A bundled game's folder is its Python package too: its data only.
            for path in sorted(p for p in Path(root).rglob("*")
                               if p.is_file() and (label != "data" or is_game_data(p.relative_to(root)))):
                digest.update(f"{label}/{path.relative_to(root).as_posix()}\0".encode())
                digest.update(hashlib.sha256(path.read_bytes()).digest())
        versions[game.game_id] = digest.hexdigest()[:16]
    return versions[game.game_id]


def offline_codes(game: Game) -> dict[str, str]:
    """``{code: url}``: the page each short code of ``game``'s printed cards opens
    (:mod:`companion.cards.short_links`), in the current request's link style."""
    codes = {}
    for card in printed_cards(game):
        endpoint, values = target_endpoint(card)
        codes[card.code] = page_url(endpoint, **values)
    return codes


def offline_manifest(game: Game) -> dict:
    """``{"game": id, "title": str, "version": str, "urls": [url, ...], "codes": {code: url}}``
    for ``game`` (:func:`offline_urls`, :func:`offline_codes`; ``version`` from
    :func:`content_version`, the URL list and the codes). The worker resolves each URL against
    the manifest's own address."""
    urls = offline_urls(game)
    codes = offline_codes(game)
    listed = [content_version(current_app, game), *urls, *(f"{code} {url}" for code, url in codes.items())]
    version = hashlib.sha256("\n".join(listed).encode()).hexdigest()[:16]
    return {"game": game.game_id, "title": game.info.title, "version": version, "urls": urls, "codes": codes}


def init_app(app: Flask) -> None:
    """Register the worker and manifest routes (live and in a static export alike) and give
    templates ``offline_worker_url()`` (the worker's URL in the page's link style)."""
    app.register_blueprint(bp)
    app.add_template_global(offline_worker_url)


def offline_worker_url() -> str:
    """The worker's URL for the page being rendered (``/sw.js`` live, relative in an export)."""
    return page_url("offline.worker")
