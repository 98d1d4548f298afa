"""A new table (:func:`set_up`), :data:`ENGINE`, the engine the events register with, and the
changes of step that start a game."""

from __future__ import annotations

from collections.abc import Sequence

from card_data.engine import Engine, RuleError, Words
from card_data.games.cartisora import TITLE
from card_data.games.cartisora.cards import (
    BASE_SET_CHARACTER_DECKS,
    TagCard,
    TokenCard,
)
from card_data.games.cartisora.rules.catalog import (
    CardInfo,
    Catalog,
    DeckInfo,
    Token,
    card_info,
)
from card_data.games.cartisora.rules.options import (
    DRAFT_BAN_ORDER,
    DRAFT_GAMES,
    Options,
)
from card_data.games.cartisora.rules.state import PHASE_OF_STEP, State
from card_data.games.cartisora.rules.wording import RULEBOOKS, cite


def set_up(players: tuple[str, ...], options: Options, game: object) -> State:
    """Set up a table: ``players`` (2, or 4 with ``tag_team``), ``options`` and the game's
    card data (``card_data.loader.Game``).

    Copies every character deck (deck lists of kind ``character`` whose cards all belong to
    the edition), the bonus tokens and the Tag card from the data. Starts in the draft, or
    with each player picking a deck (2019 Setup).
    Raises :class:`RuleError` for a wrong number of players, draft mode with tag team, or
    too few decks for the draft.
    """
    edition = options.edition
    wanted = 4 if options.tag_team else 2
    if len(players) != wanted:
        rule = cite(edition, "players", Words("a duel is for 2 players; the tag team for 4 in 2 teams"))
        if options.tag_team:
            raise RuleError(rule, Words("%(count)d players for a tag team; it needs %(wanted)d", count=len(players),
                                        wanted=wanted))
        raise RuleError(rule, Words("%(count)d players for a duel; it needs %(wanted)d", count=len(players),
                                    wanted=wanted))
    if options.draft and options.tag_team:
        raise RuleError(cite(edition, "draft", Words("draft mode is for 2 players")),
                        Words("draft mode cannot be combined with the tag team"))

    cards: dict[str, CardInfo] = {}
    decks: dict[str, DeckInfo] = {}
    for deck in game.decks.values():
        entries = [game.cards[e.card] for e in deck.cards if e.card in game.cards]
        if deck.kind != "character" or any(int(edition) not in c.editions for c in entries):
            continue
        ids = []
        for card in entries:
            info = card_info(card, deck.id)
            if info is not None:
                cards[info.id] = info
                ids.append(info.id)
        decks[deck.id] = DeckInfo(id=deck.id, title=deck.title, cards=tuple(ids))

    tokens = {c.award: Token(id=c.id, title=c.title, points=c.bonus_points)
              for c in game.cards.values() if isinstance(c, TokenCard)}
    tag = next((c for c in game.cards.values() if isinstance(c, TagCard)), None)
    use_tags = options.tag_team and edition == "2017" and tag is not None

    if options.draft:
        needed = DRAFT_GAMES * 2 + (len(DRAFT_BAN_ORDER) if len(decks) > BASE_SET_CHARACTER_DECKS else 0)
        if len(decks) < needed:
            raise RuleError(cite(edition, "draft", Words("each player drafts 3 different decks, after "
                                                        "one ban each when more than 6 decks are available")),
                            Words("%(count)d decks are available; the draft needs %(needed)d", count=len(decks),
                                  needed=needed))
    catalog = Catalog(decks=decks, cards=cards, first_blood=tokens["first_contest_win"],
                      finisher=tokens["last_contest_win"], tag_card=tag.id if use_tags else None,
                      tag_copies=tag.copies_per_player if use_tags else 0)
    step = "draft" if options.draft else "pick"
    return State(players=players, phase=PHASE_OF_STEP[step], step=step, options=options, catalog=catalog,
                 game_decks=(None,) * len(players), hands=((),) * len(players))


ENGINE: Engine[State] = Engine(
    game_id="cartisora", title=TITLE, min_players=2, max_players=4, options=Options, state=State, setup=set_up,
    over_rule=Words("%(rulebooks)s, Ending the Game: when all cards are played the game is over, and a match "
                    "once a player has won it", rulebooks=RULEBOOKS),
    rulebook=Words("%(rulebooks)s, Setup (2 players); Tag Team (4 players)", rulebooks=RULEBOOKS),
    # Tables stored before the option was played by this reading.
    stored_defaults={"first_blood": "first_win"})


def at_step(state: State, step: str, **changes: object) -> State:
    """``state`` at ``step`` (and the phase it belongs to), with ``changes``."""
    return state.evolve(step=step, phase=PHASE_OF_STEP[step], **changes)


def start_game(state: State, decks: Sequence[str]) -> State:
    """The state at round 1 of a new game with ``decks[seat]`` as each seat's hand."""
    return at_step(state, "ready", game_decks=tuple(decks), hands=tuple(state.catalog.decks[d].cards for d in decks),
                   active=(0, 1), round=1, readied=(), face_up=(False, False), reactions=(), maneuvers=(),
                   carried=(), next_cards=(), contest=None, modifiers=(), next_modifiers=(), score_piles=((), ()),
                   tie_pool=(), uncounted=(), first_blood_side=None, finisher_side=None,
                   tags_left=(state.catalog.tag_copies,) * len(state.players) if state.catalog.tag_card else (),
                   tagged=(False, False), round_log=())


def draft_decks(state: State, game: int) -> list[str]:
    """Each seat's deck for a draft game: decks are played in the order picked."""
    return [state.drafted(seat)[game - 1] for seat in range(len(state.players))]
