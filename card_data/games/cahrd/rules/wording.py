"""What the C.A.H.R.D. engine says that is not one event's own: the names of zones, steps,
positions and readings, and the refusals and history lines several events share (each a
:class:`~card_data.engine.Words`, said in the player's language by the pages)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from card_data.engine import Words

if TYPE_CHECKING:
    from card_data.games.cahrd.rules.state import State, ZoneCard

ZONE_NAMES = {"tactics": Words("Tactics Zone"), "items": Words("Items Zone")}
STEP_LABELS = {
    "setting_up": Words("Set-up: place your officers"),
    "between_turns": Words("Next: Draw Step"),
    "draw": Words("Draw Step done: Recruitment Step next"),
    "strategy": Words("Strategy Step"),
    "battle": Words("Battle Step"),
    "battle_over": Words("Battle over"),
}
TOKEN_READINGS = {
    "initiative_player": Words("the initiative player (Glossary of Terms: Defeated)"),
    "defeating_player": Words("the player who defeated the lieutenant (Defeat three Lieutenants)"),
}
POSITION_NAMES = {"commander": Words("commander"), "strategist": Words("strategist"),
                  "lieutenant": Words("lieutenant")}
"""Each officer position as a choice's note names it."""
A_KIND = {"officer": Words("an officer"), "item": Words("an item"), "tactic": Words("a tactic"),
          "strategy": Words("a strategy")}
"""Each card type with its article, as refusals say it (``"... is an item"``)."""
STRATEGIST_NOTE = Words("strategist: only by a card's effect")


def battle_is_over(state: State) -> Words:
    """The refusal of an event that needs a battle going, after the battle is over."""
    return Words("battle %(n)d is over: start the next battle first", n=state.battle_number)


def join_parts(parts: Sequence[Words]) -> Words:
    """``parts`` (at least one) as one ``"a; b; c"`` message, each part still translatable."""
    joined = parts[0]
    for part in parts[1:]:
        joined = Words("%(first)s; %(then)s", first=joined, then=part)
    return joined


def men_line(before: State, after: State, seat: int, card: str) -> Words:
    old = before.armies[seat].officer(card)
    new = after.armies[seat].officer(card)
    title = before.title(card)
    if new is None:
        line = Words("%(title)s loses its last men and is defeated", title=title)
        if old.position == "lieutenant":
            holder = next(s for s in range(2) if after.armies[s].defeat_tokens > before.armies[s].defeat_tokens)
            line = Words("%(line)s; %(player)s gets a defeat token (%(n)d)", line=line,
                         player=after.players[holder], n=after.armies[holder].defeat_tokens)
            by = after.armies[seat].defeated[-1].defeated_by
            if by != holder:
                line = Words("%(line)s, though %(player)s defeated it", line=line, player=after.players[by])
        return line
    return Words("%(title)s men under command %(old)d → %(new)d", title=title, old=old.men_under_command,
                 new=new.men_under_command)


def with_result(line: Words, before: State, after: State) -> Words:
    """``line``, followed by the battle's result if this event ended the battle."""
    if len(after.results) == len(before.results):
        return line
    result = after.results[-1]
    won = (Words("%(player)s wins battle %(n)d", player=after.players[result.winner], n=after.battle_number)
           if result.winner is not None else Words("battle %(n)d is drawn", n=after.battle_number))
    return Words("%(line)s. %(result)s: %(reason)s", line=line, result=won, reason=result.reason)


def not_of_army(state: State, card: str, seat: int) -> Words:
    """The refusal of officer ``card``, not one of ``seat``'s army."""
    return Words("%(title)s is not an officer of %(name)s's army (%(army)s)", title=state.title(card),
                 name=state.players[seat], army=state.army_id(seat))


def cannot_pay(title: str, cost: int, name: str, reserves: int) -> Words:
    """The refusal of a cost of ``cost`` reserves that player ``name``, holding ``reserves``, cannot pay."""
    return Words("%(title)s costs %(cost)d reserves and %(name)s has only %(have)d", title=title, cost=cost,
                 name=name, have=reserves)


def not_on_field(state: State, card: str, name: str) -> Words:
    """The refusal of officer ``card``, not on player ``name``'s field."""
    return Words("%(title)s is not on %(name)s's field", title=state.title(card), name=name)


def zone_card_name(state: State, card: ZoneCard) -> Words:
    """``card`` of a zone as lines name it: its title when face up, else a face-down card."""
    return (Words("%(title)s (face up)", title=state.title(card.card)) if card.face_up
            else Words("a face-down card"))
