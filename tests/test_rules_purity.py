"""Rule engines are pure: state in, event in, new state or a rule error out. No web framework,
database, file, network or randomness imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "companion" / "rules"
FORBIDDEN = {"flask", "werkzeug", "sqlalchemy", "psycopg", "os", "io", "pathlib", "shutil", "socket", "random",
             "secrets", "time", "datetime", "requests", "urllib", "http", "json", "yaml", "companion.storage",
             "companion.tables", "companion.api", "card_data.loader"}


@pytest.mark.parametrize("module", sorted(p.name for p in RULES.glob("*.py")))
def test_engine_imports_nothing_impure(module):
    tree = ast.parse((RULES / module).read_text(encoding="utf-8"))
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
