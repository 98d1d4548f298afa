"""The bounds of one template render, and the checks that keep a template inside them.

A render (one template text or expression, with everything it calls) may make at most
``template_characters`` characters of output and in any one value (a string in characters, a
list, tuple or dict in items, the text a value prints as), :data:`MAX_TEMPLATE_WORK` characters
and items in all (intermediate values included), numbers of :data:`MAX_INT_BITS` bits, in
``template_seconds`` of processor time. ``template_characters`` (100,000) and
``template_seconds`` (3) are those of the limits in force when the render starts
(:func:`card_data.project.limits.current_limits`), which a project's ``printkit.toml`` may raise; a
breach of them says how. Sizes that can be told beforehand (``'x' * n``, ``9 ** n``,
``'%*d' % (n, 1)``, ``'{:>{n}}'.format(..)``) are refused before anything is computed
(:func:`need`); the rest as each value is made (:func:`charge`). Time is read at every check
(:func:`tick`): no signals, so the bounds hold in threads and worker processes alike.
:mod:`printkit.sheets.templating.template_sandbox` puts these checks into Jinja2.
"""

from __future__ import annotations

import math
import operator
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from jinja2.sandbox import SandboxedEscapeFormatter, SandboxedFormatter, SecurityError

from card_data.project.limits import Limits, current_limits

MAX_TEMPLATE_WORK = 10_000_000
"""Characters and items one render may make in all, intermediate values included: what bounds
its memory (some 40 MB of text at most). Fixed: ``template_characters`` is raised for one long
value or output, which this leaves room for ten of even at its highest."""
MAX_INT_BITS = 128
"""Bits of the largest number a template's arithmetic, filters or calls may give. Fixed: its
39 digits are more than any card prints, and arithmetic on longer numbers costs more than their
length (``9 ** 9 ** 9`` has 370 million digits)."""


class TemplateLimitError(SecurityError):
    """A template went past one of this module's bounds; ``str()`` says which (and, for a
    bound a project can raise, how)."""


class RenderTimeout(TemplateLimitError):
    """A render took longer than ``limits.template_seconds`` (``earlier``: a render of the same
    template did, and this one was not tried)."""

    def __init__(self, limits: Limits, earlier: bool = False):
        self.limits = limits
        when = " for an earlier card; not tried again" if earlier else ""
        super().__init__(f"rendering took longer than {limits.template_seconds:g} seconds{when}; "
                         f"{limits.raise_hint('template_seconds')}")


# ---- the current render's bounds (per thread) ---------------------------------------------------

class _Render:
    """The bounds of the render running in this thread (from ``limits``), and the time and work
    it has spent."""

    __slots__ = ("characters", "cpu_start", "limits", "seconds", "wall_deadline", "work")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.characters = limits.template_characters
        self.seconds = limits.template_seconds
        self.cpu_start = time.thread_time()
        # The wall clock is cheap to read; only when it passes the deadline is the (slower)
        # thread clock asked whether the time was really spent here.
        self.wall_deadline = time.monotonic() + self.seconds
        self.work = 0

    def spend(self, size: int) -> None:
        """Count ``size`` characters or items made as work, checking the work and the time;
        raises :class:`TemplateLimitError` or :class:`RenderTimeout`."""
        self.work += size
        if self.work > MAX_TEMPLATE_WORK:
            raise TemplateLimitError(f"more than {MAX_TEMPLATE_WORK} characters and items made in one template")
        if time.monotonic() > self.wall_deadline:
            self.check_time()

    def check_time(self) -> None:
        spent = time.thread_time() - self.cpu_start
        if spent > self.seconds:
            raise RenderTimeout(self.limits)
        self.wall_deadline = time.monotonic() + (self.seconds - spent)


_STATE = threading.local()


class render_limits:  # noqa: N801 - used as a function: ``with render_limits() as render:``
    """``with render_limits():`` bounds the template code run inside (time and work, see the
    module docstring) by the limits in force as it starts. Nested uses share the outermost
    bounds."""

    def __enter__(self) -> _Render:
        self.outer = getattr(_STATE, "render", None)
        if self.outer is None:
            _STATE.render = _Render(current_limits())
        return _STATE.render

    def __exit__(self, *exc: object) -> None:
        if self.outer is None:
            _STATE.render = None


def _limits() -> Limits:
    """The limits of the render running in this thread, else those in force."""
    render = getattr(_STATE, "render", None)
    return render.limits if render is not None else current_limits()


def characters_limit() -> int:
    """Characters (or items) one value or output of the render running in this thread may have:
    its ``template_characters``."""
    render = getattr(_STATE, "render", None)
    return render.characters if render is not None else current_limits().template_characters


def too_long(what: str) -> TemplateLimitError:
    """The error for ``what`` (``"a value of more than 100000 characters"``), a breach of
    ``template_characters``, saying how to raise it."""
    return TemplateLimitError(f"{what}; {_limits().raise_hint('template_characters')}")


def tick() -> None:
    """Raise :class:`RenderTimeout` if the render running in this thread has had its time."""
    render = getattr(_STATE, "render", None)
    if render is not None and time.monotonic() > render.wall_deadline:
        render.check_time()


def charge(value: Any) -> Any:
    """``value`` after checking its size and counting it as work; raises TemplateLimitError."""
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        size = len(value)
        render = getattr(_STATE, "render", None)
        limit = render.characters if render is not None else current_limits().template_characters
        if size > limit:
            unit = "characters" if isinstance(value, (str, bytes)) else "items"
            raise too_long(f"a value of more than {limit} {unit}")
        if render is not None:
            render.spend(size)
    elif isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise TemplateLimitError(f"a number of more than {MAX_INT_BITS} bits")
    return value


def need(size: int | float, limit: int | None = None, unit: str = "characters") -> None:
    """Refuse, before computing it, a value that would be ``size`` characters (or items), more
    than ``limit`` (default: :func:`characters_limit`, a breach saying how to raise it)."""
    if limit is not None:
        if size > limit:
            raise TemplateLimitError(f"a value of more than {limit} {unit}")
        return
    bound = characters_limit()
    if size > bound:
        raise too_long(f"a value of more than {bound} {unit}")


def text_size(value: Any, limit: int | None = None) -> int:
    """About how many characters ``value`` prints as (``str`` or ``repr``; a string: its length,
    a list: its items' and their separators'), counted without converting it; counting stops
    once past ``limit`` (default: :func:`characters_limit`). A list holding one long string many
    times prints as all of them."""
    if limit is None:
        limit = characters_limit()
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
    """``value``, refusing one that would print as more than :func:`characters_limit`
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
    """A width or precision of a format, refused past :func:`characters_limit`."""
    bound = characters_limit()
    # Told from the digits' count first: int() of a million digits is slow itself.
    if (isinstance(digits, str) and len(digits) > len(str(bound))) or int(digits or 0) > bound:
        raise too_long(f"a width or precision of more than {bound}")
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
    """``fmt % args``, refusing first a result that could pass :func:`characters_limit`."""
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
            if isinstance(seq, _SEQUENCES) and isinstance(times, int) and len(seq) * times > characters_limit():
                raise too_long(f"repetition longer than {characters_limit()} items")
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
