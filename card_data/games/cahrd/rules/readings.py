"""Readings the C.A.H.R.D. rulebook leaves open, each a table option (:class:`~.book.Options`):
its values, the labels the new-table form gives them, its help quoting the rulebook's sentences
for each reading, and what the engine asks of it.

- ``first_turn_without_battle``: "no battle on the first turn" means each player's first turn
  of the battle (``"each_player"``) or only the battle's first turn, the starting player's
  (``"starting_player"``).
- ``vanguard_in_a_turn``: an officer declared a vanguard has battled and may not be declared a
  vanguard again that turn (``"battles_once"``), or may defend every attack of the turn
  (``"may_defend_again"``).
- ``lieutenant_cap``: "recruit two more" counts recruitments during the battle
  (``"recruits_per_battle"``) or lieutenants on the field at a time (``"on_the_field"``, so a
  defeated lieutenant's place may be filled again).

Tables stored before these options keep the reading they were played under (the engine's
``stored_defaults``: each player's first turn, a vanguard may defend again, recruitments
counted per battle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from card_data.engine import Words

if TYPE_CHECKING:
    from card_data.games.cahrd.rules.book import Options
    from card_data.games.cahrd.rules.state import FieldOfficer, State

FirstTurnWithoutBattle = Literal["each_player", "starting_player"]
VanguardInATurn = Literal["battles_once", "may_defend_again"]
LieutenantCap = Literal["recruits_per_battle", "on_the_field"]

# The default of each is the engine's reading before the option existed, unless the rulebook's
# text favours the other (the reason is given at each default).

# Summary of the steps (Battle Step) says "except on the first turn". Step 1 says "the first
# turn for a player" where it means each player's, which suggests that the bare "the first turn"
# is the battle's; but the Summary's own Draw Step says "the first turn of the game" for what
# Step 1 gives each player (both reveal their officers on their first turn), so its "first turn"
# may be each player's too. The text favours neither: the old reading stays the default.
DEFAULT_FIRST_TURN: FirstTurnWithoutBattle = "each_player"
FIRST_TURN_LABELS = {
    "each_player": Words("Each player's first turn"),
    "starting_player": Words("Only the starting player's first turn"),
}
FIRST_TURN_HELP = Words(
    'Summary of the steps (Battle Step): "You may do battle with officers in this step (except on the first '
    'turn)." Step 1: The Draw Step: "If this is the first turn for a player, draw a card on this step, then reveal '
    'your officers." Either each player\'s first turn, or only the battle\'s first turn (the starting player\'s).')

# Glossary of Terms (Battle/Battled): an officer "Battles" the moment it "is declared a vanguard",
# and an officer whose attack stopped "may not battle again that turn": an officer battles once a
# turn, and being declared a vanguard is battling. The Vanguard Step itself bars only officers
# that attacked the previous turn. The Glossary favours "once", so it is the default for new
# tables (before the option, the engine let a vanguard defend again).
DEFAULT_VANGUARD: VanguardInATurn = "battles_once"
VANGUARD_LABELS = {
    "battles_once": Words("No: a vanguard has battled this turn"),
    "may_defend_again": Words("Yes: it may defend every attack"),
}
VANGUARD_HELP = Words(
    'Glossary of Terms (Battle/Battled): "An officer \'Battles\' (and is battling) the moment it attacks or is '
    'declared a vanguard." and "the officer may not battle again that turn." Step 4: The Vanguard Step: "This '
    'officer may not attack the previous turn to be eligible to be a defender." Either once a turn, or again for '
    'each attack; a card\'s effect may allow it either way.')

# The Game Mat (6 - The Lieutenant Zone) and Officer Card (How to Read) both say "recruit two
# more": it may count recruitments or places in the zone. Neither says a defeated lieutenant's
# place may be filled again, nor that it may not: the old reading stays the default.
DEFAULT_LIEUTENANT_CAP: LieutenantCap = "recruits_per_battle"
LIEUTENANT_CAP_LABELS = {
    "recruits_per_battle": Words("Recruitments in the battle (a defeated lieutenant is not replaced)"),
    "on_the_field": Words("Lieutenants on the field at a time (a defeated lieutenant may be replaced)"),
}
LIEUTENANT_CAP_HELP = Words(
    'The Game Mat (6 - The Lieutenant Zone): "You start with one lieutenant with the ability to recruit two more '
    'later." Officer Card (How to Read): "You start the game with one lieutenant and you can recruit up to two '
    'more." Either two recruitments a battle, or at most three lieutenants on the field at a time.')

STORED_DEFAULTS = {"first_turn_without_battle": "each_player", "vanguard_in_a_turn": "may_defend_again",
                   "lieutenant_cap": "recruits_per_battle"}
"""The reading of each option that tables stored before it was played under."""


def readings_in_force(options: Options) -> tuple[tuple[str, str], ...]:
    """``(option title, the chosen reading's label)`` of each reading option of ``options``, as
    the new-table form names them (both :class:`~card_data.engine.Words`), for the table page."""
    fields = type(options).model_fields
    return tuple((fields[name].title, fields[name].json_schema_extra["labels"][getattr(options, name)])
                 for name in STORED_DEFAULTS)


def no_battle_this_turn(state: State) -> bool:
    """Whether the turn in progress is a first turn on which this table's reading forbids battle."""
    if state.options.first_turn_without_battle == "starting_player":
        return state.turn <= 1
    return state.armies[state.initiative].turns_taken <= 1


def battled_this_turn(state: State, officer: FieldOfficer) -> bool:
    """Whether ``officer`` was declared a vanguard this turn and this table's reading counts
    that as its battle of the turn (so it may not be declared a vanguard again)."""
    return state.options.vanguard_in_a_turn == "battles_once" and officer.vanguard_turn == state.turn


def lieutenants_counted(state: State, seat: int) -> tuple[int, int]:
    """``(counted, most)`` of ``seat``'s lieutenants as this table's reading counts them:
    recruitments this battle against the tables' ``max_extra_lieutenants``, or lieutenants on
    the field against ``starting_lieutenants + max_extra_lieutenants``."""
    army, constants = state.armies[seat], state.constants
    if state.options.lieutenant_cap == "on_the_field":
        return len(army.lieutenants), constants.starting_lieutenants + constants.max_extra_lieutenants
    return army.lieutenants_recruited, constants.max_extra_lieutenants
