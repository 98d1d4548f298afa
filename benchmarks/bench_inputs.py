"""The benchmark's inputs: a card database whose cards never repeat their texts, and artwork.

Every card is one of the bundled game's draw cards in turn (units, heroes, upgrades, events,
environments, dualities: the game's mix of layouts), with a generated title, a generated
ability (the body text, 30-75 characters like the bundled abilities, sometimes with an icon),
generated skill names and ruling texts, and stats drawn at random. No two cards share a title
or a printed body, so no cache keyed on text can flatter a build. Everything is drawn from
``random.Random(seed)``: the same seed gives the same database and the same images, so runs
compare.

Art (:func:`make_art`): each card its own 1200 x 1680 px image, photographic noise (coarse and
fine random detail blended, distinct pixels per card), every other one JPEG (quality 90) and
PNG, placed as a designer does: the file in the game's folder, the card's ``art`` field naming it.
"""

from __future__ import annotations

import copy
import random
import shutil
from pathlib import Path

import yaml

CARDS_PER_FILE = 250
"""Cards per YAML file, as a designer keeps them (the bundled files hold 5-60)."""

ART_SIZE_PX = (1200, 1680)

_ONSETS = ["b", "br", "c", "d", "dr", "f", "g", "gr", "h", "k", "l", "m", "n", "p", "r", "s", "st",
           "t", "th", "v", "w", "z", "sh", "kr"]
_VOWELS = ["a", "e", "i", "o", "u", "ae", "ia", "ou", "y"]
_CODAS = ["", "", "n", "r", "l", "s", "th", "k", "m", "x", "nd", "rk"]
_NOUNS = ["Recruit", "Skirmisher", "Warden", "Sentinel", "Outrider", "Mystic", "Zealot", "Reaver",
          "Archer", "Herald", "Squire", "Tyro", "Keeper", "Vanguard", "Raider", "Oracle", "Bastion",
          "Rampart", "Gambit", "Prayer", "Blade", "Shield", "Banner", "Tower", "Grove", "Harbor"]
_WEAPONS = ["Axe", "Sword", "Spear", "Knife", "Mace", "Sling", "Bow", "Staff", "Flail", "Claw"]
_TRIGGERS = ["When played", "At Round Start", "At Round End", "When I strike", "When I am struck",
             "When an ally enters my space", "When an enemy unit occupies my space", "Spend me",
             "Focus", "When I move", "Once per round"]
_EFFECTS = ["Heal an adjacent ally {n}", "gain +{n} Generic Power until Round End",
            "deal {n} Physical damage to a unit in range", "Draw {n}", "Gain Agency",
            "move an enemy {n} spaces away", "allied units in my space gain +{n} :armor: Armor",
            "gain +{n} :evade: Evade", "Heal myself {n} :health:", "the next {name} costs {n} less",
            "swap places with the {name}", "an ally named {name} gains +{n} :speed: Speed"]
_RULINGS = ["The {name} counts as a unit for every effect that names units.",
            "If two effects of the {name} trigger at once, its owner picks the order.",
            "Damage from the {name} ignores Armor but not Resistance, as the glossary says.",
            "Moving away with the {name} does not provoke a strike from adjacent enemies.",
            "The bonus of the {name} lasts until Round End even when it leaves play first."]


def _word(rng: random.Random) -> str:
    """A pronounceable invented word of 2-3 syllables, capitalised."""
    parts = [rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(rng.randint(1, 2))]
    return ("".join(parts) + rng.choice(_ONSETS[:12]) + rng.choice(_VOWELS) + rng.choice(_CODAS)).capitalize()


def _title(rng: random.Random, most: int) -> str:
    """An invented name and a noun, at most ``most`` characters."""
    while True:
        title = f"{_word(rng)} {rng.choice(_NOUNS)}"
        if len(title) <= most:
            return title


def _ability(rng: random.Random) -> str:
    """A rules text of one or two clauses, 30-75 characters, naming an invented word."""
    while True:
        effect = rng.choice(_EFFECTS).format(n=rng.randint(1, 4), name=_word(rng))
        text = f"{rng.choice(_TRIGGERS)}: {effect}."
        if rng.random() < 0.3:
            text += f" Then Draw {rng.randint(1, 2)}."
        if 30 <= len(text) <= 75:
            return text


def _skills(rng: random.Random, skills: list[dict]) -> list[dict]:
    """``skills`` with invented names and fresh powers (combat and range kept: they go together)."""
    out = []
    for skill in skills:
        skill = dict(skill, name=f"{_word(rng)} {rng.choice(_WEAPONS)}")
        if "power" in skill:
            skill["power"] = rng.randint(1, 4)
        out.append(skill)
    return out


def _stats(rng: random.Random, card: dict) -> None:
    """Fresh values for the stats ``card`` prints (kept within the schema's bounds)."""
    for key, low, high in (("speed", 1, 5), ("health", 1, 6), ("steps", 1, 4), ("cost", 0, 5)):
        if key in card:
            card[key] = rng.randint(low, high)
    if "skills" in card:
        card["skills"] = _skills(rng, card["skills"])


def draw_cards(game: str) -> list[dict]:
    """The bundled ``game``'s draw-deck cards (no agency, reference or token cards), in file order."""
    from card_data.loader import bundled_data_dir

    cards = []
    for path in sorted((bundled_data_dir() / game / "cards").glob("*.yaml")):
        cards.extend(yaml.safe_load(path.read_text(encoding="utf-8")) or [])
    return [c for c in cards if c.get("type") not in ("agency", "reference", "token")]


def generate_cards(game: str, n: int, seed: int) -> list[dict]:
    """``n`` card records ``bench-00000`` ... with distinct titles and bodies (see the module doc).

    Raises ``RuntimeError`` if the generator cannot find a fresh title (it can for millions)."""
    rng = random.Random(seed)
    originals = draw_cards(game)
    titles: set[str] = set()
    bodies: set[str] = set()
    cards = []
    for i in range(n):
        # A deep copy: shared lists would be written as YAML aliases, which the loader limits.
        card = copy.deepcopy(originals[i % len(originals)])
        card.pop("note", None)
        card["id"] = f"bench-{i:05d}"
        duality = card.get("type") == "duality"
        for _ in range(1000):
            # Bundled titles are 4-26 characters; both halves of a duality's fit one line.
            parts = [_title(rng, 15 if duality else 24) for _ in range(2 if duality else 1)]
            title = " / ".join(parts)
            if title not in titles:
                break
        else:
            raise RuntimeError("no fresh title")
        titles.add(title)
        _stats(rng, card)
        if duality:
            for side, side_title in zip(card["sides"], parts):
                side["title"] = side_title
                _stats(rng, side)
        card["title"] = title
        ability = _ability(rng)
        while ability in bodies:
            ability = _ability(rng)
        bodies.add(ability)
        if not duality:
            card["ability"] = ability
        else:
            card["sides"][0]["ability"] = ability
        for ruling in card.get("rulings", []):
            ruling["text"] = " ".join(rng.choice(_RULINGS).format(name=_word(rng)) for _ in range(2))
        cards.append(card)
    return cards


def make_database(game: str, cards: list[dict], root: Path) -> Path:
    """Write ``game``'s folder holding ``cards`` under ``root/data``; returns ``root/data``.

    The bundled game's data and layouts are copied; its decks, ``kit.yaml`` and
    ``printings.yaml`` are left out (they name cards that are not there), and its Python
    modules too: a designer's project folder holds data and layouts only."""
    from card_data.loader import bundled_data_dir

    dst = root / "data" / game
    shutil.copytree(bundled_data_dir() / game, dst,
                    ignore=shutil.ignore_patterns("decks", "cards", "kit.yaml", "printings.yaml", "*.py",
                                                  "__pycache__", "table.html"))
    write_cards(dst, cards)
    return root / "data"


def write_cards(game_dir: Path, cards: list[dict]) -> None:
    """(Re)write ``game_dir/cards/bench-NNN.yaml``, :data:`CARDS_PER_FILE` cards a file."""
    (game_dir / "cards").mkdir(exist_ok=True)
    for start in range(0, len(cards), CARDS_PER_FILE):
        (game_dir / "cards" / f"bench-{start // CARDS_PER_FILE:03d}.yaml").write_text(
            yaml.safe_dump(cards[start:start + CARDS_PER_FILE], allow_unicode=True, sort_keys=False),
            encoding="utf-8")


def change_one_title(game_dir: Path) -> str:
    """Append " (changed)" to the first card's title in ``game_dir``'s first cards file, as a
    designer's edit does (only that file is rewritten); returns the new title."""
    path = game_dir / "cards" / "bench-000.yaml"
    cards = yaml.safe_load(path.read_text(encoding="utf-8"))
    cards[0]["title"] += " (changed)"
    path.write_text(yaml.safe_dump(cards, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return cards[0]["title"]


def art_image(rng: random.Random):
    """One 1200 x 1680 RGB Pillow image of photographic noise drawn from ``rng``."""
    from PIL import Image

    w, h = ART_SIZE_PX
    layers = []
    for step in (16, 4, 1):  # coarse shapes, mid detail, grain
        small = (w // step, h // step)
        layer = Image.frombytes("RGB", small, rng.randbytes(small[0] * small[1] * 3))
        layers.append(layer.resize((w, h), Image.Resampling.BICUBIC) if step > 1 else layer)
    return Image.blend(Image.blend(layers[0], layers[1], 0.3), layers[2], 0.1)


def make_art(game_dir: Path, cards: list[dict], seed: int) -> int:
    """Give each of ``cards`` its own image in ``game_dir/art/`` (card ``i``: JPEG if ``i`` is
    even, else PNG) and set its ``art`` field; returns the bytes of image files written."""
    rng = random.Random(seed)
    (game_dir / "art").mkdir(exist_ok=True)
    total = 0
    for i, card in enumerate(cards):
        name = f"art/{card['id']}.{'jpg' if i % 2 == 0 else 'png'}"
        image = art_image(rng)
        if i % 2 == 0:
            image.save(game_dir / name, "JPEG", quality=90)
        else:
            image.save(game_dir / name, "PNG")
        card["art"] = name
        total += (game_dir / name).stat().st_size
    return total


def printed_texts(game: str, cards: list[dict], base_url: str) -> list[dict]:
    """What the baseline scripts draw for each of ``cards``: ``title``, ``cost``, ``kind`` (type line),
    ``stats``, ``skills``, ``ability`` and ``payload`` (the short address printkit's QR code
    holds for it at ``base_url``)."""
    from card_data.editions.short_codes import card_code, short_url

    texts = []
    for card in cards:
        face = card["sides"][0] if card.get("type") == "duality" else card
        stats = "   ".join(f"{key.capitalize()} {face[key]}" for key in
                           ("speed", "evade", "steps", "health", "armor", "resistance", "exit_steps") if key in face)
        skills = " · ".join(f"⚔ {s['name']} {s.get('power', 0)} · range {s.get('range', 1)}"
                            for s in face.get("skills", []))
        texts.append({"title": card["title"], "cost": str(face.get("cost", "")), "ability": face.get("ability") or "",
                      "kind": f"{' or '.join(face.get('agency', []))} · {card['type'].capitalize()}",
                      "stats": stats or "No stats", "skills": skills or "No skill",
                      "payload": short_url(base_url, card_code(game, card["id"], None))})
    return texts
