"""Every companion page, in a real headless Chromium (Debian's, driven by Playwright), on the two
phone sizes players bring (360 x 800 and 390 x 844), in light and dark colour schemes:

- axe-core (vendored under ``tests/vendor/axe-core``, a test tool never served to players)
  finds no violation of any rule it runs by default (WCAG 2.0/2.1/2.2 A and AA, and its
  best practices);
- every control a player can tap is at least 44 x 44 CSS px (WCAG 2.5.5; 2.5.8 asks 24).

The pages: the games, a search, each game's rulings index, its rulings page (filtered) and a
card page, starting a table for each game, joining (also with a wrong code), and for each game
a table before this phone says who it is, after "I am ...", with a refused entry, its chart page
while the game is in progress, an entry's correction page, a
finished game (rematch offered, and rematch taken), a fresh table, and the not-found page.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from phones import api, event_form, fill_event_form, new_table, running_server

from card_data.loader import bundled_data_dir, load_database
from companion.cards.card_fields import card_stats

GAMES = ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]
VIEWPORTS = {"360x800": {"width": 360, "height": 800}, "390x844": {"width": 390, "height": 844}}
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
MIN_TARGET = 44  # CSS px each way (WCAG 2.5.5, and Apple's and Google's guidance for touch)


def scenario(game: str):
    return importlib.import_module(f"scenarios_{game}")


def richest_card(game) -> str:
    """The card of ``game`` whose page shows the most kinds of content (a stats table, items,
    prose, rulings, assumed values, a note), so one card page per game covers the template."""
    def kinds(card) -> int:
        stats = card_stats(card)
        shown = {s.kind for s in stats.stats}
        return sum([bool(card.rulings), "table" in shown, "items" in shown, bool(stats.prose),
                    stats.any_assumed, bool(card.note), bool(card.example)])
    return max(game.cards.values(), key=kinds).id


@pytest.fixture(scope="module")
def site(browser, tmp_path_factory):
    """One server for the module, with for each game: a finished table, and a finished one
    whose rematch was taken (and that rematch, a fresh table)."""
    db_file = tmp_path_factory.mktemp("a11y") / "companion.sqlite"
    database = load_database(bundled_data_dir())
    with running_server(f"sqlite:///{db_file}") as base:
        tables = {}
        for game in GAMES:
            s = scenario(game)
            made = {}
            for name in ("finished", "rematched"):
                made[name] = new_table(base, game, len(s.EVENTS))
            made["card"] = richest_card(database.games[game])
            tables[game] = made
        # The rematch is taken through the page, as a player would: the form carries its token.
        setup = browser.new_context()
        page = setup.new_page()
        for game in GAMES:
            page.goto(f"{base}/t/{tables[game]['rematched']['token']}")
            page.get_by_role("button", name="Rematch").click()
            page.wait_for_url(lambda url: tables[game]["rematched"]["token"] not in url)
            tables[game]["fresh"] = page.url.rsplit("/t/", 1)[1]
        setup.close()
        yield base, tables


def tour(page, base: str, tables: dict):
    """Open every page and state in turn on ``page``; yields a name for each, once it is shown."""
    page.goto(f"{base}/")
    yield "index"
    page.goto(f"{base}/search?q=knight")
    yield "search"
    for game in GAMES:
        page.goto(f"{base}/r/{game}/")
        yield f"{game} rulings index"
        page.goto(f"{base}/r/{game}/rulings?q=the")
        yield f"{game} all rulings, filtered"
        page.goto(f"{base}/r/{game}/{tables[game]['card']}")
        yield f"{game} card page"
    page.goto(f"{base}/tables/new")
    yield "choose a game"
    for game in GAMES:
        page.goto(f"{base}/tables/new/{game}")
        yield f"new {game} table"
    page.goto(f"{base}/join")
    yield "join"
    page.get_by_label("Table code").fill("ZZZZZZ")
    page.get_by_role("button", name="Join").click()
    page.wait_for_selector("#join-error")
    yield "join with a wrong code"
    for game in GAMES:
        s = scenario(game)
        made = tables[game]
        upto = len(s.EVENTS) // 2
        table = new_table(base, game, upto)  # this tour's own: its refused entry changes it
        page.goto(f"{base}/t/{table['token']}")
        yield f"{game} table, seat not chosen"
        seat = s.EVENTS[upto].get("seat") or 0
        page.locator("#seat-ask").locator(f'button[value="{seat}"]').click()
        page.wait_for_selector("#seat-ask", state="detached")
        yield f"{game} table, I am {s.PLAYERS[seat]}"
        send_stale(page, base, table, s.EVENTS[upto])
        yield f"{game} table, entry already recorded"
        refused_undo(page, base, table)
        yield f"{game} table, refused entry"
        page.goto(f"{base}/t/{table['token']}/chart")
        page.wait_for_selector("#charts .chart-figure svg")
        yield f"{game} chart, game in progress"
        page.goto(f"{base}/t/{table['token']}/events/{upto}")
        yield f"{game} correction page"
        page.goto(f"{base}/t/{made['finished']['token']}")
        yield f"{game} finished, rematch offered"
        page.goto(f"{base}/t/{made['rematched']['token']}")
        page.wait_for_selector("#rematch-link")
        yield f"{game} finished, rematch taken"
        page.goto(f"{base}/t/{made['fresh']}")
        yield f"{game} fresh table"
    page.goto(f"{base}/tables/past")
    yield "past games"
    page.goto(f"{base}/tables/stats")
    yield "statistics"
    page.goto(f"{base}/r/cartisora/brutal-strik")
    yield "not found"


def send_stale(page, base: str, table: dict, event: dict) -> None:
    """This phone fills in ``event``'s form; another phone enters the same first; this phone
    sends its form anyway and is told, neutrally, that it is recorded already, as two phones
    at once are."""
    fill_event_form(page, event, submit=False)
    form = event_form(page, event)
    form.dispatch_event("change")  # a form with nothing to type is "started" too: a poll keeps it as it is
    api(base, f"/api/tables/{table['code']}/events", event)
    form.locator('button[type="submit"]').click()
    page.wait_for_selector("#already-done")


def refused_undo(page, base: str, table: dict) -> None:
    """This phone's Undo names entry 1, long since followed by others: refused, saying what
    changed (sent as a plain form, so the refusal is shown once on the reloaded page)."""
    csrf = page.locator('#undo-form input[name="csrf_token"]').get_attribute("value") or ""
    page.request.post(f"{base}/t/{table['token']}/undo", form={"_seq": "1", "csrf_token": csrf}, max_redirects=0)
    page.goto(f"{base}/t/{table['token']}")
    page.wait_for_selector("#rule-error")


def axe_violations(page) -> list[dict]:
    """axe-core's violations on the page as shown, with its default rules (axe is put into
    every page of the context by an init script)."""
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [{"rule": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [{"target": n["target"], "summary": n["failureSummary"]} for n in v["nodes"][:5]]}
            for v in result]


# What a player taps: links, buttons, form fields, fold-out headers, and the label of a check box
# or radio button (the label is the target: tapping it ticks the box, so the box is not measured
# on its own).
#
# One exemption, kept narrow (WCAG 2.5.8's "inline" exception, which 2.5.5 shares): a plain
# inline link inside a paragraph of running text, with words of its own around it, whose height
# is the line's. Making it 44 px high would space the sentence's lines apart. A link styled as a
# block or an inline-block is a deliberate target and is measured; so is a link alone in its
# paragraph.
SMALL_TARGETS = """min => {
  const visible = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const block = el => {
    let up = el.parentElement;
    while (up && getComputedStyle(up).display.startsWith('inline')) up = up.parentElement;
    return up;
  };
  const inlineInProse = el => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    const paragraph = block(el);
    if (!paragraph || paragraph.tagName !== 'P') return false;
    const around = paragraph.textContent.replace(el.textContent, '');
    return /[A-Za-z]{2,}/.test(around);
  };
  const checkable = el => el.matches('input[type=checkbox], input[type=radio]');
  const small = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary, textarea, label')) {
    if (el.tagName === 'LABEL' && !(el.control && checkable(el.control))) continue;
    if (checkable(el) && el.labels && el.labels.length) continue;
    if (!visible(el) || inlineInProse(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width < min || box.height < min) {
      const what = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
      small.push(`${what} "${el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40)}" ` +
                 `${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return [...new Set(small)];
}"""


@pytest.fixture(scope="module")
def walks(browser, site):
    """``walk(size, scheme)``: what axe and the tap-target measure find on every page of the
    tour, one browser context per size and colour scheme, each walked once for both tests."""
    base, tables = site
    done = {}

    def walk(size: str, scheme: str) -> dict:
        if (size, scheme) not in done:
            # An init script is not the page's: axe runs in each page under the page's own
            # Content-Security-Policy, which allows no inline script.
            context = browser.new_context(viewport=VIEWPORTS[size], device_scale_factor=2, is_mobile=True,
                                          has_touch=True, color_scheme=scheme)
            context.add_init_script(path=AXE)
            page = context.new_page()
            found = {"axe": {}, "targets": {}}
            for name in tour(page, base, tables):
                # What a fold-out holds is on the page too, one tap away: check it open.
                page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
                for kind, problems in (("axe", axe_violations(page)), ("targets", page.evaluate(SMALL_TARGETS, MIN_TARGET))):
                    if problems:
                        found[kind][name] = problems
            context.close()
            done[size, scheme] = found
        return done[size, scheme]

    return walk


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_no_page_has_an_axe_violation(walks, size, scheme):
    found = walks(size, scheme)["axe"]
    assert not found, json.dumps(found, indent=1)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_every_tap_target_is_at_least_44_px(walks, size):
    # Sizes do not depend on the colour scheme: the light walk (already made above) measures them.
    found = walks(size, "light")["targets"]
    assert not found, json.dumps(found, indent=1)
