"""The designer's loop as commands: ``printkit init``, ``printkit build --watch`` (its loop lives
here), ``printkit export`` and ``printkit preview`` (attached to the ``printkit`` group in
printkit/cli.py). Heavy modules (pdfium, the preview server) are imported when a command runs,
so ``printkit --help`` stays quick."""

from __future__ import annotations

import shlex
import sys
import threading
import traceback
from pathlib import Path

import click

from card_data.project.base_url import ConfigError, find_config_file, resolve_base_url
from card_data.games import bundled_game_ids
from card_data.problems import ProblemsError
from printkit.command_line import check_output_folder, report_problems
from printkit.designer.loop.project import (
    InitError,
    ProjectPaths,
    game_of,
    init_project,
    path_from,
    project_paths,
)
from printkit.designer.spreadsheet.sheet_game import sheet_game_id
from printkit.designer.exports.shops import PRESETS
from card_data.project.watching import describe, timestamp, watch

_DATA_HELP = ("Card database folder (one sub-folder per game). Default: the project's (printkit.toml here or "
              "above), else the bundled one.")
_TEMPLATES_HELP = ("Templates folder: print/ (calibration texts) and, for a project laid out before games held "
                   "their layouts, <game>/*.yaml (used instead of the game folder's templates/). Default: the "
                   "project's (printkit.toml here or above), else the bundled one.")


def _paths(data_dir: Path | None, templates_dir: Path | None, out_dir: Path | None = None) -> ProjectPaths:
    try:
        return project_paths(data_dir, templates_dir, out_dir)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def _base_url(value: str | None) -> str:
    try:
        return resolve_base_url(value).url
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def watched_roots(paths: ProjectPaths) -> list[Path]:
    """What a watcher lists: the card data, the templates and the project's ``printkit.toml``."""
    from card_data.loader import bundled_data_dir

    roots = [paths.data_dir if paths.data_dir is not None else bundled_data_dir(), paths.templates_dir]
    if paths.project is not None:
        roots.append(paths.project.config)
    return roots


def games_to_rebuild(changed: set[Path], paths: ProjectPaths, asked: tuple[str, ...]) -> tuple[str, ...] | None:
    """The games a change concerns, among ``asked`` (all when empty): ``()`` meaning every
    asked game (a change outside any game folder, e.g. printkit.toml), or ``None`` when the
    change concerns none of them."""
    touched = {game_of(path, paths) for path in changed}
    if None in touched:
        return asked
    wanted = sorted(touched if not asked else touched & set(asked))
    return tuple(wanted) if wanted else None


def watch_build(ctx: click.Context, paths: ProjectPaths, stop: threading.Event | None = None) -> None:
    """``printkit build --watch``: run the build command once, then again after each saved
    change, for the games whose files changed (all asked games for ``printkit.toml``).

    Each run is the build command itself (same options, ``--watch`` off), so its output and
    problems read the same; a run with problems writes nothing (the previous files stay) and
    the watch goes on. Returns when ``stop`` is set or on Ctrl-C.
    """
    params = dict(ctx.params, watch=False)
    asked: tuple[str, ...] = tuple(params.get("games") or ())
    callback = ctx.command.callback

    def run(games: tuple[str, ...]) -> None:
        try:
            ctx.invoke(callback, **dict(params, games=games))
        except SystemExit:
            pass  # the build printed its problems; keep watching
        except click.ClickException as exc:
            exc.show()
        except Exception:  # noqa: BLE001 - a crash in one rebuild must not end the designer's session
            click.echo(traceback.format_exc().rstrip(), err=True)
            click.echo("printkit crashed on this rebuild (a bug: please report it with the lines above); "
                       "the previous output stays; still watching.", err=True)

    run(asked)
    shown = ", ".join(str(r) for r in watched_roots(paths))
    click.echo(f"Watching {shown} for changes (Ctrl-C stops).", err=True)

    def on_change(changed: set[Path]) -> None:
        games = asked if params.get("deck") else games_to_rebuild(changed, paths, asked)
        if games is None:
            return
        click.echo(f"[{timestamp()}] {describe(changed)} changed: rebuilding "
                   f"{', '.join(games) if games else 'every game'}", err=True)
        run(games)
        click.echo(f"[{timestamp()}] done; watching.", err=True)

    try:
        watch(watched_roots(paths), on_change, stop)
    except KeyboardInterrupt:
        click.echo("Stopped watching.", err=True)


@click.command("init")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False))
@click.option("--from", "from_game", type=click.Choice(bundled_game_ids()), default=None,
              help="Start from a copy of this bundled game (its cards, deck lists and templates).")
@click.option("--from-sheet", "from_sheet", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              default=None, metavar="FILE",
              help="Start from your cards in a spreadsheet (.csv or .xlsx, row 1 naming the columns, a row "
              "per card): a game declaring one field per column, templates printing them, the cards imported.")
@click.option("--game", "game_id", default=None, metavar="ID",
              help="The id of the game made --from-sheet, or of the starter game (lower-case letters, digits "
              "and _): its folder card_data/ID and its QR addresses. Default: from the sheet's file name; "
              "my_game for the starter game.")
def init_cmd(folder: Path, from_game: str | None, from_sheet: Path | None, game_id: str | None) -> None:
    """Start a project in FOLDER: card data, deck lists and layout templates you own, and a
    printkit.toml that every printkit command run in FOLDER (or below it) uses.

    \b
    --from-sheet cards.csv   your game from your spreadsheet: game.yaml declares a field per
                             column (type from its values: integer with bounds, number,
                             yes/no, one of a few values, text); `id` names each card; a
                             `type` column gives card types, each with its own back; `qty`
                             the copies to print; `title` or `name` the title (else the
                             first text column whose values all differ); `art` the artwork,
                             copied from beside the sheet
    --from GAME              a copy of one of printkit's games
    (neither)                a small starter game to change

    Problems in the sheet are printed as FILE:ROW: field: message, and then nothing is written.
    """
    try:
        written = init_project(folder, from_game, from_sheet, game_id)
    except InitError as exc:
        raise click.UsageError(str(exc)) from None
    except ProblemsError as exc:
        report_problems(exc.problems, "Nothing was written.")
        sys.exit(1)
    except OSError as exc:
        raise click.ClickException(str(exc)) from None
    source = f", from {from_game}" if from_game else f", from {from_sheet.name}" if from_sheet else ""
    click.echo(f"Started a printkit project in {folder} ({len(written)} files{source}).", err=True)
    outer = find_config_file(folder.resolve().parent)
    if outer is not None:
        click.echo(f"Note: {folder} is inside the project of {outer}; printkit commands run in {folder} (or below "
                   "it) use the new project's own printkit.toml.", err=True)
    if from_sheet is not None and game_id is None:
        # The id names the game's folder, its QR addresses and its title: say where it came from.
        click.echo(f"Game id '{sheet_game_id(from_sheet)}', from the sheet's name (--game ID chooses another; "
                   f"the title is in card_data/{sheet_game_id(from_sheet)}/game.yaml).", err=True)
    click.echo("Next:", err=True)
    click.echo(f"  cd {folder}\n"
               "  printkit build --watch      # rebuilds output/ when you save a card or template\n"
               "  printkit preview            # every card on a local web page, refreshed on save\n"
               "  printkit export --preset tgc-poker", err=True)
    if from_sheet is not None:
        made = game_id or sheet_game_id(from_sheet)
        click.echo(f"  printkit import {shlex.quote(path_from(folder, from_sheet))} --game {made}"
                   "   # after editing the sheet: its cards again", err=True)


@click.command("export")
@click.argument("games", nargs=-1)
@click.option("--data", "data_dir", type=click.Path(path_type=Path, file_okay=False), default=None, help=_DATA_HELP)
@click.option("--templates", "templates_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help=_TEMPLATES_HELP)
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Where to write <out>/<game>/... Default: the project's output folder, else ./output.")
@click.option("--preset", type=click.Choice(sorted(PRESETS)), default=None,
              help="A print shop's poker-card spec: its image size, bleed and folders (see the README).")
@click.option("--dpi", type=click.IntRange(50, 1200), default=None,
              help="PNG resolution (default 300; a preset uses the shop's).")
@click.option("--format", "formats", type=click.Choice(["png", "pdf"]), multiple=True,
              help="png (default) and/or pdf (vector, one card per file); repeat for both.")
@click.option("--card", "card_ids", multiple=True, metavar="ID", help="Only this card (repeat for more).")
@click.option("--deck", default=None, metavar="DECK",
              help="Only this deck list (a deck id or a deck-list YAML file); with a preset, in its quantities, "
              "in a folder named after the deck.")
@click.option("--base-url", default=None, help="Where the cards' QR codes point; default as for build.")
@click.option("--cmyk", is_flag=True, help="PDF colours as CMYK, FOGRA39 (PNG stays RGB, which both shops require).")
@click.option("--pdfx", "--print-shop", "pdfx", is_flag=True,
              help="PDFs as PDF/X-4 for a print shop's preflight: CMYK (FOGRA39 profile as OutputIntent), art "
              "converted too, TrimBox and BleedBox on every card. PNG stays RGB.")
def export_cmd(games: tuple[str, ...], data_dir: Path | None, templates_dir: Path | None, out_dir: Path | None,
               preset: str | None, dpi: int | None, formats: tuple[str, ...], card_ids: tuple[str, ...],
               deck: str | None, base_url: str | None, cmyk: bool, pdfx: bool) -> None:
    """One file per card face for GAMES (default: all): PNG at --dpi or single-card PDFs, or a
    print shop's preset.

    \b
    no preset:            <out>/<game>/cards/<card-id>-front.png and <card-id>-back.png (3 mm bleed)
    --preset tgc-poker:   <out>/<game>/tgc-poker/<deck back>/fronts/<card-id>.png and back.png,
                          825 x 1125 px at 300 dpi (1/8 in bleed, safe area 1/8 in inside the trim)
    --preset mpc-poker:   <out>/<game>/mpc-poker/<deck back>/fronts/<card-id>.png and back.png,
                          822 x 1122 px at 300 dpi (36 px bleed, safe area 36 px inside the trim)

    With a preset, a card with qty N (copies to print) has N files: <card-id>.png,
    <card-id>_2.png ... (none for qty 0), so each folder holds the deck as ordered; with
    --deck, the deck list's counts instead, in <preset>/<deck>/.
    """
    from printkit.designer.exports.export import DEFAULT_DPI, export_cards
    from printkit.sheets.render import PdfOutput

    shop = PRESETS[preset] if preset else None
    if shop is not None and dpi is not None and dpi != shop.dpi:
        raise click.UsageError(f"--preset {preset} prints at {shop.dpi} dpi; leave out --dpi")
    paths = _paths(data_dir, templates_dir, out_dir)
    check_output_folder(paths, paths.out_dir, given=out_dir is not None)
    try:
        result = export_cards(paths.data_dir, paths.templates_dir, paths.out_dir, _base_url(base_url), games,
                              preset=shop, dpi=dpi or DEFAULT_DPI, formats=formats or ("png",), card_ids=card_ids,
                              output=PdfOutput.of(cmyk, pdfx), deck=deck)
    except OSError as exc:
        raise click.ClickException(str(exc)) from None
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    if result.problems:
        for p in result.problems:
            click.echo(str(p), err=True)
        count = len(result.problems)
        click.echo(f"{count} problem{'s' if count != 1 else ''} found. Nothing was written.", err=True)
        sys.exit(1)
    for path in result.written:
        click.echo(str(path))
    for path in result.removed:
        click.echo(f"removed {path} (a copy this export no longer makes)", err=True)
    click.echo(f"Wrote {len(result.written)} files for {result.faces} card faces"
               f"{' (' + shop.label + ')' if shop else ''}.", err=True)


@click.command("preview")
@click.argument("games", nargs=-1)
@click.option("--data", "data_dir", type=click.Path(path_type=Path, file_okay=False), default=None, help=_DATA_HELP)
@click.option("--templates", "templates_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help=_TEMPLATES_HELP)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port on 127.0.0.1 to serve the page on (0: any free port).")
@click.option("--base-url", default=None, help="Where the cards' QR codes point; default as for build.")
@click.option("--no-watch", is_flag=True, help="Render once; do not re-render on save.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer requests addressed to this host name (e.g. a name of this machine you "
              "open the page by), with the port; repeat for more. Without it only localhost, 127.0.0.1 "
              "and [::1] are answered, so a web page elsewhere cannot read the cards.")
def preview_cmd(games: tuple[str, ...], data_dir: Path | None, templates_dir: Path | None, port: int,
                base_url: str | None, no_watch: bool, allow_hosts: tuple[str, ...]) -> None:
    """Serve a page on http://127.0.0.1:PORT/ showing every card of GAMES (default: all) as it
    prints, re-rendered when you save a card or template, with the problems listed on the page.
    Ctrl-C stops."""
    from printkit.designer.loop.preview import PreviewState, host_name, make_server, rebuild

    for name in allow_hosts:
        try:
            host_name(name)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--allow-host") from None
    paths = _paths(data_dir, templates_dir)
    url = _base_url(base_url)
    state = PreviewState()

    def render(note: str) -> None:
        problems = rebuild(state, paths, url, games)
        suffix = f"{len(problems)} problem{'s' if len(problems) != 1 else ''} (listed on the page)" if problems \
            else "no problems"
        click.echo(f"[{timestamp()}] {note}: {suffix}", err=True)
        for p in problems:
            click.echo(str(p), err=True)

    try:
        server = make_server(state, port, allowed_hosts=allow_hosts)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    render("rendered")
    host, bound = server.server_address[:2]
    click.echo(f"Preview at http://{host}:{bound}/ (Ctrl-C stops)", err=True)
    stop = threading.Event()
    watcher = None
    if not no_watch:
        def on_change(changed: set[Path]) -> None:
            render(f"{describe(changed)} changed")
        watcher = threading.Thread(target=watch, args=(watched_roots(paths), on_change, stop), daemon=True)
        watcher.start()
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        click.echo("Stopped.", err=True)
    finally:
        stop.set()
        server.server_close()
