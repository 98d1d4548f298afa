"""A short legal two-player Carpe Diem game, for the API, storage and browser tests.

Two-player layout (see card_data.games.carpe_diem.layout.lay_out): a row of 5 cards over a row of 3;
circles 1-4 across the top row (A1|A2, A2|B1, B1|B2, B2|C1), 5-7 down (A1/C2, A2/D1, B1/D2),
8-9 across the bottom row (C2|D1, D1|D2). Anna (seat 0) starts with 8 VP, Bea 9.

Anna's villas (3 and 5 chimneys) and her fountain (keeping the garden fountain card) are entered
as they are built, so her final scoring needs only what play does not show (stored tiles,
frame goals, her gardens). The final scorings keep the villa figures the data assumes, as the
page's final-scoring form sends them pre-filled (``ASSUMED_VILLAS``). ``EVENTS`` are the events as
the API and the stored log carry them (JSON).
"""

from card_data.games.carpe_diem.rules import (
    BanderoleMove,
    CompleteVilla,
    FinalScore,
    PhaseEnded,
    PlaceBuilding,
    RoundPlayed,
    Score,
    SetResources,
)
from card_data.loader import load_database

ASSUMED_VILLAS = {r.chimneys: r.vp for r in load_database().games["carpe_diem"].tables.villa_chimneys.rows
                  if r.assumed}
"""The villa rows the data assumes, chimneys -> VP: the final-scoring form offers them pre-filled."""
KEPT = {"printed_villa_chimneys": tuple(ASSUMED_VILLAS), "printed_villa_vp": tuple(ASSUMED_VILLAS.values())}

PLAYERS = ["Anna", "Bea"]
OPTIONS = {"tie_breaker": "summary"}

EVENTS = [e.to_json() for e in [
    # Phase 1
    RoundPlayed(),
    BanderoleMove(seat=0, spaces=2),
    SetResources(seat=0, herbs=4, coins=1),
    SetResources(seat=1, chicken=3, bread=3),
    CompleteVilla(seat=0, chimneys=3),
    PhaseEnded(),
    # Scoring period 1: Anna (space 2) first. Two herbs twice (+8), 1 completed villa (+3).
    Score(seat=0, circle=5, completed_villa=1),
    # Bea: three chickens first (+7), then chicken-grape-fish with 3 bread (+5).
    Score(seat=1, circle=2, first_card="a-three-chickens", bread_second=True),
    # Phase 2
    SetResources(seat=0, coins=3),
    PhaseEnded(),
    # Anna: 3 chimneys first (+1 coin, +1 space); the 4 coins then pay one of each ware (+8).
    Score(seat=0, circle=4, first_card="c-chimneys-coin-banderole", chimney=3),
    # Bea: a merchant dwelling (+3); a pond without a garden is not met (-4).
    Score(seat=1, circle=9, completed_merchant_dwelling=1, completed_pond=1, completed_garden=0),
    # Phase 3
    BanderoleMove(seat=1, spaces=5),
    SetResources(seat=1, grapes=2, herbs=1, chicken=2, fish=2),
    CompleteVilla(seat=0, chimneys=5),
    RoundPlayed(),
    PhaseEnded(),
    # Bea (space 5) first: chicken-grape-fish once only (+5), leaving wares for one of each (+8).
    Score(seat=1, circle=3, times_first=1),
    # Anna: 2 completed villas (+6); no merchant dwelling (-4).
    Score(seat=0, circle=8, completed_villa=2, completed_merchant_dwelling=0),
    # Phase 4
    SetResources(seat=1, bread=3),
    PlaceBuilding(seat=0, building="fountain", fountain_card="fountain-gardens"),
    PhaseEnded(),
    # Bea: three chickens with bread (+7), a merchant dwelling (+3).
    Score(seat=1, circle=6, bread_first=True, completed_merchant_dwelling=1),
    # Anna: nothing to pay chicken-grape-fish (-4); a pond and a garden (+7).
    Score(seat=0, circle=7, completed_pond=1, completed_garden=1),
    # Final scoring: Anna's villas (3 and 5 chimneys) and her garden fountain card as recorded.
    FinalScore(seat=0, stored_tiles=3, completed_garden=1, frame_goals=("completed_villa",), other_frame_vp=2,
               **KEPT),
    FinalScore(seat=1, stored_tiles=1, frame_goals=("completed_baker_dwelling",), **KEPT),
]]

WINNERS = [0]
ROUNDS = 28  # four phases of seven rounds (each phase ended with "phase_ended")

# Bea tries the circle Anna took a moment ago in scoring period 2.
ILLEGAL = (11, Score(seat=1, circle=4, chimney=3).to_json(), "circle 4 is taken")
