"""``printkit build`` and ``printkit validate``: lay out every card, then render the card sheets.

Cards are laid out and drawn one sheet at a time, so memory stays flat however large the
database. Nothing is written unless the whole database and every card's layout are valid:
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
from card_data.problems import Problem
from card_data.schemas.common import Card
from printkit.imposition import Imposition, impose
from printkit.layout import LAYOUTS_DIR, Face, Layout, LayoutError, load_layout, prepare_face
from printkit.paper import Paper
from printkit.render import PageDrawer, new_canvas, write_atomically

BLEED_MM = 3.0
Duplex = Literal["long", "short", "none"]
Progress = Callable[[int], None]


@dataclass(frozen=True)
class BuildOptions:
    """How to print: ``paper``, QR ``base_url`` (no trailing slash needed), ``duplex`` flip edge
    (``"none"`` writes backs to a separate file), ``bleed_mm`` around each card's trim."""

    paper: Paper
    base_url: str
    duplex: Duplex = "long"
    bleed_mm: float = BLEED_MM


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
    """Imposes one deck's faces onto card sheets, a sheet at a time.

    Duplex ``long``/``short``: one PDF, each front page followed by its backs page, every
    back behind its front after that flip. ``none``: fronts in one PDF, one page of backs in
    another to print separately. ``files()`` gives ``{file name: PDF bytes}``.
    Raises ``ValueError`` (on creation) if 3 x 3 cards of the game's size do not fit the paper.
    """

    def __init__(self, game: Game, kind: str, back: Face, options: BuildOptions):
        size = game.info.card_size
        self.imp: Imposition = impose(options.paper, size.width_mm, size.height_mm, options.bleed_mm)
        self.kind, self.back, self.options = kind, back, options
        self.title = f"{game.info.title} – {game.info.backs[kind]}"
        self._buffer = io.BytesIO()
        self._canvas = new_canvas(self._buffer, self.imp.paper.width_mm, self.imp.paper.height_mm, self.title)
        self._drawer = PageDrawer(self._canvas, self.imp.paper.height_mm)
        self._pending: list[Face] = []
        self.cards = 0

    def add(self, face: Face) -> int:
        """Queue a front; returns how many cards were drawn by it (a full sheet draws 9)."""
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
        self._canvas.showPage()
        if self.options.duplex != "none":
            self._backs_page(drawer, len(batch), self.options.duplex)
        return len(batch)

    def _backs_page(self, drawer: PageDrawer, count: int, flip: Literal["long", "short"]) -> None:
        drawer.crop_marks(self.imp)
        for slot in range(count):
            drawer.face(self.back, self.imp.back_trim(slot, flip), self.imp.bleed_box(self.imp.back_slot(slot, flip)))
        drawer.c.showPage()

    def files(self) -> tuple[dict[str, bytes], int]:
        """Finish: ``({file name: PDF bytes}, cards drawn by this call)``."""
        drawn = self._flush()
        self._canvas.save()
        files = {f"{self.kind}-cards.pdf": self._buffer.getvalue()}
        if self.options.duplex == "none":
            buf = io.BytesIO()
            canvas = new_canvas(buf, self.imp.paper.width_mm, self.imp.paper.height_mm, f"{self.title} (backs)")
            self._backs_page(PageDrawer(canvas, self.imp.paper.height_mm), self.imp.per_sheet, "long")
            canvas.save()
            files[f"{self.kind}-backs.pdf"] = buf.getvalue()
        return files, drawn


@dataclass
class BuildResult:
    """What a run did: files written (or, for validate, would write), or the problems found
    (nothing is written then). ``cards`` counts the cards laid out."""

    written: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    cards: int = 0
    games: list[Game] = field(default_factory=list)


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


def build(data_dir: Path | None, out_dir: Path | None, options: BuildOptions, games: Iterable[str] = (),
          layouts_dir: Path = LAYOUTS_DIR, progress_factory: Callable[[int], Progress] | None = None,
          ) -> BuildResult:
    """Validate and lay out the selected games (default all) and, given ``out_dir``, write
    ``out_dir/<game>/<kind>-cards.pdf`` for each deck back the game has.

    ``out_dir=None`` only validates (``printkit validate``). ``progress_factory(total_cards)``
    may return a callback taking the number of cards just drawn. Returns a
    :class:`BuildResult`; on problems nothing is written. Raises ``OSError`` if the output
    cannot be written, ``ValueError`` if the game's cards do not fit the paper.
    """
    db, problems = check_database(data_dir)
    selected, unknown = select_games(db, games)
    for name in unknown:
        problems.append(Problem(str(db.root), 1, name, "-", "game", f"no such game (have: {', '.join(db.games)})"))
    total = sum(len(g.cards) for g in selected)
    progress = progress_factory(total) if (progress_factory and out_dir is not None and not problems) else None
    rendered: dict[Path, bytes] = {}
    for game in selected:
        layouts = GameLayouts(game, options, layouts_dir, problems)
        for kind, cards in _decks(game):
            back = layouts.back(kind)
            # Drawing stops at the first problem, but every card is still laid out so that
            # all problems are reported in one run.
            writer = SheetWriter(game, kind, back, options) if (out_dir is not None and back and not problems) else None
            for card in cards:
                face = layouts.front(card)
                if writer is not None and face is not None and not problems:
                    drawn = writer.add(face)
                    if progress and drawn:
                        progress(drawn)
            if writer is not None and not problems:
                files, drawn = writer.files()
                if progress and drawn:
                    progress(drawn)
                for name, data in files.items():
                    rendered[out_dir / game.game_id / name] = data
    result = BuildResult(problems=sorted(problems), cards=total, games=selected)
    if problems or out_dir is None:
        return result
    for path, data in rendered.items():
        write_atomically(path, data)
    result.written = list(rendered)
    return result
