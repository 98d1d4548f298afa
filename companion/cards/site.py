"""Static export of the companion: the same pages as plain HTML files for any static host.

``companion site --out DIR`` calls :func:`export_site`. A card's page lands at
``DIR/r/<game>/<card-id>/index.html``, so the address ``<base>/r/<game>/<card-id>`` works on
GitHub Pages or ``python -m http.server`` alike, and every link is relative, so the site may
live under a sub-path. A printed card's short address ``<BASE>/Q/<CODE>`` (what its QR code
opens, see :mod:`companion.cards.short_links`) is ``DIR/Q/<CODE>/index.html``, a page that sends the
browser on to the card's page.

A new export replaces the folder of an earlier one whole, but removes only what that export
wrote: its marker (:data:`MARKER_NAME`) records the files it wrote and their SHA-256
(:mod:`card_data.project.written_files`), and every other file of the folder (a ``CNAME`` for GitHub
Pages, a README, a page the new export no longer writes but a user changed since) is carried
over into the new site. A page the new export writes again is the new page, edited or not: the
site must show the current rulings. An export from before records (a marker without one) loses
nothing the new export does not write again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import uuid
from pathlib import Path

from flask import Flask

from card_data.editions.printings import printed_versions
from card_data.project.written_files import carry_over, read_record, record_bytes, still_written
from companion import create_app
from companion.cards.catalog import get_database
from companion.cards.errors import render_not_found
from companion.cards.links import export_file_for
from companion.cards.short_links import short_paths

#: File marking a directory as a companion export, so a new export may replace it; it records
#: the files the export wrote (:func:`card_data.project.written_files.read_record`).
MARKER_NAME = ".companion-site"


class ExportError(Exception):
    """The static export failed; any earlier export at the output directory is unchanged."""


def site_paths(app: Flask) -> list[str]:
    """URL paths of every page of the site: index, search, each game, each card, each
    version of a card a printed QR code may carry (``/r/<game>/<card-id>/<version>``), each
    printed card version's short address (``/Q/<CODE>``); and for offline reading
    (:mod:`companion.cards.offline`) the service worker ``/sw.js``, the site's ``/offline.json`` and each game's
    ``/r/<game>/offline.json``."""
    with app.app_context():
        games = get_database().games.values()
        paths = ["/", "/search", "/sw.js", "/offline.json"]
        for game in games:
            paths.append(f"/r/{game.game_id}/")
            paths.append(f"/r/{game.game_id}/rulings")  # unfiltered: a static host cannot filter
            paths.extend(f"/r/{game.game_id}/{card_id}" for card_id in game.cards)
            # What printed QR codes open in a game with versions (printkit release): each version.
            for card_id in game.cards:
                paths.extend(f"/r/{game.game_id}/{card_id}/{version}"
                             for version in printed_versions(game.printings, game.cards[card_id]))
            paths.append(f"/r/{game.game_id}/offline.json")
        paths.extend(short_paths())
    return paths


def _check_replaceable(out_dir: Path) -> None:
    """Refuse to replace anything but an empty directory or an earlier export."""
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise ExportError(f"{out_dir}: exists and is not a directory")
    if any(out_dir.iterdir()) and not (out_dir / MARKER_NAME).is_file():
        raise ExportError(
            f"{out_dir}: not empty and not an earlier companion export ({MARKER_NAME} missing); "
            "choose an empty or new directory"
        )


def _write(root: Path, relative: str, content: bytes, written: dict[str, str]) -> None:
    target = root / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)
    written[relative] = hashlib.sha256(content).hexdigest()


def _render_site(app: Flask, root: Path) -> dict[str, str]:
    """Write every page, the not-found page and the static files under ``root``.

    Returns the written files: ``{path below root, with /: SHA-256 hex}``. Raises
    :class:`ExportError` if a page does not render with HTTP 200.
    """
    written: dict[str, str] = {}
    client = app.test_client()
    for path in site_paths(app):
        response = client.get(path)
        if response.status_code != 200:
            raise ExportError(f"{path}: rendered with HTTP status {response.status_code}")
        _write(root, export_file_for(path), response.get_data(), written)

    # Static hosts serve 404.html for any missing address, at any depth: its links are
    # relative to the site root, which only a <base> can tell (known if BASE_URL is).
    base_url = app.config.get("BASE_URL")
    with app.test_request_context("/404.html"):
        page = render_not_found(base_href=base_url.rstrip("/") + "/" if base_url else None)
        _write(root, "404.html", page.encode("utf-8"), written)

    static_root = Path(app.static_folder)
    for source in sorted(static_root.rglob("*")):
        if source.is_file():
            relative = "static/" + source.relative_to(static_root).as_posix()
            _write(root, relative, source.read_bytes(), written)

    # GitHub Pages would otherwise run the files through Jekyll.
    _write(root, ".nojekyll", b"", written)
    return written


def _carry_over_others(earlier: Path, staging: Path, written: dict[str, str]) -> None:
    """Link into ``staging`` every file of the earlier export ``earlier`` but those written
    again and those its marker records that still hold what was written (which go)."""
    record = read_record(earlier / MARKER_NAME)
    own = still_written(earlier, record) if record is not None else set()
    try:
        carry_over(earlier, staging, {earlier / rel for rel in (*written, *own, MARKER_NAME)})
    except FileExistsError as exc:
        clash = Path(exc.filename)
        clash = earlier / clash.relative_to(staging) if clash.is_relative_to(staging) else clash
        raise ExportError(f"{clash}: not written by the last export, and the new export needs its name "
                          "for a page or folder; move it and export again") from None


def _move_into_place(staging: Path, out_dir: Path) -> None:
    """Replace ``out_dir`` by ``staging`` with renames, restoring ``out_dir`` if that fails."""
    if not out_dir.exists():
        staging.rename(out_dir)
        return
    previous = out_dir.with_name(f".{out_dir.name}.previous-{uuid.uuid4().hex[:8]}")
    out_dir.rename(previous)
    try:
        staging.rename(out_dir)
    except BaseException:
        previous.rename(out_dir)
        raise
    shutil.rmtree(previous, ignore_errors=True)


def export_site(out_dir: Path, data_dir: Path | None = None, *, base_url: str | None = None,
                project_dir: Path | None = None) -> list[Path]:
    """Export the companion's pages as a static site in ``out_dir``.

    Writes ``index.html``, ``search/index.html`` (a client-side filter over all cards),
    ``r/<game>/index.html`` for each game, ``r/<game>/<card-id>/index.html`` for each card,
    ``Q/<CODE>/index.html`` for each printed card version's short address, ``404.html``, ``static/``, and for reading offline the service worker ``sw.js`` and each
    game's ``r/<game>/offline.json`` (see :mod:`companion.cards.offline`). Pages are rendered
    through the app, so they are the live pages with relative links. ``data_dir`` is the
    card database and ``project_dir`` the project folder (default for both: the project of the
    current folder, else the bundled database; see :mod:`companion.cards.card_source`).
    ``base_url``, if given, is the site's public address (the printed QR codes' base URL):
    pages get canonical links under it, and ``404.html`` a ``<base>`` so that its links work
    at any depth. Without it, a script in ``404.html`` finds the site root from an address
    under ``r/``; a missing page elsewhere shows the page unstyled.

    The site is built in a temporary directory beside ``out_dir`` and then renamed into
    place, so a failure leaves an earlier export untouched. Only an empty directory or an
    earlier export (holding ``.companion-site``) is replaced, and every file in it the earlier
    export did not write, or that was changed since, is carried over (module docstring). A
    symbolic link ``out_dir`` stays: the folder it points to is replaced.

    Returns the written files, the marker last (paths under ``out_dir``). Raises
    :class:`card_data.problems.DatabaseError` if the database has problems, and
    :class:`ExportError` if ``out_dir`` may not be replaced, a page fails to render or a file
    of a user's takes a name the new export needs, ``OSError`` if the site cannot be written;
    the earlier export is then unchanged.
    """
    out_dir = Path(out_dir).absolute()
    _check_replaceable(out_dir)
    target = out_dir.resolve()
    config = {"STATIC_EXPORT": True, "BASE_URL": base_url, "PROPAGATE_EXCEPTIONS": True}
    if data_dir is not None:
        config["CARD_DATA_DIR"] = str(data_dir)
    if project_dir is not None:
        config["PROJECT_DIR"] = str(project_dir)
    app = create_app(config)

    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
    try:
        written = _render_site(app, staging)
        (staging / MARKER_NAME).write_bytes(record_bytes(written))
        if target.is_dir():
            _carry_over_others(target, staging, written)
        os.chmod(staging, 0o755)  # mkdtemp makes it private; a web server must read it
        _move_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return [out_dir / relative for relative in (*written, MARKER_NAME)]
