"""A page's catalogue is looked up once per request (companion.web.language.translations), and
still follows the language: the templates' ``_()``, :func:`say` and a ``force_locale`` block
each say a string in the language in force when they say it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import render_template_string
from companion.web.language import force_locale

from card_data.engine import Words
from companion import create_app
from companion.web.language import gettext, say, translations


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}", "SECRET_KEY": "t" * 64})
    yield app
    app.extensions["companion.scorekeeping.tables"].store.dispose()


def test_one_catalogue_per_request_and_language(app):
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        assert translations() is translations()
        assert gettext("History") == "Verlauf"
        assert render_template_string("{{ _('History') }}") == "Verlauf"
        with force_locale("en"):
            assert gettext("History") == "History"
            assert render_template_string("{{ _('History') }} {{ 'undone'|say }}") == "History undone"
        assert say(Words("History")) == "Verlauf"
        assert render_template_string("{{ _('History') }}") == "Verlauf"
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert gettext("History") == "History"  # the next request: its own language


def test_outside_any_context_nothing_is_translated():
    assert gettext("History") == "History"
    assert gettext("%(n)d entries", n=3) == "3 entries"


def test_the_companion_forces_a_locale_only_through_its_own_force_locale():
    """Flask-Babel's own ``force_locale`` would leave the request's kept catalogue in force."""
    root = Path(__file__).resolve().parent.parent / "companion"
    users = [path.name for path in root.rglob("*.py")
             if re.search(r"flask_babel import[^\n]*\bforce_locale\b", path.read_text())]
    assert users == ["language.py"]
