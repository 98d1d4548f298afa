"""Translated card data (issue 12 part 4, "In the player's language"): a game's
``translations/<lang>.yaml`` is validated with file, line and field; ``printkit build --lang de``
prints the translated cards (checked from the PDF's text) and names those that fall back; the
companion shows a German ruling with its English original one tap away."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from card_data.loader import bundled_data_dir, check_database, load_database
from card_data.rulings.ruling_records import all_rulings
from card_data.editions.translations import translated_card, untranslated_cards
from printkit.cli import main as printkit_cli

GERMAN_RULING = "Jede Münze, die du zahlst, kann eine beliebige Ware ersetzen"
ENGLISH_RULING = "Each coin you pay can stand in for any one ware the card asks for."


def pdf_text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def pdf_back_text(path: Path) -> str:
    """The text of the backs' pages (each page of fronts is followed by its backs: even pages)."""
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages[1::2])


@pytest.fixture
def carpe_diem(tmp_path) -> Path:
    """A database holding a copy of the bundled Carpe Diem only (its German translation too)."""
    root = tmp_path / "data"
    shutil.copytree(bundled_data_dir() / "carpe_diem", root / "carpe_diem",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return root


def write_translation(root: Path, text: str, name: str = "de.yaml") -> Path:
    path = root / "carpe_diem" / "translations" / name
    path.write_text(text, encoding="utf-8")
    return path



def says_each_once(said: list[str], expected: list[str]) -> None:
    """``said`` (the problems as printed) holds one problem starting with each of ``expected``, and no other."""
    for start in expected:
        assert any(s.startswith(start) for s in said), f"{start!r} not in {said}"
    assert len(said) == len(expected), said

# ---- the bundled German text ------------------------------------------------------------------

def test_carpe_diem_ships_german_rulings_glossary_and_example_cards_and_leaves_publisher_cards_as_printed():
    game = load_database().games["carpe_diem"]
    de = game.translations["de"]
    for card_id, card in game.cards.items():
        texts = [de.card_ruling(card_id, i) for i in range(len(card.rulings))]
        assert all(texts), f"{card_id}: every ruling is translated"
        assert all(t != r.text for t, r in zip(texts, card.rulings))
        printed = de.printed_fields(card_id)
        if card.example:
            assert {"title", "text"} <= set(printed), card_id
        else:
            assert printed == {}, f"{card_id}: a publisher's card keeps its printed name and text"
    for entry in game.glossary:
        assert set(de.glossary_entry(entry.id)) == {"term", "text"}, entry.id
    assert not game.rulings  # Carpe Diem has no rulings.yaml


def test_a_translated_copy_keeps_the_card_id_numbers_and_rulings():
    game = load_database().games["carpe_diem"]
    card = game.cards["a-two-grapes"]
    german = translated_card(card, game.translations["de"])
    assert (german.title, german.id, german.reward, german.rulings) == ("Zwei Trauben", card.id, card.reward,
                                                                        card.rulings)
    assert german.text.startswith("Zahle 2 Trauben")
    assert translated_card(game.cards["a-two-herbs"], game.translations["de"]) == game.cards["a-two-herbs"]
    assert untranslated_cards(["a-two-herbs", "a-two-grapes", "a-two-herbs"], game.translations["de"]) == [
        "a-two-herbs"]


# ---- problems name file, line and field -------------------------------------------------------

BAD_TRANSLATION = """\
cards:
  no-such-card:
    title: Nichts
  a-two-grapes:
    scoring_type: B
    title: 42
    text: Zahle 2 Trauben.
  a-two-herbs:
    rulings: [a, b, c, d, e, f]
glossary:
  Victory points:
    term: Siegpunkte
    definition: falsch
  No such term:
    text: Nichts
extra: 1
words:
  EXAMPLE CARD: [BEISPIEL]
"""


def test_every_problem_of_a_translation_names_its_file_line_and_field(carpe_diem):
    path = write_translation(carpe_diem, BAD_TRANSLATION)
    _, problems = check_database(carpe_diem)
    said = [str(p) for p in problems]
    expected = [
        f"{path}:2: carpe_diem/no-such-card: -: unknown card id 'no-such-card'",
        f"{path}:5: carpe_diem/a-two-grapes: scoring_type: unknown field",
        f"{path}:6: carpe_diem/a-two-grapes: title: not a string",
        f"{path}:9: carpe_diem/a-two-herbs: rulings: too many rulings: 6 translated where the card has 5",
        f"{path}:13: carpe_diem/Victory points: definition: unknown field",
        f"{path}:14: carpe_diem/No such term: -: unknown term 'No such term'",
        f"{path}:16: carpe_diem/-: extra: unknown field",
        f"{path}:18: carpe_diem/-: words.EXAMPLE CARD: not a string",
    ]
    says_each_once(said, expected)
    # The parts without problems are kept.
    game = check_database(carpe_diem)[0].games["carpe_diem"]
    assert game.translations["de"].card_fields("a-two-grapes") == {"text": "Zahle 2 Trauben."}


def test_a_translation_longer_than_the_schema_allows_is_reported_at_its_field(carpe_diem):
    path = write_translation(carpe_diem, "cards:\n  a-two-grapes:\n    text: " + "x" * 301 + "\n")
    _, problems = check_database(carpe_diem)
    assert [(p.file, p.line, p.card_id, p.field) for p in problems] == [(str(path), 3, "a-two-grapes", "text")]
    assert "300 characters" in problems[0].message


def test_a_bad_language_code_or_broken_yaml_is_reported_and_the_loader_goes_on(carpe_diem):
    german = write_translation(carpe_diem, "cards: {}\n", "german.yaml")
    broken = write_translation(carpe_diem, "cards:\n  a-two-grapes:\n    title: [unclosed\n", "fr.yaml")
    english = write_translation(carpe_diem, "cards: {}\n", "en-GB.yaml")
    db, problems = check_database(carpe_diem)
    said = [str(p) for p in problems]
    assert any(s.startswith(f"{german}:1: carpe_diem/-: language: bad language code 'german.yaml'") for s in said)
    assert any(s.startswith(f"{broken}:3: carpe_diem/-: yaml: malformed YAML") for s in said)
    assert any(s.startswith(f"{english}:1: carpe_diem/-: language: 'en-GB' is the language the data") for s in said)
    assert len(said) == 3
    assert set(db.games["carpe_diem"].translations) == {"de"}


def test_validate_reports_translation_problems_and_fails(carpe_diem):
    path = write_translation(carpe_diem, "cards:\n  a-two-grapes:\n    title: 7\n")
    result = CliRunner().invoke(printkit_cli, ["validate", "carpe_diem", "--data", str(carpe_diem)])
    assert result.exit_code == 1
    assert f"{path}:3: carpe_diem/a-two-grapes: title: not a string" in result.output
    assert "Traceback" not in result.output


def test_a_game_without_translations_loads_as_before(carpe_diem):
    shutil.rmtree(carpe_diem / "carpe_diem" / "translations")
    db, problems = check_database(carpe_diem)
    assert problems == [] and db.games["carpe_diem"].translations == {}



DECK_TRANSLATION = """\
decks:
  no-such-deck:
    title: Nichts
  scoring-2p:
  scoring-3p:
    title: 3
    kind: Wertung
  scoring-4p:
    title: Wertungskarten, 4 Personen
"""


def test_a_deck_lists_translation_is_checked_with_file_line_and_field(carpe_diem):
    path = write_translation(carpe_diem, DECK_TRANSLATION)
    db, problems = check_database(carpe_diem)
    said = [str(p) for p in problems]
    expected = [
        f"{path}:2: carpe_diem/no-such-deck: -: unknown deck id 'no-such-deck'",
        f"{path}:4: carpe_diem/scoring-2p: -: expected a mapping with title and/or note, got nothing",
        f"{path}:6: carpe_diem/scoring-3p: title: not a string",
        f"{path}:7: carpe_diem/scoring-3p: kind: unknown field",
    ]
    says_each_once(said, expected)
    de = db.games["carpe_diem"].translations["de"]
    assert de.deck_fields("scoring-4p") == {"title": "Wertungskarten, 4 Personen"}
    assert de.deck_fields("scoring-3p") == {} and de.deck_fields("no-such-deck") == {}


def test_a_translated_deck_whose_own_list_is_broken_is_not_called_unknown(carpe_diem):
    deck = carpe_diem / "carpe_diem" / "decks" / "scoring-3p.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("card: a-two-herbs", "card: no-such-card", 1),
                    encoding="utf-8")
    broken = carpe_diem / "carpe_diem" / "decks" / "scoring-2p.yaml"
    broken.write_text("id: scoring-2p\ntitle: [unclosed\n", encoding="utf-8")
    nameless = carpe_diem / "carpe_diem" / "decks" / "scoring-4p.yaml"
    nameless.write_text(nameless.read_text(encoding="utf-8").replace("id: scoring-4p\n", ""), encoding="utf-8")
    _, problems = check_database(carpe_diem)
    own = {str(deck), str(broken), str(nameless)}
    assert {p.file for p in problems} == own, [str(p) for p in problems]


# ---- printkit build --lang --------------------------------------------------------------------

def build(args: list[str]):
    result = CliRunner().invoke(printkit_cli, ["build", "carpe_diem", "--jobs", "1", *args])
    assert result.exit_code == 0, result.output
    return result


def test_build_in_german_prints_translated_cards_and_names_those_in_the_original(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PRINTKIT_LANG", raising=False)
    result = build(["--lang", "de"])
    out = tmp_path / "output" / "de" / "carpe_diem"  # the default output set of a language
    assert "output/de/carpe_diem/scoring-cards.pdf" in result.stdout.splitlines()
    text = pdf_text(out / "scoring-cards.pdf")
    # Cards sit three to a row, so a line of text runs across them: look for short runs.
    assert "Zwei Trauben" in text and "Traube, Kraut," in text and "Zahle 2 Trauben für 4 SP" in text
    assert "Two grapes" not in text and "Grape, herb, fish" not in text and "Pay 2 grapes" not in text
    assert "Two herbs" in text and "Pay 2 herbs for 4 VP" in text  # a publisher's card: as printed
    # The layout's own words, _("...") in templates/carpe_diem/scoring.yaml, from words: of de.yaml.
    assert "ROTE KARTE" in text and "GRÜNE KARTE" in text and "BEISPIELKARTE" in text
    assert "RED CARD" not in text and "EXAMPLE CARD" not in text
    # The backs' title (game.yaml backs:), from words: too.
    backs = pdf_back_text(out / "scoring-cards.pdf")
    assert "Wertungskarten" in backs and "Scoring cards" not in backs
    fallback = next(line for line in result.stderr.splitlines() if line.startswith("carpe_diem: "))
    assert fallback.startswith("carpe_diem: 12 of 15 cards have no de text and print in the original: "
                               "a-two-herbs, a-three-chickens, b-chicken-grape-fish")
    assert fallback.endswith(" and 2 more")
    assert "a-two-grapes" not in fallback and "fountain-gardens" not in fallback
    assert not (tmp_path / "output" / "carpe_diem").exists()  # the English set is not touched

    english = build([])
    english_text = pdf_text(tmp_path / "output" / "carpe_diem" / "scoring-cards.pdf")
    assert "Two grapes" in english_text and "Zwei Trauben" not in english_text
    assert "RED CARD" in english_text and "EXAMPLE CARD" in english_text and "ROTE KARTE" not in english_text
    assert "Scoring cards" in pdf_back_text(tmp_path / "output" / "carpe_diem" / "scoring-cards.pdf")
    assert "print in the original" not in english.stderr
    assert (out / "scoring-cards.pdf").is_file()  # the German set is still there


def test_a_german_build_is_reproducible_and_its_qr_codes_are_the_originals(tmp_path, carpe_diem):
    first, second, english = tmp_path / "a", tmp_path / "b", tmp_path / "en"
    build(["--lang", "de", "--data", str(carpe_diem), "--out", str(first)])
    build(["--lang", "de", "--data", str(carpe_diem), "--out", str(second)])
    build(["--data", str(carpe_diem), "--out", str(english)])
    names = sorted(p.name for p in (first / "carpe_diem").iterdir())
    assert names == sorted(p.name for p in (second / "carpe_diem").iterdir())
    for name in names:
        assert (first / "carpe_diem" / name).read_bytes() == (second / "carpe_diem" / name).read_bytes(), name
    # Only the card fronts differ: the reference cards and the cut files are the same bytes.
    for name in ("reference-cards.pdf", "scoring-cards-sheet-1.svg"):
        assert (first / "carpe_diem" / name).read_bytes() == (english / "carpe_diem" / name).read_bytes(), name
    # The version label printed beside each QR code stays the released one (v1), not a "changed" v2.
    text = pdf_text(first / "carpe_diem" / "scoring-cards.pdf")
    assert "v1" in text and "v2" not in text


def test_a_changed_translation_rebuilds_the_cards(tmp_path, carpe_diem):
    out = tmp_path / "out"
    build(["--lang", "de", "--data", str(carpe_diem), "--out", str(out)])
    again = build(["--lang", "de", "--data", str(carpe_diem), "--out", str(out)])
    assert "Nothing changed" in again.stderr
    path = carpe_diem / "carpe_diem" / "translations" / "de.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("title: Zwei Trauben", "title: Zwei Weintrauben"),
                    encoding="utf-8")
    changed = build(["--lang", "de", "--data", str(carpe_diem), "--out", str(out)])
    assert "Nothing changed" not in changed.stderr
    assert "Zwei Weintrauben" in pdf_text(out / "carpe_diem" / "scoring-cards.pdf")
    # The templates' own words are on every card: a change to them rebuilds the cards too.
    path.write_text(path.read_text(encoding="utf-8").replace('"BEISPIELKARTE"', '"MUSTERKARTE"'),
                    encoding="utf-8")
    build(["--lang", "de", "--data", str(carpe_diem), "--out", str(out)])
    assert "MUSTERKARTE" in pdf_text(out / "carpe_diem" / "scoring-cards.pdf")


def test_a_translated_title_too_long_for_its_region_is_reported_in_the_translation(tmp_path, carpe_diem):
    """Before: reported at the card's line in cards/scoring.yaml, whose English title is fine."""
    path = carpe_diem / "carpe_diem" / "translations" / "de.yaml"
    long_title = "Zwei Trauben " + "und noch viel mehr Trauben " * 6
    text = path.read_text(encoding="utf-8")
    assert text.count("title: Zwei Trauben\n") == 1
    text = text.replace("title: Zwei Trauben\n", f"title: {long_title}\n")
    path.write_text(text, encoding="utf-8")
    line = text[:text.index(long_title)].count("\n") + 1
    out = tmp_path / "out"
    result = CliRunner().invoke(printkit_cli, ["build", "carpe_diem", "--jobs", "1", "--lang", "de",
                                               "--data", str(carpe_diem), "--out", str(out)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    problems = [ln for ln in result.output.splitlines() if ln.startswith(str(carpe_diem))]
    assert len(problems) == 1, result.output
    assert problems[0].startswith(f"{path}:{line}: carpe_diem/a-two-grapes: title: "), problems
    assert not (out / "carpe_diem" / "scoring-cards.pdf").exists()
    # In English the card is as it was: the translation is all that is wrong.
    build(["--data", str(carpe_diem), "--out", str(tmp_path / "en")])


def test_an_original_title_too_long_is_still_reported_at_the_card(tmp_path, carpe_diem):
    """The German text of the card is fine, and leaves the title in English: the card is wrong."""
    path = carpe_diem / "carpe_diem" / "translations" / "de.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    title: Zwei Trauben\n", ""), encoding="utf-8")
    cards = carpe_diem / "carpe_diem" / "cards" / "scoring.yaml"
    original = cards.read_text(encoding="utf-8")
    assert original.count("  title: Two grapes\n") == 1
    cards.write_text(original.replace("  title: Two grapes\n", "  title: Two grapes" + " and more" * 20 + "\n"),
                     encoding="utf-8")
    line = original[:original.index("- id: a-two-grapes")].count("\n") + 1
    result = CliRunner().invoke(printkit_cli, ["build", "carpe_diem", "--jobs", "1", "--lang", "de",
                                               "--data", str(carpe_diem), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    problems = [ln for ln in result.output.splitlines() if ln.startswith(str(carpe_diem))]
    assert len(problems) == 1 and problems[0].startswith(f"{cards}:{line}: carpe_diem/a-two-grapes: "), problems


def test_a_bad_language_code_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(printkit_cli, ["build", "carpe_diem", "--lang", "Deutsch", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "not a language code" in result.output


# ---- the companion ----------------------------------------------------------------------------

def visible_text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_german_reader_gets_the_german_ruling_with_the_english_one_tap_away(client):
    page = client.get("/r/carpe_diem/a-two-grapes", headers={"Accept-Language": "de-DE,de;q=0.9"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    ruling = re.search(r'<article class="ruling" data-ruling="r-a-two-grapes-1">(.*?)</article>', html, re.DOTALL)[1]
    german = re.search(r'<div class="translated" lang="de">(.*?)</div>', ruling, re.DOTALL)[1]
    assert GERMAN_RULING in german and ENGLISH_RULING not in german
    original = re.search(r'<details class="original"><summary>Original \(Englisch\)</summary>'
                         r'<div lang="en">(.*?)</div></details>', ruling, re.DOTALL)[1]
    assert ENGLISH_RULING in original
    assert '<h1 lang="de">Zwei Trauben</h1>' in html
    assert re.search(r'<summary>Original \(Englisch\)</summary><p lang="en">Two grapes</p>', html)
    assert "Zahle 2 Trauben für 4 SP" in html


def test_an_english_reader_gets_the_original_and_no_translation(client):
    html = client.get("/r/carpe_diem/a-two-grapes").get_data(as_text=True)
    assert "<details class=\"original\"" not in html and GERMAN_RULING not in html
    assert f"<p>{ENGLISH_RULING} This works" in html and "<h1>Two grapes</h1>" in html


def test_the_rulings_page_glossary_and_search_speak_german(client):
    de = {"Accept-Language": "de"}
    rulings = client.get("/r/carpe_diem/rulings", headers=de).get_data(as_text=True)
    game = load_database().games["carpe_diem"]
    assert rulings.count('<div class="translated" lang="de">') == len(all_rulings(game))
    # The keyword filter finds a ruling by its German words.
    found = client.get("/r/carpe_diem/rulings?q=beliebige+Ware", headers=de).get_data(as_text=True)
    assert GERMAN_RULING in found and found.count('<article class="ruling"') == 1
    glossary = client.get("/r/carpe_diem/", headers=de).get_data(as_text=True)
    entry = re.search(r'<dt id="g-coins">(.*?)</dd>', glossary, re.DOTALL)[1]
    assert '<span lang="de">Münzen</span>' in entry and "(Coins)" in entry
    assert "Goldmünzen. Du zahlst damit einen Markt" in entry and "Original (Englisch)" in entry
    assert "Zwei Trauben" in visible_text(glossary)  # the card list
    search = client.get("/search?q=grapes", headers=de).get_data(as_text=True)
    assert "Zwei Trauben" in visible_text(search)
    # A game without a German translation shows its English text, marked as English.
    cartisora = client.get("/r/cartisora/", headers=de).get_data(as_text=True)
    assert "Original (Englisch)" not in cartisora and '<dd><div lang="en">' in cartisora



def test_a_german_reader_gets_the_deck_lists_in_german_with_the_english_note_one_tap_away(client):
    de = {"Accept-Language": "de"}
    game = BeautifulSoup(client.get("/r/carpe_diem/", headers=de).get_data(as_text=True), "html.parser")
    deck = game.select_one("details#d-scoring-4p")
    title = deck.select_one("summary > span")
    assert (title["lang"], title.get_text()) == ("de", "Wertungskarten, 4 Personen")
    english_title = deck.select_one("p.muted span")
    assert (english_title["lang"], english_title.get_text()) == ("en", "Scoring cards, 4 players")
    assert english_title.parent.get_text().startswith("Original (Englisch)")
    german = deck.select_one("div.note > div.translated")
    assert german["lang"] == "de" and german.get_text().startswith("Enthält zwei Beispielkarten")
    original = deck.select_one("div.note > details.original")
    assert original.summary.get_text() == "Original (Englisch)"
    assert original.div["lang"] == "en" and original.div.get_text().startswith("Holds two example cards")
    card = client.get("/r/carpe_diem/a-two-grapes", headers=de).get_data(as_text=True)
    assert '<span lang="de">Wertungskarten, 4 Personen</span>' in card
    assert "Scoring cards, 4 players" not in visible_text(card)
    english = client.get("/r/carpe_diem/a-two-grapes").get_data(as_text=True)
    assert "Scoring cards, 4 players" in visible_text(english) and "Wertungskarten" not in english
    # A deck the data does not translate is marked English on a German page.
    cras = BeautifulSoup(client.get("/r/carpe_cras/", headers=de).get_data(as_text=True), "html.parser")
    untranslated = cras.select_one("details#d-authority-zeal-draw > summary > span")
    assert (untranslated["lang"], untranslated.get_text()) == ("en", "Authority / Zeal – draw deck")
    # C.A.H.R.D.'s example armies are German on the new-table page, as its cards keep their names.
    table = client.get("/tables/new/cahrd", headers=de).get_data(as_text=True)
    armies = re.findall(r'<option value="[a-z-]+"(?: selected)?>([^<]*)</option>',
                        re.search(r'<select name="army_seat_1">(.*?)</select>', table, re.DOTALL)[1])
    assert armies[:2] == ["Beispielarmee: Schildwall", "Beispielarmee: Schnelle Reiter"]
    # At the table, each army is said by its title too (not its deck id), and grain as numbers are.
    made = client.post("/api/tables", json={"game": "cahrd", "players": ["Eve", "Max"],
                                            "options": {"army_seat_1": "shield-wall", "army_seat_2": "any"}})
    page = BeautifulSoup(client.get(f"/t/{made.get_json()['token']}", headers=de).get_data(as_text=True),
                         "html.parser")
    eve, maxs = page.select_one("#army-0 header"), page.select_one("#army-1 header")
    assert "Armee: Beispielarmee: Schildwall" in eve.get_text(" ", strip=True), eve
    assert "shield-wall" not in eve.get_text() and "any" not in maxs.get_text()
    assert page.select_one("#army-0 dl dd").get_text() == "4.000"
    english = BeautifulSoup(client.get(f"/t/{made.get_json()['token']}").get_data(as_text=True), "html.parser")
    assert "army: Example army: Shield Wall" in english.select_one("#army-0 header").get_text(" ", strip=True)
    assert english.select_one("#army-0 dl dd").get_text() == "4,000"


def test_player_reads_a_german_ruling_and_taps_for_the_english_original(browser, server):
    from phones import ARTIFACTS, PHONE
    from playwright.sync_api import expect

    context = browser.new_context(**PHONE, locale="de-DE")
    page = context.new_page()
    page.goto(f"{server}/r/carpe_diem/a-two-grapes")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("h1")).to_have_text("Zwei Trauben")
    ruling = page.locator("article.ruling", has_text=GERMAN_RULING)
    expect(ruling).to_be_visible()
    original = ruling.get_by_text(ENGLISH_RULING)
    expect(original).to_be_hidden()
    ruling.get_by_text("Original (Englisch)").click()
    expect(original).to_be_visible()
    expect(ruling.locator('[lang="en"]')).to_contain_text(ENGLISH_RULING)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "ruling-german-original-390.png"), full_page=True)
    context.close()
