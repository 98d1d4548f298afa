"""A short legal C.A.H.R.D. war (Official Rulebook 1.0) for the API, storage and browser tests.

Red plays the Shield Wall army, Blue the Swift Riders (the card data's example decks).
Battle 1: nobody battles on their first turn; Blue recruits Time-Lost Cadet; Red's Border
Captain beats River Scout (WAR 3 against 2), Oda Nobunaga's attack goes through to Blue's
grain (4000 -> 3600); on Blue's turn both of Red's fighters attacked the previous turn, so Red
must let Time-Lost Cadet through to the grain (4000 -> 3800); Red's next attack, WAR 3+1 against
2+1 after modifiers, defeats River Scout (Red, the initiative player, gets a defeat token); Blue
cannot draw and loses the battle.
Battle 2: Blue, the loser, chooses to go first; Blue pays Field Rations' cost (1000 reserves,
+200 grain); Blue cannot draw on its second turn: Red wins the war 2-0.
"""

PLAYERS = ["Red", "Blue"]
OPTIONS = {"army_seat_1": "shield-wall", "army_seat_2": "swift-riders", "defeat_token_to": "initiative_player"}

RED_SET_UP = {"type": "set_up", "seat": 0, "commander": "oda-nobunaga", "strategist": "supply-clerk",
              "lieutenants": ["border-captain"]}
BLUE_SET_UP = {"type": "set_up", "seat": 1, "commander": "george-washington", "strategist": "frontier-envoy",
               "lieutenants": ["river-scout"]}


def _turn(seat: int, *plays: dict) -> list[dict]:
    return [{"type": "start_turn", "seat": seat}, {"type": "recruitment", "seat": seat}, *plays,
            {"type": "end_turn", "seat": seat}]


EVENTS = [
    # Battle 1
    RED_SET_UP,
    BLUE_SET_UP,
    *_turn(0),
    *_turn(1, {"type": "recruit_lieutenant", "seat": 1, "officer": "time-lost-cadet"}),
    *_turn(0,
           {"type": "declare_attack", "seat": 0, "officer": "border-captain"},
           {"type": "vanguard", "seat": 1, "officer": "river-scout"},
           {"type": "damage_step"},
           {"type": "declare_attack", "seat": 0, "officer": "oda-nobunaga"},
           {"type": "vanguard", "seat": 1, "to_grain": True}),
    *_turn(1,
           {"type": "declare_attack", "seat": 1, "officer": "time-lost-cadet"},
           {"type": "vanguard", "seat": 0, "to_grain": True}),
    *_turn(0,
           {"type": "declare_attack", "seat": 0, "officer": "border-captain"},
           {"type": "vanguard", "seat": 1, "officer": "river-scout"},
           {"type": "damage_step", "attacker_war_modifier": 1, "vanguard_war_modifier": 1}),
    {"type": "cannot_draw", "seat": 1},
    # Battle 2
    {"type": "next_battle", "seat": 1, "first_seat": 1},
    RED_SET_UP,
    BLUE_SET_UP,
    *_turn(1, {"type": "card_effect", "seat": 1, "card": "field-rations", "target_seat": 1,
               "reserves_change": -1000, "grain_change": 200}),
    *_turn(0),
    {"type": "cannot_draw", "seat": 1},
]

WINNERS = [0]

# Blue's Time-Lost Cadet attacks; Border Captain attacked on Red's previous turn, so it may
# not be the vanguard (Step 4: The Vanguard Step).
ILLEGAL = (
    EVENTS.index({"type": "vanguard", "seat": 0, "to_grain": True}),
    {"type": "vanguard", "seat": 0, "officer": "border-captain"},
    "attacked the previous turn",
)
