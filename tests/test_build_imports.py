"""A rebuild in which nothing changed answers from the build cache without importing the
renderer (issue 21): reportlab's page layout and canvas, the layouts and their templates
(Jinja2), art (Pillow, svglib), the QR encoder and the components are imported by the stages
that lay out and draw, and the card database's loader (its pydantic schemas), the kits and
translations by the stage that loads, none of which such a rebuild reaches. Each build runs
in a fresh interpreter, whose ``sys.modules`` is what it imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from card_data.loader import bundled_data_dir
from import_probe import probe_source

RENDERING = ("reportlab.platypus", "reportlab.pdfgen.canvas", "reportlab.graphics", "PIL.Image", "svglib",
             "zxingcpp", "jinja2", "printkit.sheets.render", "printkit.sheets.templating.layout", "printkit.sheets.text.text_fit",
             "printkit.components.boards", "printkit.components.print_index", "printkit.components.packing",
             "printkit.pipeline.draw", "printkit.pipeline.card_faces",
             "card_data.loader", "card_data.editions.translations", "printkit.components.kit")

PROBE = probe_source("printkit.cli")


def build_imports(out: Path) -> tuple[int, set[str], str]:
    """``printkit build cartisora --data <bundled> --out out`` in a fresh interpreter: its exit
    code, the modules it imported, and what it printed before the probe's own line."""
    done = subprocess.run([sys.executable, "-c", PROBE, "build", "cartisora", "--data", str(bundled_data_dir()),
                           "--out", str(out), "--jobs", "1"], capture_output=True, text=True, timeout=300)
    *printed, last = done.stdout.strip().splitlines()
    report = json.loads(last)
    return report["code"], set(report["modules"]), "\n".join(printed) + done.stderr


def test_a_rebuild_with_nothing_changed_imports_no_renderer(tmp_path):
    out = tmp_path / "out"
    code, cold, _ = build_imports(out)
    assert code == 0
    # The probe can fail: the first build draws, so it imports what the rebuild must not.
    assert set(RENDERING) <= cold, sorted(set(RENDERING) - cold)
    before = {p: p.read_bytes() for p in out.rglob("*.pdf")}

    code, warm, printed = build_imports(out)
    assert code == 0
    assert "Nothing changed" in printed
    assert {p: p.read_bytes() for p in out.rglob("*.pdf")} == before
    assert not warm & set(RENDERING), sorted(warm & set(RENDERING))


RULE_ENGINE = ("card_data.engine.core", "card_data.engine.forms", "card_data.engine.scoreboard")
DECLARED_GAMES = ("card_data.declared.declared_game", "card_data.declared.field_declarations",
                  "card_data.declared.scoring_declarations")


def test_printing_cards_imports_no_rule_engine(tmp_path):
    # A game's package names its rulebook with the engine's Words; that must not bring in the
    # scorekeeper's engine core (about 50 ms before anything is drawn) when only cards print.
    # Nor does a database without a declared game import what declares one.
    done = subprocess.run([sys.executable, "-c", PROBE, "build", "carpe_cras", "--data", str(bundled_data_dir()),
                           "--out", str(tmp_path / "out"), "--cards-only", "--jobs", "1"],
                          capture_output=True, text=True, timeout=300)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0, done.stderr
    modules = set(report["modules"])
    assert {"card_data.games.carpe_cras", "card_data.engine.wording"} <= modules
    assert list((tmp_path / "out" / "carpe_cras").glob("*.pdf"))
    assert not modules & set(RULE_ENGINE), sorted(modules & set(RULE_ENGINE))
    assert not modules & set(DECLARED_GAMES), sorted(modules & set(DECLARED_GAMES))
