"""The names a layout's templates read, checked against what its cards give them.

Undefined names are errors when a template prints them or tests their truth
(``StrictUndefined``), but not everywhere: ``{% if wieght is not none %}``, the idiom of the
layouts ``printkit init`` writes, is true for a misspelt field, and the region prints on every
card. And an error met while rendering is met once per card, so one misspelt name in a
template of 40 cards is 40 problems. So the names each template reads are found from its
syntax tree once (:func:`names_read`), and a layout is checked once per card type before its
first card is laid out (:func:`unknown_name`): a name that is no field of the card type and
no template variable is one problem, at the region's line, with the field it was likely meant
to be.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection
from dataclasses import dataclass

import jinja2
from jinja2 import meta, nodes

from printkit.sheets.templating.layout import Layout, _region_templates, card_template_environment

_ENVIRONMENT = card_template_environment()
_READ: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
_READ_KEPT = 4096


def names_read(source: str) -> tuple[frozenset[str], frozenset[str]]:
    """``(names, card attributes)`` the template text ``source`` reads from its variables:
    every name it does not set itself, and each ``x`` of a ``card.x`` in it. Kept per text.
    Raises ``jinja2.TemplateSyntaxError`` (which :func:`~printkit.sheets.templating.layout.load_layout`
    reports first)."""
    known = _READ.get(source)
    if known is None:
        tree = _ENVIRONMENT.parse(source)
        attributes = frozenset(node.attr for node in tree.find_all(nodes.Getattr)
                               if isinstance(node.node, nodes.Name) and node.node.name == "card")
        known = (frozenset(meta.find_undeclared_variables(tree)), attributes)
        if len(_READ) >= _READ_KEPT:
            _READ.clear()
        _READ[source] = known
    return known


@dataclass(frozen=True)
class UnknownName:
    """A name a layout's region reads that its cards do not give: ``region`` and ``attr``
    (``text``, ``src`` or ``when``) where, ``name`` (``card.x`` for an attribute of ``card``)
    and ``likely``, the given name closest to it (``""`` if none is close)."""

    region: str
    attr: str
    name: str
    likely: str

    def message(self, is_not: str) -> str:
        """``'wieght' <is_not> (did you mean 'weight'?)``; ``is_not`` says what a template of
        this kind is given, e.g. ``"is not a variable of a back template (game, ...)"``."""
        hint = f" (did you mean '{self.likely}'?)" if self.likely else ""
        return f"'{self.name}' {is_not}{hint}"


def unknown_name(layout: Layout, variables: Collection[str], card_fields: Collection[str] = ()) -> UnknownName | None:
    """The first name a template of ``layout`` reads that is neither in ``variables`` (the
    names its context gives) nor a global of the templates' environment, or the first
    ``card.x`` whose ``x`` is not in ``card_fields`` (checked only when ``card_fields`` is
    given); ``None`` when every name is given."""
    given = set(variables) | set(_ENVIRONMENT.globals)
    for region in layout.spec.regions:
        for attr, source in _region_templates(region):
            try:
                names, attributes = names_read(source)
            except jinja2.TemplateSyntaxError:
                continue  # load_layout has reported it
            for name in sorted(names - given):
                return UnknownName(region.name, attr, name, _closest(name, given))
            if card_fields:
                for name in sorted(attributes - set(card_fields)):
                    return UnknownName(region.name, attr, f"card.{name}", _closest(name, card_fields))
    return None


def _closest(name: str, given: Collection[str]) -> str:
    found = difflib.get_close_matches(name, [g for g in given if not g.startswith("_")], n=1, cutoff=0.7)
    return found[0] if found else ""
