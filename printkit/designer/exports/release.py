"""``printkit release``: record a version of every changed card (errata), see
:mod:`card_data.editions.printings`. Attached to the ``printkit`` group lazily (printkit/cli.py)."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

import click

from printkit.command_line import command_paths, report_problems


UNWRITTEN_REASON = "(the reason --reason will give)"
"""What a dry run without ``--reason`` shows as each erratum's reason."""


MAX_REASON_CHARS = 1_000
"""The longest reason taken: it is shown on every older copy's rulings page."""


def _reason_text(text: str) -> str:
    """``text`` as a reason players may read: at most :data:`MAX_REASON_CHARS` characters, no
    control character (line breaks aside) nor bidirectional override (an escape sequence would
    reach the terminal as it is echoed, and the page). Raises ``click.BadParameter``."""
    from card_data.engine.seats import unshowable_character

    if len(text) > MAX_REASON_CHARS:
        raise click.BadParameter(f"{len(text):,} characters; a reason holds at most {MAX_REASON_CHARS:,}")
    found = unshowable_character(text.replace("\n", " "))
    if found is not None:
        raise click.BadParameter(f"holds {found}, a control character")
    return text


def _checked_reasons(ctx: click.Context, param: click.Parameter, value: object) -> object:
    if value is None:
        return None
    if isinstance(value, str):
        return _reason_text(value)
    return tuple((card_id, _reason_text(text)) for card_id, text in value)


@click.command("release")
@click.argument("games", nargs=-1)
@click.option("--reason", default=None, metavar="TEXT", callback=_checked_reasons,
              help="Why the changed cards changed, in your words (shown to players holding an older copy). "
              "Required when a card that already has a version changed, unless --card-reason gives its own.")
@click.option("--data", "data_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Card database folder (one sub-folder per game). Default: the project's (printkit.toml here or "
              "above), else the bundled one.")
@click.option("--date", "date", type=click.DateTime(formats=["%Y-%m-%d"]), default=None, metavar="YYYY-MM-DD",
              help="The release's date (default: today).")
@click.option("--card-reason", "card_reasons", type=(str, str), multiple=True, metavar="CARD-ID TEXT",
              callback=_checked_reasons,
              help="Why this one card changed (repeat for each card that has its own reason); the others "
              "changed take --reason.")
@click.option("--dry-run", is_flag=True, help="Show which cards would get which version; write nothing.")
def release_cmd(games: tuple[str, ...], reason: str | None, data_dir: Path | None, date: datetime.datetime | None,
                card_reasons: tuple[tuple[str, str], ...], dry_run: bool) -> None:
    """Record a new version of every card of GAMES (default: all) whose printed fields changed since
    its last version, in the game's printings.yaml; a card without one gets version 1.

    Printed fields are everything a card prints except its artwork; how many copies print (a
    declared game's qty) is not one either (see the README, "Errata: card versions"); a card
    moved to another card type is. Prints one line per card, GAME/CARD-ID vN. A QR code printed after the
    release opens that version's page; a player whose copy is older sees what changed, and why.
    """
    from card_data.loader import check_database
    from card_data.editions.printings import (
        PRINTINGS_FILE,
        Printings,
        plan_release,
        with_release,
        write_printings,
    )

    paths = command_paths(data_dir)
    db, problems = check_database(paths.data_dir)
    if problems:
        report_problems(problems, "Fix them before a release: nothing was written.")
        sys.exit(1)
    unknown = [name for name in games if name not in db.games]
    if unknown:
        raise click.UsageError(f"no such game {', '.join(map(repr, unknown))} (have: {', '.join(db.games)})")
    day = date.date() if date is not None else datetime.date.today()
    selected = [db.games[name] for name in (games or db.games)]
    # A dry run shows the errata before their reason is written: it stands in until then.
    unwritten = dry_run and not (reason and reason.strip())
    own = dict(card_reasons)
    unknown_cards = sorted(card_id for card_id in own if not any(card_id in game.cards for game in selected))
    if unknown_cards:
        raise click.UsageError(f"--card-reason names no card of {', '.join(g.game_id for g in selected)}: "
                               + ", ".join(unknown_cards))
    plans = []
    for game in selected:
        printings = game.printings if game.printings.versioned else Printings(game.folder / PRINTINGS_FILE)
        try:
            planned = plan_release(game.cards.values(), printings, day, UNWRITTEN_REASON if unwritten else reason,
                                   {card_id: why for card_id, why in own.items() if card_id in game.cards})
        except ValueError as exc:
            raise click.UsageError(f"{game.game_id}: {exc}") from None
        plans.append((game, printings, planned))
    total = 0
    for game, printings, planned in plans:
        for item in planned:
            why = "first version" if item.first else f"erratum: {item.printing.reason}"
            click.echo(f"{game.game_id}/{item.card_id} v{item.printing.version} ({item.printing.date}, {why})")
        total += len(planned)
        if planned and not dry_run:
            try:
                write_printings(printings.path, with_release(printings, planned))
            except OSError as exc:
                raise click.ClickException(f"{printings.path}: cannot write: {exc}") from None
    if not total:
        click.echo("Nothing to release: every card is at its last version.", err=True)
    elif dry_run:
        errata = sum(1 for _, _, planned in plans for item in planned if item.printing.reason == UNWRITTEN_REASON)
        need = (f" The {errata} errat{'um needs' if errata == 1 else 'a need'} --reason when released."
                if unwritten and errata else "")
        click.echo(f"Dry run: {total} card{'s' if total != 1 else ''} would get a new version; nothing was written.{need}",
                   err=True)
    else:
        files = sum(1 for _, _, planned in plans if planned)
        click.echo(f"Released {total} card version{'s' if total != 1 else ''} dated {day} ({files} printings.yaml file"
                   f"{'s' if files != 1 else ''} written).", err=True)
