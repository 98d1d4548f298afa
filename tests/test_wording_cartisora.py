"""Duels of Cartisora's scorekeeper says everything a player reads as translatable Words.

Short scripted games are played through the engine: the 2019 duel of ``scenarios_cartisora``,
a round of each kind of contest the rulebooks' Complex Resolutions describe, the 2019 and
2017 tag teams, a draft with bans, a best-of-3 match, and one refusal of each kind. Every
move label and hint, form field title, help line, item label and choice, status, summary,
score label, history line and refusal (rule and message) it produces must be a
:class:`Words` whose template, and every nested template, has a German translation in the
committed catalogue; the only plain strings allowed are names from the data (players, card
and deck titles and ids, token titles, printed card effects) and lists of them. Each is also
filled in German from the compiled catalogue, to catch translations whose placeholders do
not fit.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

import pytest
import scenarios_cartisora as scenario
from wording_checks import GERMAN_PO, german, untranslated

import card_data.games.cartisora.rules as dc
from card_data.engine import RuleError, Words
from card_data.loader import load_database
from card_data.schema import DeckList

GAME = load_database().games["cartisora"]
ENGINE = dc.ENGINE
NEXT = dc.NextRound()


EIGHT_DECKS = dataclasses.replace(GAME, decks={
    **GAME.decks,
    **{f"{d}-ii": DeckList(id=f"{d}-ii", title=f"{GAME.decks[d].title} II", kind="character",
                           cards=GAME.decks[d].cards) for d in ("knight", "fencer")}})
"""The data's 6 decks and 2 more (copies under new ids, as an expansion would add): the
draft then starts with bans."""

TYPED = {"nope"}
"""What the script's players send that is no id of the data (an unknown deck): shown as sent."""


def new(players=("Ann", "Bob"), game=GAME, **options) -> dc.State:
    return ENGINE.new_state(players, options, game)


def play(state: dc.State, *events) -> dc.State:
    for event in events:
        state = ENGINE.apply(state, event)
    return state


def duel(a: str = "knight", b: str = "fencer", **options) -> dc.State:
    """Ann with deck ``a`` against Bob with deck ``b``, round 1."""
    return play(new(**options), dc.PickDeck(seat=0, deck=a), dc.PickDeck(seat=1, deck=b))


def tag_table(edition: str) -> dc.State:
    state = new(("Ann", "Bob", "Cid", "Dee"), tag_team=True, edition=edition)
    return play(state, *(dc.PickDeck(seat=s, deck=d) for s, d in enumerate(("knight", "fencer", "guardian", "hunter"))))


def reveal(a: str, b: str, face_up: tuple[int, ...] = ()) -> dc.Reveal:
    return dc.Reveal(cards=(a, b), face_up=face_up)


def data_names(state: dc.State) -> set[str]:
    """Names the data or the players give, shown as written in every language."""
    names = set(state.players) | TYPED | {state.side_name(side) for side in (0, 1)}
    names |= {state.catalog.first_blood.title, state.catalog.finisher.title}
    for deck in state.catalog.decks.values():
        names |= {deck.id, deck.title}
    for card in state.catalog.cards.values():
        names |= {card.id, card.title}
        if not isinstance(card.text, Words):
            names.add(card.text)  # the printed effect, as the card data gives it
    return names


NUMBER = re.compile(r"-?\d+")


def is_name(text: str, names: set[str]) -> bool:
    """A name, or names and numbers joined as the English builds lists ("Ann 5, Bob 4",
    "Ann & Cid 20 – Bob & Dee 4", "Brace, Pounce")."""
    if text in names:
        return True
    parts = re.split(r", | – ", text)
    return all(p in names or p.rpartition(" ")[0] in names and NUMBER.fullmatch(p.rpartition(" ")[2])
               for p in parts)


def problems(text: object, where: str, names: set[str]) -> Iterator[str]:
    """What is wrong with ``text`` as something a player reads (nothing if it is fine)."""
    return untranslated(text, where, lambda plain, _where: is_name(plain, names))


class Said:
    """Everything the engine said during the scripts: ``(where, text)`` pairs."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, object]] = []
        self.names: set[str] = set()

    def add(self, where: str, text: object) -> None:
        self.texts.append((where, text))

    def state(self, state: dc.State, where: str) -> None:
        """Where the game stands, the words the table page asks for, and every form the rules allow now."""
        self.names |= data_names(state)
        self.add(f"{where} summary", state.summary())
        self.add(f"{where} status", state.status())
        self.add(f"{where} score label", state.score_label)
        out = ENGINE.outcome(state)
        self.add(f"{where} outcome summary", out.summary)
        self.add(f"{where} outcome score label", out.score_label)
        if state.contest is not None:
            self.add(f"{where} result", state.result_words(state.contest))
            for i, note in enumerate(state.contest.notes):
                self.add(f"{where} contest note {i}", note)
        for i, contest in enumerate(state.round_log):
            self.add(f"{where} round log {i}", state.round_words(contest))
        for card in (*state.tie_pool, *state.uncounted, *(c for pile in state.score_piles for c in pile)):
            self.add(f"{where} card {card}", state.card_label(card))
        for move in ENGINE.allowed(state):
            at = f"{where} move {move.type_name}"
            self.add(at, move.label)
            if move.hint:
                self.add(f"{at} hint", move.hint)
            for field in move.fields:
                self.add(f"{at} field {field.name}", field.label)
                if field.help:
                    self.add(f"{at} field {field.name} help", field.help)
                for i, label in enumerate(field.item_labels):
                    self.add(f"{at} field {field.name} item {i}", label)
                choices = [*field.choices, *(c for item in field.item_choices for c in item)]
                for choice in choices:
                    self.add(f"{at} field {field.name} choice {choice.value}", choice.label)
                    if choice.note:
                        self.add(f"{at} field {field.name} choice {choice.value} note", choice.note)

    def game(self, state: dc.State, events, where: str) -> dc.State:
        """Play ``events`` from ``state``, noting each state and history line."""
        self.state(state, f"{where} start")
        for i, event in enumerate(events):
            step = ENGINE.step(state, event)
            event_type = event["type"] if isinstance(event, dict) else type(event).type_name
            self.add(f"{where} line {i} ({event_type})", step.line)
            state = step.state
            self.state(state, f"{where} after {i}")
        return state

    def refusal(self, where: str, make) -> RuleError:
        """The refusal ``make()`` raises, its rule and message noted."""
        with pytest.raises(RuleError) as caught:
            make()
        self.add(f"refusal {where} rule", caught.value.rule)
        self.add(f"refusal {where} message", caught.value.message)
        return caught.value


CONTESTS = [
    # (name, decks, edition, events): a contest of each kind the rulebooks resolve.
    ("zero cannot undercut", ("knight", "fencer"), "2019", [reveal("knight-boast", "fencer-boast"), NEXT]),
    ("power floor", ("brute", "fencer"), "2019",
     [reveal("wind-up", "fencer-boast"), dc.Reaction(seat=0, card="shove"), NEXT]),
    ("nullified", ("brute", "fencer"), "2017",
     [reveal("wind-up", "fencer-boast"), dc.Reaction(seat=0, card="shove"), NEXT]),
    ("winner's maneuver", ("knight", "fencer"), "2019",
     [reveal("knight-8", "fencer-3"), dc.Maneuver(seat=0, card="press-on"), NEXT, reveal("knight-4", "fencer-6"),
      NEXT]),
    ("unfulfilled condition", ("guardian", "knight"), "2019", [reveal("bulwark", "knight-5"), NEXT]),
    ("met condition", ("guardian", "knight"), "2019", [reveal("bulwark", "knight-3"), NEXT]),
    ("cornered prey", ("hunter", "brute"), "2019",
     [reveal("hunter-5", "stunning-blow"), dc.Reaction(seat=0, card="cornered-prey"), NEXT]),
    ("loss beats tie", ("knight", "guardian"), "2019",
     [reveal("en-garde", "guardian-1"), dc.Reaction(seat=1, card="stalwart"), NEXT]),
    ("loss beats win", ("hunter", "guardian"), "2019",
     [reveal("snare", "guardian-9"), dc.Reaction(seat=1, card="stalwart"), NEXT]),
    ("wins against ties", ("brute", "fencer"), "2019",
     [reveal("brutal-strike", "fencer-5"), dc.Reaction(seat=1, card="parry"), NEXT]),
    ("cannot be undercut", ("knight", "guardian"), "2019", [reveal("lance-charge", "guardian-6"), NEXT]),
    ("readied normally", ("knight", "fencer"), "2019", [reveal("second-wind", "fencer-1"), NEXT]),
]

TAG_2019 = [
    dc.Reaction(seat=2, card="brace"),  # before the reveal: acts on round 1
    dc.Maneuver(seat=1, card="advance"),  # any time: for round 2
    reveal("knight-8", "fencer-1"),
    dc.Maneuver(seat=0, card="press-on"),  # the winner's follow-up resolves the round
    dc.Reaction(seat=3, card="pounce"),  # after the round resolved: acts on round 2
    NEXT,
    reveal("knight-5", "hunter-3"),
    NEXT,
]

TAG_2017 = [
    reveal("knight-2", "fencer-5", face_up=(0,)),
    dc.Tag(seat=3, card="hunter-6"),
    NEXT,
    reveal("press-on", "stalk"),  # maneuvers readied normally: both 0, nullified in 2017
    NEXT,
    reveal("knight-3", "hunter-5"),
    dc.Tag(seat=2, card="guardian-9"),
    NEXT,
]

DRAFT = [
    dc.BanDeck(seat=0, deck="knight"),
    dc.BanDeck(seat=1, deck="fencer-ii"),
    *(dc.PickDeck(seat=s, deck=d)
      for s, d in zip(dc.DRAFT_PICK_ORDER, ("knight-ii", "fencer", "hunter", "brute", "guardian", "trickster"))),
]


def concede(said: Said, state: dc.State, winner: int, where: str) -> dc.State:
    """Play the current game out so that side ``winner`` wins it, noting everything said:
    each round the loser readies their weakest card (actions last) and the winner a card that
    beats it, if any."""
    def weakness(card_id):
        card = state.catalog.cards[card_id]
        return (card.kind == "action", -1 if card.power is None else card.power)

    games = len(state.results)
    rounds = 0
    while len(state.results) == games:
        weak = min(state.hands[state.active[1 - winner]], key=weakness)
        tries = [reveal(*([c, weak] if winner == 0 else [weak, c])) for c in state.hands[state.active[winner]]]
        event = next((t for t in tries if ENGINE.apply(state, t).contest.winner == winner), tries[-1])
        state = said.game(state, [event, NEXT], f"{where} round {rounds}")
        rounds += 1
    return state


def refusals(said: Said) -> None:
    """One refusal of each kind the rules give, at the point of the game where it can happen."""
    knight = duel()
    revealed = play(knight, reveal("knight-6", "fencer-4"))
    tied = play(knight, reveal("knight-5", "fencer-5"))
    resolved = play(revealed, dc.Maneuver(seat=0, card="press-on"))
    nullified = play(duel("brute", "fencer", edition="2017"), reveal("wind-up", "fencer-boast"))
    picking = play(new(), dc.PickDeck(seat=0, deck="knight"))
    drafting = new(draft=True)
    banning = new(game=EIGHT_DECKS, draft=True)
    tag17 = tag_table("2017")
    tag17_revealed = play(tag17, reveal("knight-2", "fencer-5"))
    tag17_tagged = play(tag17_revealed, dc.Tag(seat=2, card="guardian-9"))
    tag17_face_up = play(tag17, reveal("knight-2", "fencer-5", face_up=(0,)))
    tag19 = tag_table("2019")
    no_tags = tag17
    for _ in range(6):  # Cid and Ann tag in by turns: 3 Tag cards each
        no_tags = play(no_tags, reveal(no_tags.hands[no_tags.active[0]][0], no_tags.hands[no_tags.active[1]][0]))
        resting = 2 if no_tags.active[0] == 0 else 0
        no_tags = play(no_tags, dc.Tag(seat=resting, card=no_tags.hands[resting][0]), NEXT)
    no_tags = play(no_tags, reveal(no_tags.hands[no_tags.active[0]][0], no_tags.hands[no_tags.active[1]][0]))
    over = play(new(), *(ENGINE.parse_event(e) for e in scenario.EVENTS))
    seven = dataclasses.replace(GAME, decks={**GAME.decks, "knight-ii": EIGHT_DECKS.decks["knight-ii"]})
    cases = [
        ("three players", lambda: new(("Ann", "Bob", "Cid"))),
        ("tag team of two", lambda: new(tag_team=True)),
        ("draft and tag team", lambda: new(("Ann", "Bob", "Cid", "Dee"), draft=True, tag_team=True)),
        ("draft short of decks", lambda: new(game=seven, draft=True)),
        ("pick after start", lambda: ENGINE.apply(knight, dc.PickDeck(seat=0, deck="brute"))),
        ("second deck", lambda: ENGINE.apply(picking, dc.PickDeck(seat=0, deck="brute"))),
        ("deck taken", lambda: ENGINE.apply(picking, dc.PickDeck(seat=1, deck="knight"))),
        ("no such deck", lambda: ENGINE.apply(picking, dc.PickDeck(seat=1, deck="nope"))),
        ("no draft", lambda: ENGINE.apply(picking, dc.BanDeck(seat=1, deck="brute"))),
        ("draft over", lambda: ENGINE.apply(play(drafting, *DRAFT[2:]), dc.BanDeck(seat=0, deck="brute"))),
        ("ban not pick", lambda: ENGINE.apply(drafting, dc.BanDeck(seat=0, deck="knight"))),
        ("pick not ban", lambda: ENGINE.apply(banning, dc.PickDeck(seat=0, deck="knight"))),
        ("whose pick", lambda: ENGINE.apply(drafting, dc.PickDeck(seat=1, deck="knight"))),
        ("whose ban", lambda: ENGINE.apply(banning, dc.BanDeck(seat=1, deck="knight"))),
        ("no such draft deck", lambda: ENGINE.apply(drafting, dc.PickDeck(seat=0, deck="nope"))),
        ("deck drafted", lambda: ENGINE.apply(play(drafting, dc.PickDeck(seat=0, deck="knight")),
                                              dc.PickDeck(seat=1, deck="knight"))),
        ("reveal before decks", lambda: ENGINE.apply(picking, reveal("knight-5", "fencer-5"))),
        ("revealed twice", lambda: ENGINE.apply(revealed, reveal("knight-5", "fencer-5"))),
        ("not in deck", lambda: ENGINE.apply(knight, reveal("parry", "fencer-5"))),
        ("already played", lambda: ENGINE.apply(play(revealed, NEXT), reveal("knight-6", "fencer-5"))),
        ("face up in 2019", lambda: ENGINE.apply(knight, reveal("knight-5", "fencer-5", face_up=(0,)))),
        ("reaction before reveal", lambda: ENGINE.apply(knight, dc.Reaction(seat=0, card="second-wind"))),
        ("reaction after resolve", lambda: ENGINE.apply(resolved, dc.Reaction(seat=1, card="parry"))),
        ("reaction between games", lambda: ENGINE.apply(picking, dc.Reaction(seat=0, card="second-wind"))),
        ("not a reaction", lambda: ENGINE.apply(revealed, dc.Reaction(seat=0, card="knight-7"))),
        ("reaction 2017 resting", lambda: ENGINE.apply(tag17_revealed, dc.Reaction(seat=2, card="brace"))),
        ("reaction any time, no round", lambda: ENGINE.apply(new(("Ann", "Bob", "Cid", "Dee"), tag_team=True),
                                                             dc.Reaction(seat=0, card="second-wind"))),
        ("maneuver before reveal", lambda: ENGINE.apply(knight, dc.Maneuver(seat=0, card="press-on"))),
        ("maneuver between games", lambda: ENGINE.apply(picking, dc.Maneuver(seat=0, card="press-on"))),
        ("maneuver any time, no round", lambda: ENGINE.apply(new(("Ann", "Bob", "Cid", "Dee"), tag_team=True),
                                                             dc.Maneuver(seat=0, card="press-on"))),
        ("maneuver after a tie", lambda: ENGINE.apply(tied, dc.Maneuver(seat=0, card="press-on"))),
        ("maneuver after nullified", lambda: ENGINE.apply(nullified, dc.Maneuver(seat=0, card="shove"))),
        ("maneuver by the loser", lambda: ENGINE.apply(revealed, dc.Maneuver(seat=1, card="advance"))),
        ("not a maneuver", lambda: ENGINE.apply(revealed, dc.Maneuver(seat=0, card="second-wind"))),
        ("tag in 2019", lambda: ENGINE.apply(tag19, dc.Tag(seat=2, card="guardian-9"))),
        ("tag before reveal", lambda: ENGINE.apply(tag17, dc.Tag(seat=2, card="guardian-9"))),
        ("tag while duelling", lambda: ENGINE.apply(tag17_revealed, dc.Tag(seat=0, card="knight-7"))),
        ("tagged twice", lambda: ENGINE.apply(tag17_tagged, dc.Tag(seat=0, card="knight-7"))),
        ("no Tag cards", lambda: ENGINE.apply(no_tags, dc.Tag(seat=2, card=no_tags.hands[2][0]))),
        ("tag face up", lambda: ENGINE.apply(tag17_face_up, dc.Tag(seat=2, card="guardian-9"))),
        ("next round before reveal", lambda: ENGINE.apply(knight, NEXT)),
        ("next round between games", lambda: ENGINE.apply(picking, NEXT)),
        ("game over", lambda: ENGINE.apply(over, NEXT)),
    ]
    for where, make in cases:
        said.refusal(where, make)


@pytest.fixture(scope="module")
def said() -> Said:
    said = Said()
    over = said.game(new(), [ENGINE.parse_event(e) for e in scenario.EVENTS], "scenario")
    said.add("final summary", over.summary())
    for name, (a, b), edition, events in CONTESTS:
        said.game(duel(a, b, edition=edition), events, f"contest {name}")
    said.game(tag_table("2019"), TAG_2019, "tag 2019")
    said.game(tag_table("2017"), TAG_2017, "tag 2017")
    drafted = said.game(new(game=EIGHT_DECKS, draft=True), DRAFT, "draft")
    concede(said, drafted, 1, "draft game 1")
    match = said.game(new(match_length=3), [dc.PickDeck(seat=0, deck="knight"), dc.PickDeck(seat=1, deck="fencer")],
                      "match")
    match = concede(said, match, 0, "match game 1")
    match = said.game(match, [dc.PickDeck(seat=0, deck="fencer"), dc.PickDeck(seat=1, deck="knight")], "match picks")
    match = concede(said, match, 0, "match game 2")
    said.add("match summary", match.summary())
    options = ENGINE.options_model.model_fields
    for name, info in options.items():
        said.add(f"option {name} title", info.title)
        said.add(f"option {name} help", info.description)
    refusals(said)
    return said


def test_the_script_covers_every_kind_of_text(said):
    """The script reaches what the checks below are about (a check of nothing cannot fail)."""
    texts = dict(said.texts)
    kinds = {where.split(" ")[0] for where, _ in said.texts}
    assert {"scenario", "contest", "tag", "draft", "match", "option", "refusal", "final"} <= kinds
    lines = [where for where, _ in said.texts if " line " in where]
    assert len([w for w in lines if w.startswith("scenario ")]) == len(scenario.EVENTS)
    assert sum(where.startswith("refusal") for where, _ in said.texts) == 2 * 43
    types = {where.split(" move ")[1].split(" ")[0] for where, _ in said.texts if " move " in where}
    assert types == set(ENGINE.events)
    assert texts["match summary"] == "Ann wins the match 2–0 in games"
    assert texts["final summary"] == "Ann wins: 24 to 6 points"
    notes = [str(t) for w, t in said.texts if " contest note " in w]
    assert any("forces a loss for" in n for n in notes) and any("wins against ties" in n for n in notes)
    assert any("nullified" in str(t) for w, t in said.texts if " line " in w)


def test_everything_said_is_translated_words(said):
    """Every text is Words translated in the German catalogue, names from the data excepted."""
    wrong = [p for where, text in said.texts for p in problems(text, where, said.names)]
    assert wrong == []


def test_everything_said_fills_in_german(said):
    """Each text fills in German (placeholders fit) and, where its words differ, reads differently."""
    for where, text in said.texts:
        if not isinstance(text, Words):
            continue
        in_german = german(text)
        assert "%(" not in in_german, where
        if GERMAN_PO.get(text.template, text.template) != text.template:
            assert in_german != text, (where, text)


def test_history_lines_and_refusals_read_german(said):
    """Spot checks: lines, a refusal and a form read as a German player expects."""
    texts = dict(said.texts)
    assert german(texts["scenario line 0 (pick_deck)"]) == "Ann hat The Knight genommen"
    assert german(texts["scenario line 2 (reveal)"]) == (
        "Runde 1: Ann deckte Knight 5 auf, Bob deckte Fencer 5 auf – "
        "Gleichstand (Ann 5, Bob 5): Karten in den Gleichstandsstapel")
    assert german(texts["refusal whose pick message"]) == "die nächste Wahl (1) trifft Ann, nicht Bob"
    assert german(texts["refusal whose pick rule"]) == (
        "Spielregel 2019, Anhang I: Draft-Modus: Person 1 bannt zuerst; gewählt wird in der Reihenfolge 1-2-2-1-1-2")
    assert german(texts["scenario start move pick_deck"]) == "Bob nimmt ein Deck"
    assert german(texts["scenario start move pick_deck field deck"]) == "Charakterdeck"
    assert german(texts["scenario after 1 move reveal field cards item 0"]) == "Ann deckte auf"
    assert german(texts["final summary"]) == "Ann gewinnt: 24 zu 6 Punkte"
    assert german(texts["match summary"]) == "Ann gewinnt das Match 2–0 nach Spielen"
