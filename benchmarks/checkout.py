"""The code a benchmark measures is the checkout it is in.

The benchmarks start ``printkit`` and ``companion run`` as a user does, through the console
scripts of the Python environment they run in. Those import whatever that environment has
installed: with an editable install of another checkout (a second working tree of the same
repository, the code before a change), a comparison of two checkouts would measure one of them
twice. So a benchmark imports this checkout's packages itself and puts them first on its
children's ``PYTHONPATH``, ahead of anything installed."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The checkout's root folder (holding ``printkit/``, ``companion/`` and ``card_data/``)."""


def import_from_here() -> None:
    """Make this process import the checkout's packages before any installed copy."""
    if sys.path[:1] != [str(ROOT)]:
        sys.path.insert(0, str(ROOT))


def child_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` for a child process that imports the checkout's packages first."""
    rest = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != str(ROOT)]
    return {**env, "PYTHONPATH": os.pathsep.join([str(ROOT), *rest])}
