"""Reference cards: rules summaries printed at card size, written from the card database.

They print with a back of their own (``<game>/templates/back-reference.yaml``, back kind
``reference``), never a deck's, so a reference card cannot shuffle into a deck unnoticed.

What goes on a game's reference cards is listed in ``card_data/<game>/reference.yaml`` (the
loader ignores that file; this module reads it). Every text there is a Jinja2 template over
the game's own data, so a change to a card, a glossary entry or ``tables.yaml`` changes the
printed reference. The file is a YAML list of cards::

    - id: contests                     # slug; a card split over several pages gets -1, -2 ...
      title: Contests and bonus points # Jinja2
      template: reference-rules        # <game>/templates/<template>.yaml, with a text region `body`
      for_each_deck: character         # optional: one card per deck list of this kind
      rest_of_glossary: false          # optional: append every glossary entry not on another card
      sections:
        - glossary: overpower          # heading = the entry's term, text = its text
        - heading: "First Blood"       # Jinja2 (optional)
          text: "{{ cards['first-blood'].awarded_for }}"   # Jinja2
          section: "2019 rulebook, Bonus Points"            # Jinja2: the rulebook section it rests on
          for_each: "decks.values() | list"                 # optional Jinja2 expression; `item` per element
          when: "deck_cards | length > 0"                   # optional Jinja2 condition

Jinja2 variables: ``game`` (game.yaml), ``game_id``, ``cards`` (id -> card), ``glossary``
(id -> entry), ``decks`` (id -> deck list), ``tables`` (the parsed tables.yaml or ``None``),
with ``for_each_deck`` also ``deck`` and ``deck_cards`` (the deck's cards in list order), and
the values the game's own package derives from its rules
(:meth:`card_data.games.GameEntry.reference_values`, e.g. Carpe Cras's ``tempo_table``).

Only what a player needs prints: an entry's ``text``, never its ``note`` (the designer's
remarks about the source, which stay in the data). A glossary entry whose name the
source lost (``name_lost``) has no name to print: ``rest_of_glossary`` leaves it out, and a
section naming it prints its text under the section's own ``heading`` (or none).
Sections are laid into the template's ``body`` region in order, shrinking from its
``size_pt`` as usual; a section that would need less than ``min_size_pt`` starts another card
("Keywords", page 2/5), so the designer's ``min_size_pt`` is the smallest text a reference
prints. Only a single section too long for a whole card is reported (a
:class:`~printkit.sheets.templating.layout.LayoutError` from :func:`reference_faces`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from card_data.games import registry
from card_data.loader import Game
from card_data.problems import DatabaseError, Problem
from card_data.project.project_folders import game_templates_dir
from card_data.schema import GlossaryEntry, Slug
from card_data.reading.yaml_source import LineMap, YamlSyntaxError, load_yaml
from printkit.sheets.templating.layout import (
    LAYOUTS_DIR,
    Face,
    Layout,
    LayoutError,
    TextRegion,
    card_template_environment,
    fit_text,
    load_layout,
    prepare_face,
)
from printkit.sheets.templating.template_sandbox import render_bounded, template_error_message

REFERENCE_FILE = "reference.yaml"
BODY_REGION = "body"
REFERENCE_BLEED_MM = 3.0
"""Bleed around a reference card's trim; the same 3 mm as every other card (printkit.build_options)."""

REFERENCE_BACK_KIND = "reference"
"""The back kind of every reference card: ``<game>/templates/back-reference.yaml``."""
REFERENCE_BACK_TITLE = "Reference"


# ---- reference.yaml -----------------------------------------------------------------------

class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SectionSpec(_Spec):
    """One block of a reference card: a glossary entry and/or a heading and text (Jinja2)."""

    glossary: str | None = None
    heading: str | None = None
    text: str | None = None
    section: str | None = None
    for_each: str | None = None
    when: str | None = None

    @model_validator(mode="after")
    def _has_text(self) -> SectionSpec:
        if self.glossary is None and self.text is None:
            raise ValueError("a section needs `glossary` (an entry id) or `text`")
        return self


class ReferenceSpec(_Spec):
    """One entry of ``reference.yaml``: a reference card (or one per deck of a kind)."""

    id: Slug
    title: str = Field(min_length=1)
    template: str = Field(pattern=r"^reference-[a-z0-9-]+$")
    for_each_deck: str | None = None
    rest_of_glossary: bool = False
    sections: list[SectionSpec] = []


# ---- what this module gives the build --------------------------------------------------------

@dataclass(frozen=True)
class ReferenceCard:
    """A reference card ready for layout.

    Attributes:
        id: slug, unique among the game's reference cards (e.g. ``"knight-specials"``,
            ``"keywords-3"``).
        title: the card's title without its page number.
        template: layout template name, ``<game>/templates/<template>.yaml``.
        context: Jinja2 variables for the template: ``title``, ``page`` and ``pages`` (1-based),
            ``sections`` (list of ``{"heading", "text", "section"}``), ``sources`` (the rulebook
            sections cited, sorted), ``game``, ``game_id``.
        back_kind: the back it is printed with: always :data:`REFERENCE_BACK_KIND`.
    """

    id: str
    title: str
    template: str
    context: dict[str, Any]
    back_kind: str


_JINJA = card_template_environment()  # sandboxed: shared data must not reach Python internals


def has_name(entry: GlossaryEntry) -> bool:
    """Whether the entry has a term to print (the source did not lose it)."""
    return not entry.name_lost and entry.term is not None


def glossary_heading(entry: GlossaryEntry) -> str:
    """The entry's term, or ``""`` when the source text lost it (a guess would mislead)."""
    return entry.term if has_name(entry) and entry.term is not None else ""


def glossary_text(entry: GlossaryEntry) -> str:
    """The entry's rules text as players read it (its designer's ``note`` never prints)."""
    return entry.text.strip()


def _base_context(game: Game) -> dict[str, Any]:
    ctx = {"game": game.info, "game_id": game.game_id, "cards": game.cards,
           "glossary": {e.id: e for e in game.glossary}, "decks": game.decks, "tables": game.tables}
    entry = registry().get(game.game_id)  # a declared game has no Python, so no derived values
    if entry is not None:
        ctx.update(entry.reference_values(game))
    return ctx


class _Reader:
    """Reads reference.yaml, collecting problems as ``FILE:LINE: game/id: field: message``."""

    def __init__(self, game: Game, path: Path):
        self.game, self.path = game, path
        self.problems: list[Problem] = []
        self.lines = LineMap()

    def problem(self, loc: tuple, record: str, fld: str, message: str) -> None:
        self.problems.append(Problem(str(self.path), self.lines.line_for(loc), self.game.game_id, record, fld,
                                     message))

    def specs(self) -> list[tuple[int, ReferenceSpec]]:
        try:
            data, self.lines = load_yaml(self.path)
        except YamlSyntaxError as exc:
            self.problems.append(Problem(str(self.path), exc.line, self.game.game_id, "-", "yaml", exc.message))
            return []
        if data is None:
            return []
        if not isinstance(data, list):
            self.problem((), "-", "reference", "expected a list of reference cards")
            return []
        out = []
        for i, item in enumerate(data):
            record = item.get("id", "-") if isinstance(item, dict) and isinstance(item.get("id"), str) else "-"
            try:
                out.append((i, ReferenceSpec.model_validate(item)))
            except ValidationError as exc:
                self.problems += Problem.from_validation_error(exc, data=item, file=str(self.path), lines=self.lines,
                                                               base=(i,), game=self.game.game_id, card_id=record)
        return out

    def render(self, source: str, ctx: dict, loc: tuple, record: str, fld: str) -> str | None:
        try:
            return render_bounded(_JINJA.from_string(source), ctx).strip()
        except Exception as exc:  # noqa: BLE001 - any error of a template expression is a problem
            self.problem(loc, record, fld, template_error_message(exc))
            return None

    def evaluate(self, source: str, ctx: dict, loc: tuple, record: str, fld: str) -> Any:
        try:
            return _JINJA.compile_expression(source, undefined_to_none=False)(**ctx)
        except Exception as exc:  # noqa: BLE001 - any error of a template expression is a problem
            self.problem(loc, record, fld, template_error_message(exc))
            return None

    def sections(self, i: int, spec: ReferenceSpec, ctx: dict, record: str) -> list[dict[str, str]]:
        """The card's sections rendered for ``ctx``."""
        glossary = ctx["glossary"]
        out = []
        for j, sec in enumerate(spec.sections):
            loc = (i, "sections", j)
            items: list[Any] = [None]
            if sec.for_each is not None:
                value = self.evaluate(sec.for_each, ctx, loc + ("for_each",), record, f"sections.{j}.for_each")
                items = list(value) if value is not None else []
            for item in items:
                sctx = dict(ctx, item=item) if sec.for_each is not None else ctx
                if sec.when is not None:
                    shown = self.evaluate(sec.when, sctx, loc + ("when",), record, f"sections.{j}.when")
                    if not shown:
                        continue
                entry = None
                if sec.glossary is not None:
                    entry = glossary.get(sec.glossary)
                    if entry is None:
                        self.problem(loc + ("glossary",), record, f"sections.{j}.glossary",
                                     f"no glossary entry '{sec.glossary}' in {self.game.game_id}/glossary.yaml")
                        continue
                heading = (self.render(sec.heading, sctx, loc + ("heading",), record, f"sections.{j}.heading")
                           if sec.heading is not None else (glossary_heading(entry) if entry else ""))
                text = (self.render(sec.text, sctx, loc + ("text",), record, f"sections.{j}.text")
                        if sec.text is not None else glossary_text(entry))
                section = (self.render(sec.section, sctx, loc + ("section",), record, f"sections.{j}.section")
                           if sec.section is not None else (entry.section if entry else ""))
                if heading is None or text is None or section is None:
                    continue
                out.append({"heading": heading, "text": text, "section": section})
        return out


def _glossary_ids(specs: list[tuple[int, ReferenceSpec]]) -> set[str]:
    return {s.glossary for _, spec in specs for s in spec.sections if s.glossary is not None}


class _Pager:
    """Splits sections over as few cards of one template as they need (text no smaller than
    the body's ``min_size_pt``), then spreads them so the smallest text is as large as it can be
    on that many cards."""

    def __init__(self, layout: Layout):
        region = next((r for r in layout.spec.regions if r.name == BODY_REGION), None)
        if not isinstance(region, TextRegion):
            raise LayoutError(str(layout.path), 1, f"layout:{BODY_REGION}",
                              f"a reference card template needs a text region named '{BODY_REGION}'")
        self.layout, self.region = layout, region

    def _fits(self, ctx: dict, region: TextRegion) -> bool:
        text = self.layout.compiled[(BODY_REGION, "text")].render(ctx)
        return fit_text(region, text) is not None

    def _greedy(self, sections: list[dict], ctx: dict, floor_pt: float) -> list[list[dict]]:
        region = self.region.model_copy(update={"min_size_pt": floor_pt})
        pages: list[list[dict]] = []
        current: list[dict] = []
        for sec in sections:
            trial = current + [sec]
            if current and not self._fits(dict(ctx, sections=trial, page=1, pages=1), region):
                pages.append(current)
                current = [sec]
            else:
                current = trial
        if current or not pages:
            pages.append(current)
        return pages

    def pages(self, sections: list[dict], ctx: dict) -> list[list[dict]]:
        """``sections`` grouped into cards, in order."""
        best = self._greedy(sections, ctx, self.region.min_size_pt)
        floor_pt = self.region.min_size_pt + 0.5
        while len(best) > 1 and floor_pt <= self.region.size_pt:
            trial = self._greedy(sections, ctx, floor_pt)
            if len(trial) > len(best):
                break
            best, floor_pt = trial, floor_pt + 0.5
        return best


def _template_path(layouts_dir: Path, game: Game, template: str) -> Path:
    return game_templates_dir(game.folder, layouts_dir) / f"{template}.yaml"


def reference_cards(game: Game, layouts_dir: Path = LAYOUTS_DIR, bleed_mm: float = REFERENCE_BLEED_MM
                    ) -> list[ReferenceCard]:
    """The reference cards of ``game`` as its ``reference.yaml`` lists them, in file order (a
    card per deck for ``for_each_deck``; a card split over pages gives one per page), laid out
    with the templates of the game's templates folder for ``layouts_dir``
    (:func:`card_data.project.project_folders.game_templates_dir`).

    Returns an empty list when the game has no reference.yaml. Raises
    :class:`~card_data.problems.DatabaseError` listing every problem of reference.yaml
    (``FILE:LINE: game/id: field: message``), :class:`~printkit.sheets.templating.layout.LayoutError` when a
    template is missing or broken.
    """
    path = game.folder / REFERENCE_FILE
    if not path.is_file():
        return []
    reader = _Reader(game, path)
    specs = reader.specs()
    base = _base_context(game)
    used = _glossary_ids(specs)
    size = game.info.card_size
    pagers: dict[str, _Pager] = {}
    cards: list[ReferenceCard] = []
    for i, spec in specs:
        tpath = _template_path(layouts_dir, game, spec.template)
        if not tpath.is_file():
            reader.problem((i, "template"), spec.id, "template", f"no layout template {tpath}")
            continue
        if spec.template not in pagers:
            pagers[spec.template] = _Pager(load_layout(tpath, size.width_mm, size.height_mm, bleed_mm))
        pager = pagers[spec.template]
        contexts: list[tuple[str, dict]] = [(spec.id, base)]
        if spec.for_each_deck is not None:
            decks = [d for d in game.decks.values() if d.kind == spec.for_each_deck]
            if not decks:
                reader.problem((i, "for_each_deck"), spec.id, "for_each_deck",
                               f"no deck list of kind '{spec.for_each_deck}'")
            contexts = [(f"{d.id}-{spec.id}",
                         dict(base, deck=d, deck_cards=[game.cards[e.card] for e in d.cards if e.card in game.cards]))
                        for d in decks]
        for card_id, ctx in contexts:
            title = reader.render(spec.title, ctx, (i, "title"), spec.id, "title")
            sections = reader.sections(i, spec, ctx, spec.id)
            if spec.rest_of_glossary:
                sections += [{"heading": glossary_heading(e), "text": glossary_text(e), "section": e.section}
                             for e in game.glossary if e.id not in used and has_name(e)]
            if title is None:
                continue
            card_ctx = dict(ctx, title=title)
            pages = pager.pages(sections, card_ctx)
            for n, page_sections in enumerate(pages, start=1):
                sources = sorted({s["section"] for s in page_sections if s["section"]})
                context = dict(card_ctx, sections=page_sections, page=n, pages=len(pages), sources=sources)
                page_id = card_id if len(pages) == 1 else f"{card_id}-{n}"
                cards.append(ReferenceCard(page_id, title, spec.template, context, REFERENCE_BACK_KIND))
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            reader.problem((), card.id, "id", "two reference cards have this id")
        seen.add(card.id)
    if reader.problems:
        raise DatabaseError(reader.problems)
    return cards


def reference_faces(game: Game, layouts_dir: Path = LAYOUTS_DIR, qr_payload: str | None = None,
                    bleed_mm: float = REFERENCE_BLEED_MM) -> list[tuple[ReferenceCard, Face]]:
    """Lay out :func:`reference_cards` with their templates (trim: the game's card size; bleed
    ``bleed_mm``). ``qr_payload``: URL for a template's ``qr`` region (``None`` leaves it out).

    Returns ``[(card, face)]`` in card order. Raises :class:`~printkit.sheets.templating.layout.LayoutError` whose
    message names the reference card (``reference card <game>/<id>: ...``) when its text does
    not fit even at ``min_size_pt``; and what :func:`reference_cards` raises.
    """
    size = game.info.card_size
    layouts: dict[str, Layout] = {}
    out = []
    for card in reference_cards(game, layouts_dir, bleed_mm):
        if card.template not in layouts:
            layouts[card.template] = load_layout(_template_path(layouts_dir, game, card.template),
                                                 size.width_mm, size.height_mm, bleed_mm)
        try:
            face = prepare_face(layouts[card.template], card.context, game.folder, qr_payload)
        except LayoutError as exc:
            raise LayoutError(exc.file, exc.line, exc.field,
                              f"reference card {game.game_id}/{card.id}: {exc.message}") from None
        out.append((card, face))
    return out
