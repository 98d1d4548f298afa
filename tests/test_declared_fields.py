"""A game of one's own, as data: card fields declared in game.yaml (card_data.declared_game).

Its cards load against the declaration with the same FILE:LINE messages as a bundled game's;
a wrong declaration is a problem at game.yaml:LINE naming the field; no Python of the game
runs.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

from card_data.loader import check_database

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
        f"{cards}:5: pub_quiz/wall: difficulty: Input should be a valid integer",  # wrong type
        f"{cards}:10: pub_quiz/gases: points: Input should be less than or equal to 10",  # out of bounds
        f"{cards}:15: pub_quiz/moon: colour: unknown field",
        f"{cards}:16: pub_quiz/sun: points: required field is missing",
        f"{cards}:24: pub_quiz/mars: category: Input should be 'History', 'Science' or 'Sport'",
        f"{cards}:26: pub_quiz/venus: type: Input tag 'planet' found using 'type' does not match",
        f"{cards}:33: pub_quiz/pluto: picture: artwork file not found: art/pluto.png",
        f"{cards}:38: pub_quiz/comet: qty: Input should be less than or equal to 99",
        f"{cards}:42: pub_quiz/earth: answer: Value error, this is yes/no in YAML",
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
    fixed = fixed.replace("{type: one_of}", "{type: one_of, options: [red]}").replace("{type: list}", "{type: list, of: text}")
    info.write_text(fixed.replace("{type: text, min: 3}", "{type: text}"), encoding="utf-8")
    texts = problem_texts(tmp_path)
    for line, fld, words in [(3, "title_field", "is a integer field"), (10, "fields.type", "every card has already"),
                             (11, "fields.Bad-Name", "lower-case"), (13, "card_types.hero.back", "not one of backs"),
                             (15, "deck_rules.main.card_types.only.0", "'villain' is not a card type")]:
        assert any(t.startswith(f"{info}:{line}: pub_quiz/-: {fld}: ") and words in t for t in texts), (line, texts)
    info.write_text(fixed.replace("{type: text, min: 3}", "{type: text}").replace("  type: {type: text}\n", "")
                    .replace("  Bad-Name: {type: text}\n", "").replace("spine", "front").replace("villain", "hero")
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
