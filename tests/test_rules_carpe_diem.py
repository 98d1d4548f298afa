"""Carpe Diem scorekeeper engine: rulebook scenarios, refusals, building rewards, the scenario
file, the forms the rules offer and the page.

Sections cited: summary = carpe-diem-summary.txt; 2018 rulebook = carpe-diem-published-rules-notes.md.
Values printed only as icons are read from the bundled tables.yaml (``TABLES``), never re-typed,
except where a test checks the rulebook's own legible numbers (starting VP, 4 VP penalty,
3 bread, 3 chimneys = 3 VP, 5 chimneys = 7 VP).
"""

from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace

import pydantic
import pytest
import scenarios_carpe_diem as scenario

import card_data.games.carpe_diem.rules as cd
from card_data.engine import Event, RuleError
from card_data.games import registry
from card_data.games.carpe_diem.cards import SCORING_CARDS_BY_PLAYERS, SCORING_SET_PLAYERS
from card_data.games.carpe_diem.layout import lay_out
from card_data.games.carpe_diem.requirements import Need, Owned, Ware
from card_data.loader import load_database

GAME = load_database().games["carpe_diem"]
TABLES = GAME.tables
NAMES = ["Anna", "Bea", "Cato", "Dido"]
PENALTY = TABLES.unmet_card_penalty.vp
BREAD = TABLES.bread_to_fulfil_card.bread
ENGINE = cd.ENGINE


# --- helpers ---------------------------------------------------------------------------------


def start(players: int = 2, game=GAME, **options) -> cd.State:
    return ENGINE.new_state(NAMES[:players], options, game)


def play(state: cd.State, *events: Event | dict) -> cd.State:
    for event in events:
        state = ENGINE.apply(state, event)
    return state


def refused(state: cd.State, event: Event | dict, section: str) -> RuleError:
    """Apply ``event``, expect a refusal whose rule names ``section``; return the error."""
    with pytest.raises(RuleError) as caught:
        ENGINE.apply(state, event)
    assert section in caught.value.rule
    return caught.value


def circle_between(state: cd.State, first: str, second: str) -> int:
    """The number of the circle between two card ids, whatever the numbering."""
    return next(c.number for c in state.circles if set(c.cards) == {first, second})


def with_tables(**changes) -> object:
    """The bundled game with some tables.yaml entries replaced."""
    return dataclasses.replace(GAME, tables=TABLES.model_copy(update=changes))


def with_cards(**cards) -> object:
    """The bundled game with some cards replaced (by id)."""
    return dataclasses.replace(GAME, cards={**GAME.cards, **cards})


def holdings(state: cd.State, seat: int, **counts) -> cd.State:
    return ENGINE.apply(state, cd.SetResources(seat=seat, **counts))


def scoring(players: int = 2, **options) -> cd.State:
    """A fresh table in its first scoring period."""
    return play(start(players, **options), cd.PhaseEnded())


def score(state: cd.State, first: str, second: str, **fields) -> cd.State:
    """The next scorer places a disc between ``first`` and ``second``, resolving ``first`` first."""
    return ENGINE.apply(state, cd.Score(seat=state.next_to_score(), first_card=first,
                                        circle=circle_between(state, first, second), **fields))


def fail_both(state: cd.State) -> cd.State:
    """The next scorer takes the first free circle and meets neither card."""
    zero = {thing: 0 for thing in cd.OWNED_NAMES}
    return ENGINE.apply(state, cd.Score(seat=state.next_to_score(), circle=state.free_circles()[0].number, **zero))


def final_stage(players: int = 2, **options) -> cd.State:
    state = start(players, **options)
    for _ in range(TABLES.phases.count):
        state = play(state, cd.PhaseEnded())
        for _ in range(players):
            state = fail_both(state)
    return state


# --- set-up (2018 rulebook, Set-up details) ----------------------------------------------------


@pytest.mark.parametrize("players, expected", [(2, [8, 9]), (3, [8, 9, 13]), (4, [8, 9, 10, 11])])
def test_starting_vp_by_seat__setup_details(players, expected):
    """2018 rulebook, Set-up details: start player 8; 2p 8, 9; 3p 8, 9, 13; 4p 8, 9, 10, 11."""
    state = start(players)
    assert [s.vp for s in state.sheets] == expected == TABLES.starting_vp.for_players(players)
    assert ENGINE.outcome(state).scores == tuple(float(v) for v in expected)
    assert ENGINE.outcome(state).score_label == "VP"


def test_starting_vp_are_read_from_the_tables__setup_details():
    game = with_tables(starting_vp=TABLES.starting_vp.model_copy(update={"p2": [5, 6]}))
    assert [s.vp for s in start(2, game).sheets] == [5, 6]


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players__setup_details(players):
    """The core refuses the player count, from the engine's 2 to 4 (the scoring sets)."""
    with pytest.raises(RuleError) as caught:
        ENGINE.new_state(["P"] * players, {}, GAME)
    assert cd.RULEBOOK in caught.value.rule and "Carpe Diem is for 2 to 4 players" in caught.value.rule
    assert caught.value.message == f"this table has {players} players"
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4) == (min(SCORING_SET_PLAYERS.values()),
                                                                  max(SCORING_SET_PLAYERS.values()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_discs_start_stacked_on_space_0__setup_details(players):
    """The start player's disc on space 0, the others on top in clockwise order: the last seat
    is on top, so it scores first if nobody has moved."""
    state = scoring(players)
    assert [s.space for s in state.sheets] == [0] * players
    assert state.bar_order == tuple(reversed(range(players)))
    assert state.next_to_score() == players - 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scoring_cards_and_circles_by_player_count__setup_details(players):
    """2018 rulebook, Set-up details: the scoring set for the player count (2p 2A 2B 2C 2D,
    3p 2A 3B 2C 3D, 4p 3A 3B 2C 4D) with 9 / 13 / 17 circles between them."""
    state = start(players)
    deck = next(d for d in GAME.decks.values() if SCORING_SET_PLAYERS.get(d.kind) == players)
    laid = [cid for row in state.board.layout for cid in row]
    assert laid == [e.card for e in deck.cards]
    types = [state.board.cards[cid].scoring_type for cid in laid]
    assert {t: types.count(t) for t in "ABCD"} == SCORING_CARDS_BY_PLAYERS[players]
    circles = {2: TABLES.circle_spaces.p2, 3: TABLES.circle_spaces.p3, 4: TABLES.circle_spaces.p4}[players]
    assert len(state.circles) == circles == {2: 9, 3: 13, 4: 17}[players]
    assert [c.number for c in state.circles] == list(range(1, circles + 1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_circle_lies_between_two_adjacent_cards(players):
    state = start(players)
    place = {cid: (r, c) for r, row in enumerate(state.board.layout) for c, cid in enumerate(row)}
    pairs = set()
    for circle in state.circles:
        (r1, c1), (r2, c2) = place[circle.cards[0]], place[circle.cards[1]]
        assert (r2 - r1, c2 - c1) in {(0, 1), (1, 0)}
        pairs.add(circle.cards)
    assert len(pairs) == len(state.circles)


def test_layout_rows_follow_the_circle_count():
    """Our reading of the board (see card_data.games.carpe_diem.layout): rows of the widest width
    whose grid has the table's number of circles."""
    ids = [f"c{i}" for i in range(12)]
    assert [len(r) for r in lay_out(ids, 17)[0]] == [4, 4, 4]
    assert [len(r) for r in lay_out(ids[:10], 13)[0]] == [5, 5]
    assert [len(r) for r in lay_out(ids[:8], 9)[0]] == [5, 3]
    assert [len(r) for r in lay_out(ids[:8], 10)[0]] == [4, 4]
    with pytest.raises(ValueError, match="no row width"):
        lay_out(ids[:3], 5)


def test_layout_is_driven_by_the_tables__setup_details():
    circles = TABLES.circle_spaces.model_copy(update={"p2": 10})
    assert [len(r) for r in start(2, with_tables(circle_spaces=circles)).board.layout] == [4, 4]
    impossible = TABLES.circle_spaces.model_copy(update={"p2": 50})
    with pytest.raises(RuleError) as caught:
        start(2, with_tables(circle_spaces=impossible))
    assert "Set-up details" in caught.value.rule and "50 circle spaces" in caught.value.message


def test_a_district_starts_empty__setup():
    """Summary, Setup and Building Rules: a district starts empty (its first tile goes on the
    shovel space), so every tracked count starts at 0; chimneys are not tracked."""
    sheet = start().sheets[0]
    assert sheet.owned == {t: 0 for t in cd.TRACKED}
    assert "chimney" not in sheet.owned and set(cd.TRACKED) == set(Owned.__args__) - {"chimney"}
    assert (sheet.villas, sheet.fountain_cards) == ((), ())


# --- phases and rounds (summary, Turn Structure) -----------------------------------------------


def test_seven_rounds_then_a_scoring_period__turn_structure():
    state = start()
    rounds = TABLES.phases.rounds_per_phase
    state = play(state, *[cd.RoundPlayed()] * (rounds - 1))
    assert (state.phase, state.step, state.phase_number, state.round) == ("play", "rounds", 1, rounds)
    assert ENGINE.outcome(state).summary == f"Phase 1, round {rounds}"
    step = ENGINE.step(state, cd.RoundPlayed())
    assert (step.state.phase, step.state.step, step.state.phase_number) == ("scoring", "scoring", 1)
    assert ENGINE.outcome(step.state).summary == "Scoring period 1"
    assert step.line == f"Round {rounds} of phase 1 played; scoring period 1 begins, Bea first"


def test_phase_ended_starts_the_scoring_period_at_once__turn_structure():
    state = play(start(), cd.RoundPlayed(), cd.PhaseEnded())
    assert (state.phase, state.step, state.phase_number) == ("scoring", "scoring", 1)


def test_no_round_during_a_scoring_period__turn_structure():
    state = scoring()
    for event in (cd.RoundPlayed(), cd.PhaseEnded()):
        error = refused(state, event, "Turn Structure")
        assert "Bea scores next" in error.message


def test_four_phases_then_final_scoring__turn_structure():
    state = start()
    for phase in range(1, TABLES.phases.count + 1):
        assert (state.phase, state.step, state.phase_number, state.round) == ("play", "rounds", phase, 1)
        state = play(state, cd.PhaseEnded())
        state = fail_both(fail_both(state))
    assert (state.phase, state.step) == ("scoring", "final")
    assert ENGINE.outcome(state).summary == "Final scoring"
    assert [s.vp for s in state.sheets] == [8 - 8 * 4, 9 - 8 * 4]
    assert sum(c.seat is not None for c in state.circles) == 8
    refused(state, cd.RoundPlayed(), "Turn Structure")


# --- banderole bar (2018 rulebook, Set-up details and Scoring periods) -------------------------


def test_disc_moving_onto_an_occupied_space_goes_on_top__setup_details():
    state = play(start(3), cd.BanderoleMove(seat=0, spaces=2), cd.BanderoleMove(seat=2, spaces=2))
    assert [s.space for s in state.sheets] == [2, 0, 2]
    assert state.bar_order == (2, 0, 1)
    step = ENGINE.step(state, cd.BanderoleMove(seat=1, spaces=3))
    assert step.state.bar_order == (1, 2, 0)
    assert step.line == "Bea advanced 3 on the banderole bar: space 0 → space 3"
    step = ENGINE.step(step.state, cd.BanderoleMove(seat=0, spaces=1))
    assert step.state.bar_order == (0, 1, 2)
    assert step.line == "Anna advanced 1 on the banderole bar: space 2 → space 3 (on top of Bea)"


def test_scoring_order_furthest_first_then_disc_on_top__scoring_periods():
    state = play(start(3), cd.BanderoleMove(seat=0, spaces=2), cd.BanderoleMove(seat=2, spaces=2), cd.PhaseEnded())
    assert state.scoring_order() == [2, 0, 1]
    error = refused(state, cd.Score(seat=0, circle=1), "Scoring periods")
    assert error.message == "Anna must wait: it is Cato's turn to score"
    state = fail_both(state)
    assert state.scoring_order() == [0, 1]
    error = refused(state, cd.Score(seat=2, circle=2), "Scoring periods")
    assert "Cato has already scored this period" in error.message


def test_banderole_reward_puts_the_disc_on_top__scoring_periods():
    """Chimneys for coin and banderole: 3 chimneys move Bea from 0 onto Anna's space 1, on top."""
    state = play(start(), cd.BanderoleMove(seat=0, spaces=1), cd.PhaseEnded())
    state = fail_both(state)  # Anna
    state = holdings(state, 1, coins=4)
    state = score(state, "c-chimneys-coin-banderole", "b-chicken-grape-herb-fish", chimney=3)
    assert [s.space for s in state.sheets] == [1, 1]
    assert state.bar_order == (1, 0)


def test_banderole_moves_wait_while_players_score__scoring_periods():
    refused(scoring(), cd.BanderoleMove(seat=0, spaces=1), "Scoring periods")


# --- circles and card order (2018 rulebook, Scoring periods; summary, Special Rules) -----------


def test_discs_block_circles_for_good__scoring_periods():
    state = scoring()
    taken = circle_between(state, "a-two-herbs", "a-three-chickens")
    state = ENGINE.apply(state, cd.Score(seat=1, circle=taken))
    state = fail_both(state)
    assert state.circle(taken).seat == 1 and state.circle(taken).period == 1
    state = play(state, cd.PhaseEnded())
    error = refused(state, cd.Score(seat=state.next_to_score(), circle=taken), "Scoring periods")
    assert error.message == f"circle {taken} is taken by Bea's disc from scoring period 1"
    assert taken not in [c.number for c in state.free_circles()]


def test_unknown_circle_refused__scoring_periods():
    error = refused(scoring(), cd.Score(seat=1, circle=10), "Scoring periods")
    assert error.message == "there is no circle 10 (circles 1-9)"


def test_first_card_must_lie_beside_the_circle__special_rules():
    state = scoring()
    event = cd.Score(seat=1, circle=circle_between(state, "a-two-herbs", "a-three-chickens"),
                     first_card="d-pond-garden-vp")
    error = refused(state, event, "Special Rules & Edge Cases")
    assert "Pond and garden pairs is not beside circle" in error.message
    unknown = event.model_copy(update={"first_card": "no-such-card"})
    assert "no-such-card is not beside circle" in refused(state, unknown, "Special Rules & Edge Cases").message


def test_the_player_picks_the_order_and_a_reward_pays_the_second_card__special_rules():
    """Summary, Special Rules & Edge Cases: the coin from 3 chimneys pays the fourth ware."""
    state = holdings(scoring(), 1, coins=3)
    coin_first = score(state, "c-chimneys-coin-banderole", "b-chicken-grape-herb-fish", chimney=3)
    assert coin_first.sheets[1].vp == 9 + 8
    assert (coin_first.sheets[1].coins, coin_first.sheets[1].space) == (0, 1)
    wares_first = score(state, "b-chicken-grape-herb-fish", "c-chimneys-coin-banderole", chimney=3)
    assert wares_first.sheets[1].vp == 9 - PENALTY
    assert (wares_first.sheets[1].coins, wares_first.sheets[1].space) == (4, 1)


# --- green cards (2018 rulebook, Scoring periods) ----------------------------------------------


def test_green_card_multiples__scoring_periods():
    """Every 3 chimneys give 1 coin + 1 banderole space: 7 chimneys give it twice."""
    state = holdings(scoring(), 1, coins=8)
    state = score(state, "c-chimneys-coin-banderole", "b-chicken-grape-herb-fish", chimney=7)
    sheet = state.sheets[1]
    assert (sheet.space, sheet.vp) == (2, 9 + 2 * 8)
    assert sheet.coins == 8 + 2 - 8
    assert sheet.owned == {**{t: 0 for t in cd.TRACKED}, "chimney": 7}  # remembered, to pre-fill the next form


def test_green_card_needs_each_thing_shown__scoring_periods():
    """A pond and garden pair for 7 VP: 2 ponds and 1 garden make one pair."""
    state = score(scoring(), "d-pond-garden-vp", "d-merchant-dwelling-vp", completed_pond=2,
                  completed_garden=1, completed_merchant_dwelling=0)
    assert state.sheets[1].vp == 9 + 7 - PENALTY


def test_green_counts_not_tracked_must_be_entered__scoring_periods():
    """Chimneys count in villas still being built, which the scorekeeper does not see: a card
    counting them needs the count entered, whatever was entered before."""
    state = scoring()
    circle = circle_between(state, "c-chimneys-coin-banderole", "b-chicken-grape-herb-fish")
    event = cd.Score(seat=1, circle=circle, first_card="c-chimneys-coin-banderole")
    error = refused(state, event, "Scoring periods")
    assert error.message == "enter how many you own of: chimney (for Chimneys for coin and banderole)"
    # A count entered in an earlier scoring period is not used again.
    state = fail_both(fail_both(play(start(), cd.PhaseEnded())))
    assert state.sheets[0].owned["chimney"] == 0
    state = play(state, cd.PhaseEnded())
    error = refused(state, event.model_copy(update={"seat": state.next_to_score()}), "Scoring periods")
    assert error.message.startswith("enter how many you own of: chimney")


def test_coins_do_not_replace_owned_things_on_green_cards__scoring_periods():
    state = holdings(scoring(), 1, coins=10)
    state = score(state, "c-completed-villa-vp", "a-two-herbs", completed_villa=0)
    assert state.sheets[1].vp == 9 - PENALTY + 5 * 4
    assert state.sheets[1].coins == 0


def test_no_times_on_a_green_card__scoring_periods():
    state = scoring()
    event = cd.Score(seat=1, circle=circle_between(state, "c-completed-villa-vp", "a-two-herbs"),
                     first_card="c-completed-villa-vp", times_first=1, completed_villa=2)
    assert "leave its times empty" in refused(state, event, "Scoring periods").message


# --- red cards (2018 rulebook, Scoring periods) ------------------------------------------------


def test_red_card_multiples_with_coins_for_missing_wares__scoring_periods():
    """Two herbs for 4 VP: 3 herbs and 1 coin pay it twice."""
    state = holdings(scoring(), 1, herbs=3, coins=1)
    state = score(state, "a-two-herbs", "a-three-chickens")
    sheet = state.sheets[1]
    assert sheet.vp == 9 + 2 * 4 - PENALTY
    assert (sheet.herbs, sheet.coins) == (0, 0)


def test_red_card_takes_wares_before_coins__scoring_periods():
    state = holdings(scoring(), 1, herbs=5, coins=2, chicken=2)
    state = score(state, "a-two-herbs", "a-three-chickens", times_second=1)
    sheet = state.sheets[1]
    assert sheet.vp == 9 + 3 * 4 + 7
    assert (sheet.herbs, sheet.chicken, sheet.coins) == (0, 0, 0)


def test_player_may_pay_fewer_times_to_keep_wares__scoring_periods():
    """Chicken-grape-fish once (not twice) leaves a set for one of each ware."""
    state = holdings(scoring(), 1, grapes=2, herbs=1, chicken=2, fish=2)
    once = score(state, "b-chicken-grape-fish", "b-chicken-grape-herb-fish", times_first=1)
    assert once.sheets[1].vp == 9 + 5 + 8
    greedy = score(state, "b-chicken-grape-fish", "b-chicken-grape-herb-fish")
    assert greedy.sheets[1].vp == 9 + 2 * 5 - PENALTY
    assert greedy.sheets[1].herbs == 1


def test_paying_more_times_than_held_refused__scoring_periods():
    state = holdings(scoring(), 1, herbs=3)
    event = cd.Score(seat=1, circle=circle_between(state, "a-two-herbs", "a-three-chickens"), times_first=2)
    error = refused(state, event, "Scoring periods")
    assert error.message == "Bea can pay Two herbs (2× herbs) 1×, not 2×"


# --- bread and penalties (2018 rulebook, Scoring periods) --------------------------------------


def test_bread_fulfils_a_card_of_either_colour_once__scoring_periods():
    state = holdings(scoring(), 1, bread=2 * BREAD, herbs=4)
    state = score(state, "a-two-herbs", "c-completed-villa-vp", bread_first=True, bread_second=True)
    sheet = state.sheets[1]
    assert sheet.vp == 9 + 4 + 3
    assert (sheet.bread, sheet.herbs) == (0, 4)
    assert BREAD == 3


def test_bread_gained_from_the_first_card_pays_for_the_second__scoring_periods():
    """3 players: a completed villa gives 1 coin + 1 bread + 1 space; with 2 bread held the
    third bread fulfils Two herbs."""
    state = holdings(scoring(3), 2, bread=BREAD - 1)
    state = score(state, "c-completed-villa-coin-bread-banderole", "a-two-herbs", completed_villa=1,
                  bread_second=True)
    sheet = state.sheets[2]
    assert sheet.vp == 13 + 4
    assert (sheet.bread, sheet.coins, sheet.space) == (0, 1, 1)


def test_not_enough_bread_refused__scoring_periods():
    state = holdings(scoring(), 1, bread=BREAD - 1)
    event = cd.Score(seat=1, circle=circle_between(state, "a-two-herbs", "a-three-chickens"), bread_first=True)
    assert refused(state, event, "Scoring periods").message == \
        f"Bea has {BREAD - 1} bread, {BREAD} are needed to fulfil Two herbs"


def test_times_with_bread_refused__scoring_periods():
    state = holdings(scoring(), 1, bread=BREAD, herbs=4)
    event = cd.Score(seat=1, circle=circle_between(state, "a-two-herbs", "a-three-chickens"),
                     bread_first=True, times_first=1)
    assert "bread fulfils Two herbs once" in refused(state, event, "Scoring periods").message


def test_each_card_not_met_costs_4_vp__scoring_periods():
    """Summary, Scoring / Victory Conditions: up to -8 per scoring period."""
    state = fail_both(scoring())
    assert state.sheets[1].vp == 9 - 2 * PENALTY == 1
    assert PENALTY == 4


def test_penalty_is_read_from_the_tables__scoring_periods():
    game = with_tables(unmet_card_penalty=TABLES.unmet_card_penalty.model_copy(update={"vp": 5}))
    state = fail_both(play(start(2, game), cd.PhaseEnded()))
    assert state.sheets[1].vp == 9 - 10


def test_a_score_outside_a_scoring_period_refused__scoring_periods():
    assert "finish the phase first" in refused(start(), cd.Score(seat=0, circle=1), "Scoring periods").message
    assert "scoring periods are over" in refused(final_stage(), cd.Score(seat=0, circle=9),
                                                 "Scoring periods").message


# --- resources ---------------------------------------------------------------------------------


def test_set_resources_replaces_only_the_counts_given():
    state = holdings(start(), 0, grapes=2, coins=3)
    step = ENGINE.step(state, cd.SetResources(seat=0, coins=1))
    sheet = step.state.sheets[0]
    assert (sheet.grapes, sheet.coins, sheet.bread) == (2, 1, 0)
    assert step.line == "Anna's holdings: coins 3 → 1"
    assert ENGINE.step(step.state, cd.SetResources(seat=0, coins=1)).line == "Anna's holdings: unchanged"
    refused(state, cd.SetResources(seat=0), "Components")


def test_seat_must_exist():
    """The core checks seats: the rule names the rulebook."""
    with pytest.raises(RuleError) as caught:
        ENGINE.apply(start(), cd.BanderoleMove(seat=2, spaces=1))
    assert caught.value.rule == f"{cd.RULEBOOK}: one seat per player"
    assert caught.value.message.startswith("seat 2 is not a seat at this table of 2")


# --- building rewards (summary, Actions: Building Completions and Rewards) ---------------------


@pytest.mark.parametrize("tiles", [2, 3, 4])
def test_landscape_gives_tiles_minus_one_matching_wares__building_completions_and_rewards(tiles):
    """Summary, Building Completions and Rewards: a landscape of 2-4 tiles gives (tiles - 1)
    matching wares; the sources do not say which ware each kind gives, so the player says."""
    state = holdings(start(), 0, fish=1)
    step = ENGINE.step(state, cd.CompleteLandscape(seat=0, kind="pond", tiles=tiles, ware="fish"))
    sheet = step.state.sheets[0]
    assert sheet.fish == 1 + TABLES.landscape_reward.wares_for(tiles) == tiles
    assert (sheet.owned["completed_landscape"], sheet.owned["completed_pond"], sheet.owned["completed_garden"]) \
        == (1, 1, 0)
    assert step.line == (f"Anna completed a pond of {tiles} tiles: +{tiles - 1} fish (fish 1 → {tiles}); "
                         "completed landscapes 1, completed ponds 1")


def test_landscape_kinds_the_sources_do_not_name__building_completions_and_rewards():
    """Only ponds and gardens are named: any other kind counts as a completed landscape only."""
    state = play(start(), cd.CompleteLandscape(seat=1, kind="garden", tiles=2, ware="herbs"),
                 cd.CompleteLandscape(seat=1, kind="other", tiles=3, ware="grapes"))
    sheet = state.sheets[1]
    assert (sheet.herbs, sheet.grapes) == (1, 2)
    assert {t: sheet.owned[t] for t in ("completed_landscape", "completed_pond", "completed_garden")} == \
        {"completed_landscape": 2, "completed_pond": 0, "completed_garden": 1}


@pytest.mark.parametrize("tiles", [1, 5])
def test_landscape_sizes_come_from_the_tables__other_rules_a_checker_can_hold(tiles):
    """2018 rulebook notes, Other rules a checker can hold: landscapes are 2-4 tiles (read
    from the tables, like the wares they give)."""
    event = cd.CompleteLandscape(seat=0, kind="pond", tiles=tiles, ware="fish")
    error = refused(start(), event, "Building Completions and Rewards")
    assert error.message == f"a landscape has 2-4 tiles, not {tiles}"
    wider = TABLES.landscape_reward.model_copy(update={"min_tiles": 1, "max_tiles": 5})
    assert play(start(2, with_tables(landscape_reward=wider)), event).sheets[0].fish == tiles - 1


def test_merchant_dwelling_turns_every_ware_into_coins_plus_one__building_completions_and_rewards():
    """Summary, Building Completions and Rewards (and the 2018 rulebook notes, Other rules a
    checker can hold): all wares back to the supply, that many coins + 1."""
    state = holdings(start(), 1, grapes=2, herbs=1, fish=3, coins=2)
    step = ENGINE.step(state, cd.CompleteDwelling(seat=1, dwelling="merchant"))
    sheet = step.state.sheets[1]
    assert sheet.wares() == {"grapes": 0, "herbs": 0, "chicken": 0, "fish": 0}
    assert sheet.coins == 2 + TABLES.dwelling_rewards.merchant.coins_for(6) == 2 + 6 + 1
    assert sheet.owned["completed_merchant_dwelling"] == 1
    assert step.line == ("Bea completed a merchant dwelling: 6 wares back to the supply, +7 coins (coins 2 → 9); "
                         "completed merchant dwellings 1")
    empty = play(start(), cd.CompleteDwelling(seat=0, dwelling="merchant")).sheets[0]
    assert empty.coins == 1


def test_baker_dwelling_gives_two_bread__building_completions_and_rewards():
    step = ENGINE.step(holdings(start(), 0, bread=1), cd.CompleteDwelling(seat=0, dwelling="baker"))
    assert step.state.sheets[0].bread == 1 + TABLES.dwelling_rewards.baker.bread == 3
    assert step.state.sheets[0].owned["completed_baker_dwelling"] == 1
    assert step.line == "Anna completed a baker dwelling: +2 bread (bread 1 → 3); completed baker dwellings 1"


def test_administrator_dwelling_advances_two_on_the_banderole_bar__building_completions_and_rewards():
    """+2 on the banderole bar; the disc goes on top of one already there (2018 rulebook, Set-up details)."""
    state = play(start(3), cd.BanderoleMove(seat=2, spaces=2))
    step = ENGINE.step(state, cd.CompleteDwelling(seat=0, dwelling="administrator"))
    assert step.state.sheets[0].space == TABLES.dwelling_rewards.administrator.banderole == 2
    assert step.state.bar_order == (0, 2, 1)
    assert step.state.sheets[0].owned["completed_administrator_dwelling"] == 1
    assert step.line == ("Anna completed an administrator dwelling: advanced 2 on the banderole bar: space 0 → "
                         "space 2 (on top of Cato); completed administrator dwellings 1")


def test_craftsman_dwelling_is_recorded__building_completions_and_rewards():
    """Its free dark green tile is placed at the table, not tracked: only the count changes."""
    state = start()
    after = play(state, cd.CompleteDwelling(seat=0, dwelling="craftsman"))
    assert after.sheets[0].owned["completed_craftsman_dwelling"] == 1
    assert after.sheets[0].evolve(owned=state.sheets[0].owned) == state.sheets[0]


def test_market_costs_a_coin_and_bakery_a_bread__building_completions_and_rewards():
    """Summary, Building Completions and Rewards: "Markets: Place for 1 coin. Bakeries: Place
    for 1 bread."; refused without them."""
    state = start()
    assert refused(state, cd.PlaceBuilding(seat=0, building="market"),
                   "Building Completions and Rewards").message == "Anna has 0 coins: a market costs 1"
    assert refused(state, cd.PlaceBuilding(seat=0, building="bakery"),
                   "Building Completions and Rewards").message == "Anna has 0 bread: a bakery costs 1"
    state = holdings(state, 0, coins=2, bread=1)
    step = ENGINE.step(state, cd.PlaceBuilding(seat=0, building="market"))
    assert step.line == "Anna placed a market for 1 coin (coins 2 → 1); markets 1"
    state = play(step.state, cd.PlaceBuilding(seat=0, building="bakery"))
    sheet = state.sheets[0]
    assert (sheet.coins, sheet.bread, sheet.owned["market"], sheet.owned["bakery"]) == (1, 0, 1, 1)


def test_fountain_keeps_a_fountain_card__other_rules_a_checker_can_hold():
    """2018 rulebook notes, Other rules a checker can hold: a fountain draws 2 fountain cards
    and keeps 1; the card kept is recorded for the final scoring (or left out if unknown)."""
    step = ENGINE.step(start(), cd.PlaceBuilding(seat=1, building="fountain", fountain_card="fountain-gardens"))
    sheet = step.state.sheets[1]
    assert (sheet.fountain_cards, sheet.owned["fountain"]) == (("fountain-gardens",), 1)
    assert step.line == "Bea placed a fountain and kept Garden fountain; fountains 1"
    unknown = ENGINE.step(step.state, cd.PlaceBuilding(seat=1, building="fountain"))
    assert unknown.state.sheets[1].fountain_cards == ("fountain-gardens",)
    assert unknown.line == "Bea placed a fountain (drew 2 fountain cards, kept 1); fountains 2"
    error = refused(start(), cd.PlaceBuilding(seat=0, building="fountain", fountain_card="fountain-nope"),
                    "Other rules a checker can hold")
    assert error.message == "there is no fountain card 'fountain-nope'"
    error = refused(holdings(start(), 0, coins=1),
                    cd.PlaceBuilding(seat=0, building="market", fountain_card="fountain-gardens"),
                    "Other rules a checker can hold")
    assert error.message == "only a fountain draws fountain cards, not a market"


def test_villa_is_recorded_with_its_chimneys__building_completions_and_rewards():
    """Villas: no reward at once; completed ones score by their chimneys at the end."""
    state = start()
    step = ENGINE.step(state, cd.CompleteVilla(seat=0, chimneys=4))
    sheet = step.state.sheets[0]
    assert (sheet.villas, sheet.owned["completed_villa"], sheet.vp) == ((4,), 1, state.sheets[0].vp)
    assert step.line == "Anna completed a villa with 4 chimneys; completed villas 1"


@pytest.mark.parametrize("event", [cd.CompleteLandscape(seat=0, kind="pond", tiles=2, ware="fish"),
                                   cd.CompleteDwelling(seat=0, dwelling="baker"), cd.CompleteVilla(seat=0, chimneys=3),
                                   cd.PlaceBuilding(seat=0, building="fountain")])
def test_buildings_are_entered_in_the_rounds__turn_structure(event):
    """Tiles are placed in the rounds and their rewards come at once: none in a scoring period
    or after the last one."""
    error = refused(scoring(), event, "Turn Structure")
    assert "no tiles are placed in scoring period 1" in error.message
    assert "the rounds are over" in refused(final_stage(), event, "Turn Structure").message


# --- owned counts tracked from play (2018 rulebook notes, Other rules a checker can hold) ------


def test_tracked_counts_score_green_cards_when_not_entered__other_rules_a_checker_can_hold():
    """Buildings entered in play are counted: the pond and garden card and the merchant card
    need no counts at scoring time."""
    state = play(start(), cd.CompleteLandscape(seat=1, kind="pond", tiles=2, ware="fish"),
                 cd.CompleteLandscape(seat=1, kind="garden", tiles=2, ware="herbs"),
                 cd.CompleteDwelling(seat=1, dwelling="merchant"), cd.PhaseEnded())
    step = ENGINE.step(state, cd.Score(seat=1, circle=circle_between(state, "d-merchant-dwelling-vp",
                                                                     "d-pond-garden-vp")))
    assert step.state.sheets[1].vp == 9 + 3 + 7
    assert step.line == ("Bea scored circle 9: Merchant dwellings for VP met 1× (completed merchant dwelling) "
                         "→ 3 VP; Pond and garden pairs met 1× (completed pond, completed garden) → 7 VP. "
                         "VP 9 → 19")


def test_a_district_without_a_building_counts_zero__other_rules_a_checker_can_hold():
    """A pond entered, no garden tracked: the tracked 0 gardens leave the card unmet."""
    state = score(scoring(), "d-pond-garden-vp", "d-merchant-dwelling-vp", completed_pond=1)
    assert state.sheets[1].vp == 9 - 2 * PENALTY


def test_an_entered_count_wins_and_corrects_the_tracked_one__other_rules_a_checker_can_hold():
    """A table that types its counts keeps working: an entered count wins over the tracked one,
    and later buildings add to it."""
    state = play(start(), cd.CompleteDwelling(seat=1, dwelling="merchant"), cd.PhaseEnded())
    state = score(state, "d-merchant-dwelling-vp", "d-pond-garden-vp", completed_merchant_dwelling=3,
                  completed_pond=0)
    assert state.sheets[1].vp == 9 + 3 * 3 - PENALTY
    assert state.sheets[1].owned["completed_merchant_dwelling"] == 3
    state = fail_both(state)
    state = play(state, cd.CompleteDwelling(seat=1, dwelling="merchant"))
    assert state.sheets[1].owned["completed_merchant_dwelling"] == 4


def test_final_scoring_uses_the_villas_and_fountain_cards_recorded__other_rules_a_checker_can_hold():
    state = play(start(), cd.CompleteVilla(seat=0, chimneys=3), cd.CompleteVilla(seat=0, chimneys=5),
                 cd.CompleteLandscape(seat=0, kind="garden", tiles=2, ware="grapes"),
                 cd.PlaceBuilding(seat=0, building="fountain", fountain_card="fountain-gardens"))
    for _ in range(TABLES.phases.count):
        state = fail_both(fail_both(play(state, cd.PhaseEnded())))
    recorded = ENGINE.apply(state, cd.FinalScore(seat=0)).sheets[0].final
    assert recorded.villas == TABLES.villa_chimneys.vp(3) + TABLES.villa_chimneys.vp(5) == 10
    # fail_both entered 0 gardens each scoring period: the entered count corrected the tracked 1.
    assert recorded.fountain_cards == 0
    entered = ENGINE.apply(state, cd.FinalScore(seat=0, villa_chimneys=(5,), completed_garden=2,
                                                fountain_cards=("fountain-gardens", "fountain-gardens")))
    assert (entered.sheets[0].final.villas, entered.sheets[0].final.fountain_cards) == (7, 8)
    error = refused(state, cd.FinalScore(seat=0, completed_villa=1), "Final scoring")
    assert error.message == "you own 1 completed villas but recorded chimneys for 2"


# --- final scoring (2018 rulebook, Final scoring) ----------------------------------------------


def test_final_scoring__final_scoring():
    """Villas by chimneys (3 = 3 VP, 5 = 7 VP; incomplete ones are not entered), leftovers
    (wares + coins + bread + stored tiles) // 2, the banderole space, two garden fountain
    cards both scoring, frame goals."""
    state = play(start(), cd.BanderoleMove(seat=0, spaces=4))
    for _ in range(TABLES.phases.count):
        state = fail_both(fail_both(play(state, cd.PhaseEnded())))
    state = holdings(state, 0, grapes=2, fish=1, coins=2, bread=1)
    before = state.sheets[0].vp
    step = ENGINE.step(state, cd.FinalScore(
        seat=0, villa_chimneys=(3, 5), stored_tiles=3, fountain_cards=("fountain-gardens", "fountain-gardens"),
        completed_garden=2, frame_goals=("completed_villa", "completed_baker_dwelling"), other_frame_vp=2))
    state = step.state
    final = state.sheets[0].final
    assert final.villas == 3 + 7 == TABLES.villa_chimneys.vp(3) + TABLES.villa_chimneys.vp(5)
    assert final.leftovers == (2 + 1 + 2 + 1 + 3) // 2 == 4
    assert final.banderole_bar == TABLES.banderole_bar.vp(4)
    assert final.fountain_cards == 2 * 2 * 2
    goals = {g.what: g.vp for g in TABLES.frame_goals.examples}
    assert final.frame_goals == goals["completed_villa"] + goals["completed_baker_dwelling"] + 2 == 9
    assert state.sheets[0].vp == before + final.total
    assert state.step == "final" and state.phase == "scoring" and not ENGINE.outcome(state).finished
    assert step.line == (f"Anna's final scoring: villas +10, leftovers +4, banderole bar +{final.banderole_bar}, "
                         f"fountain cards +8, frame goals +9 → {state.sheets[0].vp} VP")


def test_final_scoring_waits_for_the_last_scoring_period__final_scoring():
    error = refused(scoring(), cd.FinalScore(seat=0), "Final scoring")
    assert "after scoring period 4" in error.message


CHIMNEY_FOUNTAIN = GAME.cards["fountain-gardens"].model_copy(update={"condition": [Need(what="chimney")]})


@pytest.mark.parametrize("fields, message", [
    ({"fountain_cards": ["fountain-nope"]}, "there is no fountain card 'fountain-nope'"),
    ({"fountain_cards": ["fountain-gardens"]}, "enter how many you own of: chimney (for Garden fountain)"),
    ({"frame_goals": ["market"]}, "no frame goal in the data shows market"),
    ({"villa_chimneys": [3], "completed_villa": 2}, "you own 2 completed villas but listed chimneys for 1"),
    ({"villa_chimneys": [3, 4], "chimney": 6}, "the completed villas have 7 chimneys, more than the 6 you own"),
])
def test_final_entries_checked__final_scoring(fields, message):
    """A fountain condition on an untracked thing (chimneys, on a card of ours: no such card is
    known) needs its count entered."""
    state = start(2, with_cards(**{"fountain-gardens": CHIMNEY_FOUNTAIN}))
    for _ in range(TABLES.phases.count):
        state = fail_both(fail_both(play(state, cd.PhaseEnded())))
    error = refused(state, {"type": cd.FinalScore.type_name, "seat": 0, **fields}, "Final scoring")
    assert error.message.startswith(message)


def test_each_player_scores_the_final_once_then_the_game_ends__final_scoring():
    state = final_stage()
    state = ENGINE.apply(state, cd.FinalScore(seat=1))
    assert "already entered" in refused(state, cd.FinalScore(seat=1), "Final scoring").message
    refused(state, cd.SetResources(seat=1, coins=9), "Final scoring")
    refused(state, cd.BanderoleMove(seat=0, spaces=1), "Final scoring")
    state = ENGINE.apply(state, cd.FinalScore(seat=0))
    assert state.phase == "over" and ENGINE.outcome(state).finished
    error = refused(state, cd.SetResources(seat=0, coins=1), "End of game")
    assert error.rule == ENGINE.over_rule
    assert error.message == f"the game is over – {ENGINE.outcome(state).summary} – nothing more is entered"
    assert ENGINE.allowed(state) == []


# --- winner and tie-breakers -------------------------------------------------------------------


def tied_finish(spaces: list[int], bar_order: tuple[int, ...], tie_breaker: str) -> cd.State:
    state = start(3, tie_breaker=tie_breaker)
    sheets = tuple(s.evolve(vp=vp, space=space) for s, vp, space in zip(state.sheets, [40, 40, 30], spaces))
    return state.evolve(phase="over", step="final", sheets=sheets, bar_order=bar_order)


def test_tie_breaker_default_is_the_summary_rule():
    assert cd.Options().tie_breaker == TABLES.tie_breakers.default == "summary"


def test_tie_goes_to_the_furthest_ahead__summary_scoring():
    """Summary, Scoring / Victory Conditions: tiebreaker highest on the banderole bar."""
    result = ENGINE.outcome(tied_finish([3, 5, 9], (2, 1, 0), "summary"))
    assert result.winners == (1,)
    assert result.summary == ("Bea wins with 40 VP, tied with Anna and ahead of them on the banderole bar "
                              "(summary tie-breaker)")


def test_tie_goes_to_the_furthest_behind__rulebook_where_they_differ():
    """2018 rulebook (Where the summary and the rulebook differ): furthest BEHIND wins."""
    result = ENGINE.outcome(tied_finish([3, 5, 9], (2, 1, 0), "rulebook"))
    assert result.winners == (0,)
    assert "behind them on the banderole bar (rulebook tie-breaker)" in result.summary


@pytest.mark.parametrize("tie_breaker, winner", [("summary", 0), ("rulebook", 1)])
def test_tie_on_one_space_goes_by_the_disc_on_top(tie_breaker, winner):
    assert ENGINE.outcome(tied_finish([4, 4, 0], (0, 1, 2), tie_breaker)).winners == (winner,)


def test_no_tie_most_vp_wins():
    state = tied_finish([3, 5, 9], (2, 1, 0), "rulebook")
    state = state.evolve(sheets=(state.sheets[0].evolve(vp=41), *state.sheets[1:]))
    result = ENGINE.outcome(state)
    assert result.winners == (0,) and result.summary == "Anna wins with 41 VP"
    assert ENGINE.outcome(start()).winners == ()  # nobody wins before the end


# --- engine contract ---------------------------------------------------------------------------


def scenario_states() -> list[cd.State]:
    state = ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, GAME)
    states = [state]
    for event in scenario.EVENTS:
        state = ENGINE.apply(state, event)
        states.append(state)
    return states


def test_the_engine_is_on_the_game_core():
    assert registry()["carpe_diem"].engine is ENGINE
    assert {name: cls.__name__ for name, cls in ENGINE.events.items()} == {
        "round_played": "RoundPlayed", "phase_ended": "PhaseEnded", "banderole_move": "BanderoleMove",
        "set_resources": "SetResources", "complete_landscape": "CompleteLandscape",
        "complete_dwelling": "CompleteDwelling", "complete_villa": "CompleteVilla",
        "place_building": "PlaceBuilding", "score": "Score", "final_score": "FinalScore",
        "adjust_victory_points": "AdjustVictoryPoints"}
    assert all(issubclass(cls, cd.CarpeDiemEvent) for cls in ENGINE.events.values())


def test_scenario_plays_to_the_end_with_its_winners():
    states = scenario_states()
    end = states[-1]
    result = ENGINE.outcome(end)
    assert result.finished and list(result.winners) == scenario.WINNERS
    before_final = states[-3]
    assert [s.vp for s in before_final.sheets] == [32, 43]
    villas = TABLES.villa_chimneys
    anna = 32 + villas.vp(3) + villas.vp(5) + TABLES.leftovers.vp(3) + TABLES.banderole_bar.vp(3) + 2 + 3 + 2
    bea = 43 + TABLES.leftovers.vp(1) + TABLES.banderole_bar.vp(5) + 4
    assert result.scores == (anna, bea)
    assert end.sheets[0].villas == (3, 5) and end.sheets[0].fountain_cards == ("fountain-gardens",)


def test_scenario_illegal_event_refused():
    index, event, words = scenario.ILLEGAL
    state = scenario_states()[index]
    with pytest.raises(RuleError) as caught:
        ENGINE.apply(state, event)
    assert words in str(caught.value)


def test_apply_never_mutates_its_input_and_states_are_immutable():
    states = scenario_states()
    for state, event in zip(states, scenario.EVENTS):
        dumped = state.model_dump(mode="json")
        ENGINE.step(state, event)
        assert state.model_dump(mode="json") == dumped
    end = states[-1]
    with pytest.raises(TypeError):
        end.sheets[0].owned["market"] = 3
    with pytest.raises(TypeError):
        end.board.cards["a-two-herbs"] = None
    with pytest.raises(AttributeError):
        end.sheets.append(end.sheets[0])
    assert isinstance(end.discs, tuple) and isinstance(end.board.layout[0], tuple)


def test_state_round_trips_through_json():
    for state in scenario_states():
        assert cd.State.model_validate(state.model_dump(mode="json")) == state


def test_every_transition_is_validated():
    from pydantic import ValidationError

    state = start()
    with pytest.raises(ValidationError):
        cd.with_sheet(state, 0, coins=-1)
    with pytest.raises(ValidationError):
        state.evolve(step="finished")


def test_history_lines():
    states = scenario_states()
    lines = [ENGINE.step(s, e).line for s, e in zip(states, scenario.EVENTS)]
    assert lines[1] == "Anna advanced 2 on the banderole bar: space 0 → space 2"
    assert lines[4] == "Anna completed a villa with 3 chimneys; completed villas 1"
    assert lines[5] == "Phase 1 ended in round 2; scoring period 1 begins, Anna first"
    assert lines[10] == ("Anna scored circle 4: Chimneys for coin and banderole met 1× (3× chimneys) → 1 coin "
                         "+ 1 banderole bar space; One of each ware paid 1× (4 coins) → 8 VP. VP 19 → 27")
    assert lines[11] == ("Bea scored circle 9: Merchant dwellings for VP met 1× (completed merchant dwelling) → "
                         "3 VP; Pond and garden pairs not met (completed pond, no completed garden) → -4 VP. "
                         "VP 21 → 20")
    assert lines[20] == "Anna placed a fountain and kept Garden fountain; fountains 1"
    assert lines[-2] == ("Anna's final scoring: villas +10, leftovers +1, banderole bar +3, fountain cards +2, "
                         "frame goals +5 → 53 VP")
    assert lines[-1].startswith("Bea's final scoring: villas +0")


def test_event_fields_match_the_schema():
    assert set(cd.OwnedCounts.model_fields) == set(Owned.__args__)
    assert set(cd.SetResources.model_fields) - {"seat"} == {*Ware.__args__, "coins", "bread"}
    for cls in ENGINE.events.values():
        assert (cls.__doc__ or "").strip() and cls.label[0].isupper(), cls
        for name, info in cls.model_fields.items():
            assert info.title, (cls.__name__, name)


def test_no_event_type_is_named_in_the_rules_or_the_page():
    """Stored names come from the class names only (card_data.engine.core)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    files = [*(root / "card_data" / "games" / "carpe_diem").glob("*.py"),
             root / "card_data" / "games" / "carpe_diem" / "table.html"]
    pattern = re.compile(r"""["'](%s)["']""" % "|".join(ENGINE.events))
    assert [str(p) for p in files if pattern.search(p.read_text(encoding="utf-8"))] == []


# --- the forms the rules offer (Engine.allowed) ---------------------------------------------------


def as_shown(move) -> dict:
    """The event a form posts when sent as shown, a person filling only what it requires: the
    fixed values, the pre-filled ones, the number an empty input stands for (its placeholder:
    a holdings form needs one count typed), the first choice of a required pick, the least
    number a number field allows (0 for an owned count)."""
    event = {"type": move.type_name, **{k: v for k, v in move.fixed.items() if v is not None}}
    for f in move.fields:
        if f.default is not None and f.default != ():
            event[f.name] = list(f.default) if isinstance(f.default, tuple) else f.default
        elif f.kind == "number" and f.blank is not None:
            event[f.name] = f.blank
        elif f.kind == "choice" and f.required:
            event[f.name] = f.choices[0].value
        elif f.kind == "number" and (f.required or f.name in cd.OWNED_NAMES):
            event[f.name] = f.minimum if f.minimum is not None else 1
    return event


def every_state() -> list[cd.State]:
    return [*scenario_states()[:-1], final_stage(3), scoring(4), holdings(start(), 0, coins=1, bread=2)]


def test_every_move_is_a_form_of_its_events_fields():
    seen = set()
    for state in every_state():
        for move in ENGINE.allowed(state):
            names = {f.name for f in move.fields} | set(move.fixed)
            assert names == set(move.event.model_fields), move.label
            seen.add(move.event)
    assert seen == set(ENGINE.events.values())


def test_every_form_sent_as_shown_is_accepted():
    """Every move the rules offer, sent with the values its form shows, is a legal event."""
    for state in every_state():
        for move in ENGINE.allowed(state):
            ENGINE.apply(state, as_shown(move))


def test_scoring_forms_are_the_next_scorers_free_circles__scoring_periods():
    """Who scores next, each free circle with its two cards, the two cards to resolve first, the
    counts the circle's green cards need (the tracked ones where left empty)."""
    state = scenario_states()[7]  # scoring period 1, Anna has taken circle 5
    moves = [m for m in ENGINE.allowed(state) if m.event is cd.Score]
    assert [m.fixed["circle"] for m in moves] == [c.number for c in state.free_circles()] == [1, 2, 3, 4, 6, 7, 8, 9]
    assert {m.seat for m in moves} == {1}
    pond = next(m for m in moves if m.fixed["circle"] == circle_between(state, "b-chicken-grape-fish",
                                                                        "d-pond-garden-vp"))
    assert pond.label == "Bea: circle 7, B1 Chicken, grape, fish + D2 Pond and garden pairs"
    assert [c.value for c in pond.field("first_card").choices] == ["b-chicken-grape-fish", "d-pond-garden-vp"]
    # Left empty, each stands for the tracked count (the placeholder), not a 0 to type over.
    assert [(f.name, f.default, f.blank) for f in pond.fields if f.name in cd.OWNED_NAMES] == \
        [("completed_pond", None, 0), ("completed_garden", None, 0)]
    greens = next(m for m in moves if m.fixed["circle"] == 8)  # C2 + D1: no red card, no times
    assert greens.field("times_first") is None and greens.fixed["times_first"] is None
    assert [m for m in ENGINE.allowed(state) if m.event in (cd.RoundPlayed, cd.PhaseEnded, cd.FinalScore)] == []
    assert [m.seat for m in ENGINE.allowed(state, 0) if m.event is cd.Score] == []


def test_building_forms_offer_only_what_the_player_can_pay__building_completions_and_rewards():
    state = holdings(start(), 0, coins=1)
    offered = {m.seat: [c.value for c in m.field("building").choices]
               for m in ENGINE.allowed(state) if m.event is cd.PlaceBuilding}
    assert offered == {0: ["market", "fountain"], 1: ["fountain"]}
    landscape = next(m for m in ENGINE.allowed(state) if m.event is cd.CompleteLandscape)
    assert [(c.value, c.note) for c in landscape.field("tiles").choices] == [(2, "1 wares"), (3, "2 wares"),
                                                                             (4, "3 wares")]
    dwelling = next(m for m in ENGINE.allowed(state) if m.event is cd.CompleteDwelling)
    assert dwelling.field("dwelling").choices[0].note == "every ware back: 1 coin each + 1"
    assert [m for m in ENGINE.allowed(scoring()) if m.event in (cd.CompleteLandscape, cd.PlaceBuilding)] == []


def test_final_forms_offer_the_fountain_cards_and_frame_goals__final_scoring():
    state = scenario_states()[-2]  # Anna has entered her final scoring
    (move,) = [m for m in ENGINE.allowed(state) if m.event is cd.FinalScore]
    assert move.seat == 1 and move.label == "Bea's final scoring"
    assert [c.value for c in move.field("frame_goals").choices] == [g.what for g in TABLES.frame_goals.examples]
    assert [c.value for c in move.field("fountain_cards").choices] == ["fountain-gardens"]
    anna = next(m for m in ENGINE.allowed(scenario_states()[-3]) if m.event is cd.FinalScore and m.seat == 0)
    assert anna.field("villa_chimneys").default == (3, 5)
    assert anna.field("fountain_cards").help == "none ticked: the cards kept in play (Garden fountain)"
    assert [m.seat for m in ENGINE.allowed(state) if m.event is cd.SetResources] == [1]


# --- the page (display only; the forms are the generic ones of tables/_moves.html) -------------


@pytest.fixture(scope="module")
def page(app):
    from companion.scorekeeping.table_view import seat_colours

    template = app.jinja_env.get_template("games/carpe_diem/table.html")

    def render(state: cd.State) -> str:
        table = SimpleNamespace(players=list(state.players), options=state.options.model_dump(), code="CARP",
                                game="carpe_diem", token="t0k3n")
        with app.test_request_context():
            return template.render(table=table, state=state, outcome=ENGINE.outcome(state),
                                   colours=seat_colours("carpe_diem", list(state.players)))

    return render


def text(html: str) -> str:
    """What a reader sees of ``html``: its text, whitespace collapsed."""
    from bs4 import BeautifulSoup

    return " ".join(BeautifulSoup(html, "html.parser").get_text().split())


def test_page_is_display_only(page):
    for state in [*scenario_states(), final_stage(4)]:
        html = page(state)
        assert "<form" not in html and "<input" not in html and "<select" not in html


def test_page_shows_the_scoring_turn_and_the_circles(page):
    state = scenario_states()[7]  # scoring period 1, Anna has taken circle 5
    html = page(state)
    assert "Scoring period 1: Bea scores" in html
    assert "●5↓" in html and "○4→" in html
    assert "Still to place a disc in scoring period 1: Bea." in text(html)
    assert "5: A1 + C2 · Anna, period 1" in text(html)


def test_page_shows_rounds_bar_holdings_and_what_is_owned(page):
    state = scenario_states()[5]
    html = page(state)
    assert "Phase 1 of 4 · round 2 of 7" in html
    assert "Anna: space 2" in text(html) and "Anna: 0 grapes, 4 herbs" in text(html)
    assert "<th scope=\"row\">Completed villas</th>\n          <td>1</td><td>0</td>" in html
    assert "<td>3</td><td>—</td>" in html  # Anna's villa with 3 chimneys
    assert {m.event for m in ENGINE.allowed(state)} == {
        cd.RoundPlayed, cd.PhaseEnded, cd.BanderoleMove, cd.SetResources, cd.CompleteLandscape,
        cd.CompleteDwelling, cd.CompleteVilla, cd.PlaceBuilding, cd.AdjustVictoryPoints}


@pytest.mark.parametrize("players", [3, 4])
def test_page_renders_larger_layouts(page, players):
    html = page(start(players))
    assert html.count("○") == len(start(players).circles)
    assert "D4" in html if players == 4 else "D3" in html


def test_page_final_sheet_and_winner(page):
    end = scenario_states()[-1]
    html = page(end)
    assert "Final sheet" in html
    assert '<p id="cd-winner"><strong>Anna wins with' in html
    assert "Anna ★" in text(html)
    assert "Summary rule (in use)" in html and "2018 rulebook rule:" in html
    assert "Garden fountain" in html
    assert ENGINE.allowed(end) == []


def test_page_explains_the_rulebook_tie_breaker_when_chosen(page):
    html = page(start(2, tie_breaker="rulebook"))
    assert "2018 rulebook rule (in use)" in html and "furthest behind" in html


def test_the_table_page_shows_the_sheet_and_the_rules_forms(client):
    """Through the app: the sheet above, the forms the rules allow below it."""
    created = client.post("/api/tables", json={"game": "carpe_diem", "players": ["<b>Anna</b>", "Bea"]}).get_json()
    url, code = f"/t/{created['token']}", created["code"]
    for event in scenario.EVENTS[:7]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    html = client.get(url).get_data(as_text=True)
    assert "<b>Anna</b>" not in html and "<b>Anna</b>: space 2" in text(html)
    assert "Scoring period 1: Bea scores" in html
    assert html.count(f'data-event="{cd.Score.type_name}"') == 8
    assert "Bea: circle 7, B1 Chicken, grape, fish + D2 Pond and garden pairs" in html
    for event in scenario.EVENTS[7:]:
        assert client.post(f"/api/tables/{code}/events", json=event).status_code == 200
    finished = client.get(url).get_data(as_text=True)
    assert "Final sheet" in finished and "&lt;b&gt;Anna&lt;/b&gt; wins with 53 VP" in finished
    assert 'id="cd-final-sheet"' in finished and 'id="moves"' not in finished


def test_vp_are_adjusted_by_hand_one_tap_each__components():
    """VP the scorekeeper does not work out are handed out or back as an event: the counter's
    − and + are that event, fully filled in (summary, Components: victory point cards)."""
    state = ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, GAME)
    anna = state.counters()[0]
    assert (anna.label, anna.value) == ("Anna's VP", state.sheets[0].vp)
    after = ENGINE.apply(state, ENGINE.parse_event({"type": anna.minus.type_name, **anna.minus.fixed}))
    assert after.sheets[0].vp == state.sheets[0].vp - 1
    step = ENGINE.step(state, cd.AdjustVictoryPoints(seat=1, change=5, note="house rule"))
    assert step.line == f"Bea's VP adjusted by +5 (house rule): {state.sheets[1].vp} → {state.sheets[1].vp + 5}"
    with pytest.raises(pydantic.ValidationError):
        cd.AdjustVictoryPoints(seat=0, change=0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_card_is_named_by_its_type_and_place_among_that_type_in_the_layout(players):
    state = start(players)
    laid_out = [cid for row in state.board.layout for cid in row]
    codes = [state.card_code(cid) for cid in laid_out]
    assert len(set(codes)) == len(codes)
    kinds = [state.board.cards[cid].scoring_type for cid in laid_out]
    for kind in set(kinds):
        # Reading the layout row by row, a type's cards are numbered 1, 2, 3...
        assert [code for code, k in zip(codes, kinds) if k == kind] == \
            [f"{kind}{n}" for n in range(1, kinds.count(kind) + 1)]
    first = laid_out[0]
    assert state.card_label(first) == f"{codes[0]} {state.board.cards[first].title}"
    with pytest.raises(KeyError):
        state.card_code("not-laid-out")
