"""Load and validate a card database directory, collecting every problem at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from card_data.games import registry
from card_data.problems import DatabaseError, Problem
from card_data.schema import Card, DeckList, GameInfo, GameSpec, GlossaryEntry
from card_data.yaml_source import LineMap, YamlSyntaxError, load_yaml


def bundled_data_dir() -> Path:
    """The card database shipped inside the package (one folder per game)."""
    return Path(str(resources.files("card_data")))


@dataclass
class Game:
    """One game's validated data.

    Attributes:
        game_id: folder name, e.g. ``"cartisora"``.
        info: the game's ``game.yaml``.
        cards: cards by id, in file order.
        glossary: glossary entries in file order.
        decks: deck lists by id.
        tables: the parsed ``tables.yaml`` model, or ``None``.
        sources: ``("card"|"deck"|"glossary", id) -> (file, line)`` where each record starts.
        folder: the game's folder (artwork paths are relative to it).
    """

    game_id: str
    info: GameInfo
    spec: GameSpec
    folder: Path
    cards: dict[str, Card] = field(default_factory=dict)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    decks: dict[str, DeckList] = field(default_factory=dict)
    tables: BaseModel | None = None
    sources: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)


@dataclass
class Database:
    """All games of a database directory, by game id (in the order of :func:`card_data.games.registry`)."""

    root: Path
    games: dict[str, Game]


class _Collector:
    """Gathers problems for one game so they can all be reported together."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.problems: list[Problem] = []

    def add(self, file: Path, line: int, record_id: str, fld: str, message: str) -> None:
        self.problems.append(Problem(str(file), line, self.game_id, record_id or "-", fld, message))

    def pydantic(self, file: Path, lines: LineMap, base: tuple, record_id: str, exc: ValidationError,
                 data: Any = None) -> None:
        self.problems += Problem.from_validation_error(exc, data=data, file=str(file), lines=lines, base=base,
                                                       game=self.game_id, card_id=record_id or "-")


def _read(path: Path, col: _Collector) -> tuple[Any, LineMap] | None:
    try:
        return load_yaml(path)
    except YamlSyntaxError as exc:
        col.add(path, exc.line, "-", "yaml", exc.message)
    except (OSError, UnicodeDecodeError) as exc:
        col.add(path, 1, "-", "file", f"cannot read: {exc}")
    return None


def _record_id(data: Any) -> str:
    if isinstance(data, dict) and isinstance(data.get("id"), str):
        return data["id"]
    return "-"


def _load_list(path: Path, col: _Collector, what: str) -> list[tuple[dict, LineMap, tuple]]:
    """Items of a YAML file holding a list of mappings, with their locations."""
    read = _read(path, col)
    if read is None:
        return []
    data, lines = read
    if data is None:
        return []
    if not isinstance(data, list):
        col.add(path, lines.line_for(()), "-", what, f"expected a list of {what}, got {type(data).__name__}")
        return []
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            col.add(path, lines.line_for((i,)), "-", what, f"item {i + 1} is not a mapping")
            continue
        out.append((item, lines, (i,)))
    return out


def _load_game(folder: Path, spec: GameSpec) -> tuple[Game | None, list[Problem]]:
    col = _Collector(spec.game_id)
    info_path = folder / "game.yaml"
    info = None
    read = _read(info_path, col) if info_path.exists() else None
    if not info_path.exists():
        col.add(info_path, 1, "-", "game.yaml", "file is missing")
    elif read is not None:
        data, lines = read
        try:
            info = GameInfo.model_validate(data if data is not None else {})
        except ValidationError as exc:
            col.pydantic(info_path, lines, (), "-", exc, data=data)
    game = Game(spec.game_id, info, spec, folder) if info else None

    cards: dict[str, Card] = {}
    sources: dict[tuple[str, str], tuple[str, int]] = {}
    adapter = spec.card_adapter()
    for path in sorted((folder / "cards").glob("*.yaml")):
        for item, lines, base in _load_list(path, col, "cards"):
            rid = _record_id(item)
            try:
                card = adapter.validate_python(item)
            except ValidationError as exc:
                col.pydantic(path, lines, base, rid, exc, data=item)
                continue
            line = lines.line_for(base)
            if card.id in cards:
                first = sources[("card", card.id)]
                col.add(path, lines.line_for(base + ("id",)), card.id, "id",
                        f"duplicate card id (first defined at {first[0]}:{first[1]})")
                continue
            if card.art and not (folder / card.art).is_file():
                col.add(path, lines.line_for(base + ("art",)), card.id, "art", f"artwork file not found: {card.art}")
            for name in card.assumed:
                if name not in type(card).model_fields:
                    col.add(path, lines.line_for(base + ("assumed",)), card.id, "assumed",
                            f"'{name}' is not a field of a {card.type} card")
            cards[card.id] = card
            sources[("card", card.id)] = (str(path), line)

    glossary: list[GlossaryEntry] = []
    gpath = folder / "glossary.yaml"
    if gpath.exists():
        seen: set[str] = set()
        for item, lines, base in _load_list(gpath, col, "glossary entries"):
            rid = _record_id(item)
            try:
                entry = GlossaryEntry.model_validate(item)
            except ValidationError as exc:
                col.pydantic(gpath, lines, base, rid, exc, data=item)
                continue
            if entry.term is None and not entry.name_lost:
                col.add(gpath, lines.line_for(base + ("term",)), entry.id, "term",
                        "a glossary entry without a term must say name_lost: true")
            if entry.id in seen:
                col.add(gpath, lines.line_for(base + ("id",)), entry.id, "id", "duplicate glossary id")
            seen.add(entry.id)
            glossary.append(entry)
            sources[("glossary", entry.id)] = (str(gpath), lines.line_for(base))

    decks: dict[str, DeckList] = {}
    for path in sorted((folder / "decks").glob("*.yaml")):
        read = _read(path, col)
        if read is None:
            continue
        data, lines = read
        deck, problems = read_deck_list(data, lines, str(path), spec, cards)
        col.problems += problems
        if deck is None:
            continue
        if deck.id in decks:
            col.add(path, lines.line_for(("id",)), deck.id, "id", "duplicate deck id")
            continue
        decks[deck.id] = deck
        sources[("deck", deck.id)] = (str(path), 1)

    tables = None
    if spec.tables_model is not None:
        tpath = folder / "tables.yaml"
        if not tpath.exists():
            col.add(tpath, 1, "-", "tables.yaml", "file is missing")
        else:
            read = _read(tpath, col)
            if read is not None:
                data, lines = read
                try:
                    tables = spec.tables_model.model_validate(data if data is not None else {})
                except ValidationError as exc:
                    col.pydantic(tpath, lines, (), "tables", exc, data=data)

    if spec.check_database is not None:
        for kind, rid, fld, message in spec.check_database(cards, decks, tables):
            file, line = sources.get((kind, rid), (str(folder / "game.yaml"), 1))
            if kind == "tables":
                file, line = str(folder / "tables.yaml"), 1
            col.add(Path(file), line, rid, fld, message)

    if game is not None:
        game.cards, game.glossary, game.decks, game.tables, game.sources = cards, glossary, decks, tables, sources
    return game, col.problems


def read_deck_list(data: Any, lines: LineMap, file: str, spec: GameSpec,
                   cards: dict[str, Card]) -> tuple[DeckList | None, list[Problem]]:
    """Validate one deck list read from ``file``: the :class:`DeckList` schema, every card id
    known among ``cards``, then (only if all are known) the game's deck-building rules.

    Returns the deck (``None`` if the schema refused it) and every problem found, located as
    ``FILE:LINE: game/deck-id: field: message``.
    """
    rid = _record_id(data)
    try:
        deck = DeckList.model_validate(data if data is not None else {})
    except ValidationError as exc:
        return None, Problem.from_validation_error(exc, data=data, file=file, lines=lines, game=spec.game_id,
                                                   card_id=rid)
    problems = [Problem(file, lines.line_for(("cards", i, "card")), spec.game_id, deck.id, f"cards.{i}.card",
                        f"unknown card id '{entry.card}'")
                for i, entry in enumerate(deck.cards) if entry.card not in cards]
    if not problems:
        for prob in spec.check_deck(deck, cards):
            loc = tuple(int(part) if part.isdigit() else part for part in prob.field.split("."))
            problems.append(prob.at(file=file, line=lines.line_for(loc), game=spec.game_id, card_id=deck.id))
    return deck, problems


def check_database(root: Path | str | None = None) -> tuple[Database, list[Problem]]:
    """Load ``root`` (default: the bundled database) and return ``(database, problems)``.

    The database holds whatever loaded cleanly; ``problems`` lists everything wrong, sorted
    by file and line. Never raises for bad data.
    """
    root = Path(root) if root is not None else bundled_data_dir()
    specs = {game_id: entry.spec for game_id, entry in registry().items()}
    problems: list[Problem] = []
    games: dict[str, Game] = {}
    if not root.is_dir():
        problems.append(Problem(str(root), 1, "-", "-", "data", "not a directory"))
        return Database(root, games), problems
    present = {p.name for p in root.iterdir() if p.is_dir() and (p / "game.yaml").exists()}
    if not present:
        problems.append(Problem(str(root), 1, "-", "-", "data",
                                f"no game folders found (expected some of: {', '.join(specs)})"))
    for name in sorted(present - set(specs)):
        problems.append(Problem(str(root / name / "game.yaml"), 1, name, "-", "game",
                                f"unknown game '{name}' (known: {', '.join(specs)})"))
    for game_id, spec in specs.items():
        if game_id not in present:
            continue
        game, probs = _load_game(root / game_id, spec)
        problems.extend(probs)
        if game is not None:
            games[game_id] = game
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
