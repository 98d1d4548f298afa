"""``printkit build``: validate the database and layouts, then render every game's card sheets.

Nothing is written unless the whole database and every card's layout are valid, and each
PDF is rendered in memory before it replaces the previous file atomically, so an error
always leaves earlier output untouched.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
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


@dataclass(frozen=True)
class BuildOptions:
    """How to print: ``paper``, QR ``base_url`` (no trailing slash needed), ``duplex`` flip edge
    (``"none"`` writes backs to a separate file), ``bleed_mm`` around each card's trim."""

    paper: Paper
    base_url: str
    duplex: Duplex = "long"
    bleed_mm: float = BLEED_MM


@dataclass
class PreparedCard:
    card: Card
    face: Face


@dataclass
class PreparedDeck:
    """All cards of one game that share a back (e.g. Carpe Cras "agency"), ready to draw."""

    game: Game
    kind: str
    back: Face
    cards: list[PreparedCard] = field(default_factory=list)


def card_url(base_url: str, game_id: str, card_id: str) -> str:
    """The rulings URL a card's QR code encodes: ``<base-url>/r/<game>/<card-id>``."""
    return f"{base_url.rstrip('/')}/r/{game_id}/{card_id}"


def card_context(game: Game, card: Card) -> dict:
    """Jinja2 variables for a card template: the card's fields plus ``card``, ``game``, ``game_id``."""
    ctx = card.model_dump(mode="python")
    ctx.update(card=card, game=game.info, game_id=game.game_id)
    return ctx


def prepare_game(game: Game, options: BuildOptions, layouts_dir: Path = LAYOUTS_DIR,
                 ) -> tuple[list[PreparedDeck], list[Problem]]:
    """Lay out every card of ``game``; returns the decks ready to draw and every problem found.

    A card whose text does not fit is reported at the card's own ``FILE:LINE`` with the
    region named in the field (``layout:<region>``).
    """
    problems: list[Problem] = []
    size = game.info.card_size
    layouts: dict[str, Layout | None] = {}

    def layout_for(name: str, is_back: bool) -> Layout | None:
        if name not in layouts:
            path = layouts_dir / game.game_id / f"{name}.yaml"
            layouts[name] = None
            if path.is_file():
                try:
                    layouts[name] = load_layout(path, size.width_mm, size.height_mm, options.bleed_mm, is_back)
                except LayoutError as exc:
                    problems.append(Problem(exc.file, exc.line, game.game_id, "-", exc.field, exc.message))
        return layouts[name]

    decks: dict[str, PreparedDeck] = {}
    for kind, title in game.info.backs.items():
        back_path = layouts_dir / game.game_id / f"back-{kind}.yaml"
        layout = layout_for(f"back-{kind}", True)
        if layout is None:
            if not back_path.is_file():
                problems.append(Problem(str(back_path), 1, game.game_id, "-", "layout",
                                        f"no back template for the '{kind}' deck"))
            continue
        try:
            face = prepare_face(layout, {"game": game.info, "game_id": game.game_id, "kind": kind, "title": title},
                                game.folder, None)
        except LayoutError as exc:
            problems.append(Problem(exc.file, exc.line, game.game_id, "-", exc.field, exc.message))
            continue
        decks[kind] = PreparedDeck(game, kind, face)

    for card in game.cards.values():
        file, line = game.sources[("card", card.id)]
        kind = card.back_kind()
        if kind not in game.info.backs:
            problems.append(Problem(file, line, game.game_id, card.id, "type",
                                    f"its back kind '{kind}' is not listed under backs in game.yaml"))
            continue
        layout_path = layouts_dir / game.game_id / f"{card.type}.yaml"
        layout = layout_for(card.type, False)
        if layout is None:
            if not layout_path.is_file():
                problems.append(Problem(file, line, game.game_id, card.id, "type",
                                        f"no layout template {layout_path}"))
            continue
        try:
            face = prepare_face(layout, card_context(game, card), game.folder,
                                card_url(options.base_url, game.game_id, card.id))
        except LayoutError as exc:
            problems.append(Problem(file, line, game.game_id, card.id, exc.field,
                                    f"{exc.message} (template {exc.file}:{exc.line})"))
            continue
        if kind in decks:
            decks[kind].cards.append(PreparedCard(card, face))
    return [d for d in decks.values() if d.cards], problems


def render_deck(deck: PreparedDeck, options: BuildOptions, progress: Callable[[int], None] | None = None,
                ) -> dict[str, bytes]:
    """Render one deck's card sheets; returns ``{file name: PDF bytes}``.

    Duplex ``long``/``short``: one file, each front page followed by its backs page, every
    back behind its front after that flip. ``none``: fronts in one file, one page of backs in
    another (``<kind>-backs.pdf``) to print separately.
    Raises ``ValueError`` if the card size does not fit 3 x 3 on the paper.
    """
    size = deck.game.info.card_size
    imp = impose(options.paper, size.width_mm, size.height_mm, options.bleed_mm)
    title = f"{deck.game.info.title} – {deck.game.info.backs[deck.kind]}"
    files: dict[str, bytes] = {}

    buf = io.BytesIO()
    canvas = new_canvas(buf, imp.paper.width_mm, imp.paper.height_mm, title)
    drawer = PageDrawer(canvas, imp.paper.height_mm)
    per = imp.per_sheet
    for start in range(0, len(deck.cards), per):
        batch = deck.cards[start:start + per]
        drawer.crop_marks(imp)
        for slot, pc in enumerate(batch):
            drawer.face(pc.face, imp.trim(slot), imp.bleed_box(slot))
        canvas.showPage()
        if options.duplex != "none":
            _backs_page(drawer, imp, deck.back, len(batch), options.duplex)
        if progress:
            progress(len(batch))
    canvas.save()
    files[f"{deck.kind}-cards.pdf"] = buf.getvalue()

    if options.duplex == "none":
        buf = io.BytesIO()
        canvas = new_canvas(buf, imp.paper.width_mm, imp.paper.height_mm, f"{title} (backs)")
        _backs_page(PageDrawer(canvas, imp.paper.height_mm), imp, deck.back, per, "long")
        canvas.save()
        files[f"{deck.kind}-backs.pdf"] = buf.getvalue()
    return files


def _backs_page(drawer: PageDrawer, imp: Imposition, back: Face, count: int, flip: Literal["long", "short"]) -> None:
    drawer.crop_marks(imp)
    for slot in range(count):
        drawer.face(back, imp.back_trim(slot, flip), imp.bleed_box(imp.back_slot(slot, flip)))
    drawer.c.showPage()


@dataclass
class BuildResult:
    """What a build did: files written, or the problems that stopped it (nothing written then)."""

    written: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def select_games(db: Database, names: Iterable[str]) -> tuple[list[Game], list[str]]:
    """The games called ``names`` (all if empty) and the names that match no game."""
    names = list(names)
    if not names:
        return list(db.games.values()), []
    unknown = [n for n in names if n not in db.games]
    return [db.games[n] for n in names if n in db.games], unknown


def validate(data_dir: Path | None, options: BuildOptions, games: Iterable[str] = (),
             layouts_dir: Path = LAYOUTS_DIR) -> tuple[list[tuple[Game, list[PreparedDeck]]], list[Problem]]:
    """Check the database and lay out every card; returns the prepared games and all problems."""
    db, problems = check_database(data_dir)
    selected, unknown = select_games(db, games)
    for name in unknown:
        problems.append(Problem(str(db.root), 1, name, "-", "game", f"no such game (have: {', '.join(db.games)})"))
    prepared = []
    for game in selected:
        decks, probs = prepare_game(game, options, layouts_dir)
        problems.extend(probs)
        prepared.append((game, decks))
    return prepared, sorted(problems)


def build(data_dir: Path | None, out_dir: Path, options: BuildOptions, games: Iterable[str] = (),
          layouts_dir: Path = LAYOUTS_DIR, progress_factory: Callable[[int], Callable[[int], None]] | None = None,
          ) -> BuildResult:
    """Validate, render and write ``out_dir/<game>/<kind>-cards.pdf`` for the selected games.

    ``progress_factory(total_cards)`` may return a callback taking the number of cards just
    drawn. Returns a :class:`BuildResult`; on problems nothing is written. Raises ``OSError``
    if the output cannot be written, ``ValueError`` if the cards do not fit the paper.
    """
    prepared, problems = validate(data_dir, options, games, layouts_dir)
    if problems:
        return BuildResult(problems=problems)
    total = sum(len(d.cards) for _, decks in prepared for d in decks)
    progress = progress_factory(total) if progress_factory else None
    rendered: dict[Path, bytes] = {}
    for game, decks in prepared:
        for deck in decks:
            for name, data in render_deck(deck, options, progress).items():
                rendered[out_dir / game.game_id / name] = data
    for path, data in rendered.items():
        write_atomically(path, data)
    return BuildResult(written=list(rendered))
