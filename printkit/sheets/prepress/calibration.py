"""``printkit calibration``: a PDF that checks a printer before cards are printed.

Page 1: rulers of exactly ``RULER_MM`` on both axes (1 mm ticks, labelled every 10 mm) and
the outline of a card at its trim size, to catch "fit to page" scaling. Pages 2 and 3 (one
sheet, printed double-sided): registration targets. Page 2 carries X and Y scales; page 3, its
back, a crosshair at the mirror image of each target's centre, so that after the flip a
perfect printer puts every crosshair on the scales' 0. The scales are labelled with the
correction to pass to ``printkit build --back-offset X,Y`` rather than with the raw drift.

The texts come from ``templates/print/*.yaml`` (page coordinates in mm); the rulers, outline
and targets are the measurement itself and are drawn here from the constants below. All
lengths in millimetres from the page's top-left corner, y downward.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from card_data.project.limits import limits_in_force
from card_data.schema import CardSize
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.templating.layout import LAYOUTS_DIR, LayoutError, load_layout, prepare_face
from printkit.sheets.prepress.paper import Paper
from printkit.sheets.render import PageDrawer, new_canvas

Flip = Literal["long", "short"]

CALIBRATION_TEMPLATE = Path("print") / "calibration.yaml"
REGISTRATION_TEMPLATE = Path("print") / "registration.yaml"

RULER_MM = 100
RULER_TICK_MM = {1: 2.0, 5: 3.5, 10: 5.0}
"""Tick length by spacing: every 1 mm, longer every 5 and 10 mm (labelled every 10)."""
RULER_STROKE_PT = 0.3
H_RULER_ORIGIN_MM = (40.0, 75.0)
"""Where the horizontal ruler's 0 is; its ticks run down from this baseline."""
V_RULER_ORIGIN_MM = (20.0, 95.0)
"""Where the vertical ruler's 0 is; its ticks run right from this baseline."""
CARD_OUTLINE_MM = (60.0, 105.0)
"""Top-left corner of the card outline's trim."""
OUTLINE_STROKE_PT = 0.5
LABEL_PT = 7

TARGET_COLUMNS_MM = (-70.0, 0.0, 70.0)
"""Target centres across the page, relative to its middle."""
TARGET_TOP_MM = 95.0
TARGET_BOTTOM_MARGIN_MM = 35.0
SCALE_HALF_MM = 5
SCALE_STEP_MM = 0.5
SCALE_TICK_MM = {0.5: 1.2, 1: 2.5}
SCALE_STROKE_PT = 0.25
SCALE_LABEL_PT = 5.0
SCALE_GAP_MM = 8.0
"""How far from the target's centre each scale runs (X below it, Y to its right)."""
CROSSHAIR_HALF_MM = 16.0
"""Long enough to cross both scales for any drift up to SCALE_GAP_MM."""
CROSSHAIR_STROKE_PT = 0.3


class CalibrationError(Exception):
    """The calibration page cannot be made (a broken template, a card too big for the paper)."""


@dataclass(frozen=True)
class Target:
    """A registration target: its centre on the front page (page 2), mm from the top-left."""

    x_mm: float
    y_mm: float


def registration_targets(paper: Paper) -> list[Target]:
    """Nine targets, three across by three down, the lowest ``TARGET_BOTTOM_MARGIN_MM`` above the foot."""
    mid_x = paper.width_mm / 2
    bottom = paper.height_mm - TARGET_BOTTOM_MARGIN_MM
    ys = (TARGET_TOP_MM, (TARGET_TOP_MM + bottom) / 2, bottom)
    return [Target(mid_x + dx, y) for y in ys for dx in TARGET_COLUMNS_MM]


def back_position(paper: Paper, flip: Flip, x_mm: float, y_mm: float) -> tuple[float, float]:
    """Where on the back page a point must print to sit behind front point (x_mm, y_mm) after
    turning the sheet over its ``flip`` edge (long: mirror x; short: mirror y). Its own inverse."""
    if flip == "long":
        return paper.width_mm - x_mm, y_mm
    return x_mm, paper.height_mm - y_mm


def correction_label(flip: Flip, axis: Literal["x", "y"], offset_mm: float) -> float:
    """The ``--back-offset`` component printed at ``offset_mm`` from a target's centre on the
    front's ``axis`` scale (right / down positive).

    A back drifted by ``d`` (back-page mm, right/down) shows through the sheet at ``J d``,
    where ``J`` mirrors the flipped axis (x for a long-edge flip, y for short); the correction
    is ``-d``, so the value at a reading ``s`` is ``-J s``: ``s`` on the flipped axis, ``-s``
    on the other.
    """
    flipped = "x" if flip == "long" else "y"
    # "+ 0.0" turns -0.0 into 0.0, so the centre is labelled "0", not "-0".
    return (offset_mm if axis == flipped else -offset_mm) + 0.0


def _text_page(drawer: PageDrawer, paper: Paper, template: Path, context: dict) -> None:
    try:
        layout = load_layout(template, paper.width_mm, paper.height_mm, 0.0, is_back=True)
        face = prepare_face(layout, context, None, None)
    except LayoutError as exc:
        raise CalibrationError(str(exc)) from None
    page = Rect(0, 0, paper.width_mm, paper.height_mm)
    drawer.face(face, page, page)


def _rulers(drawer: PageDrawer) -> None:
    hx, hy = H_RULER_ORIGIN_MM
    vx, vy = V_RULER_ORIGIN_MM
    drawer.line(hx, hy, hx + RULER_MM, hy, "#000000", RULER_STROKE_PT)
    drawer.line(vx, vy, vx, vy + RULER_MM, "#000000", RULER_STROKE_PT)
    for i in range(RULER_MM + 1):
        tick = RULER_TICK_MM[10 if i % 10 == 0 else 5 if i % 5 == 0 else 1]
        drawer.line(hx + i, hy, hx + i, hy + tick, "#000000", RULER_STROKE_PT)
        drawer.line(vx, vy + i, vx + tick, vy + i, "#000000", RULER_STROKE_PT)
        if i % 10 == 0:
            drawer.text(hx + i, hy + RULER_TICK_MM[10] + 3, str(i), LABEL_PT, align="center")
            drawer.text(vx + RULER_TICK_MM[10] + 1, vy + i + 1.2, str(i), LABEL_PT)
    drawer.text(hx + RULER_MM + 5, hy + RULER_TICK_MM[10] + 3, "mm", LABEL_PT)
    drawer.text(vx + RULER_TICK_MM[10] + 1, vy + RULER_MM + 5, "mm", LABEL_PT)


def _card_outline(drawer: PageDrawer, paper: Paper, size: CardSize) -> None:
    x, y = CARD_OUTLINE_MM
    w, h = size.width_mm, size.height_mm
    if x + w + 20 > paper.width_mm or y + h + 10 > paper.height_mm:
        raise CalibrationError(f"a {w:g} x {h:g} mm card outline does not fit the calibration page on "
                               f"{paper.label or paper.name}; use a larger --paper")
    drawer.rect(x, y, w, h, None, "#000000", OUTLINE_STROKE_PT, size.corner_radius_mm)
    drawer.text(x + w / 2, y + h + 5, f"{w:g} mm", LABEL_PT, align="center")
    drawer.text(x + w + 2, y + h / 2 + 1.2, f"{h:g} mm", LABEL_PT)


def _scales(drawer: PageDrawer, t: Target, flip: Flip) -> None:
    """The X scale runs across ``SCALE_GAP_MM`` below the target's centre, the Y scale down
    ``SCALE_GAP_MM`` right of it, each with its 0 level with the centre, so the back's
    crosshair lines cross them without covering their numbers. Numbers sit every 1 mm,
    alternating sides of the scale so that neighbours never overlap at true size."""
    steps = int(SCALE_HALF_MM / SCALE_STEP_MM)
    sx, sy = t.x_mm, t.y_mm + SCALE_GAP_MM      # X scale baseline
    yx, yy = t.x_mm + SCALE_GAP_MM, t.y_mm      # Y scale baseline
    drawer.line(sx - SCALE_HALF_MM, sy, sx + SCALE_HALF_MM, sy, "#000000", SCALE_STROKE_PT)
    drawer.line(yx, yy - SCALE_HALF_MM, yx, yy + SCALE_HALF_MM, "#000000", SCALE_STROKE_PT)
    for k in range(-steps, steps + 1):
        s = k * SCALE_STEP_MM
        whole = s == int(s)
        tick = SCALE_TICK_MM[1 if whole else 0.5]
        drawer.line(sx + s, sy, sx + s, sy + tick, "#000000", SCALE_STROKE_PT)
        drawer.line(yx, yy + s, yx + tick, yy + s, "#000000", SCALE_STROKE_PT)
        if not whole:
            continue
        even = int(s) % 2 == 0
        x_label = f"{correction_label(flip, 'x', s):g}"
        y_label = f"{correction_label(flip, 'y', s):g}"
        drawer.text(sx + s, sy + tick + 2.2 if even else sy - 0.8, x_label, SCALE_LABEL_PT, align="center")
        if even:
            drawer.text(yx + tick + 0.6, yy + s + 0.65, y_label, SCALE_LABEL_PT)
        else:
            drawer.text(yx - 0.6, yy + s + 0.65, y_label, SCALE_LABEL_PT, align="right")
    drawer.text(sx - SCALE_HALF_MM - 1.5, sy + 1.2, "X", SCALE_LABEL_PT + 2, align="right", bold=True)
    drawer.text(yx, yy - SCALE_HALF_MM - 1.5, "Y", SCALE_LABEL_PT + 2, align="center", bold=True)
    # A small centre mark: where the back's crosshair should cross on a perfect printer.
    drawer.line(t.x_mm - 1, t.y_mm, t.x_mm + 1, t.y_mm, "#000000", SCALE_STROKE_PT)
    drawer.line(t.x_mm, t.y_mm - 1, t.x_mm, t.y_mm + 1, "#000000", SCALE_STROKE_PT)


def _crosshair(drawer: PageDrawer, x_mm: float, y_mm: float) -> None:
    drawer.line(x_mm - CROSSHAIR_HALF_MM, y_mm, x_mm + CROSSHAIR_HALF_MM, y_mm, "#000000", CROSSHAIR_STROKE_PT)
    drawer.line(x_mm, y_mm - CROSSHAIR_HALF_MM, x_mm, y_mm + CROSSHAIR_HALF_MM, "#000000", CROSSHAIR_STROKE_PT)


@limits_in_force()  # the project's: its print templates are checked against them
def calibration_pdf(paper: Paper, card_size: CardSize, flip: Flip = "long",
                    templates_dir: Path = LAYOUTS_DIR) -> bytes:
    """The calibration PDF (bytes, reproducible): page 1 rulers and a ``card_size`` outline,
    pages 2-3 the registration test for a ``flip``-edge duplex printer, on portrait ``paper``.

    Raises :class:`CalibrationError` if a template is broken or the outline does not fit.
    """
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, paper.width_mm, paper.height_mm, f"printkit calibration ({paper.label or paper.name})")
    drawer = PageDrawer(canvas, paper.height_mm)
    paper_label = paper.label or paper.name
    _text_page(drawer, paper, templates_dir / CALIBRATION_TEMPLATE, {
        "paper": paper_label, "card_label": card_size.label, "card_w_mm": f"{card_size.width_mm:g}",
        "card_h_mm": f"{card_size.height_mm:g}", "corner_radius_mm": f"{card_size.corner_radius_mm:g}",
        "ruler_mm": RULER_MM})
    _rulers(drawer)
    _card_outline(drawer, paper, card_size)
    canvas.showPage()

    _text_page(drawer, paper, templates_dir / REGISTRATION_TEMPLATE,
               {"paper": paper_label, "flip": flip, "flip_edge": f"{flip} edge"})
    targets = registration_targets(paper)
    for t in targets:
        _scales(drawer, t, flip)
    canvas.showPage()

    for t in targets:
        _crosshair(drawer, *back_position(paper, flip, t.x_mm, t.y_mm))
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
