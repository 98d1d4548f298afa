"""A designer's tools around the build, grouped by concern:

- :mod:`.loop`: the designer's loop: a project folder (``printkit init``), ``build --watch``,
  the live ``preview``;
- :mod:`.spreadsheet`: ``printkit import`` of a spreadsheet and ``printkit init --from-sheet``;
- :mod:`.exports`: per-card and print-shop exports, Tabletop Simulator sheets, ``printkit
  release``.

``commands`` attaches ``printkit import`` and ``printkit tts`` to the ``printkit`` group.
"""
