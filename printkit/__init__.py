"""printkit: print-ready PDFs (card sheets with bleed, crop marks and duplex backs) from a card database."""

__version__ = "0.1.0"
