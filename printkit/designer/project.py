"""A designer's project folder: ``printkit init`` makes one, every command finds and uses it.

A project is a folder holding a ``printkit.toml`` and the files a designer owns:

    printkit.toml                 [printkit] data / templates / out (and base_url), see card_data.base_url
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
from dataclasses import dataclass
from pathlib import Path

from card_data.base_url import CONFIG_FILE, ConfigError
from card_data.games import bundled_game_ids, registry
from card_data.loader import bundled_data_dir
from card_data.project_folders import (
    DEFAULT_DATA,
    DEFAULT_OUT,
    DEFAULT_TEMPLATES,
    GAME_TEMPLATES,
    Project,
    find_project,
    is_game_data,
)
from printkit.sheets.layout import LAYOUTS_DIR

PRINT_TEMPLATES = "print"
"""``templates/print/``: the texts of the calibration and registration pages."""

STARTER_SCHEMA = "carpe_cras"
"""The card schema of a project started without ``--from``. Every game's cards are checked by
a schema written in Python (``card_data/games/<game>/cards.py``), one per registered game, so
a new game reuses one: Carpe Cras's, whose cards need only a title, a cost, an agency type and
an ability, and which has no rules spanning records (a single card is a valid database)."""


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
    ``card_data/<game>/cards/x.yaml:LINE``. Raises :class:`~card_data.base_url.ConfigError`
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

STARTER_GAME_YAML = """\
# Your game: its name, its rulebook(s) and how its cards print. Cards are checked by Carpe
# Cras's card schema (printkit's games each have one in Python; see the README, "Your own game").
title: My Game
rulebooks:
  draft: my-rulebook (draft)
card_size:
  name: poker
backs:
  draw: Draw deck
"""

STARTER_CARDS_YAML = """\
# One record per card. `type` picks the layout template templates/<type>.yaml of this folder;
# `example: true` prints EXAMPLE CARD on it. Copy the record to add cards.
- id: first-card
  type: event
  title: First Card
  example: true
  cost: 1
  agency: [Might]
  traits: [Opening]
  ability: Draw 2 cards. Change this text in card_data/carpe_cras/cards/cards.yaml and rebuild.
"""

STARTER_FRONT_YAML = """\
# The front of every `event` card. Millimetres from the trim's top-left corner; bleed 3 mm
# (boxes may start at -3); text and QR codes stay 3 mm inside the trim. See templates/README.md.
safe_margin_mm: 3
background: "#f7f3ea"
regions:
  - {name: band, kind: box, x_mm: -3, y_mm: -3, w_mm: 69.5, h_mm: 16, fill: "#284b63"}
  - name: title
    kind: text
    x_mm: 4
    y_mm: 3.5
    w_mm: 45
    h_mm: 8
    text: "{{ title }}"
    font: bold
    size_pt: 13
    min_size_pt: 8
    valign: middle
    color: "#ffffff"
  - name: cost
    kind: text
    x_mm: 49.5
    y_mm: 3.5
    w_mm: 10.5
    h_mm: 8
    text: "{{ cost }}"
    font: bold
    size_pt: 14
    min_size_pt: 9
    align: right
    valign: middle
    color: "#ffffff"
  - name: art
    kind: image
    x_mm: 3
    y_mm: 15
    w_mm: 57.5
    h_mm: 34
    src: "{{ art or '' }}"
  - name: traits
    kind: text
    x_mm: 4
    y_mm: 50.5
    w_mm: 55.5
    h_mm: 4
    text: "{{ traits | join(' · ') }}"
    font: bold
    size_pt: 7.5
    min_size_pt: 6
    color: "#284b63"
    when: "traits"
  - name: ability
    kind: text
    x_mm: 4
    y_mm: 55.5
    w_mm: 55.5
    h_mm: 12
    text: "{{ ability }}"
    size_pt: 9
    min_size_pt: 6
    color: "#1a1a1a"
  - {name: qr, kind: qr, x_mm: 45, y_mm: 69, size_mm: 15}   # 15 mm: 0.45 mm modules, read by every scanner
  - name: footnote
    kind: text
    x_mm: 4
    y_mm: 80
    w_mm: 40
    h_mm: 4
    text: "EXAMPLE CARD"
    size_pt: 6.5
    min_size_pt: 6
    color: "#6b6b6b"
    when: "example"
"""

STARTER_BACK_YAML = """\
# The back of every card of the `draw` deck (backs get game, game_id, kind and title).
safe_margin_mm: 3
background: "#284b63"
regions:
  - {name: frame, kind: box, x_mm: 4, y_mm: 4, w_mm: 55.5, h_mm: 80.9, stroke: "#f7f3ea", stroke_pt: 1, radius_mm: 3}
  - name: game-title
    kind: text
    x_mm: 5
    y_mm: 35
    w_mm: 53.5
    h_mm: 12
    text: "{{ game.title | upper }}"
    font: bold
    size_pt: 18
    min_size_pt: 9
    align: center
    valign: middle
    color: "#f7f3ea"
  - name: deck-title
    kind: text
    x_mm: 5
    y_mm: 48
    w_mm: 53.5
    h_mm: 6
    text: "{{ title }}"
    size_pt: 10
    min_size_pt: 7
    align: center
    valign: middle
    color: "#f7f3ea"
"""


class InitError(Exception):
    """``printkit init`` cannot start a project there; the message says why."""


def _copy_tree(source: Path, dest: Path, written: list[Path]) -> None:
    """Copy the data of ``source`` into ``dest`` (following the bundled templates' symlink):
    without a bundled game folder's Python, bytecode and scorekeeper page
    (:func:`card_data.project_folders.is_game_data`; a project never runs its own Python)."""
    for path in sorted(source.rglob("*")):
        if not is_game_data(path.relative_to(source)):
            continue
        target = dest / path.relative_to(source)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        written.append(target)


def _write(path: Path, text: str, written: list[Path]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    written.append(path)


def init_project(dest: Path, from_game: str | None = None) -> list[Path]:
    """Start a project in ``dest`` (created if missing): a ``printkit.toml``, card data and
    layout templates the designer then owns.

    ``from_game`` (a bundled game id): a copy of the bundled game's folder into
    ``card_data/<game>/`` (cards, deck lists, glossary, reference cards, artwork, its layout
    templates in ``templates/``), without its Python and its scorekeeper page. Without it: a
    minimal game on the :data:`STARTER_SCHEMA` schema with one card marked ``example: true``,
    its front and back templates in its folder. Either way ``templates/print/`` and the
    templates' README are copied. Returns the files written. Raises :class:`InitError` when
    ``dest`` already holds a ``printkit.toml``, ``card_data`` or ``templates``, or
    ``from_game`` is not a bundled game; ``OSError`` when the files cannot be written.
    """
    if from_game is not None and from_game not in bundled_game_ids():
        raise InitError(f"no bundled game {from_game!r} (have: {', '.join(bundled_game_ids())})")
    for name in (CONFIG_FILE, DEFAULT_DATA, DEFAULT_TEMPLATES):
        if (dest / name).exists():
            raise InitError(f"{dest / name} already exists; printkit init starts a new project in an "
                            "empty folder (or one without printkit.toml, card_data and templates)")
    written: list[Path] = []
    dest.mkdir(parents=True, exist_ok=True)
    data, templates = dest / DEFAULT_DATA, dest / DEFAULT_TEMPLATES
    bundled_templates = LAYOUTS_DIR.resolve()
    if from_game is not None:
        _copy_tree(bundled_data_dir() / from_game, data / from_game, written)
    else:
        game = data / STARTER_SCHEMA
        _write(game / "game.yaml", STARTER_GAME_YAML, written)
        _write(game / "cards" / "cards.yaml", STARTER_CARDS_YAML, written)
        (game / "decks").mkdir(parents=True, exist_ok=True)
        _write(game / GAME_TEMPLATES / "event.yaml", STARTER_FRONT_YAML, written)
        _write(game / GAME_TEMPLATES / "back-draw.yaml", STARTER_BACK_YAML, written)
    _copy_tree(bundled_templates / PRINT_TEMPLATES, templates / PRINT_TEMPLATES, written)
    for guide in ("README.md", "BOARDS.md"):
        if (bundled_templates / guide).is_file():
            shutil.copyfile(bundled_templates / guide, templates / guide)
            written.append(templates / guide)
    _write(dest / CONFIG_FILE, CONFIG_TEXT.format(data=DEFAULT_DATA, templates=DEFAULT_TEMPLATES, out=DEFAULT_OUT),
           written)
    return written


def game_of(path: Path, paths: ProjectPaths) -> str | None:
    """The game a changed file belongs to (``<data>/<game>/...``, its layouts in
    ``<data>/<game>/templates/`` among them, or an older project's ``<templates>/<game>/...``),
    or ``None`` when it concerns every game (``printkit.toml``, a file outside a game folder)."""
    resolved = path.resolve()
    roots = [paths.templates_dir, paths.data_dir if paths.data_dir is not None else bundled_data_dir()]
    for root in roots:
        try:
            parts = resolved.relative_to(Path(os.path.abspath(root)).resolve()).parts
        except ValueError:
            continue
        if len(parts) > 1 and parts[0] in registry():
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
