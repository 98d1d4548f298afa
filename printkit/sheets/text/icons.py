"""Inline icons in card text: ``:might:`` in a text region prints the game's icon ``might``.

A game's icons are the files in its data folder's ``icons/`` (``card_data/<game>/icons/``):
``might.svg`` (drawn as vectors) or ``might.png``; the file name is the icon's name. An icon
is drawn at the text's size, on its baseline, and takes the text's width in the wrap, so
shrink-to-fit measures it like a word. An SVG icon whose shapes use ``currentColor`` is drawn
in the colour of the text around it.

How: the text's markup gets a reportlab ``<onDraw>`` tag per icon. reportlab's paragraph
measures such a tag by its ``width`` (set here after parsing, :func:`size_icons`) and calls
a named canvas callback where it falls; the callback (:func:`install`) draws the icon there
and moves the text cursor past it.
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import setXPos

from card_data.project.limits import current_limits
from card_data.reading.icon_names import ICON_NAME
from printkit.sheets.artwork.art import ArtError, draw_svg, load_svg, read_artwork

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

ICON_SUFFIXES = (".svg", ".png")
ICONS_FOLDER = "icons"
CALLBACK = "printkit_icon"

DESCENT = 0.15
"""How far below the baseline an icon reaches, as a fraction of the text size (like a
letter's descender), so that its middle sits near the middle of lower-case letters."""
GAP = 0.08
"""Space each side of an icon, as a fraction of the text size."""


class IconError(ValueError):
    """An icon name without a file, or an icon file that cannot be drawn."""


@dataclass(frozen=True)
class Icon:
    """One use of an icon, read once: its file, the colour ``currentColor`` stands for, the
    file's width over height, and (an SVG icon) its drawing in that colour and the name of the
    Form XObject that holds it, or (a PNG icon) ``None`` and ``""``."""

    path: Path
    colour: str
    aspect: float
    drawing: Drawing | None
    form_name: str


def icon_file(icons_dir: Path, name: str) -> Path | None:
    """The file of icon ``name`` in ``icons_dir`` (SVG before PNG), or ``None``; a symbolic
    link leading out of ``icons_dir`` does not count (the build reports it)."""
    for suffix in ICON_SUFFIXES:
        path = icons_dir / f"{name}{suffix}"
        if path.is_file() and path.resolve().is_relative_to(icons_dir.resolve()):
            return path
    return None


def icon_names(icons_dir: Path) -> list[str]:
    """Every icon ``icons_dir`` holds, sorted."""
    if not icons_dir.is_dir():
        return []
    return sorted({p.stem for p in icons_dir.iterdir() if p.suffix in ICON_SUFFIXES and ICON_NAME.fullmatch(f":{p.stem}:")})


_ICONS: dict[str, Icon] = {}
"""Icons by the label their ``<onDraw>`` tag carries (label -> file and colour)."""

ICONS_KEPT = 1024
"""Icons :data:`_READ` keeps at most (each a few hundred bytes and its drawing, shared with the SVG cache)."""

_READ: dict[tuple[Path, str, str, int], tuple[tuple, Icon, str]] = {}
"""Icons already read, by (icons folder, name, colour, the art pixel limit in force): what the folder and the file were then
(:func:`_as_found`), the icon and its tag's label. A card's text names the same few icons on
card after card; this spares finding, checking and measuring the file each time (about a
dozen system calls), while an icon file added, replaced or edited since (in a process that
builds again, as ``printkit watch``) is found and read anew."""


def _as_found(icons_dir: Path, path: Path) -> tuple | None:
    """What tells that ``icons_dir`` and its icon file ``path`` are as they were: the folder's
    modification time (a file added or removed), and the file's own and (through any symbolic
    link) its target's identity, modification time and size; ``None`` if one is gone."""
    try:
        folder, link, target = os.stat(icons_dir), os.lstat(path), os.stat(path)
    except OSError:
        return None
    return (folder.st_mtime_ns, folder.st_ino, link.st_ino, link.st_mtime_ns, target.st_ino, target.st_mtime_ns,
            target.st_size)


def _read_icon(icons_dir: Path, name: str, colour: str) -> tuple[Icon, str]:
    """Icon ``name`` of ``icons_dir`` in ``colour`` and its tag's label, read once per file and
    modification (see :data:`_READ`). Raises :class:`IconError` as :func:`markup_icons` says."""
    key = (icons_dir, name, colour, current_limits().art_pixels)
    kept = _READ.get(key)
    if kept is not None and _as_found(icons_dir, kept[1].path) == kept[0]:
        return kept[1], kept[2]
    path = icon_file(icons_dir, name)
    if path is None:
        known = ", ".join(f":{n}:" for n in icon_names(icons_dir)) or "none"
        raise IconError(f"unknown icon :{name}: (no {ICONS_FOLDER}/{name}.svg or .png in the game's "
                        f"folder; icons: {known})")
    found = _as_found(icons_dir, path)
    try:
        art = read_artwork(path, path.parent)  # reads the file: a corrupt icon is a problem here, not when drawn
        drawing = load_svg(path, path.parent, colour) if path.suffix == ".svg" else None
    except ArtError as exc:
        raise IconError(f"icon :{name}: cannot be drawn: {exc}") from None
    form_name = f"pkicon-{art.digest}-{colour.lstrip('#')}" if drawing is not None else ""
    icon = Icon(path, colour, art.width / art.height, drawing, form_name)
    label = f"{path}|{colour}"
    if found is not None:
        if len(_READ) >= ICONS_KEPT:
            _READ.clear()  # a watching process over many games and colours: start again
        _READ[key] = (found, icon, label)
    return icon, label


def markup_icons(markup: str, icons_dir: Path | None, colour: str) -> str:
    """Replace each ``:name:`` in paragraph ``markup`` with the icon's ``<onDraw>`` tag.

    Without ``icons_dir`` (text outside a game) the names stay as they are. Raises
    :class:`IconError` naming the first ``:name:`` that has no file in ``icons_dir``, or
    whose file cannot be drawn.
    """
    if icons_dir is None or ":" not in markup:
        return markup

    def tag(match: re.Match) -> str:
        icon, label = _read_icon(icons_dir, match.group(1), colour)
        _ICONS[label] = icon
        return f'<onDraw name="{CALLBACK}" label="{html.escape(label, quote=True)}"/>'

    return ICON_NAME.sub(tag, markup)


def size_icons(para: Paragraph, size_pt: float) -> None:
    """Give every icon tag of ``para`` its width at text size ``size_pt``, before it is wrapped."""
    for frag in getattr(para, "frags", []):
        defn = getattr(frag, "cbDefn", None)
        if defn is None or getattr(defn, "name", None) != CALLBACK:
            continue
        defn.width = icon_width(defn.label, size_pt)
        defn.height = size_pt
        defn.valign = "baseline"


def icon_width(label: str, size_pt: float) -> float:
    """The width in pt an icon (by its tag's ``label``) takes in text of ``size_pt``, gaps included."""
    return size_pt * (_ICONS[label].aspect + 2 * GAP)


def draw_icon(canvas: Canvas, label: str, x_pt: float, baseline_pt: float, size_pt: float) -> float:
    """Draw the icon of tag ``label`` in text of ``size_pt`` whose cursor is at (``x_pt``,
    ``baseline_pt``); returns how far the cursor moves past it (:func:`icon_width`)."""
    icon = _ICONS[label]
    h = size_pt
    w = h * icon.aspect
    x = x_pt + GAP * h
    y = baseline_pt - DESCENT * h
    if icon.drawing is not None:
        draw_svg(canvas, icon.drawing, icon.form_name, x, y, w, h)
    else:
        canvas.drawImage(str(icon.path), x, y, w, h, mask="auto")
    return w + 2 * GAP * h


def _draw(canvas: Canvas, kind: str, label: str | None) -> None:
    """The paragraph callback: draw the icon at the text cursor and move the cursor past it."""
    info = canvas._curr_tx_info
    tx, xs = info["tx"], info["xs"]
    # reportlab does not advance its own x for callback tags: icons earlier on this line
    # are added here (kept on the paragraph's per-draw state, per line).
    line_y, shift = getattr(xs, "_printkit_icon_shift", (None, 0.0))
    if line_y != info["cur_y"]:
        shift = 0.0
    # card text has one size per paragraph
    advance = draw_icon(canvas, label, info["cur_x"] + shift, info["cur_y"], xs.style.fontSize)
    xs._printkit_icon_shift = (info["cur_y"], shift + advance)
    setXPos(tx, info["cur_x"] + shift + advance - tx._x0)


def install(canvas: Canvas) -> None:
    """Let paragraphs drawn on ``canvas`` draw icons (idempotent)."""
    canvas.setNamedCB(CALLBACK, _draw)
