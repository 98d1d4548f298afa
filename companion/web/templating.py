"""The app's Jinja environment: Flask's, with each template's globals in a mapping whose keys
are a set.

Jinja keeps a template's globals as a :class:`collections.ChainMap` (its own over the
environment's) and, at every ``{% from "..." import ... %}``, takes the globals the importing
template has beyond the imported one's (``set - globals.keys()``). Against a ChainMap's keys
view that subtraction runs a Python membership test per global (the app has about forty), at
each of the half-dozen imports a table's live fragment makes every time it is drawn; against a
set it is one C-level difference. Nothing else changes: the mapping is still the same chain.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import MutableMapping
from typing import Any

from flask import Flask
from flask.templating import Environment


class TemplateGlobals(ChainMap):
    """A template's globals (its own over the environment's) whose :meth:`keys` is a set of
    the names they hold now (Jinja reads it at an import, while it renders)."""

    def keys(self) -> set[str]:  # type: ignore[override]
        return set(self)


class TemplateEnvironment(Environment):
    """Flask's template environment, giving each template :class:`TemplateGlobals`."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """The globals of a template: ``d`` (its own, if any) over the environment's."""
        return TemplateGlobals({} if d is None else d, self.globals)


def init_app(app: Flask) -> None:
    """Make ``app`` build its template environment as :class:`TemplateEnvironment`; call before
    anything reads ``app.jinja_env`` (it is made on first use)."""
    if "jinja_env" in app.__dict__:
        raise RuntimeError("the app's template environment was made already")
    app.jinja_environment = TemplateEnvironment
