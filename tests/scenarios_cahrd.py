"""A short legal C.A.H.R.D. war (Official Rulebook 1.0) for the API, storage and browser tests.

Red plays the Shield Wall army, Blue the Swift Riders (the card data's example decks).
Battle 1: nobody battles on their first turn; Blue recruits Time-Lost Cadet; Red's Border
Captain beats River Scout (WAR 3 against 2), Oda Nobunaga's attack goes through to Blue's
grain (4000 -> 3600); on Blue's turn both of Red's fighters attacked the previous turn, so Red
must let Time-Lost Cadet through to the grain (4000 -> 3800); Red's next attack, WAR 3+1 against
2+1 after modifiers, defeats River Scout (Red defeated it; Red, the initiative player, gets the
defeat token); Blue cannot draw and loses the battle.
Battle 2: Blue, the loser, chooses to go first; Blue pays Field Rations' cost (1000 reserves,
+200 grain); Blue cannot draw on its second turn: Red wins the war 2-0.

Blue's strategist, Frontier Envoy, has CHM S: by the table's default reading it counts as 5 in
the Recruitment Step (card_data.games.cahrd.ranks), so Blue gains 11000 reserves a turn, not
16000 as when S counted as 10 there; the war is the same. ``EVENTS`` are the events as the API
and the stored log carry them (JSON): each turn's start, Recruitment Step and end as three
entries, as the table took them before a turn's start could pass the Recruitment Step.
``EVENTS_FEWER_TAPS`` is the same war as the table's page plays it now: nobody plays a card in
a Draw Step, so each turn starts with its Recruitment Step in the same entry (one tap).
"""

from card_data.games.cahrd.rules import (
    CannotDraw,
    CardEffect,
    DamageStep,
    DeclareAttack,
    EndTurn,
    NextBattle,
    RecruitLieutenant,
    Recruitment,
    SetUp,
    StartTurn,
    Vanguard,
)

PLAYERS = ["Red", "Blue"]
OPTIONS = {"army_seat_1": "shield-wall", "army_seat_2": "swift-riders", "defeat_token_to": "initiative_player"}

RED_SET_UP = SetUp(seat=0, commander="oda-nobunaga", strategist="supply-clerk",
                   lieutenants=("border-captain",)).to_json()
BLUE_SET_UP = SetUp(seat=1, commander="george-washington", strategist="frontier-envoy",
                    lieutenants=("river-scout",)).to_json()


def _turn(seat: int, *plays) -> list:
    return [StartTurn(seat=seat), Recruitment(seat=seat), *plays, EndTurn(seat=seat)]


def _one_tap_turn(seat: int, *plays) -> list:
    return [StartTurn(seat=seat, recruitment=True), *plays, EndTurn(seat=seat)]


def _war(turn) -> list[dict]:
    """The war's events (JSON), each turn's start and end as ``turn`` enters them."""
    return [e if isinstance(e, dict) else e.to_json() for e in [
        # Battle 1
        RED_SET_UP,
        BLUE_SET_UP,
        *turn(0),
        *turn(1, RecruitLieutenant(seat=1, officer="time-lost-cadet")),
        *turn(0,
               DeclareAttack(seat=0, officer="border-captain"),
               Vanguard(seat=1, officer="river-scout"),
               DamageStep(),
               DeclareAttack(seat=0, officer="oda-nobunaga"),
               Vanguard(seat=1, to_grain=True)),
        *turn(1,
               DeclareAttack(seat=1, officer="time-lost-cadet"),
               Vanguard(seat=0, to_grain=True)),
        *turn(0,
               DeclareAttack(seat=0, officer="border-captain"),
               Vanguard(seat=1, officer="river-scout"),
               DamageStep(attacker_war_modifier=1, vanguard_war_modifier=1)),
        CannotDraw(seat=1),
        # Battle 2
        NextBattle(seat=1, first_seat=1),
        RED_SET_UP,
        BLUE_SET_UP,
        *turn(1, CardEffect(seat=1, card="field-rations", target_seat=1, reserves_change=-1000, grain_change=200)),
        *turn(0),
        CannotDraw(seat=1),
    ]]


EVENTS = _war(_turn)
EVENTS_FEWER_TAPS = _war(_one_tap_turn)

WINNERS = [0]
ROUNDS = 2  # two battles fought (one "next_battle" between them)

# Blue's Time-Lost Cadet attacks; Border Captain attacked on Red's previous turn, so it may
# not be the vanguard (Step 4: The Vanguard Step).
ILLEGAL = (
    EVENTS.index(Vanguard(seat=0, to_grain=True).to_json()),
    Vanguard(seat=0, officer="border-captain").to_json(),
    "attacked the previous turn",
)
