"""Artwork (fit, focus, resolution, SVG, corrupt and outside files), inline icons in card text,
a game's own fonts and dense QR codes: measured from the PDFs printkit draws."""

from __future__ import annotations

import io
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from click.testing import CliRunner
from database_edits import copy_game, edit
from PIL import Image as PILImage

from card_data.loader import bundled_data_dir
from printkit.build_options import BuildOptions
from printkit.pipeline.build import build
from printkit.cli import main
from printkit.sheets.text.fonts import FONT_DIR
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.templating.layout import (
    LayoutError,
    TextRegion,
    fit_text,
    load_layout,
    prepare_face,
)
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.qr import QUIET_ZONE_MODULES, qr_matrix
from printkit.sheets.render import PageDrawer, new_canvas
from printkit.sheets.units import mm_from_pt, pt_from_mm

CARPE_CRAS = bundled_data_dir() / "carpe_cras"
OPTIONS = BuildOptions(paper=paper_by_name("letter"), base_url="http://192.168.1.20:5000")
TRIM = Rect(10, 10, 63.5, 88.9)


def template(tmp_path: Path, regions: str, name: str = "card.yaml") -> Path:
    path = tmp_path / name
    path.write_text("regions:\n" + regions, encoding="utf-8")
    return path


def face_pdf(layout_path: Path, context: dict, root: Path | None, qr: str | None = None) -> tuple[bytes, list]:
    """The face drawn with its trim at (10, 10) mm on a 100 x 110 mm page; (PDF, warnings)."""
    face = prepare_face(load_layout(layout_path, 63.5, 88.9, 3.0), context, root, qr)
    buf = io.BytesIO()
    canvas = new_canvas(buf, 100, 110, "t")
    PageDrawer(canvas, 110).face(face, TRIM, Rect(0, 0, 100, 110))
    canvas.showPage()
    canvas.save()
    return buf.getvalue(), face.warnings


def image_file(path: Path, w_px: int, h_px: int, fmt: str = "PNG") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    PILImage.new("RGB", (w_px, h_px), (200, 60, 40)).save(path, fmt)
    return path


def card_line(path: Path, card_id: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(f"- id: {card_id}") + 1


def art_line(path: Path, card_id: str) -> int:
    """The line of the card's ``art:``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = card_line(path, card_id)
    return next(i for i, text in enumerate(lines[start:], start + 1) if text.lstrip().startswith("art:"))


# ---- inline icons -----------------------------------------------------------------------------

def test_an_icon_prints_inline_on_the_text_line_as_vectors(tmp_path):
    path = template(tmp_path, "  - {name: t, kind: text, x_mm: 4, y_mm: 4, w_mm: 55, h_mm: 10, size_pt: 10, "
                              "color: '#7a1f1f', text: 'Pay :might: now'}\n")
    pdf, _ = face_pdf(path, {}, CARPE_CRAS)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        chars, shapes, images = page.chars, page.curves + page.rects, page.images
    assert "".join(c["text"] for c in chars) == "Pay  now"
    assert not images
    y_char = next(c for c in chars if c["text"] == "y")
    n_char = next(c for c in chars if c["text"] == "n")
    icon = [s for s in shapes if y_char["x1"] <= s["x0"] and s["x1"] <= n_char["x0"]]
    assert icon, "no shape drawn between 'Pay' and 'now'"
    x0, x1 = min(s["x0"] for s in icon), max(s["x1"] for s in icon)
    top, bottom = min(s["top"] for s in icon), max(s["bottom"] for s in icon)
    # On the text's line and at its size: about 10 pt tall, reaching a little below the baseline.
    baseline = y_char["top"] + y_char["height"] * 0.76  # DejaVu's ascent share of the em box
    assert 6 < bottom - top <= 10.5 and 5 < x1 - x0 <= 10.5
    assert abs(bottom - baseline) < 3
    assert all(s["non_stroking_color"] == pytest.approx((0x7a / 255, 0x1f / 255, 0x1f / 255), abs=0.01)
               for s in icon if s.get("fill"))
    # The text after the icon starts after it: the wrap made room for it.
    assert n_char["x0"] > x1


def test_shrink_to_fit_measures_icons_like_words():
    region = TextRegion(name="t", kind="text", x_mm=0, y_mm=0, w_mm=30, h_mm=5, text="", size_pt=10, min_size_pt=4)
    plain = fit_text(region, "Gain 2 Gain 2 Gain 2", CARPE_CRAS / "icons")
    with_icons = fit_text(region, "Gain 2 :might: :zeal: Gain 2 :cunning: :authority: Gain 2", CARPE_CRAS / "icons")
    assert with_icons.size_pt < plain.size_pt


def _after_icon_x(tmp_path: Path, game: Path) -> float:
    """Where 'now' starts in 'Pay :sun: now' drawn with ``game``'s icons (pt from the left)."""
    path = template(tmp_path, "  - {name: t, kind: text, x_mm: 4, y_mm: 4, w_mm: 55, h_mm: 10, size_pt: 10, "
                              "text: 'Pay :sun: now'}\n")
    pdf, _ = face_pdf(path, {}, game)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return next(c for c in doc.pages[0].chars if c["text"] == "n")["x0"]


def _svg_icon(path: Path, w: int, h: int) -> None:
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
                    f'<rect width="{w}" height="{h}" fill="currentColor"/></svg>', encoding="utf-8")


def test_an_icon_changed_between_two_builds_of_one_process_is_read_again(tmp_path):
    # A designer's `printkit watch` draws again in the same process after each edit: icons
    # are read once per file, but an edited, added, removed or re-linked file is seen.
    game = tmp_path / "game"
    (game / "icons").mkdir(parents=True)
    sun = game / "icons" / "sun.svg"
    _svg_icon(sun, 10, 10)
    square = _after_icon_x(tmp_path, game)
    assert _after_icon_x(tmp_path, game) == square  # read once, drawn alike
    _svg_icon(sun, 30, 10)  # the same file, three times as wide
    wide = _after_icon_x(tmp_path, game)
    assert wide - square == pytest.approx(20, abs=1)  # 10 pt text: 2 em more
    sun.unlink()
    image_file(game / "icons" / "sun.png", 20, 20)  # a PNG in its place: square again
    assert _after_icon_x(tmp_path, game) == pytest.approx(square, abs=0.01)
    outside = tmp_path / "outside.svg"
    _svg_icon(outside, 30, 10)
    (game / "icons" / "sun.png").unlink()
    sun.symlink_to(outside)  # a link leading out of the game's folder does not count
    with pytest.raises(LayoutError, match="unknown icon :sun:"):
        _after_icon_x(tmp_path, game)


def test_an_unknown_icon_is_a_problem_naming_the_card(tmp_path):
    folder = copy_game(tmp_path, "carpe_cras")
    cards = folder / "cards" / "examples-might-cunning.yaml"
    edit(cards, "allied units gain +2 :evade: Evade.", "allied units gain +2 :dodge: Evade.")
    result = build(tmp_path, None, OPTIONS, ["carpe_cras"])
    messages = [str(p) for p in result.problems]
    assert len(messages) == 1, messages
    assert messages[0].startswith(f"{cards}:")
    assert "carpe_cras/" in messages[0] and "unknown icon :dodge:" in messages[0]
    assert ":evade:" in messages[0]  # the icons the game has are listed


def test_bundled_cards_use_the_shipped_icons():
    result = build(None, None, OPTIONS, ["carpe_cras", "cartisora"])
    assert not result.problems
    texts = (CARPE_CRAS / "cards" / "examples-might-cunning.yaml").read_text()
    assert ":evade:" in texts
    assert (CARPE_CRAS / "icons" / "evade.svg").is_file()
    assert (CARPE_CRAS / "icons" / "LICENSE.md").is_file()


# ---- artwork ------------------------------------------------------------------------------------

ART_BOX = "  - {name: art, kind: image, x_mm: 5, y_mm: 10, w_mm: 50, h_mm: 30, src: '{{ art }}'%s}\n"


def placed_image(pdf: bytes) -> dict:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        (image,) = doc.pages[0].images
    return {k: mm_from_pt(image[k]) for k in ("x0", "x1", "top", "bottom")}


def test_cover_fills_a_landscape_box_with_a_portrait_picture_and_contain_fits_it(tmp_path):
    image_file(tmp_path / "art" / "tall.jpg", 1200, 1800, "JPEG")
    box_x, box_y = TRIM.x_mm + 5, TRIM.y_mm + 10
    contain, _ = face_pdf(template(tmp_path, ART_BOX % ""), {"art": "art/tall.jpg"}, tmp_path)
    got = placed_image(contain)
    assert got["bottom"] - got["top"] == pytest.approx(30, abs=0.05)
    assert got["x1"] - got["x0"] == pytest.approx(20, abs=0.05)  # 2:3 of 30 mm
    assert got["x0"] - box_x == pytest.approx(15, abs=0.05)  # centred
    cover, _ = face_pdf(template(tmp_path, ART_BOX % ", fit: cover, focus: [0.5, 0.3]", "cover.yaml"),
                        {"art": "art/tall.jpg"}, tmp_path)
    got = placed_image(cover)
    assert got["x1"] - got["x0"] == pytest.approx(50, abs=0.05)
    assert got["bottom"] - got["top"] == pytest.approx(75, abs=0.05)
    assert got["top"] - box_y == pytest.approx((30 - 75) * 0.3, abs=0.05)  # the focus keeps the upper part
    stretch, _ = face_pdf(template(tmp_path, ART_BOX % ", fit: stretch", "stretch.yaml"), {"art": "art/tall.jpg"},
                          tmp_path)
    got = placed_image(stretch)
    assert (got["x1"] - got["x0"], got["bottom"] - got["top"]) == pytest.approx((50, 30), abs=0.05)


def test_cover_is_clipped_to_its_box(tmp_path):
    image_file(tmp_path / "art" / "tall.png", 600, 900)
    pdf, _ = face_pdf(template(tmp_path, ART_BOX % ", fit: cover"), {"art": "art/tall.png"}, tmp_path)
    content = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data().decode("latin-1")
    before_image = content[:content.index(" Do")]
    clip = before_image.rsplit(" re W", 1)[0].split("\n")[-1].split()[-4:]  # the last clip before the image
    box_pt = (TRIM.x_mm + 5, 110 - (TRIM.y_mm + 10 + 30), 50, 30)
    assert [float(v) for v in clip] == pytest.approx([pt_from_mm(v) for v in box_pt], abs=0.01)


def test_low_resolution_art_is_an_error_and_soft_art_a_warning(tmp_path):
    path = template(tmp_path, ART_BOX % "")
    image_file(tmp_path / "art" / "tiny.png", 30, 20)
    with pytest.raises(LayoutError) as err:
        face_pdf(path, {"art": "art/tiny.png"}, tmp_path)
    assert err.value.field == "art" and "17 dpi" in err.value.message  # 30 px over 45 mm
    # 200 dpi over the 30 mm the picture fills (contain): 236 px high.
    image_file(tmp_path / "art" / "soft.png", 394, 236)
    _, warnings = face_pdf(path, {"art": "art/soft.png"}, tmp_path)
    assert [w.field for w in warnings] == ["art"] and "200 dpi" in warnings[0].message
    image_file(tmp_path / "art" / "sharp.png", 600, 360)
    assert face_pdf(path, {"art": "art/sharp.png"}, tmp_path)[1] == []


def test_svg_art_is_drawn_as_vectors(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
        '<rect x="0" y="0" width="40" height="20" fill="#2050a0"/><circle cx="20" cy="10" r="8" fill="#f0c000"/>'
        '</svg>')
    pdf, warnings = face_pdf(template(tmp_path, ART_BOX % ""), {"art": "art/logo.svg"}, tmp_path)
    assert warnings == []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        assert not page.images
        fills = [s for s in page.rects + page.curves if s.get("fill")]
    blue = [s for s in fills if s["non_stroking_color"] == pytest.approx((0x20 / 255, 0x50 / 255, 0xa0 / 255), abs=0.01)]
    assert len(blue) == 1
    # contain: 2:1 art in a 50 x 30 box is 50 x 25 mm, centred vertically.
    assert mm_from_pt(blue[0]["x1"] - blue[0]["x0"]) == pytest.approx(50, abs=0.1)
    assert mm_from_pt(blue[0]["bottom"] - blue[0]["top"]) == pytest.approx(25, abs=0.1)
    xobjects = pypdf.PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"]["/XObject"]
    assert {xobjects[name].get_object()["/Subtype"] for name in xobjects} == {"/Form"}


def test_a_corrupt_png_is_a_validate_problem_naming_the_card(tmp_path):
    folder = copy_game(tmp_path, "carpe_cras")
    png = io.BytesIO()
    PILImage.new("RGB", (800, 600), (10, 20, 30)).save(png, "PNG")
    (folder / "art").mkdir()
    (folder / "art" / "tyro.png").write_bytes(png.getvalue()[:200])  # header intact, data cut off
    cards = folder / "cards" / "rulebook.yaml"
    edit(cards, "  title: Barbarian Tyro\n", "  title: Barbarian Tyro\n  art: art/tyro.png\n")
    result = build(tmp_path, None, OPTIONS, ["carpe_cras"])
    assert [str(p).split(": art: ")[0] for p in result.problems] == [
        f"{cards}:{art_line(cards, 'barbarian-tyro')}: carpe_cras/barbarian-tyro"]
    assert "tyro.png is not a readable image" in str(result.problems[0])


@pytest.mark.parametrize("src", ["../outside.png", "ABSOLUTE"])
def test_art_outside_the_game_folder_is_a_problem_and_not_embedded(tmp_path, src):
    folder = copy_game(tmp_path / "data", "carpe_cras")
    outside = image_file(tmp_path / "data" / "outside.png", 900, 600)
    src = str(outside) if src == "ABSOLUTE" else src
    cards = folder / "cards" / "rulebook.yaml"
    edit(cards, "  title: Barbarian Tyro\n", f"  title: Barbarian Tyro\n  art: '{src}'\n")
    out = tmp_path / "out"
    result = build(tmp_path / "data", out, OPTIONS, ["carpe_cras"], cards_only=True)
    problems = {str(p) for p in result.problems}  # (the card is laid out once per deck it is in)
    assert len(problems) == 1, problems
    problem = problems.pop()
    assert problem.startswith(f"{cards}:{art_line(cards, 'barbarian-tyro')}: carpe_cras/barbarian-tyro: art: ")
    assert "absolute" in problem if src.startswith("/") else "outside the game's folder" in problem
    assert not result.written and not list(out.rglob("*.pdf"))


def blank_png(path: Path, w_px: int, h_px: int) -> Path:
    """A black RGB PNG of ``w_px`` x ``h_px`` written row by row: 9000 x 9000 px (243 MB decoded)
    is a file of ~250 KB, made without holding its pixels."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    packer, row = zlib.compressobj(9), b"\0" * (1 + 3 * w_px)  # filter byte, then the row's pixels
    idat = b"".join(packer.compress(row) for _ in range(h_px)) + packer.flush()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w_px, h_px, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """`printkit init mygame`: the starter game's one example card, its `card` template with a
    57.5 x 34 mm art box."""
    folder = tmp_path / "mygame"
    result = CliRunner().invoke(main, ["init", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def _validate_with_peak_memory(project: Path) -> tuple[int, str, int]:
    """``printkit validate`` in a process of its own: (exit code, stderr, its peak RSS in bytes)."""
    script = ("import resource, sys\nfrom printkit.cli import main\ntry:\n    main(['validate'])\n"
              "except SystemExit as exc:\n    code = exc.code\n"
              "print(code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)")
    run = subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True, text=True, timeout=300)
    code, peak = run.stdout.split()[-2:]
    return int(code), run.stderr, int(peak)


@pytest.mark.parametrize("w_px,h_px,says", [
    # 24 MP for a 51 x 34 mm box: 1200 dpi is 2409 x 1606 px, under the 4 MP always taken.
    (6000, 4000, "art/big.png is 6000 x 4000 px (24.0 megapixels), far more than 51.0 x 34.0 mm can print: "
                 "printkit takes at most 4.0 megapixels there (1200 dpi, never under 4 megapixels); scale it down, "
                 "or raise the limit: art_dpi under [printkit.limits] in {toml} (up to 4,800 dpi)"),
    # 81 MP: under Pillow's own limit (89 MP), over the 64 MP printkit reads anywhere.
    (9000, 9000, "big.png is 9000 x 9000 px (81.0 megapixels), more than the 64 megapixels printkit reads: "
                 "scale it down, or raise the limit: art_megapixels under [printkit.limits] in {toml} "
                 "(up to 89 megapixels)"),
])
def test_art_with_far_more_pixels_than_it_can_print_is_refused_unread(project: Path, w_px, h_px, says):
    says = says.format(toml=(project / "printkit.toml").resolve())  # the project's, where to raise it
    _, _, peak_without_art = _validate_with_peak_memory(project)
    blank_png(project / "card_data/my_game/art/big.png", w_px, h_px)
    cards = project / "card_data/my_game/cards/cards.yaml"
    edit(cards, "  title: First Card\n", "  title: First Card\n  art: art/big.png\n")
    template = project / "card_data/my_game/templates/card.yaml"
    region_line = template.read_text().splitlines().index("  - name: art") + 1

    code, stderr, peak = _validate_with_peak_memory(project)
    assert code == 1, stderr
    assert (f"card_data/my_game/cards/cards.yaml:{art_line(cards, 'first-card')}: my_game/first-card: art: "
            f"{says} (template card_data/my_game/templates/card.yaml:{region_line})") in stderr.splitlines(), stderr
    assert "Traceback" not in stderr
    decoded = w_px * h_px * 3
    more = peak - peak_without_art
    assert more < decoded // 4, f"{more >> 20} MiB more than without the art: its pixels were decoded"


def test_art_within_the_limit_for_its_box_is_taken(project: Path):
    blank_png(project / "card_data/my_game/art/fine.png", 2700, 1600)  # 1200 dpi in the 57.5 x 34 mm box
    cards = project / "card_data/my_game/cards/cards.yaml"
    edit(cards, "  title: First Card\n", "  title: First Card\n  art: art/fine.png\n")
    code, stderr, _ = _validate_with_peak_memory(project)
    assert code == 0, stderr


# ---- fonts --------------------------------------------------------------------------------------

def _fonts(pdf_path: Path) -> list[dict]:
    reader = pypdf.PdfReader(pdf_path)
    fonts = {}
    for page in reader.pages[:2]:
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            fonts[font["/BaseFont"]] = font
    return list(fonts.values())


def test_a_font_named_in_game_yaml_is_embedded_and_subset(tmp_path):
    folder = copy_game(tmp_path / "data", "cartisora")
    (folder / "fonts").mkdir()
    # The bundled oblique face under another name stands in for a designer's own font.
    shutil.copy(FONT_DIR / "DejaVuSans-Oblique.ttf", folder / "fonts" / "Headline.ttf")
    info = folder / "game.yaml"
    info.write_text(info.read_text() + "fonts:\n  regular: fonts/Headline.ttf\n", encoding="utf-8")
    out = tmp_path / "out"
    result = build(tmp_path / "data", out, OPTIONS, ["cartisora"], cards_only=True)
    assert not result.problems, result.problems
    # Every font named is embedded: no Helvetica from reportlab's initial font either.
    fonts = _fonts(out / "cartisora" / "knight-cards.pdf")
    names = {str(f["/BaseFont"]).split("+", 1)[1] for f in fonts}
    assert names == {"DejaVuSans-Oblique", "DejaVuSans-Bold"}  # regular text in the game's font: no DejaVuSans
    for font in fonts:
        prefix = str(font["/BaseFont"]).split("+")[0]
        assert len(prefix) == 7 and prefix[1:].isupper()  # "/ABCDEF": a subset
        descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"] if "/DescendantFonts" in font \
            else font["/FontDescriptor"]
        assert "/FontFile2" in descriptor.get_object()


def test_a_missing_or_corrupt_font_is_a_problem_naming_file_and_field(tmp_path):
    folder = copy_game(tmp_path, "cartisora")
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Broken.ttf").write_bytes(b"not a font at all" * 10)
    info = folder / "game.yaml"
    text = info.read_text() + "fonts:\n  regular: fonts/Broken.ttf\n  bold: fonts/Missing.ttf\n"
    info.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    problems = [str(p) for p in build(tmp_path, None, OPTIONS, ["cartisora"]).problems]
    assert len(problems) == 2, problems
    regular = next(p for p in problems if "fonts.regular" in p)
    bold = next(p for p in problems if "fonts.bold" in p)
    assert regular.startswith(f"{info}:{lines.index('  regular: fonts/Broken.ttf') + 1}: cartisora/-: fonts.regular: "
                              "Broken.ttf is not a usable TrueType/OpenType font")
    assert bold == f"{info}:{lines.index('  bold: fonts/Missing.ttf') + 1}: cartisora/-: fonts.bold: " \
                   "font file not found: Missing.ttf"


def test_a_template_may_name_its_fonts_inside_its_folder(tmp_path):
    shutil.copy(FONT_DIR / "DejaVuSans-Bold.ttf", tmp_path / "Display.ttf")
    path = tmp_path / "card.yaml"
    path.write_text("fonts: {italic: Display.ttf}\nregions:\n  - {name: t, kind: text, x_mm: 4, y_mm: 4, "
                    "w_mm: 50, h_mm: 10, font: italic, text: 'Hello'}\n", encoding="utf-8")
    pdf, _ = face_pdf(path, {}, None)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert {c["fontname"].split("+")[-1] for c in doc.pages[0].chars} == {"DejaVuSans-Bold"}
    path.write_text("fonts: {bold: ../x.ttf}\nregions: []\n", encoding="utf-8")
    with pytest.raises(LayoutError) as err:
        load_layout(path, 63.5, 88.9, 3.0)
    assert str(err.value).startswith(f"{path}:1: fonts.bold: font path ../x.ttf leads outside")



def test_a_region_in_italic_prints_in_the_bundled_oblique_face_with_or_without_a_designer_regular(tmp_path):
    # The bundled italic face is parsed only once a region names it: it must still print.
    path = tmp_path / "card.yaml"
    regions = ("regions:\n  - {name: t, kind: text, x_mm: 4, y_mm: 4, w_mm: 50, h_mm: 10, font: italic, "
               "text: 'Slanted'}\n  - {name: u, kind: text, x_mm: 4, y_mm: 20, w_mm: 50, h_mm: 10, text: 'Upright'}\n")
    path.write_text(regions, encoding="utf-8")
    pdf, _ = face_pdf(path, {}, None)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        faces = {c["text"]: c["fontname"].split("+")[-1] for c in doc.pages[0].chars}
    assert faces["S"] == "DejaVuSans-Oblique" and faces["U"] == "DejaVuSans"
    shutil.copy(FONT_DIR / "DejaVuSans-Bold.ttf", tmp_path / "Display.ttf")
    path.write_text("fonts: {regular: Display.ttf}\n" + regions, encoding="utf-8")
    pdf, _ = face_pdf(path, {}, None)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        faces = {c["text"]: c["fontname"].split("+")[-1] for c in doc.pages[0].chars}
    assert faces["U"] == "DejaVuSans-Bold"  # the designer's regular file
    assert faces["S"] == "DejaVuSans-Oblique"  # the bundled italic standing in for the set's


# ---- QR codes -----------------------------------------------------------------------------------

def test_a_long_base_url_warns_once_per_build_and_a_short_one_not():
    long_url = BuildOptions(paper=paper_by_name("letter"),
                            base_url="https://print-and-play.example.org/our-game-group/rulings")
    warned = [w for w in build(None, None, long_url, ["cartisora"]).warnings if w.field == "layout:qr"]
    assert len(warned) == 1
    assert "QR version" in warned[0].message and "--base-url" in warned[0].message
    assert not [w for w in build(None, None, OPTIONS, ["cartisora"]).warnings if w.field == "layout:qr"]


def test_the_qr_code_keeps_a_quiet_zone_of_four_modules(tmp_path):
    payload = "http://192.168.1.20:5000/r/carpe_cras/might"
    path = template(tmp_path, "  - {name: qr, kind: qr, x_mm: 40, y_mm: 65, size_mm: 15}\n")
    pdf, _ = face_pdf(path, {}, None, payload)
    n = len(qr_matrix(payload)) + 2 * QUIET_ZONE_MODULES
    module_pt = pt_from_mm(15) / n
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        dark = [r for r in doc.pages[0].rects if r["non_stroking_color"] in ((0,), (0, 0, 0), 0, [0])]
    left = pt_from_mm(TRIM.x_mm + 40)
    assert QUIET_ZONE_MODULES == 4
    assert min(r["x0"] for r in dark) - left == pytest.approx(4 * module_pt, abs=0.01)
