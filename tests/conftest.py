"""Fixtures for the companion app (in the style of Flask's tutorial): ``app``, ``client``,
``runner``, and ``data_copy`` for tests that need a card database of their own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from card_data.loader import bundled_data_dir
from companion import create_app


@pytest.fixture(scope="session")
def app():
    """The companion on the bundled card database.

    One app for the whole session: the database is read-only once loaded, and loading it
    for each of the hundreds of per-card tests would only repeat the same work.
    """
    return create_app({"TESTING": True})


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
        shutil.copytree(bundled_data_dir(), root,
                        ignore=shutil.ignore_patterns("*.py", "__pycache__", "schemas"))

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
        return create_app({"TESTING": True, "CARD_DATA_DIR": str(self.root)})


@pytest.fixture
def data_copy(tmp_path) -> DataCopy:
    """A fresh, editable copy of the bundled card database under ``tmp_path/data``."""
    return DataCopy(tmp_path / "data")
