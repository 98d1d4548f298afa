"""Problems found in a card database, reported as ``FILE:LINE: game/card-id: field: message``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the card database.

    Attributes:
        file: path of the YAML file, as given to the loader (str).
        line: 1-based line number in ``file`` nearest to the problem.
        game: game id (the database folder name), e.g. ``"carpe_cras"``.
        card_id: card, deck or glossary id the problem belongs to, or ``"-"``.
        field: dotted field path inside that record, e.g. ``"skills.0.power"``.
        message: what is wrong, in plain words.
    """

    file: str
    line: int
    game: str
    card_id: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.game}/{self.card_id}: {self.field}: {self.message}"


class DatabaseError(Exception):
    """Raised when a card database has problems; ``problems`` lists every one of them."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
