"""The files ``printkit export --preset`` wrote into a deck's folder, so that a later export
removes the copies it no longer makes.

A shop preset's deck folder is uploaded whole: every image in it is a card the shop prints.
When a card's ``qty`` goes from 3 to 2, its ``<card-id>_3.png`` of the last export must not
stay behind as a third copy. Each deck folder therefore keeps a record of what the export
wrote (:mod:`card_data.written_files`: ``.printkit-files.json``, paths and SHA-256), and a
complete export of the folder removes the files of the previous record that it did not write
again and that still hold what was written. A file the record does not name, or that was
edited since, is the designer's and stays.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path

from card_data.written_files import read_record, record_bytes, still_written
from printkit.output_set import RECORD_NAME
from printkit.sheets.render import write_atomically


def write_deck_folders(files: Mapping[Path, bytes], folders: Iterable[Path], complete: bool) -> list[Path]:
    """Write ``files`` (each below one of ``folders``), then each folder's record of them.

    ``complete``: the run wrote every file each folder should hold (no ``--card`` filter), so
    the previous record's files it did not write again are removed, and a folder among
    ``folders`` that gets no file at all (a back whose cards all have ``qty: 0`` now) loses its
    own files and record; otherwise the folders' records gain the new files and nothing is
    removed. Returns the paths removed. Raises ``OSError``.
    """
    by_folder: dict[Path, dict[str, str]] = {folder: {} for folder in folders}
    for path, data in files.items():
        folder = next(f for f in by_folder if path.is_relative_to(f))
        by_folder[folder][path.relative_to(folder).as_posix()] = hashlib.sha256(data).hexdigest()
    for path, data in files.items():
        write_atomically(path, data)
    removed: list[Path] = []
    for folder, written in by_folder.items():
        old = read_record(folder / RECORD_NAME) or {}
        if complete:
            stale = sorted(still_written(folder, old) - set(written))
            record = written
        else:
            stale, record = [], {**old, **written}
        if record:
            write_atomically(folder / RECORD_NAME, record_bytes(record))
        elif (folder / RECORD_NAME).is_file():
            (folder / RECORD_NAME).unlink()
        for rel in stale:
            (folder / rel).unlink(missing_ok=True)
            removed.append(folder / rel)
            parent = (folder / rel).parent
            if parent != folder and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()  # fronts/ of a deck left with no card
        if old and not record and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    return removed
