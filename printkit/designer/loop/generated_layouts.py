"""Layout templates written for a declared game (``printkit init``): a front per card type that
prints the card's title and every field with its label, and a back per deck, for the game's
card size.

The texts are fitted by the layout engine (each text region shrinks from its ``size_pt`` to
its ``min_size_pt``, see :func:`printkit.sheets.templating.layout.fit_text`); the title's region is made
as tall as the game's longest title needs to print at :data:`TITLE_READABLE_PT` or more. A
front is, top to bottom: a coloured band naming the card type, the title, the text fields,
then beside the QR code (bottom right) the short fields (numbers, yes/no, one-of). These are
starting points: the designer edits them (``templates/README.md``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from card_data.project.project_folders import DEFAULT_DATA, GAME_TEMPLATES
from printkit.sheets.templating.layout import TextRegion, fit_text


def layouts_folder(game_id: str) -> str:
    """Where ``printkit init`` writes a game's layout templates, relative to the project folder:
    ``card_data/<game_id>/templates`` (one game, one folder: see
    :func:`card_data.project.project_folders.game_templates_dir`)."""
    return f"{DEFAULT_DATA}/{game_id}/{GAME_TEMPLATES}"


PALETTE = ("#284b63", "#7a1f1f", "#2f5d3a", "#5b3f86", "#8a5a00", "#1f5f6b", "#6b2f55", "#3d4a1f")
"""Band and back colours, one per card type in order (dark enough for white text)."""

PAPER = "#f7f3ea"
INK = "#1a1a1a"
SAFE_MM = 3.5
"""How far text and the QR code keep inside the trim: beyond the safe areas of the print shops'
presets (The Game Crafter 3.175 mm, MakePlayingCards 3.05 mm; :mod:`printkit.designer.exports.shops`), so
``printkit export --preset`` of a game just made from a sheet warns of nothing."""
QR_MM = 15.0
BAND_MM = 10.0
"""How far the coloured band reaches down from the trim's top edge."""

TITLE_SIZE_PT = 12.0
TITLE_READABLE_PT = 9.0
"""The size every title of the sheet should print at, at least, in the title region chosen."""
TITLE_HEIGHTS_MM = (7.0, 11.0, 15.0, 19.0)
"""Heights the title region may take (the least in which every title prints at
:data:`TITLE_READABLE_PT`)."""

MIN_SIZE_PT = 6.0
"""The smallest any text shrinks to (as in the bundled templates); less than that does not fit."""

SHORT_TYPES = frozenset({"integer", "number", "yes_no", "one_of", "icon"})
"""Field types printed beside the QR code, one short line each."""

ART_SHARE = 0.35
"""The share of a front's height its artwork takes (a game whose sheet has an ``art`` column)."""

MAX_SHORT_LINES = 4
"""Short fields beside the QR code; more go with the text fields."""


@dataclass(frozen=True)
class PrintedField:
    """A field as a front prints it: ``name``, ``label``, declared ``type`` (and for a list,
    ``of``)."""

    name: str
    label: str
    type: str


def colour(index: int) -> str:
    """The :data:`PALETTE` colour of the ``index``-th card type (cycling)."""
    return PALETTE[index % len(PALETTE)]


def _literal(text: str) -> str:
    """``text`` as a template prints it literally: as is when it holds nothing Jinja2 reads,
    else as a Jinja2 string expression."""
    if re.search(r"[{}%#]", text):
        return "{{ " + json.dumps(text, ensure_ascii=False) + " }}"
    return text


def _value(f: PrintedField) -> str:
    if f.type == "yes_no":
        return f"{{{{ 'yes' if {f.name} else 'no' }}}}"
    if f.type == "list":
        return f"{{{{ {f.name} | join(', ') }}}}"
    return f"{{{{ {f.name} }}}}"


def _shown_when(f: PrintedField) -> str:
    if f.type == "list":
        return f.name
    return f"{f.name} is not none"


def field_lines(fields: Iterable[PrintedField], separator: str) -> str:
    """A text region's Jinja2 text printing each of ``fields`` that has a value as
    ``**Label:** value``, joined by ``separator`` (a blank line: one paragraph each)."""
    parts = [f"{{% if {_shown_when(f)} %}}**{_literal(f.label)}:** {_value(f)}{{% endif %}}" for f in fields]
    return separator.join(parts)


def inner_width_mm(width_mm: float) -> float:
    """The width of a front's title and text regions on a card ``width_mm`` wide (mm): the trim
    less :data:`SAFE_MM` and 1 mm more on each side."""
    return width_mm - 2 * (SAFE_MM + 1)


def title_height_mm(titles: Sequence[str], width_mm: float) -> float:
    """The least of :data:`TITLE_HEIGHTS_MM` in which each of ``titles`` prints at
    :data:`TITLE_READABLE_PT` or more in a bold region ``width_mm`` wide (the largest when one
    does not)."""
    for height in TITLE_HEIGHTS_MM:
        region = TextRegion(name="title", kind="text", x_mm=0, y_mm=0, w_mm=width_mm, h_mm=height, text="",
                            font="bold", size_pt=TITLE_SIZE_PT, min_size_pt=TITLE_READABLE_PT)
        if all(fit_text(region, title) is not None for title in titles if title.strip()):
            return height
    return TITLE_HEIGHTS_MM[-1]


def _mm(value: float) -> float | int:
    """``value`` as a template writes it: 2 decimals at most, ``4`` rather than ``4.0``."""
    value = round(float(value), 2)
    return int(value) if value.is_integer() else value


def _text(name: str, x: float, y: float, w: float, h: float, text: str, **style: Any) -> dict[str, Any]:
    region = {"name": name, "kind": "text", "x_mm": _mm(x), "y_mm": _mm(y), "w_mm": _mm(w), "h_mm": _mm(h),
              "text": text}
    region.update({key: _mm(value) if isinstance(value, float) else value for key, value in style.items()})
    return region


def front_regions(width_mm: float, height_mm: float, type_label: str, band: str, fields: Sequence[PrintedField],
                  title_h_mm: float, art: bool = False) -> list[dict[str, Any]]:
    """The regions of a front ``width_mm`` x ``height_mm``: band naming ``type_label`` in
    colour ``band``, title (``title_h_mm`` tall), with ``art`` the card's artwork
    (:data:`ART_SHARE` of the card's height), the text fields, the short fields beside the QR
    code. ``fields``: what the card prints besides its title, in order."""
    inner_w = inner_width_mm(width_mm)
    short = [f for f in fields if f.type in SHORT_TYPES]
    beside_qr, rest = short[:MAX_SHORT_LINES], short[MAX_SHORT_LINES:]
    body = [f for f in fields if f.type not in SHORT_TYPES] + rest
    qr_y = height_mm - SAFE_MM - QR_MM
    regions: list[dict[str, Any]] = [
        {"name": "band", "kind": "box", "x_mm": -3, "y_mm": -3, "w_mm": _mm(width_mm + 6),
         "h_mm": _mm(BAND_MM + 3), "fill": band},
        _text("type", SAFE_MM + 1, SAFE_MM + 0.5, inner_w, BAND_MM - SAFE_MM - 1.5,
              "{{ game.title }} · " + _literal(type_label), font="bold", size_pt=7.5, min_size_pt=MIN_SIZE_PT,
              valign="middle", color="#ffffff"),
        _text("title", SAFE_MM + 1, BAND_MM + 1.5, inner_w, title_h_mm, "{{ title }}", font="bold",
              size_pt=TITLE_SIZE_PT, min_size_pt=7, valign="middle", color=INK),
    ]
    top = BAND_MM + 1.5 + title_h_mm + 1
    if art:
        art_h = round(height_mm * ART_SHARE, 1)
        regions.append({"name": "art", "kind": "image", "x_mm": _mm(SAFE_MM), "y_mm": _mm(top),
                        "w_mm": _mm(width_mm - 2 * SAFE_MM), "h_mm": art_h, "src": "{{ art or '' }}", "fit": "cover"})
        top += art_h + 1
    regions.append({"name": "rule", "kind": "line", "x_mm": _mm(SAFE_MM + 1), "y_mm": _mm(top), "w_mm": _mm(inner_w),
                    "h_mm": 0, "stroke": band, "stroke_pt": 0.5})
    if body:
        regions.append(_text("fields", SAFE_MM + 1, top + 1.5, inner_w, qr_y - 1 - (top + 1.5),
                             field_lines(body, "\n\n"), size_pt=9, min_size_pt=MIN_SIZE_PT, color=INK))
    footer = field_lines(beside_qr, "\n")
    example = "{% if example %}" + ("\n" if beside_qr else "") + "{{ _('EXAMPLE CARD') }}{% endif %}"
    regions.append(_text("details", SAFE_MM + 1, qr_y, width_mm - 2 * SAFE_MM - 1 - QR_MM - 1, QR_MM,
                         footer + example, size_pt=8, min_size_pt=MIN_SIZE_PT, valign="bottom", color=INK))
    regions.append({"name": "qr", "kind": "qr", "x_mm": _mm(width_mm - SAFE_MM - QR_MM), "y_mm": _mm(qr_y),
                    "size_mm": _mm(QR_MM)})
    return regions


def back_regions(width_mm: float, height_mm: float, paper: str = PAPER) -> list[dict[str, Any]]:
    """A back's regions: a frame, the game's title and the deck's (``title``) in the middle."""
    inner_w = inner_width_mm(width_mm)
    middle = height_mm / 2
    return [
        {"name": "frame", "kind": "box", "x_mm": _mm(SAFE_MM + 1), "y_mm": _mm(SAFE_MM + 1), "w_mm": _mm(inner_w),
         "h_mm": _mm(height_mm - 2 * (SAFE_MM + 1)), "stroke": paper, "stroke_pt": 1, "radius_mm": 3},
        _text("game-title", SAFE_MM + 2, middle - 13, inner_w - 2, 12, "{{ game.title | upper }}", font="bold",
              size_pt=18, min_size_pt=9, align="center", valign="middle", color=paper),
        _text("deck-title", SAFE_MM + 2, middle + 0.5, inner_w - 2, 6, "{{ title }}", size_pt=10,
              min_size_pt=7, align="center", valign="middle", color=paper),
    ]


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|" if "\n" in data else None)


def _represent_dict(dumper: yaml.SafeDumper, data: dict) -> yaml.Node:
    # Boxes, lines and QR codes on one line each, as the bundled templates write them.
    flow = data.get("kind") in ("box", "line", "qr")
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=flow)


_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(dict, _represent_dict)


def template_text(comment: str, background: str, regions: list[dict[str, Any]]) -> str:
    """A template file: ``comment`` (lines, each made a YAML comment), then the template."""
    head = "".join(f"# {line}".rstrip() + "\n" for line in comment.splitlines())
    body = yaml.dump({"safe_margin_mm": _mm(SAFE_MM), "background": background}, Dumper=_Dumper, sort_keys=False)
    body += yaml.dump({"regions": regions}, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)
    return head + body


def front_template(width_mm: float, height_mm: float, type_name: str, type_label: str, index: int,
                   fields: Sequence[PrintedField], title_h_mm: float, art: bool = False) -> str:
    """The text of ``templates/<type_name>.yaml`` (see :func:`front_regions`); ``index``: the
    card type's place in game.yaml (its colour)."""
    comment = (f"The front of every `{type_name}` card ({width_mm:g} x {height_mm:g} mm; millimetres from the "
               "trim's top-left corner,\n"
               f"bleed 3 mm, text and QR code {SAFE_MM:g} mm inside the trim). Written by printkit init: move, "
               "resize and restyle\n"
               "freely (templates/README.md). Each text shrinks to fit, down to its min_size_pt; a text that "
               "still does not\nfit is a problem naming the card.")
    return template_text(comment, PAPER, front_regions(width_mm, height_mm, type_label, colour(index), fields,
                                                       title_h_mm, art))


def back_template(width_mm: float, height_mm: float, back: str, index: int) -> str:
    """The text of ``templates/back-<back>.yaml``: the back of every card of that deck, in the
    ``index``-th colour (backs get ``game``, ``game_id``, ``kind`` and ``title``)."""
    comment = (f"The back of every card of the `{back}` deck ({width_mm:g} x {height_mm:g} mm). Backs get game, "
               "game_id, kind\nand title (the deck's name from game.yaml's backs). Written by printkit init: "
               "edit freely.")
    return template_text(comment, colour(index), back_regions(width_mm, height_mm))
