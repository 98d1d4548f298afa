"""The words card pages show for the bundled games' fields, card types and icons, marked for
translation.

A card page names a card's fields from the game's schema (``men_under_command`` -> "Men under
command", see :func:`companion.cards.card_fields.field_label`), so the labels are made at run time and
pybabel cannot find them in a template. They are listed here instead, each marked with
:func:`N_`, so that ``tools/translations.sh`` extracts them into the catalogues.
:func:`translated_label` then gives a label in the page's language when it is one of them, and
the label as it is otherwise, unless the page's game translates it itself: a game declared in
data gives its own labels in its translation's ``words:`` (see
:data:`~companion.web.language.LABEL_WORDS`); those come first. ``tests/test_languages.py`` lists
every label of the bundled games that is missing here.

Abbreviations printed on the cards (``VP``, ``LDR``...) are left as printed: a player matches
them against the card in their hand.
"""

from __future__ import annotations

from flask import g, has_request_context
from flask_babel import gettext

from companion.web.language import LABEL_WORDS


def N_(message: str) -> str:
    """Mark ``message`` for extraction (pybabel's ``N_`` keyword) without translating it now:
    these are module constants, translated per request by :func:`translated_label`."""
    return message


#: Field labels of the bundled games' schemas (stats, table columns, sub-fields, errata).
FIELD_LABELS: frozenset[str] = frozenset({
    N_("Ability"), N_("Accuracy"), N_("Agency"), N_("Agency type"), N_("Amount"), N_("Armor"),
    N_("Award"), N_("Awarded for"), N_("Banderole"), N_("Bonus points"), N_("Bonuses"),
    N_("Bread"), N_("Card"), N_("Centre"), N_("Coins"), N_("Colour"), N_("Combat"),
    N_("Condition"), N_("Copies per player"), N_("Cost"), N_("Count"), N_("Deck"),
    N_("Dexterity"), N_("Editions"), N_("Effect"), N_("Effects"), N_("Evade"), N_("Exit steps"),
    N_("Generic power"), N_("Health"), N_("Kind"), N_("Max copies"), N_("Men under command"),
    N_("Opponent power max"), N_("Opponent power min"), N_("Passive effect"), N_("Player"),
    N_("Power"), N_("Range"), N_("Range bonus"), N_("Recruitment cost"), N_("Requirement"),
    N_("Reserve cost"), N_("Resistance"), N_("Result"), N_("Reward"), N_("Round"),
    N_("Score points"), N_("Scoring type"), N_("Sides"), N_("Skills"), N_("Special kind"),
    N_("Specials"), N_("Speed"), N_("Steps"), N_("Text"), N_("Title"), N_("Trait"), N_("Traits"),
    N_("Type"), N_("What"),
})

#: Card types and deck kinds of the bundled games, as :func:`companion.cards.rulings.type_label`
#: writes them.
TYPE_LABELS: frozenset[str] = frozenset({
    N_("Agency"), N_("Army"), N_("Boast"), N_("Character"), N_("Draw"), N_("Duality"),
    N_("Environment"), N_("Event"), N_("Fountain"), N_("Hero"), N_("Item"), N_("Number"),
    N_("Officer"), N_("Reference"), N_("Scoring"), N_("Scoring-2p"), N_("Scoring-3p"),
    N_("Scoring-4p"), N_("Special"), N_("Strategy"), N_("Tactic"), N_("Tag"), N_("Token"),
    N_("Unit"), N_("Upgrade"),
})

#: Names of the bundled games' icons (``card_data/<game>/icons/<name>.svg``), the words a
#: screen reader reads for an icon in card text.
ICON_LABELS: frozenset[str] = frozenset({
    N_("Action"), N_("Affluence"), N_("Armor"), N_("Authority"), N_("Cunning"), N_("Evade"),
    N_("Fortitude"), N_("Health"), N_("Maneuver"), N_("Melee"), N_("Might"), N_("Power"),
    N_("Projectile"), N_("Range"), N_("Reaction"), N_("Resistance"), N_("Skill"), N_("Speed"),
    N_("Steps"), N_("Tie"), N_("Zeal"),
})

KNOWN_LABELS: frozenset[str] = FIELD_LABELS | TYPE_LABELS | ICON_LABELS
"""Every label :func:`translated_label` translates."""


def translated_label(label: str) -> str:
    """``label`` (English, as :func:`companion.cards.card_fields.field_label` makes it) in the language of
    the page being rendered: as the page's game translates it (:data:`~companion.web.language.LABEL_WORDS`),
    else from the catalogue if it is one of :data:`KNOWN_LABELS`, else unchanged. Outside a
    request (the CLI, a static export in English) it is unchanged too."""
    if has_request_context():
        own = g.get(LABEL_WORDS, {}).get(label)
        if own:
            return own
    return gettext(label) if label in KNOWN_LABELS else label
