"""What players print: a game's kit, from its deck lists and ``card_data/<game>/kit.yaml``.

``printkit build`` prints, by default, what it takes to play: every deck list of the game in
its quantities, plus the cards no deck list holds that players still need. ``--catalog``
prints every card once instead (for designers). ``kit.yaml`` (optional; the loader ignores
it, this module reads it) says what a deck list alone cannot::

    first_game: >-                      # what to print for a first game (the index page says it)
      Both draw decks and both agency decks, ...
    choose_one:                         # deck lists of which one game uses one (by player count):
      - name: scoring                   #   printed together as scoring-cards.pdf, each card as
        title: Scoring cards            #   often as the most any of the lists needs
        by: player count
        decks: [scoring-2p, scoring-3p, scoring-4p]
    extra_cards:                        # cards no deck list holds that players need
      - {card: fountain-gardens, qty: 1}
    leave_out:                          # cards no deck list holds, and why they are not printed
      first-blood: a punch-out token in tokens.pdf
    files:                              # copies and notes for the other files (boards, tokens, pads)
      game-mat.pdf: {copies: 2, note: one per player}

Without ``kit.yaml`` every deck list prints in its quantities; a game with no deck lists at all
prints its catalogue (every card once), so a new game always prints something.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from card_data.reading.card_store import CardRefs, CardStore
from card_data.loader import Database, Game
from card_data.problems import DatabaseError, Problem
from card_data.schema import Card, Slug
from card_data.reading.yaml_source import LineMap, YamlSyntaxError, load_yaml
from printkit.sheets.decklist import cards_for_deck, find_deck, game_for_deck

KIT_FILE = "kit.yaml"


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChooseOne(_Spec):
    """Deck lists of which a game uses one, printed as one file ``<name>-cards.pdf``."""

    name: Slug
    title: str = Field(min_length=1)
    by: str = Field(min_length=1, description="what decides which list is used, e.g. 'player count'")
    decks: list[Slug] = Field(min_length=2)


class ExtraCard(_Spec):
    """A card no deck list holds that players need, and how many copies."""

    card: Slug
    qty: int = Field(default=1, ge=1, le=99)


class FileNote(_Spec):
    """How many copies of a non-card file (board, tokens, pad) a game needs, and why."""

    copies: int = Field(default=1, ge=1, le=99)
    note: str | None = None


class KitSpec(_Spec):
    """``card_data/<game>/kit.yaml``; see the module's docstring."""

    first_game: str | None = None
    choose_one: list[ChooseOne] = []
    extra_cards: list[ExtraCard] = []
    leave_out: dict[Slug, str] = {}
    files: dict[str, FileNote] = {}


@dataclass(frozen=True)
class CardJob:
    """One card file of the kit.

    Attributes:
        name: file-name prefix: the file is ``<name>-cards.pdf`` (a deck id, a group's name, or a
            back kind in the catalogue).
        kind: the back kind (a key of the game's ``backs``).
        title: what the file holds, for the index page (e.g. ``"Might / Cunning – draw deck"``).
        cards: the cards in print order, each as many times as it prints (a
            :class:`~card_data.reading.card_store.CardRefs`: ids, each card read when drawn).
        note: extra words for the index page (e.g. which list to use for which player count).
    """

    name: str
    kind: str
    title: str
    cards: Sequence[Card]
    note: str = ""


def load_kit(game: Game) -> tuple[KitSpec, list[Problem]]:
    """Read ``<game folder>/kit.yaml`` (an empty spec when there is none).

    Returns ``(spec, problems)``: every problem as ``FILE:LINE: game/-: field: message``
    (malformed YAML, unknown fields, card or deck ids the game does not have); with problems
    the spec is the part that could be read, or empty. Never raises.
    """
    path = game.folder / KIT_FILE
    if not path.is_file():
        return KitSpec(), []
    file, gid = str(path), game.game_id
    try:
        data, lines = load_yaml(path)
    except YamlSyntaxError as exc:
        return KitSpec(), [Problem(file, exc.line, gid, "-", "yaml", exc.message)]
    except (OSError, UnicodeDecodeError) as exc:
        return KitSpec(), [Problem(file, 1, gid, "-", "file", f"cannot read: {exc}")]
    try:
        spec = KitSpec.model_validate(data if data is not None else {})
    except ValidationError as exc:
        return KitSpec(), Problem.from_validation_error(exc, data=data, file=file, lines=lines, game=gid)
    return spec, _check_ids(spec, game, file, lines)


def _check_ids(spec: KitSpec, game: Game, file: str, lines: LineMap) -> list[Problem]:
    problems: list[Problem] = []

    def problem(loc: tuple, fld: str, message: str) -> None:
        problems.append(Problem(file, lines.line_for(loc), game.game_id, "-", fld, message))

    # An id the game lacks while some of its records did not load may be one of them (reported
    # in its own file): not a problem of kit.yaml's.
    judged = game.complete
    grouped: set[str] = set()
    for i, group in enumerate(spec.choose_one):
        for j, deck_id in enumerate(group.decks):
            if deck_id not in game.decks:
                if judged:
                    problem(("choose_one", i, "decks", j), f"choose_one.{i}.decks.{j}", f"no deck list '{deck_id}'")
            elif deck_id in grouped:
                problem(("choose_one", i, "decks", j), f"choose_one.{i}.decks.{j}",
                        f"deck list '{deck_id}' is already in another choose_one group")
            grouped.add(deck_id)
        if group.name in game.decks:
            problem(("choose_one", i, "name"), f"choose_one.{i}.name",
                    f"'{group.name}' is a deck id; the group's file would take that deck's file name")
    in_decks = {e.card for d in game.decks.values() for e in d.cards}
    for i, extra in enumerate(spec.extra_cards):
        if extra.card not in game.cards:
            if judged:
                problem(("extra_cards", i, "card"), f"extra_cards.{i}.card", f"unknown card id '{extra.card}'")
        elif extra.card in in_decks:
            problem(("extra_cards", i, "card"), f"extra_cards.{i}.card",
                    f"'{extra.card}' is in a deck list already; extra_cards are for cards no deck list holds")
    for card_id in spec.leave_out:
        if card_id not in game.cards and judged:
            problem(("leave_out", card_id), f"leave_out.{card_id}", f"unknown card id '{card_id}'")
    return problems


def copies(card: Card) -> int:
    """How many copies of ``card`` a game prints when no deck list says: its ``qty`` (a declared
    game's base field, 0-99; 0 prints none), else 1 (the bundled games' cards have no ``qty``).

    Tabletop Simulator sheets and print-shop exports print each card this many times."""
    return getattr(card, "qty", 1)


def catalog_jobs(game: Game) -> list[CardJob]:
    """Every card of the game once, one file per back kind (in ``game.yaml``'s order of backs)."""
    by_kind: dict[str, list[str]] = {}
    cards = game.cards
    for card_id in cards:
        kind = cards.back_kind_of(card_id) if isinstance(cards, CardStore) else cards[card_id].back_kind()
        by_kind.setdefault(kind, []).append(card_id)
    return [CardJob(kind, kind, f"{title}: every card once", CardRefs(game.cards, by_kind[kind]))
            for kind, title in game.info.backs.items() if by_kind.get(kind)]


def copies_jobs(game: Game) -> list[CardJob]:
    """Every card of the game as many times as it prints (:func:`copies`: a declared game's
    ``qty``, 0 not printed; once for a game whose cards have none), copies side by side, one
    job per back named after the back (``<back>-cards.pdf``, ``<back>-1.png`` ...), in
    ``game.yaml``'s order of backs, titled with the back's title; a back none of whose cards
    prints has no job."""
    by_kind: dict[str, list[str]] = {}
    for card_id, card in game.cards.items():
        by_kind.setdefault(card.back_kind(), []).extend([card_id] * copies(card))
    return [CardJob(kind, kind, title, CardRefs(game.cards, by_kind[kind]))
            for kind, title in game.info.backs.items() if by_kind.get(kind)]


def deck_jobs(game: Game, deck_id: str, title: str, cards: Sequence[Card]) -> list[CardJob]:
    """One deck's cards split by back kind: ``<deck>-cards.pdf``, or ``<deck>-<kind>-cards.pdf``
    for a deck whose cards have several backs."""
    kind_of = [(c.id, c.back_kind()) for c in cards]
    kinds = list(dict.fromkeys(kind for _, kind in kind_of))
    return [CardJob(deck_id if len(kinds) == 1 else f"{deck_id}-{kind}", kind,
                    title if len(kinds) == 1 else f"{title} ({game.info.backs.get(kind, kind)})",
                    CardRefs(game.cards, [cid for cid, k in kind_of if k == kind])) for kind in kinds]


def chosen_deck_jobs(db: Database, selected: Sequence[Game], games: Sequence[str],
                     deck: str | Path) -> tuple[Game, list[CardJob]]:
    """The game and card jobs (:func:`deck_jobs`, the list's quantities) of a command's
    ``--deck DECK``: a deck id or deck-list file of the one game named in ``games`` (``selected``
    is what those names chose), else of the game it can be told to belong to
    (:func:`~printkit.sheets.decklist.game_for_deck`). Raises :class:`DatabaseError` with the
    problems (a deck no game can be told for, a bad file, an unknown deck id)."""
    target = selected[0] if len(games) == 1 and selected else game_for_deck(db, deck)
    if target is None:
        raise DatabaseError([Problem(str(deck), 1, "-", "-", "deck",
                                     "cannot tell which game this deck list belongs to; name the game too")])
    deck_list = find_deck(target, deck)
    return target, deck_jobs(target, deck_list.id, deck_list.title, cards_for_deck(target, deck))


def decks_drawn(db: Database, selected: list[Game], games: Sequence[str], deck: str | Path | None,
                problems: list[Problem]) -> tuple[list[Game], dict[str, list[CardJob]]]:
    """What ``printkit tts`` and ``export --preset`` draw: ``(games, {game id: jobs})``: each of
    ``selected`` with its :func:`copies_jobs`; or, given ``deck`` (``--deck``; ``games`` the
    names given), its one game with :func:`chosen_deck_jobs`, and no game when ``problems`` (a
    list, added to) holds any already or gets the deck's."""
    if deck is None:
        return selected, {game.game_id: copies_jobs(game) for game in selected}
    if problems:
        return [], {}
    try:
        target, jobs = chosen_deck_jobs(db, selected, games, deck)
    except DatabaseError as exc:
        problems.extend(exc.problems)
        return [], {}
    return [target], {target.game_id: jobs}


def _deck_cards(game: Game, deck_id: str) -> CardRefs:
    return CardRefs(game.cards, [e.card for e in game.decks[deck_id].cards for _ in range(e.qty)])


def play_jobs(game: Game, spec: KitSpec) -> list[CardJob]:
    """The card files a player prints: each deck list in its quantities, a ``choose_one`` group
    as one file (both ordered by back kind as ``game.yaml`` lists the backs, then by the game's
    order of deck lists), then ``extra_cards`` by card type.

    A game with no deck lists and no extra cards gives :func:`catalog_jobs` (a declared game,
    :func:`copies_jobs`: each card in its ``qty``). In a declared game with deck lists, a back
    whose cards no deck list or extra card holds prints by ``qty`` too (:func:`qty_backs`): a
    prompt deck list leaves the response cards printed. Assumes :func:`load_kit` found no
    problem with ``spec``.
    """
    if not game.decks and not spec.extra_cards:
        return copies_jobs(game) if game.spec.declared else catalog_jobs(game)
    groups = {d: g for g in spec.choose_one for d in g.decks}
    jobs: list[CardJob] = []
    done: set[str] = set()
    for deck in game.decks.values():
        group = groups.get(deck.id)
        if group is None:
            jobs += deck_jobs(game, deck.id, deck.title, _deck_cards(game, deck.id))
            continue
        if group.name in done:
            continue
        done.add(group.name)
        # Each card as often as the most any list of the group needs: every list can be dealt
        # from the one printed set.
        need: Counter[str] = Counter()
        for deck_id in group.decks:
            for card_id, qty in Counter(_deck_cards(game, deck_id).ids).items():
                need[card_id] = max(need[card_id], qty)
        cards = CardRefs(game.cards, [cid for cid in game.cards if cid in need for _ in range(need[cid])])
        jobs += deck_jobs(game, group.name, group.title, cards)
    # Decks of the first back kind first (Carpe Cras: draw decks, then agency decks).
    order = {kind: i for i, kind in enumerate(game.info.backs)}
    jobs.sort(key=lambda j: order.get(j.kind, len(order)))
    taken = {j.name for j in jobs}
    extras: dict[str, list[str]] = {}
    for extra in spec.extra_cards:
        extras.setdefault(game.cards[extra.card].type, []).extend([extra.card] * extra.qty)
    for card_type, ids in extras.items():
        name = card_type if card_type not in taken else f"{card_type}-extra"
        jobs += deck_jobs(game, name, f"{card_type.replace('-', ' ').capitalize()} cards", CardRefs(game.cards, ids))
    taken = {j.name for j in jobs}
    by_qty = qty_backs(game, spec)
    for job in copies_jobs(game):
        if job.kind in by_qty:
            jobs.append(job if job.name not in taken else replace(job, name=f"{job.name}-copies"))
    return jobs


def qty_backs(game: Game, spec: KitSpec) -> set[str]:
    """The backs of a declared game (see :mod:`card_data.declared.declared_game`) that print their cards
    by ``qty`` beside its deck lists: those of which no deck list or ``extra_cards`` entry
    holds a card. Empty for a game without deck lists (all of it prints by ``qty``) and for a
    game with a Python schema (its kit says what prints)."""
    if not game.spec.declared or (not game.decks and not spec.extra_cards):
        return set()
    held = {e.card for d in game.decks.values() for e in d.cards} | {e.card for e in spec.extra_cards}
    covered = {game.cards[card_id].back_kind() for card_id in held if card_id in game.cards}
    return set(game.info.backs) - covered


def choose_one_lists(game: Game, spec: KitSpec) -> list[tuple[ChooseOne, list[tuple[str, list[str]]]]]:
    """For the index page: each ``choose_one`` group with ``[(deck title, [card titles])]``."""
    return [(g, [(game.decks[d].title, [c.title for c in _deck_cards(game, d)]) for d in g.decks])
            for g in spec.choose_one]


def left_out(game: Game, spec: KitSpec) -> list[tuple[Card, str]]:
    """Cards that no deck list or ``extra_cards`` entry holds, with why they are not printed
    (``leave_out``'s reason, or that no deck list holds them). In a game with neither, which
    prints every card :func:`copies` times, those are the cards with ``qty: 0``."""
    if not game.decks and not spec.extra_cards:
        return [(c, spec.leave_out.get(c.id, "qty 0")) for c in game.cards.values() if not copies(c)]
    printed = {e.card for d in game.decks.values() for e in d.cards} | {e.card for e in spec.extra_cards}
    by_qty = qty_backs(game, spec)
    return [(c, spec.leave_out.get(c.id, "qty 0" if c.back_kind() in by_qty else "in no deck list"))
            for c in game.cards.values()
            if c.id not in printed and not (c.back_kind() in by_qty and copies(c))]
