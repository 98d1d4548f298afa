"""The Jinja2 environment every printkit template renders in: sandboxed, and bounded.

Layout, board, token and reference templates may come from someone else, so a template must
neither reach Python (Jinja2's :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment`: no
``__globals__``, no changing lists or dicts) nor keep a build busy or fill its memory: one
render stays within the bounds of :mod:`printkit.sheets.templating.template_limits` (output, value and
number sizes, work, time), checked at every operator, call, attribute, filter, test, loop
step, ``~`` and output. Filters and ``str`` methods whose result can be far larger than their
input (``center``, ``indent``, ``wordwrap``, ``format``, ``join``, ``replace``, ``sum``,
``batch``, ``slice``; ``ljust``, ``rjust``, ``zfill``, ``expandtabs``, ``translate``,
``str.format``...) refuse a too large result before computing it. A breach raises
:class:`~printkit.sheets.templating.template_limits.TemplateLimitError` (a
:class:`~jinja2.sandbox.SecurityError`), which the callers report as a problem at the
template's FILE:LINE (:func:`template_error_message`). Filters that only make sense in HTML
(``urlize``, ``xmlattr``) are not available.
"""

from __future__ import annotations

import codecs
import functools
import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import jinja2
from jinja2 import filters as jf
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.runtime import LoopContext, new_context
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from jinja2.utils import generate_lorem_ipsum
from markupsafe import Markup

from printkit.sheets.templating.template_limits import (
    BINOPS,
    MAX_INT_BITS,
    MAX_TEMPLATE_WORK,
    BoundedEscapeFormatter,
    BoundedFormatter,
    RenderTimeout,
    TemplateLimitError,
    binop,
    charge,
    guarded_iter,
    need,
    printable,
    printf,
    render_limits,
    text_size,
    tick,
    too_long,
)

# ---- filters, tests and methods -------------------------------------------------------------

def guard_filter(func: Callable, converts_to_text: bool = False) -> Callable:
    """``func`` (a filter or test) checking the time, and the size of what it gives; with
    ``converts_to_text``, also refusing a value that would print too long before it is
    converted. Jinja2's ``pass_context``-style markers are kept."""
    skip = 1 if hasattr(func, "jinja_pass_arg") else 0

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        tick()
        if converts_to_text and len(args) > skip:
            printable(args[skip])
        return charge(func(*args, **kwargs))

    return run


def _center(value: Any, width: int = 80) -> str:
    text = str(printable(value))
    if isinstance(width, int):
        need(width)
    return jf.do_center(text, width)


def _indent(s: Any, width: int | str = 4, first: bool = False, blank: bool = False) -> str:
    printable(s)
    step = len(width) if isinstance(width, str) else width
    if isinstance(step, int):
        need(step)
        need(len(str(s)) + (str(s).count("\n") + 2) * step)
    return jf.do_indent(s, width, first, blank)


@jinja2.pass_environment
def _wordwrap(environment: jinja2.Environment, s: Any, width: int = 79, break_long_words: bool = True,
              wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    text = str(printable(s))
    joint = wrapstring if wrapstring is not None else environment.newline_sequence
    # Every line holds at least one character: at most len(text) + 1 joints.
    need(len(text) + (len(text) + 1) * len(str(joint)), MAX_TEMPLATE_WORK)
    return jf.do_wordwrap(environment, text, width, break_long_words, wrapstring, break_on_hyphens)


def _format(value: Any, *args: Any, **kwargs: Any) -> str:
    if args and kwargs:
        raise jinja2.FilterArgumentError("can't handle positional and keyword arguments at the same time")
    return printf(str(printable(value)), kwargs or args)


def _length(value: Any) -> int:
    return len(value) if isinstance(value, (str, bytes)) else text_size(value)


def join_size(separator: Any, items: list) -> int:
    """The length of ``separator.join(items)`` (items not yet text: as they print), refused
    past :func:`~printkit.sheets.templating.template_limits.characters_limit` as soon as the count passes it."""
    need(len(items), unit="items")
    size = _length(separator) * max(len(items) - 1, 0)
    for item in items:
        size += _length(item)
        need(size)
    return size


@jinja2.pass_eval_context
def _join(eval_ctx: Any, value: Iterable[Any], d: str = "", attribute: str | int | None = None) -> str:
    items = list(value)
    need(len(items), unit="items")
    if attribute is not None:
        items = list(map(jf.make_attrgetter(eval_ctx.environment, attribute), items))
    join_size(d, items)
    return jf.sync_do_join(eval_ctx, items, d)


def replaced_size(s: Any, old: Any, new: Any, count: Any) -> int:
    """The length of ``s.replace(old, new, count)`` (0 if they are not all strings)."""
    if not isinstance(s, (str, bytes)) or not isinstance(old, type(s)) or not isinstance(new, type(s)):
        return 0
    hits = s.count(old) if old else len(s) + 1
    if isinstance(count, int) and count >= 0:
        hits = min(hits, count)
    return len(s) + hits * (len(new) - len(old))


@jinja2.pass_eval_context
def _replace(eval_ctx: Any, s: Any, old: Any, new: Any, count: int | None = None) -> str:
    text = str(printable(s))
    need(replaced_size(text, str(printable(old)), str(printable(new)), count))
    return jf.do_replace(eval_ctx, s, old, new, count)


@jinja2.pass_environment
def _sum(environment: jinja2.Environment, iterable: Iterable[Any], attribute: str | int | None = None,
         start: Any = 0) -> Any:
    items = list(iterable)
    need(len(items), unit="items")
    if attribute is not None:
        items = list(map(jf.make_attrgetter(environment, attribute), items))
    if all(isinstance(x, (int, float)) for x in (start, *items)):
        if any(isinstance(x, int) and x.bit_length() > MAX_INT_BITS for x in (start, *items)):
            raise TemplateLimitError(f"a number of more than {MAX_INT_BITS} bits")
        return sum(items, start)
    total = start  # lists or strings: each addition bounded like the template's own "+"
    for item in items:
        total = binop("+", total, item)
    return total


def _batch(value: Iterable[Any], linecount: int, fill_with: Any = None) -> Iterator[list]:
    if isinstance(linecount, int):
        need(linecount, unit="items")
    return jf.do_batch(value, linecount, fill_with)


def _slice(value: Iterable[Any], slices: int, fill_with: Any = None) -> Iterator[list]:
    if isinstance(slices, int):
        need(slices, unit="items")
    return jf.sync_do_slice(value, slices, fill_with)


MAX_ROUND_DIGITS = 100
"""The most digits ``round`` may round to, either side of the point."""


def _round(value: float, precision: int = 0, method: str = "common") -> float:
    if isinstance(precision, int) and abs(precision) > MAX_ROUND_DIGITS:  # round(5, -10**9) computes 10**10**9
        raise TemplateLimitError(f"rounding to more than {MAX_ROUND_DIGITS} digits")
    return jf.do_round(value, precision, method)


_SIZED_FILTERS = {"center": _center, "indent": _indent, "wordwrap": _wordwrap, "format": _format, "join": _join,
                  "replace": _replace, "sum": _sum, "batch": _batch, "slice": _slice, "round": _round}
"""Filters whose result can be far larger than their input, replaced by ones that refuse a
too large result before computing it."""
_TEXT_FILTERS = {"capitalize", "e", "escape", "forceescape", "lower", "pprint", "safe", "string", "striptags",
                 "title", "tojson", "trim", "upper", "urlencode", "wordcount"}
"""Filters converting their value to text (a list of one long string many times would print
as all of them): the value is weighed first."""
_HTML_ONLY = {"urlize", "xmlattr"}


def _width_check(s: Any, args: tuple, kwargs: dict) -> None:
    width = args[0] if args else kwargs.get("width", 0)
    if isinstance(width, int):
        need(max(len(s), width))


def _expandtabs_check(s: Any, args: tuple, kwargs: dict) -> None:
    tabsize = args[0] if args else kwargs.get("tabsize", 8)
    if isinstance(tabsize, int):
        need(len(s) + s.count("\t" if isinstance(s, str) else b"\t") * max(tabsize, 0))


def _replace_check(s: Any, args: tuple, kwargs: dict) -> None:
    if len(args) >= 2:
        count = args[2] if len(args) > 2 else kwargs.get("count", -1)
        need(replaced_size(s, args[0], args[1], count if isinstance(count, int) else None))


def _translate_check(s: Any, args: tuple, kwargs: dict) -> None:
    table = args[0] if args else kwargs.get("table")
    if isinstance(s, str):
        if not isinstance(table, dict):
            raise TemplateLimitError("str.translate takes a dict in a template")
        longest = max((len(v) for v in table.values() if isinstance(v, str)), default=1)
        need(len(s) * max(longest, 1))


_CODECS = frozenset({"utf-8", "ascii", "iso8859-1", "cp1252", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
                     "utf-32-le", "utf-32-be"})
"""The codecs ``encode`` and ``decode`` may use in a template: linear, written in C (Python's
pure-Python ``punycode`` takes minutes for a few thousand characters)."""


def _codec_check(s: Any, args: tuple, kwargs: dict) -> None:
    name = args[0] if args else kwargs.get("encoding", "utf-8")
    if isinstance(name, str):
        try:
            canonical = codecs.lookup(name).name
        except LookupError:
            return  # the method itself says so
        if canonical not in _CODECS:
            raise TemplateLimitError(f"the {name!r} codec in a template (these are: utf-8, ascii, latin-1, "
                                     f"cp1252, utf-16, utf-32)")


_METHOD_CHECKS: dict[str, Callable[[Any, tuple, dict], None]] = {
    "center": _width_check, "ljust": _width_check, "rjust": _width_check, "zfill": _width_check,
    "expandtabs": _expandtabs_check, "replace": _replace_check, "translate": _translate_check,
    "encode": _codec_check, "decode": _codec_check,
}
"""Methods of ``str`` and ``bytes`` whose result can be far larger than the string, or that
can take long, checked before they run (``join`` and ``format`` separately)."""


def _lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:  # noqa: A002 - Jinja2's names
    if all(isinstance(x, int) for x in (n, min, max)):
        need(n * (max if max > min else min) * 12)  # words of at most 12 characters
    return generate_lorem_ipsum(n, html, min, max)


# ---- the environment -------------------------------------------------------------------------

class _GuardedCode(CodeGenerator):
    """Compiles every ``{% for %}`` to loop over :func:`guarded_iter` and every ``~`` operand
    through :func:`printable`: what a template does in a loop, or joins, is bounded too."""

    def visit_Template(self, node: nodes.Template, frame: Any = None) -> None:
        for loop in list(node.find_all(nodes.For)):
            loop.iter = self._guard("guarded_iter", loop.iter)
        for joined in list(node.find_all(nodes.Concat)):
            joined.nodes = [self._guard("printable", part) for part in joined.nodes]
        super().visit_Template(node, frame)

    def _guard(self, name: str, expr: nodes.Expr) -> nodes.Expr:
        guard = nodes.ImportedName(f"{printable.__module__}.{name}")
        return nodes.Call(guard, [expr], [], None, None, lineno=expr.lineno).set_environment(self.environment)


class BoundedTemplate(jinja2.Template):
    """A template whose ``render`` is :func:`render_bounded`."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        return render_bounded(self, dict(*args, **kwargs))


class _BoundedExpression:
    """A compiled expression (:meth:`CardSandbox.compile_expression`) evaluated within bounds."""

    def __init__(self, expression: Callable[..., Any]):
        self._expression = expression

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with render_limits():
            return self._expression(*args, **kwargs)


def _concat(parts: Iterable[str]) -> str:
    parts = list(parts)
    need(sum(map(len, parts)))
    return charge("".join(parts))


_SANDBOXES: weakref.WeakSet = weakref.WeakSet()


def forget_compiled_templates() -> None:
    """Forget every compiled template, and so which ones took too long: a new build (in a
    process that watches for saves) tries every template afresh."""
    for sandbox in list(_SANDBOXES):
        sandbox._compiled.clear()


class CardSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox with every size and the time bounded (see the module
    docstring). Templates compiled by it render within the bounds however they are called
    (``render``, :func:`render_bounded`, a compiled expression)."""

    intercepted_binops = frozenset(BINOPS)
    code_generator_class = _GuardedCode
    template_class = BoundedTemplate
    concat = staticmethod(_concat)  # how the compiled code joins blocks, macros and {% set %} bodies

    def __init__(self, **options: Any):
        super().__init__(finalize=printable, **options)
        self.filters = {name: guard_filter(_SIZED_FILTERS.get(name, func), name in _TEXT_FILTERS)
                        for name, func in self.filters.items() if name not in _HTML_ONLY}
        self.tests = {name: guard_filter(func) for name, func in self.tests.items()}
        self.globals["lipsum"] = _lipsum
        self._compiled: dict[str, jinja2.Template] = {}
        _SANDBOXES.add(self)

    def from_string(self, source: Any, globals: Any = None, template_class: Any = None) -> Any:  # noqa: A002
        """As Jinja2's, compiling each template text once (the same text in every card's face)."""
        if not isinstance(source, str) or globals is not None or template_class is not None:
            return super().from_string(source, globals, template_class)
        template = self._compiled.get(source)
        if template is None:
            if len(self._compiled) >= 4096:
                self._compiled.clear()
            template = self._compiled[source] = super().from_string(source)
            # Text without "{" holds no Jinja2 syntax: its output never changes (render_bounded).
            template.constant_text = "{" not in source
        return template

    def compile(self, *args: Any, **kwargs: Any) -> Any:
        with render_limits():  # compiling evaluates constant parts (filters of literals)
            return super().compile(*args, **kwargs)

    def compile_expression(self, source: str, undefined_to_none: bool = True) -> Any:
        return _BoundedExpression(super().compile_expression(source, undefined_to_none))

    def call_binop(self, context: Any, op: str, left: Any, right: Any) -> Any:
        return binop(op, left, right)

    def getattr(self, obj: Any, attribute: str) -> Any:
        tick()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        tick()
        return super().getitem(obj, argument)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        owner = getattr(value, "__self__", None)
        if not isinstance(owner, str) or getattr(value, "__name__", None) not in ("format", "format_map"):
            return None
        formatter = (BoundedEscapeFormatter(self, escape=owner.escape) if isinstance(owner, Markup)
                     else BoundedFormatter(self))
        is_format_map = value.__name__ == "format_map"

        @functools.wraps(value)
        def bounded(*args: Any, **kwargs: Any) -> str:
            if is_format_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument and no keyword arguments")
                args, kwargs = (), args[0]
            formatter._size = len(owner)
            return charge(type(owner)(formatter.vformat(owner, args, kwargs)))

        return bounded

    def call(self, context: Any, obj: Any, /, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        tick()
        if obj is printable or obj is guarded_iter:  # compiled in by _GuardedCode
            return obj(*args)
        if isinstance(obj, LoopContext) and args:  # a recursive loop's loop(children)
            args = (guarded_iter(args[0]), *args[1:])
        owner = getattr(obj, "__self__", None)
        if isinstance(owner, (str, bytes)):
            name = getattr(obj, "__name__", "")
            if name == "join" and args:
                items = list(args[0])
                join_size(owner, items)
                args = (items, *args[1:])
            elif name in _METHOD_CHECKS:
                _METHOD_CHECKS[name](owner, args, kwargs)
        return charge(super().call(context, obj, *args, **kwargs))


def render_bounded(template: jinja2.Template, context: dict[str, Any]) -> str:
    """Render ``template`` within the bounds of :mod:`this module <printkit.sheets.templating.template_sandbox>`
    (those of the limits in force, :func:`card_data.project.limits.current_limits`), raising
    :class:`TemplateLimitError` once the output passes ``template_characters`` characters or
    any other bound. Any other error of the template is raised as is.

    A template that took too long once is not run again (it is the same for every card of a
    deck): :class:`RenderTimeout` at once, saying so. A template text without Jinja2 syntax
    (no ``{``) of :meth:`CardSandbox.from_string` is run once; its output, the same for every
    card, is then checked against the bounds in force and returned as it is."""
    timed_out = getattr(template, "timed_out", None)  # the limits it ran out of time under
    if timed_out is not None:
        raise RenderTimeout(timed_out, earlier=True)
    output = getattr(template, "constant_output", None)  # a text without Jinja2 syntax, rendered once
    if output is not None:
        with render_limits() as bounds:
            if len(output) > bounds.characters:
                raise too_long(f"output longer than {bounds.characters} characters")
            return charge(output)
    parts, size = [], 0
    if isinstance(context, TemplateVariables) and context.serves(template):
        generated = _generate(template, new_context(template.environment, template.name, template.blocks, context,
                                                    shared=True, globals=context.environment.globals))
    else:
        generated = jinja2.Template.generate(template, context)
    try:
        with render_limits() as bounds:
            for part in generated:
                n = len(part)
                size += n
                if size > bounds.characters:
                    raise too_long(f"output longer than {bounds.characters} characters")
                bounds.spend(n)  # what charge() does for a text under the bound just checked
                parts.append(part)
    except RenderTimeout as exc:
        template.timed_out = exc.limits  # type: ignore[attr-defined]
        raise
    output = "".join(parts)
    if getattr(template, "constant_text", False):
        template.constant_output = output  # type: ignore[attr-defined]
    return output


class TemplateVariables(dict):
    """The variables of one card (or other subject) with ``environment``'s globals under them,
    merged once: :func:`render_bounded` renders each template of that environment from them
    as they are, where Jinja2 would copy globals and variables into a new dict per template.
    Templates only read them (what a template sets is its own)."""

    def __init__(self, environment: jinja2.Environment, variables: dict[str, Any]):
        super().__init__(environment.globals)
        self.update(variables)
        self.environment = environment

    def serves(self, template: jinja2.Template) -> bool:
        """Whether ``template`` sees exactly these globals: one of this environment's, without
        globals of its own."""
        maps = getattr(template.globals, "maps", None)
        return template.environment is self.environment and maps is not None and len(maps) == 2 and not maps[0] \
            and maps[1] is self.environment.globals


def _generate(template: jinja2.Template, context: jinja2.runtime.Context) -> Iterator[str]:
    """Jinja2's ``Template.generate`` from a context already made."""
    try:
        yield from template.root_render_func(context)
    except Exception:  # noqa: BLE001 - as Jinja2: re-raised with the template's lines in the traceback
        yield template.environment.handle_exception()


def template_error_message(exc: BaseException) -> str:
    """``template error: ...`` for any exception a template expression raised, naming its kind
    when Jinja2 did not (``ZeroDivisionError: division by zero``)."""
    if isinstance(exc, SecurityError):
        return f"template error: not allowed in a template: {exc}"
    if isinstance(exc, jinja2.TemplateError):
        return f"template error: {exc}"
    if isinstance(exc, RecursionError):
        return "template error: recursion too deep"
    return f"template error: {type(exc).__name__}: {exc}"
