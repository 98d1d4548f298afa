"""The C.A.H.R.D. engine: a new war's set-up from the options and the card data, and
:data:`ENGINE`, which every event registers with."""

from __future__ import annotations

from typing import Any

from card_data.engine import Choice, Engine, RuleError, Words
from card_data.games.cahrd import TITLE
from card_data.games.cahrd.ranks import battle_value, recruitment_value
from card_data.games.cahrd.rules.book import ANY_ARMY, ANY_ARMY_LABEL, ArmyDeck, CardBook, CardInfo, Constants, OfficerStats, Options
from card_data.games.cahrd.rules.citations import BOOK, RULE_ARMY, RULE_SETUP, RULE_WAR
from card_data.games.cahrd.rules.readings import STORED_DEFAULTS
from card_data.games.cahrd.rules.state import Army, State


def _army_deck(army: str, game: Any) -> ArmyDeck:
    if army == ANY_ARMY:
        return ArmyDeck(id=army, cards=tuple(c.id for c in game.cards.values()
                                             if c.type in ("officer", "item", "tactic")))
    deck = game.decks.get(army)
    if deck is None or deck.kind != "army":
        known = ", ".join(sorted(d.id for d in game.decks.values() if d.kind == "army"))
        raise RuleError(RULE_ARMY, Words("there is no army deck %(army)s in the card data; choose one of: "
                                         "%(known)s, or %(any)s", army=repr(army), known=known, any=repr(ANY_ARMY)))
    return ArmyDeck(id=army, cards=tuple(dict.fromkeys(e.card for e in deck.cards)), title=deck.title)


def army_choices(game: Any) -> dict[str, tuple[Choice, ...]]:
    """The armies a seat may take (Getting Started): each army deck of ``game`` (the ``cahrd``
    card data) by its title, then :data:`~.book.ANY_ARMY`; by option name."""
    armies = (*(Choice(d.id, d.title) for d in game.decks.values() if d.kind == "army"),
              Choice(ANY_ARMY, ANY_ARMY_LABEL))
    return {"army_seat_1": armies, "army_seat_2": armies}


def fresh_army(constants: Constants) -> Army:
    """An army at the start of a battle: the tables' starting grain, nothing else yet."""
    return Army(grain=constants.starting_grain)


def set_up(players: tuple[str, ...], options: Options, game: Any) -> State:
    """A war about to start: two armies from the options' decks, the tables' constants.

    ``players``: two names, in seat order (the engine checks the count); ``game``: the
    ``cahrd`` card data. Raises :class:`RuleError` for an army that is not an army deck of
    the card data (Getting Started), or one with too few officers to set up.
    """
    table = game.tables.constants
    constants = Constants(**{name: getattr(table, name).value for name in Constants.model_fields})
    decks = tuple(_army_deck(army, game) for army in (options.army_seat_1, options.army_seat_2))
    for deck in decks:
        officers = [c for c in deck.cards if game.cards[c].type == "officer"]
        if len(officers) < 2 + constants.starting_lieutenants:
            raise RuleError(RULE_SETUP, Words("army %(army)s has only %(n)d officers, too few to set up",
                                              army=repr(deck.id), n=len(officers)))
    officers = {
        card.id: OfficerStats(title=card.title, war=battle_value(card.war, constants.s_rank_value),
                              chm=recruitment_value(card.chm, options.s_rank_in_recruitment, constants.s_rank_value),
                              printed_war=str(card.war), printed_chm=str(card.chm),
                              men_under_command=card.men_under_command, recruitment_cost=card.recruitment_cost)
        for card in game.cards.values() if card.type == "officer"
    }
    cards = {card.id: CardInfo(title=card.title, kind=card.type, reserve_cost=getattr(card, "reserve_cost", 0))
             for card in game.cards.values()}
    book = CardBook(constants=constants, cards=cards, officers=officers, armies=decks)
    return State(players=players, phase="setup", options=options, cards=book,
                 armies=tuple(fresh_army(constants) for _ in players))


ENGINE: Engine[State] = Engine(
    game_id="cahrd", title=TITLE, min_players=2, max_players=2, options=Options, state=State, setup=set_up,
    over_rule=RULE_WAR, rulebook=BOOK, option_choices=army_choices,
    # Tables stored before the option existed counted a CHM of S as 10 in the Recruitment Step;
    # the readings of .readings are as the engine read the rulebook before they were options.
    stored_defaults={"s_rank_in_recruitment": "s_rank_value", **STORED_DEFAULTS})
