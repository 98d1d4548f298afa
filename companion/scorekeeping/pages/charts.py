"""Pictures of a game: each number the game tracks per player (score, morale, grain, VP) over
the table's entries, as server-rendered SVG (no JavaScript) with its data as a table beside it.

The values come from the engine, never from the page: the table's log is replayed through the
game's rules (:meth:`companion.scorekeeping.table_view.TableView.replay`) and each state names its numbers
(:meth:`card_data.engine.core.GameState.tracked`). The SVG is drawn in the page's colours
(CSS custom properties of ``companion.css``, light and dark), each player's line in their
colour over a casing in the text colour (so a white or black player stays visible) and with
its own dash pattern (so the lines differ without colour too).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from flask import Flask
from flask_babel import format_decimal
from markupsafe import Markup

from card_data.engine.wording import Said
from companion.scorekeeping.table_view import TableView

MAX_CHART_POINTS = 200
"""The most points a chart draws (and its table lists): a longer game keeps the entries where a
value changed, then every n-th of them, always the first and the last."""
CACHED_CHARTS = 64
"""Tables whose charts are kept (per table version), so a page rendered for every phone at
every change replays the log once."""
WIDTH, HEIGHT = 360, 200
"""The SVG's view box (user units; the SVG scales to the page's width)."""
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 26
"""Room around the plot for the axis labels (user units)."""
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 2 1 2", "12 2")
"""Each seat's dash pattern, in seat order (a solid line first)."""


@dataclass(frozen=True)
class Series:
    """One player's line: ``seat``, ``name``, ``colour`` (a colour name of
    :data:`card_data.engine.seats.PLAYER_COLOURS`) and one value per point of its chart."""

    seat: int
    name: str
    colour: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Chart:
    """One tracked number over a game: its ``label`` (:class:`~card_data.engine.Words`),
    ``entries`` (for each point, the number of the entry after which it stands, as the history
    numbers entries; 0 for the new table), ``positions`` (for each point, how many entries
    counted by then: where it stands left to right) and one :class:`Series` per player."""

    label: Said
    entries: tuple[int, ...]
    positions: tuple[int, ...]
    series: tuple[Series, ...]

    def rows(self) -> list[tuple[int, tuple[float, ...]]]:
        """The chart as table rows: ``(entry, values by seat)``, oldest first."""
        return [(entry, tuple(s.values[i] for s in self.series)) for i, entry in enumerate(self.entries)]


_cache: OrderedDict[tuple[str, int], list[Chart]] = OrderedDict()
_cache_lock = Lock()


def table_charts(view: TableView) -> list[Chart]:
    """One :class:`Chart` per number the game tracks, from the table's log replayed through its
    engine (kept per table and version: see :data:`CACHED_CHARTS`). Empty for a table with no
    entries yet."""
    key = (view.record.token, view.record.version)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    charts = _build(view)
    with _cache_lock:
        _cache[key] = charts
        while len(_cache) > CACHED_CHARTS:
            _cache.popitem(last=False)
    return charts


def _build(view: TableView) -> list[Chart]:
    entries: list[int] = []
    points: list[tuple] = []  # per point: the state's tracked numbers
    for row, state in view.replay():
        entries.append(0 if row is None else (row.corrects or row.seq))
        points.append(state.tracked())
    if len(entries) < 2:
        return []
    players, colours = view.record.players, view.colours
    charts = []
    for index, first in enumerate(points[0]):
        values = [p[index].values if index < len(p) else () for p in points]  # a number missing: a gap
        keep = _kept(values)
        series = tuple(Series(seat, name, colours[seat] if seat < len(colours) else "",
                              tuple(values[i][seat] if seat < len(values[i]) else math.nan for i in keep))
                       for seat, name in enumerate(players))
        charts.append(Chart(first.label, tuple(entries[i] for i in keep), tuple(keep), series))
    return charts


def _kept(values: list[tuple[float, ...]]) -> list[int]:
    """The points to draw: the first, the last, every one where a value changed and the one
    before it (so a line between two points is what the game did), thinned evenly to
    :data:`MAX_CHART_POINTS`."""
    last = len(values) - 1
    changed = [i for i in range(1, len(values)) if values[i] != values[i - 1]]
    kept = sorted({0, last, *changed, *(i - 1 for i in changed)})
    if len(kept) > MAX_CHART_POINTS:
        step = (len(kept) - 1) / (MAX_CHART_POINTS - 1)
        kept = [kept[round(n * step)] for n in range(MAX_CHART_POINTS)]
    return kept


def _ticks(low: float, high: float) -> list[float]:
    """Round values from ``low`` to ``high`` for the y axis: 2 to 6 of them."""
    span = high - low
    raw = span / 4
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(step, 1.0) if span >= 1 else step
    first = math.ceil(low / step) * step
    return [first + n * step for n in range(int((high - first) / step + 1e-9) + 1)]


def _number(value: float) -> str:
    return format_decimal(int(value) if float(value).is_integer() else round(value, 1))


def chart_svg(chart: Chart, chart_id: str, title: str) -> Markup:
    """``chart`` as an inline SVG: an image named by ``title`` (its ``<title>``, id
    ``{chart_id}-title``), the y axis labelled with round values, the x axis with the first and
    last entry, and per player a ``<g class="series c-{colour}" data-seat=...>`` holding two
    polylines of the same points (``x,y`` in the view box, :data:`WIDTH` x :data:`HEIGHT`): a
    ``chart-casing`` and the ``chart-line`` over it."""
    values = [v for s in chart.series for v in s.values if not math.isnan(v)]
    low, high = min([0.0, *values]), max([0.0, *values])
    if high == low:
        high = low + 1
    ticks = _ticks(low, high)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = len(chart.entries)

    def x(i: int) -> float:
        return LEFT + plot_w * chart.positions[i] / max(chart.positions[-1], 1)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {WIDTH} {HEIGHT}",
                             "class": "chart", "role": "img", "aria-labelledby": f"{chart_id}-title",
                             "id": chart_id})
    ET.SubElement(svg, "title", {"id": f"{chart_id}-title"}).text = title
    grid = ET.SubElement(svg, "g", {"class": "chart-axes"})
    for tick in ticks:
        ET.SubElement(grid, "line", {"x1": str(LEFT), "x2": str(WIDTH - RIGHT), "y1": f"{y(tick):.1f}",
                                     "y2": f"{y(tick):.1f}", "class": "chart-grid"})
        label = ET.SubElement(grid, "text", {"x": str(LEFT - 4), "y": f"{y(tick) + 4:.1f}", "text-anchor": "end"})
        label.text = _number(tick)
    for i, anchor in ((0, "start"), (count - 1, "end")):
        label = ET.SubElement(grid, "text", {"x": f"{x(i):.1f}", "y": str(HEIGHT - 6), "text-anchor": anchor})
        label.text = str(chart.entries[i])
    for series in chart.series:
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(series.values) if not math.isnan(v))
        line = ET.SubElement(svg, "g", {"class": f"series c-{series.colour}", "data-seat": str(series.seat)})
        ET.SubElement(line, "polyline", {"class": "chart-casing", "points": points})
        attributes = {"class": "chart-line", "points": points}
        dash = DASHES[series.seat % len(DASHES)]
        if dash:
            attributes["stroke-dasharray"] = dash
        ET.SubElement(line, "polyline", attributes)
    return Markup(ET.tostring(svg, encoding="unicode"))


def dash_of(seat: int) -> str:
    """The dash pattern of ``seat``'s line (for the legend's sample)."""
    return DASHES[seat % len(DASHES)]


def init_app(app: Flask) -> None:
    """Offer the charts to templates (``tables/_chart.html``)."""
    app.add_template_global(table_charts, "table_charts")
    app.add_template_global(chart_svg, "chart_svg")
    app.add_template_global(dash_of, "chart_dash")
