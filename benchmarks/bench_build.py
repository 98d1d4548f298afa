"""Benchmark: `printkit build` of N cards against a bare reportlab script drawing the same primitives.

Run:  python benchmarks/bench_build.py --cards 100 1000 5000

For each N it makes a throw-away card database of N cards (clones of the bundled game's cards
with fresh ids; the game's ``kit.yaml`` is left out, its card ids being gone), then, each in its
own process so peak memory is its own, times

- printkit: the whole build (load + validate + lay out + render + write),
- naive reportlab: the stack's plain baseline of issue 10, what anyone would write first: each
  card on a reportlab canvas with crop marks, a rounded safe-area line, a title, four body
  lines and a QR code from ``qrcode`` drawn one square per dark module, a backs page after
  each fronts page, reportlab's defaults otherwise, and
- tuned reportlab: one script drawing the same primitives as a printkit card (crop marks,
  background, band, title, four body lines, art placeholder, vector QR code by runs, a duplex
  back page) the cheap way,

and prints cards per second, bytes per card and peak memory (max RSS) for each, with
printkit's cards/s as a ratio of each bare script's; then printkit again into the same output
folder, nothing changed ("printkit warm": its cards/s), and after one card's title changed
("printkit 1 card": its seconds). Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import copy
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve()


CARDS_PER_FILE = 250


def make_database(game: str, n: int, root: Path) -> Path:
    """A database folder holding only ``game`` with ``n`` cards cloned from the bundled ones."""
    from card_data.loader import bundled_data_dir

    src = bundled_data_dir() / game
    dst = root / "data" / game
    # Generated cards: the bundled ones' printed versions (printings.yaml) would name cards not there.
    # The game folder is its Python package too: a designer's copy holds its data and layouts only.
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("decks", "cards", "kit.yaml", "printings.yaml",
                                                            "*.py", "__pycache__", "table.html"))
    originals = []
    for path in sorted((src / "cards").glob("*.yaml")):
        originals.extend(yaml.safe_load(path.read_text(encoding="utf-8")) or [])
    originals = [c for c in originals if c.get("type") not in ("reference", "token")] or originals
    cards = []
    for i in range(n):
        # A deep copy: shared lists would be written as YAML aliases, which the loader limits.
        card = copy.deepcopy(originals[i % len(originals)])
        card["id"] = f"bench-{i:05d}"
        cards.append(card)
    (dst / "cards").mkdir()
    # Files of CARDS_PER_FILE cards, as a designer keeps them (the bundled files hold 5-60):
    # the loader holds one file's YAML tree at a time, so this is what a real database costs.
    for start in range(0, n, CARDS_PER_FILE):
        chunk = cards[start:start + CARDS_PER_FILE]
        (dst / "cards" / f"bench-{start // CARDS_PER_FILE:03d}.yaml").write_text(
            yaml.safe_dump(chunk, allow_unicode=True), encoding="utf-8")
    return root / "data"


def run_printkit(data: Path, out: Path, game: str) -> None:
    from printkit.build import BuildOptions, build
    from printkit.sheets.paper import paper_by_name

    result = build(data, out, BuildOptions(paper_by_name("letter"), "http://192.168.1.20:5000"), [game],
                   cards_only=True, jobs=os.cpu_count() or 1)  # as `printkit build` does
    if result.problems:
        raise SystemExit("\n".join(map(str, result.problems[:20])))


# The baselines' sheet: Letter, 3 x 3 poker cards abutting, in mm.
W, H, CW, CH = 215.9, 279.4, 63.5, 88.9
GX, GY = (W - 3 * CW) / 2, (H - 3 * CH) / 2


def draw_crop_marks(c) -> None:
    """The baselines' crop marks on reportlab canvas ``c``: one pair per trim line of the grid."""
    from reportlab.lib.units import mm

    c.setLineWidth(0.25)
    for i in range(4):
        x = (GX + i * CW) * mm
        c.line(x, (H - GY + 3.5) * mm, x, (H - GY + 6) * mm)
        c.line(x, (GY - 3.5) * mm, x, (GY - 6) * mm)
        y = (H - GY - i * CH) * mm
        c.line((GX - 3.5) * mm, y, (GX - 8) * mm, y)
        c.line((W - GX + 3.5) * mm, y, (W - GX + 8) * mm, y)


def run_naive(n: int, out: Path, game: str) -> None:
    """Issue 10's naive baseline: plain reportlab and ``qrcode``, one square per dark module."""
    import qrcode
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    W, H, cw, ch = 215.9, 279.4, 63.5, 88.9
    gx, gy = (W - 3 * cw) / 2, (H - 3 * ch) / 2
    out.mkdir(parents=True, exist_ok=True)
    c = Canvas(str(out / "naive.pdf"), pagesize=(W * mm, H * mm), invariant=1)

    def crop_marks():
        draw_crop_marks(c)

    for start in range(0, n, 9):
        batch = range(start, min(n, start + 9))
        crop_marks()
        for slot, i in enumerate(batch):
            r, col = divmod(slot, 3)
            x0, top = gx + col * cw, H - gy - r * ch
            c.setLineWidth(0.5)
            c.roundRect((x0 + 3) * mm, (top - ch + 3) * mm, (cw - 6) * mm, (ch - 6) * mm, 2 * mm, stroke=1, fill=0)
            c.setFont("Helvetica-Bold", 11)
            c.drawString((x0 + 5) * mm, (top - 10) * mm, f"Card {i}")
            c.setFont("Helvetica", 8)
            for k in range(4):
                c.drawString((x0 + 5) * mm, (top - 50 - 4 * k) * mm, "Some rules text on a line of a card body")
            code = qrcode.QRCode(border=0)
            code.add_data(f"http://192.168.1.20:5000/r/{game}/bench-{i:05d}")
            code.make(fit=True)
            matrix = code.get_matrix()
            m = 15 / (len(matrix) + 8)
            qx, qtop = x0 + 44.5, top - 69
            for row, cells in enumerate(matrix):
                for col0, dark in enumerate(cells):
                    if dark:
                        c.rect((qx + (col0 + 4) * m) * mm, (qtop - (row + 5) * m) * mm, m * mm, m * mm,
                               stroke=0, fill=1)
        c.showPage()
        crop_marks()
        for slot, _ in enumerate(batch):
            r, col = divmod(slot, 3)
            x0, top = gx + (2 - col) * cw, H - gy - r * ch
            c.setLineWidth(0.5)
            c.roundRect((x0 + 3) * mm, (top - ch + 3) * mm, (cw - 6) * mm, (ch - 6) * mm, 2 * mm, stroke=1, fill=0)
            c.setFont("Helvetica-Bold", 14)
            c.drawCentredString((x0 + cw / 2) * mm, (top - 45) * mm, "Deck back")
        c.showPage()
    c.save()


def run_bare(n: int, out: Path, game: str) -> None:
    """The same primitives as a printkit card with plain reportlab calls, no layout engine, no
    validation, tuned the cheap ways (QR runs, no ASCII85)."""
    from reportlab import rl_config
    from reportlab.lib.colors import HexColor
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from printkit.sheets.fonts import FONT_DIR
    from printkit.sheets.qr import dark_runs, qr_matrix

    rl_config.useA85 = 0
    pdfmetrics.registerFont(TTFont("DV", str(FONT_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("DVB", str(FONT_DIR / "DejaVuSans-Bold.ttf")))
    W, H, cw, ch = 215.9, 279.4, 63.5, 88.9
    gx, gy = (W - 3 * cw) / 2, (H - 3 * ch) / 2
    out.mkdir(parents=True, exist_ok=True)
    c = Canvas(str(out / "bare.pdf"), pagesize=(W * mm, H * mm), invariant=1)

    def crop_marks():
        draw_crop_marks(c)

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


def measure_rebuilds(n: int, game: str, work: Path) -> list[tuple[str, float, int]]:
    """After printkit's cold build into ``out-printkit``: a warm rebuild with nothing changed,
    then one with one card's title changed; ``[(label, seconds, peak RSS in KiB)]``."""
    rows = []
    for label in ("printkit warm", "printkit 1 card"):
        if label == "printkit 1 card":
            run_small_parent([sys.executable, str(HERE), "--worker", "change-card", "--cards", str(n),
                              "--game", game, "--work", str(work)])
        args = [sys.executable, str(HERE), "--worker", "printkit", "--cards", str(n), "--game", game,
                "--work", str(work)]
        start = time.perf_counter()
        proc = subprocess.Popen(args)
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{label} failed")
        rows.append((label, time.perf_counter() - start, usage.ru_maxrss))
    return rows


def change_first_card(n: int, game: str, work: Path) -> None:
    """Append " (changed)" to the first card's title in the ``n``-card database."""
    cards_file = work / f"db-{n}" / "data" / game / "cards" / "bench-000.yaml"
    cards = yaml.safe_load(cards_file.read_text(encoding="utf-8"))
    cards[0]["title"] += " (changed)"
    cards_file.write_text(yaml.safe_dump(cards, allow_unicode=True), encoding="utf-8")


def run_small_parent(args: list[str]) -> None:
    """Run a preparation step (``--worker make-db`` or ``change-card``) in a child process.

    Why: a child's peak RSS as ``wait4`` reports it starts from its parent's size at the
    ``fork``/``exec`` (Linux keeps the pre-exec high-water mark), so loading thousands of cards
    in this process would inflate every later measurement.
    """
    subprocess.run(args, check=True)


RUNNERS = {"naive": run_naive, "bare": run_bare}
"""The bare scripts by worker name; ``printkit`` runs :func:`run_printkit`."""


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
    parser.add_argument("--worker", choices=["printkit", "make-db", "change-card", *sorted(RUNNERS)],
                        help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        n = args.cards[0]
        out = args.work / f"out-{args.worker}"
        if args.worker == "make-db":
            make_database(args.game, n, args.work / f"db-{n}")
        elif args.worker == "change-card":
            change_first_card(n, args.game, args.work)
        elif args.worker == "printkit":
            run_printkit(args.work / f"db-{n}" / "data", out, args.game)
        else:
            RUNNERS[args.worker](n, out, args.game)
        return

    print(f"{'cards':>6} {'tool':<16} {'seconds':>8} {'cards/s':>9} {'bytes/card':>11} {'peak MiB':>9} "
          f"{'printkit x':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for n in args.cards:
            run_small_parent([sys.executable, str(HERE), "--worker", "make-db", "--cards", str(n),
                              "--game", args.game, "--work", str(work)])
            printkit_seconds = None
            for kind, label in (("printkit", "printkit build"), ("naive", "naive reportlab"),
                                ("bare", "tuned reportlab")):
                seconds, size, rss_kib = measure(kind, n, args.game, work)
                if kind == "printkit":
                    printkit_seconds, ratio = seconds, ""
                else:
                    # printkit's cards/s over this script's: 2.0 = printkit twice as fast.
                    ratio = f"{seconds / printkit_seconds:.2f}"
                print(f"{n:>6} {label:<16} {seconds:>8.2f} {n / seconds:>9.1f} {size / n:>11.0f} "
                      f"{rss_kib / 1024:>9.1f} {ratio:>11}")
                if kind == "printkit":  # warm rebuild cards/s; one changed card: its seconds
                    for label_, seconds_, rss_ in measure_rebuilds(n, args.game, work):
                        rate = f"{n / seconds_:.1f}" if label_ == "printkit warm" else ""  # 1 card: seconds
                        print(f"{n:>6} {label_:<16} {seconds_:>8.2f} {rate:>9} {'':>11} "
                              f"{rss_ / 1024:>9.1f} {'':>11}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
