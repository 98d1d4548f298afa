"""A short legal Carpe Cras game as JSON events, for the API, storage and browser tests.

Red rolls low after a tie and starts; Blue takes the Carpe Cras Token in round 1 and so starts
round 2; Red's strikes bring Blue's morale from 15 to 0 (Striking the city; Morale).
"""

PLAYERS = ["Red", "Blue"]
OPTIONS = {"full_city_agency": "bottom_of_deck"}
EVENTS = [
    {"type": "first_player_roll", "rolls": [4, 4]},
    {"type": "first_player_roll", "rolls": [2, 5]},
    {"type": "choose_starting_player", "seat": 0, "starting_seat": 0},
    {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1},
    {"type": "action", "seat": 0, "note": "played Barbarian Tyro"},
    {"type": "take_token", "seat": 1},
    {"type": "strike_city", "seat": 0, "lane": 1, "power": 2, "sacrificed": 1, "ends_turn": True},
    {"type": "pass", "seat": 0},
    {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1},
    {"type": "add_lane", "seat": 1, "ends_turn": True},
    {"type": "tempo_roll", "seat": 1, "check": "dodge", "striker_speed": 4, "dexterity": 2,
     "target_speed": 4, "evade": 0},
    {"type": "strike_city", "seat": 0, "lane": 1, "power": 8, "sacrificed": 0, "ends_turn": True},
    {"type": "gain_agency", "seat": 1, "lane": 2, "ends_turn": True},
    {"type": "strike_city", "seat": 0, "lane": 2, "power": 7, "sacrificed": 1, "ends_turn": True},
]
WINNERS = [0]
ILLEGAL = (7, {"type": "strike_city", "seat": 0, "lane": 1, "power": 3, "sacrificed": 2},
           "holds only 0")
