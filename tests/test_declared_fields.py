"""A game of one's own, as data: card fields declared in game.yaml (card_data.declared.declared_game).

Its cards load against the declaration with the same FILE:LINE messages as a bundled game's;
a wrong declaration is a problem at game.yaml:LINE naming the field; no Python of the game
runs.
"""

from __future__ import annotations

import pickle
import shutil
import subprocess
import sys
from pathlib import Path

from card_data.loader import bundled_data_dir, check_database

PRINTKIT = Path(sys.executable).with_name("printkit")

GAME_YAML = """\
title: Pub Quiz
card_size: {name: poker}
backs:
  question: Question deck
  bonus: Bonus deck
title_field: question
fields:
  question:   {type: text, required: true, label: Question}
  answer:     {type: text, required: true, label: Answer, players_see: false}
  category:   {type: one_of, options: [History, Science, Sport], label: Category}
  difficulty: {type: integer, min: 1, max: 5, default: 1, label: Difficulty}
  picture:    {type: art}
card_types:
  question: {label: Question, back: question}
  bonus:
    label: Bonus
    back: bonus
    fields:
      points: {type: integer, min: 1, max: 10, required: true, label: Points}
"""

CARDS_YAML = """\
- id: wall
  type: question
  question: When did the Berlin wall fall?
  answer: 1989
  category: History
  qty: 2
- id: gases
  type: bonus
  question: Name three noble gases.
  answer: Helium, neon, argon
  points: 3
- id: moon
  type: question
  question: Who walked on the moon first?
  answer: Neil Armstrong
  qty: 0
"""


def write_game(root: Path, game_yaml: str = GAME_YAML, cards_yaml: str = CARDS_YAML,
               game_id: str = "pub_quiz") -> Path:
    folder = root / game_id
    (folder / "cards").mkdir(parents=True)
    (folder / "game.yaml").write_text(game_yaml, encoding="utf-8")
    (folder / "cards" / "questions.yaml").write_text(cards_yaml, encoding="utf-8")
    return folder


def problem_texts(root: Path) -> list[str]:
    return [str(p) for p in check_database(root)[1]]


def test_declared_game_loads_its_cards_with_their_types_backs_and_labels(tmp_path):
    write_game(tmp_path)
    db, problems = check_database(tmp_path)
    assert problems == []
    game = db.games["pub_quiz"]
    assert game.info.title == "Pub Quiz"
    wall, gases, moon = (game.cards[i] for i in ("wall", "gases", "moon"))
    # title_field: the question is the title; a number in a text field is its text
    assert (wall.title, wall.answer, wall.qty, wall.difficulty) == ("When did the Berlin wall fall?", "1989", 2, 1)
    assert (gases.points, gases.category, gases.qty, moon.qty) == (3, None, 1, 0)
    assert [c.back_kind() for c in (wall, gases)] == ["question", "bonus"]
    fields = type(gases).model_fields
    assert fields["answer"].title == "Answer" and fields["answer"].json_schema_extra["players_see"] is False
    assert fields["picture"].title == "Picture"  # default label: the name in words
    assert "points" not in type(wall).model_fields
    # worker processes get the spec pickled: it is made again from the declaration
    again = pickle.loads(pickle.dumps(game.spec))
    assert again.card_adapter().validate_python(wall.model_dump()).answer == "1989"


def test_declared_game_without_card_types_has_type_card_and_the_first_back(tmp_path):
    write_game(tmp_path, "title: Tiny\nbacks: {plain: Plain}\nfields:\n  text: {type: rich_text}\n",
               "- id: one\n  title: One\n  text: Hello\n", game_id="tiny")
    db, problems = check_database(tmp_path)
    assert problems == []
    card = db.games["tiny"].cards["one"]
    assert (card.type, card.back_kind(), card.qty) == ("card", "plain", 1)


def test_card_data_problems_name_file_line_and_field(tmp_path):
    folder = write_game(tmp_path, cards_yaml="""\
- id: wall
  type: question
  question: When did the Berlin wall fall?
  answer: 1989
  difficulty: hard
- id: gases
  type: bonus
  question: Name three noble gases.
  answer: Helium
  points: 11
- id: moon
  type: question
  question: Who walked on the moon first?
  answer: Neil Armstrong
  colour: grey
- id: sun
  type: bonus
  question: How hot is the sun?
  answer: Hot
- id: mars
  type: question
  question: Which planet is red?
  answer: Mars
  category: Geography
- id: venus
  type: planet
  question: Venus?
  answer: Yes
- id: pluto
  type: question
  question: Is Pluto a planet?
  answer: Not any more
  picture: art/pluto.png
- id: comet
  type: question
  question: What is a comet?
  answer: Ice
  qty: 100
- id: earth
  type: question
  question: Is the earth round?
  answer: Yes
""")
    cards = folder / "cards" / "questions.yaml"
    texts = problem_texts(tmp_path)
    expected = [
        f"{cards}:5: pub_quiz/wall: difficulty: 'hard' is not a whole number",  # wrong type
        f"{cards}:10: pub_quiz/gases: points: Input should be less than or equal to 10",  # out of bounds
        f"{cards}:15: pub_quiz/moon: colour: unknown field",
        f"{cards}:16: pub_quiz/sun: points: required field is missing",
        f"{cards}:24: pub_quiz/mars: category: Input should be 'History', 'Science' or 'Sport'",
        f"{cards}:26: pub_quiz/venus: type: 'planet' is not one of 'question'",
        f"{cards}:33: pub_quiz/pluto: picture: artwork file not found: art/pluto.png",
        f"{cards}:38: pub_quiz/comet: qty: Input should be less than or equal to 99",
        f"{cards}:42: pub_quiz/earth: answer: this is yes/no in YAML",
    ]
    for want in expected:
        assert any(t.startswith(want) for t in texts), (want, "\n".join(texts))
    assert len(texts) == len(expected), texts
    # the art file, once there, is found
    (folder / "art").mkdir()
    (folder / "art" / "pluto.png").write_bytes(b"\x89PNG")
    assert not any("pluto" in t for t in problem_texts(tmp_path))


def test_art_field_stays_inside_the_game_folder(tmp_path):
    folder = write_game(tmp_path, cards_yaml="- id: x\n  type: question\n  question: Q\n  answer: A\n"
                                             "  picture: ../../etc/passwd\n")
    texts = problem_texts(tmp_path)
    assert len(texts) == 1
    assert texts[0].startswith(f"{folder / 'cards' / 'questions.yaml'}:5: pub_quiz/x: picture: "), texts


def test_declaration_problems_are_at_game_yaml_line_naming_the_field(tmp_path):
    folder = write_game(tmp_path, game_yaml="""\
title: Bad
backs: {front: Front}
title_field: score
fields:
  score: {type: integer, min: 5, max: 1}
  colour: {type: one_of}
  tags: {type: list}
  name: {type: text, min: 3}
  size: {type: integer, default: 1000001}
  type: {type: text}
  Bad-Name: {type: text}
  game: {type: text}
card_types:
  hero: {back: spine}
deck_rules:
  main: {card_types: {only: [villain]}}
""", cards_yaml="")
    info = folder / "game.yaml"
    texts = problem_texts(tmp_path)
    # what the models judge: every wrong field at once
    for line, fld in [(5, "fields.score"), (6, "fields.colour"), (7, "fields.tags"), (8, "fields.name")]:
        assert any(t.startswith(f"{info}:{line}: pub_quiz/-: {fld}: ") for t in texts), (line, texts)
    # the rest once each field is well-formed
    fixed = info.read_text(encoding="utf-8").replace("min: 5, max: 1", "min: 1, max: 5")
    fixed = fixed.replace("{type: one_of}", "{type: one_of, options: [red]}")
    fixed = fixed.replace("{type: list}", "{type: list, of: text}")
    info.write_text(fixed.replace("{type: text, min: 3}", "{type: text}"), encoding="utf-8")
    texts = problem_texts(tmp_path)
    for line, fld, words in [(3, "title_field", "is an integer field"), (10, "fields.type", "every card has already"),
                             (11, "fields.Bad-Name", "lower-case"), (12, "fields.game", "in a card template"),
                             (14, "card_types.hero.back", "not one of backs"),
                             (16, "deck_rules.main.card_types.only.0", "'villain' is not a card type")]:
        assert any(t.startswith(f"{info}:{line}: pub_quiz/-: {fld}: ") and words in t for t in texts), (line, texts)
    info.write_text(fixed.replace("{type: text, min: 3}", "{type: text}").replace("  type: {type: text}\n", "")
                    .replace("  Bad-Name: {type: text}\n", "").replace("  game: {type: text}\n", "")
                    .replace("spine", "front").replace("villain", "hero")
                    .replace("title_field: score\n", "title_field: name\n"), encoding="utf-8")
    texts = problem_texts(tmp_path)
    assert texts == [f"{info}:9: pub_quiz/-: fields.size.default: the default does not fit the field: "
                     f"Input should be less than or equal to 1000000"], texts


def test_unknown_folder_without_fields_is_told_how_to_declare_them(tmp_path):
    (tmp_path / "chess").mkdir()
    (tmp_path / "chess" / "game.yaml").write_text("title: Chess\nbacks: {plain: Plain}\n", encoding="utf-8")
    texts = problem_texts(tmp_path)
    assert len(texts) == 1
    assert texts[0].startswith(f"{tmp_path / 'chess' / 'game.yaml'}:1: chess/-: game: unknown game 'chess'")
    assert "declare its cards' fields in its game.yaml (fields:" in texts[0]


def test_validate_command_reports_declared_game_problems(tmp_path):
    folder = write_game(tmp_path, cards_yaml="- id: x\n  type: bonus\n  question: Q\n  answer: A\n  points: zero\n")
    result = subprocess.run([str(PRINTKIT), "validate", "--data", str(tmp_path)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1, result
    assert f"{folder / 'cards' / 'questions.yaml'}:5: pub_quiz/x: points: " in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_deck_rules_of_a_back_check_its_cards_by_qty_without_deck_lists(tmp_path):
    rules = "deck_rules:\n  question:\n    size: {min: 4}\n    copies: {max: 1}\n    card_types: {only: [question]}\n"
    folder = write_game(tmp_path, GAME_YAML + rules)
    info, cards = folder / "game.yaml", folder / "cards" / "questions.yaml"
    texts = problem_texts(tmp_path)
    # the question back's cards: wall 2 copies, moon 0 (not printed, not counted): 2 cards
    assert texts == [
        f"{cards}:1: pub_quiz/wall: qty: a question deck holds at most 1 copy of a card: "
        f"'When did the Berlin wall fall?' appears 2 times (the cards with back 'question', each qty times, "
        f"as no deck list is of kind 'question')",
        f"{info}:21: pub_quiz/-: deck_rules.question: a question deck holds at least 4 cards (this one has 2) "
        f"(the cards with back 'question', each qty times, as no deck list is of kind 'question')"], texts
    # with a deck list of that kind, the deck list is what the rules judge
    (folder / "decks").mkdir()
    (folder / "decks" / "starter.yaml").write_text(
        "id: starter\ntitle: Starter\nkind: question\ncards:\n  - {card: wall}\n  - {card: moon}\n"
        "  - {card: gases}\n", encoding="utf-8")
    texts = problem_texts(tmp_path)
    deck = folder / "decks" / "starter.yaml"
    assert [t.split(": ")[0] for t in texts] == [f"{deck}:4", f"{deck}:7"], texts
    assert "at least 4 cards (this one has 3)" in texts[0] and "holds only question cards" in texts[1]


def _templates(root: Path) -> Path:
    """Front and back templates of the Pub Quiz game: each card prints its title and type, each
    back the back's title."""
    folder = root / "pub_quiz"
    folder.mkdir(parents=True)
    region = ("  - name: {name}\n    kind: text\n    x_mm: 5\n    y_mm: {y}\n    w_mm: 53.5\n    h_mm: 20\n"
              "    text: \"{text}\"\n    size_pt: 10\n    min_size_pt: 5\n")
    for card_type in ("question", "bonus"):
        (folder / f"{card_type}.yaml").write_text(
            "regions:\n" + region.format(name="title", y=6, text="{{ title }}")
            + region.format(name="kind", y=40, text=f"{card_type.upper()} CARD"), encoding="utf-8")
        (folder / f"back-{card_type}.yaml").write_text(
            "regions:\n" + region.format(name="title", y=30, text="BACK OF {{ title }}"), encoding="utf-8")
    return root


def _build(data: Path, templates: Path, out: Path, jobs: int) -> subprocess.CompletedProcess:
    return subprocess.run([str(PRINTKIT), "build", "--data", str(data), "--templates", str(templates),
                           "--out", str(out), "--paper", "a4", "--duplex", "long", "--cards-only", "--jobs", str(jobs),
                           "--base-url", "http://10.1.2.3:5000"], capture_output=True, text=True, timeout=300)


def test_build_prints_each_card_qty_times_one_file_per_back(tmp_path):
    import pdfplumber
    from test_playable_kit import card_texts

    data = tmp_path / "data"
    write_game(data, cards_yaml=CARDS_YAML.replace("qty: 2", "qty: 11") + "- id: nova\n  type: bonus\n"
               "  question: What is a nova?\n  answer: A star flaring\n  points: 1\n  qty: 2\n")
    out = tmp_path / "out"
    templates = _templates(tmp_path / "t")
    result = _build(data, templates, out, jobs=1)
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(p.name for p in (out / "pub_quiz").glob("*.pdf")) == ["bonus-cards.pdf", "question-cards.pdf"]
    printed: dict[str, list[list[str]]] = {}
    for name in ("question", "bonus"):
        with pdfplumber.open(out / "pub_quiz" / f"{name}-cards.pdf") as doc:
            printed[name] = [[" ".join(t.split()) for t in card_texts(page) if t.strip()] for page in doc.pages]
    # 11 question cards (wall x11, moon x0): 9 a sheet, so 2 sheets of fronts, each followed by its backs
    question = printed["question"]
    assert [len(page) for page in question] == [9, 9, 2, 2]
    assert sorted(question[0] + question[2]) == ["When did the Berlin wall fall? QUESTION CARD"] * 11
    assert set(question[1] + question[3]) == {"BACK OF Question deck"}
    # gases x1 and nova x2 on the bonus back, on one sheet
    bonus = printed["bonus"]
    assert [len(page) for page in bonus] == [3, 3]
    assert sorted(bonus[0]) == ["Name three noble gases. BONUS CARD"] + ["What is a nova? BONUS CARD"] * 2
    assert bonus[1] == ["BACK OF Bonus deck"] * 3
    # the same input builds the same bytes again (a fresh output folder: nothing carried over)
    again = tmp_path / "again"
    assert _build(data, templates, again, jobs=2).returncode == 0
    for name in ("question", "bonus"):
        assert (again / "pub_quiz" / f"{name}-cards.pdf").read_bytes() == \
            (out / "pub_quiz" / f"{name}-cards.pdf").read_bytes()
    # built again into the same folder, nothing changed: nothing is drawn (its digest holds)
    rerun = _build(data, templates, out, jobs=1)
    assert rerun.returncode == 0 and "Nothing changed" in rerun.stdout + rerun.stderr, rerun


def test_declared_game_code_digest_is_printkit_and_shared_code_only():
    from printkit.code_sources import printing_sources, relative_name

    names = {relative_name(p) for p in printing_sources("pub_quiz")}
    assert "card_data/declared/declared_game.py" in names and "card_data/declared/field_declarations.py" in names
    assert not any(name.startswith("card_data/games/") and name != "card_data/games/__init__.py" for name in names)


def test_rulings_page_shows_declared_labels_and_only_what_players_see(tmp_path):
    from companion import create_app

    write_game(tmp_path, GAME_YAML.replace("label: Points", "label: Points won"))
    app = create_app({"TESTING": True, "CARD_DATA_DIR": str(tmp_path),
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    response = app.test_client().get("/r/pub_quiz/gases")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "<h1>Name three noble gases.</h1>" in page
    assert "Points won" in page and "Difficulty" in page
    assert "Helium" not in page and "Answer" not in page  # players_see: false
    assert "qty" not in page.lower().replace("quantity", "")


def test_every_field_type_and_its_bounds(tmp_path):
    game_yaml = """\
title: Types
backs: {plain: Plain}
fields:
  note_text: {type: text, max_length: 5}
  rules: {type: rich_text}
  weight: {type: number, min: 0, max: 2.5}
  secret: {type: yes_no, default: false}
  tags: {type: list, of: one_of, options: [a, b], max_items: 2}
  scores: {type: list, of: integer, max: 9}
  symbol: {type: icon}
"""
    folder = write_game(tmp_path, game_yaml, """\
- id: good
  title: Good
  note_text: short
  rules: Gain 1.
  weight: 2
  tags: [a, b]
  scores: [1, 9]
  symbol: star
- id: bad
  title: Bad
  note_text: too long
  weight: 3
  secret: maybe
  tags: [a, b, a]
  scores: [10]
  symbol: moon
""", game_id="types")
    (folder / "icons").mkdir()
    (folder / "icons" / "star.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")
    db, problems = check_database(tmp_path)
    cards = folder / "cards" / "questions.yaml"
    texts = [str(p) for p in problems]
    for want in [f"{cards}:11: types/bad: note_text: String should have at most 5 characters",
                 f"{cards}:12: types/bad: weight: Input should be less than or equal to 2.5",
                 f"{cards}:13: types/bad: secret: 'maybe' is not yes or no (true or false)",
                 f"{cards}:14: types/bad: tags: List should have at most 2 items",
                 f"{cards}:15: types/bad: scores.0: Input should be less than or equal to 9"]:
        assert any(t.startswith(want) for t in texts), (want, "\n".join(texts))
    assert len(texts) == 5, texts
    # the bad card fixed but for its icon: told like missing art
    cards.write_text(cards.read_text(encoding="utf-8").split("- id: bad")[0]
                     + "- id: bad\n  title: Bad\n  symbol: moon\n", encoding="utf-8")
    db, problems = check_database(tmp_path)
    assert [str(p) for p in problems] == [f"{cards}:11: types/bad: symbol: icon not found: icons/moon.svg"]
    good = check_database(tmp_path)[0].games["types"].cards["good"]
    assert (good.weight, good.secret, good.tags, good.scores, good.symbol) == (2.0, False, ["a", "b"], [1, 9], "star")


def test_a_declaration_too_big_to_make_is_refused_at_its_line(tmp_path):
    fields = "".join(f"  f{i}: {{type: text}}\n" for i in range(21))
    types = "".join(f"  t{i}: {{}}\n" for i in range(100))
    folder = write_game(tmp_path, f"title: Big\nbacks: {{plain: Plain}}\nfields:\n{fields}card_types:\n{types}",
                        cards_yaml="", game_id="big")
    texts = problem_texts(tmp_path)
    assert len(texts) == 1, texts
    assert texts[0].startswith(f"{folder / 'game.yaml'}:25: big/-: card_types: 21 fields of every card times 100 "
                               f"card types, with their own, make 2100 fields"), texts


def test_watch_rebuilds_only_the_declared_game_whose_file_changed(tmp_path):
    from printkit.designer.loop.project import ProjectPaths, game_of

    folder = write_game(tmp_path / "data")
    paths = ProjectPaths(tmp_path / "data", tmp_path / "templates", tmp_path / "out")
    assert game_of(folder / "cards" / "questions.yaml", paths) == "pub_quiz"
    assert game_of(tmp_path / "templates" / "pub_quiz" / "question.yaml", paths) == "pub_quiz"
    assert game_of(tmp_path / "templates" / "elsewhere" / "x.yaml", paths) is None


def test_reference_cards_of_a_declared_game_print_from_its_data(tmp_path):
    import pdfplumber

    data = tmp_path / "data"
    folder = write_game(data)
    (folder / "reference.yaml").write_text(
        "- id: how-to-play\n  title: How to play\n  template: reference-rules\n  sections:\n"
        "    - heading: Asking\n      text: \"Read out {{ cards | length }} questions, e.g. {{ cards['wall'].title }}\"\n"
        "      section: House rules\n", encoding="utf-8")
    templates = _templates(tmp_path / "t")
    (templates / "pub_quiz" / "reference-rules.yaml").write_text(
        "regions:\n  - name: title\n    kind: text\n    x_mm: 4\n    y_mm: 4\n    w_mm: 55\n    h_mm: 8\n"
        "    text: \"{{ title }}\"\n    size_pt: 10\n    min_size_pt: 6\n"
        "  - name: body\n    kind: text\n    x_mm: 4\n    y_mm: 16\n    w_mm: 55\n    h_mm: 60\n"
        "    text: \"{% for s in sections %}{{ s.heading }}: {{ s.text }}{% endfor %}\"\n"
        "    size_pt: 8\n    min_size_pt: 6\n", encoding="utf-8")
    out = tmp_path / "out"
    result = subprocess.run([str(PRINTKIT), "build", "--data", str(data), "--templates", str(templates),
                             "--out", str(out), "--paper", "a4", "--base-url", "http://10.1.2.3:5000", "--jobs", "1"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    with pdfplumber.open(out / "pub_quiz" / "reference-cards.pdf") as doc:
        text = " ".join((doc.pages[0].extract_text() or "").split())
    assert "How to play" in text and "Asking: Read out 3 questions, e.g. When did the Berlin wall fall?" in text, text


def test_a_value_of_the_wrong_shape_is_said_as_what_yaml_read_and_how_to_write_it(tmp_path):
    """YAML reads ``1984`` as a number, ``yes`` as yes-or-no and ``Opening`` as one value: the
    problem says what it was read as and how to write what the field takes."""
    game_yaml = """\
title: Shapes
backs: {plain: Plain}
fields:
  motto: {type: text}
  traits: {type: list, of: text}
"""
    folder = write_game(tmp_path, game_yaml, """\
- id: year
  title: 1984
  motto: yes
  traits: Opening
- id: blank
  title:
  traits: {first: Opening}
""", game_id="shapes")
    cards = folder / "cards" / "questions.yaml"
    texts = sorted(str(p) for p in check_database(tmp_path)[1])
    assert texts == sorted([
        f"{cards}:2: shapes/year: title: should be text, but it was read as a number (1984): put it in quotes "
        "to print it as typed",
        f"{cards}:3: shapes/year: motto: this is yes/no in YAML (yes, no, true, false, on, off); for text, put "
        "it in quotes",
        f"{cards}:4: shapes/year: traits: should be a list, but it was read as one value, text ('Opening'): "
        "write it as a list, e.g. [a, b]",
        f"{cards}:6: shapes/blank: title: is empty: write its text after the colon",
        f"{cards}:7: shapes/blank: traits: should be a list, e.g. [a, b], but it was read as 'name: value' entries"])
    cards.write_text('- id: year\n  title: "1984"\n  motto: "yes"\n  traits: [Opening]\n', encoding="utf-8")
    card = check_database(tmp_path)[0].games["shapes"].cards["year"]
    assert (card.title, card.motto, card.traits) == ("1984", "yes", ["Opening"])


def test_a_misspelt_field_says_the_field_it_likely_meant(tmp_path):
    """A typo of a declared field, and of a field every card has, names the field meant; a
    name like no field is just unknown. A registered game's cards are told the same."""
    folder = write_game(tmp_path, "title: Typos\nbacks: {plain: Plain}\nfields:\n  weight: {type: number}\n", """\
- id: heavy
  title: Heavy
  wieght: 3
  exampel: true
  colour: red
""", game_id="typos")
    cards = folder / "cards" / "questions.yaml"
    assert sorted(str(p) for p in check_database(tmp_path)[1]) == [
        f"{cards}:3: typos/heavy: wieght: unknown field (did you mean 'weight'?)",
        f"{cards}:4: typos/heavy: exampel: unknown field (did you mean 'example'?)",
        f"{cards}:5: typos/heavy: colour: unknown field"]
    brute = tmp_path / "cartisora" / "cards" / "brute.yaml"
    shutil.copytree(bundled_data_dir() / "cartisora", tmp_path / "cartisora")
    text = brute.read_text(encoding="utf-8")
    brute.write_text(text.replace("  power:", "  pwoer:", 1), encoding="utf-8")
    line = text[:text.index("  power:")].count("\n") + 1
    found = [str(p) for p in check_database(tmp_path)[1] if p.game == "cartisora"]
    assert any(p.startswith(f"{brute}:{line}: cartisora/") and p.endswith("pwoer: unknown field (did you mean 'power'?)")
               for p in found), found
