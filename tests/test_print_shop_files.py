"""Files a print shop accepts: every font embedded, TrimBox and BleedBox, metadata from the
game's data, and ``--pdfx`` PDF/X-4 with the FOGRA39 OutputIntent, checked by tools printkit
does not include: poppler's ``pdffonts``, ``qpdf --check``, Ghostscript and pikepdf.

One copy of the database (Carpe Cras with a piece of RGBA artwork on one card, and Carpe Diem
for its score pad) is built once per mode for the whole module.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner
from database_edits import copy_game, edit
from PIL import Image, ImageCms
from reportlab.lib.colors import HexColor, rgb2cmyk

from card_data.loader import load_database
from printkit.build_options import BLEED_MM, BuildOptions
from printkit.pipeline.deck_files import deck_imposition
from printkit.cli import main as printkit_cli
from printkit.sheets.prepress.colour import PROFILE_PATH
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.render import DocInfo
from printkit.sheets.units import pt_from_mm

BASE_URL = "http://192.168.1.20:5000"
GAMES = ("carpe_cras", "carpe_diem")
BACK_COLOUR = "#1d2b3a"  # templates/carpe_cras/back-draw.yaml: the draw deck's back
ART_COLOUR = (200, 60, 40)
EPS_PT = 0.01


def _tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is missing: apt-get install poppler-utils qpdf ghostscript (as .ci/run does)"
    return path


def _invoke(*args: str):
    result = CliRunner().invoke(printkit_cli, list(args))
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("data")
    folder = copy_game(root, "carpe_cras")
    copy_game(root, "carpe_diem")
    (folder / "art").mkdir()
    art = Image.new("RGBA", (900, 600), (*ART_COLOUR, 255))
    art.putalpha(Image.linear_gradient("L").resize((900, 600)))  # soft edges: a soft mask in the PDF
    art.save(folder / "art" / "tyro.png")
    edit(folder / "cards" / "rulebook.yaml", "  title: Barbarian Tyro\n",
         "  title: Barbarian Tyro\n  art: art/tyro.png\n")
    return root


def _build(data: Path, out: Path, *extra: str) -> Path:
    _invoke("build", *GAMES, "--data", str(data), "--out", str(out), "--base-url", BASE_URL, *extra)
    return out


@pytest.fixture(scope="module")
def plain(data, tmp_path_factory) -> Path:
    out = _build(data, tmp_path_factory.mktemp("plain"))
    _invoke("calibration", "--out", str(out / "calibration"))
    return out


@pytest.fixture(scope="module")
def pdfx(data, tmp_path_factory) -> Path:
    return _build(data, tmp_path_factory.mktemp("pdfx"), "--pdfx")


@pytest.fixture(scope="module")
def exports(data, tmp_path_factory) -> dict[str, Path]:
    outs = {}
    for name, extra in {"plain": (), "pdfx": ("--pdfx",)}.items():
        out = tmp_path_factory.mktemp(f"export-{name}")
        _invoke("export", "carpe_cras", "--data", str(data), "--out", str(out), "--base-url", BASE_URL,
                "--format", "pdf", "--card", "barbarian-tyro", *extra)
        outs[name] = out
    return outs


def pdfs(folder: Path) -> list[Path]:
    found = sorted(folder.rglob("*.pdf"))
    assert found, f"no PDFs under {folder}"
    return found


def pdffonts(pdf: Path) -> list[tuple[str, str]]:
    """``[(font name, emb)]`` from pdffonts' table (the ``emb`` column: ``yes``/``no``)."""
    out = subprocess.run([_tool("pdffonts"), str(pdf)], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("---"))
    columns = [m.span() for m in re.finditer(r"-+", lines[rule])]
    header = lines[rule - 1]
    emb = next(i for i, (a, b) in enumerate(columns) if header[a:b].strip() == "emb")
    rows = []
    for line in lines[rule + 1:]:
        a, b = columns[emb]
        rows.append((line[:columns[0][1]].strip(), line[a:b].strip()))
    return rows


def assert_shop_clean(pdf: Path) -> None:
    fonts = pdffonts(pdf)
    assert all(emb == "yes" for _, emb in fonts), (pdf, fonts)
    check = subprocess.run([_tool("qpdf"), "--check", str(pdf)], check=False, capture_output=True, text=True)
    assert check.returncode == 0, (pdf, check.stdout, check.stderr)
    assert "No syntax or stream encoding errors" in check.stdout and "WARNING" not in check.stdout.upper(), \
        (pdf, check.stdout)
    gs = subprocess.run([_tool("gs"), "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=nullpage", str(pdf)],
                        check=False, capture_output=True, text=True)
    assert gs.returncode == 0 and not gs.stdout.strip() and not gs.stderr.strip(), (pdf, gs.stdout, gs.stderr)


def box(page: pikepdf.Page, name: str) -> list[float]:
    return [float(v) for v in page.obj[name]]


def inside(inner: list[float], outer: list[float]) -> bool:
    return (inner[0] >= outer[0] - EPS_PT and inner[1] >= outer[1] - EPS_PT and inner[2] <= outer[2] + EPS_PT
            and inner[3] <= outer[3] + EPS_PT)


# ---- every PDF, default build -------------------------------------------------------------------

def test_every_default_pdf_embeds_its_fonts_and_passes_qpdf_and_ghostscript(plain, exports):
    files = pdfs(plain) + pdfs(exports["plain"])
    names = {p.name for p in files}
    # cards, reference cards, a board, tokens, the score pad, the index, calibration, one card
    assert {"reference-cards.pdf", "battlefield-lane.pdf", "tokens.pdf", "scorepad.pdf", "print-this.pdf",
            "calibration.pdf", "barbarian-tyro-front.pdf"} <= names, names
    assert any(n.endswith("-cards.pdf") and n != "reference-cards.pdf" for n in names)
    for pdf in files:
        assert_shop_clean(pdf)
        assert "Helvetica" not in {name for name, _ in pdffonts(pdf)}, pdf


# ---- page boxes ----------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["plain", "pdfx"])
def test_a_single_card_pdf_carries_the_cards_trim_and_bleed(exports, data, mode):
    size = load_database(data).games["carpe_cras"].info.card_size
    w, h, bleed = pt_from_mm(size.width_mm), pt_from_mm(size.height_mm), pt_from_mm(BLEED_MM)
    for pdf in pdfs(exports[mode]):
        with pikepdf.open(pdf) as doc:
            for page in doc.pages:
                assert box(page, "/TrimBox") == pytest.approx([bleed, bleed, bleed + w, bleed + h], abs=EPS_PT)
                assert box(page, "/BleedBox") == pytest.approx([0, 0, w + 2 * bleed, h + 2 * bleed], abs=EPS_PT)
                assert box(page, "/MediaBox") == pytest.approx(box(page, "/BleedBox"), abs=EPS_PT)


def test_a_sheet_pdfs_trim_box_holds_every_cards_trim_and_its_bleed_box_the_page(plain, data):
    game = load_database(data).games["carpe_cras"]
    options = BuildOptions(paper=paper_by_name("letter"), base_url=BASE_URL)
    imp = deck_imposition(game, options)
    page_h = pt_from_mm(imp.paper.height_mm)
    trims = []
    for slot in range(imp.per_sheet):
        t = imp.trim(slot)
        trims.append([pt_from_mm(t.x_mm), page_h - pt_from_mm(t.y_mm + t.h_mm), pt_from_mm(t.x_mm + t.w_mm),
                      page_h - pt_from_mm(t.y_mm)])
    sheets = [p for p in pdfs(plain / "carpe_cras") if p.name.endswith("-cards.pdf")]
    assert sheets
    for pdf in sheets:
        with pikepdf.open(pdf) as doc:
            for page in doc.pages:
                trim, bleed, media = box(page, "/TrimBox"), box(page, "/BleedBox"), box(page, "/MediaBox")
                assert all(inside(t, trim) for t in trims), (pdf, trim)
                assert inside(trim, bleed) and inside(bleed, media), (pdf, trim, bleed, media)
                assert bleed != media  # the imposed area, not just the page


# ---- metadata ------------------------------------------------------------------------------------

def test_metadata_names_game_component_and_author_from_the_games_data(plain):
    with pikepdf.open(plain / "carpe_cras" / "tokens.pdf") as doc:
        info = {k: str(v) for k, v in doc.docinfo.items()}
    assert "Carpe Cras" in info["/Title"] and "tokens" in info["/Title"]
    assert info["/Author"] == "Weis Guys Gaming, LLC"  # game.yaml's publisher: no designers credited
    assert "Carpe Cras" in info["/Subject"]
    for pdf in pdfs(plain):
        with pikepdf.open(pdf) as doc:
            values = " ".join(str(v) for v in doc.docinfo.values()).lower()
        assert "anonymous" not in values and "unspecified" not in values, (pdf, values)
    with pikepdf.open(plain / "calibration" / "calibration.pdf") as doc:
        assert "/Author" not in doc.docinfo  # no game, no author: left out, not "anonymous"


def test_designers_credited_by_a_rulebook_are_the_author():
    info = load_database(None).games["cartisora"].info
    assert DocInfo.for_game(info, "tokens").author == "Jeremy Moshe, Max Tozer"
    assert DocInfo.for_game(info, "tokens").title == "Duels of Cartisora – tokens"


# ---- --pdfx --------------------------------------------------------------------------------------

def _k_operands(doc: pikepdf.Pdf) -> set[tuple[float, ...]]:
    """Every ``c m y k k`` fill colour set in the pages and their forms, rounded to 4 places."""
    found: set[tuple[float, ...]] = set()
    streams = [page.obj for page in doc.pages]
    for obj in doc.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
            streams.append(obj)
    for stream in streams:
        for operands, op in pikepdf.parse_content_stream(stream):
            if str(op) == "k":
                found.add(tuple(round(float(v), 4) for v in operands))
    return found


def _icc_cmyk(hex_colour: str) -> tuple[float, ...]:
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PROFILE_PATH)),
                                        "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    rgb = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), transform).getpixel((0, 0))
    return tuple(round(v / 255, 4) for v in pixel)


def test_pdfx_files_pass_the_tools_and_carry_the_output_intent(pdfx):
    profile = PROFILE_PATH.read_bytes()
    for pdf in pdfs(pdfx):
        assert_shop_clean(pdf)
        assert re.match(rb"%PDF-1\.([6-9])", pdf.read_bytes()[:8]), pdf
        with pikepdf.open(pdf) as doc:
            intent = doc.Root.OutputIntents[0]
            assert intent.S == "/GTS_PDFX"
            assert str(intent.OutputConditionIdentifier) == "FOGRA39"
            assert str(intent.RegistryName) == "http://www.color.org"
            assert intent.DestOutputProfile.read_bytes() == profile
            assert int(intent.DestOutputProfile.N) == 4
            assert str(doc.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
            assert str(doc.docinfo["/Trapped"]) == "/False"
            meta = doc.open_metadata()
            assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
            assert meta["dc:title"] == str(doc.docinfo["/Title"])
            assert meta["xmp:CreateDate"].startswith("2000-01-01T00:00:00")  # the fixed invariant date
            assert not doc.is_encrypted
            for page in doc.pages:
                assert "/TrimBox" in page.obj and inside(box(page, "/TrimBox"), box(page, "/BleedBox"))


def test_pdfx_colours_go_through_the_icc_profile_not_reportlabs_formula(pdfx):
    colours: set[tuple[float, ...]] = set()
    for pdf in pdfs(pdfx / "carpe_cras"):
        with pikepdf.open(pdf) as doc:
            colours |= _k_operands(doc)
    expected = _icc_cmyk(BACK_COLOUR)
    c = HexColor(BACK_COLOUR)
    formula = tuple(round(v, 4) for v in rgb2cmyk(c.red, c.green, c.blue))
    assert expected != formula
    assert any(all(abs(a - b) < 2e-4 for a, b in zip(found, expected, strict=True)) for found in colours), \
        (expected, sorted(colours))
    assert formula not in colours


def test_pdfx_artwork_is_cmyk_and_no_image_is_rgb(pdfx):
    spaces: list[str] = []
    for pdf in pdfs(pdfx):
        with pikepdf.open(pdf) as doc:
            for obj in doc.objects:
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                    spaces.append(str(obj.ColorSpace))
    assert "/DeviceCMYK" in spaces  # the card's art
    assert set(spaces) <= {"/DeviceCMYK", "/DeviceGray"}, spaces  # soft masks are grey


def test_pdfx_export_is_pdfx_too(exports):
    for pdf in pdfs(exports["pdfx"]):
        assert_shop_clean(pdf)
        with pikepdf.open(pdf) as doc:
            assert str(doc.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
            assert doc.Root.OutputIntents[0].DestOutputProfile.read_bytes() == PROFILE_PATH.read_bytes()


def test_two_pdfx_builds_are_byte_identical(pdfx, data, tmp_path):
    again = _build(data, tmp_path / "again", "--pdfx")
    first = sorted(p.relative_to(pdfx) for p in pdfx.rglob("*") if p.is_file() and ".printkit" not in str(p))
    second = sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file() and ".printkit" not in str(p))
    assert first == second
    for rel in first:
        assert (pdfx / rel).read_bytes() == (again / rel).read_bytes(), rel
