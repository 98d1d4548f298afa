"""QR codes every scanner reads (issue 18, part 4).

A card's QR code encodes its short address ``<BASE>/Q/<CODE>`` (card_data.editions.short_codes): short
and upper case, so that it is QR version 2, whose modules are 0.45 mm in the cards' 15 mm
region. Measured on the bundled ``printkit build --catalog`` (base URL ``http://192.168.1.20:5000``,
built once for the module):

- every card code is version 2 with modules of at least 0.45 mm, measured from the PDF's
  drawing; and for the README's three base URLs every payload is alphanumeric and version 2;
- zxing-cpp and zbar (libzbar0, which many phone scanner apps use) both read every card code
  from a 150 dpi render, and from a simulated phone photo of each page at 300 dpi (15 degrees of
  tilt, 1 px blur, JPEG quality 60, light falling off across the page), each code read from the
  card around it (tests/qr_scan.py);
- what a code opens: the companion redirects it (in either case) to the card's versioned page,
  an unknown code is a 404 saying so, the old ``/r/`` addresses still work, the static site's
  ``Q/<CODE>/index.html`` leads to the card's page; two card versions sharing a code are a
  problem naming both; a base URL with a long path is warned about with its module size.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from database_edits import copy_game
from qr_scan import (
    read_matrix,
    crop_mm,
    opened_page,
    phone_photo,
    qr_codes_in,
    rendered_pages,
    require_zbar,
    zbar_missing,
    zbar_texts,
    zxing_texts,
)

from card_data.loader import check_database, load_database
from card_data.problems import DatabaseError
from card_data.editions.short_codes import CODE_ALPHABET, card_code, qr_base_url, short_url
from companion import create_app
from companion.cards.site import export_site
from printkit.build_options import BuildOptions
from printkit.pipeline.build import build
from printkit.pipeline.card_faces import card_qr_url, card_url
from printkit.cli import main as printkit_cli
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.qr import ALPHANUMERIC, MIN_MODULE_MM, module_mm, qr_matrix, qr_version

BASE_URL = "http://192.168.1.20:5000"
README_BASE_URLS = ("http://localhost:5000", BASE_URL, "https://cards.example.org")
"""The base URLs the README uses: the default, the home network example, a public host."""
DB = load_database()
DECODERS = {"zxing-cpp": zxing_texts, "zbar": zbar_texts}


def printed_cards():
    """``(game, card)`` for every card of the bundled database."""
    return [(game, card) for game in DB.games.values() for card in game.cards.values()]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    """``printkit build --catalog``: every card once."""
    out = tmp_path_factory.mktemp("catalog")
    result = CliRunner().invoke(printkit_cli, ["build", "--catalog", "--out", str(out), "--base-url", BASE_URL])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def codes(catalog):
    """Every QR code drawn in the build's PDFs, found from the drawing."""
    return [code for pdf in sorted(catalog.rglob("*.pdf")) for code in qr_codes_in(pdf)]


@pytest.fixture(scope="module")
def expected() -> dict[str, tuple]:
    """``{payload: (game, card)}``: what each card's code should say."""
    return {card_qr_url(BASE_URL, game, card): (game, card) for game, card in printed_cards()}


def read_every_code(codes, dpi: int, photo: bool) -> dict[str, list[list[str]]]:
    """``{decoder: [texts read from the picture around each code, one list per code]}``
    from each page rendered at ``dpi``, photographed first with ``photo``."""
    decoders = {name: decode for name, decode in DECODERS.items() if name != "zbar" or not zbar_missing()}
    found: dict[str, list[list[str]]] = {name: [] for name in decoders}
    for pdf in sorted({code.pdf for code in codes}):
        on_pdf = [code for code in codes if code.pdf == pdf]
        for index, image in rendered_pages(pdf, dpi):
            here = [code for code in on_pdf if code.page == index]
            if not here:
                continue
            shot = phone_photo(image, dpi) if photo else None
            for code in here:
                picture = shot.crop(code.region) if shot else crop_mm(image, code.region, dpi)
                for name, decode in decoders.items():
                    found[name].append(decode(picture))
    return found


@pytest.fixture(scope="module")
def read_at_150_dpi(codes):
    return read_every_code(codes, 150, photo=False)


@pytest.fixture(scope="module")
def read_from_phone_photos(codes):
    return read_every_code(codes, 300, photo=True)


# ---- what is printed ----------------------------------------------------------------------------

def test_every_card_code_is_version_2_with_modules_of_at_least_0_45_mm(codes):
    assert len(codes) == len(printed_cards())
    for code in codes:
        assert code.version <= 3, (code.pdf.name, code.page, code.version)
        assert code.module_mm >= MIN_MODULE_MM == 0.45, (code.pdf.name, code.page, code.module_mm)
    assert {code.version for code in codes} == {2}
    # The cards' 15 mm regions: 33 modules with the quiet zone.
    assert min(code.module_mm for code in codes) == pytest.approx(15 / 33, abs=0.001)


@pytest.mark.parametrize("base_url", README_BASE_URLS)
def test_the_readme_base_urls_give_alphanumeric_version_2_codes(base_url):
    smallest_region_mm = 15
    for game, card in printed_cards():
        payload = card_qr_url(base_url, game, card)
        assert payload.startswith(base_url.upper() + "/Q/"), payload
        assert set(payload) <= ALPHANUMERIC, payload
        version = qr_version(payload)
        assert version <= 3 and module_mm(version, smallest_region_mm) >= MIN_MODULE_MM, (payload, version)
        assert version == 2, payload
    # 35 characters fit version 2 only in alphanumeric mode (byte mode holds 26): the encoder
    # chose it, and the symbol reads back as written.
    payload = card_qr_url(BASE_URL, DB.games["carpe_diem"], DB.games["carpe_diem"].cards["fountain-gardens"])
    assert len(payload) == 35 and qr_version(payload) == 2
    assert read_matrix(qr_matrix(payload)).text == payload


def test_a_code_is_the_same_in_every_build_and_every_version_has_its_own():
    """The code is a digest of the game, the card and its printed version: printed cards carry
    it forever, so it must never change (these values are the scheme's own)."""
    assert card_code("carpe_diem", "fountain-gardens", 1) == card_code("carpe_diem", "fountain-gardens", 1)
    assert card_code("carpe_diem", "fountain-gardens", 2) == "CR8TT0N2"
    assert card_code("carpe_diem", "fountain-gardens", None) != card_code("carpe_diem", "fountain-gardens", 1)
    assert len({card_code("cartisora", card_id, None) for card_id in DB.games["cartisora"].cards}) == \
        len(DB.games["cartisora"].cards)
    assert set(card_code("cartisora", "parry", 1)) <= set(CODE_ALPHABET) <= ALPHANUMERIC
    assert short_url("https://Cards.Example.org/Kit/", "CR8TT0N2") == "HTTPS://CARDS.EXAMPLE.ORG/Kit/Q/CR8TT0N2"
    assert qr_base_url("http://user:Secret@host.example:8080") == "HTTP://user:Secret@HOST.EXAMPLE:8080"


# ---- what the scanners read ---------------------------------------------------------------------

@pytest.mark.parametrize("decoder", DECODERS)
def test_both_scanners_read_every_card_code_at_150_dpi(read_at_150_dpi, expected, decoder):
    if decoder == "zbar":
        require_zbar()
    read = read_at_150_dpi[decoder]
    assert all(len(texts) == 1 for texts in read), [texts for texts in read if len(texts) != 1]
    assert sorted(texts[0] for texts in read) == sorted(expected)


@pytest.mark.parametrize("decoder", DECODERS)
def test_both_scanners_read_every_card_code_from_a_phone_photo(read_from_phone_photos, expected, decoder):
    if decoder == "zbar":
        require_zbar()
    read = read_from_phone_photos[decoder]
    missed = sum(len(texts) != 1 for texts in read)
    assert missed == 0, f"{decoder} missed {missed} of {len(read)} codes in the simulated phone photos"
    assert sorted(texts[0] for texts in read) == sorted(expected)


# ---- what a code opens --------------------------------------------------------------------------

def test_scanning_a_code_opens_its_cards_versioned_page(read_from_phone_photos, expected, client):
    for (text,) in read_from_phone_photos["zxing-cpp"]:
        game, card = expected[text]
        version = game.printings.card_version(card)
        page = opened_page(client, text)
        assert page == urlsplit(card_url(BASE_URL, game.game_id, card.id, version.version)).path, text
        assert html.escape(card.title, quote=False) in client.get(page).get_data(as_text=True), text


def test_a_code_in_lower_case_opens_the_same_page(expected, client):
    for text in list(expected)[::7]:
        path = urlsplit(text).path
        assert path.startswith("/Q/")
        upper, lower = client.get(path), client.get(path.lower())
        assert upper.status_code == lower.status_code == 302
        assert upper.headers["Location"] == lower.headers["Location"]
        assert client.get(path + "/").headers["Location"] == upper.headers["Location"]


def test_every_printed_version_keeps_its_code_and_the_unversioned_one_opens_the_card(client):
    """A copy printed before an erratum carries its old version's code: it opens that version's
    page, which says what has changed. A copy printed before the game recorded versions
    carries the unversioned code: it opens the card."""
    game = DB.games["carpe_diem"]
    assert [p.version for p in game.printings.versions("fountain-gardens")] == [1, 2]
    old = client.get(f"/Q/{card_code('carpe_diem', 'fountain-gardens', 1)}")
    assert old.status_code == 302 and old.headers["Location"] == "/r/carpe_diem/fountain-gardens/1"
    assert "has changed since your copy was printed" in client.get(old.headers["Location"]).get_data(as_text=True)
    unversioned = client.get(f"/Q/{card_code('carpe_diem', 'fountain-gardens', None)}")
    assert unversioned.status_code == 302 and unversioned.headers["Location"] == "/r/carpe_diem/fountain-gardens"


def test_an_unknown_code_is_a_404_that_says_so(client):
    for path in ("/Q/ZZZZZZZZ", "/q/zzzzzzzz", "/Q/NOT-A-CODE-AT-ALL"):
        response = client.get(path)
        assert response.status_code == 404, path
        text = " ".join(BeautifulSoup(response.get_data(as_text=True), "html.parser").get_text(" ").split())
        assert "is not known on this server" in text, path
        assert "Card companion" in text  # the site's own page, header and all


def test_an_old_printed_address_still_opens_the_card(client, expected):
    for game, card in list(expected.values())[::5]:
        version = game.printings.card_version(card)
        for url in (card_url(BASE_URL, game.game_id, card.id), card_url(BASE_URL, game.game_id, card.id, version.version)):
            response = client.get(url.removeprefix(BASE_URL))
            assert response.status_code == 200, url
            assert html.escape(card.title, quote=False) in response.get_data(as_text=True), url


def test_the_static_sites_short_address_pages_lead_to_the_card(tmp_path, expected):
    site = tmp_path / "site"
    export_site(site, base_url=BASE_URL)
    pages = sorted((site / "Q").glob("*/index.html"))
    assert {page.parent.name for page in pages} >= {urlsplit(text).path.split("/")[-1] for text in expected}
    for text, (game, card) in expected.items():
        page = site / urlsplit(text).path.lstrip("/") / "index.html"
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        assert soup.find("meta", attrs={"name": "robots"})["content"] == "noindex"
        refresh = soup.find("meta", attrs={"http-equiv": "refresh"})["content"]
        target = re.fullmatch(r"0; url=(\S+)", refresh).group(1)
        link = soup.find("main").find("a")["href"]
        assert link == target and not urlsplit(target).scheme and not target.startswith("/"), target
        landing = (page.parent / target).resolve()
        version = game.printings.card_version(card).version
        assert landing == (site / "r" / game.game_id / card.id / str(version) / "index.html").resolve(), text
        assert BeautifulSoup(landing.read_text(encoding="utf-8"), "html.parser").h1.get_text(strip=True) == \
            card.title


# ---- what the build says ------------------------------------------------------------------------

def test_a_base_url_with_a_long_path_warns_with_the_module_size():
    options = BuildOptions(paper=paper_by_name("letter"), base_url="https://example.org/our-game-group/rulings")
    warned = [w for w in build(None, None, options, ["cartisora"]).warnings if w.field == "layout:qr"]
    assert len(warned) == 1, warned
    message = warned[0].message
    assert re.search(r"QR version [34]: modules of 0\.\d+ mm in a 15 mm region", message), message
    module = float(re.search(r"modules of (0\.\d+) mm", message).group(1))
    assert module < MIN_MODULE_MM
    assert "/our-game-group/rulings" in message and "case-sensitive" in message
    # A path in upper case is alphanumeric again: version 2, no warning.
    quiet = BuildOptions(paper=paper_by_name("letter"), base_url="https://example.org/GAMES")
    assert not [w for w in build(None, None, quiet, ["cartisora"]).warnings if w.field == "layout:qr"]


COLLIDING = ("echo-188130", "echo-212042")
"""Two card ids of Duels of Cartisora whose unversioned short codes are the same (5PFEFVYM),
found by trying ``echo-<n>`` ids: at 40 bits a pair turns up among about a million."""


def test_two_card_versions_sharing_a_code_are_a_problem_naming_both(tmp_path):
    assert card_code("cartisora", COLLIDING[0], None) == card_code("cartisora", COLLIDING[1], None)
    folder = copy_game(tmp_path / "data", "cartisora")
    tokens = folder / "cards" / "tokens.yaml"
    text = tokens.read_text(encoding="utf-8")
    lines = {}
    for card_id in COLLIDING:
        lines[card_id] = text.count("\n") + 2
        text += (f"\n- id: {card_id}\n  type: token\n  title: Echo\n  award: first_contest_win\n"
                 f"  awarded_for: Taken by nobody.\n  bonus_points: 2\n")
    tokens.write_text(text, encoding="utf-8")

    _, problems = check_database(tmp_path / "data")
    clash = [str(p) for p in problems if "short code" in p.message]
    assert len(clash) == 2, problems
    first, second = COLLIDING
    assert clash[0].startswith(f"{tokens}:{lines[first]}: cartisora/{first}: id: ")
    assert clash[1].startswith(f"{tokens}:{lines[second]}: cartisora/{second}: id: ")
    assert f"is also that of cartisora/{second}" in clash[0] and f"is also that of cartisora/{first}" in clash[1]

    with pytest.raises(DatabaseError, match="short code 5PFEFVYM"):
        create_app({"TESTING": True, "CARD_DATA_DIR": str(tmp_path / "data")})
    out = tmp_path / "out"
    result = CliRunner().invoke(printkit_cli, ["build", "--data", str(tmp_path / "data"), "--out", str(out),
                                               "--base-url", BASE_URL])
    assert result.exit_code != 0
    assert f"cartisora/{first}: id: the QR short code 5PFEFVYM" in result.output
    assert not out.exists() or not any(out.rglob("*.pdf"))
