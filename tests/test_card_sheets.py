"""printkit build, measured from the PDFs it writes: page size, trim from crop marks, bleed,
safe area, duplex back registration, QR codes decoded from rendered pages, reproducibility."""

from __future__ import annotations

import html
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
import zxingcpp
from click.testing import CliRunner
from database_edits import copy_database
from pdf_measure import Box, crop_marks, drawn_objects, mm
from qr_scan import opened_page

from card_data.loader import load_database
from printkit.build_options import BLEED_MM
from printkit.pipeline.card_faces import card_qr_url, card_url
from printkit.cli import main as printkit_cli
from printkit.components.packing import LOOSE_DECK_MAX_CARDS

BASE_URL = "http://192.168.1.20:5000"
POKER_W_MM, POKER_H_MM = 63.5, 88.9
PAPER_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
DB = load_database()


def run_build(out: Path, *args: str, data: Path | None = None):
    """`printkit build --catalog`: every card once, so each QR code is expected exactly once."""
    cli_args = ["build", "--catalog", "--out", str(out), "--base-url", BASE_URL, *args]
    if data is not None:
        cli_args += ["--data", str(data)]
    return CliRunner().invoke(printkit_cli, cli_args)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """The bundled database built on Letter (long-edge), A4 (short-edge) and Letter without duplex."""
    outs = {}
    for name, args in {"letter-long": ["--paper", "letter", "--duplex", "long"],
                       "a4-short": ["--paper", "a4", "--duplex", "short"],
                       "letter-none": ["--paper", "letter", "--duplex", "none"]}.items():
        out = tmp_path_factory.mktemp(name)
        result = run_build(out, *args)
        assert result.exit_code == 0, result.output
        outs[name] = out
    return outs


def card_pdfs(out: Path) -> list[Path]:
    return sorted(out.glob("*/*-cards.pdf"))


def test_every_game_and_back_kind_gets_a_card_sheet(built):
    for variant in ("letter-long", "a4-short"):
        names = {f"{p.parent.name}/{p.name}" for p in card_pdfs(built[variant])}
        # A back kind of one or two cards (Carpe Diem's fountain card) prints as fold-over pairs
        # on the game's shared sheet instead (score pad page or token sheet).
        expected = {f"{g.game_id}/{kind}-cards.pdf" for g in DB.games.values() for kind in g.info.backs
                    if sum(c.back_kind() == kind for c in g.cards.values()) > LOOSE_DECK_MAX_CARDS}
        expected |= {f"{g.game_id}/reference-cards.pdf" for g in DB.games.values()}
        assert names == expected
    # The decks the rulebooks give their own backs really do get their own files.
    assert (built["letter-long"] / "carpe_cras" / "draw-cards.pdf").exists()
    assert (built["letter-long"] / "carpe_cras" / "agency-cards.pdf").exists()
    assert (built["letter-long"] / "cahrd" / "strategy-cards.pdf").exists()


@pytest.mark.parametrize("variant,paper", [("letter-long", "letter"), ("a4-short", "a4")])
def test_page_size_and_trim_measured_from_crop_marks(built, variant, paper):
    for pdf in card_pdfs(built[variant]):
        game = DB.games[pdf.parent.name]
        w_mm, h_mm = game.info.card_size.width_mm, game.info.card_size.height_mm
        with pdfplumber.open(pdf) as doc:
            for page in doc.pages:
                assert mm(page.width) == pytest.approx(PAPER_MM[paper][0], abs=0.05)
                assert mm(page.height) == pytest.approx(PAPER_MM[paper][1], abs=0.05)
                xs, ys, _ = crop_marks(page)
                assert len(xs) == 4 and len(ys) == 4, (pdf, xs, ys)
                for a, b in zip(xs, xs[1:]):
                    assert b - a == pytest.approx(w_mm, abs=0.1)
                for a, b in zip(ys, ys[1:]):
                    assert b - a == pytest.approx(h_mm, abs=0.1)
                # Centred on the sheet.
                assert xs[0] == pytest.approx(mm(page.width) - xs[-1], abs=0.1)
                assert ys[0] == pytest.approx(mm(page.height) - ys[-1], abs=0.1)


def test_bundled_cards_are_poker_size():
    for game in DB.games.values():
        assert (game.info.card_size.width_mm, game.info.card_size.height_mm) == (POKER_W_MM, POKER_H_MM)


def _grid(page):
    xs, ys, marks = crop_marks(page)
    return xs, ys, marks, Box(xs[0], ys[0], xs[-1], ys[-1])


@pytest.mark.parametrize("variant", ["letter-long", "a4-short"])
def test_crop_marks_lie_outside_the_bleed_and_never_touch_a_card(built, variant):
    full_pages = 0
    for pdf in card_pdfs(built[variant]):
        with pdfplumber.open(pdf) as doc:
            for page in doc.pages:
                xs, ys, marks, grid = _grid(page)
                bleed = Box(grid.x0 - BLEED_MM, grid.top - BLEED_MM, grid.x1 + BLEED_MM, grid.bottom + BLEED_MM)
                objects = drawn_objects(page)
                assert objects, "a card page with nothing on it"
                for obj in objects:
                    # Artwork stays within trim + 3 mm bleed...
                    assert bleed.contains(obj, tol=0.05), (pdf, obj)
                for mark in marks:
                    # ...and no crop mark reaches into it.
                    assert not bleed.intersects(mark), (pdf, mark)
                if len(_occupied(page, xs, ys)) == 9:
                    full_pages += 1
                    # The colour runs to the bleed edge: on a full sheet, drawing reaches it on every side.
                    assert min(o.x0 for o in objects) == pytest.approx(bleed.x0, abs=0.05)
                    assert max(o.x1 for o in objects) == pytest.approx(bleed.x1, abs=0.05)
                    assert min(o.top for o in objects) == pytest.approx(bleed.top, abs=0.05)
                    assert max(o.bottom for o in objects) == pytest.approx(bleed.bottom, abs=0.05)
    assert full_pages > 0


def _slot_of(box: Box, xs: list[float], ys: list[float]) -> tuple[int, int] | None:
    for r in range(len(ys) - 1):
        for c in range(len(xs) - 1):
            if xs[c] <= box.cx <= xs[c + 1] and ys[r] <= box.cy <= ys[r + 1]:
                return r, c
    return None


def test_text_stays_inside_each_cards_safe_area(built):
    from card_data.reading.yaml_source import load_yaml
    from card_data.project.project_folders import game_templates_dir
    from printkit.sheets.templating.layout import LayoutSpec

    card_templates = [game_templates_dir(g.folder) / f"{name}.yaml" for g in DB.games.values()
                      for name in {c.type for c in g.cards.values()} | {f"back-{k}" for k in g.info.backs}]
    safe_mm = min(LayoutSpec.model_validate(load_yaml(p)[0]).safe_margin_mm for p in card_templates)
    checked = 0
    for pdf in card_pdfs(built["letter-long"]):
        with pdfplumber.open(pdf) as doc:
            for page in doc.pages:
                xs, ys, _, _ = _grid(page)
                for ch in page.chars:
                    box = Box(mm(ch["x0"]), mm(ch["top"]), mm(ch["x1"]), mm(ch["bottom"]))
                    slot = _slot_of(box, xs, ys)
                    assert slot is not None, (pdf, ch["text"])
                    r, c = slot
                    safe = Box(xs[c] + safe_mm, ys[r] + safe_mm, xs[c + 1] - safe_mm, ys[r + 1] - safe_mm)
                    assert safe.contains(box, tol=0.3), (pdf, page.page_number, ch["text"], box)
                    checked += 1
    assert checked > 1000


def _visible_area(slot: tuple[int, int], xs: list[float], ys: list[float]) -> Box:
    """Where a slot's card can show: its trim (between crop marks), plus the bleed at the sheet's edge.

    pdfplumber reports shapes unclipped; a bleed box drawn past an inner trim line is hidden
    under the neighbour's clip, so measurements are clipped to this area."""
    r, c = slot
    return Box(xs[c] - (BLEED_MM if c == 0 else 0), ys[r] - (BLEED_MM if r == 0 else 0),
               xs[c + 1] + (BLEED_MM if c == len(xs) - 2 else 0), ys[r + 1] + (BLEED_MM if r == len(ys) - 2 else 0))


def _occupied(page, xs, ys) -> dict[tuple[int, int], Box]:
    """Slots holding a card, with the union box of what shows there."""
    slots: dict[tuple[int, int], Box] = {}
    for obj in drawn_objects(page):
        slot = _slot_of(obj, xs, ys)
        if slot is None:
            continue
        area = _visible_area(slot, xs, ys)
        obj = Box(max(obj.x0, area.x0), max(obj.top, area.top), min(obj.x1, area.x1), min(obj.bottom, area.bottom))
        b = slots.get(slot)
        slots[slot] = obj if b is None else Box(min(b.x0, obj.x0), min(b.top, obj.top),
                                                max(b.x1, obj.x1), max(b.bottom, obj.bottom))
    return slots


@pytest.mark.parametrize("variant,flip", [("letter-long", "long"), ("a4-short", "short")])
def test_every_back_lands_behind_its_front(built, variant, flip):
    partial_pages = 0
    for pdf in card_pdfs(built[variant]):
        with pdfplumber.open(pdf) as doc:
            pages = doc.pages
            assert len(pages) % 2 == 0
            for front, back in zip(pages[0::2], pages[1::2]):
                xs, ys, _, _ = _grid(front)
                assert _grid(back)[:2] == (xs, ys), "backs page has the same crop marks"
                w, h = mm(front.width), mm(front.height)
                f_slots = _occupied(front, xs, ys)
                b_slots = _occupied(back, xs, ys)
                if len(f_slots) < 9:
                    partial_pages += 1
                expected = {}
                for (r, c), box in f_slots.items():
                    if flip == "long":
                        expected[(r, 2 - c)] = Box(w - box.x1, box.top, w - box.x0, box.bottom)
                    else:
                        expected[(2 - r, c)] = Box(box.x0, h - box.bottom, box.x1, h - box.top)
                assert set(b_slots) == set(expected), (pdf, sorted(f_slots), sorted(b_slots))
                for slot, box in expected.items():
                    got = b_slots[slot]
                    for a, b in ((got.x0, box.x0), (got.x1, box.x1), (got.top, box.top), (got.bottom, box.bottom)):
                        assert a == pytest.approx(b, abs=0.1), (pdf, slot, got, box)
    # A half-filled last page is where a wrong mirror shows; the data must exercise it.
    assert partial_pages > 0


def test_duplex_none_writes_backs_separately(built):
    out = built["letter-none"]
    for pdf in card_pdfs(out):
        backs = pdf.with_name(pdf.name.replace("-cards.pdf", "-backs.pdf"))
        assert backs.exists()
        with pdfplumber.open(backs) as doc:
            assert len(doc.pages) == 1
    with pdfplumber.open(out / "carpe_cras" / "draw-cards.pdf") as a, \
            pdfplumber.open(built["letter-long"] / "carpe_cras" / "draw-cards.pdf") as b:
        assert len(b.pages) == 2 * len(a.pages)


def decode_pdf_qr_codes(pdf: Path, dpi: int = 300) -> list[str]:
    doc = pypdfium2.PdfDocument(str(pdf))
    texts = []
    try:
        for page in doc:
            image = page.render(scale=dpi / 72).to_pil()
            texts.extend(r.text for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode))
    finally:
        doc.close()
    return texts


def test_every_qr_code_decodes_to_its_cards_rulings_page(built, client):
    decoded: list[str] = []
    shared = [p for name in ("scorepad.pdf", "tokens.pdf", "single-cards.pdf")
              for p in built["letter-long"].glob(f"*/{name}")]
    for pdf in card_pdfs(built["letter-long"]) + shared:
        decoded.extend(decode_pdf_qr_codes(pdf))
    expected = {card_qr_url(BASE_URL, g, c): (g, c) for g in DB.games.values() for c in g.cards.values()}
    assert sorted(decoded) == sorted(expected), "every card carries exactly one QR code with its own URL"
    for url, (game, card) in expected.items():
        # The short address leads to the card's page for the version printed on it.
        version = game.printings.card_version(card)
        page = opened_page(client, url)
        assert page == card_url("", game.game_id, card.id, version.version if version else None), url
        assert card.title in html.unescape(client.get(page).get_data(as_text=True)), url


def test_every_qr_code_still_decodes_from_a_blurred_noisy_150_dpi_scan(built):
    """The mask each code uses comes from the encoder's penalty search (zxing-cpp's, not
    qrcode's): the codes must survive a poor phone photo, not only a clean 300 dpi render."""
    import random

    from PIL import Image, ImageFilter

    noise = random.Random(20261123)
    decoded: list[str] = []
    shared = [p for name in ("scorepad.pdf", "tokens.pdf", "single-cards.pdf")
              for p in built["letter-long"].glob(f"*/{name}")]
    for pdf in card_pdfs(built["letter-long"]) + shared:
        doc = pypdfium2.PdfDocument(str(pdf))
        try:
            for page in doc:
                image = page.render(scale=150 / 72).to_pil().convert("L").filter(ImageFilter.GaussianBlur(0.5))
                grain = Image.frombytes("L", image.size, noise.randbytes(image.width * image.height))
                degraded = Image.blend(image, grain, 0.1)  # about +-13 grey levels of noise
                decoded.extend(r.text for r in zxingcpp.read_barcodes(
                    degraded, formats=zxingcpp.BarcodeFormat.QRCode))
        finally:
            doc.close()
    expected = {card_qr_url(BASE_URL, g, c) for g in DB.games.values() for c in g.cards.values()}
    assert sorted(decoded) == sorted(expected)


def test_qr_codes_are_vector_paths_not_images(built):
    with pdfplumber.open(built["letter-long"] / "cartisora" / "character-cards.pdf") as doc:
        assert doc.pages[0].images == []


def test_font_is_embedded(built):
    from pypdf import PdfReader

    reader = PdfReader(built["letter-long"] / "carpe_cras" / "draw-cards.pdf")
    fonts = reader.pages[0]["/Resources"]["/Font"]
    embedded = []
    for ref in fonts.values():
        font = ref.get_object()
        descendants = font.get("/DescendantFonts")
        desc = (descendants[0].get_object() if descendants else font).get("/FontDescriptor")
        if desc is not None:
            desc = desc.get_object()
            embedded.append((str(font["/BaseFont"]), any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))))
    assert embedded and all(ok for _, ok in embedded), embedded
    assert all("DejaVuSans" in name for name, _ in embedded), embedded


def test_two_builds_give_identical_bytes(built, tmp_path):
    result = run_build(tmp_path, "--paper", "letter", "--duplex", "long")
    assert result.exit_code == 0, result.output
    first = built["letter-long"]
    pdfs = card_pdfs(first)
    assert pdfs
    for pdf in pdfs:
        again = tmp_path / pdf.parent.name / pdf.name
        assert again.read_bytes() == pdf.read_bytes(), pdf


def test_a_broken_card_file_leaves_earlier_pdfs_untouched(tmp_path):
    data = tmp_path / "data"
    copy_database(data)
    out = tmp_path / "out"
    assert run_build(out, "cartisora", data=data).exit_code == 0
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*.pdf")}
    assert before

    card_file = sorted((data / "cartisora" / "cards").glob("*.yaml"))[0]
    card_file.write_text(card_file.read_text(encoding="utf-8") + "\n- id: [unclosed\n", encoding="utf-8")
    result = run_build(out, "cartisora", data=data)
    assert result.exit_code == 1
    assert f"{card_file}:" in result.output
    assert "Nothing was written." in result.output
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*.pdf")}
    assert after == before
    assert not list(out.rglob("*.tmp"))


def test_text_that_cannot_fit_is_a_validation_error_naming_the_card(tmp_path):
    data = tmp_path / "data"
    copy_database(data)
    game = load_database(data).games["cartisora"]
    card = next(iter(game.cards.values()))
    file, line = game.sources[("card", card.id)]
    text = Path(file).read_text(encoding="utf-8")
    long_title = " ".join(["Overlong"] * 120)
    assert f"title: {card.title}\n" in text
    Path(file).write_text(text.replace(f"title: {card.title}\n", f"title: {long_title}\n", 1), encoding="utf-8")

    result = CliRunner().invoke(printkit_cli, ["validate", "--data", str(data)])
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.startswith(f"{file}:{line}: cartisora/{card.id}: layout:")]
    assert lines and "does not fit" in lines[0], result.output


def test_loopback_base_url_warns(tmp_path, monkeypatch):
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(printkit_cli, ["build", "cartisora", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "loopback" in result.output and "http://localhost:5000" in result.output
    monkeypatch.setenv("PRINTKIT_BASE_URL", "http://10.1.2.3:8000")
    result = CliRunner().invoke(printkit_cli, ["build", "cartisora", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0
    assert "warning:" not in result.output
    assert decode_pdf_qr_codes(tmp_path / "o" / "cartisora" / "knight-cards.pdf")[0].startswith("HTTP://10.1.2.3:8000/Q/")
