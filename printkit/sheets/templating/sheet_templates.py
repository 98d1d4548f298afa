"""What boards, tokens and the score pad share: their templates' Jinja2 context, reading a
template file into a schema with line-numbered errors, and fitted text at page positions.

The template formats are described in ``templates/BOARDS.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from card_data.loader import Game
from printkit.sheets.prepress.imposition import Rect
from printkit.sheets.templating.layout import (
    Face,
    Layout,
    LayoutError,
    LayoutSpec,
    TextRegion,
    card_template_environment,
    fit_text,
    read_template,
)
from printkit.sheets.render import PageDrawer
from printkit.sheets.templating.template_sandbox import render_bounded, template_error_message

Spec = TypeVar("Spec", bound=BaseModel)

_JINJA = card_template_environment()  # sandboxed: shared data must not reach Python internals


def template_context(game: Game) -> dict[str, Any]:
    """Jinja2 variables of a board, sheet, token or score pad template.

    ``game`` (game.yaml), ``game_id``, ``glossary`` (entries by id), ``cards`` (by id, file
    order), ``tables`` (the game's tables.yaml model, or ``None``).
    """
    return {"game": game.info, "game_id": game.game_id, "glossary": {e.id: e for e in game.glossary},
            "cards": game.cards, "tables": game.tables}


def load_spec(path: Path, model: type[Spec]) -> tuple[Spec, Any]:
    """Read ``path`` and validate it as ``model``.

    Returns ``(spec, line_map)`` (``line_map.line_for(loc)`` gives a key's line). Raises
    :class:`LayoutError` with the file, line and field of the first problem.
    """
    return read_template(path, model)


def expand(source: str, context: dict[str, Any], file: Path, line: int, fld: str) -> str:
    """Render a Jinja2 text; raises :class:`LayoutError` at ``file:line`` naming ``fld`` on any error."""
    try:
        return render_bounded(_JINJA.from_string(source), context)
    except Exception as exc:  # noqa: BLE001 - any error of a template expression is a problem
        raise LayoutError(str(file), line, fld, template_error_message(exc)) from None


def evaluate(expression: str, context: dict[str, Any], file: Path, line: int, fld: str) -> Any:
    """Evaluate a Jinja2 expression (e.g. ``glossary['status-effects'].aliases``) to a value;
    raises :class:`LayoutError` like :func:`expand`."""
    try:
        return _JINJA.compile_expression(expression, undefined_to_none=False)(**context)
    except Exception as exc:  # noqa: BLE001 - any error of a template expression is a problem
        raise LayoutError(str(file), line, fld, template_error_message(exc)) from None


_PLAIN = Layout(Path("<printkit>"), LayoutSpec(regions=[]), {})
"""A layout without background, for drawing loose fitted text through :meth:`PageDrawer.face`."""


def draw_text(drawer: PageDrawer, text: str, box: Rect, size_pt: float, font: str = "regular",
              align: str = "left", valign: str = "top", color: str = "#000000", min_size_pt: float = 4) -> None:
    """Draw ``text`` wrapped in ``box`` (page mm), shrunk from ``size_pt`` down to ``min_size_pt``
    to fit. Raises ``ValueError`` naming the text if it does not fit even then."""
    region = TextRegion(name="text", kind="text", x_mm=0, y_mm=0, w_mm=box.w_mm, h_mm=box.h_mm, text=text,
                        font=font, size_pt=size_pt, min_size_pt=min(size_pt, min_size_pt), align=align,
                        valign=valign, color=color)
    fitted = fit_text(region, text)
    if fitted is None:
        raise ValueError(f"text does not fit {box.w_mm:g} x {box.h_mm:g} mm: {text[:60]!r}")
    drawer.face(Face(_PLAIN, [fitted]), box, box)
