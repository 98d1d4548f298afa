"""C.A.H.R.D. scorekeeper: each rule checked on a scenario from the Official Rulebook 1.0 (the
section is in the test's name or docstring). Numbers come from the card data (tables.yaml and
the officer cards), never typed here, except where a test changes them on purpose."""

from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace

import pytest

from card_data.loader import load_database
from card_data.games.cahrd.cards import GameConstant
from card_data.engine import RuleError
from card_data.games import registry
from card_data.games.cahrd.rules import ENGINE, EVENT_ADAPTER, Options, State, apply, describe, new_state, outcome
import scenarios_cahrd as scenario

RED, BLUE = 0, 1


@pytest.fixture(scope="module")
def game():
    return load_database().games["cahrd"]


def const(game, name: str) -> int:
    return getattr(game.tables.constants, name).value


def officer(game, card_id: str):
    return game.cards[card_id]


def play(state: State, *events: dict) -> State:
    for event in events:
        state = apply(state, event)
    return state


def refused(state: State, event: dict, section: str, words: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        apply(state, event)
    assert "C.A.H.R.D. Official Rulebook 1.0" in info.value.rule, info.value.rule
    assert section in info.value.rule, info.value.rule
    assert words in info.value.message, info.value.message
    return info.value


def start(seat: int) -> dict:
    return {"type": "start_turn", "seat": seat}


def recruitment(seat: int) -> dict:
    return {"type": "recruitment", "seat": seat}


def end(seat: int) -> dict:
    return {"type": "end_turn", "seat": seat}


def turn(seat: int, *plays: dict) -> list[dict]:
    return [start(seat), recruitment(seat), *plays, end(seat)]


def attack(seat: int, card: str, **extra) -> dict:
    return {"type": "declare_attack", "seat": seat, "officer": card, **extra}


def vanguard(seat: int, card: str, **extra) -> dict:
    return {"type": "vanguard", "seat": seat, "officer": card, **extra}


def to_grain(seat: int) -> dict:
    return {"type": "vanguard", "seat": seat, "to_grain": True}


def damage(attacker: int = 0, vanguard_: int = 0) -> dict:
    return {"type": "damage_step", "attacker_war_modifier": attacker, "vanguard_war_modifier": vanguard_}


def effect(seat: int, card: str, target: int, **changes) -> dict:
    return {"type": "card_effect", "seat": seat, "card": card, "target_seat": target, **changes}


def set_up(seat: int, commander: str, strategist: str, lieutenant: str) -> dict:
    return {"type": "set_up", "seat": seat, "commander": commander, "strategist": strategist,
            "lieutenants": [lieutenant]}


def fresh(game, **options) -> State:
    """Red (Shield Wall) against Blue (Swift Riders), nobody set up."""
    return new_state(["Red", "Blue"], Options(**options), game)


def ready(game, red=scenario.RED_SET_UP, blue=scenario.BLUE_SET_UP, **options) -> State:
    """Both set up (Red: Oda Nobunaga, Supply Clerk, Border Captain; Blue: George Washington,
    Frontier Envoy, River Scout), before the first turn."""
    return play(fresh(game, **options), red, blue)


def red_may_battle(game, **options) -> State:
    """Red's second turn, Strategy Step: the first turn on which Red may battle."""
    return play(ready(game, **options), *turn(RED), *turn(BLUE), start(RED), recruitment(RED))


def men(state: State, seat: int, card: str) -> int:
    return state.armies[seat].officer(card).men_under_command


# ---- engine and set-up (Prepare for Battle) ----------------------------------------------------

def test_engine_is_registered_for_two_players():
    assert registry()["cahrd"].engine is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 2)
    assert set(sorted(ENGINE.events)) == {
        "set_up", "start_turn", "cannot_draw", "recruitment", "recruit_lieutenant", "declare_attack",
        "vanguard", "damage_step", "stop_attack", "card_effect", "end_turn", "next_battle"}


def test_a_battle_is_two_armies__how_to_play(game):
    with pytest.raises(RuleError) as info:
        new_state(["Red", "Blue", "Green"], Options(), game)
    assert "How to Play" in info.value.rule and "3" in info.value.message


def test_each_army_starts_with_the_tables_grain_and_no_reserves__winning_the_battle(game):
    state = fresh(game)
    assert [a.grain for a in state.armies] == [const(game, "starting_grain")] * 2
    assert [a.reserves for a in state.armies] == [0, 0]
    assert state.step == "set_up" and state.battle_number == 1


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


def test_army_any_may_field_every_officer_of_the_card_data(game):
    state = fresh(game, army_seat_1="any")
    officers = [c.id for c in game.cards.values() if c.type == "officer"]
    assert state.armies[RED].officer_pool == officers
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
    assert state.step == "between_turns"


@pytest.mark.parametrize("event,words", [
    (set_up(RED, "george-washington", "supply-clerk", "border-captain"), "not an officer of Red's army"),
    (set_up(RED, "oda-nobunaga", "oda-nobunaga", "border-captain"), "different officers"),
    ({"type": "set_up", "seat": RED, "commander": "oda-nobunaga", "strategist": "supply-clerk",
      "lieutenants": ["border-captain", "julius-caesar"]}, "starts with 1 lieutenant"),
    ({"type": "set_up", "seat": 2, "commander": "oda-nobunaga", "strategist": "supply-clerk",
      "lieutenants": ["border-captain"]}, "not a seat"),
])
def test_set_up_refusals__prepare_for_battle(game, event, words):
    with pytest.raises(RuleError) as info:
        apply(fresh(game), event)
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
    assert describe(play(fresh(game), scenario.RED_SET_UP), scenario.BLUE_SET_UP) == (
        "Blue placed a commander, a strategist and 1 lieutenant(s), face down")
    line = describe(state, start(RED))
    assert "revealed commander Oda Nobunaga" in line
    state = apply(state, start(RED))
    assert [a.revealed for a in state.armies] == [True, False]


# ---- turn structure ----------------------------------------------------------------------------

def test_initiative_alternates_by_turn__turn_structure(game):
    state = ready(game)
    assert state.next_starter() is None  # battle 1: the players decide who goes first
    state = apply(state, start(BLUE))
    assert state.initiative == BLUE and state.step == "draw"
    refused(state, start(RED), "Turn Structure", "still going")
    refused(state, recruitment(RED), "Turn Structure", "it is Blue's turn")
    state = play(state, recruitment(BLUE), end(BLUE))
    refused(state, start(BLUE), "Turn Structure", "Red has the initiative")
    state = play(state, start(RED))
    assert (state.initiative, state.turn) == (RED, 2)


def test_recruitment_adds_combined_chm_times_reserves_per_point__recruitment_step(game):
    """Step 2: reserves at the army's combined CHM x 1000; Frontier Envoy's S counts as 10."""
    state = play(ready(game), *turn(RED), start(BLUE))
    state = apply(state, recruitment(BLUE))
    chm = [game.cards[c].chm for c in ("george-washington", "frontier-envoy", "river-scout")]
    assert "S" in chm
    points = sum(const(game, "s_rank_value") if v == "S" else v for v in chm)
    assert state.armies[BLUE].reserves == points * const(game, "reserves_per_chm_point")
    assert state.step == "strategy"


def test_recruitment_once_a_turn_after_the_draw__recruitment_step(game):
    state = play(ready(game), start(RED))
    refused(state, end(RED), "Step 2", "Recruitment Step before ending")
    state = apply(state, recruitment(RED))
    refused(state, recruitment(RED), "Step 2", "already taken the Recruitment Step")
    refused(play(ready(game)), recruitment(RED), "Turn Structure", "no turn is in progress")


def test_recruit_a_lieutenant_for_its_cost__strategy_step(game):
    """Officer Card (How to Read): the recruitment cost is paid when recruited as a lieutenant."""
    state = play(ready(game), *turn(RED), start(BLUE), recruitment(BLUE))
    before = state.armies[BLUE].reserves
    cadet = game.cards["time-lost-cadet"]
    state = apply(state, {"type": "recruit_lieutenant", "seat": BLUE, "officer": "time-lost-cadet"})
    blue = state.armies[BLUE]
    assert blue.reserves == before - cadet.recruitment_cost
    assert blue.officer("time-lost-cadet").position == "lieutenant"
    assert men(state, BLUE, "time-lost-cadet") == cadet.men_under_command
    assert blue.lieutenants_recruited == 1


def test_officers_are_recruited_only_in_the_strategy_step(game):
    """Step 2: you may ONLY recruit officers during the Strategy Step."""
    recruit = {"type": "recruit_lieutenant", "seat": RED, "officer": "julius-caesar"}
    refused(play(ready(game), start(RED)), recruit, "Step 3", "take the Recruitment Step first")
    state = play(red_may_battle(game), attack(RED, "border-captain"), to_grain(BLUE))
    refused(state, recruit, "Step 3", "the Battle Step has begun")
    refused(play(ready(game), *turn(RED), start(BLUE), recruitment(BLUE)), recruit, "Turn Structure",
            "it is Blue's turn")


def test_at_most_two_more_lieutenants__lieutenant_zone(game):
    """The Game Mat (6): you start with one lieutenant and can recruit two more later."""
    state = play(ready(game), *turn(RED), start(BLUE), recruitment(BLUE))
    for card in ("time-lost-cadet", "militia-elder"):
        state = apply(state, {"type": "recruit_lieutenant", "seat": BLUE, "officer": card})
    assert len(state.armies[BLUE].lieutenants) == 1 + const(game, "max_extra_lieutenants")
    refused(state, {"type": "recruit_lieutenant", "seat": BLUE, "officer": "mountain-guide"},
            "Lieutenant Zone", "already recruited 2 lieutenants")


@pytest.mark.parametrize("card,words", [
    ("iron-vanguard", "costs 40000 reserves and Red has only"),
    ("border-captain", "already on the field"),
    ("archer-captain", "not an officer of Red's army"),
])
def test_recruit_refusals__strategy_step(game, card, words):
    state = play(ready(game), start(RED), recruitment(RED))
    assert game.cards["iron-vanguard"].recruitment_cost > state.armies[RED].reserves
    refused(state, {"type": "recruit_lieutenant", "seat": RED, "officer": card}, "Step 3", words)


def test_a_defeated_officer_cannot_be_recruited_again(game):
    state = red_may_battle(game)
    state = apply(state, effect(RED, "night-raid", BLUE, officer="river-scout", men_change=-5))
    state = play(state, end(RED), start(BLUE), recruitment(BLUE))
    refused(state, {"type": "recruit_lieutenant", "seat": BLUE, "officer": "river-scout"}, "Step 3",
            "was defeated this battle")


# ---- the Battle Step ---------------------------------------------------------------------------

def test_no_battle_on_a_players_first_turn__summary_of_the_steps(game):
    state = play(ready(game), start(RED), recruitment(RED))
    refused(state, attack(RED, "border-captain"), "Summary of the steps", "first turn")
    state = play(state, end(RED), start(BLUE), recruitment(BLUE))
    refused(state, attack(BLUE, "river-scout"), "Summary of the steps", "Blue's first turn")
    state = play(state, end(BLUE), start(RED), recruitment(RED))
    assert apply(state, attack(RED, "border-captain")).attack.officer == "border-captain"


def test_attack_only_after_the_recruitment_step__turn_structure(game):
    state = play(ready(game), *turn(RED), *turn(BLUE), start(RED))
    refused(state, attack(RED, "border-captain"), "Turn Structure", "Recruitment Step before the Battle Step")


def test_the_strategist_never_attacks__strategist_zone(game):
    state = red_may_battle(game)
    refused(state, attack(RED, "supply-clerk"), "Strategist Zone", "Supply Clerk is Red's strategist")
    refused(state, attack(RED, "supply-clerk", allowed_by_card="no-such-card"), "Effects of Cards", "no card")
    state = apply(state, attack(RED, "supply-clerk", allowed_by_card="war-horse"))
    assert state.attack.officer == "supply-clerk"
    assert "(by War Horse)" in describe(red_may_battle(game), attack(RED, "supply-clerk", allowed_by_card="war-horse"))


def test_the_strategist_is_never_attacked__strategist_zone(game):
    state = apply(red_may_battle(game), attack(RED, "border-captain"))
    refused(state, vanguard(BLUE, "frontier-envoy"), "Strategist Zone", "cannot be attacked")
    state = apply(state, vanguard(BLUE, "frontier-envoy", allowed_by_card="ambush"))
    assert state.attack.vanguard == "frontier-envoy"


def test_an_officer_attacks_at_most_once_a_turn__declaration_step(game):
    state = play(red_may_battle(game), attack(RED, "border-captain"), to_grain(BLUE))
    refused(state, attack(RED, "border-captain"), "Declaration Step", "already attacked this turn")
    refused(state, attack(RED, "julius-caesar"), "Declaration Step", "not on Red's field")
    assert apply(state, attack(RED, "oda-nobunaga")).attack.officer == "oda-nobunaga"


def test_one_attack_at_a_time__damage_step(game):
    state = apply(red_may_battle(game), attack(RED, "border-captain"))
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
    assert apply(state, vanguard(RED, "border-captain", allowed_by_card="horse-master")).attack.vanguard
    state = play(state, to_grain(RED), end(BLUE), start(RED))
    assert state.armies[RED].officer("border-captain").attack_marker  # still there in the Draw Step
    state = apply(state, recruitment(RED))
    assert not any(o.attack_marker for o in state.armies[RED].officers)
    assert state.armies[BLUE].officer("river-scout").attack_marker  # only the owner's markers go


def test_the_defender_declares_one_vanguard__vanguard_step(game):
    state = red_may_battle(game)
    refused(state, to_grain(BLUE), "Vanguard Step", "no attack waiting")
    refused(state, damage(), "Damage Step", "after an attack and its vanguard")
    state = apply(state, attack(RED, "border-captain"))
    refused(state, vanguard(RED, "oda-nobunaga"), "Vanguard Step", "the defender (Blue) declares")
    refused(state, {"type": "vanguard", "seat": BLUE}, "Vanguard Step", "name one vanguard officer")
    refused(state, vanguard(BLUE, "river-scout", to_grain=True), "Vanguard Step", "name one vanguard officer")
    refused(state, vanguard(BLUE, "horse-master"), "Vanguard Step", "not on Blue's field")
    refused(state, damage(), "Damage Step", "after an attack and its vanguard")
    state = apply(state, vanguard(BLUE, "river-scout"))
    refused(state, vanguard(BLUE, "george-washington"), "Vanguard Step", "no attack waiting")


def test_higher_war_wins_and_the_loser_loses_one_man__damage_step(game):
    """Border Captain (WAR 3) attacks, River Scout (WAR 2) defends: River Scout takes 1 damage."""
    assert game.cards["border-captain"].war > game.cards["river-scout"].war
    state = play(red_may_battle(game), attack(RED, "border-captain"), vanguard(BLUE, "river-scout"))
    line = describe(state, damage())
    state = apply(state, damage())
    scout = game.cards["river-scout"].men_under_command
    assert men(state, BLUE, "river-scout") == scout - const(game, "battle_damage_to_losing_officer")
    assert men(state, RED, "border-captain") == game.cards["border-captain"].men_under_command
    assert state.attack is None and state.step == "battle"
    assert line == (f"Damage Step: Border Captain WAR 3 against River Scout WAR 2: "
                    f"River Scout men under command {scout} → {scout - 1}")


def test_equal_war_has_no_winner_and_nothing_happens__damage_step(game):
    """WAR modifiers count: River Scout +1 meets Border Captain's WAR 3; nobody takes damage."""
    state = play(red_may_battle(game), attack(RED, "border-captain"), vanguard(BLUE, "river-scout"))
    after = apply(state, damage(vanguard_=1))
    assert after.armies == state.armies and after.attack is None
    assert describe(state, damage(vanguard_=1)).endswith("no winner, nothing happens")


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
    line = describe(state, {"type": "stop_attack", "seat": BLUE, "card": "feigned-retreat"})
    state = apply(state, {"type": "stop_attack", "seat": BLUE, "card": "feigned-retreat"})
    assert state.attack is None and line == "Blue's Feigned Retreat stopped Border Captain's attack before damage"
    refused(state, attack(RED, "border-captain"), "Declaration Step", "already attacked")
    refused(state, {"type": "stop_attack", "seat": BLUE, "card": "feigned-retreat"}, "Battle/Battled",
            "no attack to stop")


# ---- defeat and victory ------------------------------------------------------------------------

def test_a_defeated_lieutenant_goes_to_the_discard_pile_and_the_initiative_player_gets_a_token__defeated(game):
    """Glossary of Terms (Defeated): River Scout's men reach 0 on Red's turn."""
    state = play(red_may_battle(game),
                 effect(RED, "night-raid", BLUE, officer="river-scout",
                        men_change=1 - game.cards["river-scout"].men_under_command),
                 attack(RED, "border-captain"), vanguard(BLUE, "river-scout"))
    line = describe(state, damage())
    state = apply(state, damage())
    blue = state.armies[BLUE]
    assert blue.officer("river-scout") is None
    assert [(o.card, o.position, o.men_under_command) for o in blue.defeated] == [("river-scout", "lieutenant", 0)]
    assert [a.defeat_tokens for a in state.armies] == [1, 0]
    assert "River Scout loses its last men and is defeated; Red gets a defeat token (1)" in line


@pytest.mark.parametrize("token_to,holder", [("initiative_player", RED), ("defeating_player", BLUE)])
def test_whose_token_when_a_lieutenant_falls_on_its_owners_turn__defeated_or_defeat_three_lieutenants(
        game, token_to, holder):
    """Red's Border Captain attacks on Red's turn and loses its last man to Blue's vanguard. The
    Glossary (Defeated) gives the token to the initiative player, Red; Defeat three Lieutenants
    to the player who defeated it, Blue (option ``defeat_token_to``)."""
    state = red_may_battle(game, defeat_token_to=token_to)
    state = play(state, effect(BLUE, "night-raid", RED, officer="border-captain",
                               men_change=1 - game.cards["border-captain"].men_under_command),
                 attack(RED, "border-captain"), vanguard(BLUE, "george-washington"), damage(vanguard_=1))
    assert state.armies[RED].officer("border-captain") is None
    assert state.armies[holder].defeat_tokens == 1
    assert state.armies[1 - holder].defeat_tokens == 0


def test_defeating_the_enemy_commander_wins_the_battle__defeat_the_enemy_commander(game):
    washington = game.cards["george-washington"].men_under_command
    state = play(red_may_battle(game),
                 effect(RED, "fire-arrows", BLUE, officer="george-washington", men_change=1 - washington),
                 attack(RED, "oda-nobunaga"), vanguard(BLUE, "george-washington"))
    line = describe(state, damage())
    state = apply(state, damage())
    assert state.step == "battle_over"
    assert state.results[-1].winner == RED and "Blue's commander was defeated" in state.results[-1].reason
    assert line.endswith("Red wins battle 1: Blue's commander was defeated")
    refused(state, end(RED), "Winning the Battle", "battle 1 is over")
    assert not outcome(state).finished and outcome(state).scores == [1, 0]


def test_three_lieutenant_defeat_tokens_win_the_battle__defeat_three_lieutenants(game):
    state = play(ready(game), *turn(RED),
                 *turn(BLUE, {"type": "recruit_lieutenant", "seat": BLUE, "officer": "time-lost-cadet"},
                        {"type": "recruit_lieutenant", "seat": BLUE, "officer": "militia-elder"}),
                 start(RED), recruitment(RED))
    for card in ("river-scout", "time-lost-cadet"):
        state = apply(state, effect(RED, "night-raid", BLUE, officer=card, men_change=-10))
        assert state.step == "strategy"
    assert state.armies[RED].defeat_tokens == 2
    state = apply(state, effect(RED, "night-raid", BLUE, officer="militia-elder", men_change=-10))
    assert state.armies[RED].defeat_tokens == const(game, "lieutenants_defeated_to_win")
    assert state.results[-1].winner == RED and "Red holds 3 lieutenant defeat tokens" in state.results[-1].reason


def test_grain_at_zero_is_destroyed__destroy_the_enemy_grain(game):
    """The attack exactly empties Blue's grain: 0 counts as destroyed."""
    oda = game.cards["oda-nobunaga"].war * const(game, "grain_damage_per_war_point")
    state = red_may_battle(game)
    state = apply(state, effect(RED, "fire-arrows", BLUE, grain_change=oda - state.armies[BLUE].grain))
    assert state.armies[BLUE].grain == oda and state.step == "strategy"
    state = play(state, attack(RED, "oda-nobunaga"), to_grain(BLUE))
    assert state.armies[BLUE].grain == 0
    assert state.results[-1].winner == RED and "Blue's grain was destroyed" in state.results[-1].reason


def test_a_player_who_cannot_draw_loses__draw_step(game):
    state = play(ready(game), *turn(RED))
    refused(state, {"type": "cannot_draw", "seat": RED}, "Turn Structure", "Blue has the initiative")
    line = describe(state, {"type": "cannot_draw", "seat": BLUE})
    state = apply(state, {"type": "cannot_draw", "seat": BLUE})
    assert state.results[-1].winner == RED and line == "Blue could not draw and loses battle 1"


def test_a_fighter_defeated_by_a_card_ends_the_attack(game):
    """Fire Arrows defeats the vanguard before the Damage Step: no Damage Step follows."""
    state = play(red_may_battle(game), attack(RED, "border-captain"), vanguard(BLUE, "river-scout"),
                 effect(RED, "fire-arrows", BLUE, officer="river-scout", men_change=-10))
    assert state.attack is None and state.armies[RED].defeat_tokens == 1
    refused(state, damage(), "Damage Step", "after an attack and its vanguard")


def test_both_armies_losing_at_once_is_a_drawn_battle__winning_the_battle(game):
    """Red, holding two tokens, loses its grain and a lieutenant to one card on its own turn: Red's
    grain is destroyed, and the Glossary's token for the initiative player gives Red its third."""
    state = play(ready(game), *turn(RED),
                 *turn(BLUE, {"type": "recruit_lieutenant", "seat": BLUE, "officer": "time-lost-cadet"}),
                 start(RED), recruitment(RED),
                 effect(RED, "night-raid", BLUE, officer="river-scout", men_change=-10),
                 effect(RED, "night-raid", BLUE, officer="time-lost-cadet", men_change=-10))
    state = apply(state, effect(BLUE, "rearguard", RED, officer="border-captain", men_change=-10,
                                grain_change=-const(game, "starting_grain")))
    assert state.results[-1].winner is None and state.step == "battle_over"
    assert outcome(state).scores == [0, 0]


# ---- card effects ------------------------------------------------------------------------------

def test_a_card_cost_is_paid_from_reserves__pay_a_cost(game):
    state = play(ready(game), start(RED), recruitment(RED))
    have = state.armies[RED].reserves
    rations = game.cards["field-rations"].reserve_cost
    state = apply(state, effect(RED, "field-rations", RED, reserves_change=-rations, grain_change=200))
    assert state.armies[RED].reserves == have - rations
    assert state.armies[RED].grain == const(game, "starting_grain") + 200
    refused(state, effect(RED, "field-rations", RED, reserves_change=-(have + 1)), "Pay a Cost", "only")


@pytest.mark.parametrize("event,words", [
    (effect(RED, "no-such-card", BLUE, grain_change=-100), "no card 'no-such-card'"),
    (effect(RED, "night-raid", BLUE), "enter what the effect changed"),
    (effect(RED, "night-raid", BLUE, men_change=-1), "needs the officer"),
    (effect(RED, "night-raid", BLUE, officer="river-scout", grain_change=-100), "needs the officer"),
    (effect(RED, "night-raid", BLUE, officer="border-captain", men_change=-1), "not on Blue's field"),
    (effect(RED, "night-raid", 2, grain_change=-1), "not a seat"),
])
def test_card_effect_refusals__effects_of_cards(game, event, words):
    state = play(ready(game), start(RED))
    with pytest.raises(RuleError) as info:
        apply(state, event)
    assert words in info.value.message


def test_card_effects_happen_during_a_turn(game):
    refused(ready(game), effect(RED, "field-rations", RED, grain_change=200), "Turn Structure", "start the turn")


# ---- the war ----------------------------------------------------------------------------------

def test_the_loser_chooses_who_goes_first__prepare_for_battle_step_5(game):
    state = play(ready(game), *turn(RED), {"type": "cannot_draw", "seat": BLUE})
    assert state.battle_loser() == BLUE
    refused(state, {"type": "next_battle", "seat": RED, "first_seat": RED}, "Prepare for Battle (step 5)",
            "Blue lost the battle and chooses")
    state = play(state, {"type": "next_battle", "seat": BLUE, "first_seat": RED},
                 scenario.RED_SET_UP, scenario.BLUE_SET_UP)
    refused(state, start(BLUE), "Prepare for Battle (step 5)", "Red goes first this battle")
    assert apply(state, start(RED)).initiative == RED


def test_the_next_battle_starts_afresh__how_to_play(game):
    state = play(red_may_battle(game), attack(RED, "oda-nobunaga"), to_grain(BLUE), end(RED),
                 {"type": "cannot_draw", "seat": BLUE})
    refused(play(red_may_battle(game)), {"type": "next_battle", "seat": BLUE, "first_seat": BLUE},
            "Winning the Battle", "still being fought")
    state = apply(state, {"type": "next_battle", "seat": BLUE, "first_seat": BLUE})
    assert state.battle_number == 2 and state.step == "set_up" and state.turn == 0
    for army in state.armies:
        assert (army.grain, army.reserves, army.officers, army.defeat_tokens, army.turns_taken) == (
            const(game, "starting_grain"), 0, [], 0, 0)
    assert state.results[0].winner == RED


def test_a_war_is_won_by_two_battles_of_three__how_to_play(game):
    state = play(ready(game), *turn(RED), {"type": "cannot_draw", "seat": BLUE},
                 {"type": "next_battle", "seat": BLUE, "first_seat": BLUE}, scenario.RED_SET_UP, scenario.BLUE_SET_UP,
                 *turn(BLUE), {"type": "cannot_draw", "seat": RED})
    assert outcome(state).scores == [1, 1] and not outcome(state).finished
    state = play(state, {"type": "next_battle", "seat": RED, "first_seat": BLUE},
                 scenario.RED_SET_UP, scenario.BLUE_SET_UP, *turn(BLUE), {"type": "cannot_draw", "seat": RED})
    result = outcome(state)
    assert result.finished and result.winners == [BLUE] and result.scores == [1, 2]
    assert result.summary == "Blue wins the war, Red 1 – Blue 2 (Red could not draw)"
    refused(state, start(RED), "How to Play", "the war is over")


def test_a_war_with_a_drawn_battle_can_end_drawn__how_to_play(game):
    """After the tables' three battles, equal wins draw the war; after a drawn battle either
    player may choose who goes first."""
    state = play(ready(game), *turn(RED),
                 *turn(BLUE, {"type": "recruit_lieutenant", "seat": BLUE, "officer": "time-lost-cadet"}),
                 start(RED), recruitment(RED),
                 effect(RED, "night-raid", BLUE, officer="river-scout", men_change=-10),
                 effect(RED, "night-raid", BLUE, officer="time-lost-cadet", men_change=-10),
                 effect(BLUE, "rearguard", RED, officer="border-captain", men_change=-10, grain_change=-10000))
    assert state.battle_loser() is None
    state = play(state, {"type": "next_battle", "seat": RED, "first_seat": RED},
                 scenario.RED_SET_UP, scenario.BLUE_SET_UP, *turn(RED), {"type": "cannot_draw", "seat": BLUE},
                 {"type": "next_battle", "seat": BLUE, "first_seat": BLUE},
                 scenario.RED_SET_UP, scenario.BLUE_SET_UP, *turn(BLUE), {"type": "cannot_draw", "seat": RED})
    result = outcome(state)
    assert len(state.results) == const(game, "battles_per_war")
    assert result.finished and result.winners == [] and result.scores == [1, 1]
    assert result.summary.startswith("The war is drawn")


# ---- the scenario, purity, serialisation -------------------------------------------------------

def scenario_states(game) -> list[State]:
    states = [new_state(scenario.PLAYERS, Options(**scenario.OPTIONS), game)]
    for event in scenario.EVENTS:
        states.append(apply(states[-1], EVENT_ADAPTER.validate_python(event)))
    return states


def test_scenario_war_plays_to_its_end(game):
    states = scenario_states(game)
    result = outcome(states[-1])
    assert result.finished and result.winners == scenario.WINNERS
    assert result.scores == [2, 0] and result.score_label == "Battles won"
    assert all(not outcome(s).finished for s in states[:-1])
    for state, event in zip(states, scenario.EVENTS):
        assert describe(state, EVENT_ADAPTER.validate_python(event))
    # Battle 1: the token, Blue's grain and Red's grain as the scenario's docstring tells.
    end_of_battle_1 = states[scenario.EVENTS.index({"type": "cannot_draw", "seat": 1})]
    assert [a.grain for a in end_of_battle_1.armies] == [3800, 3600]
    assert [a.defeat_tokens for a in end_of_battle_1.armies] == [1, 0]


def test_scenario_illegal_event_is_refused(game):
    index, event, words = scenario.ILLEGAL
    state = scenario_states(game)[index]
    err = refused(state, event, "Vanguard Step", words)
    assert words in str(err)


def test_apply_never_mutates_its_input_and_states_round_trip_as_json(game):
    states = scenario_states(game)
    for state, event in zip(states, scenario.EVENTS):
        before = state.model_dump(mode="json")
        apply(state, EVENT_ADAPTER.validate_python(event))
        describe(state, EVENT_ADAPTER.validate_python(event))
        assert state.model_dump(mode="json") == before
    for state in states:
        assert State.model_validate(state.model_dump(mode="json")) == state


def test_a_refused_event_leaves_the_state_unchanged(game):
    state = play(red_may_battle(game), attack(RED, "border-captain"))
    before = state.model_dump(mode="json")
    with pytest.raises(RuleError):
        apply(state, vanguard(BLUE, "frontier-envoy"))
    assert state.model_dump(mode="json") == before


# ---- the page partial --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def jinja():
    from companion import create_app
    return create_app({"TESTING": True, "DATABASE_URL": "sqlite://"}).jinja_env


def render(jinja, state: State) -> str:
    table = SimpleNamespace(players=scenario.PLAYERS, options=scenario.OPTIONS, code="ABC123", game="cahrd")
    return jinja.get_template("tables/cahrd.html").render(table=table, state=state, outcome=outcome(state),
                                                          post_url="/post-here")


FORM = re.compile(r'<form method="post" action="/post-here".*?</form>', re.S)


def forms(html: str) -> list[tuple[str, set[str]]]:
    """Each form's event type and the names of its other inputs."""
    found = []
    for form in FORM.findall(html):
        kind = re.search(r'name="type" value="([a-z_]+)"', form).group(1)
        names = set(re.findall(r'name="([a-z_\[\]]+)"', form)) - {"type"}
        found.append((kind, names))
    return found


def test_page_offers_a_form_for_each_next_scenario_event_with_its_fields(jinja, game):
    states = scenario_states(game)
    for state, event in zip(states, scenario.EVENTS):
        offered = forms(render(jinja, state))
        names_for_type = [names for kind, names in offered if kind == event["type"]]
        assert names_for_type, (event, [k for k, _ in offered])
        wanted = {k + "[]" if isinstance(v, list) else k for k, v in event.items() if k != "type"}
        assert any(wanted <= names for names in names_for_type), (event, names_for_type)


def test_every_form_field_is_a_field_of_its_event(jinja, game):
    fields = {}
    for kind in sorted(ENGINE.events):
        model = type(EVENT_ADAPTER.validate_python(_minimal(kind)))
        fields[kind] = set(model.model_fields) - {"type"}
    for state in scenario_states(game):
        for kind, names in forms(render(jinja, state)):
            assert {n.removesuffix("[]") for n in names} <= fields[kind], (kind, names)


def _minimal(kind: str) -> dict:
    required = {"set_up": {"seat": 0, "commander": "a", "strategist": "b", "lieutenants": ["c"]},
                "recruit_lieutenant": {"seat": 0, "officer": "a"}, "declare_attack": {"seat": 0, "officer": "a"},
                "vanguard": {"seat": 0}, "damage_step": {}, "stop_attack": {"seat": 0, "card": "a"},
                "card_effect": {"seat": 0, "card": "a", "target_seat": 0},
                "next_battle": {"seat": 0, "first_seat": 0}}
    return {"type": kind, **required.get(kind, {"seat": 0})}


def test_page_shows_the_armies_at_a_glance(jinja, game):
    states = scenario_states(game)
    face_down = render(jinja, states[2])
    assert "Officers placed face down" in face_down and "Oda Nobunaga" not in face_down.split("cahrd-forms")[0]
    mid = render(jinja, states[scenario.EVENTS.index({"type": "damage_step"})])
    assert "Damage Step next" in mid and "attacked this turn" in mid
    assert "<dt>Grain</dt><dd>4000</dd>" in mid and "Turn 3: <strong>Red</strong> has the initiative" in mid
    battle_over = render(jinja, states[scenario.EVENTS.index({"type": "cannot_draw", "seat": 1}) + 1])
    assert "Red won: Blue could not draw" in battle_over
    assert 'value="next_battle"' in battle_over and "Blue chooses who goes first" in battle_over
    assert "River Scout (lieutenant)" in battle_over  # the defeated officer is listed
    final = render(jinja, states[-1])
    assert "War over" in final and "<form" not in final
    assert "battles won: Red <strong>2</strong> – Blue <strong>0</strong>" in final
