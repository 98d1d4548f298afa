"""The base every schema model shares, and the slug type of ids (see :mod:`card_data.schema`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, StringConstraints

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
"""What an id is: lower-case letters and digits, words joined by single hyphens."""

Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=48)]
"""A card id: lower-case words joined by hyphens, e.g. ``barbarian-tyro``. Used in QR URLs forever."""


class Strict(BaseModel):
    """Base for every schema model: unknown fields are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)
