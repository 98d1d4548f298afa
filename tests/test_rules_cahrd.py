"""C.A.H.R.D. scorekeeper: each rule checked on a scenario from the Official Rulebook 1.0 (the
section is in the test's name or docstring). Numbers come from the card data (tables.yaml and
the officer cards), never typed here, except where a test changes them on purpose."""

from __future__ import annotations

import dataclasses

import pytest
import scenarios_cahrd as scenario
from pydantic import ValidationError

from card_data.engine import RuleError
from card_data.games import registry
from card_data.games.cahrd import reference_values
from card_data.games.cahrd.cards import HIGHEST_PRINTED_RANK, GameConstant
from card_data.games.cahrd.ranks import recruitment_table, recruitment_value
from card_data.games.cahrd.rules import (
    ENGINE,
    ActivateCard,
    CannotDraw,
    CardEffect,
    DamageStep,
    DeclareAttack,
    DiscardCard,
    DiscardStrategy,
    EndTurn,
    Mulligan,
    NextBattle,
    PlayStrategy,
    RecruitLieutenant,
    Recruitment,
    SetCard,
    SetUp,
    StartTurn,
    State,
    StopAttack,
    Vanguard,
)
from card_data.loader import load_database
from card_data.problems import InvalidInput

RED, BLUE = 0, 1
BOOK = "C.A.H.R.D. Official Rulebook 1.0"


@pytest.fixture(scope="module")
def game():
    return load_database().games["cahrd"]


def const(game, name: str) -> int:
    return getattr(game.tables.constants, name).value


def play(state: State, *events) -> State:
    """``state`` after ``events``, checking each step keeps its input and round-trips as JSON."""
    for event in events:
        before = state.model_dump(mode="json")
        after = ENGINE.apply(state, event)
        assert state.model_dump(mode="json") == before, f"apply changed its input on {event}"
        assert State.model_validate(after.model_dump(mode="json")) == after
        state = after
    return state


def line(state: State, event) -> str:
    return ENGINE.step(state, event).line


def refused(state: State, event, section: str, words: str) -> RuleError:
    before = state.model_dump(mode="json")
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, event)
    assert BOOK in info.value.rule, info.value.rule
    assert section in info.value.rule, info.value.rule
    assert words in info.value.message, info.value.message
    assert state.model_dump(mode="json") == before
    return info.value


def start(seat: int) -> StartTurn:
    return StartTurn(seat=seat)


def recruitment(seat: int) -> Recruitment:
    return Recruitment(seat=seat)


def end(seat: int, *lasting: str) -> EndTurn:
    return EndTurn(seat=seat, lasting=lasting or None)


def turn(seat: int, *plays) -> list:
    return [start(seat), recruitment(seat), *plays, end(seat)]


def attack(seat: int, card: str, **extra) -> DeclareAttack:
    return DeclareAttack(seat=seat, officer=card, **extra)


def vanguard(seat: int, card: str, **extra) -> Vanguard:
    return Vanguard(seat=seat, officer=card, **extra)


def to_grain(seat: int) -> Vanguard:
    return Vanguard(seat=seat, to_grain=True)


def damage(attacker: int = 0, vanguard_: int = 0) -> DamageStep:
    return DamageStep(attacker_war_modifier=attacker, vanguard_war_modifier=vanguard_)


def effect(seat: int, target: int | None, card: str | None = None, **changes) -> CardEffect:
    """A card effect; without ``card``, one the players enter without naming a card."""
    return CardEffect(seat=seat, card=card, target_seat=target, **changes)


def recruit(seat: int, card: str) -> RecruitLieutenant:
    return RecruitLieutenant(seat=seat, officer=card)


def set_up(seat: int, commander: str, strategist: str, lieutenant: str) -> SetUp:
    return SetUp(seat=seat, commander=commander, strategist=strategist, lieutenants=(lieutenant,))


def fresh(game, **options) -> State:
    """Red (Shield Wall) against Blue (Swift Riders), nobody set up."""
    return ENGINE.new_state(["Red", "Blue"], options, game)


def ready(game, red=scenario.RED_SET_UP, blue=scenario.BLUE_SET_UP, **options) -> State:
    """Both set up (Red: Oda Nobunaga, Supply Clerk, Border Captain; Blue: George Washington,
    Frontier Envoy, River Scout), before the first turn."""
    return play(fresh(game, **options), red, blue)


def red_may_battle(game, **options) -> State:
    """Red's second turn, Strategy Step: the first turn on which Red may battle."""
    return play(ready(game, **options), *turn(RED), *turn(BLUE), start(RED), recruitment(RED))


def men(state: State, seat: int, card: str) -> int:
    return state.armies[seat].officer(card).men_under_command


def chm_reserves(game, *cards: str, reading: str = "highest_printed_rank") -> int:
    """Reserves these officers bring to a Recruitment Step, counted from the printed cards."""
    values = [recruitment_value(game.cards[c].chm, reading, const(game, "s_rank_value")) for c in cards]
    return sum(values) * const(game, "reserves_per_chm_point")


# ---- engine and set-up (Prepare for Battle) ----------------------------------------------------

def test_engine_is_registered_for_two_players():
    assert registry()["cahrd"].engine is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 2)
    assert {"set_up", "start_turn", "cannot_draw", "recruitment", "recruit_lieutenant", "declare_attack",
            "vanguard", "damage_step", "stop_attack", "card_effect", "end_turn", "next_battle"} <= set(ENGINE.events)
    assert {"mulligan", "set_card", "activate_card", "discard_card", "play_strategy",
            "discard_strategy"} <= set(ENGINE.events)
    assert ENGINE.events["set_up"] is SetUp and ENGINE.events["card_effect"] is CardEffect


def test_a_battle_is_two_armies__how_to_play(game):
    with pytest.raises(RuleError) as info:
        ENGINE.new_state(["Red", "Blue", "Green"], {}, game)
    assert "C.A.H.R.D. is for 2 players" in info.value.rule and "3" in info.value.message


def test_each_army_starts_with_the_tables_grain_and_no_reserves__winning_the_battle(game):
    state = fresh(game)
    assert [a.grain for a in state.armies] == [const(game, "starting_grain")] * 2
    assert [a.reserves for a in state.armies] == [0, 0]
    assert state.step == "setting_up" and state.phase == "setup" and state.battle_number == 1


def test_numbers_come_from_tables_yaml_not_the_code(game):
    """Change the tables: starting grain, reserves per CHM point and grain per WAR point follow."""
    constants = game.tables.constants

    def changed(name: str, value: int) -> GameConstant:
        return getattr(constants, name).model_copy(update={"value": value})

    tables = game.tables.model_copy(update={"constants": constants.model_copy(update={
        "starting_grain": changed("starting_grain", 5000),
        "reserves_per_chm_point": changed("reserves_per_chm_point", 10),
        "grain_damage_per_war_point": changed("grain_damage_per_war_point", 1),
    })})
    other = dataclasses.replace(game, tables=tables)
    state = play(ready(other), *turn(RED), *turn(BLUE), start(RED), recruitment(RED))
    assert state.armies[BLUE].grain == 5000
    assert state.armies[RED].reserves == 2 * 10 * sum(game.cards[c].chm for c in
                                                         ("oda-nobunaga", "supply-clerk", "border-captain"))
    state = play(state, attack(RED, "oda-nobunaga"), to_grain(BLUE))
    assert state.armies[BLUE].grain == 5000 - game.cards["oda-nobunaga"].war


def test_an_army_is_an_army_deck_of_the_card_data__getting_started(game):
    with pytest.raises(RuleError) as info:
        fresh(game, army_seat_2="no-such-deck")
    assert "Getting Started" in info.value.rule and "shield-wall" in info.value.message
    with pytest.raises(RuleError):
        fresh(game, army_seat_1="shield-wall-strategies")  # a strategy deck is no army


def test_options_reject_unknown_readings(game):
    with pytest.raises(InvalidInput) as info:
        fresh(game, s_rank_in_recruitment="eleven")
    assert info.value.problems[0].field == "options.s_rank_in_recruitment"


def test_army_any_may_field_every_officer_of_the_card_data(game):
    state = fresh(game, army_seat_1="any")
    officers = tuple(c.id for c in game.cards.values() if c.type == "officer")
    assert state.officer_pool(RED) == officers
    # Archer Captain is not in the Shield Wall deck, but "any" may field it.
    play(state, set_up(RED, "archer-captain", "supply-clerk", "border-captain"))


def test_set_up_places_commander_strategist_and_a_lieutenant__prepare_for_battle(game):
    """Step 4: decide who is commander, strategist and lieutenant; men under command from the cards."""
    state = ready(game)
    red = state.armies[RED]
    assert [(o.card, o.position) for o in red.officers] == [
        ("oda-nobunaga", "commander"), ("supply-clerk", "strategist"), ("border-captain", "lieutenant")]
    assert [o.men_under_command for o in red.officers] == [
        game.cards[c].men_under_command for c in ("oda-nobunaga", "supply-clerk", "border-captain")]
    assert len(red.lieutenants) == const(game, "starting_lieutenants")
    assert state.step == "between_turns" and state.phase == "play"


@pytest.mark.parametrize("event,words", [
    (set_up(RED, "george-washington", "supply-clerk", "border-captain"), "not an officer of Red's army"),
    (set_up(RED, "oda-nobunaga", "oda-nobunaga", "border-captain"), "different officers"),
    (SetUp(seat=RED, commander="oda-nobunaga", strategist="supply-clerk",
           lieutenants=("border-captain", "julius-caesar")), "starts with 1 lieutenant"),
    (SetUp(seat=2, commander="oda-nobunaga", strategist="supply-clerk", lieutenants=("border-captain",)),
     "not a seat"),
])
def test_set_up_refusals__prepare_for_battle(game, event, words):
    with pytest.raises(RuleError) as info:
        ENGINE.apply(fresh(game), event)
    assert words in info.value.message


def test_set_up_once_and_before_the_first_turn__prepare_for_battle(game):
    state = play(fresh(game), scenario.RED_SET_UP)
    refused(state, scenario.RED_SET_UP, "Prepare for Battle", "already set up")
    refused(state, start(RED), "Prepare for Battle", "set up their officers first")
    refused(ready(game), scenario.RED_SET_UP, "Prepare for Battle", "before the battle's first turn")


def test_starting_officers_stay_face_down_until_the_first_draw_step__set(game):
    """Glossary of Terms (Set); Step 1: on a player's first turn, draw, then reveal your officers."""
    state = ready(game)
    assert not any(a.revealed for a in state.armies)
    assert line(play(fresh(game), scenario.RED_SET_UP), scenario.BLUE_SET_UP) == (
        "Blue placed a commander, a strategist and 1 lieutenant(s), face down")
    assert "revealed commander Oda Nobunaga" in line(state, start(RED))
    state = play(state, start(RED))
    assert [a.revealed for a in state.armies] == [True, False]


# ---- Prepare for Battle, step 3: the opening hand ------------------------------------------------

def test_a_hand_with_too_few_officers_is_shown_and_mulliganed__prepare_for_battle_step_3(game):
    """Step 3: fewer than three officers among the first 7 cards: show the hand to the opponent
    and mulligan, as many times as needed."""
    fewer = const(game, "min_officers_in_opening_hand") - 1
    state = fresh(game)
    assert line(state, Mulligan(seat=RED, officers_shown=fewer)) == (
        f"Red showed Blue an opening hand with {fewer} officer(s) and mulliganed (mulligan 1 of battle 1)")
    state = play(state, Mulligan(seat=RED, officers_shown=fewer), Mulligan(seat=RED, officers_shown=0))
    assert [a.mulligans for a in state.armies] == [2, 0]


def test_a_hand_with_enough_officers_is_kept__prepare_for_battle_step_3(game):
    enough = const(game, "min_officers_in_opening_hand")
    refused(fresh(game), Mulligan(seat=BLUE, officers_shown=enough), "Prepare for Battle (step 3)",
            f"a hand with {enough} officers is kept")
    with pytest.raises(ValidationError):
        Mulligan(seat=BLUE, officers_shown=-1)


def test_mulligans_come_before_placing_officers_and_count_per_battle__prepare_for_battle_step_3(game):
    state = play(fresh(game), Mulligan(seat=BLUE, officers_shown=1), scenario.BLUE_SET_UP)
    refused(state, Mulligan(seat=BLUE, officers_shown=1), "Prepare for Battle (step 3)", "already placed")
    state = play(state, Mulligan(seat=RED, officers_shown=2), scenario.RED_SET_UP)
    refused(state, Mulligan(seat=RED, officers_shown=1), "Prepare for Battle (step 3)", "already placed")
    state = play(state, *turn(RED), CannotDraw(seat=BLUE))
    refused(state, Mulligan(seat=RED, officers_shown=1), "Winning the Battle", "battle 1 is over")
    state = play(state, NextBattle(seat=BLUE, first_seat=BLUE))
    assert [a.mulligans for a in state.armies] == [0, 0]
    assert play(state, Mulligan(seat=RED, officers_shown=1)).armies[RED].mulligans == 1


# ---- turn structure ----------------------------------------------------------------------------

def test_initiative_alternates_by_turn__turn_structure(game):
    state = ready(game)
    assert state.next_starter() is None  # battle 1: the players decide who goes first
    state = play(state, start(BLUE))
    assert state.initiative == BLUE and state.step == "draw"
    refused(state, start(RED), "Turn Structure", "still going")
    refused(state, recruitment(RED), "Turn Structure", "it is Blue's turn")
    state = play(state, recruitment(BLUE), end(BLUE))
    refused(state, start(BLUE), "Turn Structure", "Red has the initiative")
    state = play(state, start(RED))
    assert (state.initiative, state.turn) == (RED, 2)


def test_recruitment_adds_combined_chm_times_reserves_per_point__recruitment_step(game):
    """Step 2: reserves at the army's combined CHM x 1000."""
    state = play(ready(game), start(RED), recruitment(RED))
    assert state.armies[RED].reserves == chm_reserves(game, "oda-nobunaga", "supply-clerk", "border-captain")
    assert state.step == "strategy"


def test_s_counts_as_ten_in_battle_not_in_the_recruitment_step_by_default__stats(game):
    """Glossary of Terms (Stats): S is 10 "in regards to Card effects and in battle". The
    Recruitment Step is neither, and the rulebook is silent there: our reading counts a CHM of S
    as the highest printed rank, 5; the table's option counts it as 10."""
    blue = ("george-washington", "frontier-envoy", "river-scout")
    assert game.cards["frontier-envoy"].chm == "S"
    s_value, per_point = const(game, "s_rank_value"), const(game, "reserves_per_chm_point")
    printed = sum(game.cards[c].chm for c in blue if game.cards[c].chm != "S")
    for options, s_counts_as in (({}, HIGHEST_PRINTED_RANK), ({"s_rank_in_recruitment": "s_rank_value"}, s_value)):
        state = play(ready(game, **options), *turn(RED), start(BLUE))
        assert state.recruitment_reserves(BLUE) == (printed + s_counts_as) * per_point
        combined = printed + s_counts_as
        assert line(state, recruitment(BLUE)).startswith(f"Blue's Recruitment Step: combined CHM {combined}")
        assert play(state, recruitment(BLUE)).armies[BLUE].reserves == (printed + s_counts_as) * per_point
    assert fresh(game).options.s_rank_in_recruitment == "highest_printed_rank"
    # In battle S is 10 under either reading (see the grain test below).
    for options in ({}, {"s_rank_in_recruitment": "s_rank_value"}):
        grain = fresh(game, **options).grain_damage("iron-vanguard")
        assert grain == s_value * const(game, "grain_damage_per_war_point")


def test_the_recruitment_numbers_are_derived_once_for_engine_and_reference__stats(game):
    table = recruitment_table(const(game, "reserves_per_chm_point"), const(game, "s_rank_value"))
    assert [(r.printed, r.counts_as) for r in table] == [("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5),
                                                         ("S", HIGHEST_PRINTED_RANK)]
    assert table[-1].reserves == HIGHEST_PRINTED_RANK * const(game, "reserves_per_chm_point")
    assert reference_values(game) == {"recruitment_table": table, "s_chm_in_recruitment": HIGHEST_PRINTED_RANK}
    ten = recruitment_table(const(game, "reserves_per_chm_point"), const(game, "s_rank_value"), "s_rank_value")
    assert ten[-1].counts_as == const(game, "s_rank_value")


def test_recruitment_once_a_turn_after_the_draw__recruitment_step(game):
    state = play(ready(game), start(RED))
    refused(state, end(RED), "Step 2", "Recruitment Step before ending")
    state = play(state, recruitment(RED))
    refused(state, recruitment(RED), "Step 2", "already taken the Recruitment Step")
    refused(ready(game), recruitment(RED), "Turn Structure", "no turn is in progress")


def test_recruit_a_lieutenant_for_its_cost__strategy_step(game):
    """Officer Card (How to Read): the recruitment cost is paid when recruited as a lieutenant."""
    state = play(ready(game), *turn(RED), start(BLUE), recruitment(BLUE))
    before = state.armies[BLUE].reserves
    cadet = game.cards["time-lost-cadet"]
    state = play(state, recruit(BLUE, "time-lost-cadet"))
    blue = state.armies[BLUE]
    assert blue.reserves == before - cadet.recruitment_cost
    assert blue.officer("time-lost-cadet").position == "lieutenant"
    assert men(state, BLUE, "time-lost-cadet") == cadet.men_under_command
    assert blue.lieutenants_recruited == 1


def test_officers_are_recruited_only_in_the_strategy_step(game):
    """Step 2: you may ONLY recruit officers during the Strategy Step."""
    refused(play(ready(game), start(RED)), recruit(RED, "julius-caesar"), "Step 3", "take the Recruitment Step first")
    state = play(red_may_battle(game), attack(RED, "border-captain"), to_grain(BLUE))
    refused(state, recruit(RED, "julius-caesar"), "Step 3", "the Battle Step has begun")
    refused(play(ready(game), *turn(RED), start(BLUE), recruitment(BLUE)), recruit(RED, "julius-caesar"),
            "Turn Structure", "it is Blue's turn")


def test_at_most_two_more_lieutenants__lieutenant_zone(game):
    """The Game Mat (6): you start with one lieutenant and can recruit two more later."""
    state = play(ready(game), *turn(RED), *turn(BLUE, recruit(BLUE, "time-lost-cadet")), *turn(RED),
                 start(BLUE), recruitment(BLUE), recruit(BLUE, "militia-elder"),
                 effect(BLUE, BLUE, reserves_change=10000))
    assert len(state.armies[BLUE].lieutenants) == 1 + const(game, "max_extra_lieutenants")
    assert state.armies[BLUE].reserves >= game.cards["mountain-guide"].recruitment_cost
    refused(state, recruit(BLUE, "mountain-guide"), "Lieutenant Zone", "already recruited 2 lieutenants")


@pytest.mark.parametrize("card,words", [
    ("iron-vanguard", "costs 40000 reserves and Red has only"),
    ("border-captain", "already on the field"),
    ("archer-captain", "not an officer of Red's army"),
])
def test_recruit_refusals__strategy_step(game, card, words):
    state = play(ready(game), start(RED), recruitment(RED))
    assert game.cards["iron-vanguard"].recruitment_cost > state.armies[RED].reserves
    refused(state, recruit(RED, card), "Step 3", words)


def test_a_defeated_officer_cannot_be_recruited_again(game):
    state = play(red_may_battle(game), effect(RED, BLUE, officer="river-scout", men_change=-5),
                 end(RED), start(BLUE), recruitment(BLUE))
    refused(state, recruit(BLUE, "river-scout"), "Step 3", "was defeated this battle")


# ---- the Battle Step ---------------------------------------------------------------------------

def test_no_battle_on_a_players_first_turn__summary_of_the_steps(game):
    state = play(ready(game), start(RED), recruitment(RED))
    refused(state, attack(RED, "border-captain"), "Summary of the steps", "first turn")
    state = play(state, end(RED), start(BLUE), recruitment(BLUE))
    refused(state, attack(BLUE, "river-scout"), "Summary of the steps", "Blue's first turn")
    state = play(state, end(BLUE), start(RED), recruitment(RED))
    assert play(state, attack(RED, "border-captain")).attack.officer == "border-captain"


def test_attack_only_after_the_recruitment_step__turn_structure(game):
    state = play(ready(game), *turn(RED), *turn(BLUE), start(RED))
    refused(state, attack(RED, "border-captain"), "Turn Structure", "Recruitment Step before the Battle Step")


def test_the_strategist_never_attacks__strategist_zone(game):
    state = red_may_battle(game)
    refused(state, attack(RED, "supply-clerk"), "Strategist Zone", "Supply Clerk is Red's strategist")
    refused(state, attack(RED, "supply-clerk", allowed_by_card="no-such-card"), "Effects of Cards", "no card")
    assert play(state, attack(RED, "supply-clerk", allowed_by_card="war-horse")).attack.officer == "supply-clerk"
    assert "(by War Horse)" in line(state, attack(RED, "supply-clerk", allowed_by_card="war-horse"))


def test_the_strategist_is_never_attacked__strategist_zone(game):
    state = play(red_may_battle(game), attack(RED, "border-captain"))
    refused(state, vanguard(BLUE, "frontier-envoy"), "Strategist Zone", "cannot be attacked")
    assert play(state, vanguard(BLUE, "frontier-envoy", allowed_by_card="ambush")).attack.vanguard == "frontier-envoy"


def test_an_officer_attacks_at_most_once_a_turn__declaration_step(game):
    state = play(red_may_battle(game), attack(RED, "border-captain"), to_grain(BLUE))
    refused(state, attack(RED, "border-captain"), "Declaration Step", "already attacked this turn")
    refused(state, attack(RED, "julius-caesar"), "Declaration Step", "not on Red's field")
    assert play(state, attack(RED, "oda-nobunaga")).attack.officer == "oda-nobunaga"


def test_one_attack_at_a_time__damage_step(game):
    state = play(red_may_battle(game), attack(RED, "border-captain"))
    refused(state, attack(RED, "oda-nobunaga"), "Damage Step", "still being fought")
    refused(state, end(RED), "Damage Step", "still being fought")


def test_an_officer_that_attacked_the_previous_turn_cannot_defend__vanguard_step(game):
    """The marker placed in the Declaration Step is removed in the owner's Recruitment Step."""
    state = play(red_may_battle(game), attack(RED, "border-captain"), to_grain(BLUE),
                 attack(RED, "oda-nobunaga"), to_grain(BLUE), end(RED),
                 start(BLUE), recruitment(BLUE), attack(BLUE, "river-scout"))
    border = state.armies[RED].officer("border-captain")
    assert state.marker_label(RED, border) == "attacked the previous turn"
    refused(state, vanguard(RED, "border-captain"), "Vanguard Step", "attacked the previous turn")
    refused(state, vanguard(RED, "oda-nobunaga"), "Vanguard Step", "attacked the previous turn")
    # A card's effect (Horse Master's trait) may still let it defend.
    assert play(state, vanguard(RED, "border-captain", allowed_by_card="horse-master")).attack.vanguard
    state = play(state, to_grain(RED), end(BLUE), start(RED))
    assert state.armies[RED].officer("border-captain").attack_marker  # still there in the Draw Step
    state = play(state, recruitment(RED))
    assert not any(o.attack_marker for o in state.armies[RED].officers)
    assert state.armies[BLUE].officer("river-scout").attack_marker  # only the owner's markers go


def test_the_defender_declares_one_vanguard__vanguard_step(game):
    state = red_may_battle(game)
    refused(state, to_grain(BLUE), "Vanguard Step", "no attack waiting")
    refused(state, damage(), "Damage Step", "after an attack and its vanguard")
    state = play(state, attack(RED, "border-captain"))
    refused(state, vanguard(RED, "oda-nobunaga"), "Vanguard Step", "the defender (Blue) declares")
    refused(state, Vanguard(seat=BLUE), "Vanguard Step", "name one vanguard officer")
    refused(state, vanguard(BLUE, "river-scout", to_grain=True), "Vanguard Step", "name one vanguard officer")
    refused(state, vanguard(BLUE, "horse-master"), "Vanguard Step", "not on Blue's field")
    refused(state, damage(), "Damage Step", "after an attack and its vanguard")
    state = play(state, vanguard(BLUE, "river-scout"))
    refused(state, vanguard(BLUE, "george-washington"), "Vanguard Step", "no attack waiting")


def test_higher_war_wins_and_the_loser_loses_one_man__damage_step(game):
    """Border Captain (WAR 3) attacks, River Scout (WAR 2) defends: River Scout takes 1 damage."""
    assert game.cards["border-captain"].war > game.cards["river-scout"].war
    state = play(red_may_battle(game), attack(RED, "border-captain"), vanguard(BLUE, "river-scout"))
    text = line(state, damage())
    state = play(state, damage())
    scout = game.cards["river-scout"].men_under_command
    assert men(state, BLUE, "river-scout") == scout - const(game, "battle_damage_to_losing_officer")
    assert men(state, RED, "border-captain") == game.cards["border-captain"].men_under_command
    assert state.attack is None and state.step == "battle"
    assert text == (f"Damage Step: Border Captain WAR 3 against River Scout WAR 2: "
                    f"River Scout men under command {scout} → {scout - 1}")


def test_equal_war_has_no_winner_and_nothing_happens__damage_step(game):
    """WAR modifiers count: River Scout +1 meets Border Captain's WAR 3; nobody takes damage."""
    state = play(red_may_battle(game), attack(RED, "border-captain"), vanguard(BLUE, "river-scout"))
    after = play(state, damage(vanguard_=1))
    assert after.armies == state.armies and after.attack is None
    assert line(state, damage(vanguard_=1)).endswith("no winner, nothing happens")


def test_the_attacker_can_lose_the_battle__damage_step(game):
    state = play(red_may_battle(game), attack(RED, "border-captain"), vanguard(BLUE, "river-scout"),
                 damage(attacker=-1, vanguard_=2))
    assert men(state, RED, "border-captain") == game.cards["border-captain"].men_under_command - 1
    assert men(state, BLUE, "river-scout") == game.cards["river-scout"].men_under_command


def test_an_attack_on_the_grain_costs_base_war_times_100__damage_step(game):
    """Iron Vanguard's WAR S counts as 10 in battle (Glossary: Stats): 10 x 100 grain."""
    state = ready(game, red=set_up(RED, "oda-nobunaga", "supply-clerk", "iron-vanguard"))
    state = play(state, *turn(RED), *turn(BLUE), start(RED), recruitment(RED))
    state = play(state, attack(RED, "iron-vanguard"), to_grain(BLUE))
    lost = const(game, "s_rank_value") * const(game, "grain_damage_per_war_point")
    assert game.cards["iron-vanguard"].war == "S"
    assert state.armies[BLUE].grain == const(game, "starting_grain") - lost
    assert state.attack is None


def test_a_stopped_attack_still_counts_as_declared__battle_battled(game):
    """Glossary (Battle/Battled): an attack stopped before damage calculation still bars the
    officer from battling again that turn."""
    state = play(red_may_battle(game), attack(RED, "border-captain"))
    stop = StopAttack(seat=BLUE, card="feigned-retreat")
    assert line(state, stop) == "Blue's Feigned Retreat stopped Border Captain's attack before damage"
    state = play(state, stop)
    assert state.attack is None
    refused(state, attack(RED, "border-captain"), "Declaration Step", "already attacked")
    refused(state, stop, "Battle/Battled", "no attack to stop")


# ---- defeat and victory ------------------------------------------------------------------------

def test_a_defeated_lieutenant_goes_to_the_discard_pile_and_the_initiative_player_gets_a_token__defeated(game):
    """Glossary of Terms (Defeated): River Scout's men reach 0 on Red's turn; Red defeated it."""
    state = play(red_may_battle(game),
                 effect(RED, BLUE, officer="river-scout", men_change=1 - game.cards["river-scout"].men_under_command),
                 attack(RED, "border-captain"), vanguard(BLUE, "river-scout"))
    text = line(state, damage())
    state = play(state, damage())
    blue = state.armies[BLUE]
    assert blue.officer("river-scout") is None
    assert [(o.card, o.position, o.defeated_by) for o in blue.defeated] == [("river-scout", "lieutenant", RED)]
    assert [a.defeat_tokens for a in state.armies] == [1, 0]
    assert state.enemy_lieutenants_defeated(RED) == 1
    assert text.endswith("River Scout loses its last men and is defeated; Red gets a defeat token (1)")


@pytest.mark.parametrize("token_to,holder", [("initiative_player", RED), ("defeating_player", BLUE)])
def test_whose_token_when_a_lieutenant_falls_on_its_owners_turn__defeated_or_defeat_three_lieutenants(
        game, token_to, holder):
    """Red's Border Captain attacks on Red's turn and loses its last man to Blue's vanguard. The
    physical token goes to the initiative player, Red, under the Glossary (Defeated), or to the
    player who defeated it, Blue, under Defeat three Lieutenants (option ``defeat_token_to``).
    Either way Blue defeated it, and it counts toward Blue's three, never Red's."""
    state = red_may_battle(game, defeat_token_to=token_to)
    state = play(state, effect(BLUE, RED, officer="border-captain",
                               men_change=1 - game.cards["border-captain"].men_under_command),
                 attack(RED, "border-captain"), vanguard(BLUE, "george-washington"))
    text = line(state, damage(vanguard_=1))
    state = play(state, damage(vanguard_=1))
    assert state.armies[RED].officer("border-captain") is None
    assert state.armies[holder].defeat_tokens == 1
    assert state.armies[1 - holder].defeat_tokens == 0
    assert state.armies[RED].defeated[-1].defeated_by == BLUE
    assert (state.enemy_lieutenants_defeated(BLUE), state.enemy_lieutenants_defeated(RED)) == (1, 0)
    assert text.endswith(", though Blue defeated it") == (holder == RED)


def red_with_three_lieutenants(game, **options) -> State:
    """Red's first turn: Red has recruited Time-Lost Cadet and Militia Elder (reserves from an
    effect entered without a card), three lieutenants in all."""
    return play(ready(game, **options), start(RED), recruitment(RED), effect(RED, RED, reserves_change=20000),
                recruit(RED, "time-lost-cadet"), recruit(RED, "militia-elder"))


@pytest.mark.parametrize("token_to", ["initiative_player", "defeating_player"])
def test_you_win_by_defeating_three_enemy_lieutenants__defeat_three_lieutenants(game, token_to):
    """Winning the Battle: "You defeat three enemy Lieutenants", whoever holds the tokens."""
    state = play(red_may_battle(game, defeat_token_to=token_to), end(RED),
                 *turn(BLUE, recruit(BLUE, "time-lost-cadet")), start(RED), recruitment(RED))
    for card in ("river-scout", "time-lost-cadet"):
        state = play(state, effect(RED, BLUE, officer=card, men_change=-10))
        assert state.step == "strategy"
    state = play(state, end(RED), start(BLUE), recruitment(BLUE), recruit(BLUE, "militia-elder"), end(BLUE),
                 start(RED), recruitment(RED))
    state = play(state, effect(RED, BLUE, officer="militia-elder", men_change=-10))
    assert state.enemy_lieutenants_defeated(RED) == const(game, "lieutenants_defeated_to_win")
    assert state.armies[RED].defeat_tokens == 3  # Red was the initiative player and the defeater
    assert state.results[-1].winner == RED and "Red defeated 3 of Blue's lieutenants" in state.results[-1].reason


@pytest.mark.parametrize("token_to,red_tokens", [("initiative_player", 3), ("defeating_player", 0)])
def test_your_own_lieutenants_falling_never_wins_you_the_battle__defeat_three_lieutenants(game, token_to, red_tokens):
    """Red's three lieutenants fall to Blue's effects on Red's own turn. Under the Glossary's
    reading Red, the initiative player, holds the three tokens, but the battle is Blue's: Blue
    defeated three enemy lieutenants."""
    state = red_with_three_lieutenants(game, defeat_token_to=token_to)
    for card in ("border-captain", "time-lost-cadet", "militia-elder"):
        state = play(state, effect(BLUE, RED, officer=card, men_change=-10))
    assert state.armies[RED].defeat_tokens == red_tokens
    assert state.enemy_lieutenants_defeated(BLUE) == 3 and state.enemy_lieutenants_defeated(RED) == 0
    assert state.results[-1].winner == BLUE and "Blue defeated 3 of Red's lieutenants" in state.results[-1].reason


def test_lieutenants_you_defeat_yourself_count_for_nobody__defeat_three_lieutenants(game):
    state = red_with_three_lieutenants(game)
    for card in ("border-captain", "time-lost-cadet", "militia-elder"):
        state = play(state, effect(RED, RED, officer=card, men_change=-10))
    assert state.step == "strategy" and not state.results
    assert [d.defeated_by for d in state.armies[RED].defeated] == [RED] * 3


def test_defeating_the_enemy_commander_wins_the_battle__defeat_the_enemy_commander(game):
    washington = game.cards["george-washington"].men_under_command
    state = play(red_may_battle(game), effect(RED, BLUE, officer="george-washington", men_change=1 - washington),
                 attack(RED, "oda-nobunaga"), vanguard(BLUE, "george-washington"))
    text = line(state, damage())
    state = play(state, damage())
    assert state.step == "battle_over" and state.phase == "setup"
    assert state.results[-1].winner == RED and "Blue's commander was defeated" in state.results[-1].reason
    assert text.endswith("Red wins battle 1: Blue's commander was defeated")
    refused(state, end(RED), "Winning the Battle", "battle 1 is over")
    assert not ENGINE.outcome(state).finished and ENGINE.outcome(state).scores == (1.0, 0.0)


def test_grain_at_zero_is_destroyed__destroy_the_enemy_grain(game):
    """The attack exactly empties Blue's grain: 0 counts as destroyed."""
    oda = game.cards["oda-nobunaga"].war * const(game, "grain_damage_per_war_point")
    state = red_may_battle(game)
    state = play(state, effect(RED, BLUE, grain_change=oda - state.armies[BLUE].grain))
    assert state.armies[BLUE].grain == oda and state.step == "strategy"
    state = play(state, attack(RED, "oda-nobunaga"), to_grain(BLUE))
    assert state.armies[BLUE].grain == 0
    assert state.results[-1].winner == RED and "Blue's grain was destroyed" in state.results[-1].reason


def test_a_player_who_cannot_draw_loses__draw_step(game):
    state = play(ready(game), *turn(RED))
    refused(state, CannotDraw(seat=RED), "Turn Structure", "Blue has the initiative")
    assert line(state, CannotDraw(seat=BLUE)) == "Blue could not draw and loses battle 1"
    assert play(state, CannotDraw(seat=BLUE)).results[-1].winner == RED


def test_a_fighter_defeated_by_a_card_ends_the_attack(game):
    """Fire Arrows ("the enemy officer in that battle loses 1 point") takes River Scout's last
    man before the Damage Step: no Damage Step follows. Its 5000 reserves are paid on activation
    (Red's army is "any" here: Fire Arrows is in the Swift Riders deck)."""
    state = play(red_may_battle(game, army_seat_1="any"), attack(RED, "border-captain"), vanguard(BLUE, "river-scout"),
                 effect(BLUE, BLUE, officer="river-scout", men_change=1 - game.cards["river-scout"].men_under_command),
                 ActivateCard(seat=RED, card="fire-arrows"),
                 effect(RED, BLUE, "fire-arrows", officer="river-scout", men_change=-1))
    assert state.attack is None and state.armies[RED].defeat_tokens == 1
    assert state.armies[BLUE].defeated[-1].defeated_by == RED
    refused(state, damage(), "Damage Step", "after an attack and its vanguard")


def test_both_armies_losing_at_once_is_a_drawn_battle__winning_the_battle(game):
    """One effect on both armies' grain destroys both: neither wins the battle."""
    state = play(red_may_battle(game), effect(RED, None, grain_change=-const(game, "starting_grain")))
    assert state.results[-1].winner is None and state.step == "battle_over"
    assert "Red's grain was destroyed; Blue's grain was destroyed" == state.results[-1].reason
    assert ENGINE.outcome(state).scores == (0.0, 0.0)


# ---- card effects ------------------------------------------------------------------------------

def test_a_card_cost_is_paid_from_reserves__pay_a_cost(game):
    state = play(ready(game), start(RED), recruitment(RED))
    have = state.armies[RED].reserves
    rations = game.cards["field-rations"].reserve_cost
    state = play(state, effect(RED, RED, "field-rations", reserves_change=-rations, grain_change=200))
    assert state.armies[RED].reserves == have - rations
    assert state.armies[RED].grain == const(game, "starting_grain") + 200
    refused(state, effect(RED, RED, "field-rations", reserves_change=-(have + 1)), "Pay a Cost", "only")


def test_an_effect_may_be_entered_without_naming_a_card__effects_of_cards(game):
    state = play(ready(game), start(RED), recruitment(RED))
    assert line(state, effect(BLUE, RED, grain_change=-300)) == (
        "Blue's card effect (no card named): Red's grain 4000 → 3700")
    both = effect(RED, None, grain_change=-100, reserves_change=1000)
    assert line(state, both) == ("Red's card effect (no card named): Red's grain 4000 → 3900; Red's reserves "
                                 f"{state.armies[RED].reserves} → {state.armies[RED].reserves + 1000}; Blue's grain "
                                 "4000 → 3900; Blue's reserves 0 → 1000")
    refused(state, effect(RED, None, officer="border-captain", men_change=-1), "Effects of Cards", "both armies")


@pytest.mark.parametrize("event,words", [
    (effect(RED, BLUE, "no-such-card", grain_change=-100), "no card 'no-such-card'"),
    (effect(RED, BLUE), "enter what the effect changed"),
    (effect(RED, BLUE, men_change=-1), "needs the officer"),
    (effect(RED, BLUE, officer="river-scout", grain_change=-100), "needs the officer"),
    (effect(RED, BLUE, officer="border-captain", men_change=-1), "not on Blue's field"),
    (effect(RED, 2, grain_change=-1), "not a seat"),
])
def test_card_effect_refusals__effects_of_cards(game, event, words):
    state = play(ready(game), start(RED))
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, event)
    assert words in info.value.message


def test_card_effects_happen_during_a_turn(game):
    refused(ready(game), effect(RED, RED, "field-rations", grain_change=200), "Turn Structure", "start the turn")


# ---- zones: tactics, items and strategies (The Game Mat) -----------------------------------------

def red_strategy_step(game, **options) -> State:
    """Red's first turn, Strategy Step; Red has two officers in play besides its strategist."""
    return play(ready(game, **options), start(RED), recruitment(RED))


def test_tactics_and_items_are_limited_to_officers_in_play__the_game_mat_7_and_8(game):
    """The Game Mat 7 and 8: one tactic and one item per officer in play, the strategist not counted."""
    state = red_strategy_step(game)
    assert state.zone_limit(RED) == 2  # Oda Nobunaga and Border Captain; not Supply Clerk
    assert line(state, SetCard(seat=RED, zone="tactics")) == "Red set a card face down in the Tactics Zone (1 of 2)"
    state = play(state, SetCard(seat=RED, zone="tactics"), SetCard(seat=RED, zone="tactics"))
    refused(state, SetCard(seat=RED, zone="tactics"), "The Game Mat (7 - Tactics Zone)", "no room for another")
    state = play(state, ActivateCard(seat=RED, card="signal-drums"), SetCard(seat=RED, zone="items"))
    refused(state, ActivateCard(seat=RED, card="field-rations"), "The Game Mat (8 - Items Zone)", "no room")
    refused(state, SetCard(seat=RED, zone="items"), "The Game Mat (8 - Items Zone)", "2 card(s) for 2 officer(s)")
    assert [c.face_up for c in state.armies[RED].tactics] == [False, False]
    assert state.armies[RED].tactics[0].card is None  # set cards are not named until activated
    state = play(state, recruit(RED, "time-lost-cadet"), SetCard(seat=RED, zone="tactics"))
    assert len(state.armies[RED].tactics) == state.zone_limit(RED) == 3


def test_a_shrinking_limit_discards_nothing_but_blocks_new_cards__the_game_mat_7_and_8(game):
    """Our reading: when an officer falls, the cards already in a zone stay, but no new one enters
    until the zone is under the limit again."""
    state = play(red_strategy_step(game), SetCard(seat=RED, zone="tactics"), SetCard(seat=RED, zone="tactics"),
                 effect(BLUE, RED, officer="border-captain", men_change=-10))
    assert state.zone_limit(RED) == 1 and len(state.armies[RED].tactics) == 2
    refused(state, SetCard(seat=RED, zone="tactics"), "Tactics Zone", "2 card(s) for 1 officer(s)")
    state = play(state, DiscardCard(seat=RED, zone="tactics", slot=1))
    refused(state, SetCard(seat=RED, zone="tactics"), "Tactics Zone", "no room")
    state = play(state, DiscardCard(seat=RED, zone="tactics", slot=1), SetCard(seat=RED, zone="tactics"))
    assert len(state.armies[RED].tactics) == 1


def test_cards_are_set_by_the_initiative_player_in_the_strategy_step__strategy_step(game):
    refused(play(ready(game), start(RED)), SetCard(seat=RED, zone="items"), "Step 3", "Recruitment Step first")
    state = red_strategy_step(game)
    refused(state, SetCard(seat=BLUE, zone="tactics"), "Turn Structure", "it is Red's turn")
    refused(play(red_may_battle(game), attack(RED, "border-captain"), to_grain(BLUE)),
            SetCard(seat=RED, zone="tactics"), "Step 3", "in the Strategy Step")


def test_a_tactic_must_be_set_before_it_is_activated__tactics_card(game):
    """Cards of CAHRD (Tactics): "Must be set face down first, before activation"; no reserve cost."""
    state = red_strategy_step(game)
    refused(state, ActivateCard(seat=RED, card="counter-order", was_set=True), "Tactics Card",
            "no face-down card in the Tactics Zone")
    refused(state, ActivateCard(seat=RED, card="counter-order"), "Tactics Card", "set it face down first")
    state = play(state, SetCard(seat=RED, zone="tactics"))
    reserves = state.armies[RED].reserves
    activate = ActivateCard(seat=RED, card="counter-order", was_set=True)
    assert line(state, activate) == "Red activated the tactic Counter Order (set earlier)"
    state = play(state, activate)
    assert state.armies[RED].tactics[0].model_dump() == {"card": "counter-order", "face_up": True}
    assert state.armies[RED].reserves == reserves
    refused(state, ActivateCard(seat=RED, card="smoke-screen", was_set=True), "Getting Started", "not a card of "
            "Red's army")


def test_an_item_costs_its_reserves_when_activated__item_card_pay_a_cost(game):
    """Item Card: an item may be set to be played later, its reserve cost paid when it is
    activated; or activated from the hand at once (Pay a Cost)."""
    state = red_strategy_step(game)
    have = state.armies[RED].reserves
    spear = game.cards["serpent-spear-of-zhang-fei"].reserve_cost
    assert line(state, ActivateCard(seat=RED, card="serpent-spear-of-zhang-fei")) == (
        f"Red activated the item Serpent Spear of Zhang Fei (from the hand), paying {spear} reserves "
        f"(reserves {have} → {have - spear})")
    state = play(state, ActivateCard(seat=RED, card="serpent-spear-of-zhang-fei"), SetCard(seat=RED, zone="items"))
    assert state.armies[RED].reserves == have - spear
    state = play(state, end(RED), *turn(BLUE), start(RED), recruitment(RED))
    have = state.armies[RED].reserves
    state = play(state, ActivateCard(seat=RED, card="iron-shield", was_set=True))
    assert state.armies[RED].reserves == have - game.cards["iron-shield"].reserve_cost
    assert [c.card for c in state.armies[RED].items] == ["iron-shield"]
    poor = play(state, effect(RED, RED, reserves_change=-state.armies[RED].reserves), SetCard(seat=RED, zone="items"))
    refused(poor, ActivateCard(seat=RED, card="signal-drums", was_set=True), "Pay a Cost",
            "costs 2000 reserves and Red has only 0")
    refused(state, ActivateCard(seat=RED, card="oda-nobunaga"), "Item Card", "only items and tactics")


def test_the_non_initiative_player_responds_only_with_tactics_or_disregarding_cards__timings(game):
    """Timings: the initiative player activates items, tactics and strategies; the first response
    goes to the non-initiative player: tactics, or items and strategies that disregard effects."""
    state = play(ready(game), *turn(RED), start(BLUE), recruitment(BLUE), SetCard(seat=BLUE, zone="tactics"),
                 end(BLUE), start(RED), recruitment(RED))
    refused(state, ActivateCard(seat=BLUE, card="crescent-blade"), "Timings", "only with a tactic")
    refused(state, PlayStrategy(seat=BLUE, card="scorched-earth"), "Timings", "disregards an effect")
    state = play(state, ActivateCard(seat=BLUE, card="smoke-screen", was_set=True))
    assert state.armies[BLUE].tactics[0].card == "smoke-screen"
    assert line(state, ActivateCard(seat=BLUE, card="courier-pouch", disregards=True)).endswith(
        ", in response, to disregard an effect")
    state = play(state, PlayStrategy(seat=BLUE, card="scorched-earth", disregards=True))
    assert state.armies[BLUE].strategy == "scorched-earth"
    refused(play(ready(game), *turn(RED)), ActivateCard(seat=BLUE, card="courier-pouch", disregards=True),
            "Turn Structure", "no turn is in progress")


def test_the_end_step_resolves_active_items_and_tactics__step_5(game):
    """Step 5: active items and tactics not yet resolved are resolved at the End Step, unless the
    card's effect continues beyond the turn (Iron Shield: until the End Step of your next turn)."""
    state = play(red_strategy_step(game), ActivateCard(seat=RED, card="iron-shield"),
                 SetCard(seat=RED, zone="tactics"), SetCard(seat=RED, zone="tactics"),
                 ActivateCard(seat=RED, card="ambush", was_set=True))
    refused(state, end(RED, "signal-drums"), "Step 5", "Signal Drums is not an active item or tactic")
    assert line(state, end(RED, "iron-shield")) == (
        "Red ended the turn; resolved, to the discard pile: Ambush; still active: Iron Shield")
    state = play(state, end(RED, "iron-shield"))
    red = state.armies[RED]
    assert [(c.card, c.face_up) for c in red.items] == [("iron-shield", True)]
    assert [(c.card, c.face_up) for c in red.tactics] == [(None, False)]  # set cards stay set
    assert red.discarded == ("ambush",)
    state = play(state, *turn(BLUE), start(RED), recruitment(RED), end(RED))
    assert state.armies[RED].items == () and state.armies[RED].discarded == ("ambush", "iron-shield")


def test_a_card_of_a_zone_goes_to_the_discard_pile__the_game_mat_2(game):
    state = play(red_strategy_step(game), SetCard(seat=RED, zone="items"),
                 ActivateCard(seat=RED, card="signal-drums"))
    assert line(state, DiscardCard(seat=RED, zone="items", slot=2)) == (
        "Red sent Signal Drums (face up) from the Items Zone to the discard pile")
    assert line(state, DiscardCard(seat=RED, zone="items", slot=1)) == (
        "Red sent a face-down card from the Items Zone to the discard pile")
    state = play(state, DiscardCard(seat=RED, zone="items", slot=2))
    assert state.armies[RED].discarded == ("signal-drums",) and len(state.armies[RED].items) == 1
    refused(state, DiscardCard(seat=RED, zone="items", slot=2), "Items Zone", "there is no card 2")


def test_one_active_strategy_per_player__the_game_mat_3(game):
    """The Game Mat 3: a new strategy sends the old one to the discard pile; a strategy deck
    holds one copy of each, so a discarded one is not played again."""
    state = red_strategy_step(game)
    state = play(state, PlayStrategy(seat=RED, card="supply-lines"))
    assert line(state, PlayStrategy(seat=RED, card="high-ground")) == (
        "Red played the strategy High Ground; Supply Lines goes to the discard pile")
    state = play(state, PlayStrategy(seat=RED, card="high-ground"))
    assert (state.armies[RED].strategy, state.armies[RED].discarded) == ("high-ground", ("supply-lines",))
    refused(state, PlayStrategy(seat=RED, card="supply-lines"), "The Game Mat (3", "in Red's discard pile")
    refused(state, PlayStrategy(seat=RED, card="high-ground"), "The Game Mat (3", "already Red's active strategy")
    refused(state, PlayStrategy(seat=RED, card="ambush"), "Effects of Cards", "Ambush is a tactic, not a strategy")


def test_a_strategy_whose_requirement_no_longer_holds_goes_to_the_discard_pile__the_game_mat_3(game):
    state = play(red_strategy_step(game), PlayStrategy(seat=RED, card="supply-lines"), end(RED))
    assert line(state, DiscardStrategy(seat=RED)) == (
        "Red's strategy Supply Lines no longer meets its requirement and goes to the discard pile")
    state = play(state, DiscardStrategy(seat=RED))  # between turns: a requirement may fail any time
    assert state.armies[RED].strategy is None and state.armies[RED].discarded == ("supply-lines",)
    refused(state, DiscardStrategy(seat=RED), "The Game Mat (3", "no active strategy")


def test_zones_and_strategies_start_afresh_each_battle__prepare_for_battle(game):
    state = play(red_strategy_step(game), PlayStrategy(seat=RED, card="supply-lines"),
                 SetCard(seat=RED, zone="tactics"), end(RED), CannotDraw(seat=BLUE),
                 NextBattle(seat=BLUE, first_seat=RED))
    red = state.armies[RED]
    assert (red.strategy, red.tactics, red.items, red.discarded) == (None, (), (), ())


# ---- the war ----------------------------------------------------------------------------------

def test_the_loser_chooses_who_goes_first__prepare_for_battle_step_5(game):
    state = play(ready(game), *turn(RED), CannotDraw(seat=BLUE))
    assert state.battle_loser() == BLUE
    refused(state, NextBattle(seat=RED, first_seat=RED), "Prepare for Battle (step 5)",
            "Blue lost the battle and chooses")
    state = play(state, NextBattle(seat=BLUE, first_seat=RED), scenario.RED_SET_UP, scenario.BLUE_SET_UP)
    refused(state, start(BLUE), "Prepare for Battle (step 5)", "Red goes first this battle")
    assert play(state, start(RED)).initiative == RED


def test_the_next_battle_starts_afresh__how_to_play(game):
    state = play(red_may_battle(game), attack(RED, "oda-nobunaga"), to_grain(BLUE), end(RED), CannotDraw(seat=BLUE))
    refused(red_may_battle(game), NextBattle(seat=BLUE, first_seat=BLUE), "Winning the Battle", "still being fought")
    state = play(state, NextBattle(seat=BLUE, first_seat=BLUE))
    assert state.battle_number == 2 and state.step == "setting_up" and state.phase == "setup" and state.turn == 0
    for army in state.armies:
        assert (army.grain, army.reserves, army.officers, army.defeat_tokens, army.turns_taken) == (
            const(game, "starting_grain"), 0, (), 0, 0)
    assert state.results[0].winner == RED


def test_a_war_is_won_by_two_battles_of_three__how_to_play(game):
    state = play(ready(game), *turn(RED), CannotDraw(seat=BLUE),
                 NextBattle(seat=BLUE, first_seat=BLUE), scenario.RED_SET_UP, scenario.BLUE_SET_UP,
                 *turn(BLUE), CannotDraw(seat=RED))
    assert ENGINE.outcome(state).scores == (1.0, 1.0) and not ENGINE.outcome(state).finished
    state = play(state, NextBattle(seat=RED, first_seat=BLUE),
                 scenario.RED_SET_UP, scenario.BLUE_SET_UP, *turn(BLUE), CannotDraw(seat=RED))
    result = ENGINE.outcome(state)
    assert state.phase == "over"
    assert result.finished and result.winners == (BLUE,) and result.scores == (1.0, 2.0)
    assert result.summary == "Blue wins the war, Red 1 – Blue 2 (Red could not draw)"
    error = refused(state, start(RED), "How to Play", "Blue wins the war")
    assert error.rule == ENGINE.over_rule
    assert ENGINE.allowed(state) == []


def test_a_war_with_a_drawn_battle_can_end_drawn__how_to_play(game):
    """After the tables' three battles, equal wins draw the war; after a drawn battle either
    player may choose who goes first."""
    state = play(red_may_battle(game), effect(BLUE, None, grain_change=-10000))
    assert state.battle_loser() is None
    state = play(state, NextBattle(seat=RED, first_seat=RED),
                 scenario.RED_SET_UP, scenario.BLUE_SET_UP, *turn(RED), CannotDraw(seat=BLUE),
                 NextBattle(seat=BLUE, first_seat=BLUE),
                 scenario.RED_SET_UP, scenario.BLUE_SET_UP, *turn(BLUE), CannotDraw(seat=RED))
    result = ENGINE.outcome(state)
    assert len(state.results) == const(game, "battles_per_war")
    assert result.finished and result.winners == () and result.scores == (1.0, 1.0)
    assert result.summary.startswith("The war is drawn")


# ---- the scenario, purity, serialisation -------------------------------------------------------

def scenario_states(game) -> list[State]:
    states = [ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, game)]
    for event in scenario.EVENTS:
        states.append(play(states[-1], event))
    return states


def test_scenario_war_plays_to_its_end(game):
    states = scenario_states(game)
    result = ENGINE.outcome(states[-1])
    assert result.finished and result.winners == tuple(scenario.WINNERS)
    assert result.scores == (2.0, 0.0) and result.score_label == "Battles won"
    assert all(not ENGINE.outcome(s).finished for s in states[:-1])
    for state, event in zip(states, scenario.EVENTS):
        assert line(state, event)
    # Battle 1: the token, Blue's grain and Red's grain as the scenario's docstring tells.
    end_of_battle_1 = states[scenario.EVENTS.index(CannotDraw(seat=1).to_json())]
    assert [a.grain for a in end_of_battle_1.armies] == [3800, 3600]
    assert [a.defeat_tokens for a in end_of_battle_1.armies] == [1, 0]
    assert end_of_battle_1.enemy_lieutenants_defeated(RED) == 1


def test_scenario_illegal_event_is_refused(game):
    index, event, words = scenario.ILLEGAL
    err = refused(scenario_states(game)[index], event, "Vanguard Step", words)
    assert words in str(err)


# ---- fewer taps: a turn's start passes the Recruitment Step when nothing is played in the Draw Step ----

def one_tap_start(seat: int) -> StartTurn:
    return StartTurn(seat=seat, recruitment=True)


def test_a_turn_starts_with_its_recruitment_step_in_one_entry__draw_step(game):
    """Step 1 and Step 2: the Recruitment Step leaves the player nothing to decide, so a turn
    whose Draw Step plays no card starts with it in the same entry: the same state as the
    Draw Step and the Recruitment Step entered one after the other, its history line saying
    what was passed."""
    state = ready(game)
    assert play(state, one_tap_start(RED)) == play(state, start(RED), recruitment(RED))
    assert play(state, one_tap_start(RED)).step == "strategy"
    told = line(state, one_tap_start(RED))
    reserves = chm_reserves(game, "oda-nobunaga", "supply-clerk", "border-captain")
    assert told == ("Red's turn (turn 1 of battle 1): drew a card; revealed commander Oda Nobunaga, strategist "
                    "Supply Clerk, lieutenant(s) Border Captain; Draw Step passed, nothing played; Red's "
                    f"Recruitment Step: combined CHM {reserves // const(game, 'reserves_per_chm_point')}, "
                    f"reserves 0 → {reserves}")
    # It is refused where a turn's start is: the Recruitment Step adds no refusal of its own.
    refused(play(state, one_tap_start(RED)), one_tap_start(RED), "Turn Structure", "still going")
    refused(play(state, one_tap_start(RED), end(RED)), one_tap_start(RED), "Turn Structure",
            "Blue has the initiative")
    # A turn's start as tables stored it before (no "recruitment") still stops in the Draw Step.
    stored = ENGINE.parse_event({"type": "start_turn", "seat": RED})
    assert stored == start(RED) and play(state, stored).step == "draw"


def test_the_draw_step_is_kept_where_a_card_may_be_played_in_it__draw_step(game):
    """Step 1: "After you draw, if there are any Items or Tactics that impact the draw step, they
    can be played at this time." Where either player may play a card then (here: a strategy,
    any of the card data's), the page offers both starts, the one-entry start first; where
    nobody may, only the one-entry start."""
    state = play(ready(game), *turn(RED), *turn(BLUE))
    starts = [m for m in ENGINE.allowed(state, RED) if m.event is StartTurn]
    assert [m.fixed for m in starts] == [{"seat": RED, "recruitment": True}, {"seat": RED, "recruitment": False}]
    reserves = state.recruitment_reserves(RED)
    assert [m.label for m in starts] == [f"Start Red's turn: draw a card, Recruitment Step +{reserves} reserves",
                                         "Start Red's turn: draw a card, then play a card in the Draw Step"]
    assert play(state, start(RED)).step == "draw"
    # No strategy in the card data, and nothing set or affordable: nothing to play in the Draw Step.
    book = state.cards
    bare = ready(game).evolve(cards=book.evolve(cards={c: i for c, i in book.cards.items() if i.kind != "strategy"}))
    starts = [m for m in ENGINE.allowed(bare, RED) if m.event is StartTurn]
    assert [m.fixed for m in starts] == [{"seat": RED, "recruitment": True}]
    assert not [m for m in ENGINE.allowed(play(bare, start(RED))) if m.event in (ActivateCard, PlayStrategy)]


def test_scenario_war_takes_fewer_entries_to_the_same_end(game):
    """The scenario's war with each turn started in one entry: 7 turns, 7 entries fewer (40 to
    33; starts, Recruitment Steps and ends 21 to 14), every turn reaching its Strategy Step in
    the same state, and the war ending in the same state."""
    states = scenario_states(game)
    quick = [ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, game)]
    for event in scenario.EVENTS_FEWER_TAPS:
        quick.append(play(quick[-1], event))
    assert quick[-1] == states[-1]
    assert ENGINE.outcome(quick[-1]).winners == tuple(scenario.WINNERS)
    bookkeeping = ("start_turn", "recruitment", "end_turn")
    assert (len(scenario.EVENTS), len(scenario.EVENTS_FEWER_TAPS)) == (40, 33)
    assert [sum(e["type"] in bookkeeping for e in events) for events in (scenario.EVENTS, scenario.EVENTS_FEWER_TAPS)] \
        == [21, 14]
    old = [s for s, e in zip(states[1:], scenario.EVENTS) if e["type"] == "recruitment"]
    new = [s for s, e in zip(quick[1:], scenario.EVENTS_FEWER_TAPS) if e["type"] == "start_turn"]
    assert new == old
    for state, event in zip(quick, scenario.EVENTS_FEWER_TAPS):  # each offered as a form
        data = ENGINE.parse_event(event)
        assert any(_fits(move, data) for move in ENGINE.allowed(state) if move.event is type(data)), data


def test_states_are_immutable(game):
    state = ready(game)
    with pytest.raises(ValidationError):
        state.step = "draw"
    with pytest.raises(AttributeError):
        state.armies[RED].officers.append(None)
    with pytest.raises(TypeError):
        state.cards.officers["x"] = None


def test_the_static_card_data_is_shared_not_copied_on_each_event(game):
    """One nested frozen model holds the card data; transitions keep the same object."""
    states = scenario_states(game)
    assert all(s.cards is states[0].cards for s in states)


def test_old_logs_without_the_new_fields_still_parse(game):
    """Logs stored before mulligans, zones and lasting cards: their events still read the same."""
    state = play(ready(game), start(RED), recruitment(RED))
    old = {"type": "card_effect", "seat": 0, "card": "field-rations", "target_seat": 0, "officer": None,
           "men_change": 0, "grain_change": 200, "reserves_change": -1000}
    assert ENGINE.step(state, old).line == (
        "Red's Field Rations: Red's grain 4000 → 4200; Red's reserves 9000 → 8000")
    assert ENGINE.parse_event({"type": "end_turn", "seat": 0}) == EndTurn(seat=0)


# ---- forms: what the rules allow now ------------------------------------------------------------

def moves_of(state, seat=None):
    found = {}
    for move in ENGINE.allowed(state, seat):
        found.setdefault(move.event, []).append(move)
    return found


def test_forms_offer_only_what_the_rules_allow(game):
    state = fresh(game)
    assert set(moves_of(state)) == {Mulligan, SetUp}
    setup = moves_of(state)[SetUp][0]
    assert setup.seat == RED and setup.field("lieutenants").count == const(game, "starting_lieutenants")
    assert [c.value for c in setup.field("commander").choices] == list(state.officer_pool(RED))
    shown = moves_of(state)[Mulligan][0].field("officers_shown")
    assert [c.value for c in shown.choices] == list(range(const(game, "min_officers_in_opening_hand")))
    state = ready(game)
    assert {m.seat for m in moves_of(state)[StartTurn]} == {RED, BLUE}  # battle 1: the players decide
    state = play(state, start(RED))
    assert set(moves_of(state)) == {Recruitment, CardEffect, PlayStrategy}
    state = play(state, recruitment(RED))
    assert DeclareAttack not in moves_of(state)  # Red's first turn
    recruitable = moves_of(state)[RecruitLieutenant][0].field("officer").choices
    reserves = state.armies[RED].reserves
    assert {c.value for c in recruitable} == {c for c in state.available(RED)
                                             if game.cards[c].recruitment_cost <= reserves}
    assert "iron-vanguard" not in {c.value for c in recruitable}  # too dear
    assert {m.seat for m in moves_of(state)[SetCard]} == {RED}
    assert ActivateCard in moves_of(state, RED) and ActivateCard not in moves_of(state, BLUE)  # nothing set


def test_attack_and_vanguard_forms_offer_the_officers_allowed(game):
    state = play(red_may_battle(game), attack(RED, "border-captain"), to_grain(BLUE))
    officers = moves_of(state)[DeclareAttack][0].field("officer").choices
    assert [c.value for c in officers] == ["oda-nobunaga", "supply-clerk"]  # Border Captain attacked
    assert "only by a card's effect" in officers[1].note
    state = play(state, attack(RED, "oda-nobunaga"), to_grain(BLUE), end(RED), start(BLUE), recruitment(BLUE),
                 attack(BLUE, "river-scout"))
    grain, officer = moves_of(state)[Vanguard]
    assert grain.seat == officer.seat == RED and grain.fixed["to_grain"] is True
    notes = {c.value: c.note for c in officer.field("officer").choices}
    assert notes["border-captain"].startswith("attacked the previous turn")


def test_the_loser_is_offered_the_choice_of_first_player(game):
    state = play(ready(game), *turn(RED), CannotDraw(seat=BLUE))
    (move,) = moves_of(state)[NextBattle]
    assert move.seat == BLUE and move.label == "Blue chooses who goes first in battle 2"
    assert NextBattle not in moves_of(state, RED)


def test_every_scenario_event_is_offered_with_its_values(game):
    """The forms hold the moves players make: each scenario event is among the allowed moves
    of the state before it, its values among the choices offered."""
    states = scenario_states(game)
    for state, event in zip(states, scenario.EVENTS):
        data = ENGINE.parse_event(event)
        offered = [m for m in ENGINE.allowed(state) if m.event is type(data)]
        assert offered, (state.step, data)
        assert any(_fits(move, data) for move in offered), (data, offered)


def test_every_form_field_is_a_field_of_its_event(game):
    states = scenario_states(game)
    states.append(play(red_strategy_step(game), SetCard(seat=RED, zone="items"),
                       ActivateCard(seat=RED, card="signal-drums"), PlayStrategy(seat=RED, card="supply-lines")))
    for state in states:
        for move in ENGINE.allowed(state):
            names = {f.name for f in move.fields} | set(move.fixed)
            assert names <= set(move.event.model_fields), (move.event, names)
            assert not {f.name for f in move.fields} & set(move.fixed), move


def _fits(move, event) -> bool:
    values = event.model_dump()
    for name, value in move.fixed.items():
        if values.get(name) != value:
            return False
    for form_field in move.fields:
        value = values.get(form_field.name)
        offered = {c.value for c in form_field.choices}
        if form_field.choices and value is not None:
            if form_field.kind == "choice" and value not in offered:
                return False
            if form_field.kind == "multi" and not set(value) <= offered:
                return False
    return True


def test_the_core_docs_worked_example_adds_an_event_in_one_class(game):
    """The worked example of card_data/engine/core.py, run as written (registered with a copy of
    the engine, so the real one is untouched): one class gives the parsing, the seat check, the
    rule, the history line and the form."""
    import copy
    import re
    import textwrap

    import card_data.engine.core as core
    import card_data.games.cahrd.rules.events_turn as rules

    example = re.search(r"would be, in\s+``card_data/games/cahrd/rules/events_turn.py``.*?::\n\n(.*?)"
                        r"\n\nThe engine then", core.__doc__, re.S).group(1)
    engine = copy.copy(rules.ENGINE)
    engine.events = dict(rules.ENGINE.events)
    namespace = {**vars(rules), "ENGINE": engine}
    exec(compile(textwrap.dedent(example), "core-docs-example", "exec"), namespace)
    concede = namespace["Concede"]
    assert engine.events["concede"] is concede and "concede" not in rules.ENGINE.events
    state = play(ready(game), start(RED), recruitment(RED))
    step = engine.step(state, {"type": "concede", "seat": 0})
    assert step.line == "Red conceded battle 1"
    assert step.state.results[-1].winner == BLUE and step.state.results[-1].reason == "Red conceded"
    with pytest.raises(RuleError, match="only the initiative player concedes"):
        engine.apply(state, {"type": "concede", "seat": 1})
    assert [m.seat for m in engine.allowed(state) if m.event is concede] == [RED]


def test_grain_and_reserves_counters_are_card_effects__effects_of_cards(game):
    """Grain and reserves change by one tap during a turn, each tap a card effect checked by the
    rules (no reserves below 0: Pay a Cost)."""
    assert ready(game).counters() == []  # no turn in progress
    state = play(ready(game), start(RED), recruitment(RED))
    counters = {c.label: c for c in state.counters()}
    grain = counters["Blue's grain"]
    assert grain.value == const(game, "starting_grain") and grain.step == const(game, "grain_damage_per_war_point")
    after = play(state, ENGINE.parse_event({"type": grain.minus.type_name, **grain.minus.fixed}))
    assert after.armies[BLUE].grain == grain.value - grain.step
    assert counters["Blue's reserves"].minus is None  # Blue has no reserves yet
    red = counters["Red's reserves"]
    spent = play(state, ENGINE.parse_event({"type": red.minus.type_name, **red.minus.fixed}))
    assert spent.armies[RED].reserves == state.armies[RED].reserves - red.step
