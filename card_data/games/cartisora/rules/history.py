"""The pieces of history lines about a round's contest: its result, its notes and First
Blood."""

from __future__ import annotations

from card_data.engine import Words
from card_data.games.cartisora.rules.state import Contest, State
from card_data.games.cartisora.rules.wording import HOW_WORDS, listed, then


def contest_line(state: State, contest: Contest) -> Words:
    """E.g. "Bob wins by Undercut (Ann 5, Bob 4)" or "tie (Ann 3, Bob 3): cards to the tie pool"."""
    # Names and numbers only: the same in every language.
    powers = ", ".join(f"{state.side_name(side)} {contest.powers[side]}" for side in (0, 1))
    if contest.how == "nullified":
        return Words("nullified (%(powers)s): each card to its own score pile", powers=powers)
    if contest.winner is None:
        if contest.how == "forced":
            return Words("forced tie (%(powers)s): cards to the tie pool", powers=powers)
        return Words("tie (%(powers)s): cards to the tie pool", powers=powers)
    return Words("%(wins)s by %(how)s (%(powers)s)", wins=state.side_wins(contest.winner), how=HOW_WORDS[contest.how],
                 powers=powers)


def with_notes(line: str, contest: Contest) -> str:
    """``"<line> [<note>; <note>]"``, or the line alone when the contest has no notes."""
    if not contest.notes:
        return line
    return Words("%(line)s [%(notes)s]", line=line, notes=listed(contest.notes, "; "))


def with_first_blood(state: State, line: str) -> str:
    """``line`` + ``"; Ann takes First Blood"`` if resolving the round now gives its winner the token."""
    winner = state.contest.winner if state.contest and state.contest.how != "nullified" else None
    if winner is None or state.first_blood_side is not None:
        return line
    return then(line, Words("%(side)s takes %(token)s", side=state.side_name(winner),
                            token=state.catalog.first_blood.title))
