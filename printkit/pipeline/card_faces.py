"""One game's card faces as a build lays them out: the addresses its QR codes encode, the
variables its templates see, and its layout templates (:class:`GameLayouts`), loaded once and
reporting every problem at the FILE:LINE where it is to be fixed."""
from __future__ import annotations

from pathlib import Path

from card_data.loader import Game
from card_data.problems import Problem
from card_data.project.project_folders import game_templates_dir
from card_data.schema import Card
from card_data.editions.short_codes import card_code, short_url
from card_data.editions.translations import Translation, translated_card
from printkit.build_options import BuildOptions
from printkit.components.reference import REFERENCE_BACK_KIND, REFERENCE_BACK_TITLE
from printkit.sheets.templating.layout import (
    LAYOUT_WORDS,
    Face,
    FaceWarning,
    Layout,
    LayoutError,
    WarningLog,
    load_layout,
    prepare_face,
)
from printkit.sheets.templating.template_names import unknown_name


def card_url(base_url: str, game_id: str, card_id: str, version: int | None = None) -> str:
    """A card's rulings page on the companion: ``<base-url>/r/<game>/<card-id>``, and
    ``/<version>`` after it for a card of a versioned game (see :mod:`card_data.editions.printings`),
    so that the companion can tell a player whose copy is older what has changed since.
    Cards printed before the short addresses carry this URL in their QR code; it keeps working."""
    url = f"{base_url.rstrip('/')}/r/{game_id}/{card_id}"
    return url if version is None else f"{url}/{version}"


def card_qr_url(base_url: str, game: Game, card: Card) -> str:
    """The URL ``card``'s QR code encodes in a build: its short address ``<BASE>/Q/<CODE>``
    (:mod:`card_data.editions.short_codes`: scheme and host upper case, a code of the game, card and the
    version it prints as), which the companion redirects to :func:`card_url`'s page. Short and
    upper case so that the code is QR version 2 (25 modules, 0.45 mm in a 15 mm region) for a
    base URL of up to 27 characters without a path, which every common scanner reads."""
    version = game.printings.card_version(card)
    return short_url(base_url, card_code(game.game_id, card.id, version.version if version else None))


def build_translation(game: Game, options: BuildOptions) -> Translation | None:
    """The translation ``game``'s cards print in (``options.lang``), or ``None``: no language
    asked, or the game has no translation into it (its cards print in the original)."""
    return game.translations.get(options.lang) if options.lang else None


def card_context(game: Game, card: Card, translation: Translation | None = None) -> dict:
    """Jinja2 variables for a card template: the card's fields plus ``card``, ``game``,
    ``game_id`` and, with a ``translation``, the template's own words in its language
    (:data:`~printkit.sheets.templating.layout.LAYOUT_WORDS`, for ``_("...")``)."""
    ctx = card.model_dump(mode="python")
    ctx.update(card=card, game=game.info, game_id=game.game_id)
    ctx[LAYOUT_WORDS] = translation.words if translation is not None else {}
    return ctx


def _attributes(model: type) -> list[str]:
    """What a template may read of an instance of ``model`` (a pydantic model): its fields and
    public attributes."""
    return [*getattr(model, "model_fields", {}), *(name for name in dir(model) if not name.startswith("_"))]


class GameLayouts:
    """One game's layout templates, loaded on first use, and the faces they give its cards.

    The templates are those of ``folder``, the game's templates folder for the templates folder
    ``layouts_dir`` (:func:`card_data.project.project_folders.game_templates_dir`). Every problem (a
    broken template, a card without one, text that does not fit) is appended to ``problems``
    as a :class:`Problem`; the methods then return ``None``.
    """

    def __init__(self, game: Game, options: BuildOptions, layouts_dir: Path, problems: list[Problem],
                 warnings: WarningLog | None = None):
        self.game = game
        self.options = options
        self.layouts_dir = layouts_dir
        self.folder = game_templates_dir(game.folder, layouts_dir)
        self.problems = problems
        self.warnings = warnings if warnings is not None else WarningLog()  # low-res art, dense QR codes
        self._layouts: dict[str, Layout | None] = {}
        self._names_given: dict[tuple[str, type], bool] = {}  # (template, card class) -> reads only given names

    def _problem(self, file: str, line: int, card_id: str, fld: str, message: str) -> None:
        self.problems.append(Problem(file, line, self.game.game_id, card_id, fld, message))

    def layout(self, name: str, is_back: bool) -> Layout | None:
        """The template ``<name>.yaml`` of the game's templates folder, or ``None`` if it is
        missing or broken."""
        if name not in self._layouts:
            path = self.folder / f"{name}.yaml"
            size = self.game.info.card_size
            self._layouts[name] = None
            if path.is_file():
                try:
                    self._layouts[name] = load_layout(path, size.width_mm, size.height_mm, self.options.bleed_mm,
                                                      is_back)
                except LayoutError as exc:
                    self._problem(exc.file, exc.line, "-", exc.field, exc.message)
        return self._layouts[name]

    def _reads_only_given_names(self, layout: Layout, key: tuple[str, type], variables: list[str],
                                card: type | None, is_not: str) -> bool:
        """Whether every name ``layout``'s templates read is given (:func:`unknown_name`):
        ``variables``, with ``game.x`` one of the game's, and ``card.x`` one of the ``card``
        class's (its fields); checked once per ``key``; the first that is not is one problem
        at its region's line."""
        known = self._names_given.get(key)
        if known is None:
            attributes = {"game": _attributes(type(self.game.info))}
            if card is not None:
                attributes["card"] = _attributes(card)
            unknown = unknown_name(layout, variables, attributes)
            known = self._names_given[key] = unknown is None
            if unknown is not None:
                self._problem(str(layout.path), layout.region_line(unknown.region), "-",
                              f"layout:{unknown.region}.{unknown.attr}", unknown.message(is_not))
        return known

    def back(self, kind: str, title: str | None = None) -> Face | None:
        """The back shared by every card of ``kind`` (a key of ``backs`` in game.yaml, whose
        value is the back's ``title`` unless ``title`` is given). In a build in another language
        the title is as the translation's ``words:`` gives it, and so is what the back's template
        prints through ``_("...")``."""
        path = self.folder / f"back-{kind}.yaml"
        layout = self.layout(f"back-{kind}", True)
        if layout is None:
            if not path.is_file():
                self._problem(str(path), 1, "-", "layout", f"no back template for the '{kind}' deck")
            return None
        translation = build_translation(self.game, self.options)
        words = translation.words if translation is not None else {}
        title = title if title is not None else self.game.info.backs[kind]
        context = {"game": self.game.info, "game_id": self.game.game_id, "kind": kind,
                   "title": words.get(title, title), LAYOUT_WORDS: words}
        if not self._reads_only_given_names(layout, (f"back-{kind}", dict), list(context), None,
                                            "is not a variable of a back template (game, game_id, kind, title)"):
            return None
        try:
            face = prepare_face(layout, context, self.game.folder, None)
        except LayoutError as exc:
            self._problem(exc.file, exc.line, "-", exc.field, exc.message)
            return None
        self.warnings.add(face, str(path), 1, self.game.game_id, "-")
        return face

    def _translated_cause(self, layout: Layout, card: Card, translation: Translation, exc: LayoutError,
                          qr_url: str, qr_label: str | None) -> tuple[str, int, str] | None:
        """Where the problem ``exc``, met laying out ``card`` in ``translation``'s language, is
        to be fixed when the translation caused it: ``(translation file, line, field)`` of the
        translated field that alone gives the same problem (of the card's entry, field ``-``, if
        only its fields together do); ``None`` when the card in the original gives it too."""
        fields = translation.printed_fields(card.id)
        if not fields:
            return None

        def fails(update: dict[str, str]) -> bool:
            try:
                prepare_face(layout, card_context(self.game, card.model_copy(update=update), translation),
                             self.game.folder, qr_url, qr_label=qr_label)
            except LayoutError as again:
                return again.field == exc.field
            return False

        if fails({}):
            return None
        for name, text in fields.items():
            if fails({name: text}):
                return str(translation.path), translation.card_field_line(card.id, name), name
        return str(translation.path), translation.card_field_line(card.id, ""), "-"

    def reference_back(self) -> Face | None:
        """The reference cards' own back: ``back-reference.yaml`` with the title "Reference".

        A game without that template gets its main deck's back template titled "Reference",
        so a reference card never carries a deck's name on its back.
        """
        path = self.folder / f"back-{REFERENCE_BACK_KIND}.yaml"
        kind = REFERENCE_BACK_KIND if path.is_file() else next(iter(self.game.info.backs))
        return self.back(kind, REFERENCE_BACK_TITLE)

    def front(self, card: Card) -> Face | None:
        """The card's front, with its QR code; problems are reported at the card's own FILE:LINE."""
        file, line = self.game.sources[("card", card.id)]
        kind = card.back_kind()
        if kind not in self.game.info.backs:
            self._problem(file, line, card.id, "type", f"its back kind '{kind}' is not listed under backs in game.yaml")
            return None
        layout = self.layout(card.type, False)
        if layout is None:
            path = self.folder / f"{card.type}.yaml"
            if not path.is_file():
                self._problem(file, line, card.id, "type", f"no layout template {path}")
            return None
        if not self._reads_only_given_names(
                layout, (card.type, type(card)), [*type(card).model_fields, "card", "game", "game_id", LAYOUT_WORDS],
                type(card),
                f"is neither a field of card type '{card.type}' nor a variable of a card template (card, game, game_id)"):
            return None
        # The version (and so the QR code) is the original card's: a translation is the same card.
        version = self.game.printings.card_version(card)
        translation = build_translation(self.game, self.options)
        printed = translated_card(card, translation)
        qr_url, qr_label = card_qr_url(self.options.base_url, self.game, card), version.label if version else None
        try:
            face = prepare_face(layout, card_context(self.game, printed, translation), self.game.folder, qr_url,
                                qr_label=qr_label)
        except LayoutError as exc:
            fld = exc.field
            if fld == "art":  # at the line naming the art, when the card names it
                file, line = self.game.sources.get(("art", card.id), (file, line))
            if translation is not None:
                blamed = self._translated_cause(layout, card, translation, exc, qr_url, qr_label)
                if blamed is not None:
                    file, line, fld = blamed
            self._problem(file, line, card.id, fld, f"{exc.message} (template {exc.file}:{exc.line})")
            return None
        if version is not None and not version.released:
            # Printed anyway (a designer tries a change out), as the version the next release
            # records; said, because copies handed out before that release may differ from it.
            face.warnings.append(FaceWarning(
                "version", f"not released: printed as {version.label}, which 'printkit release' has not "
                           f"recorded yet (until then its QR code opens the card as it is now)"))
        self.warnings.add(face, file, line, self.game.game_id, card.id)
        return face
