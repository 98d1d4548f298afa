"""A short legal Duels of Cartisora game (2019 edition) for the API, storage and browser tests.

Ann takes The Knight, Bob The Fencer. It shows a tie whose pool the next winner takes, a
reaction that turns a loss into an Undercut (Second Wind, the rulebook's reaction example),
maneuvers for the next round, a forced tie (Parry), a power that cannot fall below 0, and
Bob running out of cards first: Ann's last card goes to Bob's score pile. Final score:
Ann 24 (18 cards, 2 boast bonus, First Blood, Finisher), Bob 6.
``EVENTS`` are the events as the API and the stored log carry them (JSON).
"""

from card_data.games.cartisora.rules import (
    Maneuver,
    NextRound,
    PickDeck,
    Reaction,
    Reveal,
)

PLAYERS = ["Ann", "Bob"]
OPTIONS = {"edition": "2019"}


def _round(ann: str, bob: str, *plays) -> list:
    return [Reveal(cards=(ann, bob)), *plays, NextRound()]


EVENTS = [e.to_json() for e in [
    PickDeck(seat=0, deck="knight"),
    PickDeck(seat=1, deck="fencer"),
    *_round("knight-5", "fencer-5"),
    *_round("knight-2", "fencer-4", Reaction(seat=0, card="second-wind"), Maneuver(seat=0, card="press-on")),
    *_round("knight-4", "fencer-6"),
    *_round("knight-6", "fencer-8", Maneuver(seat=1, card="advance")),
    *_round("knight-8", "fencer-1"),
    *_round("lance-charge", "riposte", Reaction(seat=1, card="parry")),
    *_round("knight-7", "fencer-3"),
    *_round("knight-3", "fencer-2"),
    *_round("knight-boast", "fencer-boast", Reaction(seat=1, card="feint")),
]]

WINNERS = [0]
ROUNDS = 9  # nine contests revealed in the one game of the match

# Round 2's reveal, replaying Knight 5 from round 1.
ILLEGAL = (
    EVENTS.index(Reveal(cards=("knight-2", "fencer-4")).to_json()),
    Reveal(cards=("knight-5", "fencer-4")).to_json(),
    "already played",
)
