"""The pieces of history lines about a round's contest: its result, its notes and First
Blood; and the line of a round's end."""

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
    winner = state.first_blood_to(state.contest) if state.contest else None
    if winner is None:
        return line
    return then(line, Words("%(side)s takes %(token)s", side=state.side_name(winner),
                            token=state.catalog.first_blood.title))


def round_end_line(before: State, after: State) -> str:
    """The history line of a round's end (:func:`~.contest.end_round` from ``before`` to
    ``after``), e.g. "Round 1 resolved: Ann wins by Overpower (Ann 5, Bob 3); Ann takes First
    Blood; round 2 begins", or the game's end with its scores."""
    if before.step == "react":
        line = Words("Round %(round)d resolved: %(result)s", round=before.round,
                     result=with_first_blood(before, contest_line(before, before.contest)))
    else:  # an earlier maneuver resolved it
        line = Words("Round %(round)d over", round=before.round)
    if len(after.results) > len(before.results):
        result = after.results[-1]
        if before.next_cards:
            # Card titles: names in every language.
            titles = ", ".join(before.catalog.cards[p.card].title for p in before.next_cards)
            line = then(line, Words("no next round for %(cards)s: to their players' own score piles",
                                    cards=titles))
        if result.leftover:
            side = before.side_name(result.leftover_to)
            line = then(line, Words("%(count)d leftover card goes to %(side)s", count=result.leftover, side=side)
                        if result.leftover == 1 else
                        Words("%(count)d leftover cards go to %(side)s", count=result.leftover, side=side))
        # Names and numbers only: the same in every language.
        scores = " – ".join(f"{before.side_name(s)} {result.scores[s].total}" for s in (0, 1))
        line = Words("%(line)s. Game %(game)d over: %(scores)s", line=line, game=result.game, scores=scores)
        if after.finished:
            line = Words("%(line)s. %(summary)s", line=line, summary=after.summary())
    elif after.step == "ready":
        line = then(line, Words("round %(round)d begins", round=after.round))
    return line
