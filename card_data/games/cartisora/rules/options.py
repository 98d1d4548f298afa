"""A Duels of Cartisora table's options: the rulebook edition, the match length, draft mode
and the tag team, with the draft's order of bans and picks."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, TypeAdapter, ValidationError, model_validator

from card_data.engine import Model, Words

Edition = Literal["2019", "2017"]

DRAFT_PICK_ORDER = (0, 1, 1, 0, 0, 1)
"""Which seat makes each draft pick: the rulebook's grid numbers Player 1's picks 1, 4, 5 and
Player 2's picks 2, 3, 6 (2017 rulebook, Appendix II: Draft Mode; the 2019 text lost its grid)."""
DRAFT_BAN_ORDER = (0, 1)
"""With more than 6 decks, each player bans one, Player 1 first (2019 Appendix I: Draft Mode)."""
DRAFT_GAMES = 3
"""Draft mode plays 3 games (the rulebook's "matches"), 3 decks each (2019 Appendix I)."""


class Options(Model):
    """Table options.

    Attributes:
        edition: ``"2019"`` (default) or ``"2017"``: negative power, undercutting with 0 and
            the tag team differ (see the module docstring).
        match_length: games in the match: 1, or best of 3 or 5 (2017 rulebook, Ending the
            Game). Draft mode always plays 3: a match length left at 1 becomes 3.
        draft: draft mode (2019 Appendix I; 2017 Appendix II): 2 players draft 3 decks each
            and play them in the order picked, banning one each first if more than 6 decks exist.
        tag_team: the 4-player tag team (2019 Appendix II; 2017 Appendix III).
    Values may come as form strings (``"3"``, ``"true"``). Raises ``ValueError`` (pydantic
    ``ValidationError``) for draft mode with a match of 5.
    """

    edition: Edition = Field("2019", title=Words("Rulebook edition"),
                             description=Words("2019 (Analog Game Studios) or 2017 (Moshe-Tozer Games)"))
    match_length: Literal[1, 3, 5] = Field(1, title=Words("Games in the match"),
                                           description=Words("1, or best of 3 or 5; draft mode plays 3"))
    draft: bool = Field(False, title=Words("Draft mode"),
                        description=Words("2 players draft 3 decks each and play them in the order picked"))
    tag_team: bool = Field(False, title=Words("Tag team"),
                           description=Words("4 players in 2 teams (seats 1 & 3 against 2 & 4)"))

    @model_validator(mode="before")
    @classmethod
    def _form_values(cls, data: object) -> object:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if isinstance(data.get("match_length"), str) and data["match_length"].strip().isdigit():
            data["match_length"] = int(data["match_length"])
        try:
            draft = TypeAdapter(bool).validate_python(data.get("draft", False))
        except ValidationError:
            return data  # the field's own validation reports it
        if draft and data.get("match_length", 1) == 1:
            data["match_length"] = DRAFT_GAMES
        return data

    @model_validator(mode="after")
    def _draft_match_length(self) -> Options:
        if self.draft and self.match_length != DRAFT_GAMES:
            raise ValueError(Words("draft mode plays %(games)d games (2019 rulebook, Appendix I: "
                                   "Draft Mode), not %(length)d", games=DRAFT_GAMES, length=self.match_length))
        return self
