"""`pip install .` must ship every Python package and the data the commands need."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_python_package_is_listed_in_pyproject():
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for top in ("printkit", "companion", "card_data") for p in (ROOT / top).rglob("__init__.py")}
    assert found <= declared, f"missing from pyproject.toml packages: {sorted(found - declared)}"


def test_templates_are_the_installed_layouts():
    layouts = ROOT / "printkit" / "layouts"
    assert layouts.is_symlink() and layouts.resolve() == (ROOT / "templates").resolve()
