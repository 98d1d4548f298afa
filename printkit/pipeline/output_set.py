"""Publishing a build's output set: every game folder replaced whole, or not at all.

A build renders everything in memory first; this module then writes the files into a staging
folder beside the output (``<out>/.printkit-staging/``, same file system, so renames are
atomic) and only when every file of every game is written swaps each game folder in, one
rename each. A build killed while writing (even with ``kill -9``) therefore leaves the
previous set whole: the game folders are never written into, so they never mix new files with
old ones (QR codes pointing at two servers, say), and hold no temporary files. What a killed
build leaves is only its staging folder, which the next build removes.

Directories cannot be exchanged atomically portably, so a swap is two renames: the old folder
aside to ``.printkit-staging/<game>.previous``, then the new one in. A kill between those
two leaves the previous set whole under that name; the next build puts it back before doing
anything else (:func:`recover`).

A build of thousands of cards does not hold its files in memory until then: each deck's files
go to a :class:`Spool` (``<out>/.printkit-spool/``) as they are drawn, and publishing moves
them into the staging folder by rename. A killed build's spool is removed like its staging.

Only what a build wrote is ever removed. Each game folder holds a record of the files the
last publish wrote into it and their SHA-256 (:data:`RECORD_NAME`), written into the staging
folder with them and so swapped in with them, in the same rename. A file that record does not
name, or that no longer holds what was written (a designer's notes, ``printkit export``'s
images, an edited PDF), is carried over into the new folder untouched, whatever the build
asks; without a readable record nothing in the folder is the build's. (The record and the
carrying over are :mod:`card_data.project.written_files`, shared with ``companion site``.)

An incremental build passes :data:`UNCHANGED` for a file it did not render again: the file of
the live folder is hard-linked into the new one (never copied through Python, never
rewritten, so its inode and modification time stay). A game none of whose files changed and
that loses no file is not swapped at all.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from card_data.project.written_files import carry_over, link_or_copy, record_bytes, sha256_file
from card_data.project.written_files import read_record as read_record_file

STAGING_DIR_NAME = ".printkit-staging"
SPOOL_DIR_NAME = ".printkit-spool"
PREVIOUS_SUFFIX = ".previous"
RECORD_NAME = ".printkit-files.json"
"""In each game folder: the files the last publish wrote there, and their SHA-256."""


class Unchanged:
    """The type of :data:`UNCHANGED` (one instance is enough; compare with ``isinstance``)."""

    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED = Unchanged()
"""For :func:`publish`: keep the file already at this path, exactly as it is."""


@dataclass(frozen=True)
class Spooled:
    """A rendered file waiting in a :class:`Spool`: where it is, its size in bytes and its
    SHA-256 (hex)."""

    path: Path
    size: int
    sha256: str


class Spool:
    """Rendered files kept on disk, not in memory, until :func:`publish` moves them in.

    The spool is ``<out_dir>/.printkit-spool/`` (the output's file system, so the move is a
    rename). A file that must survive a crash (:meth:`put` ``durable``) is written and flushed
    by the spool's own thread while the build draws on: flushing waits on the disk, not on
    Python, and done in the drawing thread it held up every deck. :meth:`settle` waits for
    them, before anything is published. :meth:`discard` removes the spool (a build that found
    problems publishes nothing); :func:`recover` removes what a killed build left.
    """

    PENDING = 8
    """Durable files waiting for the spool's thread, at most: past them :meth:`put` waits, so
    a slow disk never makes the build hold its output in memory."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        self.dir = self.out_dir / SPOOL_DIR_NAME
        self._count = 0
        self._made_out_dir = not self.out_dir.exists()
        self._writer: ThreadPoolExecutor | None = None
        self._writes: deque[Future] = deque()
        self._failed: BaseException | None = None

    def put(self, data: bytes, durable: bool = True) -> Spooled:
        """Write ``data`` and return where it is: ``durable``, flushed to disk by the spool's
        thread (see :meth:`settle`), else written here and not flushed (a cache's entry, checked
        when read). Raises ``OSError`` (for a durable file: one an earlier durable write met;
        its own, if any, is raised by the next call or by :meth:`settle`)."""
        self._count += 1
        path = self.folder() / f"{os.getpid()}-{self._count:06d}"  # the loading process spools too
        spooled = Spooled(path, len(data), hashlib.sha256(data).hexdigest())
        if not durable:
            path.write_bytes(data)
            return spooled
        self._submit(_write_flushed, path, data)
        return spooled

    def _submit(self, write: Callable[..., None], *args: object) -> None:
        """Give ``write(*args)`` to the spool's thread, once fewer than :data:`PENDING` wait."""
        while len(self._writes) >= self.PENDING or (self._writes and self._writes[0].done()):
            self._wait(self._writes.popleft())
        if self._failed is not None:
            raise self._failed
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="printkit-spool")
        self._writes.append(self._writer.submit(write, *args))

    def folder(self) -> Path:
        """The spool's folder, made if need be: where another process of the build writes its
        files (:func:`spool_file`) for :meth:`adopt`."""
        self.dir.mkdir(parents=True, exist_ok=True)
        return self.dir

    def adopt(self, spooled: Spooled) -> Spooled:
        """Take ``spooled``, a file another process wrote into :meth:`folder` and did not flush
        (:func:`spool_file`), as a durable :meth:`put`: the spool's thread flushes it to disk
        (see :meth:`settle`). Raises ``ValueError`` for a file outside the folder, ``OSError``
        as :meth:`put`."""
        if spooled.path.parent != self.dir:
            raise ValueError(f"{spooled.path}: not in the spool {self.dir}")
        self._submit(_flush_file, spooled.path)
        return spooled

    def settle(self) -> None:
        """Wait until every durable file put so far is written and flushed (or failed), and end
        the spool's thread. Raises ``OSError``: the first a write met."""
        while self._writes:
            self._wait(self._writes.popleft())
        if self._writer is not None:
            self._writer.shutdown()
            self._writer = None
        if self._failed is not None:
            raise self._failed

    def _wait(self, write: Future) -> None:
        error = write.exception()  # waits for it
        if error is not None and self._failed is None:
            self._failed = error

    def discard(self) -> None:
        """Remove every spooled file (and the output folder if this spool made it and it is
        empty now), once the spool's thread has finished what it was writing."""
        try:
            self.settle()
        except OSError:
            pass  # nothing of it is kept anyway
        shutil.rmtree(self.dir, ignore_errors=True)
        if self._made_out_dir:
            try:
                self.out_dir.rmdir()
            except OSError:
                pass  # not empty, or gone: either way nothing of ours is left


_SPOOLED_HERE = itertools.count(1)


def spool_file(folder: Path, data: bytes) -> Spooled:
    """In a worker process of the build: write ``data`` into the build's spool ``folder``
    (:meth:`Spool.folder`), named by this process's id and a count, without flushing it (the
    build's :meth:`Spool.adopt` has it flushed). Handing the build a name instead of the bytes
    keeps the worker from waiting on a full pipe until the build's process, busy drawing, reads
    them: ~10 ms between two decks of 90 cards. Raises ``OSError``."""
    # "w": the loading process, which spools too and has ended, may have had this id.
    path = folder / f"w{os.getpid()}-{next(_SPOOLED_HERE):06d}"
    path.write_bytes(data)
    return Spooled(path, len(data), hashlib.sha256(data).hexdigest())


def same_bytes(path: Path, data: bytes | Spooled) -> bool:
    """Whether the file at ``path`` holds exactly ``data`` (bytes, or a spooled file's)."""
    try:
        if path.stat().st_size != (data.size if isinstance(data, Spooled) else len(data)):
            return False
        if isinstance(data, Spooled):
            return hashlib.sha256(path.read_bytes()).hexdigest() == data.sha256
        return path.read_bytes() == data
    except OSError:
        return False


def recover(out_dir: Path, spool: bool = True) -> None:
    """Undo what a killed build left in ``out_dir``: a game folder moved aside but not yet
    replaced goes back; the staging folder is removed, and with ``spool`` the spool. Raises
    ``OSError``."""
    if spool:
        shutil.rmtree(out_dir / SPOOL_DIR_NAME, ignore_errors=True)
    staging = out_dir / STAGING_DIR_NAME
    if not staging.is_dir():
        return
    for previous in sorted(staging.glob(f"*{PREVIOUS_SUFFIX}")):
        target = out_dir / previous.name[: -len(PREVIOUS_SUFFIX)]
        if not target.exists():
            os.replace(previous, target)
    shutil.rmtree(staging)


def read_record(game_dir: Path) -> dict[str, str] | None:
    """What the last publish wrote into ``game_dir``: ``{path below it, with /: SHA-256 hex}``;
    ``None`` when there is no record, or it cannot be read or trusted (then no file of the
    folder is known to be the build's)."""
    return read_record_file(Path(game_dir) / RECORD_NAME)


@dataclass
class _GamePlan:
    """What publishing does to one game folder: the files it removes (below the folder, with
    /) and the record it leaves."""

    removed: set[str]
    record: dict[str, str]


def _plan(live: Path, game_files: Mapping[str, bytes | Spooled | Unchanged], stale: set[str],
          keep_others: bool) -> _GamePlan:
    """Which files of ``live`` go (only files the record says the build wrote, still holding
    what it wrote) and the new record. ``game_files`` and ``stale`` are below ``live``."""
    old = (read_record(live) if live.is_dir() else None) or {}
    record: dict[str, str] = {}
    for rel, data in game_files.items():
        if isinstance(data, Unchanged):
            sha = sha256_file(live / rel) if rel not in old or not (live / rel).is_file() else old[rel]
            if sha is None:
                raise FileNotFoundError(f"{live / rel}: to be kept unchanged, but it is not there")
            record[rel] = sha
        else:
            record[rel] = data.sha256 if isinstance(data, Spooled) else hashlib.sha256(data).hexdigest()
    removed: set[str] = set()
    for rel, sha in old.items():
        if rel in game_files or rel == RECORD_NAME or not (live / rel).is_file():
            continue
        if not keep_others or rel in stale:
            if sha256_file(live / rel) == sha:
                removed.add(rel)
            # else changed since the build wrote it: the user's now, kept and no longer recorded
        else:
            record[rel] = sha  # the build's, carried over
    return _GamePlan(removed, record)


def _untouched(live: Path, game_files: Mapping[str, bytes | Spooled | Unchanged], plan: _GamePlan) -> bool:
    """Whether publishing would leave the game folder ``live`` exactly as it is."""
    if not live.is_dir() or plan.removed or not all(isinstance(d, Unchanged) for d in game_files.values()):
        return False
    try:
        return (live / RECORD_NAME).read_bytes() == record_bytes(plan.record)
    except OSError:
        return False


def publish(out_dir: Path, files: Mapping[Path, bytes | Spooled | Unchanged], stale: Iterable[Path] = (),
            keep_others: bool = True) -> list[Path]:
    """Write ``files`` (``{out_dir/<game>/<name>: bytes}``; paths below a game folder of
    ``out_dir``) so that each game folder changes whole or not at all. A :class:`Spooled`
    value is moved in from its spool; a value :data:`UNCHANGED` keeps the file that is there
    (raises ``FileNotFoundError`` if there is none). The spool is removed afterwards.

    A file is only ever removed if the game folder's record (:data:`RECORD_NAME`, see the
    module's docstring) says an earlier publish wrote it and it still holds what was written.
    With ``keep_others``, files already in a game folder that this build does not write are
    kept (another deck's PDF, say), except the build's own in ``stale`` (e.g. cut files of
    sheets that no longer exist); without, every file the record names and this build does
    not write is removed. Any other file or folder in a game folder (``printkit export``'s, a
    designer's notes) is carried over as it is. Returns the paths written, in ``files``'
    order. Raises ``OSError`` if the output cannot be written (or a game's name is taken by
    something other than a folder); the game folders are then as they were. Raises
    ``ValueError`` for a path outside a game folder of ``out_dir``, or the record's own.
    """
    out_dir = Path(out_dir)
    recover(out_dir, spool=False)
    by_game: dict[str, dict[str, bytes | Spooled | Unchanged]] = {}
    for path, data in files.items():
        rel = Path(path).relative_to(out_dir)
        if len(rel.parts) < 2 or rel.parts[0] in ("", ".", "..", STAGING_DIR_NAME) or rel.parts[1:] == (RECORD_NAME,):
            raise ValueError(f"{path}: not inside a game folder of {out_dir}")
        by_game.setdefault(rel.parts[0], {})[Path(*rel.parts[1:]).as_posix()] = data
    stale_by_game: dict[str, set[str]] = {}
    for path in stale:
        rel = Path(path).relative_to(out_dir)
        if len(rel.parts) >= 2:
            stale_by_game.setdefault(rel.parts[0], set()).add(Path(*rel.parts[1:]).as_posix())
    plans: dict[str, _GamePlan] = {}
    for game, game_files in list(by_game.items()):
        live = out_dir / game
        if live.is_symlink() or (live.exists() and not live.is_dir()):
            raise OSError(f"{live}: not a folder (a file or a symbolic link); the build writes {game}'s files "
                          "into a folder of that name, replaced whole")
        plans[game] = plan = _plan(live, game_files, stale_by_game.get(game, set()), keep_others)
        if _untouched(live, game_files, plan):
            del by_game[game]  # nothing to write, nothing to remove: leave the folder as it is
    staging = out_dir / STAGING_DIR_NAME
    try:
        for game, game_files in by_game.items():
            live, new = out_dir / game, staging / game
            new.mkdir(parents=True)
            if live.is_dir():
                skip = {live / rel for rel in (*game_files, *plans[game].removed, RECORD_NAME)}
                carry_over(live, new, skip)
            for rel, data in game_files.items():
                target = new / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                if isinstance(data, Unchanged):
                    link_or_copy(live / rel, target)
                elif isinstance(data, Spooled):
                    os.replace(data.path, target)  # written and flushed when spooled
                else:
                    _write_flushed(target, data)
            _write_flushed(new / RECORD_NAME, record_bytes(plans[game].record))
        for game in by_game:
            live, previous = out_dir / game, staging / f"{game}{PREVIOUS_SUFFIX}"
            if live.exists():
                os.replace(live, previous)
            os.replace(staging / game, live)
    finally:
        # After a failure the game folders are untouched (or put back here); after success
        # this removes the previous sets.
        recover(out_dir)
    return [Path(p) for p in files]


def _write_flushed(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _flush_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


