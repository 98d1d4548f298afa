"""Short card addresses for the printed QR codes: ``<BASE>/Q/<CODE>``.

Why short: a card's rulings address (``http://192.168.1.20:5000/r/carpe_diem/fountain-gardens/2``)
makes a QR version 4 code, 33 modules across; in the cards' 15 mm QR region (quiet zone
included) a module is then 0.37 mm, and common scanners (zbar, which many phone apps use)
miss such codes in a photo. ``HTTP://192.168.1.20:5000/Q/7K3F9Q2M`` (35 characters) is a
version 2 code at error correction M: 25 modules, 0.45 mm each in the same 15 mm.

Why upper case: QR codes have an alphanumeric mode for digits, upper-case letters, space and
``$%*+-./:`` that takes 5.5 bits a character instead of byte mode's 8; version 2 at M holds 38
such characters but only 26 bytes. A URL's scheme and host name are case-insensitive (RFC 3986,
3.1 and 3.2.2), so the base URL's scheme and host are written in upper case and every phone
opens the same server; its path, if any, is case-sensitive and is kept as written (a lower-case
path then needs byte mode, and printkit warns when the codes come out too small). The code is
upper case too, and the companion answers ``/Q/<CODE>`` and ``/q/<code>`` in either case.

What a code is: the first :data:`CODE_BITS` bits of a SHA-256 digest of the printed card
version (game id, card id and printed version, or no version for a game without
``printings.yaml``), written in Crockford's base 32 (digits and upper-case letters without
I, L, O and U, which read like 1, 1, 0 and V). It is computed, not stored: every build prints
the same code for the same card version, and the companion computes the same map from the card
database when it starts (:func:`code_map`). Old printed codes keep working: the map holds every
version a QR code may carry (:func:`card_data.editions.printings.printed_versions`, older versions
included), and every card's unversioned code too, for copies printed before the game recorded
versions. At 40 bits two card versions of one database share a code with a chance of about
n^2 / 2^41 (one in 22,000 for 10,000 card versions); :func:`code_map` reports such a pair as a
problem rather than send a player to the wrong card.

THE DIGEST, ITS INPUT AND THE ALPHABET MUST NEVER CHANGE: every printed card carries its code.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from card_data.problems import Problem

if TYPE_CHECKING:
    from card_data.loader import Game

SHORT_PATH = "Q"
"""The path segment of short addresses: ``<BASE>/Q/<CODE>`` (upper case: alphanumeric mode)."""

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: 5 bits a character, all of them in QR's alphanumeric set."""

CODE_LENGTH = 8
"""Characters of a code: 40 bits. ``HTTPS://CARDS.EXAMPLE.ORG/Q/`` plus 8 is 36 characters,
within the 38 a version 2 code holds at error correction M."""

CODE_BITS = 5 * CODE_LENGTH

_DIGEST_LABEL = b"printkit card code 1\0"
"""Put before every digest input, so the codes are this scheme's own and could be versioned."""

_ALIASES = str.maketrans({"O": "0", "I": "1", "L": "1"})
"""Letters Crockford's alphabet leaves out, read as the digits they look like (a typed code)."""


@dataclass(frozen=True, order=True)
class PrintedCard:
    """One printed card version a QR code may carry: ``version`` is ``None`` for a card of a
    game that records no versions (its code and page carry none)."""

    game_id: str
    card_id: str
    version: int | None

    @property
    def code(self) -> str:
        """Its short code (:func:`card_code`)."""
        return card_code(self.game_id, self.card_id, self.version)

    @property
    def page_path(self) -> str:
        """The companion's page it opens: ``/r/<game>/<card>/<version>``, or ``/r/<game>/<card>``."""
        path = f"/r/{self.game_id}/{self.card_id}"
        return path if self.version is None else f"{path}/{self.version}"

    def __str__(self) -> str:
        return f"{self.game_id}/{self.card_id}" + ("" if self.version is None else f" v{self.version}")


def card_code(game_id: str, card_id: str, version: int | None) -> str:
    """The short code of one printed card version: :data:`CODE_LENGTH` characters of
    :data:`CODE_ALPHABET`, e.g. ``"7K3F9Q2M"``; the same on every machine and in every build."""
    key = "\0".join((game_id, card_id, "" if version is None else str(version))).encode("utf-8")
    value = int.from_bytes(hashlib.sha256(_DIGEST_LABEL + key).digest()[:8], "big") >> (64 - CODE_BITS)
    return "".join(CODE_ALPHABET[(value >> shift) & 31] for shift in range(CODE_BITS - 5, -1, -5))


def normalise_code(text: str) -> str | None:
    """``text`` as a code of :data:`CODE_ALPHABET` (upper case, ``O`` read as ``0`` and ``I``,
    ``L`` as ``1``), or ``None`` when it cannot be one (wrong length or characters)."""
    code = text.strip().upper().translate(_ALIASES)
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def qr_base_url(base_url: str) -> str:
    """``base_url`` as the QR codes write it: scheme and host in upper case (RFC 3986 makes both
    case-insensitive), port and path as given, no trailing slash:
    ``"https://Cards.example.org/Kit/"`` -> ``"HTTPS://CARDS.EXAMPLE.ORG/Kit"``.
    A user name or password before the host, which are case-sensitive, stays as written."""
    parts = urlsplit(base_url.strip())
    userinfo, _, hostport = parts.netloc.rpartition("@")
    netloc = (f"{userinfo}@" if userinfo else "") + hostport.upper()
    return f"{parts.scheme.upper()}://{netloc}{parts.path}".rstrip("/")


def short_url(base_url: str, code: str) -> str:
    """The address a card's QR code encodes: ``<BASE>/Q/<code>`` (:func:`qr_base_url`)."""
    return f"{qr_base_url(base_url)}/{SHORT_PATH}/{code}"


def printed_cards(game: Game) -> Iterator[PrintedCard]:
    """Every card version of ``game`` whose QR code may be in a player's hands, in card order:
    each card's unversioned code (what a copy printed before the game recorded versions
    carries) and, in a game with versions, each version of it a copy may carry
    (:func:`~card_data.editions.printings.printed_versions`: the recorded ones and an unreleased
    current one)."""
    # Imported here: printkit's QR drawing imports this module, and the card schemas behind
    # card_data.editions.printings cost every command that never loads a card.
    from card_data.editions.printings import printed_versions

    for card_id in game.cards:
        yield PrintedCard(game.game_id, card_id, None)
        if game.printings.versioned:
            for version in printed_versions(game.printings, game.cards[card_id]):
                yield PrintedCard(game.game_id, card_id, version)


def code_map(games: Iterable[Game]) -> tuple[dict[str, PrintedCard], list[Problem]]:
    """``({code: printed card version}, problems)`` over every :func:`printed_cards` of ``games``.

    Two card versions that share a code are a problem each (at the card's file and line, field
    ``id``, naming the other card), and the code maps to neither: no player is sent to the wrong
    card. ``games`` must be every game one server answers for (a code names no game).
    """
    found: dict[str, PrintedCard] = {}
    clashes: dict[str, list[PrintedCard]] = {}
    sources: dict[tuple[str, str], tuple[str, int]] = {}
    for game in games:
        for card in printed_cards(game):
            sources.setdefault((card.game_id, card.card_id), game.sources.get(("card", card.card_id), ("", 0)))
            code = card.code
            if code in clashes:
                clashes[code].append(card)
            elif code in found:
                clashes[code] = [found.pop(code), card]
            else:
                found[code] = card
    problems = []
    for code, cards in clashes.items():
        for card in cards:
            others = ", ".join(str(other) for other in cards if other != card)
            file, line = sources[(card.game_id, card.card_id)]
            problems.append(Problem(file, line, card.game_id, card.card_id, "id",
                                    f"the QR short code {code} of {card} is also that of {others}: a player "
                                    f"scanning one could be sent to the other; give the card that has not been "
                                    f"printed yet another id (a printed card's id must not change)"))
    return found, problems
