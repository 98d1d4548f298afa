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


ROUND_CARDS = [  # each round: Ann's card, Bob's card, the reactions and maneuvers after the reveal
    ("knight-5", "fencer-5"),
    ("knight-2", "fencer-4", Reaction(seat=0, card="second-wind"), Maneuver(seat=0, card="press-on")),
    ("knight-4", "fencer-6"),
    ("knight-6", "fencer-8", Maneuver(seat=1, card="advance")),
    ("knight-8", "fencer-1"),
    ("lance-charge", "riposte", Reaction(seat=1, card="parry")),
    ("knight-7", "fencer-3"),
    ("knight-3", "fencer-2"),
    ("knight-boast", "fencer-boast", Reaction(seat=1, card="feint")),
]
PICKS = [PickDeck(seat=0, deck="knight"), PickDeck(seat=1, deck="fencer")]

EVENTS = [e.to_json() for e in [*PICKS, *(e for r in ROUND_CARDS for e in _round(*r))]]

# The same game as a table plays it since the next round begins with its reveal: each reveal
# after the first names its round and ends the round before; only the game's end is its own tap.
EVENTS_FEWER_TAPS = [e.to_json() for e in [
    *PICKS,
    *(e for n, (ann, bob, *plays) in enumerate(ROUND_CARDS, start=1)
      for e in (Reveal(cards=(ann, bob), round=None if n == 1 else n), *plays)),
    NextRound(),
]]

WINNERS = [0]
ROUNDS = 9  # nine contests revealed in the one game of the match

# Round 2's reveal, replaying Knight 5 from round 1.
ILLEGAL = (
    EVENTS.index(Reveal(cards=("knight-2", "fencer-4")).to_json()),
    Reveal(cards=("knight-5", "fencer-4")).to_json(),
    "already played",
)
