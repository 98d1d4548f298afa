"""A designer's project folder: ``printkit init`` makes one, every command finds and uses it.

A project is a folder holding a ``printkit.toml`` and the files a designer owns:

    printkit.toml                 [printkit] data / templates / out (and base_url), see card_data.project.base_url
    card_data/<game>/             one folder per game: game.yaml, cards/*.yaml, decks/*.yaml, ...
                                  and templates/*.yaml, its layout templates (the ``--data`` layout)
    templates/print/*.yaml        the calibration texts (the ``--templates`` folder); a project
                                  made before games held their layouts has them in templates/<game>/
    output/                       what build, export and tts write

Any printkit command run in the project folder or below it uses the project's card data,
templates and output folder (:func:`project_paths`); ``--data``, ``--templates`` and ``--out``
still override each. Problems then name the designer's own files, relative to the current
folder when they lie under it (``card_data/cartisora/cards/brute.yaml:12: ...``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from card_data.project.base_url import CONFIG_FILE, ConfigError
from card_data.games import bundled_game_ids, registry
from card_data.problems import ProblemsError
from card_data.project.project_folders import (
    DEFAULT_DATA,
    DEFAULT_OUT,
    DEFAULT_TEMPLATES,
    GAME_TEMPLATES,
    Project,
    find_project,
    is_game_data,
)
from printkit.sheets.templating.layout_base import LAYOUTS_DIR

# What only `printkit init` uses (the sheet importer, the starter game) is imported there: every
# command finds its project through this module, and `printkit build` never needs them.

PRINT_TEMPLATES = "print"
"""``templates/print/``: the texts of the calibration and registration pages."""

@dataclass(frozen=True)
class ProjectPaths:
    """Where one command reads and writes.

    Attributes:
        data_dir: card database folder, or ``None`` for the bundled one.
        templates_dir: layout templates folder (the bundled ``printkit/layouts`` by default).
        out_dir: output folder.
        project: the project these came from, or ``None`` outside a project.
    """

    data_dir: Path | None
    templates_dir: Path
    out_dir: Path
    project: Project | None = None

    def print_templates_dir(self) -> Path:
        """The templates folder holding ``print/`` (calibration texts): this one if it has
        ``print/``, else the bundled one (a project made before it was copied still works)."""
        if (self.templates_dir / PRINT_TEMPLATES).is_dir():
            return self.templates_dir
        return LAYOUTS_DIR


def _shown(path: Path, cwd: Path) -> Path:
    """``path`` relative to ``cwd`` when it lies under it (short, clickable problem locations),
    else absolute."""
    path = path.resolve()
    try:
        return path.relative_to(cwd.resolve())
    except ValueError:
        return path


def project_paths(data_dir: Path | None = None, templates_dir: Path | None = None, out_dir: Path | None = None,
                  cwd: Path | None = None) -> ProjectPaths:
    """Where a command reads and writes: each of ``data_dir``, ``templates_dir``, ``out_dir``
    (the ``--data``, ``--templates``, ``--out`` options) if given, else the project's (see
    :func:`find_project`, searched from ``cwd``), else the bundled data and templates and
    ``./output``.

    A project's folders are given relative to ``cwd`` when under it, so problems read
    ``card_data/<game>/cards/x.yaml:LINE``. Raises :class:`~card_data.project.base_url.ConfigError`
    for a broken ``printkit.toml``; a project folder that does not exist is the loader's
    problem to report (``FILE:1: data: not a directory``).
    """
    here = cwd or Path.cwd()
    project = find_project(here)
    if project is None:
        return ProjectPaths(data_dir, templates_dir or LAYOUTS_DIR, out_dir or Path(DEFAULT_OUT))
    return ProjectPaths(data_dir if data_dir is not None else _shown(project.data_dir, here),
                        templates_dir if templates_dir is not None else _shown(project.templates_dir, here),
                        out_dir if out_dir is not None else _shown(project.out_dir, here),
                        project)


# ---- printkit init ---------------------------------------------------------------------------

CONFIG_TEXT = """\
# A printkit project. Every printkit command run in this folder (or a folder below it) reads
# the card data and layout templates named here and writes under `out`; the options --data,
# --templates and --out override them. Paths are relative to this file.
[printkit]
data = "{data}"            # card database: one folder per game (game.yaml, cards/, decks/)
templates = "{templates}"  # calibration texts (templates/print/*.yaml); a game's layouts are in its folder
out = "{out}"              # where build, export and tts write
# base_url = "http://192.168.1.20:5000"   # where the cards' QR codes point (see the README)
"""

class InitError(Exception):
    """``printkit init`` cannot start a project there; the message says why."""


def _copy_tree(source: Path, dest: Path, written: list[Path]) -> None:
    """Copy the data of ``source`` into ``dest`` (following the bundled templates' symlink):
    without a bundled game folder's Python, bytecode and scorekeeper page
    (:func:`card_data.project.project_folders.is_game_data`; a project never runs its own Python)."""
    for path in sorted(source.rglob("*")):
        # A folder is made for the data files in it: none for one holding only what is not data
        # (a game's translations/ holding only its catalogue, __pycache__).
        if path.is_dir() or not is_game_data(path.relative_to(source)):
            continue
        target = dest / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        written.append(target)


def path_from(folder: Path, path: Path) -> str:
    """``path`` as written from inside ``folder``, where the commands shown after ``init``
    run (``cards.csv`` beside the project is ``../cards.csv``); absolute when no relative path
    leads there (another drive on Windows)."""
    try:
        return os.path.relpath(path.resolve(), folder.resolve())
    except ValueError:
        return str(path.resolve())


def _write(path: Path, text: str, written: list[Path]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    written.append(path)


def _sheet_game(stage: Path, sheet: Path, game_id: str, written: list[Path], sheet_shown: str) -> None:
    """Write into ``stage`` the declared game ``game_id`` that ``sheet`` describes and its
    cards, imported from it. Raises :class:`ProblemsError` (the sheet's ``FILE:ROW``
    problems, or the written game's, which would be a bug)."""
    from printkit.designer.spreadsheet.card_writing import cards_to_yaml
    from printkit.designer.spreadsheet.importer import copy_art, import_sheet, sheet_rows
    from printkit.designer.spreadsheet.sheet_game import game_files
    from printkit.designer.spreadsheet.sheet_inference import infer_game

    header, rows, problems = sheet_rows(sheet)
    game = infer_game(str(sheet), header, rows) if not problems else None
    if game is not None:
        problems = game.problems
    if problems:
        raise ProblemsError(problems)
    for name, text in game_files(game_id, game, header, rows, sheet.name, import_path=sheet_shown).items():
        _write(stage / name, text, written)
    cards_file = stage / DEFAULT_DATA / game_id / "cards" / f"{sheet.stem}.yaml"
    # The artwork the sheet's art column names, beside the sheet, goes to the same paths in the
    # game's folder (where card data names its art), as each later import copies new art.
    result = import_sheet(sheet, game_id, stage / DEFAULT_DATA, replaces=cards_file)
    if result.problems:
        raise ProblemsError(result.problems)
    written += copy_art(result.art)
    _write(cards_file, cards_to_yaml(result.cards, sheet.name, game_id), written)


def _starter_game(stage: Path, written: list[Path], game_id: str) -> None:
    """Write into ``stage`` printkit's starter game (:mod:`printkit.designer.loop.starter_game`) as
    the game ``game_id`` and check that it loads. Raises :class:`ProblemsError` if it does not
    (a bug of printkit's)."""
    from card_data.loader import check_database
    from printkit.designer.loop.starter_game import starter_files

    for name, text in starter_files(game_id).items():
        _write(stage / name, text, written)
    _, problems = check_database(stage / DEFAULT_DATA)
    if problems:
        raise ProblemsError(problems)


def init_project(dest: Path, from_game: str | None = None, from_sheet: Path | None = None,
                 game_id: str | None = None) -> list[Path]:
    """Start a project in ``dest`` (created if missing): a ``printkit.toml``, card data and
    layout templates the designer then owns.

    ``from_game`` (a bundled game id): a copy of the bundled game's folder into
    ``card_data/<game>/`` (cards, deck lists, glossary, reference cards, artwork, its layout
    templates in ``templates/``), without its Python and its scorekeeper page. ``from_sheet`` (a
    ``.csv`` or ``.xlsx`` file): a game declared in its ``game.yaml``, one field per column
    (see :mod:`printkit.designer.spreadsheet.sheet_inference`), ``game_id`` (default: from the sheet's file
    name), front and back templates printing every field, the sheet's cards imported into
    ``card_data/<game_id>/cards/<sheet stem>.yaml`` and the artwork files its ``art`` column
    names (relative to the sheet's folder, inside it) copied into the game's folder. Neither: printkit's small starter game
    (:mod:`printkit.designer.loop.starter_game`), declared in its game.yaml too, as ``game_id``
    (default ``my_game``). Either way
    ``templates/print/`` and the templates' README are copied.

    Everything is written in a folder beside ``dest`` first and moved into place once whole,
    so nothing is left half made. Returns the files written. Raises :class:`InitError` when
    ``dest`` already holds a ``printkit.toml``, ``card_data`` or ``templates``, ``from_game``
    is not a bundled game, ``game_id`` cannot name a game of one's own, or the options do not
    go together; :class:`~card_data.problems.ProblemsError` with the sheet's ``FILE:ROW``
    problems; ``OSError`` when the files cannot be written.
    """
    if from_game is not None and from_game not in bundled_game_ids():
        raise InitError(f"no bundled game {from_game!r} (have: {', '.join(bundled_game_ids())})")
    if from_game is not None and from_sheet is not None:
        raise InitError("give either --from (a copy of one of printkit's games) or --from-sheet, not both")
    if game_id is not None and from_game is not None:
        raise InitError("--game names the game made with --from-sheet or the starter game; --from copies a "
                        "bundled game under its own id")
    for name in (CONFIG_FILE, DEFAULT_DATA, DEFAULT_TEMPLATES):
        if (dest / name).exists():
            raise InitError(f"{dest / name} already exists; printkit init starts a new project in an "
                            "empty folder (or one without printkit.toml, card_data and templates)")
    if from_game is None:
        from printkit.designer.loop.starter_game import STARTER_GAME
        from printkit.designer.spreadsheet.sheet_game import GameIdError, check_game_id, sheet_game_id

        try:
            game_id = (check_game_id(game_id) if game_id is not None else
                       sheet_game_id(from_sheet) if from_sheet is not None else STARTER_GAME)
        except GameIdError as exc:
            raise InitError(str(exc)) from None
    parent = dest if dest.is_dir() else dest.parent
    parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".printkit-init-", dir=parent))
    try:
        staged = _stage_project(stage, from_game, from_sheet, game_id, dest)
        return _move_into(stage, dest, staged)
    except ProblemsError as exc:
        # Problems of files written here name where they would have been.
        raise ProblemsError([p.at(file=p.file.replace(str(stage), str(dest), 1),
                                  message=p.message.replace(str(stage), str(dest)))
                             for p in exc.problems]) from None
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _stage_project(stage: Path, from_game: str | None, from_sheet: Path | None, game_id: str | None,
                   dest: Path) -> list[Path]:
    """Write a whole project into ``stage`` (see :func:`init_project`); the files written."""
    from printkit.designer.loop.starter_game import STARTER_GAME

    written: list[Path] = []
    data, templates = stage / DEFAULT_DATA, stage / DEFAULT_TEMPLATES
    bundled_templates = LAYOUTS_DIR.resolve()
    if from_game is not None:
        from card_data.loader import bundled_data_dir

        _copy_tree(bundled_data_dir() / from_game, data / from_game, written)
    elif from_sheet is not None:
        _sheet_game(stage, from_sheet, game_id, written, path_from(dest, from_sheet))
    else:
        _starter_game(stage, written, game_id or STARTER_GAME)
    _copy_tree(bundled_templates / PRINT_TEMPLATES, templates / PRINT_TEMPLATES, written)
    for guide in ("README.md", "BOARDS.md"):
        if (bundled_templates / guide).is_file():
            shutil.copyfile(bundled_templates / guide, templates / guide)
            written.append(templates / guide)
    _write(stage / CONFIG_FILE, CONFIG_TEXT.format(data=DEFAULT_DATA, templates=DEFAULT_TEMPLATES, out=DEFAULT_OUT),
           written)
    if from_game is None:
        (data / (game_id or STARTER_GAME) / "decks").mkdir(parents=True, exist_ok=True)
    return written


def _move_into(stage: Path, dest: Path, staged: list[Path]) -> list[Path]:
    """Move the project written in ``stage`` to ``dest`` (made, or an existing folder without a
    project); the files' new paths."""
    if not dest.exists():
        stage.rename(dest)
    else:
        for child in sorted(stage.iterdir()):
            child.rename(dest / child.name)
    return [dest / path.relative_to(stage) for path in staged]


def game_of(path: Path, paths: ProjectPaths) -> str | None:
    """The game a changed file belongs to (``<data>/<game>/...``, its layouts in
    ``<data>/<game>/templates/`` among them, or an older project's ``<templates>/<game>/...``),
    or ``None`` when it concerns every game (``printkit.toml``, a file outside a game folder)."""
    from card_data.loader import bundled_data_dir  # the card schemas: only what runs needs them

    resolved = path.resolve()
    roots = [paths.templates_dir, paths.data_dir if paths.data_dir is not None else bundled_data_dir()]
    for root in roots:
        try:
            parts = resolved.relative_to(Path(os.path.abspath(root)).resolve()).parts
        except ValueError:
            continue
        # A registered game, or a declared one (a folder of the data holding a game.yaml).
        declared = paths.data_dir is not None and (Path(paths.data_dir) / parts[0] / "game.yaml").is_file() \
            if parts else False
        if len(parts) > 1 and (parts[0] in registry() or declared):
            return parts[0]
    return None


__all__ = [
    "ConfigError",
    "InitError",
    "Project",
    "ProjectPaths",
    "find_project",
    "game_of",
    "init_project",
    "project_paths",
]
