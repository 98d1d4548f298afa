"""Reading a game's YAML files: bounded, remembering the line of every value (``yaml_source``),
into records whose every problem is collected (``yaml_records``); a game's files and their byte
limit (``game_files``), the card ids they define (``card_ids``), one card file read or taken
from the cache of files read before (``parsed_files``), one deck list (``deck_lists``), and the
compact store the loaded cards are kept in (``card_store``).

The loader (:mod:`card_data.loader`) puts these together into a validated database.
"""
