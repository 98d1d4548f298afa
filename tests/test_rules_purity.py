"""Rule engines are pure: state in, event in, new state or a rule error out. No web framework,
database, file, network or randomness imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "card_data" / "games"
ENGINE_MODULES = sorted([*GAMES.glob("*/*.py"), *GAMES.glob("*/rules/*.py"),
                         *(ROOT / "card_data" / "engine").glob("*.py")])
"""Every game's rules (a module, or a package of them), derived tables and card schema, and the
engine core they share."""
FORBIDDEN = {"flask", "werkzeug", "sqlalchemy", "psycopg", "os", "io", "pathlib", "shutil", "socket", "random",
             "secrets", "time", "datetime", "requests", "urllib", "http", "json", "yaml", "companion", "printkit",
             "card_data.loader", "card_data.yaml_source"}


def test_every_game_has_its_rules_here():
    games = ({p.parent.name for p in GAMES.glob("*/rules.py")}
             | {p.parent.parent.name for p in GAMES.glob("*/rules/__init__.py")})
    assert games == {"carpe_cras", "cartisora", "cahrd", "carpe_diem"}


@pytest.mark.parametrize("module", [str(p.relative_to(ROOT)) for p in ENGINE_MODULES])
def test_engine_imports_nothing_impure(module):
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    # Imports only for type checkers never run.
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            node.body = []
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    bad = {name for name in imported for f in FORBIDDEN if name == f or name.startswith(f + ".")}
    assert not bad, f"{module} imports {sorted(bad)}"
