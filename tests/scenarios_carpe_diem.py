"""A short legal two-player Carpe Diem game, as JSON events, for the API, storage and browser tests.

Two-player layout (see card_data.games.carpe_diem.rules.lay_out): a row of 5 cards over a row of 3;
circles 1-4 across the top row (A1|A2, A2|B1, B1|B2, B2|C1), 5-7 down (A1/C2, A2/D1, B1/D2),
8-9 across the bottom row (C2|D1, D1|D2). Anna (seat 0) starts with 8 VP, Bea 9.
"""

PLAYERS = ["Anna", "Bea"]
OPTIONS = {"tie_breaker": "summary"}

EVENTS = [
    # Phase 1
    {"type": "round_played"},
    {"type": "banderole_move", "seat": 0, "spaces": 2},
    {"type": "set_resources", "seat": 0, "herbs": 4, "coins": 1},
    {"type": "set_resources", "seat": 1, "chicken": 3, "bread": 3},
    {"type": "phase_ended"},
    # Scoring period 1: Anna (space 2) first. Two herbs twice (+8), 1 completed villa (+3).
    {"type": "score", "seat": 0, "circle": 5, "completed_villa": 1},
    # Bea: three chickens first (+7), then chicken-grape-fish with 3 bread (+5).
    {"type": "score", "seat": 1, "circle": 2, "first_card": "a-three-chickens", "bread_second": "true"},
    # Phase 2
    {"type": "set_resources", "seat": 0, "coins": 3},
    {"type": "phase_ended"},
    # Anna: 3 chimneys first (+1 coin, +1 space); the 4 coins then pay one of each ware (+8).
    {"type": "score", "seat": 0, "circle": 4, "first_card": "c-chimneys-coin-banderole", "chimney": 3},
    # Bea: a merchant dwelling (+3); a pond without a garden is not met (-4).
    {"type": "score", "seat": 1, "circle": 9, "completed_merchant_dwelling": 1, "completed_pond": 1,
     "completed_garden": 0},
    # Phase 3
    {"type": "banderole_move", "seat": 1, "spaces": 5},
    {"type": "set_resources", "seat": 1, "grapes": 2, "herbs": 1, "chicken": 2, "fish": 2},
    {"type": "round_played"},
    {"type": "phase_ended"},
    # Bea (space 5) first: chicken-grape-fish once only (+5), leaving wares for one of each (+8).
    {"type": "score", "seat": 1, "circle": 3, "times_first": 1},
    # Anna: 2 completed villas (+6); no merchant dwelling (-4).
    {"type": "score", "seat": 0, "circle": 8, "completed_villa": 2, "completed_merchant_dwelling": 0},
    # Phase 4
    {"type": "set_resources", "seat": 1, "bread": 3},
    {"type": "phase_ended"},
    # Bea: three chickens with bread (+7), a merchant dwelling (+3).
    {"type": "score", "seat": 1, "circle": 6, "bread_first": "true", "completed_merchant_dwelling": 1},
    # Anna: nothing to pay chicken-grape-fish (-4); a pond and a garden (+7).
    {"type": "score", "seat": 0, "circle": 7, "completed_pond": 1, "completed_garden": 1},
    # Final scoring
    {"type": "final_score", "seat": 0, "villa_chimneys": ["3", "5"], "stored_tiles": 3,
     "fountain_cards": ["fountain-gardens"], "completed_garden": 1, "frame_goals": ["completed_villa"],
     "other_frame_vp": 2},
    {"type": "final_score", "seat": 1, "stored_tiles": 1, "frame_goals": ["completed_baker_dwelling"]},
]

WINNERS = [0]

# Bea tries the circle Anna took a moment ago in scoring period 2.
ILLEGAL = (10, {"type": "score", "seat": 1, "circle": 4, "chimney": 3}, "circle 4 is taken")
