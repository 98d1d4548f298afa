"""Unit conversion between millimetres (how designers measure) and PDF points (how PDFs draw)."""

from reportlab.lib.units import mm as _PT_PER_MM

PT_PER_MM: float = _PT_PER_MM  # 72 / 25.4


def pt_from_mm(length_mm: float) -> float:
    """Millimetres to PDF points (1/72 inch)."""
    return length_mm * PT_PER_MM


def mm_from_pt(length_pt: float) -> float:
    """PDF points to millimetres."""
    return length_pt / PT_PER_MM
