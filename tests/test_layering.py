"""Data flows one way: card_data -> printkit, and card_data -> companion. printkit never
imports the companion, the companion never imports printkit, and card_data imports neither."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_packages(path: Path) -> set[str]:
    """Top-level package names a module imports (lazy imports inside functions included)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package,forbidden", [
    ("printkit", {"companion"}),
    ("companion", {"printkit"}),
    ("card_data", {"printkit", "companion"}),
])
def test_no_import_against_the_data_flow(package, forbidden):
    offenders = {str(p.relative_to(ROOT)): sorted(imported_packages(p) & forbidden)
                 for p in sorted((ROOT / package).rglob("*.py"))}
    assert not {k: v for k, v in offenders.items() if v}


def test_the_web_layer_knows_no_page_of_the_companion():
    """``companion/web`` (security, languages, compression, time zones, templating) serves
    every page alike: it imports neither the scorekeeper nor the card pages, which build on it."""
    imports = {}
    for path in sorted((ROOT / "companion" / "web").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.startswith(("companion.scorekeeping", "companion.cards")):
                    imports.setdefault(path.name, []).append(node.module)
    assert imports == {}
