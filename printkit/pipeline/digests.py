"""The digests of a build's inputs (:mod:`printkit.build_cache` keeps them): one over
everything a whole build reads (:func:`whole_build_key`) and one per unit of a game's output
(:class:`UnitDigests`), and the warnings a unit's record carries so that an unchanged unit
repeats them."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from card_data.reading.card_store import CardStore
from card_data.games import registry
from card_data.problems import Problem
from card_data.project.project_folders import game_templates_dir, is_game_data
from printkit.build_cache import BuildCache, UnitRecord, code_digest, json_digest, sha256_hex
from printkit.build_options import BuildOptions

if TYPE_CHECKING:
    from card_data.loader import Game
    from printkit.components.kit import CardJob


def _in_game_data(relative: Path) -> bool:
    """Whether a file of a card database (its path relative to the database folder) is data:
    the file of a game folder that :func:`card_data.project.project_folders.is_game_data` keeps, or a
    file beside the game folders that is not Python (``card_data/games/__init__.py``)."""
    if len(relative.parts) == 1:
        return is_game_data(relative)
    return is_game_data(Path(*relative.parts[1:]))


def build_inputs_digest(data_dir: Path | None, layouts_dir: Path, options: BuildOptions, cache: BuildCache,
                        **arguments) -> str:
    """A digest over everything a whole build reads but its code: every file of the card
    database and of the templates, the options and arguments. Taken before the cards are read,
    so that a card file saved while they are read makes the next build's digest differ."""
    if data_dir is None:
        from card_data.loader import bundled_data_dir

    data_root = Path(data_dir) if data_dir is not None else bundled_data_dir()
    deck = arguments.get("deck")
    return json_digest({"options": repr(options), "arguments": arguments,
                        "deck_file": cache.file_digest(Path(deck)) if deck else None,
                        # The bundled games' folders are their packages: their Python is code.
                        "data": cache.tree_digest(data_root, keep=_in_game_data),
                        "templates": cache.tree_digest(layouts_dir, (".pyc",), ("__pycache__",))})


def code_digests() -> dict[str, str]:
    """:func:`~printkit.build_cache.code_digest` of every registered game (``{game id: digest}``)."""
    return {game_id: code_digest(game_id) for game_id in registry()}


def whole_build_key(inputs: str) -> str:
    """A digest over everything a whole build reads: ``inputs`` (:func:`build_inputs_digest`)
    and the code behind every game's output, whichever games are built (a game's own code is
    cheap to digest once, and a build whose games changed falls through to the per-unit
    digests anyway)."""
    return json_digest({"code": code_digests(), "inputs": inputs})


def warnings_json(entries: Iterable[tuple[bool, Problem]]) -> list[dict]:
    """``(once, problem)`` warnings as a unit's record keeps them: ``{"once": bool, <the problem's
    fields>}`` each; :func:`warnings_from_json` reads them back."""
    return [{"once": once, **asdict(p)} for once, p in entries]


def warnings_from_json(items: list[dict], game: Game) -> list[tuple[bool, Problem]]:
    """Cached warnings, a card's pointing at where the card is now (it may have moved in its file)."""
    out = []
    for item in items:
        item = dict(item)
        once = bool(item.pop("once", False))
        problem = Problem(**item)
        where = game.sources.get(("card", problem.card_id))
        if not once and where is not None:
            problem = replace(problem, file=where[0], line=where[1])
        out.append((once, problem))
    return out


def readable_meta(meta: dict, game: Game) -> bool:
    """Whether a cached unit's ``meta`` has the shape :func:`printkit.pipeline.build.build` writes."""
    try:
        warnings_from_json(meta.get("warnings", []), game)
        pages = meta.get("pages", {})
        return (all(isinstance(meta.get(k, 0), int) for k in ("sheets", "faces"))
                and isinstance(pages, dict) and all(isinstance(v, int) for v in pages.values())
                and isinstance(meta.get("placed"), (str, type(None))))
    except (TypeError, ValueError, AttributeError):
        return False


class UnitDigests:
    """Input digests of one game's units (see :mod:`printkit.build_cache`)."""

    def __init__(self, cache: BuildCache, game: Game, options: BuildOptions, layouts_dir: Path):
        self.cache, self.game, self.layouts_dir, self.options = cache, game, layouts_dir, options
        from printkit.pipeline.card_faces import build_translation  # the layouts: not for a whole-build check

        folder = game_templates_dir(game.folder, layouts_dir)
        translation = build_translation(game, options)
        self.common = {"code": code_digest(game.game_id), "options": repr(options), "game": game.game_id,
                       "info": game.info.model_dump(mode="json"),
                       # The templates' own words (``_("...")``) print on every card of the game.
                       "words": dict(translation.words) if translation else None}
        self._cards: dict[str, tuple[bytes, str]] = {}  # digests, not records: small per card
        self._deck_assets: tuple[str, str] | None = None
        self._everything: tuple[str, str, str] | None = None
        self._folder = folder

    def _card(self, card_id: str) -> tuple[bytes, str]:
        """``(SHA-256 of the card's record, its type)``, each card read once."""
        if card_id not in self._cards:
            cards = self.game.cards
            # The record as the store keeps it (its JSON), not decoded into a model unless needed.
            if isinstance(cards, CardStore):
                data, card_type = sha256_hex(cards.json_of(card_id)), cards.type_of(card_id)
            else:
                data, card_type = cards[card_id].model_dump(mode="json"), cards[card_id].type
            # The version is printed (QR code and label) but lives in printings.yaml, not the record.
            printings = self.game.printings
            version = printings.card_version(cards[card_id]) if printings.versioned else None
            from printkit.pipeline.card_faces import build_translation

            translation = build_translation(self.game, self.options)
            record = {"card": data, "version": version.version if version else None,
                      "released": version.released if version else None,
                      "translation": translation.printed_fields(card_id) if translation else None}
            self._cards[card_id] = (bytes.fromhex(json_digest(record)), card_type)
        return self._cards[card_id]

    def deck(self, unit: str, job: CardJob) -> str:
        """A deck's (or the unprinted cards') digest: its cards' records, the templates of their
        types and back, the game's art, icons and fonts, game.yaml, the options, printkit."""
        if self._deck_assets is None:
            # Art, icons and fonts; the YAML of the game folder is read through the records.
            self._deck_assets = (
                self.cache.tree_digest(self.game.folder, (".yaml", ".yml", ".md"), ("cards", "decks"),
                                       keep=is_game_data),
                self.cache.tree_digest(self._folder, (".yaml", ".yml", ".md")))
        cards = [self._card(cid) for cid in job.cards.ids]
        names = sorted({card_type for _, card_type in cards} | {f"back-{job.kind}"})
        templates = {n: self.cache.file_digest(self._folder / f"{n}.yaml") for n in names}
        return json_digest({**self.common, "unit": unit, "name": job.name, "kind": job.kind,
                            "assets": self._deck_assets, "templates": templates,
                            "cards": [digest.hex() for digest, _ in cards]})

    def whole_game(self, unit: str, **extra) -> str:
        """A digest over the game's whole folder and templates (reference cards and extras read
        every card, the glossary, deck lists and tables)."""
        if self._everything is None:
            self._everything = (self.cache.tree_digest(self.game.folder, keep=is_game_data),
                                self.cache.tree_digest(self._folder),
                                self.cache.tree_digest(self.layouts_dir / "print"))
        return json_digest({**self.common, "unit": unit, "everything": self._everything, **extra})


@dataclass
class Unit:
    """One unit of a game's output: its key in the cache, its digest, and either its record
    (unchanged: not rendered) or nothing yet."""

    key: str
    digest: str
    cached: UnitRecord | None
