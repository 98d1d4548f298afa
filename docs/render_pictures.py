"""Re-render the README's pictures of the output: python docs/render_pictures.py

Builds the bundled database on Letter into a temporary folder and rasterises chosen pages
to small PNGs under docs/images/.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2

HERE = Path(__file__).resolve().parent
PICTURES = {
    # picture name: (PDF under output/, page index)
    "card-sheet-front": ("carpe_cras/might-cunning-draw-cards.pdf", 0),
    "card-sheet-back": ("carpe_cras/might-cunning-draw-cards.pdf", 1),
    "reference-cards": ("cartisora/reference-cards.pdf", 0),
    "battlefield-assembly": ("carpe_cras/battlefield-lane.pdf", 0),
    "battlefield-piece": ("carpe_cras/battlefield-lane.pdf", 1),
    "game-mat-assembly": ("cahrd/game-mat.pdf", 0),
    "tokens": ("carpe_cras/tokens.pdf", 0),
    "scorepad": ("carpe_diem/scorepad.pdf", 0),
    "calibration": ("calibration.pdf", 0),
    "registration": ("calibration.pdf", 1),
}
DPI = 50


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        printkit = [sys.executable, "-m", "printkit.cli"]
        subprocess.run([*printkit, "build", "--out", str(out), "--base-url", "http://192.168.1.20:5000"], check=True)
        subprocess.run([*printkit, "calibration", "--out", str(out)], check=True)
        (HERE / "images").mkdir(exist_ok=True)
        for name, (pdf, page) in PICTURES.items():
            doc = pypdfium2.PdfDocument(str(out / pdf))
            doc[page].render(scale=DPI / 72).to_pil().save(HERE / "images" / f"{name}.png", optimize=True)
            doc.close()
            print(f"docs/images/{name}.png")


if __name__ == "__main__":
    main()
