"""The build's second stage, lay out: what each deck of each game needs (:func:`lay_out_decks`).

A deck (or part) whose inputs did not change since the last build is kept as it is; one or two
cards that would take a duplex sheet of their own join the game's score pad page or token
sheet as fold-over pairs (laid out here, drawn with the extras); every other deck becomes a
:class:`~printkit.pipeline.workers.DeckTask`, laid out and drawn in the draw stage by whichever
process takes it. The cards a kit does not print are laid out too (a task that only checks),
so that a problem with any card stops the build as it stops ``validate``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from card_data.reading.card_store import CardRefs
from card_data.project.limits import current_limits
from card_data.loader import Game
from printkit.components.kit import CardJob
from printkit.pipeline.card_faces import GameLayouts
from printkit.pipeline.digests import Unit, UnitDigests
from printkit.pipeline.load import BuildRequest, LoadedBuild
from printkit.pipeline.units import OutputUnits
from printkit.pipeline.workers import DeckTask, Progress
from printkit.sheets.artwork.art_prints import ART_CACHE_DIR
from printkit.sheets.artwork.game_assets import game_asset_problems
from printkit.sheets.templating.layout_base import WarningLog

if TYPE_CHECKING:
    from printkit.components.packing import LooseCard

UNPRINTED = "-"
"""The back kind of the job holding the cards a kit does not print (checked, never drawn)."""


@dataclass(frozen=True)
class DeckEntry:
    """One deck of a game in print order: its ``job``, its cache ``unit`` (``None`` without a
    cache) and the index of its :class:`DeckTask` in the build's tasks, or ``None`` if the
    unit is unchanged (its record says what it holds)."""

    job: CardJob
    unit: Unit | None
    task: int | None


@dataclass
class GameDecks:
    """What the lay-out stage decided for one game: its decks (``entries``), the loose cards
    that join its extras as fold-over pairs and the jobs they came from, and the warnings met
    laying out its backs (merged first, as a serial build meets them)."""

    game: Game
    entries: list[DeckEntry] = field(default_factory=list)
    loose: list[LooseCard] = field(default_factory=list)
    loose_jobs: list[CardJob] = field(default_factory=list)
    warnings: WarningLog = field(default_factory=WarningLog)


def lay_out_decks(request: BuildRequest, loaded: LoadedBuild, units: OutputUnits,
                  progress: Progress | None) -> tuple[list[GameDecks], list[DeckTask]]:
    """Each selected game's decks (``GameDecks``, in ``loaded.games``' order) and the tasks to
    lay out and draw, in the order a serial build draws them. Problems met (fonts, icons,
    layouts of backs) are added to ``loaded.problems``; ``progress`` counts the cards of decks
    kept unchanged or held as loose cards."""
    options, problems = request.options, loaded.problems
    packing = None  # loose cards join the extras, which --cards-only and a single deck leave out
    if loaded.deck_job is None and not request.cards_only:
        from printkit.components import packing
    tasks: list[DeckTask] = []
    games: list[GameDecks] = []
    for game in loaded.games:
        problems.extend(game_asset_problems(game))  # the game's fonts and icon files
        digests = UnitDigests(units.cache, game, options, request.layouts_dir) if units.use_cache else None
        decks = GameDecks(game)
        games.append(decks)
        layouts = GameLayouts(game, options, request.layouts_dir, problems, decks.warnings)
        jobs = loaded.jobs[game.game_id]
        for job in jobs:
            if packing is not None and len(job.cards) <= packing.LOOSE_DECK_MAX_CARDS:
                # One or two cards would take a duplex sheet of their own: they join the game's
                # score pad page or token sheet as fold-over pairs (render_extras).
                decks.loose += packing.loose_cards(game, job.kind, job.cards, layouts.back(job.kind), layouts.front,
                                                   options.bleed_mm)
                decks.loose_jobs.append(job)
                if progress:
                    progress(len(job.cards))
                continue
            u = units.unit(game, f"deck:{job.name}", digests.deck("deck", job)) if digests else None
            if u is not None and u.cached is not None:
                decks.entries.append(DeckEntry(job, u, None))
                if progress:
                    progress(len(job.cards))
                continue
            decks.entries.append(DeckEntry(job, u, len(tasks)))
            tasks.append(DeckTask(game, job, options, request.layouts_dir, request.drawing and not problems,
                                  limits=current_limits(),
                                  art_cache=request.out_dir / ART_CACHE_DIR if request.drawing else None))
        if loaded.deck_job is None:
            # The cards the kit does not print are laid out too, so that a problem with any card
            # of the database stops the build as it stops ``validate``.
            printed = {cid for job in jobs for cid in job.cards.ids}
            unprinted = CardRefs(game.cards, [cid for cid in game.cards if cid not in printed])
            if unprinted:
                job = CardJob("-unprinted", UNPRINTED, "", unprinted)
                u = units.unit(game, "unprinted", digests.deck("unprinted", job)) if digests else None
                if u is not None and u.cached is not None:
                    decks.entries.append(DeckEntry(job, u, None))
                else:
                    decks.entries.append(DeckEntry(job, u, len(tasks)))
                    tasks.append(DeckTask(game, job, options, request.layouts_dir, False, check_only=True,
                                          limits=current_limits()))
    return games, tasks
