"""A scorekeeper for a designer's game from data: the ``scoring:`` of a declared game's
``game.yaml`` (card_data/declared/scoring_declarations.py) run by the engine core
(card_data/engine/declared.py), and its table page in the companion.

The game is the designer issue's test game (tests/test_companion_project.py: Pub Quiz Night,
a declared game) with a ``scoring:`` added: first to 5 points, or after 3 rounds, or by hand;
the most points wins, tied players share the win.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from card_data.engine import RuleError
from card_data.engine.declared import declared_engine
from card_data.loader import check_database
from card_data.problems import InvalidInput
from card_data.declared.scoring_declarations import ScoringDeclaration
from companion import create_app
from test_companion_project import CARDS_YAML, GAME, GAME_YAML

SCORING = """\
scoring:
  players: {min: 2, max: 4, colours: [purple, orange]}
  counters:
    points: {label: Points, start: 0, min: 0, max: 20, steps: [1, 2]}
    jokers: {label: Jokers, start: 1, min: 0, max: 1}
  rounds: round
  end:
    reaches: {counter: points, value: 5}
    after_rounds: 3
  winner: {counter: points, wins: highest}
"""


def quiz_engine(**end):
    data = {"counters": {"points": {"label": "Points", "max": 20, "steps": [1, 2]},
                         "jokers": {"start": 1, "max": 1}},
            "rounds": "round", "end": {"reaches": {"counter": "points", "value": 5}, "after_rounds": 3, **end}}
    return declared_engine("pub_quiz", "Pub Quiz Night", ScoringDeclaration.model_validate(data))


def play(engine, state, *events):
    lines = []
    for event in events:
        step = engine.step(state, event)
        state = step.state
        lines.append(step.line)
    return state, lines


def point(seat: int, by: int, counter: str = "points") -> dict:
    return {"type": "adjust_counter", "seat": seat, "counter": counter, "by": by}


# -- the engine, pure Python ----------------------------------------------------------------------


def test_first_to_five_points_wins_the_quiz():
    engine = quiz_engine()
    state = engine.new_state(["Ann", "Bo", "Cy"], {}, None)
    assert engine.outcome(state).summary == "Round 1"
    state, lines = play(engine, state, point(0, 2), point(1, 1), {"type": "next_round"}, point(0, 2),
                        point(1, 2), point(2, -1, "jokers"), point(0, 1))
    assert lines[0] == "Ann: Points +2, now 2"
    assert lines[2] == "Round 2 begins"
    assert lines[5] == "Cy: Jokers −1, now 0"
    assert lines[-1] == "Ann: Points +1, now 5: the game is over"
    result = engine.outcome(state)
    assert result.finished and result.winners == (0,) and result.scores == (5.0, 3.0, 0.0)
    assert result.summary == "Ann wins with 5 Points" and result.score_label == "Points"
    assert state.rounds_played() == 2
    with pytest.raises(RuleError):  # nothing is entered once the game is over
        engine.step(state, point(1, 1))
    assert engine.allowed(state) == []


def test_after_the_last_round_the_most_points_win_and_a_tie_is_shared():
    engine = quiz_engine()
    state = engine.new_state(["Ann", "Bo", "Cy"], {}, None)
    state, lines = play(engine, state, point(0, 3), point(1, 2), {"type": "next_round"}, point(1, 1),
                        {"type": "next_round"}, point(2, 1), {"type": "next_round"})
    assert lines[-1] == "Round 3 is over: the game is over"
    result = engine.outcome(state)
    assert result.finished and result.winners == (0, 1)
    assert result.summary == "Ann, Bo share the win with 3 Points"
    assert state.rounds_played() == 3


def test_the_table_may_end_the_game_by_hand_and_the_lowest_may_win():
    data = {"counters": {"penalties": {"max": 50}}, "winner": {"wins": "lowest"}}
    engine = declared_engine("golf", "Card Golf", ScoringDeclaration.model_validate(data))
    assert list(engine.events) == ["adjust_counter", "end_game"]  # no rounds declared: no round button
    state = engine.new_state(["Ann", "Bo"], {}, None)
    state, lines = play(engine, state, point(0, 4, "penalties"), point(1, 7, "penalties"), {"type": "end_game"})
    assert lines[-1] == "The game was ended by hand"
    assert engine.outcome(state).winners == (0,)
    assert not state.highest_wins  # what play logs (BG Stats' highestWins) are told


def test_turns_pass_clockwise_and_a_counter_falling_to_its_end_value_ends_the_game():
    data = {"counters": {"lives": {"start": 3, "max": 3}}, "rounds": "turn",
            "end": {"reaches": {"counter": "lives", "value": 0}, "after_rounds": 2, "by_hand": False}}
    engine = declared_engine("duel", "Duel", ScoringDeclaration.model_validate(data))
    assert list(engine.events) == ["adjust_counter", "next_turn"]
    state = engine.new_state(["Ann", "Bo"], {}, None)
    assert state.summary() == "Round 1: Ann's turn"
    state, lines = play(engine, state, {"type": "next_turn"}, {"type": "next_turn"})
    assert lines == ["Bo's turn", "Round 2 begins: Ann's turn"]
    state, lines = play(engine, state, point(1, -2, "lives"), point(1, -1, "lives"))
    assert lines[-1] == "Bo: Lives −1, now 0: the game is over"
    assert engine.outcome(state).winners == (0,) and engine.outcome(state).summary == "Ann wins with 3 Lives"
    state = engine.new_state(["Ann", "Bo"], {}, None)
    state, lines = play(engine, state, *[{"type": "next_turn"}] * 4)
    assert lines[-1] == "Round 2 is over: the game is over" and engine.outcome(state).winners == (0, 1)


def test_every_entry_is_checked_against_the_declared_bounds():
    engine = quiz_engine()
    state = engine.new_state(["Ann", "Bo"], {}, None)
    with pytest.raises(RuleError) as below:  # points go from 0 to 20
        engine.step(state, point(0, -1))
    assert below.value.message == "Ann's Points would be -1"
    assert "game.yaml" in below.value.rule
    with pytest.raises(InvalidInput) as beyond:  # no step is more than the counter's whole range
        engine.step(state, point(0, 21))
    assert beyond.value.problems[0].field == "by"
    with pytest.raises(InvalidInput):
        engine.step(state, point(0, 1, "lives"))  # not a counter of the game
    with pytest.raises(RuleError):
        engine.step(state, point(5, 1))  # not a seat of this table
    with pytest.raises(RuleError):
        engine.new_state(["Ann"], {}, None)  # two to four players (the default)


def test_the_counters_buttons_are_fixed_moves_offered_only_within_the_bounds():
    engine = quiz_engine()
    state = engine.new_state(["Ann", "Bo"], {}, None)
    counters = state.counters()
    assert [(c.label, c.seat, c.step) for c in counters if c.seat == 0] == [
        ("Ann's Points, by 1", 0, 1), ("Ann's Points, by 2", 0, 2), ("Ann's Jokers", 0, 1)]
    first = counters[0]
    assert first.minus is None and first.plus.fixed == {"seat": 0, "counter": "points", "by": 1}
    jokers = counters[2]
    assert jokers.plus is None and jokers.minus.fixed == {"seat": 0, "counter": "jokers", "by": -1}
    assert [m.label for m in engine.allowed(state)] == ["Ann: change a counter", "Bo: change a counter",
                                                       "Next round", "End the game"]


# -- declaration problems at game.yaml:LINE -----------------------------------------------------------


def make_project(root: Path, scoring: str = SCORING) -> Path:
    """A designer's project with the test game, its game.yaml ending in ``scoring``."""
    game = root / "card_data" / GAME
    (game / "cards").mkdir(parents=True)
    (root / "printkit.toml").write_text('[printkit]\ndata = "card_data"\n')
    (game / "game.yaml").write_text(GAME_YAML + scoring)
    (game / "cards" / "questions.yaml").write_text(CARDS_YAML)
    return root


def scoring_line(text: str) -> int:
    """The line of ``game.yaml`` holding ``text`` (within the scoring part)."""
    lines = (GAME_YAML + SCORING).splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line and i > GAME_YAML.count("\n"))


@pytest.mark.parametrize("wrong, right, field, words", [
    ("{label: Points, start: 0, min: 0, max: 20, steps: [1, 2]}",
     "{label: Points, start: 0, min: 30, max: 20, steps: [1, 2]}", "scoring.counters.points", "min 30 is more than max 20"),
    ("{counter: points, value: 5}", "{counter: score, value: 5}", "scoring.end.reaches.counter",
     "'score' is not one of counters"),
    ("{counter: points, value: 5}", "{counter: points, value: 50}", "scoring.end.reaches.value", "never reach 50"),
    ("after_rounds: 3", "after_rounds: 3000", "scoring.end.after_rounds", "1000"),
    ("{min: 2, max: 4, colours: [purple, orange]}", "{min: 2, max: 4, colours: [purple, mauve]}",
     "scoring.players.colours.1", None),
    ("{counter: points, wins: highest}", "{counter: points, wins: most}", "scoring.winner.wins", None),
    ("rounds: round", "rounds: innings", "scoring.rounds", None),
])
def test_a_wrong_scoring_declaration_is_a_problem_at_its_line_naming_the_field(tmp_path, wrong, right, field, words):
    line = scoring_line(wrong)
    root = make_project(tmp_path, SCORING.replace(wrong, right))
    db, problems = check_database(root / "card_data")
    assert GAME not in db.games
    found = [p for p in problems if p.field == field]
    assert found, [str(p) for p in problems]
    assert str(found[0]).startswith(f"{root / 'card_data' / GAME / 'game.yaml'}:{line}: ")
    assert words is None or words in found[0].message


def test_after_rounds_without_rounds_is_a_problem_at_its_line(tmp_path):
    root = make_project(tmp_path, SCORING.replace("  rounds: round\n", ""))
    _, problems = check_database(root / "card_data")
    (problem,) = [p for p in problems if p.field == "scoring.end.after_rounds"]
    assert problem.line == scoring_line("after_rounds") - 1 and "needs rounds" in problem.message


# -- the table page, through the Flask test client ----------------------------------------------------------


@pytest.fixture
def client(tmp_path, monkeypatch):
    """A fresh companion (and scorekeeper database) serving the test game's project."""
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    project = make_project(tmp_path / "quiz")
    app = create_app({"TESTING": True, "PROJECT_DIR": str(project), "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    yield app.test_client()
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def forms(html: str) -> dict[str, dict]:
    """Every event form of the page by its button's text: its hidden values and inputs."""
    out = {}
    for form in BeautifulSoup(html, "html.parser").select("form"):
        if not (form.get("action") or "").endswith("/events"):
            continue
        button = form.find("button")
        name = (button.get("aria-label") or button.get_text(" ", strip=True)) if button else ""
        values = {i["name"]: i.get("value", "") for i in form.select("input[name]") if i.get("type") == "hidden"}
        inputs = [i["name"] for i in form.select("input[name], select[name]") if i.get("type") != "hidden"]
        out[f"{name} #{len(out)}"] = {"values": values, "inputs": inputs, "action": form["action"]}
    return out


def tap(client, html: str, label: str, **typed) -> tuple:
    """Submit the page's form whose button reads ``label`` (its hidden values and ``typed``)."""
    matching = [f for key, f in forms(html).items() if key.rsplit(" #", 1)[0] == label]
    assert matching, (label, [k for k in forms(html)])
    form = matching[0]
    return client.post(form["action"], data={**form["values"], **typed}), form


def test_a_declared_game_with_scoring_is_played_to_its_end_through_its_page(client):
    choose = client.get("/tables/new").text
    assert "Pub Quiz Night" in choose
    new = client.get(f"/tables/new/{GAME}")
    assert new.status_code == 200
    made = client.post(f"/tables/new/{GAME}", data={"players[]": ["Ann", "Bo", ""]})
    assert made.status_code == 303, made.text[:2000]
    url = made.headers["Location"]
    html = client.get(url).text
    status = BeautifulSoup(html, "html.parser").select_one("#declared-game")
    board = BeautifulSoup(html, "html.parser").select_one("#scoreboard")
    assert status is not None and "Scoreboard" in board.text and "Jokers" in board.text
    assert 'class="player c-purple">Ann' in html and 'class="player c-orange">Bo' in html  # the declared colours
    assert "The game ends when a player's Points reaches 5." in html

    # Ann +2 (a counter button), Bo +1, next round, Ann types +3: first to 5.
    answer, _ = tap(client, html, "Ann: Points +2")
    assert answer.status_code == 303
    html = client.get(url).text
    assert "Ann: Points +2, now 2" in html
    answer, _ = tap(client, html, "Bo: Points +1")
    answer, _ = tap(client, client.get(url).text, "Next round")
    html = client.get(url).text
    assert "Round 2" in html

    # Out of the bounds the declaration gives: 400, nothing stored.
    refused, form = tap(client, html, "Ann: change a counter", counter="points", by="999")
    assert refused.status_code == 303  # without JavaScript: back to the page, the refusal on it
    page = client.get(url).text
    assert "less than or equal to 20" in page and "999" not in BeautifulSoup(page, "html.parser").select_one("#history").text
    assert form["inputs"] == ["counter", "by"]  # the form the engine offers: which counter, by how much
    typed = {**form["values"], "counter": "points"}
    htmx = client.post(form["action"], data={**typed, "by": "999"}, headers={"HX-Request": "true"})
    assert htmx.status_code == 400
    code = re.search(r'class="table-code">([A-Z0-9]{6})<', page).group(1)
    api = client.post(f"/api/tables/{code}/events", json={"type": "adjust_counter", "seat": 0,
                                                           "counter": "points", "by": 999})
    assert api.status_code == 400
    beyond = client.post(form["action"], data={**typed, "by": "-5"}, headers={"HX-Request": "true"})
    assert beyond.status_code == 422 and "Ann&#39;s Points would be -3" in beyond.text

    # Undo takes back the last entry.
    answer, _ = tap(client, page, "Bo: Points +2")
    html = client.get(url).text
    assert "Bo: Points +2, now 3" in html
    undo = BeautifulSoup(html, "html.parser").select_one("#undo-form")
    data = {i["name"]: i.get("value", "") for i in undo.select("input[name]")}
    assert client.post(undo["action"], data=data).status_code == 303
    html = client.get(url).text
    assert BeautifulSoup(html, "html.parser").select_one('li.history-undone').text.count("Bo: Points +2") == 1

    answer, _ = tap(client, html, "Ann: change a counter", counter="points", by="3")
    assert answer.status_code == 303
    final = client.get(url).text
    assert "Game over" in final and "Ann wins with 5 Points" in final
    board = BeautifulSoup(final, "html.parser").select_one("#scoreboard")
    assert [row.th.text.strip() for row in board.select("tbody tr")] == ["Ann ★", "Bo"]
    csv = client.get(f"/api/tables/{code}/export.csv")
    assert csv.status_code == 200 and "Ann" in csv.text

    # Over: the counters still show their numbers, with no − or + to tap; a page drawn before
    # the end that taps one is told the game is over, and offered nothing to send again.
    counters = BeautifulSoup(final, "html.parser").select_one("#counters")
    assert counters is not None and "Points" in counters.text and counters.select("form") == []
    late = client.post(form["action"], data={**typed, "by": "1"}, headers={"HX-Request": "true"})
    error = BeautifulSoup(late.text, "html.parser").select_one("#rule-error")
    assert late.status_code == 409 and error.select_one("#retry-form") is None
    assert "the game is over – Ann wins with 5 Points – nothing more is entered" in error.text


def test_a_declared_game_page_is_in_german(client):
    made = client.post(f"/tables/new/{GAME}", data={"players[]": ["Ann", "Bo"]})
    html = client.get(made.headers["Location"], headers={"Accept-Language": "de"}).text
    soup = BeautifulSoup(html, "html.parser")
    part = soup.select_one("#declared-game").text + soup.select_one("#scoreboard").text
    assert "Punktestand" in part and "Runde 1" in part and "Das Spiel endet nach Runde 3." in part
    for english in ("Scoreboard", "The game ends", "wins", "Round", "Player"):
        assert english not in part
    tap(client, html, "Ann: Points +2")
    html = client.get(made.headers["Location"], headers={"Accept-Language": "de"}).text
    assert "Ann: Points +2, jetzt 2" in html  # the history line; "Points" is the designer's own word
    moves = BeautifulSoup(html, "html.parser").select_one("#live").text
    assert "Nächste Runde" in moves and "Spiel beenden" in moves and "Ann: Zähler ändern" in moves


def test_an_entry_is_corrected_through_its_own_form_and_the_page_stays_live(client):
    made = client.post(f"/tables/new/{GAME}", data={"players[]": ["Ann", "Bo"]})
    url = made.headers["Location"]
    tap(client, client.get(url).text, "Ann: Points +2")
    tap(client, client.get(url).text, "Bo: Points +1")
    html = client.get(url).text
    version = BeautifulSoup(html, "html.parser").select_one("#live")["data-version"]
    assert client.get(f"{url}/live?v={version}").status_code == 204  # nothing changed since
    link = BeautifulSoup(html, "html.parser").select("a.correct-link")[-1]["href"]  # the oldest entry: Ann +2
    form = next(f for f in BeautifulSoup(client.get(link).text, "html.parser").select("form")
                if "Save correction" in f.text)
    data = {i["name"]: i.get("value", "") for i in form.select("input[name]") if i.get("type") == "hidden"}
    selected = {s["name"]: s.select_one("option[selected]")["value"] for s in form.select("select[name]")}
    assert selected == {"seat": "0", "counter": "points"}
    assert form.select_one('input[name="by"]')["value"] == "2"
    assert form.select_one('input[name="by"]')["max"] == "20"  # the declared bound, on the form
    assert client.post(link, data={**data, **selected, "by": "4"}).status_code == 303
    html = client.get(url).text
    assert "Ann: Points +4, now 4" in html and "(corrected)" in html
    assert client.get(f"{url}/live?v={version}").status_code == 200
    # A correction out of the declared bounds is refused, changing nothing.
    link = BeautifulSoup(html, "html.parser").select("a.correct-link")[-1]["href"]  # the correction itself
    refused = client.post(link, data={**data, **selected, "by": "25"})
    assert refused.status_code == 303 and "Not saved:" in client.get(refused.headers["Location"]).text
    assert "Ann: Points +4, now 4" in client.get(url).text


def test_a_declared_game_is_played_to_its_end_on_a_phone(tmp_path, monkeypatch, browser):
    """Chromium at 390 x 844: a table started from the page and played with the counters'
    buttons (htmx on) to the end; axe finds nothing on the finished page."""
    from phones import PHONE, serving
    from test_accessibility import AXE, axe_violations

    project = make_project(tmp_path / "quiz")
    app = create_app({"TESTING": True, "PROJECT_DIR": str(project),
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    with serving(app) as server:
        context = browser.new_context(**PHONE)
        context.add_init_script(path=AXE)
        page = context.new_page()
        page.goto(f"{server}/tables/new/{GAME}")
        names = page.locator('input[name="players[]"]')
        names.nth(0).fill("Ann")
        names.nth(1).fill("Bo")
        page.get_by_role("button", name="Start the table").click()
        page.wait_for_url(f"{server}/t/*")
        assert page.locator("#scoreboard").is_visible()
        for expected in (2, 4):
            page.get_by_role("button", name="Ann: Points +2").click()
            page.locator("#scoreboard tbody tr").first.get_by_text(str(expected)).wait_for()
        page.get_by_role("button", name="Ann: Points +1").click()
        page.locator("#result").wait_for()
        assert "Ann wins with 5 Points" in page.locator("#result").inner_text()
        assert axe_violations(page) == []
        context.close()


def test_a_game_yaml_from_a_sheet_ends_with_a_scoring_example_that_works_uncommented(tmp_path):
    from click.testing import CliRunner

    from printkit.cli import main

    sheet = tmp_path / "quiz.csv"
    sheet.write_text("id,question,answer\nq-1,Which river?,Nile\nq-2,Which sea?,Baltic\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["init", str(tmp_path / "p"), "--from-sheet", str(sheet)])
    assert result.exit_code == 0, result.output
    game_yaml = tmp_path / "p" / "card_data" / "quiz" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    db, problems = check_database(tmp_path / "p" / "card_data")
    assert problems == [] and db.games["quiz"].info.scoring is None  # commented out: no table
    example = text[text.index("# scoring:"):]
    game_yaml.write_text(text.replace(example, re.sub(r"(?m)^# ?", "", example)), encoding="utf-8")
    db, problems = check_database(tmp_path / "p" / "card_data")
    assert problems == []
    scoring = db.games["quiz"].info.scoring
    assert scoring.end.reaches.value == 10 and scoring.counters["points"].steps == [1, 5]


def test_a_table_outlives_an_edit_of_its_games_scoring(tmp_path):
    """The designer edits game.yaml after tables were played: an entry the new declaration no
    longer reads is reported on the table (undo or correct it); a table the declaration no
    longer seats is not found, never an error page."""
    project = make_project(tmp_path / "quiz")
    config = {"TESTING": True, "PROJECT_DIR": str(project), "WTF_CSRF_ENABLED": False,
              "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"}
    apps = [create_app(config)]
    client = apps[0].test_client()
    tables = [client.post("/api/tables", json={"game": GAME, "players": players}).get_json()
              for players in (["Ann", "Bo"], ["Ann", "Bo", "Cy"])]
    for table in tables:
        client.post(f"/api/tables/{table['code']}/events",
                    json={"type": "adjust_counter", "seat": 0, "counter": "jokers", "by": -1})
    game_yaml = project / "card_data" / GAME / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("{min: 2, max: 4,", "{min: 2, max: 2,")
                         .replace("jokers: {label: Jokers, start: 1, min: 0, max: 1}", "lives: {start: 3, max: 3}"))
    apps.append(create_app(config))
    client = apps[1].test_client()
    two, three = tables
    page = client.get(f"/t/{two['token']}")
    assert page.status_code == 200 and "could not be applied" in page.text
    assert client.get(f"/t/{three['token']}").status_code == 404
    assert client.get(f"/api/tables/{three['code']}").status_code == 404
    for app in apps:
        app.extensions["companion.scorekeeping.tables"].store.dispose()


GERMAN_WORDS = """\
# The quiz's own words in German: its labels, which no catalogue of the companion knows.
words:
  Points: Punkte
  Brain strain: Kopfzerbrechen
  Bonus round: Bonusrunde
  Points won: Gewonnene Punkte
"""


def test_a_declared_game_shows_its_labels_in_the_words_its_translation_gives(tmp_path, monkeypatch):
    """A designer's ``translations/de.yaml`` ``words:`` put the game's own labels into German: a
    card page's field labels and card type, the table's counter, move and history line; what it
    leaves out (the Jokers counter) stays as written, and an English page is unchanged."""
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    project = make_project(tmp_path / "quiz")
    (project / "card_data" / GAME / "translations").mkdir()
    (project / "card_data" / GAME / "translations" / "de.yaml").write_text(GERMAN_WORDS, encoding="utf-8")
    app = create_app({"TESTING": True, "PROJECT_DIR": str(project), "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    client, de = app.test_client(), {"Accept-Language": "de"}
    try:
        def labels(path: str, headers=None) -> list[str]:
            soup = BeautifulSoup(client.get(path, headers=headers or {}).text, "html.parser")
            return [dt.get_text(" ", strip=True) for dt in soup.select("dl dt")] + [
                soup.select_one(".card-type").get_text(strip=True)]

        german, english = labels(f"/r/{GAME}/marathon", de), labels(f"/r/{GAME}/marathon")
        assert {"Kopfzerbrechen", "Gewonnene Punkte", "Bonusrunde"} <= set(german), german
        assert not {"Brain strain", "Points won", "Bonus round"} & set(german)
        assert {"Brain strain", "Points won", "Bonus round"} <= set(english), english

        made = client.post(f"/tables/new/{GAME}", data={"players[]": ["Ann", "Bo"]})
        url = made.headers["Location"]
        html = client.get(url, headers=de).text
        board = BeautifulSoup(html, "html.parser").select_one("#scoreboard").get_text(" ", strip=True)
        assert "Punkte" in board and "Jokers" in board and "Points" not in board
        tap(client, html, "Ann: Punkte +2")
        history = BeautifulSoup(client.get(url, headers=de).text, "html.parser").select_one("ol.history").get_text()
        assert "Ann: Punkte +2, jetzt 2" in history
        assert "Ann: Points +2, now 2" in client.get(url).text
    finally:
        app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_declared_colours_then_the_rest_each_once_are_the_set_up_forms_defaults(tmp_path, monkeypatch):
    """A game.yaml naming its first seats' colours: the other seats get the companion's other
    colours, none twice, so a table set up with the defaults starts (a designer met red, blue,
    green, blue, red, refused as repeated)."""
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    project = make_project(tmp_path / "quiz", SCORING.replace("{min: 2, max: 4, colours: [purple, orange]}",
                                                             "{min: 2, max: 5, colours: [red, blue, green]}"))
    app = create_app({"TESTING": True, "PROJECT_DIR": str(project), "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    client = app.test_client()
    form = BeautifulSoup(client.get(f"/tables/new/{GAME}").text, "html.parser")
    defaults = [select.select_one("option[selected]")["value"] for select in form.select('select[name="colours[]"]')]
    assert defaults[:3] == ["red", "blue", "green"] and len(defaults) == 5
    assert len(set(defaults)) == 5, defaults
    made = client.post(f"/tables/new/{GAME}", data={"players[]": ["Ann", "Bo", "Cy", "Di", ""],
                                                    "colours[]": defaults})
    assert made.status_code == 303, made.text[:500]
    html = client.get(made.headers["Location"]).text
    assert f'class="player c-{defaults[3]}">Di' in html
    app.extensions["companion.scorekeeping.tables"].store.dispose()
