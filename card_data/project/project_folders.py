"""A designer's project folders as ``printkit.toml`` names them, and where a command may write.

Shared by printkit (``build``, ``export``, ``tts``, ``calibration``) and the companion
(``companion site``): both find the project the same way (:func:`find_project`) and refuse
the same output folders (:func:`check_out_folder`).

An output folder is refused when it is, holds or lies inside a source folder: the card data
folder, the templates folder, or a project folder (one holding ``printkit.toml``), except the
project's own output folder and what lies below it. Output written there would mix with the
designer's files, and a later build's clean-up could not tell the two apart. Only folders
already known are compared (the command's data and templates folders, the projects found from
the current folder, from the output folder and from the data and templates folders); no tree
is walked. Symbolic links and ``..`` are resolved first.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from card_data.project.base_url import find_config_file, read_config

DEFAULT_DATA = "card_data"
DEFAULT_TEMPLATES = "templates"
DEFAULT_OUT = "output"

GAME_TEMPLATES = "templates"
"""A game folder's sub-folder of print layouts: ``<game>/templates/*.yaml``."""

GAME_TABLE_PAGE = "table.html"
"""A bundled (or installed) game package's scorekeeper page, beside its data: the companion's,
never printed nor copied into a project."""

GAME_CODE_SUFFIXES = (".py", ".pyc", ".pyo")
GAME_CODE_DIRS = ("__pycache__",)
"""A bundled game's folder is its Python package too. Its Python and bytecode (files with these
suffixes, folders with these names), like its :data:`GAME_TABLE_PAGE`, are not the game's data:
what reads or digests a game folder as data leaves them out (see :func:`is_game_data`)."""


GAME_TRANSLATIONS = "translations"
GAME_TRANSLATION_SUFFIXES = (".yaml", ".yml")
"""A game's data in other languages is ``translations/<lang>.yaml`` (what the loader reads).
Anything else in that folder is the companion's gettext catalogue of a bundled game's words
(``messages.pot``, ``<lang>/LC_MESSAGES/messages.po`` and ``.mo``): it is not printed, and a
project's game has no catalogue the companion reads, so it is not the game's data either."""


def is_game_data(relative: Path) -> bool:
    """Whether the file (or folder) at ``relative`` (its path inside a game folder) is the game's
    data: not its Python or bytecode (:data:`GAME_CODE_SUFFIXES`, :data:`GAME_CODE_DIRS`), nor its
    scorekeeper page (:data:`GAME_TABLE_PAGE` directly in the folder), nor the companion's
    catalogue of its words (in :data:`GAME_TRANSLATIONS`, what is not a ``<lang>.yaml``)."""
    relative = Path(relative)
    parts = relative.parts
    catalogue = (len(parts) > 1 and parts[0] == GAME_TRANSLATIONS
                 and not (len(parts) == 2 and relative.suffix in GAME_TRANSLATION_SUFFIXES))
    return not (relative.suffix in GAME_CODE_SUFFIXES or any(part in GAME_CODE_DIRS for part in parts)
                or relative == Path(GAME_TABLE_PAGE) or catalogue)


@dataclass(frozen=True)
class Project:
    """A project folder: ``root`` (holding ``config``, its ``printkit.toml``) and the folders it names."""

    root: Path
    config: Path
    data_dir: Path
    templates_dir: Path
    out_dir: Path


def find_project(start: Path | None = None) -> Project | None:
    """The project whose ``printkit.toml`` is in ``start`` (default: the current folder) or the
    nearest folder above, or ``None``. ``start`` need not exist.

    Folders are made absolute. Raises :class:`~card_data.project.base_url.ConfigError` as
    ``FILE:LINE: message`` for a broken ``printkit.toml``.
    """
    config = find_config_file(start)
    if config is None:
        return None
    table = read_config(config)
    root = config.parent
    return Project(root, config,
                   root / str(table.get("data", DEFAULT_DATA)),
                   root / str(table.get("templates", DEFAULT_TEMPLATES)),
                   root / str(table.get("out", DEFAULT_OUT)))


def game_templates_dir(game_folder: Path, templates_dir: Path | None = None) -> Path:
    """The folder of one game's print layouts (``<card type>.yaml``, ``back-<back>.yaml``,
    boards, tokens, reference cards): ``<templates_dir>/<game id>/`` when a templates folder is
    given (``--templates``, ``templates`` in ``printkit.toml``) and holds a folder for the game
    (a project laid out before games held their layouts), else ``<game_folder>/templates/``.

    The game id is ``game_folder``'s name (a game's folder is named for it). The only place
    that decides this: the build (cards, reference cards, boards, tokens), preview, export and
    tts all ask here. The folder returned
    need not exist (a game without layouts); nothing is created.
    """
    if templates_dir is not None:
        own = Path(templates_dir) / Path(game_folder).name
        if own.is_dir():
            return own
    return Path(game_folder) / GAME_TEMPLATES


class OutFolderError(ValueError):
    """An output folder that would mix with the sources; the message (one line) names both."""


def _real(path: Path, cwd: Path) -> Path:
    """``path`` (relative to ``cwd``) absolute, with symbolic links and ``..`` resolved (as far
    as it exists; the rest is taken as written)."""
    return (cwd / Path(path).expanduser()).resolve()


def _within(inner: Path, outer: Path) -> bool:
    """Whether ``inner`` is ``outer`` or lies below it (both resolved)."""
    return inner == outer or outer in inner.parents


def _conflict(out: Path, sources: list[tuple[str, Path]], projects: list[Project]) -> str | None:
    """How ``out`` (resolved) meets a source folder, e.g. ``is inside the card data folder
    /x/card_data``; ``None`` if it does not."""
    for what, source in sources:
        if out == source:
            return f"is the {what} {source}"
        if _within(out, source):
            return f"is inside the {what} {source}"
    for project in projects:
        root, own_out = project.root, project.out_dir
        if out == root:
            return f"is the project folder {root} (it holds {project.config.name})"
        if _within(root, out):
            return f"contains the project folder {root}"
        if _within(out, root) and not (own_out != root and _within(out, own_out)):
            return f"is inside the project folder {root} but outside its output folder {own_out}"
    for what, source in sources:
        if _within(source, out):
            return f"contains the {what} {source}"
    return None


def _shown(path: Path, cwd: Path) -> str:
    """``path`` relative to ``cwd`` when below it, else absolute; with a trailing ``/``."""
    try:
        return f"{path.relative_to(cwd.resolve())}/"
    except ValueError:
        return f"{path}/"


def check_out_folder(out_dir: Path, data_dir: Path, templates_dir: Path | None = None, cwd: Path | None = None,
                     named: str | None = None, config: Path | None = None) -> None:
    """Refuse an output folder that is, holds or lies inside a source folder (see the module's
    docstring), before anything is written.

    ``out_dir``, ``data_dir`` (the card data read; the bundled one for the bundled data) and
    ``templates_dir`` (``None``: the command reads none) are relative to ``cwd`` (default: the
    current folder), which is also where the current project is looked for. ``named`` is how
    the message names the output folder (default ``--out <out_dir>``); ``config`` is the
    ``printkit.toml`` the folder came from, if it did not come from an option (the message
    then says to change ``out`` there).

    Raises :class:`OutFolderError` with a one-line message naming both folders, e.g.
    ``--out card_data is the card data folder /x/card_data: output would mix with the
    sources; choose another folder, such as output/``; :class:`~card_data.project.base_url.ConfigError`
    for a broken ``printkit.toml`` found on the way.
    """
    here = Path.cwd() if cwd is None else Path(cwd)
    out = _real(out_dir, here)
    data = _real(data_dir, here)
    sources = [("card data folder", data)]
    templates = _real(templates_dir, here) if templates_dir is not None else None
    if templates is not None:
        sources.append(("templates folder", templates))
    projects: list[Project] = []
    for start in (here, out, data, templates):
        project = find_project(_real(start, here)) if start is not None else None
        if project is not None and all(p.config != project.config for p in projects):
            project = Project(*(_real(p, here) for p in (project.root, project.config, project.data_dir,
                                                         project.templates_dir, project.out_dir)))
            projects.append(project)
            sources += [("card data folder", project.data_dir), ("templates folder", project.templates_dir)]
    sources = list(dict.fromkeys(sources))
    conflict = _conflict(out, sources, projects)
    if conflict is None:
        return
    named = named or f"--out {out_dir}"
    if config is not None:
        advice = f"change out in {config}"
    else:
        current = next((p for p in projects if _within(here.resolve(), p.root)), None)
        suggestion = current.out_dir if current is not None else _real(Path(DEFAULT_OUT), here)
        fine = _conflict(suggestion, sources, projects) is None
        advice = ("choose another folder, such as " + _shown(suggestion, here) if fine
                  else "choose a folder outside the sources")
    raise OutFolderError(f"{named} {conflict}: output would mix with the sources; {advice}")


__all__ = ["DEFAULT_DATA", "DEFAULT_OUT", "DEFAULT_TEMPLATES", "GAME_CODE_DIRS", "GAME_CODE_SUFFIXES",
           "GAME_TABLE_PAGE", "GAME_TEMPLATES", "GAME_TRANSLATIONS", "GAME_TRANSLATION_SUFFIXES", "OutFolderError",
           "Project", "check_out_folder", "find_project", "game_templates_dir", "is_game_data"]
