"""The card sheet pipeline: units and paper, layout templates measured into faces, imposition
onto sheets, and drawing them (crop marks, bleed, QR codes, cut files, calibration)."""
