"""The companion installs on a phone's home screen: its web app manifest, its icons (each of the
size it claims, the maskable one with its picture inside the safe circle), the touch icon iOS
reads, and Chromium's own reading of the manifest (no parse errors, nothing that stops an
install)."""

from __future__ import annotations

import io
import math
import re
import runpy
from pathlib import Path

from bs4 import BeautifulSoup
from PIL import Image, ImageChops, ImageStat

ROOT = Path(__file__).resolve().parent.parent
HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def manifest(client) -> dict:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    return response.get_json(force=True)


def png(client, url: str) -> Image.Image:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response.mimetype == "image/png", url
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG", url
    return image


def test_the_manifest_names_the_app_and_opens_it_standalone_at_the_games(client):
    m = manifest(client)
    assert m["name"] == "Card companion"
    assert 0 < len(m["short_name"]) <= 12  # what fits under a home-screen icon
    assert m["display"] == "standalone"
    assert client.get(m["start_url"]).status_code == 200
    assert m["start_url"].startswith(m["scope"])
    for key in ("theme_color", "background_color"):
        assert HEX_COLOUR.match(m[key]), (key, m[key])


def test_every_icon_is_served_at_the_size_it_claims(client):
    icons = manifest(client)["icons"]
    for icon in icons:
        image = png(client, icon["src"])
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert image.size == (width, height), icon
        assert icon["type"] == "image/png"
    any_sizes = {icon["sizes"] for icon in icons if "any" in icon.get("purpose", "any").split()}
    assert {"192x192", "512x512"} <= any_sizes
    assert any("maskable" in icon.get("purpose", "").split() for icon in icons)


def test_the_maskable_icon_keeps_its_picture_inside_the_safe_circle(client):
    """A launcher may cut a maskable icon to any shape that holds the middle circle of 80 % of
    its width: outside that circle there must be only background, to every edge."""
    icon = next(i for i in manifest(client)["icons"] if "maskable" in i["purpose"].split())
    image = png(client, icon["src"]).convert("RGBA")
    size = image.width
    background = image.getpixel((0, 0))
    assert background[3] == 255, "a maskable icon is opaque to its edges"
    centre, safe = (size - 1) / 2, 0.4 * size
    stray = [(x, y) for y in range(size) for x in range(size)
             if math.hypot(x - centre, y - centre) > safe and image.getpixel((x, y)) != background]
    assert not stray, f"{len(stray)} pixels of the picture outside the safe circle, e.g. {stray[:5]}"
    inside = image.crop((round(centre - safe / 2), round(centre - safe / 2),
                         round(centre + safe / 2), round(centre + safe / 2)))
    assert len(inside.getcolors(maxcolors=size * size)) > 1, "the picture is missing from the middle"


def test_pages_link_the_manifest_the_theme_colour_and_an_opaque_touch_icon(client):
    m = manifest(client)
    for url in ("/", "/tables/new", "/join"):
        page = BeautifulSoup(client.get(url).data, "html.parser")
        assert page.find("link", rel="manifest")["href"] == "/manifest.webmanifest"
        assert page.find("meta", attrs={"name": "theme-color"})["content"] == m["theme_color"]
        touch = png(client, page.find("link", rel="apple-touch-icon")["href"]).convert("RGBA")
        assert touch.size == (180, 180)  # what iOS asks for on today's phones
        # iOS shows clear pixels black: the touch icon is opaque to its corners.
        assert touch.getextrema()[3] == (255, 255)


def test_the_committed_icons_are_what_the_drawing_script_draws(tmp_path):
    """``tools/draw_icons.py`` makes the PNGs again, to the same pictures (a small tolerance
    leaves room for a later Pillow's rounding)."""
    script = runpy.run_path(str(ROOT / "tools" / "draw_icons.py"))
    script["main"](tmp_path)
    for name in script["ICONS"]:
        drawn = Image.open(tmp_path / name).convert("RGBA")
        committed = Image.open(ROOT / "companion" / "static" / "icons" / name).convert("RGBA")
        assert drawn.size == committed.size, name
        difference = ImageStat.Stat(ImageChops.difference(drawn, committed)).mean
        assert max(difference) < 1.0, (name, difference)


def test_chromium_reads_the_manifest_with_no_error_and_nothing_stops_an_install(browser, server):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server}/")
    cdp = context.new_cdp_session(page)
    app = cdp.send("Page.getAppManifest")
    assert app["url"] == f"{server}/manifest.webmanifest"
    assert app["errors"] == []
    assert app["manifest"]["display"] == "kStandalone"
    assert app["manifest"]["startUrl"] == f"{server}/"
    # Playwright's contexts are incognito windows, where Chromium installs nothing: that one
    # reason is expected, any other (no usable icon, no name, ...) is the manifest's fault.
    errors = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert set(errors) <= {"in-incognito"}, errors
    context.close()
