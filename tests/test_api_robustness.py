"""Nothing the API is sent gives a 500: random events, well-typed or not, for every game, at
every point of a scenario game. Each is a 200, or a refusal (400/409/422) that changed nothing."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from card_data.games import registry

GAMES = ["carpe_cras", "cartisora", "cahrd", "carpe_diem"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**6, max_value=10**6),
                    st.text(max_size=12), st.sampled_from(["0", "1", "-1", "true", "", "a-three-chickens"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                             max_size=3), max_leaves=8)


def event_strategy(game: str):
    engine = registry()[game].engine
    schema = engine.event_schema()
    field_names = sorted({name for d in schema.get("$defs", {}).values() for name in d.get("properties", {})} - {"type"})
    keys = st.sampled_from(field_names or ["seat"])
    return st.builds(lambda t, fields: {"type": t, **fields},
                     st.sampled_from(sorted(engine.events)), st.dictionaries(keys, values, max_size=6))


@pytest.fixture(scope="module")
def tables(app):
    """One table per game at several points of its scenario."""
    client = app.test_client()
    out = {}
    for game in GAMES:
        s = importlib.import_module(f"scenarios_{game}")
        codes = []
        for upto in sorted({0, 1, len(s.EVENTS) // 2, len(s.EVENTS) - 1}):
            table = client.post("/api/tables", json={"game": game, "players": s.PLAYERS, "options": s.OPTIONS}).get_json()
            for event in s.EVENTS[:upto]:
                assert client.post(f"/api/tables/{table['code']}/events", json=event).status_code == 200
            codes.append(table["code"])
        out[game] = codes
    return out


@pytest.mark.parametrize("game", GAMES)
def test_random_events_never_give_a_500(app, tables, game):
    client = app.test_client()

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(event=event_strategy(game), which=st.integers(min_value=0, max_value=3))
    def check(event, which):
        code = tables[game][which % len(tables[game])]
        before = client.get(f"/api/tables/{code}").get_json()
        response = client.post(f"/api/tables/{code}/events", json=event)
        assert response.status_code in (200, 400, 409, 422), (event, response.get_data(as_text=True)[:500])
        if response.status_code != 200:
            assert client.get(f"/api/tables/{code}").get_json() == before
        else:
            client.post(f"/api/tables/{code}/undo")  # keep the table at its scenario point

    check()


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=values)
def test_random_table_requests_never_give_a_500(app, body):
    response = app.test_client().post("/api/tables", json=body)
    assert response.status_code in (201, 400, 422), (body, response.get_data(as_text=True)[:300])
