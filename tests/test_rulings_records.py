"""Rulings as records (issue 12, part 2): each ruling has a date and a source, may concern
several cards (shown on each of their pages), and a game's rulings page lists them newest first,
filtered by card type and keyword; search finds rulings; the static export carries the page."""

from __future__ import annotations

import datetime
import re

import pytest
import yaml

from card_data.loader import check_database, load_database
from card_data.rulings.ruling_records import all_rulings, filter_rulings
from card_data.schema import Ruling

SHARED = "The two bonus tokens are awarded separately."
"""The start of a bundled Duels of Cartisora ruling (rulings.yaml) about First Blood and Finisher."""


def text_of(response) -> str:
    """The page's text without tags, spacing collapsed (as a player reads it)."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)).split())


def ruling_texts_in_order(html: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", " ", t).split())
            for t in re.findall(r'<article class="ruling"[^>]*>\s*<p>(.*?)</p>', html, re.DOTALL)]


# ---- the schema ------------------------------------------------------------------------------

def test_old_rulings_stay_valid_as_rulebook_rulings_and_each_source_needs_its_reference():
    assert Ruling(text="t", section="2019 rulebook, Setup").source == "rulebook"
    assert Ruling.model_validate({"text": "t", "source": "our-reading"}).section is None
    designer = Ruling.model_validate({"text": "t", "source": "designer", "reference": "https://example.org/q/1",
                                      "date": "2026-11-20"})
    assert designer.date == datetime.date(2026, 11, 20)
    for bad, field in [({"text": "t"}, "source"),
                       ({"text": "t", "source": "forum"}, "source"),
                       ({"text": "t", "source": "rulebook"}, "section"),
                       ({"text": "t", "source": "designer"}, "reference"),
                       ({"text": "t", "section": "s", "date": "20 Nov 2026"}, "date")]:
        with pytest.raises(Exception) as exc:
            Ruling.model_validate(bad)
        assert [e["loc"] for e in exc.value.errors()] == [(field,)], bad


def test_every_bundled_ruling_is_dated_and_sourced():
    db = load_database()
    for game in db.games.values():
        for card in game.cards.values():
            for ruling in card.rulings:
                assert ruling.date is not None and ruling.date <= datetime.date.today(), (game.game_id, card.id)
                assert ruling.source == "rulebook" and ruling.section, (game.game_id, card.id)
    shared = db.games["cartisora"].rulings
    assert len(shared) >= 2 and all(len(r.cards) >= 2 and r.section and r.date for r in shared)


# ---- the loader: FILE:LINE problems ----------------------------------------------------------

def _problems(root) -> list[str]:
    return [str(p) for p in check_database(root)[1]]


def test_loader_reports_bad_rulings_with_file_and_line(data_copy):
    game = data_copy.root / "cartisora"
    (game / "rulings.yaml").write_text(
        "- text: About two cards.\n"          # 1
        "  date: 2026-11-23\n"                 # 2
        "  section: 2019 rulebook, Setup\n"    # 3
        "  cards:\n"                           # 4
        "  - parry\n"                          # 5
        "  - no-such-card\n"                   # 6
        "- text: A blog said so.\n"            # 7
        "  source: blog\n"                     # 8
        "  cards: [parry, stalwart]\n"         # 9
        "- text: Only one card.\n"             # 10
        "  section: 2019 rulebook, Setup\n"    # 11
        "  cards: [parry]\n"                   # 12
    )
    card_file = data_copy.card_file("cartisora", "parry")
    source = card_file.read_text()
    first = "  - date: 2026-11-22\n    text: 'Parry does not stop Brutal Strike"
    assert first in source
    source = source.replace(first, "  - date: 2026-11-22\n    source: rulebook\n    cards: [brutal-strk]\n"
                                   "    text: 'Parry does not stop Brutal Strike")
    card_file.write_text(source)
    cards_line = source.splitlines().index("    cards: [brutal-strk]") + 1
    # A rulebook ruling without its section, on another card.
    stalwart = data_copy.card_file("cartisora", "stalwart")
    items = yaml.safe_load(stalwart.read_text())
    for item in items:
        if item["id"] == "stalwart":
            item["rulings"][0].pop("section")
            item["rulings"][0]["source"] = "rulebook"
    stalwart.write_text(yaml.safe_dump(items, sort_keys=False, allow_unicode=True))

    problems = _problems(data_copy.root)
    rulings_file = game / "rulings.yaml"
    assert f"{rulings_file}:6: cartisora/ruling-1: cards.1: unknown card id 'no-such-card'" in problems
    assert any(p.startswith(f"{rulings_file}:8: cartisora/ruling-2: source: Input should be 'rulebook'")
               for p in problems), problems
    assert any(p.startswith(f"{rulings_file}:12: cartisora/ruling-3: cards: List should have at least 2")
               for p in problems), problems
    assert f"{card_file}:{cards_line}: cartisora/parry: rulings.0.cards.0: unknown card id 'brutal-strk'" in problems
    assert any(p.startswith(f"{stalwart}:") and "cartisora/stalwart: rulings.0.section:" in p
               and "a rulebook ruling needs a section" in p for p in problems), problems
    assert len([p for p in problems if "cartisora" in p]) == 5, problems


def test_a_card_may_not_take_the_rulings_pages_address(data_copy):
    data_copy.edit_card("cartisora", "tag", id="rulings")
    path = data_copy.card_file("cartisora", "rulings")
    line = path.read_text().splitlines().index("- id: rulings") + 1
    assert any(p.startswith(f"{path}:{line}: cartisora/rulings: id: 'rulings' is the address of the game's rulings page")
               for p in _problems(data_copy.root)), _problems(data_copy.root)


# ---- the pages (Flask test client) -----------------------------------------------------------

def test_a_ruling_about_two_cards_shows_on_both_cards_pages_with_date_source_and_links(client):
    for here, other in [("first-blood", "finisher"), ("finisher", "first-blood")]:
        page = client.get(f"/r/cartisora/{here}")
        html, text = page.get_data(as_text=True), text_of(page)
        assert SHARED in text
        shared = html[html.index(SHARED):]
        shared = shared[:shared.index("</article>")]
        assert '<time datetime="2026-11-23">23 November 2026</time>' in shared
        assert "Rulebook: 2019 rulebook, Bonus Points" in shared
        assert re.search(f'Also about:\\s*<a href="/r/cartisora/{other}">', shared), shared
        assert f'href="/r/cartisora/{here}"' not in shared
        assert 'href="/r/cartisora/#g-bonus-points">Bonus Points</a>' in shared


def test_a_card_ruling_naming_another_card_shows_on_that_card_too(data_copy):
    card_file = data_copy.card_file("cartisora", "parry")
    source = card_file.read_text()
    first = "  - date: 2026-11-22\n    text: 'Parry does not stop Brutal Strike"
    card_file.write_text(source.replace(first, "  - date: 2026-11-22\n    cards: [brutal-strike]\n"
                                               "    text: 'Parry does not stop Brutal Strike"))
    client = data_copy.app().test_client()
    strike = text_of(client.get("/r/cartisora/brutal-strike"))
    assert "Parry does not stop Brutal Strike" in strike
    assert "Parry does not stop Brutal Strike" not in text_of(client.get("/r/cartisora/stalwart"))


def test_our_reading_designer_answers_and_undated_rulings_are_shown_as_such(data_copy):
    (data_copy.root / "cartisora" / "rulings.yaml").write_text(
        "- text: Answered by the designer.\n  date: 2026-11-20\n  source: designer\n"
        "  reference: https://example.org/forum/post-1\n  cards: [parry, stalwart]\n"
        "- text: Nothing in the rules on this.\n  date: 2026-11-21\n  source: our-reading\n"
        "  cards: [parry, stalwart]\n"
        "- text: Nobody dated this one.\n  section: 2019 rulebook, Setup\n  cards: [parry, stalwart]\n")
    client = data_copy.app().test_client()
    page = client.get("/r/cartisora/parry")
    text = text_of(page)
    assert "Nobody dated this one. Undated · Rulebook: 2019 rulebook, Setup" in text
    listed = ruling_texts_in_order(client.get("/r/cartisora/rulings").get_data(as_text=True))
    # Every card's own ruling is dated 2026-11-22 or -23: these three are older, then undated.
    assert listed[-3:] == ["Nothing in the rules on this.", "Answered by the designer.", "Nobody dated this one."]
    assert 'Designer\'s answer: <a href="https://example.org/forum/post-1"' in page.get_data(as_text=True)
    assert "Nothing in the rules on this. 21 November 2026 · Our reading — the rules are silent" in text


def test_rulings_page_lists_every_ruling_newest_first(client):
    game = load_database().games["cartisora"]
    html = client.get("/r/cartisora/rulings").get_data(as_text=True)
    shown = ruling_texts_in_order(html)
    records = all_rulings(game)
    assert len(shown) == len(records) > 50
    dates = [r.ruling.date for r in records]
    assert dates == sorted(dates, reverse=True)
    assert shown[0].startswith(SHARED)  # written 2026-11-23, after the cards' own rulings
    assert f"All {len(records)} rulings, newest first." in text_of(client.get("/r/cartisora/rulings"))
    assert 'href="/r/cartisora/rulings"' in client.get("/r/cartisora/").get_data(as_text=True)


def test_rulings_page_filters_by_card_type_and_keyword(client):
    tokens = ruling_texts_in_order(client.get("/r/cartisora/rulings?type=token").get_data(as_text=True))
    game = load_database().games["cartisora"]
    expected = filter_rulings(all_rulings(game), "token")
    assert len(tokens) == len(expected) >= 5
    assert all(any(c.type == "token" for c in r.cards) for r in expected)
    assert any(t.startswith(SHARED) for t in tokens)
    assert not any("Brutal Strike" in t for t in tokens)

    phrase = ruling_texts_in_order(client.get("/r/cartisora/rulings?q=TIE+POOL").get_data(as_text=True))
    assert phrase and all("tie pool" in t.lower() for t in phrase)
    both = ruling_texts_in_order(client.get("/r/cartisora/rulings?type=token&q=tie+pool").get_data(as_text=True))
    assert both and set(both) < set(tokens) and set(both) <= set(phrase)
    none = client.get("/r/cartisora/rulings?q=zzzqqq")
    assert ruling_texts_in_order(none.get_data(as_text=True)) == [] and "No ruling matches" in text_of(none)
    page = client.get("/r/cartisora/rulings?type=token").get_data(as_text=True)
    assert '<option value="token" selected>' in page


def test_search_finds_rulings_as_well_as_cards(client):
    page = client.get("/search?q=awarded+separately")
    text = text_of(page)
    assert SHARED in text and "Rulings (1)" in text
    assert 'href="/r/cartisora/rulings#r-game-1"' in page.get_data(as_text=True)
    assert "No card matches, nor does any ruling" not in text
    assert SHARED not in text_of(client.get("/search?q=awarded+separately&game=cahrd"))


def test_static_export_has_the_unfiltered_rulings_page(tmp_path):
    from companion.cards.site import export_site

    out = tmp_path / "site"
    export_site(out)
    page = (out / "r" / "cartisora" / "rulings" / "index.html").read_text()
    assert SHARED in page
    assert 'name="type"' not in page and "needs the live companion" in page
    assert len(ruling_texts_in_order(page)) == len(all_rulings(load_database().games["cartisora"]))
    card = (out / "r" / "cartisora" / "finisher" / "index.html").read_text()
    assert SHARED in card and 'href="../first-blood/index.html"' in card
    assert 'href="../rulings/index.html"' in card


# ---- as a player would: Chromium at 390 x 844 -----------------------------------------------

def test_player_follows_a_shared_ruling_to_the_other_card_and_filters_the_rulings(browser, server):
    from phones import ARTIFACTS, PHONE
    from playwright.sync_api import expect

    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server}/r/cartisora/first-blood")
    ruling = page.locator("article.ruling", has_text=SHARED)
    expect(ruling).to_be_visible()
    expect(ruling.locator("time")).to_have_text("23 November 2026")
    ruling.locator(".ruling-cards").get_by_role("link", name="Finisher", exact=True).click()
    expect(page).to_have_url(f"{server}/r/cartisora/finisher")
    expect(page.locator("h1")).to_have_text("Finisher")
    again = page.locator("article.ruling", has_text=SHARED)
    expect(again).to_be_visible()
    expect(again.locator(".ruling-cards").get_by_role("link", name="First Blood", exact=True)).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390

    page.get_by_role("link", name=re.compile("^All rulings of")).click()
    expect(page).to_have_url(f"{server}/r/cartisora/rulings")
    expect(page.locator("article.ruling").first).to_contain_text(SHARED)  # newest first
    page.get_by_label("Keyword").fill("awarded separately")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"/r/cartisora/rulings\?.*q=awarded\+separately"))
    expect(page.locator("article.ruling")).to_have_count(1)
    expect(page.locator("article.ruling")).to_contain_text(SHARED)
    page.get_by_label("Keyword").fill("")
    page.get_by_label("Card type").select_option("token")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("article.ruling", has_text=SHARED)).to_have_count(1)
    expect(page.locator("article.ruling", has_text="Parry does not stop Brutal Strike")).to_have_count(0)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "rulings-filtered-390.png"), full_page=True)

    page.goto(f"{server}/search?q=awarded+separately")
    expect(page.locator("#ruling-hits article.ruling")).to_contain_text(SHARED)
