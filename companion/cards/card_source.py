"""Which card data the companion serves, and the base URL its cards' QR codes point at.

One rule for every way the companion starts (``companion run``, ``companion site``,
``flask --app companion``, a WSGI server calling :func:`companion.create_app`):

1. an explicit card data folder (``--data``, config ``CARD_DATA_DIR``) wins;
2. else the project (a folder holding ``printkit.toml``) found from the project folder given
   (``--project``, config ``PROJECT_DIR``) or, without one, from the current folder, up (as
   printkit's commands find it, :func:`card_data.project.project_folders.find_project`): its card
   data folder (``data`` in ``printkit.toml``) is served, and its ``base_url`` gives the
   pages' canonical links;
3. else the bundled database.

The base URL is ``--base-url`` (config ``BASE_URL``), else as printkit resolves it from the
project's folder (``$PRINTKIT_BASE_URL``, then ``printkit.toml``,
:func:`card_data.project.base_url.resolve_base_url`); printkit's fallback ``http://localhost:5000`` is
not taken as a public address, so the live pages then have no canonical links.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from card_data.project.base_url import ConfigError, resolve_base_url
from card_data.loader import bundled_data_dir
from card_data.project.project_folders import Project, find_project


@dataclass(frozen=True)
class CardSource:
    """Where the served card data comes from.

    Attributes:
        data_dir: the card database folder (one sub-folder per game).
        project: the project whose folders and ``printkit.toml`` apply (its limits, its base
            URL), or ``None`` outside a project.
    """

    data_dir: Path
    project: Project | None

    @property
    def settings_dir(self) -> Path | None:
        """Where ``printkit.toml`` (limits, base URL) is looked for from: the project's folder,
        or ``None`` for the current folder."""
        return self.project.root if self.project is not None else None


def card_source(data_dir: str | Path | None = None, project_dir: str | Path | None = None) -> CardSource:
    """The card data to serve (module docstring): ``data_dir`` if given, else the data of the
    project found from ``project_dir`` (default: the current folder) up, else the bundled
    database.

    Raises :class:`~card_data.project.base_url.ConfigError` for a broken ``printkit.toml`` (as
    ``FILE:LINE: message``), and when ``project_dir`` is given but neither it nor a folder above
    it holds a ``printkit.toml`` (the message names the folder).
    """
    start = Path(project_dir).absolute() if project_dir is not None else None
    if start is not None and not start.is_dir():
        raise ConfigError(f"--project {project_dir}: not a folder")
    project = find_project(start)
    if start is not None and project is None:
        raise ConfigError(f"--project {project_dir}: no printkit.toml in that folder or any folder above it "
                          "(`printkit init FOLDER` starts a project)")
    if data_dir is not None:
        return CardSource(Path(data_dir), project)
    if project is not None:
        return CardSource(project.data_dir, project)
    return CardSource(bundled_data_dir(), None)


def served_base_url(given: str | None, source: CardSource) -> str | None:
    """The public base URL of the served pages: ``given`` (``--base-url``), else the one
    printkit prints into the cards' QR codes from ``source``'s project folder, or ``None``
    when only printkit's loopback default is left. Raises
    :class:`~card_data.project.base_url.ConfigError` naming the source of a malformed URL."""
    base = resolve_base_url(given, source.settings_dir)
    return None if base.source == "default" else base.url
