"""The README's "other files of a game folder" are true: each example, written into a starter
project as the README shows it, validates and builds, and what it says shows up (the glossary
term on the companion's game page, the reference card in the PDF, the kit's note on
print-this.pdf)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from card_data.loader import bundled_data_dir
from printkit.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"
CARDS = ["parry", "brutal-strike", "first-player", "promo-dragon"]


def readme_files() -> dict[str, str]:
    """The YAML of each file the README's example shows, by file name (``# glossary.yaml: ...``)."""
    text = README.read_text(encoding="utf-8")
    block = re.search(r"\*\*The other files of a game folder\*\*.*?```yaml\n(.*?)```", text, re.S)[1]
    files: dict[str, str] = {}
    name = None
    for line in block.splitlines(keepends=True):
        header = re.match(r"# ([a-z]+\.yaml):", line)
        if header:
            name = header[1]
            files[name] = ""
        elif name is not None:
            files[name] += line
    return files


def pdf_text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "mygame"
    assert CliRunner().invoke(main, ["init", str(folder)]).exit_code == 0
    monkeypatch.chdir(folder)
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    game = folder / "card_data/my_game"
    with (game / "cards/cards.yaml").open("a", encoding="utf-8") as cards:
        for card_id in CARDS:
            cards.write(f"- id: {card_id}\n  type: card\n  title: {card_id.title()}\n  cost: 1\n  ability: Draw.\n")
    (game / "decks").mkdir(exist_ok=True)
    for deck in ("scoring-2p", "scoring-3p"):
        (game / "decks" / f"{deck}.yaml").write_text(
            f"id: {deck}\ntitle: Scoring {deck[-2:]}\nkind: draw\ncards:\n  - {{card: parry, qty: 2}}\n", encoding="utf-8")
    shutil.copy(bundled_data_dir() / "cartisora/templates/reference-rules.yaml", game / "templates")
    return folder


def test_the_readmes_game_folder_files_validate_build_and_show(project: Path) -> None:
    files = readme_files()
    assert sorted(files) == ["glossary.yaml", "kit.yaml", "reference.yaml", "rulings.yaml"]
    game = project / "card_data/my_game"
    for name, text in files.items():
        (game / name).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["build"])
    assert result.exit_code == 0, result.output
    out = project / "output/my_game"
    reference = pdf_text(out / "reference-cards.pdf")
    assert "Keywords" in reference and "Tie Pool" in reference and "Hand size" in reference
    assert "The starter decks and one score pad page." in pdf_text(out / "print-this.pdf")
    assert "Scoring cards" in pdf_text(out / "print-this.pdf")

    from companion import create_app

    app = create_app({"TESTING": True, "PROJECT_DIR": str(project),
                      "DATABASE_URL": f"sqlite:///{project / 'companion.sqlite'}"})
    client = app.test_client()
    assert "Tie Pool" in client.get("/r/my_game/").get_data(as_text=True)
    for card in ("parry", "brutal-strike"):
        assert "Parry does not stop Brutal Strike." in client.get(f"/r/my_game/{card}").get_data(as_text=True)
    app.extensions["companion.scorekeeping.tables"].store.dispose()
