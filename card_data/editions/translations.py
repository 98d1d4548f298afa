"""Translated card data: a game's own words in another language, beside the original.

A game's data is written in one language (:data:`DATA_LANGUAGE`, English). A translation
into another language is a parallel file, ``card_data/<game>/translations/<lang>.yaml``,
``<lang>`` being a language code (``de``, ``pt-BR``), so that the original stays whole and
readable and a translation can be partial::

    # German text of Carpe Diem: our own words (the publisher's cards stay as printed).
    cards:
      a-two-grapes:              # a card of this game
        title: Zwei Trauben      # any text field of the card (title, text, flavour...)
        text: Zahle 2 Trauben ...
    rulings:                     # rulings by their id (card_data.rulings.ruling_ids), a card's or
      a-two-grapes-3f9c2d1a: "..."  #   rulings.yaml's; null for one left untranslated
      red-coins: "..."           # a ruling with a written id: ...
    glossary:
      Victory points:            # a glossary entry's term exactly (or its id)
        term: Siegpunkte         # both optional
        text: Die Wertung ...
    decks:                       # deck lists by their id: title and/or note
      scoring-3p:
        title: Wertungskarten, 3 Personen
    words:                       # what the game's layout templates print themselves,
      EXAMPLE CARD: BEISPIELKARTE  #   written {{ _("EXAMPLE CARD") }} in a template

Rulings are named by id, not by place, so a ruling inserted before another does not shift
its translation onto the wrong ruling; a ruling's derived id changes with its own English
text, and a translation of the old text is then reported (an unknown ruling id) rather than
shown. The older positional form is still read: a card's ``rulings:`` as a list in the order
of its data and a top-level ``rulings:`` list in the order of ``rulings.yaml`` (null for one
left untranslated); only a list longer than the original can be told apart from one that no
longer lines up, so prefer ids.

Anything a translation leaves out stays in the original: a card whose printed fields are not
translated prints as it is (``printkit build --lang de`` says which), a ruling or glossary
entry without a translation shows the original on the companion, and so does a deck list
(a deck's title and note are what the companion shows of it; a deck's own name as a publisher
printed it stays as printed, as its cards do). Numbers, ids, types and
other values that are not text are never translated: they are the same card in every
language (its QR code does not change).

:func:`read_translations` validates the files (the loader calls it for every game, so
``printkit validate`` and the companion's start report their problems with file, line and
field); :class:`Translation` answers what a page or a build needs.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from card_data.project.limits import Limits
from card_data.problems import Problem
from card_data.rulings.ruling_ids import Placement
from card_data.schema import Card, DeckList, GameRuling, GlossaryEntry
from card_data.reading.yaml_source import DuplicateKey, LineMap, YamlSyntaxError, YamlTooLarge, load_yaml

DATA_LANGUAGE = "en"
"""The language every game's data (cards, rulings, glossary) is written in."""

TRANSLATIONS_DIR = "translations"
"""The folder of a game's data that holds its translations, one ``<lang>.yaml`` each."""

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:-(?:[A-Z]{2}|[0-9]{3}|[A-Z][a-z]{3}))?$")
"""A language code as a translation's file name: a language (``de``), optionally a region
(``pt-BR``, ``es-419``) or a script (``zh-Hant``)."""

UNTRANSLATED_FIELDS = frozenset({"id", "type", "art", "rulings", "example", "assumed"})
"""Card fields no translation replaces: the card's identity and marks about its data (the
rulings have their own list)."""

GLOSSARY_FIELDS = ("term", "text")
"""What a translation may give of a glossary entry (its ``section`` names the rulebook and
stays as written)."""

SHOWN_ONLY_FIELDS = frozenset({"note"})
"""Translatable card fields that the companion shows but no card prints."""

DECK_FIELDS = ("title", "note")
"""What a translation may give of a deck list (its cards, kind and quantities stay)."""


def _is_text_annotation(annotation: Any) -> bool:
    """Whether a field annotated so holds text: ``str`` or ``str | None`` (constraints aside)."""
    if annotation is str:
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _is_text_annotation(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return len(members) == 1 and _is_text_annotation(members[0])
    return False


def _is_key(metadata: Iterable[Any]) -> bool:
    # A string with a pattern (a slug such as a deck's id) is a key the data refers to, not words.
    return any(getattr(item, "pattern", None) for item in metadata)


def text_fields(card_model: type[Card]) -> list[str]:
    """The fields of ``card_model`` a translation may give: its text fields (``str`` or
    ``str | None``, not keys with a pattern such as slugs) except :data:`UNTRANSLATED_FIELDS`,
    in the schema's order."""
    return [name for name, info in card_model.model_fields.items()
            if name not in UNTRANSLATED_FIELDS and _is_text_annotation(info.annotation)
            and not _is_key(info.metadata)]


@dataclass(frozen=True)
class Translation:
    """One language's text of a game, validated (see the module docstring for the file).

    Attributes:
        language: the language code, e.g. ``"de"``.
        path: the file it was read from.
        cards: card id -> ``{field: text}`` for the card's text fields it translates (no
            ``rulings`` key; see ``ruling_texts``).
        ruling_texts: ruling id -> its translated text, for the rulings it translates
            (whichever form the file used).
        ruling_ids: where each ruling of the game is written -> its id (``Game.ruling_ids``),
            to answer :meth:`card_ruling` and :meth:`game_ruling`.
        glossary: glossary entry id -> ``{"term"?: text, "text"?: text}``.
        decks: deck id -> ``{"title"?: text, "note"?: text}``.
        words: the layout templates' own words, English -> translation (``_("...")`` in a
            template; see :func:`printkit.sheets.templating.layout.layout_words`).
        lines: where each value is written in ``path`` (see :meth:`card_field_line`).
    """

    language: str
    path: Path
    cards: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    ruling_texts: Mapping[str, str] = field(default_factory=dict)
    ruling_ids: Mapping[Placement, str] = field(default_factory=dict, compare=False, repr=False)
    glossary: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    words: Mapping[str, str] = field(default_factory=dict)
    lines: LineMap = field(default_factory=LineMap, compare=False, repr=False)
    decks: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def card_field_line(self, card_id: str, name: str) -> int:
        """1-based line of ``path`` where the card's field ``name`` is translated (of the
        card's entry if that field is not, 1 if the card is not)."""
        return self.lines.line_for(("cards", card_id, name))

    def card_fields(self, card_id: str) -> dict[str, str]:
        """``{field: translated text}`` of the card (empty when nothing of it is translated)."""
        return dict(self.cards.get(card_id, {}))

    def printed_fields(self, card_id: str) -> dict[str, str]:
        """:meth:`card_fields` without the fields a card never prints (its ``note``)."""
        return {k: v for k, v in self.cards.get(card_id, {}).items() if k not in SHOWN_ONLY_FIELDS}

    def card_ruling(self, card_id: str, index: int) -> str | None:
        """The translated text of ``cards[card_id].rulings[index]``, or ``None``."""
        return self.ruling_text(self.ruling_ids.get((card_id, index), ""))

    def game_ruling(self, index: int) -> str | None:
        """The translated text of the game's ``rulings[index]`` (``rulings.yaml``), or ``None``."""
        return self.ruling_text(self.ruling_ids.get((None, index), ""))

    def ruling_text(self, ruling_id: str) -> str | None:
        """The translated text of the ruling with id ``ruling_id`` (a ruling record's
        ``ruling_id``), or ``None``."""
        return self.ruling_texts.get(ruling_id)

    def glossary_entry(self, entry_id: str) -> dict[str, str]:
        """``{"term"?: ..., "text"?: ...}`` of the glossary entry ``entry_id`` (empty if none)."""
        return dict(self.glossary.get(entry_id, {}))

    def deck_fields(self, deck_id: str) -> dict[str, str]:
        """``{"title"?: ..., "note"?: ...}`` of the deck list ``deck_id`` (empty if none)."""
        return dict(self.decks.get(deck_id, {}))


def translated_card(card: Card, translation: Translation | None) -> Card:
    """``card`` as it prints in ``translation``'s language: a copy with its translated
    printed fields, or ``card`` itself when there are none (or no translation). Its id, type,
    numbers and rulings stay the same."""
    fields = translation.printed_fields(card.id) if translation is not None else {}
    return card.model_copy(update=fields) if fields else card


def untranslated_cards(card_ids: Iterable[str], translation: Translation | None) -> list[str]:
    """Of ``card_ids`` (in their order, each once), those without any translated printed field:
    the cards that print in the original."""
    ids = list(dict.fromkeys(card_ids))
    if translation is None:
        return ids
    return [card_id for card_id in ids if not translation.printed_fields(card_id)]


def find_translation(translations: Mapping[str, Translation], language: str | None) -> Translation | None:
    """The translation of ``translations`` for ``language`` (``"de"``, ``"pt-BR"``, ``"pt_BR"``):
    the exact code, else the one of its language without the region (``pt`` for ``pt-BR``),
    else the only one of that language with a region; ``None`` for the data's own language or
    when there is none."""
    if not language:
        return None
    code = language.replace("_", "-")
    if code.split("-")[0].lower() == DATA_LANGUAGE:
        return None
    if code in translations:
        return translations[code]
    base = code.split("-")[0].lower()
    if base in translations:
        return translations[base]
    regional = [t for lang, t in translations.items() if lang.split("-")[0] == base]
    return regional[0] if len(regional) == 1 else None


class _Reader:
    """Validates one translation file, collecting its problems."""

    def __init__(self, path: Path, game_id: str, lines: LineMap, ruling_ids: Mapping[Placement, str]):
        self.path, self.game_id, self.lines = path, game_id, lines
        self.problems: list[Problem] = []
        self.ruling_ids = ruling_ids
        self.ruling_texts: dict[str, str] = {}
        self.ruling_lines: dict[str, int] = {}  # where each ruling id was translated

    def ruling(self, ruling_id: str, text: str | None, loc: tuple, record: str, fld: str) -> None:
        """Keep ``text`` as the translation of ``ruling_id`` unless that ruling is already translated."""
        line = self.lines.line_for(loc)
        if ruling_id in self.ruling_lines:
            self.add(loc, record, fld, f"ruling '{ruling_id}' is translated twice (first on line "
                                       f"{self.ruling_lines[ruling_id]})")
            return
        self.ruling_lines[ruling_id] = line
        if text is not None:
            self.ruling_texts[ruling_id] = text

    def add(self, loc: tuple, record: str, fld: str, message: str) -> None:
        self.problems.append(Problem(str(self.path), self.lines.line_for(loc), self.game_id, record, fld, message))

    def text(self, value: Any, loc: tuple, record: str, fld: str, nullable: bool = False) -> str | None:
        """``value`` if it is a non-empty string (or ``None`` where allowed), else a problem."""
        if value is None and nullable:
            return None
        if isinstance(value, str) and value.strip():
            return value
        what = "an empty string" if isinstance(value, str) else ("nothing" if value is None else
                                                                   type(value).__name__)
        also = " (or null to leave it untranslated)" if nullable else ""
        self.add(loc, record, fld, f"not a string: expected the translated text{also}, got {what}")
        return None

    def texts(self, item: dict, loc: tuple, record: str, allowed: tuple[str, ...], said: str) -> dict[str, str]:
        """``item``'s texts (:meth:`text`) of the fields ``allowed``; any other field is a problem
        ("unknown field: " + ``said``)."""
        texts: dict[str, str] = {}
        for name, value in item.items():
            if name not in allowed:
                self.add(loc + (name,), record, str(name), f"unknown field: {said}")
                continue
            text = self.text(value, loc + (name,), record, name)
            if text is not None:
                texts[name] = text
        return texts

    def mapping(self, value: Any, loc: tuple, record: str, fld: str, what: str) -> dict | None:
        if isinstance(value, dict):
            return value
        self.add(loc, record, fld, f"expected {what}, got {'nothing' if value is None else type(value).__name__}")
        return None


def _read_cards(r: _Reader, data: Any, cards: Mapping[str, Card], known: Container[str]) -> dict:
    fields_out: dict[str, dict[str, str]] = {}
    for card_id, item in (r.mapping(data, ("cards",), "-", "cards", "a mapping of card ids to their texts")
                          or {}).items():
        loc = ("cards", card_id)
        rid = str(card_id)
        if not isinstance(card_id, str) or card_id not in cards:
            if not (isinstance(card_id, str) and card_id in known):  # else: a card with problems of its own
                r.add(loc, rid, "-", f"unknown card id '{rid}': no card of {r.game_id} has it")
            continue
        item = r.mapping(item, loc, rid, "-", "a mapping of the card's fields to their translations")
        if item is None:
            continue
        card = cards[card_id]
        allowed = text_fields(type(card))
        fields: dict[str, str] = {}
        for name, value in item.items():
            if name == "rulings":
                texts = _read_ruling_list(r, value, loc + ("rulings",), rid, "rulings", len(card.rulings),
                                          f"the card has {len(card.rulings)}")
                for i, text in enumerate(texts or ()):
                    r.ruling(r.ruling_ids.get((card_id, i), f"{card_id}#{i}"), text, loc + ("rulings", i), rid,
                             f"rulings.{i}")
                continue
            if name not in allowed:
                r.add(loc + (name,), rid, str(name),
                      f"unknown field: a {card.type} card's translatable fields are "
                      f"{', '.join([*allowed, 'rulings'])}")
                continue
            text = r.text(value, loc + (name,), rid, name)
            if text is not None:
                fields[name] = text
        # A declared game's title is its title field (game.yaml ``title_field``): translated
        # with it, unless the translation gives the title itself.
        title_field = getattr(type(card), "TITLE_FIELD", None)
        if title_field in fields and "title" not in fields:
            fields["title"] = fields[title_field]
        if fields and _fits_schema(r, card, fields, loc, rid):
            fields_out[card_id] = fields
    return fields_out


def _fits_schema(r: _Reader, card: Card, fields: dict[str, str], loc: tuple, rid: str) -> bool:
    """Whether the card with ``fields`` still passes its schema (a text's length limit, say);
    problems name the translated field."""
    try:
        type(card).model_validate({**card.model_dump(), **fields})
    except ValidationError as exc:
        ours = [p for p in Problem.from_validation_error(exc, file=str(r.path), lines=r.lines, base=loc,
                                                         game=r.game_id, card_id=rid)
                if p.field.split(".")[0] in fields]
        r.problems += ours
        return not ours
    return True


def _read_ruling_list(r: _Reader, value: Any, loc: tuple, record: str, fld: str, limit: int,
                      limit_said: str) -> tuple[str | None, ...] | None:
    if not isinstance(value, list):
        r.add(loc, record, fld, f"expected a list of translated rulings in the original's order (null for one "
                                f"left untranslated), got {type(value).__name__}")
        return None
    if len(value) > limit:
        r.add(loc, record, fld, f"too many rulings: {len(value)} translated where {limit_said}; they follow the "
                                f"original's order, one for one, so they no longer line up: translate each ruling "
                                f"by its id under the top-level rulings: (see card_data/rulings/ruling_ids.py)")
        value = value[:limit]
    return tuple(r.text(text, loc + (i,), record, f"{fld}.{i}", nullable=True) for i, text in enumerate(value))


def _unknown_ruling(r: _Reader, ruling_id: str, cards: Mapping[str, Card]) -> str:
    said = f"unknown ruling id '{ruling_id}': no ruling of {r.game_id} has it"
    holder = ruling_id.rsplit("-", 1)[0]
    theirs = sorted({rid for (card_id, _), rid in r.ruling_ids.items() if (card_id or "game") == holder})
    if re.fullmatch(r"[0-9a-f]{8}", ruling_id.rsplit("-", 1)[-1]) and (holder in cards or theirs):
        return (f"{said}; a derived id changes when its ruling's English text is edited, so this translation "
                f"is probably stale: check it against the ruling and write its id now "
                f"({', '.join(theirs) or 'the card has no rulings'})")
    return said


def _read_ruling_ids(r: _Reader, data: dict, cards: Mapping[str, Card], unloaded: Container[str]) -> None:
    ids = set(r.ruling_ids.values())
    for key, value in data.items():
        loc = ("rulings", key)
        rid = str(key)
        if not isinstance(key, str) or key not in ids:
            holder = rid.rsplit("-", 1)[0]
            if holder not in cards and holder in unloaded:  # a card with problems of its own
                continue
            r.add(loc, rid, "rulings", _unknown_ruling(r, rid, cards))
            continue
        r.ruling(key, r.text(value, loc, rid, "rulings", nullable=True), loc, rid, "rulings")


def _read_glossary(r: _Reader, data: Any, glossary: list[GlossaryEntry]) -> dict[str, dict[str, str]]:
    by_name: dict[str, GlossaryEntry] = {}
    for entry in glossary:
        by_name.setdefault(entry.id, entry)
        if entry.term is not None:
            by_name.setdefault(entry.term, entry)
    out: dict[str, dict[str, str]] = {}
    for key, item in (r.mapping(data, ("glossary",), "-", "glossary",
                                "a mapping of glossary terms to their translations") or {}).items():
        loc = ("glossary", key)
        rid = str(key)
        entry = by_name.get(key) if isinstance(key, str) else None
        if entry is None:
            r.add(loc, rid, "-", f"unknown term '{rid}': name a term of glossary.yaml exactly as written there "
                                 f"(or the entry's id)")
            continue
        if entry.id in out:
            r.add(loc, rid, "-", f"glossary entry '{entry.id}' is translated twice")
            continue
        item = r.mapping(item, loc, rid, "-", "a mapping with term and/or text")
        if item is None:
            continue
        out[entry.id] = r.texts(item, loc, rid, GLOSSARY_FIELDS, "a glossary entry's translation gives term and/or text")
    return out


def _read_decks(r: _Reader, data: Any, decks: Mapping[str, DeckList],
                known: Container[str]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for deck_id, item in (r.mapping(data, ("decks",), "-", "decks",
                                    "a mapping of deck ids to their title and/or note") or {}).items():
        loc = ("decks", deck_id)
        rid = str(deck_id)
        if not isinstance(deck_id, str) or deck_id not in decks:
            if not (isinstance(deck_id, str) and deck_id in known):  # else: a deck with problems of its own
                r.add(loc, rid, "-", f"unknown deck id '{rid}': no deck list of {r.game_id} has it "
                                     f"(a deck's id is the id: in its decks/*.yaml file)")
            continue
        item = r.mapping(item, loc, rid, "-", "a mapping with title and/or note")
        if item is None:
            continue
        texts = r.texts(item, loc, rid, DECK_FIELDS, "a deck list's translation gives title and/or note")
        if texts:
            out[deck_id] = texts
    return out


def _read_words(r: _Reader, data: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in (r.mapping(data, ("words",), "-", "words",
                                 "a mapping of the templates' English words to their translations") or {}).items():
        if not isinstance(key, str) or not key.strip():
            r.add(("words", key), "-", "words", f"expected the English words a template prints, got {key!r}")
            continue
        text = r.text(value, ("words", key), "-", f"words.{key}")
        if text is not None:
            out[key] = text
    return out


def read_translation(path: Path, game_id: str, cards: Mapping[str, Card], rulings: list[GameRuling],
                     glossary: list[GlossaryEntry], known: Container[str] = (),
                     limits: Limits | None = None, ruling_ids: Mapping[Placement, str] | None = None,
                     decks: Mapping[str, DeckList] | None = None, known_decks: Container[str] = (),
                     ) -> tuple[Translation | None, list[Problem]]:
    """Validate one translation file of ``game_id`` against the game's loaded ``cards``,
    ``rulings`` (of ``rulings.yaml``), ``glossary`` and deck lists (``decks``, by id; none if
    not given). ``known``: ids of cards that exist but did not load (their own problems are
    reported; a translation of them is not called unknown); ``known_decks``: the same for decks.
    ``limits``: the byte limits the file is read within (see :func:`card_data.reading.yaml_source.load_yaml`).
    ``ruling_ids``: every ruling's id by where it is written (``Game.ruling_ids``; see
    :mod:`card_data.rulings.ruling_ids`); a translation names rulings by these.

    Returns the translation (``None`` when the file cannot be used at all: its name is not a
    language code, it does not parse or is not a mapping) and its problems, each
    ``FILE:LINE: game/record: field: message`` (record: a card id, a glossary term, ``-``):
    a bad language code, a file over the byte limit, YAML syntax, an unknown top-level key,
    card id, card field, ruling id, glossary term, deck id or deck field (an unknown derived ruling id is called
    probably stale), a ruling translated twice, a value that is not a string, more rulings than the
    original has. The parts without problems are kept.
    """
    lang = path.stem
    ruling_ids = ruling_ids or {}
    problems: list[Problem] = []
    if path.suffix != ".yaml" or not LANGUAGE_CODE.match(lang):
        return None, [Problem(str(path), 1, game_id, "-", "language",
                              f"bad language code '{path.name}': name a translation <code>.yaml, the code a "
                              f"language (de) or a language and region (pt-BR)")]
    if lang.split("-")[0] == DATA_LANGUAGE:
        return None, [Problem(str(path), 1, game_id, "-", "language",
                              f"'{lang}' is the language the data is written in; a translation is into another")]
    duplicates: list[DuplicateKey] = []
    try:
        data, lines = load_yaml(path, duplicates, limits)
    except YamlTooLarge as exc:
        return None, [Problem(str(path), exc.line, game_id, "-", "file", exc.message)]
    except YamlSyntaxError as exc:
        return None, [Problem(str(path), exc.line, game_id, "-", "yaml", exc.message)]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem(str(path), 1, game_id, "-", "file", f"cannot read: {exc}")]
    problems += [Problem(str(path), d.line, game_id, "-", ".".join(str(p) for p in d.loc) or "-", d.message)
                 for d in duplicates]
    if data is None:
        return Translation(lang, path, lines=lines), problems
    r = _Reader(path, game_id, lines, ruling_ids)
    if not isinstance(data, dict):
        r.add((), "-", "-", f"expected a mapping with cards, decks, rulings, glossary and/or words, "
                            f"got {type(data).__name__}")
        return None, problems + r.problems
    for key in data:
        if key not in ("cards", "decks", "rulings", "glossary", "words"):
            r.add((key,), "-", str(key), "unknown field: a translation has cards, decks, rulings, glossary and words")
    # A section written with nothing under it (``cards:`` alone) is an empty one.
    card_fields = _read_cards(r, data["cards"], cards, known) if data.get("cards") is not None else {}
    if isinstance(data.get("rulings"), dict):
        _read_ruling_ids(r, data["rulings"], cards, known)
    elif data.get("rulings") is not None:
        texts = _read_ruling_list(r, data["rulings"], ("rulings",), "-", "rulings", len(rulings),
                                  f"rulings.yaml has {len(rulings)}")
        for i, text in enumerate(texts or ()):
            r.ruling(ruling_ids.get((None, i), f"game#{i}"), text, ("rulings", i), "-", f"rulings.{i}")
    glossary_texts = _read_glossary(r, data["glossary"], glossary) if data.get("glossary") is not None else {}
    words = _read_words(r, data["words"]) if data.get("words") is not None else {}
    deck_texts = _read_decks(r, data["decks"], decks or {}, known_decks) if data.get("decks") is not None else {}
    return (Translation(lang, path, card_fields, r.ruling_texts, ruling_ids, glossary_texts, words, lines,
                        deck_texts), problems + r.problems)


def read_translations(folder: Path, game_id: str, cards: Mapping[str, Card], rulings: list[GameRuling],
                      glossary: list[GlossaryEntry], known: Container[str] = (),
                      limits: Limits | None = None, ruling_ids: Mapping[Placement, str] | None = None,
                      decks: Mapping[str, DeckList] | None = None, known_decks: Container[str] = (),
                      ) -> tuple[dict[str, Translation], list[Problem]]:
    """Every translation of the game in ``folder`` (``<folder>/translations/*.yaml``; see
    :func:`read_translation`): ``({language code: translation}, problems)``, languages in
    file-name order. A game without the folder has none and no problems. Files in the folder
    that are not YAML (a README) are left alone, except ``.yml``: named like a translation, it
    is reported rather than silently skipped. ``limits``, ``ruling_ids``, ``decks``, ``known_decks``: as
    for :func:`read_translation`."""
    where = folder / TRANSLATIONS_DIR
    if not where.is_dir():
        return {}, []
    out: dict[str, Translation] = {}
    problems: list[Problem] = []
    for path in sorted(p for p in where.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file()):
        translation, found = read_translation(path, game_id, cards, rulings, glossary, known, limits, ruling_ids,
                                              decks, known_decks)
        problems += found
        if translation is not None:
            out[translation.language] = translation
    return out, problems
