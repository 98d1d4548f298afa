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
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import jinja2
from jinja2 import meta, nodes

from printkit.sheets.templating.layout import Layout, _region_templates, card_template_environment

_ENVIRONMENT = card_template_environment()
_READ: dict[str, tuple[frozenset[str], frozenset[tuple[str, str]]]] = {}
_READ_KEPT = 4096


def names_read(source: str) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """``(names, attributes)`` the template text ``source`` reads from its variables: every
    name it does not set itself, and each ``(name, x)`` of a ``name.x`` in it. Kept per text.
    Raises ``jinja2.TemplateSyntaxError`` (which :func:`~printkit.sheets.templating.layout.load_layout`
    reports first)."""
    known = _READ.get(source)
    if known is None:
        tree = _ENVIRONMENT.parse(source)
        names = frozenset(meta.find_undeclared_variables(tree))
        attributes = frozenset((node.node.name, node.attr) for node in tree.find_all(nodes.Getattr)
                               if isinstance(node.node, nodes.Name) and node.node.name in names)
        known = (names, attributes)
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


def unknown_name(layout: Layout, variables: Collection[str],
                 attributes: Mapping[str, Collection[str]] | None = None) -> UnknownName | None:
    """The first name a template of ``layout`` reads that is neither in ``variables`` (the
    names its context gives) nor a global of the templates' environment, or the first ``v.x``
    of a variable ``v`` of ``attributes`` whose ``x`` is not in ``attributes[v]`` (``card``:
    its fields); ``None`` when every name is given."""
    given = set(variables) | set(_ENVIRONMENT.globals)
    attributes = attributes or {}
    for region in layout.spec.regions:
        for attr, source in _region_templates(region):
            try:
                names, read = names_read(source)
            except jinja2.TemplateSyntaxError:
                continue  # load_layout has reported it
            for name in sorted(names - given):
                return UnknownName(region.name, attr, name, _closest(name, given))
            for variable, name in sorted(read):
                allowed = attributes.get(variable)
                if allowed is not None and name not in allowed:
                    return UnknownName(region.name, attr, f"{variable}.{name}", _closest(name, allowed))
    return None


def _closest(name: str, given: Collection[str]) -> str:
    found = difflib.get_close_matches(name, [g for g in given if not g.startswith("_")], n=1, cutoff=0.7)
    return found[0] if found else ""
