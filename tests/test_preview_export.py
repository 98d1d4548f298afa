"""`printkit preview` (the page, card PNGs rendered from the preview PDF, refreshed on save) and
`printkit export` (per-card PNG/PDF, The Game Crafter and MakePlayingCards presets)."""

from __future__ import annotations

import http.client
import io
import json
import os
import re
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner
from PIL import Image
from waiting import wait_for

from printkit.cli import main
from printkit.designer.loop import preview
from printkit.designer.loop.preview import PreviewState, make_server, rebuild
from printkit.designer.loop.project import project_paths
from printkit.designer.loop.project_commands import watched_roots
from printkit.designer.exports.shops import MPC_POKER, TGC_POKER
from card_data.project.watching import watch

OLD_BAND = "#7a1f1f"
NEW_BAND = "#12ab34"
CARDS = ("brute-3", "brute-reference")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def _near(pixel, colour, tolerance: int = 3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "mygame"
    result = CliRunner().invoke(main, ["init", str(folder), "--from", "cartisora"])
    assert result.exit_code == 0, result.output
    monkeypatch.chdir(folder)
    monkeypatch.setenv("PRINTKIT_BASE_URL", "http://192.168.1.20:5000")
    return folder


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers["Content-Type"], response.read()


def test_preview_serves_cards_and_refreshes_on_save(project: Path) -> None:
    paths = project_paths()
    state = PreviewState()
    assert rebuild(state, paths, "http://192.168.1.20:5000", ["cartisora"]) == []
    server = make_server(state, port=0)
    host, port = server.server_address[:2]
    assert host == "127.0.0.1"
    base = f"http://{host}:{port}"
    stop = threading.Event()
    threads = [threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True),
               threading.Thread(target=watch, daemon=True, args=(
                   watched_roots(paths), lambda changed: rebuild(state, paths, "http://192.168.1.20:5000",
                                                                 ["cartisora"]), stop))]
    for t in threads:
        t.start()
    try:
        status, ctype, body = _get(base + "/")
        page = body.decode()
        assert status == 200 and ctype.startswith("text/html")
        assert 'src="/card/cartisora/brute-3.png' in page and "No problems" in page
        assert 'src="/back/cartisora/character.png' in page

        status, ctype, png = _get(base + "/card/cartisora/brute-3.png")
        image = Image.open(io.BytesIO(png))
        assert ctype == "image/png" and image.format == "PNG"
        # Trim + 3 mm bleed at 150 dpi; the band runs off the top edge.
        assert image.size == (round(69.5 / 25.4 * 150), round(94.9 / 25.4 * 150))
        assert _near(image.convert("RGB").getpixel((image.width // 2, 2)), _rgb(OLD_BAND))
        version = json.loads(_get(base + "/version")[2])["version"]

        _edit(project / "card_data/cartisora/templates/number.yaml", f'fill: "{OLD_BAND}"', f'fill: "{NEW_BAND}"')
        wait_for(lambda: json.loads(_get(base + "/version")[2])["version"] > version, "a rebuild")
        status, _, png2 = _get(base + "/card/cartisora/brute-3.png")
        image2 = Image.open(io.BytesIO(png2)).convert("RGB")
        assert png2 != png
        assert _near(image2.getpixel((image2.width // 2, 2)), _rgb(NEW_BAND))

        # A broken save: the problem is listed on the page (naming the project's file), the
        # last good card is still served.
        version = json.loads(_get(base + "/version")[2])["version"]
        _edit(project / "card_data/cartisora/templates/number.yaml", f'fill: "{NEW_BAND}"', 'fill: "green"')
        wait_for(lambda: json.loads(_get(base + "/version")[2])["version"] > version, "a broken rebuild")
        page = _get(base + "/")[2].decode()
        assert "1 problem" in page
        assert re.search(r"card_data/cartisora/templates/number\.yaml:\d+: ", page), page
        assert _get(base + "/card/cartisora/brute-3.png")[2] == png2

        with pytest.raises(urllib.error.HTTPError) as missing:
            _get(base + "/card/cartisora/no-such-card.png")
        assert missing.value.code == 404
    finally:
        stop.set()
        server.shutdown()
        server.server_close()


def test_a_card_file_that_stops_parsing_keeps_the_last_good_cards_on_the_preview(project: Path) -> None:
    paths = project_paths()
    state = PreviewState()
    assert rebuild(state, paths, "http://192.168.1.20:5000", ["cartisora"]) == []
    before = state.games["cartisora"]
    knight = project / "card_data/cartisora/cards/knight.yaml"
    knight.write_text(knight.read_text(encoding="utf-8") + "\n  - broken: [unclosed\n", encoding="utf-8")
    problems = rebuild(state, paths, "http://192.168.1.20:5000", ["cartisora"])
    assert problems and all(p.file.endswith("cards/knight.yaml") for p in problems), problems
    # The knight's cards were not in the database this time; the page keeps the last good
    # build (all of them), as it says, instead of one without the knights.
    assert state.games["cartisora"] is before
    assert any(card_id.startswith("knight-") for card_id in state.games["cartisora"].fronts)


def _get_as(port: int, path: str, host: str) -> tuple[int, bytes]:
    """GET ``path`` from 127.0.0.1:``port`` with the ``Host`` header a browser would send for ``host``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": host})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_preview_answers_only_requests_addressed_to_this_machine(project: Path, monkeypatch) -> None:
    state = PreviewState()
    assert rebuild(state, project_paths(), "http://192.168.1.20:5000", ["cartisora"]) == []
    served: list[str] = []  # what the server read of the cards
    png, page_html = state.png, preview.page_html
    monkeypatch.setattr(state, "png", lambda *args: served.append("png") or png(*args))
    monkeypatch.setattr(preview, "page_html", lambda st: served.append("page") or page_html(st))
    server = make_server(state, port=0, allowed_hosts=["cards.example"])
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        # DNS rebinding: a page of evil.example whose name now points at 127.0.0.1.
        for host in ("evil.example", f"evil.example:{port}", f"localhost.evil.example:{port}",
                     f"localhost:{port + 1}"):
            for path in ("/", "/card/cartisora/brute-3.png", "/pdf/cartisora.pdf"):
                status, body = _get_as(port, path, host)
                assert status == 403, (host, path)
                assert b"does not answer to host" in body and len(body) < 300
        assert served == []

        for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", f"LocalHost:{port}",
                     f"cards.example:{port}"):
            status, body = _get_as(port, "/card/cartisora/brute-3.png", host)
            assert status == 200 and Image.open(io.BytesIO(body)).format == "PNG", host
        status, body = _get_as(port, "/", f"cards.example:{port}")
        assert status == 200 and b'src="/card/cartisora/brute-3.png' in body
        assert served == ["png"] * 5 + ["page"]
    finally:
        server.shutdown()
        server.server_close()


def test_printkit_preview_allows_the_hosts_it_is_told(project: Path, tmp_path: Path) -> None:
    refused = CliRunner().invoke(main, ["preview", "--allow-host", "cards.example:8765", "--port", "0"])
    assert refused.exit_code == 2 and "--allow-host" in refused.output and "without a port" in refused.output

    log = tmp_path / "preview.log"
    printkit = Path(sys.executable).with_name("printkit")
    with open(log, "wb") as err:
        proc = subprocess.Popen([str(printkit), "preview", "cartisora", "--port", "0", "--no-watch",
                                 "--allow-host", "cards.example"], cwd=project, stdout=subprocess.DEVNULL,
                                stderr=err, env={**os.environ, "PRINTKIT_BASE_URL": "http://192.168.1.20:5000"})
    try:
        found = wait_for(lambda: re.search(r"Preview at http://127\.0\.0\.1:(\d+)/", log.read_text()), "the server")
        port = int(found[1])
        assert _get_as(port, "/card/cartisora/brute-3.png", f"cards.example:{port}")[0] == 200
        assert _get_as(port, "/card/cartisora/brute-3.png", f"localhost:{port}")[0] == 200
        status, body = _get_as(port, "/card/cartisora/brute-3.png", f"evil.example:{port}")
        assert status == 403 and b"--allow-host" in body
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _export(*args: str):
    result = CliRunner().invoke(main, ["export", "cartisora", *(a for c in CARDS for a in ("--card", c)), *args])
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("preset", [TGC_POKER, MPC_POKER], ids=lambda p: p.name)
def test_shop_preset_images_have_the_shops_size_and_names(project: Path, preset) -> None:
    result = _export("--preset", preset.name)
    folder = project / "output/cartisora" / preset.name / "character"
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.png"))
    assert files == ["back.png", *sorted(f"fronts/{cid}.png" for cid in CARDS)]
    for name in files:
        image = Image.open(folder / name)
        assert image.size == (preset.image_w_px, preset.image_h_px)
        assert image.mode == "RGB"  # The Game Crafter rejects CMYK
        assert round(image.info["dpi"][0]) == 300
    # Re-rendered at the shop's bleed, not scaled: the band reaches the image's edges.
    front = Image.open(folder / "fronts/brute-3.png")
    for x in (0, front.width // 2, front.width - 1):
        assert _near(front.getpixel((x, 0)), _rgb(OLD_BAND))
    # Printkit's templates keep text 3 mm in; both shops ask a little more, and say so.
    assert re.search(r"warning: card_data/cartisora/templates/number\.yaml:\d+: .*safe area is "
                     + re.escape(f"{preset.safe_mm:.3f}"), result.output)


def test_plain_export_writes_one_png_and_pdf_per_face(project: Path) -> None:
    _export("--dpi", "100", "--format", "png", "--format", "pdf")
    folder = project / "output/cartisora/cards"
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(f"{cid}-{side}.{ext}" for cid in CARDS for side in ("front", "back") for ext in ("png", "pdf"))
    image = Image.open(folder / "brute-3-front.png")
    assert image.size == (round(69.5 / 25.4 * 100), round(94.9 / 25.4 * 100))
    reader = pypdf.PdfReader(folder / "brute-3-front.pdf")
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert float(box.width) == pytest.approx(69.5 / 25.4 * 72, abs=0.01)
    assert "Brute 3" in reader.pages[0].extract_text()


def test_a_poker_preset_warns_for_a_game_of_another_size(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "tarot"
    assert CliRunner().invoke(main, ["init", str(folder)]).exit_code == 0
    monkeypatch.chdir(folder)
    _edit(folder / "card_data/my_game/game.yaml", "name: poker", "name: tarot")
    result = CliRunner().invoke(main, ["export", "--preset", "tgc-poker"])
    assert result.exit_code == 0, result.output
    assert "not the 63.5 x 88.9 mm poker cards The Game Crafter poker deck prints" in result.output
    image = Image.open(folder / "output/my_game/tgc-poker/draw/fronts/first-card.png")
    assert image.size == (round((70 + 2 * 3.175) / 25.4 * 300), round((120 + 2 * 3.175) / 25.4 * 300))
