"""What the build needs of the layouts before it lays out anything: where the bundled templates
are (:data:`LAYOUTS_DIR`) and the log of faces' warnings (:class:`WarningLog`).

Kept apart from :mod:`printkit.sheets.templating.layout` (Jinja2, the renderer, text fitting) so that a
rebuild carrying every file over, and the worker pool's set-up, import none of that.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from card_data.problems import Problem

if TYPE_CHECKING:
    from printkit.sheets.templating.layout import Face

LAYOUTS_DIR = Path(__file__).parent.parent.parent / "layouts"
"""The bundled templates folder (``printkit/layouts`` is the repository's top-level ``templates/``):
``print/`` (calibration texts) and the format guides. A game's layouts are in its own folder
(:func:`card_data.project.project_folders.game_templates_dir`)."""


class WarningLog:
    """A build's warnings as :class:`~card_data.problems.Problem` (printed, never failing the
    build): per card, or once per build for :attr:`~printkit.sheets.templating.layout.FaceWarning.once`
    ones; ``items`` in the order a serial build meets them, whichever process laid the faces out.
    Each entry remembers whether it is said once per build (``entries``: ``(once, problem)``), so
    a worker's or a cached unit's warnings :meth:`merge` as if logged here."""

    def __init__(self) -> None:
        self.items: list[Problem] = []
        self.entries: list[tuple[bool, Problem]] = []
        self._once_fields: set[str] = set()
        self._said: set[Problem] = set()

    def add(self, face: Face | None, file: str, line: int, game: str, card_id: str) -> None:
        """Record ``face``'s warnings against the card at ``file:line`` (a once-per-build
        warning against its layout's region)."""
        if face is None:
            return
        self.merge([(True, Problem(str(face.layout.path), face.layout.region_line(w.field.split(":")[-1]),
                                   game, "-", w.field, w.message)) if w.once else
                    (False, Problem(file, line, game, card_id, w.field, w.message)) for w in face.warnings])

    def merge(self, entries: Iterable[tuple[bool, Problem]]) -> None:
        """Add entries recorded elsewhere; a once-per-build warning already said is dropped, and
        so is a warning said already word for word (a card's, met again for each copy it prints)."""
        for once, problem in entries:
            if once:
                if problem.field in self._once_fields:
                    continue
                self._once_fields.add(problem.field)
            elif problem in self._said:
                continue
            self._said.add(problem)
            self.items.append(problem)
            self.entries.append((once, problem))
