"""Rule engines for the scorekeeper: one pure-Python module per game.

Each module (``carpe_cras``, ``cartisora``, ``cahrd``, ``carpe_diem``) exposes
``ENGINE``, an :class:`companion.rules.base.Engine`: ``new_state(players, options, game)``,
``apply(state, event) -> state`` (raises :class:`RuleError` naming the rule broken),
``outcome(state)`` and ``describe(state, event)``. No Flask, database or I/O imports here:
state in, event in, new state or a rule error out.
"""

from companion.rules.base import Engine, Outcome, RuleError


def engines() -> dict[str, Engine]:
    """Every game's engine by game id."""
    from companion.rules import cahrd, carpe_cras, carpe_diem, cartisora

    return {m.ENGINE.game_id: m.ENGINE for m in (carpe_cras, cartisora, cahrd, carpe_diem)}


__all__ = ["Engine", "Outcome", "RuleError", "engines"]
