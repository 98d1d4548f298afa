"""A C.A.H.R.D. table's state: the armies of the current battle, the battles fought and the
step the war is at (:class:`State`), with what the pages and the events ask of it."""

from __future__ import annotations

from typing import Literal

from card_data.engine import Counter, GameState, Model, Move, Words
from card_data.engine.scoreboard import Scoreboard, scoreboard
from card_data.engine.tracked import Tracked
from card_data.engine.wording import Said
from card_data.games.cahrd.ranks import S_RANK_READINGS, recruitment_reserves
from card_data.games.cahrd.rules.book import ANY_ARMY, ANY_ARMY_LABEL, CardBook, CardKind, Constants, Options
from card_data.games.cahrd.rules.readings import lieutenants_counted, no_battle_this_turn, readings_in_force
from card_data.games.cahrd.rules.wording import STEP_LABELS, TOKEN_READINGS, ZONE_NAMES

Position = Literal["commander", "strategist", "lieutenant"]
Zone = Literal["tactics", "items"]
ZONE_KINDS: dict[str, CardKind] = {"tactics": "tactic", "items": "item"}
CahrdStep = Literal["setting_up", "between_turns", "draw", "strategy", "battle", "battle_over"]
"""The game's own steps: ``setting_up``: officers being placed (phase ``setup``);
``between_turns``: waiting for the next Draw Step; ``draw``: drawn, Recruitment Step next;
``strategy``: Strategy Step; ``battle``: Battle Step (an attack was declared this turn)
(these four: phase ``play``); ``battle_over``: waiting for :class:`NextBattle` (phase
``setup``), or the war's last battle (phase ``over``)."""

STEP_PHASES = {"setting_up": "setup", "between_turns": "play", "draw": "play", "strategy": "play", "battle": "play",
               "battle_over": "setup"}
TURN_STEPS = ("draw", "strategy", "battle")


# ---- the battle ---------------------------------------------------------------------------------

class FieldOfficer(Model):
    """An officer on the field: its card id, zone, men under command left, whether the
    Declaration Step's attack marker is on it (placed when it attacks, removed in its owner's
    next Recruitment Step), and the turn of the battle in which it was last declared a vanguard
    (0: not yet; option ``vanguard_in_a_turn``)."""

    card: str
    position: Position
    men_under_command: int
    attack_marker: bool = False
    vanguard_turn: int = 0


class DefeatedOfficer(Model):
    """An officer sent to the discard pile this battle: its card, the zone it held, and the seat
    of the player who defeated it (the Damage Step's winner, or the player of the card effect)."""

    card: str
    position: Position
    defeated_by: int


class ZoneCard(Model):
    """A card in a Tactics or Items Zone: face down (set; ``card`` unknown until it is
    activated) or face up (active, ``card`` named)."""

    card: str | None = None
    face_up: bool = False


class Army(Model):
    """One player's side of the current battle.

    ``grain``, ``reserves``: amounts; ``officers``: on the field; ``defeated``: officers sent to
    the discard pile this battle, in order; ``lieutenants_recruited``: recruited after set-up;
    ``defeat_tokens``: lieutenant defeat tokens this player holds (see ``defeat_token_to``);
    ``turns_taken`` this battle; ``set_up``: officers placed; ``revealed``: the starting
    officers have been revealed (first Draw Step); ``mulligans``: opening hands shown and
    mulliganed; ``tactics``, ``items``: the Tactics and Items Zones; ``strategy``: the active
    strategy's id; ``discarded``: ids of the cards entered here as sent to the discard pile
    (strategies, resolved items and tactics; defeated officers are in ``defeated``).
    """

    grain: int
    reserves: int = 0
    officers: tuple[FieldOfficer, ...] = ()
    defeated: tuple[DefeatedOfficer, ...] = ()
    lieutenants_recruited: int = 0
    defeat_tokens: int = 0
    turns_taken: int = 0
    set_up: bool = False
    revealed: bool = False
    mulligans: int = 0
    tactics: tuple[ZoneCard, ...] = ()
    items: tuple[ZoneCard, ...] = ()
    strategy: str | None = None
    discarded: tuple[str, ...] = ()

    def officer(self, card: str) -> FieldOfficer | None:
        """The officer ``card`` if it is on this army's field, else ``None``."""
        return next((o for o in self.officers if o.card == card), None)

    @property
    def commander(self) -> FieldOfficer | None:
        return next((o for o in self.officers if o.position == "commander"), None)

    @property
    def strategist(self) -> FieldOfficer | None:
        return next((o for o in self.officers if o.position == "strategist"), None)

    @property
    def lieutenants(self) -> tuple[FieldOfficer, ...]:
        return tuple(o for o in self.officers if o.position == "lieutenant")

    def zone(self, zone: str) -> tuple[ZoneCard, ...]:
        """The cards in the ``"tactics"`` or ``"items"`` zone."""
        return self.tactics if zone == "tactics" else self.items

    def lieutenants_defeated_by(self, seat: int) -> int:
        """How many of this army's lieutenants player ``seat`` defeated this battle."""
        return sum(1 for d in self.defeated if d.position == "lieutenant" and d.defeated_by == seat)


class Attack(Model):
    """The attack being fought: the attacking seat and officer, and the vanguard once declared."""

    seat: int
    officer: str
    vanguard: str | None = None


class BattleResult(Model):
    """A finished battle: the winning seat (``None`` for a draw) and why, for people."""

    winner: int | None
    reason: Said


class State(GameState):
    """A C.A.H.R.D. table: a war of battles between two armies.

    Attributes:
        phase: ``setup`` while officers are placed and between battles, ``play`` during the
            turns of a battle, ``over`` once the war has ended.
        step: the game's own step (:data:`CahrdStep`).
        options: the table's :class:`Options`.
        cards: the card data the table uses (:class:`CardBook`), copied once.
        armies: one per seat, for the current battle.
        battle_number: 1-based; ``results``: finished battles.
        initiative: whose turn it is (``None`` before the battle's first turn); ``turn``: turns
            started this battle; ``first_seat``: who must go first, when the loser chose;
        attack: the attack in progress, if any.
    """

    score_label = Words("Battles won")

    step: CahrdStep = "setting_up"
    options: Options
    cards: CardBook
    armies: tuple[Army, ...]
    battle_number: int = 1
    results: tuple[BattleResult, ...] = ()
    initiative: int | None = None
    turn: int = 0
    first_seat: int | None = None
    attack: Attack | None = None

    # -- where the game stands --

    def scores(self) -> tuple[float, ...]:
        """Battles won by each seat."""
        return tuple(float(w) for w in self.wins())

    def winners(self) -> tuple[int, ...]:
        """The seat with more battles won once the war is over; none for equal wins."""
        wins = self.wins()
        best = max(wins)
        return (wins.index(best),) if self.finished and wins.count(best) == 1 else ()

    def tracked(self) -> tuple[Tracked, ...]:
        """Battles won, and each army's grain in the current battle (what ends a battle at 0)."""
        return (*super().tracked(), Tracked(Words("Grain"), tuple(float(a.grain) for a in self.armies)))

    def rounds_played(self) -> int:
        """Battles fought to their end: the war's rounds (C.A.H.R.D. has turns, not rounds)."""
        return len(self.results)

    def start_seat(self) -> int | None:
        """Whose turn the war's first turn is (Set Up 5: "Decide who goes first"): known while
        the first battle's first turn is on; a later state has forgotten it (see
        :meth:`GameState.start_seat`)."""
        return self.initiative if self.battle_number == 1 and self.turn == 1 else None

    def summary(self) -> str:
        """``"Battle 2; battles won: Red 1 – Blue 0"``, or once the war is over ``"Red wins the
        war, Red 2 – Blue 0 (Blue could not draw)"`` / ``"The war is drawn, ..."``."""
        # Names and numbers only: the same in every language.
        score = " – ".join(f"{name} {w}" for name, w in zip(self.players, self.wins()))
        if not self.finished:
            return Words("Battle %(n)d; battles won: %(score)s", n=self.battle_number, score=score)
        winners = self.winners()
        if not self.results:
            return (Words("%(player)s wins the war, %(score)s", player=self.players[winners[0]], score=score)
                    if winners else Words("The war is drawn, %(score)s", score=score))
        reason = self.results[-1].reason
        return (Words("%(player)s wins the war, %(score)s (%(reason)s)", player=self.players[winners[0]],
                      score=score, reason=reason) if winners
                else Words("The war is drawn, %(score)s (%(reason)s)", score=score, reason=reason))

    def scoreboard(self) -> Scoreboard:
        """Battles won and grain per army; the battle, the turn and who has the initiative, and
        the step (the war's result once it is over)."""
        line = self.summary() if self.finished else (
            Words("Battle %(n)d, turn %(turn)d: %(player)s · %(step)s", n=self.battle_number, turn=self.turn,
                  player=self.players[self.initiative], step=self.step_label())
            if self.turn_in_progress() and self.initiative is not None
            else Words("Battle %(n)d: %(step)s", n=self.battle_number, step=self.step_label()))
        turn = self.initiative if self.turn_in_progress() and not self.finished else None
        return scoreboard([self.score_label, Words("Grain")],
                          [[won, army.grain] for won, army in zip(self.wins(), self.armies)], line, turn)

    def wins(self) -> tuple[int, ...]:
        """Battles won by each seat so far."""
        return tuple(sum(1 for r in self.results if r.winner == seat) for seat in range(len(self.players)))

    def step_label(self) -> str:
        """The current step for people, e.g. ``"Strategy Step"``."""
        return Words("War over") if self.finished else STEP_LABELS[self.step]

    # -- the numbers a page shows --

    @property
    def constants(self) -> Constants:
        """The tables' numbers this table plays with."""
        return self.cards.constants

    def title(self, card: str | None) -> str:
        """A card's title by id (the id itself if unknown)."""
        info = self.cards.cards.get(card) if card is not None else None
        return info.title if info is not None else str(card)

    def army_id(self, seat: int) -> str:
        """The id of ``seat``'s army deck, or ``"any"``."""
        return self.cards.armies[seat].id

    def army_title(self, seat: int) -> str | Words:
        """The title of ``seat``'s army deck as its deck list gives it (its id where none was
        kept), or, for any card of the card data, :data:`~.book.ANY_ARMY_LABEL`."""
        army = self.cards.armies[seat]
        if army.id == ANY_ARMY:
            return ANY_ARMY_LABEL
        return army.title or army.id

    def officer_pool(self, seat: int) -> tuple[str, ...]:
        """Officer ids ``seat``'s army may field."""
        return self.deck_cards(seat, "officer")

    def deck_cards(self, seat: int, kind: CardKind) -> tuple[str, ...]:
        """Ids of ``seat``'s army deck cards of type ``kind`` (every strategy for ``"strategy"``:
        strategy decks are not chosen at this table)."""
        cards = self.cards.cards if kind == "strategy" else self.cards.armies[seat].cards
        return tuple(card for card in cards if self.cards.cards[card].kind == kind)

    def officer_label(self, card: str) -> str:
        """``"Oda Nobunaga (WAR 4, CHM 3, men 4)"``."""
        o = self.cards.officers[card]
        return Words("%(title)s (WAR %(war)s, CHM %(chm)s, men %(men)d)", title=o.title, war=o.printed_war,
                     chm=o.printed_chm, men=o.men_under_command)

    def available(self, seat: int) -> tuple[str, ...]:
        """Officer ids of ``seat``'s pool neither on the field nor defeated this battle."""
        army = self.armies[seat]
        used = {o.card for o in army.officers} | {o.card for o in army.defeated}
        return tuple(card for card in self.officer_pool(seat) if card not in used)

    def next_starter(self) -> int | None:
        """The seat whose turn starts next, or ``None`` when either may (a battle's first turn
        with no loser's choice); only meaningful between turns."""
        if self.turn == 0:
            return self.first_seat
        return 1 - self.initiative

    def counters(self) -> list[Counter]:
        """Each army's grain and reserves, one tap to change them by a grain-damage point
        (100 grain) or a CHM point's worth (1000 reserves) during a turn: a card effect entered
        without naming a card (:class:`CardEffect`), checked like any other (Pay a Cost: no
        reserves below 0; Destroy the enemy Grain: grain at 0 ends the battle)."""
        # Imported here: the events module imports this one.
        from card_data.games.cahrd.rules.events_effects import CardEffect

        if not self.turn_in_progress():
            return []
        grain_step = self.constants.grain_damage_per_war_point
        reserves_step = self.constants.reserves_per_chm_point
        counters = []
        for seat, name in enumerate(self.players):
            army = self.armies[seat]

            def tap(label: str, **change: int) -> Move:
                return CardEffect.offer(self, label=label, seat=seat, card=None, target_seat=seat, officer=None,
                                        men_change=0, **{"grain_change": 0, "reserves_change": 0, **change})

            counters.append(Counter(label=Words("%(name)s's grain", name=name), value=army.grain, seat=seat,
                                    step=grain_step,
                                    minus=tap(Words("%(name)s: −%(n)d grain", name=name, n=grain_step),
                                              grain_change=-grain_step),
                                    plus=tap(Words("%(name)s: +%(n)d grain", name=name, n=grain_step),
                                             grain_change=grain_step)))
            counters.append(Counter(label=Words("%(name)s's reserves", name=name), value=army.reserves, seat=seat,
                                    step=reserves_step,
                                    minus=tap(Words("%(name)s: −%(n)d reserves", name=name, n=reserves_step),
                                              reserves_change=-reserves_step)
                                    if army.reserves >= reserves_step else None,
                                    plus=tap(Words("%(name)s: +%(n)d reserves", name=name, n=reserves_step),
                                             reserves_change=reserves_step)))
        return counters

    def turn_in_progress(self) -> bool:
        """Whether a turn is being played (Draw, Strategy or Battle Step)."""
        return self.step in TURN_STEPS

    def battle_going(self) -> bool:
        """Whether a battle's turns are on (both set up, the battle not over)."""
        return self.phase == "play"

    def marker_label(self, seat: int, officer: FieldOfficer) -> str:
        """What the attack marker on ``officer`` (of ``seat``) means now: ``"attacked this turn"``
        during its owner's turn after the Recruitment Step, ``"attacked the previous turn"``
        otherwise; ``""`` without a marker or once the battle is over."""
        if not officer.attack_marker or not self.battle_going():
            return ""
        if self.initiative == seat and self.step in ("strategy", "battle"):
            return Words("attacked this turn")
        return Words("attacked the previous turn")

    def defending_seat(self) -> int | None:
        """The seat defending against the attack in progress, if any."""
        return None if self.attack is None else other(self.attack.seat)

    def may_attack(self) -> bool:
        """The initiative player may declare an attack now (first-turn rule included)."""
        return self.step in ("strategy", "battle") and self.attack is None and not no_battle_this_turn(self)

    def combined_chm(self, seat: int) -> int:
        """The combined CHM of ``seat``'s officers on the field, as the Recruitment Step counts it."""
        return sum(self.cards.officers[o.card].chm for o in self.armies[seat].officers)

    def recruitment_reserves(self, seat: int) -> int:
        """Reserves ``seat`` gains in a Recruitment Step now: the combined CHM of its officers on
        the field x the tables' reserves per CHM point (Step 2: The Recruitment Step)."""
        return recruitment_reserves([self.cards.officers[o.card].chm for o in self.armies[seat].officers],
                                    self.constants.reserves_per_chm_point)

    def grain_damage(self, officer: str) -> int:
        """Grain an attack by ``officer`` costs when let through: its base WAR (S as 10) x the
        tables' grain per WAR point (Step 4: The Damage Step)."""
        return self.cards.officers[officer].war * self.constants.grain_damage_per_war_point

    def battle_loser(self) -> int | None:
        """The loser of the last finished battle (``None`` before any, or after a draw)."""
        if not self.results or self.results[-1].winner is None:
            return None
        return 1 - self.results[-1].winner

    def enemy_lieutenants_defeated(self, seat: int) -> int:
        """Lieutenants of the enemy that ``seat`` defeated this battle (Defeat three Lieutenants)."""
        return self.armies[1 - seat].lieutenants_defeated_by(seat)

    def officers_in_play(self, seat: int) -> int:
        """Officers on ``seat``'s field, the strategist not counted (The Game Mat 7 and 8)."""
        return sum(1 for o in self.armies[seat].officers if o.position != "strategist")

    def zone_limit(self, seat: int) -> int:
        """Cards ``seat``'s Tactics Zone, and its Items Zone, may hold (The Game Mat 7 and 8)."""
        return self.officers_in_play(seat)

    def zone_room(self, seat: int, zone: str) -> int:
        """Cards that may still enter ``seat``'s ``zone``; 0 or less when full (a limit that
        shrank below the cards already there discards nothing: see :mod:`card_data.games.cahrd.rules`)."""
        return self.zone_limit(seat) - len(self.armies[seat].zone(zone))

    def zones(self, seat: int) -> tuple[tuple[str, str, tuple[ZoneCard, ...]], ...]:
        """``(zone, name, cards)`` of ``seat``'s Tactics Zone and Items Zone, for pages."""
        return tuple((zone, name, self.armies[seat].zone(zone)) for zone, name in ZONE_NAMES.items())

    def s_rank_reading(self) -> str:
        """What a CHM of S counts as in this table's Recruitment Step, in words."""
        return S_RANK_READINGS[self.options.s_rank_in_recruitment]

    def token_reading(self) -> str:
        """Who gets a defeated lieutenant's token at this table, in words."""
        return TOKEN_READINGS[self.options.defeat_token_to]

    def readings(self) -> tuple[tuple[str, str], ...]:
        """``(question, this table's answer)`` for each reading the rulebook leaves open (:mod:`.readings`)."""
        return readings_in_force(self.options)

    def lieutenants_counted(self, seat: int) -> tuple[int, int]:
        """``(counted, most)`` of ``seat``'s lieutenants as this table's lieutenant cap counts them
        (recruitments this battle, or lieutenants on the field: :func:`.readings.lieutenants_counted`)."""
        return lieutenants_counted(self, seat)

    def face_down(self, seat: int, zone: str) -> int:
        """Set (face-down) cards in ``seat``'s ``zone``."""
        return sum(1 for c in self.armies[seat].zone(zone) if not c.face_up)

    def active_cards(self) -> tuple[tuple[int, str, str], ...]:
        """``(seat, zone, card)`` of every face-up item and tactic on the field."""
        return tuple((seat, zone, c.card) for seat, army in enumerate(self.armies) for zone in ZONE_NAMES
                     for c in army.zone(zone) if c.face_up)

    def may_activate(self, seat: int, disregards: bool, kind: CardKind) -> bool:
        """Whether ``seat`` may activate a card of ``kind`` now (Timings; see :mod:`card_data.games.cahrd.rules`)."""
        return self.turn_in_progress() and (seat == self.initiative or kind == "tactic" or disregards)


def other(seat: int) -> int:
    """The opponent's seat."""
    return 1 - seat
