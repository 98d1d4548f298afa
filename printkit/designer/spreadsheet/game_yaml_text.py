"""The ``game.yaml`` of a declared game read off a spreadsheet (``printkit init --from-sheet``),
written for the designer to read and edit next: one line per field, a comment saying what the
sheet showed, the deck rules as a commented example."""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from printkit.designer.spreadsheet.sheet_inference import CardType, InferredField, SheetGame, slug_name

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 _.'()/-]*")
_YAML_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null", "y", "n", "~"})
COMMENT_COLUMN = 64
"""Where a line's comment starts (when the line leaves room)."""


def scalar(value: Any) -> str:
    """``value`` (text, number, bool) as a YAML flow scalar: plain when YAML reads it back as
    the same text, else double-quoted (JSON's quoting, which YAML reads)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text == text.strip() and text.lower() not in _YAML_WORDS \
            and not text.endswith(":") and ": " not in text and " #" not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def flow(mapping: dict[str, Any]) -> str:
    """``{a: 1, b: [x, y]}``: a mapping of scalars and lists of scalars on one line."""
    parts = []
    for key, value in mapping.items():
        shown = "[" + ", ".join(scalar(v) for v in value) + "]" if isinstance(value, (list, tuple)) else scalar(value)
        parts.append(f"{key}: {shown}")
    return "{" + ", ".join(parts) + "}"


def _commented(line: str, comment: str) -> str:
    if not comment:
        return line
    return f"{line.ljust(COMMENT_COLUMN)}# {comment}" if len(line) < COMMENT_COLUMN - 1 else f"{line}  # {comment}"


def declaration(f: InferredField) -> dict[str, Any]:
    """``f`` as game.yaml declares it (keys in the format's order, defaults left out)."""
    out: dict[str, Any] = {"type": f.type}
    if f.required:
        out["required"] = True
    out["label"] = f.label  # written even when it is the default: it is what a designer changes first
    if f.min is not None:
        out["min"] = f.min
    if f.max is not None:
        out["max"] = f.max
    if f.options:
        out["options"] = list(f.options)
    if f.max_length is not None:
        out["max_length"] = f.max_length
    return out


def _field_lines(fields: tuple[InferredField, ...] | list[InferredField], indent: str) -> list[str]:
    return [_commented(f"{indent}{f.name}: {flow(declaration(f))}", f.seen) for f in fields]


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


def _back_title(card_type: CardType) -> str:
    return f"{card_type.label} cards"


def game_yaml_text(game_id: str, title: str, sheet: SheetGame, source: str, import_path: str | None = None) -> str:
    """The ``card_data/<game_id>/game.yaml`` of the game ``sheet`` describes, titled ``title``;
    ``source``: the spreadsheet's file name it came from; ``import_path``: the sheet as written
    from the project folder (default ``source``). Without card types every card is of type
    ``card`` and has one back, named after the game (``pub_quiz`` -> ``pub-quiz``)."""
    again = shlex.quote(import_path or source)
    lines = [f"# {title}: made by `printkit init --from-sheet {shlex.quote(source)}`, one field per column of the sheet.",
             "# It is yours to edit: labels, bounds, options, card types, backs, deck rules. After an edit,",
             f"# `printkit import {again} --game {game_id}` (in the project folder) checks the sheet's cards against it",
             "# again and `printkit validate` the whole game. The format: see the README, \"Your own game\"."]
    lines += [f"title: {scalar(title)}",
              _commented("card_size: {name: poker}", "or bridge, tarot, mini, or {width_mm: 70, height_mm: 110}"),
              _commented("# rulebooks: {draft: my-rules.pdf}", "where the rules are, by name")]
    backs = sheet.card_types or []
    lines.append(_commented("backs:", "a deck each: the template back-<name>.yaml prints its back"))
    if backs:
        lines += [f"  {t.name}: {scalar(_back_title(t))}" for t in backs]
    else:
        lines.append(f"  {slug_name(game_id)}: {scalar(title + ' cards')}")
    if sheet.title_field is not None:
        lines.append(_commented(f"title_field: {sheet.title_field}", "a card's title is this field's value"))
    lines.append(_commented("fields:", "every card has these, in the order players see them"))
    lines += _field_lines(sheet.fields, "  ")
    if backs:
        lines.append(_commented("card_types:", "the sheet's type column: the template <type>.yaml prints each"))
        for t in backs:
            head = {"label": t.label, "back": t.name}
            seen = f"{_cards(t.count)}, {t.copies} copies" if t.copies != t.count else _cards(t.count)
            if t.fields:
                lines.append(_commented(f"  {t.name}:", seen))
                lines += [f"    label: {scalar(t.label)}", f"    back: {t.name}",
                          _commented("    fields:", f"only {t.label} cards have these")]
                lines += _field_lines(t.fields, "      ")
            else:
                lines.append(_commented(f"  {t.name}: {flow(head)}", seen))
    lines.append("# Deck rules, checked by `printkit validate` and `build` (uncomment to use; see the README):")
    lines.append("# deck_rules:")
    for name, copies in ([(t.name, t.copies) for t in backs] or [(slug_name(game_id), sheet.copies)])[:3]:
        lines += [f"#   {name}:", f"#     size: {{exact: {copies}}}", "#     copies: {max: 3}"]
    lines += SCORING_EXAMPLE
    return "\n".join(lines) + "\n"


SCORING_EXAMPLE = [
    "# A scorekeeper at the companion's table (uncomment to use; see the README, \"Keeping score\"):",
    "# scoring:",
    _commented("#   players: {min: 2, max: 6}", "how many play; colours: [red, blue] for the first seats"),
    _commented("#   counters:", "each player's numbers, in the order the table shows them"),
    _commented("#     points: {label: Points, start: 0, min: 0, max: 99, steps: [1, 5]}", "a tap adds or takes 1 or 5"),
    _commented("#   rounds: round", "or turn (whose turn is shown), or leave it out"),
    _commented("#   end:", "any of these ends the game"),
    _commented("#     reaches: {counter: points, value: 10}", "first to 10 points"),
    _commented("#     after_rounds: 8", "or after round 8"),
    _commented("#     by_hand: true", "or when the table says so"),
    _commented("#   winner: {counter: points, wins: highest}", "or lowest; tied players share the win"),
]
"""The commented ``scoring:`` example every game.yaml from a sheet ends with (see
:mod:`card_data.declared.scoring_declarations`)."""
