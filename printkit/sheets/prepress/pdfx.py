"""PDF/X-4 output: a PDF that printkit drew in CMYK (colours and artwork converted through
:mod:`printkit.sheets.prepress.colour`) finished into an ISO 15930-7 (PDF/X-4) file with pikepdf.

reportlab writes the pages; this adds what PDF/X-4 asks of the file as a whole: a PDF 1.6
header, the OutputIntent (``/GTS_PDFX``, FOGRA39, the embedded ICC profile), the
``/GTS_PDFXVersion`` and ``/Trapped`` keys in the document information, XMP metadata agreeing
with it (title, dates, PDF/X version, document and version ids), and a TrimBox on every page.
Fonts are already embedded and nothing is encrypted. Why X-4 rather than X-1a: see the README's
"Print shops" part; X-4 allows the transparency (soft-masked artwork) that card art uses.

The bytes stay reproducible: the dates are reportlab's fixed invariant ones, the document id
is derived from the content (qpdf's deterministic id) and so is the XMP's.
"""

from __future__ import annotations

import html
import hashlib
import io
import re
import zlib
from functools import cache

from printkit.sheets.prepress.colour import (
    OUTPUT_CONDITION,
    OUTPUT_CONDITION_IDENTIFIER,
    PROFILE_INFO,
    REGISTRY_NAME,
    profile_bytes,
)

PDFX_VERSION = "PDF/X-4"
PDF_VERSION = "1.6"
"""The lowest PDF version PDF/X-4 is based on."""


def _xmp_date(pdf_date: str) -> str:
    """A PDF date (``D:20000101000000+00'00'``) in XMP's ISO 8601 form; PDF/X wants both equal."""
    m = re.fullmatch(r"D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(?:([+-])(\d\d)'?(\d\d)'?|Z)?", pdf_date)
    if m is None:
        raise ValueError(f"not a PDF date: {pdf_date!r}")
    y, mo, d, h, mi, s, sign, zh, zm = m.groups()
    zone = f"{sign}{zh}:{zm}" if sign else "Z"
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}{zone}"


def _xmp(title: str, author: str | None, subject: str | None, creator: str, producer: str, created: str,
         modified: str, document_id: str) -> bytes:
    def alt(text: str) -> str:
        return f'<rdf:Alt><rdf:li xml:lang="x-default">{html.escape(text, quote=False)}</rdf:li></rdf:Alt>'

    dc = f"<dc:title>{alt(title)}</dc:title><dc:format>application/pdf</dc:format>"
    if author:
        dc += f"<dc:creator><rdf:Seq><rdf:li>{html.escape(author, quote=False)}</rdf:li></rdf:Seq></dc:creator>"
    if subject:
        dc += f"<dc:description>{alt(subject)}</dc:description>"
    body = (
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" '
        'xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">'
        f"{dc}"
        f"<xmp:CreateDate>{created}</xmp:CreateDate><xmp:ModifyDate>{modified}</xmp:ModifyDate>"
        f"<xmp:MetadataDate>{modified}</xmp:MetadataDate>"
        f"<xmp:CreatorTool>{html.escape(creator, quote=False)}</xmp:CreatorTool>"
        f"<pdf:Producer>{html.escape(producer, quote=False)}</pdf:Producer><pdf:Trapped>False</pdf:Trapped>"
        f"<xmpMM:DocumentID>uuid:{document_id}</xmpMM:DocumentID>"
        f"<xmpMM:InstanceID>uuid:{document_id}</xmpMM:InstanceID>"
        "<xmpMM:VersionID>1</xmpMM:VersionID><xmpMM:RenditionClass>default</xmpMM:RenditionClass>"
        f"<pdfxid:GTS_PDFXVersion>{PDFX_VERSION}</pdfxid:GTS_PDFXVersion>"
        "</rdf:Description>")
    packet = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
              '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
              f"{body}</rdf:RDF></x:xmpmeta>" + '<?xpacket end="w"?>')
    return packet.encode("utf-8")


@cache
def _compressed_profile() -> bytes:
    return zlib.compress(profile_bytes(), 9)


def _uuid_of(data: bytes) -> str:
    h = hashlib.sha256(data).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def finish_pdfx(pdf: bytes) -> bytes:
    """``pdf`` (reportlab's bytes, every colour and image already CMYK or grey) as a PDF/X-4 file.

    Reads title, author, subject, creator, producer and dates from the document information
    dictionary; a page without a TrimBox (or ArtBox) gets one equal to its MediaBox. The result
    is reproducible: the same input gives the same bytes. Raises ``ValueError`` if ``pdf`` has
    no ``CreationDate`` in reportlab's form, ``pikepdf.PdfError`` if it is not a readable PDF,
    ``OSError`` if the ICC profile is missing from the installation.
    """
    import pikepdf  # only here: a plain build never loads qpdf
    from pikepdf import Array, Dictionary, Name, String

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        info = doc.docinfo

        def text(key: str) -> str | None:
            return str(info[key]) if key in info else None

        created = text("/CreationDate")
        if created is None:
            raise ValueError("the PDF has no CreationDate")
        modified = text("/ModDate") or created
        title = text("/Title") or "Untitled"
        profile = pikepdf.Stream(doc, b"")
        profile.write(_compressed_profile(), filter=Name.FlateDecode)
        profile.N = 4
        doc.Root.OutputIntents = Array([doc.make_indirect(Dictionary(
            Type=Name.OutputIntent, S=Name.GTS_PDFX,
            OutputConditionIdentifier=String(OUTPUT_CONDITION_IDENTIFIER),
            OutputCondition=String(OUTPUT_CONDITION), RegistryName=String(REGISTRY_NAME),
            Info=String(PROFILE_INFO), DestOutputProfile=doc.make_indirect(profile)))])
        info.GTS_PDFXVersion = String(PDFX_VERSION)
        info.Trapped = Name("/False")
        for page in doc.pages:
            if "/TrimBox" not in page.obj and "/ArtBox" not in page.obj:
                page.obj.TrimBox = page.obj.MediaBox
        # The id comes from the pages' content: the same drawing gives the same id, another a new one.
        document_id = _uuid_of(pdf)
        metadata = pikepdf.Stream(doc, _xmp(title, text("/Author"), text("/Subject"), text("/Creator") or "",
                                            text("/Producer") or "", _xmp_date(created), _xmp_date(modified),
                                            document_id))
        metadata.Type = Name.Metadata
        metadata.Subtype = Name.XML
        doc.Root.Metadata = doc.make_indirect(metadata)
        out = io.BytesIO()
        # XMP stays uncompressed (readable by tools that scan for the packet); every other stream
        # keeps reportlab's compression.
        doc.save(out, min_version=PDF_VERSION, deterministic_id=True, fix_metadata_version=False,
                 compress_streams=False, object_stream_mode=pikepdf.ObjectStreamMode.preserve)
        return out.getvalue()
