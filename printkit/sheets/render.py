"""Drawing prepared card faces onto reportlab canvases, and writing PDFs reproducibly."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib.colors import CMYKColor, Color, HexColor, rgb2cmyk, toColor
from reportlab.pdfgen.canvas import Canvas

from printkit.sheets import icons
from printkit.sheets.art import draw_svg, load_svg
from printkit.sheets.fonts import FONT_NAMES, register_fonts
from printkit.sheets.imposition import FoldImposition, Imposition, Rect
from printkit.sheets.layout import (
    BoxRegion,
    Face,
    FittedText,
    Image,
    LineRegion,
    QrCode,
)
from printkit.sheets.qr import QUIET_ZONE_MODULES, dark_runs, qr_matrix
from printkit.sheets.units import pt_from_mm

CROP_MARK_STROKE_PT = 0.25
PLACEHOLDER_FILL = "#ece8e1"
PLACEHOLDER_INK = "#a39d93"


def cmyk_colour(colour) -> CMYKColor:
    """Any reportlab colour (or colour name/hex string) as a :class:`CMYKColor`.

    Greys, black included, become black ink only (no rich black on text and hairlines);
    other RGB colours get reportlab's plain conversion (no ICC profile: a print shop's RIP
    may still adjust). Used as the canvas's ``enforceColorSpace`` so every colour set on the
    page, paragraph text included, is written with the CMYK operators ``k``/``K``.
    """
    c = toColor(colour)
    if isinstance(c, CMYKColor):
        return CMYKColor(c.cyan * c.density, c.magenta * c.density, c.yellow * c.density, c.black * c.density,
                         alpha=c.alpha)
    if not isinstance(c, Color):
        raise ValueError(f"not a colour: {colour!r}")
    if c.red == c.green == c.blue:
        return CMYKColor(0, 0, 0, 1 - c.red, alpha=c.alpha)
    return CMYKColor(*rgb2cmyk(c.red, c.green, c.blue), alpha=c.alpha)


def new_canvas(buffer: io.BytesIO, page_w_mm: float, page_h_mm: float, title: str, cmyk: bool = False) -> Canvas:
    """A canvas writing to ``buffer`` that gives byte-identical PDFs for identical input.

    ``invariant=1`` fixes the dates and document id reportlab would otherwise vary. ``cmyk``
    converts every colour to CMYK as it is set (see :func:`cmyk_colour`); images keep their
    own colour space.
    """
    register_fonts()
    c = Canvas(buffer, pagesize=(pt_from_mm(page_w_mm), pt_from_mm(page_h_mm)), invariant=1,
               pageCompression=1, enforceColorSpace=cmyk_colour if cmyk else None)
    icons.install(c)
    c.setTitle(title)
    c.setCreator("printkit")
    c.setProducer("printkit (reportlab)")
    return c


class PageDrawer:
    """Draws on one page in millimetre coordinates from its top-left corner."""

    def __init__(self, canvas: Canvas, page_h_mm: float):
        self.c = canvas
        self.page_h_mm = page_h_mm
        icons.install(canvas)

    def _y_pt(self, y_mm: float) -> float:
        return pt_from_mm(self.page_h_mm - y_mm)

    def rect(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float, fill: str | None,
             stroke: str | None = None, stroke_pt: float = 0.5, radius_mm: float = 0) -> None:
        c = self.c
        if fill:
            c.setFillColor(HexColor(fill))
        if stroke:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(stroke_pt)
        args = (pt_from_mm(x_mm), self._y_pt(y_mm + h_mm), pt_from_mm(w_mm), pt_from_mm(h_mm))
        if radius_mm > 0:
            c.roundRect(*args, pt_from_mm(radius_mm), stroke=1 if stroke else 0, fill=1 if fill else 0)
        else:
            c.rect(*args, stroke=1 if stroke else 0, fill=1 if fill else 0)

    def line(self, x1_mm: float, y1_mm: float, x2_mm: float, y2_mm: float, colour: str, stroke_pt: float,
             dash_mm: tuple[float, float] | None = None) -> None:
        """A straight line; ``dash_mm`` = (dash, gap) lengths makes it dashed."""
        c = self.c
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(stroke_pt)
        if dash_mm:
            c.saveState()
            c.setDash([pt_from_mm(dash_mm[0]), pt_from_mm(dash_mm[1])])
        c.line(pt_from_mm(x1_mm), self._y_pt(y1_mm), pt_from_mm(x2_mm), self._y_pt(y2_mm))
        if dash_mm:
            c.restoreState()

    def text(self, x_mm: float, y_mm: float, text: str, size_pt: float, colour: str = "#000000",
             align: str = "left", bold: bool = False) -> None:
        """One line of text whose baseline starts (``left``), centres or ends (``right``) at (x_mm, y_mm)."""
        c = self.c
        c.setFillColor(HexColor(colour))
        c.setFont(FONT_NAMES["bold" if bold else "regular"], size_pt)
        draw = {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[align]
        draw(pt_from_mm(x_mm), self._y_pt(y_mm), text)

    def shifted(self, dx_mm: float, dy_mm: float) -> "ShiftedPage":
        """A context in which everything drawn lands ``dx_mm`` right and ``dy_mm`` down of where it is asked for."""
        return ShiftedPage(self.c, dx_mm, dy_mm)

    def clip(self, r: Rect) -> None:
        path = self.c.beginPath()
        path.rect(pt_from_mm(r.x_mm), self._y_pt(r.y_mm + r.h_mm), pt_from_mm(r.w_mm), pt_from_mm(r.h_mm))
        self.c.clipPath(path, stroke=0, fill=0)

    def face(self, face: Face, trim: Rect, clip_to: Rect) -> None:
        """Draw ``face`` with its trim at ``trim``, clipped to ``clip_to`` (trim + bleed where allowed)."""
        c = self.c
        c.saveState()
        self.clip(clip_to)
        if face.layout.spec.background:
            self.rect(clip_to.x_mm, clip_to.y_mm, clip_to.w_mm, clip_to.h_mm, face.layout.spec.background)
        ox, oy = trim.x_mm, trim.y_mm
        for item in face.items:
            if isinstance(item, BoxRegion):
                self.rect(ox + item.x_mm, oy + item.y_mm, item.w_mm, item.h_mm, item.fill, item.stroke,
                          item.stroke_pt, item.radius_mm)
            elif isinstance(item, LineRegion):
                self.line(ox + item.x_mm, oy + item.y_mm, ox + item.x_mm + item.w_mm, oy + item.y_mm + item.h_mm,
                          item.stroke, item.stroke_pt)
            elif isinstance(item, FittedText):
                self._text(item, ox, oy)
            elif isinstance(item, Image):
                self._image(item, ox, oy)
            elif isinstance(item, QrCode):
                self._qr(item, ox, oy)
        c.restoreState()

    def _text(self, t: FittedText, ox_mm: float, oy_mm: float) -> None:
        r = t.region
        top_pt = self._y_pt(oy_mm + r.y_mm)
        spare_pt = pt_from_mm(r.h_mm) - t.height_pt
        if r.valign == "middle":
            top_pt -= spare_pt / 2
        elif r.valign == "bottom":
            top_pt -= spare_pt
        gap = t.size_pt * 0.4
        for i, (para, h) in enumerate(t.paragraphs):
            if i:
                top_pt -= gap
            para.drawOn(self.c, pt_from_mm(ox_mm + r.x_mm), top_pt - h)
            top_pt -= h

    def _image(self, im: Image, ox_mm: float, oy_mm: float) -> None:
        r = im.region
        x, y = ox_mm + r.x_mm, oy_mm + r.y_mm
        if im.path is None:
            self.rect(x, y, r.w_mm, r.h_mm, PLACEHOLDER_FILL, PLACEHOLDER_INK, 0.4)
            # Two thin diagonals: the usual "picture goes here" mark, clean and obviously a placeholder.
            self.line(x, y, x + r.w_mm, y + r.h_mm, PLACEHOLDER_INK, 0.3)
            self.line(x, y + r.h_mm, x + r.w_mm, y, PLACEHOLDER_INK, 0.3)
            return
        dx, dy, w, h = im.placed_mm or (0.0, 0.0, r.w_mm, r.h_mm)
        c = self.c
        cropped = dx < -1e-6 or dy < -1e-6 or w > r.w_mm + 1e-6 or h > r.h_mm + 1e-6
        if cropped:
            c.saveState()
            self.clip(Rect(x, y, r.w_mm, r.h_mm))
        box = (pt_from_mm(x + dx), self._y_pt(y + dy + h), pt_from_mm(w), pt_from_mm(h))
        if im.art is not None and im.art.kind == "svg":
            draw_svg(c, load_svg(im.path, im.path.parent), f"pkart-{im.art.digest}", *box)
        else:
            # By file name, not ImageReader: reportlab then stores a shared image once per PDF.
            c.drawImage(str(im.path), *box, mask="auto")
        if cropped:
            c.restoreState()

    def _qr(self, q: QrCode, ox_mm: float, oy_mm: float) -> None:
        r = q.region
        matrix = qr_matrix(q.payload)
        n = len(matrix) + 2 * QUIET_ZONE_MODULES
        module_mm = r.size_mm / n
        x0, y0 = ox_mm + r.x_mm, oy_mm + r.y_mm
        self.rect(x0, y0, r.size_mm, r.size_mm, "#ffffff")
        c = self.c
        c.setFillColor(HexColor("#000000"))
        path = c.beginPath()
        q0 = QUIET_ZONE_MODULES * module_mm
        m_pt = pt_from_mm(module_mm)
        for row, col, length in dark_runs(matrix):
            x = x0 + q0 + col * module_mm
            y = y0 + q0 + (row + 1) * module_mm
            path.rect(pt_from_mm(x), self._y_pt(y), length * m_pt, m_pt)
        c.drawPath(path, stroke=0, fill=1)

    def crop_marks(self, imp: Imposition | FoldImposition) -> None:
        """The imposition's crop marks, hairlines of ``CROP_MARK_STROKE_PT``."""
        for m in imp.crop_marks():
            self.line(m.x1_mm, m.y1_mm, m.x2_mm, m.y2_mm, "#000000", CROP_MARK_STROKE_PT)


class ShiftedPage:
    """``with drawer.shifted(dx_mm, dy_mm):`` translates the canvas, exactly, for the block."""

    def __init__(self, canvas: Canvas, dx_mm: float, dy_mm: float):
        self.c, self.dx_mm, self.dy_mm = canvas, dx_mm, dy_mm

    def __enter__(self) -> None:
        self.c.saveState()
        # PDF y grows upward, page millimetres downward.
        self.c.translate(pt_from_mm(self.dx_mm), -pt_from_mm(self.dy_mm))

    def __exit__(self, *exc) -> None:
        self.c.restoreState()


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and an atomic rename,
    so a reader (or a crash) never sees a half-written file. Raises ``OSError``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        tmp.replace(path)
    finally:
        if tmp.exists():
            tmp.unlink()
