"""Static export of the companion (``companion.cards.site.export_site``, behind ``companion site``)."""

from __future__ import annotations

import hashlib
import os
import re
import urllib.request
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from markupsafe import escape
from phones import static_server

from card_data.loader import load_database
from card_data.problems import DatabaseError
from card_data.project.written_files import read_record
from companion.cards import rulings
from companion.cards.site import MARKER_NAME, ExportError, export_site
from companion.web.static_files import file_digests

LINK_ATTR = re.compile(r"""\b(?:src|href|action)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)


def versioned(name: str) -> str:
    """``name`` (a path under ``static/``) as pages link it: with its content's digest."""
    return f"{name}?v={file_digests(Path(rulings.__file__).parent.parent / 'static')[name]}"


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
    assert f'href="../../../static/{versioned("pico/pico.min.css")}"' in page
    assert 'href="../index.html"' in page  # the game page, r/cartisora/index.html
    assert 'href="../../../search/index.html"' in page  # the header's search link


def test_static_search_lists_every_card_for_the_browser_to_filter(site, bundled):
    out, _ = site
    page = (out / "search" / "index.html").read_text(encoding="utf-8")
    assert page.count("data-search=") == sum(len(g.cards) for g in bundled.games.values())
    assert 'href="../r/cartisora/brutal-strike/index.html"' in page
    assert f'src="../static/{versioned("companion.js")}"' in page


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


EXTRA_CARDS = """\
- id: extra-card
  type: number
  title: Extra
  deck: brute
  power: 3
- id: edited-card
  type: number
  title: Edited
  deck: brute
  power: 4
"""
USERS_FILES = {"CNAME": b"cards.example.org\n", "notes/README.md": b"# How we host this\n",
               "img/table.jpg": b"\xff\xd8not really a photo"}


def add_users_files(out: Path) -> None:
    for rel, data in USERS_FILES.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)


def test_a_new_export_removes_only_what_the_earlier_one_wrote(data_copy, tmp_path):
    """A user's files in an earlier export survive a new one byte for byte; a page the earlier
    export wrote and the new one does not is removed, folder and all, unless the user changed
    it since; a page written again is the new page, even if the user had changed it."""
    extra = data_copy.root / "cartisora" / "cards" / "zz-extra.yaml"
    extra.write_text(EXTRA_CARDS)
    out = tmp_path / "site"
    export_site(out, data_copy.root)
    gone, edited = out / "r/cartisora/extra-card", out / "r/cartisora/edited-card/index.html"
    assert (gone / "index.html").is_file()
    add_users_files(out)
    edited.write_bytes(edited.read_bytes().replace(b"<h1>Edited</h1>", b"<h1>Edited by hand</h1>"))
    edited_bytes = edited.read_bytes()
    (out / "index.html").write_bytes(b"<p>my own front page</p>")
    extra.unlink()

    written = export_site(out, data_copy.root)
    assert {rel: (out / rel).read_bytes() for rel in USERS_FILES} == USERS_FILES
    assert not gone.exists()
    assert edited.read_bytes() == edited_bytes
    assert out / "index.html" in written and b"my own front page" not in (out / "index.html").read_bytes()
    assert sorted(set(snapshot(out)) - {str(p.relative_to(out)) for p in written}) == sorted(
        ["r/cartisora/edited-card/index.html", *USERS_FILES])
    # The marker records what this export wrote, so the user's files stay theirs next time too.
    assert written[-1] == out / MARKER_NAME
    assert read_record(out / MARKER_NAME) == {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
                                             for p in written[:-1]}
    assert [p.name for p in tmp_path.iterdir()] == ["data", "site"]


def test_an_export_from_before_records_loses_nothing_it_does_not_write_again(tmp_path):
    """An earlier export whose marker records nothing (written before records): no file in it
    is known to be the export's, so only the files the new export writes are replaced."""
    out = tmp_path / "site"
    (out / "r/cartisora/a-card-no-longer-there").mkdir(parents=True)
    (out / "r/cartisora/a-card-no-longer-there/index.html").write_bytes(b"<h1>old page</h1>")
    (out / "index.html").write_bytes(b"<h1>old index</h1>")
    (out / MARKER_NAME).write_bytes(b"Written by companion.cards.site.export_site; replaced by the next export.\n")
    add_users_files(out)
    export_site(out)
    assert {rel: (out / rel).read_bytes() for rel in USERS_FILES} == USERS_FILES
    assert (out / "r/cartisora/a-card-no-longer-there/index.html").read_bytes() == b"<h1>old page</h1>"
    assert b"old index" not in (out / "index.html").read_bytes() and (out / "r/cartisora/parry/index.html").is_file()
    assert read_record(out / MARKER_NAME) is not None


def test_a_link_to_the_site_folder_stays_a_link(tmp_path):
    """An --out that is a symbolic link (to where a web server serves from, say) is the user's:
    the folder it points to gets the new site, the link stays."""
    served = tmp_path / "www" / "cards"
    served.mkdir(parents=True)
    (served / MARKER_NAME).write_bytes(b"an earlier export\n")
    add_users_files(served)
    out = tmp_path / "site"
    out.symlink_to(served, target_is_directory=True)
    written = export_site(out)
    assert out.is_symlink() and os.readlink(out) == str(served)
    assert written[0].parent == out and (served / "r/cartisora/parry/index.html").is_file()
    assert {rel: (served / rel).read_bytes() for rel in USERS_FILES} == USERS_FILES
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "www"]
    assert [p.name for p in served.parent.iterdir()] == ["cards"]


def test_a_users_file_where_the_export_needs_a_folder_is_refused_naming_it(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / MARKER_NAME).write_bytes(b"an earlier export\n")
    (out / "r").write_bytes(b"a file of the user's, named like the export's folder of games")
    add_users_files(out)
    before = snapshot(out)
    with pytest.raises(ExportError, match=f"^{re.escape(str(out / 'r'))}: not written by the last export"):
        export_site(out)
    assert snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["site"]


def test_a_failed_export_leaves_the_earlier_one_untouched(tmp_path, monkeypatch):
    out = tmp_path / "site"
    export_site(out)
    add_users_files(out)
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
    add_users_files(out)
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
    assert f'href="static/{versioned("companion.css")}"' in not_found


def test_without_base_url_the_not_found_page_finds_the_site_root_itself(site):
    out, _ = site
    not_found = (out / "404.html").read_text()
    assert "<base" not in not_found.replace('createElement("base")', "")
    assert 'createElement("base")' in not_found
    assert 'name="q" value=""' in not_found and "data-fill-from-path" in not_found
