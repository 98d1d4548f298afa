"""`companion --help` answers without loading Flask, the app or the card data (issue 21): the
commands import them when they run."""

from __future__ import annotations

import json
import subprocess
import sys

from import_probe import probe_source

HEAVY = ("flask", "werkzeug", "card_data", "pydantic", "sqlalchemy", "jinja2")

PROBE = probe_source("companion.cli")


def imported_by(*args: str) -> tuple[int, set[str], str]:
    """Run the companion command line with ``args`` in a fresh interpreter: its exit code, the
    top-level packages it imported, and what it printed before the probe's own line."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    *printed, last = done.stdout.strip().splitlines()
    report = json.loads(last)
    return report["code"], {name.split(".")[0] for name in report["modules"]}, "\n".join(printed)


def test_help_imports_neither_flask_nor_the_card_data():
    code, packages, printed = imported_by("--help")
    assert code == 0
    assert "run" in printed and "site" in printed and "init-db" in printed
    assert packages.isdisjoint(HEAVY), sorted(packages & set(HEAVY))


def test_a_command_help_imports_neither():
    code, packages, printed = imported_by("run", "--help")
    assert code == 0
    assert "--trusted-proxy" in printed
    assert packages.isdisjoint(HEAVY), sorted(packages & set(HEAVY))


def test_the_probe_sees_imports():
    """The probe itself can fail: a command that runs does load the card data."""
    code, packages, _ = imported_by("site", "--data", "/nonexistent/folder-for-the-probe", "--out",
                                    "/nonexistent/out")
    assert "card_data" in packages
