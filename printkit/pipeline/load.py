"""The build's first stage, load: what was asked (:class:`BuildRequest`), the card database
checked, the games chosen, and each game's decks as the jobs of cards to print, a deck too
large for one file split into parts (:func:`load_build` gives a :class:`LoadedBuild`)."""
from __future__ import annotations

import gc
import os
import pickle
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from card_data.project.limits import Limits
from card_data.problems import DatabaseError, Problem
from printkit.build_options import BuildOptions
from printkit.parsed_cache import ParsedFileCache
from printkit.pipeline.deck_files import CARDS_PER_FILE, cards_per_file, deck_imposition, split_job
from printkit.pipeline.output_set import Spool

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from card_data.loader import Database, Game
    from printkit.components.kit import CardJob, KitSpec


def select_games(db: Database, names: Iterable[str], problems: list[Problem]) -> list[Game]:
    """The games called ``names`` (all if empty); each name that matches no game is added to
    ``problems`` (at the database folder, naming the games there)."""
    names = list(names)
    if not names:
        return list(db.games.values())
    for name in names:
        if name not in db.games:
            problems.append(Problem(str(db.root), 1, name, "-", "game", f"no such game (have: {', '.join(db.games)})"))
    return [db.games[n] for n in names if n in db.games]


@dataclass(frozen=True)
class BuildRequest:
    """A build as :func:`printkit.pipeline.build.build` was asked for it (see there): the
    database folder (``None``: the bundled one), the output folder (``None``: validate only),
    how to print, which games (all if empty), the templates folder, one deck or all, the
    score pad's copies, the parts left out, and the limits (``None``: the project's)."""

    data_dir: Path | None
    out_dir: Path | None
    options: BuildOptions
    games: list[str]
    layouts_dir: Path
    deck: str | Path | None
    scorepad_copies: int
    cards_only: bool
    catalog: bool
    limits: Limits | None

    @property
    def drawing(self) -> bool:
        """Whether files are drawn (``printkit build``), not only checked (``validate``)."""
        return self.out_dir is not None


@dataclass
class LoadedBuild:
    """What the build prints, before anything is laid out.

    ``db``: the database; ``games``: the games selected, in order; ``kits``: each game's
    ``kit.yaml`` (by game id); ``jobs``: each game's decks in print order, split into part
    files (:func:`~printkit.pipeline.deck_files.split_job`); ``deck_job``: the one deck asked
    for with ``deck``, else ``None``; ``total``: the cards in ``jobs``; ``fallbacks``: with
    ``options.lang``, per game ``(game_id, [untranslated card ids], cards printed)``;
    ``problems``: every problem met so far (the stages after add theirs); ``parsed``: the
    parsed-file cache the database was read through, saved once the build is published.
    """

    db: Database
    games: list[Game]
    kits: dict[str, KitSpec]
    jobs: dict[str, list[CardJob]]
    deck_job: list[CardJob] | None
    total: int
    fallbacks: list[tuple[str, list[str], int]]
    problems: list[Problem]
    parsed: ParsedFileCache


def load_build(request: BuildRequest, spool: Spool | None = None) -> LoadedBuild:
    """Check the request's database within its limits and choose what to print of its games:
    the ``deck`` asked for, every card once with ``catalog``, every card that loaded when there
    are problems or nothing is written (validate), else each game's play kit. Problems are
    returned in the result, never raised. ``spool``: where the card files parsed wait until
    the build is published (:class:`~printkit.parsed_cache.ParsedFileCache`)."""
    # The loader, the kits and translations (pydantic models): not for a rebuild that carries
    # every file over, which stops before this stage.
    from card_data.loader import check_database
    from card_data.editions.translations import untranslated_cards
    from printkit.components.kit import catalog_jobs, chosen_deck_jobs, load_kit, play_jobs

    out_dir, options, games, deck = request.out_dir, request.options, request.games, request.deck
    parsed = ParsedFileCache(out_dir, spool)  # card files read before: not parsed again
    db, problems = check_database(request.data_dir, request.limits, parsed)
    selected = select_games(db, games, problems)
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
        elif request.catalog or problems or out_dir is None:
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
    total = sum(len(job.cards) for jobs in game_jobs.values() for job in jobs)
    fallbacks = []
    if options.lang:
        from printkit.pipeline.card_faces import build_translation

        for game in selected:
            printed = [cid for job in game_jobs[game.game_id] for cid in job.cards.ids]
            left = untranslated_cards(printed, build_translation(game, options))
            fallbacks.append((game.game_id, left, len(set(printed))))
    return LoadedBuild(db, selected, kits, game_jobs, deck_job, total, fallbacks, problems, parsed)


def card_file_bytes(data_dir: Path | None) -> int:
    """The size of the database's card files (``<game>/cards/*.yaml``), in bytes."""
    from card_data.loader import bundled_data_dir

    try:
        return sum(p.stat().st_size for p in Path(data_dir or bundled_data_dir()).glob("*/cards/*.yaml"))
    except OSError:
        return 0  # the loader reports what cannot be read


def load_apart(request: BuildRequest, spool: Spool, meanwhile: Callable[[], None] | None = None,
               first: Callable[[], Any] | None = None) -> Path | None:
    """:func:`load_build` in a forked process that ends once it has written its result (pickled)
    into ``spool``'s folder; returns that file, for :func:`read_loaded`. ``None`` where there
    is no fork (macOS, Windows) or the process failed in any way: then load here, which gives
    the same result (or raises the same error). ``meanwhile``: what this process does while
    the other loads (the build imports its renderer and compiles its templates: about 0.15 s
    less wall time on two cores); where there is no other process, it is done before returning.
    ``first``: what the loading process does before it reads anything (its result, picklable,
    is handed back with the cards; where there is no other process it is not called). The
    code digests the loading process's parsed-file keys name are worked out here, while it
    starts reading, and sent to it (:func:`printkit.build_cache.code_digests_from`).

    Parsing and checking thousands of cards leaves this process's memory fragmented and
    resident long after (30 MiB at 10,000 cards, beyond the 10 MiB the cards take); read back
    from the file, the database takes only what it holds, and the build's workers can be
    forked before it is (:class:`~printkit.pipeline.workers.Workers`).
    """
    if not sys.platform.startswith("linux"):
        if meanwhile is not None:
            meanwhile()
        return None
    import multiprocessing

    from printkit.pipeline.digests import code_digests

    path = spool.dir / f"loaded-{os.getpid()}.pickle"
    context = multiprocessing.get_context("fork")
    digests_in, digests_out = context.Pipe(duplex=False)
    child = context.Process(target=_load_into, args=(request, spool, path, os.getpid(), first, digests_in),
                            name="printkit-load")
    try:
        child.start()
        digests_out.send(code_digests())  # already known, unless no earlier build was recorded
        import_card_schemas(request.data_dir)  # meanwhile, on another core: reading the cards back needs them
        if meanwhile is not None:
            meanwhile()
        child.join()
    finally:
        digests_in.close()
        digests_out.close()
        if child.is_alive():  # interrupted (Ctrl-C) while it loads: it ends with the build
            child.kill()
            child.join()
    if child.exitcode != 0 or not path.is_file():
        path.unlink(missing_ok=True)
        return None
    return path


def read_loaded(path: Path) -> tuple[LoadedBuild, Any]:
    """The :class:`LoadedBuild` :func:`load_apart` wrote to ``path``, and what its ``first``
    gave (``None`` without one); the file is removed."""
    try:
        return pickle.loads(path.read_bytes())
    finally:
        path.unlink(missing_ok=True)


CODE_DIGESTS_WAIT_S = 60.0
"""How long the loading process waits for its parent's code digests before it gives up (the
build then loads in its own process)."""


def _load_into(request: BuildRequest, spool: Spool, path: Path, parent_pid: int,
               first: Callable[[], Any] | None, code_digests_in: Connection) -> None:
    """In the loading process: ``first()``, load, and write both results to ``path`` whole (or
    not at all). Code digests come from the parent through ``code_digests_in``."""
    from printkit.build_cache import code_digests_from
    from printkit.pipeline.workers import _die_with_parent

    def parents_code_digests() -> dict[str, str]:
        if not code_digests_in.poll(CODE_DIGESTS_WAIT_S):
            raise TimeoutError("no code digests from the build's process")
        return code_digests_in.recv()

    try:
        # Reading cards makes next to no cyclic garbage (the collections of a 5,000-card load freed
        # no object), yet each young collection looks at the last 50,000 objects made and each
        # older one at every card kept so far: ~30 ms of a 900-card load, ~120 ms of 5,000, on
        # the build's critical path. What a process that ends after one load makes goes with it
        # (its peak memory was the same with 7,413 problems in 5,000 cards, and at 10,000 cards).
        gc.disable()
        _die_with_parent(parent_pid)
        code_digests_from(parents_code_digests)
        before = first() if first is not None else None
        loaded = load_build(request, spool)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps((loaded, before), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, path)
    except BaseException:  # noqa: BLE001 - any failure: the build loads in its own process, and says why there
        os._exit(1)


def import_card_schemas(data_dir: Path | None) -> None:
    """Import the card schemas (``cards.SPEC``) of the registered games whose folders the
    database at ``data_dir`` (default: the bundled one) holds, as loading it does
    (:func:`card_data.loader.load_database`): workers started before the load then inherit
    them, instead of each importing its games' again when its first deck arrives (~16 ms a
    game)."""
    from card_data.games import registry
    from card_data.loader import bundled_data_dir

    root = Path(data_dir or bundled_data_dir())
    for game_id, entry in registry().items():
        if (root / game_id / "game.yaml").is_file():
            entry.spec  # noqa: B018 - imported on first use
