"""What a designer exports beyond the card sheets: one file per card face (``export``), laid out
for a print shop's preset (``shops``), Tabletop Simulator deck sheets (``tts``), the record of
the files those wrote, so a later run removes only those (``written_exports``), and
``printkit release``, a recorded version of every changed card (``release``).
"""
