"""The companion's rulings pages, search, not-found page and command line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import waitress
from markupsafe import escape

from card_data.loader import bundled_data_dir, check_database
from card_data.schema import Card, GlossaryEntry, Ruling, Strict
from companion.cli import main as companion_cli
from companion.cards.glossary import entries_used_by
from companion.cards.card_fields import Item, card_stats, field_label

BUNDLED, BUNDLED_PROBLEMS = check_database()
ALL_CARDS = [(game.game_id, card_id) for game in BUNDLED.games.values() for card_id in game.cards]
FOUR_GAMES = ("carpe_cras", "cartisora", "cahrd", "carpe_diem")

# src=, href= and action= values of a page.
LINK_ATTR = re.compile(r"""\b(?:src|href|action)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)


def page_text(response) -> str:
    return response.get_data(as_text=True)


def test_bundled_database_is_clean():
    assert [str(p) for p in BUNDLED_PROBLEMS] == []
    assert set(BUNDLED.games) == set(FOUR_GAMES)


def test_index_lists_the_four_games_with_links_and_counts(client):
    page = page_text(client.get("/"))
    for game in BUNDLED.games.values():
        assert escape(game.info.title) in page
        assert f'href="/r/{game.game_id}/"' in page
        assert f"{len(game.cards)} card" in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert re.search(r'<form[^>]*method="get"[^>]*action="/search"', page)
    assert 'name="q"' in page


@pytest.mark.parametrize(("game_id", "card_id"), ALL_CARDS, ids=[f"{g}/{c}" for g, c in ALL_CARDS])
def test_every_bundled_card_has_a_page_with_its_title(client, game_id, card_id):
    card = BUNDLED.games[game_id].cards[card_id]
    response = client.get(f"/r/{game_id}/{card_id}")
    assert response.status_code == 200
    page = page_text(response)
    assert f"<h1>{escape(card.title)}</h1>" in page
    assert escape(BUNDLED.games[game_id].info.title) in page
    for ruling in card.rulings:
        assert escape(ruling.section) in page
    assert ("Example card (not from the publisher)" in page) == card.example
    assert client.get(f"/r/{game_id}/{card_id}/").status_code == 200  # as a static host spells it


def test_card_page_shows_its_ruling_section_glossary_and_decks(client):
    page = page_text(client.get("/r/cartisora/parry"))
    assert "<h1>Parry</h1>" in page
    assert "Brutal Strike" in page  # the ruling on Parry against Brutal Strike ...
    assert "2019 rulebook, Complex Resolutions (Brutal Strike vs. Parry)" in page  # ... and its section
    glossary = page[page.index('id="glossary"'):]
    assert '#g-reaction">Reaction</a></dt>' in glossary  # Parry is a reaction: its text uses the term
    assert ">Maneuver</a>" not in glossary  # a term the text does not use
    decks = page[page.index('id="decks"'):]
    holding = [d for d in BUNDLED.games["cartisora"].decks.values() if any(e.card == "parry" for e in d.cards)]
    assert holding
    for deck in holding:
        assert f"#d-{deck.id}\">{escape(deck.title)}" in decks


def test_card_page_marks_assumed_fields_and_shows_the_note(client):
    card = BUNDLED.games["cartisora"].cards["brutal-strike"]
    assert card.assumed and card.note
    page = page_text(client.get("/r/cartisora/brutal-strike"))
    for name in card.assumed:
        assert re.search(rf'<dt>{field_label(name)}<sup class="assumed"[^>]*>\*</sup></dt>', page)
    assert "value assumed: not given in the rulebook" in page
    assert str(escape(card.note)) in page
    assert "Wins against ties." in page  # the effect text


def test_game_page_groups_cards_by_type_and_lists_decks_and_glossary(client):
    game = BUNDLED.games["cartisora"]
    page = page_text(client.get("/r/cartisora/"))
    for card in game.cards.values():
        assert f'href="/r/cartisora/{card.id}"' in page
    for deck in game.decks.values():
        assert f'id="d-{deck.id}"' in page
    for entry in game.glossary:
        assert f'id="g-{entry.id}"' in page
    assert page.index("<h3>Reference") < page.index("<h3>Number")


def test_game_page_shows_a_lost_name_but_the_card_page_never_matches_it(data_copy):
    data_copy.add_glossary_entries("cartisora", [
        {"id": "lost-icon", "term": None, "name_lost": True,
         "text": "An icon whose name dropped out of the source.", "section": "test section"},
        {"id": "forces", "term": "Forces", "aliases": ["compels"],
         "text": "Test entry matched by the card text.", "section": "test section"},
    ])
    client = data_copy.app().test_client()
    game_page = page_text(client.get("/r/cartisora/"))
    assert '<dt id="g-lost-icon"><em>(name lost in the source text)</em>' in game_page
    card_page = page_text(client.get("/r/cartisora/parry"))
    assert "Test entry matched by the card text." in card_page  # "Forces a tie." uses "Forces"
    assert "An icon whose name dropped out" not in card_page


def test_unknown_card_is_a_404_with_the_id_words_in_a_search_box(client):
    response = client.get("/r/cartisora/brutal-strik")
    assert response.status_code == 404
    page = page_text(response)
    assert re.search(r'<input type="search" name="q" value="brutal strik"', page)
    assert 'href="/r/cartisora/brutal-strike"' in page  # suggested


def test_unknown_game_is_a_404_with_a_search_box(client):
    response = client.get("/r/no_such_game/parry")
    assert response.status_code == 404
    assert 'name="q" value="parry"' in page_text(response)
    assert client.get("/r/no_such_game/").status_code == 404


def test_search_finds_cards_by_title_id_and_text(client):
    by_title = page_text(client.get("/search?q=brutal+str"))
    assert 'href="/r/cartisora/brutal-strike"' in by_title
    by_text = page_text(client.get("/search?q=wins+against+ties&game=cartisora"))
    assert 'href="/r/cartisora/brutal-strike"' in by_text
    only_other_game = page_text(client.get("/search?q=brutal+strike&game=carpe_diem"))
    assert 'href="/r/cartisora/brutal-strike"' not in only_other_game
    nothing = page_text(client.get("/search?q=zzzqqq"))
    assert "No card matches" in nothing


def test_card_title_is_escaped(data_copy):
    data_copy.edit_card("cartisora", "brute-3", title='<script>alert("x")</script> Brute')
    page = page_text(data_copy.app().test_client().get("/r/cartisora/brute-3"))
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; Brute" in page
    assert "<script>alert" not in page


def test_example_badge_comes_from_the_data(data_copy):
    data_copy.edit_card("cartisora", "brute-3", example=True, note="A note for the test.")
    page = page_text(data_copy.app().test_client().get("/r/cartisora/brute-3"))
    assert "Example card (not from the publisher)" in page
    assert "A note for the test." in page


def _pages(client) -> dict[str, str]:
    paths = ["/", "/search?q=a", "/r/nope/nope"]
    for game in BUNDLED.games.values():
        paths.append(f"/r/{game.game_id}/")
        paths.extend(f"/r/{game.game_id}/{card_id}" for card_id in game.cards)
    return {path: page_text(client.get(path)) for path in paths}


def test_no_page_links_to_another_host(client):
    for path, page in _pages(client).items():
        for url in LINK_ATTR.findall(page):
            assert not re.match(r"^(?:[a-z][a-z0-9+.-]*:)?//", url, re.IGNORECASE), (path, url)


def test_stylesheets_fetch_nothing(app):
    for css in Path(app.static_folder).rglob("*.css"):
        text = css.read_text(encoding="utf-8")
        assert "@import" not in text, css
        for url in re.findall(r"url\(\s*['\"]?([^'\")]*)", text):
            assert url.startswith(("data:", "#")), (css, url)


def test_static_files_are_vendored_with_licences(app, client):
    assert client.get("/static/pico/pico.min.css").status_code == 200
    assert client.get("/static/htmx/htmx.min.js").status_code == 200
    static = Path(app.static_folder)
    assert (static / "pico" / "LICENSE.md").is_file()
    assert (static / "htmx" / "LICENSE").is_file()
    vendored = (static / "VENDORED.md").read_text()
    assert "@picocss/pico" in vendored and "htmx.org" in vendored


# --- stats and glossary matching, on models made for the test ---------------------------------


class Skill(Strict):
    name: str
    power: int


class Trait(Strict):
    name: str
    text: str


class SkillCard(Card):
    type: str = "fighter"
    ldr: int | None = None
    trait: Trait | None = None
    men_under_command: int | None = None
    morale: int | None = None
    skills: list[Skill] = []
    ability: str | None = None

    def glossary_text(self) -> str:
        return self.ability or ""


def test_card_stats_skip_common_and_unset_fields_and_tabulate_sub_models():
    card = SkillCard(id="tyro", title="Tyro", morale=3, assumed=["morale"],
                     skills=[Skill(name="Cleave", power=2), Skill(name="Roar", power=1)],
                     ability="Wins ties.", rulings=[Ruling(text="t", section="s")])
    stats = card_stats(card)
    assert [(s.name, s.kind, s.assumed) for s in stats.stats] == [("morale", "value", True), ("skills", "table", False)]
    assert stats.stats[0].value == "3"
    table = stats.stats[1].value
    assert table.columns == ["Name", "Power"]
    assert table.rows == [["Cleave", "2"], ["Roar", "1"]]
    assert [(s.label, s.value) for s in stats.prose] == [("Ability", "Wins ties.")]


def test_card_stats_put_wide_sub_models_in_blocks_and_upper_case_abbreviations():
    long_text = "While this officer is your commander, your lieutenants get +1 WAR."
    card = SkillCard(id="oda", title="Oda", ldr=4, men_under_command=4,
                     trait=Trait(name="Bold Advance", text=long_text),
                     skills=[Skill(name="A spear of unusual length", power=2)])
    stats = {s.name: s for s in card_stats(card).stats}
    assert list(stats) == ["ldr", "trait", "men_under_command", "skills"]
    assert (stats["ldr"].label, stats["men_under_command"].label) == ("LDR", "Men under command")
    assert (stats["trait"].kind, stats["trait"].value) == ("items", [Item("Bold Advance", [("Text", long_text)])])
    assert (stats["skills"].kind, stats["skills"].value) == ("items", [Item("A spear of unusual length", [("Power", "2")])])


def _entry(entry_id: str, term: str | None, aliases=(), name_lost=False) -> GlossaryEntry:
    return GlossaryEntry(id=entry_id, term=term, aliases=list(aliases), name_lost=name_lost,
                         text="x", section="s")


def test_glossary_matches_terms_and_aliases_on_word_boundaries_ignoring_case():
    card = SkillCard(id="c", title="C", ability="On a TIE, move both cards to the tie  pool. Untied.")
    glossary = [
        _entry("tie", "Tie"),
        _entry("tie-pool", "Tie Pool"),
        _entry("untie", "Untie"),  # only inside "Untied": no match
        _entry("score-pile", "Score Pile", aliases=["both cards"]),
        _entry("lost", None, name_lost=True),
    ]
    assert [e.id for e in entries_used_by(card, glossary)] == ["tie", "tie-pool", "score-pile"]


# --- command line ------------------------------------------------------------------------------


def _break_a_card(data_copy) -> tuple[Path, str]:
    broken = data_copy.root / "cartisora" / "cards" / "zz-broken.yaml"
    broken.write_text("- id: broken-card\n  type: number\n  title: ''\n  deck: brute\n  power: 3\n")
    return broken, "cartisora/broken-card"


def test_cli_with_a_broken_database_prints_problem_lines_and_exits_1(runner, data_copy):
    broken, record = _break_a_card(data_copy)
    result = runner.invoke(companion_cli, ["run", "--data", str(data_copy.root)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert f"{broken}:3: {record}: title: String should have at least 1 character" in lines
    assert all(re.match(r"^.+:\d+: [a-z_-]+/[^:]+: [^:]+: .+", line) for line in lines), lines
    assert "Traceback" not in result.output


def test_cli_run_serves_the_database_and_prints_addresses(runner, monkeypatch):
    calls = []
    monkeypatch.setattr(waitress, "serve", lambda app, **kwargs: calls.append(kwargs))
    result = runner.invoke(companion_cli, ["run", "--port", "5123", "--data", str(bundled_data_dir())])
    assert result.exit_code == 0, result.output
    assert "On this computer:  http://127.0.0.1:5123/" in result.output
    assert [(c["host"], c["port"]) for c in calls] == [("0.0.0.0", 5123)]


def test_cli_says_when_phones_cannot_reach_the_server(runner, monkeypatch):
    monkeypatch.setattr(waitress, "serve", lambda app, **kwargs: None)
    result = runner.invoke(companion_cli, ["run", "--host", "127.0.0.1"])
    assert result.exit_code == 0, result.output
    assert "Phones cannot reach this address; use --host 0.0.0.0" in result.output


def test_flask_cli_finds_the_app_factory():
    result = subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "routes"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "/r/<game>/<card_id>" in result.stdout


def test_icons_in_card_text_show_as_the_icon_with_its_name_for_screen_readers(client):
    import base64

    from bs4 import BeautifulSoup

    card = next(c for c in BUNDLED.games["cartisora"].cards.values() if ":tie:" in str(getattr(c, "effect", "")))
    page = BeautifulSoup(page_text(client.get(f"/r/cartisora/{card.id}")), "html.parser")
    text = page.select_one(".card-text")
    assert ":tie:" not in text.get_text()
    icon = text.select_one("img.icon")
    assert icon["alt"].lower() == "tie"
    uri = icon["src"]
    assert uri.startswith("data:image/svg+xml;base64,")
    icon_file = BUNDLED.games["cartisora"].folder / "icons" / "tie.svg"
    assert base64.b64decode(uri.split(",", 1)[1]) == icon_file.read_bytes()


def test_icon_names_the_game_has_no_icon_for_stay_as_written(tmp_path):
    from companion.cards.rulings import icon_words

    class Game:
        folder = tmp_path

    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "might.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    html = str(icon_words("Costs 2 :might: at 10:30: <b>now</b> :nothing:", Game()))
    assert html.count('<img class="icon"') == 1 and 'alt="Might"' in html
    assert "10:30: &lt;b&gt;now&lt;/b&gt; :nothing:" in html


def test_glossary_source_notes_stay_on_the_rulings_pages(client):
    entry = next(e for e in BUNDLED.games["carpe_cras"].glossary if e.note)
    html = page_text(client.get("/r/carpe_cras/"))
    assert str(escape(entry.note)) in html


def test_a_card_page_shows_the_printed_effect_not_the_engines_structured_copy(client):
    """Duels of Cartisora's special cards hold their effect twice: as printed, for players, and
    as data for the scorekeeper (kind, amount, player, round). The page shows the first only."""
    from bs4 import BeautifulSoup

    main = BeautifulSoup(page_text(client.get("/r/cartisora/second-wind")), "html.parser").select_one("main")
    text = " ".join(main.get_text(" ", strip=True).split())
    assert "Effect +1 to your" in text and "power this round." in text
    assert "power modifier" not in text and "Amount" not in text
