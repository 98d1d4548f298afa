"""The build's units of output and the files they make, as the stages fill them in.

A unit is a deck (or part), a game's reference cards, its extras, or the cards its kit does not
print (laid out for their problems only). Each is either unchanged since the build that wrote
the output (:mod:`printkit.build_cache`: its files carried over untouched) or drawn now (its
files, or where they wait in the spool, and a record for the next build). :class:`OutputUnits`
holds both for :mod:`printkit.pipeline.publish`.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from printkit.build_cache import BuildCache, UnitRecord, sha256_hex
from printkit.pipeline.digests import Unit, readable_meta
from printkit.pipeline.output_set import UNCHANGED, Spooled, Unchanged

if TYPE_CHECKING:
    from card_data.loader import Game

OutputFile = bytes | Spooled | Unchanged
"""A file to publish: its bytes, where it waits in the spool, or :data:`UNCHANGED` (keep the
file already there)."""


class OutputUnits:
    """Every file the build will publish (``files``: ``{path: OutputFile}``, in the order the
    print index lists them) and every unit's record for the cache (``records``: ``{game id:
    {unit key: UnitRecord}}``).

    ``cache`` is the output's build cache, or an empty one (``BuildCache.load(None)``) when
    nothing may be skipped: ``validate``, or a build that already found problems, lays out
    every card to report every problem.
    """

    def __init__(self, cache: BuildCache, out_dir: Path | None) -> None:
        self.cache = cache
        self.out_dir = out_dir
        self.files: dict[Path, OutputFile] = {}
        self.records: dict[str, dict[str, UnitRecord]] = {}

    @property
    def use_cache(self) -> bool:
        """Whether units may be found unchanged (and are recorded for the next build)."""
        return self.cache.path is not None

    def unit(self, game: Game, key: str, digest: str) -> Unit:
        """The unit ``key`` of ``game`` whose inputs digest to ``digest``: with its record if
        the output still holds what that record says, else to be drawn."""
        cached = self.cache.unchanged(game.game_id, key, digest, self.out_dir / game.game_id) if self.use_cache else None
        if cached is not None and not readable_meta(cached.meta, game):
            cached = None  # a record that does not read as this build wrote it: render the unit
        return Unit(key, digest, cached)

    def add(self, game: Game, files: Mapping[str, bytes | Spooled]) -> None:
        """Publish ``files`` (``{file name: bytes or spooled}``) into ``game``'s folder."""
        for name, data in files.items():
            self.files[self.out_dir / game.game_id / name] = data

    def keep(self, game: Game, u: Unit) -> None:
        """Carry an unchanged unit's files over and remember it again."""
        for name in u.cached.files:
            self.files[self.out_dir / game.game_id / name] = UNCHANGED
        self.records.setdefault(game.game_id, {})[u.key] = u.cached

    def keep_record(self, game: Game, key: str, record: UnitRecord) -> None:
        """Remember a unit that has no files (the cards a kit does not print)."""
        self.records.setdefault(game.game_id, {})[key] = record

    def remember(self, game: Game, u: Unit, files: Mapping[str, bytes | Spooled], meta: dict) -> None:
        """Record a unit just drawn: its digest, its files' SHA-256 and ``meta`` (sheets,
        pages, warnings: what an unchanged unit repeats)."""
        self.keep_record(game, u.key, UnitRecord(
            u.digest, {name: data.sha256 if isinstance(data, Spooled) else sha256_hex(data)
                       for name, data in files.items()}, meta))
