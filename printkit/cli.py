"""The ``printkit`` command: ``build``, ``validate``, ``calibration`` and ``site``."""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import click

from card_data.project.base_url import ConfigError, resolve_base_url
from card_data.editions.short_codes import qr_base_url
from printkit.command_line import build_gc, check_output_folder, command_paths, report_problems, run_without_teardown
from printkit.sheets.artwork.art_prints import PRINT_DPI, PRINT_DPI_MAX, PRINT_DPI_MIN
from printkit.sheets.prepress.paper import PAPERS, paper_by_name

# Everything heavy (the build with reportlab and the game schemas, pdfium, the importer) is
# imported inside the command that needs it: `printkit --help` and a mistyped option answer at
# once instead of after ~0.8 s of imports.

DATA_OPTION = click.option("--data", "data_dir", type=click.Path(path_type=Path, file_okay=False),
                           default=None, help="Card database folder (one sub-folder per game). Default: the project's "
                           "(printkit.toml here or above), else the bundled one.")
TEMPLATES_OPTION = click.option("--templates", "templates_dir", type=click.Path(path_type=Path, file_okay=False),
                                default=None, help="Templates folder: print/ (calibration texts) and, for a project "
                                "laid out before games held their layouts, <game>/*.yaml (used instead of the game "
                                "folder's templates/). Default: the project's (printkit.toml here or above), else the "
                                "bundled one.")


def _warn(warnings: list, problems: list = ()) -> None:
    """Print a build's warnings (low-resolution art, dense QR codes) and the games installed
    distributions declare but that cannot be used (:func:`card_data.games.registry_problems`),
    unless ``problems`` (the build's) already tell them; they never fail it."""
    from card_data.games import registry_problems

    for w in warnings:
        click.echo(f"warning: {w}", err=True)
    told = {p.message for p in problems}
    for p in registry_problems():
        if p.message not in told:
            click.echo(f"warning: {p}", err=True)


def _progress_factory():
    """A rich progress bar on a terminal; silence otherwise (CI logs, pipes)."""
    if not sys.stderr.isatty():
        return None
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    def factory(total: int):
        progress = Progress(TextColumn("Rendering cards"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            transient=True)
        progress.start()
        task = progress.add_task("cards", total=total)

        def advance(n: int) -> None:
            progress.advance(task, n)
            if progress.finished:
                progress.stop()
        return advance
    return factory


def _base_url(value: str | None):
    try:
        base = resolve_base_url(value)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    if base.is_loopback:
        click.echo(f"warning: QR codes will point at {base.url} ({base.source}), a loopback address that a "
                   "phone cannot reach; pass --base-url http://<this computer's network address>:5000 "
                   "or set PRINTKIT_BASE_URL.", err=True)
    return base


def _language_code(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--lang``: a language code as translation files are named (``de``, ``pt-BR``)."""
    if not value:
        return None
    from card_data.editions.translations import DATA_LANGUAGE, LANGUAGE_CODE

    if not LANGUAGE_CODE.match(value):
        shown = f"{value[:40]!r}{'...' if len(value) > 40 else ''}"  # a pasted page is not said back whole
        raise click.BadParameter(f"{shown} is not a language code such as de or pt-BR", ctx, param)
    # The data's own language is the original: the same cards, in the default output folder.
    return None if value.split("-")[0] == DATA_LANGUAGE else value


def fallback_lines(fallbacks: list[tuple[str, list[str], int]], lang: str, shown: int = 10) -> list[str]:
    """What a build with ``--lang`` says about the cards it printed in the original: one line
    per game, e.g. ``carpe_diem: 12 of 15 cards have no de text and print in the original:
    a-two-herbs, ... and 2 more``, naming at most ``shown`` cards; ``carpe_diem: all 15 cards
    print in de`` for a game with none."""
    lines = []
    for game_id, left, total in fallbacks:
        if not left:
            lines.append(f"{game_id}: all {total} cards print in {lang}")
            continue
        names = ", ".join(left[:shown]) + (f" and {len(left) - shown} more" if len(left) > shown else "")
        has = "has" if len(left) == 1 else "have"
        lines.append(f"{game_id}: {len(left)} of {total} card{'s' if total != 1 else ''} {has} no {lang} text "
                     f"and print{'s' if len(left) == 1 else ''} in the original: {names}")
    return lines


class BackOffset(click.ParamType):
    """``X,Y`` in millimetres, each may be negative or fractional, e.g. ``1.5,-0.8``."""

    name = "X,Y"

    def convert(self, value, param, ctx) -> tuple[float, float]:
        if isinstance(value, tuple):
            return value
        parts = str(value).split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            x, y = (float(p) for p in parts)
        except ValueError:
            self.fail(f"{value!r} is not X,Y in millimetres (e.g. 1.5,-0.8)", param, ctx)
        if not all(abs(v) <= 50 for v in (x, y)):
            self.fail(f"{value!r}: a back offset beyond 50 mm is not printer drift", param, ctx)
        return x, y


PAPER_OPTION = click.option("--paper", type=click.Choice(sorted(PAPERS), case_sensitive=False), default="letter",
                            show_default=True)


class LazyGroup(click.Group):
    """A click group whose other commands live in modules imported only when one of them runs
    (or shows its own help). ``lazy``: ``{name: ("module:attribute", help's first paragraph)}``;
    that paragraph is what ``printkit --help`` shortens and lists without importing the module
    (a test keeps it equal to the command's own)."""

    def __init__(self, *args, lazy: dict[str, tuple[str, str]] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            from importlib import import_module

            module, attr = self.lazy[cmd_name][0].split(":")
            self.add_command(getattr(import_module(module), attr), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = [n for n in self.list_commands(ctx) if n not in self.commands or not self.commands[n].hidden]
        if not names:
            return
        limit = formatter.width - 6 - max(map(len, names))  # as click.Group does
        rows = []
        for name in names:
            if name in self.commands:
                rows.append((name, self.commands[name].get_short_help_str(limit)))
            else:
                # A stand-in with the same help shortens it exactly as the command would.
                rows.append((name, click.Command(name, help=self.lazy[name][1]).get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


LAZY_COMMANDS = {
    "import": ("printkit.designer.commands:import_cmd",
               "Turn a spreadsheet (FILE.csv or FILE.xlsx, one card per row) into card_data YAML."),
    "tts": ("printkit.designer.commands:tts_cmd", "Tabletop Simulator deck sheets for GAMES (default: all)."),
    "init": ("printkit.designer.loop.project_commands:init_cmd",
             ("Start a project in FOLDER: card data, deck lists and layout templates you own, and a printkit.toml "
              "that every printkit command run in FOLDER (or below it) uses.")),
    "export": ("printkit.designer.loop.project_commands:export_cmd",
               ("One file per card face for GAMES (default: all): PNG at --dpi or single-card PDFs, or a print "
                "shop's preset.")),
    "release": ("printkit.designer.exports.release:release_cmd",
                ("Record a new version of every card of GAMES (default: all) whose printed fields changed since its "
                 "last version, in the game's printings.yaml; a card without one gets version 1.")),
    "preview": ("printkit.designer.loop.project_commands:preview_cmd",
                ("Serve a page on http://127.0.0.1:PORT/ showing every card of GAMES (default: all) as it prints, "
                 "re-rendered when you save a card or template, with the problems listed on the page. "
                 "Ctrl-C stops.")),
}


@click.group(cls=LazyGroup, lazy=LAZY_COMMANDS)
@click.version_option(package_name="printkit")
def main() -> None:
    """Print-ready PDFs for print-and-play card games, from a card database."""


@main.command("build")
@click.argument("games", nargs=-1)
@DATA_OPTION
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Where to write <out>/<game>/*.pdf. Default: the project's output folder, else ./output; "
              "with --lang, its sub-folder <lang> (output/de/), so that builds in two languages do not "
              "overwrite each other.")
@TEMPLATES_OPTION
@click.option("--lang", default=None, metavar="CODE", envvar="PRINTKIT_LANG", callback=_language_code,
              help="Print the cards in this language (e.g. de, pt-BR) where card_data/<game>/translations/"
              "<CODE>.yaml translates them; the others print in the original, listed on stderr. QR codes stay "
              "the same. Default: $PRINTKIT_LANG, else the original.")
@click.option("--watch", is_flag=True, help="Build, then rebuild the games whose files change on each save "
              "(Ctrl-C stops); a broken save prints its problems and keeps the previous output.")
@PAPER_OPTION
@click.option("--base-url", default=None, help="Where the QR codes point (the companion's address). "
              "Default: $PRINTKIT_BASE_URL, printkit.toml, or http://localhost:5000.")
@click.option("--duplex", type=click.Choice(["long", "short", "none", "fold"]), default="long", show_default=True,
              help="Flip edge of your duplex printer; 'none' writes the backs to a separate file; 'fold' puts "
              "each back beside its front, to fold over, for single-sided printers.")
@click.option("--back-offset", type=BackOffset(), default="0,0", show_default=True,
              help="Shift every back by X,Y mm (right, down, as seen on the back page) to cancel your "
              "printer's duplex drift; read it off 'printkit calibration'.")
@click.option("--cmyk", is_flag=True, help="Write colours as CMYK (FOGRA39) instead of RGB; artwork stays RGB. "
              "For a print shop, use --pdfx.")
@click.option("--pdfx", "--print-shop", "pdfx", is_flag=True,
              help="PDF/X-4 files for a print shop's preflight: colours and artwork converted to CMYK through the "
              "FOGRA39 profile, which is embedded as the OutputIntent; TrimBox and BleedBox on every page.")
@click.option("--print-dpi", type=click.IntRange(PRINT_DPI_MIN, PRINT_DPI_MAX), default=PRINT_DPI, show_default=True,
              help="Resolution of raster art in the PDFs, in pixels per inch of its printed size: larger art is "
              "scaled down to it (and cropped to its box), smaller art is never scaled up.")
@click.option("--deck", default=None, metavar="DECK",
              help="Print only this deck list (a deck id or a deck-list YAML file), in its quantities.")
@click.option("--scorepad-copies", type=click.IntRange(1, 500), default=1, show_default=True,
              help="Pages of the Carpe Diem score pad.")
@click.option("--cards-only", is_flag=True, help="Only the card sheets: no reference cards, boards, tokens or pad.")
@click.option("--catalog", is_flag=True, help="Every card once, one file per card back (for designers), "
              "instead of the decks in their quantities.")
@click.option("--safe-margins", is_flag=True,
              help="Keep every crop mark and bleed 5 mm from the paper's edge (laser printers' unprintable "
              "band), even if fewer cards fit a sheet (poker on Letter: 6 instead of 9).")
@click.option("--registration-marks", is_flag=True,
              help="Print-then-cut: Silhouette (Type 1) registration marks on every sheet of card fronts and "
              "in its SVG cut file, instead of crop marks; the cards keep clear of them, so fewer may fit.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Processes drawing decks at once (default: the number of CPUs; 1: one at a time). The "
              "output is the same byte for byte.")
def build_cmd(games: tuple[str, ...], data_dir: Path | None, out_dir: Path | None, paper: str, base_url: str | None,
              templates_dir: Path | None, watch: bool,
              duplex: str, back_offset: tuple[float, float], cmyk: bool, pdfx: bool, deck: str | None,
              scorepad_copies: int, cards_only: bool, safe_margins: bool, catalog: bool,
              registration_marks: bool, jobs: int | None, lang: str | None, print_dpi: int) -> None:
    """Render GAMES (default: all): card sheets (fronts and backs, bleed, crop marks, SVG cut
    files), reference cards, boards and mats, token sheets and the score pad."""
    if duplex == "fold" and back_offset != (0.0, 0.0):
        raise click.UsageError("--back-offset corrects duplex drift; fold-over sheets (--duplex fold) have none")
    if duplex == "fold" and registration_marks:
        raise click.UsageError("--registration-marks are for cutting single sheets; a cutter cannot follow "
                               "marks through a folded sheet (--duplex fold)")
    paths = command_paths(data_dir, templates_dir, out_dir)
    # A language's output set lives beside the original's, never over it.
    target = check_output_folder(paths, paths.out_dir / lang if lang and out_dir is None else paths.out_dir,
                                 given=out_dir is not None)
    if watch:
        from printkit.designer.loop.project_commands import watch_build

        watch_build(click.get_current_context(), paths)
        return
    from printkit.build_options import BuildOptions
    from printkit.pipeline.build import build
    from printkit.pipeline.deck_files import plan_summaries
    from printkit.sheets.prepress.imposition import margin_note
    from printkit.sheets.prepress.registration_marks import SILHOUETTE_TYPE_1

    base = _base_url(base_url)
    options = BuildOptions(paper=paper_by_name(paper, safe_margins), base_url=base.url, duplex=duplex,
                           back_offset_mm=back_offset, cmyk=cmyk or pdfx, pdfx=pdfx,
                           registration_marks=SILHOUETTE_TYPE_1 if registration_marks else None, lang=lang,
                           print_dpi=print_dpi)
    try:
        with build_gc():
            result = build(paths.data_dir, target, options, games, layouts_dir=paths.templates_dir,
                           progress_factory=_progress_factory(), deck=deck,
                           scorepad_copies=scorepad_copies, cards_only=cards_only, catalog=catalog,
                           jobs=jobs if jobs is not None else (os.cpu_count() or 1))
    except (OSError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    _warn(result.warnings, result.problems)
    if result.problems:
        report_problems(result.problems)
        click.echo("Nothing was written.", err=True)
        sys.exit(1)
    for line in plan_summaries(result.plans):
        click.echo(line, err=True)
    if lang:
        for line in fallback_lines(result.fallbacks, lang):
            click.echo(line, err=True)
    for note in dict.fromkeys(filter(None, (margin_note(plan.imp) for plan in result.plans))):
        click.echo(note, err=True)
    for path in result.written:
        click.echo(str(path))
    kept = set(result.unchanged)
    new = [p for p in result.written if p not in kept]
    pdfs = sum(1 for p in new if p.suffix == ".pdf")
    cuts = len(new) - pdfs
    if not new:
        click.echo(f"Nothing changed: all {len(kept)} files are up to date; QR codes point at {qr_base_url(base.url)}/Q/...",
                   err=True)
    else:
        also = f" ({_count(len(kept), 'other file')} unchanged)" if kept else ""
        click.echo(f"Wrote {_count(pdfs, 'PDF file')} and {_count(cuts, 'SVG cut file')}{also}; QR codes point at "
                   f"{qr_base_url(base.url)}/Q/...", err=True)


def _count(n: int, thing: str) -> str:
    """``n`` and ``thing`` in the singular or plural: "1 PDF file", "13 PDF files"."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


@main.command("calibration")
@PAPER_OPTION
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Where to write calibration.pdf. Default: the project's output folder, else ./output.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="Flip edge the registration test (pages 2-3) is read for.")
@click.option("--game", default=None, help="Draw this game's card size (default: poker).")
@DATA_OPTION
@TEMPLATES_OPTION
def calibration_cmd(paper: str, out_dir: Path | None, duplex: str, game: str | None, data_dir: Path | None,
                    templates_dir: Path | None) -> None:
    """Write calibration.pdf: 100 mm rulers and a card outline (print at 100 %), and a duplex
    registration test whose reading is the --back-offset to build with."""
    from card_data.loader import load_database
    from card_data.problems import DatabaseError
    from card_data.schema import CardSize
    from printkit.sheets.prepress.calibration import CalibrationError, calibration_pdf
    from printkit.sheets.render import write_atomically

    paths = command_paths(data_dir, templates_dir, out_dir)
    check_output_folder(paths, paths.out_dir, given=out_dir is not None)
    size = CardSize()
    if game is not None:
        try:
            db = load_database(paths.data_dir)
        except DatabaseError as exc:
            report_problems(exc.problems)
            sys.exit(1)
        if game not in db.games:
            raise click.UsageError(f"no such game {game!r} (have: {', '.join(db.games)})")
        size = db.games[game].info.card_size
    try:
        data = calibration_pdf(paper_by_name(paper), size, duplex, templates_dir=paths.print_templates_dir())
        path = paths.out_dir / "calibration.pdf"
        write_atomically(path, data)
    except (CalibrationError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(str(path))
    click.echo("Print page 1 at actual size (100 %) and measure the rulers; print pages 2-3 double-sided "
               "and read the --back-offset off the scales.", err=True)


@main.command("validate")
@click.argument("games", nargs=-1)
@DATA_OPTION
@TEMPLATES_OPTION
def validate_cmd(games: tuple[str, ...], data_dir: Path | None, templates_dir: Path | None) -> None:
    """Check the card database, deck lists and that every card's text fits its layout.

    Prints every problem as FILE:LINE: game/card-id: field: message and exits 1 if any.
    """
    from printkit.build_options import BuildOptions
    from printkit.pipeline.build import build

    options = BuildOptions(paper=paper_by_name("letter"), base_url="http://localhost:5000")
    paths = command_paths(data_dir, templates_dir)
    with build_gc():
        result = build(paths.data_dir, None, options, games, layouts_dir=paths.templates_dir)
    _warn(result.warnings, result.problems)
    if result.problems:
        report_problems(result.problems)
        sys.exit(1)
    decks = sum(len(g.decks) for g in result.games)
    click.echo(f"OK: {len(result.games)} games, {result.cards} cards, {decks} deck lists.")


OUTPUT_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO})
"""Why output cannot be written that is said in one line, not a traceback: a full disk or
quota, a failing device (``printkit validate > /dev/full``). click itself answers a closed pipe."""


def run() -> None:
    """The ``printkit`` console script: :data:`main`, its process ending without Python's
    teardown (:func:`~printkit.command_line.run_without_teardown`). Output that cannot be
    written (:data:`OUTPUT_FULL`) ends it with ``Error: cannot write: ...`` and status 1."""
    run_without_teardown(_main_saying_full_output)


def _main_saying_full_output() -> None:
    try:
        main()
    except OSError as exc:
        if exc.errno not in OUTPUT_FULL:
            raise
        try:
            sys.stderr.write(f"Error: cannot write: {exc.strerror or exc}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass  # standard error is no better off
        sys.exit(1)


if __name__ == "__main__":
    run()
