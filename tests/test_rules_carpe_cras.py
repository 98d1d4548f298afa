"""Carpe Cras rule engine: scenarios from the rulebook (carpe-cras.txt V1.0), one per rule.

Each test names the rulebook section it checks (test name ``__section`` or docstring).
"""

from __future__ import annotations

import pytest
import scenarios_carpe_cras as scenario
from pydantic import ValidationError

import card_data.games.carpe_cras.rules as cc
import card_data.games.carpe_cras.tempo as tempo
from card_data.engine import RuleError
from card_data.games import registry
from card_data.games.carpe_cras.rules import (
    Action,
    AddLane,
    ChooseStartingPlayer,
    FirstPlayerRoll,
    GainAgency,
    Mulligan,
    Pass,
    RecoverMorale,
    StartRound,
    StrikeCity,
    TakeToken,
    TempoRoll,
)
from card_data.loader import load_database
from card_data.problems import InvalidInput

ENGINE = cc.ENGINE
RED, BLUE = 0, 1


@pytest.fixture(scope="module")
def game():
    return load_database().games["carpe_cras"]


def play(state, *events):
    """``state`` after ``events``, checking each step keeps its input and round-trips as JSON."""
    for event in events:
        before = state.model_dump(mode="json")
        after = ENGINE.apply(state, event)
        assert state.model_dump(mode="json") == before, f"apply changed its input on {event}"
        assert cc.State.model_validate(after.model_dump(mode="json")) == after
        state = after
    return state


def line(state, event) -> str:
    return ENGINE.step(state, event).line


def refused(state, event, section: str, *words: str) -> RuleError:
    """Assert ``event`` is refused on ``state`` with a rule naming ``section`` and a message with ``words``."""
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, event)
    assert section in info.value.rule
    assert "Carpe Cras rulebook V1.0" in info.value.rule
    for word in words:
        assert word in info.value.message
    return info.value


def new(game, **options):
    return ENGINE.new_state(["Red", "Blue"], options, game)


def started(game, **options):
    """Red rolls low, starts, and round 1 begins with both agency in lane 1."""
    return play(new(game, **options), FirstPlayerRoll(rolls=(1, 6)),
                ChooseStartingPlayer(seat=RED, starting_seat=RED),
                StartRound(agency_lane_0=1, agency_lane_1=1))


def strike(seat, lane, power, sacrificed=0, ends_turn=False):
    return StrikeCity(seat=seat, lane=lane, power=power, sacrificed=sacrificed, ends_turn=ends_turn)


def gain(seat, lane=None, **extra):
    return GainAgency(seat=seat, lane=lane, **extra)


def add_lanes(state, count):
    return play(state, *[AddLane(seat=RED)] * count)


def fill_city(state, seat):
    """Every city space of ``seat`` filled to 3 agency."""
    for lane in range(1, state.lanes + 1):
        while state.city_agency[seat][lane - 1] < 3:
            state = play(state, gain(seat, lane))
    return state


# --- Morale ---------------------------------------------------------------------------------


def test_morale_starts_at_15__morale(game):
    state = new(game)
    assert state.morale == (15, 15)
    assert ENGINE.outcome(state).scores == (15.0, 15.0)
    assert ENGINE.outcome(state).score_label == "Morale"


def test_morale_cannot_exceed_start__morale(game):
    state = play(started(game), strike(RED, 1, 3))
    assert state.morale[BLUE] == 12
    state = play(state, RecoverMorale(seat=BLUE, amount=5))
    assert state.morale[BLUE] == 15  # capped, not 17


def test_recovering_morale_at_full_is_entered_and_changes_nothing__morale(game):
    """Morale: a city "cannot ever have more than its starting amount": a cap, not a refusal."""
    state = started(game)
    after = play(state, RecoverMorale(seat=BLUE, amount=2))
    assert after.morale == state.morale == (15, 15)
    assert line(state, RecoverMorale(seat=BLUE, amount=2)) == \
        "Blue recovered 2 morale: 15 → 15 (at most 15) (already full)"


def test_starting_morale_option_caps_recovery__morale(game):
    state = play(started(game, starting_morale=20), strike(BLUE, 1, 4), RecoverMorale(seat=RED, amount=9))
    assert state.morale[RED] == 20


def test_morale_at_zero_ends_game_and_opponent_wins__morale(game):
    state = play(started(game), strike(BLUE, 1, 14))
    assert not ENGINE.outcome(state).finished
    state = play(state, strike(BLUE, 1, 5, sacrificed=1))
    assert state.morale[RED] == 0  # 14 - 5 + 1 would be below 0: morale stops at 0
    assert state.phase == "over"
    result = ENGINE.outcome(state)
    assert result.finished and result.winners == (BLUE,)
    assert result.summary == "Blue wins: Red's morale fell to 0"
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, Pass(seat=RED))
    assert "Morale" in info.value.rule and "Blue wins" in info.value.message
    assert ENGINE.allowed(state) == []


# --- Striking the city -----------------------------------------------------------------------


def test_barbarian_tyro_example__striking_the_city(game):
    """Rulebook example: Tyro (2 power) vs a city space with 1 agency, sacrificed: 1 morale damage."""
    tyro_power = game.cards["barbarian-tyro"].skills[0].power
    assert tyro_power == 2
    state = started(game)
    assert state.city_agency[BLUE] == (1,)
    deck_before = state.agency_in_deck(BLUE)
    state = play(state, Action(seat=RED, note="Tyro attacks"), Pass(seat=BLUE),
                 strike(RED, 1, tyro_power, sacrificed=1))
    assert state.morale[BLUE] == 14
    assert state.city_agency[BLUE] == (0,)
    assert state.agency_in_deck(BLUE) == deck_before + 1  # back to the bottom of the agency deck


def test_strike_deals_full_power_without_sacrifice__striking_the_city(game):
    state = play(started(game), strike(RED, 1, 2))
    assert state.morale == (15, 13)
    assert state.city_agency[BLUE] == (1,)


def test_sacrifice_only_from_struck_space__striking_the_city(game):
    state = play(add_lanes(started(game), 1), gain(BLUE, 2), gain(BLUE, 2))
    assert state.city_agency[BLUE] == (1, 2)
    refused(state, strike(RED, 1, 4, sacrificed=2), "Striking the city", "lane 1 holds only 1")
    state = play(state, strike(RED, 2, 4, sacrificed=2))
    assert state.city_agency[BLUE] == (1, 0) and state.morale[BLUE] == 13


def test_sacrifice_no_more_than_power__striking_the_city(game):
    state = play(started(game), gain(BLUE, 1))
    refused(state, strike(RED, 1, 1, sacrificed=2), "Striking the city", "prevents at most 1")


def test_strike_on_missing_lane_refused__the_battlefield(game):
    refused(started(game), strike(RED, 2, 3), "The battlefield", "no lane 2")


def test_strike_as_turn_action_needs_the_turn__player_actions(game):
    state = started(game)
    refused(state, strike(BLUE, 1, 2, ends_turn=True), "Player Actions", "Red's turn")
    state = play(state, strike(RED, 1, 2, ends_turn=True))
    assert state.turn == BLUE


# --- The battlefield: lanes and city spaces ----------------------------------------------------


def test_battlefield_starts_with_one_lane_and_grows_to_six__the_battlefield(game):
    state = started(game)
    assert state.lanes == 1 and state.city_agency == ((1,), (1,))
    state = add_lanes(state, 5)
    assert state.lanes == 6
    assert state.city_agency == ((1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))
    refused(state, AddLane(seat=BLUE), "The battlefield", "already has 6 lanes")


def test_city_space_holds_three_agency__the_battlefield(game):
    state = play(started(game), gain(RED, 1), gain(RED, 1))
    assert state.city_agency[RED] == (3,)
    state = add_lanes(state, 1)
    refused(state, gain(RED, 1), "The battlefield", "lane 1 already holds 3")
    state = play(state, gain(RED, 2))
    assert state.city_agency[RED] == (3, 1)


def test_gain_agency_needs_a_lane_when_there_is_room__gaining_agency(game):
    refused(started(game), gain(RED), "Gaining agency", "choose a lane")


# --- Gaining agency with full city spaces (main text vs glossary) -------------------------------


def test_full_city_agency_goes_to_bottom_of_deck_by_default__gaining_agency(game):
    """Main text: with all city spaces full, gained agency goes to the bottom of the agency deck."""
    state = fill_city(started(game), RED)
    assert state.options.full_city_agency == "bottom_of_deck"
    deck = state.agency_in_deck(RED)
    refused(state, gain(RED, 1), "Gaining agency", "full: leave the lane out")
    after = play(state, gain(RED))
    assert after.city_agency == state.city_agency and after.agency_in_deck(RED) == deck
    assert line(state, gain(RED)) == "Red gained 1 agency → to the bottom of the agency deck (city full)"
    # The Token changes nothing under the main text.
    with_token = play(state, Pass(seat=RED), TakeToken(seat=BLUE), Pass(seat=RED), StartRound(agency_lane_1=1))
    assert with_token.city_agency[RED] == (3,)
    assert with_token.agency_set_aside == (0, 0)


def test_full_city_agency_sacrificed_without_token__glossary_gain_agency(game):
    """Glossary reading: with all city spaces full and no Token, the agency is sacrificed."""
    state = fill_city(started(game, full_city_agency="sacrifice_unless_token"), RED)
    error = refused(state, gain(RED, 1), "Glossary: Gain Agency", "full")
    assert "do not control the Carpe Cras Token" in error.rule
    after = play(state, gain(RED))
    assert after.city_agency[RED] == (3,) and after.agency_set_aside == (0, 0)
    assert "sacrificed" in line(state, gain(RED))


def test_full_city_agency_set_aside_with_token__glossary_gain_agency(game):
    """Glossary reading: the Token's holder is not made to sacrifice; we set the card aside."""
    state = fill_city(started(game, full_city_agency="sacrifice_unless_token"), RED)
    state = play(state, TakeToken(seat=RED))
    deck = state.agency_in_deck(RED)
    state = play(state, gain(RED))
    assert state.agency_set_aside == (1, 0)
    assert state.agency_in_deck(RED) == deck - 1
    refused(state, gain(RED, source="set_aside"), "The battlefield", "full")
    state = play(state, AddLane(seat=BLUE), gain(RED, 2, source="set_aside"))
    assert state.agency_set_aside == (0, 0) and state.city_agency[RED] == (3, 1)
    refused(state, gain(RED, 2, source="set_aside"), "Glossary: Gain Agency", "no agency set aside")


def test_full_city_round_start_agency__gaining_agency(game):
    state = fill_city(started(game), BLUE)
    state = play(state, Pass(seat=RED), Pass(seat=BLUE))
    refused(state, StartRound(agency_lane_0=1, agency_lane_1=1), "Gaining agency", "Blue's city spaces are full")
    state = play(state, StartRound(agency_lane_0=1))
    assert state.city_agency == ((2,), (3,))


def test_options_reject_unknown_reading(game):
    with pytest.raises(InvalidInput) as info:
        new(game, full_city_agency="keep_it")
    assert info.value.problems[0].field == "options.full_city_agency"
    with pytest.raises(InvalidInput) as info:
        new(game, house_rule=True)
    assert str(info.value.problems[0]) == "options.house_rule: unknown field"


# --- Pre-Game Setup: mulligan and first player ------------------------------------------------------


def test_each_player_may_mulligan_once_before_the_first_round__pre_game_setup(game):
    """Pre-Game Setup: "You get one shot before the first round to mulligan your hand"."""
    state = play(new(game), Mulligan(seat=BLUE))
    assert state.mulligans == (False, True)
    assert line(new(game), Mulligan(seat=BLUE)) == "Blue mulliganed: shuffled the opening hand back and drew 5"
    refused(state, Mulligan(seat=BLUE), "Pre-Game Setup", "already taken")
    state = play(state, FirstPlayerRoll(rolls=(2, 3)), Mulligan(seat=RED))  # still before round 1
    assert state.mulligans == (True, True)
    state = play(new(game), FirstPlayerRoll(rolls=(1, 6)), ChooseStartingPlayer(seat=RED, starting_seat=RED),
                 StartRound(agency_lane_0=1, agency_lane_1=1))
    refused(state, Mulligan(seat=RED), "Pre-Game Setup", "first round has started")
    assert not [m for m in ENGINE.allowed(state) if m.event is Mulligan]


def test_tie_requires_reroll__pre_game_setup(game):
    state = play(new(game), FirstPlayerRoll(rolls=(3, 3)))
    assert state.low_roller is None and state.first_player_rolls == ((3, 3),)
    refused(state, ChooseStartingPlayer(seat=RED, starting_seat=RED), "Pre-Game Setup", "roll first")
    state = play(state, FirstPlayerRoll(rolls=(5, 2)))
    assert state.low_roller == BLUE and state.first_player_rolls == ((3, 3), (5, 2))


def test_low_roller_chooses_starting_player__pre_game_setup(game):
    state = play(new(game), FirstPlayerRoll(rolls=(5, 2)))
    refused(state, ChooseStartingPlayer(seat=RED, starting_seat=RED), "Pre-Game Setup", "Blue rolled low and chooses")
    refused(state, FirstPlayerRoll(rolls=(1, 2)), "Pre-Game Setup", "Blue rolled low")
    state = play(state, ChooseStartingPlayer(seat=BLUE, starting_seat=RED), StartRound(agency_lane_0=1, agency_lane_1=1))
    assert state.round == 1 and state.turn == RED and state.phase == "play"


def test_nothing_before_the_starting_player__pre_game_setup(game):
    state = new(game)
    assert state.phase == "setup"
    refused(state, StartRound(), "Pre-Game Setup", "roll")
    refused(state, Pass(seat=RED), "Pre-Game Setup", "roll")
    refused(state, strike(RED, 1, 2), "Round Start", "not started")


def test_dice_show_one_to_six__pre_game_setup(game):
    with pytest.raises(ValidationError):
        FirstPlayerRoll(rolls=(0, 4))
    with pytest.raises(InvalidInput):
        ENGINE.apply(new(game), {"type": "first_player_roll", "rolls": [4]})


# --- Round Start, Player Actions, Round End --------------------------------------------------------


def test_round_start_each_gains_one_agency__round_start(game):
    state = play(new(game), FirstPlayerRoll(rolls=(2, 4)), ChooseStartingPlayer(seat=RED, starting_seat=BLUE))
    assert state.city_agency == ((0,), (0,)) and state.round == 0
    refused(state, StartRound(agency_lane_1=1), "Gaining agency", "choose a lane for Red")
    state = play(state, StartRound(agency_lane_0=1, agency_lane_1=1))
    assert state.city_agency == ((1,), (1,)) and state.round == 1
    assert state.turn == BLUE  # the chosen starting player acts first in round 1
    assert state.agency_in_deck(RED) == 17


def test_players_alternate_turns__player_actions(game):
    state = started(game)
    refused(state, Action(seat=BLUE), "Player Actions", "Red's turn")
    state = play(state, Action(seat=RED))
    assert state.turn == BLUE
    state = play(state, Action(seat=BLUE))
    assert state.turn == RED


def test_pass_pass_ends_round__player_actions(game):
    state = play(started(game), Pass(seat=RED), Action(seat=BLUE), Pass(seat=RED))
    assert state.step == "turns" and state.passes == (2, 0)  # a pass after an action goes on
    state = play(state, Pass(seat=BLUE))
    assert state.step == "round_start" and state.turn is None
    assert line(play(started(game), Pass(seat=RED)), Pass(seat=BLUE)) == "Blue passed; round 1 ends"
    refused(state, Action(seat=RED), "Round Start", "start round 2")
    state = play(state, StartRound(agency_lane_0=1, agency_lane_1=1))
    assert state.round == 2 and state.passes == (0, 0) and not state.last_turn_passed


def test_no_new_round_while_round_is_on__player_actions(game):
    refused(started(game), StartRound(), "Player Actions", "still on")


# --- Carpe Cras Token --------------------------------------------------------------------------------


def test_no_one_has_token_at_start__carpe_cras_token(game):
    assert started(game).token_holder is None


def test_token_taker_passes_further_turns__carpe_cras_token(game):
    state = play(started(game), TakeToken(seat=RED))
    assert state.token_holder == RED and state.turn == BLUE
    refused(state, Action(seat=RED), "Carpe Cras Token", "passes all further turns")
    state = play(state, Action(seat=BLUE), Action(seat=BLUE))
    assert state.turn == BLUE  # Red's turns are passed
    state = play(state, Pass(seat=BLUE))
    assert state.step == "round_start"


def test_token_once_per_round__carpe_cras_token(game):
    state = play(started(game), TakeToken(seat=RED))
    refused(state, TakeToken(seat=BLUE), "Carpe Cras Token", "already took")


def test_token_take_does_not_end_round_after_pass__carpe_cras_token(game):
    """Our reading: the opponent may still act after the Token is taken right after their pass."""
    state = play(started(game), Pass(seat=RED), TakeToken(seat=BLUE))
    assert state.step == "turns" and state.turn == RED


def test_token_taker_starts_next_round__carpe_cras_token(game):
    state = play(started(game), Action(seat=RED), TakeToken(seat=BLUE), Pass(seat=RED),
                 StartRound(agency_lane_0=1, agency_lane_1=1))
    assert state.round == 2 and state.turn == BLUE  # Red started round 1
    assert state.token_holder == BLUE and state.token_taken_round == 1


def test_token_kept_until_opponent_takes_it__carpe_cras_token(game):
    state = play(started(game), TakeToken(seat=RED), Pass(seat=BLUE), StartRound(agency_lane_0=1, agency_lane_1=1))
    # Round 2: both pass; Red keeps the Token and starts round 3.
    state = play(state, Pass(seat=RED), Pass(seat=BLUE))
    assert state.token_holder == RED
    state = play(state, StartRound(agency_lane_0=1, agency_lane_1=1))
    assert state.turn == RED and state.round == 3
    # Round 3: the holder may claim it again, or the opponent takes it.
    state = play(state, Action(seat=RED), TakeToken(seat=BLUE))
    assert state.token_holder == BLUE
    assert state.city_agency == ((3,), (3,))
    state = play(state, Pass(seat=RED), StartRound())  # cities full
    assert state.turn == BLUE


def test_first_round_begins_with_starting_player__round_start(game):
    state = play(new(game), FirstPlayerRoll(rolls=(6, 1)), ChooseStartingPlayer(seat=BLUE, starting_seat=BLUE),
                 StartRound(agency_lane_0=1, agency_lane_1=1))
    assert state.turn == BLUE
    state = play(state, Pass(seat=BLUE), Pass(seat=RED), StartRound(agency_lane_0=1, agency_lane_1=1))
    assert state.turn == BLUE  # no one took the Token: the starting player again (our reading)


# --- Tempo ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("differential", "roll", "expected"), [
    (6, None, True), (9, None, True), (6, 6, True),      # 6 or more: certain, no roll
    (0, None, False), (-2, None, False), (0, 1, False),  # 0 or less: impossible
    (3, 3, True), (3, 4, False), (1, 1, True), (5, 6, False),
])
def test_tempo_roll_at_most_differential__tempo(differential, roll, expected):
    assert tempo.tempo_succeeds(differential, roll) is expected


def test_tempo_needs_a_roll_between_one_and_five__tempo():
    assert [tempo.tempo_needs_roll(d) for d in (-1, 0, 1, 5, 6)] == [False, False, True, True, False]
    with pytest.raises(RuleError) as info:
        tempo.tempo_succeeds(2)
    assert "Tempo" in info.value.rule and "needs a die roll" in info.value.message
    with pytest.raises(RuleError):
        tempo.tempo_succeeds(2, 7)


def test_speed_differential__tempo():
    # Striker: speed 3, Accuracy 1, Dexterity 1; target: speed 2, Evade 1.
    first = tempo.striking_speed(3, accuracy=1, dexterity=1, first_strike=True)
    second = tempo.striking_speed(3, accuracy=1, dexterity=1, first_strike=False)
    target = tempo.targeted_speed(2, evade=1)
    assert (first, second, target) == (5, 4, 3)
    assert tempo.speed_differential(first, target) == 2
    assert tempo.tempo_differential("dodge", striker_speed=3, accuracy=1, dexterity=1, target_speed=2, evade=1) == -2
    assert tempo.tempo_differential("strike_twice", striker_speed=3, accuracy=1, dexterity=1, target_speed=2,
                                    evade=1) == 1  # Dexterity counts, Accuracy does not
    assert tempo.tempo_differential("dodge_strike_twice", striker_speed=3, accuracy=1, dexterity=1,
                                    target_speed=2, evade=1) == -1


def test_dagger_on_royal_scout__upgrades_example_1(game):
    """Example 1: the Dagger gives Royal Scout's Knife +2 power AND 1 more range, and +1 speed."""
    scout = tempo.equip(game.cards["royal-scout"], [game.cards["dagger"]])
    printed = {s.name: s for s in game.cards["royal-scout"].skills}
    assert scout.speed == 4
    assert scout.skills["Knife"].power == 4 and scout.skills["Sword"].power == 2
    assert scout.skills["Knife"].range == printed["Knife"].range + 1
    assert scout.skills["Sword"].range == printed["Sword"].range  # the Dagger gives no Sword range
    assert scout.speed_striking_with("Sword") == 4 and scout.speed_targeted() == 4


def test_an_upgrade_skill_the_holder_lacks_has_the_default_range_plus_its_bonus__range(game):
    """Card anatomy, Range: a skill showing no range has range 1; the Dagger's +1 adds to it
    (our reading for a skill gained from an upgrade alone)."""
    squirrel = tempo.equip(game.cards["well-read-squirrel"], [game.cards["dagger"]])
    assert "Knife" not in {s.name for s in game.cards["well-read-squirrel"].skills}
    assert squirrel.skills["Knife"].power == 2 and squirrel.skills["Knife"].range == 2


@pytest.mark.parametrize(("dx", "dy", "distance"), [(0, 0, 0), (1, 0, 1), (0, 2, 2), (1, 1, 2), (2, 1, 3)])
def test_diagonals_are_two_spaces__range(dx, dy, distance):
    assert tempo.spaces_away(dx, dy) == distance


def test_a_strike_reaches_up_to_its_range__range(game):
    scout = tempo.equip(game.cards["royal-scout"], [game.cards["dagger"]])
    knife = scout.skills["Knife"].range
    assert scout.reaches("Knife", knife) and not scout.reaches("Knife", knife + 1)
    assert scout.reaches("Knife", 0)  # a skill always reaches its own space
    assert tempo.combat_kind(1) == "melee" and tempo.combat_kind(2) == "projectile"


def test_katana_on_well_read_squirrel__upgrades_example_2(game):
    squirrel = tempo.equip(game.cards["well-read-squirrel"], [game.cards["katana"]])
    assert squirrel.skills["Sword"].power == 3 and squirrel.skills["Sword"].dexterity == 2
    assert squirrel.speed_striking_with("Sword") == 6  # striking with the Sword
    assert squirrel.speed_targeted() == 4               # trying to dodge


def test_squirrel_strikes_scout_dodge_and_strike_twice__tempo(game):
    """Squirrel+Katana (6 striking) vs Scout+Dagger (4): the Scout cannot dodge; Strike Twice on 1-2."""
    squirrel = tempo.equip(game.cards["well-read-squirrel"], [game.cards["katana"]])
    scout = tempo.equip(game.cards["royal-scout"], [game.cards["dagger"]])
    dodge = tempo.speed_differential(scout.speed_targeted(), squirrel.speed_striking_with("Sword"))
    assert dodge == -2 and tempo.tempo_succeeds(dodge) is False
    twice = tempo.speed_differential(squirrel.speed_striking_with("Sword", first_strike=False), scout.speed_targeted())
    assert twice == 2
    assert tempo.tempo_succeeds(twice, 2) is True and tempo.tempo_succeeds(twice, 3) is False
    # The Scout's retaliation (speed 4) against the Squirrel (dodging at 4): differential 0 both ways.
    assert tempo.speed_differential(squirrel.speed_targeted(), scout.speed_striking_with("Knife")) == 0


def test_tempo_roll_event_records_result__tempo(game):
    state = started(game)
    event = TempoRoll(seat=RED, check="strike_twice", striker_speed=4, dexterity=2, accuracy=3, target_speed=4, roll=2)
    after = play(state, event)
    assert after.last_tempo.differential == 2 and after.last_tempo.succeeded
    assert after.turn == state.turn  # a helper entry, not a turn
    assert line(state, event) == "Tempo, Red to Strike Twice: speed 6 vs 4, differential 2; rolled 2: success"
    refused(state, event.evolve(roll=None), "Tempo", "needs a die roll")
    dodge = TempoRoll(seat=BLUE, check="dodge", striker_speed=1, target_speed=7)
    assert play(state, dodge).last_tempo.succeeded  # differential 6: dodged without a roll


# --- Damage, healing and stats ------------------------------------------------------------------------


def test_armor_and_resistance__glossary_damage():
    assert tempo.damage_taken(4, "physical", armor=1, resistance=3) == 3
    assert tempo.damage_taken(4, "magic", armor=1, resistance=3) == 1
    assert tempo.damage_taken(4, "unspecified", armor=1, resistance=3) == 4
    assert tempo.damage_taken(2, "physical", armor=5) == 0  # never below 0


def test_stats_never_below_zero__glossary_stats():
    assert tempo.stat_total(1, -3) == 0
    assert tempo.stat_total(2, 1, -1) == 2
    assert tempo.striking_speed(0, accuracy=0) == 0


def test_defeated_when_damage_reaches_health__glossary_damage(game):
    squirrel = game.cards["well-read-squirrel"]
    assert not tempo.is_defeated(squirrel.health - 1, squirrel.health)
    assert tempo.is_defeated(squirrel.health, squirrel.health)
    assert tempo.is_defeated(squirrel.health + 2, squirrel.health)


@pytest.mark.parametrize(("damage", "healing", "left"), [(3, 1, 2), (3, 3, 0), (2, 5, 0), (0, 2, 0)])
def test_healing_cannot_exceed_max_health__glossary_heal(damage, healing, left):
    """Glossary, Heal: healing removes damage; a card cannot heal over its max health."""
    assert tempo.healed(damage, healing) == left


# --- Engine plumbing, scenario ----------------------------------------------------------------------------


def test_two_players_only__introduction(game):
    with pytest.raises(RuleError) as info:
        ENGINE.new_state(["Red", "Blue", "Green"], {}, game)
    assert "Carpe Cras is for 2 players" in info.value.rule and "3 players" in info.value.message


def test_engine_registered():
    engine = registry()["carpe_cras"].engine
    assert engine is ENGINE and engine.min_players == engine.max_players == 2
    assert {"strike_city", "take_token", "mulligan"} <= set(engine.events)
    assert engine.events["strike_city"] is StrikeCity


def test_describe_strike_line(game):
    state = play(started(game), gain(BLUE, 1))
    assert line(state, strike(RED, 1, 3, sacrificed=1)) == \
        "Red struck Blue's city in lane 1 for 3; Blue sacrificed 1 agency, morale 15 → 13"


def scenario_states(game):
    state = ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, game)
    states = [state]
    for event in scenario.EVENTS:
        state = play(state, event)
        states.append(state)
    return states


def test_scenario_complete_game(game):
    states = scenario_states(game)
    result = ENGINE.outcome(states[-1])
    assert result.finished and result.winners == tuple(scenario.WINNERS)
    assert result.scores == (15.0, 0.0)
    assert not any(ENGINE.outcome(s).finished for s in states[:-1])


def test_scenario_illegal_event(game):
    index, event, words = scenario.ILLEGAL
    state = scenario_states(game)[index]
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, event)
    assert words in info.value.message


# --- Forms: what the rules allow now ---------------------------------------------------------------------


def moves_of(state, seat=None):
    return {m.event: m for m in ENGINE.allowed(state, seat)}


def test_forms_offer_only_what_the_rules_allow(game):
    state = new(game)
    assert set(moves_of(state)) == {Mulligan, FirstPlayerRoll}
    state = play(state, FirstPlayerRoll(rolls=(5, 2)))
    choose = moves_of(state)[ChooseStartingPlayer]
    assert choose.seat == BLUE and choose.fixed == {"seat": BLUE}
    assert [c.label for c in choose.field("starting_seat").choices] == ["Red", "Blue"]
    assert ChooseStartingPlayer not in moves_of(state, RED)  # Blue rolled low: not Red's move
    state = play(state, ChooseStartingPlayer(seat=BLUE, starting_seat=RED))
    start = moves_of(state)[StartRound]
    assert [c.value for c in start.field("agency_lane_0").choices] == [1]
    state = play(state, StartRound(agency_lane_0=1, agency_lane_1=1), AddLane(seat=RED))
    red = moves_of(state, RED)
    assert {Action, Pass, TakeToken, StrikeCity, GainAgency, RecoverMorale} <= set(red)
    assert red[StrikeCity].field("ends_turn").default is True  # Red's turn: a strike is the turn's action
    assert moves_of(state, BLUE)[StrikeCity].field("ends_turn").default is False
    assert Action not in moves_of(state, BLUE) and Pass not in moves_of(state, BLUE)
    state = fill_city(state, RED)
    assert GainAgency in moves_of(state, RED)  # still: it goes to the bottom of the deck
    assert moves_of(state, RED)[GainAgency].fixed["lane"] is None
    state = play(state, TakeToken(seat=RED))
    assert TakeToken not in moves_of(state)  # once per round


def test_every_scenario_event_is_offered_with_its_values(game):
    """The forms hold the moves players make: each scenario event is among the allowed moves
    of the state before it, its values among the choices offered."""
    states = scenario_states(game)
    for state, event in zip(states, scenario.EVENTS):
        data = ENGINE.parse_event(event)
        offered = [m for m in ENGINE.allowed(state) if m.event is type(data)]
        assert offered, (state.step, data)
        assert any(_fits(move, data) for move in offered), (data, offered)


def _fits(move, event) -> bool:
    values = event.model_dump()
    for name, value in move.fixed.items():
        if values.get(name) != value:
            return False
    for form_field in move.fields:
        if form_field.choices and form_field.kind == "choice" and values.get(form_field.name) is not None:
            if values[form_field.name] not in {c.value for c in form_field.choices}:
                return False
    return True


def test_a_cards_effect_damages_morale_outside_a_strike__glossary_effect_damage(game):
    state = started(game)
    after = play(state, cc.LoseMorale(seat=BLUE, amount=3))
    assert after.morale == (15, 12) and after.turn == state.turn  # not a turn's action
    assert line(state, cc.LoseMorale(seat=BLUE, amount=3)) == "Blue's city lost 3 morale to an effect: 15 → 12"
    over = play(state, cc.LoseMorale(seat=RED, amount=20))
    assert over.morale[RED] == 0 and ENGINE.outcome(over).winners == (BLUE,)
    refused(new(game), cc.LoseMorale(seat=RED, amount=1), "Round Start", "not started")


def test_morale_counters_are_one_tap_events__morale(game):
    """Each city's morale is a counter whose − and + are moves of the rules: one tap, one event."""
    assert new(game).counters() == []
    state = play(started(game), strike(RED, 1, 2))
    blue = state.counters()[BLUE]
    assert (blue.label, blue.value) == ("Blue's morale", 13)
    assert blue.minus.fixed == {"seat": BLUE, "amount": 1} and not blue.minus.fields
    assert blue.plus.fixed == {"seat": BLUE, "amount": 1, "ends_turn": False} and not blue.plus.fields
    after = play(state, ENGINE.parse_event({"type": blue.minus.type_name, **blue.minus.fixed}))
    assert after.morale[BLUE] == 12
    assert state.counters()[RED].plus is None  # Red is at 15: nothing to recover


def test_tempo_from_the_cards_is_example_1__upgrades(game):
    """Upgrades, Example 1, entered as the cards: Dagger on Royal Scout gives Knife 4 with 1 more
    range and speed 4; the Sword stays 2 but strikes at speed 4 too."""
    from card_data.games.carpe_cras.rules import CardTempo

    state = started(game)
    example = CardTempo(seat=BLUE, check="dodge", striker="royal-scout", striker_upgrades=["dagger"], skill="Sword",
                        target="well-read-squirrel", target_upgrades=["katana"])
    after = play(state, example)
    scout = after.last_tempo.striker.stats
    assert (scout.speed, scout.skills["Knife"].power, scout.skills["Knife"].range) == (4, 4, 2)
    assert (scout.skills["Sword"].power, scout.skills["Sword"].range) == (2, 1)
    # Example 2 on the other side: the Squirrel with the Katana dodges at its own speed 4 (the
    # Katana's Dexterity counts only for its Sword strikes): 4 vs the Scout's 4, no chance.
    assert after.last_tempo.target.stats.speed_targeted() == 4
    assert (after.last_tempo.differential, after.last_tempo.succeeded) == (0, False)
    assert line(state, example) == (
        "Tempo, Blue dodging a first strike: Royal Scout with Dagger (Speed 4; Knife: power 4, range 2; "
        "Sword: power 2, range 1) strikes with Sword at Well Read Squirrel with Katana (Speed 4; Sword: power 3, "
        "range 1, Dexterity 2); speed 4 vs 4, differential 0; no roll needed: success impossible")
    assert after.turn == state.turn  # a helper entry, not a turn
    # The Squirrel striking back with the Katana's Sword: speed 4 + Dexterity 2 = 6 vs the Scout's 4.
    back = CardTempo(seat=RED, check="dodge", striker="well-read-squirrel", striker_upgrades=["katana"],
                     skill="Sword", target="royal-scout", target_upgrades=["dagger"], roll=2)
    assert (play(state, back).last_tempo.differential, play(state, back).last_tempo.succeeded) == (-2, False)
    refused(state, example.evolve(skill="Bite"), "Upgrades", "Royal Scout has no Bite skill")
    with pytest.raises(InvalidInput) as bad:
        ENGINE.apply(state, example.evolve(striker="no-such-unit"))
    assert bad.value.problems[0].field == "striker"
    with pytest.raises(InvalidInput):
        ENGINE.apply(state, example.evolve(target_upgrades=["royal-scout"]))
    with pytest.raises(InvalidInput):  # at most MOST_UPGRADES upgrades, checked when parsed
        ENGINE.parse_event({**example.to_json(), "striker_upgrades": ["dagger"] * 7})
