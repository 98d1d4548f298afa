"""The contest: judging a round from the readied cards and the effects in play (2019 How to
Play; Complex Resolutions), moving its cards once resolved, and the end of a game."""

from __future__ import annotations

from card_data.engine import Words
from card_data.games.cartisora.cards import (
    FORCED_RESULT_PRIORITY,
    CannotBeUndercut,
    Effect,
    ForcedResult,
    MoveCard,
    PowerModifier,
    WinCondition,
    WinsAgainstTies,
)
from card_data.games.cartisora.rules.catalog import (
    ACTION,
    MANEUVER,
    REACTION,
    SPECIAL_NUMBERED,
    CardInfo,
)
from card_data.games.cartisora.rules.state import (
    Contest,
    GameResult,
    How,
    Modifier,
    State,
)
from card_data.games.cartisora.rules.table import (
    at_step,
    draft_decks,
    start_game,
)


def target_side(player: str, side: int) -> int:
    """The side an effect of ``side``'s card concerns ("you" or "opponent")."""
    return side if player == "you" else 1 - side


def _compare(powers: list[int], cannot_undercut: list[str | None], edition: str) -> tuple[int | None, How, list[str]]:
    """Overpower, undercut or tie (2019 How to Play; Negative Power; 2017 Appendix I).

    ``cannot_undercut[side]`` names a card of that side that cannot be undercut, if any.
    Returns ``(winning side or None, how, notes)``.
    """
    if edition == "2017" and powers[0] <= 0 and powers[1] <= 0:
        return None, "nullified", [Words("both powers are 0 or less: the round is nullified (2017)")]
    if powers[0] == powers[1]:
        return None, "tie", []
    high = 0 if powers[0] > powers[1] else 1
    low = 1 - high
    if powers[high] - powers[low] >= 2:
        return high, "overpower", []
    # "Cannot" beats "can": these stop the exactly-1-lower card's undercut.
    if edition == "2019" and powers[low] == 0:
        return high, "overpower", [Words("0 cannot undercut")]
    if cannot_undercut[high]:
        return high, "overpower", [Words("%(card)s cannot be undercut", card=cannot_undercut[high])]
    return low, "undercut", []


ActingEffect = tuple[int, CardInfo, Effect]
"""An effect acting this round: the side whose card it is, the card, the effect."""


def _moved_and_acting(state: State, readied: list[CardInfo], notes: list[str]) -> tuple[list[bool], list[ActingEffect]]:
    """Moves first (2019 Complex Resolutions: effects that move or play cards occur before any
    other). Returns which sides' readied cards were moved to the tie pool and the
    ``(side, card, effect)`` of every effect that then acts: those of readied special numbered
    cards and actions not moved, and of reactions. A reaction or maneuver readied normally
    has no effect (2019 Reaction or Maneuvers played normally)."""
    sources: list[tuple[int, CardInfo, bool]] = []  # (side, card, readied?)
    for side, card in enumerate(readied):
        if card.kind in (SPECIAL_NUMBERED, ACTION):
            sources.append((side, card, True))
        elif card.kind in (REACTION, MANEUVER):
            notes.append(Words("%(card)s was readied normally: power 0, no effect", card=card.title))
    sources += [(state.side_of(p.seat), state.catalog.cards[p.card], False) for p in state.reactions]
    moved = [False, False]
    for side, card, _ in sources:
        for effect in card.effects:
            if isinstance(effect, MoveCard):
                target = target_side(effect.player, side)
                moved[target] = True
                notes.append(Words("%(card)s moves %(target)s to the tie pool: its effect does not occur, power 0",
                                   card=card.title, target=readied[target].title))
    effects = [(side, card, e) for side, card, is_readied in sources if not (is_readied and moved[side])
               for e in card.effects]
    return moved, effects


def _powers(state: State, readied: list[CardInfo], moved: list[bool],
            effects: list[ActingEffect], notes: list[str]) -> list[int | None]:
    """Each side's power: printed power plus this round's modifiers and those carried from
    last round, never below 0 in 2019 (Negative Power). Fixed at 0 for a moved card and a
    reaction or maneuver readied normally; ``None`` for an action (no number)."""
    change = [0, 0]
    for side, _, effect in effects:
        if isinstance(effect, PowerModifier) and effect.round == "this":
            change[target_side(effect.player, side)] += effect.amount
    for modifier in state.modifiers:
        change[modifier.side] += modifier.amount
    powers: list[int | None] = [None, None]
    for side, card in enumerate(readied):
        if moved[side] or card.kind in (REACTION, MANEUVER):
            powers[side] = 0
        elif card.kind != ACTION:
            power = card.power + change[side]
            if state.options.edition == "2019" and power < 0:
                notes.append(Words("%(card)s's power cannot fall below 0", card=card.title))
                power = 0
            powers[side] = power
    return powers


def _action_claims(readied: list[CardInfo], powers: list[int | None], notes: list[str]) -> list[tuple[str, int, str]]:
    """A readied action whose win condition is met claims a win (2019 Special Cards); one
    whose condition is unfulfilled has power 0 (2019 Unfulfilled condition). An action has
    no number, so to the other card's condition it counts as 0. Returns
    ``(result, side, card title)`` claims."""
    claims = []
    for side, card in enumerate(readied):
        if powers[side] is not None:
            continue
        conditions = [e for e in card.effects if isinstance(e, WinCondition)]
        opposing = powers[1 - side] or 0
        if any((c.opponent_power_min is None or opposing >= c.opponent_power_min)
               and (c.opponent_power_max is None or opposing <= c.opponent_power_max) for c in conditions):
            claims.append(("win", side, card.title))
            notes.append(Words("%(card)s's win condition is met", card=card.title))
        elif conditions:
            notes.append(Words("%(card)s's win condition is unfulfilled: power 0", card=card.title))
    return claims


def _settle_claims(state: State, claims: list[tuple[str, int, str]], notes: list[str]) -> int | None:
    """The winning side (``None``: a tie) when effects force results: a loss beats a tie beats
    a win (2019 Complex Resolutions). Claims of the top priority pointing different ways
    (each side's "you win") cancel into a tie (our reading)."""
    first = min(FORCED_RESULT_PRIORITY.index(result) for result, _, _ in claims)
    top = [c for c in claims if FORCED_RESULT_PRIORITY.index(c[0]) == first]
    outcomes = {None if result == "tie" else side if result == "win" else 1 - side for result, side, _ in top}
    for result, side, title in top:
        if result == "tie":
            notes.append(Words("%(card)s forces a tie", card=title))
        elif result == "win":
            notes.append(Words("%(card)s forces a win for %(side)s", card=title, side=state.side_name(side)))
        else:
            notes.append(Words("%(card)s forces a loss for %(side)s", card=title, side=state.side_name(side)))
    overruled = sorted({title for result, _, title in claims if FORCED_RESULT_PRIORITY.index(result) != first})
    if overruled:
        cards = ", ".join(overruled)  # card titles: names in every language
        beats = {"lose": Words("a loss beats %(cards)s: loss beats tie beats win", cards=cards),
                 "tie": Words("a tie beats %(cards)s: loss beats tie beats win", cards=cards),
                 "win": Words("a win beats %(cards)s: loss beats tie beats win", cards=cards)}
        notes.append(beats[FORCED_RESULT_PRIORITY[first]])
    if len(outcomes) > 1:
        notes.append(Words("these forced results point different ways: a tie"))
        return None
    return next(iter(outcomes))


def judge(state: State) -> Contest:
    """Work out the round's contest from the readied cards, reactions and carried modifiers.

    Order (2019 Complex Resolutions; play order never matters, only effect priority): moves
    first (:func:`_moved_and_acting`); powers (:func:`_powers`); action win conditions and
    forced results (:func:`_settle_claims`: a loss beats a tie beats a win); the power
    comparison (:func:`_compare`) when nothing is forced; last, "wins against ties" turns a
    tie, forced or not, into a win for the one side that has it (Brutal Strike vs Parry).
    """
    readied = [state.catalog.cards[c] for c in state.readied]
    notes: list[str] = []
    moved, effects = _moved_and_acting(state, readied, notes)
    powers = _powers(state, readied, moved, effects, notes)
    claims = _action_claims(readied, powers, notes)
    claims += [(e.result, target_side(e.player, side), card.title)
               for side, card, e in effects if isinstance(e, ForcedResult)]
    final_powers = [p or 0 for p in powers]

    def titled(kind: type, side: int) -> str | None:
        return next((c.title for s, c, e in effects if s == side and isinstance(e, kind)), None)

    if claims:
        winner, how = _settle_claims(state, claims, notes), "forced"
    else:
        cannot = [titled(CannotBeUndercut, side) for side in (0, 1)]
        winner, how, compare_notes = _compare(final_powers, cannot, state.options.edition)
        notes += compare_notes
    if winner is None and how != "nullified":
        breakers = [titled(WinsAgainstTies, side) for side in (0, 1)]
        if (breakers[0] is None) != (breakers[1] is None):
            winner = 0 if breakers[0] else 1
            how = "wins_against_ties"
            notes.append(Words("%(card)s wins against ties", card=breakers[winner]))

    next_round = tuple(Modifier(side=target_side(e.player, side), amount=e.amount, source=card.title)
                       for side, card, e in effects if isinstance(e, PowerModifier) and e.round == "next")
    return Contest(round=state.round, seats=state.active, cards=state.readied, powers=tuple(final_powers),
                   winner=winner, how=how, moved=tuple(moved), next_round=next_round, notes=tuple(notes))


def resolve(state: State) -> State:
    """Move the round's cards (2019 Round Result; 2017 How to Play, Appendix I Negative Power).

    Moved cards go to the tie pool first. Won: the winner takes the cards in play (readied,
    reaction and carried cards) and the tie pool, and First Blood if nobody has it (and, with
    the ``first_round`` reading, the round is the first: :meth:`State.first_blood_to`). Tie: the
    cards in play join the tie pool. Nullified (2017): each side's cards in play go to its
    own score pile (reactions too: our reading).
    """
    contest = state.contest
    tie_pool = list(state.tie_pool) + [c for side, c in enumerate(contest.cards) if contest.moved[side]]
    in_play = [[c for side, c in enumerate(contest.cards) if side == s and not contest.moved[side]]
               + [p.card for p in (*state.reactions, *state.carried) if state.side_of(p.seat) == s] for s in (0, 1)]
    piles = [list(p) for p in state.score_piles]
    first_blood = state.first_blood_side
    taker = state.first_blood_to(contest)
    if contest.how == "nullified":
        for side in (0, 1):
            piles[side] += in_play[side]
    elif contest.winner is None:
        tie_pool += in_play[0] + in_play[1]
    else:
        piles[contest.winner] += in_play[0] + in_play[1] + tie_pool
        tie_pool = []
        if taker is not None:
            first_blood = taker
    return at_step(state, "resolved", score_piles=piles, tie_pool=tie_pool, first_blood_side=first_blood,
                   next_modifiers=(*state.next_modifiers, *contest.next_round))


def end_game(state: State, out: list[bool]) -> State:
    """End the game after the last round (2019 Ending the Game; Leftover Cards; Bonus Points;
    Tie on Last Round). The last contest's winner takes the Finisher; if it tied (or, 2017,
    was nullified) nobody does and the tie pool is not counted. Cards played for a next round
    that never comes go to their own side's pile (our reading). If one side ran out first,
    the other side's remaining cards go to the score pile of the side that ran out. Then
    the match score is updated and the match ends or the next game is set up.
    """
    contest = state.contest
    piles = [list(p) for p in state.score_piles]
    for played in state.next_cards:
        piles[state.side_of(played.seat)].append(played.card)
    leftover_to = None
    leftover: list[str] = []
    if out[0] != out[1]:
        leftover_to = 0 if out[0] else 1
        leftover = [c for s in state.seats_of(1 - leftover_to) for c in state.hands[s]]
        piles[leftover_to] += leftover
    ended = state.evolve(score_piles=piles, finisher_side=contest.winner, tie_pool=(), uncounted=state.tie_pool,
                         hands=((),) * len(state.hands), readied=(), face_up=(False, False), reactions=(),
                         maneuvers=(), carried=(), next_cards=(), modifiers=(), next_modifiers=())
    scores = (ended.score(0), ended.score(1))
    winner = None if scores[0].total == scores[1].total else (0 if scores[0].total > scores[1].total else 1)
    games_won = list(state.games_won)
    if winner is not None:
        games_won[winner] += 1
    result = GameResult(game=state.game, decks=state.game_decks, scores=scores, winner=winner,
                        leftover=len(leftover), leftover_to=leftover_to if leftover else None,
                        rounds=len(state.round_log))
    ended = ended.evolve(results=(*state.results, result), games_won=games_won)
    remaining = state.options.match_length - state.game
    if remaining == 0 or abs(games_won[0] - games_won[1]) > remaining:
        return ended.evolve(phase="over")
    ended = ended.evolve(game=state.game + 1)
    if state.options.draft:
        return start_game(ended, draft_decks(ended, ended.game))
    return at_step(ended, "pick", game_decks=(None,) * len(state.players))


def end_round(state: State) -> State:
    """End the round at step ``react`` or ``resolved`` (2019 Round Result; Ending the Game):
    resolve it if no maneuver did, then start the next round (step ``ready``), or end the game
    when a side is out of cards (:func:`end_game`).

    Tag team: the 2019 losing team swaps active players, both teams on a tie (Appendix II); in
    either edition a player out of cards hands over to their partner (2017 Appendix III). The
    caller checks the step.
    """
    if state.step == "react":
        state = resolve(state)
    contest = state.contest
    active = list(state.active)
    if state.options.tag_team:
        if state.options.edition == "2019" and contest.how != "nullified":
            for side in (s for s in (0, 1) if s != contest.winner):
                partner = active[side] + 2 if active[side] < 2 else active[side] - 2
                if state.hands[partner]:
                    active[side] = partner
        for side in (0, 1):  # a player out of cards hands over to their partner
            if not state.hands[active[side]]:
                active[side] = next((s for s in state.seats_of(side) if state.hands[s]), active[side])
    state = state.evolve(active=active, round_log=(*state.round_log, contest))
    out = [not any(state.hands[s] for s in state.seats_of(side)) for side in (0, 1)]
    if any(out):
        return end_game(state, out)
    return at_step(state, "ready", round=state.round + 1, readied=(), face_up=(False, False),
                   reactions=tuple(p for p in state.next_cards if state.catalog.cards[p.card].kind == REACTION),
                   carried=tuple(p for p in state.next_cards if state.catalog.cards[p.card].kind != REACTION),
                   maneuvers=(), next_cards=(), contest=None, modifiers=state.next_modifiers, next_modifiers=(),
                   tagged=(False, False))
