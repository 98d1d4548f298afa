"""Issue 20's "Done when" for a designer's game: the data-only game of the designer issue's
test (30 cards from a CSV through ``printkit init --from-sheet``, tests/sheet_games.py) gets
the ``scoring:`` example its game.yaml ends with uncommented, as a designer would; the companion
run on the project serves it; two phones (Chromium at 390 x 844) play it to its end through its
generated table page; past games and the statistics then show that game, its players, result
and winner."""

from __future__ import annotations

import re
from pathlib import Path

from phones import PHONE, serving
from sheet_games import SHEET_GAME, sheet_project

from companion import create_app


def add_scoring(project: Path) -> None:
    """Uncomment the ``scoring:`` example at the end of the game's game.yaml (first to 10
    points, +1 or +5 a tap, rounds, the most points win)."""
    game_yaml = project / "card_data" / SHEET_GAME / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    example = text[text.index("# scoring:"):]
    game_yaml.write_text(text.replace(example, re.sub(r"(?m)^# ?", "", example)), encoding="utf-8")


def test_a_sheet_made_game_is_played_to_its_end_on_two_phones_and_counted(tmp_path, monkeypatch, browser):
    monkeypatch.delenv("PRINTKIT_BASE_URL", raising=False)
    project = sheet_project(tmp_path)
    add_scoring(project)
    app = create_app({"TESTING": True, "PROJECT_DIR": str(project),
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    with serving(app) as server:
        phone_a = browser.new_context(**PHONE).new_page()
        phone_b = browser.new_context(**PHONE).new_page()

        # Phone A starts a River Quiz table from the list of games.
        phone_a.goto(f"{server}/tables/new")
        phone_a.get_by_role("button", name="River Quiz").click()
        seats = phone_a.locator('input[name="players[]"]')
        seats.nth(0).fill("Ann")
        seats.nth(1).fill("Bo")
        phone_a.get_by_role("button", name="Start the table").click()
        phone_a.wait_for_url("**/t/*")
        table_url = phone_a.url
        code = phone_a.locator(".join-top .table-code").inner_text().strip()

        # Phone B joins by the code.
        phone_b.goto(f"{server}/join")
        phone_b.get_by_label("Table code").fill(code)
        phone_b.get_by_role("button", name="Join").click()
        phone_b.wait_for_url(table_url)
        assert phone_b.locator("#scoreboard").is_visible()

        # Ann +5 on A, Bo +1 on B, next round on B, Ann +5 on A: first to 10 points.
        steps = [(phone_a, "Ann: Points +5"), (phone_b, "Bo: Points +1"), (phone_b, "Next round"),
                 (phone_a, "Ann: Points +5")]
        for version, (phone, button) in enumerate(steps, start=1):
            phone.locator(f'#live[data-version="{version - 1}"]').wait_for()
            phone.get_by_role("button", name=button).click()
            for each in (phone_a, phone_b):
                each.locator(f'#live[data-version="{version}"]').wait_for(timeout=10_000)
        for phone in (phone_a, phone_b):
            phone.locator("#result").wait_for()
            assert "Ann wins with 10 Points" in phone.locator("#result").inner_text()
            rows = phone.locator("#scoreboard tbody tr")
            assert [" ".join(rows.nth(i).inner_text().split()) for i in range(rows.count())] == ["Ann ★ 10", "Bo 1"]

        # Past games: this game, its players with their points, the winner marked, the result.
        phone_b.goto(f"{server}/tables/past")
        played = phone_b.locator("#past-games tbody tr")
        assert played.count() == 1 and played.first.get_attribute("data-game") == SHEET_GAME
        assert "River Quiz" in played.first.inner_text()
        players = played.first.locator(".past-players li")
        assert [" ".join(players.nth(i).inner_text().split()).replace(" :", ":") for i in range(players.count())] == [
            "Ann ★ (winner): 10", "Bo: 1"]
        assert "Ann wins with 10 Points" in played.first.locator(".past-result").inner_text()
        # On the phone each game is a block of its own, its parts one under the other, full width:
        # nothing scrolls sideways, not even in its box.
        game, result = played.first.locator(".past-game").bounding_box(), played.first.locator(".past-result").bounding_box()
        assert game["y"] + game["height"] <= result["y"] + 1, (game, result)
        assert result["width"] >= 0.8 * played.first.bounding_box()["width"]
        box = phone_b.locator("#past-games").locator("xpath=..")
        assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), "the past games scroll sideways"
        assert phone_b.evaluate("document.scrollingElement.scrollWidth") <= phone_b.viewport_size["width"]
        # Each value says what it is, the column heads being hidden.
        assert played.first.locator(".past-duration").inner_text().startswith("Duration: ")

        # Statistics: per player, per player in this game, and per game.
        phone_b.goto(f"{server}/tables/stats")

        def cells(table: str) -> list[list[str]]:
            return phone_b.locator(f"{table} tbody tr").evaluate_all(
                "rows => rows.map(r => [...r.querySelectorAll('th, td')].map(c => c.innerText.trim()))")

        assert cells("#stats-players") == [["Ann", "1", "1"], ["Bo", "1", "0"]]
        assert cells("#stats-by-game") == [["Ann", "River Quiz", "1", "1", "10", "10"],
                                           ["Bo", "River Quiz", "1", "0", "1", "1"]]
        assert cells("#stats-games") == [["River Quiz", "1", "5.5", "10"]]
        for phone in (phone_a, phone_b):
            phone.context.close()
