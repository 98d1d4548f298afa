"""A deck's files: how its cards sit on the paper, the card sheets and SVG cut files drawn
for it (:class:`SheetWriter`), how the print index lists them, and the summary of how each
deck was imposed (:class:`SheetPlan`). A deck too large for one file is split into parts
(:data:`CARDS_PER_FILE`)."""
from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from printkit.build_options import BuildOptions, Duplex
from printkit.sheets.prepress.imposition import (
    FoldImposition,
    Imposition,
    impose_fold,
    imposed_boxes,
    impose_most,
)
from printkit.sheets.prepress.registration_marks import MARK_COLOUR

if TYPE_CHECKING:
    from card_data.loader import Game
    from printkit.components.kit import CardJob
    from printkit.components.print_index import KitFile
    from printkit.sheets.templating.layout import Face
    from printkit.sheets.render import PageDrawer

# The renderer (reportlab), the print index and the cut files are imported where a deck is drawn:
# planning (impositions, file names) is also what a rebuild that carries every file over reads.

FOLD_LINE_COLOUR = "#808080"
FOLD_LINE_STROKE_PT = 0.5
"""Thicker than a crop mark (0.25 pt), so the two are never mistaken for each other."""
FOLD_LINE_DASH_MM = (3.0, 2.0)


CARDS_PER_FILE = 90
"""Cards in one card PDF at most, in whole sheets (at least one sheet: see
:func:`cards_per_file`). A larger deck prints as several files (parts), so that memory stays
flat however large the deck (reportlab keeps a file's pages until it is saved), the process
pool has several files to share out, and one changed card re-renders only its part (about 90
cards, not the whole deck). Counted in cards, not sheets: what a file costs is its cards, so
a 2 x 2 layout holds as many cards a file as a 3 x 3 one."""


def cards_per_file(per_sheet: int, most: int = CARDS_PER_FILE) -> int:
    """How many cards one part file of a deck holds: the whole sheets of ``per_sheet`` cards
    that fit in ``most`` cards, at least one sheet."""
    return max(1, most // per_sheet) * per_sheet


def split_job(job: CardJob, cards_per_file: int) -> list[CardJob]:
    """``job`` as it is, or, with more than ``cards_per_file`` cards, as parts of that many
    cards in order: ``<name>-part-<i>`` titled ``"<title> (part i of n)"``."""
    if len(job.cards) <= cards_per_file:
        return [job]
    chunks = [job.cards[i:i + cards_per_file] for i in range(0, len(job.cards), cards_per_file)]
    return [replace(job, name=f"{job.name}-part-{i}", title=f"{job.title} (part {i} of {len(chunks)})",
                    cards=chunk) for i, chunk in enumerate(chunks, start=1)]


def deck_imposition(game: Game, options: BuildOptions) -> Imposition | FoldImposition:
    """How ``game``'s cards sit on ``options.paper`` (fold-over pairs with ``duplex="fold"``).
    Raises ``ValueError`` if not even one card fits."""
    size = game.info.card_size
    return card_imposition(size.width_mm, size.height_mm, options)


def card_imposition(width_mm: float, height_mm: float, options: BuildOptions) -> Imposition | FoldImposition:
    """How cards of ``width_mm`` x ``height_mm`` (trim) sit on ``options.paper``; see
    :func:`deck_imposition`."""
    marks = options.registration_marks
    if options.duplex == "fold":
        return impose_fold(options.paper, width_mm, height_mm, options.bleed_mm)
    page = (options.paper.width_mm, options.paper.height_mm)
    return impose_most(options.paper, width_mm, height_mm, options.bleed_mm,
                       keep_clear=marks.keep_clear(*page) if marks else (),
                       trims_within=marks.cut_area(*page) if marks else None)


class SheetWriter:
    """Imposes one deck's faces onto card sheets, a sheet at a time, as many cards a sheet as fit.

    Duplex ``long``/``short``: one PDF, each front page followed by its backs page, every
    back behind its front after that flip (shifted by ``back_offset_mm``). ``none``: fronts in
    one PDF, one page of backs in another to print separately. ``fold``: each page holds
    fronts on the left and their backs mirrored across a dashed fold line. Every page of
    fronts also gets an SVG cut file ``<kind>-cards-sheet-<n>.svg`` of its trims.
    ``files()`` gives ``{file name: bytes}``.
    Raises ``ValueError`` (on creation) if not even one card of the game's size fits the paper.
    """

    def __init__(self, game: Game, kind: str, back: Face, options: BuildOptions, name: str | None = None,
                 back_title: str | None = None):
        from printkit.sheets.render import DocInfo, PageDrawer

        size = game.info.card_size
        self.imp = deck_imposition(game, options)
        self.kind, self.back, self.options = kind, back, options
        self.name = name or kind  # file-name prefix: the back kind, a deck id, or "reference"
        self.corner_radius_mm = size.corner_radius_mm
        self.title = f"{game.info.title} – {back_title or game.info.backs[kind]}"
        self.doc_info = DocInfo.for_game(game.info, back_title or game.info.backs[kind])
        self._buffer = io.BytesIO()
        self._canvas = self._new_canvas(self._buffer, self.title)
        self._drawer = PageDrawer(self._canvas, self.imp.paper.height_mm)
        self._pending: list[Face] = []
        self._cut_files: dict[str, bytes] = {}
        self.cards = 0

    def _new_canvas(self, buffer: io.BytesIO, title: str):
        from printkit.sheets.render import DocInfo, new_canvas

        trim, bleed = imposed_boxes(self.imp, self.options.back_offset_mm)
        info = DocInfo(title, self.doc_info.author, self.doc_info.subject)
        return new_canvas(buffer, self.imp.paper.width_mm, self.imp.paper.height_mm, info, self.options.pdf_output,
                          trim=trim, bleed=bleed)

    def add(self, face: Face) -> int:
        """Queue a front; returns how many cards were drawn by it (a full sheet draws them all)."""
        self._pending.append(face)
        self.cards += 1
        return self._flush() if len(self._pending) == self.imp.per_sheet else 0

    def _flush(self) -> int:
        from printkit.sheets.prepress.cutfile import cut_svg

        batch, self._pending = self._pending, []
        if not batch:
            return 0
        imp, drawer, marks = self.imp, self._drawer, self.options.registration_marks
        if marks is None:
            drawer.crop_marks(imp)
        else:
            # The cutter cuts along the cut file, so crop marks are not needed, and near the
            # registration marks they could be read as one.
            for r in marks.rects(imp.paper.width_mm, imp.paper.height_mm):
                drawer.rect(r.x_mm, r.y_mm, r.w_mm, r.h_mm, MARK_COLOUR)
        for slot, face in enumerate(batch):
            drawer.face(face, imp.trim(slot), imp.bleed_box(slot))
        sheet = len(self._cut_files) + 1
        self._cut_files[f"{self.name}-cards-sheet-{sheet}.svg"] = cut_svg(
            imp.paper.width_mm, imp.paper.height_mm, [imp.trim(slot) for slot in range(len(batch))],
            self.corner_radius_mm, f"{self.title}: cut lines, sheet {sheet}", registration=marks)
        if isinstance(imp, FoldImposition):
            for slot in range(len(batch)):
                drawer.face(self.back, imp.back_trim(slot), imp.back_bleed_box(slot), shared=True)
            drawer.line(imp.fold_x_mm, 0, imp.fold_x_mm, imp.paper.height_mm, FOLD_LINE_COLOUR,
                        FOLD_LINE_STROKE_PT, FOLD_LINE_DASH_MM)
            self._canvas.showPage()
            return len(batch)
        self._canvas.showPage()
        if self.options.duplex != "none":
            self._backs_page(drawer, len(batch), self.options.duplex)
        return len(batch)

    def _backs_page(self, drawer: PageDrawer, count: int, flip: Literal["long", "short"]) -> None:
        imp = self.imp
        with drawer.shifted(*self.options.back_offset_mm):
            drawer.crop_marks(imp)
            for slot in range(count):
                drawer.face(self.back, imp.back_trim(slot, flip), imp.bleed_box(imp.back_slot(slot, flip)),
                            shared=True)
        drawer.c.showPage()

    @property
    def sheets(self) -> int:
        """Sheets of fronts drawn so far (all of them once :meth:`files` has been called)."""
        return len(self._cut_files)

    def kit_file(self, title: str, copies: int = 1, note: str = "") -> list[KitFile]:
        """How the print index lists this writer's files (call after :meth:`files`)."""
        return deck_kit_files(self.name, self.options.duplex, self.sheets, title, copies, note)

    def files(self) -> tuple[dict[str, bytes], int]:
        """Finish: ``({file name: PDF or SVG bytes}, cards drawn by this call)``."""
        drawn = self._flush()
        self._canvas.save()
        files = {f"{self.name}-cards.pdf": self._buffer.getvalue()}
        if self.options.duplex == "none":
            from printkit.sheets.render import PageDrawer

            buf = io.BytesIO()
            canvas = self._new_canvas(buf, f"{self.title} (backs)")
            self._backs_page(PageDrawer(canvas, self.imp.paper.height_mm), self.imp.per_sheet, "long")
            canvas.save()
            files[f"{self.name}-backs.pdf"] = buf.getvalue()
        files.update(self._cut_files)
        return files, drawn


def deck_kit_files(name: str, duplex: Duplex, sheets: int, title: str, copies: int = 1,
                   note: str = "") -> list[KitFile]:
    """How the print index lists a deck's files: ``<name>-cards.pdf`` of ``sheets`` sheets of
    fronts (and ``<name>-backs.pdf`` with ``duplex="none"``)."""
    from printkit.components.print_index import KitFile

    if duplex == "fold":
        return [KitFile(f"{name}-cards.pdf", title, sheets, "fold", copies, note)]
    if duplex == "none":
        return [KitFile(f"{name}-cards.pdf", title + " (fronts)", sheets, "single", copies, note),
                KitFile(f"{name}-backs.pdf", title + " (backs)", 1, "single", sheets * copies,
                        "one copy on the back of each sheet of fronts")]
    return [KitFile(f"{name}-cards.pdf", title, 2 * sheets, "duplex", copies, note)]


@dataclass(frozen=True)
class SheetPlan:
    """How one deck is imposed: ``game_id``, back ``kind``, the card size's label and the imposition."""

    game_id: str
    kind: str
    size_label: str
    imp: Imposition | FoldImposition

    def summary(self) -> str:
        """E.g. ``carpe_cras draw: 9 poker cards per A4 sheet (3 x 3)``."""
        return f"{self.game_id} {self.kind}: {self.imposed()}"

    def imposed(self) -> str:
        """How the sheets are imposed, e.g. ``9 poker cards per A4 sheet (3 x 3)``."""
        imp = self.imp
        paper = imp.paper.label or imp.paper.name
        if isinstance(imp, FoldImposition):
            turned = ", landscape" if imp.paper.landscape else ""
            return (f"{imp.per_sheet} {self.size_label} fold-over "
                    f"pair{'s' if imp.per_sheet != 1 else ''} per {paper} sheet ({imp.cols} x {imp.rows}{turned})")
        return (f"{imp.per_sheet} {self.size_label} "
                f"card{'s' if imp.per_sheet != 1 else ''} per {paper} sheet ({imp.cols} x {imp.rows})")


def plan_summaries(plans: Iterable[SheetPlan]) -> list[str]:
    """One line per game and imposition, naming its decks: e.g. ``cartisora brute, fencer: 9
    poker cards per Letter sheet (3 x 3)``, in the order the plans were made."""
    decks: dict[tuple[str, str], list[str]] = {}
    for plan in plans:
        decks.setdefault((plan.game_id, plan.imposed()), []).append(plan.kind)
    return [f"{game_id} {', '.join(kinds)}: {imposed}" for (game_id, imposed), kinds in decks.items()]
