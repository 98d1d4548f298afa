"""A Duels of Cartisora table's options: the rulebook edition, the match length, draft mode,
the tag team and the reading of First Blood, with the draft's order of bans and picks."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, TypeAdapter, ValidationError, model_validator

from card_data.engine import Model, Words

Edition = Literal["2019", "2017"]
FirstBlood = Literal["first_win", "first_round"]
"""Who takes the 2019 First Blood token: ``"first_win"``, the first player to win a contest
(Ending the Game, Bonus Points; the default and the only 2017 reading), or ``"first_round"``,
the winner of round 1 only (How to Play, Round Result): nobody after a tied first round."""

FIRST_BLOOD_QUOTES = {"first_win": Words("The first player to win a contest gets the First Blood token."),
                      "first_round": Words("If this is the first round, also take the First Blood token.")}
"""The 2019 rulebook's sentence behind each reading: ``first_win`` from Ending the Game, Bonus
Points (First Blood); ``first_round`` from How to Play, Round Result."""
FIRST_BLOOD_LABELS = {"first_win": Words("The first player to win a contest"),
                      "first_round": Words("The winner of round 1 only")}
"""What the new-table form and the table page call each reading of :data:`FirstBlood`."""

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
        first_blood: who takes First Blood in the 2019 rules (:data:`FirstBlood`); the 2017
            rulebook has only the first reading.
    Values may come as form strings (``"3"``, ``"true"``). Raises ``ValueError`` (pydantic
    ``ValidationError``) for draft mode with a match of 5, and for the first-round reading of
    First Blood with the 2017 edition.
    """

    edition: Edition = Field("2019", title=Words("Rulebook edition"),
                             description=Words("2019 (Analog Game Studios) or 2017 (Moshe-Tozer Games)"))
    match_length: Literal[1, 3, 5] = Field(1, title=Words("Games in the match"),
                                           description=Words("1, or best of 3 or 5; draft mode plays 3"))
    draft: bool = Field(False, title=Words("Draft mode"),
                        description=Words("2 players draft 3 decks each and play them in the order picked"))
    tag_team: bool = Field(False, title=Words("Tag team"),
                           description=Words("4 players in 2 teams (seats 1 & 3 against 2 & 4)"))
    # The 2019 rulebook says it twice and the two differ after a tied first round. The default
    # stays the first reading (what tables have always played): Bonus Points is the section
    # that defines the token, the 2017 rulebook says only that, the card data's rulings read it
    # so, and Round Result's sentence is met by it whenever round 1 has a winner (the usual case);
    # the text does not favour the other reading. Tables stored before this option keep it
    # (the engine's stored_defaults).
    first_blood: FirstBlood = Field(
        "first_win", title=Words("First Blood (2019)"),
        description=Words('%(win_label)s: "%(win)s" (2019 rulebook, Ending the Game, Bonus Points); %(round_label)s: '
                          '"%(round)s" (2019 rulebook, How to Play, Round Result): after a tied first round nobody '
                          'takes it', win_label=FIRST_BLOOD_LABELS["first_win"], win=FIRST_BLOOD_QUOTES["first_win"],
                          round_label=FIRST_BLOOD_LABELS["first_round"], round=FIRST_BLOOD_QUOTES["first_round"]),
        json_schema_extra={"labels": FIRST_BLOOD_LABELS})

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
        if self.edition == "2017" and self.first_blood != "first_win":
            raise ValueError(Words("the 2017 rulebook gives First Blood to the first player to win a contest "
                                   "(Bonus Points); the first-round reading is a 2019 one"))
        return self
