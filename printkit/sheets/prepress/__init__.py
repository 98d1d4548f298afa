"""Prepress: paper, imposition (where cards, crop marks and duplex backs land), cut files and
registration marks for cutting machines, colour management, PDF/X-4 and the printer calibration sheet."""
