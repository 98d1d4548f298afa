"""The incremental and parallel build: the same bytes whichever way a build is made (one
process or a pool, cold or from the cache), nothing re-rendered or rewritten that did not
change, one changed card re-rendering only its deck, and a cache that is only ever a shortcut
(corrupt, foreign or deleted: a full rebuild, never an error)."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

import printkit.pipeline.workers as build_workers
from printkit.build_options import BuildOptions
from printkit.pipeline.build import build
from printkit.build_cache import CACHE_FILE, toolkit_digest
from printkit.parsed_cache import PARSED_DIR
from printkit.sheets.prepress.paper import paper_by_name
from build_fixtures import GAME, project, rendered_decks  # noqa: F401 - fixtures

BASE_URL = "http://192.168.1.20:5000"


def make(project, out: Path | None = None, base_url: str = BASE_URL, jobs: int = 1, **options):
    data, templates, default_out = project
    result = build(data, out or default_out, BuildOptions(paper_by_name("letter"), base_url, **options), [GAME],
                   layouts_dir=templates, jobs=jobs)
    assert not result.problems, result.problems
    return result


def output(p: Path, out: Path) -> bool:
    """Whether ``p`` (below ``out``) is output, not the build's caches."""
    return p.relative_to(out).parts[0] not in (CACHE_FILE, PARSED_DIR)


def snapshot(out: Path) -> dict[str, bytes]:
    """Every output file but the caches: ``{relative path: bytes}``."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and output(p, out)}


def stats(out: Path) -> dict[str, tuple[int, int]]:
    """``{relative path: (inode, mtime in ns)}`` of every output file and folder but the caches."""
    return {str(p.relative_to(out)): (p.stat().st_ino, p.stat().st_mtime_ns) for p in sorted(out.rglob("*"))
            if output(p, out)}


def deck_files(out: Path, deck: str) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in (out / GAME).glob(f"{deck}-cards*"))


DECKS = ["might-cunning-draw", "authority-zeal-draw", "might-cunning-agency", "authority-zeal-agency"]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_parallel_build_gives_the_serial_builds_bytes(project, tmp_path, monkeypatch, method):
    pools = []

    def context():
        pools.append(method)
        return multiprocessing.get_context(method)

    monkeypatch.setattr(build_workers, "_pool_context", context)
    monkeypatch.setattr(build_workers, "PARALLEL_MIN_CARDS", 0)  # the bundled decks are small
    # As in a fresh process: only what the workers and the drawing register themselves.
    monkeypatch.setattr("printkit.sheets.text.icons._ICONS", {})
    parallel = make(project, tmp_path / "parallel", jobs=2)  # first: this process has laid nothing out
    assert pools == [method]
    serial = make(project, tmp_path / "serial", jobs=1)
    assert pools == [method]
    assert snapshot(tmp_path / "serial") == snapshot(tmp_path / "parallel")
    assert [p.name for p in serial.written] == [p.name for p in parallel.written]
    assert [w for w in serial.warnings] == [w for w in parallel.warnings]
    assert [plan.summary() for plan in serial.plans] == [plan.summary() for plan in parallel.plans]


def test_a_warm_build_with_nothing_changed_renders_and_rewrites_nothing(project, tmp_path, rendered_decks):
    out = project[2]
    cold = make(project)
    assert sorted(rendered_decks) == sorted(DECKS + ["-unprinted"])
    assert not cold.unchanged
    before, files = stats(out), snapshot(out)
    rendered_decks.clear()
    warm = make(project)
    assert rendered_decks == []  # not even laid out
    assert warm.unchanged == warm.written and [p.name for p in warm.written] == [p.name for p in cold.written]
    assert warm.warnings == cold.warnings  # a designer still hears about soft art or dense codes
    assert snapshot(out) == files
    assert stats(out) == before  # same inodes, same times: nothing was rewritten or moved
    assert snapshot(out) == snapshot(make(project, tmp_path / "fresh").written[0].parent.parent)


def test_the_build_command_says_when_nothing_changed(project):
    from printkit.cli import main

    data, templates, out = project
    args = ["build", GAME, "--data", str(data), "--templates", str(templates), "--out", str(out),
            "--base-url", BASE_URL, "--jobs", "1"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0, again.output
    assert "Nothing changed" in again.output


def _card_only_in(data: Path, deck: str) -> str:
    decks = {p.stem: {e["card"] for e in yaml.safe_load(p.read_text())["cards"]}
             for p in (data / GAME / "decks").glob("*.yaml")}
    others = set().union(*(ids for name, ids in decks.items() if name != deck))
    return min(decks[deck] - others)


def _retitle(data: Path, card_id: str, title: str) -> None:
    for path in (data / GAME / "cards").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        cards = yaml.safe_load(text)
        for card in cards:
            if card["id"] == card_id:
                old = f"title: {card['title']}"
                assert old in text
                path.write_text(text.replace(old, f"title: {title}", 1), encoding="utf-8")
                return
    raise AssertionError(card_id)


def test_one_changed_card_re_renders_only_its_deck(project, tmp_path, rendered_decks):
    data, _, out = project
    make(project)
    before = stats(out)
    card = _card_only_in(data, "might-cunning-draw")
    _retitle(data, card, "Renamed For The Test")
    rendered_decks.clear()
    make(project)
    assert rendered_decks == ["might-cunning-draw"]
    after = stats(out)
    for deck in DECKS[1:]:
        for name in deck_files(out, deck):
            assert after[name] == before[name], name  # the very same file, never rewritten
    changed = deck_files(out, "might-cunning-draw")
    assert any(after[name] != before[name] for name in changed)
    # And the result is what a cold build of the changed data gives.
    assert snapshot(out) == snapshot(make(project, tmp_path / "fresh").written[0].parent.parent)


@pytest.mark.parametrize("garbage", [b"\x00\xff not json at all", b"[]", b'{"format": 1}',
                                     b'{"format": 1, "code": "CODE", "units": {"carpe_cras": {"deck:x": 5}}}',
                                     b'{"format": 1, "code": "CODE", "units": []}'])
def test_a_corrupt_cache_is_ignored_with_a_full_rebuild(project, tmp_path, rendered_decks, garbage):
    out = project[2]
    make(project)
    expected = snapshot(out)
    (out / CACHE_FILE).write_bytes(garbage.replace(b"CODE", toolkit_digest().encode()))
    rendered_decks.clear()
    make(project)
    assert sorted(rendered_decks) == sorted(DECKS + ["-unprinted"])
    assert snapshot(out) == expected
    json.loads((out / CACHE_FILE).read_bytes())  # and a good one is written again
    rendered_decks.clear()
    make(project)
    assert rendered_decks == []


def test_a_cache_with_mangled_records_is_ignored(project, rendered_decks):
    out = project[2]
    make(project)
    expected = snapshot(out)
    record = json.loads((out / CACHE_FILE).read_bytes())
    record["builds"] = [["x", {"files": 3}]]
    for unit in record["units"][GAME].values():
        unit["meta"] = {"warnings": [{"no such field": 1}], "sheets": "many"}
    (out / CACHE_FILE).write_text(json.dumps(record))
    rendered_decks.clear()
    make(project)
    assert sorted(rendered_decks) == sorted(DECKS + ["-unprinted"])
    assert snapshot(out) == expected


def test_a_cache_from_another_printkit_is_ignored(project, rendered_decks):
    out = project[2]
    make(project)
    record = json.loads((out / CACHE_FILE).read_bytes())
    record["code"] = "another printkit"
    (out / CACHE_FILE).write_text(json.dumps(record))
    rendered_decks.clear()
    make(project)
    assert sorted(rendered_decks) == sorted(DECKS + ["-unprinted"])


def test_deleting_the_cache_or_an_output_file_is_fine(project, rendered_decks):
    out = project[2]
    make(project)
    expected, before = snapshot(out), stats(out)
    (out / CACHE_FILE).unlink()
    rendered_decks.clear()
    make(project)
    assert sorted(rendered_decks) == sorted(DECKS + ["-unprinted"])
    assert snapshot(out) == expected
    assert stats(out) == before  # re-rendered to the same bytes: still not rewritten
    (out / GAME / "authority-zeal-agency-cards.pdf").unlink()
    rendered_decks.clear()
    make(project)
    assert rendered_decks == ["authority-zeal-agency"]
    assert snapshot(out) == expected


def test_the_base_url_an_option_or_a_template_invalidates_what_it_should(project, rendered_decks):
    data = project[0]
    make(project)
    rendered_decks.clear()
    make(project, base_url="http://192.168.1.99:5000")  # every QR code changes
    assert sorted(rendered_decks) == sorted(DECKS + ["-unprinted"])
    rendered_decks.clear()
    make(project, base_url="http://192.168.1.99:5000", cmyk=True)
    assert sorted(rendered_decks) == sorted(DECKS + ["-unprinted"])
    rendered_decks.clear()
    back = data / GAME / "templates" / "back-agency.yaml"
    back.write_text(back.read_text(encoding="utf-8") + "\n# a changed template\n", encoding="utf-8")
    make(project, base_url="http://192.168.1.99:5000", cmyk=True)
    assert sorted(rendered_decks) == ["authority-zeal-agency", "might-cunning-agency"]


def test_printkit_help_lists_the_lazy_commands_with_their_own_help():
    from printkit.cli import LAZY_COMMANDS, main

    ctx = click.Context(main)
    for name, (_, help_text) in LAZY_COMMANDS.items():
        command = main.get_command(ctx, name)
        assert " ".join(command.help.split("\n\n")[0].split()) == help_text, name


def test_one_changed_card_in_a_deck_of_several_parts_redraws_only_its_part(project, tmp_path, rendered_decks,
                                                                         monkeypatch):
    """A deck split into parts (here one sheet a part): one card's title changed redraws the part
    holding it, whose PDF is the only file the build says it rewrote; the card files that did
    not change are not parsed again; the output is a cold build's, byte for byte."""
    import card_data.reading.parsed_files as parsed_files
    import printkit.pipeline.load

    monkeypatch.setattr(printkit.pipeline.load, "CARDS_PER_FILE", 1)
    data, _, out = project
    first = make(project)
    parts = sorted({p.name.split("-cards")[0] for p in (out / GAME).glob("might-cunning-draw-part-*-cards.pdf")})
    assert len(parts) >= 3, parts
    card = _card_only_in(data, "might-cunning-draw")
    _retitle(data, card, "Renamed For The Test")
    card_file = next(p.name for p in (data / GAME / "cards").glob("*.yaml") if f"id: {card}\n" in p.read_text())
    parsed: list[str] = []
    real = parsed_files.load_list
    monkeypatch.setattr(parsed_files, "load_list", lambda path, *a, **k: parsed.append(Path(path).name) or
                        real(path, *a, **k))
    before = snapshot(out)
    rendered_decks.clear()
    again = make(project)
    # The part(s) holding the card's copies, not the others.
    assert rendered_decks and set(rendered_decks) < set(parts), rendered_decks
    rewritten = sorted(p.relative_to(out).as_posix() for p in again.written if p not in again.unchanged)
    assert rewritten == sorted(f"{GAME}/{part}-cards.pdf" for part in rendered_decks)
    assert all(before[name] != snapshot(out)[name] for name in rewritten)
    assert parsed == [card_file]
    assert set(again.written) == set(first.written)
    assert snapshot(out) == snapshot(make(project, tmp_path / "fresh").written[0].parent.parent)
