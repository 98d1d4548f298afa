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

An incremental build passes :data:`UNCHANGED` for a file it did not render again: the file of
the live folder is hard-linked into the new one (never copied through Python, never
rewritten, so its inode and modification time stay). A game none of whose files changed and
that loses no file is not swapped at all.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

STAGING_DIR_NAME = ".printkit-staging"
SPOOL_DIR_NAME = ".printkit-spool"
PREVIOUS_SUFFIX = ".previous"


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
    rename). :meth:`discard` removes it (a build that found problems publishes nothing);
    :func:`recover` removes what a killed build left.
    """

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        self.dir = self.out_dir / SPOOL_DIR_NAME
        self._count = 0
        self._made_out_dir = not self.out_dir.exists()

    def put(self, data: bytes) -> Spooled:
        """Write ``data`` (flushed to disk) and return where it is. Raises ``OSError``."""
        self.dir.mkdir(parents=True, exist_ok=True)
        self._count += 1
        path = self.dir / f"{self._count:06d}"
        with open(path, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        return Spooled(path, len(data), hashlib.sha256(data).hexdigest())

    def discard(self) -> None:
        """Remove every spooled file (and the output folder if this spool made it and it is
        empty now)."""
        shutil.rmtree(self.dir, ignore_errors=True)
        if self._made_out_dir:
            try:
                self.out_dir.rmdir()
            except OSError:
                pass  # not empty, or gone: either way nothing of ours is left


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


def _untouched(live: Path, game_files: Mapping[Path, bytes | Spooled | Unchanged], out_dir: Path, stale: set[Path],
               keep_others: bool) -> bool:
    """Whether publishing ``game_files`` would leave the game folder ``live`` exactly as it is."""
    if not live.is_dir() or not all(isinstance(d, Unchanged) for d in game_files.values()):
        return False
    if any(p.exists() for p in stale if live in p.parents):
        return False
    if not keep_others:
        own = {p.relative_to(out_dir) for p in live.iterdir() if p.is_file()}
        if not own <= set(game_files):
            return False
    return all((out_dir / rel).is_file() for rel in game_files)


def _link_or_copy(src: Path, dst: Path) -> None:
    # A hard link costs nothing and the file is never written in place afterwards (new files
    # replace links, they do not write through them); copy where links are not supported.
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def publish(out_dir: Path, files: Mapping[Path, bytes | Spooled | Unchanged], stale: Iterable[Path] = (),
            keep_others: bool = True) -> list[Path]:
    """Write ``files`` (``{out_dir/<game>/<name>: bytes}``; paths below a game folder of
    ``out_dir``) so that each game folder changes whole or not at all. A :class:`Spooled`
    value is moved in from its spool; a value :data:`UNCHANGED` keeps the file that is there
    (raises ``FileNotFoundError`` if there is none). The spool is removed afterwards.

    With ``keep_others``, files already in a game folder that this build does not write are
    kept (another deck's PDF, say), except those in ``stale`` (e.g. cut files of sheets that
    no longer exist); without, the files directly in each game folder are exactly the new
    ones. Sub-folders a build does not write into (``printkit export``'s) are always kept.
    Returns the paths written, in ``files``' order. Raises ``OSError`` if the output cannot be
    written; the game folders are then as they were. Raises ``ValueError`` for a path outside
    a game folder of ``out_dir``.
    """
    out_dir = Path(out_dir)
    recover(out_dir, spool=False)
    stale = {Path(p) for p in stale}
    by_game: dict[str, dict[Path, bytes | Spooled | Unchanged]] = {}
    for path, data in files.items():
        rel = Path(path).relative_to(out_dir)
        if len(rel.parts) < 2 or rel.parts[0] in ("", ".", "..", STAGING_DIR_NAME):
            raise ValueError(f"{path}: not inside a game folder of {out_dir}")
        by_game.setdefault(rel.parts[0], {})[rel] = data
    for game in [g for g, game_files in by_game.items() if _untouched(out_dir / g, game_files, out_dir, stale,
                                                                     keep_others)]:
        del by_game[game]  # nothing to write, nothing to remove: leave the folder as it is
    staging = out_dir / STAGING_DIR_NAME
    try:
        for game, game_files in by_game.items():
            live, new = out_dir / game, staging / game
            new.mkdir(parents=True)
            if live.is_dir():
                for old in sorted(live.rglob("*")):
                    # Without keep_others the build's own files (those directly in the game
                    # folder) are replaced; sub-folders (per-card exports) are never its own.
                    own = old.parent == live and not keep_others
                    if (old.is_file() and not own and old not in stale
                            and old.relative_to(out_dir) not in game_files):
                        (new / old.relative_to(live)).parent.mkdir(parents=True, exist_ok=True)
                        _link_or_copy(old, new / old.relative_to(live))
            for rel, data in game_files.items():
                target = staging / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                if isinstance(data, Unchanged):
                    _link_or_copy(out_dir / rel, target)
                    continue
                if isinstance(data, Spooled):
                    os.replace(data.path, target)  # written and flushed when spooled
                    continue
                with open(target, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
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
