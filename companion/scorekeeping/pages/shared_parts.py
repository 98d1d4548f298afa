"""Parts of a table's live fragment that every phone at the table sees alike, rendered once per
table version and shared between the phones polling it.

A table's live fragment (``tables/_live.html``) is polled by every phone at the table each
second and changes with every entry; most of it (the history, the game's own ``table.html``)
does not depend on which phone asks, only on the table's version, the page's language and the
phone's time zone. :class:`SharedParts` keeps such a part's HTML under that key; a part whose
template reads what differs between phones (its seat, its moves, a refusal, the request) is
rendered for each request instead, so a game's ``table.html`` may use them.

The one thing in a shared part that is the phone's own is its forms' CSRF token (the session's,
signed): the part keeps the token it was rendered with, and each request gets it with its own.

A phone's moves (its forms, ``tables/_moves.html``) are the phone's seat's, so not one part for
the whole table; but a seat's forms mostly stay the same from one entry to the next, but for the
version each form carries. :meth:`SharedParts.render_moves` keeps them by what they hold (a
digest of the moves themselves, their URLs, the language and time zone), rendered with a mark
where the version goes, which each request fills in with its own; so does
:meth:`SharedParts.render_move_form` for one form (a counter's − or +). A designer's declared
game, whose event classes are made as its game.yaml is read, is kept alike (:func:`content_digest`).

A game's own table page changes with every entry as a whole, but most of its blocks change with
few entries (Carpe Diem's scoring cards, what each player owns): ``{% call kept("name", value,
...) %}`` around a block that shows only those values keeps it by them (:func:`kept`).

The history lists up to 50 entries and changes with every entry, but each entry's line stays
the same until it is undone or corrected: :meth:`SharedParts.render_entries` keeps each line by
the fold's lines mark (which changes with an undo or a correction), the seats' colours and the
language, so a new version draws one new line and takes the others from the store.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import pickle
import types
from collections import OrderedDict
from collections.abc import Callable, Sequence
from threading import Lock
from typing import Any

import jinja2.meta
from flask import current_app, g, request
from markupsafe import Markup

from companion.web.language import current_language
from companion.web.time_zone import phone_zone

CAPACITY = 1024
"""Parts kept per process (least recently used go first): a part is a few kB, so at most a few MB."""
ENTRY_CAPACITY = 8192
"""History lines kept per process (least recently used go first): a line is under 1 kB, so at
most a few MB; 50 shown at each of 160 busy tables."""

VIEWER_NAMES = frozenset({"seat", "seat_chosen", "my_moves", "other_moves", "refusal", "retry", "request",
                          "session", "g"})
"""Context names that differ between the phones at one table version: a template that reads
any of them is not shared."""

MOVES_TEMPLATE = "tables/_moves.html"
"""The template whose ``moves_list`` macro draws a list of moves as forms."""
VERSION_MARK = Markup("<companion-version>")
"""What a shared list of forms holds where each form's table version goes (filled in per
request): markup, so written as it is, where any text from outside (a player's name) has its
``<`` escaped and so can never read the same."""


def viewing() -> tuple[str, str | None, str]:
    """What a shared part's HTML depends on besides its own content and table: the page's
    language, the phone's time zone and the app's root path. A page works it out once and
    passes it to each :class:`SharedParts` call (a history asks for up to 50 lines)."""
    return current_language(), phone_zone(), request.script_root


EXTENSION = "companion.scorekeeping.pages.shared_parts"
"""Key in ``app.extensions`` of the app's :class:`SharedParts` (see :func:`shared_parts`)."""


def shared_parts() -> SharedParts:
    """The current app's :class:`SharedParts`, made on first use."""
    return current_app.extensions.setdefault(EXTENSION, SharedParts())


def kept(name: str, *values: Any, caller: Callable[[], str]) -> Markup:
    """The template global behind ``{% call kept("name", value, ...) %}...{% endcall %}`` in a
    game's table page: the block drawn once for the same ``values`` (compared by content) in
    the same language and time zone, whatever the table version, then taken from the store
    (:meth:`SharedParts.render_block`). The block must show nothing but what ``values`` hold
    (and the page's language): a part of the page that changes with few of the table's
    entries (the cards laid out, what each player owns) is then drawn only when it changes.
    ``name`` tells the page's blocks apart. Raises what rendering raises."""
    return shared_parts().render_block(name, values, lambda: str(caller()))


def content_digest(value: Any) -> bytes | None:
    """A 32-byte digest of ``value`` (moves, URLs, labels...) by content: of its pickle, in which
    a class stands for its module, qualified name and ``type_name`` (its name in the log) and a
    read-only mapping for its items; ``None`` for a value that cannot be pickled even so (a
    function made on the fly in it).

    A declared game's event classes are made when its game.yaml is read, so they cannot be
    pickled by reference as a bundled game's are; the forms drawn of a move read its class only
    for its ``type_name``, so two such classes of one name draw alike. Plain pickling is tried
    first (the faster, taking most values)."""
    unpicklable = (pickle.PicklingError, TypeError, AttributeError)
    try:
        content = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except unpicklable:
        buffer = io.BytesIO()
        try:
            _ClassesByName(buffer, pickle.HIGHEST_PROTOCOL).dump(value)
        except unpicklable:
            return None
        content = buffer.getvalue()
    return hashlib.blake2b(content, digest_size=32).digest()


class _ClassesByName(pickle.Pickler):
    """A pickler that writes a class as its module, qualified name and ``type_name`` (see
    :func:`content_digest`), and a read-only mapping (a game state's ``ReadOnlyDict``, a
    ``mappingproxy``) as the dict it shows: for a digest only, never to be read back."""

    dispatch_table = {**copyreg.dispatch_table, types.MappingProxyType: lambda mapping: (dict, (dict(mapping),))}

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, type):
            type_name = getattr(obj, "type_name", None)  # a class's property of that name is no name
            return obj.__module__, obj.__qualname__, type_name if isinstance(type_name, str) else None
        return None


class SharedParts:
    """Rendered template parts keyed by table version, language, time zone and template,
    bounded to ``capacity`` entries; safe to use from several threads."""

    def __init__(self, capacity: int = CAPACITY, entry_capacity: int = ENTRY_CAPACITY):
        self.capacity = capacity
        self.entry_capacity = entry_capacity
        self._parts: OrderedDict[tuple, tuple[str, str | None]] = OrderedDict()
        self._entries: OrderedDict[tuple, tuple[str, str | None]] = OrderedDict()
        self._per_viewer: dict[str, bool] = {}
        self._lock = Lock()

    def render(self, name: str, context: dict[str, Any], table_id: int, version: int,
               where: tuple | None = None) -> Markup:
        """The template ``name`` rendered with ``context`` (a template context as
        :func:`flask.render_template` takes it) for the table ``table_id`` at ``version``: from
        the store when a phone asked for it in the same language and time zone before.
        Raises what rendering raises (:mod:`jinja2` errors)."""
        if self._reads_viewer(name):
            return Markup(self._render(name, context))
        key = (name, table_id, version, *(where or viewing()))
        return Markup(self._kept(key, lambda: self._render(name, context)))

    def render_moves(self, moves: Sequence[Any], post_url: str, version: int, preview_url: str | None,
                     open_first: bool = True, where: tuple | None = None) -> Markup:
        """``moves`` (:class:`card_data.engine.Move` objects) as ``tables/_moves.html``'s
        ``moves_list`` draws them for the table version ``version``: from the store when the
        same moves (compared by content: see :func:`content_digest`) were drawn before with the
        same URLs in the same language and time zone, at whatever version. Raises what
        rendering raises (:mod:`jinja2` errors)."""
        moves = tuple(moves)
        return self._by_content(("moves_list", moves, post_url, preview_url, open_first), version, where,
                                lambda: self._render_macro("moves_list", list(moves), post_url, VERSION_MARK,
                                                           preview_url, open_first=open_first))

    def render_move_form(self, move: Any, post_url: str, version: int, button: str | None = None,
                         extra_class: str = "", where: tuple | None = None) -> Markup:
        """One move (a :class:`card_data.engine.Move`) as ``tables/_moves.html``'s ``move_form``
        draws it for the table version ``version`` (``button``: the button's text in place of
        the move's label; ``extra_class``: the form's classes besides ``event-form``), kept by
        content as :meth:`render_moves` keeps a list: a counter's − and + stay the same from one
        entry to the next. Raises what rendering raises (:mod:`jinja2` errors)."""
        return self._by_content(("move_form", move, post_url, button, extra_class), version, where,
                                lambda: self._render_macro("move_form", move, post_url, VERSION_MARK,
                                                           button=button, extra_class=extra_class))

    def render_block(self, name: str, values: tuple, draw: Callable[[], str], where: tuple | None = None) -> Markup:
        """``draw()``, the block ``name`` of a game's table page that shows only ``values`` (see
        :func:`kept`), kept under a digest of ``values`` with the language and time zone
        (drawn each time where the values have none). Raises what ``draw`` raises."""
        return Markup(self._kept_by_content((name, values), where, draw))

    def _by_content(self, content: tuple, version: int, where: tuple | None, draw: Callable[[], str]) -> Markup:
        """``draw()`` (HTML with :data:`VERSION_MARK` where the version goes), kept by ``content``
        (:meth:`_kept_by_content`), with ``version`` filled in."""
        return Markup(self._kept_by_content(content, where, draw).replace(VERSION_MARK, str(version)))

    def _kept_by_content(self, content: tuple, where: tuple | None, draw: Callable[[], str]) -> str:
        """``draw()`` kept under the digest of ``content`` (:func:`content_digest`) with the
        language and time zone, or drawn each time where ``content`` has no digest."""
        digest = content_digest(content)
        return draw() if digest is None else self._kept((digest, *(where or viewing())), draw)

    def render_entries(self, macro: Callable[[Any], str], lines: Sequence[Any], table_token: str, lines_mark: int,
                       colours: Sequence[str], problem_seq: int | None, where: tuple | None = None) -> Markup:
        """``macro(line)`` for each of ``lines`` (history lines,
        :class:`~companion.scorekeeping.table_view.HistoryLine`) of the table ``table_token``,
        joined, as the history's ``entry`` macro draws a line given the seats' ``colours`` and
        the seq of the entry the table could not apply (``problem_seq``): each line from the
        store when drawn before at the same ``lines_mark``
        (:attr:`~companion.scorekeeping.table_view.TableView.lines_mark`: the same status and
        text), with the same colours, the same word on whether it could be applied, in the same
        language. ``where``: :func:`viewing` (worked out here if not given)."""
        where = where or viewing()
        colours = tuple(colours)
        keys = [(table_token, lines_mark, line.seq, line.seq == problem_seq, colours, *where) for line in lines]
        found = self._found(keys, self._entries)  # one lock for up to 50 lines
        return Markup("".join(
            self._drawn(key, lambda line=line: str(macro(line)), self._entries, self.entry_capacity)
            if html is None else html
            for key, line, html in zip(keys, lines, found)))

    def _kept(self, key: tuple, render: Callable[[], str], store: OrderedDict | None = None,
              capacity: int | None = None) -> str:
        """The HTML kept under ``key`` in ``store`` (default: the parts), with this request's
        CSRF token, or ``render()``'s, kept (the least recently used dropped past ``capacity``)."""
        store = self._parts if store is None else store
        html = self._found([key], store)[0]
        if html is not None:
            return html
        return self._drawn(key, render, store, self.capacity if capacity is None else capacity)

    def _found(self, keys: list[tuple], store: OrderedDict) -> list[str | None]:
        """The HTML kept under each of ``keys`` in ``store`` with this request's CSRF token
        (``None`` where none is), marked as used, under one lock."""
        with self._lock:
            found = [store.get(key) for key in keys]
            for key, kept in zip(keys, found):
                if kept is not None:
                    store.move_to_end(key)
        return [None if kept is None else kept[0] if kept[1] is None else kept[0].replace(kept[1], _csrf_token())
                for kept in found]

    def _drawn(self, key: tuple, render: Callable[[], str], store: OrderedDict, capacity: int) -> str:
        """``render()``, kept under ``key`` in ``store`` with the CSRF token it holds (the least
        recently used dropped past ``capacity``)."""
        html = render()
        token = g.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
        with self._lock:
            store[key] = (html, token if token and token in html else None)
            while len(store) > capacity:
                store.popitem(last=False)
        return html

    def _render_macro(self, name: str, *args: Any, **kwargs: Any) -> str:
        """The macro ``name`` of :data:`MOVES_TEMPLATE` called with ``args`` and ``kwargs``."""
        macro = getattr(current_app.jinja_env.get_template(MOVES_TEMPLATE).module, name)
        return str(macro(*args, **kwargs))

    def _render(self, name: str, context: dict[str, Any]) -> str:
        full = dict(context)
        current_app.update_template_context(full)
        return current_app.jinja_env.get_template(name).render(full)

    def _reads_viewer(self, name: str) -> bool:
        """Whether template ``name`` itself reads a name of :data:`VIEWER_NAMES` (its imported
        macros see only the globals)."""
        known = self._per_viewer.get(name)
        if known is None:
            env = current_app.jinja_env
            source = env.loader.get_source(env, name)[0]
            known = bool(jinja2.meta.find_undeclared_variables(env.parse(source)) & VIEWER_NAMES)
            self._per_viewer[name] = known
        return known


def _csrf_token() -> str:
    from flask_wtf.csrf import generate_csrf

    return generate_csrf()
