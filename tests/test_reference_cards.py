"""Reference cards (printkit.components.reference), measured from the PDF they render to: every card lays
out, its text stays in the safe area at no less than the template's minimum size, and the
text read back out of the PDF is what the card database says."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pytest
import yaml
from pdf_measure import mm

from card_data.games.carpe_cras.tempo import DIE_FACES as TEMPO_DIE_FACES
from card_data.games.carpe_cras.tempo import tempo_succeeds, tempo_table
from card_data.loader import load_database
from card_data.problems import DatabaseError
from printkit.components.reference import (
    REFERENCE_BACK_KIND,
    reference_cards,
    reference_faces,
)
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.templating.layout import LAYOUTS_DIR, LayoutError
from printkit.sheets.render import PageDrawer, new_canvas

BLEED_MM = 3.0
SAFE_MM = 3.0
DB = load_database()
GAMES = list(DB.games)


def render_pdf(game) -> bytes:
    """Each reference card on a page of its own: trim + bleed, trim at (bleed, bleed)."""
    size = game.info.card_size
    page_w_mm, page_h_mm = size.width_mm + 2 * BLEED_MM, size.height_mm + 2 * BLEED_MM
    buf = io.BytesIO()
    canvas = new_canvas(buf, page_w_mm, page_h_mm, f"{game.info.title} reference")
    drawer = PageDrawer(canvas, page_h_mm)
    for _card, face in reference_faces(game):
        drawer.face(face, Rect(BLEED_MM, BLEED_MM, size.width_mm, size.height_mm), Rect(0, 0, page_w_mm, page_h_mm))
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def page_texts(game) -> dict[str, str]:
    """Reference card id -> the text pdfplumber reads from its page."""
    cards = reference_cards(game)
    with pdfplumber.open(io.BytesIO(render_pdf(game))) as doc:
        assert len(doc.pages) == len(cards)
        return {card.id: page.extract_text() for card, page in zip(cards, doc.pages)}


def flat(text: str) -> str:
    """Text without whitespace, so line breaks chosen by the layout do not matter."""
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def texts() -> dict[str, dict[str, str]]:
    return {g: page_texts(DB.games[g]) for g in GAMES}


def glossary_entry(game, entry_id: str):
    return next(e for e in game.glossary if e.id == entry_id)


def all_text(texts, game_id: str) -> str:
    return flat(" ".join(texts[game_id].values()))


# ---- layout ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_reference_cards_that_lay_out(game_id):
    game = DB.games[game_id]
    pairs = reference_faces(game)
    assert pairs, game_id
    ids = [card.id for card, _ in pairs]
    assert len(ids) == len(set(ids))
    for card, face in pairs:
        assert card.template.startswith("reference-")
        assert card.back_kind == REFERENCE_BACK_KIND  # never a deck's back
        assert card.context["sections"], card.id
        assert face.items


@pytest.mark.parametrize("game_id", GAMES)
def test_text_sits_in_the_safe_area_at_legible_sizes(game_id):
    game = DB.games[game_id]
    size = game.info.card_size
    safe = (BLEED_MM + SAFE_MM, BLEED_MM + SAFE_MM,
            BLEED_MM + size.width_mm - SAFE_MM, BLEED_MM + size.height_mm - SAFE_MM)
    with pdfplumber.open(io.BytesIO(render_pdf(game))) as doc:
        for page in doc.pages:
            assert page.chars
            for ch in page.chars:
                assert safe[0] - 0.3 <= mm(ch["x0"]) and mm(ch["x1"]) <= safe[2] + 0.3, ch["text"]
                assert safe[1] - 0.3 <= mm(ch["top"]) and mm(ch["bottom"]) <= safe[3] + 0.3, ch["text"]
                # No reference text is printed smaller than 6 pt.
                assert ch["size"] >= 6 - 0.01, (page.page_number, ch["text"], ch["size"])


def test_long_content_continues_on_numbered_cards(texts):
    keywords = [c for c in reference_cards(DB.games["carpe_cras"]) if c.id.startswith("keywords-")]
    assert len(keywords) > 3
    assert [c.context["page"] for c in keywords] == list(range(1, len(keywords) + 1))
    assert {c.context["pages"] for c in keywords} == {len(keywords)}
    for c in keywords:
        assert f"{c.context['page']}/{len(keywords)}" in texts["carpe_cras"][c.id]


def test_same_input_gives_identical_pdf():
    game = DB.games["cahrd"]
    assert render_pdf(game) == render_pdf(game)


# ---- content from the database -------------------------------------------------------------

def test_duels_reference_cards_do_not_repeat_the_decks_own_reference_cards(texts):
    """Each character deck holds its own reference card (2019 rulebook, Setup), printed with
    the deck; the game's reference cards do not print it a second time."""
    game = DB.games["cartisora"]
    decks = [d for d in game.decks.values() if d.kind == "character"]
    assert len(decks) == 6
    text = all_text(texts, "cartisora")
    for deck in decks:
        assert [e.card for e in deck.cards if game.cards[e.card].type == "reference"] == [f"{deck.id}-reference"]
        assert flat(deck.title) not in text, deck.id


def test_duels_contests_card_holds_the_results_and_bonus_points(texts):
    game = DB.games["cartisora"]
    glossary = {e.id: e for e in game.glossary}
    text = flat(" ".join(t for cid, t in texts["cartisora"].items() if cid.startswith("contests")))
    for entry_id in ("overpower", "undercut", "tie", "negative-power-2019", "tie-on-last-round"):
        assert flat(glossary[entry_id].text) in text, entry_id
    for token in (c for c in game.cards.values() if c.type == "token"):
        assert flat(f"{token.title} · {token.bonus_points} points") in text
        assert flat(token.awarded_for) in text
    assert flat(f"{game.info.default_edition} rules (the default edition)") in text


def test_tempo_table_is_the_rulebooks_roll_at_most_the_differential__tempo():
    """Tempo: a roll no higher than the differential succeeds; 0 or less never, 6 or more always."""
    rows = tempo_table()
    assert [r["differential"] for r in rows] == ["≤ 0", "1", "2", "3", "4", "5", "≥ 6"]
    for row in rows[1:-1]:
        d = int(row["differential"])
        wins = sum(tempo_succeeds(d, roll) for roll in range(1, TEMPO_DIE_FACES + 1))
        assert row["successes"] == wins == d
        assert row["chance"] == f"{d}/6"
    assert not tempo_succeeds(0) and not tempo_succeeds(-3)
    assert rows[0]["successes"] == 0
    assert tempo_succeeds(6) and tempo_succeeds(9)
    assert rows[-1]["successes"] == 6


def test_tempo_card_prints_every_row(texts):
    text = flat(" ".join(t for cid, t in texts["carpe_cras"].items() if cid.startswith("tempo")))
    assert flat("≤ 0: impossible, no roll (0/6)") in text
    for d in range(1, 6):
        rolls = "roll 1" if d == 1 else f"roll 1–{d}"
        assert flat(f"{d}: {rolls} succeeds ({d}/6)") in text
    assert flat("≥ 6: certain, no roll (6/6)") in text


def test_every_carpe_cras_glossary_entry_is_on_a_reference_card(texts):
    game = DB.games["carpe_cras"]
    text = all_text(texts, "carpe_cras")
    lost = 0
    for entry in game.glossary:
        if entry.name_lost:
            # No name to print: a keyword card cannot list it; its designer's note never prints.
            lost += 1
            assert entry.note and flat(entry.note) not in text, entry.id
        else:
            assert flat(entry.text) in text, entry.id
            assert not entry.note or flat(entry.note) not in text, entry.id
    assert lost > 10
    assert "lostinthesource" not in text and "identifiable" not in text
    # The one lost-name rule every player needs (counting spaces) is on the Actions card.
    actions = flat(" ".join(t for cid, t in texts["carpe_cras"].items() if cid.startswith("actions")))
    assert flat(glossary_entry(game, "lost-distance").text) in actions
    # The round structure card carries the round's entries in order.
    lines = [ln.strip() for cid, t in texts["carpe_cras"].items() if cid.startswith("round") for ln in t.splitlines()]
    positions = [lines.index(h) for h in ("Round Start", "Turns", "Carpe Cras Token", "Round End")]
    assert positions == sorted(positions)


def test_cahrd_turn_structure_and_timing_chain_use_the_tables(texts):
    constants = DB.games["cahrd"].tables.constants
    text = all_text(texts, "cahrd")
    assert flat(f"combined CHM × {constants.reserves_per_chm_point.value}") in text
    assert flat(f"base WAR × {constants.grain_damage_per_war_point.value} grain") in text
    assert flat(f"starts with {constants.starting_grain.value} grain") in text
    assert flat(f"defeating {constants.lieutenants_defeated_to_win.value} enemy lieutenants") in text
    turn = flat(" ".join(t for cid, t in texts["cahrd"].items() if cid.startswith("turn")))
    steps = ["1 Draw Step", "2 Recruitment Step", "3 Strategy Step", "4 Battle Step", "a Declaration",
             "b Vanguard", "c Damage", "5 End Step"]
    positions = [turn.index(flat(s)) for s in steps]
    assert positions == sorted(positions)
    timing = flat(" ".join(t for cid, t in texts["cahrd"].items() if cid.startswith("timing")))
    positions = [timing.index(flat(s)) for s in ("1 Initiative", "2 First response", "3 Counter")]
    assert positions == sorted(positions)
    assert flat("resolves in reverse order, last played first") in timing


def test_carpe_diem_rewards_and_scoring_rules_use_the_tables(texts):
    tables = DB.games["carpe_diem"].tables
    text = all_text(texts, "carpe_diem")
    rewards = tables.dwelling_rewards
    assert flat(f"Take {rewards.baker.bread} bread.") in text
    assert flat(f"Advance {rewards.administrator.banderole} spaces on the banderole bar") in text
    assert flat(f"+ {rewards.merchant.bonus_coins}.") in text
    assert flat(f"Hand in {tables.bread_to_fulfil_card.bread} bread") in text
    assert flat(f"Unmet card: −{tables.unmet_card_penalty.vp} VP") in text
    assert flat("Green card") in text and flat("Red card") in text and flat("Multiples") in text
    assert flat("4 players: 3A 3B 2C 4D") in text


# ---- a change to the data changes the reference ----------------------------------------------

def _edit_yaml(path: Path, edit) -> None:
    data = yaml.safe_load(path.read_text())
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def test_changing_the_database_changes_the_reference_text(data_copy):
    root = data_copy.root
    _edit_yaml(root / "cahrd" / "tables.yaml",
               lambda d: (d["constants"]["starting_grain"].update(value=5500),
                          d["constants"]["reserves_per_chm_point"].update(value=1250)))
    _edit_yaml(root / "carpe_diem" / "tables.yaml", lambda d: d["bread_to_fulfil_card"].update(bread=5))
    data_copy.edit_card("cartisora", "first-blood", awarded_for="Taken by whoever wins a contest first.")
    db = load_database(root)

    cahrd = all_text({"cahrd": page_texts(db.games["cahrd"])}, "cahrd")
    assert flat("starts with 5500 grain") in cahrd and flat("4000 grain") not in cahrd
    assert flat("combined CHM × 1250") in cahrd and flat("CHM × 1000") not in cahrd
    diem = all_text({"carpe_diem": page_texts(db.games["carpe_diem"])}, "carpe_diem")
    assert flat("Hand in 5 bread") in diem and flat("Hand in 3 bread") not in diem
    contests = flat(" ".join(t for cid, t in page_texts(db.games["cartisora"]).items() if cid.startswith("contests")))
    assert flat("Taken by whoever wins a contest first.") in contests


def test_an_unknown_glossary_entry_is_reported_at_its_line(data_copy):
    path = data_copy.root / "cahrd" / "reference.yaml"
    _edit_yaml(path, lambda d: d[1]["sections"].append({"glossary": "no-such-term"}))
    db = load_database(data_copy.root)
    with pytest.raises(DatabaseError) as exc:
        reference_cards(db.games["cahrd"])
    data = yaml.safe_load(path.read_text())
    index = len(data[1]["sections"]) - 1
    line = next(i for i, text in enumerate(path.read_text().splitlines(), start=1) if "no-such-term" in text)
    assert str(exc.value).startswith(f"{path}:{line}: cahrd/timing: sections.{index}.glossary: ")


def test_a_misspelt_field_is_reported_at_its_line(data_copy):
    path = data_copy.root / "carpe_diem" / "reference.yaml"
    _edit_yaml(path, lambda d: d[0].update(titel="Dwellings"))
    db = load_database(data_copy.root)
    with pytest.raises(DatabaseError) as exc:
        reference_cards(db.games["carpe_diem"])
    line = next(i for i, text in enumerate(path.read_text().splitlines(), start=1) if text.strip().startswith("titel:"))
    assert str(exc.value).startswith(f"{path}:{line}: carpe_diem/dwellings: titel: unknown field")


def test_a_section_too_long_for_a_whole_card_names_the_reference_card(data_copy):
    long_text = " ".join(["Every officer battles until the grain runs out."] * 80)
    _edit_yaml(data_copy.root / "cahrd" / "reference.yaml",
               lambda d: d[0]["sections"][0].update(text=long_text))
    db = load_database(data_copy.root)
    with pytest.raises(LayoutError) as exc:
        reference_faces(db.games["cahrd"], LAYOUTS_DIR)
    assert exc.value.field == "layout:body"
    assert exc.value.file == str(data_copy.root / "cahrd" / "templates" / "reference-rules.yaml")
    assert "reference card cahrd/turn-1: text does not fit" in exc.value.message
