"""The garbage collector's tuning during a build (:func:`printkit.command_line.build_gc`) is
undone after it, even when the build fails, and cycles made during it are still collected: a
process that runs builds in turn (tests, ``--watch``, a caller of the CLI) keeps collecting
its garbage as before."""

from __future__ import annotations

import gc
import weakref

import pytest
from click.testing import CliRunner

from printkit.cli import main as printkit_cli
from printkit.command_line import GC_YOUNG_OBJECTS, build_gc


class _Node:
    """An object that can be part of a reference cycle and be watched through a weak reference."""

    other: object = None


def _cycle() -> weakref.ref:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_the_collector_is_restored_after_a_build_and_after_a_failed_one():
    before = gc.get_threshold()
    gc.disable()  # so that nothing collects it before the build starts
    try:
        old_garbage = _cycle()  # unreachable already: frozen on entry, collectable again after
        with build_gc():
            assert gc.get_threshold()[0] == GC_YOUNG_OBJECTS and gc.get_freeze_count() > 0
            gc.collect()
            assert old_garbage() is not None  # frozen: the build's collections leave it alone
    finally:
        gc.enable()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    gc.collect()
    assert old_garbage() is None
    with pytest.raises(RuntimeError), build_gc():
        raise RuntimeError("a build that fails")
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_cycles_made_during_a_build_are_collected():
    with build_gc():
        made = _cycle()
        gc.collect()
        assert made() is None


def test_printkit_validate_leaves_the_collector_as_it_found_it():
    before = gc.get_threshold()
    result = CliRunner().invoke(printkit_cli, ["validate"])
    assert result.exit_code == 0, result.output
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_what_a_build_made_and_kept_waits_in_the_oldest_generation_after_it():
    """Left in the young generations (which GC_YOUNG_OBJECTS lets grow), it would all be looked
    at by the first collection after the build (~25 ms after 900 cards, as the command exits);
    in the oldest generation it waits for a full collection, which still frees its cycles."""
    with build_gc():
        kept = [_Node() for _ in range(1000)]
        kept[0].other = kept[1]  # kept reachable: no collection frees them
        garbage = _cycle()
    young = {id(o) for generation in (0, 1) for o in gc.get_objects(generation=generation)}
    assert not any(id(node) in young for node in kept)
    assert sum(1 for o in gc.get_objects(generation=2) if isinstance(o, _Node)) >= len(kept)
    gc.collect()
    assert garbage() is None
