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
worker processes are forked before a big database is loaded
(:class:`printkit.build_workers.Workers`).

Builds are incremental (:mod:`printkit.build_cache`): a deck, the reference cards or the extras
whose inputs did not change are neither laid out nor drawn again, and their files are left
untouched; card files that did not change are not parsed again (:mod:`printkit.parsed_cache`).
Decks that do need drawing are spread over a pool of processes (``jobs``), each deck
drawn whole by one process, so the bytes are the same as a build in one process.

This module runs a build, unit by unit; the parts it runs live in modules named for them:
:mod:`printkit.build_options` (how to print), :mod:`printkit.card_faces` (one game's card
faces and QR addresses), :mod:`printkit.deck_files` (a deck's card sheets and cut files),
:mod:`printkit.build_workers` (decks laid out and drawn in worker processes),
:mod:`printkit.build_digests` (the inputs' digests the cache compares) and
:mod:`printkit.kit_files` (reference cards and ``print-this.pdf``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from card_data.card_store import CardRefs
from card_data.limits import Limits, current_limits, limits_in_force
from card_data.loader import Database, Game, check_database
from card_data.problems import DatabaseError, Problem
from card_data.schema import Card
from card_data.translations import untranslated_cards
from printkit.build_cache import BuildCache, UnitRecord, sha256_hex
from printkit.build_digests import Unit, UnitDigests, readable_meta, warnings_from_json, warnings_json, whole_build_key
from printkit.build_options import BLEED_MM, BuildOptions
from printkit.build_workers import (
    EARLY_WORKERS_CARD_BYTES,
    BuildWarnings,
    DeckOutcome,
    DeckTask,
    Progress,
    Workers,
    run_decks,
)
from printkit.card_faces import GameLayouts, build_translation, card_qr_url, card_url
from printkit.components.boards import place_loose_cards, render_extras
from printkit.components.kit import CardJob, KitSpec, catalog_jobs, chosen_deck_jobs, load_kit, play_jobs
from printkit.components.packing import LOOSE_DECK_MAX_CARDS, LooseCard, loose_cards
from printkit.components.print_index import INDEX_FILE, KitFile
from printkit.deck_files import (
    CARDS_PER_FILE,
    cards_per_file,
    SheetPlan,
    card_imposition,
    deck_imposition,
    deck_kit_files,
    plan_summaries,
    split_job,
)
from printkit.kit_files import EXTRA_TITLES, extra_file_kind, index_pdf, pdf_pages, reference_cards
from printkit.parsed_cache import ParsedFileCache
from printkit.output_set import (
    UNCHANGED,
    Spool,
    Spooled,
    Unchanged,
    publish,
    recover,
    same_bytes,
)
from printkit.sheets.art_prints import ART_CACHE_DIR, art_prints_in, prune_art_cache
from printkit.sheets.game_assets import game_asset_problems
from printkit.sheets.layout import LAYOUTS_DIR, LayoutError
from printkit.sheets.render import write_atomically
from printkit.sheets.template_sandbox import forget_compiled_templates

__all__ = [
    # The build and what it takes and gives.
    "build", "BuildOptions", "BuildResult", "BLEED_MM", "select_games", "plan_summaries",
    # Kept here for code that imports them from the build; they live in the modules named.
    "card_url", "card_qr_url", "GameLayouts",  # printkit.card_faces
    "CARDS_PER_FILE", "cards_per_file", "deck_imposition",  # printkit.deck_files
    "EARLY_WORKERS_CARD_BYTES",  # printkit.build_workers
]


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


def _same_build_result(record: dict, out_dir: Path, options: BuildOptions) -> BuildResult:
    """The result of a build whose inputs and output are exactly as :func:`build` recorded."""
    written = [out_dir / rel for rel, _ in record["files"]]
    plans = [SheetPlan(gid, kind, label, card_imposition(w, h, options)) for gid, kind, label, w, h in record["plans"]]
    warnings = [Problem(**w) for w in record["warnings"]]
    fallbacks = [(str(gid), [str(c) for c in ids], int(total)) for gid, ids, total in record.get("fallbacks", [])]
    return BuildResult(written=written, warnings=warnings, cards=int(record["cards"]), plans=plans,
                       unchanged=list(written), fallbacks=fallbacks)


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
    (:mod:`printkit.sheets.art_prints`); what was resampled is cached in
    ``out_dir/.printkit-art-cache/`` for the next build.

    ``limits``: the bounds of card data, artwork and templates (:class:`~card_data.limits.Limits`;
    default: the ``printkit.toml`` found from the current folder up, a broken one reported as a
    problem), in force in this process and sent with every deck to the workers. They are not
    part of the cache's digests: they decide what is refused, never the bytes of what is
    written, and a unit refused was never recorded, so a raised limit builds it afresh anyway
    (a lowered one is not checked again against what an earlier build took unchanged).
    """
    forget_compiled_templates()  # a template too slow in the last build (--watch) is tried again
    spool = Spool(out_dir) if out_dir is not None else None
    art_cache = out_dir / ART_CACHE_DIR if out_dir is not None else None
    try:
        with Workers(jobs if out_dir is not None else 1) as workers, limits_in_force(limits), \
                art_prints_in(options.print_dpi if out_dir is not None else None, art_cache):
            return _build(data_dir, out_dir, options, games, layouts_dir, progress_factory, deck, scorepad_copies,
                          cards_only, catalog, workers, spool, limits)
    finally:
        if spool is not None:
            spool.discard()  # published files have left it; after problems, nothing is kept
        if art_cache is not None:
            prune_art_cache(art_cache)


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
        build_key = whole_build_key(data_dir, layouts_dir, options, cache, games=list(games), deck=deck and str(deck),
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
    parsed = ParsedFileCache(out_dir)  # card files read before: not parsed again
    db, problems = check_database(data_dir, limits, parsed)
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
            per_file = cards_per_file(deck_imposition(game, options).per_sheet, CARDS_PER_FILE)
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

    def unit(game: Game, key: str, digest: str) -> Unit:
        cached = cache.unchanged(game.game_id, key, digest, out_dir / game.game_id) if use_cache else None
        if cached is not None and not readable_meta(cached.meta, game):
            cached = None  # a record that does not read as this build wrote it: render the unit
        return Unit(key, digest, cached)

    def keep(game: Game, u: Unit) -> None:
        """Carry an unchanged unit's files over and remember it again."""
        for name in u.cached.files:
            rendered[out_dir / game.game_id / name] = UNCHANGED
        records.setdefault(game.game_id, {})[u.key] = u.cached

    def remember(game: Game, u: Unit, files: Mapping[str, bytes], meta: dict) -> None:
        records.setdefault(game.game_id, {})[u.key] = UnitRecord(
            u.digest, {name: data.sha256 if isinstance(data, Spooled) else sha256_hex(data)
                       for name, data in files.items()}, meta)

    # 1. What each game's decks need, and which are unchanged.
    warnings = BuildWarnings()
    tasks: list[DeckTask] = []
    per_game: dict[str, list[tuple[CardJob, Unit | None, int | None]]] = {}
    loose: dict[str, list[LooseCard]] = {}
    loose_jobs: dict[str, list[CardJob]] = {}
    game_warnings: dict[str, BuildWarnings] = {}
    for game in selected:
        problems.extend(game_asset_problems(game))  # the game's fonts and icon files
        digests = UnitDigests(cache, game, options, layouts_dir) if use_cache else None
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
            tasks.append(DeckTask(game, job, options, layouts_dir, drawing and not problems, limits=current_limits(),
                                  art_cache=out_dir / ART_CACHE_DIR if drawing else None))
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

    outcomes = run_decks(tasks, workers, progress, spool_files) if tasks else []

    # 3. Each game's files, in order.
    for game in selected:
        gid = game.game_id
        kit = kits[gid]
        index: list[KitFile] = []
        warnings.merge(game_warnings[gid].entries)
        for job, u, task_index in per_game[gid]:
            if task_index is None:  # unchanged since the last build
                warnings.merge(warnings_from_json(u.cached.meta.get("warnings", []), game))
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
                        "warnings": warnings_json(outcome.warnings)})
                continue
            if not outcome.files or problems:
                continue
            plans.append(SheetPlan(gid, job.name, game.info.card_size.label, deck_imposition(game, options)))
            for file_name, data in outcome.files.items():
                rendered[out_dir / gid / file_name] = data
            if u is not None:
                remember(game, u, outcome.files, {"sheets": outcome.sheets,
                                                  "warnings": warnings_json(outcome.warnings)})
            index += deck_kit_files(job.name, options.duplex, outcome.sheets, f"{job.title}: {_count(job.cards)}",
                                    note=job.note)
        if deck_job is not None or cards_only:
            continue
        digests = UnitDigests(cache, game, options, layouts_dir) if use_cache else None
        index += reference_cards(game, kit, options, layouts_dir, problems, warnings, drawing, rendered,
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
            pages = {name: pdf_pages(data) for name, data in extras.items()} if drawing else {}
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
                extra_kind = extra_file_kind(layouts_dir, game, file_name)
                note = (extra_note.note or "") if extra_note else ""
                held_here = held if placed_file == file_name else []
                if held_here:
                    note += "; " if note else ""
                    note += "also " + ", ".join(f"{j.title} ({_count(j.cards)})" for j in held_here) + \
                        " as fold-over pairs: fold along the dashed line, glue, cut"
                index.append(KitFile(file_name, EXTRA_TITLES[extra_kind], pages[file_name], "single",
                                     extra_note.copies if extra_note else 1, note, extra_kind))
        if drawing and not problems:
            rendered[out_dir / gid / INDEX_FILE] = index_pdf(game, kit, options, index, catalog)
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
        parsed.save()
    return result


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
