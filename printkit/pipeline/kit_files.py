"""A game's files beside its decks: the reference cards (:func:`reference_cards`), what the
print index says of the extras (boards, sheets, tokens, score pad), and ``print-this.pdf``
itself (:func:`index_pdf`)."""
from __future__ import annotations

from pathlib import Path

from card_data.loader import Game
from card_data.problems import DatabaseError, Problem
from card_data.project.project_folders import game_templates_dir
from printkit.build_options import BuildOptions
from printkit.components.kit import KitSpec, choose_one_lists, left_out
from printkit.components.print_index import ChooseOneList, KitFile, print_index_pdf
from printkit.components.reference import REFERENCE_BACK_TITLE, reference_faces
from printkit.pipeline.card_faces import GameLayouts
from printkit.pipeline.deck_files import SheetWriter, deck_kit_files
from printkit.pipeline.digests import Unit, warnings_json, warnings_from_json
from printkit.pipeline.units import OutputUnits
from printkit.sheets.templating.layout import LayoutError
from printkit.sheets.templating.layout_base import WarningLog
from printkit.sheets.render import DocInfo


def extra_file_kind(layouts_dir: Path, game: Game, file_name: str) -> str:
    """``board``, ``sheet``, ``tokens``, ``scorepad`` or ``other``: what an extra file is."""
    stem = file_name.removesuffix(".pdf")
    folder = game_templates_dir(game.folder, layouts_dir)
    if (folder / f"board-{stem}.yaml").is_file():
        return "board"
    if (folder / f"sheet-{stem}.yaml").is_file():
        return "sheet"
    return stem if stem in ("tokens", "scorepad") else "other"


EXTRA_TITLES = {"board": "Board or mat, tiled across the pages", "sheet": "Sheet to fill in with a pen",
                "tokens": "Tokens", "scorepad": "Score pad", "other": "Printed component"}


def index_pdf(game: Game, kit: KitSpec, options: BuildOptions, files: list[KitFile], catalog: bool) -> bytes:
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


def pdf_pages(data: bytes) -> int:
    """A rendered component's page count, for the print-this index (the tiling and packing
    decide it inside their renderers)."""
    import pypdfium2  # only here: importing it costs every other command ~0.1 s

    doc = pypdfium2.PdfDocument(data)
    try:
        return len(doc)
    finally:
        doc.close()


def reference_cards(game: Game, kit: KitSpec, options: BuildOptions, layouts_dir: Path, problems: list[Problem],
                    warnings: WarningLog, drawing: bool, units: OutputUnits, u: Unit | None) -> list[KitFile]:
    """The game's ``reference-cards.pdf`` (and cut files) into ``units``, or kept as they are if
    unit ``u`` is unchanged; returns its lines of the print index."""
    ref_note = kit.files.get("reference-cards.pdf")
    copies, note = (ref_note.copies, ref_note.note or "") if ref_note else (1, "")
    if u is not None and u.cached is not None:
        units.keep(game, u)
        warnings.merge(warnings_from_json(u.cached.meta.get("warnings", []), game))
        faces_count, sheets = int(u.cached.meta.get("faces", 0)), int(u.cached.meta.get("sheets", 0))
        return deck_kit_files("reference", options.duplex, sheets,
                              f"Reference cards: {faces_count} (rules summaries, with their own back)", copies, note)
    ref_warnings = WarningLog()
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
    units.add(game, files)
    if u is not None:
        units.remember(game, u, files, {"faces": len(faces), "sheets": writer.sheets,
                                  "warnings": warnings_json(ref_warnings.entries)})
    return writer.kit_file(f"Reference cards: {len(faces)} (rules summaries, with their own back)",
                           copies=copies, note=note)
