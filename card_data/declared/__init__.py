"""What a game declares as data in its ``game.yaml``: the deck-building rules every game states
there (``deck_rules``); and for a declared game (no Python of its own) its card fields and
types (``field_declarations``), its scorekeeping (``scoring_declarations``, run by
:mod:`card_data.engine.declared`) and the card schema made from them (``declared_game``).
"""
