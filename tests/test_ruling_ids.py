"""Stable ruling ids (issue 19): translations find their rulings by id, not by place, so a
ruling inserted before a translated one leaves every translation on its own ruling; a written
id is checked (duplicates, bad characters) and a translation naming an unknown id is reported,
each with file and line; a ruling can be linked as ``#ruling-<id>``."""

from __future__ import annotations

import html as html_lib
import re

import yaml

from card_data.loader import check_database

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
NEW_RULING = {"text": "A ruling written after the translation: nobody has translated it yet.",
              "date": "2026-11-26", "source": "our-reading"}


def insert_ruling(data_copy, card_id: str, ruling: dict, at: int = 0) -> None:
    card = next(item for item in yaml.safe_load(data_copy.card_file("carpe_diem", card_id).read_text())
                if item["id"] == card_id)
    data_copy.edit_card("carpe_diem", card_id, rulings=card["rulings"][:at] + [ruling] + card["rulings"][at:])


def shown_rulings(page: str) -> list[tuple[str, str | None, str]]:
    """``(anchor id, German text or None, English text)`` of each ruling of a page, in order."""
    out = []
    for anchor, body in re.findall(r'<div id="(ruling-[^"]+)">\s*<article class="ruling"[^>]*>(.*?)</article>',
                                   page, re.DOTALL):
        german = re.search(r'<div class="translated" lang="de"><p>(.*?)</p>', body, re.DOTALL)
        english = re.search(r'<div lang="en"><p>(.*?)</p>', body, re.DOTALL) or re.search(r"<p>(.*?)</p>", body,
                                                                                         re.DOTALL)
        out.append((anchor, german and html_lib.unescape(german[1]), html_lib.unescape(english[1])))
    return out


def line_of(path, text: str, nth: int = 1) -> int:
    """1-based line of the ``nth`` line of ``path`` holding ``text``."""
    hits = [i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line]
    return hits[nth - 1]


def test_a_ruling_inserted_before_translated_ones_leaves_each_german_text_on_its_own_ruling(data_copy):
    before = shown_rulings(data_copy.app().test_client().get("/r/carpe_diem/a-two-grapes",
                                                              headers=GERMAN).get_data(as_text=True))
    assert len(before) == 5 and all(german for _, german, _ in before)
    insert_ruling(data_copy, "a-two-grapes", NEW_RULING, at=0)
    response = data_copy.app().test_client().get("/r/carpe_diem/a-two-grapes", headers=GERMAN)
    after = shown_rulings(response.get_data(as_text=True))
    assert response.status_code == 200 and len(after) == 6
    # The new ruling has no German: it shows in English alone, not with the first German text.
    assert after[0][1] is None and after[0][2] == NEW_RULING["text"]
    # Every translated ruling keeps its anchor and its own German text, one place further down.
    assert after[1:] == before
    assert after[1][1].startswith("Jede Münze, die du zahlst")
    assert after[1][2].startswith("Each coin you pay can stand in for any one ware")


def test_a_derived_id_stays_when_a_ruling_is_inserted_before_it(data_copy):
    db, problems = check_database(data_copy.root)
    assert problems == []
    old = db.games["carpe_diem"].ruling_ids
    old_game = db.games["cartisora"].ruling_ids
    insert_ruling(data_copy, "a-two-grapes", NEW_RULING, at=0)
    game_rulings = data_copy.root / "cartisora" / "rulings.yaml"
    shared = yaml.safe_load(game_rulings.read_text())
    first = shared[0]
    game_rulings.write_text(yaml.safe_dump([{**first, "text": "An earlier shared ruling."}] + shared,
                                           sort_keys=False, allow_unicode=True))
    db, problems = check_database(data_copy.root)
    assert problems == []
    new = db.games["carpe_diem"].ruling_ids
    assert [new[("a-two-grapes", i + 1)] for i in range(5)] == [old[("a-two-grapes", i)] for i in range(5)]
    assert new[("a-two-grapes", 0)] not in old.values()
    assert {k: v for k, v in new.items() if k[0] != "a-two-grapes"} == {
        k: v for k, v in old.items() if k[0] != "a-two-grapes"}
    new_game = db.games["cartisora"].ruling_ids
    count = len(shared)
    assert [new_game[(None, i + 1)] for i in range(count)] == [old_game[(None, i)] for i in range(count)]


def test_editing_a_rulings_text_reports_its_german_translation_as_stale_with_file_and_line(data_copy):
    db, _ = check_database(data_copy.root)
    old_id = db.games["carpe_diem"].ruling_ids[("a-two-grapes", 0)]
    card = next(item for item in yaml.safe_load(data_copy.card_file("carpe_diem", "a-two-grapes").read_text())
                if item["id"] == "a-two-grapes")
    edited = [{**card["rulings"][0], "text": "Each coin you pay stands in for one ware."}] + card["rulings"][1:]
    data_copy.edit_card("carpe_diem", "a-two-grapes", rulings=edited)
    _, problems = check_database(data_copy.root)
    de = data_copy.root / "carpe_diem" / "translations" / "de.yaml"
    said = [str(p) for p in problems]
    start = (f"{de}:{line_of(de, f'  {old_id}:')}: carpe_diem/{old_id}: rulings: unknown ruling id '{old_id}'")
    assert len(said) == 1 and said[0].startswith(start), said
    assert "probably stale" in said[0]


def test_a_written_id_names_the_ruling_for_translations_and_links(data_copy):
    scoring = data_copy.card_file("carpe_diem", "a-two-grapes")
    text = scoring.read_text(encoding="utf-8")
    assert text.count("- &red-coins\n") == 1
    scoring.write_text(text.replace("- &red-coins\n", "- &red-coins\n      id: red-coins\n"), encoding="utf-8")
    de = data_copy.root / "carpe_diem" / "translations" / "de.yaml"
    german = de.read_text(encoding="utf-8")
    # One entry for the ruling every red card shares: its written id.
    german = re.sub(r"  a-[a-z-]+-087edb7b: \*red-coins\n|  b-[a-z-]+-087edb7b: \*red-coins\n", "", german)
    german = german.replace("  a-two-herbs-087edb7b: &red-coins", "  red-coins: &red-coins")
    de.write_text(german, encoding="utf-8")
    db, problems = check_database(data_copy.root)
    assert problems == []
    ids = db.games["carpe_diem"].ruling_ids
    assert ids[("a-two-grapes", 0)] == ids[("b-grape-herb-fish", 0)] == "red-coins"
    page = data_copy.app().test_client().get("/r/carpe_diem/b-grape-herb-fish", headers=GERMAN)
    first = shown_rulings(page.get_data(as_text=True))[0]
    assert first[0] == "ruling-red-coins" and first[1].startswith("Jede Münze, die du zahlst")
    listed = data_copy.app().test_client().get("/r/carpe_diem/rulings").get_data(as_text=True)
    assert listed.count('id="ruling-red-coins"') == 1


def test_a_duplicate_or_malformed_ruling_id_is_a_problem_with_file_and_line(data_copy):
    insert_ruling(data_copy, "a-two-grapes", {**NEW_RULING, "id": "coins"})
    insert_ruling(data_copy, "a-two-herbs", {**NEW_RULING, "text": "Another ruling.", "id": "coins"})
    insert_ruling(data_copy, "b-grape-herb-fish", {**NEW_RULING, "text": "A third.", "id": "Bad id!"})
    path = data_copy.card_file("carpe_diem", "a-two-grapes")
    assert path == data_copy.card_file("carpe_diem", "a-two-herbs")
    herbs_first = path.read_text().index("id: a-two-herbs") < path.read_text().index("id: a-two-grapes")
    _, problems = check_database(data_copy.root)
    said = [str(p) for p in problems]
    later = "a-two-grapes" if herbs_first else "a-two-herbs"
    duplicate = f"{path}:{line_of(path, 'id: coins', 2)}: carpe_diem/{later}: rulings.0.id: duplicate ruling id 'coins'"
    malformed = f"{path}:{line_of(path, 'id: Bad id!')}: carpe_diem/b-grape-herb-fish: rulings.0.id:"
    assert any(s.startswith(duplicate) for s in said), said
    assert any(s.startswith(malformed) for s in said), said
    assert len(said) == 2, said


def test_a_translation_naming_an_unknown_ruling_id_is_a_problem_naming_the_translation_file(data_copy):
    de = data_copy.root / "carpe_diem" / "translations" / "de.yaml"
    de.write_text(de.read_text(encoding="utf-8").replace(
        "rulings:\n", "rulings:\n  no-such-ruling: Gibt es nicht.\n", 1), encoding="utf-8")
    _, problems = check_database(data_copy.root)
    said = [str(p) for p in problems]
    assert len(said) == 1 and said[0].startswith(
        f"{de}:{line_of(de, 'no-such-ruling:')}: carpe_diem/no-such-ruling: rulings: unknown ruling id "
        f"'no-such-ruling': no ruling of carpe_diem has it"), said
