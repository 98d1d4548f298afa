"""No command writes its output over, into or around the sources, and a build never deletes a
file it did not write.

Every command that writes an output folder (`printkit build`, `export`, `tts`, `calibration`,
`companion site`) refuses an --out that is, holds or lies inside the card data, the templates
or a project folder (but for the project's output/), before writing anything; and a rebuild
removes only what an earlier build wrote (its game folder's record), keeping anything else a
designer put there; `export`, `tts`, `calibration` and `companion site` change no file they did
not write."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import main as companion_cli
from printkit.cli import main as printkit_cli

BASE_URL = "http://192.168.1.20:5000"
PRINTKIT = str(Path(sys.executable).with_name("printkit"))
"""The installed command (``python -m printkit.cli`` run in a project folder would put the
folder first on the import path, where its card_data/ is no Python package)."""

# (--out as typed in the project folder, the source folder the refusal names: relative to the
# project folder; "" is the project folder itself).
BAD_OUTS = [
    ("card_data", "card_data"),                  # the card data folder
    ("card_data/my_game", "card_data"),          # a game folder inside it
    ("templates", "templates"),                  # the templates folder
    (".", ""),                                   # the project folder
    ("..", ""),                                  # a folder holding the project
    ("docs", ""),                                # a folder of the project, not its output/
    ("output/../card_data", "card_data"),        # .. is resolved
    ("../data-link", "card_data"),               # so are symbolic links (to card_data, from outside)
]


def tree(folder: Path, skip: Path | None = None) -> dict[str, str]:
    """Every folder, file and symbolic link below ``folder`` (but ``skip`` and what is below
    it): ``{relative path: SHA-256 of a file, "dir", or "-> target" of a link}``."""
    found = {}
    for root, dirs, files in os.walk(folder):
        here = Path(root)
        dirs[:] = [d for d in dirs if here / d != skip]
        for name in dirs + files:
            path = here / name
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                found[rel] = f"-> {os.readlink(path)}"
            elif path.is_dir():
                found[rel] = "dir"
            else:
                found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _init(folder: Path, *args: str) -> Path:
    result = CliRunner().invoke(printkit_cli, ["init", str(folder), *args])
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`printkit init mygame` (the starter game, my_game), with a docs/ folder of the
    designer's and a link beside the project to its card data; the current folder inside it."""
    folder = _init(tmp_path / "mygame")
    (folder / "docs").mkdir()
    (folder / "docs" / "rules.md").write_text("# My Game\n", encoding="utf-8")
    (tmp_path / "data-link").symlink_to(folder / "card_data", target_is_directory=True)
    monkeypatch.chdir(folder)
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    return folder


def _assert_refused(output: str, out: str, source: Path) -> None:
    """One line naming the --out as typed and the source folder it meets (resolved)."""
    lines = [line for line in output.splitlines() if line.strip() and not line.startswith("warning:")]
    assert len(lines) == 1, output
    assert f"--out {out} " in lines[0] and f" {source.resolve()}" in lines[0], lines[0]
    assert "Traceback" not in output


@pytest.mark.parametrize(("out", "source"), BAD_OUTS)
def test_build_refuses_an_out_among_the_sources_and_touches_nothing(project: Path, out: str, source: str) -> None:
    parent = project.parent
    before = tree(parent, skip=project / "output")
    done = subprocess.run([PRINTKIT, "build", "--out", out, "--base-url", BASE_URL],
                          capture_output=True, text=True, timeout=120, cwd=project)
    assert done.returncode == 1, done.stderr
    _assert_refused(done.stderr, out, project / source)
    assert done.stdout == ""
    # Every file of the project (and beside it) is as it was; nothing was added, not even a folder.
    assert tree(parent, skip=project / "output") == before
    assert not (project / "output").exists()


def test_build_watch_is_refused_before_it_starts_watching(project: Path) -> None:
    before = tree(project.parent, skip=project / "output")
    done = subprocess.run([PRINTKIT, "build", "--watch", "--out", "card_data", "--base-url", BASE_URL],
                          capture_output=True, text=True, timeout=120, cwd=project)  # a guard against a hang
    assert done.returncode == 1, done.stderr
    _assert_refused(done.stderr, "card_data", project / "card_data")
    assert tree(project.parent, skip=project / "output") == before


COMMANDS = {
    "export": (printkit_cli, ["export"]),
    "tts": (printkit_cli, ["tts", "--dpi", "50"]),
    "calibration": (printkit_cli, ["calibration"]),
    "companion site": (companion_cli, ["site"]),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("out", "source"), BAD_OUTS)
def test_every_command_writing_a_folder_refuses_it_among_the_sources(project: Path, command: str, out: str,
                                                                     source: str) -> None:
    cli, args = COMMANDS[command]
    parent = project.parent
    before = tree(parent, skip=project / "output")
    result = CliRunner().invoke(cli, [*args, "--out", out, "--base-url", BASE_URL] if command != "calibration"
                                else [*args, "--out", out])
    assert result.exit_code == 1, result.output
    _assert_refused(result.output, out, project / source)
    assert tree(parent, skip=project / "output") == before
    assert not (project / "output").exists()


def test_a_project_whose_own_out_is_among_the_sources_is_refused_naming_its_printkit_toml(project: Path) -> None:
    config = project / "printkit.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('out = "output"', 'out = "templates"'),
                      encoding="utf-8")
    before = tree(project.parent)
    result = CliRunner().invoke(printkit_cli, ["build", "--base-url", BASE_URL])
    assert result.exit_code == 1
    assert f"the output folder templates is the templates folder {(project / 'templates').resolve()}" in result.output
    assert f"change out in {config.resolve()}" in result.output
    assert tree(project.parent) == before


def test_even_a_build_into_the_sources_removes_no_file_it_did_not_write(project: Path) -> None:
    """The library below the commands' check: a build told to write into the card data and the
    templates folders (the game folders hold game.yaml, card.yaml...) adds its files and
    deletes none of the designer's."""
    from printkit.build_options import BuildOptions
    from printkit.pipeline.build import build
    from printkit.sheets.prepress.paper import paper_by_name

    before = tree(project)
    options = BuildOptions(paper=paper_by_name("letter"), base_url=BASE_URL)
    for out in (project / "card_data", project / "templates"):
        result = build(project / "card_data", out, options, ["my_game"], layouts_dir=project / "templates")
        assert not result.problems and result.written
    after = tree(project)
    assert {rel: sha for rel, sha in after.items() if rel in before} == before


def _build(project: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([PRINTKIT, "build", "--base-url", BASE_URL, *args],
                          capture_output=True, text=True, timeout=300, cwd=project)
    assert done.returncode == 0, done.stderr
    return done


def test_a_rebuild_removes_what_the_last_build_wrote_and_keeps_the_designers_files(tmp_path: Path) -> None:
    project = _init(tmp_path / "diem", "--from", "carpe_diem")
    game = project / "output" / "carpe_diem"
    # 6 cards a sheet: scoring cards on 3 sheets, each with its SVG cut file.
    _build(project, "--safe-margins")
    assert (game / "scoring-cards-sheet-3.svg").is_file()
    mine = {"notes.txt": b"print on the 300 g card stock\n",
            "scoring-cards-sheet-9.svg": b"<svg>my own cut file, named like the build's</svg>\n",
            "photos/table.jpg": b"\xff\xd8not really a photo"}
    for rel, data in mine.items():
        (game / rel).parent.mkdir(parents=True, exist_ok=True)
        (game / rel).write_bytes(data)
    sources = tree(project, skip=project / "output")

    # The default (the project's output/), 9 cards a sheet: 2 sheets; the third's cut file goes.
    _build(project)
    assert not (game / "scoring-cards-sheet-3.svg").exists()
    assert (game / "scoring-cards-sheet-2.svg").is_file() and (game / "scoring-cards.pdf").is_file()
    assert {rel: (game / rel).read_bytes() for rel in mine} == mine
    # --out output is the same folder: up to date, the designer's files still there.
    again = _build(project, "--out", "output")
    assert "Nothing changed" in again.stderr
    assert {rel: (game / rel).read_bytes() for rel in mine} == mine
    assert tree(project, skip=project / "output") == sources


def test_export_tts_calibration_and_site_change_no_file_they_did_not_write(project: Path) -> None:
    """Run twice into the project's output folder, beside a designer's files (some in the very
    folders they write to), each command writes its own named files and removes or changes no
    other; a file put into the companion's site folder survives the next export."""
    out = project / "output"
    mine = {"notes.txt": b"print on the 300 g card stock\n", "my_game/notes.txt": b"my notes\n",
            "my_game/cards/mine-front.png": b"my own card front", "tts/my_game/mine.json": b"{}\n"}
    for rel, data in mine.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    before = tree(project)
    runs = [(printkit_cli, ["calibration"]),
            (printkit_cli, ["export", "--format", "pdf", "--card", "first-card", "--base-url", BASE_URL]),
            (printkit_cli, ["tts", "--dpi", "50", "--base-url", BASE_URL]),
            (companion_cli, ["site", "--out", "output/site", "--base-url", BASE_URL])]
    for run in (1, 2):
        for cli, args in runs:
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 0, (args, result.output)
        if run == 1:
            (out / "site" / "CNAME").write_bytes(b"cards.example.org\n")
    after = tree(project)
    assert {rel: after.get(rel) for rel in before} == before
    assert (out / "site" / "CNAME").read_bytes() == b"cards.example.org\n"
    assert (out / "calibration.pdf").is_file() and (out / "my_game/cards/first-card-front.pdf").is_file()
    assert (out / "tts/my_game/draw-1.png").is_file() and (out / "site/index.html").is_file()
