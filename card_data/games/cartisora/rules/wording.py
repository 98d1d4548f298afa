"""How the engine cites the two rulebooks (:func:`cite`: the edition's heading for a topic)
and words a contest's result, and the helpers that keep joined words translatable."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from card_data.engine import Words

HOW_WORDS: dict[str, Words] = {
    "overpower": Words("Overpower"), "undercut": Words("Undercut"), "forced": Words("a forced result"),
    "wins_against_ties": Words("winning against a tie")}
"""How a side won, as "<side> wins by <how>" says it."""

HOW_SHORT: dict[str, Words] = {
    "overpower": Words("overpower"), "undercut": Words("undercut"), "forced": Words("forced"),
    "wins_against_ties": Words("wins against ties")}
"""How a side won, as the round log says it: "Bob wins (undercut)"."""

_SECTIONS: dict[str, tuple[Words, Words]] = {
    # topic: (2019 heading, 2017 heading)
    "players": (Words("Setup (2 players); Appendix II: Tag Team (4 players)"),
                Words("Setup (2 players); Appendix III: Tag Team (4-Player)")),
    "setup": (Words("Setup"), Words("Setup")),
    "draft": (Words("Appendix I: Draft Mode"), Words("Appendix II: Draft Mode")),
    "round": (Words("How to Play"), Words("How to Play")),
    "reactions": (Words("Reaction Cards"), Words("Reactions")),
    "maneuvers": (Words("Maneuvers"), Words("Maneuvers")),
    "tag_team": (Words("Appendix II: Tag Team"), Words("Appendix III: Tag Team (4-Player)")),
    "face_up": (Words("How to Play"), Words("Appendix I: Special Circumstances (Ready Face Up)")),
    "end": (Words("Ending the Game"), Words("Ending the Game")),
}

RULEBOOKS = Words("2019 and 2017 rulebooks")


def cite(edition: str, topic: str, text: Words) -> Words:
    """``"<edition> rulebook, <heading>: <text>"`` for a topic of :data:`_SECTIONS`."""
    heading = _SECTIONS[topic][0 if edition == "2019" else 1]
    return Words("%(edition)s rulebook, %(section)s: %(rule)s", edition=edition, section=heading, rule=text)


def listed(pieces: Sequence[str], separator: Literal[", ", "; "]) -> str:
    """``pieces`` (Words or names, at least one) joined by ``separator``, kept translatable:
    the one piece, or a :class:`Words` ``"<first><separator><rest>"``."""
    if len(pieces) == 1:
        return pieces[0]
    rest = listed(pieces[1:], separator)
    if separator == "; ":
        return Words("%(first)s; %(rest)s", first=pieces[0], rest=rest)
    return Words("%(first)s, %(rest)s", first=pieces[0], rest=rest)


def then(line: str, more: str) -> Words:
    """``"<line>; <more>"``: a history line going on."""
    return Words("%(line)s; %(more)s", line=line, more=more)
