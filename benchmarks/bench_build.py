"""Benchmark: `printkit build` of N cards against a bare reportlab script drawing the same primitives.

Run:  python benchmarks/bench_build.py --cards 100 1000 5000

For each N it makes a throw-away card database of N cards (clones of the bundled game's cards
with fresh ids), then, each in its own process so peak memory is its own, times

- printkit: the whole build (load + validate + lay out + render + write), and
- bare reportlab: one script drawing the same primitives per card (crop marks, background,
  band, title, four body lines, art placeholder, vector QR code by runs, a duplex back page),

and prints cards per second, bytes per card and peak memory (max RSS) for both.
Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve()


def make_database(game: str, n: int, root: Path) -> Path:
    """A database folder holding only ``game`` with ``n`` cards cloned from the bundled ones."""
    from card_data.loader import bundled_data_dir

    src = bundled_data_dir() / game
    dst = root / "data" / game
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("decks", "cards"))
    originals = []
    for path in sorted((src / "cards").glob("*.yaml")):
        originals.extend(yaml.safe_load(path.read_text(encoding="utf-8")) or [])
    originals = [c for c in originals if c.get("type") not in ("reference", "token")] or originals
    cards = []
    for i in range(n):
        card = dict(originals[i % len(originals)])
        card["id"] = f"bench-{i:05d}"
        cards.append(card)
    (dst / "cards").mkdir()
    (dst / "cards" / "bench.yaml").write_text(yaml.safe_dump(cards, allow_unicode=True), encoding="utf-8")
    return root / "data"


def run_printkit(data: Path, out: Path, game: str) -> None:
    from printkit.build import BuildOptions, build
    from printkit.sheets.paper import paper_by_name

    result = build(data, out, BuildOptions(paper_by_name("letter"), "http://192.168.1.20:5000"), [game],
                   cards_only=True)
    if result.problems:
        raise SystemExit("\n".join(map(str, result.problems[:20])))


def run_bare(n: int, out: Path, game: str) -> None:
    """The same primitives with plain reportlab calls, no layout engine, no validation."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from printkit.sheets.fonts import FONT_DIR
    from printkit.sheets.qr import dark_runs, qr_matrix

    pdfmetrics.registerFont(TTFont("DV", str(FONT_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("DVB", str(FONT_DIR / "DejaVuSans-Bold.ttf")))
    W, H, cw, ch = 215.9, 279.4, 63.5, 88.9
    gx, gy = (W - 3 * cw) / 2, (H - 3 * ch) / 2
    out.mkdir(parents=True, exist_ok=True)
    c = Canvas(str(out / "bare.pdf"), pagesize=(W * mm, H * mm), invariant=1)

    def crop_marks():
        c.setLineWidth(0.25)
        for i in range(4):
            x = (gx + i * cw) * mm
            c.line(x, (H - gy + 3.5) * mm, x, (H - gy + 6) * mm)
            c.line(x, (gy - 3.5) * mm, x, (gy - 6) * mm)
            y = (H - gy - i * ch) * mm
            c.line((gx - 3.5) * mm, y, (gx - 8) * mm, y)
            c.line((W - gx + 3.5) * mm, y, (W - gx + 8) * mm, y)

    for start in range(0, n, 9):
        batch = range(start, min(n, start + 9))
        crop_marks()
        for slot, i in enumerate(batch):
            r, col = divmod(slot, 3)
            x0, top = gx + col * cw, H - gy - r * ch
            c.setFillColor(HexColor("#f6f1e7"))
            c.rect(x0 * mm, (top - ch) * mm, cw * mm, ch * mm, stroke=0, fill=1)
            c.setFillColor(HexColor("#7a1f1f"))
            c.rect(x0 * mm, (top - 14) * mm, cw * mm, 14 * mm, stroke=0, fill=1)
            c.setFillColor(HexColor("#ffffff"))
            c.setFont("DVB", 11)
            c.drawString((x0 + 4) * mm, (top - 9) * mm, f"Card {i}")
            c.setFillColor(HexColor("#000000"))
            c.setFont("DV", 8)
            for k in range(4):
                c.drawString((x0 + 4) * mm, (top - 50 - 4 * k) * mm, "Some rules text on a line of a card body")
            c.setStrokeColor(HexColor("#a39d93"))
            c.rect((x0 + 4) * mm, (top - 44) * mm, 55.5 * mm, 30 * mm, stroke=1, fill=0)
            c.line((x0 + 4) * mm, (top - 44) * mm, (x0 + 59.5) * mm, (top - 14) * mm)
            matrix = qr_matrix(f"http://192.168.1.20:5000/r/{game}/bench-{i:05d}")
            m = 15 / (len(matrix) + 4)
            p = c.beginPath()
            for row, col0, length in dark_runs(matrix):
                p.rect((x0 + 45.5 + (col0 + 2) * m) * mm, (top - 71 - (row + 3) * m) * mm, length * m * mm, m * mm)
            c.drawPath(p, stroke=0, fill=1)
        c.showPage()
        crop_marks()
        for slot, _ in enumerate(batch):
            r, col = divmod(slot, 3)
            x0, top = gx + (2 - col) * cw, H - gy - r * ch
            c.setFillColor(HexColor("#203040"))
            c.rect(x0 * mm, (top - ch) * mm, cw * mm, ch * mm, stroke=0, fill=1)
            c.setFillColor(HexColor("#ffffff"))
            c.setFont("DVB", 14)
            c.drawCentredString((x0 + cw / 2) * mm, (top - 45) * mm, "Deck back")
        c.showPage()
    c.save()


def measure(kind: str, n: int, game: str, work: Path) -> tuple[float, int, int]:
    """Run one side in a child process; returns (seconds, output bytes, peak RSS in KiB)."""
    out = work / f"out-{kind}"
    shutil.rmtree(out, ignore_errors=True)
    args = [sys.executable, str(HERE), "--worker", kind, "--cards", str(n), "--game", game, "--work", str(work)]
    start = time.perf_counter()
    proc = subprocess.Popen(args)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{kind} worker failed with exit code {proc.returncode}")
    size = sum(p.stat().st_size for p in out.rglob("*.pdf"))
    return seconds, size, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--game", default="carpe_cras")
    parser.add_argument("--worker", choices=["printkit", "bare"], help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        n = args.cards[0]
        out = args.work / f"out-{args.worker}"
        if args.worker == "printkit":
            run_printkit(args.work / f"db-{n}" / "data", out, args.game)
        else:
            run_bare(n, out, args.game)
        return

    print(f"{'cards':>6} {'tool':<15} {'seconds':>8} {'cards/s':>9} {'bytes/card':>11} {'peak MiB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for n in args.cards:
            make_database(args.game, n, work / f"db-{n}")
            for kind, label in (("printkit", "printkit build"), ("bare", "bare reportlab")):
                seconds, size, rss_kib = measure(kind, n, args.game, work)
                print(f"{n:>6} {label:<15} {seconds:>8.2f} {n / seconds:>9.1f} {size / n:>11.0f} {rss_kib / 1024:>9.1f}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
