"""A designer's spreadsheet (CSV or XLSX) as card data: ``printkit import`` (``importer``: rows to
card files and back) reading the sheet, bounded (``sheet_reading``), its columns as a declared
game's fields (``sheet_columns``); and ``printkit init --from-sheet``, which infers the fields
from the columns (``sheet_inference``) and writes the game's files (``sheet_game``), its
``game.yaml`` among them (``game_yaml_text``).
"""
