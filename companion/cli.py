"""``companion`` command line: serve the rulings pages on the local network, or export them as a static site."""

from __future__ import annotations

import socket
import struct
from pathlib import Path
from typing import TYPE_CHECKING

import click

# Flask, the app and the card data (pydantic schemas) are imported inside the commands that
# need them: `companion --help` and a mistyped option answer without loading them.
if TYPE_CHECKING:
    from card_data.problems import DatabaseError
    from companion.cards.card_source import CardSource

SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address


def interface_addresses() -> list[str]:
    """IPv4 addresses of this machine's network interfaces, asked of the kernel (Linux only;
    elsewhere an empty list). Sends no traffic."""
    try:
        import fcntl
    except ImportError:
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name[:15].encode())
            try:
                reply = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:  # interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(reply[20:24]))
    return found


def local_addresses() -> list[str]:
    """IPv4 addresses of this machine other than loopback, from local lookups only.

    Asks the kernel for its interfaces' addresses, then the resolver for this host's own
    name (``socket.gethostbyname(socket.gethostname())``); sends nothing to other hosts
    itself. May be empty.
    """
    found: list[str] = []
    candidates = interface_addresses()
    try:
        candidates.append(socket.gethostbyname(socket.gethostname()))
    except OSError:  # the host's own name does not resolve
        pass
    for address in candidates:
        if not address.startswith("127.") and address not in found:
            found.append(address)
    return found


def announce(host: str, port: int) -> list[str]:
    """Lines telling where to open the companion: on this machine, and from a phone.

    Phones reach the server only when it listens on every address (``0.0.0.0``) or on
    one of this machine's network addresses.
    """
    everywhere = host in ("0.0.0.0", "", "::")
    lines = [f"On this computer:  http://{'127.0.0.1' if everywhere else host}:{port}/"]
    if everywhere:
        phone_urls = [f"http://{address}:{port}/" for address in local_addresses()]
    elif not host.startswith("127.") and host != "localhost":
        phone_urls = [f"http://{host}:{port}/"]
    else:
        phone_urls = []
    if phone_urls:
        lines += [f"On a phone on the same network:  {url}" for url in phone_urls]
    else:
        lines.append("Phones cannot reach this address; use --host 0.0.0.0 to serve them.")
    return lines


def echo_problems(error: DatabaseError) -> None:
    """Print each database problem on its own ``FILE:LINE: game/id: field: message`` line."""
    for problem in error.problems:
        click.echo(str(problem), err=True)


@click.group()
def main() -> None:
    """Companion: per-card rulings pages for the printed cards' QR codes."""


DATA_OPTION = click.option("--data", "data_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
                           help="Card database directory. Default: the project's (printkit.toml), else the "
                                "bundled one.")
PROJECT_OPTION = click.option("--project", "project_dir", type=click.Path(path_type=Path, file_okay=False),
                              default=None, help="Project folder (holding printkit.toml) whose games to serve: its "
                              "card data and base URL. Default: the project of the current folder (printkit.toml "
                              "here or above), else the bundled games.")


def _ip_or_star(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--trusted-proxy``: an IP address (the proxy's) or ``*`` (any), as waitress takes it."""
    import ipaddress

    if value is None or value == "*":
        return value
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise click.BadParameter(f"{value[:80]!r} is not an IP address (e.g. 127.0.0.1) or *") from None


def source_or_exit(data_dir: Path | None, project_dir: Path | None) -> CardSource:
    """The card data to serve (:func:`companion.cards.card_source.card_source`); a broken
    ``printkit.toml`` or a ``--project`` that is no project is a :class:`click.UsageError`
    (exit 2) naming the file and line or the folder."""
    from card_data.project.base_url import ConfigError
    from companion.cards.card_source import card_source

    try:
        return card_source(data_dir, project_dir)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def served(data_dir: Path, project_dir: str | None, games: list[str]) -> str:
    """The line saying which card data an app serves (its ``CARD_DATA_DIR`` and ``PROJECT_DIR``)
    and its ``games`` (titles), e.g. ``Serving the games of /x/quiz/card_data (project /x/quiz):
    Pub Quiz Night.``"""
    from card_data.loader import bundled_data_dir

    which = ", ".join(games) if games else "none"
    if data_dir == bundled_data_dir():
        return f"Serving the bundled games: {which}."
    return f"Serving the games of {data_dir}" + (f" (project {project_dir})" if project_dir else "") + f": {which}."


SERVER_THREADS = 8
"""Waitress worker threads: a thread is busy only while it answers a request, and 20 phones
polling a table every second keep a handful busy at once. More threads do not answer sooner:
Python runs one thread of a process at a time, and a request waiting in waitress's queue costs
less than one waiting for its turn to run. Measured with 200 phones on two processes at the
stress rate (``benchmarks/bench_companion.py``): 8 threads answered 20% more requests than 32,
at half the p99 and 0.5 ms less CPU per request; 4 did no better than 8."""
SERVER_GC_YOUNG_OBJECTS = 10_000
"""A server's cyclic garbage collector looks at the youngest objects after this many more
allocations than frees (Python's default: 700; printkit's builds use the same). Measured at 200
phones on two processes: the collector's pauses fell from ~1.5 s a minute per process, ~20 of
them 30-80 ms long, to ~0.4 s, one or two long."""
CONNECTION_LIMIT = 256
"""Open connections waitress keeps: a phone's browser opens up to six and keeps them alive."""
PROXY_HEADERS = "x-forwarded-for x-forwarded-host x-forwarded-proto x-forwarded-port"


def serve(app, host: str, port: int, threads: int = SERVER_THREADS, trusted_proxy: str | None = None) -> None:
    """Serve ``app`` with waitress until interrupted: one process with ``threads`` threads, so the
    tables' in-process cache stays coherent; what starting made is frozen out of the cyclic
    collector's view first (:func:`gc.freeze`), which then looks at the youngest objects every
    :data:`SERVER_GC_YOUNG_OBJECTS` allocations. ``trusted_proxy``: the address of a reverse proxy
    whose ``X-Forwarded-*`` headers give the client's address, host and scheme (without it those
    headers are dropped). Raises ``OSError`` if the address cannot be bound."""
    import gc

    import waitress

    options: dict = {"host": host, "port": port, "threads": threads, "connection_limit": CONNECTION_LIMIT}
    if trusted_proxy:
        options.update(trusted_proxy=trusted_proxy, trusted_proxy_count=1, trusted_proxy_headers=PROXY_HEADERS)
    # What starting made (the card database, the compiled templates, the modules) lives as long
    # as the server: out of the cyclic collector's view, its oldest generation's collections walk
    # only what serving made. Walking it all took ~140 ms every few seconds under load, every
    # thread waiting: most of the slowest answers.
    gc.collect()
    gc.freeze()
    # And it looks at the youngest objects less often: serving makes next to no cyclic garbage
    # (no request's objects outlive it in a cycle), so at Python's default every 700 allocations
    # the collector mostly walked the requests in flight, and promoted them to the older
    # generations, whose collections then came every few seconds (under the stress load of
    # bench_companion.py: ~20 full collections a minute per process, 30-80 ms each).
    gc.set_threshold(SERVER_GC_YOUNG_OBJECTS, *gc.get_threshold()[1:])
    waitress.serve(app, **options)


@main.command()
@click.option("--host", default=None,
              help="Address to listen on [default: 0.0.0.0, which lets phones on the same network connect; "
                   "127.0.0.1 with --debug].")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--threads", default=SERVER_THREADS, show_default=True, type=click.IntRange(1, 1024),
              help="Worker threads of the server.")
@click.option("--trusted-proxy", default=None, metavar="ADDRESS", callback=_ip_or_star,
              help="Address of a reverse proxy in front of the companion; its X-Forwarded-For, -Host, -Proto "
                   "and -Port headers are trusted (from it only).")
@click.option("--debug", is_flag=True,
              help="Serve with Flask's development server and its interactive debugger instead of waitress. "
                   "For development only: never on a shared network.")
@DATA_OPTION
@PROJECT_OPTION
@click.option("--base-url", default=None, help="Public base URL the printed QR codes use. Default: "
              "$PRINTKIT_BASE_URL, then the project's printkit.toml.")
@click.option("--watch", is_flag=True,
              help="Load the card data again after each saved change to it (and to printkit.toml), for a "
                   "designer editing a game: pages show the cards as saved, tables in play go on. A save with "
                   "problems prints them and the data loaded before is served on.")
def run(host: str | None, port: int, threads: int, trusted_proxy: str | None, debug: bool, data_dir: Path | None,
        project_dir: Path | None, base_url: str | None, watch: bool) -> None:
    """Serve the companion with waitress (a production WSGI server), or Flask's development
    server with --debug.

    Run inside a project folder (or with --project), it serves that project's games.
    Exits 1, listing every problem, if the card database does not load.
    """
    from card_data.project.base_url import ConfigError
    from card_data.problems import DatabaseError
    from companion.cards.catalog import get_database
    from companion.scorekeeping.scorekeeper import DatabaseUnusable, table_store_of
    from companion.reloading import reloading_companion, watch_and_reload, watched_roots

    config = {"BASE_URL": base_url, "CARD_DATA_DIR": data_dir, "PROJECT_DIR": project_dir}
    if debug and watch:
        config["DEBUG"] = True  # what app.run(debug=True) sets, for each app a reload makes
    try:
        served_app = reloading_companion(config)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    except DatabaseError as error:
        echo_problems(error)
        click.get_current_context().exit(1)
    except DatabaseUnusable as exc:  # the tables' database: unreachable, refused, or no database URL
        raise database_error(exc.url, exc.cause) from None
    app = served_app.app
    with app.app_context():
        games = [game.info.title for game in get_database().games.values()]
    click.echo(served(Path(app.config["CARD_DATA_DIR"]), app.config["PROJECT_DIR"], games))
    store = table_store_of(app)
    if store is not None:
        click.echo(f"Tables are kept in {_shown(str(store.engine.url))} "
                   "(set DATABASE_URL to keep them elsewhere).")
    if watch:
        roots = watched_roots(app)
        watch_and_reload(served_app, roots, lambda line: click.echo(line, err=True))
        click.echo(f"Watching {', '.join(str(r) for r in roots)}: each saved change is served at once.")
    if host is None:
        host = "127.0.0.1" if debug else "0.0.0.0"
    for line in announce(host, port):
        click.echo(line)
    if debug:
        click.echo("Debug mode: Flask's development server and debugger; never use it on a shared network.")
        if watch:
            from werkzeug.serving import run_simple

            run_simple(host, port, served_app, use_debugger=True, use_reloader=False, threaded=True)
        else:
            app.run(host=host, port=port, debug=True, use_reloader=False)
    else:
        click.echo(f"Serving with waitress ({threads} threads); Ctrl+C stops it.")
        try:
            serve(served_app if watch else app, host, port, threads, trusted_proxy)
        except (OSError, ValueError) as exc:  # waitress: "Invalid host/port specified."; address in use
            raise click.ClickException(f"cannot listen on {host}:{port}: {exc}") from None


@main.command("init-db")
@click.option("--database-url", default=None, metavar="URL",
              help="SQLAlchemy URL of the database [default: $DATABASE_URL, else companion.sqlite in the "
                   "companion's instance folder].")
def init_db(database_url: str | None) -> None:
    """Create the scorekeeper's database, or bring an older one up to date.

    Runs the Alembic migrations (tables, and every column added since); tables already played
    are kept. `companion run` does the same on start, so this is for setting a database up
    ahead of time, e.g. on PostgreSQL before starting several servers. Exits 1 with the
    database's message if it cannot be reached.
    """
    from flask import Flask

    from companion.scorekeeping.scorekeeper import database_url as default_url
    from companion.scorekeeping.scorekeeper import normalise_database_url
    from companion.scorekeeping.store.storage import TableStore, unusable_database_errors

    # The same instance folder as create_app's, without loading the card database.
    url = normalise_database_url(database_url) if database_url else default_url(Flask("companion"))
    try:
        store = TableStore(url)
        revision = store.schema_revision()
        store.dispose()
    except unusable_database_errors() as exc:
        raise database_error(url, exc) from None
    click.echo(f"Database ready at {_shown(url)} (schema {revision}).")


def database_error(url: str, exc: Exception) -> click.ClickException:
    """The error (exit 1) for a scorekeeper database at ``url`` that cannot be set up: its URL
    (password hidden) and what the database or its driver said, without a traceback."""
    said = str(getattr(exc, "orig", None) or exc).split("\n(Background on this error")[0].strip()
    return click.ClickException(f"cannot set up the database at {_shown(url)}: {exc.__class__.__name__}: {said}")


def _shown(url: str) -> str:
    """``url`` with its password hidden, for messages (a URL that is no URL: after its ``@``),
    at most 120 characters."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # not a URL; a port that is no number
        shown = url.rsplit("@", 1)[-1] if "@" in url else url
    return shown if len(shown) <= 120 else f"{shown[:100]}... ({len(shown):,} characters)"


@main.command("site")
@DATA_OPTION
@PROJECT_OPTION
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Folder to write the site to. Default: site/ in the project's output folder, else output/site.")
@click.option("--base-url", default=None, help="Where the site will be hosted (for canonical links); default "
              "as for `printkit build`: $PRINTKIT_BASE_URL, then printkit.toml.")
def site_cmd(data_dir: Path | None, project_dir: Path | None, out_dir: Path | None, base_url: str | None) -> None:
    """Write the rulings pages as static HTML, so QR codes work from any static web host.

    Run inside a project folder (or with --project), it exports that project's games.
    Exits 1, listing every problem and writing nothing, if the card database does not load.
    """
    from card_data.project.base_url import ConfigError, resolve_base_url
    from card_data.problems import DatabaseError
    from card_data.project.project_folders import OutFolderError, check_out_folder
    from companion.cards.site import ExportError, export_site

    source = source_or_exit(data_dir, project_dir)
    try:
        base = resolve_base_url(base_url, source.settings_dir)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    named = config = None
    if out_dir is None and source.project is not None:
        out_dir = source.project.out_dir / "site"
        named, config = f"the output folder {out_dir}", source.project.config
    elif out_dir is None:
        out_dir = Path("output/site")
    try:
        # Not over, into or around the card data or a project's sources (as printkit's commands).
        check_out_folder(out_dir, source.data_dir, named=named, config=config)
    except (OutFolderError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from None
    try:
        written = export_site(out_dir, source.data_dir, base_url=base.url, project_dir=source.settings_dir)
    except DatabaseError as error:
        echo_problems(error)
        click.get_current_context().exit(1)
    except (ExportError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Wrote {len(written)} files to {out_dir}; host that folder at {base.url} "
               f"(or pass --base-url) so the cards' QR codes find it.")
