"""What every ``printkit`` command shares: where to read and write, how problems are told, the
collector during a build and how the command's process ends."""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from card_data.problems import Problem


def command_paths(data_dir: Path | None, templates_dir: Path | None = None, out_dir: Path | None = None):
    """Where to read and write: the options, else the project around the current folder, else
    the bundled data (:func:`printkit.designer.loop.project.project_paths`). A broken
    ``printkit.toml`` is a :class:`click.UsageError` naming its file and line."""
    from printkit.designer.loop.project import ConfigError, project_paths

    try:
        return project_paths(data_dir, templates_dir, out_dir)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def check_output_folder(paths, out: Path, given: bool) -> Path:
    """Refuse (:class:`click.ClickException`, one line, exit 1) to write the output folder
    ``out`` when it is, holds or lies inside the card data, the templates or a project folder
    other than its output folder (:func:`card_data.project.project_folders.check_out_folder`); call it
    before writing anything. ``paths``: the command's
    :class:`~printkit.designer.loop.project.ProjectPaths`; ``given``: ``out`` came from ``--out``
    (else from ``printkit.toml`` or the default). Returns ``out``."""
    from card_data.project.base_url import ConfigError
    from card_data.project.project_folders import OutFolderError, check_out_folder

    if paths.data_dir is None:
        from card_data.loader import bundled_data_dir  # the card schemas come with it: only if needed
    from_config = paths.project.config if paths.project is not None and not given else None
    named = f"--out {out}" if given else f"the output folder {out}"
    try:
        check_out_folder(out, paths.data_dir if paths.data_dir is not None else bundled_data_dir(),
                         paths.templates_dir, named=named, config=from_config)
    except (OutFolderError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from None
    return out


def report_problems(problems: list[Problem], then: str = "") -> None:
    """Every problem on stderr, a line each, then how many (and ``then``, e.g. "Nothing was
    written.")."""
    for p in problems:
        click.echo(str(p), err=True)
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found."
    click.echo(f"{count} {then}" if then else count, err=True)


GC_YOUNG_OBJECTS = 10_000
"""During a build, Python's cyclic garbage collector looks at the youngest objects after this
many more allocations than frees (Python's default: 700). Higher saves a little more CPU and
holds more memory: 50,000 held 13 MiB more at 900 cards."""


_EXIT_FREEZE: list[bool] = []
"""Whether :func:`build_gc` has had every object frozen at this process's exit."""


@contextmanager
def build_gc() -> Iterator[None]:
    """Tune Python's cyclic garbage collector while a build or a check runs, and restore it
    after: the objects that exist on entry (the modules imported, mostly) are frozen, so that
    collections do not scan them again and again and forked workers do not write to their
    pages (which would copy them), and the youngest generation is collected every
    :data:`GC_YOUNG_OBJECTS` allocations. The cycles a build makes are still collected;
    reference counting frees everything else as before. After it, what the build made and kept
    waits in the oldest generation for its next full collection, not in the young ones, whose
    next collection would look at all of it. At the process's exit every object is frozen, so
    that Python's last collections skip them."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_OBJECTS, *thresholds[1:])
    if not _EXIT_FREEZE:
        # Python's last collections at exit look at every object the build left (fonts,
        # schemas, cards): ~60 ms after a build of 900 cards, for memory the system takes back
        # at once. Frozen, they are skipped; what refers to nothing else is still freed.
        atexit.register(gc.freeze)
        _EXIT_FREEZE.append(True)
    try:
        yield
    finally:
        # The young generations now hold what the build made and kept (GC_YOUNG_OBJECTS lets
        # them grow): restored as they are, the next collection would look at all of it (~25 ms
        # after 900 cards, as the command is about to exit). Frozen first, it is unfrozen into
        # the oldest generation with the rest, whose next full collection still finds its cycles.
        gc.freeze()
        gc.set_threshold(*thresholds)
        gc.unfreeze()  # what was frozen may be collected again (in a test run, earlier tests' garbage)


def run_without_teardown(command: Callable[[], object]) -> None:
    """Run ``command`` (a click command in standalone mode, which ends by raising
    ``SystemExit``) as a console script whose process ends as ``sys.exit`` ends one (every
    ``atexit`` handler run, standard output and error flushed, the same status) but without
    Python's teardown: freeing every module and object one by one took ~17 ms after a
    900-card build, for memory the system takes back at once anyway.

    Where another (non-daemon) thread still runs, or this Python has no way to run its exit
    handlers early, the process ends as Python ends it (which waits for the thread); so it
    does after any other exception (a traceback, Ctrl-C)."""
    try:
        command()
        code: object = None
    except SystemExit as exc:
        code = exc.code
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)  # CPython's, run at exit
    others = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if run_exit_handlers is None or others:
        sys.exit(code)
    if isinstance(code, int):
        status = code
    elif code is None:
        status = 0
    else:  # as Python does with sys.exit("message")
        print(code, file=sys.stderr)
        status = 1
    run_exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that went away; a stream closed
            status = status or 120  # as Python exits when it cannot flush standard output
    os._exit(status)
