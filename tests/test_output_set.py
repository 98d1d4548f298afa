"""A build's output set changes whole or not at all: killed mid-write (a real SIGKILL, in a
child process) or failing, it leaves the previous set whole and no temporary files, and the
next build cleans up after it."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from printkit.build_cache import CACHE_FILE
from printkit.parsed_cache import PARSED_DIR
from printkit.pipeline.output_set import (
    RECORD_NAME,
    SPOOL_DIR_NAME,
    STAGING_DIR_NAME,
    UNCHANGED,
    publish,
    read_record,
    recover,
)

GAME = "carpe_diem"  # the smallest bundled game: a build takes about a second

# Runs `printkit build` in a child process that SIGKILLs itself at the chosen step: after
# `KILL_AT` files were written (fsync: the decks' files into the spool as they are drawn, the
# others into the staging folder), at the `KILL_AT`-th move of a spooled file into the staging
# folder, or at the `KILL_AT`-th rename of a folder (a swap).
KILLER = textwrap.dedent("""
    import os, signal, sys
    step, at = sys.argv[1], int(sys.argv[2])
    calls = 0
    real = {"fsync": os.fsync, "replace": os.replace, "move": os.replace}[step]
    def killing(*args):
        global calls
        if step in ("replace", "move") and os.path.isdir(args[0]) != (step == "replace"):
            return real(*args)  # a folder's rename while moves are counted, or the other way round
        calls += 1
        if step in ("replace", "move") and calls == at:
            os.kill(os.getpid(), signal.SIGKILL)
        real(*args)
        if step == "fsync" and calls == at:
            os.kill(os.getpid(), signal.SIGKILL)
    setattr(os, "replace" if step == "move" else step, killing)
    from printkit.cli import main
    main(sys.argv[3:])
""")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder``, hidden ones included: ``{relative path: bytes}``."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def entries(out: Path) -> list[str]:
    """The names in an output folder, but for the incremental build's records (``CACHE_FILE``,
    ``PARSED_DIR``)."""
    return sorted(p.name for p in out.iterdir() if p.name not in (CACHE_FILE, PARSED_DIR))


def build_args(out: Path, base_url: str) -> list[str]:
    return ["build", GAME, "--out", str(out), "--base-url", base_url]


def run_build(out: Path, base_url: str, kill: tuple[str, int] | None = None) -> subprocess.CompletedProcess:
    args = build_args(out, base_url)
    if kill is None:
        cmd = [sys.executable, "-m", "printkit.cli", *args]
    else:
        cmd = [sys.executable, "-c", KILLER, kill[0], str(kill[1]), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


@pytest.fixture()
def previous_set(tmp_path):
    """An output folder holding a complete build whose QR codes point at server A."""
    out = tmp_path / "output"
    done = run_build(out, "http://server-a.example:5000")
    assert done.returncode == 0, done.stderr
    return out


# Killed while drawing (a deck's files going to the spool) and while publishing (the first
# spooled file moving into the staging folder).
@pytest.mark.parametrize(("kill", "left"), [(("fsync", 1), [SPOOL_DIR_NAME]), (("fsync", 2), [SPOOL_DIR_NAME]),
                                            (("move", 1), [SPOOL_DIR_NAME, STAGING_DIR_NAME])])
def test_a_build_killed_while_writing_leaves_the_previous_set_whole(previous_set, kill, left):
    before = snapshot(previous_set / GAME)
    killed = run_build(previous_set, "http://server-b.example:5000", kill=kill)
    assert killed.returncode == -signal.SIGKILL
    # The new files were being written, but not into the game folder: it is exactly as before,
    # every QR code still pointing at one server, and holds no temporary file.
    assert snapshot(previous_set / GAME) == before
    assert entries(previous_set) == sorted([*left, GAME])

    again = run_build(previous_set, "http://server-b.example:5000")
    assert again.returncode == 0, again.stderr
    assert entries(previous_set) == [GAME]
    fresh = previous_set.parent / "fresh"
    assert run_build(fresh, "http://server-b.example:5000").returncode == 0
    assert snapshot(previous_set / GAME) == snapshot(fresh / GAME) != before


def test_a_build_killed_between_the_two_renames_of_a_swap_is_put_back_by_the_next(previous_set):
    before = snapshot(previous_set / GAME)
    # Rename 1 moves the old folder aside; the kill comes before rename 2 moves the new one in.
    killed = run_build(previous_set, "http://server-b.example:5000", kill=("replace", 2))
    assert killed.returncode == -signal.SIGKILL
    assert not (previous_set / GAME).exists()
    assert snapshot(previous_set / STAGING_DIR_NAME / f"{GAME}.previous") == before

    # Even a build that finds a problem and writes nothing puts the previous set back first.
    refused = subprocess.run([sys.executable, "-m", "printkit.cli", "build", "no-such-game", "--out",
                              str(previous_set)], capture_output=True, text=True, timeout=300)
    assert refused.returncode == 1
    assert snapshot(previous_set / GAME) == before
    assert entries(previous_set) == [GAME]


def files(folder: Path) -> dict[str, bytes]:
    """:func:`snapshot` but for the game folders' records of what the build wrote."""
    return {rel: data for rel, data in snapshot(folder).items() if Path(rel).name != RECORD_NAME}


def test_publish_keeps_other_files_drops_stale_ones_and_leaves_no_staging(tmp_path):
    game = tmp_path / "g"
    publish(tmp_path, {game / "other-deck-cards.pdf": b"other", game / "draw-cards-sheet-9.svg": b"stale",
                       game / "draw-cards.pdf": b"old"})
    (game / "draw-cards-sheet-8.svg").write_bytes(b"the designer's, not the build's")
    written = publish(tmp_path, {game / "draw-cards.pdf": b"new", game / "sub" / "x.svg": b"x"},
                      stale=[game / "draw-cards-sheet-9.svg", game / "draw-cards-sheet-8.svg"])
    assert written == [game / "draw-cards.pdf", game / "sub" / "x.svg"]
    # A stale file is removed only if the build wrote it.
    assert files(tmp_path) == {"g/draw-cards.pdf": b"new", "g/other-deck-cards.pdf": b"other",
                               "g/sub/x.svg": b"x", "g/draw-cards-sheet-8.svg": b"the designer's, not the build's"}
    assert sorted(read_record(game)) == ["draw-cards.pdf", "other-deck-cards.pdf", "sub/x.svg"]


def disk_full_at(n: int, counts=lambda path: True):
    """A stand-in for ``os.fsync`` that fails as a full disk does at the ``n``-th flush of a file
    whose path ``counts`` (the files it counted: ``.counted``)."""
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if counts(Path(os.readlink(f"/proc/self/fd/{fd}"))):
            fsync.counted.append(fd)
            if len(fsync.counted) == n:
                raise OSError(28, "No space left on device")
        real_fsync(fd)

    fsync.counted = []
    return fsync


def test_publish_that_fails_while_writing_leaves_every_game_folder_as_it_was(tmp_path, monkeypatch):
    for game in ("a", "b"):
        (tmp_path / game).mkdir()
        (tmp_path / game / "cards.pdf").write_bytes(b"old " + game.encode())
    before = snapshot(tmp_path)
    monkeypatch.setattr(os, "fsync", disk_full_at(2))
    with pytest.raises(OSError, match="No space"):
        publish(tmp_path, {tmp_path / "a" / "cards.pdf": b"new a", tmp_path / "b" / "cards.pdf": b"new b"})
    assert snapshot(tmp_path) == before


def test_publish_refuses_a_path_outside_a_game_folder(tmp_path):
    with pytest.raises(ValueError, match="not inside a game folder"):
        publish(tmp_path, {tmp_path / "loose.pdf": b"x"})
    recover(tmp_path)  # nothing to recover is fine
    assert list(tmp_path.iterdir()) == []


def test_publish_without_keep_others_replaces_the_builds_files_and_keeps_everything_else(tmp_path):
    game = tmp_path / "g"
    publish(tmp_path, {game / "draw-cards.pdf": b"an earlier catalogue build"}, keep_others=False)
    (game / "tgc-poker" / "draw" / "fronts").mkdir(parents=True)
    (game / "tgc-poker" / "draw" / "fronts" / "a.png").write_bytes(b"export")
    (game / "notes.txt").write_bytes(b"the designer's")
    (game / "empty").mkdir()
    (game / "link").symlink_to("notes.txt")
    notes = (game / "notes.txt").stat()
    publish(tmp_path, {game / "deck-a-cards.pdf": b"new"}, keep_others=False)
    assert files(tmp_path) == {"g/deck-a-cards.pdf": b"new", "g/tgc-poker/draw/fronts/a.png": b"export",
                               "g/notes.txt": b"the designer's", "g/link": b"the designer's"}
    # Carried over untouched: the same file (a link, not a copy), the empty folder, the link as a link.
    assert (game / "notes.txt").stat().st_ino == notes.st_ino
    assert (game / "empty").is_dir() and os.readlink(game / "link") == "notes.txt"
    assert read_record(game) is not None and sorted(read_record(game)) == ["deck-a-cards.pdf"]


def test_publish_removes_nothing_it_has_no_record_of(tmp_path):
    """An output folder from before records, or whose record is lost, damaged or edited: no
    file in it is known to be the build's, so none is removed."""
    game = tmp_path / "g"
    publish(tmp_path, {game / "a-cards.pdf": b"a", game / "b-cards.pdf": b"b"}, keep_others=False)
    record = (game / RECORD_NAME).read_bytes()
    for damaged in (None, b"{not json", b'{"format": 1, "files": {"../x": "' + b"0" * 64 + b'"}}',
                    record.replace(b'"format": 1', b'"format": 99')):
        if damaged is None:
            (game / RECORD_NAME).unlink()
        else:
            (game / RECORD_NAME).write_bytes(damaged)
        publish(tmp_path, {game / "c-cards.pdf": b"c"}, keep_others=False)
        assert files(tmp_path)["g/a-cards.pdf"] == b"a" and files(tmp_path)["g/b-cards.pdf"] == b"b"
        assert read_record(game) == {"c-cards.pdf": hashlib.sha256(b"c").hexdigest()}


def test_publish_keeps_a_file_it_wrote_that_was_changed_since(tmp_path):
    game = tmp_path / "g"
    publish(tmp_path, {game / "a-cards.pdf": b"a", game / "b-cards.pdf": b"b"}, keep_others=False)
    (game / "b-cards.pdf").write_bytes(b"b, annotated by the designer")
    publish(tmp_path, {game / "c-cards.pdf": b"c"}, keep_others=False)
    assert files(tmp_path) == {"g/b-cards.pdf": b"b, annotated by the designer", "g/c-cards.pdf": b"c"}
    assert sorted(read_record(game)) == ["c-cards.pdf"]  # the designer's now: never removed later


def test_publish_refuses_a_game_name_taken_by_a_file(tmp_path):
    (tmp_path / "g").write_bytes(b"not a folder")
    with pytest.raises(OSError, match="not a folder"):
        publish(tmp_path, {tmp_path / "g" / "a-cards.pdf": b"a"}, keep_others=False)
    assert snapshot(tmp_path) == {"g": b"not a folder"}


def test_a_whole_kit_build_replaces_an_earlier_catalogue_build(tmp_path):
    # Duels' catalogue is character-cards.pdf; its kit is one file per character deck.
    def build(out: Path, *extra: str) -> dict[str, bytes]:
        done = subprocess.run([sys.executable, "-m", "printkit.cli", "build", "cartisora", "--out", str(out),
                               "--base-url", "http://a.example", *extra], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        return snapshot(out / "cartisora")

    out = tmp_path / "output"
    catalogue = build(out, "--catalog")
    kit = build(out)
    assert "character-cards.pdf" in catalogue and "character-cards.pdf" not in kit
    assert kit == build(tmp_path / "fresh")


def test_publish_keeps_unchanged_files_as_they_are_and_leaves_an_untouched_game_alone(tmp_path):
    game = tmp_path / "g"
    game.mkdir()
    (game / "a.pdf").write_bytes(b"a")
    (game / "b.pdf").write_bytes(b"b")
    before = {p.name: p.stat() for p in game.iterdir()}
    publish(tmp_path, {game / "a.pdf": UNCHANGED, game / "b.pdf": b"new b"}, keep_others=False)
    assert files(tmp_path) == {"g/a.pdf": b"a", "g/b.pdf": b"new b"}
    assert (game / "a.pdf").stat().st_ino == before["a.pdf"].st_ino  # linked, not rewritten
    assert (game / "a.pdf").stat().st_mtime_ns == before["a.pdf"].st_mtime_ns
    folder = game.stat().st_ino
    publish(tmp_path, {game / "a.pdf": UNCHANGED, game / "b.pdf": UNCHANGED}, keep_others=False)
    assert game.stat().st_ino == folder  # nothing changed: the folder was not even swapped
    assert files(tmp_path) == {"g/a.pdf": b"a", "g/b.pdf": b"new b"}
    # A file that would be dropped is a change: the folder is swapped then.
    publish(tmp_path, {game / "a.pdf": UNCHANGED}, keep_others=False)
    assert files(tmp_path) == {"g/a.pdf": b"a"}
    with pytest.raises(FileNotFoundError):
        publish(tmp_path, {game / "gone.pdf": UNCHANGED})
    assert files(tmp_path) == {"g/a.pdf": b"a"}


def test_a_build_that_finds_a_problem_after_drawing_decks_leaves_no_spool(tmp_path, monkeypatch):
    """Decks drawn before the problem was found were spooled; nothing of them is left, and an
    output folder the build would have made is not made."""
    from card_data.loader import load_database
    from printkit.pipeline import output_set
    from printkit.build_options import BuildOptions
    from printkit.pipeline.build import build
    from printkit.sheets.prepress.paper import paper_by_name
    from tests.database_edits import copy_database

    data = copy_database(tmp_path / "data")
    from printkit.components.kit import load_kit, play_jobs

    game = load_database(data).games["cartisora"]
    *earlier, last = play_jobs(game, load_kit(game)[0])
    # A card only the last deck holds: the decks before it are drawn and spooled first.
    card = game.cards[next(c for c in last.cards.ids if all(c not in job.cards.ids for job in earlier))]
    file = Path(game.sources[("card", card.id)][0])
    text = file.read_text(encoding="utf-8")
    file.write_text(text.replace(f"title: {card.title}\n", "title: " + " ".join(["Overlong"] * 120) + "\n", 1),
                    encoding="utf-8")
    spooled = []
    real_put = output_set.Spool.put
    monkeypatch.setattr(output_set.Spool, "put",  # a drawn file (the card files parsed are spooled too, not durable)
                        lambda self, data, durable=True: (durable and spooled.append(1)) or real_put(self, data, durable))

    out = tmp_path / "out"
    result = build(data, out, BuildOptions(paper_by_name("a4"), "http://server-a.example:5000"), ["cartisora"])
    assert result.problems and "does not fit" in result.problems[0].message
    assert spooled  # some decks were drawn and spooled before the problem was met
    assert not out.exists()


def test_a_killed_build_leaves_no_worker_processes_behind(tmp_path):
    """A database big enough that the build starts its workers before loading it; the build is
    killed while its workers are busy. They end with it: were one left waiting for work, it
    would hold the build's output pipe open and this run would not return."""
    import copy

    import yaml

    from card_data.loader import bundled_data_dir
    from printkit.pipeline.workers import EARLY_WORKERS_CARD_BYTES

    game = tmp_path / "data" / "carpe_cras"
    shutil.copytree(bundled_data_dir() / "carpe_cras", game, ignore=shutil.ignore_patterns("decks", "kit.yaml"))
    originals = [c for p in sorted((game / "cards").glob("*.yaml"))
                 for c in yaml.safe_load(p.read_text(encoding="utf-8")) if c["type"] not in ("reference", "token")]
    many = [dict(copy.deepcopy(originals[i % len(originals)]), id=f"copy-{i:04d}") for i in range(600)]
    (game / "cards" / "copies.yaml").write_text(yaml.safe_dump(many, allow_unicode=True), encoding="utf-8")
    assert sum(p.stat().st_size for p in (game / "cards").glob("*.yaml")) >= EARLY_WORKERS_CARD_BYTES

    cmd = [sys.executable, "-c", KILLER, "fsync", "1", "build", "carpe_cras", "--data", str(tmp_path / "data"),
           "--out", str(tmp_path / "out"), "--base-url", "http://server-a.example:5000", "--cards-only",
           "--jobs", "2"]
    killed = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert killed.returncode == -signal.SIGKILL, killed.stderr


def test_a_build_whose_drawn_files_cannot_be_flushed_keeps_the_previous_set_and_no_spool(tmp_path, monkeypatch):
    """The decks' files are flushed by the spool's own thread while the build draws on; a disk
    that fills up there fails the build as it would have in the drawing thread: OSError, the
    previous set whole, no spool left."""
    from printkit.build_options import BuildOptions
    from printkit.pipeline.build import build
    from printkit.sheets.prepress.paper import paper_by_name

    out = tmp_path / "out"
    build(None, out, BuildOptions(paper_by_name("a4"), "http://server-a.example:5000"), [GAME], cards_only=True)
    before = snapshot(out)
    full_disk = disk_full_at(2, counts=lambda path: SPOOL_DIR_NAME in path.parts)
    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        build(None, out, BuildOptions(paper_by_name("letter"), "http://server-b.example:5000"), [GAME],
              cards_only=True)
    assert len(full_disk.counted) >= 2
    assert snapshot(out) == before
    assert not (out / SPOOL_DIR_NAME).exists() and not (out / STAGING_DIR_NAME).exists()


def test_a_spool_holds_at_most_a_few_files_waiting_for_the_disk(tmp_path, monkeypatch):
    """Past :attr:`Spool.PENDING` files not yet written, the next put waits: a slow disk never
    makes the build keep its output in memory. What was put is then on disk, as put."""
    import threading

    from printkit.pipeline import output_set

    disk = threading.Event()
    real_write = output_set._write_flushed

    def slow_disk(path: Path, data: bytes) -> None:
        disk.wait(30)
        real_write(path, data)

    monkeypatch.setattr(output_set, "_write_flushed", slow_disk)
    spool = output_set.Spool(tmp_path)
    # The spool's thread takes the first file and waits on the disk; PENDING files wait behind it.
    kept = [spool.put(b"file %d" % i) for i in range(output_set.Spool.PENDING)]
    more = threading.Thread(target=lambda: kept.append(spool.put(b"one more")))
    more.start()
    more.join(0.5)
    assert more.is_alive()  # waiting for the disk, not holding a ninth file in memory
    disk.set()
    more.join(30)
    assert not more.is_alive()
    spool.settle()
    assert [s.path.read_bytes() for s in kept] == [b"file %d" % i for i in range(8)] + [b"one more"]
    assert all(hashlib.sha256(s.path.read_bytes()).hexdigest() == s.sha256 for s in kept)
    spool.discard()
    assert not spool.dir.exists()


def test_a_spool_discarded_after_a_failed_write_waits_for_the_other_writes_and_leaves_nothing(tmp_path, monkeypatch):
    """A build whose spool met a full disk removes the spool only once its thread has finished
    every write it was given: no file of it appears after the spool is gone."""
    import threading

    from printkit.pipeline import output_set

    full, slow, real_write, calls = threading.Event(), threading.Event(), output_set._write_flushed, []

    def write(path: Path, data: bytes) -> None:
        calls.append(path)
        if len(calls) == 1:
            full.wait(30)
            raise OSError(28, "No space left on device")
        slow.wait(30)
        real_write(path, data)

    monkeypatch.setattr(output_set, "_write_flushed", write)
    spool = output_set.Spool(tmp_path / "out")
    spool.put(b"fails")
    spool.put(b"slow")  # queued behind the first, which has not failed yet
    discarding = threading.Thread(target=spool.discard)
    discarding.start()
    full.set()  # the first write fails
    discarding.join(0.5)
    assert discarding.is_alive()  # waiting for the slow write
    slow.set()
    discarding.join(30)
    assert not discarding.is_alive()
    assert not spool.dir.exists() and not (tmp_path / "out").exists()
    with pytest.raises(OSError, match="No space"):
        spool.settle()  # the failure is still what the spool answers


def test_a_spool_adopts_only_files_written_into_its_own_folder(tmp_path):
    """What a worker hands back by name is flushed and later moved by the build: a name outside
    the spool's folder is refused, so nothing else is ever moved or touched."""
    from printkit.pipeline.output_set import Spool, spool_file

    spool = Spool(tmp_path / "out")
    inside = spool.adopt(spool_file(spool.folder(), b"a deck's PDF"))
    assert inside.path.read_bytes() == b"a deck's PDF" and inside.sha256 == hashlib.sha256(b"a deck's PDF").hexdigest()
    elsewhere = spool_file(tmp_path, b"not the spool's")
    with pytest.raises(ValueError, match="not in the spool"):
        spool.adopt(elsewhere)
    spool.settle()
    spool.discard()
    assert elsewhere.path.read_bytes() == b"not the spool's" and not spool.dir.exists()
