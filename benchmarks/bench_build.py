"""Benchmark: `printkit build` of N cards against plain reportlab scripts drawing the same primitives.

Run:  python benchmarks/bench_build.py --cards 900 5000 10000 --art 300

For each N it writes a throw-away Carpe Cras database of N cards whose titles and texts never
repeat (:mod:`bench_inputs`: generated from ``--seed``, so runs compare) and runs, each as its
own child process measured over its whole process tree (:mod:`process_tree`: wall seconds,
user + system CPU seconds of the process and its workers, peak RSS summed over the tree's live
processes, peak PSS where readable):

- printkit cold: ``printkit build --cards-only`` (Letter, long-edge duplex) into an empty
  output folder, as a designer runs it;
- naive: the plain reportlab + ``qrcode`` script of issue 21, the QR code one filled path with
  one square per dark module (:mod:`bench_baselines`);
- tuned: the same primitives drawn the cheap ways (runs of modules, no ASCII85);
- printkit warm: the same build again, nothing changed (cards/s);
- printkit 1 card: the build again after one card's title changed (seconds).

``--art N`` adds N more cards, each with its own 1200 x 1680 px image (half JPEG, half PNG,
photographic noise) named in its ``art`` field: a cold build and a warm rebuild.
``--repeat R`` runs the three cold builds R times, alternating, and prints their medians: on
a busy machine compare CPU seconds, which the other processes disturb far less than wall time.

Every side runs with Python's compiled bytecode in place, as on a designer's machine: printkit
and card_data are compiled once before the first run (installed libraries already are), and
``PYTHONDONTWRITEBYTECODE``, if the shell sets it, is dropped for the children, so no run pays
for compiling printkit's modules again (~0.25 CPU s a process).

It prints every run, printkit's ratios to the baselines, then a table of issue 21's goals with
the figure measured and whether it is met, and the machine (cores, CPU, load at start). Not a
test: timings depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from checkout import child_env as checkout_env, import_from_here  # noqa: E402

import_from_here()

from bench_inputs import (change_one_title, generate_cards, make_art, make_database, printed_texts,  # noqa: E402
                          write_cards)
from process_tree import TreeUsage, pss_readable, run_tree  # noqa: E402

HERE = Path(__file__).resolve().parent
GAME = "carpe_cras"
MIB = 1024 * 1024

GOAL_WALL_X_NAIVE = 2.5
GOAL_CPU_X_TUNED = 1.5
GOAL_RSS_MIB = 150
GOAL_RSS_FLAT = 1.10
"""'Flat to 10,000': the largest N's peak RSS at most this times the smallest N's."""
GOAL_WARM_CARDS_PER_S = 3000
GOAL_ONE_CARD_S = 3.0
GOAL_ART_RSS_MIB, GOAL_ART_PDF_MB, GOAL_ART_CPU_S, GOAL_ART_WARM_S = 300, 120, 30, 2.0


@dataclass(frozen=True)
class Run:
    """One measured job: ``label`` ("printkit cold", "naive", ...), ``cards``, its
    :class:`TreeUsage` and the bytes of PDF it wrote (``pdf_bytes``)."""

    label: str
    cards: int
    usage: TreeUsage
    pdf_bytes: int


def child_env() -> dict[str, str]:
    """This process's environment for a measured child: bytecode cached as on a user's machine,
    this checkout's packages imported (:mod:`checkout`)."""
    return checkout_env({k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})


def compile_printkit() -> None:
    """Compile printkit's and card_data's modules where Python looks for them (their
    ``__pycache__``), as an install does, so that the first measured run is not the one that
    pays for compiling."""
    import compileall
    import importlib.util

    for package in ("printkit", "card_data"):
        for folder in importlib.util.find_spec(package).submodule_search_locations:
            compileall.compile_dir(folder, quiet=1)


def printkit_command() -> list[str]:
    """The ``printkit`` command of this Python's environment (its console script if installed)."""
    script = Path(sys.executable).parent / "printkit"
    return [str(script)] if script.exists() else [sys.executable, "-m", "printkit.cli"]


def pdf_bytes(folder: Path) -> int:
    """Bytes of every PDF under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*.pdf"))


def build_printkit(label: str, n: int, data: Path, out: Path, opts: argparse.Namespace, cache: Path) -> Run:
    """``printkit build --cards-only`` of ``data`` into ``out``; ``cache`` is its XDG cache home
    (fresh for a cold build, so no cache outside the output folder can flatter it either)."""
    env = {k: v for k, v in child_env().items() if k not in ("PRINTKIT_LANG", "PRINTKIT_BASE_URL")}
    env["XDG_CACHE_HOME"] = str(cache)
    args = [*printkit_command(), "build", "--data", str(data), "--out", str(out), "--cards-only",
            "--paper", "letter", "--base-url", opts.base_url]
    if opts.jobs:
        args += ["--jobs", str(opts.jobs)]
    usage = run_tree([*args, GAME], env=env, cwd=data.parent)
    return Run(label, n, usage, pdf_bytes(out))


def build_baseline(kind: str, n: int, texts: Path, out: Path) -> Run:
    """One of the plain reportlab scripts (``kind``: "naive" or "tuned") drawing ``texts``."""
    out.mkdir(parents=True, exist_ok=True)
    usage = run_tree([sys.executable, str(HERE / "bench_baselines.py"), kind, str(texts), str(out / f"{kind}.pdf")],
                     env=child_env())
    return Run(kind, n, usage, pdf_bytes(out))


def median_run(runs: list[Run]) -> Run:
    """One :class:`Run` whose figures are the medians of ``runs`` (same label and cards)."""
    if len(runs) == 1:
        return runs[0]
    med = statistics.median
    usages = [r.usage for r in runs]
    pss = [u.peak_pss for u in usages if u.peak_pss is not None]
    usage = TreeUsage(med([u.wall_s for u in usages]), med([u.cpu_s for u in usages]),
                      int(med([u.peak_rss for u in usages])), int(med(pss)) if pss else None,
                      max(u.processes for u in usages))
    return Run(runs[0].label, runs[0].cards, usage, int(med([r.pdf_bytes for r in runs])))


def print_run(run: Run, extra: str = "") -> None:
    """One row of the runs table."""
    u = run.usage
    pss = f"{u.peak_pss / MIB:9.1f}" if u.peak_pss is not None else f"{'n/a':>9}"
    per_card = f"{run.pdf_bytes / run.cards:11.0f}" if run.pdf_bytes else f"{'':>11}"
    print(f"{run.cards:>6} {run.label:<16} {u.wall_s:8.2f} {u.cpu_s:8.2f} {run.cards / u.wall_s:9.1f} "
          f"{u.peak_rss / MIB:9.1f} {pss} {per_card} {u.processes:>5}  {extra}", flush=True)


def machine() -> str:
    """Cores, CPU model, load average now, Python and the date: what the figures depend on."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"machine: {os.cpu_count()} cores, {model}, load average at start {load} (1/5/15 min); "
            f"Python {platform.python_version()}, {platform.system()} {platform.release()}; "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; PSS "
            f"{'from /proc/<pid>/smaps_rollup' if pss_readable() else 'not readable here'}")


def bench_cards(n: int, work: Path, opts: argparse.Namespace) -> dict[str, Run]:
    """The cold builds (``opts.repeat`` times each, alternating; medians), then warm and one
    changed card, for ``n`` generated cards; returns the runs by label."""
    root = work / f"db-{n}"
    cards = generate_cards(GAME, n, opts.seed)
    data = make_database(GAME, cards, root)
    texts = root / "texts.json"
    texts.write_text(json.dumps(printed_texts(GAME, cards, opts.base_url), ensure_ascii=False), encoding="utf-8")
    del cards
    out, cache = root / "out-printkit", root / "xdg-cache"
    cold: dict[str, list[Run]] = {"printkit cold": [], "naive": [], "tuned": []}
    for _ in range(opts.repeat):
        for path in (out, cache):
            shutil.rmtree(path, ignore_errors=True)
        cold["printkit cold"].append(build_printkit("printkit cold", n, data, out, opts, cache))
        for kind in ("naive", "tuned"):
            shutil.rmtree(root / f"out-{kind}", ignore_errors=True)
            cold[kind].append(build_baseline(kind, n, texts, root / f"out-{kind}"))
    runs = {label: median_run(rs) for label, rs in cold.items()}
    runs["printkit warm"] = build_printkit("printkit warm", n, data, out, opts, cache)
    change_one_title(data / GAME)
    runs["printkit 1 card"] = build_printkit("printkit 1 card", n, data, out, opts, cache)
    pk, naive, tuned = runs["printkit cold"], runs["naive"], runs["tuned"]
    for label, run in runs.items():
        extra = ""
        if label == "printkit cold":
            extra = (f"wall x naive {naive.usage.wall_s / pk.usage.wall_s:.2f}, "
                     f"CPU x tuned {pk.usage.cpu_s / tuned.usage.cpu_s:.2f}")
        print_run(run, extra)
    shutil.rmtree(root / "out-naive", ignore_errors=True)
    shutil.rmtree(root / "out-tuned", ignore_errors=True)
    return runs


def bench_art(n: int, work: Path, opts: argparse.Namespace) -> dict[str, Run]:
    """A cold build and a warm rebuild of ``n`` cards each with its own image."""
    root = work / f"art-{n}"
    cards = generate_cards(GAME, n, opts.seed + 1)
    data = make_database(GAME, [], root)
    start = time.perf_counter()
    art_bytes = make_art(data / GAME, cards, opts.seed)
    write_cards(data / GAME, cards)
    print(f"{n:>6} art files: {art_bytes / 1e6:.1f} MB in {time.perf_counter() - start:.1f} s "
          f"(generated, not timed)", flush=True)
    out, cache = root / "out-printkit", root / "xdg-cache"
    runs = {"art cold": build_printkit("art cold", n, data, out, opts, cache)}
    runs["art warm"] = build_printkit("art warm", n, data, out, opts, cache)
    for run in runs.values():
        print_run(run, f"PDF {run.pdf_bytes / 1e6:.1f} MB")
    return runs


def goal_rows(card_runs: dict[int, dict[str, Run]], art_runs: dict[str, Run] | None, art_n: int) -> list[tuple]:
    """``(figure, value text, goal text, met)`` for each goal issue 21 sets."""
    rows = []
    for n, runs in card_runs.items():
        pk, naive, tuned = runs["printkit cold"].usage, runs["naive"].usage, runs["tuned"].usage
        wall_x, cpu_x = naive.wall_s / pk.wall_s, pk.cpu_s / tuned.cpu_s
        warm_run, one_run = runs["printkit warm"].usage, runs["printkit 1 card"].usage
        warm, one = n / warm_run.wall_s, one_run.wall_s
        rss = pk.peak_rss / MIB
        rows += [(f"{n} cards: wall, naive / printkit", f"{wall_x:.2f}x", f">= {GOAL_WALL_X_NAIVE}x (2 idle cores)",
                  wall_x >= GOAL_WALL_X_NAIVE),
                 (f"{n} cards: CPU, printkit / tuned", f"{cpu_x:.2f}x", f"<= {GOAL_CPU_X_TUNED}x", cpu_x <= GOAL_CPU_X_TUNED),
                 (f"{n} cards: whole-tree peak RSS", f"{rss:.0f} MiB", f"<= {GOAL_RSS_MIB} MiB", rss <= GOAL_RSS_MIB),
                 (f"{n} cards: warm rebuild", f"{warm:.0f} cards/s (CPU {warm_run.cpu_s:.1f} s)", f">= {GOAL_WARM_CARDS_PER_S} cards/s",
                  warm >= GOAL_WARM_CARDS_PER_S),
                 (f"{n} cards: one changed title", f"{one:.2f} s (CPU {one_run.cpu_s:.1f} s)", f"< {GOAL_ONE_CARD_S:g} s", one < GOAL_ONE_CARD_S)]
    if len(card_runs) > 1:
        sizes = sorted(card_runs)
        low, high = (card_runs[s]["printkit cold"].usage.peak_rss for s in (sizes[0], sizes[-1]))
        rows.append((f"peak RSS {sizes[0]} -> {sizes[-1]} cards", f"{high / low:.2f}x",
                     f"flat (<= {GOAL_RSS_FLAT:g}x)", high <= GOAL_RSS_FLAT * low))
    if art_runs:
        cold, warm = art_runs["art cold"], art_runs["art warm"]
        rows += [(f"art {art_n}: cold whole-tree peak RSS", f"{cold.usage.peak_rss / MIB:.0f} MiB",
                  f"<= {GOAL_ART_RSS_MIB} MiB", cold.usage.peak_rss / MIB <= GOAL_ART_RSS_MIB),
                 (f"art {art_n}: PDF size", f"{cold.pdf_bytes / 1e6:.1f} MB", f"<= {GOAL_ART_PDF_MB} MB",
                  cold.pdf_bytes / 1e6 <= GOAL_ART_PDF_MB),
                 (f"art {art_n}: cold CPU", f"{cold.usage.cpu_s:.1f} s", f"<= {GOAL_ART_CPU_S} s",
                  cold.usage.cpu_s <= GOAL_ART_CPU_S),
                 (f"art {art_n}: warm rebuild", f"{warm.usage.wall_s:.2f} s (CPU {warm.usage.cpu_s:.1f} s)", f"< {GOAL_ART_WARM_S:g} s",
                  warm.usage.wall_s < GOAL_ART_WARM_S)]
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="*", default=[900, 5000, 10000], help="card counts (default: %(default)s)")
    parser.add_argument("--art", type=int, default=0, help="also N cards with their own images (default: none)")
    parser.add_argument("--seed", type=int, default=21, help="what the texts and images are drawn from")
    parser.add_argument("--repeat", type=int, default=1, help="cold runs of each side, alternating (medians)")
    parser.add_argument("--jobs", type=int, help="printkit --jobs (default: printkit's, the number of CPUs)")
    parser.add_argument("--base-url", default="http://192.168.1.20:5000")
    opts = parser.parse_args(argv)
    if any(n < 1 for n in opts.cards) or opts.art < 0 or opts.repeat < 1:
        parser.error("card counts and --repeat must be at least 1, --art at least 0")

    compile_printkit()
    print(machine())
    print(f"{'cards':>6} {'run':<16} {'wall s':>8} {'CPU s':>8} {'cards/s':>9} {'RSS MiB':>9} {'PSS MiB':>9} "
          f"{'bytes/card':>11} {'procs':>5}", flush=True)
    card_runs: dict[int, dict[str, Run]] = {}
    art_runs = None
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        for n in opts.cards:
            card_runs[n] = bench_cards(n, Path(tmp), opts)
        if opts.art:
            art_runs = bench_art(opts.art, Path(tmp), opts)

    print("\nfigures (wall and CPU in seconds; CPU and memory over the whole process tree):")
    for figure, value, goal, met in goal_rows(card_runs, art_runs, opts.art):
        print(f"  {figure:<40} {value:>28}   goal {goal:<26} {'met' if met else 'NOT MET'}")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
