"""Which glossary entries a card's rules text (or a ruling) uses."""

from __future__ import annotations

import re

from card_data.schema import Card, GlossaryEntry


def name_pattern(name: str) -> re.Pattern[str]:
    """Regex finding ``name`` as a whole word or phrase, ignoring case and spacing.

    Look-arounds stand in for ``\\b`` so names that start or end with a non-word
    character (e.g. ``"+1"``) still match only on word boundaries.
    """
    words = [re.escape(w) for w in name.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)


def entry_names(entry: GlossaryEntry) -> list[str]:
    """Names a card's text may use for ``entry``: its term and aliases.

    An entry whose name the source text lost (``name_lost``) has none: it is listed on the
    game's glossary page but never matched by name.
    """
    if entry.name_lost or entry.term is None:
        return []
    return [n for n in [entry.term, *entry.aliases] if n.strip()]


def entries_used_by(card: Card, glossary: list[GlossaryEntry]) -> list[GlossaryEntry]:
    """Glossary entries whose term or an alias occurs in ``card.glossary_text()``.

    Returns them in glossary order; matching is case-insensitive on word boundaries.
    """
    return entries_in_text(card.glossary_text(), glossary)


def entries_in_text(text: str, glossary: list[GlossaryEntry]) -> list[GlossaryEntry]:
    """Glossary entries whose term or an alias occurs in ``text`` (e.g. a ruling's), in
    glossary order; matching is case-insensitive on word boundaries."""
    if not text:
        return []
    return [
        entry
        for entry in glossary
        if any(name_pattern(name).search(text) for name in entry_names(entry))
    ]
