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
