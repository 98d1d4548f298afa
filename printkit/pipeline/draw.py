"""The build's third stage, draw: the decks that changed (:func:`draw_decks`, in worker processes
when it pays), then each game's files in order (:func:`draw_game`): its decks' files, its
reference cards, its extras (boards, sheets, tokens, score pad, with the loose cards as
fold-over pairs) and ``print-this.pdf`` listing them all."""
from __future__ import annotations

from collections.abc import Sequence

from card_data.loader import Game
from card_data.problems import Problem
from printkit.build_cache import UnitRecord
from printkit.components.kit import CardJob
from printkit.components.print_index import INDEX_FILE, KitFile
from printkit.pipeline.deck_files import SheetPlan, deck_imposition, deck_kit_files
from printkit.pipeline.digests import UnitDigests, warnings_from_json, warnings_json
from printkit.pipeline.kit_files import EXTRA_TITLES, extra_file_kind, index_pdf, pdf_pages, reference_cards
from printkit.pipeline.lay_out import UNPRINTED, GameDecks
from printkit.pipeline.load import BuildRequest, LoadedBuild
from printkit.pipeline.output_set import Spool, Spooled
from printkit.pipeline.units import OutputUnits
from printkit.pipeline.workers import DeckOutcome, DeckTask, Progress, Workers, run_decks
from printkit.sheets.templating.layout import LayoutError
from printkit.sheets.templating.layout_base import WarningLog


def count_cards(cards: Sequence) -> str:
    """``"1 card"``, ``"12 cards"``."""
    return f"{len(cards)} card{'s' if len(cards) != 1 else ''}"


def draw_decks(tasks: list[DeckTask], workers: Workers, progress: Progress | None,
               spool: Spool | None) -> list[DeckOutcome]:
    """Every task's outcome, in ``tasks``' order (:func:`~printkit.pipeline.workers.run_decks`),
    each outcome's files moved to ``spool`` as it arrives (a worker writes its own into the
    spool's folder, and the spool flushes them): thousands of cards make megabytes of PDF, on
    disk until published, not in memory."""
    def spool_files(_: int, outcome: DeckOutcome) -> None:
        if spool is not None and outcome.files:
            outcome.files = {name: spool.adopt(data) if isinstance(data, Spooled) else spool.put(data)
                             for name, data in outcome.files.items()}

    if not tasks:
        return []
    return run_decks(tasks, workers, progress, spool_files, spool.folder() if spool is not None else None)


class GameDrawing:
    """One game's files drawn into ``units`` in print order, and the lines of its print index.

    ``warnings`` (the build's) and ``loaded.problems`` gather what drawing meets; ``plans``
    gets how each deck drawn or kept was imposed.
    """

    def __init__(self, request: BuildRequest, loaded: LoadedBuild, units: OutputUnits, warnings: WarningLog,
                 plans: list[SheetPlan]) -> None:
        self.request, self.loaded, self.units = request, loaded, units
        self.warnings, self.plans = warnings, plans
        self.problems: list[Problem] = loaded.problems

    def draw(self, decks: GameDecks, outcomes: list[DeckOutcome]) -> None:
        """The game's deck files, then (for a whole kit) its reference cards, extras and index."""
        game = decks.game
        self.warnings.merge(decks.warnings.entries)
        index = self._decks(decks, outcomes)
        if self.loaded.deck_job is not None or self.request.cards_only:
            return
        kit = self.loaded.kits[game.game_id]
        digests = UnitDigests(self.units.cache, game, self.request.options, self.request.layouts_dir) \
            if self.units.use_cache else None
        index += reference_cards(game, kit, self.request.options, self.request.layouts_dir, self.problems,
                                 self.warnings, self.request.drawing, self.units,
                                 self.units.unit(game, "reference", digests.whole_game("reference")) if digests else None)
        index += self._extras(decks, digests)
        if self.request.drawing and not self.problems:
            self.units.add(game, {INDEX_FILE: index_pdf(game, kit, self.request.options, index, self.request.catalog)})

    def _plan(self, game: Game, job: CardJob) -> None:
        self.plans.append(SheetPlan(game.game_id, job.name, game.info.card_size.label,
                                    deck_imposition(game, self.request.options)))

    def _decks(self, decks: GameDecks, outcomes: list[DeckOutcome]) -> list[KitFile]:
        """Each deck's files, kept or just drawn; their lines of the print index."""
        game, options, units = decks.game, self.request.options, self.units
        index: list[KitFile] = []
        for entry in decks.entries:
            job, u = entry.job, entry.unit
            title = f"{job.title}: {count_cards(job.cards)}"
            if entry.task is None:  # unchanged since the last build
                self.warnings.merge(warnings_from_json(u.cached.meta.get("warnings", []), game))
                if job.kind == UNPRINTED:
                    units.keep_record(game, u.key, u.cached)
                    continue
                units.keep(game, u)
                self._plan(game, job)
                index += deck_kit_files(job.name, options.duplex, int(u.cached.meta.get("sheets", 0)), title,
                                        note=job.note)
                continue
            outcome = outcomes[entry.task]
            self.problems.extend(outcome.problems)
            self.warnings.merge(outcome.warnings)
            if job.kind == UNPRINTED:
                if u is not None and not outcome.problems:
                    units.keep_record(game, u.key, UnitRecord(u.digest, {}, {
                        "warnings": warnings_json(outcome.warnings)}))
                continue
            if not outcome.files or self.problems:
                continue
            self._plan(game, job)
            units.add(game, outcome.files)
            if u is not None:
                units.remember(game, u, outcome.files, {"sheets": outcome.sheets,
                                                        "warnings": warnings_json(outcome.warnings)})
            index += deck_kit_files(job.name, options.duplex, outcome.sheets, title, note=job.note)
        return index

    def _extras(self, decks: GameDecks, digests: UnitDigests | None) -> list[KitFile]:
        """The game's boards, sheets, tokens and score pad (with the loose cards), kept or drawn;
        their lines of the print index."""
        game, request, units = decks.game, self.request, self.units
        held = decks.loose_jobs
        extras_unit = units.unit(game, "extras", digests.whole_game(
            "extras", scorepad_copies=request.scorepad_copies,
            loose=[[j.name, j.kind, list(j.cards.ids)] for j in held])) if digests else None
        if extras_unit is not None and extras_unit.cached is not None:
            units.keep(game, extras_unit)
            pages: dict[str, int] = dict(extras_unit.cached.meta.get("pages", {}))
            placed_file = extras_unit.cached.meta.get("placed")
            extras_names = list(pages)
        else:
            from printkit.components.boards import place_loose_cards, render_extras  # not for --cards-only

            try:
                extras = render_extras(game, request.options.paper, request.layouts_dir,
                                       scorepad_copies=request.scorepad_copies, output=request.options.pdf_output,
                                       loose_cards=decks.loose)
                placed = place_loose_cards(game, request.options.paper, request.layouts_dir, decks.loose)
            except LayoutError as exc:
                self.problems.append(Problem(exc.file, exc.line, game.game_id, "-", exc.field, exc.message))
                extras, placed = {}, None
            pages = {name: pdf_pages(data) for name, data in extras.items()} if request.drawing else {}
            placed_file = placed.file_name if placed is not None else None
            extras_names = list(extras)
            if request.drawing:
                units.add(game, extras)
                if extras_unit is not None:
                    units.remember(game, extras_unit, extras, {"pages": pages, "placed": placed_file})
        if not request.drawing:
            return []
        kit = self.loaded.kits[game.game_id]
        index = []
        for file_name in extras_names:
            extra_note = kit.files.get(file_name)
            extra_kind = extra_file_kind(request.layouts_dir, game, file_name)
            note = (extra_note.note or "") if extra_note else ""
            held_here = held if placed_file == file_name else []
            if held_here:
                note += "; " if note else ""
                note += "also " + ", ".join(f"{j.title} ({count_cards(j.cards)})" for j in held_here) + \
                    " as fold-over pairs: fold along the dashed line, glue, cut"
            index.append(KitFile(file_name, EXTRA_TITLES[extra_kind], pages[file_name], "single",
                                 extra_note.copies if extra_note else 1, note, extra_kind))
        return index
