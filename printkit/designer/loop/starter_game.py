"""printkit's starter game, written by a plain ``printkit init``: a game declared in its
``game.yaml`` (no Python, nothing of printkit's bundled games) with one example card, its
front and back templates. A designer changes it into their own game; ``printkit init
--from-sheet`` starts from their spreadsheet instead (:mod:`printkit.designer.spreadsheet.sheet_game`)."""

from printkit.designer.loop.generated_layouts import layouts_folder

STARTER_GAME = "my_game"
"""The starter game's id (its folder ``card_data/my_game/``) unless ``printkit init --game`` names it."""

STARTER_GAME_YAML = """\
# Your game: its name, how its cards print, and the fields its cards have (the README,
# "Your own game", tells every key; `printkit init --from-sheet cards.csv` starts from a sheet).
title: My Game
card_size:
  name: poker
backs:                                  # a deck each; the template back-<name>.yaml prints its back
  draw: Draw deck
fields:                                 # every card has these, in the order players see them
  cost: {type: integer, required: true, min: 0, max: 20, label: Cost}
  traits: {type: list, of: text, max_items: 5, label: Traits}
  ability: {type: rich_text, required: true, label: Ability}
# card_types:                           # several kinds of card, each with its template and back:
#   action: {label: Action, back: draw}
# deck_rules:                           # checked by validate and build (see the README)
#   draw:
#     size: {min: 20, max: 40}
"""

STARTER_CARDS_YAML = """\
# One record per card, with game.yaml's fields; `qty: 3` prints 3 copies. `example: true`
# prints EXAMPLE CARD on it. Copy the record to add cards, or import a spreadsheet.
- id: first-card
  type: card
  title: First Card
  example: true
  cost: 1
  traits: [Opening]
  ability: Draw 2 cards. Change this text in card_data/{game}/cards/cards.yaml and rebuild.
"""

STARTER_FRONT_YAML = """\
# The front of every card (the game has no card types: each is of type `card`). Millimetres from the trim's top-left corner; bleed 3 mm
# (boxes may start at -3); text and QR codes stay 3 mm inside the trim. See templates/README.md.
safe_margin_mm: 3
background: "#f7f3ea"
regions:
  - {name: band, kind: box, x_mm: -3, y_mm: -3, w_mm: 69.5, h_mm: 16, fill: "#284b63"}
  - name: title
    kind: text
    x_mm: 4
    y_mm: 3.5
    w_mm: 45
    h_mm: 8
    text: "{{ title }}"
    font: bold
    size_pt: 13
    min_size_pt: 8
    valign: middle
    color: "#ffffff"
  - name: cost
    kind: text
    x_mm: 49.5
    y_mm: 3.5
    w_mm: 10.5
    h_mm: 8
    text: "{{ cost }}"
    font: bold
    size_pt: 14
    min_size_pt: 9
    align: right
    valign: middle
    color: "#ffffff"
  - name: art
    kind: image
    x_mm: 3
    y_mm: 15
    w_mm: 57.5
    h_mm: 34
    src: "{{ art or '' }}"
  - name: traits
    kind: text
    x_mm: 4
    y_mm: 50.5
    w_mm: 55.5
    h_mm: 4
    text: "{{ traits | join(' · ') }}"
    font: bold
    size_pt: 7.5
    min_size_pt: 6
    color: "#284b63"
    when: "traits"
  - name: ability
    kind: text
    x_mm: 4
    y_mm: 55.5
    w_mm: 55.5
    h_mm: 12
    text: "{{ ability }}"
    size_pt: 9
    min_size_pt: 6
    color: "#1a1a1a"
  - {name: qr, kind: qr, x_mm: 45, y_mm: 69, size_mm: 15}   # 15 mm: 0.45 mm modules, read by every scanner
  - name: footnote
    kind: text
    x_mm: 4
    y_mm: 80
    w_mm: 40
    h_mm: 4
    text: "{{ _('EXAMPLE CARD') }}"     # _(): a translation's words: give it in another language
    size_pt: 6.5
    min_size_pt: 6
    color: "#6b6b6b"
    when: "example"
"""

STARTER_BACK_YAML = """\
# The back of every card of the `draw` deck (backs get game, game_id, kind and title).
safe_margin_mm: 3
background: "#284b63"
regions:
  - {name: frame, kind: box, x_mm: 4, y_mm: 4, w_mm: 55.5, h_mm: 80.9, stroke: "#f7f3ea", stroke_pt: 1, radius_mm: 3}
  - name: game-title
    kind: text
    x_mm: 5
    y_mm: 35
    w_mm: 53.5
    h_mm: 12
    text: "{{ game.title | upper }}"
    font: bold
    size_pt: 18
    min_size_pt: 9
    align: center
    valign: middle
    color: "#f7f3ea"
  - name: deck-title
    kind: text
    x_mm: 5
    y_mm: 48
    w_mm: 53.5
    h_mm: 6
    text: "{{ title }}"
    size_pt: 10
    min_size_pt: 7
    align: center
    valign: middle
    color: "#f7f3ea"
"""


def starter_files(game_id: str = STARTER_GAME) -> dict[str, str]:
    """The starter game's files as the game ``game_id`` (a checked game id): ``{path in the
    project folder: text}``."""
    return {
        f"card_data/{game_id}/game.yaml": STARTER_GAME_YAML,
        f"card_data/{game_id}/cards/cards.yaml": STARTER_CARDS_YAML.replace("{game}", game_id),
        f"{layouts_folder(game_id)}/card.yaml": STARTER_FRONT_YAML,
        f"{layouts_folder(game_id)}/back-draw.yaml": STARTER_BACK_YAML,
    }
