"""Carpe Diem scorekeeper engine: rulebook scenarios, refusals, the scenario file and the page.

Sections cited: summary = carpe-diem-summary.txt; 2018 rulebook = carpe-diem-published-rules-notes.md.
Values printed only as icons are read from the bundled tables.yaml (``TABLES``), never re-typed,
except where a test checks the rulebook's own legible numbers (starting VP, 4 VP penalty,
3 bread, 3 chimneys = 3 VP, 5 chimneys = 7 VP).
"""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest

import scenarios_carpe_diem as scenario
from card_data.loader import load_database
from card_data.games.carpe_diem.cards import SCORING_CARDS_BY_PLAYERS, SCORING_SET_PLAYERS, Owned, Ware
from card_data.engine import RuleError
import card_data.games.carpe_diem.rules as cd

GAME = load_database().games["carpe_diem"]
TABLES = GAME.tables
NAMES = ["Anna", "Bea", "Cato", "Dido"]
PENALTY = TABLES.unmet_card_penalty.vp
BREAD = TABLES.bread_to_fulfil_card.bread


# --- helpers ---------------------------------------------------------------------------------


def start(players: int = 2, game=GAME, **options) -> cd.State:
    return cd.new_state(NAMES[:players], cd.Options(**options), game)


def play(state: cd.State, *events: dict) -> cd.State:
    for event in events:
        state = cd.apply(state, event)
    return state


def refused(state: cd.State, event: dict, section: str) -> RuleError:
    """Apply ``event``, expect a refusal whose rule names ``section``; return the error."""
    with pytest.raises(RuleError) as caught:
        cd.apply(state, event)
    assert section in caught.value.rule
    return caught.value


def circle_between(state: cd.State, first: str, second: str) -> int:
    """The number of the circle between two card ids, whatever the numbering."""
    return next(c.number for c in state.circles if set(c.cards) == {first, second})


def with_tables(**changes) -> object:
    """The bundled game with some tables.yaml entries replaced."""
    return dataclasses.replace(GAME, tables=TABLES.model_copy(update=changes))


def holdings(state: cd.State, seat: int, **counts) -> cd.State:
    return cd.apply(state, {"type": "set_resources", "seat": seat, **counts})


def scoring(players: int = 2, **options) -> cd.State:
    """A fresh table in its first scoring period."""
    return play(start(players, **options), {"type": "phase_ended"})


def score(state: cd.State, first: str, second: str, **fields) -> cd.State:
    """The next scorer places a disc between ``first`` and ``second``, resolving ``first`` first."""
    return cd.apply(state, {"type": "score", "seat": state.next_to_score(), "first_card": first,
                            "circle": circle_between(state, first, second), **fields})


def fail_both(state: cd.State) -> cd.State:
    """The next scorer takes the first free circle and meets neither card."""
    zero = {thing: 0 for thing in cd.OWNED_NAMES}
    return cd.apply(state, {"type": "score", "seat": state.next_to_score(),
                            "circle": state.free_circles()[0].number, **zero})


# --- set-up (2018 rulebook, Set-up details) ----------------------------------------------------


@pytest.mark.parametrize("players, expected", [(2, [8, 9]), (3, [8, 9, 13]), (4, [8, 9, 10, 11])])
def test_starting_vp_by_seat__setup_details(players, expected):
    """2018 rulebook, Set-up details: start player 8; 2p 8, 9; 3p 8, 9, 13; 4p 8, 9, 10, 11."""
    state = start(players)
    assert [s.vp for s in state.sheets] == expected == TABLES.starting_vp.for_players(players)
    assert cd.outcome(state).scores == [float(v) for v in expected]


def test_starting_vp_are_read_from_the_tables__setup_details():
    game = with_tables(starting_vp=TABLES.starting_vp.model_copy(update={"p2": [5, 6]}))
    assert [s.vp for s in start(2, game).sheets] == [5, 6]


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players__setup_details(players):
    with pytest.raises(RuleError) as caught:
        cd.new_state(["P"] * players, cd.Options(), GAME)
    assert "Set-up details" in caught.value.rule
    assert f"{players} players cannot play" in caught.value.message
    assert (cd.ENGINE.min_players, cd.ENGINE.max_players) == (2, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_discs_start_stacked_on_space_0__setup_details(players):
    """The start player's disc on space 0, the others on top in clockwise order: the last seat
    is on top, so it scores first if nobody has moved."""
    state = scoring(players)
    assert [s.space for s in state.sheets] == [0] * players
    assert state.bar_order == list(reversed(range(players)))
    assert state.next_to_score() == players - 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scoring_cards_and_circles_by_player_count__setup_details(players):
    """2018 rulebook, Set-up details: the scoring set for the player count (2p 2A 2B 2C 2D,
    3p 2A 3B 2C 3D, 4p 3A 3B 2C 4D) with 9 / 13 / 17 circles between them."""
    state = start(players)
    deck = next(d for d in GAME.decks.values() if SCORING_SET_PLAYERS.get(d.kind) == players)
    laid = [cid for row in state.layout for cid in row]
    assert laid == [e.card for e in deck.cards]
    types = [state.cards[cid].scoring_type for cid in laid]
    assert {t: types.count(t) for t in "ABCD"} == SCORING_CARDS_BY_PLAYERS[players]
    circles = {2: TABLES.circle_spaces.p2, 3: TABLES.circle_spaces.p3, 4: TABLES.circle_spaces.p4}[players]
    assert len(state.circles) == circles == {2: 9, 3: 13, 4: 17}[players]
    assert [c.number for c in state.circles] == list(range(1, circles + 1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_circle_lies_between_two_adjacent_cards(players):
    state = start(players)
    place = {cid: (r, c) for r, row in enumerate(state.layout) for c, cid in enumerate(row)}
    pairs = set()
    for circle in state.circles:
        (r1, c1), (r2, c2) = place[circle.cards[0]], place[circle.cards[1]]
        assert (r2 - r1, c2 - c1) in {(0, 1), (1, 0)}
        pairs.add(circle.cards)
    assert len(pairs) == len(state.circles)


def test_layout_rows_follow_the_circle_count():
    """Our reading of the board (see card_data.games.carpe_diem.rules): rows of the widest width
    whose grid has the table's number of circles."""
    ids = [f"c{i}" for i in range(12)]
    assert [len(r) for r in cd.lay_out(ids, 17)[0]] == [4, 4, 4]
    assert [len(r) for r in cd.lay_out(ids[:10], 13)[0]] == [5, 5]
    assert [len(r) for r in cd.lay_out(ids[:8], 9)[0]] == [5, 3]
    assert [len(r) for r in cd.lay_out(ids[:8], 10)[0]] == [4, 4]
    with pytest.raises(ValueError, match="no row width"):
        cd.lay_out(ids[:3], 5)


def test_layout_is_driven_by_the_tables__setup_details():
    circles = TABLES.circle_spaces.model_copy(update={"p2": 10})
    assert [len(r) for r in start(2, with_tables(circle_spaces=circles)).layout] == [4, 4]
    impossible = TABLES.circle_spaces.model_copy(update={"p2": 50})
    with pytest.raises(RuleError) as caught:
        start(2, with_tables(circle_spaces=impossible))
    assert "Set-up details" in caught.value.rule and "50 circle spaces" in caught.value.message


# --- phases and rounds (summary, Turn Structure) -----------------------------------------------


def test_seven_rounds_then_a_scoring_period__turn_structure():
    state = start()
    rounds = TABLES.phases.rounds_per_phase
    state = play(state, *[{"type": "round_played"}] * (rounds - 1))
    assert (state.stage, state.phase, state.round) == ("rounds", 1, rounds)
    state = cd.apply(state, {"type": "round_played"})
    assert (state.stage, state.phase) == ("scoring", 1)
    assert cd.outcome(state).summary == "Scoring period 1"


def test_phase_ended_starts_the_scoring_period_at_once__turn_structure():
    state = play(start(), {"type": "round_played"}, {"type": "phase_ended"})
    assert state.stage == "scoring" and state.phase == 1


def test_no_round_during_a_scoring_period__turn_structure():
    state = scoring()
    for kind in ("round_played", "phase_ended"):
        error = refused(state, {"type": kind}, "Turn Structure")
        assert "Bea scores next" in error.message


def test_four_phases_then_final_scoring__turn_structure():
    state = start()
    for phase in range(1, TABLES.phases.count + 1):
        assert (state.stage, state.phase, state.round) == ("rounds", phase, 1)
        state = play(state, {"type": "phase_ended"})
        state = fail_both(fail_both(state))
    assert state.stage == "final"
    assert [s.vp for s in state.sheets] == [8 - 8 * 4, 9 - 8 * 4]
    assert sum(c.seat is not None for c in state.circles) == 8
    refused(state, {"type": "round_played"}, "Turn Structure")


# --- banderole bar (2018 rulebook, Set-up details and Scoring periods) -------------------------


def test_disc_moving_onto_an_occupied_space_goes_on_top__setup_details():
    state = play(start(3), {"type": "banderole_move", "seat": 0, "spaces": 2},
                 {"type": "banderole_move", "seat": 2, "spaces": 2})
    assert [s.space for s in state.sheets] == [2, 0, 2]
    assert state.bar_order == [2, 0, 1]
    state = cd.apply(state, {"type": "banderole_move", "seat": 1, "spaces": 3})
    assert state.bar_order == [1, 2, 0]
    state = cd.apply(state, {"type": "banderole_move", "seat": 0, "spaces": 1})
    assert state.bar_order == [0, 1, 2]


def test_scoring_order_furthest_first_then_disc_on_top__scoring_periods():
    state = play(start(3), {"type": "banderole_move", "seat": 0, "spaces": 2},
                 {"type": "banderole_move", "seat": 2, "spaces": 2}, {"type": "phase_ended"})
    assert state.scoring_order() == [2, 0, 1]
    error = refused(state, {"type": "score", "seat": 0, "circle": 1}, "Scoring periods")
    assert error.message == "Anna must wait: it is Cato's turn to score"
    state = fail_both(state)
    assert state.scoring_order() == [0, 1]
    error = refused(state, {"type": "score", "seat": 2, "circle": 2}, "Scoring periods")
    assert "Cato has already scored this period" in error.message


def test_banderole_reward_puts_the_disc_on_top__scoring_periods():
    """Chimneys for coin and banderole: 3 chimneys move Bea from 0 onto Anna's space 1, on top."""
    state = play(start(), {"type": "banderole_move", "seat": 0, "spaces": 1}, {"type": "phase_ended"})
    state = fail_both(state)  # Anna
    state = holdings(state, 1, coins=4)
    state = score(state, "c-chimneys-coin-banderole", "b-chicken-grape-herb-fish", chimney=3)
    assert [s.space for s in state.sheets] == [1, 1]
    assert state.bar_order == [1, 0]


def test_banderole_moves_wait_while_players_score__scoring_periods():
    refused(scoring(), {"type": "banderole_move", "seat": 0, "spaces": 1}, "Scoring periods")


# --- circles and card order (2018 rulebook, Scoring periods; summary, Special Rules) -----------


def test_discs_block_circles_for_good__scoring_periods():
    state = scoring()
    taken = circle_between(state, "a-two-herbs", "a-three-chickens")
    state = cd.apply(state, {"type": "score", "seat": 1, "circle": taken})
    state = fail_both(state)
    assert state.circle(taken).seat == 1 and state.circle(taken).period == 1
    state = play(state, {"type": "phase_ended"})
    error = refused(state, {"type": "score", "seat": state.next_to_score(), "circle": taken}, "Scoring periods")
    assert error.message == f"circle {taken} is taken by Bea's disc from scoring period 1"
    assert taken not in [c.number for c in state.free_circles()]


def test_unknown_circle_refused__scoring_periods():
    error = refused(scoring(), {"type": "score", "seat": 1, "circle": 10}, "Scoring periods")
    assert error.message == "there is no circle 10 (circles 1-9)"


def test_first_card_must_lie_beside_the_circle__special_rules():
    state = scoring()
    event = {"type": "score", "seat": 1, "circle": circle_between(state, "a-two-herbs", "a-three-chickens"),
             "first_card": "d-pond-garden-vp"}
    error = refused(state, event, "Special Rules & Edge Cases")
    assert "Pond and garden pairs is not beside circle" in error.message


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
    assert sheet.owned == {"chimney": 7}


def test_green_card_needs_each_thing_shown__scoring_periods():
    """A pond and garden pair for 7 VP: 2 ponds and 1 garden make one pair."""
    state = score(scoring(), "d-pond-garden-vp", "d-merchant-dwelling-vp", completed_pond=2,
                  completed_garden=1, completed_merchant_dwelling=0)
    assert state.sheets[1].vp == 9 + 7 - PENALTY


def test_green_counts_must_be_entered__scoring_periods():
    state = scoring()
    event = {"type": "score", "seat": 1, "circle": circle_between(state, "d-pond-garden-vp", "d-merchant-dwelling-vp"),
             "first_card": "d-pond-garden-vp", "completed_pond": 1}
    error = refused(state, event, "Scoring periods")
    assert error.message == "enter how many you own of: completed garden (for Pond and garden pairs)"


def test_coins_do_not_replace_owned_things_on_green_cards__scoring_periods():
    state = holdings(scoring(), 1, coins=10)
    state = score(state, "c-completed-villa-vp", "a-two-herbs", completed_villa=0)
    assert state.sheets[1].vp == 9 - PENALTY + 5 * 4
    assert state.sheets[1].coins == 0


def test_no_times_on_a_green_card__scoring_periods():
    state = scoring()
    event = {"type": "score", "seat": 1, "circle": circle_between(state, "c-completed-villa-vp", "a-two-herbs"),
             "first_card": "c-completed-villa-vp", "times_first": 1, "completed_villa": 2}
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
    event = {"type": "score", "seat": 1, "circle": circle_between(state, "a-two-herbs", "a-three-chickens"),
             "times_first": 2}
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
    event = {"type": "score", "seat": 1, "circle": circle_between(state, "a-two-herbs", "a-three-chickens"),
             "bread_first": True}
    assert refused(state, event, "Scoring periods").message == \
        f"Bea has {BREAD - 1} bread, {BREAD} are needed to fulfil Two herbs"


def test_times_with_bread_refused__scoring_periods():
    state = holdings(scoring(), 1, bread=BREAD, herbs=4)
    event = {"type": "score", "seat": 1, "circle": circle_between(state, "a-two-herbs", "a-three-chickens"),
             "bread_first": True, "times_first": 1}
    assert "bread fulfils Two herbs once" in refused(state, event, "Scoring periods").message


def test_each_card_not_met_costs_4_vp__scoring_periods():
    """Summary, Scoring / Victory Conditions: up to -8 per scoring period."""
    state = fail_both(scoring())
    assert state.sheets[1].vp == 9 - 2 * PENALTY == 1
    assert PENALTY == 4


def test_penalty_is_read_from_the_tables__scoring_periods():
    game = with_tables(unmet_card_penalty=TABLES.unmet_card_penalty.model_copy(update={"vp": 5}))
    state = fail_both(play(start(2, game), {"type": "phase_ended"}))
    assert state.sheets[1].vp == 9 - 10


# --- resources ---------------------------------------------------------------------------------


def test_set_resources_replaces_only_the_counts_given():
    state = holdings(start(), 0, grapes=2, coins=3)
    state = holdings(state, 0, coins=1)
    sheet = state.sheets[0]
    assert (sheet.grapes, sheet.coins, sheet.bread) == (2, 1, 0)
    refused(state, {"type": "set_resources", "seat": 0}, "Components")


def test_seat_must_exist():
    error = refused(start(), {"type": "banderole_move", "seat": 2, "spaces": 1}, "Set-up details")
    assert error.message == "there is no seat 2 at this 2-player table"


# --- final scoring (2018 rulebook, Final scoring) ----------------------------------------------


def final_stage(players: int = 2, **options) -> cd.State:
    state = start(players, **options)
    for _ in range(TABLES.phases.count):
        state = play(state, {"type": "phase_ended"})
        for _ in range(players):
            state = fail_both(state)
    return state


def test_final_scoring__final_scoring():
    """Villas by chimneys (3 = 3 VP, 5 = 7 VP; incomplete ones are not entered), leftovers
    (wares + coins + bread + stored tiles) // 2, the banderole space, two garden fountain
    cards both scoring, frame goals."""
    state = play(start(), {"type": "banderole_move", "seat": 0, "spaces": 4})
    for _ in range(TABLES.phases.count):
        state = fail_both(fail_both(play(state, {"type": "phase_ended"})))
    state = holdings(state, 0, grapes=2, fish=1, coins=2, bread=1)
    before = state.sheets[0].vp
    state = cd.apply(state, {"type": "final_score", "seat": 0, "villa_chimneys": [3, 5], "stored_tiles": 3,
                             "fountain_cards": ["fountain-gardens", "fountain-gardens"], "completed_garden": 2,
                             "frame_goals": ["completed_villa", "completed_baker_dwelling"], "other_frame_vp": 2})
    final = state.sheets[0].final
    assert final.villas == 3 + 7 == TABLES.villa_chimneys.vp(3) + TABLES.villa_chimneys.vp(5)
    assert final.leftovers == (2 + 1 + 2 + 1 + 3) // 2 == 4
    assert final.banderole_bar == TABLES.banderole_bar.vp(4)
    assert final.fountain_cards == 2 * 2 * 2
    goals = {g.what: g.vp for g in TABLES.frame_goals.examples}
    assert final.frame_goals == goals["completed_villa"] + goals["completed_baker_dwelling"] + 2 == 9
    assert state.sheets[0].vp == before + final.total
    assert state.stage == "final" and not cd.outcome(state).finished


def test_final_scoring_waits_for_the_last_scoring_period__final_scoring():
    error = refused(scoring(), {"type": "final_score", "seat": 0}, "Final scoring")
    assert "after scoring period 4" in error.message


@pytest.mark.parametrize("fields, message", [
    ({"fountain_cards": ["fountain-nope"]}, "there is no fountain card 'fountain-nope'"),
    ({"fountain_cards": ["fountain-gardens"]}, "enter how many you own of: completed garden (for Garden fountain)"),
    ({"frame_goals": ["market"]}, "no frame goal in the data shows market"),
    ({"villa_chimneys": [3], "completed_villa": 2}, "you own 2 completed villas but listed chimneys for 1"),
    ({"villa_chimneys": [3, 4], "chimney": 6}, "the completed villas have 7 chimneys, more than the 6 you own"),
])
def test_final_entries_checked__final_scoring(fields, message):
    error = refused(final_stage(), {"type": "final_score", "seat": 0, **fields}, "Final scoring")
    assert error.message.startswith(message)


def test_each_player_scores_the_final_once_then_the_game_ends__final_scoring():
    state = final_stage()
    state = cd.apply(state, {"type": "final_score", "seat": 1})
    assert "already entered" in refused(state, {"type": "final_score", "seat": 1}, "Final scoring").message
    refused(state, {"type": "set_resources", "seat": 1, "coins": 9}, "Final scoring")
    refused(state, {"type": "banderole_move", "seat": 0, "spaces": 1}, "Final scoring")
    state = cd.apply(state, {"type": "final_score", "seat": 0})
    assert state.stage == "finished" and cd.outcome(state).finished
    error = refused(state, {"type": "set_resources", "seat": 0, "coins": 1}, "End of game")
    assert "game is over" in error.message


# --- winner and tie-breakers -------------------------------------------------------------------


def tied_finish(spaces: list[int], bar_order: list[int], tie_breaker: str) -> cd.State:
    state = start(3, tie_breaker=tie_breaker)
    sheets = [s.model_copy(update={"vp": vp, "space": space})
              for s, vp, space in zip(state.sheets, [40, 40, 30], spaces)]
    return state.model_copy(update={"stage": "finished", "sheets": sheets, "bar_order": bar_order})


def test_tie_breaker_default_is_the_summary_rule():
    assert cd.Options().tie_breaker == TABLES.tie_breakers.default == "summary"


def test_tie_goes_to_the_furthest_ahead__summary_scoring():
    """Summary, Scoring / Victory Conditions: tiebreaker highest on the banderole bar."""
    result = cd.outcome(tied_finish([3, 5, 9], [2, 1, 0], "summary"))
    assert result.winners == [1]
    assert result.summary == ("Bea wins with 40 VP, tied with Anna and ahead of them on the banderole bar "
                              "(summary tie-breaker)")


def test_tie_goes_to_the_furthest_behind__rulebook_where_they_differ():
    """2018 rulebook (Where the summary and the rulebook differ): furthest BEHIND wins."""
    result = cd.outcome(tied_finish([3, 5, 9], [2, 1, 0], "rulebook"))
    assert result.winners == [0]
    assert "behind them on the banderole bar (rulebook tie-breaker)" in result.summary


@pytest.mark.parametrize("tie_breaker, winner", [("summary", 0), ("rulebook", 1)])
def test_tie_on_one_space_goes_by_the_disc_on_top(tie_breaker, winner):
    assert cd.outcome(tied_finish([4, 4, 0], [0, 1, 2], tie_breaker)).winners == [winner]


def test_no_tie_most_vp_wins():
    state = tied_finish([3, 5, 9], [2, 1, 0], "rulebook")
    sheets = [state.sheets[0].model_copy(update={"vp": 41}), *state.sheets[1:]]
    result = cd.outcome(state.model_copy(update={"sheets": sheets}))
    assert result.winners == [0] and result.summary == "Anna wins with 41 VP"


# --- engine contract ---------------------------------------------------------------------------


def scenario_states() -> list[cd.State]:
    state = cd.new_state(scenario.PLAYERS, cd.Options(**scenario.OPTIONS), GAME)
    states = [state]
    for event in scenario.EVENTS:
        state = cd.apply(state, cd.EVENT_ADAPTER.validate_python(event))
        states.append(state)
    return states


def test_scenario_plays_to_the_end_with_its_winners():
    states = scenario_states()
    end = states[-1]
    result = cd.outcome(end)
    assert result.finished and result.winners == scenario.WINNERS
    before_final = states[-3]
    assert [s.vp for s in before_final.sheets] == [32, 43]
    villas = TABLES.villa_chimneys
    anna = 32 + villas.vp(3) + villas.vp(5) + TABLES.leftovers.vp(3) + TABLES.banderole_bar.vp(3) + 2 + 3 + 2
    bea = 43 + TABLES.leftovers.vp(1) + TABLES.banderole_bar.vp(5) + 4
    assert result.scores == [anna, bea]


def test_scenario_illegal_event_refused():
    index, event, words = scenario.ILLEGAL
    state = scenario_states()[index]
    with pytest.raises(RuleError) as caught:
        cd.apply(state, cd.EVENT_ADAPTER.validate_python(event))
    assert words in str(caught.value)


def test_apply_never_mutates_its_input():
    states = scenario_states()
    for state, event in zip(states, scenario.EVENTS):
        dumped = state.model_dump(mode="json")
        cd.apply(state, event)
        cd.describe(state, event)
        assert state.model_dump(mode="json") == dumped


def test_state_round_trips_through_json():
    for state in scenario_states():
        assert cd.State.model_validate(state.model_dump(mode="json")) == state


def test_describe_lines():
    states = scenario_states()
    lines = [cd.describe(s, e) for s, e in zip(states, scenario.EVENTS)]
    assert lines[1] == "Anna advanced 2 on the banderole bar: space 0 → space 2"
    assert lines[4] == "Phase 1 ended in round 2; scoring period 1 begins, Anna first"
    assert lines[9] == ("Anna scored circle 4: Chimneys for coin and banderole met 1× (3× chimneys) → 1 coin "
                        "+ 1 banderole bar space; One of each ware paid 1× (4 coins) → 8 VP. VP 19 → 27")
    assert lines[10] == ("Bea scored circle 9: Merchant dwellings for VP met 1× (completed merchant dwelling) → "
                         "3 VP; Pond and garden pairs not met (completed pond, no completed garden) → -4 VP. "
                         "VP 21 → 20")
    assert lines[-1].startswith("Bea's final scoring: villas +0")
    assert cd.describe(states[0], {"type": "score", "seat": 0, "circle": 1}).startswith("score (refused:")


def test_event_fields_match_the_schema():
    assert set(cd.OwnedCounts.model_fields) == set(Owned.__args__)
    assert set(cd.SetResources.model_fields) - {"type", "seat"} == {*Ware.__args__, "coins", "bread"}
    assert sorted(cd.ENGINE.events) == sorted(["round_played", "phase_ended", "banderole_move", "set_resources",
                                              "score", "final_score"])


# --- page partial ------------------------------------------------------------------------------


class _Forms(HTMLParser):
    """Collects each form's hidden ``type``, the names of its inputs and selects, and the
    event it posts untouched, converted as the server does (empty fields dropped, ``x[]``
    names gathered into lists)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._select: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"type": None, "names": set(), "posted": []})
        elif tag == "input" and attrs.get("name"):
            if attrs.get("type") != "checkbox" or "checked" in attrs:
                self._field(attrs["name"], attrs.get("value") or "")
        elif tag == "select":
            self._select = (attrs["name"], [])
        elif tag == "option" and self._select is not None:
            if "selected" in attrs:
                self._select[1].insert(0, attrs.get("value", ""))
            else:
                self._select[1].append(attrs.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None:
            name, values = self._select
            self._field(name, values[0] if values else "")
            self._select = None

    def _field(self, name: str, value: str):
        form = self.forms[-1]
        if name == "type":
            form["type"] = value
            return
        form["names"].add(name.removesuffix("[]"))
        form["posted"].append((name, value))

    @staticmethod
    def event(form: dict) -> dict:
        event: dict = {"type": form["type"]}
        for name, value in form["posted"]:
            if name.endswith("[]"):
                event.setdefault(name[:-2], [])
                if value.strip():
                    event[name[:-2]].append(value)
            elif value.strip():
                event[name] = value.strip()
        return event


@pytest.fixture(scope="module")
def page(app):
    template = app.jinja_env.get_template("tables/carpe_diem.html")

    def render(state: cd.State) -> tuple[str, list[dict]]:
        table = SimpleNamespace(players=state.players, options=state.options.model_dump(), code="CARP",
                                game="carpe_diem", token="t0k3n")
        with app.test_request_context():
            html = template.render(table=table, state=state, outcome=cd.outcome(state), post_url="/t/t0k3n/events")
        parser = _Forms()
        parser.feed(html)
        return html, parser.forms

    return render


def test_page_forms_post_real_event_fields(page):
    models = {m.model_fields["type"].default: m for m in
              (cd.RoundPlayed, cd.PhaseEnded, cd.BanderoleMove, cd.SetResources, cd.Score, cd.FinalScore)}
    seen = set()
    for state in [*scenario_states(), final_stage(4)]:
        _, forms = page(state)
        for form in forms:
            assert form["names"] <= set(models[form["type"]].model_fields), form
            seen.add(form["type"])
    assert seen == set(models)


def test_page_forms_posted_as_shown_are_accepted(page):
    """Every form sent with the values it shows (pre-filled holdings, first circle...) is a
    legal event in that state."""
    for state in [*scenario_states()[:-1], final_stage(3)]:
        _, forms = page(state)
        for form in forms:
            cd.apply(state, cd.EVENT_ADAPTER.validate_python(_Forms.event(form)))


def test_page_shows_the_scoring_turn_and_only_free_circles(page):
    state = scenario_states()[6]  # scoring period 1, Anna has taken circle 5
    html, forms = page(state)
    assert "Scoring period 1: Bea scores" in html
    assert 'name="seat" value="1"' in html
    assert '<option value="5">' not in html and '<option value="4">' in html
    assert "●5↓" in html and "○4→" in html
    assert [f["type"] for f in forms if f["type"] in ("round_played", "phase_ended", "final_score")] == []


def test_page_shows_rounds_bar_and_holdings(page):
    html, forms = page(scenario_states()[3])
    assert "Phase 1 of 4 · round 2 of 7" in html
    assert "Anna: space 2" in html and "Anna: 0 grapes, 4 herbs" in html
    assert {f["type"] for f in forms} == {"round_played", "phase_ended", "banderole_move", "set_resources"}


@pytest.mark.parametrize("players", [3, 4])
def test_page_renders_larger_layouts(page, players):
    html, _ = page(start(players))
    assert html.count("○") == len(start(players).circles)
    assert "D4" in html if players == 4 else "D3" in html


def test_page_final_sheet_and_winner(page):
    html, forms = page(scenario_states()[-1])
    assert "Final sheet" in html
    assert '<p id="cd-winner"><strong>Anna wins with' in html
    assert "Anna ★" in html
    assert "Summary rule (in use)" in html and "2018 rulebook rule:" in html
    assert forms == []


def test_page_explains_the_rulebook_tie_breaker_when_chosen(page):
    html, _ = page(start(2, tie_breaker="rulebook"))
    assert "2018 rulebook rule (in use)" in html and "furthest behind" in html
