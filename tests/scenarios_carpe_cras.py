"""A short legal Carpe Cras game, for the API, storage and browser tests.

Red rolls low after a tie and starts; Blue takes the Carpe Cras Token in round 1 and so starts
round 2; Red's strikes bring Blue's morale from 15 to 0 (Striking the city; Morale).
``EVENTS`` are the events as the API and the stored log carry them (JSON).
"""

from card_data.games.carpe_cras.rules import (
    Action,
    AddLane,
    ChooseStartingPlayer,
    FirstPlayerRoll,
    GainAgency,
    Pass,
    StartRound,
    StrikeCity,
    TakeToken,
    TempoRoll,
)

PLAYERS = ["Red", "Blue"]
OPTIONS = {"full_city_agency": "bottom_of_deck"}
EVENTS = [e.to_json() for e in [
    FirstPlayerRoll(rolls=(4, 4)),
    FirstPlayerRoll(rolls=(2, 5)),
    ChooseStartingPlayer(seat=0, starting_seat=0),
    StartRound(agency_lane_0=1, agency_lane_1=1),
    Action(seat=0, note="played Barbarian Tyro"),
    TakeToken(seat=1),
    StrikeCity(seat=0, lane=1, power=2, sacrificed=1, ends_turn=True),
    Pass(seat=0),
    StartRound(agency_lane_0=1, agency_lane_1=1),
    AddLane(seat=1, ends_turn=True),
    TempoRoll(seat=1, check="dodge", striker_speed=4, dexterity=2, target_speed=4, evade=0),
    StrikeCity(seat=0, lane=1, power=8, sacrificed=0, ends_turn=True),
    GainAgency(seat=1, lane=2, ends_turn=True),
    StrikeCity(seat=0, lane=2, power=7, sacrificed=1, ends_turn=True),
]]
WINNERS = [0]
ROUNDS = 2  # two "start_round" entries: the game ended in round 2
ILLEGAL = (7, StrikeCity(seat=0, lane=1, power=3, sacrificed=2).to_json(), "holds only 0")
