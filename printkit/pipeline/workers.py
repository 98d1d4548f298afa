"""Laying out and drawing a build's decks, in this process or a pool of worker processes.

A deck is a picklable :class:`DeckTask` that :func:`render_deck` turns into its files, the
same bytes in whichever process draws it; :func:`run_decks` spreads a build's tasks over the
:class:`Workers` when it pays, and a :class:`~printkit.sheets.templating.layout_base.WarningLog`
merges every deck's warnings in the order a serial build meets them.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Self

from card_data.reading.card_store import CardStore
from card_data.rulings.ruling_ids import RulingIds
from card_data.project.limits import DEFAULT_LIMITS, Limits, limits_in_force
from card_data.problems import Problem
from printkit.build_options import BuildOptions
from printkit.pipeline.output_set import Spooled, spool_file
from printkit.sheets.artwork.art_prints import art_prints_in
from printkit.sheets.templating.layout_base import WarningLog

if TYPE_CHECKING:
    from card_data.loader import Game
    from printkit.components.kit import CardJob
    from printkit.sheets.templating.layout import Face

Progress = Callable[[int], None]


@dataclass(frozen=True)
class DeckTask:
    """One deck (a :class:`~printkit.pipeline.deck_files.SheetWriter` job) to lay out and, with ``draw``, draw; picklable, so
    a worker process can take it. ``check_only`` cards are laid out for their problems only
    (the cards a kit does not print). ``limits``: what its artwork and templates are checked
    against (the build's, put in force in whichever process lays the deck out). ``art_cache``:
    where art resampled to ``options.print_dpi`` is cached (:mod:`printkit.sheets.artwork.art_prints`)."""

    game: Game
    job: CardJob
    options: BuildOptions
    layouts_dir: Path
    draw: bool
    check_only: bool = False
    limits: Limits = DEFAULT_LIMITS
    art_cache: Path | None = None


@dataclass
class DeckOutcome:
    """What :func:`render_deck` made: ``files`` (``{file name: bytes}``, or :class:`Spooled` once the build spooled them; empty unless drawn
    without problems), the ``problems`` and ``warnings`` (``(once, problem)``) met, and the
    ``sheets`` of fronts drawn."""

    files: dict[str, bytes | Spooled]
    problems: list[Problem]
    warnings: list[tuple[bool, Problem]]
    sheets: int = 0


def render_deck(task: DeckTask, progress: Progress | None = None) -> DeckOutcome:
    """Lay out every card of ``task.job`` and draw its sheets (the same bytes in any process).

    Drawing stops at the deck's first problem, but every card is still laid out so that all
    problems are reported in one run, within ``task.limits``. Raises ``ValueError`` if the
    cards do not fit the paper.
    """
    with limits_in_force(task.limits), art_prints_in(task.options.print_dpi if task.draw else None, task.art_cache):
        return _render_deck(task, progress)


def _render_deck(task: DeckTask, progress: Progress | None) -> DeckOutcome:
    from printkit.pipeline.card_faces import GameLayouts
    from printkit.pipeline.deck_files import SheetWriter

    game, job, options = task.game, task.job, task.options
    problems: list[Problem] = []
    warnings = WarningLog()
    layouts = GameLayouts(game, options, task.layouts_dir, problems, warnings)
    if task.check_only:
        for card in job.cards:
            layouts.front(card)
        return DeckOutcome({}, problems, warnings.entries)
    back = layouts.back(job.kind)
    writer = SheetWriter(game, job.kind, back, options, job.name) if (task.draw and back and not problems) else None
    for card in job.cards:
        face = layouts.front(card)
        if writer is not None and face is not None and not problems:
            drawn = writer.add(face)
            if progress and drawn:
                progress(drawn)
    if writer is None or problems:
        return DeckOutcome({}, problems, warnings.entries)
    files, drawn = writer.files()
    if progress and drawn:
        progress(drawn)
    return DeckOutcome(files, problems, warnings.entries, writer.sheets)


def _render_deck_spooled(task: DeckTask, spool_dir: Path | None) -> DeckOutcome:
    """:func:`render_deck` in a worker process, its files written into the build's spool folder
    ``spool_dir`` (:func:`~printkit.pipeline.output_set.spool_file`) and handed back by name;
    with ``None``, as bytes."""
    outcome = render_deck(task)
    if spool_dir is not None and outcome.files:
        outcome.files = {name: spool_file(spool_dir, data) for name, data in outcome.files.items()}
    return outcome


PARALLEL_MIN_CARDS = 150
"""Below this many cards to lay out, a build stays in one process: starting workers would cost
more than it saves."""


def _pool_context():
    import multiprocessing

    # fork starts a worker in milliseconds with printkit already imported; elsewhere (macOS,
    # Windows) fork is unsafe or missing and spawn re-imports. Both give the same bytes.
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def _for_worker(task: DeckTask) -> DeckTask:
    """``task`` with its game knowing only the job's cards (records, sources, printings and the
    ids of their rulings): what laying them out reads, and much less to send to a worker than
    a database of thousands of cards (whose ruling ids alone pickle to 700 kB at 10,000)."""
    game, ids = task.game, set(task.job.cards.ids)
    sources = {key: game.sources[key] for cid in ids for key in (("card", cid), ("art", cid))
               if key in game.sources}
    cards = game.cards.subset(ids) if isinstance(game.cards, CardStore) else {i: game.cards[i] for i in ids}
    rulings = game.ruling_ids if isinstance(game.ruling_ids, RulingIds) else RulingIds(game.ruling_ids)
    ruling_ids = rulings.of((None, *task.job.cards.ids))
    return replace(task, game=replace(game, cards=cards, glossary=[], decks={}, sources=sources,
                                      printings=game.printings.subset(ids), ruling_ids=ruling_ids),
                   job=replace(task.job, cards=task.job.cards.over(cards)))


FORK_PRELOADED = ("svglib.svglib", "printkit.pipeline.card_faces", "printkit.sheets.render",
                  "printkit.sheets.prepress.cutfile", "PIL.Image", "reportlab.graphics.renderPDF")
"""Modules the drawing imports on first use, imported before the workers are forked: each
worker would otherwise import them again (svglib with lxml and its CSS parsers: ~50 ms of
CPU a worker; the layouts and the renderer, which a rebuild that carries every file over
does not import)."""

FONTS_BESIDE_LOAD_CARD_BYTES = 2 << 20
"""Card files (YAML) of less than this many bytes, about 2,300 cards: while the loading process
reads them, the build's process also parses the fonts and imports the workers' modules
(:func:`preload_drawing`), about 40 ms it would otherwise spend after. Past it they wait for the
loading process to end: the ~10 MiB they hold would add to the loading process's own, which
grows with the database (a rebuild of one card of 10,000 peaked 11 MiB higher)."""

EARLY_WORKERS_CARD_BYTES = 256 << 10
"""Card files (YAML) of at least this many bytes, about 300 cards: the build loads them in a
process of its own (:func:`printkit.pipeline.load.load_apart`) and starts its workers before
reading them back (see :class:`Workers`)."""


def _die_with_parent(parent_pid: int) -> None:
    """A worker's initializer: on Linux, the worker ends when the build's process dies (even by
    ``kill -9``) instead of waiting for work forever; elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent_pid:  # died before the line above
        os._exit(1)


def preload_drawing() -> None:
    """What each worker process would otherwise do for itself, done once in the build's process
    before they are forked: the modules of :data:`FORK_PRELOADED` imported and the bundled
    faces parsed (every deck draws them). Idempotent."""
    for module in FORK_PRELOADED:
        import_module(module)
    from printkit.sheets.text.fonts import register_fonts

    register_fonts()


class Workers:
    """A build's worker processes, started on demand: ``jobs - 1`` of them (none for ``jobs``
    1), for the build's own process draws decks too (:func:`run_decks`), so that ``jobs``
    processes draw at once.

    A big database's build starts them before reading it in (:data:`EARLY_WORKERS_CARD_BYTES`):
    a forked process starts as big as its parent (its resident pages are counted again), so
    workers forked after loading 10,000 cards would each start with them; forked first, each
    holds printkit's code and the cards of the deck it is sent, whatever the size of the
    database. Use as a context manager (the processes end with it, or with the build's process).
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.processes = max(0, jobs - 1)
        self.pool = None

    def start(self) -> None:
        """Start the processes now (no-op for one job, or if processes cannot be started)."""
        if self.processes < 1 or self.pool is not None:
            return
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        preload_drawing()
        try:
            self.pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=_pool_context(),
                                            initializer=_die_with_parent, initargs=(os.getpid(),))
            self.pool.submit(int).result()  # a fork pool starts all its processes at its first task
        except (OSError, BrokenProcessPool):
            self.shutdown()

    def shutdown(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()


class _Run:
    """One :func:`run_decks`: its tasks' outcomes as they arrive, each handed on once."""

    def __init__(self, tasks: list[DeckTask], progress: Progress | None,
                 on_outcome: Callable[[int, DeckOutcome], None] | None) -> None:
        self.tasks, self.progress, self.on_outcome = tasks, progress, on_outcome
        self.outcomes: list[DeckOutcome | None] = [None] * len(tasks)

    @property
    def failed(self) -> bool:
        """Whether a deck drawn so far met a problem (nothing will be published then)."""
        return any(o.problems for o in self.outcomes if o is not None)

    def draw_here(self, i: int) -> None:
        """Lay out and draw task ``i`` in this process, counting its cards as they are drawn.
        After a problem, the cards are only laid out (their problems are still reported)."""
        task = self.tasks[i]
        if self.failed and task.draw:
            task = replace(task, draw=False)
        self.arrived(i, render_deck(task, None if task.check_only else self.progress), counted=True)

    def arrived(self, i: int, outcome: DeckOutcome, counted: bool = False) -> None:
        self.outcomes[i] = outcome
        if self.on_outcome is not None:
            self.on_outcome(i, outcome)
        if self.progress and not counted and not self.tasks[i].check_only:
            self.progress(len(self.tasks[i].job.cards))


def run_decks(tasks: list[DeckTask], workers: Workers, progress: Progress | None,
              on_outcome: Callable[[int, DeckOutcome], None] | None = None,
              spool_dir: Path | None = None) -> list[DeckOutcome]:
    """Every task's outcome, in ``tasks``' order: shared between this process and ``workers``'
    processes when there are several decks and enough cards, else one after the other here.
    ``on_outcome(i, outcome)`` is called as each arrives (e.g. to spool its files rather than
    hold them). ``spool_dir``: where the workers write their decks' files, handed back as
    :class:`Spooled` (default: sent back as bytes)."""
    run = _Run(tasks, progress, on_outcome)
    cards = [len(t.job.cards) for t in tasks]
    parallel = len(tasks) > 1 and sum(cards) >= PARALLEL_MIN_CARDS
    if parallel:
        workers.start()
    if workers.pool is not None and parallel:
        from concurrent.futures.process import BrokenProcessPool

        try:
            _share(run, workers, cards, spool_dir)
        except BrokenProcessPool:
            # A worker died (out of memory, killed) or processes cannot be started here: the
            # decks not yet done are drawn in this process instead, to the same bytes.
            pass
    for i in range(len(tasks)):
        if run.outcomes[i] is None:
            run.draw_here(i)
    return [o for o in run.outcomes if o is not None]


def _share(run: _Run, workers: Workers, cards: list[int], spool_dir: Path | None) -> None:
    """Draw ``run``'s tasks in this process and ``workers``' at once: the workers take the
    largest decks first, this process the smallest, so that the last to finish is a small one.
    A worker is sent its next deck when it finishes one (from the process pool's thread, while
    this process draws), not when this process is between two of its own decks; outcomes are
    handed on in this thread, between its decks. Raises ``BrokenProcessPool`` if a worker dies
    (the decks not done are left undone)."""
    import threading
    from concurrent.futures import FIRST_COMPLETED, wait

    order = sorted(range(len(run.tasks)), key=lambda i: -cards[i])
    running: dict = {}  # future -> task index, until its outcome is handed on
    # Reentrant: a future done before its callback is added runs feed() inside feed().
    lock = threading.RLock()
    refused: list[BaseException] = []  # the pool refusing a deck (broken), raised in this thread

    def feed(_done: object = None) -> None:
        # A deck waits behind each worker's, no more (each holds its cards' records: memory
        # stays the same for any number of decks), while there are more decks left than the
        # workers take: a deck sent cannot be taken back when this process runs out of its own,
        # so towards the end a worker is sent its next deck only when it finishes one.
        with lock:
            while order and not refused and sum(not f.done() for f in running) < (
                    2 * workers.processes if len(order) > 2 * workers.processes else workers.processes):
                i = order[0]
                try:
                    future = workers.pool.submit(_render_deck_spooled, _for_worker(run.tasks[i]), spool_dir)
                except Exception as exc:  # noqa: BLE001 - BrokenProcessPool, or shut down: raised below
                    refused.append(exc)
                    return
                order.pop(0)
                running[future] = i
                future.add_done_callback(feed)

    def collect(block: bool) -> None:
        with lock:
            sent = list(running)
        done, _ = wait(sent, timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for future in done:
            with lock:
                i = running.pop(future)
            run.arrived(i, future.result())  # raises BrokenProcessPool for a worker that died

    feed()
    while True:
        collect(block=False)
        with lock:
            mine = order.pop() if order else None
        if mine is None:
            break
        run.draw_here(mine)
    while running:
        collect(block=True)
    if refused:
        raise refused[0]
