"""A record of the files a command wrote into a folder, so that a later run removes only those.

Shared by printkit's build (:mod:`printkit.pipeline.output_set`, a record in each game folder) and the
companion's static export (:mod:`companion.cards.site`, the record in its marker): both replace a
folder whole by a new one built beside it, and both carry over into the new folder every file
of the old one that is not theirs. A record is JSON, ``{"format": 1, "files": {path: SHA-256}}``
(paths below the folder, with ``/``). A file is a command's own only if the record names it and
it still holds what was written; a file the record does not name, or that was changed since (a
user's edit), is the user's. Without a readable record no file is the command's.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

RECORD_FORMAT = 1
RECORD_MAX_BYTES = 8 * 1024 * 1024
"""A record bigger than this is not read (not trusted: nothing is removed)."""


def read_record(path: Path) -> dict[str, str] | None:
    """The record file at ``path``: ``{path below its folder, with /: SHA-256 hex}``; ``None``
    when there is none, or it cannot be read or trusted (then no file of the folder is known to
    be the command's)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(RECORD_MAX_BYTES + 1)
        if len(raw) > RECORD_MAX_BYTES:
            return None
        record = json.loads(raw)
        files = record["files"]
        if record.get("format") != RECORD_FORMAT or not isinstance(files, dict):
            return None
        if not all(isinstance(k, str) and _below(k) and isinstance(v, str) and len(v) == 64
                   for k, v in files.items()):
            return None
        return dict(files)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _below(rel: str) -> bool:
    """Whether ``rel`` names a path below a folder: relative, with /, no empty, ``.`` or ``..`` part."""
    return "\\" not in rel and all(part not in ("", ".", "..") for part in rel.split("/"))


def record_bytes(files: Mapping[str, str]) -> bytes:
    """The record of ``files`` (``{path below the folder, with /: SHA-256 hex}``), as written."""
    return (json.dumps({"format": RECORD_FORMAT, "files": dict(sorted(files.items()))}, indent=1)
            + "\n").encode("utf-8")


def sha256_file(path: Path) -> str | None:
    """The SHA-256 (hex) of the regular file at ``path`` (a symbolic link is not one), or
    ``None``."""
    try:
        if not path.is_file() or path.is_symlink():
            return None
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    except OSError:
        return None


def still_written(folder: Path, record: Mapping[str, str]) -> set[str]:
    """The files of ``record`` (below ``folder``) that still hold what was written: the
    command's own, which it may remove."""
    return {rel for rel, sha in record.items() if sha256_file(folder / rel) == sha}


def link_or_copy(src: Path, dst: Path) -> None:
    """Put the file ``src`` at ``dst`` too: a hard link, a copy where links are not supported;
    a symbolic link as a link, never followed. Raises ``OSError`` (``FileExistsError`` if
    ``dst`` exists)."""
    # A hard link costs nothing and the file is never written in place afterwards (new files
    # replace links, they do not write through them).
    try:
        os.link(src, dst, follow_symlinks=False)
    except FileExistsError:
        raise  # copy2 would copy into a folder of that name
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)


def carry_over(old: Path, new: Path, skip: set[Path]) -> None:
    """Link every file of ``old`` but those in ``skip`` into the same place below ``new``,
    symbolic links as they are. A folder is carried over if it was empty or keeps something: a
    folder that only held skipped files is not (an exported card's page folder would otherwise
    stay behind empty). Raises ``OSError``: ``FileExistsError`` (its ``filename`` below ``old``
    or ``new``) where ``old`` has a file and ``new`` a folder of the same name, or the reverse."""
    for root, dirs, files in os.walk(old):
        here = Path(root)
        # os.walk lists a link to a folder with the folders but does not enter it.
        entries = sorted(files) + sorted(d for d in dirs if (here / d).is_symlink())
        kept = [name for name in entries if here / name not in skip]
        if kept or not (dirs or files):
            (new / here.relative_to(old)).mkdir(parents=True, exist_ok=True)
        for name in kept:
            link_or_copy(here / name, new / here.relative_to(old) / name)
