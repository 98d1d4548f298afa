"""Static export of the companion (``companion.site.export_site``, behind ``companion site``)."""

from __future__ import annotations

import hashlib
import re
import urllib.request
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from markupsafe import escape
from phones import static_server

from card_data.loader import load_database
from card_data.problems import DatabaseError
from companion import rulings
from companion.site import MARKER_NAME, ExportError, export_site

LINK_ATTR = re.compile(r"""\b(?:src|href|action)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)


@pytest.fixture(scope="module")
def bundled():
    return load_database()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, list[Path]]:
    """The bundled database exported once for the module's read-only checks."""
    out = tmp_path_factory.mktemp("export") / "site"
    return out, export_site(out)


def snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_every_card_has_a_page_at_its_qr_path(site, bundled):
    out, written = site
    assert set(written) == {p for p in out.rglob("*") if p.is_file()}
    for game in bundled.games.values():
        assert (out / "r" / game.game_id / "index.html").is_file()
        for card in game.cards.values():
            page = (out / "r" / game.game_id / card.id / "index.html").read_text(encoding="utf-8")
            assert f"<h1>{escape(card.title)}</h1>" in page
    for name in ("index.html", "404.html", "search/index.html", "static/pico/pico.min.css",
                 "static/pico/LICENSE.md", "static/htmx/htmx.min.js", ".nojekyll", MARKER_NAME):
        assert (out / name).is_file(), name


def test_every_link_and_asset_is_relative_and_exists(site):
    out, written = site
    pages = [p for p in written if p.suffix == ".html"]
    assert len(pages) > 4
    for page in pages:
        for url in LINK_ATTR.findall(page.read_text(encoding="utf-8")):
            parts = urlsplit(url)
            if parts.scheme == "data":  # an icon inlined in card text: self-contained
                assert url.startswith(("data:image/svg+xml;base64,", "data:image/png;base64,")), (page, url)
                continue
            assert not parts.scheme and not parts.netloc and not url.startswith("/"), (page, url)
            if parts.path:
                target = (page.parent / parts.path).resolve()
                assert target.is_file(), (page, url)
                assert out.resolve() in target.parents


def test_card_page_links_back_to_its_game_and_its_assets(site):
    out, _ = site
    page = (out / "r" / "cartisora" / "parry" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../../static/pico/pico.min.css"' in page
    assert 'href="../index.html"' in page  # the game page, r/cartisora/index.html
    assert 'href="../../../search/index.html"' in page  # the header's search link


def test_static_search_lists_every_card_for_the_browser_to_filter(site, bundled):
    out, _ = site
    page = (out / "search" / "index.html").read_text(encoding="utf-8")
    assert page.count("data-search=") == sum(len(g.cards) for g in bundled.games.values())
    assert 'href="../r/cartisora/brutal-strike/index.html"' in page
    assert 'src="../static/companion.js"' in page


def test_site_works_from_a_sub_path_of_a_static_server(site):
    out, _ = site
    with static_server(out.parent.parent) as host:
        base = f"{host}/{out.parent.name}/{out.name}"
        with urllib.request.urlopen(f"{base}/r/cartisora/parry", timeout=10) as response:
            final_url = response.geturl()  # the server adds the trailing slash
            page = response.read().decode("utf-8")
        assert "<h1>Parry</h1>" in page
        for url in LINK_ATTR.findall(page):
            if urlsplit(url).path:
                absolute = urljoin(final_url, url)
                with urllib.request.urlopen(absolute, timeout=10) as linked:
                    assert linked.status == 200, absolute


def test_a_new_export_replaces_an_earlier_one(tmp_path):
    out = tmp_path / "site"
    export_site(out)
    (out / "stale.html").write_text("from an older export")
    export_site(out)
    assert not (out / "stale.html").exists()
    assert (out / "index.html").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["site"]


def test_a_failed_export_leaves_the_earlier_one_untouched(tmp_path, monkeypatch):
    out = tmp_path / "site"
    export_site(out)
    before = snapshot(out)

    def broken_stats(card):
        raise RuntimeError("rendering failed")

    monkeypatch.setattr(rulings, "card_stats", broken_stats)
    with pytest.raises(RuntimeError, match="rendering failed"):
        export_site(out)
    assert snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no half-written directory left


def test_a_broken_database_is_reported_before_touching_the_output(data_copy, tmp_path):
    out = tmp_path / "site"
    export_site(out)
    before = snapshot(out)
    broken = data_copy.root / "cartisora" / "cards" / "zz-broken.yaml"
    broken.write_text("- id: broken-card\n  type: number\n  title: ''\n  deck: brute\n  power: 3\n")
    with pytest.raises(DatabaseError) as raised:
        export_site(out, data_copy.root)
    assert f"{broken}:3: cartisora/broken-card: title: " in str(raised.value)
    assert snapshot(out) == before


def test_export_refuses_to_replace_a_directory_it_did_not_write(tmp_path):
    out = tmp_path / "docs"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ExportError, match="not an earlier companion export"):
        export_site(out)
    assert (out / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs"]


def test_export_uses_a_given_data_directory(data_copy, tmp_path):
    data_copy.edit_card("cartisora", "brute-3", title="Brute Three (edited)")
    out = tmp_path / "site"
    export_site(out, data_copy.root)
    assert "<h1>Brute Three (edited)</h1>" in (out / "r/cartisora/brute-3/index.html").read_text()


def test_base_url_gives_canonical_links_and_a_base_for_the_not_found_page(tmp_path):
    out = tmp_path / "site"
    export_site(out, base_url="https://example.org/cards/")
    card_page = (out / "r/cartisora/parry/index.html").read_text()
    assert '<link rel="canonical" href="https://example.org/cards/r/cartisora/parry">' in card_page
    not_found = (out / "404.html").read_text()
    assert '<base href="https://example.org/cards/">' in not_found
    assert 'href="static/companion.css"' in not_found


def test_without_base_url_the_not_found_page_finds_the_site_root_itself(site):
    out, _ = site
    not_found = (out / "404.html").read_text()
    assert "<base" not in not_found.replace('createElement("base")', "")
    assert 'createElement("base")' in not_found
    assert 'name="q" value=""' in not_found and "data-fill-from-path" in not_found
