"""``printkit export``: one file per card face (PNG at a chosen resolution, or a single-card PDF),
and print-shop presets (see :mod:`printkit.designer.exports.shops`).

Each face is drawn by the same templates and renderer as the card sheets, on its own page of
trim + bleed, then rasterised by pdfium. With a shop preset the card is laid out again at the
shop's bleed, not scaled: the trim stays its true size and every box, image or line that runs
off into printkit's 3 mm bleed is extended to the shop's bleed edge, so colour still runs off
the cut. The image then has exactly the shop's pixel size.

Files, under ``<out>/<game>/``:

- no preset: ``cards/<card-id>-front.png`` and ``cards/<card-id>-back.png`` (``.pdf`` with
  ``--format pdf``), with printkit's 3 mm bleed;
- ``--preset tgc-poker`` / ``mpc-poker``: ``<preset>/<back kind>/fronts/<card-id>.png`` and
  ``<preset>/<back kind>/back.png``: a folder per deck as both shops take one deck (one back,
  its faces) at a time, named after the back (its name in the game's ``backs``), each face
  named by its card id (The Game Crafter names the cards after the files). A card is there
  as many times as it prints (:func:`printkit.components.kit.copies`: its ``qty``, else once):
  ``<card-id>.png``, then ``<card-id>_2.png``, ``<card-id>_3.png`` ... (``_`` is never in a
  card id), since both shops print one card per uploaded image unless told otherwise by hand,
  so the folder holds exactly the deck to order; a card with ``qty: 0`` has no file there.
  Each deck folder keeps a record of the files written (``.printkit-export-files.json``), so that the
  next export removes copies it no longer makes (:mod:`printkit.designer.exports.written_exports`).
  The per-card export without a preset is every face once, whatever the quantities;
- ``--deck DECK`` (a deck id or deck-list file, as ``printkit build --deck``): only that deck
  list's cards, with a preset in the list's quantities, its folder named after the deck
  (``<deck>``, or ``<deck>-<back kind>`` for a deck of several backs, as the build names files).

Same input, same bytes: the PDFs are reproducible, pdfium renders deterministically and the
PNGs carry no metadata but their resolution.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from card_data.project.limits import limits_in_force
from card_data.loader import Game, check_database
from card_data.problems import Problem
from card_data.schema import Card
from printkit.build_options import BLEED_MM, BuildOptions
from printkit.components.kit import decks_drawn
from printkit.designer.exports.shops import MM_PER_INCH, ShopPreset
from printkit.designer.exports.written_exports import write_deck_folders
from printkit.pipeline.card_faces import GameLayouts
from printkit.pipeline.load import select_games
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.templating.layout import (
    BoxRegion,
    Face,
    ImageRegion,
    Layout,
    LineRegion,
    QrRegion,
    TextRegion,
)
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.render import (
    RGB,
    DocInfo,
    PageDrawer,
    PdfOutput,
    new_canvas,
    write_atomically,
)

POINTS_PER_INCH = 72
DEFAULT_DPI = 300
_EPS_MM = 1e-6


def _move_edge(value_mm: float, size_mm: float, from_bleed_mm: float, to_bleed_mm: float) -> float:
    """A coordinate on the old bleed edge moved to the new one; any other left alone."""
    if value_mm <= -from_bleed_mm + _EPS_MM:
        return -to_bleed_mm
    if value_mm >= size_mm + from_bleed_mm - _EPS_MM:
        return size_mm + to_bleed_mm
    return value_mm


def rebleed_layout(layout: Layout, trim_w_mm: float, trim_h_mm: float, from_bleed_mm: float,
                   to_bleed_mm: float) -> Layout:
    """``layout`` with every box, image and line edge that lies on the ``from_bleed_mm`` bleed
    edge moved to the ``to_bleed_mm`` one (all in millimetres from the trim's top-left corner).

    Regions inside the trim, and text and QR codes (which sit in the safe area), are untouched.
    """
    if abs(from_bleed_mm - to_bleed_mm) < _EPS_MM:
        return layout
    regions = []
    for r in layout.spec.regions:
        if isinstance(r, (BoxRegion, ImageRegion, LineRegion)):
            x1 = _move_edge(r.x_mm, trim_w_mm, from_bleed_mm, to_bleed_mm)
            x2 = _move_edge(r.x_mm + r.w_mm, trim_w_mm, from_bleed_mm, to_bleed_mm)
            y1 = _move_edge(r.y_mm, trim_h_mm, from_bleed_mm, to_bleed_mm)
            y2 = _move_edge(r.y_mm + r.h_mm, trim_h_mm, from_bleed_mm, to_bleed_mm)
            r = r.model_copy(update={"x_mm": x1, "y_mm": y1, "w_mm": x2 - x1, "h_mm": y2 - y1})
        regions.append(r)
    return replace(layout, spec=layout.spec.model_copy(update={"regions": regions}))


class RebleedLayouts(GameLayouts):
    """A game's layouts (:class:`printkit.pipeline.card_faces.GameLayouts`, read at printkit's bleed, so the
    templates are checked as for the sheets) re-laid out at ``bleed_mm``."""

    def __init__(self, game: Game, options: BuildOptions, layouts_dir: Path, problems: list[Problem],
                 bleed_mm: float):
        super().__init__(game, options, layouts_dir, problems)
        self.bleed_mm = bleed_mm
        self.used: dict[str, Layout] = {}

    def layout(self, name: str, is_back: bool) -> Layout | None:
        """The template ``name`` at this export's bleed, or ``None`` if missing or broken."""
        if name not in self.used:
            base = super().layout(name, is_back)
            if base is None:
                return None
            size = self.game.info.card_size
            self.used[name] = rebleed_layout(base, size.width_mm, size.height_mm, self.options.bleed_mm,
                                             self.bleed_mm)
        return self.used[name]


def safe_area_warnings(game: Game, layouts: Iterable[Layout], preset: ShopPreset) -> list[Problem]:
    """One warning per template whose text or QR regions come closer to the trim than the
    shop's safe area, at the template's file and first such region's line."""
    size = game.info.card_size
    warnings = []
    for layout in layouts:
        close: list[tuple[str, float]] = []
        for r in layout.spec.regions:
            if not isinstance(r, (TextRegion, QrRegion)):
                continue
            w = r.size_mm if isinstance(r, QrRegion) else r.w_mm
            h = r.size_mm if isinstance(r, QrRegion) else r.h_mm
            inset = min(r.x_mm, r.y_mm, size.width_mm - r.x_mm - w, size.height_mm - r.y_mm - h)
            if inset < preset.safe_mm - 0.01:
                close.append((r.name, inset))
        if close:
            nearest = min(inset for _, inset in close)
            names = ", ".join(name for name, _ in close)
            warnings.append(Problem(str(layout.path), layout.region_line(close[0][0]), game.game_id, "-", "layout",
                                    f"regions {names} come within {nearest:.3g} mm of the trim; {preset.label}'s "
                                    f"safe area is {preset.safe_mm:.3f} mm inside it, so they may be cut"))
    return warnings


def faces_pdf(faces: Iterable[Face], trim_w_mm: float, trim_h_mm: float, bleed_mm: float, info: DocInfo | str,
              output: PdfOutput = RGB) -> bytes:
    """A PDF (bytes, reproducible) with one page per face: the trim plus ``bleed_mm`` on each side,
    every page's TrimBox the card's trim and its BleedBox (and MediaBox) trim plus bleed.

    ``info``: the document information (or a title alone); ``output``: RGB, CMYK or PDF/X-4.
    """
    page_w, page_h = trim_w_mm + 2 * bleed_mm, trim_h_mm + 2 * bleed_mm
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, page_w, page_h, info, output, trim=Rect(bleed_mm, bleed_mm, trim_w_mm, trim_h_mm))
    drawer = PageDrawer(canvas, page_h)
    for face in faces:
        drawer.face(face, Rect(bleed_mm, bleed_mm, trim_w_mm, trim_h_mm), Rect(0, 0, page_w, page_h))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def page_px(width_mm: float, height_mm: float, dpi: int) -> tuple[int, int]:
    """A page's size in whole pixels at ``dpi``: ``(width_px, height_px)``, rounded."""
    return round(width_mm / MM_PER_INCH * dpi), round(height_mm / MM_PER_INCH * dpi)


def rasterise_pdf(pdf: bytes, dpi: int, pages: Iterable[int] | None = None):
    """The pages of ``pdf`` (all, or the 0-based ``pages``) as RGB Pillow images at ``dpi``.

    pdfium sizes a bitmap by rounding up, so a page of exactly 825 px can come out 826 px from
    the last decimal of its size; that sliver is cropped off the bleed (never resampled).
    """
    import pypdfium2

    doc = pypdfium2.PdfDocument(pdf)
    images = []
    try:
        for index in (range(len(doc)) if pages is None else pages):
            page = doc[index]
            w_pt, h_pt = page.get_size()
            want = (round(w_pt / POINTS_PER_INCH * dpi), round(h_pt / POINTS_PER_INCH * dpi))
            image = page.render(scale=dpi / POINTS_PER_INCH).to_pil().convert("RGB")
            page.close()
            if image.size != want:
                image = image.crop((0, 0, *want))
            images.append(image)
    finally:
        doc.close()
    return images


def png_bytes(image, dpi: int) -> bytes:
    """``image`` as PNG carrying only its resolution (pHYs), so equal pixels give equal bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False, compress_level=6)
    return buffer.getvalue()


@dataclass
class ExportResult:
    """What a run did: files written, problems (nothing is written then) and warnings (the
    files are written anyway)."""

    written: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    faces: int = 0
    removed: list[Path] = field(default_factory=list)
    """Copies an earlier export with a preset wrote that this one does not make (see
    :mod:`printkit.designer.exports.written_exports`)."""


def copy_stem(card_id: str, n: int) -> str:
    """The file stem of copy ``n`` (from 1) of a card in a shop preset's folder: ``<card-id>``
    for the first, ``<card-id>_<n>`` for the others (``_`` is never in a card id)."""
    return card_id if n == 1 else f"{card_id}_{n}"


def _decks(game: Game, card_ids: set[str] | None) -> list[tuple[str, list[Card]]]:
    out = []
    for kind in game.info.backs:
        cards = [c for c in game.cards.values() if c.back_kind() == kind and (card_ids is None or c.id in card_ids)]
        if cards:
            out.append((kind, cards))
    return out


@limits_in_force()  # the project's: its artwork and templates are checked against them
def export_cards(data_dir: Path | None, templates_dir: Path, out_dir: Path, base_url: str, games: Iterable[str] = (),
                 preset: ShopPreset | None = None, dpi: int = DEFAULT_DPI, formats: Iterable[str] = ("png",),
                 card_ids: Iterable[str] = (), output: PdfOutput = RGB,
                 deck: str | Path | None = None) -> ExportResult:
    """Export every card (or those of ``card_ids``) of the selected games (default all), one
    file per face, to ``out_dir/<game>/`` (layout in the module docstring).

    ``formats``: ``png`` (at ``dpi``; a preset's own dpi) and/or ``pdf`` (vector, single card).
    ``preset``: a shop's bleed, pixel size and folder layout; a game whose cards are not the
    preset's size is exported at its own size with a warning; with a preset each card is
    exported once per copy it prints (a card's ``qty``, or the deck list's count). Returns an
    :class:`ExportResult`; on problems (database, templates, text that does not fit, an unknown
    card id) nothing is written. ``output``: the PDFs' colours and standard (RGB, CMYK or
    PDF/X-4); PNGs are always RGB, drawn from an RGB page, as the shops that take them ask.
    ``deck``: only that deck list (a deck id or file; its game is the one game in ``games``, or
    the one it can be told to belong to), in its quantities. Raises ``OSError`` if the output
    cannot be written.
    """
    formats = tuple(dict.fromkeys(formats))
    wanted = set(card_ids) or None
    games = tuple(games)
    db, problems = check_database(data_dir)
    selected = select_games(db, games, problems)
    selected, decks = decks_drawn(db, selected, games, deck, problems)
    if wanted is not None:
        known = {cid for g in selected for cid in g.cards}
        for cid in sorted(wanted - known):
            problems.append(Problem(field="--card", message=f"no card {cid!r} in "
                                    f"{', '.join(g.game_id for g in selected) or 'the selected games'}"))
    bleed_mm = preset.bleed_mm if preset is not None else BLEED_MM
    if preset is not None:
        dpi = preset.dpi
    options = BuildOptions(paper=paper_by_name("letter"), base_url=base_url, cmyk=output.cmyk, pdfx=output.pdfx)
    result = ExportResult()
    jobs: list[tuple[Game, Path, list[tuple[str, Face]]]] = []
    deck_folders: list[Path] = []  # a preset's, each holding one deck's images and their record
    for game in selected:
        size = game.info.card_size
        if preset is not None and not preset.fits_size(size.width_mm, size.height_mm):
            result.warnings.append(
                f"{game.game_id}: its cards are {size.label} ({size.width_mm:g} x {size.height_mm:g} mm), not the "
                f"{preset.trim_w_mm:g} x {preset.trim_h_mm:g} mm poker cards {preset.label} prints: the images "
                f"are exported at the game's size with the shop's bleed, and will not match the shop's template")
        layouts = RebleedLayouts(game, options, templates_dir, problems, bleed_mm)
        if preset is None:
            groups = _decks(game, wanted) if deck is None else [
                (job.kind, [game.cards[cid] for cid in dict.fromkeys(job.cards.ids) if wanted is None or cid in wanted])
                for job in decks[game.game_id]]
            for kind, cards in groups:
                if not cards:
                    continue
                back = layouts.back(kind)
                named: list[tuple[str, Face]] = []
                for card in cards:
                    face = layouts.front(card)
                    if face is not None and back is not None:
                        named += [(f"{card.id}-front", face), (f"{card.id}-back", back)]
                jobs.append((game, out_dir / game.game_id / "cards", named))
            continue
        drawn: set[str] = set()
        for job in decks[game.game_id]:
            ids = [cid for cid in job.cards.ids if wanted is None or cid in wanted]
            if not ids:
                continue
            drawn.update(ids)
            back = layouts.back(job.kind)
            faces = {cid: layouts.front(game.cards[cid]) for cid in dict.fromkeys(ids)}
            copy: Counter[str] = Counter()
            named = []
            for cid in ids:
                copy[cid] += 1
                if faces[cid] is not None:
                    named.append((f"fronts/{copy_stem(cid, copy[cid])}", faces[cid]))
            if back is not None:
                named.append(("back", back))
            jobs.append((game, out_dir / game.game_id / preset.name / job.name, named))
            deck_folders.append(out_dir / game.game_id / preset.name / job.name)
        if deck is None and wanted is None:
            # A back none of whose cards prints any more: the images of its last export go.
            deck_folders += [folder for kind in game.info.backs
                             if (folder := out_dir / game.game_id / preset.name / kind) not in deck_folders
                             and folder.is_dir()]
        for card in game.cards.values():
            if card.id in drawn or (wanted is not None and card.id not in wanted):
                continue
            if deck is None:  # a card that prints no copy: laid out, so that its problems are reported
                layouts.back(card.back_kind())
                layouts.front(card)
            if wanted is not None:
                why = f"not in the deck list {deck}" if deck is not None else "qty 0"
                result.warnings.append(f"{game.game_id}/{card.id}: {why}, so {preset.label} gets no file of it")
        result.warnings += [str(w) for w in safe_area_warnings(game, layouts.used.values(), preset)]
    result.problems = sorted(problems)
    if problems:
        return result

    files: dict[Path, bytes] = {}
    for game, folder, named in jobs:
        size = game.info.card_size
        # Only distinct faces are drawn: a deck's shared back is rendered once per folder.
        distinct: dict[int, int] = {}
        faces: list[Face] = []
        for _, face in named:
            if id(face) not in distinct:
                distinct[id(face)] = len(faces)
                faces.append(face)
        if "pdf" in formats:
            single: dict[int, bytes] = {}
            for name, face in named:
                if id(face) not in single:
                    single[id(face)] = faces_pdf([face], size.width_mm, size.height_mm, bleed_mm,
                                                 DocInfo.for_game(game.info, name.rsplit('/', 1)[-1]), output)
                files[folder / f"{name}.pdf"] = single[id(face)]
        if "png" in formats:
            images = rasterise_pdf(faces_pdf(faces, size.width_mm, size.height_mm, bleed_mm,
                                             f"{game.info.title} – card faces"), dpi)
            encoded: dict[int, bytes] = {}
            for name, face in named:
                index = distinct[id(face)]
                if index not in encoded:
                    encoded[index] = png_bytes(images[index], dpi)
                files[folder / f"{name}.png"] = encoded[index]
        result.faces += len(named)
    if preset is not None:
        result.removed = write_deck_folders(files, deck_folders, complete=wanted is None)
    else:
        for path, data in files.items():
            write_atomically(path, data)
    result.written = list(files)
    return result
