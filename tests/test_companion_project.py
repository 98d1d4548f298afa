"""The companion serves a designer's project: ``companion run`` inside a project folder (or with
``--project DIR``) and ``companion site`` of a project show that project's games and nothing of
another game, for a declared game (fields, card types and backs in ``game.yaml``, no Python):
its fields by their labels, only those players see, its cards found by search and by their
printed QR codes (``/Q/<CODE>`` and ``/r/<game>/<card>``). A declared game without ``scoring:``
keeps no score, so it is not offered for a table (with it: tests/test_declared_scoring.py).
"""

from __future__ import annotations

import gc
import re
from pathlib import Path

import pytest
import waitress
import yaml
from click.testing import CliRunner

from card_data.games import registry
from card_data.editions.short_codes import card_code
from companion import create_app
from companion.cli import main as companion_cli

GAME = "pub_quiz"
BASE_URL = "http://192.168.1.20:5000"

GAME_YAML = """\
title: Pub Quiz Night
card_size: {name: poker}
backs:
  question: Question deck
  bonus: Bonus deck
title_field: question
fields:
  question: {type: text, required: true, label: Question}
  answer: {type: text, required: true, label: Secret solution, players_see: false}
  category: {type: one_of, options: [History, Science, Sport], label: Quiz round}
  difficulty: {type: integer, min: 1, max: 5, default: 1, label: Brain strain}
  hint: {type: text, label: Where to look}
card_types:
  question: {label: Plain question, back: question}
  bonus:
    label: Bonus round
    back: bonus
    fields:
      points: {type: integer, min: 1, max: 10, required: true, label: Points won}
"""

CARDS_YAML = """\
- id: pompeii
  type: question
  question: Which mountain buried Pompeii?
  answer: Vesuvius
  category: History
  difficulty: 2
  hint: Look across the bay of Naples
- id: boiling-point
  type: question
  question: At what temperature does water boil at sea level?
  answer: One hundred degrees Celsius
  category: Science
- id: marathon
  type: bonus
  question: How long is a marathon?
  answer: Forty-two kilometres
  category: Sport
  difficulty: 4
  points: 3
"""

CARD = "pompeii"
HIDDEN_ANSWER = "Vesuvius"


def make_project(root: Path) -> Path:
    """A project folder as a designer has it: ``printkit.toml`` (with a base URL) and one
    declared game in ``card_data/pub_quiz/``. Returns ``root``."""
    game = root / "card_data" / GAME
    (game / "cards").mkdir(parents=True)
    (root / "printkit.toml").write_text(f'[printkit]\ndata = "card_data"\nbase_url = "{BASE_URL}"\n')
    (game / "game.yaml").write_text(GAME_YAML)
    (game / "cards" / "questions.yaml").write_text(CARDS_YAML)
    return root


def other_games_words() -> list[str]:
    """What would betray another game on a page: each registered game's id and title."""
    return [word for entry in registry().values() for word in (entry.game_id, entry.title)]


def assert_nothing_of_another_game(text: str) -> None:
    found = [word for word in other_games_words() if word in text]
    assert not found, f"another game's words on the page: {found}"


@pytest.fixture
def project(tmp_path) -> Path:
    return make_project(tmp_path / "quiz")


@pytest.fixture
def env(tmp_path, monkeypatch):
    """The commands' environment: a scratch scorekeeper database, a fixed secret key, no base
    URL from outside."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'companion.sqlite'}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "project-test-secret")
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)


@pytest.fixture
def served(env, monkeypatch):
    """``served(*args, cwd=None)``: run ``companion run ARGS`` (in ``cwd``) with waitress
    replaced by a catch; returns ``(result, app)``, the app ``None`` if none was served."""
    def run(*args: str, cwd: Path | None = None):
        apps = []
        monkeypatch.setattr(waitress, "serve", lambda app, **kw: apps.append(app))
        if cwd is not None:
            monkeypatch.chdir(cwd)
        result = CliRunner().invoke(companion_cli, ["run", *args])
        return result, (apps[0] if apps else None)
    return run


@pytest.fixture
def client(project, env):
    app = create_app({"TESTING": True, "PROJECT_DIR": str(project)})
    return app.test_client()


# -- which card data is served --------------------------------------------------------------------


def test_the_server_starts_with_what_starting_made_out_of_the_collectors_view(env, monkeypatch):
    """``companion run`` hands waitress an app whose card database (and all else starting made)
    is frozen out of the cyclic collector's view (gc.freeze): a full collection under load then
    walks only what serving made, instead of pausing every thread ~140 ms every few seconds."""
    seen = []

    def serve(app, **options):
        walked = {id(o) for o in gc.get_objects()}
        cards = [card for game in app.extensions["companion.database"].games.values()
                 for card in game.cards.values()]
        seen.append((gc.get_freeze_count(), sum(id(card) in walked for card in cards), len(cards)))
        # Serving, the collector still finds a cycle on its own, after fewer, larger looks.
        looks = []
        gc.callbacks.append(looked := lambda phase, info: looks.append(info) if phase == "stop" else None)
        try:
            garbage = _cycle()
            kept = [[n] for n in range(3 * 10_000)]
            seen.append((len(looks), garbage() is None))
            del kept
        finally:
            gc.callbacks.remove(looked)

    monkeypatch.setattr(waitress, "serve", serve)
    result = CliRunner().invoke(companion_cli, ["run"])  # (conftest's collector_unfrozen thaws it after)
    assert result.exit_code == 0, result.output
    (frozen, cards_walked, cards), (looks, collected) = seen
    assert cards > 100 and cards_walked == 0 and frozen > 50_000
    assert collected and 1 <= looks <= 4  # Python's default looks every 700 allocations: 42 times


class _Node:
    other: object = None


def _cycle():
    """A reference cycle no one holds, watched through a weak reference."""
    import weakref

    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_run_inside_a_project_folder_serves_its_games_with_its_base_url(project, served):
    (project / "cards-notes").mkdir()
    result, app = served(cwd=project / "cards-notes")  # anywhere below printkit.toml
    assert result.exit_code == 0, result.output
    assert Path(app.config["CARD_DATA_DIR"]) == project / "card_data"
    assert f"Serving the games of {project / 'card_data'} (project {project}): Pub Quiz Night." in result.output
    page = app.test_client().get(f"/r/{GAME}/{CARD}").text
    assert f'<link rel="canonical" href="{BASE_URL}/r/{GAME}/{CARD}">' in page


def test_run_with_project_serves_that_project_from_anywhere(project, served, tmp_path):
    result, app = served("--project", str(project), cwd=tmp_path)
    assert result.exit_code == 0, result.output
    index = app.test_client().get("/")
    assert index.status_code == 200
    assert "Pub Quiz Night" in index.text
    assert_nothing_of_another_game(index.text)


def test_data_wins_over_the_project(project, served, tmp_path):
    other = make_project(tmp_path / "other")
    (other / "card_data" / GAME / "game.yaml").write_text(GAME_YAML.replace("Pub Quiz Night", "Quiz Two"))
    result, app = served("--data", str(other / "card_data"), cwd=project)
    assert result.exit_code == 0, result.output
    index = app.test_client().get("/").text
    assert "Quiz Two" in index and "Pub Quiz Night" not in index


def test_project_that_is_no_project_is_refused_naming_it(served, tmp_path):
    (tmp_path / "empty").mkdir()
    result, app = served("--project", str(tmp_path / "empty"), cwd=tmp_path)
    assert result.exit_code == 2 and app is None
    assert f"--project {tmp_path / 'empty'}: no printkit.toml" in result.output


def test_a_broken_printkit_toml_is_refused_naming_its_line(project, served):
    (project / "printkit.toml").write_text('[printkit]\ndata = "card_data"\nbase_urll = "x"\n')
    result, app = served(cwd=project)
    assert result.exit_code == 2 and app is None
    assert f"{project / 'printkit.toml'}:3: printkit.base_urll: unknown key" in result.output


def test_a_project_served_from_elsewhere_reads_within_its_own_limits(project, served, tmp_path):
    with (project / "printkit.toml").open("a") as config:
        config.write("[printkit.limits]\nfile_mb = 0.0001\n")  # 100 bytes: game.yaml is larger
    result, app = served("--project", str(project), cwd=tmp_path)
    assert result.exit_code == 1 and app is None
    assert f"{project / 'card_data' / GAME / 'game.yaml'}:1:" in result.output
    assert f"[printkit.limits] in {project / 'printkit.toml'}" in result.output


def test_outside_a_project_the_bundled_games_are_served(served, tmp_path):
    result, app = served(cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert "Serving the bundled games: " in result.output and "Carpe Diem" in result.output.splitlines()[0]
    assert set(registry()) <= set(app.extensions["companion.database"].games)


# -- a declared game's pages -----------------------------------------------------------------------


def test_index_lists_only_the_projects_game(client):
    page = client.get("/").text
    assert "Pub Quiz Night" in page and "3 cards" in page
    assert_nothing_of_another_game(page.replace(GAME, ""))  # its own id is in its links
    assert client.get("/r/cartisora/").status_code == 404


def test_card_page_shows_the_declared_labels_and_values_players_see(client):
    response = client.get(f"/r/{GAME}/{CARD}")
    assert response.status_code == 200
    page = response.text
    assert "Which mountain buried Pompeii?" in page
    for label, value in (("Quiz round", "History"), ("Brain strain", "2"),
                         ("Where to look", "Look across the bay of Naples")):
        assert re.search(rf"<dt>{label}</dt>\s*<dd>\s*{re.escape(value)}", page), (label, value)
    assert HIDDEN_ANSWER not in page and "Secret solution" not in page
    assert_nothing_of_another_game(page.replace(GAME, ""))


def test_card_types_show_by_their_labels_with_their_own_fields(client):
    bonus = client.get(f"/r/{GAME}/marathon").text
    assert '<span class="card-type">Bonus round</span>' in bonus
    assert re.search(r"<dt>Points won</dt>\s*<dd>\s*3", bonus)
    question = client.get(f"/r/{GAME}/{CARD}").text
    assert '<span class="card-type">Plain question</span>' in question and "Points won" not in question
    game = client.get(f"/r/{GAME}/").text
    assert re.findall(r"<h3>([^<]*) <small", game) == ["Plain question", "Bonus round"]


def test_search_finds_a_card_by_a_fields_text_and_never_by_what_players_do_not_see(client):
    found = client.get("/search", query_string={"q": "bay of naples"}).text
    assert f"/r/{GAME}/{CARD}" in found
    assert f"/r/{GAME}/{CARD}" not in client.get("/search", query_string={"q": HIDDEN_ANSWER}).text


def test_the_printed_qr_addresses_open_the_card(client):
    code = card_code(GAME, CARD, None)
    response = client.get(f"/Q/{code}")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/r/{GAME}/{CARD}")
    assert client.get(response.headers["Location"]).status_code == 200


def test_a_declared_game_is_not_offered_for_a_table(client):
    assert "/tables/new" not in client.get("/").text  # no "Keep score" where no game keeps score
    choose = client.get("/tables/new")
    assert choose.status_code == 200
    assert "Pub Quiz Night" not in choose.text
    assert_nothing_of_another_game(choose.text)
    assert client.get(f"/tables/new/{GAME}").status_code == 404
    refused = client.post("/api/tables", json={"game": GAME, "players": ["Ann", "Bo"]})
    assert refused.status_code == 400 and refused.get_json()["errors"] == [{"field": "game", "message": "unknown game"}]


def test_site_of_the_project_writes_its_games_pages_only(project, env, monkeypatch):
    monkeypatch.chdir(project)
    result = CliRunner().invoke(companion_cli, ["site"])
    assert result.exit_code == 0, result.output
    site = project / "output" / "site"
    assert f"host that folder at {BASE_URL}" in result.output
    card = (site / "r" / GAME / CARD / "index.html").read_text()
    assert "Which mountain buried Pompeii?" in card and "Brain strain" in card
    assert sorted(p.name for p in (site / "r").iterdir()) == [GAME]
    code = card_code(GAME, CARD, None)
    assert f"../../r/{GAME}/{CARD}/" in (site / "Q" / code / "index.html").read_text()
    written = [p for p in site.rglob("*") if p.is_file() and p.suffix in (".html", ".json")]
    assert not [p for p in written if HIDDEN_ANSWER in p.read_text()]
    assert not [p for p in written if any(w in p.read_text() for w in ("Duels of Cartisora", "Carpe Cras"))]


def test_site_with_project_from_elsewhere_writes_into_the_projects_output(project, env, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(companion_cli, ["site", "--project", str(project)])
    assert result.exit_code == 0, result.output
    assert (project / "output" / "site" / "r" / GAME / CARD / "index.html").is_file()
    assert not (tmp_path / "output").exists()


def test_an_old_copys_erratum_shows_what_players_see_by_its_labels(project, env):
    from card_data.loader import load_database
    from card_data.editions.printings import printed_fields

    card = load_database(project / "card_data").games[GAME].cards[CARD]
    old = {**printed_fields(card), "answer": "Mount Etna", "hint": "Look at Sicily"}
    (project / "card_data" / GAME / "printings.yaml").write_text(
        yaml.safe_dump({CARD: [{"version": 1, "date": "2026-11-20", "fields": old}]}, sort_keys=False))
    client = create_app({"TESTING": True, "PROJECT_DIR": str(project)}).test_client()
    page = client.get(f"/r/{GAME}/{CARD}/1").text
    assert 'class="erratum"' in page
    assert re.search(r"<strong>Where to look:</strong>.*Sicily.*Naples", page)
    for hidden in ("Mount Etna", HIDDEN_ANSWER, "Secret solution"):
        assert hidden not in page


def test_an_erratum_names_card_types_by_label_and_the_title_once_by_its_fields_label(project, env):
    from card_data.loader import load_database
    from card_data.editions.printings import printed_fields

    card = load_database(project / "card_data").games[GAME].cards[CARD]
    old = {**printed_fields(card), "type": "bonus", "title": "Which volcano buried Pompeii?",
           "question": "Which volcano buried Pompeii?", "points": 2}
    (project / "card_data" / GAME / "printings.yaml").write_text(
        yaml.safe_dump({CARD: [{"version": 1, "date": "2026-11-20", "fields": old}]}, sort_keys=False))
    client = create_app({"TESTING": True, "PROJECT_DIR": str(project)}).test_client()
    page = client.get(f"/r/{GAME}/{CARD}/1").text
    erratum = page[page.index('class="erratum"'):page.index('class="erratum-versions"')]
    assert re.search(r"<strong>Question:</strong>.*<del>volcano</del>.*<ins>mountain</ins>", erratum), erratum
    assert re.search(r"<strong>Type:</strong>.*Bonus round.*Plain question", erratum), erratum
    assert "Title" not in erratum
    versions = page[page.index('class="erratum-versions"'):]
    assert "<dt>Title</dt>" not in versions
    assert "<dd>Bonus round</dd>" in versions and "<dd>Plain question</dd>" in versions
    assert "<dd>bonus</dd>" not in versions and "<dd>question</dd>" not in versions


def test_the_declared_games_card_page_on_a_phone_has_no_axe_violation(project, env, browser):
    from phones import PHONE, serving
    from test_accessibility import AXE, axe_violations

    app = create_app({"TESTING": True, "PROJECT_DIR": str(project)})
    with serving(app) as server:
        context = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 800}})
        context.add_init_script(path=AXE)
        page = context.new_page()
        response = page.goto(f"{server}/Q/{card_code(GAME, CARD, None)}")
        assert response.status == 200 and page.url == f"{server}/r/{GAME}/{CARD}"
        assert page.locator("h1").inner_text() == "Which mountain buried Pompeii?"
        assert axe_violations(page) == []
        context.close()


def test_a_game_made_from_a_spreadsheet_has_a_site_with_no_trace_of_another_game(tmp_path, env, monkeypatch):
    """`printkit init --from-sheet`, then `companion site` inside the project: a page for every
    card and for every card's printed short code, and no page nor file name naming a word of
    printkit's bundled games."""
    from sheet_games import quiz_rows, write_csv
    from test_init_from_sheet import FOREIGN

    from printkit.cli import main as printkit_cli

    sheet = write_csv(tmp_path / "river_quiz.csv", quiz_rows())
    made = CliRunner().invoke(printkit_cli, ["init", str(tmp_path / "quiz"), "--from-sheet", str(sheet)])
    assert made.exit_code == 0, made.output
    monkeypatch.chdir(tmp_path / "quiz")
    result = CliRunner().invoke(companion_cli, ["site", "--base-url", BASE_URL])
    assert result.exit_code == 0, result.output
    site = tmp_path / "quiz" / "output" / "site"
    ids = [row[0] for row in quiz_rows()]
    assert sorted(p.name for p in (site / "r" / "river_quiz").iterdir() if p.is_dir()) == sorted([*ids, "rulings"])
    assert len(list((site / "Q").iterdir())) == len(ids)
    for card_id in ids:
        assert (site / "Q" / card_code("river_quiz", card_id, None) / "index.html").is_file()
    pages = [p for p in site.rglob("*") if p.is_file() and p.suffix in (".html", ".json")]
    assert not [p for p in site.rglob("*") if FOREIGN.search(str(p.relative_to(site)))]
    assert not [(p, FOREIGN.search(p.read_text()).group(0)) for p in pages if FOREIGN.search(p.read_text())]


def test_a_table_of_a_game_not_served_here_is_not_found_rather_than_a_crash(project, tmp_path):
    """A scorekeeper database shared with a companion that served the bundled games: their
    tables are not found on the project's companion (404), and its pages still work."""
    database = {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE_URL": f"sqlite:///{tmp_path / 'shared.sqlite'}"}
    bundled = create_app({**database, "CARD_DATA_DIR": None}).test_client()
    made = bundled.post("/api/tables", json={"game": "cartisora", "players": ["Ann", "Bo"]})
    assert made.status_code == 201
    code, token = made.get_json()["code"], made.get_json()["token"]
    ours = create_app({**database, "PROJECT_DIR": str(project)}).test_client()
    assert ours.get(f"/api/tables/{code}").status_code == 404
    assert ours.post(f"/api/tables/{code}/events", json={"type": "pass"}).status_code == 404
    assert ours.get("/tables/join", query_string={"code": code}).status_code == 404
    assert ours.get(f"/t/{token}").status_code == 404
    assert ours.get(f"/r/{GAME}/{CARD}").status_code == 200


def test_the_footer_claims_our_own_words_only_where_printkits_games_are_served(client):
    """The footer says the rulings are ours and cite the rulebook: true of printkit's games, not
    of a designer's game, whose rulings are the designer's."""
    claim = "Rulings and glossary in our own words"
    assert claim not in client.get("/").text
    assert claim not in client.get(f"/r/{GAME}/{CARD}").text
    bundled = create_app({"TESTING": True}).test_client()
    assert claim in bundled.get("/").text
