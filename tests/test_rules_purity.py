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
             "card_data.loader", "card_data.reading.yaml_source"}


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


MOST_LINES = 600
"""Small modules named for what they hold: a rule engine past this is split by concern
(its state, its events, the rules it cites, its wording) into a ``rules/`` package."""


@pytest.mark.parametrize("game", ["carpe_cras", "cartisora", "cahrd", "carpe_diem"])
def test_no_module_of_a_split_engine_passes_600_lines(game):
    modules = sorted((GAMES / game / "rules").glob("*.py"))
    assert len(modules) > 2 and not (GAMES / game / "rules.py").exists()
    long = {p.name: n for p in modules if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long, long


def test_no_module_of_a_game_passes_600_lines():
    modules = sorted(GAMES.rglob("*.py"))
    long = {str(p.relative_to(GAMES)): n for p in modules
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert len(modules) > 20 and not long, long


@pytest.mark.parametrize("game", ["carpe_cras", "cartisora", "cahrd", "carpe_diem"])
def test_importing_a_split_engine_imports_every_module_of_it(game):
    """The events register with the engine as their modules are imported: a module the
    package's ``__init__`` does not reach would leave its events out of the game (and out of
    the build digest's reading of the imports). A fresh process, so that no other test's
    imports count."""
    import json
    import subprocess
    import sys

    package = f"card_data.games.{game}.rules"
    code = f"import json, sys, {package}\nprint(json.dumps(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    modules = {f"{package}.{p.stem}" for p in (GAMES / game / "rules").glob("*.py") if p.stem != "__init__"}
    assert modules and not modules - set(json.loads(run.stdout)), sorted(modules - set(json.loads(run.stdout)))
