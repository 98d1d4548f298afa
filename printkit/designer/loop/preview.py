"""``printkit preview``: a local web page showing every card as printed, refreshed on each save.

On each (re)build the selected games are laid out by the print templates, and each game's
faces drawn into one PDF (one card per page, trim plus printkit's bleed, every back once):
the same drawing code as the card sheets. Each card's PNG is rendered from that PDF by pdfium
when the page asks for it (and kept until the next rebuild). A broken save keeps the last
good cards on the page and lists the problems above them, as ``FILE:LINE: game/id: field:
message``.

The page asks ``/version`` every second and reloads itself when the number changed. Polling
instead of server-sent events keeps the server the standard library's
:class:`http.server.ThreadingHTTPServer`: a stream held open per tab would need an
asynchronous server for nothing, as one poll a second from one designer's browser costs
nothing. The server listens on 127.0.0.1 only: the preview is for the designer's own machine.
It answers only requests whose ``Host`` is one of :data:`LOOPBACK_HOSTS` (or a name allowed
with ``--allow-host``) with the server's port, so that a web page elsewhere cannot read the
cards through a name of its own that it points at 127.0.0.1 (DNS rebinding); any other gets
403 and reads nothing.

Routes: ``/`` the page; ``/version`` ``{"version": n, "problems": k}``;
``/card/<game>/<card-id>.png`` and ``/back/<game>/<kind>.png`` (``?dpi=`` 50-600, default
150); ``/pdf/<game>.pdf`` the preview PDF.
"""

from __future__ import annotations

import html
import ipaddress
import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

from card_data.project.limits import limits_in_force
from card_data.loader import check_database
from card_data.problems import Problem
from printkit.build_options import BLEED_MM, BuildOptions
from printkit.designer.exports.export import faces_pdf, png_bytes, rasterise_pdf
from printkit.designer.loop.project import ProjectPaths
from printkit.pipeline.card_faces import GameLayouts
from printkit.pipeline.load import select_games
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.templating.template_sandbox import forget_compiled_templates

DEFAULT_PORT = 8765
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
"""Host names the preview always answers to (with its port)."""
PREVIEW_DPI = 150
"""Resolution of the page's card images: a poker card with bleed is 410 x 560 px."""


@dataclass
class GamePreview:
    """One game's preview: its PDF and which page shows which face."""

    game_id: str
    title: str
    pdf: bytes
    fronts: dict[str, int]
    """card id -> 0-based page."""
    backs: dict[str, int]
    """back kind -> 0-based page."""
    card_titles: dict[str, str]


@dataclass
class PreviewState:
    """What the page shows: the last good previews, the last build's problems, a version that
    grows by one on every rebuild (good or broken). Thread-safe through ``lock``."""

    version: int = 0
    games: dict[str, GamePreview] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _png: dict[tuple, bytes] = field(default_factory=dict)

    def png(self, game_id: str, page: int, dpi: int) -> bytes:
        """The PNG of ``page`` of ``game_id``'s preview PDF at ``dpi`` (cached per version).
        Raises ``KeyError`` for an unknown game."""
        with self.lock:
            preview, version = self.games[game_id], self.version
            cached = self._png.get((version, game_id, page, dpi))
        if cached is not None:
            return cached
        data = png_bytes(rasterise_pdf(preview.pdf, dpi, [page])[0], dpi)
        with self.lock:
            if self.version == version:
                self._png[(version, game_id, page, dpi)] = data
        return data


@limits_in_force()  # the project's: its artwork and templates are checked against them
def render_previews(paths: ProjectPaths, base_url: str, games: Iterable[str] = ()
                    ) -> tuple[dict[str, GamePreview], list[Problem]]:
    """Lay out the selected games (default all) of ``paths`` and draw each into its preview PDF.

    Returns ``(previews by game id, problems)``; a game with any problem (in its data or its
    layouts) gets no preview. Artwork and templates are checked against the limits of the
    project's ``printkit.toml`` as it is at this call.
    """
    forget_compiled_templates()  # a template too slow last time is tried again
    db, problems = check_database(paths.data_dir)
    selected = select_games(db, games, problems)
    options = BuildOptions(paper=paper_by_name("letter"), base_url=base_url)
    previews: dict[str, GamePreview] = {}
    for game in selected:
        game_problems: list[Problem] = []
        layouts = GameLayouts(game, options, paths.templates_dir, game_problems)
        faces, fronts, backs, titles = [], {}, {}, {}
        for kind in game.info.backs:
            cards = [c for c in game.cards.values() if c.back_kind() == kind]
            if not cards:
                continue
            for card in cards:
                face = layouts.front(card)
                if face is not None:
                    fronts[card.id] = len(faces)
                    titles[card.id] = card.title
                    faces.append(face)
            back = layouts.back(kind)
            if back is not None:
                backs[kind] = len(faces)
                faces.append(back)
        problems += game_problems
        # A problem in the game's data (a file that did not parse, a card that failed its
        # schema) leaves cards out of the database: drawing the rest would hide them, so the
        # game keeps its last good preview instead.
        if any(p.game == game.game_id for p in problems) or not faces:
            continue
        size = game.info.card_size
        pdf = faces_pdf(faces, size.width_mm, size.height_mm, BLEED_MM, f"{game.info.title} – preview")
        previews[game.game_id] = GamePreview(game.game_id, game.info.title, pdf, fronts, backs, titles)
    return previews, sorted(problems)


def rebuild(state: PreviewState, paths: ProjectPaths, base_url: str, games: Iterable[str] = ()) -> list[Problem]:
    """Render the previews again and publish them in ``state`` (a game that now has problems
    keeps its last good preview). Returns the problems."""
    previews, problems = render_previews(paths, base_url, games)
    with state.lock:
        state.games.update(previews)
        state.problems = problems
        state.version += 1
        state._png.clear()
    return problems


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>printkit preview</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font-family: system-ui, sans-serif; margin: 1rem; background: #f4f4f4; color: #222; }}
.problems {{ background: #fff0f0; border: 2px solid #b00020; padding: .5rem 1rem; }}
.problems li {{ font-family: ui-monospace, monospace; white-space: pre-wrap; }}
.ok {{ color: #2e6b3a; }}
.cards {{ display: flex; flex-wrap: wrap; gap: 1rem; }}
figure {{ margin: 0; width: 205px; }}
figure img {{ width: 205px; box-shadow: 0 1px 4px #0004; background: #fff; }}
figcaption {{ font-size: .8rem; overflow-wrap: anywhere; }}
</style></head>
<body data-version="{version}">
<h1>printkit preview</h1>
<p>Version {version}. The page reloads when a saved file changes (cards shown with printkit's
{bleed:g} mm bleed; the trim is inside it).</p>
{problems}
{games}
<script>
(function () {{
  var shown = document.body.dataset.version;
  setInterval(function () {{
    fetch("/version", {{cache: "no-store"}}).then(function (r) {{ return r.json(); }})
      .then(function (v) {{ if (String(v.version) !== shown) {{ location.reload(); }} }})
      .catch(function () {{}});
  }}, 1000);
}})();
</script>
</body></html>
"""


def page_html(state: PreviewState) -> str:
    """The preview page for the current state."""
    with state.lock:
        version, games, problems = state.version, dict(state.games), list(state.problems)
    esc = html.escape
    if problems:
        items = "\n".join(f"<li>{esc(str(p))}</li>" for p in problems)
        block = (f'<section class="problems"><h2>{len(problems)} problem{"s" if len(problems) != 1 else ""}: '
                 f"the cards below are the last good build</h2><ul>\n{items}\n</ul></section>")
    else:
        block = '<p class="ok">No problems.</p>'
    sections = []
    for game_id, g in games.items():
        figures = [f'<figure><img src="/card/{esc(game_id)}/{esc(cid)}.png?v={version}" alt="{esc(g.card_titles[cid])}">'
                   f"<figcaption>{esc(cid)}</figcaption></figure>" for cid in g.fronts]
        figures += [f'<figure><img src="/back/{esc(game_id)}/{esc(kind)}.png?v={version}" alt="{esc(kind)} back">'
                    f"<figcaption>back: {esc(kind)}</figcaption></figure>" for kind in g.backs]
        sections.append(f'<section><h2>{esc(g.title)} <a href="/pdf/{esc(game_id)}.pdf">PDF</a></h2>'
                        f'<div class="cards">{"".join(figures)}</div></section>')
    return _PAGE.format(version=version, problems=block, games="\n".join(sections), bleed=BLEED_MM)


def split_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header as ``(name in lower case, port or None)``; ``None`` if it is not one
    (``[::1]:8765`` -> ``("[::1]", 8765)``)."""
    value = value.strip().lower()
    if value.startswith("["):
        inside, closed, rest = value[1:].partition("]")
        name = f"[{inside}]" if closed and inside else ""
    else:
        name, colon, rest = value.partition(":")
        rest = colon + rest
    if not name or (rest and not (rest.startswith(":") and rest[1:].isdigit() and len(rest) <= 6)):
        return None
    return name, int(rest[1:]) if rest else None


def host_name(value: str) -> str:
    """A host name or address to allow, as it appears in a ``Host`` header (an IPv6 address in
    brackets, lower case). Raises ``ValueError`` for one with a port or that is not a name."""
    value = value.strip().lower()
    try:
        if ipaddress.ip_address(value.strip("[]")).version == 6:
            return f"[{value.strip('[]')}]"
    except ValueError:
        pass
    parsed = split_host(value)
    if parsed is None or parsed[1] is not None or not all(c.isalnum() or c in ".-[]:" for c in parsed[0]):
        raise ValueError(f"{value!r} is not a host name (give it without a port)")
    return parsed[0]


class _Handler(BaseHTTPRequestHandler):
    state: PreviewState  # set on the per-server subclass
    allowed_hosts: frozenset[str]  # likewise: names answered to, with the server's port

    def _host_allowed(self) -> bool:
        hosts = self.headers.get_all("Host") or []
        parsed = split_host(hosts[0]) if len(hosts) == 1 else None
        if parsed is None:
            return False
        name, port = parsed
        server_port = self.server.server_address[1]
        # A browser leaves the port out of Host only for port 80.
        return name in self.allowed_hosts and (port == server_port or (port is None and server_port == 80))

    def log_message(self, format: str, *args) -> None:
        pass  # a request line a second would drown the rebuild messages

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if not self._host_allowed():
            host = (self.headers.get("Host") or "")[:100]
            self._send(HTTPStatus.FORBIDDEN, f"printkit preview does not answer to host {host!r}; start it with "
                                             f"--allow-host NAME to add a name\n".encode(), "text/plain; charset=utf-8")
            return
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path.split("/") if p]
        state = self.state
        try:
            if not parts:
                self._send(HTTPStatus.OK, page_html(state).encode("utf-8"), "text/html; charset=utf-8")
            elif parts == ["version"]:
                with state.lock:
                    data = {"version": state.version, "problems": len(state.problems)}
                self._send(HTTPStatus.OK, json.dumps(data).encode(), "application/json")
            elif len(parts) == 3 and parts[0] in ("card", "back") and parts[2].endswith(".png"):
                dpi = int(parse_qs(url.query).get("dpi", [PREVIEW_DPI])[0])
                if not 50 <= dpi <= 600:
                    raise ValueError("dpi must be 50-600")
                with state.lock:
                    preview = state.games[parts[1]]
                pages = preview.fronts if parts[0] == "card" else preview.backs
                self._send(HTTPStatus.OK, state.png(parts[1], pages[parts[2][:-4]], dpi), "image/png")
            elif len(parts) == 2 and parts[0] == "pdf" and parts[1].endswith(".pdf"):
                with state.lock:
                    pdf = state.games[parts[1][:-4]].pdf
                self._send(HTTPStatus.OK, pdf, "application/pdf")
            else:
                raise KeyError(url.path)
        except KeyError:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        except ValueError as exc:
            self._send(HTTPStatus.BAD_REQUEST, f"{exc}\n".encode(), "text/plain; charset=utf-8")


def make_server(state: PreviewState, port: int = DEFAULT_PORT, host: str = "127.0.0.1",
                allowed_hosts: Iterable[str] = ()) -> ThreadingHTTPServer:
    """An HTTP server for ``state`` on ``host:port`` (port 0: any free one; read
    ``server.server_address``), answering requests whose ``Host`` is one of
    :data:`LOOPBACK_HOSTS`, ``allowed_hosts`` (see :func:`host_name`) or ``host`` itself when it
    is not a loopback or wildcard address, with the server's port; any other gets 403. Raises
    ``OSError`` if the port is taken, ``ValueError`` for an allowed host that is not a name."""
    allowed = set(LOOPBACK_HOSTS) | {host_name(h) for h in allowed_hosts}
    try:
        address = ipaddress.ip_address(host)
        if not (address.is_loopback or address.is_unspecified):
            allowed.add(host_name(host))
    except ValueError:
        allowed.add(host_name(host))  # a name to bind to, such as "localhost"
    handler = type("PreviewHandler", (_Handler,), {"state": state, "allowed_hosts": frozenset(allowed)})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server
