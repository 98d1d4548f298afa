"""Tiling: printing a board larger than the paper as overlapping pieces that are glued together.

A board (``board_w_mm`` x ``board_h_mm``, y downward from its top-left corner) is cut into a
grid of equal windows ("pieces"). Neighbouring pieces share an overlap band of
``overlap_mm``: the later piece (to the right, or below) prints that band as a shaded
**glue tab** that goes under the earlier piece. **Alignment marks** (crosshairs) sit in each
overlap band at the same board positions on both pieces, so they coincide when the pieces are
assembled (push a pin through the upper piece's crosshair into the lower one's). Pieces are
numbered row by row from 1; each is labelled and an **assembly page** (page 1) shows the order.

All lengths are millimetres; page positions are from the page's top-left corner.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass

from printkit.sheets.text.fonts import BOLD
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.prepress.paper import Paper
from printkit.sheets.render import RGB, DocInfo, PageDrawer, PdfOutput, new_canvas
from printkit.sheets.templating.sheet_templates import draw_text
from printkit.sheets.units import pt_from_mm

TILE_OVERLAP_MM = 10.0
"""Overlap between neighbouring pieces: the width of the glue tab and of the band holding the marks."""
PAGE_MARGIN_MM = 10.0
"""Unprinted margin kept on every side of the page (most printers cannot print to the edge)."""
LABEL_BAND_MM = 9.0
"""Space above each piece for its label ("piece 2 of 4 ...")."""
PIECE_GAP_MM = 6.0
"""Gap between two pieces sharing a page, so their cut lines are separate cuts."""
MARK_ARM_MM = 3.0
"""Half the length of a crosshair's arms; its circle has two thirds of this radius."""
MARK_INSET_FRACTION = 0.25
"""Marks sit this fraction of the shared edge's length in from each end (away from the corners)."""

CUT_LINE_STROKE_PT = 0.6
"""Stroke of a piece's cut outline (tests find pieces by it; board templates use other widths)."""
ALIGN_MARK_STROKE_PT = 0.35
"""Stroke of the alignment crosshairs."""
HATCH_STROKE_PT = 0.3
GLUE_HATCH_COLOUR = "#b8b8b8"
INK = "#000000"

DrawBoard = Callable[[PageDrawer, float, float, Rect], None]
"""``draw_board(drawer, origin_x_mm, origin_y_mm, clip)``: draw the whole board with its top-left
corner at the given page position, clipped to ``clip`` (page coordinates)."""


@dataclass(frozen=True)
class Piece:
    """One piece: ``number`` (1-based, row by row), grid ``row``/``col`` (0-based), and its
    ``window`` in board coordinates (mm)."""

    number: int
    row: int
    col: int
    window: Rect


@dataclass(frozen=True)
class Tiling:
    """How a board is split: ``rows`` x ``cols`` equal pieces overlapping by ``overlap_mm``,
    placed ``per_page`` to a page of ``page_w_mm`` x ``page_h_mm`` (the paper, possibly turned
    to landscape). Build with :func:`plan_tiling`."""

    board_w_mm: float
    board_h_mm: float
    overlap_mm: float
    rows: int
    cols: int
    page_w_mm: float
    page_h_mm: float
    across: int
    down: int

    @property
    def window_w_mm(self) -> float:
        return (self.board_w_mm + (self.cols - 1) * self.overlap_mm) / self.cols

    @property
    def window_h_mm(self) -> float:
        return (self.board_h_mm + (self.rows - 1) * self.overlap_mm) / self.rows

    @property
    def per_page(self) -> int:
        return self.across * self.down

    @property
    def pieces(self) -> list[Piece]:
        w, h, ov = self.window_w_mm, self.window_h_mm, self.overlap_mm
        return [Piece(r * self.cols + c + 1, r, c, Rect(c * (w - ov), r * (h - ov), w, h))
                for r in range(self.rows) for c in range(self.cols)]

    @property
    def pages(self) -> int:
        """Pages of pieces (the assembly page not counted)."""
        return math.ceil(self.rows * self.cols / self.per_page)

    def piece_slot(self, piece: Piece) -> tuple[int, Rect]:
        """``(page index from 0, the piece's window on that page)``; pieces fill pages in order,
        row by row, centred on the page."""
        page, slot = divmod(piece.number - 1, self.per_page)
        row, col = divmod(slot, self.across)
        w, h = self.window_w_mm, self.window_h_mm
        block_w = self.across * w + (self.across - 1) * PIECE_GAP_MM
        block_h = self.down * (h + LABEL_BAND_MM) + (self.down - 1) * PIECE_GAP_MM
        x0 = (self.page_w_mm - block_w) / 2
        y0 = (self.page_h_mm - block_h) / 2
        return page, Rect(x0 + col * (w + PIECE_GAP_MM), y0 + row * (h + LABEL_BAND_MM + PIECE_GAP_MM) + LABEL_BAND_MM,
                          w, h)

    def marks(self) -> list[tuple[float, float]]:
        """Centres of the alignment crosshairs in board coordinates: two in the middle of each
        overlap band between two neighbouring pieces."""
        out: list[tuple[float, float]] = []
        for p in self.pieces:
            win = p.window
            if p.col + 1 < self.cols:  # band shared with the piece to the right
                x = win.x_mm + win.w_mm - self.overlap_mm / 2
                out += [(x, win.y_mm + win.h_mm * f) for f in (MARK_INSET_FRACTION, 1 - MARK_INSET_FRACTION)]
            if p.row + 1 < self.rows:  # band shared with the piece below
                y = win.y_mm + win.h_mm - self.overlap_mm / 2
                out += [(win.x_mm + win.w_mm * f, y) for f in (MARK_INSET_FRACTION, 1 - MARK_INSET_FRACTION)]
        return out

    def glue_under(self, piece: Piece) -> list[int]:
        """Numbers of the pieces this piece's glue tabs go under (the one left of it, the one above)."""
        out = []
        if piece.col > 0:
            out.append(piece.number - 1)
        if piece.row > 0:
            out.append(piece.number - self.cols)
        return out


def _count(length_mm: float, avail_mm: float, overlap_mm: float) -> int:
    if length_mm <= avail_mm + 1e-9:
        return 1
    return math.ceil((length_mm - overlap_mm) / (avail_mm - overlap_mm) - 1e-9)


def plan_tiling(board_w_mm: float, board_h_mm: float, paper: Paper, overlap_mm: float = TILE_OVERLAP_MM) -> Tiling:
    """Split a board into as few pages of ``paper`` as possible, trying portrait and landscape.

    Each piece fits within the page less ``PAGE_MARGIN_MM`` on every side and a
    ``LABEL_BAND_MM`` label; several pieces share a page when they fit. Portrait wins ties.
    Raises ``ValueError`` if the overlap leaves no room for a piece (overlap too large).
    """
    best: Tiling | None = None
    for page_w, page_h in ((paper.width_mm, paper.height_mm), (paper.height_mm, paper.width_mm)):
        avail_w = page_w - 2 * PAGE_MARGIN_MM
        avail_h = page_h - 2 * PAGE_MARGIN_MM - LABEL_BAND_MM
        if avail_w <= 2 * overlap_mm or avail_h <= 2 * overlap_mm:
            raise ValueError(f"a {overlap_mm} mm overlap leaves no room for a piece on {paper.name}")
        cols = _count(board_w_mm, avail_w, overlap_mm)
        rows = _count(board_h_mm, avail_h, overlap_mm)
        t = Tiling(board_w_mm, board_h_mm, overlap_mm, rows, cols, page_w, page_h, 1, 1)
        across = max(1, int((avail_w + PIECE_GAP_MM) // (t.window_w_mm + PIECE_GAP_MM)))
        down = max(1, int((avail_h + LABEL_BAND_MM + PIECE_GAP_MM) // (t.window_h_mm + LABEL_BAND_MM + PIECE_GAP_MM)))
        t = Tiling(board_w_mm, board_h_mm, overlap_mm, rows, cols, page_w, page_h,
                   min(across, rows * cols), min(down, math.ceil(rows * cols / min(across, rows * cols))))
        if best is None or t.pages < best.pages:
            best = t
    assert best is not None
    return best


def _crosshair(drawer: PageDrawer, x_mm: float, y_mm: float) -> None:
    drawer.line(x_mm - MARK_ARM_MM, y_mm, x_mm + MARK_ARM_MM, y_mm, INK, ALIGN_MARK_STROKE_PT)
    drawer.line(x_mm, y_mm - MARK_ARM_MM, x_mm, y_mm + MARK_ARM_MM, INK, ALIGN_MARK_STROKE_PT)
    c = drawer.c
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(ALIGN_MARK_STROKE_PT)
    c.circle(pt_from_mm(x_mm), drawer._y_pt(y_mm), pt_from_mm(MARK_ARM_MM * 2 / 3), stroke=1, fill=0)


def _hatch(drawer: PageDrawer, band: Rect) -> None:
    """Diagonal hatching over a glue tab, clipped to it."""
    c = drawer.c
    c.saveState()
    drawer.clip(band)
    step = 3.0
    n = int((band.w_mm + band.h_mm) / step) + 1
    for i in range(n):
        x = band.x_mm + i * step
        drawer.line(x, band.y_mm, x - band.h_mm, band.y_mm + band.h_mm, GLUE_HATCH_COLOUR, HATCH_STROKE_PT)
    c.restoreState()


def piece_label(title: str, piece: Piece, tiling: Tiling) -> str:
    """The label printed above a piece, e.g.
    "Battlefield lane – piece 2 of 3 · glue its shaded tab under piece 1"."""
    total = tiling.rows * tiling.cols
    under = tiling.glue_under(piece)
    if under:
        where = " and ".join(f"piece {n}" for n in under)
        tail = f"glue its shaded tab under {where}"
    else:
        tail = "lies on top: no glue tab"
    grid = f" (row {piece.row + 1}, column {piece.col + 1})" if tiling.rows > 1 and tiling.cols > 1 else ""
    return f"{title} – piece {piece.number} of {total}{grid} · {tail}"


def render_tiled(title: str, notes: str, board_w_mm: float, board_h_mm: float, draw_board: DrawBoard,
                 paper: Paper, overlap_mm: float = TILE_OVERLAP_MM, output: PdfOutput = RGB,
                 info: DocInfo | None = None) -> bytes:
    """A PDF of a board printed in pieces: an assembly page, then the pieces.

    ``title``: the board's name (labels, PDF title). ``notes``: extra instructions for the
    assembly page (e.g. how many copies to print). ``draw_board`` draws the board (see
    :data:`DrawBoard`). ``output``: RGB, CMYK or PDF/X-4; ``info``: the document information
    (default: ``title`` alone). Returns the PDF bytes (reproducible). Raises ``ValueError`` as
    :func:`plan_tiling` does.
    """
    tiling = plan_tiling(board_w_mm, board_h_mm, paper, overlap_mm)
    buf = io.BytesIO()
    c = new_canvas(buf, tiling.page_w_mm, tiling.page_h_mm, info or DocInfo(title), output)
    drawer = PageDrawer(c, tiling.page_h_mm)
    _assembly_page(drawer, title, notes, tiling, draw_board)
    c.showPage()
    pieces = tiling.pieces
    marks = tiling.marks()
    for page in range(tiling.pages):
        for piece in pieces:
            page_of, slot = tiling.piece_slot(piece)
            if page_of != page:
                continue
            _draw_piece(drawer, title, piece, slot, tiling, marks, draw_board)
        c.showPage()
    c.save()
    return buf.getvalue()


def _draw_piece(drawer: PageDrawer, title: str, piece: Piece, slot: Rect, tiling: Tiling,
                marks: list[tuple[float, float]], draw_board: DrawBoard) -> None:
    win = piece.window
    ox, oy = slot.x_mm - win.x_mm, slot.y_mm - win.y_mm  # page position of the board's origin
    draw_board(drawer, ox, oy, slot)
    ov = tiling.overlap_mm
    tabs = []
    if piece.col > 0:
        tabs.append((Rect(slot.x_mm, slot.y_mm, ov, slot.h_mm), piece.number - 1))
    if piece.row > 0:
        tabs.append((Rect(slot.x_mm, slot.y_mm, slot.w_mm, ov), piece.number - tiling.cols))
    for band, _ in tabs:
        _hatch(drawer, band)
    for x, y in marks:
        if (win.x_mm + MARK_ARM_MM <= x <= win.x_mm + win.w_mm - MARK_ARM_MM
                and win.y_mm + MARK_ARM_MM <= y <= win.y_mm + win.h_mm - MARK_ARM_MM):
            _crosshair(drawer, ox + x, oy + y)
    drawer.rect(slot.x_mm, slot.y_mm, slot.w_mm, slot.h_mm, None, INK, CUT_LINE_STROKE_PT)
    draw_text(drawer, piece_label(title, piece, tiling),
              Rect(slot.x_mm, slot.y_mm - LABEL_BAND_MM + 0.5, slot.w_mm, LABEL_BAND_MM - 1.5), 7, valign="bottom")


ASSEMBLY_INSTRUCTIONS = (
    "Cut each piece along its solid outline. Glue the shaded tab of each piece under the piece "
    "its label names, so that the crosshairs of the two pieces lie on each other (push a pin "
    "through the upper crosshair into the lower one to line them up)."
)


def _assembly_page(drawer: PageDrawer, title: str, notes: str, tiling: Tiling, draw_board: DrawBoard) -> None:
    m = PAGE_MARGIN_MM
    w = tiling.page_w_mm - 2 * m
    draw_text(drawer, f"{title} – assembly", Rect(m, m, w, 9), 14, font="bold")
    total = tiling.rows * tiling.cols
    rows = f"{tiling.rows} row" + ("s" if tiling.rows > 1 else "")
    cols = f"{tiling.cols} column" + ("s" if tiling.cols > 1 else "")
    facts = (f"Board {tiling.board_w_mm:g} × {tiling.board_h_mm:g} mm in {total} pieces: {rows} × {cols}, "
             f"numbered row by row. Overlap: {tiling.overlap_mm:g} mm.")
    text = f"{facts}\n\n{ASSEMBLY_INSTRUCTIONS}" + (f"\n\n{notes}" if notes.strip() else "")
    draw_text(drawer, text, Rect(m, m + 11, w, 34), 9)
    # The board in miniature with the pieces' outlines and numbers.
    top = m + 48
    avail_w, avail_h = w, tiling.page_h_mm - top - m
    scale = min(avail_w / tiling.board_w_mm, avail_h / tiling.board_h_mm, 1.0)
    x0 = m + (avail_w - tiling.board_w_mm * scale) / 2
    c = drawer.c
    c.saveState()
    c.translate(pt_from_mm(x0), pt_from_mm(tiling.page_h_mm - top - tiling.board_h_mm * scale))
    c.scale(scale, scale)
    mini = PageDrawer(c, tiling.board_h_mm)
    board = Rect(0, 0, tiling.board_w_mm, tiling.board_h_mm)
    draw_board(mini, 0, 0, board)
    for piece in tiling.pieces:
        win = piece.window
        mini.rect(win.x_mm, win.y_mm, win.w_mm, win.h_mm, None, "#c0392b", 1.2 / scale)
        size_mm = min(win.w_mm, win.h_mm) * 0.3
        c.setFillColorRGB(0.75, 0.22, 0.17)
        c.setFont(BOLD, pt_from_mm(size_mm))
        c.drawCentredString(pt_from_mm(win.x_mm + win.w_mm / 2), mini._y_pt(win.y_mm + win.h_mm / 2 + size_mm * 0.35),
                            str(piece.number))
    c.restoreState()
