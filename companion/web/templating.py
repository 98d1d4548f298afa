"""The app's Jinja environment: Flask's, with each template's globals in a mapping whose keys
are a set, and each rendering's context let go of as soon as it is drawn.

Jinja keeps a template's globals as a :class:`collections.ChainMap` (its own over the
environment's) and, at every ``{% from "..." import ... %}``, takes the globals the importing
template has beyond the imported one's (``set - globals.keys()``). Against a ChainMap's keys
view that subtraction runs a Python membership test per global (the app has about forty), at
each of the half-dozen imports a table's live fragment makes every time it is drawn; against a
set it is one C-level difference. Nothing else changes: the mapping is still the same chain.

A template that defines a macro holds it in its rendering's context, and the macro holds that
context: a reference cycle, which keeps everything the template was given (a table's whole
view, its forms, its history) alive after the page is sent, until Python's cyclic collector
finds it. Under load that garbage filled the collector's older generations, and walking them
held every thread for 50-100 ms at a time, the slowest answers of all. :class:`ReleasingTemplate`
empties the contexts once the template is drawn, so the page's objects go when it is sent.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping, MutableMapping
from contextvars import ContextVar
from typing import Any

from flask import Flask
from flask.templating import Environment
from jinja2 import Template
from jinja2.environment import TemplateModule
from jinja2.runtime import Context


class TemplateGlobals(ChainMap):
    """A template's globals (its own over the environment's) whose :meth:`keys` is a set of
    the names they hold now (Jinja reads it at an import, while it renders)."""

    def keys(self) -> set[str]:  # type: ignore[override]
        return set(self)


class ReleasingTemplate(Template):
    """A template whose :meth:`render` empties the contexts it drew with once done, its own and
    those of the templates it included (see the module: no reference cycle outlives the
    rendering); an imported template's module keeps its own, living as long as the module."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        """The template drawn with ``dict(*args, **kwargs)``; raises what drawing raises."""
        made: list[Context] = []
        drawing = _DRAWING.set(made)
        try:
            context = self.new_context(dict(*args, **kwargs))
            return self.environment.concat(self.root_render_func(context))  # type: ignore[attr-defined]
        except Exception:
            self.environment.handle_exception()
        finally:
            _DRAWING.reset(drawing)
            for context in made:
                context.vars.clear()

    def new_context(self, vars: dict[str, Any] | None = None, shared: bool = False,
                    locals: Mapping[str, Any] | None = None) -> Context:
        """Jinja's context for drawing this template, noted to be emptied when the rendering
        that made it ends (a top-level :meth:`render` or an ``{% include %}`` in one)."""
        context = super().new_context(vars, shared, locals)
        made = _DRAWING.get()
        if made is not None:
            made.append(context)
        return context

    def make_module(self, vars: dict[str, Any] | None = None, shared: bool = False,
                    locals: Mapping[str, Any] | None = None) -> TemplateModule:
        """The template as a module (``{% import %}``), whose context lives as long as it."""
        drawing = _DRAWING.set(None)
        try:
            return super().make_module(vars, shared, locals)
        finally:
            _DRAWING.reset(drawing)


_DRAWING: ContextVar[list[Context] | None] = ContextVar("drawing", default=None)
"""The contexts made by the rendering under way in this thread (``None``: none to note)."""


class TemplateEnvironment(Environment):
    """Flask's template environment, giving each template :class:`TemplateGlobals`, drawn as a
    :class:`ReleasingTemplate`."""

    template_class = ReleasingTemplate

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """The globals of a template: ``d`` (its own, if any) over the environment's."""
        return TemplateGlobals({} if d is None else d, self.globals)


def init_app(app: Flask) -> None:
    """Make ``app`` build its template environment as :class:`TemplateEnvironment`; call before
    anything reads ``app.jinja_env`` (it is made on first use)."""
    if "jinja_env" in app.__dict__:
        raise RuntimeError("the app's template environment was made already")
    app.jinja_environment = TemplateEnvironment
