"""The card sheet pipeline: layout templates measured into faces (``templating/``), their text
(``text/``) and artwork (``artwork/``), drawn onto sheets (``render.py``, with QR codes from
``qr.py``) laid out for print (``prepress/``: paper, imposition, crop marks and duplex backs,
cut files, colour, PDF/X, calibration); ``units.py`` converts millimetres and points."""
