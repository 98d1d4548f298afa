"""The Carpe Diem engine: a new table's set-up from the options and the card data, and
:data:`ENGINE`, which every event registers with."""

from __future__ import annotations

from card_data.engine import Engine, RuleError, Words
from card_data.games.carpe_diem import TITLE
from card_data.games.carpe_diem.cards import SCORING_SET_PLAYERS, CarpeDiemTables, FountainCard
from card_data.games.carpe_diem.layout import lay_out
from card_data.games.carpe_diem.rules.citations import RULE_OVER, RULEBOOK
from card_data.games.carpe_diem.rules.state import TRACKED, Board, Options, PlayerSheet, State, Tables


def set_up(players: tuple[str, ...], options: Options, game) -> State:
    """A new table: starting VP by seat, discs stacked on space 0, the scoring set laid out.

    ``players``: names, start player first then clockwise (the engine has checked there are
    2-4). ``game``: the Carpe Diem ``card_data.loader.Game``. Raises :class:`RuleError` for data
    that lays out no scoring set for the player count.
    Rulebook: 2018 rulebook, Set-up details (starting VP; the start player's disc on space 0,
    the others on top in clockwise order; scoring cards and circles by player count).
    """
    tables: CarpeDiemTables = game.tables
    n = len(players)
    kind = next(k for k, v in SCORING_SET_PLAYERS.items() if v == n)
    decks = sorted((d for d in game.decks.values() if d.kind == kind), key=lambda d: d.id)
    if not decks:
        raise RuleError(Words("%(source)s, Set-up details: scoring cards are laid out by player count",
                              source=RULEBOOK),
                        Words("the card data has no %(kind)s scoring set", kind=kind))
    card_ids = [e.card for e in decks[0].cards]
    circle_count = {2: tables.circle_spaces.p2, 3: tables.circle_spaces.p3, 4: tables.circle_spaces.p4}[n]
    try:
        rows, pairs = lay_out(card_ids, circle_count)
    except ValueError as err:
        # The layout's message is itself Words: keep it rather than str(err).
        raise RuleError(Words("%(source)s, Set-up details: %(circles)d circle spaces for %(players)d players",
                              source=RULEBOOK, circles=circle_count, players=n),
                        err.args[0]) from None
    board = Board(
        tables=Tables(
            phases=tables.phases.count,
            rounds_per_phase=tables.phases.rounds_per_phase,
            unmet_card_penalty_vp=tables.unmet_card_penalty.vp,
            bread_to_fulfil_card=tables.bread_to_fulfil_card.bread,
            dwelling_rewards=tables.dwelling_rewards,
            landscape_reward=tables.landscape_reward,
            leftovers=tables.leftovers,
            villa_chimneys=tables.villa_chimneys,
            banderole_bar=tables.banderole_bar,
            frame_goals=tuple(tables.frame_goals.examples),
            tie_breaker=tables.tie_breakers.rule(options.tie_breaker),
        ),
        layout=rows,
        pairs=pairs,
        cards={cid: _scorekeeper_copy(game.cards[cid]) for cid in card_ids},
        fountain_cards={cid: _scorekeeper_copy(c) for cid, c in game.cards.items() if isinstance(c, FountainCard)},
    )
    start = {t: 0 for t in TRACKED}
    return State(
        players=players,
        phase="play",
        options=options,
        sheets=tuple(PlayerSheet(vp=vp, owned=start) for vp in tables.starting_vp.for_players(n)),
        bar_order=tuple(reversed(range(n))),
        discs=(None,) * len(pairs),
        board=board,
    )


def _scorekeeper_copy(card):
    """The card without its rulings and note: those are for the rulings pages, the scorekeeper
    needs only what a card asks and gives (and the state's JSON stays small)."""
    return type(card).model_validate({**card.model_dump(), "rulings": [], "note": None})


ENGINE: Engine[State] = Engine(
    game_id="carpe_diem", title=TITLE,
    min_players=min(SCORING_SET_PLAYERS.values()), max_players=max(SCORING_SET_PLAYERS.values()),
    options=Options, state=State, setup=set_up, over_rule=RULE_OVER, rulebook=RULEBOOK)
