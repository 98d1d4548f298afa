"""Fixtures for incremental-build tests: a Carpe Cras project copy and the decks a build drew.
Test modules import them by name (``from build_fixtures import project, rendered_decks``)."""

from __future__ import annotations

import shutil

import pytest

import printkit.pipeline.workers as build_workers
from card_data.loader import bundled_data_dir
from database_edits import GAME_CODE
from printkit.sheets.templating.layout import LAYOUTS_DIR

GAME = "carpe_cras"  # four deck lists (two draw, two agency), reference cards, a board and tokens


@pytest.fixture()
def project(tmp_path):
    """A copy of the bundled Carpe Cras folder (data and layouts, ``data/carpe_cras/templates/``,
    without its Python) and of the bundled templates folder (``print/``):
    ``(data dir, templates dir, out dir)``."""
    data, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(bundled_data_dir() / GAME, data / GAME, ignore=GAME_CODE)
    shutil.copytree(LAYOUTS_DIR, templates)
    return data, templates, tmp_path / "out"


@pytest.fixture()
def rendered_decks(monkeypatch):
    """The names of the decks laid out and drawn (in this process), in order."""
    names: list[str] = []
    real = build_workers.render_deck

    def counting(task, progress=None):
        names.append(task.job.name)
        return real(task, progress)

    monkeypatch.setattr(build_workers, "render_deck", counting)
    return names
