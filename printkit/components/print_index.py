"""The "print this" page: one page per game saying which files to print, how, and what to do next.

``printkit build`` writes it as ``output/<game>/print-this.pdf`` beside the files it lists:
for each file the pages, whether they are printed on both sides (and the flip edge) or on
one, how many copies, and what it holds; then what to print for a first game, how to cut,
sleeve, fold and assemble, the per-count lists of a ``choose_one`` group (Carpe Diem's scoring
sets) and the cards left out of the kit and why. Laid out with reportlab's platypus in the
bundled DejaVu Sans; whatever the content, it is shrunk to fit one page. Same input, same bytes.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass
from typing import Literal

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    KeepInFrame,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from printkit.sheets.text.fonts import BOLD, REGULAR, register_italic
from printkit.sheets.prepress.paper import Paper
from printkit.sheets.render import (
    CREATOR,
    PRODUCER,
    RGB,
    DocInfo,
    PdfOutput,
    canvas_maker,
)
from printkit.sheets.units import pt_from_mm

INDEX_FILE = "print-this.pdf"
PAGE_MARGIN_MM = 12.0
"""Well inside any printer's unprintable edge (about 5 mm), so nothing on the page is clipped."""
FRAME_PADDING_PT = 6.0
"""platypus's default padding inside a page's frame."""
HEADER_FILL = colors.HexColor("#e6e6e6")
RULE_COLOUR = colors.HexColor("#9a9a9a")

Sides = Literal["duplex", "single", "fold"]


@dataclass(frozen=True)
class KitFile:
    """One file of the kit as the index lists it.

    Attributes:
        file: file name in the game's output folder, e.g. ``"might-cunning-draw-cards.pdf"``.
        title: what it holds, e.g. ``"Might / Cunning – draw deck: 40 cards"``.
        pages: pages in the file.
        sides: ``duplex`` (each page of fronts followed by its backs: print on both sides),
            ``single`` (one side) or ``fold`` (fronts and backs side by side: one side, folded).
        copies: how many copies to print.
        note: how to use or assemble it (may be empty).
        kind: what it is: ``cards``, ``board``, ``sheet``, ``tokens``, ``scorepad`` or ``other``
            (selects the assembly steps the page gives).
    """

    file: str
    title: str
    pages: int
    sides: Sides
    copies: int = 1
    note: str = ""
    kind: str = "cards"


@dataclass(frozen=True)
class ChooseOneList:
    """A group of deck lists of which a game uses one: ``title`` (e.g. ``"Scoring cards"``),
    ``by`` (e.g. ``"player count"``), ``file`` it is printed in, and ``lists`` as
    ``[(deck title, [card titles])]``."""

    title: str
    by: str
    file: str
    lists: list[tuple[str, list[str]]]


def _escape(text: str) -> str:
    """``text`` as paragraph markup: ``&``, ``<`` and ``>`` escaped, quotes kept (as
    ``xml.sax.saxutils.escape``, which would import urllib, http and ssl with it)."""
    return html.escape(text, quote=False)


def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=REGULAR, fontSize=8.5, leading=10.5, spaceAfter=3)
    return {
        "title": ParagraphStyle("title", parent=base, fontName=BOLD, fontSize=16, leading=19, spaceAfter=4),
        "h": ParagraphStyle("h", parent=base, fontName=BOLD, fontSize=10, leading=12.5, spaceBefore=5, spaceAfter=2),
        "body": base,
        "cell": ParagraphStyle("cell", parent=base, fontSize=7.5, leading=9, spaceAfter=0),
        "cellb": ParagraphStyle("cellb", parent=base, fontName=BOLD, fontSize=7.5, leading=9, spaceAfter=0),
        "small": ParagraphStyle("small", parent=base, fontSize=7, leading=8.5),
    }


def _sides_text(sides: Sides, flip: str) -> str:
    if sides == "duplex":
        return f"both sides, flip on {flip} edge"
    if sides == "fold":
        return "one side; fold"
    return "one side"


def _pages_text(entry: KitFile) -> str:
    if entry.sides == "duplex" and entry.pages > 1:
        return f"{entry.pages} ({entry.pages // 2} sheet{'s' if entry.pages // 2 != 1 else ''})"
    return str(entry.pages)


def print_index_pdf(game_title: str, paper: Paper, duplex: str, files: list[KitFile], first_game: str | None,
                    choose_one: list[ChooseOneList] = (), left_out: list[tuple[str, str]] = (),
                    output: PdfOutput = RGB, registration_marks: bool = False, info: DocInfo | None = None) -> bytes:
    """The one-page index as PDF bytes.

    ``paper``: the page size (the kit's paper). ``duplex``: the build's ``--duplex`` (``long``,
    ``short``, ``none``, ``fold``), which says how double-sided files are printed. ``files``: the
    kit's files in the order to list them. ``first_game``: what to print for a first game
    (``None``: every file listed). ``choose_one``: groups whose per-list contents are spelled out.
    ``left_out``: ``[(card title, why)]`` for cards not printed. ``output``: RGB, CMYK or PDF/X-4.
    ``info``: the document information (default: the title ``"<game_title> – print this"`` alone).
    ``registration_marks``: the card sheets carry print-then-cut marks instead of crop marks.
    Byte-identical output for identical input. Never raises for any content: text that would
    not fit is shrunk to fit the page.
    """
    register_italic()  # its paragraphs say <i>
    info = info or DocInfo(f"{game_title} – print this")
    st = _styles()
    flip = "short" if duplex == "short" else "long"
    story: list = [Paragraph(_escape(f"{game_title}: print this"), st["title"])]
    how = ("Print every file at <b>actual size (100 %)</b>, not “fit to page”, on "
           f"{_escape(paper.label or paper.name)} paper.")
    if duplex in ("long", "short"):
        how += (f" Card files are <b>double-sided</b>: each page of fronts is followed by its backs, so print "
                f"them on both sides with <b>flip on {flip} edge</b> (card stock or 160-200 g/m² paper if your "
                "printer takes it). Check your printer first with <i>printkit calibration</i>.")
    elif duplex == "fold":
        how += (" Card files are <b>fold-over</b> sheets: print them on one side, fold each sheet along the "
                "dashed line with the backs outwards, glue, then cut.")
    else:
        how += (" Card fronts and backs are in separate files: print the fronts, then feed the sheets back "
                "in and print the matching backs file on their other side.")
    story.append(Paragraph(how, st["body"]))
    story.append(Paragraph("For a first game", st["h"]))
    story.append(Paragraph(_escape(first_game or "Every file below, in the copies listed."), st["body"]))

    header = [Paragraph(h, st["cellb"]) for h in ("File", "Pages", "Print", "Copies", "What it is")]
    rows = [header]
    for f in files:
        what = _escape(f.title) + (f"<br/>{_escape(f.note)}" if f.note else "")
        rows.append([Paragraph(_escape(f.file), st["cell"]), Paragraph(_pages_text(f), st["cell"]),
                     Paragraph(_sides_text(f.sides, flip), st["cell"]), Paragraph(str(f.copies), st["cell"]),
                     Paragraph(what, st["cell"])])
    width_pt = pt_from_mm(paper.width_mm - 2 * PAGE_MARGIN_MM) - 2 * FRAME_PADDING_PT
    fractions = (0.25, 0.11, 0.17, 0.07, 0.40)
    table = Table(rows, colWidths=[width_pt * f for f in fractions], repeatRows=1)
    table.setStyle(TableStyle([
        # A table cell's own font (reportlab's default: Helvetica, never embedded) is set even when
        # every cell is a Paragraph; a print shop's preflight would flag it as a missing font.
        ("FONTNAME", (0, 0), (-1, -1), REGULAR),
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE_COLOUR),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]))
    story += [Paragraph("Files", st["h"]), table]

    story.append(Paragraph("Assembly", st["h"]))
    cutting = ("feed each sheet of fronts to a Silhouette cutter with its <i>-sheet-N.svg</i> cut file: "
               "the sheets carry its registration marks (Type 1, length 20 mm, thickness 0.5 mm, inset 10 mm)"
               if registration_marks else
               "cut along the crop marks with a guillotine or a ruler and craft knife, or feed the "
               "<i>-sheet-N.svg</i> cut files to a cutting machine")
    steps = [
        (f"<b>Cards</b>: {cutting}. For a deck that shuffles well, slip each card "
         "into a card sleeve, in front of an old playing card for stiffness."),
        "<b>Reference cards</b> have their own “Reference” back: keep them beside the play area, out of the decks.",
        ("<b>Boards and mats</b> larger than the paper: page 1 shows how the pieces go together; cut each "
         "piece along its solid outline and glue the shaded tab under the piece before it, crosshairs on "
         "crosshairs."),
        "<b>Tokens</b>: glue the sheet onto card stock, then cut along each token's outline.",
    ]
    wanted = (True, any(f.file.startswith("reference-") for f in files),
              any(f.kind == "board" for f in files), any(f.kind == "tokens" for f in files))
    for step, shown in zip(steps, wanted, strict=True):
        if shown:
            story.append(Paragraph("• " + step, st["body"]))

    for group in choose_one:
        story.append(Paragraph(_escape(f"{group.title}: use one list, by {group.by}"), st["h"]))
        story.append(Paragraph(_escape(f"{group.file} holds every card these lists need; deal out the one for "
                                      f"your {group.by}:"), st["body"]))
        for deck_title, cards in group.lists:
            story.append(Paragraph(f"<b>{_escape(deck_title)}</b> ({len(cards)}): {_escape(', '.join(cards))}",
                                   st["small"]))
    if left_out:
        story.append(Paragraph("Not in this kit", st["h"]))
        text = "; ".join(f"<b>{_escape(title)}</b>: {_escape(why)}" for title, why in left_out)
        story.append(Paragraph(text + ". <i>printkit build --catalog</i> prints every card once.", st["small"]))
    story.append(Spacer(1, 4))
    story.append(Paragraph("Written by printkit from the card database; every card's QR code opens its rulings.",
                           st["small"]))

    buf = io.BytesIO()
    page_w_pt, page_h_pt = pt_from_mm(paper.width_mm), pt_from_mm(paper.height_mm)
    margin_pt = pt_from_mm(PAGE_MARGIN_MM)
    doc = SimpleDocTemplate(buf, pagesize=(page_w_pt, page_h_pt), leftMargin=margin_pt, rightMargin=margin_pt,
                            topMargin=margin_pt, bottomMargin=margin_pt, pageCompression=1,
                            title=info.title, author=info.author, subject=info.subject,
                            creator=CREATOR, producer=PRODUCER)
    # The canvas (fonts, colours, metadata, PDF/X) is made as every other printkit PDF's is.
    make = canvas_maker(info, output)
    # Shrinking (not splitting) keeps the index to one page however many files a game has.
    frame_w = page_w_pt - 2 * margin_pt - 2 * FRAME_PADDING_PT
    frame_h = page_h_pt - 2 * margin_pt - 2 * FRAME_PADDING_PT
    doc.build([KeepInFrame(frame_w, frame_h - 1, story, mode="shrink")], canvasmaker=make)
    return buf.getvalue()
