"""Card files remembered by the digest of their bytes (card_data.reading.parsed_files): an unchanged file
is not parsed again and loads to the very same database; a file with a problem is never
remembered, so its problems are found again at FILE:LINE; a changed file, schema or limit is
parsed afresh; a record that does not read is parsed again, never an error."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

import card_data.reading.parsed_files as parsed_files
from card_data.project.limits import DEFAULT_LIMITS
from card_data.loader import bundled_data_dir, check_database
from database_edits import GAME_CODE

GAME = "carpe_cras"


class Store:
    """A :class:`card_data.reading.parsed_files.ParsedFiles` in memory."""

    def __init__(self, code: str = "code 1"):
        self.values: dict[str, object] = {}
        self.code_digest = code

    def get(self, key):
        return self.values.get(key)

    def put(self, key, value):
        self.values[key] = value

    def code(self, game_id):
        return self.code_digest


@pytest.fixture()
def data(tmp_path) -> Path:
    shutil.copytree(bundled_data_dir() / GAME, tmp_path / "data" / GAME, ignore=GAME_CODE)
    return tmp_path / "data"


@pytest.fixture()
def parsed(monkeypatch) -> list[str]:
    """The names of the card files parsed (YAML read), in order."""
    names: list[str] = []
    real = parsed_files.load_list

    def counting(path, *args, **kwargs):
        names.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(parsed_files, "load_list", counting)
    return names


def card_files(data: Path) -> list[str]:
    return sorted(p.name for p in (data / GAME / "cards").glob("*.yaml"))


def loaded(data: Path, store=None):
    db, problems = check_database(data, DEFAULT_LIMITS, store)
    game = db.games.get(GAME)
    return (list(game.cards.items()) if game else None, game.sources if game else None, problems)


def test_an_unchanged_file_is_not_parsed_again_and_loads_the_same(data, parsed):
    cold = loaded(data)
    store = Store()
    assert loaded(data, store) == cold
    assert parsed == card_files(data) * 2 and len(store.values) == len(card_files(data))
    parsed.clear()
    assert loaded(data, store) == cold  # cards, where each is written, no problems
    assert parsed == []
    # One file edited: only it is parsed, and the result is what a cold load gives.
    path = data / GAME / "cards" / "agency.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("title: Might", "title: Mighty", 1), encoding="utf-8")
    assert loaded(data, store) == loaded(data)
    assert parsed == ["agency.yaml"] + card_files(data)  # this load, then the cold one


def test_a_file_with_a_problem_is_parsed_every_time_and_named_at_its_line(data, parsed):
    path = data / GAME / "cards" / "agency.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    at = lines.index("  title: Might") + 1
    lines[at - 1] = "  title: [not, a, title]"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = Store()
    for _ in range(2):
        parsed.clear()
        _, _, problems = loaded(data, store)
        assert "agency.yaml" in parsed
        assert [(Path(p.file).name, p.line, p.card_id, p.field) for p in problems] == [
            ("agency.yaml", at, "might", "title")]
    assert len(store.values) == len(card_files(data)) - 1  # every file but the broken one


def test_checks_across_files_still_run_on_remembered_files(data, parsed):
    """Two files each valid alone, remembered, then one copied under another name: the
    duplicate ids are reported at their lines although neither file is parsed again."""
    store = Store()
    loaded(data, store)
    shutil.copy(data / GAME / "cards" / "agency.yaml", data / GAME / "cards" / "zz-copy.yaml")
    parsed.clear()
    cold = loaded(data)[2]
    parsed.clear()
    assert loaded(data, store)[2] == cold
    assert parsed == []  # the copy has the same bytes: remembered too
    assert cold and all(p.field == "id" and "duplicate card id" in p.message for p in cold)


def test_another_schema_or_limit_or_an_unreadable_record_parses_again(data, parsed):
    store = Store()
    cold = loaded(data, store)
    for key in store.values:
        store.values[key] = b'[["not what"]]\n{"was": "kept"}'
    parsed.clear()
    assert loaded(data, store) == cold
    assert sorted(parsed) == card_files(data)  # each parsed again, and remembered as it should be
    parsed.clear()
    store.code_digest = "code 2"  # the game's schema changed
    assert loaded(data, store) == cold
    assert sorted(parsed) == card_files(data)
    parsed.clear()
    _, problems = check_database(data, replace(DEFAULT_LIMITS, file_mb=0.002), store)  # 2,000 bytes
    assert {Path(p.file).name for p in problems if p.field == "file"} >= {"agency.yaml"}  # refused, unread
    assert "agency.yaml" in parsed


def test_the_builds_store_holds_the_last_builds_files_and_only_ever_removes_its_own(tmp_path, parsed):
    """``<out>/.printkit-parsed``: one entry per card file the last build read; entries that do
    not read are parsed again (the output is a cold build's); files it did not name are left
    alone."""
    from printkit.build_options import BuildOptions
    from printkit.pipeline.build import build
    from printkit.parsed_cache import PARSED_DIR
    from printkit.sheets.prepress.paper import paper_by_name

    data, out = tmp_path / "data", tmp_path / "out"
    shutil.copytree(bundled_data_dir() / GAME, data / GAME, ignore=GAME_CODE)

    def make(into: Path):
        result = build(data, into, BuildOptions(paper_by_name("letter"), "http://192.168.1.20:5000"), [GAME],
                       cards_only=True, jobs=1)
        assert not result.problems, result.problems
        return {p.relative_to(into).as_posix(): p.read_bytes() for p in sorted((into / GAME).rglob("*"))
                if p.is_file()}

    make(out)
    store = out / PARSED_DIR
    entries = sorted(store.glob("*.bin"))
    assert len(entries) == len(card_files(data))
    for entry in entries:
        entry.write_bytes(b"\x00 not what was kept")
    (store / "notes.txt").write_text("mine", encoding="utf-8")
    (store / f"{'0' * 64}.bin").write_bytes(b"an entry no build uses any more")
    path = data / GAME / "cards" / "agency.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("title: Might", "title: Mighty", 1), encoding="utf-8")
    parsed.clear()
    again = make(out)
    assert sorted(parsed) == card_files(data)  # no entry read: each file parsed again
    assert again == make(tmp_path / "cold")
    assert (store / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert not (store / f"{'0' * 64}.bin").exists()
    assert len(list(store.glob("*.bin"))) == len(card_files(data))
