"""A deck larger than CARDS_PER_FILE cards prints as several files (parts), so memory stays
flat in the deck's size and the process pool has files to share out; every card still prints
once per copy, in order."""

from __future__ import annotations

import copy
import shutil

import pypdf
import pypdfium2
import yaml
import zxingcpp
from click.testing import CliRunner

from card_data.loader import bundled_data_dir
from card_data.editions.short_codes import card_code, short_url
from printkit.pipeline.deck_files import CARDS_PER_FILE

SHEETS_PER_FILE = CARDS_PER_FILE // 9  # Letter, 9 a sheet
from printkit.cli import main as printkit_cli

CARDS = 9 * SHEETS_PER_FILE * 2 + 13  # two full parts and a short third on Letter (9 a sheet)


def big_database(tmp_path):
    src = bundled_data_dir() / "carpe_cras"
    dst = tmp_path / "data" / "carpe_cras"
    # Cards of its own: none of the bundled cards, nor their printed versions (printings.yaml).
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("decks", "cards", "kit.yaml", "printings.yaml"))
    originals = []
    for path in sorted((src / "cards").glob("*.yaml")):
        originals += [c for c in yaml.safe_load(path.read_text(encoding="utf-8")) or []
                      if c.get("type") == "unit"]
    cards = []
    for i in range(CARDS):
        card = copy.deepcopy(originals[i % len(originals)])
        card["id"] = f"big-{i:04d}"
        cards.append(card)
    (dst / "cards").mkdir()
    (dst / "cards" / "big.yaml").write_text(yaml.safe_dump(cards, allow_unicode=True), encoding="utf-8")
    return tmp_path / "data"


def test_a_deck_past_the_file_limit_prints_as_parts_holding_every_card_in_order(tmp_path):
    out, data = tmp_path / "out", big_database(tmp_path)
    for jobs in ("1", "2"):
        result = CliRunner().invoke(printkit_cli, [
            "build", "carpe_cras", "--catalog", "--cards-only", "--data", str(data),
            "--out", str(out / jobs), "--base-url", "http://t.example", "--jobs", jobs])
        assert result.exit_code == 0, result.output
    folder = out / "1" / "carpe_cras"
    parts = sorted(p.name for p in folder.glob("*-cards.pdf"))
    assert parts == ["draw-part-1-cards.pdf", "draw-part-2-cards.pdf", "draw-part-3-cards.pdf"]
    pages = [len(pypdf.PdfReader(folder / n).pages) for n in parts]
    # Long-edge duplex: each fronts page is followed by its backs page.
    assert pages == [2 * SHEETS_PER_FILE, 2 * SHEETS_PER_FILE, 2 * -(-13 // 9)]
    # In order: each part starts where the one before ended (QR codes on its first sheet).
    for name, first in zip(parts, (0, 9 * SHEETS_PER_FILE, 18 * SHEETS_PER_FILE), strict=True):
        doc = pypdfium2.PdfDocument(folder / name)
        image = doc[0].render(scale=300 / 72).to_pil()
        found = {b.text for b in zxingcpp.read_barcodes(image)}
        # An unversioned game: each code names the card alone.
        assert found == {short_url("http://t.example", card_code("carpe_cras", f"big-{i:04d}", None))
                         for i in range(first, first + 9)}, found
    # Serial and parallel builds write the same bytes.
    assert {n: (folder / n).read_bytes() for n in parts} == {
        n: (out / "2" / "carpe_cras" / n).read_bytes() for n in parts}
