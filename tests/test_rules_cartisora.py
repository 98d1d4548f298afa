"""Duels of Cartisora scorekeeper: each rule checked on a scenario from the rulebooks
(2019 edition unless a test names 2017). Card values are the card data's.

Each test names the rulebook section it checks (``__<edition>_<section>``)."""

from __future__ import annotations

import dataclasses

import pytest
import scenarios_cartisora as scenario  # tests/ is on sys.path under pytest, as for pdf_measure
from pydantic import ValidationError

from card_data.engine import RuleError
from card_data.games import registry
from card_data.games.cartisora.rules import (
    ENGINE,
    BanDeck,
    Maneuver,
    NextRound,
    Options,
    PickDeck,
    Played,
    Reaction,
    Reveal,
    State,
    Tag,
)
from card_data.loader import load_database
from card_data.problems import InvalidInput
from card_data.schema import DeckList


@pytest.fixture(scope="module")
def game():
    return load_database().games["cartisora"]


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


def reveal(a: str, b: str, face_up: tuple[int, ...] = ()) -> Reveal:
    return Reveal(cards=(a, b), face_up=face_up)


def reaction(seat: int, card: str) -> Reaction:
    return Reaction(seat=seat, card=card)


def maneuver(seat: int, card: str) -> Maneuver:
    return Maneuver(seat=seat, card=card)


def pick(seat: int, deck: str) -> PickDeck:
    return PickDeck(seat=seat, deck=deck)


def ban(seat: int, deck: str) -> BanDeck:
    return BanDeck(seat=seat, deck=deck)


def tag(seat: int, card: str) -> Tag:
    return Tag(seat=seat, card=card)


NEXT = NextRound()


def new(game, players=("Ann", "Bob"), **options) -> State:
    return ENGINE.new_state(players, options, game)


def duel(game, a: str = "knight", b: str = "fencer", **options) -> State:
    """Ann (seat 0) with deck ``a`` against Bob (seat 1) with deck ``b``, round 1."""
    return play(new(game, **options), pick(0, a), pick(1, b))


def refused(state: State, event, section: str, words: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, event)
    assert section in info.value.rule, info.value.rule
    assert words in info.value.message, info.value.message
    return info.value


def moves_of(state: State, seat: int | None = None) -> dict:
    """The allowed moves by event class: a list of moves each."""
    out: dict = {}
    for move in ENGINE.allowed(state, seat):
        out.setdefault(move.event, []).append(move)
    return out


def choice_values(move, name: str) -> list:
    return [c.value for c in move.field(name).choices]


# --- Engine, options and set-up -----------------------------------------------------------


def test_engine_names_its_game_and_event_types():
    assert (ENGINE.game_id, ENGINE.title) == ("cartisora", "Duels of Cartisora")
    assert sorted(ENGINE.events) == ["ban_deck", "maneuver", "next_round", "pick_deck", "reaction", "reveal", "tag"]
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)
    assert registry()["cartisora"].engine is ENGINE
    assert ENGINE.events["reveal"] is Reveal and ENGINE.events["next_round"] is NextRound
    assert Reveal(cards=("a", "b")).to_json() == {"type": "reveal", "cards": ["a", "b"], "face_up": []}


def test_options_defaults_and_draft_plays_three_games__2019_appendix_i():
    assert Options() == Options(edition="2019", match_length=1, draft=False, tag_team=False)
    assert Options.model_validate({"draft": True}).match_length == 3
    # the new-table form posts every option as a string, the match length left at 1
    assert Options.model_validate({"draft": "true", "match_length": "1", "edition": "2017",
                                   "tag_team": "false"}) == Options(draft=True, match_length=3, edition="2017")
    assert Options.model_validate({"match_length": "5"}).match_length == 5
    with pytest.raises(ValidationError, match="draft mode plays 3 games"):
        Options.model_validate({"draft": True, "match_length": 5})
    with pytest.raises(ValidationError):
        Options.model_validate({"edition": "2020"})
    with pytest.raises(ValidationError):
        Options.model_validate({"colour": "red"})
    with pytest.raises(InvalidInput):
        ENGINE.parse_options({"colour": "red"})


def test_a_duel_is_for_two_players__2019_setup(game):
    with pytest.raises(RuleError) as info:
        new(game, ["Ann", "Bob", "Cid"])
    assert "2019 rulebook, Setup (2 players)" in info.value.rule
    with pytest.raises(RuleError, match="it needs 4"):
        new(game, tag_team=True)
    with pytest.raises(RuleError, match="draft mode cannot be combined"):
        new(game, ["Ann", "Bob", "Cid", "Dee"], tag_team=True, draft=True)
    with pytest.raises(RuleError) as info:
        new(game, ["Ann", "Bob", "Cid", "Dee", "Eve"], tag_team=True)
    assert "Setup" in info.value.rule and "is for 2 to 4 players" in info.value.rule
    assert "5 players" in info.value.message


def test_decks_and_values_come_from_the_card_data__2019_setup(game):
    state = new(game)
    assert (state.phase, state.step) == ("setup", "pick")
    assert sorted(state.catalog.decks) == sorted(game.decks)
    knight = state.catalog.decks["knight"]
    assert len(knight.cards) == 12 and "knight-reference" not in knight.cards
    assert state.catalog.cards["knight-boast"].points == game.cards["knight-boast"].score_points == 2
    assert state.catalog.cards["lance-charge"].power == game.cards["lance-charge"].power
    assert state.catalog.cards["parry"].effects == tuple(game.cards["parry"].effects)
    # The engine's lines show no images: a printed icon is said in words (the card: "Forces a :tie: tie.").
    assert game.cards["en-garde"].effect == "Forces a :tie: tie."
    assert state.catalog.cards["en-garde"].text == "Forces a tie."
    assert state.catalog.first_blood.points == game.cards["first-blood"].bonus_points
    assert state.catalog.finisher.title == "Finisher"
    assert state.catalog.tag_card is None


def test_states_are_immutable_and_the_card_data_is_shared(game):
    state = duel(game)
    with pytest.raises(ValidationError):
        state.round = 3
    with pytest.raises(TypeError):
        state.catalog.decks["wizard"] = state.catalog.decks["knight"]
    assert isinstance(state.hands, tuple) and isinstance(state.hands[0], tuple)
    after = play(state, reveal("knight-5", "fencer-4"))
    assert after.catalog is state.catalog  # the card data is carried over, not copied


def test_each_player_takes_their_own_deck__2019_setup(game):
    state = new(game)
    refused(state, reveal("knight-5", "fencer-5"), "2019 rulebook, Setup", "not picked yet")
    refused(state, pick(0, "wizard"), "2019 rulebook, Setup", "no character deck 'wizard'")
    state = play(state, pick(0, "knight"))
    assert state.step == "pick"
    refused(state, pick(1, "knight"), "2019 rulebook, Setup", "Ann already took The Knight")
    refused(state, pick(0, "fencer"), "2019 rulebook, Setup", "Ann already took")
    refused(state, pick(2, "fencer"), "Setup", "seat 2 is not a seat at this table of 2")
    refused(state, ban(1, "fencer"), "Appendix I: Draft Mode", "does not use draft mode")
    state = play(state, pick(1, "fencer"))
    assert (state.phase, state.step, state.round) == ("play", "ready", 1)
    assert state.hands == (state.catalog.decks["knight"].cards, state.catalog.decks["fencer"].cards)
    refused(state, pick(1, "hunter"), "2019 rulebook, Setup", "under way")


# --- Draft mode ---------------------------------------------------------------------------


def test_draft_picks_go_1_2_2_1_1_2_and_decks_play_in_the_order_chosen__2019_appendix_i(game):
    state = new(game, draft=True)
    assert state.step == "draft" and state.draft_turn() == ("pick", 0)
    refused(state, pick(1, "knight"), "2019 rulebook, Appendix I: Draft Mode", "the next pick 1 is Ann's, not Bob's")
    refused(state, ban(0, "knight"), "Appendix I: Draft Mode", "time to pick a deck, not to ban")
    state = play(state, pick(0, "knight"), pick(1, "fencer"))
    refused(state, pick(0, "hunter"), "Appendix I: Draft Mode", "pick 3 is Bob's")
    refused(state, pick(1, "knight"), "Appendix I: Draft Mode", "The Knight is already banned or picked")
    state = play(state, pick(1, "hunter"), pick(0, "brute"), pick(0, "guardian"))
    assert state.step == "draft"
    state = play(state, pick(1, "trickster"))
    assert (state.step, state.game, state.game_decks) == ("ready", 1, ("knight", "fencer"))
    refused(state, pick(0, "knight"), "2019 rulebook, Setup", "under way")

    state = concede(state, winner=1)  # Bob wins game 1
    assert (state.game, state.game_decks, state.games_won) == (2, ("brute", "hunter"), (0, 1))
    state = concede(state, winner=0)
    assert (state.game, state.game_decks, state.games_won) == (3, ("guardian", "trickster"), (1, 1))
    state = concede(state, winner=0)
    assert state.phase == "over" and state.games_won == (2, 1)
    assert [r.decks for r in state.results] == [("knight", "fencer"), ("brute", "hunter"), ("guardian", "trickster")]
    assert ENGINE.outcome(state).winners == (0,) and ENGINE.outcome(state).score_label == "Games won"


def eight_decks(game):
    """The data's 6 decks and 2 more (copies under new ids, as an expansion would add)."""
    extra = {f"{d}-ii": DeckList(id=f"{d}-ii", title=f"{game.decks[d].title} II", kind="character",
                                 cards=game.decks[d].cards) for d in ("knight", "fencer")}
    return dataclasses.replace(game, decks={**game.decks, **extra})


def test_draft_bans_one_deck_each_when_more_than_six__2019_appendix_i(game):
    state = new(eight_decks(game), draft=True)
    assert state.draft_turn() == ("ban", 0)
    refused(state, pick(0, "knight"), "2019 rulebook, Appendix I: Draft Mode", "time to ban a deck, not to pick")
    refused(state, ban(1, "knight"), "Appendix I", "the next ban is Ann's")
    state = play(state, ban(0, "knight"))
    refused(state, ban(1, "knight"), "Appendix I", "already banned")
    state = play(state, ban(1, "fencer-ii"))
    assert state.draft_turn() == ("pick", 0)
    refused(state, pick(0, "knight"), "Appendix I", "already banned or picked")
    refused(state, ban(0, "hunter"), "Appendix I", "time to pick a deck")
    assert sorted(state.decks_open()) == ["brute", "fencer", "guardian", "hunter", "knight-ii", "trickster"]


def test_draft_needs_six_decks_after_the_bans__2019_appendix_i(game):
    seven = dataclasses.replace(game, decks={**game.decks, "knight-ii": eight_decks(game).decks["knight-ii"]})
    with pytest.raises(RuleError, match="7 decks are available; the draft needs 8") as info:
        new(seven, draft=True)
    assert "Appendix I: Draft Mode" in info.value.rule


# --- Reveal: only cards from the hand -----------------------------------------------------


def test_reveal_takes_cards_only_from_the_hand__2019_how_to_play(game):
    state = duel(game)
    refused(state, reveal("parry", "fencer-5"), "2019 rulebook, How to Play",
            "'parry' is not a card of Ann's deck (The Knight)")
    refused(state, reveal("knight-5", "tag"), "How to Play", "'tag' is not a card of Bob's deck")
    state = play(state, reveal("knight-5", "fencer-4"))
    assert "knight-5" not in state.hands[0] and "fencer-4" not in state.hands[1]
    assert len(state.hands[0]) == len(state.hands[1]) == 11
    refused(state, reveal("knight-6", "fencer-6"), "How to Play", "round 1's cards are already revealed")
    state = play(state, NEXT)
    refused(state, reveal("knight-5", "fencer-6"), "2019 rulebook, How to Play",
            "Knight 5 was already played: it is not in Ann's hand")
    with pytest.raises(InvalidInput):
        ENGINE.parse_event({"type": "reveal", "cards": ["knight-5"]})


# --- The contest: overpower, undercut, tie ------------------------------------------------


def test_overpower_higher_wins_when_two_or_more_apart__2019_how_to_play(game):
    contest = play(duel(game), reveal("knight-7", "fencer-5")).contest
    assert (contest.winner, contest.how, contest.powers) == (0, "overpower", (7, 5))


def test_undercut_exactly_one_lower_wins__2019_how_to_play(game):
    contest = play(duel(game), reveal("knight-4", "fencer-5")).contest
    assert (contest.winner, contest.how) == (0, "undercut")


def test_tie_puts_the_cards_in_the_tie_pool_for_the_next_winner__2019_round_result(game):
    state = play(duel(game), reveal("knight-5", "fencer-5"), NEXT)
    assert state.tie_pool == ("knight-5", "fencer-5") and state.score_piles == ((), ())
    assert state.first_blood_side is None
    state = play(state, reveal("knight-2", "fencer-8"), NEXT)
    assert state.tie_pool == ()
    assert sorted(state.score_piles[1]) == sorted(["knight-5", "fencer-5", "knight-2", "fencer-8"])
    # First Blood goes to the first player to win a contest, even after a tied first round.
    assert state.first_blood_side == 1
    assert state.score(1).first_blood == 2 and state.score(1).total == 6


def test_first_blood_after_a_tied_first_round_by_either_reading__2019_round_result_and_bonus_points(game):
    """Bonus Points: "The first player to win a contest gets the First Blood token." (the
    default); Round Result: "If this is the first round, also take the First Blood token."
    (option first_blood "first_round"): after a tied round 1, nobody takes it."""
    for reading, taker, bob in (("first_win", 1, 6), ("first_round", None, 4)):
        state = play(duel(game, first_blood=reading), reveal("knight-5", "fencer-5"), NEXT,
                     reveal("knight-2", "fencer-8"))
        said = line(state, NEXT)
        state = play(state, NEXT)
        assert state.first_blood_side == taker and state.score(1).total == bob, reading
        assert ("Bob takes First Blood" in said) is (taker == 1), said
        state = play(state, reveal("knight-8", "fencer-1"), NEXT)  # Ann's first win: too late either way
        assert state.first_blood_side == taker, reading


def test_first_blood_to_the_winner_of_round_1_by_either_reading__2019_round_result(game):
    for reading in ("first_win", "first_round"):
        state = duel(game, first_blood=reading)
        state = play(state, reveal("knight-8", "fencer-1"))
        assert "Ann takes First Blood" in line(state, NEXT)
        assert play(state, NEXT).first_blood_side == 0


def test_first_blood_reading_defaults_and_stored_tables_keep_it__2019_bonus_points(game):
    assert Options().first_blood == "first_win"  # today's reading stays the default
    assert ENGINE.stored_options({"edition": "2019"})["first_blood"] == "first_win"
    assert ENGINE.stored_options({"first_blood": "first_round"})["first_blood"] == "first_round"
    field = Options.model_fields["first_blood"]
    for quote, section in (("The first player to win a contest gets the First Blood token.", "Bonus Points"),
                           ("If this is the first round, also take the First Blood token.", "Round Result")):
        assert f'"{quote}" (2019 rulebook, ' in field.description and section in field.description
    assert "first player to win" in duel(game).first_blood_reading()
    assert "winner of round 1" in duel(game, first_blood="first_round").first_blood_reading()
    with pytest.raises(ValidationError, match="2017 rulebook gives First Blood"):
        Options.model_validate({"edition": "2017", "first_blood": "first_round"})


def test_zero_cannot_undercut__2019_negative_power(game):
    contest = play(duel(game), reveal("knight-boast", "fencer-boast")).contest  # 1 vs 0
    assert (contest.winner, contest.how) == (0, "overpower")
    assert "0 cannot undercut" in contest.notes


def test_zero_undercuts_one__2017_how_to_play(game):
    contest = play(duel(game, edition="2017"), reveal("knight-boast", "fencer-boast")).contest
    assert (contest.winner, contest.how) == (1, "undercut")


def test_power_floors_at_zero_and_two_zeros_tie__2019_negative_power(game):
    # Wind Up readied normally has power 0; Shove takes the Fencer's 0 to -1, which stops at 0.
    state = play(duel(game, "brute", "fencer"), reveal("wind-up", "fencer-boast"), reaction(0, "shove"))
    assert (state.contest.winner, state.contest.how, state.contest.powers) == (None, "tie", (0, 0))
    state = play(state, NEXT)
    assert sorted(state.tie_pool) == ["fencer-boast", "shove", "wind-up"]


def test_both_powers_zero_or_less_nullify_the_round__2017_appendix_i_negative_power(game):
    state = play(duel(game, "brute", "fencer", edition="2017"), reveal("wind-up", "fencer-boast"),
                 reaction(0, "shove"))
    contest = state.contest
    assert (contest.winner, contest.how, contest.powers) == (None, "nullified", (0, -1))
    state = play(state, NEXT)
    # each player's action card goes to their own score pile; nobody takes First Blood
    assert state.score_piles == (("wind-up", "shove"), ("fencer-boast",))
    assert state.tie_pool == () and state.first_blood_side is None
    assert state.score(1).total == 2  # the Fencer keeps its own boast card, worth 2
    refused(play(duel(game, "brute", "fencer", edition="2017"), reveal("wind-up", "fencer-boast")),
            maneuver(0, "shove"), "2017 rulebook, Maneuvers", "has no winner (nullified)")


def test_negative_power_is_kept__2017_appendix_i_negative_power(game):
    # Shove takes the Fencer's boast card (0) to -1: 2017 keeps it, 2019 stops at 0.
    events = (reveal("brute-boast", "fencer-boast"), reaction(0, "shove"))
    assert play(duel(game, "brute", "fencer", edition="2017"), *events).contest.powers == (2, -1)
    assert play(duel(game, "brute", "fencer"), *events).contest.powers == (2, 0)


# --- Reactions ----------------------------------------------------------------------------


def test_reaction_changes_the_round__2019_reaction_cards_example(game):
    # The rulebook's example: a 2 loses to a 4; +1 from a reaction makes it undercut the 4.
    state = play(duel(game), reveal("knight-2", "fencer-4"))
    assert state.contest.winner == 1
    state = play(state, reaction(0, "second-wind"))
    assert (state.contest.winner, state.contest.how, state.contest.powers) == (0, "undercut", (3, 4))
    state = play(state, NEXT)
    assert sorted(state.score_piles[0]) == ["fencer-4", "knight-2", "second-wind"]


def test_reactions_come_after_the_reveal_and_before_resolution__2019_reaction_cards(game):
    state = duel(game)
    refused(state, reaction(0, "second-wind"), "2019 rulebook, Reaction Cards", "not revealed yet")
    assert Reaction not in moves_of(state)
    state = play(state, reveal("knight-6", "fencer-4"))
    refused(state, reaction(0, "knight-7"), "2019 rulebook, Reaction Cards", "Knight 7 is not a reaction card")
    refused(state, reaction(0, "press-on"), "Reaction Cards", "Press On is not a reaction card")
    refused(state, reaction(1, "second-wind"), "Reaction Cards", "not a card of Bob's deck")
    state = play(state, maneuver(0, "press-on"))  # the round is resolved
    refused(state, reaction(1, "parry"), "2019 rulebook, Reaction Cards", "already resolved")
    assert Reaction not in moves_of(state)
    state = play(duel(game), reveal("knight-6", "fencer-4"), reaction(0, "second-wind"))
    refused(state, reaction(0, "second-wind"), "Reaction Cards", "Second Wind was already played")


def test_play_order_does_not_matter__2019_multiple_reactions(game):
    start = play(duel(game, "knight", "guardian"), reveal("knight-4", "guardian-4"))
    one = play(start, reaction(0, "second-wind"), reaction(1, "brace"))
    other = play(start, reaction(1, "brace"), reaction(0, "second-wind"))
    assert one.contest == other.contest
    assert (one.contest.winner, one.contest.how, one.contest.powers) == (None, "tie", (5, 5))


# --- Maneuvers ----------------------------------------------------------------------------


def test_maneuver_only_by_the_winner_and_it_affects_the_next_round__2019_maneuvers(game):
    state = play(duel(game), reveal("knight-8", "fencer-3"))
    refused(state, maneuver(1, "advance"), "2019 rulebook, Maneuvers", "Bob did not win round 1; Ann did")
    refused(state, maneuver(0, "second-wind"), "Maneuvers", "Second Wind is not a maneuver card")
    assert [m.seat for m in moves_of(state)[Maneuver]] == [0]
    state = play(state, maneuver(0, "press-on"))
    # the round is resolved as it stood; the maneuver joins the winner's score pile
    assert state.step == "resolved" and state.contest.powers == (8, 3)
    assert sorted(state.score_piles[0]) == ["fencer-3", "knight-8", "press-on"]
    assert state.first_blood_side == 0
    state = play(state, NEXT, reveal("knight-4", "fencer-6"))
    # 4 loses to 6 by Overpower; with Press On's +1 it is 5 and undercuts the 6
    assert (state.contest.winner, state.contest.how, state.contest.powers) == (0, "undercut", (5, 6))
    state = play(state, NEXT, reveal("knight-3", "fencer-8"))
    assert state.contest.powers == (3, 8)  # only for one round


def test_the_next_round_begins_with_its_reveal__2019_how_to_play_round_result(game):
    """One entry: revealing round 2's cards ends round 1 as Next round would (the players go on,
    so no more reactions or maneuvers on it), then reveals round 2; its history line says so."""
    revealed = play(duel(game), reveal("knight-8", "fencer-1"))
    combined = Reveal(cards=("knight-4", "fencer-6"), round=2)
    said = line(revealed, combined)
    assert said == ("Round 1 resolved: Ann wins by Overpower (Ann 8, Bob 1); Ann takes First Blood; round 2 begins. "
                    "Round 2: Ann revealed Knight 4, Bob revealed Fencer 6 – Bob wins by Overpower (Ann 4, Bob 6)")
    assert said.template == "%(ended)s. %(line)s"  # translatable as a whole
    state = play(revealed, combined)
    assert state == play(revealed, NEXT, reveal("knight-4", "fencer-6"))  # the same as two taps
    assert (state.round, state.step, state.score_piles[0], state.first_blood_side) == \
        (2, "react", ("knight-8", "fencer-1"), 0)
    # after a maneuver resolved the round, too: its effect reaches the round just revealed
    resolved = play(duel(game), reveal("knight-8", "fencer-3"), maneuver(0, "press-on"))
    assert play(resolved, Reveal(cards=("knight-4", "fencer-6"), round=2)).contest.powers == (5, 6)
    assert Reveal(cards=("a", "b"), round=2).to_json() == {"type": "reveal", "cards": ["a", "b"], "face_up": [],
                                                           "round": 2}


def test_a_reveal_names_its_round__2019_how_to_play(game):
    """A reveal for another round than the table's next one is refused (a late form), and the
    game's last round ends by its own tap (2019 Ending the Game)."""
    revealed = play(duel(game), reveal("knight-8", "fencer-1"))
    refused(revealed, Reveal(cards=("knight-4", "fencer-6"), round=1), "How to Play", "already revealed")
    refused(revealed, Reveal(cards=("knight-4", "fencer-6"), round=3), "How to Play",
            "these cards are for round 3; the table is at round 1")
    refused(revealed, reveal("knight-4", "fencer-6"), "How to Play", "already revealed")  # no round: as before
    refused(duel(game), Reveal(cards=("knight-4", "fencer-6"), round=2), "How to Play", "for round 2")
    assert play(duel(game), Reveal(cards=("knight-4", "fencer-6"), round=1)).round == 1
    state = play(ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, game), *scenario.EVENTS_FEWER_TAPS[:-1])
    assert state.last_round() and Reveal not in moves_of(state)
    assert moves_of(state)[NextRound][0].label == "Resolve round 9 and end the game"
    refused(state, Reveal(cards=("knight-5", "fencer-5"), round=10), "2019 rulebook, Ending the Game",
            "round 9 was the game's last: end the game")


def test_the_next_reveal_shows_the_next_duellists__2019_appendix_ii_tag_team(game):
    """Tag team: the form for the next reveal names the players after the losing team's swap."""
    state = play(tag_table(game), reveal("knight-8", "fencer-1"))  # Ann & Cid win: Bob hands over to Dee
    upcoming = moves_of(state)[Reveal][0]
    assert upcoming.field("cards").item_labels == ("Ann revealed", "Dee revealed")
    state = play(state, Reveal(cards=("knight-5", "hunter-5"), round=2))
    assert state.active == (0, 3) and state.contest.seats == (0, 3)


def test_a_played_game_takes_fewer_entries_to_the_same_end(game):
    """The scenario's game, each next round begun by its reveal: 17 entries instead of 25 (9
    of them "Next round"), the same final table."""
    assert (len(scenario.EVENTS), len(scenario.EVENTS_FEWER_TAPS)) == (25, 17)
    assert sum(e["type"] == "next_round" for e in scenario.EVENTS) == 9
    assert sum(e["type"] == "next_round" for e in scenario.EVENTS_FEWER_TAPS) == 1
    state = ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, game)
    for event in scenario.EVENTS_FEWER_TAPS:
        assert any(_fits(m, ENGINE.parse_event(event)) for m in ENGINE.allowed(state)), event  # each is offered
        state = play(state, event)
    assert state == scenario_states(game)[-1]
    # Round Result's reading of First Blood: round 1 was a tie, so nobody takes it
    state = ENGINE.new_state(scenario.PLAYERS, {**scenario.OPTIONS, "first_blood": "first_round"}, game)
    state = play(state, *scenario.EVENTS_FEWER_TAPS)
    assert state.first_blood_side is None and ENGINE.outcome(state).scores == (22.0, 6.0)


def test_no_maneuver_after_a_tie__2019_maneuvers(game):
    state = play(duel(game), reveal("knight-5", "fencer-5"))
    refused(state, maneuver(0, "press-on"), "2019 rulebook, Maneuvers", "round 1 has no winner (a tie)")
    assert Maneuver not in moves_of(state)
    refused(duel(game), maneuver(0, "press-on"), "Maneuvers", "not been revealed yet")


def test_readied_normally_power_0_no_effect__2019_reaction_or_maneuvers_played_normally(game):
    # Second Wind readied: power 0 (not +1), and 0 cannot undercut the 1.
    contest = play(duel(game), reveal("second-wind", "fencer-1")).contest
    assert (contest.powers, contest.winner) == ((0, 1), 1)
    assert "Second Wind was readied normally: power 0, no effect" in contest.notes
    # Smoke Bomb readied normally: no -2 for the opponent next round.
    state = play(duel(game, "knight", "trickster"), reveal("knight-8", "smoke-bomb"), NEXT)
    assert state.modifiers == ()
    assert play(state, reveal("knight-5", "trickster-6")).contest.powers == (5, 6)


def test_unfulfilled_action_has_power_0__2019_unfulfilled_condition(game):
    # Bulwark wins if the opposing power is 3 or less.
    contest = play(duel(game, "guardian", "knight"), reveal("bulwark", "knight-3")).contest
    assert (contest.winner, contest.how) == (0, "forced")
    contest = play(duel(game, "guardian", "knight"), reveal("bulwark", "knight-5")).contest
    assert (contest.winner, contest.how, contest.powers) == (1, "overpower", (0, 5))
    assert "Bulwark's win condition is unfulfilled: power 0" in contest.notes


# --- Complex Resolutions --------------------------------------------------------------------


def test_cornered_prey_vs_stunning_blow__2019_complex_resolutions(game):
    # Without Cornered Prey: the Hunter's 5 undercuts Stunning Blow's 6, and the blow's -1
    # carries into the next round.
    plain = play(duel(game, "hunter", "brute"), reveal("hunter-5", "stunning-blow"), NEXT)
    assert [(m.side, m.amount) for m in plain.modifiers] == [(0, -1)]
    # Moving cards comes first: the blow goes to the tie pool and its -1 never happens.
    state = play(duel(game, "hunter", "brute"), reveal("hunter-5", "stunning-blow"), reaction(0, "cornered-prey"))
    assert state.contest.moved == (False, True) and state.contest.powers == (5, 0)
    assert state.contest.next_round == ()
    state = play(state, NEXT)
    assert state.modifiers == ()
    assert sorted(state.score_piles[0]) == ["cornered-prey", "hunter-5", "stunning-blow"]


def test_en_garde_vs_stalwart_loss_beats_tie__2019_complex_resolutions(game):
    state = play(duel(game, "knight", "guardian"), reveal("en-garde", "guardian-1"))
    assert (state.contest.winner, state.contest.how) == (None, "forced")
    state = play(state, reaction(1, "stalwart"))
    assert (state.contest.winner, state.contest.how) == (1, "forced")
    assert "a loss beats En Garde: loss beats tie beats win" in state.contest.notes


def test_forced_loss_beats_a_met_win_condition__2019_complex_resolutions(game):
    # Snare wins against a power of 7 or more: a forced win for the Hunter ...
    state = play(duel(game, "hunter", "guardian"), reveal("snare", "guardian-9"))
    assert (state.contest.winner, state.contest.how) == (0, "forced")
    # ... but Stalwart makes the Hunter lose, and a loss beats a win.
    state = play(state, reaction(1, "stalwart"))
    assert (state.contest.winner, state.contest.how) == (1, "forced")


def test_brutal_strike_wins_against_parry__2019_complex_resolutions(game):
    # Brutal Strike's condition (a tie) is unfulfilled against a 5: power 0, it loses.
    state = play(duel(game, "brute", "fencer"), reveal("brutal-strike", "fencer-5"))
    assert (state.contest.winner, state.contest.powers) == (1, (0, 5))
    # Parry forces a tie, but Brutal Strike wins against ties.
    state = play(state, reaction(1, "parry"))
    assert (state.contest.winner, state.contest.how) == (0, "wins_against_ties")
    assert "Brutal Strike wins against ties" in state.contest.notes


def test_wins_against_ties_on_a_plain_tie__2019_complex_resolutions(game):
    contest = play(duel(game, "guardian", "knight"), reveal("hold-the-line", "knight-4")).contest
    assert (contest.winner, contest.how) == (0, "wins_against_ties")


def test_cannot_beats_can__lance_charge_cannot_be_undercut__2019_complex_resolutions(game):
    # A 6 would undercut a plain 7 ...
    assert play(duel(game, "knight", "guardian"), reveal("knight-7", "guardian-6")).contest.winner == 1
    # ... but Lance Charge cannot be undercut: the "cannot" beats the undercut's "can".
    contest = play(duel(game, "knight", "guardian"), reveal("lance-charge", "guardian-6")).contest
    assert (contest.winner, contest.how) == (0, "overpower")
    assert "Lance Charge cannot be undercut" in contest.notes


# --- Scoring and the end of the game --------------------------------------------------------


def test_boast_card_is_worth_2_in_any_score_pile__2019_bonus_points(game):
    state = play(duel(game), reveal("knight-3", "fencer-boast"), NEXT)  # 3 vs 0: Ann wins
    assert state.score(0).model_dump() == {"cards": 2, "boast_bonus": 1, "first_blood": 2,
                                           "finisher": 0, "total": 5}


def knight_sweeps_fencer() -> list:
    """12 rounds in which the Knight wins 9, ties with En Garde, loses one and ties the last."""
    pairs = [("knight-8", "fencer-1"), ("lance-charge", "fencer-boast"), ("knight-7", "fencer-2"),
             ("knight-6", "fencer-3"), ("knight-5", "fencer-6"), ("knight-4", "fencer-5"),
             ("knight-3", "fencer-4"), ("knight-2", "parry"), ("knight-boast", "feint"),
             ("en-garde", "fencer-8"), ("second-wind", "riposte"), ("press-on", "advance")]
    return [e for a, b in pairs for e in (reveal(a, b), NEXT)]


def test_complete_game_with_tie_on_the_last_round__2019_ending_the_game(game):
    state = play(duel(game), *knight_sweeps_fencer()[:-2])
    assert state.round == 12 and state.tie_pool == ()
    state = play(state, reveal("press-on", "advance"))
    assert (state.contest.winner, state.contest.powers) == (None, (0, 0))
    state = play(state, NEXT)
    assert state.phase == "over"
    # The last contest tied: its cards count for nobody and nobody takes the Finisher.
    assert sorted(state.uncounted) == ["advance", "press-on"] and state.finisher_side is None
    knight, fencer = state.results[-1].scores
    # Knight: 9 rounds won = 18 cards, both boast cards (+2), First Blood (+2).
    assert knight.model_dump() == {"cards": 18, "boast_bonus": 2, "first_blood": 2, "finisher": 0, "total": 22}
    # Fencer: round 11 won with the tie pool of round 10 = 4 cards.
    assert fencer.model_dump() == {"cards": 4, "boast_bonus": 0, "first_blood": 0, "finisher": 0, "total": 4}
    result = ENGINE.outcome(state)
    assert (result.finished, result.winners, result.scores) == (True, (0,), (22.0, 4.0))
    assert result.summary == "Ann wins: 22 to 4 points"
    refused(state, reveal("knight-5", "fencer-5"), "Ending the Game", "Ann wins: 22 to 4 points")
    refused(state, NEXT, "Ending the Game", "Ann wins")
    assert ENGINE.allowed(state) == []


def test_tie_pool_is_not_counted_after_a_tied_last_round__2019_tie_on_last_round(game):
    state = play(duel(game), *knight_sweeps_fencer()[:18])  # 9 rounds, all the Knight's
    state = play(state, reveal("second-wind", "riposte"), NEXT)  # 0 vs 2: Fencer
    state = play(state, reveal("en-garde", "fencer-8"), NEXT)  # forced tie
    assert state.tie_pool == ("en-garde", "fencer-8")
    state = play(state, reveal("press-on", "advance"), NEXT)  # 0 vs 0: the last round ties
    assert state.phase == "over" and state.finisher_side is None
    assert sorted(state.uncounted) == ["advance", "en-garde", "fencer-8", "press-on"]
    assert state.results[-1].scores[1].total == 2


def test_winner_of_the_last_contest_takes_the_finisher__2019_bonus_points(game):
    state = play(duel(game), *knight_sweeps_fencer()[:18])  # 9 rounds, all the Knight's
    state = play(state, reveal("en-garde", "fencer-8"), NEXT, reveal("press-on", "advance"), NEXT)
    assert len(state.tie_pool) == 4  # two tied rounds
    state = play(state, reveal("second-wind", "riposte"), NEXT)  # the last round: Fencer 2 vs 0
    assert state.phase == "over" and state.finisher_side == 1 and state.uncounted == ()
    assert state.results[-1].scores[1].model_dump() == {"cards": 6, "boast_bonus": 0, "first_blood": 0,
                                                       "finisher": 2, "total": 8}


def test_leftover_cards_go_to_the_player_who_ran_out__2019_leftover_cards(game):
    # Ann spends two extra cards on reactions; she runs out with Bob holding 2 cards.
    events = knight_sweeps_fencer()[:14]  # 7 rounds: Ann has 5 cards left, Bob 5
    state = play(duel(game), *events)
    state = play(state, reveal("knight-2", "fencer-8"), reaction(0, "second-wind"))  # 3 vs 8: Bob
    state = play(state, NEXT, reveal("knight-boast", "parry"), NEXT)  # 1 vs 0: Ann
    state = play(state, reveal("en-garde", "feint"), NEXT)  # forced tie
    assert state.hands == (("press-on",), ("riposte", "advance"))
    last = play(state, reveal("press-on", "riposte"))  # 0 vs 2: Bob wins; Ann is out
    assert [m.label for m in moves_of(last)[NextRound]] == ["Resolve round 11 and end the game"]
    text = line(last, NEXT)
    state = play(last, NEXT)
    assert state.phase == "over"
    result = state.results[-1]
    assert (result.leftover, result.leftover_to) == (1, 0)
    assert "advance" in state.score_piles[0] and state.finisher_side == 1
    assert sum(len(p) for p in state.score_piles) + len(state.uncounted) == 24
    assert "1 leftover card goes to Ann" in text and "Game 1 over: Ann " in text


# --- Matches ------------------------------------------------------------------------------


def concede(state: State, winner: int) -> State:
    """Play the current game out so that side ``winner`` wins it: each round the loser
    readies their weakest card (actions last) and the winner a card that beats it, if any."""
    def weakness(card_id):
        card = state.catalog.cards[card_id]
        return (card.kind == "action", -1 if card.power is None else card.power)

    games = len(state.results)
    while len(state.results) == games:
        weak = min(state.hands[state.active[1 - winner]], key=weakness)
        tries = [ENGINE.apply(state, reveal(*([c, weak] if winner == 0 else [weak, c])))
                 for c in state.hands[state.active[winner]]]
        state = ENGINE.apply(next((t for t in tries if t.contest.winner == winner), tries[-1]), NEXT)
    assert state.results[-1].winner == winner
    return state


def test_best_of_three_stops_when_decided__2017_ending_the_game(game):
    state = duel(game, match_length=3)
    state = concede(state, winner=0)
    assert (state.phase, state.step, state.game, state.games_won) == ("setup", "pick", 2, (1, 0))
    assert state.results[0].winner == 0 and ENGINE.outcome(state).scores == (1.0, 0.0)
    assert ENGINE.outcome(state).summary == "Game 2: choosing decks"
    refused(state, reveal("knight-5", "fencer-5"), "2019 rulebook, Setup", "not picked yet")
    # "best of 3 ... with the same or different decks": new picks for game 2
    state = play(state, pick(0, "fencer"), pick(1, "knight"))
    assert state.hands[0] == state.catalog.decks["fencer"].cards and state.score_piles == ((), ())
    assert state.first_blood_side is None and state.round == 1
    state = concede(state, winner=0)
    assert state.phase == "over" and state.games_won == (2, 0) and len(state.results) == 2
    result = ENGINE.outcome(state)
    assert (result.winners, result.score_label) == ((0,), "Games won")
    assert result.summary == "Ann wins the match 2–0 in games"


def test_best_of_five_plays_on_while_the_trailer_can_catch_up__2017_ending_the_game(game):
    state = duel(game, match_length=5)
    for winner in (0, 0, 1):
        state = concede(state, winner=winner)
        state = play(state, pick(0, "knight"), pick(1, "fencer"))
    state = concede(state, winner=0)
    assert state.phase == "over" and state.games_won == (3, 1)


# --- Tag team -----------------------------------------------------------------------------


def tag_table(game, edition: str = "2019") -> State:
    state = new(game, ["Ann", "Bob", "Cid", "Dee"], tag_team=True, edition=edition)
    return play(state, pick(0, "knight"), pick(1, "fencer"), pick(2, "guardian"), pick(3, "hunter"))


def test_tag_team_losing_team_swaps_and_both_swap_on_a_tie__2019_appendix_ii(game):
    state = tag_table(game)
    assert state.active == (0, 1) and state.side_name(0) == "Ann & Cid"
    refused(state, pick(0, "brute"), "Setup", "under way")
    state = play(state, reveal("knight-8", "fencer-1"), NEXT)  # Ann & Cid win
    assert state.active == (0, 3) and state.score_piles[0] == ("knight-8", "fencer-1")
    refused(state, reveal("knight-5", "fencer-5"), "2019 rulebook, How to Play", "not a card of Dee's deck")
    state = play(state, reveal("knight-5", "hunter-5"), NEXT)  # tie: both teams swap
    assert state.active == (2, 1)
    state = play(state, reveal("guardian-9", "fencer-2"))
    # either player of a team may play reactions and maneuvers (2019 "any time")
    state = play(state, reaction(3, "pounce"), maneuver(0, "press-on"))
    assert state.step == "resolved" and [p.seat for p in state.reactions] == [3]
    # the winner's follow-up keeps the 2-player reading: to its player's score pile
    assert "press-on" in state.score_piles[0] and state.next_cards == ()
    # effects on you also affect your partner: Ann's Press On helps the team's next player
    assert [(m.side, m.amount) for m in state.next_modifiers] == [(0, 1)]
    state = play(state, NEXT)
    assert state.active == (2, 3) and [(m.side, m.amount) for m in state.modifiers] == [(0, 1)]
    assert play(state, reveal("guardian-3", "hunter-3")).contest.powers == (4, 3)
    assert ENGINE.outcome(state).scores[0] == ENGINE.outcome(state).scores[2]


def test_reaction_before_the_reveal_acts_on_that_round__2019_appendix_ii_tag_team(game):
    """Appendix II, "Play Reactions or Maneuvers any time": a reaction played before the reveal
    (here by Cid, who is resting) joins the round's contest and its cards in play."""
    state = tag_table(game)
    offered = moves_of(state)[Reaction]
    assert [m.seat for m in offered] == [0, 1, 2, 3]  # anyone, before the reveal
    assert choice_values(offered[2], "card") == ["stalwart", "brace"]
    assert line(state, reaction(2, "brace")) == \
        "Cid played Brace (reaction) before the reveal: it acts on round 1's contest"
    state = play(state, reaction(2, "brace"))
    assert state.step == "ready" and state.contest is None and state.reactions == (Played(seat=2, card="brace"),)
    state = play(state, reveal("knight-4", "fencer-6"))  # 4 + 1 undercuts 6
    assert (state.contest.winner, state.contest.how, state.contest.powers) == (0, "undercut", (5, 6))
    state = play(state, NEXT)
    assert sorted(state.score_piles[0]) == ["brace", "fencer-6", "knight-4"]


def test_reaction_after_the_round_resolved_acts_on_the_next__2019_appendix_ii_tag_team(game):
    state = play(tag_table(game), reveal("knight-8", "fencer-1"), maneuver(0, "press-on"))
    assert state.step == "resolved"
    offered = moves_of(state)
    assert [m.seat for m in offered[Reaction]] == [0, 1, 2, 3]
    assert offered[Reaction][3].label == "Dee: reaction for round 2"
    assert line(state, reaction(3, "pounce")) == \
        "Dee played Pounce (reaction) after round 1 resolved: it acts on round 2's contest"
    state = play(state, reaction(3, "pounce"))
    # round 1 stays as it was resolved; Pounce waits for round 2
    assert state.contest.powers == (8, 1) and "pounce" not in state.score_piles[1]
    assert state.next_cards == (Played(seat=3, card="pounce"),)
    state = play(state, NEXT)  # Bob & Dee lost: Dee comes in
    assert state.active == (0, 3) and state.reactions == (Played(seat=3, card="pounce"),)
    # Ann's 5 + 1 (Press On) against Dee's 3 + 2 (Pounce): 6 against 5, Dee undercuts
    state = play(state, reveal("knight-5", "hunter-3"))
    assert (state.contest.winner, state.contest.how, state.contest.powers) == (1, "undercut", (6, 5))
    state = play(state, NEXT)
    assert sorted(state.score_piles[1]) == ["hunter-3", "knight-5", "pounce"]


def test_maneuver_any_time_changes_only_the_next_round__2019_appendix_ii_tag_team(game):
    """A maneuver played before the reveal, or by the losing team, does not change the round it
    is played in nor resolve it; its card is in play of the next round."""
    state = tag_table(game)
    assert [m.seat for m in moves_of(state)[Maneuver]] == [0, 1, 3]  # Cid's deck has no maneuver
    state = play(state, maneuver(0, "press-on"))  # before the reveal: for round 2
    assert state.step == "ready" and [(m.side, m.amount) for m in state.next_modifiers] == [(0, 1)]
    state = play(state, reveal("knight-4", "fencer-4"))
    assert (state.contest.winner, state.contest.powers) == (None, (4, 4))  # no +1 this round
    assert line(state, maneuver(3, "stalk")) == ("Dee played Stalk (maneuver) for next round: +1 to your power "
                                                 "next round. Its card goes with round 2's cards.")
    state = play(state, maneuver(3, "stalk"))  # Dee, resting, on a tie: not a follow-up
    assert state.step == "react"  # not resolved: reactions may still follow
    state = play(state, reaction(1, "feint"))  # Bob's 3 now undercuts Ann's 4
    assert (state.contest.winner, state.contest.how) == (1, "undercut")
    state = play(state, NEXT)  # Ann & Cid lost: Cid comes in
    assert sorted(state.score_piles[1]) == ["feint", "fencer-4", "knight-4"]
    assert "press-on" not in state.score_piles[0] and "stalk" not in state.score_piles[1]
    assert state.active == (2, 1)
    assert state.carried == (Played(seat=0, card="press-on"), Played(seat=3, card="stalk"))
    assert sorted((m.side, m.amount) for m in state.modifiers) == [(0, 1), (1, 1)]
    # Cid's 5 + 1 against Bob's 6 + 1: Cid undercuts and takes the cards in play, Stalk too
    state = play(state, reveal("guardian-5", "fencer-6"))
    assert (state.contest.winner, state.contest.powers) == (0, (6, 7))
    state = play(state, NEXT)
    # the maneuver played before round 1's reveal is a card in play of round 2 too
    assert sorted(state.score_piles[0]) == ["fencer-6", "guardian-5", "press-on", "stalk"]


def test_cards_for_a_next_round_that_never_comes_go_to_their_own_pile__2019_appendix_ii_tag_team(game):
    state = tag_table(game)
    # Bob and Dee spend four cards on reactions before the first reveal: they run out first.
    state = play(state, reaction(1, "feint"), reaction(1, "parry"), reaction(3, "pounce"),
                 reaction(3, "cornered-prey"))
    while sum(len(state.hands[s]) for s in (1, 3)) > 1:
        mine = [c for c in state.hands[state.active[0]] if c != "press-on"]
        state = play(state, reveal(mine[0], state.hands[state.active[1]][0]), NEXT)
    assert state.round == 20 and state.active == (0, 3)
    assert state.hands[0] == ("press-on", "lance-charge") and state.hands[3] == ("stalk",)
    last = state
    # Ann's follow-up resolves the last round; Cid then plays a reaction for a round 21 that never comes.
    state = play(last, reveal("lance-charge", "stalk"), maneuver(0, "press-on"))
    assert state.step == "resolved" and state.last_round()
    assert [m.label for m in moves_of(state)[NextRound]] == ["End the game"]
    assert line(state, reaction(2, "brace")) == \
        "Cid played Brace (reaction) after round 20 resolved: it acts on round 21's contest"
    state = play(state, reaction(2, "brace"))
    text = line(state, NEXT)
    state = play(state, NEXT)
    assert state.phase == "over" and {"press-on", "brace"} <= set(state.score_piles[0])
    assert "no next round for Brace: to their players' own score piles" in text
    assert sum(len(p) for p in state.score_piles) + len(state.uncounted) == 48
    # A maneuver played any time during the last round: likewise to its own side's pile.
    state = play(last, maneuver(0, "press-on"), reveal("lance-charge", "stalk"), NEXT)
    assert state.phase == "over" and "press-on" in state.score_piles[0]


@pytest.mark.parametrize("edition", ["2019", "2017"])
def test_partner_takes_over_and_the_game_ends_when_a_team_is_out__2017_appendix_iii(game, edition):
    # 2017 Appendix III: swap active players if you run out of cards (we apply it to 2019 too).
    state = tag_table(game, edition)
    while state.step == "ready":
        state = play(state, reveal(state.hands[state.active[0]][0], state.hands[state.active[1]][0]), NEXT)
    # one card per team per round: all 24 cards of each team were played, so partners took over
    assert state.phase == "over" and state.round == 24
    assert sum(len(p) for p in state.score_piles) + len(state.uncounted) == 48
    result = ENGINE.outcome(state)
    assert result.scores[0] == result.scores[2] and result.scores[1] == result.scores[3]
    assert set(result.winners) in ({0, 2}, {1, 3}, set())


def test_only_the_duelling_players_react_and_the_winner_follows_up__2017_appendix_iii(game):
    """The 2017 tag team has no "any time": reactions after the reveal by the duelling
    players, maneuvers by the round's winner."""
    state = tag_table(game, edition="2017")
    refused(state, reaction(2, "brace"), "2017 rulebook, Reactions", "not revealed yet")
    refused(state, maneuver(0, "press-on"), "2017 rulebook, Maneuvers", "not been revealed yet")
    assert Reaction not in moves_of(state) and Maneuver not in moves_of(state)
    state = play(state, reveal("knight-8", "fencer-1"))
    assert [m.seat for m in moves_of(state)[Reaction]] == [0, 1]
    assert [m.seat for m in moves_of(state)[Maneuver]] == [0]
    refused(state, maneuver(3, "stalk"), "2017 rulebook, Maneuvers", "Dee did not win round 1")


def test_tag_in_with_a_tag_card__2017_appendix_iii(game):
    state = tag_table(game, edition="2017")
    assert state.catalog.tag_card == "tag" and state.tags_left == (3, 3, 3, 3)
    state = play(state, reveal("knight-2", "fencer-5"))
    assert [m.seat for m in moves_of(state)[Tag]] == [2, 3]
    refused(state, reaction(2, "brace"), "2017 rulebook, Reactions", "Cid is not in this round's duel")
    refused(state, tag(0, "knight-7"), "2017 rulebook, Appendix III: Tag Team", "Ann is already duelling")
    state = play(state, tag(2, "guardian-9"))
    # Ann's card goes back to her hand; Cid's 9 replaces it; Bob & Dee score the Tag card
    assert "knight-2" in state.hands[0] and "guardian-9" not in state.hands[2]
    assert state.active == (2, 1) and state.readied == ("guardian-9", "fencer-5")
    assert state.score_piles[1] == ("tag",) and state.tags_left == (3, 3, 2, 3)
    assert (state.contest.winner, state.contest.powers) == (0, (9, 5))
    refused(state, tag(0, "knight-7"), "Appendix III", "already tagged this round")
    state = play(state, tag(3, "hunter-6"))  # the other team may answer
    assert state.contest.powers == (9, 6) and state.score_piles[0] == ("tag",)
    state = play(state, NEXT)
    # no swap at the end of a 2017 round: the players who tagged in stay in
    assert state.active == (2, 3)
    assert sorted(state.score_piles[0]) == ["guardian-9", "hunter-6", "tag"] and state.score(1).cards == 1
    refused(tag_table(game), tag(2, "guardian-9"), "2019 rulebook, Appendix II", "only in the 2017 tag team")


def test_three_tag_cards_each__2017_appendix_iii(game):
    state = tag_table(game, edition="2017")
    for _ in range(6):  # Cid and Ann tag in by turns: 3 Tag cards each
        state = play(state, reveal(state.hands[state.active[0]][0], state.hands[state.active[1]][0]))
        resting = 2 if state.active[0] == 0 else 0
        state = play(state, tag(resting, state.hands[resting][0]), NEXT)
    assert state.tags_left == (0, 3, 0, 3) and state.score_piles[1].count("tag") == 6
    state = play(state, reveal(state.hands[state.active[0]][0], state.hands[state.active[1]][0]))
    refused(state, tag(2, state.hands[2][0]), "2017 rulebook, Appendix III", "Cid has no Tag cards left")


def test_a_card_readied_face_up_cannot_be_exchanged_by_tagging_in__2017_appendix_i_ready_face_up(game):
    """2017 Appendix I, Ready Face Up: "If a card must be readied face up it cannot be exchanged
    willingly for another card." The reveal records it; the tag-in, which exchanges the
    partner's readied card (Appendix III), is refused for it."""
    state = tag_table(game, edition="2017")
    assert moves_of(state)[Reveal][0].field("face_up") is not None  # asked in 2017
    assert line(state, reveal("knight-2", "fencer-5", face_up=(0,))).startswith(
        "Round 1: Ann revealed Knight 2 (readied face up), Bob revealed Fencer 5 – ")
    state = play(state, reveal("knight-2", "fencer-5", face_up=(0,)))
    assert state.face_up == (True, False)
    refused(state, tag(2, "guardian-9"), "2017 rulebook, Appendix I: Special Circumstances (Ready Face Up)",
            "Ann's Knight 2 was readied face up")
    assert [m.seat for m in moves_of(state)[Tag]] == [3]  # Bob's card was readied face down
    state = play(state, tag(3, "hunter-6"))
    assert state.readied == ("knight-2", "hunter-6") and state.face_up == (True, False)
    state = play(state, NEXT)
    assert state.face_up == (False, False)
    # only 2017 has the rule; each side named once
    refused(tag_table(game), reveal("knight-2", "fencer-5", face_up=(1,)), "2019 rulebook, How to Play",
            "no card is readied face up in the 2019 rules")
    assert moves_of(tag_table(game))[Reveal][0].field("face_up") is None
    with pytest.raises(InvalidInput):
        ENGINE.parse_event({"type": "reveal", "cards": ["knight-2", "fencer-5"], "face_up": [0, 0]})


# --- Forms: what the rules allow now --------------------------------------------------------


def test_forms_offer_only_what_the_rules_allow(game):
    state = new(game)
    offered = moves_of(state)
    assert set(offered) == {PickDeck} and [m.seat for m in offered[PickDeck]] == [0, 1]
    assert choice_values(offered[PickDeck][0], "deck") == list(state.catalog.decks)
    state = play(state, pick(0, "knight"))
    offered = moves_of(state)
    assert [m.seat for m in offered[PickDeck]] == [1] and "knight" not in choice_values(offered[PickDeck][0], "deck")
    assert moves_of(state, 0) == {}  # Ann has her deck: nothing for her now
    state = play(state, pick(1, "fencer"))
    show = moves_of(state)[Reveal][0]
    cards = show.field("cards")
    assert (cards.kind, cards.count, cards.item_labels) == ("multi", 2, ("Ann revealed", "Bob revealed"))
    assert [{c.value for c in cards.choices_of(i)} for i in (0, 1)] == [set(state.hands[0]), set(state.hands[1])]
    assert show.field("face_up") is None  # 2019: nothing is readied face up
    state = play(state, reveal("knight-2", "fencer-4"))
    offered = moves_of(state)
    assert set(offered) == {Reveal, Reaction, Maneuver, NextRound}
    upcoming = offered[Reveal][0]  # the next round begins with its reveal
    assert (upcoming.label, upcoming.fixed["round"]) == ("Reveal round 2", 2)
    assert [{c.value for c in upcoming.field("cards").choices_of(i)} for i in (0, 1)] == [set(state.hands[0]),
                                                                                         set(state.hands[1])]
    assert {m.seat: choice_values(m, "card") for m in offered[Reaction]} == {0: ["second-wind"],
                                                                            1: ["parry", "feint"]}
    assert [(m.seat, choice_values(m, "card")) for m in offered[Maneuver]] == [(1, ["advance"])]
    assert offered[NextRound][0].label == "Resolve round 1 and go on" and offered[NextRound][0].fields == ()
    drafting = new(eight_decks(game), draft=True)
    assert set(moves_of(drafting)) == {BanDeck} and moves_of(drafting)[BanDeck][0].seat == 0


def scenario_states(game) -> list[State]:
    state = ENGINE.new_state(scenario.PLAYERS, scenario.OPTIONS, game)
    states = [state]
    for event in scenario.EVENTS:
        state = play(state, event)
        states.append(state)
    return states


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
        chosen = values.get(form_field.name)
        if not form_field.choices or chosen is None:
            continue
        offered = {c.value for c in form_field.choices}
        if not (set(chosen) <= offered if form_field.kind == "multi" else chosen in offered):
            return False
    return True


# --- Engine contract ----------------------------------------------------------------------


def test_scenario_plays_to_its_winners(game):
    states = scenario_states(game)
    result = ENGINE.outcome(states[-1])
    assert result.finished and result.winners == tuple(scenario.WINNERS)
    assert result.scores == (24.0, 6.0)
    assert not any(ENGINE.outcome(s).finished for s in states[:-1])


def test_scenario_illegal_event_is_refused(game):
    index, event, words = scenario.ILLEGAL
    state = scenario_states(game)[index]
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, event)
    assert words in str(info.value)


def test_apply_never_mutates_and_states_round_trip_through_json(game):
    states = scenario_states(game)  # play() checks each scenario step
    tagged = play(tag_table(game, "2017"), reveal("knight-2", "fencer-5"))
    drafting = new(eight_decks(game), draft=True)
    for state, event in ((tagged, tag(2, "guardian-9")), (drafting, ban(0, "knight"))):
        before = state.model_dump(mode="json")
        after = ENGINE.apply(state, event)
        assert state.model_dump(mode="json") == before and after != state
        states += [state, after]
    for state in states:
        assert State.model_validate(state.model_dump(mode="json")) == state


def test_describe_gives_one_readable_line(game):
    states = scenario_states(game)
    lines = [line(s, e) for s, e in zip(states, scenario.EVENTS)]
    assert lines[0] == "Ann took The Knight"
    assert lines[1] == "Bob took The Fencer; game 1 begins"
    assert lines[2] == ("Round 1: Ann revealed Knight 5, Bob revealed Fencer 5 – "
                        "tie (Ann 5, Bob 5): cards to the tie pool")
    assert lines[5] == "Ann played Second Wind (reaction): now Ann wins by Undercut (Ann 3, Bob 4)"
    assert "Ann takes First Blood" in lines[6]
    assert all("\n" not in text for text in lines)
    drafting = new(game, draft=True)
    assert line(drafting, pick(0, "knight")) == "Ann drafted (pick 1) The Knight"
    assert line(new(eight_decks(game), draft=True), ban(0, "knight")) == "Ann banned The Knight"


# --- Page partial -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def jinja(app):
    """The companion's templates, rendered as in a request (the forms carry a CSRF token)."""
    with app.test_request_context():
        yield app.jinja_env


def render(jinja, state: State) -> str:
    """The table partial and the generic forms under it, as the live part of the page has them."""
    from companion.scorekeeping.table_view import seat_colours

    context = dict(state=state, outcome=ENGINE.outcome(state), moves=ENGINE.allowed(state),
                   post_url="/t/ABCD/events", colours=seat_colours("cartisora", list(state.players)))
    forms = jinja.from_string('{% from "tables/_moves.html" import moves_list %}'
                              '{{ moves_list(moves, post_url, 0, "/t/ABCD/preview") }}')
    return jinja.get_template("games/cartisora/table.html").render(**context) + forms.render(**context)


def test_page_renders_every_scenario_state(jinja, game):
    for state in scenario_states(game):
        html = render(jinja, state)
        assert ('action="/t/ABCD/events"' in html) != ENGINE.outcome(state).finished
    first = render(jinja, scenario_states(game)[0])
    assert 'value="pick_deck"' in first and "The Knight" in first
    revealed = render(jinja, scenario_states(game)[3])
    assert 'value="reaction"' in revealed and 'value="next_round"' in revealed
    assert "Tie pool" in revealed
    final = render(jinja, scenario_states(game)[-1])
    assert "Game 1: Ann wins" in final and "<strong>24</strong>" in final and 'value="reveal"' not in final
    assert "1 leftover card went to Bob" in final
    assert "First Blood" in final and "Finisher" in final


def test_page_renders_draft_and_tag_team(jinja, game):
    html = render(jinja, new(eight_decks(game), draft=True))
    assert 'value="ban_deck"' in html and 'value="pick_deck"' not in html
    state = play(tag_table(game, "2017"), reveal("knight-2", "fencer-5", face_up=(0,)))
    html = render(jinja, state)
    assert 'value="tag"' in html and "Ann &amp; Cid" in html and "(readied face up)" in html
