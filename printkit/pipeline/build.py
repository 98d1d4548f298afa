"""``printkit build`` and ``printkit validate``: lay out every card, then render the card sheets.

Each deck gets as many cards per sheet as the paper takes, an SVG cut file per sheet of
fronts, and optionally CMYK colours, a back offset or fold-over pairs. Nothing is written
unless the whole database and every card's layout are valid: drawn files wait in a spool
beside the output, and only when no problem was found is the whole set moved into a staging
folder swapped in per game (:mod:`printkit.pipeline.output_set`). An error, or a build killed
while writing, therefore always leaves the earlier output set whole.

A build runs four stages, one module each, in this order (:func:`build`):

1. load (:mod:`printkit.pipeline.load`): the database checked, the games and their decks
   chosen, a deck of more than :data:`~printkit.pipeline.deck_files.CARDS_PER_FILE` cards
   split into part files;
2. lay out (:mod:`printkit.pipeline.lay_out`): which decks are unchanged since the last
   build, which cards join the extras as fold-over pairs, and the decks to lay out and draw;
3. draw (:mod:`printkit.pipeline.draw`): those decks laid out and drawn, each by one process
   (:mod:`printkit.pipeline.workers`, so the bytes are those of a build in one process) and
   spooled as it arrives, then each game's reference cards, extras and ``print-this.pdf``;
4. publish (:mod:`printkit.pipeline.publish`): the set swapped in, the build recorded.

The parts they use live in modules named for them: :mod:`printkit.build_options` (how to
print), :mod:`printkit.pipeline.card_faces` (one game's card faces and QR addresses),
:mod:`printkit.pipeline.deck_files` (a deck's card sheets and cut files),
:mod:`printkit.pipeline.kit_files` (reference cards and ``print-this.pdf``),
:mod:`printkit.pipeline.units` (each unit of output, kept or drawn) and
:mod:`printkit.pipeline.digests` (the inputs' digests the cache compares).

Memory does not follow the size of the database: cards are held compact
(:mod:`card_data.reading.card_store`) and decks as lists of ids; a big database is parsed and checked
in a process of its own that hands the cards over and ends (:func:`~printkit.pipeline.load.load_apart`),
and the worker is forked before they are read back (:class:`printkit.pipeline.workers.Workers`);
the build's own process draws decks beside it (``jobs`` processes in all); each part file and
each card file parsed go to the spool as soon as they are made, not kept in memory.

Builds are incremental (:mod:`printkit.build_cache`): a deck, the reference cards or the extras
whose inputs did not change are neither laid out nor drawn again, and their files are left
untouched; card files that did not change are not parsed again (:mod:`printkit.parsed_cache`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from card_data.games import registry
from card_data.problems import Problem
from card_data.project.limits import Limits, limits_in_force
from printkit.build_cache import BuildCache
from printkit.build_options import BuildOptions
from printkit.pipeline.deck_files import SheetPlan, card_imposition
from printkit.pipeline.digests import build_inputs_digest, whole_build_key
from printkit.pipeline.load import (
    BuildRequest,
    card_file_bytes,
    import_card_schemas,
    load_apart,
    load_build,
    read_loaded,
)
from printkit.pipeline.output_set import Spool, recover
from printkit.pipeline.units import OutputUnits
from printkit.pipeline.workers import (
    EARLY_WORKERS_CARD_BYTES,
    FONTS_BESIDE_LOAD_CARD_BYTES,
    Progress,
    Workers,
    preload_drawing,
)
from printkit.sheets.artwork.art_prints import ART_CACHE_DIR, art_prints_in, prune_art_cache
from printkit.sheets.templating.layout_base import LAYOUTS_DIR, WarningLog

if TYPE_CHECKING:
    from card_data.loader import Game


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

    Raster art is embedded at ``options.print_dpi`` of its placed size, cropped to its box
    (:mod:`printkit.sheets.artwork.art_prints`); what was resampled is cached in
    ``out_dir/.printkit-art-cache/`` for the next build.

    ``limits``: the bounds of card data, artwork and templates (:class:`~card_data.project.limits.Limits`;
    default: the ``printkit.toml`` found from the current folder up, a broken one reported as a
    problem), in force in this process and sent with every deck to the workers. They are not
    part of the cache's digests: they decide what is refused, never the bytes of what is
    written, and a unit refused was never recorded, so a raised limit builds it afresh anyway
    (a lowered one is not checked again against what an earlier build took unchanged).
    """
    request = BuildRequest(data_dir, out_dir, options, list(games), layouts_dir, deck, scorepad_copies,
                           cards_only, catalog, limits)
    spool = Spool(out_dir) if out_dir is not None else None
    art_cache = out_dir / ART_CACHE_DIR if out_dir is not None else None
    try:
        with Workers(jobs if out_dir is not None else 1) as workers, limits_in_force(limits), \
                art_prints_in(options.print_dpi if out_dir is not None else None, art_cache):
            return _build(request, progress_factory, workers, spool)
    finally:
        if spool is not None:
            spool.discard()  # published files have left it; after problems, nothing is kept
        if art_cache is not None:
            prune_art_cache(art_cache)


def _build(request: BuildRequest, progress_factory: Callable[[int], Progress] | None, workers: Workers,
           spool: Spool | None) -> BuildResult:
    """:func:`build`, stage by stage: decks drawn by ``workers``, their files going to ``spool``
    as they arrive."""
    out_dir, options = request.out_dir, request.options
    if out_dir is not None and out_dir.is_dir():
        recover(out_dir)  # a killed build's leftovers, before anything reads or writes the set
    inputs, cache = None, BuildCache.load(None)  # inputs: build_inputs_digest, once taken
    if out_dir is not None:
        cache = BuildCache.load(out_dir)
        if cache.builds:  # this very build may be recorded: nothing else is done before looking
            inputs = _inputs_digest(request, cache)
            result = _unchanged_build(cache, whole_build_key(inputs), out_dir, options)
            if result is not None:
                if progress_factory:
                    progress_factory(result.cards)(result.cards)
                return result
    card_bytes = card_file_bytes(request.data_dir)
    big = card_bytes >= EARLY_WORKERS_CARD_BYTES
    pickled = None
    if big and spool is not None:
        # Read in a process of its own, while this one prepares to draw. Where no build was
        # recorded, that process digests the inputs before it reads them, and this one works
        # out the code digests meanwhile (load_apart).
        registry()  # the games found once, before that process forks: both need them
        first = partial(_inputs_digest_taken, request, cache) if inputs is None else None
        pickled = load_apart(request, spool, first=first, meanwhile=lambda: _prepare_drawing(
            request, with_fonts=card_bytes < FONTS_BESIDE_LOAD_CARD_BYTES))
    else:
        from printkit.sheets.templating.template_sandbox import forget_compiled_templates

        forget_compiled_templates()  # a template too slow in the last build (--watch) is tried again
    # The stages that lay out and draw, imported only now: a rebuild that carries every file
    # over needs none of the renderer, and the workers started below inherit them.
    from printkit.pipeline.draw import GameDrawing, draw_decks
    from printkit.pipeline.lay_out import lay_out_decks
    from printkit.pipeline.publish import publish_build

    if big:
        import_card_schemas(request.data_dir)  # the workers unpickle cards of their classes
        workers.start()  # before the database is read in (see Workers)
    if pickled is not None:
        loaded, taken = read_loaded(pickled)
        if taken is not None:
            inputs, digests = taken
            cache.adopt_digests(digests)
    else:
        if out_dir is not None and inputs is None:
            inputs = _inputs_digest(request, cache)  # before the cards are read
        loaded = load_build(request, spool)
    problems = loaded.problems
    progress = progress_factory(loaded.total) if (progress_factory and request.drawing and not problems) else None
    # Only a clean build may skip work: with problems every card is laid out, to report them all.
    units = OutputUnits(cache if request.drawing and not problems else BuildCache.load(None), out_dir)

    games, tasks = lay_out_decks(request, loaded, units, progress)

    outcomes = draw_decks(tasks, workers, progress, spool)
    warnings, plans = WarningLog(), []
    drawing = GameDrawing(request, loaded, units, warnings, plans)
    for decks in games:
        drawing.draw(decks, outcomes)

    # A card in several deck lists is laid out once per list; report its problem once.
    result = BuildResult(problems=sorted(set(problems)), cards=loaded.total, games=loaded.games, plans=plans,
                         warnings=warnings.items, fallbacks=loaded.fallbacks)
    if problems or out_dir is None:
        return result
    if spool is not None:
        spool.settle()  # every file drawn is on disk before any is published
    result.written, result.unchanged = publish_build(request, loaded, units, plans, result.warnings,
                                                     whole_build_key(inputs) if inputs is not None else None)
    return result


def _inputs_digest(request: BuildRequest, cache: BuildCache) -> str:
    """:func:`~printkit.pipeline.digests.build_inputs_digest` of ``request``'s build."""
    return build_inputs_digest(request.data_dir, request.layouts_dir, request.options, cache, games=request.games,
                               deck=request.deck and str(request.deck), scorepad_copies=request.scorepad_copies,
                               cards_only=request.cards_only, catalog=request.catalog)


def _inputs_digest_taken(request: BuildRequest, cache: BuildCache) -> tuple[str, dict[str, list]]:
    """In the loading process: :func:`_inputs_digest` and the file digests it took, which the
    build's record keeps (:meth:`BuildCache.adopt_digests`)."""
    return _inputs_digest(request, cache), cache.digests_taken()


def _prepare_drawing(request: BuildRequest, with_fonts: bool = False) -> None:
    """What drawing needs before its first deck, done while a big database is read in a process
    of its own (see :func:`_build`): the stages that lay out, draw and publish imported, and the
    requested games' templates read and compiled afresh (a template too slow in the last build,
    with ``--watch``, is tried again), which the workers forked next inherit.

    ``with_fonts``: the fonts and the modules only the workers' drawing needs too
    (:func:`~printkit.pipeline.workers.preload_drawing`); else they wait for :meth:`Workers.start`,
    after the loading process has ended (see :data:`~printkit.pipeline.workers.FONTS_BESIDE_LOAD_CARD_BYTES`)."""
    import printkit.pipeline.draw  # noqa: F401
    import printkit.pipeline.lay_out  # noqa: F401
    import printkit.pipeline.publish  # noqa: F401
    from card_data.loader import bundled_data_dir
    from card_data.project.project_folders import game_templates_dir
    from printkit.sheets.templating.layout import precompile_layouts
    from printkit.sheets.templating.template_sandbox import forget_compiled_templates

    forget_compiled_templates()
    data_root = Path(request.data_dir or bundled_data_dir())
    for game_file in sorted(data_root.glob("*/game.yaml")):
        if not request.games or game_file.parent.name in request.games:
            precompile_layouts(game_templates_dir(game_file.parent, request.layouts_dir))
    if with_fonts:
        preload_drawing()


def _unchanged_build(cache: BuildCache, build_key: str, out_dir: Path, options: BuildOptions) -> BuildResult | None:
    """The result of the build that wrote ``out_dir``, if nothing it read changed since and its
    output is exactly as it recorded (it had no problems, or it would not have been recorded;
    its warnings are repeated); else ``None``."""
    record = cache.same_build(build_key, out_dir)
    if record is None:
        return None
    try:
        written = [out_dir / rel for rel, _ in record["files"]]
        plans = [SheetPlan(gid, kind, label, card_imposition(w, h, options))
                 for gid, kind, label, w, h in record["plans"]]
        warnings = [Problem(**w) for w in record["warnings"]]
        fallbacks = [(str(gid), [str(c) for c in ids], int(total)) for gid, ids, total in record.get("fallbacks", [])]
        return BuildResult(written=written, warnings=warnings, cards=int(record["cards"]), plans=plans,
                           unchanged=list(written), fallbacks=fallbacks)
    except (ValueError, TypeError, KeyError):
        return None  # a record that does not read: build
