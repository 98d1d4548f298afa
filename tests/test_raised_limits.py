"""Every limit a designer may outgrow is raised in one place, ``[printkit.limits]`` of the
project's ``printkit.toml`` (issue 18 part 3): what the defaults refuse, a raised limit takes,
in ``printkit validate``, the preview and the build's worker processes alike; every refusal
names the key that raises it, and a bad value is one error at printkit.toml's line.
(``file_mb`` and ``game_mb``: tests/test_card_data_limits.py.) No test measures time.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from database_edits import copy_game, edit
from PIL import Image as PILImage

import printkit.pipeline.workers as build_workers
from card_data.project.limit_keys import LIMIT_KEYS
from card_data.project.limits import DEFAULT_LIMITS, Limits
from printkit.build_options import BuildOptions
from printkit.pipeline.build import build
from printkit.cli import main
from printkit.designer.loop.preview import render_previews
from printkit.designer.loop.project import project_paths
from printkit.sheets.templating.layout import LAYOUTS_DIR
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.templating.template_limits import MAX_TEMPLATE_WORK

BASE_URL = "http://192.168.1.20:5000"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`printkit init mygame`, the current folder: the starter game's one example card (its `card`
    template), and the project's printkit.toml."""
    folder = tmp_path / "mygame"
    result = CliRunner().invoke(main, ["init", str(folder)])
    assert result.exit_code == 0, result.output
    monkeypatch.chdir(folder)
    return folder


def set_limits(project: Path, **limits: object) -> Path:
    """The project's printkit.toml as `printkit init` wrote it, with ``limits`` (TOML values as
    written) under [printkit.limits]; its resolved path, as messages name it."""
    config = project / "printkit.toml"
    text = config.read_text(encoding="utf-8").split("[printkit.limits]")[0]
    if limits:
        text += "[printkit.limits]\n" + "".join(f"{key} = {value}\n" for key, value in limits.items())
    config.write_text(text, encoding="utf-8")
    return config.resolve()


def validate() -> tuple[int, list[str]]:
    """``printkit validate`` in the project: its exit status and the lines it printed, less
    warnings; it must not have crashed."""
    result = CliRunner().invoke(main, ["validate"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, [line for line in result.output.splitlines() if not line.startswith("warning: ")]


def hint(key: str, config: Path) -> str:
    spec = LIMIT_KEYS[key]
    return f"raise the limit: {key} under [printkit.limits] in {config} (up to {spec.most:,} {spec.unit})"


# ---- templates ----------------------------------------------------------------------------------

LONG_TITLE = "{% for i in range(15000) %}          {% endfor %}{{ title }}"
"""A title whose output is 150,000 spaces and the card's title: over the default of 100,000
characters a render may output, made in small parts (no one value is long)."""


def test_a_template_output_the_default_refuses_is_taken_with_template_characters_raised(project: Path):
    template = project / "card_data/my_game/templates/card.yaml"
    edit(template, 'text: "{{ title }}"', f"text: {LONG_TITLE!r}")
    region_line = template.read_text().splitlines().index("  - name: title") + 1
    config = set_limits(project)
    status, found = validate()
    assert status == 1
    assert found == [f"card_data/my_game/cards/cards.yaml:3: my_game/first-card: layout:title: template error: "
                     f"not allowed in a template: output longer than 100000 characters; "
                     f"{hint('template_characters', config)} (template card_data/my_game/templates/card.yaml:{region_line})",
                     "1 problem found."]

    set_limits(project, template_characters="200_000")
    status, found = validate()
    assert status == 0, found

    # One value of 150,000 characters is bounded by the same key.
    edit(template, f"text: {LONG_TITLE!r}", 'text: "{{ title.ljust(150000)|trim }}"')
    assert validate()[0] == 0
    config = set_limits(project)
    status, found = validate()
    assert status == 1 and f"a value of more than 100000 characters; {hint('template_characters', config)}" in \
        found[0], found


def test_the_preview_honours_the_projects_limits(project: Path):
    edit(project / "card_data/my_game/templates/card.yaml", 'text: "{{ title }}"', f"text: {LONG_TITLE!r}")
    config = set_limits(project)
    previews, problems = render_previews(project_paths(), BASE_URL)
    assert not previews and len(problems) == 1
    assert "output longer than 100000 characters" in problems[0].message
    assert hint("template_characters", config) in problems[0].message

    set_limits(project, template_characters=200_000)  # read again: the preview runs on while it is edited
    previews, problems = render_previews(project_paths(), BASE_URL)
    assert problems == [] and list(previews) == ["my_game"]


def test_template_seconds_is_what_stops_a_render_and_its_message_names_it(project: Path):
    """Lowered to half a second, the configured value is what a render is stopped at (a loop of
    10**10 steps never ends by itself)."""
    template = project / "card_data/my_game/templates/card.yaml"
    loop = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    edit(template, 'text: "{{ title }}"', f"text: {loop!r}")
    config = set_limits(project, template_seconds=0.5)
    status, found = validate()
    assert status == 1
    assert (f"not allowed in a template: rendering took longer than 0.5 seconds; {hint('template_seconds', config)} "
            f"(template card_data/my_game/templates/card.yaml:") in found[0], found


def test_the_builds_worker_processes_take_the_raised_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Workers started by ``spawn`` inherit nothing from the build's process: the limits reach
    them with each deck, or the raised limit would not hold there."""
    data, templates = tmp_path / "data", tmp_path / "templates"
    copy_game(data, "carpe_cras")
    shutil.copytree(LAYOUTS_DIR, templates)
    for back in ("back-draw", "back-agency"):  # drawn in every deck's task
        edit(data / "carpe_cras" / "templates" / f"{back}.yaml", "{name: field, kind: box,",
             "{name: field, kind: box, when: \"(' ' * 150000)|length\",")
    pools = []

    def spawn():
        pools.append("spawn")
        return multiprocessing.get_context("spawn")

    monkeypatch.setattr(build_workers, "_pool_context", spawn)
    monkeypatch.setattr(build_workers, "PARALLEL_MIN_CARDS", 0)  # the bundled decks are small
    monkeypatch.chdir(tmp_path)
    options = BuildOptions(paper_by_name("letter"), BASE_URL)

    result = build(data, tmp_path / "out", options, ["carpe_cras"], layouts_dir=templates, jobs=2)
    assert result.problems and all("template_characters under [printkit.limits]" in p.message
                                   for p in result.problems), result.problems
    assert not (tmp_path / "out" / "carpe_cras").exists()

    (tmp_path / "printkit.toml").write_text("[printkit.limits]\ntemplate_characters = 200000\n", encoding="utf-8")
    result = build(data, tmp_path / "out", options, ["carpe_cras"], layouts_dir=templates, jobs=2)
    assert result.problems == []
    assert pools == ["spawn", "spawn"]  # both builds drew their decks in worker processes
    assert (tmp_path / "out" / "carpe_cras" / "might-cunning-draw-cards.pdf").is_file()


# ---- artwork ------------------------------------------------------------------------------------

def one_bit_png(path: Path, w_px: int, h_px: int) -> Path:
    """A white 1-bit PNG of ``w_px`` x ``h_px``, written row by row: 70 megapixels in a few kB
    (decoded, a byte a pixel)."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    packer, row = zlib.compressobj(9), b"\0" + b"\xff" * ((w_px + 7) // 8)
    idat = b"".join(packer.compress(row) for _ in range(h_px)) + packer.flush()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w_px, h_px, 1, 0, 0, 0, 0))
                     + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
    return path


def test_art_the_defaults_refuse_is_taken_with_art_megapixels_and_art_dpi_raised(project: Path):
    """70 megapixels filling the card to its bleed (69.5 x 94.9 mm): over the 64 megapixels
    read anywhere, then over the 14.7 megapixels that box takes at 1200 dpi (it is 2617 dpi)."""
    template = project / "card_data/my_game/templates/card.yaml"
    edit(template, "    x_mm: 3\n    y_mm: 15\n    w_mm: 57.5\n    h_mm: 34\n    src:",
         "    x_mm: -3\n    y_mm: -3\n    w_mm: 69.5\n    h_mm: 94.9\n    src:")
    art = one_bit_png(project / "card_data/my_game/art/poster.png", 7160, 9777)
    with PILImage.open(art) as im:
        assert im.size == (7160, 9777) and im.mode == "1"
    cards = project / "card_data/my_game/cards/cards.yaml"
    edit(cards, "  title: First Card\n", "  title: First Card\n  art: art/poster.png\n")
    where = "card_data/my_game/cards/cards.yaml:6: my_game/first-card: art: "

    config = set_limits(project)
    status, found = validate()
    assert status == 1
    assert found[0].startswith(where + "poster.png is 7160 x 9777 px (70.0 megapixels), more than the 64 "
                                       f"megapixels printkit reads: scale it down, or {hint('art_megapixels', config)}"
                               ), found

    set_limits(project, art_megapixels=80)
    status, found = validate()
    assert status == 1
    assert found[0].startswith(where + "art/poster.png is 7160 x 9777 px (70.0 megapixels), far more than 69.5 "
                                       "x 94.9 mm can print: printkit takes at most 14.7 megapixels there (1200 "
                                       "dpi"), found
    assert f"scale it down, or {hint('art_dpi', config)}" in found[0]

    set_limits(project, art_megapixels=80, art_dpi=2700)
    status, found = validate()
    assert status == 0, found

    # Lowered again, the same file (its header read before) is refused again.
    set_limits(project)
    assert validate()[0] == 1


# ---- the keys themselves ------------------------------------------------------------------------

@pytest.mark.parametrize("key,value,says", [
    ("art_megapixels", "-5", "must be a number of megapixels above 0, got -5"),
    ("art_megapixels", "500", "may be at most 89 megapixels (Pillow takes a larger image for a decompression bomb"),
    ("art_dpi", '"high"', "must be a number of dpi above 0, got 'high'"),
    ("art_dpi", "1e9", "may be at most 4,800 dpi"),
    ("template_seconds", "61", "may be at most 60 seconds"),
    ("template_seconds", "true", "must be a number of seconds above 0, got True"),
    ("template_seconds", "inf", "must be a number of seconds above 0, got inf"),
    ("template_characters", "150000.5", "must be a whole number of characters above 0, got 150000.5"),
    ("template_characters", "10_000_000", "may be at most 1,000,000 characters"),
    ("file_mb", "1e12", "may be at most 1,000 megabytes"),
    ("game_mb", "0", "must be a number of megabytes above 0, got 0"),
])
def test_a_bad_limit_is_reported_at_its_line_in_printkit_toml(project: Path, key: str, value: str, says: str):
    good = {"template_seconds": 5} if key != "template_seconds" else {"art_dpi": 2400}
    config = set_limits(project, **good, **{key: value})  # after a good key: on its own line
    line = config.read_text(encoding="utf-8").splitlines().index(f"{key} = {value}") + 1
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"{config}:{line}: printkit.limits.{key} {says}" in result.output, result.output


def test_every_limit_may_be_raised_to_its_ceiling(project: Path):
    set_limits(project, **{key: f"{spec.most:_}" for key, spec in LIMIT_KEYS.items()})
    assert validate() == (0, ["OK: 1 games, 1 cards, 0 deck lists."])


def test_every_key_is_a_limit_with_its_default_and_its_ceiling_a_real_bound():
    fields = {f.name: f.default for f in dataclasses.fields(Limits) if f.name != "source"}
    assert fields == {key: spec.default for key, spec in LIMIT_KEYS.items()}
    for spec in LIMIT_KEYS.values():
        assert 0 < spec.default < spec.most and spec.why_most
    # The highest art_megapixels is under Pillow's own bomb limit, the highest
    # template_characters well within what one render may make in all.
    assert LIMIT_KEYS["art_megapixels"].most * 1e6 <= PILImage.MAX_IMAGE_PIXELS
    assert LIMIT_KEYS["template_characters"].most * 10 <= MAX_TEMPLATE_WORK
    assert DEFAULT_LIMITS.art_pixels == 64_000_000
