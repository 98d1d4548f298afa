"""``printkit build`` and ``printkit validate``: lay out every card, then render the card sheets.

Cards are laid out and drawn one sheet at a time, so memory stays flat however large the
database. Each deck gets as many cards per sheet as the paper takes, an SVG cut file per
sheet of fronts, and optionally CMYK colours, a back offset or fold-over pairs. Nothing is written unless the whole database and every card's layout are valid:
PDFs are rendered in memory, and only when no problem was found is the whole set written, into
a staging folder swapped in per game (:mod:`printkit.output_set`). An error, or a build killed
while writing, therefore always leaves the earlier output set whole.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from card_data.loader import Database, Game, check_database
from card_data.problems import DatabaseError, Problem
from card_data.schema import Card
from printkit.components.boards import place_loose_cards, render_extras
from printkit.components.kit import (
    CardJob,
    KitSpec,
    catalog_jobs,
    choose_one_lists,
    deck_jobs,
    left_out,
    load_kit,
    play_jobs,
)
from printkit.components.packing import LOOSE_DECK_MAX_CARDS, LooseCard, loose_cards
from printkit.components.print_index import (
    INDEX_FILE,
    ChooseOneList,
    KitFile,
    print_index_pdf,
)
from printkit.components.reference import (
    REFERENCE_BACK_KIND,
    REFERENCE_BACK_TITLE,
    reference_faces,
)
from printkit.output_set import publish, recover
from printkit.sheets.cutfile import cut_svg
from printkit.sheets.decklist import cards_for_deck, find_deck, game_for_deck
from printkit.sheets.game_assets import game_asset_problems
from printkit.sheets.imposition import (
    FoldImposition,
    Imposition,
    impose_fold,
    impose_most,
)
from printkit.sheets.layout import (
    LAYOUTS_DIR,
    Face,
    Layout,
    LayoutError,
    WarningLog,
    load_layout,
    prepare_face,
)
from printkit.sheets.paper import Paper
from printkit.sheets.registration_marks import MARK_COLOUR, RegistrationMarks
from printkit.sheets.render import PageDrawer, new_canvas

BLEED_MM = 3.0
Duplex = Literal["long", "short", "none", "fold"]
Progress = Callable[[int], None]

FOLD_LINE_COLOUR = "#808080"
FOLD_LINE_STROKE_PT = 0.5
"""Thicker than a crop mark (0.25 pt), so the two are never mistaken for each other."""
FOLD_LINE_DASH_MM = (3.0, 2.0)


@dataclass(frozen=True)
class BuildOptions:
    """How to print.

    Attributes:
        paper: the sheet (portrait; fold-over may turn it).
        base_url: where the QR codes point (no trailing slash needed).
        duplex: ``long``/``short`` flip edge (backs on the page after their fronts), ``none``
            (backs in a separate file) or ``fold`` (fold-over pairs, for single-sided printers).
        bleed_mm: bleed around each card's trim.
        back_offset_mm: ``(x, y)`` in mm, right and down as seen on the back page, added to
            every back (and the back page's crop marks) to cancel a printer's duplex drift; as
            read off ``printkit calibration``'s registration page. Not used with ``fold``.
        cmyk: write every colour as CMYK (``k``/``K`` operators) instead of RGB.
        registration_marks: print-then-cut marks for a Silhouette cutter on every page of
            card fronts and in its cut file (instead of crop marks; the cards keep clear of
            them, so fewer may fit). Not with ``fold``.
    """

    paper: Paper
    base_url: str
    duplex: Duplex = "long"
    bleed_mm: float = BLEED_MM
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    cmyk: bool = False
    registration_marks: RegistrationMarks | None = None


def card_url(base_url: str, game_id: str, card_id: str) -> str:
    """The rulings URL a card's QR code encodes: ``<base-url>/r/<game>/<card-id>``."""
    return f"{base_url.rstrip('/')}/r/{game_id}/{card_id}"


def card_context(game: Game, card: Card) -> dict:
    """Jinja2 variables for a card template: the card's fields plus ``card``, ``game``, ``game_id``."""
    ctx = card.model_dump(mode="python")
    ctx.update(card=card, game=game.info, game_id=game.game_id)
    return ctx


class GameLayouts:
    """One game's layout templates, loaded on first use, and the faces they give its cards.

    Every problem (a broken template, a card without one, text that does not fit) is
    appended to ``problems`` as a :class:`Problem`; the methods then return ``None``.
    """

    def __init__(self, game: Game, options: BuildOptions, layouts_dir: Path, problems: list[Problem],
                 warnings: WarningLog | None = None):
        self.game = game
        self.options = options
        self.layouts_dir = layouts_dir
        self.problems = problems
        self.warnings = warnings if warnings is not None else WarningLog()  # low-res art, dense QR codes
        self._layouts: dict[str, Layout | None] = {}

    def _problem(self, file: str, line: int, card_id: str, fld: str, message: str) -> None:
        self.problems.append(Problem(file, line, self.game.game_id, card_id, fld, message))

    def layout(self, name: str, is_back: bool) -> Layout | None:
        """The template ``templates/<game>/<name>.yaml``, or ``None`` if it is missing or broken."""
        if name not in self._layouts:
            path = self.layouts_dir / self.game.game_id / f"{name}.yaml"
            size = self.game.info.card_size
            self._layouts[name] = None
            if path.is_file():
                try:
                    self._layouts[name] = load_layout(path, size.width_mm, size.height_mm, self.options.bleed_mm,
                                                      is_back)
                except LayoutError as exc:
                    self._problem(exc.file, exc.line, "-", exc.field, exc.message)
        return self._layouts[name]

    def back(self, kind: str, title: str | None = None) -> Face | None:
        """The back shared by every card of ``kind`` (a key of ``backs`` in game.yaml, whose
        value is the back's ``title`` unless ``title`` is given)."""
        path = self.layouts_dir / self.game.game_id / f"back-{kind}.yaml"
        layout = self.layout(f"back-{kind}", True)
        if layout is None:
            if not path.is_file():
                self._problem(str(path), 1, "-", "layout", f"no back template for the '{kind}' deck")
            return None
        context = {"game": self.game.info, "game_id": self.game.game_id, "kind": kind,
                   "title": title if title is not None else self.game.info.backs[kind]}
        try:
            face = prepare_face(layout, context, self.game.folder, None)
        except LayoutError as exc:
            self._problem(exc.file, exc.line, "-", exc.field, exc.message)
            return None
        self.warnings.add(face, str(path), 1, self.game.game_id, "-")
        return face

    def reference_back(self) -> Face | None:
        """The reference cards' own back: ``back-reference.yaml`` with the title "Reference".

        A game without that template gets its main deck's back template titled "Reference",
        so a reference card never carries a deck's name on its back.
        """
        path = self.layouts_dir / self.game.game_id / f"back-{REFERENCE_BACK_KIND}.yaml"
        kind = REFERENCE_BACK_KIND if path.is_file() else next(iter(self.game.info.backs))
        return self.back(kind, REFERENCE_BACK_TITLE)

    def front(self, card: Card) -> Face | None:
        """The card's front, with its QR code; problems are reported at the card's own FILE:LINE."""
        file, line = self.game.sources[("card", card.id)]
        kind = card.back_kind()
        if kind not in self.game.info.backs:
            self._problem(file, line, card.id, "type", f"its back kind '{kind}' is not listed under backs in game.yaml")
            return None
        layout = self.layout(card.type, False)
        if layout is None:
            path = self.layouts_dir / self.game.game_id / f"{card.type}.yaml"
            if not path.is_file():
                self._problem(file, line, card.id, "type", f"no layout template {path}")
            return None
        try:
            face = prepare_face(layout, card_context(self.game, card), self.game.folder,
                                card_url(self.options.base_url, self.game.game_id, card.id))
        except LayoutError as exc:
            self._problem(file, line, card.id, exc.field, f"{exc.message} (template {exc.file}:{exc.line})")
            return None
        self.warnings.add(face, file, line, self.game.game_id, card.id)
        return face


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
        size = game.info.card_size
        fold = options.duplex == "fold"
        marks = options.registration_marks
        if fold:
            self.imp: Imposition | FoldImposition = impose_fold(options.paper, size.width_mm, size.height_mm,
                                                                options.bleed_mm)
        else:
            page = (options.paper.width_mm, options.paper.height_mm)
            self.imp = impose_most(options.paper, size.width_mm, size.height_mm, options.bleed_mm,
                                   keep_clear=marks.keep_clear(*page) if marks else (),
                                   trims_within=marks.cut_area(*page) if marks else None)
        self.kind, self.back, self.options = kind, back, options
        self.name = name or kind  # file-name prefix: the back kind, a deck id, or "reference"
        self.corner_radius_mm = size.corner_radius_mm
        self.title = f"{game.info.title} – {back_title or game.info.backs[kind]}"
        self._buffer = io.BytesIO()
        self._canvas = self._new_canvas(self._buffer, self.title)
        self._drawer = PageDrawer(self._canvas, self.imp.paper.height_mm)
        self._pending: list[Face] = []
        self._cut_files: dict[str, bytes] = {}
        self.cards = 0

    def _new_canvas(self, buffer: io.BytesIO, title: str):
        return new_canvas(buffer, self.imp.paper.width_mm, self.imp.paper.height_mm, title, cmyk=self.options.cmyk)

    def add(self, face: Face) -> int:
        """Queue a front; returns how many cards were drawn by it (a full sheet draws them all)."""
        self._pending.append(face)
        self.cards += 1
        return self._flush() if len(self._pending) == self.imp.per_sheet else 0

    def _flush(self) -> int:
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
                drawer.face(self.back, imp.back_trim(slot), imp.back_bleed_box(slot))
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
                drawer.face(self.back, imp.back_trim(slot, flip), imp.bleed_box(imp.back_slot(slot, flip)))
        drawer.c.showPage()

    @property
    def sheets(self) -> int:
        """Sheets of fronts drawn so far (all of them once :meth:`files` has been called)."""
        return len(self._cut_files)

    def kit_file(self, title: str, copies: int = 1, note: str = "") -> list[KitFile]:
        """How the print index lists this writer's files (call after :meth:`files`)."""
        duplex = self.options.duplex
        if duplex == "fold":
            return [KitFile(f"{self.name}-cards.pdf", title, self.sheets, "fold", copies, note)]
        if duplex == "none":
            return [KitFile(f"{self.name}-cards.pdf", title + " (fronts)", self.sheets, "single", copies, note),
                    KitFile(f"{self.name}-backs.pdf", title + " (backs)", 1, "single", self.sheets * copies,
                            "one copy on the back of each sheet of fronts")]
        return [KitFile(f"{self.name}-cards.pdf", title, 2 * self.sheets, "duplex", copies, note)]

    def files(self) -> tuple[dict[str, bytes], int]:
        """Finish: ``({file name: PDF or SVG bytes}, cards drawn by this call)``."""
        drawn = self._flush()
        self._canvas.save()
        files = {f"{self.name}-cards.pdf": self._buffer.getvalue()}
        if self.options.duplex == "none":
            buf = io.BytesIO()
            canvas = self._new_canvas(buf, f"{self.title} (backs)")
            self._backs_page(PageDrawer(canvas, self.imp.paper.height_mm), self.imp.per_sheet, "long")
            canvas.save()
            files[f"{self.name}-backs.pdf"] = buf.getvalue()
        files.update(self._cut_files)
        return files, drawn


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


@dataclass
class BuildResult:
    """What a run did: files written (or, for validate, would write), or the problems found
    (nothing is written then). ``cards`` counts the cards laid out."""

    written: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # printed, never failing the run
    cards: int = 0
    games: list[Game] = field(default_factory=list)
    plans: list[SheetPlan] = field(default_factory=list)


def select_games(db: Database, names: Iterable[str]) -> tuple[list[Game], list[str]]:
    """The games called ``names`` (all if empty) and the names that match no game."""
    names = list(names)
    if not names:
        return list(db.games.values()), []
    unknown = [n for n in names if n not in db.games]
    return [db.games[n] for n in names if n in db.games], unknown


def _count(cards: list[Card]) -> str:
    return f"{len(cards)} card{'s' if len(cards) != 1 else ''}"


def _extra_kind(layouts_dir: Path, game: Game, file_name: str) -> str:
    """``board``, ``sheet``, ``tokens``, ``scorepad`` or ``other``: what an extra file is."""
    stem = file_name.removesuffix(".pdf")
    folder = layouts_dir / game.game_id
    if (folder / f"board-{stem}.yaml").is_file():
        return "board"
    if (folder / f"sheet-{stem}.yaml").is_file():
        return "sheet"
    return stem if stem in ("tokens", "scorepad") else "other"


_EXTRA_TITLES = {"board": "Board or mat, tiled across the pages", "sheet": "Sheet to fill in with a pen",
                 "tokens": "Tokens", "scorepad": "Score pad", "other": "Printed component"}


def _lay_out_unprinted(game: Game, jobs: list[CardJob], layouts: GameLayouts) -> None:
    """Lay out the cards the kit does not print, so that a problem with any card of the
    database stops the build as it stops ``validate``."""
    printed = {c.id for job in jobs for c in job.cards}
    for card in game.cards.values():
        if card.id not in printed:
            layouts.front(card)


def _index(game: Game, kit: KitSpec, options: BuildOptions, files: list[KitFile], catalog: bool) -> bytes:
    """The game's ``print-this.pdf`` (:mod:`printkit.components.print_index`)."""
    if catalog:
        first = ("This is the catalogue, every card once, for designers. To play, run printkit build "
                 "without --catalog: it prints each deck in its quantities.")
        groups, unprinted = [], []
    else:
        first = kit.first_game
        groups = [ChooseOneList(g.title, g.by, f"{g.name}-cards.pdf", lists) for g, lists in choose_one_lists(game, kit)]
        unprinted = [(card.title, why) for card, why in left_out(game, kit)]
    return print_index_pdf(game.info.title, options.paper, options.duplex, files, first, groups, unprinted,
                           cmyk=options.cmyk, registration_marks=options.registration_marks is not None)


def _pdf_pages(data: bytes) -> int:
    """A rendered component's page count, for the print-this index (the tiling and packing
    decide it inside their renderers)."""
    import pypdfium2  # only here: importing it costs every other command ~0.1 s

    doc = pypdfium2.PdfDocument(data)
    try:
        return len(doc)
    finally:
        doc.close()


def build(data_dir: Path | None, out_dir: Path | None, options: BuildOptions, games: Iterable[str] = (),
          layouts_dir: Path = LAYOUTS_DIR, progress_factory: Callable[[int], Progress] | None = None,
          deck: str | None = None, scorepad_copies: int = 1, cards_only: bool = False,
          catalog: bool = False) -> BuildResult:
    """Validate and lay out the selected games (default all) and, given ``out_dir``, write to
    ``out_dir/<game>/``:

    - the card sheets a player needs (:func:`printkit.components.kit.play_jobs`): each deck
      list in its quantities as ``<deck-id>-cards.pdf``, a ``choose_one`` group of
      ``kit.yaml`` as one ``<group>-cards.pdf``, the ``extra_cards`` as ``<type>-cards.pdf``;
      with ``catalog`` instead every card once, ``<kind>-cards.pdf`` per back kind. Each with
      an SVG cut file ``<name>-cards-sheet-<n>.svg`` per sheet of fronts (older sheet files
      beyond the new count are removed);
    - ``reference-cards.pdf``: the game's reference cards, with their own "Reference" back;
    - the game's boards, mats, tracking sheets, token sheets and score pad
      (:func:`printkit.components.boards.render_extras`; ``scorepad_copies`` pages of score pad);
    - ``print-this.pdf``: one page listing those files, how to print them (duplex or single
      sided), how many copies and how to assemble them (not with ``deck`` or ``cards_only``).

    ``cards_only`` leaves out the reference cards, boards, tokens and score pad.
    ``deck`` (a deck id or deck-list file) prints only that deck, in its quantities, as
    ``<deck-id>-cards.pdf``; its game is the one named in ``games`` or the one it belongs to.
    ``out_dir=None`` only validates (``printkit validate``). ``progress_factory(total_cards)``
    may return a callback taking the number of cards just drawn. ``result.plans`` says how each
    deck was imposed. Returns a :class:`BuildResult`; on problems nothing is written. Raises
    ``OSError`` if the output cannot be written, ``ValueError`` if the cards do not fit the paper.
    """
    if out_dir is not None and out_dir.is_dir():
        recover(out_dir)  # a killed build's leftovers, before anything reads or writes the set
    db, problems = check_database(data_dir)
    games = list(games)
    selected, unknown = select_games(db, games)
    for name in unknown:
        problems.append(Problem(str(db.root), 1, name, "-", "game", f"no such game (have: {', '.join(db.games)})"))
    deck_job: list[CardJob] | None = None
    if deck is not None and not problems:
        target = selected[0] if len(games) == 1 else game_for_deck(db, deck)
        if target is None:
            problems.append(Problem(str(deck), 1, "-", "-", "deck",
                                    "cannot tell which game this deck list belongs to; name the game too"))
        else:
            try:
                deck_list = find_deck(target, deck)
                deck_job = deck_jobs(target, deck_list.id, deck_list.title, cards_for_deck(target, deck))
                selected = [target]
            except DatabaseError as exc:
                problems.extend(exc.problems)
    jobs: dict[str, list[CardJob]] = {}
    kits: dict[str, KitSpec] = {}
    for game in selected:
        kit, kit_problems = load_kit(game)
        problems.extend(kit_problems)
        kits[game.game_id] = kit
        if deck_job is not None:
            jobs[game.game_id] = deck_job
        elif catalog or problems or out_dir is None:
            # Lays out every card that loaded, to report every problem; deck lists may name
            # cards that failed to load, so they are only followed in a clean database.
            jobs[game.game_id] = catalog_jobs(game)
        else:
            jobs[game.game_id] = play_jobs(game, kit)
    total = sum(len(job.cards) for game_jobs in jobs.values() for job in game_jobs)
    progress = progress_factory(total) if (progress_factory and out_dir is not None and not problems) else None
    rendered: dict[Path, bytes] = {}
    plans: list[SheetPlan] = []
    drawing = out_dir is not None

    def layout_problem(game: Game, exc: LayoutError, record: str = "-") -> None:
        problems.append(Problem(exc.file, exc.line, game.game_id, record, exc.field, exc.message))

    warnings = WarningLog()
    for game in selected:
        problems.extend(game_asset_problems(game))  # the game's fonts and icon files
        layouts = GameLayouts(game, options, layouts_dir, problems, warnings)
        kit = kits[game.game_id]
        index: list[KitFile] = []
        loose: list[LooseCard] = []
        loose_jobs: list[CardJob] = []
        for job in jobs[game.game_id]:
            name, kind, cards = job.name, job.kind, job.cards
            back = layouts.back(kind)
            if deck_job is None and not cards_only and len(cards) <= LOOSE_DECK_MAX_CARDS:
                # One or two cards would take a duplex sheet of their own: they join the game's
                # score pad page or token sheet as fold-over pairs (render_extras).
                loose += loose_cards(game, kind, cards, back, layouts.front, options.bleed_mm)
                loose_jobs.append(job)
                if progress:
                    progress(len(cards))
                continue
            # Drawing stops at the first problem, but every card is still laid out so that
            # all problems are reported in one run.
            writer = SheetWriter(game, kind, back, options, name) if (drawing and back and not problems) else None
            for card in cards:
                face = layouts.front(card)
                if writer is not None and face is not None and not problems:
                    drawn = writer.add(face)
                    if progress and drawn:
                        progress(drawn)
            if writer is not None and not problems:
                plans.append(SheetPlan(game.game_id, name, game.info.card_size.label, writer.imp))
                files, drawn = writer.files()
                if progress and drawn:
                    progress(drawn)
                for file_name, data in files.items():
                    rendered[out_dir / game.game_id / file_name] = data
                index += writer.kit_file(f"{job.title}: {_count(cards)}", note=job.note)
        if deck_job is None:
            _lay_out_unprinted(game, jobs[game.game_id], layouts)
        if deck_job is not None or cards_only:
            continue
        back = layouts.reference_back()
        try:
            faces = reference_faces(game, layouts_dir)
        except LayoutError as exc:
            layout_problem(game, exc)
            faces = []
        except DatabaseError as exc:  # a broken card_data/<game>/reference.yaml
            problems.extend(exc.problems)
            faces = []
        if drawing and back and faces and not problems:
            writer = SheetWriter(game, next(iter(game.info.backs)), back, options, "reference",
                                 back_title=REFERENCE_BACK_TITLE)
            for _, face in faces:
                writer.add(face)
            files, _ = writer.files()
            for file_name, data in files.items():
                rendered[out_dir / game.game_id / file_name] = data
            ref_note = kit.files.get("reference-cards.pdf")
            index += writer.kit_file(f"Reference cards: {len(faces)} (rules summaries, with their own back)",
                                     copies=ref_note.copies if ref_note else 1,
                                     note=(ref_note.note or "") if ref_note else "")
        try:
            extras = render_extras(game, options.paper, layouts_dir, scorepad_copies=scorepad_copies,
                                   cmyk=options.cmyk, loose_cards=loose)
            placed = place_loose_cards(game, options.paper, layouts_dir, loose)
        except LayoutError as exc:
            layout_problem(game, exc)
            extras, placed = {}, None
        for file_name, data in extras.items():
            if drawing:
                rendered[out_dir / game.game_id / file_name] = data
                extra_note = kit.files.get(file_name)
                extra_kind = _extra_kind(layouts_dir, game, file_name)
                pages = _pdf_pages(data)
                note = (extra_note.note or "") if extra_note else ""
                held = loose_jobs if placed is not None and placed.file_name == file_name else []
                if held:
                    note += "; " if note else ""
                    note += "also " + ", ".join(f"{j.title} ({_count(j.cards)})" for j in held) + \
                        " as fold-over pairs: fold along the dashed line, glue, cut"
                index.append(KitFile(file_name, _EXTRA_TITLES[extra_kind], pages, "single",
                                     extra_note.copies if extra_note else 1, note, extra_kind))
        if drawing and not problems:
            rendered[out_dir / game.game_id / INDEX_FILE] = _index(game, kit, options, index, catalog)
    # A card in several deck lists is laid out once per list; report its problem once.
    result = BuildResult(problems=sorted(set(problems)), cards=total, games=selected, plans=plans,
                         warnings=warnings.items)
    if problems or out_dir is None:
        return result
    if deck is None and not cards_only:
        # A whole kit replaces the game's folder: files of an earlier build that this one does
        # not make (other decks, more sheets, the catalogue's files) would mislead.
        result.written = publish(out_dir, rendered, keep_others=False)
        return result
    # A smaller deck or a bigger paper leaves fewer sheets; old cut files would mislead.
    stale = [p for plan in plans for p in (out_dir / plan.game_id).glob(f"{plan.kind}-cards-sheet-*.svg")
             if p not in rendered]
    result.written = publish(out_dir, rendered, stale)
    return result
