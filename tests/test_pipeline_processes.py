"""The build's processes: a database big enough is loaded in a process of its own that ends once
it has handed the cards over, and the build's own process draws decks beside its worker. Either
way the output, its warnings and the caches it leaves are those of a build in one process."""

from __future__ import annotations

import copy
import hashlib
import multiprocessing
import os
import shutil
import sys
from pathlib import Path

import pytest
import yaml

import printkit.pipeline.build as pipeline_build
import printkit.pipeline.workers as workers
from card_data.loader import bundled_data_dir
from printkit.build_options import BuildOptions
from printkit.parsed_cache import PARSED_DIR
from printkit.pipeline.build import build
from printkit.pipeline.workers import EARLY_WORKERS_CARD_BYTES
from printkit.sheets.prepress.paper import paper_by_name

BASE_URL = "http://192.168.1.20:5000"


def big_database(root: Path) -> Path:
    """Carpe Cras with 600 more cards (copies of its own under new ids): past
    :data:`EARLY_WORKERS_CARD_BYTES`, so the build loads it apart and forks its worker first."""
    game = root / "carpe_cras"
    shutil.copytree(bundled_data_dir() / "carpe_cras", game, ignore=shutil.ignore_patterns("decks", "kit.yaml"))
    originals = [c for p in sorted((game / "cards").glob("*.yaml"))
                 for c in yaml.safe_load(p.read_text(encoding="utf-8")) if c["type"] not in ("reference", "token")]
    many = [dict(copy.deepcopy(originals[i % len(originals)]), id=f"copy-{i:04d}") for i in range(600)]
    (game / "cards" / "copies.yaml").write_text(yaml.safe_dump(many, allow_unicode=True), encoding="utf-8")
    assert sum(p.stat().st_size for p in (game / "cards").glob("*.yaml")) >= EARLY_WORKERS_CARD_BYTES
    return root


def files(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` but the build cache's records (they name the code's digest,
    the same in both builds anyway): ``{relative path: bytes}``."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".printkit-cache.json"}


def test_a_big_database_loaded_apart_and_drawn_by_two_processes_gives_one_process_bytes(tmp_path, monkeypatch):
    data = big_database(tmp_path / "data")
    drawn_here = []
    real_draw_here = workers._Run.draw_here

    def draw_here(run, i):
        drawn_here.append(run.tasks[i].job.name)
        real_draw_here(run, i)

    monkeypatch.setattr(workers._Run, "draw_here", draw_here)
    options = BuildOptions(paper_by_name("letter"), BASE_URL)
    loads = []
    real_load_apart = pipeline_build.load_apart
    meanwhile = []  # what the loading process was doing while the build's own one imported the renderer

    def load_apart(*args, **kwargs):
        imports = kwargs["meanwhile"]
        kwargs["meanwhile"] = lambda: meanwhile.append(
            ([p.name for p in multiprocessing.active_children()], "printkit.pipeline.draw" in sys.modules)) or imports()
        loads.append(real_load_apart(*args, **kwargs))
        return loads[-1]

    monkeypatch.delitem(sys.modules, "printkit.pipeline.draw", raising=False)  # as in a fresh process
    monkeypatch.setattr(pipeline_build, "load_apart", load_apart)

    shared = build(data, tmp_path / "shared", options, ["carpe_cras"], cards_only=True, jobs=2)
    assert shared.problems == []
    assert len(loads) == 1 and loads[0] is not None  # loaded in its own process, read back here
    assert not loads[0].exists()  # and its hand-over file is gone
    # The renderer was imported here while the cards were read there, not one after the other.
    assert meanwhile == [(["printkit-load"], False)]
    assert "printkit.pipeline.draw" in sys.modules
    decks = [p.name.removesuffix("-cards.pdf") for p in shared.written if p.name.endswith("-cards.pdf")]
    assert len(decks) >= 4, decks
    # This process drew some of the decks and its worker the others.
    drawn_here = [name for name in drawn_here if name != "-unprinted"]  # a check, not a deck file
    assert drawn_here and set(drawn_here) < set(decks), (drawn_here, decks)
    monkeypatch.setattr(workers._Run, "draw_here", real_draw_here)

    monkeypatch.setattr(pipeline_build, "load_apart", lambda *a, **k: None)
    alone = build(data, tmp_path / "alone", options, ["carpe_cras"], cards_only=True, jobs=1)
    assert files(tmp_path / "shared") == files(tmp_path / "alone")
    assert (tmp_path / "shared" / PARSED_DIR).is_dir()  # the card files parsed in the loading process
    assert [p.name for p in shared.written] == [p.name for p in alone.written]
    assert shared.warnings == alone.warnings and shared.cards == alone.cards
    assert [plan.summary() for plan in shared.plans] == [plan.summary() for plan in alone.plans]
    assert not (tmp_path / "shared" / ".printkit-spool").exists()


def test_a_big_database_with_a_problem_is_reported_from_the_loading_process(tmp_path, monkeypatch):
    """The problems found while loading apart are the build's, with their file and line; nothing
    is written."""
    data = big_database(tmp_path / "data")
    copies = data / "carpe_cras" / "cards" / "copies.yaml"
    text = copies.read_text(encoding="utf-8")
    copies.write_text(text.replace("id: copy-0008\n", "id: copy-0007\n", 1), encoding="utf-8")
    result = build(data, tmp_path / "out", BuildOptions(paper_by_name("letter"), BASE_URL), ["carpe_cras"],
                   cards_only=True, jobs=2)
    assert result.problems, "the broken card was not reported"
    assert any(p.file == str(copies) and p.card_id == "copy-0007" and "duplicate card id" in p.message
               for p in result.problems), result.problems
    assert not (tmp_path / "out").exists()


def test_a_worker_that_dies_leaves_its_decks_to_the_builds_process(tmp_path, monkeypatch):
    """The worker ends on its first deck (as if killed, or out of memory): the decks it had are
    drawn in the build's own process instead, and the output is the one-process build's."""
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir() / "carpe_cras", data / "carpe_cras")
    options = BuildOptions(paper_by_name("letter"), BASE_URL)
    build_pid, real_render = os.getpid(), workers._render_deck

    def dying(task, progress):
        if os.getpid() != build_pid:
            os._exit(1)
        return real_render(task, progress)

    monkeypatch.setattr(workers, "_pool_context", lambda: __import__("multiprocessing").get_context("fork"))
    monkeypatch.setattr(workers, "PARALLEL_MIN_CARDS", 0)  # the bundled decks are small
    monkeypatch.setattr(workers, "_render_deck", dying)  # forked: the worker has it too
    shared = build(data, tmp_path / "shared", options, ["carpe_cras"], jobs=2)
    monkeypatch.setattr(workers, "_render_deck", real_render)
    alone = build(data, tmp_path / "alone", options, ["carpe_cras"], jobs=1)
    assert shared.problems == [] and alone.problems == []
    assert files(tmp_path / "shared") == files(tmp_path / "alone")
    assert [p.name for p in shared.written] == [p.name for p in alone.written]


def test_a_worker_gets_its_next_deck_while_the_builds_process_draws_one(tmp_path, monkeypatch):
    """The build's own process is slow on its first deck (a big one of its own, say): the worker
    is sent a deck whenever it finishes one, not only when the build's process is between two
    of its decks, so it draws more than the two it was sent at first."""
    import time

    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir() / "carpe_cras", data / "carpe_cras")
    build_pid, real_render = os.getpid(), workers._render_deck
    started = tmp_path / "started"  # one line per deck a worker starts
    here, during_first = [], []

    def worker_decks() -> list[str]:
        return started.read_text().split() if started.exists() else []

    def render(task, progress):
        if os.getpid() == build_pid:
            if not here:  # the first deck drawn here: until the worker has started four (10 s at most)
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and len(worker_decks()) < 4:
                    time.sleep(0.02)
                during_first.extend(worker_decks())
            here.append(task.job.name)
        else:
            with started.open("a") as f:
                f.write(f"{task.job.name}\n")
        return real_render(task, progress)

    monkeypatch.setattr(workers, "_pool_context", lambda: __import__("multiprocessing").get_context("fork"))
    monkeypatch.setattr(workers, "PARALLEL_MIN_CARDS", 0)  # the bundled decks are small
    monkeypatch.setattr(workers, "_render_deck", render)  # forked: the worker has it too
    result = build(data, tmp_path / "out", BuildOptions(paper_by_name("letter"), BASE_URL), ["carpe_cras"], jobs=2)
    assert result.problems == []
    assert len(during_first) >= 4, (during_first, here)  # sent one by one as it finished them
    assert not set(worker_decks()) & set(here)


def test_the_worker_inherits_the_compiled_templates(tmp_path, monkeypatch):
    """A big database's build compiles the game's templates while the cards are read apart,
    before its worker is forked: the worker compiles none again."""
    from printkit.sheets.templating.template_sandbox import CardSandbox

    data = big_database(tmp_path / "data")
    compiled = tmp_path / "compiled"  # one line per template compiled, with the process's id
    real_compile = CardSandbox.compile

    def compile_(self, *args, **kwargs):
        with compiled.open("a") as f:
            f.write(f"{os.getpid()}\n")
        return real_compile(self, *args, **kwargs)

    monkeypatch.setattr(CardSandbox, "compile", compile_)
    result = build(data, tmp_path / "out", BuildOptions(paper_by_name("letter"), BASE_URL), ["carpe_cras"],
                   cards_only=True, jobs=2)
    assert result.problems == []
    by_process = compiled.read_text().split()
    assert by_process and set(by_process) == {str(os.getpid())}, sorted(set(by_process))


def test_a_broken_template_of_a_big_database_is_reported_with_its_line(tmp_path):
    """Compiling the templates ahead passes over one that does not compile; the build reports
    it where it loads it, with the file and line, and writes nothing."""
    data = big_database(tmp_path / "data")
    template = data / "carpe_cras" / "templates" / "unit.yaml"
    lines = template.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "text:" in line and "{{" in line)
    lines[at] = lines[at].replace("{{", "{{ (", 1)
    template.write_text("".join(lines), encoding="utf-8")
    result = build(data, tmp_path / "out", BuildOptions(paper_by_name("letter"), BASE_URL), ["carpe_cras"],
                   cards_only=True, jobs=2)
    # The region's line (where its "- name:" starts), the field its text.
    region = max(i for i in range(at + 1) if lines[i].lstrip().startswith("- ")) + 1
    name = lines[region - 1].split("name:", 1)[1].strip()
    assert [(p.line, p.field) for p in result.problems if p.file == str(template)
            and "Jinja2 syntax error" in p.message] == [(region, f"layout:{name}.text")], result.problems
    assert not (tmp_path / "out").exists()


def test_the_fonts_are_parsed_while_a_database_under_2_mib_is_read_and_after_a_bigger_one(tmp_path, monkeypatch):
    """Under :data:`FONTS_BESIDE_LOAD_CARD_BYTES` of card files, the build's process parses the
    fonts while the loading process reads the cards; past it, only once that process has ended
    (their memory would add to the loading process's, which grows with the database)."""
    from printkit.sheets.text import fonts

    data = big_database(tmp_path / "data")
    options = BuildOptions(paper_by_name("letter"), BASE_URL)
    loading = []  # the processes alive each time the fonts are asked for, in this process
    real_register = fonts.register_fonts
    monkeypatch.setattr(fonts, "register_fonts",
                        lambda: loading.append([p.name for p in multiprocessing.active_children()]) or real_register())

    assert build(data, tmp_path / "small", options, ["carpe_cras"], cards_only=True, jobs=2).problems == []
    assert loading and loading[0] == ["printkit-load"]

    loading.clear()
    monkeypatch.setattr(pipeline_build, "FONTS_BESIDE_LOAD_CARD_BYTES", EARLY_WORKERS_CARD_BYTES)
    assert build(data, tmp_path / "big", options, ["carpe_cras"], cards_only=True, jobs=2).problems == []
    assert loading and "printkit-load" not in loading[0]
    assert files(tmp_path / "small") == files(tmp_path / "big")


def test_in_a_fresh_folder_the_loading_process_digests_the_inputs_before_it_reads_them(tmp_path, monkeypatch):
    """No build was recorded: the loading process starts at once and digests the database
    before reading it, while the build's process works out the code digests and sends them (the
    loading process computes none). A card file saved after it was read makes the next build
    draw again, not report its stale output as up to date."""
    import printkit.build_cache as build_cache
    import printkit.pipeline.load as load

    data = big_database(tmp_path / "data")
    card_file = data / "carpe_cras" / "cards" / "copies.yaml"
    build_process = os.getpid()
    real_digests = build_cache._own_file_digests

    def own_file_digests():
        assert os.getpid() == build_process, "the loading process worked out code digests itself"
        return real_digests()

    real_load_build = load.load_build

    def load_then_edit(request, spool=None):
        loaded = real_load_build(request, spool)
        text = card_file.read_text(encoding="utf-8")  # saved by the designer once it was read
        card_file.write_text(text.replace("id: copy-0000\n", "id: copy-0000-edited\n", 1), encoding="utf-8")
        return loaded

    build_cache.code_digest.cache_clear()  # as in a fresh process
    monkeypatch.setattr(build_cache, "_own_file_digests", own_file_digests)
    monkeypatch.setattr(load, "load_build", load_then_edit)  # the loading process is forked: it has it too
    loads = []
    real_load_apart = pipeline_build.load_apart
    monkeypatch.setattr(pipeline_build, "load_apart", lambda *a, **k: loads.append(real_load_apart(*a, **k)) or loads[-1])
    options = BuildOptions(paper_by_name("letter"), BASE_URL)
    out = tmp_path / "out"
    first = build(data, out, options, ["carpe_cras"], cards_only=True, jobs=2)
    assert first.problems == [] and loads and loads[0] is not None  # read apart, with the build's code digests
    monkeypatch.setattr(load, "load_build", real_load_build)
    again = build(data, out, options, ["carpe_cras"], cards_only=True, jobs=2)
    assert again.unchanged != again.written  # the edited card's deck drawn again
    assert build(data, out, options, ["carpe_cras"], cards_only=True, jobs=2).unchanged == again.written


def test_the_loading_process_reads_without_the_cyclic_collector_and_the_build_keeps_it(tmp_path, monkeypatch):
    """The loading process makes next to no cyclic garbage and ends after one load: it reads
    with the collector off (the build's process, which goes on, keeps it)."""
    import gc

    import printkit.pipeline.load as load

    real_load_build = load.load_build

    def load_build(request, spool=None):
        if gc.isenabled():
            raise AssertionError("the loading process collects cycles")  # it fails: the build loads here
        return real_load_build(request, spool)

    monkeypatch.setattr(load, "load_build", load_build)  # the loading process is forked: it has it too
    loads = []
    real_load_apart = pipeline_build.load_apart
    monkeypatch.setattr(pipeline_build, "load_apart", lambda *a, **k: loads.append(real_load_apart(*a, **k)) or loads[-1])
    assert gc.isenabled()
    result = build(big_database(tmp_path / "data"), tmp_path / "out", BuildOptions(paper_by_name("letter"), BASE_URL),
                   ["carpe_cras"], cards_only=True, jobs=2)
    assert result.problems == [] and loads and loads[0] is not None  # read in the loading process
    assert gc.isenabled()


def test_a_workers_deck_files_come_back_by_name_and_the_builds_spool_flushes_them(tmp_path, monkeypatch):
    """A worker writes its decks' files into the build's spool folder and hands back their
    names: sent as bytes, they waited in a full pipe until the build's process, busy drawing,
    read them. The build's spool flushes them to disk before anything is published, and a disk
    that fills up there fails the build with the previous set whole and no spool left."""
    from printkit.pipeline import output_set

    adopted, flushed, real_adopt, real_fsync = [], [], output_set.Spool.adopt, os.fsync

    def adopt(spool, spooled):
        adopted.append(spooled)
        return real_adopt(spool, spooled)

    def fsync(fd):
        flushed.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(output_set.Spool, "adopt", adopt)
    monkeypatch.setattr(os, "fsync", fsync)
    data, out = big_database(tmp_path / "data"), tmp_path / "out"
    options = BuildOptions(paper_by_name("letter"), BASE_URL)
    first = build(data, out, options, ["carpe_cras"], cards_only=True, jobs=2)
    assert first.problems == [] and adopted
    assert all(s.path.name.startswith("w") and s.path.name[1:].split("-")[0] != str(os.getpid()) for s in adopted)
    assert {str(s.path) for s in adopted} <= set(flushed)  # flushed where they were spooled, before publishing
    published = {hashlib.sha256(p.read_bytes()).hexdigest() for p in first.written}
    assert {s.sha256 for s in adopted} <= published  # moved in as the worker wrote them
    before = files(out)

    def full_disk(fd):
        if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")).startswith("w"):
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        build(data, out, BuildOptions(paper_by_name("a4"), BASE_URL), ["carpe_cras"], cards_only=True, jobs=2)
    assert files(out) == before
    assert not (out / output_set.SPOOL_DIR_NAME).exists() and not (out / output_set.STAGING_DIR_NAME).exists()
