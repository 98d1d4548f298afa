"""Carpe Cras rule engine: scenarios from the rulebook (carpe-cras.txt V1.0), one per rule.

Each test names the rulebook section it checks (test name ``__section`` or docstring).
"""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from card_data.loader import load_database
from card_data.engine import RuleError
from card_data.games import registry
import card_data.games.carpe_cras.rules as cc
import card_data.games.carpe_cras.tempo as tempo
import scenarios_carpe_cras as scenario

RED, BLUE = 0, 1


@pytest.fixture(scope="module")
def game():
    return load_database().games["carpe_cras"]


def play(state, *events):
    """``state`` after ``events`` (dicts), checking each step keeps the input intact and round-trips."""
    for event in events:
        before = copy.deepcopy(state.model_dump(mode="json"))
        after = cc.apply(state, event)
        assert state.model_dump(mode="json") == before, f"apply mutated its input on {event}"
        assert cc.State.model_validate(after.model_dump(mode="json")) == after
        state = after
    return state


def refused(state, event, section: str, *words: str) -> RuleError:
    """Assert ``event`` is refused on ``state`` with a rule naming ``section`` and a message with ``words``."""
    with pytest.raises(RuleError) as info:
        cc.apply(state, event)
    assert section in info.value.rule
    assert "Carpe Cras rulebook V1.0" in info.value.rule
    for word in words:
        assert word in info.value.message
    return info.value


def new(game, **options):
    return cc.new_state(["Red", "Blue"], options, game)


def started(game, **options):
    """Red rolls low, starts, and round 1 begins with both agency in lane 1."""
    return play(new(game, **options),
                {"type": "first_player_roll", "rolls": [1, 6]},
                {"type": "choose_starting_player", "seat": RED, "starting_seat": RED},
                {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1})


def strike(seat, lane, power, sacrificed=0, ends_turn=False):
    return {"type": "strike_city", "seat": seat, "lane": lane, "power": power, "sacrificed": sacrificed,
            "ends_turn": ends_turn}


def gain(seat, lane=None, **extra):
    return {"type": "gain_agency", "seat": seat, "lane": lane, **extra}


def add_lanes(state, count):
    return play(state, *[{"type": "add_lane", "seat": RED}] * count)


def fill_city(state, seat):
    """Every city space of ``seat`` filled to 3 agency."""
    for lane in range(1, state.lanes + 1):
        while state.city_agency[seat][lane - 1] < 3:
            state = play(state, gain(seat, lane))
    return state


# --- Morale ---------------------------------------------------------------------------------


def test_morale_starts_at_15__morale(game):
    state = new(game)
    assert state.morale == [15, 15]
    assert cc.outcome(state).scores == [15.0, 15.0]
    assert cc.outcome(state).score_label == "Morale"


def test_morale_cannot_exceed_start__morale(game):
    state = play(started(game), strike(RED, 1, 3))
    assert state.morale[BLUE] == 12
    state = play(state, {"type": "recover_morale", "seat": BLUE, "amount": 5})
    assert state.morale[BLUE] == 15  # capped, not 17
    error = refused(state, {"type": "recover_morale", "seat": BLUE, "amount": 1}, "Morale", "already 15")
    assert "never have more than its starting amount" in error.rule


def test_starting_morale_option_caps_recovery__morale(game):
    state = play(started(game, starting_morale=20), strike(BLUE, 1, 4),
                 {"type": "recover_morale", "seat": RED, "amount": 9})
    assert state.morale[RED] == 20


def test_morale_at_zero_ends_game_and_opponent_wins__morale(game):
    state = play(started(game), strike(BLUE, 1, 14))
    assert not cc.outcome(state).finished
    state = play(state, strike(BLUE, 1, 5, sacrificed=1))
    assert state.morale[RED] == 0  # 14 - 5 + 1 would be below 0: morale stops at 0
    result = cc.outcome(state)
    assert result.finished and result.winners == [BLUE]
    assert result.summary == "Blue wins: Red's morale fell to 0"
    refused(state, {"type": "pass", "seat": RED}, "Morale", "game is over")
    refused(state, {"type": "recover_morale", "seat": RED, "amount": 3}, "Morale", "game is over")


# --- Striking the city -----------------------------------------------------------------------


def test_barbarian_tyro_example__striking_the_city(game):
    """Rulebook example: Tyro (2 power) vs a city space with 1 agency, sacrificed: 1 morale damage."""
    tyro_power = game.cards["barbarian-tyro"].skills[0].power
    assert tyro_power == 2
    state = started(game)
    assert state.city_agency[BLUE] == [1]
    deck_before = state.agency_in_deck(BLUE)
    state = play(state, {"type": "action", "seat": RED, "note": "Tyro attacks"}, {"type": "pass", "seat": BLUE},
                 strike(RED, 1, tyro_power, sacrificed=1))
    assert state.morale[BLUE] == 14
    assert state.city_agency[BLUE] == [0]
    assert state.agency_in_deck(BLUE) == deck_before + 1  # back to the bottom of the agency deck


def test_strike_deals_full_power_without_sacrifice__striking_the_city(game):
    state = play(started(game), strike(RED, 1, 2))
    assert state.morale == [15, 13]
    assert state.city_agency[BLUE] == [1]


def test_sacrifice_only_from_struck_space__striking_the_city(game):
    state = play(add_lanes(started(game), 1), gain(BLUE, 2), gain(BLUE, 2))
    assert state.city_agency[BLUE] == [1, 2]
    refused(state, strike(RED, 1, 4, sacrificed=2), "Striking the city", "lane 1 holds only 1")
    state = play(state, strike(RED, 2, 4, sacrificed=2))
    assert state.city_agency[BLUE] == [1, 0] and state.morale[BLUE] == 13


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
    assert state.lanes == 1 and state.city_agency == [[1], [1]]
    state = add_lanes(state, 5)
    assert state.lanes == 6
    assert state.city_agency == [[1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]]
    refused(state, {"type": "add_lane", "seat": BLUE}, "The battlefield", "already has 6 lanes")


def test_city_space_holds_three_agency__the_battlefield(game):
    state = play(started(game), gain(RED, 1), gain(RED, 1))
    assert state.city_agency[RED] == [3]
    state = add_lanes(state, 1)
    refused(state, gain(RED, 1), "The battlefield", "lane 1 already holds 3")
    state = play(state, gain(RED, 2))
    assert state.city_agency[RED] == [3, 1]


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
    assert cc.describe(state, gain(RED)) == "Red gained 1 agency → to the bottom of the agency deck (city full)"
    # The Token changes nothing under the main text.
    with_token = play(state, {"type": "pass", "seat": RED}, {"type": "take_token", "seat": BLUE},
                      {"type": "pass", "seat": RED}, {"type": "start_round", "agency_lane_1": 1})
    assert with_token.city_agency[RED] == [3]
    assert with_token.agency_set_aside == [0, 0]


def test_full_city_agency_sacrificed_without_token__glossary_gain_agency(game):
    """Glossary reading: with all city spaces full and no Token, the agency is sacrificed."""
    state = fill_city(started(game, full_city_agency="sacrifice_unless_token"), RED)
    error = refused(state, gain(RED, 1), "Glossary: Gain Agency", "full")
    assert "do not control the Carpe Cras Token" in error.rule
    after = play(state, gain(RED))
    assert after.city_agency[RED] == [3] and after.agency_set_aside == [0, 0]
    assert "sacrificed" in cc.describe(state, gain(RED))


def test_full_city_agency_set_aside_with_token__glossary_gain_agency(game):
    """Glossary reading: the Token's holder is not made to sacrifice; we set the card aside."""
    state = fill_city(started(game, full_city_agency="sacrifice_unless_token"), RED)
    state = play(state, {"type": "take_token", "seat": RED})
    deck = state.agency_in_deck(RED)
    state = play(state, gain(RED))
    assert state.agency_set_aside == [1, 0]
    assert state.agency_in_deck(RED) == deck - 1
    refused(state, gain(RED, source="set_aside"), "The battlefield", "full")
    state = play(state, {"type": "add_lane", "seat": BLUE}, gain(RED, 2, source="set_aside"))
    assert state.agency_set_aside == [0, 0] and state.city_agency[RED] == [3, 1]
    refused(state, gain(RED, 2, source="set_aside"), "Glossary: Gain Agency", "no agency set aside")


def test_full_city_round_start_agency__gaining_agency(game):
    state = fill_city(started(game), BLUE)
    state = play(state, {"type": "pass", "seat": RED}, {"type": "pass", "seat": BLUE})
    refused(state, {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1}, "Gaining agency",
            "Blue's city spaces are full")
    state = play(state, {"type": "start_round", "agency_lane_0": 1})
    assert state.city_agency == [[2], [3]]


def test_options_reject_unknown_reading(game):
    with pytest.raises(ValidationError):
        new(game, full_city_agency="keep_it")
    with pytest.raises(ValidationError):
        new(game, house_rule=True)


# --- Pre-Game Setup: first player ----------------------------------------------------------------


def test_tie_requires_reroll__pre_game_setup(game):
    state = play(new(game), {"type": "first_player_roll", "rolls": [3, 3]})
    assert state.low_roller is None and state.first_player_rolls == [[3, 3]]
    refused(state, {"type": "choose_starting_player", "seat": RED, "starting_seat": RED}, "Pre-Game Setup",
            "roll first")
    state = play(state, {"type": "first_player_roll", "rolls": [5, 2]})
    assert state.low_roller == BLUE and state.first_player_rolls == [[3, 3], [5, 2]]


def test_low_roller_chooses_starting_player__pre_game_setup(game):
    state = play(new(game), {"type": "first_player_roll", "rolls": [5, 2]})
    refused(state, {"type": "choose_starting_player", "seat": RED, "starting_seat": RED}, "Pre-Game Setup",
            "Blue rolled low and chooses")
    refused(state, {"type": "first_player_roll", "rolls": [1, 2]}, "Pre-Game Setup", "Blue rolled low")
    state = play(state, {"type": "choose_starting_player", "seat": BLUE, "starting_seat": RED},
                 {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1})
    assert state.round == 1 and state.turn == RED


def test_nothing_before_the_starting_player__pre_game_setup(game):
    state = new(game)
    refused(state, {"type": "start_round"}, "Pre-Game Setup", "roll")
    refused(state, {"type": "pass", "seat": RED}, "Pre-Game Setup", "roll")
    refused(state, strike(RED, 1, 2), "Round Start", "not started")


def test_dice_show_one_to_six__pre_game_setup(game):
    with pytest.raises(ValidationError):
        cc.apply(new(game), {"type": "first_player_roll", "rolls": [0, 4]})
    with pytest.raises(ValidationError):
        cc.apply(new(game), {"type": "first_player_roll", "rolls": [4]})


# --- Round Start, Player Actions, Round End --------------------------------------------------------


def test_round_start_each_gains_one_agency__round_start(game):
    state = play(new(game), {"type": "first_player_roll", "rolls": [2, 4]},
                 {"type": "choose_starting_player", "seat": RED, "starting_seat": BLUE})
    assert state.city_agency == [[0], [0]] and state.round == 0
    refused(state, {"type": "start_round", "agency_lane_1": 1}, "Gaining agency", "choose a lane for Red")
    state = play(state, {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1})
    assert state.city_agency == [[1], [1]] and state.round == 1
    assert state.turn == BLUE  # the chosen starting player acts first in round 1
    assert state.agency_in_deck(RED) == 17


def test_players_alternate_turns__player_actions(game):
    state = started(game)
    refused(state, {"type": "action", "seat": BLUE}, "Player Actions", "Red's turn")
    state = play(state, {"type": "action", "seat": RED})
    assert state.turn == BLUE
    state = play(state, {"type": "action", "seat": BLUE})
    assert state.turn == RED


def test_pass_pass_ends_round__player_actions(game):
    state = play(started(game), {"type": "pass", "seat": RED}, {"type": "action", "seat": BLUE},
                 {"type": "pass", "seat": RED})
    assert state.phase == "turns" and state.passes == [2, 0]  # a pass after an action goes on
    state = play(state, {"type": "pass", "seat": BLUE})
    assert state.phase == "round_start" and state.turn is None
    assert cc.describe(play(started(game), {"type": "pass", "seat": RED}), {"type": "pass", "seat": BLUE}) \
        == "Blue passed; round 1 ends"
    refused(state, {"type": "action", "seat": RED}, "Round Start", "start round 2")
    state = play(state, {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1})
    assert state.round == 2 and state.passes == [0, 0] and not state.last_turn_passed


def test_no_new_round_while_round_is_on__player_actions(game):
    refused(started(game), {"type": "start_round"}, "Player Actions", "still on")


# --- Carpe Cras Token --------------------------------------------------------------------------------


def test_no_one_has_token_at_start__carpe_cras_token(game):
    assert started(game).token_holder is None


def test_token_taker_passes_further_turns__carpe_cras_token(game):
    state = play(started(game), {"type": "take_token", "seat": RED})
    assert state.token_holder == RED and state.turn == BLUE
    refused(state, {"type": "action", "seat": RED}, "Carpe Cras Token", "passes all further turns")
    state = play(state, {"type": "action", "seat": BLUE}, {"type": "action", "seat": BLUE})
    assert state.turn == BLUE  # Red's turns are passed
    state = play(state, {"type": "pass", "seat": BLUE})
    assert state.phase == "round_start"


def test_token_once_per_round__carpe_cras_token(game):
    state = play(started(game), {"type": "take_token", "seat": RED})
    refused(state, {"type": "take_token", "seat": BLUE}, "Carpe Cras Token", "already took")


def test_token_take_does_not_end_round_after_pass__carpe_cras_token(game):
    """Our reading: the opponent may still act after the Token is taken right after their pass."""
    state = play(started(game), {"type": "pass", "seat": RED}, {"type": "take_token", "seat": BLUE})
    assert state.phase == "turns" and state.turn == RED


def test_token_taker_starts_next_round__carpe_cras_token(game):
    state = play(started(game), {"type": "action", "seat": RED}, {"type": "take_token", "seat": BLUE},
                 {"type": "pass", "seat": RED}, {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1})
    assert state.round == 2 and state.turn == BLUE  # Red started round 1
    assert state.token_holder == BLUE and state.token_taken_round == 1


def test_token_kept_until_opponent_takes_it__carpe_cras_token(game):
    state = play(started(game), {"type": "take_token", "seat": RED}, {"type": "pass", "seat": BLUE},
                 {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1})
    # Round 2: both pass; Red keeps the Token and starts round 3.
    state = play(state, {"type": "pass", "seat": RED}, {"type": "pass", "seat": BLUE})
    assert state.token_holder == RED
    state = play(state, {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1})
    assert state.turn == RED and state.round == 3
    # Round 3: the holder may claim it again, or the opponent takes it.
    state = play(state, {"type": "action", "seat": RED}, {"type": "take_token", "seat": BLUE})
    assert state.token_holder == BLUE
    assert state.city_agency == [[3], [3]]
    state = play(state, {"type": "pass", "seat": RED}, {"type": "start_round"})  # cities full
    assert state.turn == BLUE


def test_first_round_begins_with_starting_player__round_start(game):
    state = play(new(game), {"type": "first_player_roll", "rolls": [6, 1]},
                 {"type": "choose_starting_player", "seat": BLUE, "starting_seat": BLUE},
                 {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1})
    assert state.turn == BLUE
    state = play(state, {"type": "pass", "seat": BLUE}, {"type": "pass", "seat": RED},
                 {"type": "start_round", "agency_lane_0": 1, "agency_lane_1": 1})
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
    scout = tempo.equip(game.cards["royal-scout"], [game.cards["dagger"]])
    assert scout.speed == 4
    assert scout.skills["Knife"].power == 4 and scout.skills["Sword"].power == 2
    assert scout.speed_striking_with("Sword") == 4 and scout.speed_targeted() == 4


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
    event = {"type": "tempo_roll", "seat": RED, "check": "strike_twice", "striker_speed": 4, "dexterity": 2,
             "accuracy": 3, "target_speed": 4, "roll": 2}
    after = play(state, event)
    assert after.last_tempo.differential == 2 and after.last_tempo.succeeded
    assert after.turn == state.turn  # a helper entry, not a turn
    assert cc.describe(state, event) == ("Tempo, Red to Strike Twice: speed 6 vs 4, differential 2; "
                                         "rolled 2: success")
    refused(state, {**event, "roll": None}, "Tempo", "needs a die roll")
    dodge = {"type": "tempo_roll", "seat": BLUE, "check": "dodge", "striker_speed": 1, "target_speed": 7}
    assert play(state, dodge).last_tempo.succeeded  # differential 6: dodged without a roll


# --- Damage and stats ---------------------------------------------------------------------------------


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


# --- Engine plumbing, scenario, page ----------------------------------------------------------------------


def test_two_players_only__introduction(game):
    with pytest.raises(RuleError) as info:
        cc.new_state(["Red", "Blue", "Green"], {}, game)
    assert "two players" in info.value.rule and "not 3" in info.value.message


def test_engine_registered():
    engine = registry()["carpe_cras"].engine
    assert engine is cc.ENGINE and engine.min_players == engine.max_players == 2
    assert "strike_city" in sorted(engine.events) and "take_token" in sorted(engine.events)


def test_describe_strike_line(game):
    state = play(started(game), gain(BLUE, 1))
    assert cc.describe(state, strike(RED, 1, 3, sacrificed=1)) == \
        "Red struck Blue's city in lane 1 for 3; Blue sacrificed 1 agency, morale 15 → 13"


def scenario_states(game):
    state = cc.new_state(scenario.PLAYERS, scenario.OPTIONS, game)
    states = [state]
    for event in scenario.EVENTS:
        cc.describe(state, event)
        state = play(state, event)
        states.append(state)
    return states


def test_scenario_complete_game(game):
    states = scenario_states(game)
    result = cc.outcome(states[-1])
    assert result.finished and result.winners == scenario.WINNERS
    assert result.scores == [15.0, 0.0]
    assert not any(cc.outcome(s).finished for s in states[:-1])


def test_scenario_illegal_event(game):
    index, event, words = scenario.ILLEGAL
    state = scenario_states(game)[index]
    with pytest.raises(RuleError) as info:
        cc.apply(state, event)
    assert words in info.value.message


@pytest.fixture(scope="module")
def jinja(app):
    return app.jinja_env


def render(jinja, state, players=None):
    """The page partial for ``state``, as the table page includes it."""

    class Table:
        code = "ABCD"
        game = "carpe_cras"
        options = scenario.OPTIONS

    Table.players = players or scenario.PLAYERS
    return jinja.get_template("tables/carpe_cras.html").render(
        table=Table, state=state, outcome=cc.outcome(state), post_url="/t/x/events")


def test_page_renders_every_scenario_state(jinja, game):
    states = scenario_states(game)
    pages = [render(jinja, s) for s in states]
    assert 'name="rolls[]"' in pages[0] and 'value="first_player_roll"' in pages[0]
    assert 'value="choose_starting_player"' in pages[2]
    assert 'value="start_round"' in pages[3] and 'name="agency_lane_1"' in pages[3]
    during = pages[4]
    for form in ("action", "pass", "take_token", "strike_city", "gain_agency", "add_lane", "tempo_roll"):
        assert f'value="{form}"' in during, form
    assert "Red</strong>'s turn" in during
    assert "●○○" in during  # one agency pip in lane 1
    assert "no one has it yet" in during
    after_token = pages[6]
    assert 'value="take_token"' not in after_token and "Blue" in after_token and "taken this round" in after_token
    finished = pages[-1]
    assert "Red wins: Blue&#39;s morale fell to 0" in finished
    assert 'value="strike_city"' not in finished and 'value="pass"' not in finished
    assert "<strong>0</strong> of 15" in finished


def test_page_shows_both_full_city_readings(jinja, game):
    page = render(jinja, started(game, full_city_agency="sacrifice_unless_token"))
    assert "Main text (Gaining agency)" in page and "Glossary (Gain Agency), used at this table" in page


def test_page_escapes_player_names(jinja, game):
    state = cc.new_state(["<b>Red</b>", "Blue"], {}, game)
    page = render(jinja, state, ["<b>Red</b>", "Blue"])
    assert "<b>Red</b>" not in page and "&lt;b&gt;Red&lt;/b&gt;" in page
