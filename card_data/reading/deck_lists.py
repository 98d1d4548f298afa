"""Reading one deck list: its schema, its card ids, then the game's deck-building rules."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from pydantic import ValidationError

from card_data.declared.deck_rules import DeckRules, deck_problems
from card_data.problems import Problem
from card_data.schema import Card, DeckEntry, DeckList, GameSpec
from card_data.reading.yaml_records import record_id
from card_data.reading.yaml_source import LineMap


def read_deck_list(data: Any, lines: LineMap, file: str, spec: GameSpec, cards: dict[str, Card],
                   known: Container[str] | None = None, deck_rules: DeckRules | None = None
                   ) -> tuple[DeckList | None, list[Problem]]:
    """Validate one deck list read from ``file``: the :class:`DeckList` schema, every card id
    known, then the game's deck-building rules (``deck_rules`` from its ``game.yaml`` and
    ``spec.check_deck``, see :func:`deck_problems`).

    ``cards`` are the valid cards by id. ``known`` holds every id a card record defines or
    might define (a card that failed its schema, an id written in a card file that did not
    parse); only entries naming none of those are reported as unknown. Default: ``cards``.
    The rules are applied to the entries whose card is in ``cards``; if that is not all of
    them, rules about the deck as a whole (its size, how many of each kind) are left out, as
    the missing entries would make them wrong, and a rule's message that names an entry's
    position counts positions among the judged entries only. A deck that fails its schema
    still has its well-formed entries' card ids checked.

    Returns the deck (``None`` if the schema refused it) and every problem found, located as
    ``FILE:LINE: game/deck-id: field: message``.
    """
    rid = record_id(data)
    known = cards if known is None else known

    def unknown(entries: list[tuple[int, str]], deck_id: str) -> list[Problem]:
        return [Problem(file, lines.line_for(("cards", i, "card")), spec.game_id, deck_id, f"cards.{i}.card",
                        f"unknown card id '{card_id}'")
                for i, card_id in entries if card_id not in known]

    try:
        deck = DeckList.model_validate(data if data is not None else {})
    except ValidationError as exc:
        problems = Problem.from_validation_error(exc, data=data, file=file, lines=lines, game=spec.game_id,
                                                 card_id=rid)
        raw = data.get("cards") if isinstance(data, dict) else None
        entries = []
        for i, item in enumerate(raw if isinstance(raw, list) else []):
            try:
                entries.append((i, DeckEntry.model_validate(item).card))
            except ValidationError:
                continue  # reported with the schema's problems
        return None, problems + unknown(entries, rid)
    problems = unknown([(i, entry.card) for i, entry in enumerate(deck.cards)], deck.id)
    judged = [i for i, entry in enumerate(deck.cards) if entry.card in cards]
    if len(judged) == len(deck.cards):
        found = deck_problems(deck, spec, deck_rules, cards)
    else:
        found = []
        part = deck.model_copy(update={"cards": [deck.cards[i] for i in judged]})
        for prob in deck_problems(part, spec, deck_rules, cards):
            parts = prob.field.split(".")
            if parts[0] != "cards":
                found.append(prob)
            elif len(parts) > 1 and parts[1].isdigit():
                parts[1] = str(judged[int(parts[1])])
                found.append(prob.at(field=".".join(parts)))
    for prob in found:
        loc = tuple(int(part) if part.isdigit() else part for part in prob.field.split("."))
        problems.append(prob.at(file=file, line=lines.line_for(loc), game=spec.game_id, card_id=deck.id))
    return deck, problems
