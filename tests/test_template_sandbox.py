"""Layout templates run in Jinja2's sandbox: shared data cannot reach Python, and anything a
template expression raises is a problem at the card's FILE:LINE naming its region."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from database_edits import copy_game, edit

from printkit.build_options import BuildOptions

from printkit.pipeline.build import build
from printkit.pipeline.workers import _pool_context
from printkit.cli import main
from printkit.sheets.templating.layout import LAYOUTS_DIR, LayoutError, load_layout, prepare_face
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.templating.sheet_templates import evaluate, expand

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
    # Sizes told beforehand are refused before anything is computed.
    ("{{ 9 ** 64 }}", "a number of more than 128 bits"),
    ("{{ 2 ** 60 * 2 ** 60 * 2 ** 60 }}", "a number of more than 128 bits"),
    ("{{ 'x'.ljust(2500000000) }}", "a value of more than 100000 characters"),
    ("{{ ('x' * 50000).zfill(2500000000) }}", "a value of more than 100000 characters"),
    ("{{ ('\t' * 50000).expandtabs(100000) }}", "a value of more than 100000 characters"),
    ("{{ ('x' * 50000)|indent(100000) }}", "a value of more than 100000 characters"),
    ("{{ ('x' * 50000)|replace('', 'yyyyyy') }}", "a value of more than 100000 characters"),
    ("{{ ('x' * 50000)|wordwrap(1, wrapstring='y' * 1000) }}", "a value of more than 10000000 characters"),
    ("{{ '%*d' % (2500000000, 1) }}", "a width or precision of more than 100000"),
    ("{{ '%((k))2500000000s' % {'(k)': 1} }}", "a width or precision of more than 100000"),
    ("{{ '%2500000000d'.encode() % 1 }}", "a width or precision of more than 100000"),
    ("{{ '{:>{w}}'.format(title, w=2500000000) }}", "a width or precision of more than 100000"),
    ("{{ '{:.2500000000f}'.format(1.5) }}", "a width or precision of more than 100000"),
    ("{{ [1]|batch(2500000000, 0)|list }}", "a value of more than 100000 items"),
    ("{{ lipsum(2500000000) }}", "a value of more than 100000 characters"),
    # One long string many times in a list prints as all of them.
    ("{{ ['x' * 100000] * 100000 }}", "a value of more than 100000 characters"),
    ("{{ (['x' * 100000] * 100000)|join }}", "a value of more than 100000 characters"),
    ("{{ '-'.join(['x' * 100000] * 100000) }}", "a value of more than 100000 characters"),
    ("{{ (['x' * 100000] * 100000)|string }}", "a value of more than 100000 characters"),
    ("{{ '%s' % ([['x' * 100000] * 100000],) }}", "a value of more than 100000 characters"),
    ("{{ '{!r}'.format(['x' * 100000] * 100000) }}", "a value of more than 100000 characters"),
    ("{{ (['x' * 100000] * 100000)|map('upper')|list|length }}", "more than 10000000 characters"),
    # Doubling a text in a loop, by ~, +, or a {% set %} block.
    ("{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
     "a value of more than 100000 characters"),
    ("{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
     "a value of more than 100000 characters"),
    ("{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set t %}{{ ns.s }}{{ ns.s }}{% endset %}"
     "{% set ns.s = t %}{% endfor %}", "a value of more than 100000 characters"),
    ("{{ 5|round(-2500000000) }}", "rounding to more than 100 digits"),  # would compute 10 ** 2500000000
    ("{{ ('\u0100' * 90000).encode('punycode') }}", "the 'punycode' codec"),  # quadratic, in Python
    ("{{ [1, 2].append(3) }}", "unsafe"),  # lists and dicts cannot change (no list.extend doubling)
])
def test_any_template_error_is_a_problem_not_a_traceback(tmp_path, source, says):
    start = time.process_time()
    with pytest.raises(LayoutError) as err:
        lay_out(text_template(tmp_path, source), {"title": "Sword"})
    assert err.value.field == "layout:rules" and err.value.line == 2
    assert says in err.value.message
    assert time.process_time() - start < 5  # bounded, not a hang (a generous guard, not a timing test)


def test_division_by_zero_in_a_bundled_template_names_the_card_and_region(tmp_path):
    game = copy_game(tmp_path / "data", "cartisora")
    number = game / "templates" / "number.yaml"
    edit(number, 'text: "{{ title }}"', 'text: "{{ title }}{{ 1/0 }}"')
    region_line = number.read_text().splitlines().index("  - name: title") + 1
    result = build(tmp_path / "data", None, OPTIONS, ["cartisora"], layouts_dir=LAYOUTS_DIR)
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


def test_ordinary_template_code_renders_as_before(tmp_path):
    source = ("{{ 2 ** 64 }} {{ '%05.1f'|format(3.14159) }} {{ '{:>6}|{:<3}'.format('ab', 1) }} "
              "{{ [1, 2, 3]|join(',') }} {{ title ~ '!' ~ 2 }} {{ 'a-b'|replace('-', ' ') }} {{ [1, 2]|sum }} "
              "{{ 'ab' * 3 }} {% for x in [[1, [2]], [3]] recursive %}{% if x is iterable %}{{ loop(x) }}"
              "{% else %}{{ x }}{% endif %}{% endfor %} {% for c in 'xyz' %}{{ loop.index }}/{{ loop.length }}"
              "{% endfor %}")
    assert expand(source, {"title": "Sword"}, tmp_path / "board.yaml", 3, "title") == (
        "18446744073709551616 003.1     ab|1   1,2,3 Sword!2 a b 3 ababab 123 1/32/33/3")


LOOP = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"


def _layout_error(path: Path) -> str:
    try:
        lay_out(path)
    except LayoutError as exc:
        return str(exc)
    return "no error"


def test_a_slow_template_is_stopped_in_a_worker_process_and_in_a_thread(tmp_path):
    path = text_template(tmp_path, LOOP)
    want = f"{path}:2: layout:rules: template error: not allowed in a template: rendering took longer than 3 seconds"
    how = "; raise the limit: template_seconds under [printkit.limits] in printkit.toml (up to 60 seconds)"
    with ProcessPoolExecutor(1, mp_context=_pool_context()) as workers:  # as the build's workers
        assert workers.submit(_layout_error, path).result(timeout=120) == want + how
    with ThreadPoolExecutor(1) as threads:  # no signals: the preview renders in a watcher thread
        assert threads.submit(_layout_error, path).result(timeout=120) == want + how
        # The same template for the next card is not run again for another 3 seconds.
        assert threads.submit(_layout_error, path).result(timeout=120) == \
            f"{want} for an earlier card; not tried again{how}"


# ---- bombs in a designer's project, through the printkit command --------------------------------

BOMBS = {
    "nested power": ("{{ (((((9**64)**64)**64)**64)**64) % 7 }}", "a number of more than 128 bits", None),
    "center": ("{{ 'x'|center(2500000000) }}", "a value of more than 100000 characters", "template_characters"),
    "%-format": ("{{ '%0999999999d' % 1 }}", "a width or precision of more than 100000", "template_characters"),
    "format filter": ("{{ '%*s'|format(999999999, title) }}", "a width or precision of more than 100000",
                      "template_characters"),
    "str.format": ("{{ '{:>999999999}'.format(title) }}", "a width or precision of more than 100000",
                   "template_characters"),
    "long loop": (LOOP, "rendering took longer than 3 seconds", "template_seconds"),
}
"""Each bomb: its source, what it is refused for, the key of [printkit.limits] that would raise
that limit (``None``: fixed)."""
UNITS = {"template_characters": "1,000,000 characters", "template_seconds": "60 seconds"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """`printkit init mygame`: the starter game's one example card, its `card` template."""
    folder = tmp_path / "mygame"
    result = CliRunner().invoke(main, ["init", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def _printkit(project: Path, *args: str) -> subprocess.CompletedProcess:
    printkit = Path(sys.executable).with_name("printkit")
    return subprocess.run([str(printkit), *args], cwd=project, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PRINTKIT_BASE_URL": "http://192.168.1.20:5000"})


@pytest.mark.parametrize("bomb", BOMBS)
def test_a_template_bomb_is_a_problem_at_the_templates_line_from_validate_and_build(project: Path, bomb: str):
    source, says, key = BOMBS[bomb]
    if key is not None:  # the project's printkit.toml, in which to raise it
        says += (f"; raise the limit: {key} under [printkit.limits] in {(project / 'printkit.toml').resolve()} "
                 f"(up to {UNITS[key]})")
    template = project / "card_data/my_game/templates/card.yaml"
    edit(template, 'text: "{{ title }}"', f"text: {source!r}")
    region_line = template.read_text().splitlines().index("  - name: title") + 1
    cards = project / "card_data/my_game/cards/cards.yaml"
    card_line = cards.read_text().splitlines().index("- id: first-card") + 1
    want = (f"card_data/my_game/cards/cards.yaml:{card_line}: my_game/first-card: layout:title: template "
            f"error: not allowed in a template: {says} (template card_data/my_game/templates/card.yaml:{region_line})")
    for command in ("validate", "build"):
        run = _printkit(project, command)
        assert run.returncode == 1, run.stderr
        assert want in run.stderr.splitlines(), run.stderr
        assert "Traceback" not in run.stderr and "Error:" not in run.stderr
    assert "Nothing was written." in run.stderr
    assert not list(project.glob("output/**/*.pdf"))


def test_a_faces_templates_share_the_card_variables_but_not_what_one_of_them_sets(tmp_path):
    path = tmp_path / "card.yaml"
    path.write_text(
        "regions:\n"
        "  - {name: a, kind: text, x_mm: 4, y_mm: 4, w_mm: 50, h_mm: 8, text: \"{% set title = 'Set' %}"
        "{{ title }} {{ range(3) | list | length }} {{ _('EXAMPLE') }} {{ cycler }}\"}\n"
        "  - {name: b, kind: text, x_mm: 4, y_mm: 14, w_mm: 50, h_mm: 8, text: '{{ title }}', when: 'title'}\n",
        encoding="utf-8")
    context = {"title": "Mine", "cycler": "a card field named like a global", "layout_words": {"EXAMPLE": "BEISPIEL"}}
    face = lay_out(path, context)
    texts = [item.paragraphs[0][0].plain_text() for item in face.items]
    assert texts == ["Set 3 BEISPIEL a card field named like a global", "Mine"]
    assert context == {"title": "Mine", "cycler": "a card field named like a global",
                       "layout_words": {"EXAMPLE": "BEISPIEL"}}


def test_a_template_text_without_jinja_is_run_once_and_still_bounded(monkeypatch):
    import dataclasses

    from card_data.project.limits import DEFAULT_LIMITS, limits_in_force
    from printkit.sheets.templating import template_sandbox
    from printkit.sheets.templating.layout import _JINJA
    from printkit.sheets.templating.template_sandbox import TemplateLimitError, render_bounded

    text = "Rules summary · not part of any deck\n"
    template = _JINJA.from_string(text)
    assert render_bounded(template, {}) == text.rstrip("\n")  # as Jinja2 renders it (trailing newline dropped)
    monkeypatch.setattr(template_sandbox, "_generate", lambda *a: pytest.fail("a constant text was run again"))
    monkeypatch.setattr(template, "root_render_func", lambda *a: pytest.fail("a constant text was run again"))
    assert render_bounded(template, {"title": "x"}) == text.rstrip("\n")
    with limits_in_force(dataclasses.replace(DEFAULT_LIMITS, template_characters=10)):
        with pytest.raises(TemplateLimitError):
            render_bounded(template, {})
