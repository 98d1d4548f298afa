"""The companion's gettext catalogues as the tests read them: the shared one
(``companion/translations/``) and each bundled game's (``card_data/games/<game>/translations/``),
what each should hold (the messages marked in its sources, extracted as ``tools/translations.sh``
does) and the German they give together, as the companion merges them."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from babel.support import Translations

from card_data.games import registry

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT / "companion" / "translations"
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "Words": None, "N_": None}


def bundled_games() -> dict[str, Path]:
    """Game id -> folder, for every registered game whose package is bundled (in this checkout)."""
    games = {}
    for game_id, entry in registry().items():
        folder = Path(entry.package.__file__).resolve().parent
        if ROOT in folder.parents:
            games[game_id] = folder
    assert {"cartisora", "carpe_cras", "cahrd", "carpe_diem"} <= set(games)
    return games


def catalogue_dirs() -> dict[str, Path]:
    """``"shared"`` and each bundled game's id -> the folder of its catalogue."""
    return {"shared": SHARED, **{game: folder / "translations" for game, folder in bundled_games().items()}}


def po_path(folder: Path, language: str = "de") -> Path:
    return folder / language / "LC_MESSAGES" / "messages.po"


def read_catalogue(folder: Path, language: str = "de") -> Catalog:
    """The ``.po`` of ``language`` in the catalogue folder ``folder``."""
    with po_path(folder, language).open("rb") as fh:
        return read_po(fh, locale=language)


def msgid(message) -> str:
    """A message's id; a plural message by its singular."""
    return message if isinstance(message, str) else message[0]


def marked(name: str, under: str = "") -> set[str]:
    """The message ids marked in the sources of catalogue ``name`` (``"shared"``: what
    ``companion/babel.cfg`` maps from the repository; a game id: what ``companion/babel-game.cfg``
    maps from that game's folder), before messages shared between catalogues are moved.
    ``under``: only files under that path (relative to the repository, e.g. ``"companion/"``)."""
    if name == "shared":
        folder, mapping = ROOT, ROOT / "companion" / "babel.cfg"
    else:
        folder, mapping = bundled_games()[name], ROOT / "companion" / "babel-game.cfg"
    with mapping.open() as fh:
        method_map, options_map = parse_mapping_cfg(fh, str(mapping))
    found = set()
    for filename, _lineno, message, _comments, _context in extract_from_dir(
            str(folder), method_map, options_map, keywords=KEYWORDS):
        relative = (folder / filename).relative_to(ROOT).as_posix()
        if relative.startswith(under):
            found.add(msgid(message))
    return found


def german_po() -> dict[str, str]:
    """Every catalogue's German as written: message id -> translation (translated ones only)."""
    german = {}
    for folder in catalogue_dirs().values():
        german.update({m.id: m.string for m in read_catalogue(folder) if m.id and m.string})
    return german


def german_mo() -> Translations:
    """Every compiled German catalogue merged as the companion merges them (the shared one last)."""
    merged = Translations()
    dirs = catalogue_dirs()
    for name in [*(n for n in dirs if n != "shared"), "shared"]:
        merged.merge(Translations.load(str(dirs[name]), ["de"]))
    return merged
