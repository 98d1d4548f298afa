"""Errata: card versions (issue 12, part 1).

The story a player lives: a card sheet is printed while a card is at version 1; the designer
rewords the card and runs ``printkit release --reason ...``; the player scans the QR code of
the old copy (decoded with zxing-cpp from the printed PDF: the short address of the card's
version 1, which the companion redirects to its page) and, in Chromium at phone size, sees
that the card has changed: the text on their copy, the text now, a word diff and the
reason. The current card's page has no such banner. Around it: ``printings.yaml`` validation
(FILE:LINE problems) and the ``printkit release`` command's rules.
"""

from __future__ import annotations

import datetime
import re
import textwrap
from pathlib import Path
from urllib.parse import urlsplit

import pdfplumber
import pypdfium2
import pytest
import yaml
import zxingcpp
from bs4 import BeautifulSoup
from click.testing import CliRunner
from conftest import DataCopy
from database_edits import copy_database
from phones import PHONE, serving
from qr_scan import opened_page, read_matrix

from card_data.loader import check_database, load_database
from card_data.editions.printings import PRINTINGS_FILE, Printings, plan_release, printed_fields
from card_data.editions.short_codes import card_code, short_url
from companion.cards.errata import word_diff
from printkit.build_options import BuildOptions
from printkit.pipeline.build import build
from printkit.pipeline.card_faces import card_url
from printkit.cli import main as printkit_cli
from printkit.sheets.prepress.paper import paper_by_name

BASE_URL = "http://192.168.1.20:5000"
GAME, CARD = "carpe_diem", "fountain-gardens"
"""The bundled erratum: an example card (invented, not the publisher's) reworded for clarity."""
BUNDLED = load_database()
OLD_TEXT = BUNDLED.games[GAME].printings.printing(CARD, 1).fields["text"]
NEW_TEXT = BUNDLED.games[GAME].cards[CARD].text
REASON = "Reworded so that only finished gardens in your own district count."
QR_DPI = 200


def release(root: Path, *args: str):
    return CliRunner().invoke(printkit_cli, ["release", "--data", str(root), *args])


def decode_card_urls(out: Path) -> dict[str, tuple[Path, int]]:
    """Every QR code of the card PDFs under ``out``, rendered at :data:`QR_DPI` as a phone's
    photo would see it: ``{decoded URL: (pdf, page index)}``."""
    found = {}
    for pdf in sorted(out.rglob("*.pdf")):
        doc = pypdfium2.PdfDocument(str(pdf))
        try:
            for index, page in enumerate(doc):
                image = page.render(scale=QR_DPI / 72).to_pil()
                for code in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode):
                    found[code.text] = (pdf, index)
        finally:
            doc.close()
    return found


def page_text(pdf: Path, index: int) -> str:
    with pdfplumber.open(pdf) as doc:
        return doc.pages[index].extract_text() or ""


def build_game(root: Path, out: Path):
    result = build(root, out, BuildOptions(paper_by_name("letter"), BASE_URL), [GAME], catalog=True,
                   cards_only=True)
    assert not result.problems, "\n".join(map(str, result.problems))
    return result


@pytest.fixture(scope="module")
def story(tmp_path_factory):
    """A copy of the database taken back to before the erratum (the card's old text, no
    printings.yaml), released once, printed, then changed and released again."""
    base = tmp_path_factory.mktemp("errata")
    data = DataCopy(base / "data")
    for path in data.root.glob(f"*/{PRINTINGS_FILE}"):
        path.unlink()
    data.edit_card(GAME, CARD, text=OLD_TEXT)

    first = release(data.root, "--date", "2026-11-20")
    assert first.exit_code == 0, first.output
    before = build_game(data.root, base / "before")
    printed = decode_card_urls(base / "before")

    data.edit_card(GAME, CARD, text=NEW_TEXT)
    unreleased = build_game(data.root, base / "unreleased")
    unreleased_urls = decode_card_urls(base / "unreleased")
    unreleased_app = data.app()

    printings = data.root / GAME / PRINTINGS_FILE
    snapshot = printings.read_bytes()
    no_reason = release(data.root, "--date", "2026-11-24")
    assert printings.read_bytes() == snapshot
    erratum = release(data.root, "--date", "2026-11-24", "--reason", REASON)
    after_erratum = printings.read_bytes()
    again = release(data.root, "--reason", REASON)
    return {"data": data, "first": first, "before": before, "printed": printed, "unreleased": unreleased,
            "unreleased_urls": unreleased_urls, "unreleased_app": unreleased_app, "no_reason": no_reason,
            "erratum": erratum, "after_erratum": after_erratum, "again": again, "printings": printings,
            "base": base}


def printed_url(story) -> str:
    """The decoded QR code of the copy of the card printed before the erratum: its short
    address, which the companion on the data after the erratum leads to version 1's page."""
    client = story["data"].app().test_client()
    urls = [url for url in story["printed"] if opened_page(client, url).startswith(f"/r/{GAME}/{CARD}/")]
    assert len(urls) == 1, sorted(story["printed"])
    return urls[0]


# ---- printkit release ------------------------------------------------------------------------

def test_the_first_release_gives_every_card_version_1(story):
    db = load_database(story["data"].root)
    cards = sum(len(g.cards) for g in db.games.values())
    lines = story["first"].stdout.splitlines()
    assert len(lines) == cards
    assert all(" v1 (2026-11-20, first version)" in line for line in lines), lines[:3]
    assert f"{GAME}/{CARD} v1 (2026-11-20, first version)" in lines


def test_a_changed_card_without_a_reason_is_refused_and_nothing_is_written(story):
    result = story["no_reason"]
    assert result.exit_code == 2
    assert "--reason" in result.output and CARD in result.output


def test_an_erratum_appends_version_2_and_keeps_the_printed_text_of_version_1(story):
    assert story["erratum"].exit_code == 0, story["erratum"].output
    assert story["erratum"].stdout.splitlines() == [f"{GAME}/{CARD} v2 (2026-11-24, erratum: {REASON})"]
    versions = yaml.safe_load(story["after_erratum"])[CARD]
    assert [v["version"] for v in versions] == [1, 2]
    assert versions[0]["fields"]["text"] == OLD_TEXT and "reason" not in versions[0]
    assert versions[1] == {"version": 2, "date": datetime.date(2026, 11, 24), "reason": REASON,
                           "fields": {**versions[0]["fields"], "text": NEW_TEXT}}
    # Every other card kept its single version.
    others = yaml.safe_load(story["after_erratum"])
    assert all(len(v) == 1 for card_id, v in others.items() if card_id != CARD)


def test_a_release_with_nothing_changed_writes_nothing(story):
    assert story["again"].exit_code == 0
    assert story["again"].stdout == ""
    assert "Nothing to release" in story["again"].stderr
    assert story["printings"].read_bytes() == story["after_erratum"]


def test_a_dry_run_shows_the_versions_and_writes_nothing(data_copy):
    data_copy.edit_card(GAME, "a-two-herbs", text="Pay 2 herbs for 4 VP, each time you can.")
    path = data_copy.root / GAME / PRINTINGS_FILE
    before = path.read_bytes()
    result = release(data_copy.root, GAME, "--dry-run", "--reason", "Shorter.", "--date", "2026-12-01")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"{GAME}/a-two-herbs v2 (2026-12-01, erratum: Shorter.)"]
    assert path.read_bytes() == before


def test_plan_release_refuses_a_date_before_the_last_version():
    game = BUNDLED.games[GAME]
    card = game.cards[CARD].model_copy(update={"text": "Something else."})
    with pytest.raises(ValueError, match="before its version 2"):
        plan_release([card], game.printings, datetime.date(2020, 1, 1), "why")


def test_printed_fields_leave_out_what_is_not_printed():
    fields = printed_fields(BUNDLED.games[GAME].cards[CARD])
    assert {"title", "text", "vp", "type"} <= set(fields)
    assert not {"id", "rulings", "note", "example", "assumed", "art"} & set(fields)


# ---- the printed card: QR code and version label ---------------------------------------------

def test_a_card_printed_before_the_erratum_encodes_version_1(story):
    url = printed_url(story)
    assert url == short_url(BASE_URL, card_code(GAME, CARD, 1))
    client = story["data"].app().test_client()
    assert opened_page(client, url) == card_url("", GAME, CARD, 1) == f"/r/{GAME}/{CARD}/1"
    # Every card of the game carries its version: each code opens its card's version 1.
    pages = [opened_page(client, url) for url in story["printed"]]
    assert pages and all(re.fullmatch(rf"/r/{GAME}/[a-z0-9-]+/1", page) for page in pages), pages[:3]


def test_the_sheet_prints_each_cards_version_in_small_type(story):
    pdf, index = story["printed"][printed_url(story)]
    assert "v1" in page_text(pdf, index).split()
    assert "v2" not in page_text(pdf, index).split()

    out = story["base"] / "after"
    build_game(story["data"].root, out)
    after = decode_card_urls(out)
    url = short_url(BASE_URL, card_code(GAME, CARD, 2))
    assert url in after
    assert opened_page(story["data"].app().test_client(), url) == f"/r/{GAME}/{CARD}/2"
    assert "v2" in page_text(*after[url]).split()


@pytest.mark.parametrize("base_url", ["http://localhost:5000", BASE_URL, "https://cards.example.org"])
def test_versions_keep_every_bundled_code_at_qr_version_2(base_url):
    """The README's base URLs: with its version in the short code every bundled card's code is
    QR version 2 at error correction M (tests/test_qr_scanners.py reads them back printed)."""
    from printkit.pipeline.card_faces import card_qr_url
    from printkit.sheets.qr import MAX_COMFORTABLE_VERSION, qr_matrix, qr_version

    assert MAX_COMFORTABLE_VERSION == 2
    for game in BUNDLED.games.values():
        for card in game.cards.values():
            url = card_qr_url(base_url, game, card)
            assert qr_version(url) == 2, url
            read = read_matrix(qr_matrix(url))
            assert (read.text, read.ec_level) == (url, "M")


def test_a_longer_base_url_falls_back_to_error_correction_l_to_stay_at_version_2():
    """41 alphanumeric characters: version 3 at M, version 2 (47 characters) at L."""
    from printkit.sheets.qr import qr_matrix, qr_version

    url = short_url("https://cards.example-club.org", card_code(GAME, CARD, 2))
    assert len(url) == 41 and qr_version(url) == 2
    read = read_matrix(qr_matrix(url))
    assert (read.text, read.ec_level) == (url, "L")


def test_short_payloads_keep_error_correction_m():
    from printkit.sheets.qr import qr_matrix

    url = short_url(BASE_URL, card_code(GAME, CARD, 2))
    read = read_matrix(qr_matrix(url))
    assert (read.text, read.ec_level) == (url, "M")


def test_a_card_changed_but_not_released_prints_as_the_next_version_with_a_warning(story):
    url = short_url(BASE_URL, card_code(GAME, CARD, 2))
    assert url in story["unreleased_urls"]
    # The companion on that data already knows the code of the version it prints as.
    assert opened_page(story["unreleased_app"].test_client(), url) == f"/r/{GAME}/{CARD}/2"
    warned = [w for w in story["unreleased"].warnings if w.card_id == CARD]
    assert warned and all(w.field == "version" and "not released" in w.message for w in warned)
    assert not [w for w in story["unreleased"].warnings if w.field == "version" and w.card_id != CARD]
    # The companion on that data shows the card as it is for v2, and v1's banner says the newest
    # change has no reason on record yet.
    client = story["unreleased_app"].test_client()
    assert 'class="erratum"' not in client.get(f"/r/{GAME}/{CARD}/2").get_data(as_text=True)
    page = client.get(f"/r/{GAME}/{CARD}/1").get_data(as_text=True)
    assert 'class="erratum"' in page and "not released yet" in page


# ---- what the player sees -------------------------------------------------------------------

def test_scanning_the_old_copy_shows_what_changed_in_chromium(story, browser):
    from test_accessibility import AXE, axe_violations

    # The phone opens the short address the old copy's code holds and follows its redirect.
    path = urlsplit(printed_url(story)).path
    assert path.startswith("/Q/")
    app = story["data"].app()
    with serving(app) as server:
        for scheme in ("light", "dark"):
            context = browser.new_context(**PHONE, color_scheme=scheme)
            context.add_init_script(path=AXE)
            page = context.new_page()
            response = page.goto(server + path)
            assert response.status == 200 and page.url == f"{server}/r/{GAME}/{CARD}/1"
            banner = page.locator("section.erratum")
            assert banner.count() == 1
            heading = banner.locator("h2").inner_text()
            assert heading.startswith("This card has changed since your copy was printed (v1, printed 20 November 2026)")
            # First on the page after the card's title, before its stats.
            assert page.evaluate("() => document.querySelector('section.erratum').compareDocumentPosition("
                                 "document.querySelector('dl.stats, section.card-text')) & 4") == 4
            assert banner.locator(".erratum-printed").inner_text().count(OLD_TEXT) == 1
            assert banner.locator(".erratum-current").inner_text().count(NEW_TEXT) == 1
            inserted = banner.locator(".erratum-diff ins").all_inner_texts()
            assert "score" in inserted and "own" in inserted
            assert banner.locator(".erratum-diff del").count() == 0  # nothing of the old text was dropped
            assert f"v2, 24 November 2026: {REASON}" in banner.locator(".erratum-reasons").inner_text()
            assert banner.bounding_box()["width"] <= PHONE["viewport"]["width"]
            assert axe_violations(page) == []
            page.screenshot(path=str(Path(__file__).resolve().parent.parent / "test-artifacts"
                                     / f"errata-banner-{scheme}.png"), full_page=True)

            for current in (f"/r/{GAME}/{CARD}/2", f"/r/{GAME}/{CARD}"):
                assert page.goto(server + current).status == 200
                assert page.locator("section.erratum").count() == 0, current
                assert page.locator("h1").inner_text() == "Garden fountain"
            context.close()


def test_an_unknown_version_is_not_found_with_a_message(client):
    response = client.get(f"/r/{GAME}/{CARD}/7")
    assert response.status_code == 404
    assert "Garden fountain has no version 7: the versions known are v1, v2" in response.get_data(as_text=True)
    assert client.get(f"/r/{GAME}/{CARD}/0").status_code == 404


def test_the_bundled_erratum_shows_a_word_diff(client):
    page = client.get(f"/r/{GAME}/{CARD}/1").get_data(as_text=True)
    assert "<ins>score</ins>" in page and "<ins>own</ins>" in page
    other = client.get("/r/cartisora/brute-3/1").get_data(as_text=True)
    assert 'class="erratum"' not in other


def test_word_diff_marks_words_not_colours():
    assert word_diff("Gain 2 gold now.", "Gain 3 gold now & later.") == (
        "Gain <del>2</del> <ins>3</ins> gold <del>now.</del> <ins>now &amp; later.</ins>")
    assert word_diff("same words", "same  words") == "same words"


def test_the_static_site_and_the_offline_manifest_hold_every_printed_version(app):
    from companion.cards.site import site_paths

    paths = site_paths(app)
    assert f"/r/{GAME}/{CARD}/1" in paths and f"/r/{GAME}/{CARD}/2" in paths
    assert "/r/cartisora/brute-3/1" in paths and "/r/cartisora/brute-3/2" not in paths
    urls = app.test_client().get(f"/r/{GAME}/offline.json").get_json()["urls"]
    assert f"/r/{GAME}/{CARD}/1" in urls and f"/r/{GAME}/{CARD}/2" in urls


def test_every_bundled_card_is_released():
    for game in BUNDLED.games.values():
        assert game.printings.versioned, game.game_id
        for card in game.cards.values():
            version = game.printings.card_version(card)
            assert version.released, (game.game_id, card.id)
    errata = [(g.game_id, card_id) for g in BUNDLED.games.values()
              for card_id, versions in g.printings.cards.items() if len(versions) > 1]
    assert errata == [(GAME, CARD)]
    assert BUNDLED.games[GAME].cards[CARD].example, "errata only on our own example cards"


# ---- printings.yaml problems ----------------------------------------------------------------

def problems_of(data: DataCopy, text: str) -> list[str]:
    path = data.root / GAME / PRINTINGS_FILE
    path.write_text(textwrap.dedent(text))
    _, problems = check_database(data.root)
    return [str(p) for p in problems if p.file == str(path)]


def test_printings_problems_name_file_and_line(data_copy):
    path = data_copy.root / GAME / PRINTINGS_FILE
    fields = "{type: fountain, title: Garden fountain, text: Old words.}"
    found = problems_of(data_copy, f"""\
        fountain-gardens:
        - version: 1
          date: 2026-11-20
          fields: {fields}
        - version: 3
          date: 2026-11-21
          reason: Clearer.
          fields: {fields}
        no-such-card:
        - version: 1
          date: 2026-11-20
          fields: {fields}
        a-two-herbs:
        - version: 1
          date: 2026-11-20
          fields: {fields}
        - version: 2
          date: 2026-11-21
          fields: {fields}
        a-three-chickens:
        - version: 1
          date: not a date
          fields: {fields}
        b-grape-herb-fish:
        - version: 1
          date: 2026-11-20
          fields: {fields}
        - version: 2
          date: 2026-11-19
          reason: Earlier?
          fields: {fields}
        """)
    version_gap = (f"{path}:5: {GAME}/fountain-gardens: 1.version: version 3 where 2 was expected: a card's "
                   f"versions count 1, 2, 3... in order")
    unknown = (f"{path}:9: {GAME}/no-such-card: -: unknown card id 'no-such-card': printed copies of it exist, "
               f"but no card of the game has it; keep the card (its id is in their QR codes), or remove its "
               f"versions here if it is withdrawn")
    bad_date = f"{path}:22: {GAME}/a-three-chickens: 0.date: 'not a date' is not a date: write it as YYYY-MM-DD"
    assert found[:2] == [version_gap, unknown]
    assert found[2] == f"{path}:17: {GAME}/a-two-herbs: 1.reason: version 2 is an erratum: give its reason"
    assert found[3].startswith(bad_date), found[3]
    assert found[4:] == [f"{path}:29: {GAME}/b-grape-herb-fish: 1.date: 2026-11-19 is before version 1 (2026-11-20)"]


def test_printings_must_map_card_ids_to_lists(data_copy):
    path = data_copy.root / GAME / PRINTINGS_FILE
    assert problems_of(data_copy, "- just a list\n") == [
        f"{path}:1: {GAME}/-: printings: expected a mapping of card ids to their versions, got list"]
    assert problems_of(data_copy, "fountain-gardens: 3\n") == [
        f"{path}:1: {GAME}/fountain-gardens: -: expected a list of versions, oldest first"]


def test_a_game_without_printings_is_unversioned(data_copy):
    (data_copy.root / GAME / PRINTINGS_FILE).unlink()
    game = load_database(data_copy.root).games[GAME]
    assert game.printings == Printings()
    assert game.printings.card_version(game.cards[CARD]) is None


def test_every_version_page_names_the_cards_own_page_as_canonical(app):
    """A printed copy's address (``.../<version>``) is one of many for the same card: search
    engines and shared links should land on the card's page, under BASE_URL and its mount point."""
    base = "https://cards.example.org/companion"
    app.config["BASE_URL"] = base
    try:
        client = app.test_client()
        for path in (f"/r/{GAME}/{CARD}/1", f"/r/{GAME}/{CARD}/2", f"/r/{GAME}/{CARD}"):
            page = client.get(path, base_url="http://localhost/companion")
            soup = BeautifulSoup(page.get_data(as_text=True), "html.parser")
            assert soup.find("link", rel="canonical")["href"] == f"{base}/r/{GAME}/{CARD}", path
    finally:
        app.config["BASE_URL"] = None


@pytest.mark.parametrize("args, said", [
    (["--reason", "bad \x1b[31mred"], "Invalid value for '--reason': holds U+001B, a control character"),
    (["--card-reason", "a-two-grapes", "x\u202ey"], "Invalid value for '--card-reason': holds U+202E, a control character"),
    (["--reason", "x" * 1001], "Invalid value for '--reason': 1,001 characters; a reason holds at most 1,000"),
])
def test_a_reason_players_could_not_read_as_written_is_refused_before_anything(tmp_path, args, said):
    """A reason is shown on every older copy's page and echoed to the terminal: an escape
    sequence, a right-to-left override or a page of text is refused, nothing written."""
    root = copy_database(tmp_path / "data")
    before = {p: p.read_bytes() for p in root.rglob("printings.yaml")}
    result = release(root, "carpe_diem", *args)
    assert result.exit_code == 2 and said in result.output
    assert {p: p.read_bytes() for p in root.rglob("printings.yaml")} == before
