"""The build's last stage, publish: the files drawn (or kept) swapped into the output folder
whole, game by game (:mod:`printkit.pipeline.output_set`), and what was built recorded for the
next build (:mod:`printkit.build_cache`, :mod:`printkit.parsed_cache`). Reached only by a build
without problems."""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from card_data.loader import Game
from card_data.problems import Problem
from printkit.build_cache import sha256_hex
from printkit.pipeline.deck_files import SheetPlan
from printkit.pipeline.load import BuildRequest, LoadedBuild
from printkit.pipeline.output_set import UNCHANGED, Spooled, Unchanged, publish, same_bytes
from printkit.pipeline.units import OutputFile, OutputUnits
from printkit.sheets.render import write_atomically


def publish_build(request: BuildRequest, loaded: LoadedBuild, units: OutputUnits, plans: list[SheetPlan],
                  warnings: list[Problem], build_key: str | None) -> tuple[list[Path], list[Path]]:
    """Publish ``units.files`` into ``request.out_dir`` and record the build (``build_key``: the
    digest of everything it read, :func:`~printkit.pipeline.digests.whole_build_key`). Returns
    ``(written, unchanged)``: every file of the set, and those left as they were (a file
    whose new bytes equal the old is not rewritten). Raises ``OSError`` if the output cannot be
    written (the previous set is then left whole)."""
    out_dir, files = request.out_dir, units.files
    for path, data in files.items():
        if not isinstance(data, Unchanged) and same_bytes(path, data):
            files[path] = UNCHANGED  # the same bytes as the file there: leave it untouched
    unchanged = [p for p, data in files.items() if isinstance(data, Unchanged)]
    whole_kit = request.deck is None and not request.cards_only
    if whole_kit:
        # Files an earlier build wrote that this one does not make (other decks, more sheets,
        # the catalogue's files) would mislead; publish removes them, and only them.
        written = publish(out_dir, files, keep_others=False)
    else:
        # A smaller deck or a bigger paper leaves fewer sheets; old cut files would mislead
        # (publish removes those an earlier build wrote, never a file of the same name it did not).
        stale = [p for plan in plans for p in (out_dir / plan.game_id).glob(f"{plan.kind}-cards-sheet-*.svg")
                 if p not in files]
        written = publish(out_dir, files, stale)
    if units.use_cache:
        _record(request, loaded, units, plans, warnings, build_key, whole_kit)
    return written, unchanged


def _record(request: BuildRequest, loaded: LoadedBuild, units: OutputUnits, plans: list[SheetPlan],
            warnings: list[Problem], build_key: str | None, whole_kit: bool) -> None:
    """Write the build cache: every unit's record, and the whole build's (what an unchanged
    build returns at once: :func:`printkit.pipeline.build.build`)."""
    cache, out_dir = units.cache, request.out_dir
    for game in loaded.games:
        cache.record(game.game_id, units.records.get(game.game_id, {}), replace_game=whole_kit)
    cache.record_build(build_key, {
        "files": [[str(p.relative_to(out_dir)), _sha_of(p, data)] for p, data in units.files.items()],
        "warnings": [asdict(w) for w in warnings], "cards": loaded.total, "whole_kit": whole_kit,
        "games": [g.game_id for g in loaded.games], "fallbacks": [list(f) for f in loaded.fallbacks],
        "plans": [[plan.game_id, plan.kind, plan.size_label, *_card_mm(loaded.db.games[plan.game_id])]
                  for plan in plans]})
    try:
        write_atomically(cache.path, cache.to_bytes())
    except OSError:
        pass  # the cache only saves time; the output set itself is whole
    loaded.parsed.save()


def _sha_of(path: Path, data: OutputFile) -> str:
    if isinstance(data, Spooled):
        return data.sha256
    return sha256_hex(path.read_bytes() if isinstance(data, Unchanged) else data)


def _card_mm(game: Game) -> tuple[float, float]:
    return game.info.card_size.width_mm, game.info.card_size.height_mm
