"""The ``printkit`` command: ``build``, ``validate`` and ``site``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from card_data.problems import Problem
from printkit.build import BuildOptions, build
from printkit.config import ConfigError, resolve_base_url
from printkit.paper import PAPERS, paper_by_name

DATA_OPTION = click.option("--data", "data_dir", type=click.Path(path_type=Path, file_okay=False),
                           default=None, help="Card database folder (one sub-folder per game). Default: the bundled one.")


def _report(problems: list[Problem]) -> None:
    for p in problems:
        click.echo(str(p), err=True)
    click.echo(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found.", err=True)


def _progress_factory():
    """A rich progress bar on a terminal; silence otherwise (CI logs, pipes)."""
    if not sys.stderr.isatty():
        return None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

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


@click.group()
@click.version_option(package_name="printkit")
def main() -> None:
    """Print-ready PDFs for print-and-play card games, from a card database."""


@main.command("build")
@click.argument("games", nargs=-1)
@DATA_OPTION
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("output"),
              show_default=True, help="Where to write output/<game>/*.pdf.")
@click.option("--paper", type=click.Choice(sorted(PAPERS), case_sensitive=False), default="letter", show_default=True)
@click.option("--base-url", default=None, help="Where the QR codes point (the companion's address). "
              "Default: $PRINTKIT_BASE_URL, printkit.toml, or http://localhost:5000.")
@click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long", show_default=True,
              help="Flip edge of your duplex printer; 'none' writes the backs to a separate file.")
def build_cmd(games: tuple[str, ...], data_dir: Path | None, out_dir: Path, paper: str, base_url: str | None,
              duplex: str) -> None:
    """Render card sheets (fronts and duplex backs, bleed, crop marks) for GAMES (default: all)."""
    base = _base_url(base_url)
    options = BuildOptions(paper=paper_by_name(paper), base_url=base.url, duplex=duplex)
    try:
        result = build(data_dir, out_dir, options, games, progress_factory=_progress_factory())
    except (OSError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    if result.problems:
        _report(result.problems)
        click.echo("Nothing was written.", err=True)
        sys.exit(1)
    for path in result.written:
        click.echo(str(path))
    click.echo(f"Wrote {len(result.written)} PDF files; QR codes point at {base.url}/r/...", err=True)


@main.command("validate")
@click.argument("games", nargs=-1)
@DATA_OPTION
def validate_cmd(games: tuple[str, ...], data_dir: Path | None) -> None:
    """Check the card database, deck lists and that every card's text fits its layout.

    Prints every problem as FILE:LINE: game/card-id: field: message and exits 1 if any.
    """
    options = BuildOptions(paper=paper_by_name("letter"), base_url="http://localhost:5000")
    result = build(data_dir, None, options, games)
    if result.problems:
        _report(result.problems)
        sys.exit(1)
    decks = sum(len(g.decks) for g in result.games)
    click.echo(f"OK: {len(result.games)} games, {result.cards} cards, {decks} deck lists.")


@main.command("site")
@DATA_OPTION
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("output/site"),
              show_default=True)
@click.option("--base-url", default=None, help="Where the site will be hosted (for canonical links); "
              "default as for build.")
def site_cmd(data_dir: Path | None, out_dir: Path, base_url: str | None) -> None:
    """Write the rulings pages as static HTML, so QR codes work from any static web host."""
    from card_data.problems import DatabaseError
    from companion.site import ExportError, export_site

    try:
        base = resolve_base_url(base_url)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        written = export_site(out_dir, data_dir, base_url=base.url)
    except DatabaseError as exc:
        _report(exc.problems)
        sys.exit(1)
    except (ExportError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Wrote {len(written)} files to {out_dir}; host that folder at {base.url} "
               f"(or pass --base-url) so the cards' QR codes find it.")


if __name__ == "__main__":
    main()
