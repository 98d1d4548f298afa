"""Extract, update and compile the companion's gettext catalogues (run by tools/translations.sh).

Two kinds of catalogue, each ``<folder>/translations/messages.pot`` (the English messages) with
``<folder>/translations/<lang>/LC_MESSAGES/messages.po`` (their translation) and ``.mo`` (its
compiled form, which the companion reads):

- the shared one, ``companion/translations/``: the messages of ``companion/`` and of the shared
  ``card_data`` modules (the engine core), as ``companion/babel.cfg`` maps them;
- one per bundled game, ``card_data/games/<game>/translations/``: the messages marked in that
  game's folder only (its rule engine's wording, its ``table.html``...), as
  ``companion/babel-game.cfg`` maps them. The games are the registry's
  (:func:`card_data.games.registry`) whose package lies in this checkout.

A message has one translation: one marked in the shared files, or in two games' folders, lives in
the shared catalogue only. When a message moves between catalogues (a second game starts using
it), its translation moves with it: a message left untranslated by the update takes the
translation it had, before this run, in any catalogue. Languages: those of the shared catalogue
(``companion/translations/<lang>/``); a game's catalogue of a language is created when missing.

Options as ``pybabel extract --no-location --no-wrap --sort-output --omit-header`` and
``pybabel update --no-wrap --ignore-obsolete --no-fuzzy-matching --ignore-pot-creation-date``;
compiled without fuzzy messages, as ``pybabel compile``. ``--check``: write nothing, exit 1
naming each file that is not as this run would write it (the tests run this).
"""

from __future__ import annotations

import copy
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from card_data.games import registry  # noqa: E402  (the checkout's, whatever is installed)

SHARED = ROOT / "companion" / "translations"
SHARED_MAPPING = ROOT / "companion" / "babel.cfg"
GAME_MAPPING = ROOT / "companion" / "babel-game.cfg"
DOMAIN = "messages"
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "Words": None, "N_": None}
"""pybabel's default keywords and ``-k lazy_gettext -k Words -k N_``."""


def bundled_games() -> dict[str, tuple[str, Path]]:
    """Game id -> (title, its folder), for the registry's games whose package is in this checkout."""
    games = {}
    for game_id, entry in registry().items():
        folder = Path(entry.package.__file__).resolve().parent
        if ROOT in folder.parents:
            games[game_id] = (entry.title, folder)
    return games


def extract(folder: Path, mapping: Path) -> Catalog:
    """The messages marked in the files under ``folder`` that ``mapping`` selects (no header)."""
    with mapping.open() as fh:
        method_map, options_map = parse_mapping_cfg(fh, str(mapping))
    catalog = Catalog(fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            str(folder), method_map, options_map, keywords=KEYWORDS):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def key(message) -> tuple[str, str | None]:
    """A message's identity in a catalogue: its id (a plural's singular) and context."""
    return (message.id if isinstance(message.id, str) else message.id[0], message.context)


def is_translated(message) -> bool:
    """Whether ``message`` has a translation (every plural form) that is not fuzzy."""
    strings = message.string if isinstance(message.string, (tuple, list)) else [message.string]
    return bool(message.id) and all(strings) and not message.fuzzy


def split(shared: Catalog, games: dict[str, Catalog]) -> None:
    """Move into ``shared`` every message of a game catalogue that ``shared`` has or another game
    has too, removing it from the games' catalogues (in place)."""
    users: dict[object, int] = {}
    for catalog in games.values():
        for message in catalog:
            if message.id:
                users[key(message)] = users.get(key(message), 0) + 1
    for catalog in games.values():
        for message in list(catalog):
            if message.id and (shared.get(message.id, message.context) is not None or users[key(message)] > 1):
                if shared.get(message.id, message.context) is None:
                    shared[message.id] = copy.copy(message)
                catalog.delete(message.id, message.context)


def catalogue_dirs(games: dict[str, tuple[str, Path]]) -> dict[str, Path]:
    """Catalogue name (``"shared"`` or a game id) -> its translations folder."""
    return {"shared": SHARED, **{game_id: folder / "translations" for game_id, (_, folder) in games.items()}}


def languages() -> list[str]:
    """The languages of the shared catalogue, e.g. ``["de"]``."""
    return sorted(p.parent.parent.name for p in SHARED.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def read(path: Path, language: str) -> Catalog:
    """The catalogue of ``language`` in the .po file at ``path``."""
    with path.open("rb") as fh:
        return read_po(fh, locale=language)


def known_translations(dirs: dict[str, Path], language: str) -> dict[tuple[str, str | None], Message]:
    """Message key -> its translated message, over every catalogue of ``language`` as it is now."""
    known = {}
    for folder in dirs.values():
        po = folder / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        if po.is_file():
            for message in read(po, language):
                if is_translated(message):
                    known[key(message)] = message
    return known


def new_catalogue(shared_po: Catalog, language: str, title: str) -> Catalog:
    """An empty catalogue of ``language`` for the game ``title``, with the shared one's header
    (its dates too: the files are the same whenever they are made)."""
    return Catalog(locale=language, domain=DOMAIN, fuzzy=False, project=shared_po.project, version=shared_po.version,
                   header_comment=f"# {shared_po.locale.english_name} words of {title} in the companion "
                                  "(its rule engine and scorekeeper page;\n# update with "
                                  "tools/translations.sh). Our own text, under the project's licence.\n#",
                   creation_date=shared_po.creation_date, revision_date=shared_po.revision_date,
                   last_translator=shared_po.last_translator, language_team=shared_po.language_team)


def update(template: Catalog, po_path: Path, language: str, known: dict, fresh: Catalog) -> Catalog:
    """``po_path``'s catalogue updated to ``template`` (``fresh`` when it does not exist yet), its
    untranslated messages filled from ``known``."""
    catalog = read(po_path, language) if po_path.is_file() else fresh
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    for message in catalog:
        if message.id and not is_translated(message) and key(message) in known \
                and type(known[key(message)].id) is type(message.id):
            message.string = known[key(message)].string
            message.flags = set(known[key(message)].flags) | set(message.flags)
    return catalog


def as_bytes(write_file) -> bytes:
    """What ``write_file(fh)`` writes, as bytes."""
    buffer = io.BytesIO()
    write_file(buffer)
    return buffer.getvalue()


def catalogue_files() -> dict[Path, tuple[bytes, str]]:
    """Every catalogue file as this run makes it: path -> (its bytes, a line to print about it)."""
    games = bundled_games()
    templates = {"shared": extract(ROOT, SHARED_MAPPING)}
    game_templates = {game_id: extract(folder, GAME_MAPPING) for game_id, (_, folder) in games.items()}
    split(templates["shared"], game_templates)
    templates.update(game_templates)
    dirs = catalogue_dirs(games)
    langs = languages()
    known = {language: known_translations(dirs, language) for language in langs}
    shared_pos = {language: read(SHARED / language / "LC_MESSAGES" / f"{DOMAIN}.po", language) for language in langs}
    files = {}
    for name, extracted in templates.items():
        folder = dirs[name]
        if name != "shared" and not len(extracted) and not (folder / f"{DOMAIN}.pot").exists():
            continue  # a game that says nothing to translate gets no catalogue
        pot = as_bytes(lambda fh: write_po(fh, extracted, width=None, no_location=True, omit_header=True,
                                           sort_output=True))
        files[folder / f"{DOMAIN}.pot"] = (pot, "")
        template = read_po(io.BytesIO(pot))  # as pybabel update reads it: sorted, no locations
        for language in langs:
            po_path = folder / language / "LC_MESSAGES" / f"{DOMAIN}.po"
            title = games[name][0] if name in games else ""
            catalog = update(template, po_path, language, known[language],
                             new_catalogue(shared_pos[language], language, title))
            translated = sum(1 for m in catalog if is_translated(m))
            files[po_path] = (as_bytes(lambda fh: write_po(fh, catalog, width=None, no_location=True,
                                                           ignore_obsolete=True)),
                              f"{po_path.relative_to(ROOT)}: {translated} of {len(catalog)} messages translated")
            files[po_path.with_suffix(".mo")] = (as_bytes(lambda fh: write_mo(fh, catalog, use_fuzzy=False)), "")
    return files


def main(argv: list[str]) -> int:
    """Write every catalogue file (each replaced only once complete); with ``--check``, write
    nothing and exit 1 naming the files that are not as this run would make them."""
    check = "--check" in argv
    files = catalogue_files()
    stale = []
    for path, (content, line) in files.items():
        if path.is_file() and path.read_bytes() == content:
            pass
        elif check:
            stale.append(path.relative_to(ROOT).as_posix())
            continue
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(path.name + ".partial")
            partial.write_bytes(content)
            partial.replace(path)
        if line and not check:
            print(line)
    if stale:
        print("not up to date (run tools/translations.sh): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
