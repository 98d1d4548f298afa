"""The files ``printkit export --preset`` and ``printkit tts`` wrote into a folder, so that a
later run removes the copies and sheets it no longer makes.

A shop preset's deck folder is uploaded whole: every image in it is a card the shop prints.
When a card's ``qty`` goes from 3 to 2, its ``<card-id>_3.png`` of the last export must not
stay behind as a third copy; nor may a TTS deck's ``question-2.png`` once the deck fits one
sheet. Each such folder therefore keeps a record of what was written there
(:mod:`card_data.project.written_files`' format, paths and SHA-256: :data:`EXPORT_RECORD` or
:data:`TTS_RECORD`, never the build's record, as ``printkit tts --out output`` writes into
the build's game folders), and a run
removes the files of the previous record that it makes no more: those it would have written
(the run says which) but did not, and that still hold what was written. A file the record
does not name, or that was edited since, is the designer's and stays.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from card_data.project.written_files import read_record, record_bytes, still_written
from printkit.sheets.render import write_atomically

EXPORT_RECORD = ".printkit-export-files.json"
"""In each deck folder of a shop preset: the files ``printkit export`` wrote there."""
TTS_RECORD = ".printkit-tts-files.json"
"""In each game folder of ``printkit tts``'s output: the sheets it wrote there."""


def write_recorded(files: Mapping[Path, bytes], folder: Path, record_name: str,
                   replaces: Callable[[str], bool]) -> list[Path]:
    """Write ``files`` (each below ``folder``), then ``folder``'s record ``record_name``: the
    previous record's files and the new ones. Of the previous record's files not written again, those this run
    makes (``replaces(path below folder, with /)``) and that still hold what was written are
    removed, with the sub-folders they leave empty (and ``folder`` itself, once it holds
    nothing). Returns the paths removed. Raises ``OSError``.
    """
    written = {path.relative_to(folder).as_posix(): hashlib.sha256(data).hexdigest() for path, data in files.items()}
    for path, data in files.items():
        write_atomically(path, data)
    old = read_record(folder / record_name) or {}
    stale = sorted(rel for rel in still_written(folder, old) - set(written) if replaces(rel))
    record = {rel: sha for rel, sha in old.items() if rel not in stale} | written
    if record:
        write_atomically(folder / record_name, record_bytes(record))
    elif (folder / record_name).is_file():
        (folder / record_name).unlink()
    removed = []
    for rel in stale:
        path = folder / rel
        path.unlink(missing_ok=True)
        removed.append(path)
        parent = path.parent
        while parent != folder and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()  # e.g. fronts/ of a deck left with no card
            parent = parent.parent
    if old and not record and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
    return removed


def write_deck_folders(files: Mapping[Path, bytes], folders: Iterable[Path], complete: bool) -> list[Path]:
    """Write ``files`` (each below one of ``folders``, a shop preset's deck folders) with
    :func:`write_recorded`. ``complete``: the run wrote every file each folder should hold (no
    ``--card`` filter), so whatever of the previous export it did not write again goes, and a
    folder among ``folders`` that gets no file at all (a back whose cards all have ``qty: 0``
    now) loses its own files; otherwise nothing is removed. Returns the paths removed."""
    by_folder: dict[Path, dict[Path, bytes]] = {folder: {} for folder in folders}
    for path, data in files.items():
        by_folder[next(f for f in by_folder if path.is_relative_to(f))][path] = data
    return [path for folder, own in by_folder.items()
            for path in write_recorded(own, folder, EXPORT_RECORD, lambda _: complete)]
