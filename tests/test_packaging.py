"""`pip install .` must ship every Python package and the data the commands need."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent


def _repo_packages() -> set[str]:
    return {".".join(p.parent.relative_to(ROOT).parts)
            for top in ("printkit", "companion", "card_data") for p in (ROOT / top).rglob("__init__.py")
            if "__pycache__" not in p.parts}


def test_package_discovery_finds_every_python_package_without_a_list():
    setuptools_config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "packages" not in setuptools_config or isinstance(setuptools_config["packages"], dict)
    find = setuptools_config["packages"]["find"]
    found = set(find_packages(str(ROOT), include=find["include"]))
    assert _repo_packages() <= found, f"not found by [tool.setuptools.packages.find]: {sorted(_repo_packages() - found)}"
    assert {"card_data.games.carpe_cras", "card_data.games.cahrd"} <= found
    assert not {p for p in found if p.split(".")[0] not in ("printkit", "companion", "card_data")}


def test_templates_are_the_installed_layouts():
    layouts = ROOT / "printkit" / "layouts"
    assert layouts.is_symlink() and layouts.resolve() == (ROOT / "templates").resolve()


def test_the_wheel_ships_every_package_game_data_and_template(tmp_path):
    # Built from a copy of the tracked files: the checkout's build/ and egg-info stay untouched.
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    src = tmp_path / "src"
    for name in filter(None, tracked.decode().split("\0")):
        target, origin = src / name, ROOT / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_symlink():
            os.symlink(os.readlink(origin), target)
        elif origin.is_file():
            shutil.copyfile(origin, target)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(src)],
                   check=True, capture_output=True, timeout=600)
    shipped = set(zipfile.ZipFile(next((tmp_path / "dist").glob("*.whl"))).namelist())
    missing = {f"{p.replace('.', '/')}/__init__.py" for p in _repo_packages()} - shipped
    for top, suffixes in (("card_data", (".yaml", ".md", ".png", ".svg", ".html", ".po", ".mo")),
                          ("templates", (".yaml",)), ("companion/translations", (".po", ".mo")),
                          ("companion/templates", (".html",)), ("companion/migrations", (".py",)),
                          ("printkit/fonts", (".ttf",))):
        for path in (ROOT / top).rglob("*"):
            if path.suffix in suffixes and "__pycache__" not in path.parts:
                rel = path.relative_to(ROOT).as_posix()
                missing |= {rel.replace("templates/", "printkit/layouts/", 1) if top == "templates" else rel} - shipped
    assert not missing, f"not in the wheel: {sorted(missing)[:20]}"
    # A bundled game is one folder: its data, print layouts, scorekeeper page and the companion's
    # catalogue of its words beside its code.
    game = "card_data/games/carpe_cras"
    assert {f"{game}/game.yaml", f"{game}/cards/agency.yaml", f"{game}/decks/might-cunning-draw.yaml",
            f"{game}/icons/might.svg", f"{game}/templates/unit.yaml", f"{game}/templates/back-draw.yaml",
            f"{game}/table.html", f"{game}/cards.py", f"{game}/translations/de/LC_MESSAGES/messages.po",
            f"{game}/translations/de/LC_MESSAGES/messages.mo"} <= shipped
    assert not {name for name in shipped if name.startswith("printkit/layouts/carpe_cras/")}
