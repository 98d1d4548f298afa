"""The code in a game's build digest: its own card schema and what printing imports, never
another game's package nor any scorekeeper's rules; a change to covered code re-renders the
game, a change to another game's code or to the rules does not."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import card_data.games
import printkit.build_cache as build_cache
from card_data.games import bundled_game_ids
from card_data.loader import bundled_data_dir
from printkit.build_options import BuildOptions
from printkit.pipeline.build import build
from printkit.build_cache import CACHE_FILE
from printkit.parsed_cache import PARSED_DIR
from printkit.code_sources import OWN_PACKAGES, printing_sources, relative_name
from printkit.sheets.prepress.paper import paper_by_name
from build_fixtures import GAME, project, rendered_decks  # noqa: F401 - fixtures

BASE_URL = "http://192.168.1.20:5000"
SHARED = ["card_data/__init__.py", "card_data/games/__init__.py", "card_data/loader.py", "card_data/schema.py",
          "card_data/problems.py", "card_data/editions/short_codes.py", "card_data/editions/translations.py",
          "printkit/pipeline/build.py", "printkit/build_cache.py", "printkit/code_sources.py"]


def is_rules(name: str) -> bool:
    """Whether the digest's file ``name`` is a scorekeeper's rule engine: a game's ``rules.py`` or
    a module of its ``rules/`` package."""
    return name.endswith("/rules.py") or "/rules/" in name


def covered(game_id: str) -> set[str]:
    return {relative_name(p) for p in printing_sources(game_id)}


def is_rules(name: str) -> bool:
    """Whether ``name`` (as the digest names files) is a game's scorekeeper rules: its
    ``rules.py``, or a module of its ``rules/`` package."""
    return name.endswith("/rules.py") or "/rules/" in name


def game_files(game_id: str) -> set[str]:
    """Every Python file of the game's own package, as the digest names them."""
    folder = Path(card_data.games.__file__).parent / game_id
    return {relative_name(p) for p in folder.rglob("*.py")}


@pytest.mark.parametrize("game_id", bundled_game_ids())
def test_a_games_digest_covers_its_schema_and_shared_code_not_other_games_nor_rules(game_id):
    mine = covered(game_id)
    assert {f"card_data/games/{game_id}/cards.py", f"card_data/games/{game_id}/__init__.py"} <= mine
    assert set(SHARED) <= mine
    assert "printkit/fonts" in {str(Path(name).parent) for name in mine}  # bundled fonts print too
    for other in bundled_game_ids():
        if other != game_id:
            assert not mine & game_files(other), other
    assert not [name for name in mine if is_rules(name)]
    # What the reference cards print is derived in these, so they must be covered.
    derived = {"cahrd": "card_data/games/cahrd/ranks.py", "carpe_cras": "card_data/games/carpe_cras/tempo.py"}
    if game_id in derived:
        assert derived[game_id] in mine
    assert printing_sources(game_id) == tuple(sorted(printing_sources(game_id)))


_PROBE = """
import json, sys
from pathlib import Path
from printkit.build_options import BuildOptions
from printkit.pipeline.build import build
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.templating.layout import LAYOUTS_DIR
game, data, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
result = build(data, out, BuildOptions(paper_by_name("letter"), "http://192.168.1.20:5000"), [game],
               layouts_dir=LAYOUTS_DIR, jobs=1)
assert not result.problems, result.problems
print(json.dumps(sorted(m.__file__ for m in list(sys.modules.values()) if getattr(m, "__file__", None))))
"""


@pytest.mark.parametrize("game_id", bundled_game_ids())
def test_every_repository_module_a_real_build_imports_is_covered(game_id, tmp_path):
    """A fresh process builds the whole kit of one game (decks, reference cards, extras): every
    module of the repository it then holds is in the game's digest, except the other games'
    ``__init__``/``cards`` and the modules of their own package these import (the loader
    imports every game's schema to know every game's folder, and validates each folder with its
    own); no rules engine is imported at all."""
    shutil.copytree(bundled_data_dir() / game_id, tmp_path / "data" / game_id)
    # The probe imports the copy of the code this test reads (the checkout under `python -m
    # pytest`, where an installed copy may also be on the path).
    root = Path(build_cache.__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    run = subprocess.run([sys.executable, "-c", _PROBE, game_id, str(tmp_path / "data"), str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "out" / game_id).is_dir()
    loaded = set()
    for file in json.loads(run.stdout):
        path = Path(file).resolve()
        if path.is_relative_to(root) and path.relative_to(root).parts[0] in OWN_PACKAGES:
            loaded.add(relative_name(path))
    schemas_of_others = {name for g in bundled_game_ids() if g != game_id for name in covered(g)
                         if name.startswith(f"card_data/games/{g}/")}
    assert f"card_data/games/{game_id}/cards.py" in loaded  # the probe saw the build's modules
    assert loaded - schemas_of_others <= covered(game_id)
    assert not [name for name in loaded if is_rules(name)]


DECKS = ["might-cunning-draw", "authority-zeal-draw", "might-cunning-agency", "authority-zeal-agency"]


def test_the_import_scan_sees_every_import_a_full_parse_of_each_repository_module_sees():
    """The digest reads imports line by line (cheaper than parsing whole files): for every
    module of the repository it must find exactly the import statements Python's parser finds
    (an import hidden after ``:`` or ``;`` would be missed, and its file left out)."""
    import ast

    from printkit.code_sources import _ROOT, _import_statements

    files = [p for package in OWN_PACKAGES for p in (_ROOT / package).rglob("*.py") if "__pycache__" not in p.parts]
    assert len(files) > 100
    for path in files:
        source = path.read_text(encoding="utf-8")
        full = sorted(ast.dump(n) for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Import, ast.ImportFrom)))
        assert sorted(ast.dump(n) for n in _import_statements(source)) == full, path
    tricky = "def f():\n    if x:\n        from a.b import (c,\n            d)\n    import e, \\\n        f\n"
    assert sorted(ast.dump(n) for n in _import_statements(tricky)) == sorted(
        ast.dump(n) for n in ast.walk(ast.parse(tricky)) if isinstance(n, (ast.Import, ast.ImportFrom)))


@pytest.fixture()
def cache_hits(monkeypatch):
    """``{unit key: whether its record was taken as is}`` of the last build (decks, the
    unprinted cards, reference cards, extras)."""
    hits: dict[str, bool] = {}
    real = build_cache.BuildCache.unchanged

    def looking(self, game_id, key, digest, game_dir):
        record = real(self, game_id, key, digest, game_dir)
        hits[key] = record is not None
        return record

    monkeypatch.setattr(build_cache.BuildCache, "unchanged", looking)
    return hits


@pytest.fixture()
def edit_source(monkeypatch):
    """``edit_source("card_data/schema.py")``: the code digests read that file with a comment
    appended, as if it had been edited (the real files stay as they are)."""
    edited: set[str] = set()
    real = build_cache._source_bytes

    def reading(path: Path) -> bytes:
        data = real(path)
        return data + b"\n# edited\n" if relative_name(path) in edited else data

    def edit(name: str) -> None:
        assert (Path(build_cache.__file__).resolve().parent.parent / name).is_file(), name
        edited.add(name)
        build_cache.code_digest.cache_clear()

    monkeypatch.setattr(build_cache, "_source_bytes", reading)
    yield edit
    build_cache.code_digest.cache_clear()


def make(project):
    data, templates, out = project
    result = build(data, out, BuildOptions(paper_by_name("letter"), BASE_URL), [GAME], layouts_dir=templates, jobs=1)
    assert not result.problems, result.problems
    return result


def snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.relative_to(out).parts[0] not in (CACHE_FILE, PARSED_DIR)}


def test_only_a_change_to_the_games_own_covered_code_re_renders_it(project, rendered_decks, cache_hits,
                                                                   edit_source):
    out = project[2]
    make(project)
    expected = snapshot(out)
    units = {f"deck:{d}" for d in DECKS} | {"unprinted", "reference", "extras"}
    for elsewhere in ["card_data/games/cahrd/cards.py", "card_data/games/cartisora/cards.py",
                      f"card_data/games/{GAME}/rules/state.py", f"card_data/games/{GAME}/rules/events_effects.py",
                      "card_data/games/cahrd/rules/state.py", "card_data/games/cahrd/rules/events_battle.py"]:
        edit_source(elsewhere)
        rendered_decks.clear()
        cache_hits.clear()
        make(project)
        assert rendered_decks == [], elsewhere
        # The whole-build shortcut misses only when a game's schema changed; then every unit hits.
        assert all(cache_hits.values()) and set(cache_hits) in (set(), units), (elsewhere, cache_hits)
    assert snapshot(out) == expected
    for own in [f"card_data/games/{GAME}/tempo.py", "card_data/schema.py", "printkit/sheets/templating/layout.py"]:
        edit_source(own)
        rendered_decks.clear()
        cache_hits.clear()
        make(project)
        assert sorted(rendered_decks) == sorted(DECKS + ["-unprinted"]), own
        assert cache_hits == dict.fromkeys(units, False), own  # reference cards and extras too
    assert snapshot(out) == expected  # the same bytes, as nothing really changed



def test_a_game_folder_is_digested_as_data_and_its_python_as_code(tmp_path, rendered_decks, cache_hits):
    """A bundled game's folder is its Python package too (``card_data/games/<game>/``: data,
    ``templates/``, ``cards.py``, the rules, ``table.html``, ``__pycache__``, the companion's
    catalogue in ``translations/``). Built from such a folder, a change to its Python, bytecode,
    scorekeeper page or catalogue re-renders nothing (Python is digested as code, by its imports,
    above); a change to a layout in its ``templates/`` re-renders the decks that use it."""
    data, templates, out = tmp_path / "data", tmp_path / "templates", tmp_path / "out"
    shutil.copytree(bundled_data_dir() / GAME, data / GAME)  # as bundled: its Python and page included
    shutil.copytree(Path(build_cache.__file__).resolve().parent / "layouts", templates)
    assert (data / GAME / "cards.py").is_file() and (data / GAME / "table.html").is_file()
    make((data, templates, out))
    expected = snapshot(out)
    (data / GAME / "cards.py").write_text("# edited\n", encoding="utf-8")
    (data / GAME / "table.html").write_text("{# edited #}\n", encoding="utf-8")
    (data / GAME / "__pycache__").mkdir(exist_ok=True)
    (data / GAME / "__pycache__" / "cards.cpython-311.pyc").write_bytes(b"\0edited")
    for catalogue in ("translations/messages.pot", "translations/de/LC_MESSAGES/messages.po",
                      "translations/de/LC_MESSAGES/messages.mo"):  # the companion's words, never printed
        assert (data / GAME / catalogue).is_file()
        (data / GAME / catalogue).write_bytes(b"# edited\n")
    rendered_decks.clear()
    cache_hits.clear()
    make((data, templates, out))
    assert rendered_decks == [] and all(cache_hits.values())
    back = data / GAME / "templates" / "back-agency.yaml"
    back.write_text(back.read_text(encoding="utf-8") + "\n# a changed template\n", encoding="utf-8")
    make((data, templates, out))
    assert sorted(rendered_decks) == ["authority-zeal-agency", "might-cunning-agency"]
    assert snapshot(out) == expected
