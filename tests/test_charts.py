"""Pictures of a game (companion/scorekeeping/pages/charts.py): each number a game tracks per player over its
entries, drawn as SVG by the server on the table and result page, with its data as a table.

The scripted Carpe Cras game (tests/scenarios_carpe_cras.py): Red's strikes bring Blue's
morale from 15 to 14 (entry 7), 6 (entry 12) and 0 (entry 14); Red's stays 15.
"""

from __future__ import annotations

import importlib
import xml.etree.ElementTree as ET

import pytest
from bs4 import BeautifulSoup

from companion.scorekeeping.pages import charts

SVG = "{http://www.w3.org/2000/svg}"
# Points kept: the start, and each entry where morale changed with the one before it.
CARPE_CRAS_ROWS = [("Start", "15", "15"), ("6", "15", "15"), ("7", "15", "14"), ("11", "15", "14"),
                   ("12", "15", "6"), ("13", "15", "6"), ("14", "15", "0")]


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


def played(app, game: str, upto: int | None = None):
    """A table of ``game`` with its scenario's events (the first ``upto``) entered; its view."""
    s = scenario(game)
    tables = app.extensions["companion.scorekeeping.tables"]
    view = tables.create(game, s.PLAYERS, s.OPTIONS)
    for event in s.EVENTS[:upto]:
        view = tables.act(view.record.token, event)
    return view


def svg_of(html: str, number: int = 1) -> ET.Element:
    """The page's chart ``number``, parsed as XML (it must be well-formed on its own)."""
    svg = BeautifulSoup(html, "html.parser").find("svg", id=f"chart-{number}")
    assert svg is not None, "no chart on the page"
    return ET.fromstring(str(svg))


def series(svg: ET.Element) -> dict[int, tuple[str, list[tuple[float, float]]]]:
    """Each player's line: seat -> (its class, its points)."""
    out = {}
    for g in svg.iter(f"{SVG}g"):
        if "series" in g.get("class", "").split():
            line = next(p for p in g.iter(f"{SVG}polyline") if p.get("class") == "chart-line")
            points = [tuple(float(n) for n in pair.split(",")) for pair in line.get("points").split()]
            assert int(g.get("data-seat")) not in out
            out[int(g.get("data-seat"))] = (g.get("class"), points)
    return out


def data_rows(html: str, number: int = 1) -> list[tuple[str, ...]]:
    table = BeautifulSoup(html, "html.parser").select_one(f"#chart-{number}-data table")
    return [tuple(cell.get_text(strip=True) for cell in tr.find_all(["th", "td"])) for tr in table.select("tbody tr")]


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


def test_the_result_page_draws_each_players_morale_entry_by_entry(scorekeeper_app, client):
    view = played(scorekeeper_app, "carpe_cras")
    html = client.get(f"/t/{view.record.token}").get_data(as_text=True)
    assert BeautifulSoup(html, "html.parser").select_one("#result #chart-1") is not None, "the chart is in the result"
    svg = svg_of(html)
    assert svg.get("role") == "img"
    assert svg.find(f"{SVG}title").text == "Morale over the game"
    lines = series(svg)
    assert sorted(lines) == [0, 1], "one line per player"
    assert "c-red" in lines[0][0] and "c-blue" in lines[1][0]
    # Where each point must be: x by entries counted (0 to 14), y from 0 (bottom) to 15 (top).
    plot_w = charts.WIDTH - charts.LEFT - charts.RIGHT
    plot_h = charts.HEIGHT - charts.TOP - charts.BOTTOM

    def at(position: int, value: float) -> tuple[float, float]:
        return (round(charts.LEFT + plot_w * position / 14, 1), round(charts.TOP + plot_h * (15 - value) / 15, 1))

    positions = [0, 6, 7, 11, 12, 13, 14]
    assert lines[0][1] == [at(p, 15) for p in positions]
    assert lines[1][1] == [at(p, v) for p, v in zip(positions, [15, 15, 14, 14, 6, 6, 0])]
    # The data table says the same numbers.
    assert data_rows(html) == CARPE_CRAS_ROWS
    header = BeautifulSoup(html, "html.parser").select("#chart-1-data thead th")
    assert [th.get_text(strip=True) for th in header] == ["After entry", "Red", "Blue"]


def test_an_undone_entry_leaves_the_chart(scorekeeper_app, client):
    view = played(scorekeeper_app, "carpe_cras")
    client.get(f"/t/{view.record.token}")  # the chart of the finished game, kept
    scorekeeper_app.extensions["companion.scorekeeping.tables"].undo(view.record.token)
    html = client.get(f"/t/{view.record.token}").get_data(as_text=True)
    assert "game so far" in html  # unfinished again: the table links to the chart so far
    chart = client.get(f"/t/{view.record.token}/chart").get_data(as_text=True)
    assert data_rows(chart)[-1] == ("13", "15", "6")


def test_a_game_in_progress_shows_its_chart_so_far_and_a_new_table_none(scorekeeper_app, client):
    fresh = played(scorekeeper_app, "carpe_cras", 0)
    assert "chart-1" not in client.get(f"/t/{fresh.record.token}").get_data(as_text=True)
    view = played(scorekeeper_app, "carpe_cras", 8)
    page = BeautifulSoup(client.get(f"/t/{view.record.token}").get_data(as_text=True), "html.parser")
    assert page.select_one("svg#chart-1") is None  # an entry's answer does not replay the log
    link = page.select_one("#charts-so-far a")["href"]
    html = client.get(link).get_data(as_text=True)
    soup = BeautifulSoup(html, "html.parser")
    assert soup.select_one("#charts svg#chart-1") is not None
    assert data_rows(html) == [("Start", "15", "15"), ("6", "15", "15"), ("7", "15", "14"), ("8", "15", "14")]


def test_cahrd_follows_battles_won_and_grain(scorekeeper_app, client):
    view = played(scorekeeper_app, "cahrd")
    html = client.get(f"/t/{view.record.token}").get_data(as_text=True)
    titles = [svg_of(html, n).find(f"{SVG}title").text for n in (1, 2)]
    assert titles == ["Battles won over the game", "Grain over the game"]
    final = view.state.tracked()
    assert data_rows(html, 1)[-1][1:] == tuple(str(int(v)) for v in final[0].values) == ("2", "0")
    assert data_rows(html, 2)[-1][1:] == tuple(f"{int(v):,}" for v in final[1].values)
    assert len(series(svg_of(html, 2))) == 2


def test_the_chart_speaks_german(scorekeeper_app, client):
    view = played(scorekeeper_app, "carpe_cras")
    html = client.get(f"/t/{view.record.token}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert svg_of(html).find(f"{SVG}title").text == "Moral im Spielverlauf"
    assert "Nach Eintrag" in html and "Moral als Tabelle" in html
    assert data_rows(html)[0] == ("Beginn", "15", "15")


def test_a_long_game_draws_at_most_the_most_points():
    values = [(float(i), float(-i)) for i in range(1000)]
    kept = charts._kept(values)
    assert len(kept) == charts.MAX_CHART_POINTS and kept[0] == 0 and kept[-1] == 999


def test_the_result_page_with_its_chart_is_axe_clean_at_phone_size(browser, tmp_path):
    from phones import new_table, running_server
    from test_accessibility import AXE, axe_violations

    with running_server(f"sqlite:///{tmp_path / 'companion.sqlite'}") as base:
        table = new_table(base, "carpe_cras", len(scenario("carpe_cras").EVENTS))
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                          is_mobile=True, has_touch=True, color_scheme=scheme,
                                          java_script_enabled=True)
            context.add_init_script(path=AXE)
            page = context.new_page()
            page.goto(f"{base}/t/{table['token']}")
            chart = page.locator("#result svg#chart-1")
            assert chart.is_visible()
            assert chart.bounding_box()["width"] <= 390
            page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
            assert page.locator("#chart-1-data table").is_visible()
            # Each line is drawn in its player's colour, which differs from the page's background.
            stroke = page.locator("#chart-1 g.series.c-blue polyline.chart-line").evaluate("e => getComputedStyle(e).stroke")
            background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
            assert stroke == "rgb(31, 99, 214)" and stroke != background
            assert axe_violations(page) == [], scheme
            context.close()
