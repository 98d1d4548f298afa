"""Layout templates run in Jinja2's sandbox: shared data cannot reach Python, and anything a
template expression raises is a problem at the card's FILE:LINE naming its region."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from database_edits import copy_game, edit

from printkit.build import BuildOptions, build
from printkit.sheets.layout import LAYOUTS_DIR, LayoutError, load_layout, prepare_face
from printkit.sheets.paper import paper_by_name
from printkit.sheets.sheet_templates import evaluate, expand

OPTIONS = BuildOptions(paper=paper_by_name("letter"), base_url="http://192.168.1.20:5000")


def text_template(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "card.yaml"
    path.write_text("regions:\n  - name: rules\n    kind: text\n    x_mm: 4\n    y_mm: 4\n    w_mm: 50\n"
                    f"    h_mm: 30\n    text: {text!r}\n", encoding="utf-8")
    return path


def lay_out(path: Path, context: dict | None = None):
    return prepare_face(load_layout(path, 63.5, 88.9, 3.0), context or {}, None, None)


def test_the_cycler_escape_is_refused_and_does_not_run(tmp_path):
    marker = tmp_path / "escaped"
    path = text_template(tmp_path, f"{{{{ cycler.__init__.__globals__.os.mkdir('{marker}') }}}}")
    with pytest.raises(LayoutError) as err:
        lay_out(path)
    assert not marker.exists()
    assert str(err.value).startswith(f"{path}:2: layout:rules: template error: ")
    assert "__init__" in err.value.message or "unsafe" in err.value.message


@pytest.mark.parametrize("source,says", [
    ("{{ 1/0 }}", "ZeroDivisionError: division by zero"),
    ("{{ title.nope }}", "has no attribute 'nope'"),
    ("{{ ''.__class__.__mro__ }}", "__class__"),
    ("{{ [1] * 10**8 }}", "not allowed in a template"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}xx{% endfor %}{% endfor %}",
     "output longer than"),
])
def test_any_template_error_is_a_problem_not_a_traceback(tmp_path, source, says):
    start = time.process_time()
    with pytest.raises(LayoutError) as err:
        lay_out(text_template(tmp_path, source), {"title": "Sword"})
    assert err.value.field == "layout:rules" and err.value.line == 2
    assert says in err.value.message
    assert time.process_time() - start < 5  # bounded, not a hang (a generous guard, not a timing test)


def test_division_by_zero_in_a_bundled_template_names_the_card_and_region(tmp_path):
    copy_game(tmp_path / "data", "cartisora")
    templates = tmp_path / "templates"
    shutil.copytree(LAYOUTS_DIR / "cartisora", templates / "cartisora")
    number = templates / "cartisora" / "number.yaml"
    edit(number, 'text: "{{ title }}"', 'text: "{{ title }}{{ 1/0 }}"')
    region_line = number.read_text().splitlines().index("  - name: title") + 1
    result = build(tmp_path / "data", None, OPTIONS, ["cartisora"], layouts_dir=templates)
    cards = tmp_path / "data" / "cartisora" / "cards" / "knight.yaml"
    line = cards.read_text().splitlines().index("- id: knight-2") + 1
    knight_2 = [str(p) for p in result.problems if p.card_id == "knight-2"]
    assert knight_2 == [(f"{cards}:{line}: cartisora/knight-2: layout:title: template error: ZeroDivisionError: "
                         f"division by zero (template {number}:{region_line})")]


def test_board_and_reference_templates_are_sandboxed_too(tmp_path):
    with pytest.raises(LayoutError, match="template error"):
        expand("{{ cycler.__init__.__globals__.os.getpid() }}", {}, tmp_path / "board.yaml", 3, "title")
    with pytest.raises(LayoutError, match="ZeroDivisionError"):
        evaluate("1/0", {}, tmp_path / "board.yaml", 3, "title")
