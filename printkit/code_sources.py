"""Which of the toolkit's own files can change what a build prints for one game.

The incremental build (:mod:`printkit.build_cache`) digests the code behind each output unit.
Hashing all of ``card_data`` would make an edit to one game's scorekeeper rules, which never
print, invalidate every game's printed output; hashing too little would leave a stale PDF. So
a game's code is what its build can import, found by reading the import statements of the
source (:func:`printing_sources`):

- every file of :mod:`printkit` (its Python, bundled fonts and ICC profiles), whole;
- the game's own package, ``card_data/games/<game>/``, only from the two modules the build
  loads through the registry (:mod:`card_data.games`): ``__init__.py`` (its title and the
  ``reference_values`` its reference cards print) and ``cards.py`` (``SPEC``, the card schema),
  and whatever they import, at module level or inside a function (e.g. ``cahrd/ranks.py``,
  ``carpe_cras/tempo.py``). The scorekeeper's ``rules`` (``ENGINE``: a module, or a package
  whose ``__init__`` imports its modules) is imported by the companion only, so it is left out
  unless a printing module imports it. The game's data and
  layouts in the same folder are not code: the build digests them as data
  (:func:`card_data.project.project_folders.is_game_data`);
- every other module of the repository that printkit's modules or those game modules import,
  directly or not (``card_data.loader``, ``card_data.schema``, ... and
  ``card_data.engine`` where a printing module uses its ``Words``).

Reading the imports rather than the modules a running process happens to hold makes the
answer the same in every process, whatever ran before, and counts an import inside a function
that a given build did not reach (erring towards a rebuild, never towards a stale PDF). An
import whose name is computed at run time is not seen: the only one on the build path is the
registry's ``import_module`` of a game's ``__init__``/``cards``, which are the roots above
(the tests check a real build's ``sys.modules`` against this list).
"""

from __future__ import annotations

import ast
import os
import re
from functools import cache
from pathlib import Path

OWN_PACKAGES = ("printkit", "card_data", "companion")
"""The repository's top-level packages: imports of anything else (the standard library,
pydantic, reportlab...) are covered by library versions, not by file contents."""

_ROOT = Path(__file__).resolve().parent.parent
"""The folder holding :data:`OWN_PACKAGES` (the checkout, or site-packages)."""


def code_root() -> Path:
    """The folder holding :data:`OWN_PACKAGES` (the checkout, or site-packages)."""
    return _ROOT


def module_file(name: str) -> Path | None:
    """The source file of the repository module ``name`` (``"card_data.schema"``): a package's
    ``__init__.py`` or a module's ``.py``; ``None`` if ``name`` is not one of the repository's
    modules (another package, or a name imported from a module: ``card_data.schema.Card``).
    :func:`printing_sources` asks for the same names thousands of times: they are looked up in
    :func:`_module_files`, not on disk."""
    return _module_files().get(name)


@cache
def _module_files() -> dict[str, Path]:
    """``{dotted name: source file}`` of every module of :data:`OWN_PACKAGES`, from one walk of
    their folders per process: each folder's ``__init__.py`` under the folder's name (taking
    precedence over a module of the same name beside it) and each ``.py`` under its own. Two
    ``stat`` calls a name, as :func:`module_file` made before, cost more than the rest of
    reading the imports together."""
    found: dict[str, Path] = {}
    for package in OWN_PACKAGES:
        for root, dirs, files in os.walk(_ROOT / package):  # top-down: a folder after its parent
            folder = Path(root)
            dirs[:] = [d for d in dirs if d.isidentifier() and d != "__pycache__"]
            dotted = ".".join(folder.relative_to(_ROOT).parts)
            if "__init__.py" in files:
                found[dotted] = folder / "__init__.py"
            for name in files:
                if name.endswith(".py") and name[:-3].isidentifier():
                    found.setdefault(f"{dotted}.{name[:-3]}", folder / name)
    return found


@cache
def _imports(name: str) -> frozenset[str]:
    """The repository modules the module ``name`` imports anywhere in its source (module
    level, functions, ``TYPE_CHECKING`` blocks), with the packages each import runs."""
    path = module_file(name)
    assert path is not None, name
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    candidates: list[str] = []
    for node in _import_statements(path.read_text(encoding="utf-8")):
        if isinstance(node, ast.Import):
            candidates += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            # ``from a import b``: b may be a submodule (imported) or a name in a (dropped below).
            candidates += [target] + [f"{target}.{alias.name}" for alias in node.names]
    found = set()
    for candidate in candidates:
        parts = candidate.split(".")
        # Importing a.b.c runs a/__init__.py and a/b/__init__.py first.
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            if module_file(prefix) is not None:
                found.add(prefix)
    return frozenset(found)


_IMPORT_LINE = re.compile(r"[ \t]*(?:import|from)[ \t]")


def _import_statements(source: str) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of Python ``source``, wherever they are (module level, functions,
    ``if``/``try`` blocks): each line that starts with ``import`` or ``from`` is parsed on its
    own (with its continuation lines), which costs a fraction of parsing the whole file. Such a
    line in a string that reads as an import counts too (a file more in the digest, never one
    less); an import after ``:`` or ``;`` on a line of other code is not seen, which the tests
    rule out for every repository module by comparing with a full parse."""
    found: list[ast.Import | ast.ImportFrom] = []
    lines = source.splitlines()
    for i, line in enumerate(lines):
        if not _IMPORT_LINE.match(line):
            continue
        statement = line.strip()
        j = i
        # Continuation lines: open parentheses or a trailing backslash.
        while (statement.count("(") > statement.count(")") or statement.endswith("\\")) and j + 1 < len(lines):
            j += 1
            statement += "\n" + lines[j].strip()
        try:
            tree = ast.parse(statement)
        except SyntaxError:
            continue  # prose in a docstring, or a statement this reading cannot take alone
        found += [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    return found


@cache
def _printkit_files() -> tuple[Path, ...]:
    """Every file of the printkit package (sources, fonts, ICC profiles), no bytecode; listed
    once per process, like the imports read from them."""
    root = _ROOT / "printkit"
    return tuple(p for p in root.rglob("*")
                 if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo"))


@cache
def printing_sources(game_id: str) -> tuple[Path, ...]:
    """Every repository file whose contents a build of ``game_id`` depends on (see the
    module's docstring), sorted, as absolute paths. Computed once per process and game; an
    unknown ``game_id`` gets printkit and the shared modules only."""
    printkit_files = _printkit_files()
    roots = {".".join(p.relative_to(_ROOT).with_suffix("").parts).removesuffix(".__init__")
             for p in printkit_files if p.suffix == ".py"}
    roots |= {f"card_data.games.{game_id}", f"card_data.games.{game_id}.cards"}
    seen: set[str] = set()
    todo = sorted(name for name in roots if module_file(name) is not None)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += sorted(_imports(name) - seen)
    files = set(printkit_files) | {module_file(name) for name in seen}
    return tuple(sorted(files))  # type: ignore[arg-type]  # every name in seen has a file


def relative_name(path: Path) -> str:
    """``path`` as the digest names it: relative to the folder holding the packages, with
    ``/`` (``"card_data/games/cahrd/cards.py"``)."""
    return path.relative_to(_ROOT).as_posix()
