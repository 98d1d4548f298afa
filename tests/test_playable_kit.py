"""``printkit build`` prints a kit players can use, measured from the PDFs it writes: every deck
list in its quantities (QR codes decoded), reference cards with their own back, no designer's
note on any printed page, each component once, a one-page "print this" index per game, and
``--catalog`` for every card once."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
import zxingcpp
from click.testing import CliRunner
from database_edits import copy_database, edit
from pdf_measure import crop_marks

from card_data.loader import load_database
from card_data.editions.short_codes import code_map, short_url
from printkit.cli import main as printkit_cli
from printkit.components.kit import load_kit
from printkit.components.packing import LOOSE_DECK_MAX_CARDS
from printkit.components.reference import reference_cards

BASE_URL = "http://10.1.2.3:5000"
DB = load_database()
CODES = code_map(DB.games.values())[0]
"""The printed card version of each short code (the map the companion redirects by)."""
QR_DPI = 150
"""The QR codes are 14-15 mm; zxing-cpp reads them reliably from 150 dpi up."""


def run_build(out: Path, *args: str, data: Path | None = None):
    cli_args = ["build", "--out", str(out), "--base-url", BASE_URL, *args]
    if data is not None:
        cli_args += ["--data", str(data)]
    return CliRunner().invoke(printkit_cli, cli_args)


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    """The bundled database built the way a player would: `printkit build`, Letter, long edge."""
    out = tmp_path_factory.mktemp("kit")
    result = run_build(out)
    assert result.exit_code == 0, result.output
    return out


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


@cache
def card_ids(pdf: Path, step: int = 2) -> Counter[str]:
    """The card ids of the QR codes on the fronts pages (every other page: fronts, then backs;
    ``step=1``: every page)."""
    doc = pypdfium2.PdfDocument(str(pdf))
    ids: Counter[str] = Counter()
    try:
        for index in range(0, len(doc), step):
            image = doc[index].render(scale=QR_DPI / 72).to_pil()
            for code in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode):
                # <BASE>/Q/<CODE>: the code names the game, the card and the version printed on it.
                printed = CODES[code.text.rsplit("/", 1)[-1]]
                assert code.text == short_url(BASE_URL, printed.code), code.text
                game = DB.games[pdf.parent.name]
                assert printed.game_id == game.game_id, code.text
                assert printed.version == game.printings.card_version(game.cards[printed.card_id]).version
                ids[printed.card_id] += 1
    finally:
        doc.close()
    return ids


def card_texts(page) -> list[str]:
    """The text of each card on a card-sheet page, read cell by cell between the trim lines
    (so two cards side by side are never read as one line)."""
    xs, ys, _ = crop_marks(page)
    to_pt = 72 / 25.4
    texts = []
    for x0, x1 in itertools.pairwise(xs):
        for y0, y1 in itertools.pairwise(ys):
            cell = page.crop((x0 * to_pt, y0 * to_pt, x1 * to_pt, y1 * to_pt))
            texts.append(cell.extract_text() or "")
    return texts


def pdf_texts(pdf: Path) -> list[str]:
    """Every card's text (card sheets) or every page's text (anything else)."""
    out = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            out += card_texts(page) if pdf.name.endswith("-cards.pdf") else [page.extract_text() or ""]
    return out


def deck_quantities(game, deck_id: str) -> Counter[str]:
    return Counter({e.card: e.qty for e in game.decks[deck_id].cards})


# ---- decks in their quantities ---------------------------------------------------------------

def test_each_deck_prints_in_its_quantities(kit):
    for game in DB.games.values():
        spec, problems = load_kit(game)
        assert problems == []
        grouped = {d for g in spec.choose_one for d in g.decks}
        expected: dict[str, Counter[str]] = {}
        for deck_id in game.decks:
            if deck_id not in grouped:
                expected[f"{deck_id}-cards.pdf"] = deck_quantities(game, deck_id)
        for group in spec.choose_one:
            need: Counter[str] = Counter()
            for deck_id in group.decks:
                need |= deck_quantities(game, deck_id)  # |: the larger count of each card
            expected[f"{group.name}-cards.pdf"] = need
        for extra in spec.extra_cards:
            expected.setdefault(f"{game.cards[extra.card].type}-cards.pdf", Counter())[extra.card] += extra.qty
        folder = kit / game.game_id
        # One or two cards print as fold-over pairs on the game's shared sheet, not a file of their own.
        loose = {name: q for name, q in expected.items() if q.total() <= LOOSE_DECK_MAX_CARDS}
        card_files = {p.name for p in folder.glob("*-cards.pdf")} - {"reference-cards.pdf"}
        assert card_files == set(expected) - set(loose), game.game_id
        for name in card_files:
            assert card_ids(folder / name) == expected[name], (game.game_id, name)
        if loose:
            shared = Counter()
            for pdf in (folder / "scorepad.pdf", folder / "tokens.pdf"):
                shared += card_ids(pdf, step=1) if pdf.exists() else Counter()
            assert shared == sum(loose.values(), Counter()), game.game_id


def test_deck_sizes_are_the_rulebooks(kit):
    sizes = {p: sum(card_ids(p).values()) for p in sorted(kit.glob("*/*-cards.pdf"))
             if p.name != "reference-cards.pdf"}
    by_name = {f"{p.parent.name}/{p.name}": n for p, n in sizes.items()}
    # Carpe Cras: two 40-card draw decks, two 18-card agency decks (Building your decks).
    assert [n for k, n in by_name.items() if k.startswith("carpe_cras/") and "-draw-" in k] == [40, 40]
    assert [n for k, n in by_name.items() if k.startswith("carpe_cras/") and "-agency-" in k] == [18, 18]
    # Duels: six character decks of 1 reference + 12 playing cards (2019 rulebook, Setup).
    assert sorted(n for k, n in by_name.items() if k.startswith("cartisora/")) == [13] * 6
    # C.A.H.R.D.: two armies of 40-60 cards and their strategy decks of at most 10.
    armies = [n for k, n in by_name.items() if k.startswith("cahrd/") and "strateg" not in k]
    strategies = [n for k, n in by_name.items() if k.startswith("cahrd/") and "strateg" in k]
    assert len(armies) == 2 and all(40 <= n <= 60 for n in armies)
    assert len(strategies) == 2 and all(n <= 10 for n in strategies)
    # Carpe Diem: one set of scoring cards that holds the 2-, 3- and 4-player sets.
    assert by_name["carpe_diem/scoring-cards.pdf"] >= 12


# ---- reference cards ---------------------------------------------------------------------------

def test_reference_cards_have_their_own_back(kit):
    for game in DB.games.values():
        folder = kit / game.game_id
        with pdfplumber.open(folder / "reference-cards.pdf") as doc:
            backs = " ".join(t for t in card_texts(doc.pages[1]))
        assert "REFERENCE" in backs, game.game_id
        for deck_back_title in game.info.backs.values():
            assert deck_back_title not in backs, (game.game_id, deck_back_title)
        deck_file = min(p for p in folder.glob("*-cards.pdf") if p.name != "reference-cards.pdf")
        with pdfplumber.open(deck_file) as doc:
            deck_backs = " ".join(card_texts(doc.pages[1]))
        assert "REFERENCE" not in deck_backs and any(t in deck_backs for t in game.info.backs.values())


def designer_notes() -> list[str]:
    """Every designer's note in the bundled data: glossary, card and deck-list notes."""
    notes = []
    for game in DB.games.values():
        notes += [e.note for e in game.glossary if e.note]
        notes += [c.note for c in game.cards.values() if c.note]
        notes += [d.note for d in game.decks.values() if d.note]
    return notes


def test_no_designer_note_prints_on_any_page(kit):
    notes = [flat(n) for n in designer_notes()]
    assert len(notes) > 40  # the Carpe Cras glossary alone has dozens
    markers = ["(name lost in the source", "not identifiable", "did not survive in the source",
               "The source text lost", "lost in the source"]
    pdfs = sorted(kit.glob("*/*.pdf"))
    assert len(pdfs) > 20
    for pdf in pdfs:
        for text in pdf_texts(pdf):
            flat_text = flat(text)
            for marker in markers:
                assert flat(marker) not in flat_text, (pdf, marker)
            for note in notes:
                # Any 40 consecutive characters of a note would show it was printed.
                assert note[:40] not in flat_text, (pdf, note)


def test_glossary_notes_stay_in_the_data():
    glossary = {e.id: e for e in DB.games["carpe_cras"].glossary}
    assert "not identifiable" in glossary["stronghold"].note
    assert "not identifiable" not in glossary["stronghold"].text
    assert all(e.note for e in glossary.values() if e.name_lost)


# ---- each component once -------------------------------------------------------------------------

def test_each_component_prints_once(kit):
    duels = kit / "cartisora"
    printed = Counter()
    for pdf in duels.glob("*-cards.pdf"):
        if pdf.name != "reference-cards.pdf":
            printed += card_ids(pdf)
    # Bonus tokens are punch-outs only; each deck's own reference card is in its deck only.
    assert not {"first-blood", "finisher"} & set(printed)
    words = Counter(" ".join(pdf_texts(duels / "tokens.pdf")).split())
    assert words["First"] == words["Blood"] == words["Finisher"] == 1
    reference = flat(" ".join(pdf_texts(duels / "reference-cards.pdf")))
    for deck in DB.games["cartisora"].decks.values():
        assert printed[f"{deck.id}-reference"] == 1
        assert flat(deck.title) not in reference, deck.id
    # The reference sheet holds each reference card once.
    for game in DB.games.values():
        cards = reference_cards(game)
        with pdfplumber.open(kit / game.game_id / "reference-cards.pdf") as doc:
            fronts = [t for page in doc.pages[::2] for t in card_texts(page) if t.strip()]
        assert len(fronts) == len(cards), game.game_id


# ---- the print-this page ------------------------------------------------------------------------

def test_print_this_page_lists_every_file(kit):
    for game in DB.games.values():
        folder = kit / game.game_id
        index = folder / "print-this.pdf"
        with pdfplumber.open(index) as doc:
            assert len(doc.pages) == 1
            text = doc.pages[0].extract_text()
        for pdf in folder.glob("*.pdf"):
            if pdf.name != "print-this.pdf":
                assert pdf.name in text, (game.game_id, pdf.name)
        assert "flip on long edge" in text and "one side" in text
        assert "For a first game" in text and "Assembly" in text
        spec, _ = load_kit(game)
        assert flat(spec.first_game) in flat(text)
    diem = flat(pdfplumber.open(kit / "carpe_diem" / "print-this.pdf").pages[0].extract_text())
    for deck in DB.games["carpe_diem"].decks.values():
        assert flat(deck.title) in diem  # each player count's list is spelled out
    duels = flat(pdfplumber.open(kit / "cartisora" / "print-this.pdf").pages[0].extract_text())
    assert flat("First Blood: printed as a punch-out token") in duels


def test_print_this_page_is_reproducible(kit, tmp_path):
    assert run_build(tmp_path, "carpe_diem").exit_code == 0
    assert (tmp_path / "carpe_diem" / "print-this.pdf").read_bytes() == \
        (kit / "carpe_diem" / "print-this.pdf").read_bytes()


# ---- the catalogue and kit.yaml --------------------------------------------------------------------

def test_catalog_prints_every_card_once(tmp_path):
    result = run_build(tmp_path, "cartisora", "--catalog")
    assert result.exit_code == 0, result.output
    game = DB.games["cartisora"]
    folder = tmp_path / "cartisora"
    names = {p.name for p in folder.glob("*-cards.pdf")}
    # The two bonus-token cards are fold-over pairs on the token sheet (too few for a sheet).
    assert names == {"character-cards.pdf", "reference-cards.pdf"}
    printed = card_ids(folder / "character-cards.pdf") + card_ids(folder / "tokens.pdf", step=1)
    assert printed == Counter(list(game.cards))


def test_a_broken_kit_file_is_a_problem_at_its_line(tmp_path):
    data = copy_database(tmp_path / "data")
    text = edit(data / "carpe_diem" / "kit.yaml", "decks: [scoring-2p, scoring-3p, scoring-4p]",
                "decks: [scoring-2p, scoring-5p]")
    line = text.splitlines().index("    decks: [scoring-2p, scoring-5p]") + 1
    result = CliRunner().invoke(printkit_cli, ["validate", "carpe_diem", "--data", str(data)])
    assert result.exit_code == 1
    assert (f"{data / 'carpe_diem' / 'kit.yaml'}:{line}: carpe_diem/-: choose_one.0.decks.1: "
            "no deck list 'scoring-5p'") in result.output


def test_a_deck_or_card_with_problems_of_its_own_is_not_also_unknown_to_the_kit_file(tmp_path):
    """kit.yaml names scoring-3p and fountain-gardens; each is broken in its own file: only those
    two problems are reported (not kit.yaml's "no deck list" and "unknown card id" besides), and
    once they are fixed a kit.yaml naming a deck that really is missing is reported again."""
    data = copy_database(tmp_path / "data")
    deck = data / "carpe_diem" / "decks" / "scoring-3p.yaml"
    edit(deck, "title: Scoring cards, 3 players", "title: [broken")
    cards = data / "carpe_diem" / "cards" / "fountain.yaml"
    edit(cards, "title: Garden fountain", "title: 42")
    result = CliRunner().invoke(printkit_cli, ["validate", "carpe_diem", "--data", str(data)])
    assert result.exit_code == 1
    files = [line.split(":", 1)[0] for line in result.output.splitlines() if line.startswith(str(data))]
    assert sorted(files) == sorted([str(cards), str(deck)]), result.output
    edit(deck, "title: [broken", "title: Scoring cards, 3 players")
    edit(cards, "title: 42", "title: Garden fountain")
    edit(data / "carpe_diem" / "kit.yaml", "decks: [scoring-2p, scoring-3p, scoring-4p]", "decks: [scoring-2p, scoring-5p]")
    result = CliRunner().invoke(printkit_cli, ["validate", "carpe_diem", "--data", str(data)])
    assert "no deck list 'scoring-5p'" in result.output
