"""The card files a build read, remembered beside its output so the next build need not parse them.

The loader (:func:`card_data.loader.check_database`) takes a store of card files that read
cleanly (:mod:`card_data.reading.parsed_files` says what is remembered and under which digest); this is
the build's: one file per card file in ``<out>/.printkit-parsed/`` (:data:`PARSED_DIR`),
named by its key, a digest of the file's bytes, of the code behind its game
(:func:`printkit.build_cache.code_digest`) and of the limits in force.

What a build reads is written only when the build publishes its output (a build with problems
writes nothing; until then a build's entries wait in its spool, on disk rather than in memory:
about 1.4 KB a card), and the folder then holds exactly the entries that build used: it is bounded
by the database it was built from, itself bounded by :mod:`card_data.project.limits`. An entry that does
not read is parsed again, never an error; deleting the folder only costs parsing again.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from printkit.build_cache import code_digest
from printkit.pipeline.output_set import Spool, Spooled

PARSED_DIR = ".printkit-parsed"

_KEY = re.compile(r"[0-9a-f]{64}")


class ParsedFileCache:
    """A :class:`card_data.reading.parsed_files.ParsedFiles` store in ``<out_dir>/.printkit-parsed/``.

    ``out_dir=None`` (validate): remembers nothing. :meth:`save` writes what this build parsed
    and removes what it did not use; nothing is written into the folder before. With a
    ``spool`` (the build's, in the same output folder) each new entry waits there, not in
    memory, and :meth:`save` moves it in.
    """

    def __init__(self, out_dir: Path | None, spool: Spool | None = None):
        self.dir = Path(out_dir) / PARSED_DIR if out_dir is not None else None
        self._spool = spool
        self._used: set[str] = set()
        self._new: dict[str, bytes | Spooled] = {}

    def get(self, key: str) -> bytes | None:
        """The bytes remembered under ``key``; ``None`` if none, or they cannot be read."""
        if self.dir is None or not _KEY.fullmatch(key):
            return None
        try:
            value = (self.dir / f"{key}.bin").read_bytes()
        except OSError:
            return None
        self._used.add(key)
        return value

    def put(self, key: str, value: bytes) -> None:
        """Remember ``value`` under ``key``, on disk at :meth:`save`."""
        if self.dir is not None and _KEY.fullmatch(key):
            self._new[key] = self._spool.put(value, durable=False) if self._spool is not None else bytes(value)
            self._used.add(key)

    def code(self, game_id: str) -> str:
        """The digest of the code behind ``game_id`` (:func:`printkit.build_cache.code_digest`)."""
        return code_digest(game_id)

    def save(self) -> None:
        """Write the entries parsed in this build and remove the entries it did not use (each
        written whole, through a temporary file). An ``OSError`` is swallowed: the folder only
        saves time."""
        if self.dir is None:
            return
        try:
            self.dir.mkdir(exist_ok=True)
            for key, data in self._new.items():
                if isinstance(data, Spooled):
                    os.replace(data.path, self.dir / f"{key}.bin")  # whole: written before
                    continue
                tmp = self.dir / f"{key}.tmp"
                tmp.write_bytes(data)
                os.replace(tmp, self.dir / f"{key}.bin")
            for path in self.dir.iterdir():
                # Only files named as this class names them: anything else is not ours to remove.
                ours = _KEY.fullmatch(path.stem) and path.suffix in (".bin", ".tmp")
                if ours and not (path.suffix == ".bin" and path.stem in self._used):
                    path.unlink()
        except OSError:
            pass
