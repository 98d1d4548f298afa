"""Drawing prepared card faces onto reportlab canvases, and writing PDFs reproducibly."""

from __future__ import annotations

import io
import weakref
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from reportlab import rl_config
from reportlab.lib.colors import CMYKColor, Color, HexColor, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFDate, PDFDictionary, PDFInfo, PDFName, PDFString
from reportlab.pdfgen.canvas import Canvas

from printkit.sheets.text import icons
from printkit.sheets.artwork.art import draw_svg, load_svg
from printkit.sheets.artwork.art_prints import PrintImage, art_prints_dpi, draw_print_image, prepare_art, print_plan
from printkit.sheets.prepress.colour import cmyk_from_rgb, cmyk_image
from printkit.sheets.text.fonts import FONT_NAMES, register_fonts, register_italic
from printkit.sheets.prepress.imposition import FoldImposition, Imposition, Rect
from printkit.sheets.templating.layout import (
    BoxRegion,
    Face,
    FittedText,
    Image,
    LineRegion,
    QrCode,
)
from printkit.sheets.qr import QUIET_ZONE_MODULES, qr_fill_operators, qr_size
from printkit.sheets.text.text_lines import SetParagraph, draw_paragraphs
from printkit.sheets.units import pt_from_mm

if TYPE_CHECKING:
    from card_data.schema import GameInfo

CROP_MARK_STROKE_PT = 0.25
PLACEHOLDER_FILL = "#ece8e1"
PLACEHOLDER_INK = "#a39d93"
QR_DARK = HexColor("#000000")
QR_LIGHT = HexColor("#ffffff")

QR_LABEL_MAX_PT = 5.0
"""Largest size of the version label printed with a card's QR code (small type: it tells copies
apart, it is not for reading at the table)."""
QR_LABEL_MIN_PT = 3.5
"""Below this the label would not print legibly: it is left out (the QR code still has it)."""
QR_LABEL_GAP_MM = 0.15
"""Space kept between the label's digits and the symbol above it and the region's edge below."""
QR_LABEL_EM_HEIGHT = 0.76
"""Height of the label's tallest glyph (digits, ``v``) in ems of the bundled DejaVu Sans, with a little room."""
QR_LABEL_COLOUR = "#000000"


@lru_cache(maxsize=1024)
def _colour(hex_colour: str) -> Color:
    """``#rrggbb`` as a reportlab colour, parsed once per build rather than once per use."""
    return HexColor(hex_colour)


def cmyk_colour(colour) -> CMYKColor:
    """Any reportlab colour (or colour name/hex string) as a :class:`CMYKColor`.

    Greys, black included, become black ink only: text and hairlines printed in one ink stay
    sharp whatever the press's registration, where a profile would build them from four. Other
    RGB colours are read as sRGB and converted through the FOGRA39 profile
    (:func:`printkit.sheets.prepress.colour.cmyk_from_rgb`, littlecms). Used as the canvas's
    ``enforceColorSpace`` so every colour set on the page, paragraph text included, is written
    with the CMYK operators ``k``/``K``. Raises ``ValueError`` for something not a colour.
    """
    c = toColor(colour)
    if isinstance(c, CMYKColor):
        return CMYKColor(c.cyan * c.density, c.magenta * c.density, c.yellow * c.density, c.black * c.density,
                         alpha=c.alpha)
    if not isinstance(c, Color):
        raise ValueError(f"not a colour: {colour!r}")
    if c.red == c.green == c.blue:
        return CMYKColor(0, 0, 0, 1 - c.red, alpha=c.alpha)
    return CMYKColor(*cmyk_from_rgb(*(round(v * 255) for v in (c.red, c.green, c.blue))), alpha=c.alpha)


@dataclass(frozen=True)
class DocInfo:
    """What a PDF says about itself (its document information and, for PDF/X, XMP metadata).

    ``author``: the game's designers, or its publisher; ``None`` leaves the entry out (never
    "anonymous"). ``subject``: a sentence on what the file is for.
    """

    title: str
    author: str | None = None
    subject: str | None = None

    @classmethod
    def for_game(cls, game: GameInfo, component: str) -> DocInfo:
        """The information of the file of ``component`` (e.g. ``"tokens"``, ``"Character deck"``)
        of ``game`` (a :class:`card_data.schema.GameInfo`): title ``"<game> – <component>"``,
        author its ``designers`` (else its ``publisher``), subject ``"<game>: <component> for print"``."""
        author = ", ".join(game.designers) if game.designers else game.publisher
        return cls(f"{game.title} – {component}", author or None, f"{game.title}: {component} for print")


@dataclass(frozen=True)
class PdfOutput:
    """How a PDF's colours are written, and to which standard.

    ``colour``: ``"rgb"`` (the default, for home printers), ``"cmyk"`` (every colour converted
    to FOGRA39 CMYK, see :func:`cmyk_colour`; artwork stays as it is) or ``"pdfx"`` (colours
    and artwork converted, the file finished as PDF/X-4 with the profile as its OutputIntent,
    see :mod:`printkit.sheets.prepress.pdfx`).
    """

    colour: Literal["rgb", "cmyk", "pdfx"] = "rgb"

    @classmethod
    def of(cls, cmyk: bool = False, pdfx: bool = False) -> PdfOutput:
        """From a command's ``--cmyk`` and ``--pdfx`` flags (``--pdfx`` implies CMYK)."""
        return cls("pdfx" if pdfx else "cmyk" if cmyk else "rgb")

    @property
    def cmyk(self) -> bool:
        return self.colour != "rgb"

    @property
    def pdfx(self) -> bool:
        return self.colour == "pdfx"


RGB = PdfOutput()


class PrintCanvas(Canvas):
    """A reportlab canvas that knows its :class:`PdfOutput`, leaves out document information
    it was not given, and with ``pdfx`` finishes the file as PDF/X-4 when saved."""

    def __init__(self, *args, output: PdfOutput = RGB, **kwargs):
        super().__init__(*args, **kwargs)
        self.pdf_output = output
        self._doc.info = _Info()

    def setAuthor(self, author: str | None) -> None:
        self._doc.info.author = author

    def setSubject(self, subject: str | None) -> None:
        self._doc.info.subject = subject

    def setKeywords(self, keywords) -> None:
        self._doc.info.keywords = ", ".join(keywords) if isinstance(keywords, (list, tuple)) else keywords

    def save(self) -> None:
        target = self._filename
        start = target.tell() if self.pdf_output.pdfx and hasattr(target, "tell") else 0
        super().save()
        if not self.pdf_output.pdfx:
            return
        from printkit.sheets.prepress.pdfx import finish_pdfx

        if hasattr(target, "write"):
            target.seek(start)
            data = finish_pdfx(target.read())
            target.seek(start)
            target.truncate()
            target.write(data)
        else:
            path = Path(target)
            path.write_bytes(finish_pdfx(path.read_bytes()))


class _Info(PDFInfo):
    """Document information without the entries reportlab would fill with "anonymous" or
    "unspecified": a preflight shows those as if they were the designer's words."""

    author = None
    subject = None
    keywords = None

    def format(self, document):
        d = {"Title": PDFString(self.title), "Creator": PDFString(self.creator),
             "Producer": PDFString(self.producer)}
        for key, value in (("Author", self.author), ("Subject", self.subject), ("Keywords", self.keywords)):
            if value:
                d[key] = PDFString(value)
        d["ModDate"] = d["CreationDate"] = PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        d["Trapped"] = PDFName(self.trapped)
        return PDFDictionary(d).format(document)


def canvas_maker(info: DocInfo, output: PdfOutput = RGB):
    """A ``canvasmaker`` for platypus's ``DocTemplate.build``: the document's canvas made as
    :func:`new_canvas` makes one (embedded initial font, reproducible, ``output``'s colours,
    ``info``), at the page size and compression the template asks for."""
    def make(filename, **kwargs):
        register_italic()  # a document's paragraphs may say <i>
        rl_config.useA85 = 0
        kwargs.update(invariant=1, enforceColorSpace=cmyk_colour if output.cmyk else None,
                      initialFontName=FONT_NAMES["regular"])
        c = PrintCanvas(filename, output=output, **kwargs)
        _set_info(c, info)
        w_pt, h_pt = c._pagesize
        c.setTrimBox((0, 0, w_pt, h_pt))
        c.setBleedBox((0, 0, w_pt, h_pt))
        return c

    return make


CREATOR = "printkit"
PRODUCER = "printkit (reportlab)"


def _set_info(c: Canvas, info: DocInfo) -> None:
    c.setTitle(info.title)
    c.setAuthor(info.author)
    c.setSubject(info.subject)
    c.setCreator(CREATOR)
    c.setProducer(PRODUCER)


def new_canvas(buffer: io.BytesIO, page_w_mm: float, page_h_mm: float, info: DocInfo | str,
               output: PdfOutput = RGB, trim: Rect | None = None, bleed: Rect | None = None) -> PrintCanvas:
    """A canvas writing to ``buffer`` that gives byte-identical PDFs for identical input.

    ``info``: the document information (a plain string is a title alone). ``invariant=1``
    fixes the dates and document id reportlab would otherwise vary. ``output``: RGB, CMYK
    colours (see :func:`cmyk_colour`) or PDF/X-4 (also artwork converted, the file finished by
    :mod:`printkit.sheets.prepress.pdfx` on ``save()``). ``trim`` and ``bleed``: the TrimBox and
    BleedBox of every page, in mm from the page's top-left corner (default: the whole page),
    as print shops check bleed against them. The initial font is the bundled, embedded
    DejaVu Sans: reportlab's default (Helvetica, never embedded) would be named in every page's
    resources though never drawn, and preflight flags it as a missing font. Streams are
    Flate-compressed without ASCII85 (reportlab's ``rl_config.useA85``, a process-wide setting
    read when the PDF is saved): ASCII85 only makes binary streams 7-bit safe, which no printer
    or viewer needs, at 25 % more bytes.
    """
    if isinstance(info, str):
        info = DocInfo(info)
    rl_config.useA85 = 0
    register_fonts()
    c = PrintCanvas(buffer, pagesize=(pt_from_mm(page_w_mm), pt_from_mm(page_h_mm)), invariant=1,
                    pageCompression=1, enforceColorSpace=cmyk_colour if output.cmyk else None,
                    initialFontName=FONT_NAMES["regular"], output=output)
    icons.install(c)
    _set_info(c, info)
    page = Rect(0, 0, page_w_mm, page_h_mm)
    set_page_boxes(c, page_h_mm, trim or page, bleed or page)
    return c


def set_page_boxes(c: Canvas, page_h_mm: float, trim: Rect, bleed: Rect) -> None:
    """Give this page and those after it ``trim`` as TrimBox and ``bleed`` as BleedBox (mm from
    the page's top-left corner; ``bleed`` is clipped to the page, as PDF requires)."""
    def box(r: Rect) -> tuple[float, float, float, float]:
        return (pt_from_mm(r.x_mm), pt_from_mm(page_h_mm - r.y_mm - r.h_mm), pt_from_mm(r.x_mm + r.w_mm),
                pt_from_mm(page_h_mm - r.y_mm))

    w_pt = c._pagesize[0]
    x0, y0, x1, y1 = box(bleed)
    c.setTrimBox(box(trim))
    c.setBleedBox((max(0.0, x0), max(0.0, y0), min(w_pt, x1), min(pt_from_mm(page_h_mm), y1)))


class PageDrawer:
    """Draws on one page in millimetre coordinates from its top-left corner."""

    def __init__(self, canvas: Canvas, page_h_mm: float):
        self.c = canvas
        self.page_h_mm = page_h_mm
        icons.install(canvas)
        # Form XObjects already defined in this canvas's document, shared by every drawer of it.
        self._forms = _FORMS.setdefault(canvas, _Forms())

    def _y_pt(self, y_mm: float) -> float:
        return pt_from_mm(self.page_h_mm - y_mm)

    def rect(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float, fill: str | None,
             stroke: str | None = None, stroke_pt: float = 0.5, radius_mm: float = 0) -> None:
        c = self.c
        if fill:
            c.setFillColor(_colour(fill))
        if stroke:
            c.setStrokeColor(_colour(stroke))
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
        c.setStrokeColor(_colour(colour))
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
        c.setFillColor(_colour(colour))
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

    def face(self, face: Face, trim: Rect, clip_to: Rect, shared: bool = False) -> None:
        """Draw ``face`` with its trim at ``trim``, clipped to ``clip_to`` (trim + bleed where allowed).

        ``shared``: the same ``face`` object is drawn many times in this PDF (a deck's back):
        it is then drawn once, as a Form XObject, and each call places that form (a clip, a
        ``cm`` and a ``Do``), which keeps pages small and fast to write and to print.
        """
        c = self.c
        if shared:
            form = self._forms.for_face(self, face, trim, clip_to)
            if form is not None:
                name, origin = form
                c.saveState()
                self.clip(clip_to)
                c.translate(pt_from_mm(trim.x_mm - origin.x_mm), -pt_from_mm(trim.y_mm - origin.y_mm))
                c.doForm(name)
                c.restoreState()
                return
        c.saveState()
        self.clip(clip_to)
        if face.layout.spec.background:
            self.rect(clip_to.x_mm, clip_to.y_mm, clip_to.w_mm, clip_to.h_mm, face.layout.spec.background)
        self._items(face, trim)
        c.restoreState()

    def _items(self, face: Face, trim: Rect) -> None:
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

    def _text(self, t: FittedText, ox_mm: float, oy_mm: float) -> None:
        r = t.region
        top_pt = self._y_pt(oy_mm + r.y_mm)
        spare_pt = pt_from_mm(r.h_mm) - t.height_pt
        if r.valign == "middle":
            top_pt -= spare_pt / 2
        elif r.valign == "bottom":
            top_pt -= spare_pt
        gap = t.size_pt * 0.4
        x_pt = pt_from_mm(ox_mm + r.x_mm)
        placed = []  # printkit's own lines, drawn together with one text object
        for i, (para, h) in enumerate(t.paragraphs):
            if i:
                top_pt -= gap
            if isinstance(para, SetParagraph):
                placed.append((para, x_pt, top_pt))
            else:
                para.drawOn(self.c, x_pt, top_pt - h)
            top_pt -= h
        if placed:
            draw_paragraphs(self.c, placed, _colour(r.color))

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
        dpi = art_prints_dpi()
        printed = None
        if dpi is not None and im.art is not None and im.art.kind == "raster":
            # At print resolution, only the pixels the box shows (see printkit.sheets.artwork.art_prints).
            plan = print_plan(im.art, r.w_mm, r.h_mm, (dx, dy, w, h), dpi)
            printed = prepare_art(im.art, plan)
            dx, dy, w, h = plan.rect_mm
        cropped = dx < -1e-6 or dy < -1e-6 or dx + w > r.w_mm + 1e-6 or dy + h > r.h_mm + 1e-6
        if cropped:
            c.saveState()
            self.clip(Rect(x, y, r.w_mm, r.h_mm))
        box = (pt_from_mm(x + dx), self._y_pt(y + dy + h), pt_from_mm(w), pt_from_mm(h))
        if im.art is not None and im.art.kind == "svg":
            draw_svg(c, load_svg(im.path, im.path.parent), f"pkart-{im.art.digest}", *box)
        elif getattr(c, "pdf_output", RGB).pdfx:
            c.drawImage(_cmyk_art(printed or str(im.path)), *box, mask="auto")
        elif printed is not None:
            draw_print_image(c, printed, *box)
        else:
            # By file name, not ImageReader: reportlab then stores a shared image once per PDF.
            c.drawImage(str(im.path), *box, mask="auto")
        if cropped:
            c.restoreState()

    def _qr(self, q: QrCode, ox_mm: float, oy_mm: float) -> None:
        r = q.region
        n = qr_size(q.payload) + 2 * QUIET_ZONE_MODULES
        module_pt = pt_from_mm(r.size_mm / n)
        quiet_pt = QUIET_ZONE_MODULES * module_pt
        c = self.c
        c.saveState()
        # One transform into module units, origin at the symbol's top-left corner and y down as
        # in the matrix: every rectangle is then whole numbers, short to write and exact.
        c.transform(module_pt, 0, 0, -module_pt, pt_from_mm(ox_mm + r.x_mm) + quiet_pt,
                    self._y_pt(oy_mm + r.y_mm) - quiet_pt)
        c.setFillColor(QR_LIGHT)
        c.rect(-QUIET_ZONE_MODULES, -QUIET_ZONE_MODULES, n, n, stroke=0, fill=1)
        c.setFillColor(QR_DARK)
        c.addLiteral(qr_fill_operators(q.payload))
        c.restoreState()
        if q.label:
            self._qr_label(q, ox_mm, oy_mm, r.size_mm / n * QUIET_ZONE_MODULES)

    def _qr_label(self, q: QrCode, ox_mm: float, oy_mm: float, quiet_mm: float) -> None:
        """``q.label`` (the card's version, ``"v2"``) in small type, in the bottom band of the QR
        region's quiet zone, right-aligned at the region's bottom-right corner.

        Templates do not extend a shared base, and the QR region is the one place every front
        has that no other region uses, inside the safe area: so the label goes there. Its
        corner is the one without a finder pattern (which scanners look for first), and the
        text stays within the band, at most :data:`QR_LABEL_MAX_PT` and small enough that its
        digits (about 0.73 em high) keep :data:`QR_LABEL_GAP_MM` from the symbol and the edge;
        the card sheet tests decode every bundled code from 150 dpi renders with the label on.
        """
        r = q.region
        size_pt = min(QR_LABEL_MAX_PT, pt_from_mm(quiet_mm - 2 * QR_LABEL_GAP_MM) / QR_LABEL_EM_HEIGHT)
        if size_pt < QR_LABEL_MIN_PT:
            return  # a region this small has no room: the version is still in the QR code
        c = self.c
        c.setFillColor(_colour(QR_LABEL_COLOUR))
        c.setFont(q.label_font, size_pt)  # the card's own regular face: no extra font in the PDF
        c.drawRightString(pt_from_mm(ox_mm + r.x_mm + r.size_mm - QR_LABEL_GAP_MM),
                          self._y_pt(oy_mm + r.y_mm + r.size_mm - QR_LABEL_GAP_MM), q.label)

    def crop_marks(self, imp: Imposition | FoldImposition) -> None:
        """The imposition's crop marks, hairlines of ``CROP_MARK_STROKE_PT``.

        The same marks on every page of a PDF: drawn once as a Form XObject, placed per page.
        """
        marks = tuple(imp.crop_marks())
        name = self._forms.names.get(marks)
        if name is None:
            name = self._forms.new_name("pkmarks")
            c = self.c
            c.beginForm(name)  # bounding box: the page
            for m in marks:
                self.line(m.x1_mm, m.y1_mm, m.x2_mm, m.y2_mm, "#000000", CROP_MARK_STROKE_PT)
            c.endForm()
            self._forms.names[marks] = name
        self.c.doForm(name)


class _CmykReader(ImageReader):
    """An image already converted to CMYK, its alpha (if any) kept for reportlab's soft mask.

    Holds the pixel bytes only (not the Pillow image too), as a build may keep several."""

    def __init__(self, cmyk, alpha):
        super().__init__(cmyk)
        self._width, self._height = cmyk.size
        self._dataA = ImageReader(alpha) if alpha is not None else None
        self.mode = "CMYK"
        self._data = cmyk.tobytes()
        self._image = None

    def getRGBData(self):  # reportlab's name; it returns whatever the image's colour space holds
        return self._data

    def getTransparent(self):
        return None  # transparency is the soft mask (``_dataA``)


@lru_cache(maxsize=32)
def _cmyk_art(source_art: str | PrintImage) -> ImageReader:
    """The artwork at ``source_art`` (a path, or art at print resolution) converted to FOGRA39
    CMYK once per process (PDF/X-4 output allows no RGB image under a CMYK OutputIntent);
    reportlab then stores it once per PDF, by its data's digest. Raises ``OSError`` if it
    cannot be read."""
    from PIL import Image as PILImage

    if isinstance(source_art, PrintImage):
        source_art = io.BytesIO(source_art.read())
    with PILImage.open(source_art) as source:
        source.load()
        cmyk, alpha = cmyk_image(source)
    return _CmykReader(cmyk, alpha)


class _Forms:
    """The Form XObjects of one canvas: names in order of definition (reproducible bytes), and
    the shared faces and crop-mark sets already drawn as forms."""

    def __init__(self) -> None:
        self.names: dict[object, str] = {}
        self._faces: dict[int, tuple[Face, str, Rect, Rect]] = {}  # id(face) -> (face kept alive, name, origin, box)

    def new_name(self, prefix: str) -> str:
        return f"{prefix}{len(self.names) + len(self._faces) + 1}"

    def for_face(self, drawer: PageDrawer, face: Face, trim: Rect, clip_to: Rect) -> tuple[str, Rect] | None:
        """``(form name, the trim the form was drawn at)`` for ``face``, defining the form on first
        use; ``None`` when ``clip_to`` reaches past the form's box (then draw it directly)."""
        known = self._faces.get(id(face))
        if known is None:
            # The form holds the face with the widest bleed this first placement shows on any side
            # (the first slot of a sheet is at its corner, so: the full bleed) all round; each
            # placement clips it to its own bleed box.
            margin_mm = max(0.0, trim.x_mm - clip_to.x_mm, trim.y_mm - clip_to.y_mm,
                            clip_to.x_mm + clip_to.w_mm - trim.x_mm - trim.w_mm,
                            clip_to.y_mm + clip_to.h_mm - trim.y_mm - trim.h_mm)
            box = Rect(trim.x_mm - margin_mm, trim.y_mm - margin_mm, trim.w_mm + 2 * margin_mm,
                       trim.h_mm + 2 * margin_mm)
            name = self.new_name("pkface")
            c = drawer.c
            c.beginForm(name, pt_from_mm(box.x_mm), drawer._y_pt(box.y_mm + box.h_mm),
                        pt_from_mm(box.x_mm + box.w_mm), drawer._y_pt(box.y_mm))
            if face.layout.spec.background:
                drawer.rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, face.layout.spec.background)
            drawer._items(face, trim)
            c.endForm()
            known = self._faces[id(face)] = (face, name, trim, box)
        _, name, origin, box = known
        dx, dy = trim.x_mm - origin.x_mm, trim.y_mm - origin.y_mm
        eps = 1e-6
        if (clip_to.x_mm < box.x_mm + dx - eps or clip_to.y_mm < box.y_mm + dy - eps
                or clip_to.x_mm + clip_to.w_mm > box.x_mm + dx + box.w_mm + eps
                or clip_to.y_mm + clip_to.h_mm > box.y_mm + dy + box.h_mm + eps):
            return None
        return name, origin


_FORMS: weakref.WeakKeyDictionary[Canvas, _Forms] = weakref.WeakKeyDictionary()


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
