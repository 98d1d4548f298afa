"""Designer commands ``printkit import`` and ``printkit tts`` (attached to the ``printkit`` group
with ``main.add_command``)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from card_data.project.base_url import ConfigError, resolve_base_url
from card_data.editions.short_codes import qr_base_url
from card_data.games import game_ids
from printkit.command_line import check_output_folder, command_paths, report_problems
from printkit.designer.spreadsheet.card_writing import cards_to_yaml
from printkit.designer.spreadsheet.importer import copy_art, import_sheet
from printkit.designer.exports.tts import DEFAULT_DPI, build_tts
from printkit.sheets.render import write_atomically

_DATA_HELP = ("Card database folder (one sub-folder per game). Default: the project's (printkit.toml here or "
              "above), else the bundled one.")


def default_import_file(sheet: Path, game_id: str, data_dir: Path | None) -> Path:
    """Where ``printkit import SHEET --game GAME`` writes without ``--out``: the game's
    ``cards/<SHEET stem>.yaml`` when ``data_dir`` (a project's or ``--data``; ``None``: the
    bundled data, never written) has the game's folder, else beside the sheet."""
    if data_dir is not None and (data_dir / game_id).is_dir():
        return data_dir / game_id / "cards" / f"{sheet.stem}.yaml"
    return sheet.with_suffix(".yaml")


def unknown_game_message(game_id: str, data_dir: Path | None) -> str:
    """Why ``game_id`` is no game to import into: the games there are."""
    where = f"the card data folder {data_dir}" if data_dir is not None else "the bundled card data"
    return (f"no game '{game_id}': printkit's games are {', '.join(game_ids())}, and {where} has no folder "
            f"'{game_id}' whose game.yaml declares its cards' fields (printkit init --from-sheet makes one)")


@click.command("import")
@click.argument("sheet", metavar="FILE", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--game", "game_id", required=True, metavar="GAME",
              help="Whose cards the rows are: one of printkit's games, or a game of the card data folder "
              "declared in its game.yaml (see printkit init --from-sheet).")
@click.option("--out", "out_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="YAML file to write (a card_data cards/*.yaml list), replaced by each import. Default: "
              "in a project (or with --data), <data>/GAME/cards/FILE.yaml when that game folder exists, "
              "else FILE with the suffix .yaml.")
@click.option("--data", "data_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help=_DATA_HELP + " Artwork paths and ids are checked against its GAME folder.")
def import_cmd(sheet: Path, game_id: str, out_file: Path | None, data_dir: Path | None) -> None:
    """Turn a spreadsheet (FILE.csv or FILE.xlsx, one card per row) into card_data YAML.

    \b
    Row 1 names the columns after the card schema's fields:
      id, type, title, cost ...       plain fields
      bonuses.armor                   a field of a sub-record
      skills.0.name, skills.0.power   first item of a list of records (from 0, no gaps)
    and each further row is one card:
      Might; Cunning                  a list of plain values, separated by ';'
      [] or [{"kind": "..."}]         a cell starting with [ or { is read as JSON
      3, true                         numbers and true/false, unless the field is text
      (empty)                         the field keeps its default
    Every problem is printed as FILE:ROW: field: message (the header is row 1), and
    then nothing is written. The ids must not already be used by another card file
    of the game (except the --out file itself, which is replaced: importing the sheet
    again after editing it brings its cards up to date).

    For a game declared in its game.yaml, a column may also be named by the field's
    label, a type cell by the card type's label, and a yes/no field may say yes or no.
    """
    data = command_paths(data_dir).data_dir
    out = out_file if out_file is not None else default_import_file(sheet, game_id, data)
    try:
        result = import_sheet(sheet, game_id, data, replaces=out)
    except KeyError:
        raise click.BadParameter(unknown_game_message(game_id, data), param_hint="--game") from None
    if result.problems:
        report_problems(result.problems, "Nothing was written.")
        sys.exit(1)
    try:
        copied = copy_art(result.art)  # before the cards that name it: they never name a missing file
        write_atomically(out, cards_to_yaml(result.cards, sheet.name, game_id).encode("utf-8"))
    except OSError as exc:
        raise click.ClickException(str(exc)) from None
    count = len(result.cards)
    # "of GAME": a game named after its sheet is often "cards" ("Wrote 4 cards cards to" read wrong).
    click.echo(f"Wrote {count} card{'s' if count != 1 else ''} of {game_id} to {out}")
    if copied:
        click.echo(f"Copied {len(copied)} artwork file{'s' if len(copied) != 1 else ''} from beside the sheet: "
                   + ", ".join(str(path) for path in copied))
    for name, ids in result.kept.items():
        shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
        click.echo(f"Kept {name} from {out.name} (the sheet has no {name} column): {shown}")


@click.command("tts")
@click.argument("games", nargs=-1)
@click.option("--data", "data_dir", type=click.Path(path_type=Path, file_okay=False), default=None, help=_DATA_HELP)
@click.option("--templates", "templates_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Templates folder: an older project's <game>/*.yaml, used instead of the game folder's "
                   "templates/. Default: the project's, else the bundled one.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Where to write <out>/<game>/<kind>-<n>.png, .json and <kind>-back.png. "
              "Default: the project's output folder (else ./output), /tts.")
@click.option("--base-url", default=None, help="Where the cards' QR codes point; default as for build.")
@click.option("--dpi", type=click.IntRange(50, 600), default=DEFAULT_DPI, show_default=True,
              help="Card image resolution (200: a poker card is 500 x 700 px).")
@click.option("--deck", default=None, metavar="DECK",
              help="Only this deck list (a deck id or a deck-list YAML file), in its quantities, its files named "
              "<deck>-<n>.png (<deck>-<back>-<n>.png for a deck of several backs).")
def tts_cmd(games: tuple[str, ...], data_dir: Path | None, templates_dir: Path | None, out_dir: Path | None,
            base_url: str | None, dpi: int, deck: str | None) -> None:
    """Tabletop Simulator deck sheets for GAMES (default: all).

    Per game and card back: PNG grids of at most 10 x 7 card faces (69 cards a sheet, as TTS
    keeps the last cell for the hidden card; a sheet of n cards is min(10, n) columns by
    ceil(n / columns) rows), a JSON per sheet with NumWidth, NumHeight and the card ids in grid
    order, and the back image. A card is on the sheets as many times as it prints (its qty;
    none for qty 0), so the deck TTS makes holds every copy.
    """
    try:
        base = resolve_base_url(base_url)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        paths = command_paths(data_dir, templates_dir)
        out = check_output_folder(paths, out_dir if out_dir is not None else paths.out_dir / "tts",
                                  given=out_dir is not None)
        result = build_tts(paths.data_dir, out, base.url, games, dpi=dpi, layouts_dir=paths.templates_dir,
                           deck=deck)
    except OSError as exc:
        raise click.ClickException(str(exc)) from None
    if result.problems:
        report_problems(result.problems, "Nothing was written.")
        sys.exit(1)
    for path in result.written:
        click.echo(str(path))
    for path in result.removed:
        click.echo(f"removed {path} (a sheet this run no longer makes)", err=True)
    click.echo(f"Wrote {len(result.sheets)} deck sheets; QR codes point at {qr_base_url(base.url)}/Q/...", err=True)
