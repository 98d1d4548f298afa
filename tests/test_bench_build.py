"""benchmarks/bench_build.py: it runs at a tiny size and prints every figure issue 21 asks for
(not how fast anything is), its inputs never repeat a text, and its process-tree measurement
counts the workers of a job, not only the job's own process."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
sys.path.insert(0, str(BENCH))

from bench_inputs import generate_cards, printed_texts  # noqa: E402
from process_tree import run_tree  # noqa: E402

NUMBER = r"[\d.]+"


def test_generated_cards_never_repeat_a_title_or_body_and_the_seed_repeats_them():
    cards = generate_cards("carpe_cras", 400, seed=3)
    texts = printed_texts("carpe_cras", cards, "http://192.168.1.20:5000")
    assert len({c["title"] for c in cards}) == 400
    assert len({t["ability"] for t in texts}) == 400
    assert len({t["payload"] for t in texts}) == 400
    assert {c["type"] for c in cards} >= {"unit", "hero", "upgrade", "event", "environment", "duality"}
    assert all(25 <= len(t["ability"]) <= 80 for t in texts)
    assert generate_cards("carpe_cras", 50, seed=3) == cards[:50]
    assert generate_cards("carpe_cras", 50, seed=4)[0]["title"] != cards[0]["title"]


def test_the_tree_measurement_counts_a_worker_process_cpu_and_memory(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent("""
        import os, time
        block = bytearray(80 * 1024 * 1024)  # resident: touched below in both processes
        block[::4096] = b"x" * len(block[::4096])
        pid = os.fork()
        if pid == 0:
            block[::4096] = b"y" * len(block[::4096])  # the child's own copy
            while time.process_time() < 0.4:
                pass
            time.sleep(0.3)
            os._exit(0)
        os.waitpid(pid, 0)
    """), encoding="utf-8")
    usage = run_tree([sys.executable, str(script)])
    assert usage.processes == 2
    assert usage.cpu_s >= 0.4  # the worker's CPU, reaped by its parent
    assert usage.peak_rss >= 150 * 1024 * 1024  # both copies of the block at once
    # Each copy is its process's own (written after the fork): PSS, read less often, sees both too.
    assert usage.peak_pss is None or usage.peak_pss >= 150 * 1024 * 1024


def test_a_failing_job_is_an_error_with_its_stderr(tmp_path):
    with pytest.raises(RuntimeError, match=r"(?s)status 3:.*boom"):
        run_tree([sys.executable, "-c", "import sys; sys.stderr.write('boom'); sys.exit(3)"])


def test_the_benchmark_prints_every_figure_at_a_tiny_size():
    proc = subprocess.run([sys.executable, str(BENCH / "bench_build.py"), "--cards", "9", "18", "--art", "2"],
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert re.search(rf"machine: \d+ cores, .+, load average at start {NUMBER} {NUMBER} {NUMBER}", out)
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", out)
    # Every run: wall, CPU, cards/s, RSS, PSS (or n/a where unreadable), bytes per card.
    for n in (9, 18):
        for label in ("printkit cold", "naive", "tuned", "printkit warm", "printkit 1 card"):
            assert re.search(rf"^\s+{n} {label}\s+{NUMBER} +{NUMBER} +{NUMBER} +{NUMBER} +({NUMBER}|n/a) +\d+ ",
                             out, re.M), (n, label)
        assert re.search(rf"^\s+{n} printkit cold .* wall x naive {NUMBER}, CPU x tuned {NUMBER}$", out, re.M)
    for label in ("art cold", "art warm"):
        assert re.search(rf"^\s+2 {label}\s+{NUMBER} .* PDF {NUMBER} MB$", out, re.M), label
    figures = ["wall, naive / printkit", "CPU, printkit / tuned", "whole-tree peak RSS", "warm rebuild",
               "one changed title"]
    for n in (9, 18):
        for figure in figures:
            assert re.search(rf"^  {n} cards: {re.escape(figure)} .* goal .* (met|NOT MET)$", out, re.M), figure
    assert re.search(r"^  peak RSS 9 -> 18 cards .* goal flat .* (met|NOT MET)$", out, re.M)
    for figure in ("cold whole-tree peak RSS", "PDF size", "cold CPU", "warm rebuild"):
        assert re.search(rf"^  art 2: {figure} .* goal .* (met|NOT MET)$", out, re.M), figure


@pytest.mark.parametrize("kind", ["naive", "tuned"])
def test_each_baseline_draws_every_card_with_a_qr_code_that_decodes_to_its_payload(kind, tmp_path):
    import json

    import pypdfium2
    import zxingcpp

    texts = printed_texts("carpe_cras", generate_cards("carpe_cras", 9, seed=5), "http://192.168.1.20:5000")
    (tmp_path / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    subprocess.run([sys.executable, str(BENCH / "bench_baselines.py"), kind, str(tmp_path / "texts.json"),
                    str(tmp_path / "out.pdf")], check=True, timeout=300)
    pdf = pypdfium2.PdfDocument(str(tmp_path / "out.pdf"))
    assert len(pdf) == 2  # fronts, then backs
    page = pdf[0].render(scale=300 / 72).to_pil()
    assert {b.text for b in zxingcpp.read_barcodes(page)} == {t["payload"] for t in texts}
    words = pdf[0].get_textpage().get_text_range()
    assert all(t["title"] in words for t in texts)


def test_the_benchmarks_children_run_the_checkout_they_are_in_not_another_installed_one(tmp_path):
    """A benchmark compares this checkout's code: its children (``printkit``, ``companion run``)
    import the packages beside the script even where another copy of them comes first on the
    path (as an editable install of a second working tree would)."""
    from checkout import ROOT, child_env

    other = tmp_path / "other-checkout"
    (other / "companion").mkdir(parents=True)
    (other / "companion" / "__init__.py").write_text("WHICH = 'the other checkout'\n")
    env = child_env({"PYTHONPATH": str(other), "PATH": "/usr/bin:/bin"})
    found = subprocess.run([sys.executable, "-c", "import companion; print(companion.__file__)"], env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(found) == ROOT / "companion" / "__init__.py"
    assert env["PYTHONPATH"].split(":")[1:] == [str(other)]  # kept, after the checkout
