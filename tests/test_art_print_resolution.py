"""Raster art at print resolution (printkit.sheets.artwork.art_prints), measured from the PDFs the build
writes: the pixels embedded for each box at the chosen dpi, never upsampled, JPEG kept as DCT,
alpha as a soft mask, PDF/X art in CMYK, and the cache that a rebuild reuses and that stays
bounded."""

from __future__ import annotations

import io
import multiprocessing
import os
import shutil
from pathlib import Path

import pdfplumber
import pikepdf
import pytest
from database_edits import copy_game, edit
from PIL import Image as PILImage
from PIL import ImageFilter

import printkit.pipeline.workers as build_workers
from printkit.build_options import BuildOptions
from printkit.pipeline.build import build
from printkit.sheets.artwork import art_prints
from printkit.sheets.artwork.art_prints import ART_CACHE_DIR
from printkit.sheets.prepress.paper import paper_by_name
from printkit.sheets.units import mm_from_pt

OPTIONS = BuildOptions(paper=paper_by_name("letter"), base_url="http://192.168.1.20:5000")
ART_BOX_MM = (57.5, 27.0)  # carpe_cras unit.yaml's art region


def photo(path: Path, w_px: int, h_px: int, mode: str = "RGB", blur: float = 1, **save) -> Path:
    """A noisy picture (so that nothing compresses it away), saved by its suffix; ``blur=0``:
    pure noise, as detailed as a picture gets."""
    path.parent.mkdir(parents=True, exist_ok=True)
    bands = [PILImage.effect_noise((w_px, h_px), 40) for _ in mode]
    bands = [band.filter(ImageFilter.GaussianBlur(blur)) for band in bands] if blur else bands
    if mode == "RGBA":
        bands[3] = PILImage.linear_gradient("L").resize((w_px, h_px))
    PILImage.merge(mode, bands).save(path, **save)
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """carpe_cras with art on three units (unit boxes fit ``cover``): a 1200 x 1680 JPEG, a
    1200 x 1680 PNG with alpha, and a 400 x 188 PNG (below 300 dpi in its box)."""
    folder = copy_game(tmp_path / "data", "carpe_cras")
    edit(folder / "templates" / "unit.yaml", '    src: "{{ art or \'\' }}"\n',
         '    src: "{{ art or \'\' }}"\n    fit: cover\n')
    photo(folder / "art" / "tyro.jpg", 1200, 1680, quality=90)
    photo(folder / "art" / "scout.png", 1200, 1680, "RGBA")
    photo(folder / "art" / "squirrel.png", 400, 188)
    cards = folder / "cards" / "rulebook.yaml"
    for card, art in (("Barbarian Tyro", "tyro.jpg"), ("Royal Scout", "scout.png"),
                      ("Well Read Squirrel", "squirrel.png")):
        edit(cards, f"  title: {card}\n", f"  title: {card}\n  art: art/{art}\n")
    return tmp_path / "data"


def make(data: Path, out: Path, options: BuildOptions = OPTIONS, jobs: int = 1):
    result = build(data, out, options, ["carpe_cras"], cards_only=True, jobs=jobs)
    assert not result.problems, result.problems
    return result


def placed_images(out: Path) -> list[dict]:
    """Every image drawn in the build's card PDFs: pixel size, drawn size (mm), filter, soft
    mask and colour space (from the PDF's own objects); one entry per image however often the
    decks print it."""
    found = []
    for pdf in sorted((out / "carpe_cras").glob("*-cards.pdf")):
        data = pdf.read_bytes()
        with pdfplumber.open(io.BytesIO(data)) as doc:
            for page in doc.pages:
                for im in page.images:
                    found.append({"px": tuple(int(v) for v in im["srcsize"]), "name": im["name"],
                                  "mm": (mm_from_pt(im["x1"] - im["x0"]), mm_from_pt(im["bottom"] - im["top"])),
                                  "file": pdf.name, "page": page.page_number - 1})
        with pikepdf.open(io.BytesIO(data)) as doc:
            for entry in found:
                if entry["file"] != pdf.name:
                    continue
                obj = doc.pages[entry["page"]].Resources.XObject["/" + entry["name"]]
                filters = obj.get("/Filter")
                filters = list(filters) if isinstance(filters, pikepdf.Array) else [filters]
                entry["filter"] = " ".join(str(f) for f in filters)
                entry["smask"] = "/SMask" in obj
                entry["colour"] = str(obj.ColorSpace)
    unique = {(im["name"], im["px"], round(im["mm"][0], 2), round(im["mm"][1], 2)): im for im in found}
    return list(unique.values())


def by_pixels(images: list[dict]) -> dict[tuple[int, int], dict]:
    return {im["px"]: im for im in images}


def expected_px(dpi: float, w_mm: float = ART_BOX_MM[0], h_mm: float = ART_BOX_MM[1]) -> tuple[float, float]:
    return w_mm / 25.4 * dpi, h_mm / 25.4 * dpi


def assert_fills_box_at(image: dict, dpi: float) -> None:
    """The image covers the art box (to within one source pixel of 1200 x 1680 drawn 57.5 mm
    wide, 0.05 mm) with the box's size at ``dpi``, rounded up."""
    w_mm, h_mm = image["mm"]
    assert w_mm == pytest.approx(ART_BOX_MM[0], abs=0.1) and h_mm == pytest.approx(ART_BOX_MM[1], abs=0.1)
    want_w, want_h = expected_px(dpi, w_mm, h_mm)
    assert want_w <= image["px"][0] <= want_w + 1 and want_h <= image["px"][1] <= want_h + 1, (image, want_w, want_h)


def test_art_is_embedded_at_its_box_size_at_300_dpi_jpeg_as_dct_alpha_as_soft_mask(project, tmp_path):
    images = placed_images(make(project, tmp_path / "out") and tmp_path / "out")
    assert len(images) == 3, images
    small = by_pixels(images).pop((400, 188))  # 177 dpi in its box: as it is, never scaled up
    assert small["mm"] == pytest.approx(ART_BOX_MM, abs=0.05)
    jpeg, png = sorted((im for im in images if im is not small), key=lambda im: im["filter"])
    assert jpeg["filter"] == "/DCTDecode" and not jpeg["smask"]
    assert png["filter"] == "/FlateDecode" and png["smask"]
    for image in (jpeg, png):
        assert_fills_box_at(image, 300)  # 680 x 319 of the 1200 x 1680 cropped to what the box shows


def test_a_higher_print_dpi_embeds_more_pixels_and_never_more_than_the_file_has(project, tmp_path):
    images = placed_images(make(project, tmp_path / "out", BuildOptions(**{**OPTIONS.__dict__, "print_dpi": 450}))
                           and tmp_path / "out")
    assert (400, 188) in by_pixels(images)
    for image in images:
        if image["px"] != (400, 188):
            assert_fills_box_at(image, 450)
    # At 1200 dpi the box would need 2717 px across: the crop of the file (1200 px) is all there is.
    images = placed_images(make(project, tmp_path / "out", BuildOptions(**{**OPTIONS.__dict__, "print_dpi": 1200}))
                           and tmp_path / "out")
    assert sorted(im["px"] for im in images) == [(400, 188), (1200, 564), (1200, 564)]


def test_a_rebuild_takes_the_resampled_art_from_the_cache_and_writes_the_same_bytes(project, tmp_path, monkeypatch):
    make(project, tmp_path / "first")
    cache = tmp_path / "first" / ART_CACHE_DIR
    entries = sorted(p.name for p in cache.iterdir())
    assert sorted(name.split(".")[1] for name in entries) == ["jpg", "png"]  # the small one needs none
    # Same output folder, every file but the cache gone: drawn again, nothing resampled again.
    first = {p.name: p.read_bytes() for p in (tmp_path / "first" / "carpe_cras").iterdir()}
    for p in (tmp_path / "first").iterdir():
        if p.name != ART_CACHE_DIR:
            (p.unlink() if p.is_file() else shutil.rmtree(p))

    def no_resampling(*_):
        raise AssertionError("resampled again")

    monkeypatch.setattr(art_prints, "_resample", no_resampling)
    make(project, tmp_path / "first")
    assert {p.name: p.read_bytes() for p in (tmp_path / "first" / "carpe_cras").iterdir()} == first
    assert sorted(p.name for p in cache.iterdir()) == entries


def test_the_same_bytes_serial_and_parallel_and_wherever_the_output_is(project, tmp_path, monkeypatch):
    pools = []

    def context():
        pools.append("fork")
        return multiprocessing.get_context("fork")

    monkeypatch.setattr(build_workers, "_pool_context", context)
    monkeypatch.setattr(build_workers, "PARALLEL_MIN_CARDS", 0)  # the bundled decks are small
    make(project, tmp_path / "parallel", jobs=2)  # first: this process has resampled nothing
    assert pools == ["fork"]
    make(project, tmp_path / "serial", jobs=1)
    serial = {p.name: p.read_bytes() for p in (tmp_path / "serial" / "carpe_cras").iterdir()}
    assert serial == {p.name: p.read_bytes() for p in (tmp_path / "parallel" / "carpe_cras").iterdir()}


def test_pdfx_art_is_cmyk_at_print_resolution(project, tmp_path):
    images = placed_images(make(project, tmp_path / "out", BuildOptions(**{**OPTIONS.__dict__, "cmyk": True,
                                                                           "pdfx": True})) and tmp_path / "out")
    assert {im["colour"] for im in images} == {"/DeviceCMYK"}
    assert sum(im["smask"] for im in images) == 1
    for image in images:
        if image["px"] != (400, 188):
            assert_fills_box_at(image, 300)


def test_the_cache_is_bounded_dropping_the_least_recently_used_and_nothing_else(project, tmp_path, monkeypatch):
    cache = tmp_path / "out" / ART_CACHE_DIR
    cache.mkdir(parents=True)
    (cache / "notes.txt").write_bytes(b"x" * 10_000)  # not printkit's: never removed
    monkeypatch.setattr(art_prints, "ART_CACHE_MAX_BYTES", 1)
    make(project, tmp_path / "out")
    assert [p.name for p in cache.iterdir()] == ["notes.txt"]
    monkeypatch.setattr(art_prints, "ART_CACHE_MAX_BYTES", 10**9)
    make(project, tmp_path / "other")
    entries = sorted((tmp_path / "other" / ART_CACHE_DIR).iterdir())
    assert len(entries) == 2
    newest = entries[0]
    later = newest.stat().st_mtime + 60
    os.utime(newest, (later, later))  # as a later build using it would
    monkeypatch.setattr(art_prints, "ART_CACHE_MAX_BYTES", newest.stat().st_size)
    art_prints.prune_art_cache(tmp_path / "other" / ART_CACHE_DIR)
    assert list((tmp_path / "other" / ART_CACHE_DIR).iterdir()) == [newest]


def test_a_corrupt_picture_is_a_problem_naming_the_card_in_a_build_that_resamples(project, tmp_path):
    art = project / "carpe_cras" / "art" / "tyro.jpg"
    art.write_bytes(art.read_bytes()[:len(art.read_bytes()) // 2])  # header intact, data cut off
    result = build(project, tmp_path / "out", OPTIONS, ["carpe_cras"], cards_only=True)
    problems = {str(p) for p in result.problems}
    assert problems and all("carpe_cras/barbarian-tyro: art: tyro.jpg is not a readable image" in p for p in problems)
    assert not list((tmp_path / "out").rglob("*.pdf"))


def test_contain_keeps_the_whole_picture_at_its_placed_size_and_stretch_each_axis():
    from printkit.sheets.artwork.art import Artwork, placement
    from printkit.sheets.artwork.art_prints import print_plan

    art = Artwork(Path("a.jpg"), "raster", 1200, 1680, "0" * 16, "JPEG")
    placed = placement(57.5, 35, 1200, 1680, "contain")  # 25 x 35 mm, centred
    plan = print_plan(art, 57.5, 35, placed, 300)
    assert plan.crop_px == (0, 0, 1200, 1680) and plan.rect_mm == pytest.approx(placed)
    assert plan.size_px == (296, 414)  # 25 mm and 35 mm at 300 dpi, rounded up
    plan = print_plan(art, 57.5, 35, placement(57.5, 35, 1200, 1680, "stretch"), 300)
    assert plan.crop_px == (0, 0, 1200, 1680) and plan.size_px == (680, 414)
    assert print_plan(art, 57.5, 35, placed, 72).size_px == (71, 100)


@pytest.mark.parametrize("dpi", ["71", "1201", "high"])
def test_print_dpi_out_of_its_bounds_is_refused_before_anything_is_built(tmp_path, dpi):
    from click.testing import CliRunner

    from printkit.cli import main

    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out"), "--print-dpi", dpi])
    assert result.exit_code == 2
    assert "--print-dpi" in result.output
    if dpi != "high":
        assert "72" in result.output and "1200" in result.output  # the bounds, said
    assert not (tmp_path / "out").exists()


def test_the_most_detailed_jpeg_resamples_and_stays_dct(project, tmp_path):
    """Pure noise is the worst case for a JPEG encoder's buffer (an optimized save of it once
    failed with "Suspension not allowed here"): it still prints, as DCT at its box size."""
    # Noise as coarse as the printed pixels, so that resampling cannot smooth it away.
    coarse = PILImage.merge("RGB", [PILImage.effect_noise((340, 476), 90) for _ in "RGB"])
    coarse.resize((1200, 1680), PILImage.Resampling.NEAREST).save(project / "carpe_cras" / "art" / "tyro.jpg",
                                                                   quality=95)
    jpeg = next(im for im in placed_images((make(project, tmp_path / "out"), tmp_path / "out")[1])
                if im["filter"] == "/DCTDecode")
    assert_fills_box_at(jpeg, 300)
