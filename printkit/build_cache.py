"""The incremental build's memory: what each output unit was made from, kept in the output folder.

A *unit* is a group of output files rendered together: one deck (a
:class:`printkit.pipeline.deck_files.SheetWriter` job: its PDF(s) and SVG cut files), a game's reference
cards, its extras (boards, tokens, score pad), or the check of the cards a kit does not
print. Before rendering a unit the build computes a digest over everything that goes into it:
card records, ``game.yaml``, the templates, the game's fonts, icons and art, the build options
with the base URL, and the code behind the game's output (:func:`code_digest`: printkit's own
files, the modules of ``card_data`` its build imports for that game, never another game's
package nor a scorekeeper's rules, and the versions of the libraries that draw).
When the digest equals the one recorded for the unit and every file the unit wrote is still in
the output folder with the recorded content, the unit is not rendered again and its files are
carried over as they are.

The record is one JSON file, ``<out>/.printkit-cache.json`` (:data:`CACHE_FILE`). Deleting it
only costs a full rebuild; a file that does not parse, has another shape, or was written by
another format or printkit version is ignored (a full rebuild), never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from printkit.code_sources import OWN_PACKAGES, code_root, printing_sources, relative_name
from printkit.pipeline.output_set import read_record

CACHE_FILE = ".printkit-cache.json"
FORMAT = 1
"""Bumped whenever the record's shape or meaning changes: an older record is then ignored."""

KEPT_BUILDS = 8
"""Whole builds remembered (a kit, a catalogue, one deck... each with its own options)."""

_DRAWING_LIBRARIES = ("reportlab", "qrcode", "zxing-cpp", "pillow", "jinja2", "pydantic", "svglib")


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` as 64 hex digits."""
    return hashlib.sha256(data).hexdigest()


def json_digest(value: Any) -> str:
    """A digest of a JSON-able ``value`` (keys sorted; non-JSON leaves by ``str``)."""
    return sha256_hex(json.dumps(value, sort_keys=True, default=str, ensure_ascii=False).encode("utf-8"))


@cache
def toolkit_digest() -> str:
    """printkit's version, the record's :data:`FORMAT` and the versions of the libraries that
    draw: a record written under another is not trusted at all (a full rebuild)."""
    import printkit

    lines = [f"printkit {printkit.__version__}; format {FORMAT}"]
    for name in _DRAWING_LIBRARIES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "-"
        lines.append(f"{name} {version}")
    return sha256_hex("\n".join(lines).encode())


def _source_bytes(path: Path) -> bytes:
    """The bytes of one of the toolkit's own files (a seam: the tests stand in an edited file)."""
    return path.read_bytes()


_code_digests: dict[str, str] = {}  # game id -> code_digest, this process
_own_digests: dict[str, str] = {}  # relative name -> SHA-256 of every file that may be code, this process
_scans: dict[str, list[str]] = {}  # scan key -> the files printing_sources found (from records, or here)
_scans_used: dict[str, list[str]] = {}  # those this process's digests rest on: what a record keeps


def _own_file_digests() -> dict[str, str]:
    """``{relative name: SHA-256}`` of every file of printkit (fonts and profiles too) and every
    Python file of the repository's other packages (:data:`~printkit.code_sources.OWN_PACKAGES`),
    read once per process."""
    if not _own_digests:
        for package in OWN_PACKAGES:
            for root, dirs, files in os.walk(code_root() / package):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for name in sorted(files):
                    if name.endswith((".pyc", ".pyo")) or (package != "printkit" and not name.endswith(".py")):
                        continue
                    path = Path(root) / name
                    _own_digests[relative_name(path)] = sha256_hex(_source_bytes(path))
    return _own_digests


_code_digests_from: list[Callable[[], dict[str, str]]] = []  # where this process is told its code digests


def code_digests_from(source: Callable[[], dict[str, str]]) -> None:
    """In a process forked to read the cards while its parent digests the code: ask
    ``source()`` once, when a code digest is first wanted, for ``{game id: code_digest}``
    (the parent's) instead of computing them here too. A game it does not name is computed."""
    _code_digests_from[:] = [source]


def code_digest(game_id: str) -> str:
    """The code behind ``game_id``'s output: :func:`toolkit_digest` and the names and contents of
    :func:`printkit.code_sources.printing_sources` (printkit whole; of ``card_data``, what the
    build imports for this game: its card schema and shared modules, not its scorekeeper rules
    nor any other game's package). Part of every unit's digest; computed once per process
    (``code_digest.cache_clear()`` forgets it).

    Which files those are is found by reading every module's imports, which costs far more
    than hashing them: the answer is remembered under a digest of the game and of every Python
    file of the repository (the records of :class:`BuildCache` keep it), so that it is read
    again only after a change to some module's source."""
    known = _code_digests.get(game_id)
    if known is None and _code_digests_from:
        _code_digests.update(_code_digests_from.pop()())
        known = _code_digests.get(game_id)
    if known is not None:
        return known
    files = _own_file_digests()
    scan_key = json_digest({"game": game_id, "python": {n: d for n, d in files.items() if n.endswith(".py")}})
    names = _scans.get(scan_key)
    if names is None or not all(name in files for name in names):
        names = [relative_name(path) for path in printing_sources(game_id)]
    _scans[scan_key] = _scans_used[scan_key] = names
    h = hashlib.sha256(toolkit_digest().encode() + b"\n")
    for name in names:
        digest = files.get(name) or sha256_hex(_source_bytes(code_root() / name))
        h.update(name.encode() + b"\0" + digest.encode() + b"\0")
    for name, data in _installed_game_files(game_id):
        h.update(name.encode() + b"\0" + data + b"\0")
    _code_digests[game_id] = digest = h.hexdigest()
    return digest


def _forget_code_digests() -> None:
    _code_digests.clear()
    _code_digests_from.clear()
    _own_digests.clear()


code_digest.cache_clear = _forget_code_digests  # type: ignore[attr-defined]  # as functools.cache's


def _installed_game_files(game_id: str) -> list[tuple[str, bytes]]:
    """For a game an installed distribution declares (see :mod:`card_data.games`), every file of
    its package folder, whole (its imports are not followed: it is outside the repository), by
    path relative to that folder; ``[]`` for a bundled or unknown game."""
    from card_data.games import registry

    entry = registry().get(game_id)
    if entry is None or entry.distribution is None:
        return []
    folder = Path(entry.package.__file__).parent
    return [(p.relative_to(folder).as_posix(), _source_bytes(p)) for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")]


@dataclass
class UnitRecord:
    """What one unit was made from and what it wrote.

    Attributes:
        digest: the unit's input digest (see the module's docstring).
        files: ``{file name in the game folder: SHA-256 of its bytes}``.
        meta: what the build needs of the unit without rendering it (sheet counts, page
            counts, warnings), JSON-able.
    """

    digest: str
    files: dict[str, str]
    meta: dict[str, Any] = field(default_factory=dict)


class BuildCache:
    """The record of one output folder (see the module's docstring).

    ``units[game_id][unit key]`` is a :class:`UnitRecord`; ``file_digests`` remembers the
    SHA-256 of input files by path, size and modification time, so that unchanged art is not
    read again on every build.
    """

    def __init__(self, path: Path | None):
        self.path = path
        self.units: dict[str, dict[str, UnitRecord]] = {}
        self.builds: dict[str, dict[str, Any]] = {}
        self._stat_digests: dict[str, list] = {}
        self._used_stats: dict[str, list] = {}

    @classmethod
    def load(cls, out_dir: Path | None) -> BuildCache:
        """The record in ``out_dir`` (an empty one if there is none, or it cannot be read or
        trusted). ``out_dir=None`` (validate): an empty record that is never saved."""
        cache_ = cls(out_dir / CACHE_FILE if out_dir is not None else None)
        if cache_.path is None:
            return cache_
        try:
            raw = json.loads(cache_.path.read_bytes())
            if not isinstance(raw, dict) or raw.get("format") != FORMAT or raw.get("code") != toolkit_digest():
                return cache_
            units = {game: {key: UnitRecord(str(rec["digest"]), {str(k): str(v) for k, v in rec["files"]},
                                            dict(rec.get("meta", {})))
                            for key, rec in game_units.items()}
                     for game, game_units in raw["units"].items()}
            stats = {str(k): list(v) for k, v in raw.get("file_digests", {}).items()
                     if isinstance(v, list) and len(v) == 3}
            builds = {str(k): dict(v) for k, v in raw.get("builds", [])}
            scans = {str(k): [str(n) for n in v] for k, v in raw.get("scans", {}).items() if isinstance(v, list)}
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return cache_  # corrupt, foreign or half-written: a full rebuild, never an error
        cache_.units, cache_._stat_digests, cache_.builds = units, stats, builds
        for key, names in scans.items():
            _scans.setdefault(key, names)  # by content: true of any record that holds it
        return cache_

    def digests_taken(self) -> dict[str, list]:
        """The file digests this record took or used so far (``{path: [size, mtime_ns,
        SHA-256]}``), which it keeps when saved: for :meth:`adopt_digests` in another process."""
        return dict(self._used_stats)

    def adopt_digests(self, taken: dict[str, list]) -> None:
        """Keep file digests another process's copy of this record took (:meth:`digests_taken`),
        as if taken here."""
        self._used_stats.update(taken)
        self._stat_digests.update(taken)

    def file_digest(self, path: Path) -> str:
        """SHA-256 of the file at ``path`` (``"missing"`` if it is not a readable regular file:
        a named pipe would wait for a writer, a device never end; the readers say what it is),
        remembered by size and modification time. Read in blocks: a large file (a video left in
        a game folder) costs time, not memory."""
        try:
            st = path.stat()
        except OSError:
            return "missing"
        if not stat.S_ISREG(st.st_mode):
            return "missing"
        key = str(path)
        known = self._stat_digests.get(key)
        if known and known[0] == st.st_size and known[1] == st.st_mtime_ns:
            self._used_stats[key] = known
            return known[2]
        try:
            with path.open("rb") as file:
                digest = hashlib.file_digest(file, "sha256").hexdigest()
        except OSError:
            return "missing"
        self._used_stats[key] = self._stat_digests[key] = [st.st_size, st.st_mtime_ns, digest]
        return digest

    def tree_digest(self, folder: Path, skip_suffixes: Iterable[str] = (), skip_dirs: Iterable[str] = (),
                    keep: Callable[[Path], bool] | None = None) -> str:
        """A digest of every file below ``folder`` (names and contents), except files whose
        suffix is in ``skip_suffixes``, folders named in ``skip_dirs`` and, with ``keep``, the
        files for whose path relative to ``folder`` it is false (a game folder digested as data:
        ``keep=``:func:`card_data.project.project_folders.is_game_data`, as its Python is code, digested
        by :func:`code_digest`); ``"missing"`` if ``folder`` is not a folder."""
        if not folder.is_dir():
            return "missing"
        skip_suffixes, skip_dirs = {s.lower() for s in skip_suffixes}, set(skip_dirs)
        entries = []
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in skip_dirs and not d.startswith("."))
            for name in sorted(files):
                path = Path(root) / name
                if path.suffix.lower() in skip_suffixes or (keep is not None and not keep(path.relative_to(folder))):
                    continue
                entries.append((str(path.relative_to(folder)), self.file_digest(path)))
        return json_digest(entries)

    def unchanged(self, game_id: str, key: str, digest: str, game_dir: Path) -> UnitRecord | None:
        """The unit's record if it was made from ``digest`` and every file it wrote is in
        ``game_dir`` with the content recorded; else ``None`` (render it)."""
        rec = self.units.get(game_id, {}).get(key)
        if rec is None or rec.digest != digest:
            return None
        for name, sha in rec.files.items():
            try:
                if sha256_hex((game_dir / name).read_bytes()) != sha:
                    return None
            except OSError:
                return None
        return rec

    def same_build(self, key: str, out_dir: Path) -> dict[str, Any] | None:
        """What the build ``key`` (a digest over all of a build's inputs) recorded, if every
        file it wrote is still in ``out_dir`` as written (and, for a whole kit, no other file
        an earlier build wrote is in its game folders, by their records:
        :func:`printkit.pipeline.output_set.read_record`); else ``None``."""
        build = self.builds.get(key)
        try:
            if build is None:
                return None
            files = {str(rel): str(sha) for rel, sha in build["files"]}
            for rel, sha in files.items():
                if sha256_hex((out_dir / rel).read_bytes()) != sha:
                    return None
            if build.get("whole_kit"):
                for game in build["games"]:
                    # A file an earlier build wrote that this one does not make is to be removed.
                    recorded = read_record(out_dir / game)
                    if recorded is None or not {f"{game}/{rel}" for rel in recorded} <= files.keys():
                        return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None
        return build

    def record_build(self, key: str, record: dict[str, Any]) -> None:
        """Remember a whole build's outcome (JSON-able, with ``files``: ``[[path relative to the
        output folder, SHA-256]]``); the last :data:`KEPT_BUILDS` are kept."""
        self.builds.pop(key, None)
        self.builds[key] = record
        for old in list(self.builds)[:-KEPT_BUILDS]:
            del self.builds[old]

    def record(self, game_id: str, units: Mapping[str, UnitRecord], replace_game: bool) -> None:
        """Remember ``units`` of ``game_id`` after they were published; ``replace_game``
        forgets the game's other units (a whole-kit build wrote the game's whole folder)."""
        if replace_game:
            self.units[game_id] = {}
        self.units.setdefault(game_id, {}).update(units)

    def to_bytes(self) -> bytes:
        """The record as JSON bytes (only the input files this run looked at keep their digests)."""
        return json.dumps({
            "format": FORMAT, "code": toolkit_digest(),
            # Files as pairs: in the order the unit wrote them (JSON objects get sorted here).
            "units": {game: {key: {"digest": r.digest, "files": list(r.files.items()), "meta": r.meta}
                             for key, r in sorted(units.items())} for game, units in sorted(self.units.items())},
            "file_digests": dict(sorted(self._used_stats.items())),
            "builds": list(self.builds.items()),  # oldest first
            "scans": dict(sorted(_scans_used.items())),  # which files each game's code digest read
        }, indent=1, sort_keys=True).encode("utf-8")
