"""Fixtures for the companion app (in the style of Flask's tutorial): ``app``, ``client``,
``runner``, and ``data_copy`` for tests that need a card database of their own."""

from __future__ import annotations

import gc
import os
import uuid
from pathlib import Path

import pytest
import yaml
from database_edits import copy_database

from companion import create_app

@pytest.fixture(autouse=True)
def collector_unfrozen():
    """``companion run`` freezes what starting made out of the cyclic collector's view and
    makes it collect less often (companion.cli.serve); a test's server ends with the test, so
    what it froze is handed back to the collector (else every app a test started would stay
    uncollected), and the collector collects as before."""
    thresholds = gc.get_threshold()
    yield
    if gc.get_freeze_count():
        gc.unfreeze()
    gc.set_threshold(*thresholds)


POSTGRES_ENV = "TEST_POSTGRES_URL"
"""A PostgreSQL URL (e.g. ``postgresql://user@localhost/companion_test``); `.ci/run` starts a
server and sets it, so the storage and API tests run on PostgreSQL as well as SQLite."""


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    """The companion on the bundled card database, its scorekeeper on a fresh SQLite file.

    One app for the whole session: the card database is read-only once loaded, and loading it
    for each of the hundreds of per-card tests would only repeat the same work.
    """
    db_file = tmp_path_factory.mktemp("db") / "companion.sqlite"
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db_file}", "WTF_CSRF_ENABLED": False})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


class DataCopy:
    """A copy of the bundled card database in a temporary directory, with edit helpers.

    Edits go through the real YAML files, so the loader and the real schemas check them.
    """

    def __init__(self, root: Path):
        self.root = root
        copy_database(root)

    def card_file(self, game: str, card_id: str) -> Path:
        """The ``cards/*.yaml`` file that defines ``card_id``."""
        for path in sorted((self.root / game / "cards").glob("*.yaml")):
            if any(item.get("id") == card_id for item in yaml.safe_load(path.read_text()) or []):
                return path
        raise LookupError(f"{game}/{card_id} is not in the bundled database")

    def edit_card(self, game: str, card_id: str, **changes) -> None:
        """Set fields of one card (a value of ``None`` removes the field)."""
        path = self.card_file(game, card_id)
        items = yaml.safe_load(path.read_text())
        for item in items:
            if item.get("id") == card_id:
                for name, value in changes.items():
                    if value is None:
                        item.pop(name, None)
                    else:
                        item[name] = value
        path.write_text(yaml.safe_dump(items, sort_keys=False, allow_unicode=True))

    def add_glossary_entries(self, game: str, entries: list[dict]) -> None:
        """Append entries to the game's ``glossary.yaml`` (creating it if need be)."""
        path = self.root / game / "glossary.yaml"
        existing = (yaml.safe_load(path.read_text()) or []) if path.exists() else []
        path.write_text(yaml.safe_dump(existing + entries, sort_keys=False, allow_unicode=True))

    def app(self):
        """A companion app on this copy (raises DatabaseError if the edits broke it)."""
        return create_app({"TESTING": True, "CARD_DATA_DIR": str(self.root),
                           "DATABASE_URL": f"sqlite:///{self.root.parent / 'companion.sqlite'}"})


@pytest.fixture
def data_copy(tmp_path) -> DataCopy:
    """A fresh, editable copy of the bundled card database under ``tmp_path/data``."""
    return DataCopy(tmp_path / "data")


def _postgres_url() -> str | None:
    return os.environ.get(POSTGRES_ENV)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, empty scorekeeper database: SQLite in ``tmp_path``, and a new PostgreSQL
    database on the server at ``TEST_POSTGRES_URL`` when that is set (skipped otherwise)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'companion.sqlite'}"
        return
    base = _postgres_url()
    if not base:
        if os.environ.get("CI"):
            pytest.fail(f"CI must provide PostgreSQL: .ci/run starts a server and sets {POSTGRES_ENV}")
        pytest.skip(f"set {POSTGRES_ENV} to run the PostgreSQL variant (.ci/run does)")
    from sqlalchemy import create_engine, text

    from companion.scorekeeping.scorekeeper import normalise_database_url

    url = normalise_database_url(base)
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    test_url = url.rsplit("/", 1)[0] + "/" + name
    yield test_url
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def scorekeeper_app(database_url):
    """A companion whose scorekeeper uses the ``database_url`` under test."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "WTF_CSRF_ENABLED": False})
    yield app
    app.extensions["companion.scorekeeping.tables"].store.dispose()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium under Playwright (see :mod:`phones`), one per test module."""
    from phones import launch_browser

    with launch_browser() as chromium:
        yield chromium


@pytest.fixture
def server(tmp_path):
    """A real companion server on a free loopback port, on a fresh SQLite file; its base URL."""
    from phones import running_server

    with running_server(f"sqlite:///{tmp_path / 'companion.sqlite'}") as base:
        yield base
