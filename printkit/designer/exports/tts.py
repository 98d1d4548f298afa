"""``printkit tts``: Tabletop Simulator deck sheets, drawn by the same layout templates as the PDFs.

For every game and deck back (``backs`` in game.yaml) the cards are laid out one per
trim-sized PDF page (printkit.sheets.templating.layout + printkit.sheets.render, QR codes included), rasterised with
pdfium at a fixed resolution and pasted into PNG grids that TTS's Custom Deck object reads:

- at most 10 columns x 7 rows, and at most 69 faces per sheet: TTS shows the grid's last
  cell (the 70th) as the card hidden in other players' hands, so it is never a card;
- grid of a sheet with ``n`` faces: ``columns = min(10, n)``, ``rows = ceil(n / columns)``;
  unused cells stay white;
- one back image per deck back kind, the same size as a card;
- each card as many times as it prints (its ``qty``, 0-99, for a declared game; once for a
  game whose cards have none), copies side by side, so the deck TTS makes from a sheet holds
  every copy; a card with ``qty: 0`` is laid out (its problems are reported) but not on a sheet.

Files, under ``<out>/<game>/``: ``<kind>-<n>.png`` (sheet n, from 1), ``<kind>-<n>.json``
(the TTS Custom Deck fields ``FaceURL``, ``BackURL``, ``NumWidth``, ``NumHeight``, plus the
card ids in grid order, left to right, top to bottom, a card's id once per copy) and
``<kind>-back.png``; ``<kind>`` is the back's name in the game's ``backs``. Upload the
PNGs and put their URLs where the JSON has the file names. The folder keeps a record of the
files written (``.printkit-tts-files.json``), so that a sheet the next run no longer makes (a deck
grown smaller) is removed, never a file printkit did not write
(:mod:`printkit.designer.exports.written_exports`).

Same input, same bytes: the PDFs are reproducible, pdfium renders deterministically, and
the PNGs carry no timestamp or other metadata. Nothing is written unless every card of
every selected game lays out without a problem.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2
from PIL import Image

from card_data.project.limits import limits_in_force
from card_data.loader import Game, check_database
from card_data.problems import Problem
from printkit.build_options import BuildOptions
from printkit.components.kit import CardJob, decks_drawn
from printkit.designer.exports.written_exports import TTS_RECORD, write_recorded
from printkit.pipeline.card_faces import GameLayouts
from printkit.pipeline.load import select_games
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.templating.layout import LAYOUTS_DIR, Face
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.render import PageDrawer, new_canvas

DEFAULT_DPI = 200
"""Pixels per inch of the card images: a poker card (63.5 x 88.9 mm) is 500 x 700 px, a full
10 x 7 sheet 5000 x 4900 px. 150 keeps a full sheet under 4096 px a side."""
MAX_COLUMNS = 10
MAX_ROWS = 7
MAX_FACES_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1
"""69: TTS uses the 70th cell of a full grid as the hidden-card image."""
POINTS_PER_INCH = 72
MM_PER_INCH = 25.4


def grid_size(count: int) -> tuple[int, int]:
    """``(columns, rows)`` of a sheet holding ``count`` faces (1-69): ``columns = min(10, count)``,
    ``rows = ceil(count / columns)``. Raises ``ValueError`` outside 1-69."""
    if not 1 <= count <= MAX_FACES_PER_SHEET:
        raise ValueError(f"a TTS deck sheet holds 1 to {MAX_FACES_PER_SHEET} faces, not {count}")
    columns = min(MAX_COLUMNS, count)
    return columns, math.ceil(count / columns)


def card_px(width_mm: float, height_mm: float, dpi: int) -> tuple[int, int]:
    """A card's image size in pixels at ``dpi``: ``(width_px, height_px)``, rounded."""
    return round(width_mm / MM_PER_INCH * dpi), round(height_mm / MM_PER_INCH * dpi)


def rasterise_faces(faces: Iterable[Face], width_mm: float, height_mm: float, dpi: int) -> list[Image.Image]:
    """Each face drawn on its own trim-sized PDF page (no bleed) and rendered to an RGB image of
    exactly :func:`card_px` pixels."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, width_mm, height_mm, "printkit TTS faces")
    drawer = PageDrawer(canvas, height_mm)
    trim = Rect(0, 0, width_mm, height_mm)
    pages = 0
    for face in faces:
        drawer.face(face, trim, trim)
        canvas.showPage()
        pages += 1
    if not pages:
        return []
    canvas.save()
    size = card_px(width_mm, height_mm, dpi)
    pdf = pypdfium2.PdfDocument(buffer.getvalue())
    images = []
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            image = page.render(scale=dpi / POINTS_PER_INCH).to_pil().convert("RGB")
            page.close()
            # pdfium rounds the bitmap size its own way; a sheet needs every cell exactly alike.
            images.append(image if image.size == size else image.resize(size, Image.Resampling.LANCZOS))
    finally:
        pdf.close()
    return images


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as PNG with no metadata chunks (so identical pixels give identical bytes)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


@dataclass
class DeckSheet:
    """One TTS deck sheet: which game and back ``kind``, its 1-based ``number``, the grid
    (``columns`` x ``rows``), the card ids in grid order (a card once per copy) and the image.
    ``name`` starts its file names: the back kind, or with ``--deck`` the deck's name."""

    game_id: str
    kind: str
    number: int
    columns: int
    rows: int
    card_ids: list[str]
    image: Image.Image
    name: str = ""

    @property
    def stem(self) -> str:
        return f"{self.name or self.kind}-{self.number}"

    def index_json(self, dpi: int) -> str:
        """The sheet's TTS Custom Deck fields and card ids, as JSON text (a deck list's sheet
        also names its ``deck``)."""
        card_w, card_h = self.image.width // self.columns, self.image.height // self.rows
        name = self.name or self.kind
        data = {
            "game": self.game_id,
            "kind": self.kind,
            **({"deck": name} if name != self.kind else {}),
            "FaceURL": f"{self.stem}.png",
            "BackURL": f"{name}-back.png",
            "NumWidth": self.columns,
            "NumHeight": self.rows,
            "BackIsHidden": True,
            "UniqueBack": False,
            "card_px": [card_w, card_h],
            "dpi": dpi,
            "cards": self.card_ids,
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def assemble_sheets(game_id: str, kind: str, card_ids: list[str], images: list[Image.Image],
                    name: str = "") -> list[DeckSheet]:
    """Paste card images (all the same size; the same image again for a card's next copy) into
    sheets of at most 69, in order; ``name`` as :class:`DeckSheet`'s."""
    sheets = []
    for start in range(0, len(images), MAX_FACES_PER_SHEET):
        batch = images[start:start + MAX_FACES_PER_SHEET]
        columns, rows = grid_size(len(batch))
        cell_w, cell_h = batch[0].size
        sheet = Image.new("RGB", (columns * cell_w, rows * cell_h), "white")
        for i, image in enumerate(batch):
            sheet.paste(image, ((i % columns) * cell_w, (i // columns) * cell_h))
        sheets.append(DeckSheet(game_id, kind, len(sheets) + 1, columns, rows,
                                card_ids[start:start + MAX_FACES_PER_SHEET], sheet, name))
    return sheets


@dataclass
class TtsResult:
    """What a run did: files written, or the problems found (nothing is written then)."""

    written: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    sheets: list[DeckSheet] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    """Sheets an earlier run wrote under the same names that this one no longer makes
    (:mod:`printkit.designer.exports.written_exports`)."""


@limits_in_force()  # the project's: its artwork and templates are checked against them
def build_tts(data_dir: Path | None, out_dir: Path, base_url: str, games: Iterable[str] = (),
              dpi: int = DEFAULT_DPI, layouts_dir: Path = LAYOUTS_DIR, deck: str | Path | None = None) -> TtsResult:
    """Write TTS deck sheets for the selected games (default all) to ``out_dir/<game>/``.

    One deck per back kind, each card as many times as it prints
    (:func:`~printkit.components.kit.copies_jobs`); with ``deck`` (a deck id or deck-list file,
    as ``printkit build --deck``) only that deck list in its quantities, its files named after
    the deck (:func:`~printkit.components.kit.deck_jobs`). ``base_url`` is where the cards' QR
    codes point (as for ``printkit build``); ``dpi`` the card images' resolution. Returns a
    :class:`TtsResult`; on any problem (database, layout, text that does not fit, a deck list
    that is not the game's) nothing is written. Raises ``OSError`` if the output cannot be written.
    """
    games = tuple(games)
    db, problems = check_database(data_dir)
    selected = select_games(db, games, problems)
    selected, decks = decks_drawn(db, selected, games, deck, problems)
    # Paper does not matter here: the options are only read for the QR base URL and bleed.
    options = BuildOptions(paper=paper_by_name("letter"), base_url=base_url)
    laid_out: list[tuple[Game, CardJob, Face | None, dict[str, Face | None]]] = []
    for game in selected:
        layouts = GameLayouts(game, options, layouts_dir, problems)
        faces: dict[str, Face | None] = {}
        for job in decks[game.game_id]:
            back = layouts.back(job.kind)
            for card_id in dict.fromkeys(job.cards.ids):
                if card_id not in faces:
                    faces[card_id] = layouts.front(game.cards[card_id])
            laid_out.append((game, job, back, faces))
        if deck is None:
            # Cards that print no copy are laid out too, so that their problems are reported.
            for card_id, card in game.cards.items():
                if card_id not in faces:
                    layouts.back(card.back_kind())
                    faces[card_id] = layouts.front(card)
    result = TtsResult(problems=sorted(problems))
    if problems:
        return result

    files: dict[Path, bytes] = {}
    for game, job, back, faces in laid_out:
        size = game.info.card_size
        ids = list(job.cards.ids)
        distinct = list(dict.fromkeys(ids))
        # Each face is drawn once; its copies paste the same image.
        images = dict(zip(distinct, rasterise_faces([faces[cid] for cid in distinct], size.width_mm,
                                                    size.height_mm, dpi), strict=True))
        sheets = assemble_sheets(game.game_id, job.kind, ids, [images[cid] for cid in ids], job.name)
        folder = out_dir / game.game_id
        for sheet in sheets:
            files[folder / f"{sheet.stem}.png"] = png_bytes(sheet.image)
            files[folder / f"{sheet.stem}.json"] = sheet.index_json(dpi).encode("utf-8")
        files[folder / f"{job.name}-back.png"] = png_bytes(
            rasterise_faces([back], size.width_mm, size.height_mm, dpi)[0])
        result.sheets.extend(sheets)
    for game in selected:
        folder = out_dir / game.game_id
        # The names this run draws decks under: every back's (a back left with no card loses its
        # old sheets), or the deck list's.
        names = [job.name for job in decks[game.game_id]] if deck is not None else list(game.info.backs)
        own = re.compile(rf"(?:{'|'.join(map(re.escape, names))})-(?:[0-9]+\.(?:png|json)|back\.png)")
        result.removed += write_recorded({p: d for p, d in files.items() if p.parent == folder}, folder, TTS_RECORD,
                                         lambda rel, own=own: own.fullmatch(rel) is not None)
    result.written = list(files)
    return result
