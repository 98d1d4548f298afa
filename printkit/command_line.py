"""What every ``printkit`` command shares: where to read and write, and how problems are told."""

from __future__ import annotations

from pathlib import Path

import click

from card_data.problems import Problem


def command_paths(data_dir: Path | None, templates_dir: Path | None = None, out_dir: Path | None = None):
    """Where to read and write: the options, else the project around the current folder, else
    the bundled data (:func:`printkit.designer.project.project_paths`). A broken
    ``printkit.toml`` is a :class:`click.UsageError` naming its file and line."""
    from printkit.designer.project import ConfigError, project_paths

    try:
        return project_paths(data_dir, templates_dir, out_dir)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def report_problems(problems: list[Problem], then: str = "") -> None:
    """Every problem on stderr, a line each, then how many (and ``then``, e.g. "Nothing was
    written.")."""
    for p in problems:
        click.echo(str(p), err=True)
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found."
    click.echo(f"{count} {then}" if then else count, err=True)
