"""Pydantic v2 schemas: the shared pieces (:mod:`.common`) and one module per game.

Each game module exposes ``SPEC``, a :class:`card_data.schemas.common.GameSpec`.
"""

from card_data.schemas.common import GameSpec


def game_specs() -> dict[str, GameSpec]:
    """All known games by id: ``{"carpe_cras": GameSpec, ...}``."""
    from card_data.schemas import cahrd, carpe_cras, carpe_diem, cartisora

    return {m.SPEC.game_id: m.SPEC for m in (carpe_cras, cartisora, cahrd, carpe_diem)}
