"""The README's commands install the versions the project was tested with: ``constraints.txt``
pins every dependency that ``pyproject.toml`` names (main, test and bench), and the environment the
tests run in holds exactly those versions (so a green run speaks for the lock)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")


def pins() -> dict[str, str]:
    lines = (line.strip() for line in (ROOT / "constraints.txt").read_text().splitlines())
    found = {}
    for line in lines:
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"constraints.txt: {line!r} is not an exact pin (name==version)"
        found[canonicalize_name(match[1])] = match[2]
    return found


def named_dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = [*project["dependencies"], *project["optional-dependencies"]["test"],
                    *project["optional-dependencies"].get("bench", [])]
    return {canonicalize_name(Requirement(r).name) for r in requirements}


def test_every_dependency_is_pinned():
    missing = named_dependencies() - set(pins())
    assert not missing, f"not pinned in constraints.txt (run tools/lock.sh): {sorted(missing)}"


def test_the_tests_run_on_the_pinned_versions():
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    off = {name: (installed[name], pinned) for name, pinned in pins().items()
           if name in installed and installed[name] != pinned}
    assert not off, ("installed versions differ from constraints.txt (installed, pinned); install with "
                     f"`pip install -c constraints.txt '.[test]'`: {off}")
