"""A short legal Duels of Cartisora game (2019 edition) for the API, storage and browser tests.

Ann takes The Knight, Bob The Fencer. It shows a tie whose pool the next winner takes, a
reaction that turns a loss into an Undercut (Second Wind, the rulebook's reaction example),
maneuvers for the next round, a forced tie (Parry), a power that cannot fall below 0, and
Bob running out of cards first: Ann's last card goes to Bob's score pile. Final score:
Ann 24 (18 cards, 2 boast bonus, First Blood, Finisher), Bob 6.
"""

PLAYERS = ["Ann", "Bob"]
OPTIONS = {"edition": "2019"}


def _round(ann: str, bob: str, *plays: dict) -> list[dict]:
    return [{"type": "reveal", "cards": [ann, bob]}, *plays, {"type": "next_round"}]


EVENTS = [
    {"type": "pick_deck", "seat": 0, "deck": "knight"},
    {"type": "pick_deck", "seat": 1, "deck": "fencer"},
    *_round("knight-5", "fencer-5"),
    *_round("knight-2", "fencer-4",
            {"type": "reaction", "seat": 0, "card": "second-wind"},
            {"type": "maneuver", "seat": 0, "card": "press-on"}),
    *_round("knight-4", "fencer-6"),
    *_round("knight-6", "fencer-8", {"type": "maneuver", "seat": 1, "card": "advance"}),
    *_round("knight-8", "fencer-1"),
    *_round("lance-charge", "riposte", {"type": "reaction", "seat": 1, "card": "parry"}),
    *_round("knight-7", "fencer-3"),
    *_round("knight-3", "fencer-2"),
    *_round("knight-boast", "fencer-boast", {"type": "reaction", "seat": 1, "card": "feint"}),
]

WINNERS = [0]

# Round 2's reveal, replaying Knight 5 from round 1.
ILLEGAL = (
    EVENTS.index({"type": "reveal", "cards": ["knight-2", "fencer-4"]}),
    {"type": "reveal", "cards": ["knight-5", "fencer-4"]},
    "already played",
)
