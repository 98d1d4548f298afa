"""The player's language: which one a page is in, and the switcher that remembers a choice.

The interface is translated with gettext catalogues (Flask-Babel): the shared one,
``companion/translations/<lang>/LC_MESSAGES/messages.po`` (the companion's own words and the
engine core's), and each registered game's, ``<game folder>/translations/<lang>/LC_MESSAGES/
messages.po`` (its rule engine's words, its scorekeeper page), each compiled to ``messages.mo``
beside it (all committed; ``tests/test_languages.py`` fails when a ``.mo`` is older than its
``.po`` or a message of the templates or code has no translation). The app reads them all as one
(:func:`translation_directories`). A page's language is, in order:

1. the language the player chose with the switcher (the ``lang`` cookie, a year long);
2. the best match of the browser's ``Accept-Language`` among :data:`LANGUAGES`;
3. English, the language the interface and the card data are written in.

Responses that depend on it say so (``Vary: Accept-Language, Cookie``), so that a shared cache
does not hand a German page to an English phone. A static export (``printkit site``) is written
in English: it has no server to read a header or a cookie.

To add or update strings: mark them (``_("...")`` in templates, :func:`flask_babel.gettext`
in code), then run ``tools/translations.sh`` (extract, update the catalogues, compile).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from babel.support import NullTranslations
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    g,
    has_app_context,
    has_request_context,
    redirect,
    request,
)
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from flask_babel import force_locale as babel_force_locale

from card_data.engine.wording import Words
from card_data.games import registry
from companion.web import time_zone

#: Interface languages: code -> the language's name in itself (what the switcher shows).
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch"}
DEFAULT_LANGUAGE = "en"
COOKIE = "lang"
COOKIE_MAX_AGE_S = 365 * 24 * 3600

bp = Blueprint("language", __name__)


SHARED_TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
"""The shared catalogue's folder (``<lang>/LC_MESSAGES/messages.mo`` below it)."""


def translation_directories() -> list[Path]:
    """The folders of every catalogue the companion reads, in the order Flask-Babel merges them:
    each registered game's ``translations/`` holding a compiled catalogue (``<lang>/LC_MESSAGES/
    messages.mo``), in registry order, then :data:`SHARED_TRANSLATIONS` last, so that a message
    the shared catalogue has is always its translation (an installed game's catalogue cannot
    change the companion's words). The bundled games' catalogues have no message in common
    (``tools/translations.sh`` keeps a shared message in the shared catalogue).

    A game found through :func:`card_data.games.registry` (bundled or installed), never listed
    here; a namespace package (no folder) or a game without catalogues is left out.
    """
    folders = []
    for entry in registry().values():
        init_file = getattr(entry.package, "__file__", None)
        if init_file is None:
            continue
        folder = Path(init_file).resolve().parent / "translations"
        if any(folder.glob("*/LC_MESSAGES/messages.mo")):
            folders.append(folder)
    return [*folders, SHARED_TRANSLATIONS]


def select_language() -> str:
    """The language code of this request's page (see the module docstring for the order).

    Only codes in :data:`LANGUAGES` are ever returned; an unknown cookie value is ignored.
    """
    if current_app.config.get("STATIC_EXPORT"):
        return DEFAULT_LANGUAGE
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    # The header's languages, best first, by their primary subtag: werkzeug's best_match prefers
    # any exact match, so "en-GB, de;q=0.5" would give German and "de-AT, en;q=0.5" English.
    # A quality of 0 means "not this one".
    for value, quality in request.accept_languages:
        primary = value.split("-", 1)[0].lower()
        if quality > 0 and primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def current_language() -> str:
    """The language code the current page is rendered in, e.g. ``"de"``."""
    return str(get_locale() or DEFAULT_LANGUAGE)


DATA_WORDS = "companion_data_words"
"""Key in :data:`flask.g` of the page's ``{printed text: translated text}``: the card titles and
texts of the page's game that its data translates into the page's language (set by
:func:`companion.cards.translated_data.speak_data_of`)."""


LABEL_WORDS = "companion_label_words"
"""Key in :data:`flask.g` of the page's game's own words in the page's language (its translation's
``words:``, English -> translated): the labels a card page and a table show of a game declared
in data (fields, card types, counters), which no catalogue knows (set with :data:`DATA_WORDS`)."""


PAGE_TRANSLATIONS = "companion_translations"
"""Attribute of :data:`flask.g` holding the request's merged catalogue (see :func:`translations`)."""


def translations() -> NullTranslations:
    """The merged catalogue of the current page's language (Flask-Babel's own, from
    :func:`flask_babel.get_translations`), looked up once per request.

    Flask-Babel looks the request's context, domain and locale up again for every string (and
    turns the locale into its name for the cache key): a table page says a few hundred strings,
    and that look-up cost more than the strings. A block that says things in another language
    uses :func:`force_locale` (this module's, which drops the kept catalogue on entering and
    leaving). Outside a request: Flask-Babel's answer (no translation)."""
    try:
        return getattr(g, PAGE_TRANSLATIONS)
    except AttributeError:
        kept = get_translations()
        setattr(g, PAGE_TRANSLATIONS, kept)
        return kept
    except RuntimeError:  # no app context
        return get_translations()


@contextmanager
def force_locale(locale: str) -> Iterator[None]:
    """:func:`flask_babel.force_locale` (say things in ``locale``, e.g. ``"de"``, within the
    block) for the companion's catalogue look-ups too (:func:`translations`)."""
    with babel_force_locale(locale):
        _forget_translations()
        try:
            yield
        finally:
            _forget_translations()


def _forget_translations() -> None:
    if has_app_context():
        g.pop(PAGE_TRANSLATIONS, None)


def gettext(string: str, **variables: Any) -> str:
    """``string`` in the page's language, filled with ``variables`` (``%(name)s``), as
    :func:`flask_babel.gettext` does, through the request's catalogue (:func:`translations`)."""
    said = translations().ugettext(string)
    return said % variables if variables else said


@pass_context
def template_gettext(context: Context, string: str, **variables: Any) -> str:
    """The templates' ``_(string, **variables)`` and ``{% trans %}``: ``string`` in the page's
    language (:func:`translations`), markup-safe where the template autoescapes (its variables
    then escaped as they are filled in), filled with ``variables`` as Jinja's "newstyle"
    gettext does: a translation is a format string even without variables, so a ``%`` in one
    still goes through ``%`` (``%%`` reads as ``%``)."""
    said = translations().ugettext(string)
    if context.eval_ctx.autoescape:
        said = Markup(said)
    return said % variables if variables or "%" in said else said


def say(text: Any) -> Any:
    """``text`` in the page's language: a :class:`~card_data.engine.wording.Words` from a rule
    engine or the table service is looked up in the catalogue by its English template and
    filled with its params (themselves said in turn); a plain ``str`` that is a card title or
    text the page's game data translates (:data:`DATA_WORDS`) is its translation; any other
    value is returned as it is. Also the template filter ``say``."""
    if not isinstance(text, Words):
        if isinstance(text, str) and has_request_context():
            return g.get(DATA_WORDS, {}).get(text, text)
        return text
    if not text.params:
        return gettext(text.template)
    return gettext(text.template, **{name: say(value) for name, value in text.params.items()})


def _safe_next(target: str | None) -> str:
    """``target`` if it is a path on this site, else the site's root: the switcher must not
    redirect anywhere else (an open redirect)."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


@bp.post("/language")
def choose_language() -> Response:
    """The switcher's form: remember ``lang`` (a code of :data:`LANGUAGES`) in a cookie and go
    back to ``next`` (a path on this site). 400 for an unknown language."""
    code = request.form.get("lang", "")
    if code not in LANGUAGES:
        abort(400, description=f"Unknown language {code!r}; this companion speaks "
                               f"{', '.join(LANGUAGES)}.")
    response = redirect(_safe_next(request.form.get("next")), code=303)
    response.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE_S, samesite="Lax",
                        secure=request.is_secure, httponly=True)
    return response


def _vary(response: Response) -> Response:
    """``after_request``: pages differ by ``Accept-Language`` and the ``lang`` cookie."""
    if response.mimetype == "text/html":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def init_app(app: Flask) -> None:
    """Install Flask-Babel with :func:`select_language`, the phone's time zone
    (:mod:`companion.web.time_zone`) and every catalogue
    (:func:`translation_directories`), the switcher's route (live server only) and the template
    globals ``current_language()`` and ``languages``."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    # Flask-Babel (4.x) reads ';'-separated folders and merges their catalogues, later ones winning.
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES",
                          ";".join(str(folder) for folder in translation_directories()))
    # One Babel per app: Flask-Babel caches the merged catalogues on the instance, and two apps
    # in one process (tests, a project's companion beside the bundled one) may read different ones.
    Babel(app, locale_selector=select_language, timezone_selector=time_zone.select_time_zone)
    # The templates' _(), ngettext() and {% trans %} through the request's catalogue, looked up
    # once (Flask-Babel installs the same callables looking it up for every string).
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
        newstyle=True,
    )
    # _() and {% trans %} call one function (the extension's _() calls its gettext through the
    # context), the commonest calls each page makes: a table's live fragment makes ~170.
    app.jinja_env.globals.update(gettext=template_gettext, _=template_gettext)
    time_zone.init_app(app)
    app.add_template_global(current_language, "current_language")
    app.add_template_global(LANGUAGES, "languages")
    app.add_template_filter(say, "say")
    app.after_request(_vary)
    if not app.config.get("STATIC_EXPORT"):
        app.register_blueprint(bp)
