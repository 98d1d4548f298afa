"""``printkit build`` and ``printkit validate``: lay out every card, then render the card sheets.

Each deck gets as many cards per sheet as the paper takes, an SVG cut file per sheet of
fronts, and optionally CMYK colours, a back offset or fold-over pairs. Nothing is written
unless the whole database and every card's layout are valid: drawn files wait in a spool
beside the output, and only when no problem was found is the whole set moved into a staging
folder swapped in per game (:mod:`printkit.output_set`). An error, or a build killed while
writing, therefore always leaves the earlier output set whole.

Memory does not follow the size of the database: cards are held compact
(:mod:`card_data.card_store`) and decks as lists of ids, a deck of more than 50 sheets is split
into part files drawn one at a time, each file goes to the spool as soon as it is drawn, and
worker processes are forked before a big database is loaded (:class:`Workers`).

Builds are incremental (:mod:`printkit.build_cache`): a deck, the reference cards or the extras
whose inputs did not change are neither laid out nor drawn again, and their files are left
untouched. Decks that do need drawing are spread over a pool of processes (``jobs``), each deck
drawn whole by one process, so the bytes are the same as a build in one process.
"""
from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Literal, Self

from card_data.card_store import CardRefs, CardStore
from card_data.games import registry
from card_data.limits import DEFAULT_LIMITS, Limits, current_limits, limits_in_force
from card_data.loader import Database, Game, check_database
from card_data.problems import DatabaseError, Problem
from card_data.project_folders import game_templates_dir, is_game_data
from card_data.schema import Card
from card_data.short_codes import card_code, short_url
from card_data.translations import Translation, translated_card, untranslated_cards
from printkit.build_cache import (
    BuildCache,
    UnitRecord,
    code_digest,
    json_digest,
    sha256_hex,
)
from printkit.components.boards import place_loose_cards, render_extras
from printkit.components.kit import (
    CardJob,
    KitSpec,
    catalog_jobs,
    choose_one_lists,
    chosen_deck_jobs,
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
from printkit.output_set import (
    UNCHANGED,
    Spool,
    Spooled,
    Unchanged,
    publish,
    recover,
    same_bytes,
)
from printkit.sheets.cutfile import cut_svg
from printkit.sheets.game_assets import game_asset_problems
from printkit.sheets.imposition import (
    FoldImposition,
    Imposition,
    impose_fold,
    imposed_boxes,
    impose_most,
)
from printkit.sheets.layout import (
    LAYOUT_WORDS,
    LAYOUTS_DIR,
    Face,
    FaceWarning,
    Layout,
    LayoutError,
    WarningLog,
    load_layout,
    prepare_face,
)
from printkit.sheets.paper import Paper
from printkit.sheets.registration_marks import MARK_COLOUR, RegistrationMarks
from printkit.sheets.render import DocInfo, PageDrawer, PdfOutput, new_canvas, write_atomically
from printkit.sheets.template_sandbox import forget_compiled_templates

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
        cmyk: write every colour as CMYK (``k``/``K`` operators, converted through the FOGRA39
            profile) instead of RGB.
        pdfx: write PDF/X-4 files for a print shop: CMYK colours and artwork through the
            FOGRA39 profile, which is embedded as the OutputIntent (implies ``cmyk``).
        registration_marks: print-then-cut marks for a Silhouette cutter on every page of
            card fronts and in its cut file (instead of crop marks; the cards keep clear of
            them, so fewer may fit). Not with ``fold``.
        lang: a language code (``"de"``): cards print with the text fields that game's
            ``translations/<lang>.yaml`` gives them, the others in the original
            (:mod:`card_data.translations`); ``None`` prints the original. QR codes, versions
            and everything but the card fronts stay the same.
    """

    paper: Paper
    base_url: str
    duplex: Duplex = "long"
    bleed_mm: float = BLEED_MM
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    cmyk: bool = False
    registration_marks: RegistrationMarks | None = None
    pdfx: bool = False
    lang: str | None = None

    @property
    def pdf_output(self) -> PdfOutput:
        """How the PDFs' colours and standard are written (from ``cmyk`` and ``pdfx``)."""
        return PdfOutput.of(self.cmyk, self.pdfx)


def card_url(base_url: str, game_id: str, card_id: str, version: int | None = None) -> str:
    """A card's rulings page on the companion: ``<base-url>/r/<game>/<card-id>``, and
    ``/<version>`` after it for a card of a versioned game (see :mod:`card_data.printings`),
    so that the companion can tell a player whose copy is older what has changed since.
    Cards printed before the short addresses carry this URL in their QR code; it keeps working."""
    url = f"{base_url.rstrip('/')}/r/{game_id}/{card_id}"
    return url if version is None else f"{url}/{version}"


def card_qr_url(base_url: str, game: Game, card: Card) -> str:
    """The URL ``card``'s QR code encodes in a build: its short address ``<BASE>/Q/<CODE>``
    (:mod:`card_data.short_codes`: scheme and host upper case, a code of the game, card and the
    version it prints as), which the companion redirects to :func:`card_url`'s page. Short and
    upper case so that the code is QR version 2 (25 modules, 0.45 mm in a 15 mm region) for a
    base URL of up to 27 characters without a path, which every common scanner reads."""
    version = game.printings.card_version(card)
    return short_url(base_url, card_code(game.game_id, card.id, version.version if version else None))


def build_translation(game: Game, options: BuildOptions) -> Translation | None:
    """The translation ``game``'s cards print in (``options.lang``), or ``None``: no language
    asked, or the game has no translation into it (its cards print in the original)."""
    return game.translations.get(options.lang) if options.lang else None


def card_context(game: Game, card: Card, translation: Translation | None = None) -> dict:
    """Jinja2 variables for a card template: the card's fields plus ``card``, ``game``,
    ``game_id`` and, with a ``translation``, the template's own words in its language
    (:data:`~printkit.sheets.layout.LAYOUT_WORDS`, for ``_("...")``)."""
    ctx = card.model_dump(mode="python")
    ctx.update(card=card, game=game.info, game_id=game.game_id)
    ctx[LAYOUT_WORDS] = translation.words if translation is not None else {}
    return ctx


class GameLayouts:
    """One game's layout templates, loaded on first use, and the faces they give its cards.

    The templates are those of ``folder``, the game's templates folder for the templates folder
    ``layouts_dir`` (:func:`card_data.project_folders.game_templates_dir`). Every problem (a
    broken template, a card without one, text that does not fit) is appended to ``problems``
    as a :class:`Problem`; the methods then return ``None``.
    """

    def __init__(self, game: Game, options: BuildOptions, layouts_dir: Path, problems: list[Problem],
                 warnings: WarningLog | None = None):
        self.game = game
        self.options = options
        self.layouts_dir = layouts_dir
        self.folder = game_templates_dir(game.folder, layouts_dir)
        self.problems = problems
        self.warnings = warnings if warnings is not None else WarningLog()  # low-res art, dense QR codes
        self._layouts: dict[str, Layout | None] = {}

    def _problem(self, file: str, line: int, card_id: str, fld: str, message: str) -> None:
        self.problems.append(Problem(file, line, self.game.game_id, card_id, fld, message))

    def layout(self, name: str, is_back: bool) -> Layout | None:
        """The template ``<name>.yaml`` of the game's templates folder, or ``None`` if it is
        missing or broken."""
        if name not in self._layouts:
            path = self.folder / f"{name}.yaml"
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
        path = self.folder / f"back-{kind}.yaml"
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

    def _translated_cause(self, layout: Layout, card: Card, translation: Translation, exc: LayoutError,
                          qr_url: str, qr_label: str | None) -> tuple[str, int, str] | None:
        """Where the problem ``exc``, met laying out ``card`` in ``translation``'s language, is
        to be fixed when the translation caused it: ``(translation file, line, field)`` of the
        translated field that alone gives the same problem (of the card's entry, field ``-``, if
        only its fields together do); ``None`` when the card in the original gives it too."""
        fields = translation.printed_fields(card.id)
        if not fields:
            return None

        def fails(update: dict[str, str]) -> bool:
            try:
                prepare_face(layout, card_context(self.game, card.model_copy(update=update), translation),
                             self.game.folder, qr_url, qr_label=qr_label)
            except LayoutError as again:
                return again.field == exc.field
            return False

        if fails({}):
            return None
        for name, text in fields.items():
            if fails({name: text}):
                return str(translation.path), translation.card_field_line(card.id, name), name
        return str(translation.path), translation.card_field_line(card.id, ""), "-"

    def reference_back(self) -> Face | None:
        """The reference cards' own back: ``back-reference.yaml`` with the title "Reference".

        A game without that template gets its main deck's back template titled "Reference",
        so a reference card never carries a deck's name on its back.
        """
        path = self.folder / f"back-{REFERENCE_BACK_KIND}.yaml"
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
            path = self.folder / f"{card.type}.yaml"
            if not path.is_file():
                self._problem(file, line, card.id, "type", f"no layout template {path}")
            return None
        # The version (and so the QR code) is the original card's: a translation is the same card.
        version = self.game.printings.card_version(card)
        translation = build_translation(self.game, self.options)
        printed = translated_card(card, translation)
        qr_url, qr_label = card_qr_url(self.options.base_url, self.game, card), version.label if version else None
        try:
            face = prepare_face(layout, card_context(self.game, printed, translation), self.game.folder, qr_url,
                                qr_label=qr_label)
        except LayoutError as exc:
            fld = exc.field
            if fld == "art":  # at the line naming the art, when the card names it
                file, line = self.game.sources.get(("art", card.id), (file, line))
            if translation is not None:
                blamed = self._translated_cause(layout, card, translation, exc, qr_url, qr_label)
                if blamed is not None:
                    file, line, fld = blamed
            self._problem(file, line, card.id, fld, f"{exc.message} (template {exc.file}:{exc.line})")
            return None
        if version is not None and not version.released:
            # Printed anyway (a designer tries a change out), as the version the next release
            # records; said, because copies handed out before that release may differ from it.
            face.warnings.append(FaceWarning(
                "version", f"not released: printed as {version.label}, which 'printkit release' has not "
                           f"recorded yet (until then its QR code opens the card as it is now)"))
        self.warnings.add(face, file, line, self.game.game_id, card.id)
        return face


SHEETS_PER_FILE = 50
"""Sheets of fronts in one card PDF at most. A larger deck prints as several files (parts),
so that memory stays flat however large the deck (reportlab keeps a file's pages until it is
saved), the process pool has several files to share out, and one changed card re-renders
only its part."""


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


def _in_game_data(relative: Path) -> bool:
    """Whether a file of a card database (its path relative to the database folder) is data:
    the file of a game folder that :func:`card_data.project_folders.is_game_data` keeps, or a
    file beside the game folders that is not Python (``card_data/games/__init__.py``)."""
    if len(relative.parts) == 1:
        return is_game_data(relative)
    return is_game_data(Path(*relative.parts[1:]))


def _build_key(data_dir: Path | None, layouts_dir: Path, options: BuildOptions, cache: BuildCache,
               **arguments) -> str:
    """A digest over everything a whole build reads: every file of the card database and of the
    templates, the options and arguments, the code behind every game's output."""
    from card_data.loader import bundled_data_dir

    data_root = Path(data_dir) if data_dir is not None else bundled_data_dir()
    deck = arguments.get("deck")
    # Every game's code, whichever games are built: a game's own code is cheap to digest once,
    # and a build whose games changed falls through to the per-unit digests anyway.
    code = {game_id: code_digest(game_id) for game_id in registry()}
    return json_digest({"code": code, "options": repr(options), "arguments": arguments,
                        "deck_file": cache.file_digest(Path(deck)) if deck else None,
                        # The bundled games' folders are their packages: their Python is in ``code``.
                        "data": cache.tree_digest(data_root, keep=_in_game_data),
                        "templates": cache.tree_digest(layouts_dir, (".pyc",), ("__pycache__",))})


def _same_build_result(record: dict, out_dir: Path, options: BuildOptions) -> BuildResult:
    """The result of a build whose inputs and output are exactly as :func:`build` recorded."""
    written = [out_dir / rel for rel, _ in record["files"]]
    plans = [SheetPlan(gid, kind, label, card_imposition(w, h, options)) for gid, kind, label, w, h in record["plans"]]
    warnings = [Problem(**w) for w in record["warnings"]]
    fallbacks = [(str(gid), [str(c) for c in ids], int(total)) for gid, ids, total in record.get("fallbacks", [])]
    return BuildResult(written=written, warnings=warnings, cards=int(record["cards"]), plans=plans,
                       unchanged=list(written), fallbacks=fallbacks)


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
    unchanged: list[Path] = field(default_factory=list)  # of ``written``: left as they were (same bytes)
    # With ``options.lang``: per game, the cards it prints without a translated field (in the
    # original) and how many cards it prints, ``(game_id, [card ids], total)``.
    fallbacks: list[tuple[str, list[str], int]] = field(default_factory=list)


def select_games(db: Database, names: Iterable[str]) -> tuple[list[Game], list[str]]:
    """The games called ``names`` (all if empty) and the names that match no game."""
    names = list(names)
    if not names:
        return list(db.games.values()), []
    unknown = [n for n in names if n not in db.games]
    return [db.games[n] for n in names if n in db.games], unknown


def _count(cards: Sequence[Card]) -> str:
    return f"{len(cards)} card{'s' if len(cards) != 1 else ''}"


def _extra_kind(layouts_dir: Path, game: Game, file_name: str) -> str:
    """``board``, ``sheet``, ``tokens``, ``scorepad`` or ``other``: what an extra file is."""
    stem = file_name.removesuffix(".pdf")
    folder = game_templates_dir(game.folder, layouts_dir)
    if (folder / f"board-{stem}.yaml").is_file():
        return "board"
    if (folder / f"sheet-{stem}.yaml").is_file():
        return "sheet"
    return stem if stem in ("tokens", "scorepad") else "other"


_EXTRA_TITLES = {"board": "Board or mat, tiled across the pages", "sheet": "Sheet to fill in with a pen",
                 "tokens": "Tokens", "scorepad": "Score pad", "other": "Printed component"}


class BuildWarnings(WarningLog):
    """The build's warnings in the order a serial build meets them, whichever process laid the
    faces out: each entry remembers whether it is said once per build (``entries``: ``(once,
    problem)``), so a worker's or a cached unit's warnings merge as if logged here."""

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[tuple[bool, Problem]] = []
        self._once_fields: set[str] = set()

    def add(self, face: Face | None, file: str, line: int, game: str, card_id: str) -> None:
        if face is None:
            return
        for w in face.warnings:
            if w.once:
                self.merge([(True, Problem(str(face.layout.path), face.layout.region_line(w.field.split(":")[-1]),
                                           game, "-", w.field, w.message))])
            else:
                self.merge([(False, Problem(file, line, game, card_id, w.field, w.message))])

    def merge(self, entries: Iterable[tuple[bool, Problem]]) -> None:
        """Add entries recorded elsewhere; a once-per-build warning already said is dropped."""
        for once, problem in entries:
            if once:
                if problem.field in self._once_fields:
                    continue
                self._once_fields.add(problem.field)
            self.items.append(problem)
            self.entries.append((once, problem))


def _warnings_json(entries: Iterable[tuple[bool, Problem]]) -> list[dict]:
    return [{"once": once, **asdict(p)} for once, p in entries]


def _warnings_from_json(items: list[dict], game: Game) -> list[tuple[bool, Problem]]:
    """Cached warnings, a card's pointing at where the card is now (it may have moved in its file)."""
    out = []
    for item in items:
        item = dict(item)
        once = bool(item.pop("once", False))
        problem = Problem(**item)
        where = game.sources.get(("card", problem.card_id))
        if not once and where is not None:
            problem = replace(problem, file=where[0], line=where[1])
        out.append((once, problem))
    return out


@dataclass(frozen=True)
class DeckTask:
    """One deck (a :class:`SheetWriter` job) to lay out and, with ``draw``, draw; picklable, so
    a worker process can take it. ``check_only`` cards are laid out for their problems only
    (the cards a kit does not print). ``limits``: what its artwork and templates are checked
    against (the build's, put in force in whichever process lays the deck out)."""

    game: Game
    job: CardJob
    options: BuildOptions
    layouts_dir: Path
    draw: bool
    check_only: bool = False
    limits: Limits = DEFAULT_LIMITS


@dataclass
class DeckOutcome:
    """What :func:`render_deck` made: ``files`` (``{file name: bytes}``, or :class:`Spooled` once the build spooled them; empty unless drawn
    without problems), the ``problems`` and ``warnings`` (``(once, problem)``) met, and the
    ``sheets`` of fronts drawn."""

    files: dict[str, bytes | Spooled]
    problems: list[Problem]
    warnings: list[tuple[bool, Problem]]
    sheets: int = 0


def render_deck(task: DeckTask, progress: Progress | None = None) -> DeckOutcome:
    """Lay out every card of ``task.job`` and draw its sheets (the same bytes in any process).

    Drawing stops at the deck's first problem, but every card is still laid out so that all
    problems are reported in one run, within ``task.limits``. Raises ``ValueError`` if the
    cards do not fit the paper.
    """
    with limits_in_force(task.limits):
        return _render_deck(task, progress)


def _render_deck(task: DeckTask, progress: Progress | None) -> DeckOutcome:
    game, job, options = task.game, task.job, task.options
    problems: list[Problem] = []
    warnings = BuildWarnings()
    layouts = GameLayouts(game, options, task.layouts_dir, problems, warnings)
    if task.check_only:
        for card in job.cards:
            layouts.front(card)
        return DeckOutcome({}, problems, warnings.entries)
    back = layouts.back(job.kind)
    writer = SheetWriter(game, job.kind, back, options, job.name) if (task.draw and back and not problems) else None
    for card in job.cards:
        face = layouts.front(card)
        if writer is not None and face is not None and not problems:
            drawn = writer.add(face)
            if progress and drawn:
                progress(drawn)
    if writer is None or problems:
        return DeckOutcome({}, problems, warnings.entries)
    files, drawn = writer.files()
    if progress and drawn:
        progress(drawn)
    return DeckOutcome(files, problems, warnings.entries, writer.sheets)


PARALLEL_MIN_CARDS = 150
"""Below this many cards to lay out, a build stays in one process: starting workers would cost
more than it saves."""


def _pool_context():
    import multiprocessing

    # fork starts a worker in milliseconds with printkit already imported; elsewhere (macOS,
    # Windows) fork is unsafe or missing and spawn re-imports. Both give the same bytes.
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def _for_worker(task: DeckTask) -> DeckTask:
    """``task`` with its game knowing only the job's cards (records and sources): what laying
    them out reads, and much less to send to a worker than a database of thousands of cards."""
    game, ids = task.game, set(task.job.cards.ids)
    sources = {key: game.sources[key] for cid in ids for key in (("card", cid), ("art", cid))
               if key in game.sources}
    cards = game.cards.subset(ids) if isinstance(game.cards, CardStore) else {i: game.cards[i] for i in ids}
    return replace(task, game=replace(game, cards=cards, glossary=[], decks={}, sources=sources,
                                      printings=game.printings.subset(ids)),
                   job=replace(task.job, cards=task.job.cards.over(cards)))


EARLY_WORKERS_CARD_BYTES = 256 << 10
"""Card files (YAML) of at least this many bytes, about 300 cards: the build starts its
workers before loading them (see :class:`Workers`)."""


def _die_with_parent(parent_pid: int) -> None:
    """A worker's initializer: on Linux, the worker ends when the build's process dies (even by
    ``kill -9``) instead of waiting for work forever; elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent_pid:  # died before the line above
        os._exit(1)


class Workers:
    """A build's worker processes (``jobs`` of them; none for ``jobs`` 1), started on demand.

    A big database's build starts them before loading it (:data:`EARLY_WORKERS_CARD_BYTES`): a
    forked process starts as big as its parent (its resident pages are counted again), so
    workers forked after loading 10,000 cards would each start with them; forked first, each
    holds printkit's code and the cards of the deck it is sent, whatever the size of the
    database. Use as a context manager (the processes end with it, or with the build's process).
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool = None

    def start(self) -> None:
        """Start the processes now (no-op for one job, or if processes cannot be started)."""
        if self.jobs <= 1 or self.pool is not None:
            return
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        try:
            self.pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=_pool_context(),
                                            initializer=_die_with_parent, initargs=(os.getpid(),))
            self.pool.submit(int).result()  # a fork pool starts all its processes at its first task
        except (OSError, BrokenProcessPool):
            self.shutdown()

    def shutdown(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()


def _run_decks(tasks: list[DeckTask], workers: Workers, progress: Progress | None,
               on_outcome: Callable[[int, DeckOutcome], None] | None = None) -> list[DeckOutcome]:
    """Every task's outcome, in ``tasks``' order: in ``workers``' processes when they are
    started and there are several decks and enough cards, else one after the other here.
    ``on_outcome(i, outcome)`` is called as each arrives (e.g. to spool its files rather than
    hold them)."""
    cards = [len(t.job.cards) for t in tasks]
    outcomes: list[DeckOutcome | None] = [None] * len(tasks)
    drawing = [i for i, t in enumerate(tasks) if not t.check_only]
    if len(tasks) > 1 and sum(cards) >= PARALLEL_MIN_CARDS:
        workers.start()
    if workers.pool is not None and len(tasks) > 1 and sum(cards) >= PARALLEL_MIN_CARDS:
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        try:
            # Largest first, so that the last deck to finish is a small one.
            order = sorted(range(len(tasks)), key=lambda i: -cards[i])
            running: dict = {}
            while order or running:
                # A few tasks ahead of the workers, not all: each holds its cards' records and
                # its outcome its files, so memory stays the same for any number of decks.
                while order and len(running) < 2 * workers.jobs:
                    i = order.pop(0)
                    running[workers.pool.submit(render_deck, _for_worker(tasks[i]))] = i
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    i = running.pop(future)
                    outcomes[i] = future.result()
                    if on_outcome is not None:
                        on_outcome(i, outcomes[i])
                    if progress and not tasks[i].check_only:
                        progress(cards[i])
            return [o for o in outcomes if o is not None]
        except BrokenProcessPool:
            # A worker died (out of memory, killed) or processes cannot be started here: the
            # decks not yet done are drawn in this process instead, to the same bytes.
            pass
    failed = any(o.problems for o in outcomes if o is not None)
    for i, task in enumerate(tasks):
        if outcomes[i] is not None:
            continue
        if failed and task.draw:
            task = replace(task, draw=False)  # one process: stop drawing at the first problem
        outcome = render_deck(task, progress if i in drawing else None)
        failed = failed or bool(outcome.problems)
        outcomes[i] = outcome
        if on_outcome is not None:
            on_outcome(i, outcome)
    return [o for o in outcomes if o is not None]


class _Digests:
    """Input digests of one game's units (see :mod:`printkit.build_cache`)."""

    def __init__(self, cache: BuildCache, game: Game, options: BuildOptions, layouts_dir: Path):
        self.cache, self.game, self.layouts_dir, self.options = cache, game, layouts_dir, options
        folder = game_templates_dir(game.folder, layouts_dir)
        translation = build_translation(game, options)
        self.common = {"code": code_digest(game.game_id), "options": repr(options), "game": game.game_id,
                       "info": game.info.model_dump(mode="json"),
                       # The templates' own words (``_("...")``) print on every card of the game.
                       "words": dict(translation.words) if translation else None}
        self._cards: dict[str, tuple[bytes, str]] = {}  # digests, not records: small per card
        self._deck_assets: tuple[str, str] | None = None
        self._everything: tuple[str, str, str] | None = None
        self._folder = folder

    def _card(self, card_id: str) -> tuple[bytes, str]:
        """``(SHA-256 of the card's record, its type)``, each card read once."""
        if card_id not in self._cards:
            card = self.game.cards[card_id]
            # The version is printed (QR code and label) but lives in printings.yaml, not the record.
            version = self.game.printings.card_version(card)
            translation = build_translation(self.game, self.options)
            record = {"card": card.model_dump(mode="json"), "version": version.version if version else None,
                      "released": version.released if version else None,
                      "translation": translation.printed_fields(card_id) if translation else None}
            self._cards[card_id] = (bytes.fromhex(json_digest(record)), card.type)
        return self._cards[card_id]

    def deck(self, unit: str, job: CardJob) -> str:
        """A deck's (or the unprinted cards') digest: its cards' records, the templates of their
        types and back, the game's art, icons and fonts, game.yaml, the options, printkit."""
        if self._deck_assets is None:
            # Art, icons and fonts; the YAML of the game folder is read through the records.
            self._deck_assets = (
                self.cache.tree_digest(self.game.folder, (".yaml", ".yml", ".md"), ("cards", "decks"),
                                       keep=is_game_data),
                self.cache.tree_digest(self._folder, (".yaml", ".yml", ".md")))
        cards = [self._card(cid) for cid in job.cards.ids]
        names = sorted({card_type for _, card_type in cards} | {f"back-{job.kind}"})
        templates = {n: self.cache.file_digest(self._folder / f"{n}.yaml") for n in names}
        return json_digest({**self.common, "unit": unit, "name": job.name, "kind": job.kind,
                            "assets": self._deck_assets, "templates": templates,
                            "cards": [digest.hex() for digest, _ in cards]})

    def whole_game(self, unit: str, **extra) -> str:
        """A digest over the game's whole folder and templates (reference cards and extras read
        every card, the glossary, deck lists and tables)."""
        if self._everything is None:
            self._everything = (self.cache.tree_digest(self.game.folder, keep=is_game_data),
                                self.cache.tree_digest(self._folder),
                                self.cache.tree_digest(self.layouts_dir / "print"))
        return json_digest({**self.common, "unit": unit, "everything": self._everything, **extra})


@dataclass
class _Unit:
    """One unit of a game's output: its key in the cache, its digest, and either its record
    (unchanged: not rendered) or nothing yet."""

    key: str
    digest: str
    cached: UnitRecord | None


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
                           output=options.pdf_output, registration_marks=options.registration_marks is not None,
                           info=DocInfo.for_game(game.info, "print this"))


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
          catalog: bool = False, jobs: int = 1, limits: Limits | None = None) -> BuildResult:
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

    Incremental: a unit of output (a deck, the reference cards, the extras) whose inputs did
    not change since the build that wrote ``out_dir`` (:mod:`printkit.build_cache`) is neither
    laid out nor drawn, and its files are carried over untouched; its warnings are repeated.
    Any other file whose new bytes equal the old is not rewritten either (``result.unchanged``).
    ``jobs``: processes laying out and drawing decks at once (1: all in this one); the output
    is byte-identical whatever the number.

    ``limits``: the bounds of card data, artwork and templates (:class:`~card_data.limits.Limits`;
    default: the ``printkit.toml`` found from the current folder up, a broken one reported as a
    problem), in force in this process and sent with every deck to the workers. They are not
    part of the cache's digests: they decide what is refused, never the bytes of what is
    written, and a unit refused was never recorded, so a raised limit builds it afresh anyway
    (a lowered one is not checked again against what an earlier build took unchanged).
    """
    forget_compiled_templates()  # a template too slow in the last build (--watch) is tried again
    spool = Spool(out_dir) if out_dir is not None else None
    try:
        with Workers(jobs if out_dir is not None else 1) as workers, limits_in_force(limits):
            return _build(data_dir, out_dir, options, games, layouts_dir, progress_factory, deck, scorepad_copies,
                          cards_only, catalog, workers, spool, limits)
    finally:
        if spool is not None:
            spool.discard()  # published files have left it; after problems, nothing is kept


def _build(data_dir: Path | None, out_dir: Path | None, options: BuildOptions, games: Iterable[str],
           layouts_dir: Path, progress_factory: Callable[[int], Progress] | None, deck: str | None,
           scorepad_copies: int, cards_only: bool, catalog: bool, workers: Workers,
           spool: Spool | None, limits: Limits | None) -> BuildResult:
    """:func:`build`, decks drawn by ``workers``, their files going to ``spool`` as they arrive,
    within the limits in force (``limits``: as given to :func:`build`, for the database)."""
    if out_dir is not None and out_dir.is_dir():
        recover(out_dir)  # a killed build's leftovers, before anything reads or writes the set
    build_key = None
    if out_dir is not None:
        # Nothing read by the build changed since it wrote this output: its result, at once
        # (it had no problems, or it would not have been recorded; its warnings are repeated).
        cache = BuildCache.load(out_dir)
        build_key = _build_key(data_dir, layouts_dir, options, cache, games=list(games), deck=deck and str(deck),
                               scorepad_copies=scorepad_copies, cards_only=cards_only, catalog=catalog)
        same = cache.same_build(build_key, out_dir)
        if same is not None:
            try:
                result = _same_build_result(same, out_dir, options)
            except (ValueError, TypeError, KeyError):
                result = None  # a record that does not read: build
            if result is not None:
                if progress_factory:
                    progress_factory(result.cards)(result.cards)
                return result
    if _card_file_bytes(data_dir) >= EARLY_WORKERS_CARD_BYTES:
        workers.start()  # before the database is loaded (see Workers)
    db, problems = check_database(data_dir, limits)
    games = list(games)
    selected, unknown = select_games(db, games)
    for name in unknown:
        problems.append(Problem(str(db.root), 1, name, "-", "game", f"no such game (have: {', '.join(db.games)})"))
    deck_job: list[CardJob] | None = None
    if deck is not None and not problems:
        try:
            target, deck_job = chosen_deck_jobs(db, selected, games, deck)
            selected = [target]
        except DatabaseError as exc:
            problems.extend(exc.problems)
    game_jobs: dict[str, list[CardJob]] = {}
    kits: dict[str, KitSpec] = {}
    for game in selected:
        kit, kit_problems = load_kit(game)
        problems.extend(kit_problems)
        kits[game.game_id] = kit
        if deck_job is not None:
            game_jobs[game.game_id] = deck_job
        elif catalog or problems or out_dir is None:
            # Lays out every card that loaded, to report every problem; deck lists may name
            # cards that failed to load, so they are only followed in a clean database.
            game_jobs[game.game_id] = catalog_jobs(game)
        else:
            game_jobs[game.game_id] = play_jobs(game, kit)
    for game in selected:
        try:
            per_file = deck_imposition(game, options).per_sheet * SHEETS_PER_FILE
        except ValueError:
            continue  # reported where the deck is drawn
        game_jobs[game.game_id] = [part for job in game_jobs[game.game_id] for part in split_job(job, per_file)]
    total = sum(len(job.cards) for jobs_ in game_jobs.values() for job in jobs_)
    fallbacks = []
    if options.lang:
        for game in selected:
            printed = [cid for job in game_jobs[game.game_id] for cid in job.cards.ids]
            left = untranslated_cards(printed, build_translation(game, options))
            fallbacks.append((game.game_id, left, len(set(printed))))
    progress = progress_factory(total) if (progress_factory and out_dir is not None and not problems) else None
    drawing = out_dir is not None
    # Only a clean build may skip work: with problems every card is laid out, to report them all.
    if not drawing or problems:
        cache = BuildCache.load(None)
    use_cache = cache.path is not None
    rendered: dict[Path, bytes | Spooled | Unchanged] = {}
    records: dict[str, dict[str, UnitRecord]] = {}
    plans: list[SheetPlan] = []

    def layout_problem(game: Game, exc: LayoutError, record: str = "-") -> None:
        problems.append(Problem(exc.file, exc.line, game.game_id, record, exc.field, exc.message))

    def unit(game: Game, key: str, digest: str) -> _Unit:
        cached = cache.unchanged(game.game_id, key, digest, out_dir / game.game_id) if use_cache else None
        if cached is not None and not _readable_meta(cached.meta, game):
            cached = None  # a record that does not read as this build wrote it: render the unit
        return _Unit(key, digest, cached)

    def keep(game: Game, u: _Unit) -> None:
        """Carry an unchanged unit's files over and remember it again."""
        for name in u.cached.files:
            rendered[out_dir / game.game_id / name] = UNCHANGED
        records.setdefault(game.game_id, {})[u.key] = u.cached

    def remember(game: Game, u: _Unit, files: Mapping[str, bytes], meta: dict) -> None:
        records.setdefault(game.game_id, {})[u.key] = UnitRecord(
            u.digest, {name: data.sha256 if isinstance(data, Spooled) else sha256_hex(data)
                       for name, data in files.items()}, meta)

    # 1. What each game's decks need, and which are unchanged.
    warnings = BuildWarnings()
    tasks: list[DeckTask] = []
    per_game: dict[str, list[tuple[CardJob, _Unit | None, int | None]]] = {}
    loose: dict[str, list[LooseCard]] = {}
    loose_jobs: dict[str, list[CardJob]] = {}
    game_warnings: dict[str, BuildWarnings] = {}
    for game in selected:
        problems.extend(game_asset_problems(game))  # the game's fonts and icon files
        digests = _Digests(cache, game, options, layouts_dir) if use_cache else None
        game_warnings[game.game_id] = gw = BuildWarnings()
        layouts = GameLayouts(game, options, layouts_dir, problems, gw)
        entries = per_game[game.game_id] = []
        loose[game.game_id], loose_jobs[game.game_id] = [], []
        for job in game_jobs[game.game_id]:
            if deck_job is None and not cards_only and len(job.cards) <= LOOSE_DECK_MAX_CARDS:
                # One or two cards would take a duplex sheet of their own: they join the game's
                # score pad page or token sheet as fold-over pairs (render_extras).
                loose[game.game_id] += loose_cards(game, job.kind, job.cards, layouts.back(job.kind), layouts.front,
                                                   options.bleed_mm)
                loose_jobs[game.game_id].append(job)
                if progress:
                    progress(len(job.cards))
                continue
            u = unit(game, f"deck:{job.name}", digests.deck("deck", job)) if digests else None
            if u is not None and u.cached is not None:
                entries.append((job, u, None))
                if progress:
                    progress(len(job.cards))
                continue
            entries.append((job, u, len(tasks)))
            tasks.append(DeckTask(game, job, options, layouts_dir, drawing and not problems, limits=current_limits()))
        if deck_job is None:
            # The cards the kit does not print are laid out too, so that a problem with any card
            # of the database stops the build as it stops ``validate``.
            printed = {cid for job in game_jobs[game.game_id] for cid in job.cards.ids}
            unprinted = CardRefs(game.cards, [cid for cid in game.cards if cid not in printed])
            if unprinted:
                job = CardJob("-unprinted", "-", "", unprinted)
                u = unit(game, "unprinted", digests.deck("unprinted", job)) if digests else None
                entries.append((job, u, None if u is not None and u.cached is not None else len(tasks)))
                if u is None or u.cached is None:
                    tasks.append(DeckTask(game, job, options, layouts_dir, False, check_only=True,
                                          limits=current_limits()))

    # 2. Lay out and draw the decks that changed (in worker processes if it pays).
    def spool_files(_: int, outcome: DeckOutcome) -> None:
        # Thousands of cards make megabytes of PDF: on disk until published, not in memory.
        if spool is not None and outcome.files:
            outcome.files = {name: spool.put(data) for name, data in outcome.files.items()}

    outcomes = _run_decks(tasks, workers, progress, spool_files) if tasks else []

    # 3. Each game's files, in order.
    for game in selected:
        gid = game.game_id
        kit = kits[gid]
        index: list[KitFile] = []
        warnings.merge(game_warnings[gid].entries)
        for job, u, task_index in per_game[gid]:
            if task_index is None:  # unchanged since the last build
                warnings.merge(_warnings_from_json(u.cached.meta.get("warnings", []), game))
                if job.kind == "-":
                    records.setdefault(gid, {})[u.key] = u.cached
                    continue
                keep(game, u)
                sheets = int(u.cached.meta.get("sheets", 0))
                plans.append(SheetPlan(gid, job.name, game.info.card_size.label, deck_imposition(game, options)))
                index += deck_kit_files(job.name, options.duplex, sheets, f"{job.title}: {_count(job.cards)}",
                                        note=job.note)
                continue
            outcome = outcomes[task_index]
            problems.extend(outcome.problems)
            warnings.merge(outcome.warnings)
            if job.kind == "-":
                if u is not None and not outcome.problems:
                    records.setdefault(gid, {})[u.key] = UnitRecord(u.digest, {}, {
                        "warnings": _warnings_json(outcome.warnings)})
                continue
            if not outcome.files or problems:
                continue
            plans.append(SheetPlan(gid, job.name, game.info.card_size.label, deck_imposition(game, options)))
            for file_name, data in outcome.files.items():
                rendered[out_dir / gid / file_name] = data
            if u is not None:
                remember(game, u, outcome.files, {"sheets": outcome.sheets,
                                                  "warnings": _warnings_json(outcome.warnings)})
            index += deck_kit_files(job.name, options.duplex, outcome.sheets, f"{job.title}: {_count(job.cards)}",
                                    note=job.note)
        if deck_job is not None or cards_only:
            continue
        digests = _Digests(cache, game, options, layouts_dir) if use_cache else None
        index += _reference_cards(game, kit, options, layouts_dir, problems, warnings, drawing, rendered,
                                  unit(game, "reference", digests.whole_game("reference")) if digests else None,
                                  keep, remember, out_dir)
        held = loose_jobs[gid]
        extras_unit = unit(game, "extras", digests.whole_game(
            "extras", scorepad_copies=scorepad_copies,
            loose=[[j.name, j.kind, list(j.cards.ids)] for j in held])) if digests else None
        if extras_unit is not None and extras_unit.cached is not None:
            keep(game, extras_unit)
            pages: dict[str, int] = dict(extras_unit.cached.meta.get("pages", {}))
            placed_file = extras_unit.cached.meta.get("placed")
            extras_names = list(pages)
        else:
            try:
                extras = render_extras(game, options.paper, layouts_dir, scorepad_copies=scorepad_copies,
                                       output=options.pdf_output, loose_cards=loose[gid])
                placed = place_loose_cards(game, options.paper, layouts_dir, loose[gid])
            except LayoutError as exc:
                layout_problem(game, exc)
                extras, placed = {}, None
            pages = {name: _pdf_pages(data) for name, data in extras.items()} if drawing else {}
            placed_file = placed.file_name if placed is not None else None
            extras_names = list(extras)
            if drawing:
                for file_name, data in extras.items():
                    rendered[out_dir / gid / file_name] = data
                if extras_unit is not None:
                    remember(game, extras_unit, extras, {"pages": pages, "placed": placed_file})
        if drawing:
            for file_name in extras_names:
                extra_note = kit.files.get(file_name)
                extra_kind = _extra_kind(layouts_dir, game, file_name)
                note = (extra_note.note or "") if extra_note else ""
                held_here = held if placed_file == file_name else []
                if held_here:
                    note += "; " if note else ""
                    note += "also " + ", ".join(f"{j.title} ({_count(j.cards)})" for j in held_here) + \
                        " as fold-over pairs: fold along the dashed line, glue, cut"
                index.append(KitFile(file_name, _EXTRA_TITLES[extra_kind], pages[file_name], "single",
                                     extra_note.copies if extra_note else 1, note, extra_kind))
        if drawing and not problems:
            rendered[out_dir / gid / INDEX_FILE] = _index(game, kit, options, index, catalog)
    # A card in several deck lists is laid out once per list; report its problem once.
    result = BuildResult(problems=sorted(set(problems)), cards=total, games=selected, plans=plans,
                         warnings=warnings.items, fallbacks=fallbacks)
    if problems or out_dir is None:
        return result
    for path, data in rendered.items():
        if not isinstance(data, Unchanged) and same_bytes(path, data):
            rendered[path] = UNCHANGED  # the same bytes as the file there: leave it untouched
    result.unchanged = [p for p, data in rendered.items() if isinstance(data, Unchanged)]
    whole_kit = deck is None and not cards_only
    if whole_kit:
        # Files an earlier build wrote that this one does not make (other decks, more sheets,
        # the catalogue's files) would mislead; publish removes them, and only them.
        result.written = publish(out_dir, rendered, keep_others=False)
    else:
        # A smaller deck or a bigger paper leaves fewer sheets; old cut files would mislead
        # (publish removes those an earlier build wrote, never a file of the same name it did not).
        stale = [p for plan in plans for p in (out_dir / plan.game_id).glob(f"{plan.kind}-cards-sheet-*.svg")
                 if p not in rendered]
        result.written = publish(out_dir, rendered, stale)
    if use_cache:
        for game in selected:
            cache.record(game.game_id, records.get(game.game_id, {}), replace_game=whole_kit)
        cache.record_build(build_key, {
            "files": [[str(p.relative_to(out_dir)), _sha_of(p, rendered[p])] for p in rendered],
            "warnings": [asdict(w) for w in result.warnings], "cards": total, "whole_kit": whole_kit,
            "games": [g.game_id for g in selected], "fallbacks": [list(f) for f in fallbacks],
            "plans": [[plan.game_id, plan.kind, plan.size_label, *_card_mm(db.games[plan.game_id])] for plan in plans]})
        try:
            write_atomically(cache.path, cache.to_bytes())
        except OSError:
            pass  # the cache only saves time; the output set itself is whole
    return result


def _readable_meta(meta: dict, game: Game) -> bool:
    """Whether a cached unit's ``meta`` has the shape :func:`build` writes."""
    try:
        _warnings_from_json(meta.get("warnings", []), game)
        pages = meta.get("pages", {})
        return (all(isinstance(meta.get(k, 0), int) for k in ("sheets", "faces"))
                and isinstance(pages, dict) and all(isinstance(v, int) for v in pages.values())
                and isinstance(meta.get("placed"), (str, type(None))))
    except (TypeError, ValueError, AttributeError):
        return False


def _card_file_bytes(data_dir: Path | None) -> int:
    """The size of the database's card files (``<game>/cards/*.yaml``), in bytes."""
    from card_data.loader import bundled_data_dir

    try:
        return sum(p.stat().st_size for p in Path(data_dir or bundled_data_dir()).glob("*/cards/*.yaml"))
    except OSError:
        return 0  # the loader reports what cannot be read


def _sha_of(path: Path, data: bytes | Spooled | Unchanged) -> str:
    if isinstance(data, Spooled):
        return data.sha256
    return sha256_hex(path.read_bytes() if isinstance(data, Unchanged) else data)


def _card_mm(game: Game) -> tuple[float, float]:
    return game.info.card_size.width_mm, game.info.card_size.height_mm


def _reference_cards(game: Game, kit: KitSpec, options: BuildOptions, layouts_dir: Path, problems: list[Problem],
                     warnings: BuildWarnings, drawing: bool, rendered: dict, u: _Unit | None, keep, remember,
                     out_dir: Path | None) -> list[KitFile]:
    """The game's ``reference-cards.pdf`` (and cut files) into ``rendered``, unless unchanged;
    returns its lines of the print index."""
    ref_note = kit.files.get("reference-cards.pdf")
    copies, note = (ref_note.copies, ref_note.note or "") if ref_note else (1, "")
    if u is not None and u.cached is not None:
        keep(game, u)
        warnings.merge(_warnings_from_json(u.cached.meta.get("warnings", []), game))
        faces_count, sheets = int(u.cached.meta.get("faces", 0)), int(u.cached.meta.get("sheets", 0))
        return deck_kit_files("reference", options.duplex, sheets,
                              f"Reference cards: {faces_count} (rules summaries, with their own back)", copies, note)
    ref_warnings = BuildWarnings()
    layouts = GameLayouts(game, options, layouts_dir, problems, ref_warnings)
    back = layouts.reference_back()
    warnings.merge(ref_warnings.entries)
    try:
        faces = reference_faces(game, layouts_dir)
    except LayoutError as exc:
        problems.append(Problem(exc.file, exc.line, game.game_id, "-", exc.field, exc.message))
        faces = []
    except DatabaseError as exc:  # a broken card_data/<game>/reference.yaml
        problems.extend(exc.problems)
        faces = []
    if not (drawing and back and faces and not problems):
        return []
    writer = SheetWriter(game, next(iter(game.info.backs)), back, options, "reference",
                         back_title=REFERENCE_BACK_TITLE)
    for _, face in faces:
        writer.add(face)
    files, _ = writer.files()
    for file_name, data in files.items():
        rendered[out_dir / game.game_id / file_name] = data
    if u is not None:
        remember(game, u, files, {"faces": len(faces), "sheets": writer.sheets,
                                  "warnings": _warnings_json(ref_warnings.entries)})
    return writer.kit_file(f"Reference cards: {len(faces)} (rules summaries, with their own back)",
                           copies=copies, note=note)
