"""Layout templates: a card's look as named regions in millimetres (a game folder's ``templates/*.yaml``).

A template is loaded once into a :class:`Layout`; :func:`prepare_face` evaluates it for one
card (Jinja2 text, conditions, text fitted by wrapping and shrinking) and returns a
:class:`Face` ready to draw, or raises :class:`LayoutError` naming what does not fit.
See ``templates/README.md`` for the format.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import jinja2
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from card_data.project.limits import FileTooLarge, read_limited
from card_data.problems import Problem, ProblemsError
from card_data.reading.yaml_source import LineMap, YamlSyntaxError, load_yaml
from printkit.sheets.artwork.art import (
    MIN_DPI,
    WARN_DPI,
    ArtError,
    Artwork,
    Fit,
    artwork_header,
    check_art_pixels,
    placement,
    resolve_inside,
)
from printkit.sheets.artwork.art_prints import read_print_art
from printkit.sheets.text.fonts import DEFAULT_FONTS, FACES, FontError, font_set
from printkit.sheets.text.icons import ICONS_FOLDER, IconError
from printkit.sheets.templating.layout_base import LAYOUTS_DIR, WarningLog  # noqa: F401 - named here too
from printkit.sheets.qr import long_payload_warning
from printkit.sheets.templating.template_sandbox import (
    CardSandbox,
    TemplateVariables,
    guard_filter,
    render_bounded,
    template_error_message,
)
from printkit.sheets.text.text_fit import FittedText, fit_text  # noqa: F401 - FittedText: a face's item, named here

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]


class _Region(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    x_mm: float
    y_mm: float
    when: str | None = None


class BoxRegion(_Region):
    """A filled and/or stroked rectangle; may extend into the bleed."""

    kind: Literal["box"]
    w_mm: Annotated[float, Field(gt=0)]
    h_mm: Annotated[float, Field(gt=0)]
    fill: Colour | None = None
    stroke: Colour | None = None
    stroke_pt: Annotated[float, Field(ge=0)] = 0.5
    radius_mm: Annotated[float, Field(ge=0)] = 0


class LineRegion(_Region):
    """A straight line from (x_mm, y_mm) to (x_mm + w_mm, y_mm + h_mm)."""

    kind: Literal["line"]
    w_mm: float = 0
    h_mm: float = 0
    stroke: Colour = "#000000"
    stroke_pt: Annotated[float, Field(gt=0)] = 0.5


class TextRegion(_Region):
    """Text from a Jinja2 template, wrapped to ``w_mm`` and shrunk until it fits ``h_mm``."""

    kind: Literal["text"]
    w_mm: Annotated[float, Field(gt=0)]
    h_mm: Annotated[float, Field(gt=0)]
    text: str
    font: Literal["regular", "bold", "italic"] = "regular"
    size_pt: Annotated[float, Field(gt=0, le=200)] = 9
    min_size_pt: Annotated[float, Field(gt=0, le=200)] = 6
    leading: Annotated[float, Field(ge=0.8, le=3)] = 1.2
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    color: Colour = "#000000"


class ImageRegion(_Region):
    """Artwork; an empty ``src`` or a missing file gives a clean placeholder.

    ``fit``: ``contain`` (whole picture, may leave bands), ``cover`` (fills the box, cropped)
    or ``stretch`` (fills the box, aspect changed). ``focus``: ``[x, y]`` fractions of the
    picture kept at the same fractions of the box, e.g. ``[0.5, 0.3]`` for a face in the upper
    third that ``cover`` must not crop away.
    """

    kind: Literal["image"]
    w_mm: Annotated[float, Field(gt=0)]
    h_mm: Annotated[float, Field(gt=0)]
    src: str = ""
    fit: Fit = "contain"
    focus: tuple[Annotated[float, Field(ge=0, le=1)], Annotated[float, Field(ge=0, le=1)]] = (0.5, 0.5)


class QrRegion(_Region):
    """The card's QR code (its short address ``<BASE>/Q/<CODE>``, see :mod:`card_data.editions.short_codes`),
    ``size_mm`` square incl. quiet zone (15 mm gives a version-2 code 0.45 mm modules); a
    versioned card's ``v<N>`` prints in small type in the zone's bottom band."""

    kind: Literal["qr"]
    size_mm: Annotated[float, Field(ge=8, le=60)]


Region = Annotated[Union[BoxRegion, LineRegion, TextRegion, ImageRegion, QrRegion], Field(discriminator="kind")]


MAX_REGIONS = 500
"""Regions one template file may hold: a busy card has thirty."""


class LayoutSpec(BaseModel):
    """A template file's contents: at most :data:`MAX_REGIONS` regions."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    safe_margin_mm: Annotated[float, Field(ge=0, le=20)] = 3
    background: Colour | None = None
    fonts: dict[Literal["regular", "bold", "italic"], str] = {}
    regions: list[Region] = Field(max_length=MAX_REGIONS)

    @field_validator("regions")
    @classmethod
    def _unique_names(cls, regions: list) -> list:
        counts = Counter(r.name for r in regions)
        dupes = sorted(name for name, n in counts.items() if n > 1)
        if dupes:
            raise ValueError(f"region names must be unique: {', '.join(dupes)}")
        return regions


class LayoutError(ProblemsError):
    """A template or a card that cannot be laid out: one :class:`~card_data.problems.Problem`.

    Attributes: ``file`` and ``line`` (1-based) where to look, ``field`` (``layout:<region>`` or
    the template key), ``message``; ``str()`` is ``FILE:LINE: field: message``.
    """

    def __init__(self, file: str, line: int, field: str, message: str):
        self.file, self.line, self.field, self.message = file, line, field, message
        super().__init__([Problem(file, line, field=field, message=message)])

    @classmethod
    def from_problem(cls, problem: Problem) -> LayoutError:
        return cls(problem.file, problem.line, problem.field, problem.message)


def _signed(value: Any) -> str:
    if isinstance(value, (int, float)):
        return f"+{value}" if value > 0 else (f"\u2212{-value}" if value < 0 else "0")
    return str(value)


LAYOUT_WORDS = "layout_words"
"""The context variable holding a build's translation of the templates' own words (a mapping
English -> translation; see :func:`layout_words`)."""


@jinja2.pass_context
def layout_words(context: jinja2.runtime.Context, words: str) -> str:
    """``_("EXAMPLE CARD")`` in a template: ``words`` in the build's language when the game's
    translation gives them (its ``words:``, in the context as :data:`LAYOUT_WORDS`), else as
    written. Words that are not a string are returned as they are."""
    table = context.get(LAYOUT_WORDS) or {}
    return table.get(words, words) if isinstance(words, str) else words


def card_template_environment() -> CardSandbox:
    """The Jinja2 environment every template of printkit renders in: sandboxed and bounded
    (:class:`~printkit.sheets.templating.template_sandbox.CardSandbox`), undefined names are errors, no
    autoescaping (the output is card text, not HTML), filter ``signed``,
    function ``_`` (:func:`layout_words`)."""
    env = CardSandbox(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)
    env.filters["signed"] = guard_filter(_signed, converts_to_text=True)
    env.globals["_"] = layout_words
    return env


_JINJA = card_template_environment()


@dataclass
class Layout:
    """A loaded template: its spec, compiled Jinja2 templates, and where each region is written."""

    path: Path
    spec: LayoutSpec
    region_lines: dict[str, int]
    compiled: dict[tuple[str, str], jinja2.Template] = field(default_factory=dict)
    font_files: dict[str, Path] = field(default_factory=dict)

    def region_line(self, name: str) -> int:
        return self.region_lines.get(name, 1)


def read_template(path: Path, model: type[BaseModel], raw: bytes | None = None) -> tuple[Any, LineMap]:
    """Read a YAML template file into ``model``; returns ``(spec, line_map)``. ``raw``: the
    file's bytes, already read (then ``path`` is not read again).

    Raises :class:`LayoutError` naming the file, line and field of the first problem.
    """
    spath = str(path)
    try:
        data, lines = load_yaml(path, raw=raw)
    except YamlSyntaxError as exc:
        raise LayoutError(spath, exc.line, "yaml", exc.message) from None
    except OSError as exc:
        raise LayoutError(spath, 1, "file", f"cannot read template: {exc.strerror}") from None
    try:
        spec = model.model_validate(data if data is not None else {})
    except ValidationError as exc:
        first = Problem.from_validation_error(exc, data=data, file=spath, lines=lines)[0]
        raise LayoutError.from_problem(first) from None
    return spec, lines


LAYOUT_SPECS_KEPT = 64
"""Template files kept read (spec and line map, a few KB each) in a process, by path and content:
a build loads the same few templates for every deck part file."""

_SPECS: OrderedDict[tuple[str, str], tuple[LayoutSpec, LineMap]] = OrderedDict()
_SPECS_LOCK = threading.Lock()


def _layout_spec(path: Path) -> tuple[LayoutSpec, LineMap]:
    """:func:`read_template` of ``path`` as a :class:`LayoutSpec`, read once per content in a
    process (keyed by path and SHA-256 of the bytes; the specs are frozen, shared as they are)."""
    try:
        raw = read_limited(path)
    except (OSError, FileTooLarge):
        return read_template(path, LayoutSpec)  # which reports it as a LayoutError
    key = (str(path), hashlib.sha256(raw).hexdigest())
    with _SPECS_LOCK:  # a designer's preview server lays out cards from several threads
        known = _SPECS.get(key)
        if known is not None:
            _SPECS.move_to_end(key)
            return known
    known = read_template(path, LayoutSpec, raw)
    with _SPECS_LOCK:
        _SPECS[key] = known
        if len(_SPECS) > LAYOUT_SPECS_KEPT:
            _SPECS.popitem(last=False)
    return known


def load_layout(path: Path, trim_w_mm: float, trim_h_mm: float, bleed_mm: float, is_back: bool = False) -> Layout:
    """Read and check a template file for a card of ``trim_w_mm`` x ``trim_h_mm``.

    Checks: the YAML and schema, Jinja2 syntax, text and QR regions inside the safe area,
    boxes inside trim + bleed, no QR on a back. Raises :class:`LayoutError` on the first problem.
    A file is read and parsed once per content in a process (:data:`LAYOUT_SPECS_KEPT`); the
    checks run on every call.
    """
    spath = str(path)
    spec, lines = _layout_spec(path)
    region_lines = {r.name: lines.line_for(("regions", i)) for i, r in enumerate(spec.regions)}
    layout = Layout(path, spec, region_lines)
    for face, src in spec.fonts.items():
        try:
            layout.font_files[face] = resolve_inside(path.parent, src, "font")
            font_set({face: layout.font_files[face]})
        except (ArtError, FontError) as exc:
            raise LayoutError(spath, lines.line_for(("fonts", face)), f"fonts.{face}", str(exc)) from None
    safe = spec.safe_margin_mm
    eps = 1e-6
    for r in spec.regions:
        line = layout.region_line(r.name)
        where = f"layout:{r.name}"
        if isinstance(r, (TextRegion, QrRegion)):
            w = r.size_mm if isinstance(r, QrRegion) else r.w_mm
            h = r.size_mm if isinstance(r, QrRegion) else r.h_mm
            if (r.x_mm < safe - eps or r.y_mm < safe - eps or r.x_mm + w > trim_w_mm - safe + eps
                    or r.y_mm + h > trim_h_mm - safe + eps):
                raise LayoutError(spath, line, where,
                                  f"{r.kind} region ({r.x_mm}, {r.y_mm}, {w} x {h} mm) leaves the safe area "
                                  f"({safe} mm inside the {trim_w_mm} x {trim_h_mm} mm trim)")
        if isinstance(r, QrRegion) and is_back:
            raise LayoutError(spath, line, where, "a card back has no QR code")
        if isinstance(r, (BoxRegion, ImageRegion)):
            if (r.x_mm < -bleed_mm - eps or r.y_mm < -bleed_mm - eps or r.x_mm + r.w_mm > trim_w_mm + bleed_mm + eps
                    or r.y_mm + r.h_mm > trim_h_mm + bleed_mm + eps):
                raise LayoutError(spath, line, where, f"{r.kind} region reaches past the {bleed_mm} mm bleed")
        for attr, template_text in _region_templates(r):
            try:
                layout.compiled[(r.name, attr)] = _JINJA.from_string(template_text)
            except jinja2.TemplateSyntaxError as exc:
                raise LayoutError(spath, line, f"{where}.{attr}", f"Jinja2 syntax error: {exc.message}") from None
    return layout


def _region_templates(region: Any) -> list[tuple[str, str]]:
    """``(attribute, Jinja2 template text)`` of each of ``region``'s ``text``, ``src`` and
    ``when`` it has (``when``, an expression, as a template that prints its value)."""
    found = []
    for attr in ("text", "src", "when"):
        source = getattr(region, attr, None)
        if source is not None:
            found.append((attr, "{{ (" + source + ") }}" if attr == "when" else source))
    return found


PRECOMPILED_FILES = 64
"""Template files :func:`precompile_layouts` reads at most in a folder (as many as a process
keeps read, :data:`LAYOUT_SPECS_KEPT`)."""


def precompile_layouts(folder: Path) -> None:
    """Read the template files of ``folder`` (a game's templates folder) and compile their
    Jinja2, so that :func:`load_layout` finds both done: what a build does before it forks its
    workers, which then inherit them instead of each compiling them again. A file that cannot
    be read or compiled is passed over here; :func:`load_layout` reports it when the build
    loads it."""
    for path in sorted(folder.glob("*.yaml"))[:PRECOMPILED_FILES]:
        try:
            spec, _ = _layout_spec(path)
        except LayoutError:
            continue
        for region in spec.regions:
            for _, template_text in _region_templates(region):
                try:
                    _JINJA.from_string(template_text)
                except Exception:  # noqa: BLE001,S112 - any problem is load_layout's to report, with its line
                    continue


# ---- evaluated faces -------------------------------------------------------------------------

@dataclass(frozen=True)
class QrCode:
    """A QR region with its payload and, for a card of a versioned game, ``label``: the
    version it prints as (``"v2"``), drawn in small type in the region's bottom-right corner
    (see :meth:`printkit.sheets.render.PageDrawer._qr`)."""

    region: QrRegion
    payload: str
    label: str | None = None
    label_font: str = DEFAULT_FONTS.name("regular")
    """reportlab name of the face's regular font (the game's own, if it names one)."""


@dataclass(frozen=True)
class Image:
    """An image region with its artwork (``path`` and ``art``), or ``None`` for a placeholder.

    ``placed_mm``: ``(dx, dy, w, h)`` of the artwork from the region's top-left corner (see
    :func:`printkit.sheets.artwork.art.placement`); with ``cover`` it reaches past the region and is
    clipped to it.
    """

    region: ImageRegion
    path: Path | None
    art: Artwork | None = None
    placed_mm: tuple[float, float, float, float] | None = None


@dataclass(frozen=True)
class FaceWarning:
    """Something printable but poor on a face (low-resolution art, a QR code hard to scan).

    ``once``: say it once per build (it concerns every card alike), not once per card.
    """

    field: str
    message: str
    once: bool = False


@dataclass
class Face:
    """One card side ready to draw: background colour and drawable items in order."""

    layout: Layout
    items: list[Any]
    warnings: list[FaceWarning] = field(default_factory=list)


def game_font_files(context: dict[str, Any], game_root: Path | None) -> dict[str, Path]:
    """The font files the game's ``game.yaml`` names (``fonts:``), inside ``game_root``; a file
    that is missing, outside the folder or not a font is left out (the build reports it as a
    problem of game.yaml, see :func:`printkit.sheets.artwork.game_assets.game_asset_problems`)."""
    fonts = getattr(context.get("game"), "fonts", None) or {}
    if not fonts or game_root is None:
        return {}
    files = {}
    for face in FACES:
        if face in fonts:
            try:
                path = resolve_inside(game_root, fonts[face], "font")
                font_set({face: path})
            except (ArtError, FontError):
                continue
            files[face] = path
    return files


def prepare_face(layout: Layout, context: dict[str, Any], art_root: Path | None, qr_payload: str | None,
                 qr_label: str | None = None) -> Face:
    """Evaluate ``layout`` for one card side.

    ``context``: the Jinja2 variables (the card's fields, ``card``, ``game``...).
    ``art_root``: the game's folder: image ``src`` paths are relative to it and must stay
    inside it, its ``icons/`` holds the ``:name:`` icons of text, and the fonts ``game.yaml``
    names (``context["game"].fonts``) are in it.
    ``qr_payload``: the URL to encode in ``qr`` regions; ``qr_label``: small type printed with
    each of them (the card's version, ``"v2"``), or ``None``.
    Returns a :class:`Face`, with :class:`FaceWarning` for art under 300 dpi and QR codes too
    dense to scan comfortably. Raises :class:`LayoutError` (template file and region line)
    when a Jinja2 expression fails (any exception, sandbox refusals included), text does not
    fit its region even at ``min_size_pt``, a ``:name:`` has no icon, or artwork is outside
    ``art_root``, unreadable, corrupt, under 150 dpi or with far more pixels than its box can
    print (:func:`~printkit.sheets.artwork.art.check_art_pixels`; field ``art``).
    """
    items: list[Any] = []
    warnings: list[FaceWarning] = []
    path = str(layout.path)
    icons_dir = art_root / ICONS_FOLDER if art_root is not None else None
    fonts = None
    variables = TemplateVariables(_JINJA, context)  # merged once for the face's templates
    for r in layout.spec.regions:
        line = layout.region_line(r.name)
        where = f"layout:{r.name}"
        try:
            if r.when is not None:
                shown = render_bounded(layout.compiled[(r.name, "when")], variables).strip()
                if shown in ("", "False", "None", "0", "[]"):
                    continue
            if isinstance(r, TextRegion):
                text = render_bounded(layout.compiled[(r.name, "text")], variables)
                if not text.strip():
                    continue
                if fonts is None:
                    fonts = font_set({**game_font_files(context, art_root), **layout.font_files})
                try:
                    fitted = fit_text(r, text, icons_dir, fonts)
                except IconError as exc:
                    raise LayoutError(path, line, where, str(exc)) from None
                if fitted is None:
                    raise LayoutError(path, line, where,
                                      f"text does not fit the {r.w_mm} x {r.h_mm} mm region even at "
                                      f"{r.min_size_pt} pt: {text.strip()[:60]!r}")
                items.append(fitted)
            elif isinstance(r, ImageRegion):
                src = render_bounded(layout.compiled[(r.name, "src")], variables).strip()
                items.append(_artwork(r, src, art_root, path, line, warnings))
            elif isinstance(r, QrRegion):
                if qr_payload:
                    label_font = DEFAULT_FONTS.name("regular")
                    if qr_label:
                        if fonts is None:
                            fonts = font_set({**game_font_files(context, art_root), **layout.font_files})
                        label_font = fonts.name("regular")
                    items.append(QrCode(r, qr_payload, qr_label, label_font))
                    advice = long_payload_warning(qr_payload, r.size_mm)
                    if advice:
                        warnings.append(FaceWarning(where, advice, once=True))
            else:
                items.append(r)
        except LayoutError:
            raise
        except Exception as exc:  # noqa: BLE001 - a template expression may raise anything: a problem, never a traceback
            raise LayoutError(path, line, where, template_error_message(exc)) from None
    return Face(layout, items, warnings)


def _artwork(r: ImageRegion, src: str, art_root: Path | None, path: str, line: int,
             warnings: list[FaceWarning]) -> Image:
    """The :class:`Image` for region ``r`` showing ``src``; see :func:`prepare_face`."""
    if not src or art_root is None:
        return Image(r, None)
    try:
        art_path = resolve_inside(art_root, src)
        if not art_path.is_file():
            return Image(r, None)  # the loader reports a card's missing art; a placeholder shows where
        art = artwork_header(art_path, art_root)
        placed = placement(r.w_mm, r.h_mm, art.width, art.height, r.fit, r.focus)
        check_art_pixels(art, placed[2], placed[3], src)  # before its pixels are decoded
        art = read_print_art(art, art_root, r.w_mm, r.h_mm, placed)  # decoded once, resampled if printed
    except ArtError as exc:
        raise LayoutError(path, line, "art", str(exc)) from None
    dpi = art.dpi(placed[2], placed[3])
    if dpi is not None:
        size = f"{int(art.width)} x {int(art.height)} px {r.fit} in {r.w_mm:g} x {r.h_mm:g} mm"
        if dpi < MIN_DPI - 0.5:
            raise LayoutError(path, line, "art", f"{src} prints at {dpi:.0f} dpi ({size}); at least {MIN_DPI} "
                                                 f"dpi is needed, {WARN_DPI} for a sharp print")
        if dpi < WARN_DPI - 0.5:
            warnings.append(FaceWarning("art", f"{src} prints at {dpi:.0f} dpi ({size}), soft in print; "
                                               f"{WARN_DPI} dpi is sharp"))
    return Image(r, art_path, art, placed)
