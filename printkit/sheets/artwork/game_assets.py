"""A game's own print assets, checked once per build: the fonts its ``game.yaml`` names and the
icon files in its ``icons/`` folder."""

from __future__ import annotations

from pathlib import Path

from card_data.loader import Game
from card_data.problems import Problem
from card_data.reading.yaml_source import LineMap, YamlSyntaxError, load_yaml
from printkit.sheets.artwork.art import ArtError, read_artwork, resolve_inside
from printkit.sheets.text.fonts import FACES, FontError, font_set
from printkit.sheets.text.icons import ICON_SUFFIXES, ICONS_FOLDER


def game_asset_problems(game: Game) -> list[Problem]:
    """Problems with ``game``'s fonts (``FILE:LINE: game/-: fonts.bold: ...`` at game.yaml's
    line) and icon files (``icons/x.svg: icon: ...``), in that order. Never raises for bad data.
    """
    problems: list[Problem] = []
    fonts = getattr(game.info, "fonts", None) or {}
    info_path = game.folder / "game.yaml"
    if fonts:
        try:
            _, lines = load_yaml(info_path)
        except (YamlSyntaxError, OSError):
            lines = LineMap()
        for face in FACES:
            if face not in fonts:
                continue
            try:
                font_set({face: resolve_inside(game.folder, fonts[face], "font")})
            except (ArtError, FontError) as exc:
                problems.append(Problem(str(info_path), lines.line_for(("fonts", face)), game.game_id, "-",
                                        f"fonts.{face}", str(exc)))
    icons = game.folder / ICONS_FOLDER
    if icons.is_dir():
        for path in sorted(icons.iterdir()):
            if path.suffix.lower() not in ICON_SUFFIXES:
                continue
            try:
                read_artwork(resolve_inside(game.folder, str(Path(ICONS_FOLDER) / path.name), "icon"), icons)
            except ArtError as exc:
                problems.append(Problem(str(path), 1, game.game_id, "-", "icon", str(exc)))
    return problems
