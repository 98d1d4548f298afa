"""Load and validate a card database directory, collecting every problem at once."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ValidationError

from card_data.project.base_url import ConfigError
from card_data.reading.card_ids import CardIds
from card_data.reading.card_store import CardStore
from card_data.reading.deck_lists import read_deck_list
from card_data.reading.game_files import art_missing, game_too_large
from card_data.games import registry, registry_problems
from card_data.project.limits import DEFAULT_LIMITS, Limits, configured_limits
from card_data.editions.printings import PRINTINGS_FILE, Printings, read_printings
from card_data.problems import DatabaseError, Problem
from card_data.schema import Card, DeckList, GameInfo, GameRuling, GameSpec, GlossaryEntry
from card_data.rulings.ruling_ids import Placement, RulingIds, WrittenRuling, assign_ruling_ids
from card_data.editions.short_codes import code_map
from card_data.editions.translations import Translation, read_translations
from card_data.reading.parsed_files import ParsedFiles, read_card_file
from card_data.reading.source_lines import SourceLines
from card_data.reading.yaml_records import Collector, load_list, read_game_yaml, record_id

RESERVED_CARD_ID = "rulings"
"""Not a card id: ``<base>/r/<game>/rulings`` is the game's list of rulings."""


def bundled_data_dir() -> Path:
    """The card database shipped inside the package: ``card_data/games/``, where each bundled
    game's folder is its Python package, its data (and print layouts) beside its code."""
    return Path(str(resources.files("card_data.games")))


@dataclass
class Game:
    """One game's validated data.

    Attributes:
        game_id: folder name, e.g. ``"cartisora"``.
        info: the game's ``game.yaml``.
        cards: cards by id, in file order (a :class:`~card_data.reading.card_store.CardStore`: each card
            is decoded when read, so read it once where it is used many times).
        glossary: glossary entries in file order.
        decks: deck lists by id (while the database has problems, a deck may name cards
            that are not in ``cards``: cards that failed to load).
        tables: the parsed ``tables.yaml`` model, or ``None``.
        rulings: the rulings of ``rulings.yaml`` (each about two or more cards), in file order.
        ruling_refs: card id -> ``[(card id, index), ...]``: the rulings of other cards
            (``cards[card_id].rulings[index]``) that name this card in their ``cards``.
        sources: ``("card"|"deck"|"glossary"|"ruling", id) -> (file, line)`` where each record
            starts (a ``rulings.yaml`` ruling's id is its index, as a string), and
            ``("art", card id)``: where a card's ``art:`` is (a compact
            :class:`~card_data.reading.source_lines.SourceLines` once loaded).
        folder: the game's folder (artwork paths are relative to it).
        printings: the printed versions of its cards (``printings.yaml``, see
            :mod:`card_data.editions.printings`); unversioned (``printings.path is None``) without it.
        translations: language code -> its text of the game (``translations/<lang>.yaml``,
            see :mod:`card_data.editions.translations`); empty for a game written in one language.
        ruling_ids: every ruling's stable id (see :mod:`card_data.rulings.ruling_ids`), by where it is
            written: ``(card id, index)``, ``(None, index)`` for ``rulings.yaml`` (a compact
            :class:`~card_data.rulings.ruling_ids.RulingIds` once loaded).
        complete: whether every card, deck list and tables record loaded. While one did not (it
            has problems of its own), rules across records are not judged, nor are the ids that
            other files (``kit.yaml``) name: they would report the gap it leaves.
    """

    game_id: str
    info: GameInfo
    spec: GameSpec
    folder: Path
    cards: Mapping[str, Card] = field(default_factory=dict)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    decks: dict[str, DeckList] = field(default_factory=dict)
    tables: BaseModel | None = None
    rulings: list[GameRuling] = field(default_factory=list)
    ruling_refs: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    sources: Mapping[tuple[str, str], tuple[str, int]] = field(default_factory=dict)
    printings: Printings = field(default_factory=Printings)
    translations: dict[str, Translation] = field(default_factory=dict)
    ruling_ids: Mapping[Placement, str] = field(default_factory=dict)
    complete: bool = True


@dataclass
class Database:
    """All games of a database directory, by game id: the registered ones in the order of
    :func:`card_data.games.registry`, then the declared ones (:mod:`card_data.declared.declared_game`) by id."""

    root: Path
    games: dict[str, Game]




def _parsed_salt(folder: Path, spec: GameSpec, parsed: ParsedFiles) -> str:
    """What a game's card files are validated against, for :func:`card_data.reading.parsed_files.file_key`:
    the store's digest of the code behind the game (:meth:`ParsedFiles.code`) and ``game.yaml``'s
    bytes (a declared game's schema is declared there)."""
    try:
        info = hashlib.sha256((folder / "game.yaml").read_bytes()).hexdigest()
    except OSError:
        info = "missing"
    return f"{parsed.code(spec.game_id)} {info}"


def _load_game(folder: Path, spec: GameSpec, limits: Limits,
               parsed: ParsedFiles | None = None) -> tuple[Game | None, list[Problem]]:
    too_large = game_too_large(folder, spec.game_id, limits)
    if too_large is not None:
        return None, [too_large]  # unread: reading it is what the limit prevents
    col = Collector(spec.game_id, limits)
    info_path = folder / "game.yaml"
    info = None
    declared = spec.declared
    read = read_game_yaml(info_path, col) if info_path.exists() and not declared else None
    if declared:
        info = spec.info  # read (and its problems told) when its spec was made
    elif not info_path.exists():
        col.add(info_path, 1, "-", "game.yaml", "file is missing")
    elif read is not None:
        data, lines = read
        try:
            info = GameInfo.model_validate(data if data is not None else {})
        except ValidationError as exc:
            col.pydantic(info_path, lines, (), "-", exc, data=data)
    game = Game(spec.game_id, info, spec, folder) if info else None

    # Compact (card_store): a database of thousands of cards is not held as models.
    cards = CardStore(spec)
    sources = SourceLines()  # compact, as the cards: kept as long as the database is
    ids = CardIds(limits)
    first_defined: dict[str, tuple[str, int]] = {}
    # A card, deck or tables record that did not load (see the rules across records below).
    lost = False
    adapter = spec.card_adapter()
    # (file, line, owner card, field, named card): checked once every card file is read.
    named_cards: list[tuple[Path, int, str, str, str]] = []
    written: list[WrittenRuling] = []  # every ruling, for their ids
    salt = _parsed_salt(folder, spec, parsed) if parsed is not None else ""
    for path in sorted((folder / "cards").glob("*.yaml")):
        file_name = str(path)  # one string per file, not per card
        entries, complete = read_card_file(path, col, adapter, parsed, salt)
        if not complete or not all(entry.has_id for entry in entries):
            ids.add_text_of(path)
        lost = lost or not complete
        for entry in entries:
            rid, card, lines, base = entry.rid, entry.card, entry.lines, entry.base
            lost = lost or card is None
            # Checked whether or not either record is valid: the two are in conflict either way.
            if entry.has_id:
                ids.defined.add(rid)
                if rid in first_defined:
                    first = first_defined[rid]
                    col.add(path, lines.line_for(base + ("id",)), rid, "id",
                            f"duplicate card id (first defined at {first[0]}:{first[1]})")
                    continue
                first_defined[rid] = (file_name, lines.line_for(base))
            if card is None:
                continue
            line = lines.line_for(base)
            if card.art and not (folder / card.art).is_file():
                col.add(path, lines.line_for(base + ("art",)), card.id, "art", art_missing(folder, card.art))
            if declared:
                from card_data.declared.declared_game import file_problems

                for fld, message in file_problems(card, folder):
                    col.add(path, lines.line_for(base + (fld,)), card.id, fld, message)
            for name in card.assumed:
                if name not in type(card).model_fields:
                    col.add(path, lines.line_for(base + ("assumed",)), card.id, "assumed",
                            f"'{name}' is not a field of a {card.type} card")
            if card.id == RESERVED_CARD_ID:
                col.add(path, lines.line_for(base + ("id",)), card.id, "id",
                        "'rulings' is the address of the game's rulings page (/r/<game>/rulings): "
                        "the card's QR code would open that page; choose another id")
            for j, ruling in enumerate(card.rulings):
                written.append(WrittenRuling((card.id, j), ruling, file_name,
                                             lines.line_for(base + ("rulings", j, "id")), card.id, f"rulings.{j}.id"))
                for k, named in enumerate(ruling.cards):
                    named_cards.append((path, lines.line_for(base + ("rulings", j, "cards", k)), card.id,
                                        f"rulings.{j}.cards.{k}", named))
            cards.add(card, entry.json)
            sources[("card", card.id)] = (file_name, line)
            if card.art:
                sources[("art", card.id)] = (file_name, lines.line_for(base + ("art",)))

    ruling_refs: dict[str, list[tuple[str, int]]] = {}
    for path, line, owner, fld, named in named_cards:
        if named not in ids:
            col.add(path, line, owner, fld, f"unknown card id '{named}'")
        elif named != owner:
            j = int(fld.split(".")[1])
            refs = ruling_refs.setdefault(named, [])
            if (owner, j) not in refs:
                refs.append((owner, j))

    rulings: list[GameRuling] = []
    rpath = folder / "rulings.yaml"
    if rpath.exists():
        for item, lines, base in load_list(rpath, col, "rulings")[0]:
            place = str(base[0] + 1)  # a ruling has no id: problems name its place in the file
            try:
                ruling = GameRuling.model_validate(item)
            except ValidationError as exc:
                col.pydantic(rpath, lines, base, f"ruling-{place}", exc, data=item)
                continue
            for k, named in enumerate(ruling.cards):
                if named not in ids:
                    col.add(rpath, lines.line_for(base + ("cards", k)), f"ruling-{place}", f"cards.{k}",
                            f"unknown card id '{named}'")
            sources[("ruling", str(len(rulings)))] = (str(rpath), lines.line_for(base))
            written.append(WrittenRuling((None, len(rulings)), ruling, str(rpath), lines.line_for(base + ("id",)),
                                         f"ruling-{place}", "id"))
            rulings.append(ruling)
    assigned, id_problems = assign_ruling_ids(written)
    ruling_ids = RulingIds(assigned)  # compact, like sources
    for w, message in id_problems:
        col.add(Path(w.file), w.line, w.record, w.field, message)

    printings = read_printings(folder / PRINTINGS_FILE, col, ids)

    glossary: list[GlossaryEntry] = []
    gpath = folder / "glossary.yaml"
    if gpath.exists():
        seen: set[str] = set()
        for item, lines, base in load_list(gpath, col, "glossary entries")[0]:
            rid = record_id(item)
            if isinstance(item.get("id"), str):
                if rid in seen:
                    col.add(gpath, lines.line_for(base + ("id",)), rid, "id", "duplicate glossary id")
                seen.add(rid)
            try:
                entry = GlossaryEntry.model_validate(item)
            except ValidationError as exc:
                col.pydantic(gpath, lines, base, rid, exc, data=item)
                continue
            if entry.term is None and not entry.name_lost:
                col.add(gpath, lines.line_for(base + ("term",)), entry.id, "term",
                        "a glossary entry without a term must say name_lost: true")
            glossary.append(entry)
            sources[("glossary", entry.id)] = (str(gpath), lines.line_for(base))

    decks: dict[str, DeckList] = {}
    seen_decks: set[str] = set()
    nameless: set[str] = set()  # files of decks without a readable id: most likely named for it
    for path in sorted((folder / "decks").glob("*.yaml")):
        read = read_game_yaml(path, col)
        if read is None:
            lost = True
            nameless.add(path.stem)
            continue
        data, lines = read
        deck, problems = read_deck_list(data, lines, str(path), spec, cards, known=ids,
                                        deck_rules=info.deck_rules if info is not None else None)
        col.problems += problems
        lost = lost or deck is None
        deck_id = data.get("id") if isinstance(data, dict) else None
        if isinstance(deck_id, str):
            if deck_id in seen_decks:
                col.add(path, lines.line_for(("id",)), deck_id, "id", "duplicate deck id")
                continue
            seen_decks.add(deck_id)
        else:
            nameless.add(path.stem)
        if deck is None:
            continue
        decks[deck.id] = deck
        sources[("deck", deck.id)] = (str(path), 1)

    # After the cards, rulings, glossary and decks they translate; what did not load is not theirs to name.
    translations, translation_problems = read_translations(folder, spec.game_id, cards, rulings, glossary, ids,
                                                           limits, ruling_ids, decks, seen_decks | nameless)
    col.problems += translation_problems

    tables = None
    if spec.tables_model is not None:
        tpath = folder / "tables.yaml"
        if not tpath.exists():
            col.add(tpath, 1, "-", "tables.yaml", "file is missing")
        else:
            read = read_game_yaml(tpath, col)
            if read is not None:
                data, lines = read
                try:
                    tables = spec.tables_model.model_validate(data if data is not None else {})
                except ValidationError as exc:
                    col.pydantic(tpath, lines, (), "tables", exc, data=data)
            lost = lost or tables is None

    if declared and not lost:
        from card_data.declared.declared_game import back_deck_problems

        col.problems += back_deck_problems(spec, cards, decks, sources, info_path)

    # Rules across records judge the whole set. With a record missing they would report the
    # gap it leaves (a reference card without its special card, a scoring set that is not
    # there, a table entry naming a card that did not load): not problems of their own, and
    # gone once that record is fixed, when these rules run again.
    if spec.check_database is not None and not lost:
        for kind, rid, fld, message in spec.check_database(cards, decks, tables):
            file, line = sources.get((kind, rid), (str(folder / "game.yaml"), 1))
            if kind == "tables":
                file, line = str(folder / "tables.yaml"), 1
            col.add(Path(file), line, rid, fld, message)

    if game is not None:
        game.cards, game.glossary, game.decks, game.tables, game.sources = cards, glossary, decks, tables, sources
        game.rulings, game.ruling_refs, game.printings = rulings, ruling_refs, printings
        game.translations, game.ruling_ids, game.complete = translations, ruling_ids, not lost
    return game, col.problems




def check_database(root: Path | str | None = None, limits: Limits | None = None,
                   parsed: ParsedFiles | None = None) -> tuple[Database, list[Problem]]:
    """Load ``root`` (default: the bundled database) and return ``(database, problems)``.

    The database holds whatever loaded cleanly; ``problems`` lists everything wrong, sorted
    by file and line (two card versions whose QR short codes are the same among them, see
    :func:`card_data.editions.short_codes.code_map`). Never raises for bad data.

    Files are read within the byte limits of :mod:`card_data.project.limits` (``limits``, default:
    those of the ``printkit.toml`` found from the current folder up): a file over its limit
    is a problem at ``FILE:1`` and is not read; a game whose YAML files together are over
    theirs is one problem at its folder and is not read at all. A broken ``printkit.toml``
    is a problem too, and the default limits apply. A folder of a game that an installed
    distribution declares but that cannot be used is its
    :func:`card_data.games.registry_problems` problem, at its ``game.yaml``. Any other folder
    whose ``game.yaml`` declares ``fields:`` is a declared game (:mod:`card_data.declared.declared_game`),
    its cards checked against that declaration; one that does not is a problem saying how.

    ``parsed``: where card files that read cleanly are remembered, so that an unchanged one is
    not parsed again (:mod:`card_data.reading.parsed_files`); the result is the same with or without.
    """
    root = Path(root) if root is not None else bundled_data_dir()
    # Only the games present are imported (a game's schema costs ~20 ms to build).
    present = {p.name for p in root.iterdir() if p.is_dir() and (p / "game.yaml").exists()} if root.is_dir() else set()
    entries = registry()
    specs = {game_id: entry.spec for game_id, entry in entries.items() if game_id in present}
    problems: list[Problem] = []
    if limits is None:
        try:
            limits = configured_limits()
        except ConfigError as exc:
            problems.append(Problem(exc.file, exc.line, field="printkit.toml", message=exc.message))
            limits = DEFAULT_LIMITS
    games: dict[str, Game] = {}
    if not root.is_dir():
        problems.append(Problem(str(root), 1, "-", "-", "data", "not a directory"))
        return Database(root, games), problems
    if not present:
        problems.append(Problem(str(root), 1, "-", "-", "data",
                                f"no game folders found (expected some of: {', '.join(entries)})"))
    # A folder of a game whose installed distribution is broken: why it is unknown.
    broken = {p.game: p for p in registry_problems() if p.game}
    declared: dict[str, GameSpec] = {}
    for name in sorted(present - set(entries)):
        if name in broken:
            problems.append(broken[name].at(file=str(root / name / "game.yaml"), line=1))
            continue
        col = Collector(name, limits)
        read = read_game_yaml(root / name / "game.yaml", col)
        if read is not None:
            from card_data.declared.declared_game import declared_spec_of  # only for a declared game

            spec, probs = declared_spec_of(name, *read, root / name / "game.yaml", list(entries))
            col.problems += probs
            if spec is not None:
                declared[name] = spec
        problems.extend(col.problems)
    for game_id, spec in {**specs, **declared}.items():
        game, probs = _load_game(root / game_id, spec, limits, parsed)
        problems.extend(probs)
        if game is not None:
            games[game_id] = game
    # Two printed card versions sharing a short QR code (card_data.editions.short_codes): practically
    # never, but then a scanned card could open another one.
    problems.extend(code_map(games.values())[1])
    return Database(root, games), sorted(problems)


def load_database(root: Path | str | None = None) -> Database:
    """Load and validate ``root`` (default: the bundled database).

    Returns the :class:`Database`. Raises :class:`DatabaseError` listing every problem if
    anything is wrong.
    """
    db, problems = check_database(root)
    if problems:
        raise DatabaseError(problems)
    return db
