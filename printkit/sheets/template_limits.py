"""The bounds of one template render, and the checks that keep a template inside them.

A render (one template text or expression, with everything it calls) may make at most
:data:`MAX_TEMPLATE_OUTPUT` characters of output and in any one value (a string in
characters, a list, tuple or dict in items, the text a value prints as),
:data:`MAX_TEMPLATE_WORK` characters and items in all (intermediate values included), numbers
of :data:`MAX_INT_BITS` bits, in :data:`MAX_RENDER_SECONDS` of processor time. Sizes that can
be told beforehand (``'x' * n``, ``9 ** n``, ``'%*d' % (n, 1)``, ``'{:>{n}}'.format(..)``) are
refused before anything is computed (:func:`need`); the rest as each value is made
(:func:`charge`). Time is read at every check (:func:`tick`): no signals, so the bounds hold in
threads and worker processes alike. :mod:`printkit.sheets.template_sandbox` puts these checks
into Jinja2.
"""

from __future__ import annotations

import math
import operator
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from jinja2.sandbox import SandboxedEscapeFormatter, SandboxedFormatter, SecurityError

MAX_TEMPLATE_OUTPUT = 100_000
"""Characters one render may output, and the largest value it may make (characters of a
string or of the text a value prints as, items of a list): far beyond any card's text."""
MAX_TEMPLATE_WORK = 10_000_000
"""Characters and items one render may make in all, intermediate values included."""
MAX_INT_BITS = 128
"""Bits of the largest number a template's arithmetic, filters or calls may give."""
MAX_RENDER_SECONDS = 3.0
"""Processor seconds one render may take (a card's templates take milliseconds)."""


class TemplateLimitError(SecurityError):
    """A template went past one of this module's bounds; ``str()`` says which."""


class RenderTimeout(TemplateLimitError):
    """A render took longer than :data:`MAX_RENDER_SECONDS`."""


# ---- the current render's bounds (per thread) ---------------------------------------------------

class _Render:
    """Time and work spent by the render running in this thread."""

    __slots__ = ("cpu_start", "wall_deadline", "work")

    def __init__(self) -> None:
        self.cpu_start = time.thread_time()
        # The wall clock is cheap to read; only when it passes the deadline is the (slower)
        # thread clock asked whether the time was really spent here.
        self.wall_deadline = time.monotonic() + MAX_RENDER_SECONDS
        self.work = 0

    def check_time(self) -> None:
        spent = time.thread_time() - self.cpu_start
        if spent > MAX_RENDER_SECONDS:
            raise RenderTimeout(f"rendering took longer than {MAX_RENDER_SECONDS:g} seconds")
        self.wall_deadline = time.monotonic() + (MAX_RENDER_SECONDS - spent)


_STATE = threading.local()


class render_limits:  # noqa: N801 - used as a function: ``with render_limits():``
    """``with render_limits():`` bounds the template code run inside (time and work, see the
    module docstring). Nested uses share the outermost bounds."""

    def __enter__(self) -> None:
        self.outer = getattr(_STATE, "render", None)
        if self.outer is None:
            _STATE.render = _Render()

    def __exit__(self, *exc: object) -> None:
        if self.outer is None:
            _STATE.render = None


def tick() -> None:
    """Raise :class:`RenderTimeout` if the render running in this thread has had its time."""
    render = getattr(_STATE, "render", None)
    if render is not None and time.monotonic() > render.wall_deadline:
        render.check_time()


def charge(value: Any) -> Any:
    """``value`` after checking its size and counting it as work; raises TemplateLimitError."""
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        size = len(value)
        if size > MAX_TEMPLATE_OUTPUT:
            unit = "characters" if isinstance(value, (str, bytes)) else "items"
            raise TemplateLimitError(f"a value of more than {MAX_TEMPLATE_OUTPUT} {unit}")
        render = getattr(_STATE, "render", None)
        if render is not None:
            render.work += size
            if render.work > MAX_TEMPLATE_WORK:
                raise TemplateLimitError(f"more than {MAX_TEMPLATE_WORK} characters and items made in one template")
            if time.monotonic() > render.wall_deadline:
                render.check_time()
    elif isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise TemplateLimitError(f"a number of more than {MAX_INT_BITS} bits")
    return value


def need(size: int | float, limit: int = MAX_TEMPLATE_OUTPUT, unit: str = "characters") -> None:
    """Refuse, before computing it, a value that would be ``size`` characters (or items)."""
    if size > limit:
        raise TemplateLimitError(f"a value of more than {limit} {unit}")


def text_size(value: Any, limit: int = MAX_TEMPLATE_OUTPUT) -> int:
    """About how many characters ``value`` prints as (``str`` or ``repr``; a string: its length,
    a list: its items' and their separators'), counted without converting it; counting stops
    once past ``limit``. A list holding one long string many times prints as all of them."""
    total, stack = 0, [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (str, bytes)):
            total += len(v) + 2
        elif isinstance(v, (list, tuple, set, frozenset, dict)):
            total += 2 * len(v) + 2
            if total > limit:
                return total
            stack.extend(v.items() if isinstance(v, dict) else v)
        elif isinstance(v, int):
            total += v.bit_length() // 3 + 2
        elif isinstance(v, float):
            total += len(f"{v:.0f}") + 24 if math.isfinite(v) else 4
        else:
            total += 32  # a card, a namespace...: its text comes from bounded data
        if total > limit:
            return total
    return total


def printable(value: Any) -> Any:
    """``value``, refusing one that would print as more than :data:`MAX_TEMPLATE_OUTPUT`
    characters (checked before it is converted to text)."""
    tick()
    if isinstance(value, str):
        need(len(value))
    elif not isinstance(value, (int, float, bool)) and value is not None:
        need(text_size(value))
    return value


def guarded_iter(iterable: Iterable[Any]) -> Iterator[Any]:
    """What a template's ``{% for %}`` loops over: ``iterable``, checking the time as it goes."""
    for i, item in enumerate(iterable):
        if not i & 63:
            tick()
        yield item


# ---- formatting ------------------------------------------------------------------------------

def _width(digits: str | int) -> int:
    """A width or precision of a format, refused past :data:`MAX_TEMPLATE_OUTPUT`."""
    too_long = isinstance(digits, str) and len(digits) > len(str(MAX_TEMPLATE_OUTPUT))
    if too_long or int(digits or 0) > MAX_TEMPLATE_OUTPUT:
        raise TemplateLimitError(f"a width or precision of more than {MAX_TEMPLATE_OUTPUT}")
    return int(digits or 0)


def _spec_numbers(spec: str) -> int:
    """The sum of the numbers in a ``format()`` spec (its width and precision), each bounded."""
    total, digits = 0, ""
    for ch in spec + " ":
        if ch.isdigit():
            digits += ch
        elif digits:
            total += _width(digits)
            digits = ""
    return total


def _printf_size(fmt: str, args: Any) -> int:
    """An upper estimate of the length of ``fmt % args`` (printf-style), from its conversion
    specs (parsed as Python parses them) and the size of the values they convert."""
    mapping = args if isinstance(args, Mapping) and not isinstance(args, (tuple, str)) else None
    positional = iter(args if isinstance(args, tuple) else (args,))
    size, i, n = len(fmt), 0, len(fmt)

    def number() -> int:  # a width or precision at i: digits, or "*" taking the next value
        nonlocal i
        if i < n and fmt[i] == "*":
            i += 1
            value = next(positional, 0)
            return _width(abs(value)) if isinstance(value, int) else 0
        start = i
        while i < n and fmt[i].isdigit():
            i += 1
        return _width(fmt[start:i])

    while True:
        i = fmt.find("%", i)
        if i < 0 or i + 1 >= n:
            return size
        i += 1
        key = None
        if fmt[i] == "(":  # a mapping key, its parentheses nested
            depth, start = 1, i + 1
            while i + 1 < n and depth:
                i += 1
                depth += {"(": 1, ")": -1}.get(fmt[i], 0)
            key, i = fmt[start:i], i + 1
        while i < n and fmt[i] in "-+ #0":
            i += 1
        size += number()
        if i < n and fmt[i] == ".":
            i += 1
            size += number()
        if i < n and fmt[i] in "hlL":
            i += 1
        conversion = fmt[i] if i < n else ""
        i += 1
        if conversion == "%":
            continue
        if key is not None:
            try:
                value = mapping[key] if mapping is not None else None
            except Exception:  # noqa: BLE001 - a missing key fails in the formatting itself
                value = None
        else:
            value = next(positional, None)
        size += text_size(value) + 8
        need(size)


def printf(fmt: str | bytes, args: Any) -> str | bytes:
    """``fmt % args``, refusing first a result that could pass :data:`MAX_TEMPLATE_OUTPUT`."""
    need(_printf_size(fmt.decode("latin-1") if isinstance(fmt, bytes) else fmt, args))
    return charge(fmt % args)


class _BoundedFormatting:
    """``str.format`` in a template: each field's width and value weighed before formatting,
    the whole result bounded."""

    _size = 0

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion is not None:
            printable(value)
        return super().convert_field(value, conversion)  # type: ignore[misc]

    def format_field(self, value: Any, format_spec: str) -> Any:
        self._size += _spec_numbers(format_spec) + text_size(value) + 8
        need(self._size)
        return charge(super().format_field(value, format_spec))  # type: ignore[misc]


class BoundedFormatter(_BoundedFormatting, SandboxedFormatter):
    """Jinja2's sandboxed ``str.format``, bounded; set ``_size`` to the format's length first."""


class BoundedEscapeFormatter(_BoundedFormatting, SandboxedEscapeFormatter):
    """The same for a ``Markup`` format string (its values escaped)."""


# ---- operators -------------------------------------------------------------------------------

BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow,
}

_SEQUENCES = (str, bytes, list, tuple)


def binop(op: str, left: Any, right: Any) -> Any:
    """``left op right``, refusing first what would be too large (see the module docstring)."""
    tick()
    if op == "*":
        for seq, times in ((left, right), (right, left)):
            if isinstance(seq, _SEQUENCES) and isinstance(times, int) and len(seq) * times > MAX_TEMPLATE_OUTPUT:
                raise TemplateLimitError(f"repetition longer than {MAX_TEMPLATE_OUTPUT} items")
        if isinstance(left, int) and isinstance(right, int) and left and right \
                and left.bit_length() + right.bit_length() - 1 > MAX_INT_BITS:
            raise TemplateLimitError(f"a number of more than {MAX_INT_BITS} bits")
    elif op == "**":
        if isinstance(right, (int, float)) and abs(right) > 64 and not (
                isinstance(left, (int, float)) and abs(left) <= 1):
            raise TemplateLimitError("power too large")
        if isinstance(left, int) and isinstance(right, int) and right > 0 \
                and (abs(left).bit_length() - 1) * right + 1 > MAX_INT_BITS:
            raise TemplateLimitError(f"a number of more than {MAX_INT_BITS} bits")
    elif op == "+":
        if isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES):
            need(len(left) + len(right))
    elif op == "%" and isinstance(left, (str, bytes)):
        return printf(left, right)
    return charge(BINOPS[op](left, right))
