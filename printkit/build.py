"""``printkit build`` and ``printkit validate``: lay out every card, then render the card sheets.

Cards are laid out and drawn one sheet at a time, so memory stays flat however large the
database. Each deck gets as many cards per sheet as the paper takes, an SVG cut file per
sheet of fronts, and optionally CMYK colours, a back offset or fold-over pairs. Nothing is written unless the whole database and every card's layout are valid:
PDFs are rendered in memory, and only when no problem was found does each replace the
previous file atomically. An error therefore always leaves earlier output untouched.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from card_data.loader import Database, Game, check_database
from card_data.problems import DatabaseError, Problem
from card_data.schema import Card, DeckList
from printkit.components.boards import render_extras
from printkit.components.reference import reference_faces
from printkit.sheets.cutfile import cut_svg
from printkit.sheets.decklist import cards_for_deck, find_deck, game_for_deck
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
    load_layout,
    prepare_face,
)
from printkit.sheets.paper import Paper
from printkit.sheets.render import PageDrawer, new_canvas, write_atomically

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
    """

    paper: Paper
    base_url: str
    duplex: Duplex = "long"
    bleed_mm: float = BLEED_MM
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    cmyk: bool = False


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

    def __init__(self, game: Game, options: BuildOptions, layouts_dir: Path, problems: list[Problem]):
        self.game = game
        self.options = options
        self.layouts_dir = layouts_dir
        self.problems = problems
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

    def back(self, kind: str) -> Face | None:
        """The back shared by every card of ``kind`` (a key of ``backs`` in game.yaml)."""
        path = self.layouts_dir / self.game.game_id / f"back-{kind}.yaml"
        layout = self.layout(f"back-{kind}", True)
        if layout is None:
            if not path.is_file():
                self._problem(str(path), 1, "-", "layout", f"no back template for the '{kind}' deck")
            return None
        context = {"game": self.game.info, "game_id": self.game.game_id, "kind": kind,
                   "title": self.game.info.backs[kind]}
        try:
            return prepare_face(layout, context, self.game.folder, None)
        except LayoutError as exc:
            self._problem(exc.file, exc.line, "-", exc.field, exc.message)
            return None

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
            return prepare_face(layout, card_context(self.game, card), self.game.folder,
                                card_url(self.options.base_url, self.game.game_id, card.id))
        except LayoutError as exc:
            self._problem(file, line, card.id, exc.field, f"{exc.message} (template {exc.file}:{exc.line})")
            return None


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

    def __init__(self, game: Game, kind: str, back: Face, options: BuildOptions, name: str | None = None):
        size = game.info.card_size
        fold = options.duplex == "fold"
        impose = impose_fold if fold else impose_most
        self.imp: Imposition | FoldImposition = impose(options.paper, size.width_mm, size.height_mm,
                                                       options.bleed_mm)
        self.kind, self.back, self.options = kind, back, options
        self.name = name or kind  # file-name prefix: the back kind, a deck id, or "reference"
        self.corner_radius_mm = size.corner_radius_mm
        self.title = f"{game.info.title} – {game.info.backs[kind]}"
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
        imp, drawer = self.imp, self._drawer
        drawer.crop_marks(imp)
        for slot, face in enumerate(batch):
            drawer.face(face, imp.trim(slot), imp.bleed_box(slot))
        sheet = len(self._cut_files) + 1
        self._cut_files[f"{self.name}-cards-sheet-{sheet}.svg"] = cut_svg(
            imp.paper.width_mm, imp.paper.height_mm, [imp.trim(slot) for slot in range(len(batch))],
            self.corner_radius_mm, f"{self.title}: cut lines, sheet {sheet}")
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
        imp = self.imp
        paper = imp.paper.label or imp.paper.name
        if isinstance(imp, FoldImposition):
            turned = ", landscape" if imp.paper.landscape else ""
            return (f"{self.game_id} {self.kind}: {imp.per_sheet} {self.size_label} fold-over "
                    f"pair{'s' if imp.per_sheet != 1 else ''} per {paper} sheet ({imp.cols} x {imp.rows}{turned})")
        return (f"{self.game_id} {self.kind}: {imp.per_sheet} {self.size_label} "
                f"card{'s' if imp.per_sheet != 1 else ''} per {paper} sheet ({imp.cols} x {imp.rows})")


@dataclass
class BuildResult:
    """What a run did: files written (or, for validate, would write), or the problems found
    (nothing is written then). ``cards`` counts the cards laid out."""

    written: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
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


def _decks(game: Game) -> Iterator[tuple[str, list[Card]]]:
    """The game's cards grouped by back kind, in game.yaml's order of backs."""
    for kind in game.info.backs:
        cards = [c for c in game.cards.values() if c.back_kind() == kind]
        if cards:
            yield kind, cards


def _jobs(game: Game, deck: DeckList | None, deck_cards: list[Card] | None) -> Iterator[tuple[str, str, list[Card]]]:
    """``(file-name prefix, back kind, cards)`` to print for ``game``: every card once by back
    kind, or one deck list's cards in their quantities (prefix: the deck's id)."""
    if deck is None or deck_cards is None:
        for kind, cards in _decks(game):
            yield kind, kind, cards
        return
    kinds = list(dict.fromkeys(c.back_kind() for c in deck_cards))
    for kind in kinds:
        name = deck.id if len(kinds) == 1 else f"{deck.id}-{kind}"
        yield name, kind, [c for c in deck_cards if c.back_kind() == kind]


def build(data_dir: Path | None, out_dir: Path | None, options: BuildOptions, games: Iterable[str] = (),
          layouts_dir: Path = LAYOUTS_DIR, progress_factory: Callable[[int], Progress] | None = None,
          deck: str | None = None, scorepad_copies: int = 1, cards_only: bool = False) -> BuildResult:
    """Validate and lay out the selected games (default all) and, given ``out_dir``, write to
    ``out_dir/<game>/``:

    - ``<kind>-cards.pdf`` for each deck back the game has (every card once), with an SVG cut
      file ``<kind>-cards-sheet-<n>.svg`` per sheet of fronts (older sheet files beyond the new
      count are removed);
    - ``reference-cards.pdf``: the game's reference cards, with its main card back;
    - the game's boards, mats, tracking sheets, token sheets and score pad
      (:func:`printkit.components.boards.render_extras`; ``scorepad_copies`` pages of score pad).

    ``cards_only`` leaves out the reference cards, boards, tokens and score pad.
    ``deck`` (a deck id or deck-list file) prints only that deck, in its quantities, as
    ``<deck-id>-cards.pdf``; its game is the one named in ``games`` or the one it belongs to.
    ``out_dir=None`` only validates (``printkit validate``). ``progress_factory(total_cards)``
    may return a callback taking the number of cards just drawn. ``result.plans`` says how each
    deck was imposed. Returns a :class:`BuildResult`; on problems nothing is written. Raises
    ``OSError`` if the output cannot be written, ``ValueError`` if the cards do not fit the paper.
    """
    db, problems = check_database(data_dir)
    games = list(games)
    selected, unknown = select_games(db, games)
    for name in unknown:
        problems.append(Problem(str(db.root), 1, name, "-", "game", f"no such game (have: {', '.join(db.games)})"))
    deck_list: DeckList | None = None
    deck_cards: list[Card] | None = None
    if deck is not None and not problems:
        target = selected[0] if len(games) == 1 else game_for_deck(db, deck)
        if target is None:
            problems.append(Problem(str(deck), 1, "-", "-", "deck",
                                    "cannot tell which game this deck list belongs to; name the game too"))
        else:
            try:
                deck_list = find_deck(target, deck)
                deck_cards = cards_for_deck(target, deck)
                selected = [target]
            except DatabaseError as exc:
                problems.extend(exc.problems)
    total = len(deck_cards) if deck_cards is not None else sum(len(g.cards) for g in selected)
    progress = progress_factory(total) if (progress_factory and out_dir is not None and not problems) else None
    rendered: dict[Path, bytes] = {}
    plans: list[SheetPlan] = []
    drawing = out_dir is not None

    def layout_problem(game: Game, exc: LayoutError, record: str = "-") -> None:
        problems.append(Problem(exc.file, exc.line, game.game_id, record, exc.field, exc.message))

    for game in selected:
        layouts = GameLayouts(game, options, layouts_dir, problems)
        for name, kind, cards in _jobs(game, deck_list, deck_cards):
            back = layouts.back(kind)
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
        if deck_list is not None or cards_only:
            continue
        main_kind = next(iter(game.info.backs))
        back = layouts.back(main_kind)
        try:
            faces = reference_faces(game, layouts_dir)
        except LayoutError as exc:
            layout_problem(game, exc)
            faces = []
        except DatabaseError as exc:  # a broken card_data/<game>/reference.yaml
            problems.extend(exc.problems)
            faces = []
        if drawing and back and faces and not problems:
            writer = SheetWriter(game, main_kind, back, options, "reference")
            for _, face in faces:
                writer.add(face)
            files, _ = writer.files()
            for file_name, data in files.items():
                rendered[out_dir / game.game_id / file_name] = data
        try:
            extras = render_extras(game, options.paper, layouts_dir, scorepad_copies=scorepad_copies,
                                   cmyk=options.cmyk)
        except LayoutError as exc:
            layout_problem(game, exc)
            extras = {}
        for file_name, data in extras.items():
            if drawing:
                rendered[out_dir / game.game_id / file_name] = data
    result = BuildResult(problems=sorted(problems), cards=total, games=selected, plans=plans)
    if problems or out_dir is None:
        return result
    for path, data in rendered.items():
        write_atomically(path, data)
    for plan in plans:
        # A smaller deck or a bigger paper leaves fewer sheets; old cut files would mislead.
        for stale in (out_dir / plan.game_id).glob(f"{plan.kind}-cards-sheet-*.svg"):
            if stale not in rendered:
                stale.unlink()
    result.written = list(rendered)
    return result
