"""Every number an event takes has bounds, and a table whose log cannot be folded still opens.

The issue: a VP change of 10**309 (a 310-digit JSON integer) was answered 500 and stored, and
from then on every page of the table was a 500 (a float of the VP overflowed) and no phone could
undo. Now every integer of every event of the four games has a minimum and a maximum (read from
the engines' registered events, never listed here), a value one past either is refused with a
4xx naming the field and the bound before anything is stored (JSON API, page forms,
corrections), and a table with an entry stored by an older version that no longer applies
opens, says which entry and why, and comes back when that entry is undone or corrected.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from bs4 import BeautifulSoup
from pydantic import Field
from sqlalchemy import insert, update

import card_data.games.carpe_diem.rules as cd
from card_data.engine import Bounded, Engine, Event, GameState, Model, Seat
from card_data.engine.bounds import unbounded_numbers
from card_data.games import registry
from companion.scorekeeping.store.storage import game_tables, table_events
from waiting import wait_for

GAMES = ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]
PLAYERS = {"carpe_cras": ["Ann", "Bob"], "cartisora": ["Ann", "Bob"], "cahrd": ["Ann", "Bob"],
           "carpe_diem": ["Ann", "Bob"]}
DE = {"Accept-Language": "de"}
HTMX = {"HX-Request": "true"}


def events_of(game: str) -> list[type[Event]]:
    return list(registry()[game].engine.events.values())


def _resolve(node: dict, defs: dict) -> dict:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _non_null(node: dict, defs: dict) -> dict:
    """An optional's schema without its ``null`` branch."""
    node = _resolve(node, defs)
    options = [o for o in node.get("anyOf", ()) if _resolve(o, defs).get("type") != "null"]
    return _resolve(options[0], defs) if len(options) == 1 else node


def _least(node: dict) -> Any:
    """A value the schema ``node`` (an integer, a string or an enum) takes."""
    if "enum" in node:
        return node["enum"][0]
    if node.get("type") == "integer":
        return node.get("minimum", node.get("exclusiveMinimum", -1) + 1)
    return "x"


def past_bounds(cls: type[Event]) -> list[tuple[str, Any, int]]:
    """For every integer of event ``cls``'s JSON schema (a field, an optional field, the items
    of a list or a tuple) and every list's length: ``(field, value, bound)``, ``value`` being one
    past ``bound``. Fails for a number in a shape it does not build (extend it then)."""
    schema = cls.model_json_schema()
    defs = schema.get("$defs", {})
    out = []
    for name, prop in schema.get("properties", {}).items():
        node = _non_null(prop, defs)
        if "enum" in node or "const" in node:  # a Literal: bounded by its values
            continue
        if node.get("type") == "integer":
            out.append((name, node["minimum"] - 1, node["minimum"]))
            out.append((name, node["maximum"] + 1, node["maximum"]))
        elif node.get("type") == "array":
            prefix = [_resolve(p, defs) for p in node.get("prefixItems", ())]
            items = _resolve(node["items"], defs) if isinstance(node.get("items"), dict) else None
            for i, item in enumerate(prefix):
                if item.get("type") == "integer" and "enum" not in item:
                    base = [_least(p) for p in prefix]
                    for bad, bound in ((item["minimum"] - 1, item["minimum"]), (item["maximum"] + 1, item["maximum"])):
                        out.append((f"{name}.{i}", [*base[:i], bad, *base[i + 1:]], bound))
            if items is not None:
                if items.get("type") == "integer" and "enum" not in items:
                    out.append((f"{name}.0", [items["minimum"] - 1], items["minimum"]))
                    out.append((f"{name}.0", [items["maximum"] + 1], items["maximum"]))
                out.append((name, [_least(items)] * (node["maxItems"] + 1), node["maxItems"]))
        else:
            assert not unbounded_numbers({**prop, "$defs": defs}) and "integer" not in json.dumps(node), \
                f"{cls.__name__}.{name}: a number in a shape this test does not build yet: {node}"
    return out


# -- the schema ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_number_of_every_event_has_a_minimum_and_a_maximum(game):
    engine = registry()[game].engine
    assert engine.events
    for cls in engine.events.values():
        assert unbounded_numbers(cls.model_json_schema()) == [], cls
    assert unbounded_numbers(engine.options_model.model_json_schema()) == []
    numbers = [case for cls in engine.events.values() for case in past_bounds(cls)]
    assert numbers  # every game's events take numbers (seats at least)


@pytest.mark.parametrize("game", GAMES)
def test_every_list_an_event_takes_has_a_longest(game):
    for cls in events_of(game):
        schema = cls.model_json_schema()
        text = json.dumps(schema)
        arrays = [node for node in _walk(schema) if node.get("type") == "array"]
        assert all("maxItems" in node for node in arrays), (cls, text)


def _walk(node: Any):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


class _Options(Model):
    pass


class _State(GameState):
    pass


def _toy() -> Engine:
    return Engine(game_id="toy", title="Toy", min_players=2, max_players=2, options=_Options, state=_State,
                  setup=lambda players, options, game: _State(players=players, phase="play"), over_rule="over",
                  rulebook="Toy rules")


class _Count(Model):
    count: int = Field(ge=0)


@pytest.mark.parametrize("annotation, path", [
    (int, "points: no minimum and no maximum"),
    (Bounded[0, 5] | None, None),
    (int | None, "points: no minimum and no maximum"),
    (tuple[Bounded[1, 6], ...], None),
    (tuple[int, ...], "points[]: no minimum and no maximum"),
    (tuple[Bounded[1, 6], int], "points[1]: no minimum and no maximum"),
    (_Count, "points.count: no maximum"),
    (list[_Count] | None, "points[].count: no maximum"),
    (dict[str, int], "points{}: no minimum and no maximum"),
    (float, "points: no minimum and no maximum"),
])
def test_registering_an_event_with_an_unbounded_number_is_refused(annotation, path):
    engine = _toy()
    cls = type("Nudge", (Event,), {"__annotations__": {"seat": Seat, "points": annotation}})
    if path is None:
        assert engine.event(cls) is cls
        return
    with pytest.raises(TypeError) as refused:
        engine.event(cls)
    assert "toy event Nudge" in str(refused.value) and path in str(refused.value)
    assert "nudge" not in engine.events


def test_an_options_model_with_an_unbounded_number_is_refused():
    class Options(Model):
        target: int = 3

    with pytest.raises(TypeError, match="toy options: .*target: no minimum and no maximum"):
        Engine(game_id="toy", title="Toy", min_players=2, max_players=2, options=Options, state=_State,
               setup=lambda players, options, game: None, over_rule="over", rulebook="Toy rules")


@pytest.mark.parametrize("bounds", [(3, 1), (0,), ("0", 5), (0, 5.5), (True, 5)])
def test_bounded_takes_two_integers_in_order(bounds):
    with pytest.raises(TypeError, match="Bounded takes"):
        Bounded[bounds]


def test_the_openapi_document_shows_every_bound(app):
    document = app.test_client().get("/api/openapi.json").get_json()
    components = document["components"]["schemas"]
    change = components["carpe_diem.AdjustVictoryPoints"]["properties"]["change"]
    assert (change["minimum"], change["maximum"]) == (-cd.MOST_VP_CHANGE, cd.MOST_VP_CHANGE)
    for game in GAMES:
        assert unbounded_numbers({**components[f"{game}.Event"], "$defs": components}) == [], game
        for cls in events_of(game):
            described = components[f"{game}.{cls.__name__}"]["properties"]
            for name, value, bound in past_bounds(cls):
                assert str(bound) in json.dumps(described[name.split(".")[0]]), (cls, name)


# -- refused before anything is stored ----------------------------------------------------------------


@pytest.fixture
def client(scorekeeper_app):
    return scorekeeper_app.test_client()


def new_table(client, game: str = "carpe_diem") -> dict:
    response = client.post("/api/tables", json={"game": game, "players": PLAYERS[game]})
    assert response.status_code == 201
    return response.get_json()


def log(client, code: str) -> dict:
    response = client.get(f"/api/tables/{code}/events")
    assert response.status_code == 200
    return response.get_json()


def assert_opens(client, table: dict) -> BeautifulSoup:
    """The table's API state, history and pages answer 200; returns the table page."""
    assert client.get(f"/api/tables/{table['code']}").status_code == 200
    log(client, table["code"])
    assert client.get(f"/t/{table['token']}/history").status_code == 200
    page = client.get(f"/t/{table['token']}")
    assert page.status_code == 200
    return BeautifulSoup(page.get_data(as_text=True), "html.parser")


def test_a_vp_change_of_ten_to_the_309_is_refused_and_not_stored(client):
    table = new_table(client)
    assert client.post(f"/api/tables/{table['code']}/events",
                       json={"type": "adjust_victory_points", "seat": 0, "change": 3}).status_code == 200
    before = log(client, table["code"])
    response = client.post(f"/api/tables/{table['code']}/events",
                           json={"type": "adjust_victory_points", "seat": 0, "change": 10**309})
    assert response.status_code == 400
    error = response.get_json()
    [problem] = error["errors"]
    assert problem["field"] == "change" and str(cd.MOST_VP_CHANGE) in problem["message"]
    assert log(client, table["code"]) == before
    assert_opens(client, table)
    assert client.post(f"/api/tables/{table['code']}/undo").status_code == 200


@pytest.mark.parametrize("game", GAMES)
def test_a_value_one_past_each_bound_of_each_event_is_refused_naming_the_field_and_the_bound(client, game):
    table = new_table(client, game)
    before = log(client, table["code"])
    checked = 0
    for cls in events_of(game):
        for name, value, bound in past_bounds(cls):
            response = client.post(f"/api/tables/{table['code']}/events", json={"type": cls.type_name, name.split(".")[0]: value})
            assert response.status_code == 400, (cls, name, value, response.get_json())
            problems = [p for p in response.get_json()["errors"] if p["field"] == name]
            assert problems and str(bound) in problems[0]["message"], (cls, name, response.get_json())
            checked += 1
    assert checked and log(client, table["code"]) == before


@pytest.mark.parametrize("body", [
    '{"type": "adjust_victory_points", "seat": 0, "change": %s}' % ("9" * 5000),
    '{"type": "adjust_victory_points", "seat": 0, "change": NaN}',
    '{"type": "adjust_victory_points", "seat": 0, "change": -Infinity}',
    '{"type": "adjust_victory_points", "seat": 0, "change": 1e999}',
])
def test_a_json_number_python_cannot_read_or_json_does_not_have_is_a_400(client, body):
    table = new_table(client)
    before = log(client, table["code"])
    response = client.post(f"/api/tables/{table['code']}/events", data=body, content_type="application/json")
    assert response.status_code == 400
    assert "number" in response.get_json()["error"] or "not JSON" in response.get_json()["error"]
    assert log(client, table["code"]) == before
    assert client.put(f"/api/tables/{table['code']}/events/1", data=body,
                      content_type="application/json").status_code == 400


@pytest.mark.parametrize("raw", ["9" * 5000, "²", "-1", "12a"])
def test_a_version_or_seat_that_is_no_number_is_refused_not_a_500(client, raw):
    table = new_table(client)
    response = client.post(f"/api/tables/{table['code']}/events", json={"type": "round_played"},
                           headers={"If-Match": raw})
    assert response.status_code == 400 and response.get_json()["errors"][0]["field"] == "If-Match"
    assert client.post(f"/t/{table['token']}/undo", data={"_version": raw, "_seq": raw}).status_code == 303
    assert client.post(f"/t/{table['token']}/me", data={"seat": raw}).status_code == 303
    client.set_cookie(f"seat_{table['code']}", raw[:3000])
    assert_opens(client, table)
    assert log(client, table["code"])["events"] == []


@pytest.mark.parametrize("change, said", [("9" * 310, str(cd.MOST_VP_CHANGE)), ("-1001", str(-cd.MOST_VP_CHANGE)),
                                          ("9" * 5000, "maximum size")])
def test_a_page_form_out_of_bounds_is_refused_naming_the_field_and_the_bound(client, change, said):
    """A number out of bounds; one too long for pydantic to read is refused as such."""
    table = new_table(client)
    form = {"type": "adjust_victory_points", "seat": "0", "change": change, "_version": "0"}
    response = client.post(f"/t/{table['token']}/events", data=form, headers=HTMX)
    assert response.status_code == 400
    refusal = BeautifulSoup(response.get_data(as_text=True), "html.parser").select_one("#rule-error").get_text()
    assert "change" in refusal and said in refusal, refusal
    # Without JavaScript: redirected to the page, which says it once.
    assert client.post(f"/t/{table['token']}/events", data=form).status_code == 303
    page = assert_opens(client, table)
    assert said in page.select_one("#rule-error").get_text()
    assert log(client, table["code"])["events"] == []


def test_a_correction_out_of_bounds_is_refused_and_changes_nothing(client):
    table = new_table(client)
    code, token = table["code"], table["token"]
    assert client.post(f"/api/tables/{code}/events", json={"type": "set_resources", "seat": 0, "coins": 3}).status_code == 200
    before = log(client, code)
    refused = client.put(f"/api/tables/{code}/events/1", json={"type": "set_resources", "seat": 0, "coins": 10**309})
    assert refused.status_code == 400 and refused.get_json()["errors"][0]["field"] == "coins"
    assert str(cd.MOST_HELD) in refused.get_json()["errors"][0]["message"]
    form = {"type": "set_resources", "seat": "0", "coins": "1000", "_version": str(before["version"])}
    assert client.post(f"/t/{token}/events/1", data=form).status_code == 303
    page = BeautifulSoup(client.get(f"/t/{token}/events/1").get_data(as_text=True), "html.parser")
    assert "coins" in page.select_one("#rule-error").get_text() and str(cd.MOST_HELD) in page.select_one("#rule-error").get_text()
    assert log(client, code) == before


# -- a log that cannot be folded ------------------------------------------------------------------------


def store_of(app):
    return app.extensions["companion.scorekeeping.tables"].store


def stored_entry(app, table: dict, payload: dict) -> int:
    """``payload`` written into the table's log as an older version could have written it,
    straight into the database (no rules checked), bumping the table's version as a write
    does; returns its seq."""
    store = store_of(app)
    record = store.find(table["token"])
    seq = max((e.seq for e in store.events(record.id)), default=0) + 1
    with store.engine.begin() as conn:
        conn.execute(insert(table_events).values(table_id=record.id, seq=seq, payload=payload, status="active",
                                                 created_at=record.created_at, at_version=record.version + 1))
        conn.execute(update(game_tables).where(game_tables.c.id == record.id).values(version=record.version + 1))
    # On PostgreSQL the server learns of a write made behind its back from the database's notice
    # (a millisecond; companion.scorekeeping.store.table_feed).
    wait_for(lambda: store.find(table["token"]).version == record.version + 1, "the server to see the write")
    return seq


def _raising(error: Exception):
    """``AdjustVictoryPoints.apply`` raising ``error`` for a change of 7 (a bug, or a value an
    older version let through), applying any other change as the rules do."""
    rules = cd.AdjustVictoryPoints.apply

    def apply(self, state):
        if self.change == 7:
            raise error
        return rules(self, state)
    return apply


def _scores_overflowing(state):
    """``State.scores`` failing as it did for a VP of 10**309, here for 999 VP or more."""
    if any(sheet.vp >= 999 for sheet in state.sheets):
        raise OverflowError("int too large to convert to float")
    return tuple(float(sheet.vp) for sheet in state.sheets)


UNFOLDABLE = {
    "out of today's bounds": ({"type": "adjust_victory_points", "seat": 0, "change": 10**309}, None, "change"),
    "an event no longer known": ({"type": "sacrifice_a_goat", "seat": 0}, None, "sacrifice_a_goat"),
    "no event at all": ({"type": ["score"], "seat": 0}, None, 'a JSON object with a "type"'),
    "refused by the rules": ({"type": "score", "seat": 0, "circle": 1}, None, "finish the phase first"),
    "a handler's OverflowError": ({"type": "adjust_victory_points", "seat": 0, "change": 7},
                                  ("apply", _raising(OverflowError("int too large to convert to float"))),
                                  "OverflowError"),
    "a handler's ValueError": ({"type": "adjust_victory_points", "seat": 0, "change": 7},
                               ("apply", _raising(ValueError("boom"))), "ValueError: boom"),
    "an outcome's OverflowError": ({"type": "adjust_victory_points", "seat": 1, "change": 999},
                                   ("scores", _scores_overflowing), "OverflowError"),
}


@pytest.mark.parametrize("kind", list(UNFOLDABLE))
def test_a_table_with_an_entry_it_cannot_apply_opens_says_why_and_undo_brings_it_back(scorekeeper_app, monkeypatch,
                                                                                      kind):
    payload, patch, reason = UNFOLDABLE[kind]
    client = scorekeeper_app.test_client()
    table = new_table(client)
    code, token = table["code"], table["token"]
    for change in (2, 3):
        assert client.post(f"/api/tables/{code}/events",
                           json={"type": "adjust_victory_points", "seat": 0, "change": change}).status_code == 200
    good = client.get(f"/api/tables/{code}").get_json()
    if patch is not None:
        name, replacement = patch
        monkeypatch.setattr(cd.AdjustVictoryPoints if name == "apply" else cd.State, name, replacement)
    seq = stored_entry(scorekeeper_app, table, payload)

    now = client.get(f"/api/tables/{code}").get_json()
    assert now["state"] == good["state"] and now["outcome"] == good["outcome"]
    assert now["problem"]["seq"] == now["problem"]["entry"] == seq and reason in now["problem"]["error"]
    history = log(client, code)
    assert [e["seq"] for e in history["events"]] == [1, 2, seq]
    page = assert_opens(client, table)
    banner = page.select_one("#entry-problem").get_text(" ", strip=True)
    assert f"Entry {seq} could not be applied" in banner and reason in banner, banner
    assert page.select_one(f'li[data-seq="{seq}"] .entry-problem') is not None
    german = BeautifulSoup(client.get(f"/t/{token}", headers=DE).get_data(as_text=True), "html.parser")
    said = german.select_one("#entry-problem").get_text(" ", strip=True)
    assert f"Eintrag {seq}" in said and "Entry" not in said, said
    history_page = BeautifulSoup(client.get(f"/t/{token}/history").get_data(as_text=True), "html.parser")
    assert f"Entry {seq} could not be applied" in history_page.select_one("#entry-problem").get_text()

    refused = client.post(f"/api/tables/{code}/events", json={"type": "round_played"})
    assert refused.status_code == 422 and f"entry {seq} could not be applied" in refused.get_json()["error"]
    assert log(client, code) == history
    assert client.get(f"/t/{token}/events/{seq}").status_code in (200, 422)

    undone = client.post(f"/api/tables/{code}/undo")
    assert undone.status_code == 200
    back = undone.get_json()
    assert back["problem"] is None and back["state"] == good["state"]
    assert assert_opens(client, table).select_one("#entry-problem") is None
    assert client.post(f"/api/tables/{code}/events", json={"type": "round_played"}).status_code == 200


def test_an_entry_that_cannot_be_applied_stops_the_fold_before_it_and_a_correction_mends_it(scorekeeper_app):
    client = scorekeeper_app.test_client()
    table = new_table(client)
    code, token = table["code"], table["token"]
    assert client.post(f"/api/tables/{code}/events",
                       json={"type": "adjust_victory_points", "seat": 0, "change": 2}).status_code == 200
    good = client.get(f"/api/tables/{code}").get_json()
    bad = stored_entry(scorekeeper_app, table, {"type": "adjust_victory_points", "seat": 1, "change": 10**309})
    later = stored_entry(scorekeeper_app, table, {"type": "adjust_victory_points", "seat": 0, "change": 5})
    now = client.get(f"/api/tables/{code}").get_json()
    assert now["problem"]["entry"] == bad and now["state"] == good["state"]

    # Undo takes back the last entry; the one that cannot be applied still stops the fold.
    assert client.post(f"/api/tables/{code}/undo").get_json()["problem"]["entry"] == bad
    assert client.get(f"/t/{token}/events/{bad}").status_code == 200  # its form, filled in, to correct it
    corrected = client.put(f"/api/tables/{code}/events/{bad}",
                           json={"type": "adjust_victory_points", "seat": 1, "change": 4})
    assert corrected.status_code == 200 and corrected.get_json()["problem"] is None
    vp = [sheet["vp"] for sheet in corrected.get_json()["state"]["sheets"]]
    assert vp == [good["state"]["sheets"][0]["vp"], good["state"]["sheets"][1]["vp"] + 4]
    assert later not in [e["seq"] for e in log(client, code)["events"] if e["status"] == "active"]


def test_a_correction_that_leaves_an_entry_unappliable_is_refused(scorekeeper_app):
    client = scorekeeper_app.test_client()
    table = new_table(client)
    code = table["code"]
    assert client.post(f"/api/tables/{code}/events",
                       json={"type": "adjust_victory_points", "seat": 0, "change": 2}).status_code == 200
    bad = stored_entry(scorekeeper_app, table, {"type": "sacrifice_a_goat"})
    before = log(client, code)
    refused = client.put(f"/api/tables/{code}/events/1",
                         json={"type": "adjust_victory_points", "seat": 0, "change": 3})
    assert refused.status_code == 422
    assert f"entry {bad} would no longer be allowed" in refused.get_json()["error"]
    assert log(client, code) == before
