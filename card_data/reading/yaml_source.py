"""YAML reading that remembers where every value came from, so errors can name a line.

Reading is bounded, so that no file can hang or crash whoever reads it (``printkit validate``,
the companion on start): a file may hold at most the bytes :mod:`card_data.project.limits` allows
(checked before it is read), aliases may add at most :data:`MAX_ALIAS_VALUES` values, nesting
goes at most :data:`MAX_DEPTH` deep (whether or not the YAML library has a bound of its own),
an alias inside the value it names is refused, and a key written twice in one mapping is
reported rather than silently overwritten.

A document without aliases (a card file) is read by libyaml's own composer, where libyaml
bounds nesting itself (0.2.6 on): about twice as fast. Any other document, any error, and
every document without that bound, is read by :class:`_BoundedLoader`, so that the result,
every bound and every error with its line are the same whichever composer read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent, CollectionStartEvent
from yaml.resolver import Resolver

from card_data.project.limits import FileTooLarge, Limits, read_limited

Loc = tuple  # a path into the data: keys (str) and list indexes (int)

MAX_ALIAS_VALUES = 100_000
"""How many values aliases (``*name``) may add to one document. A card file that repeats a stat
block a few times adds dozens; a "billion laughs" file (aliases of lists of aliases) turns a few
hundred bytes into billions of values, and expanding it would hang whoever reads the file."""

MAX_DEPTH = 100
"""How deeply lists and mappings may nest in one document (a card nests 4 or 5 levels). Past
this, reading would run out of stack (libyaml's own composer crashes the process). libyaml
0.2.6 refuses nesting past 1,000 levels itself, while scanning ahead of what is composed;
older libyaml and PyYAML's own parser do not, and this bound holds for them too."""

_MERGE_TAG = "tag:yaml.org,2002:merge"
_STR_TAG = "tag:yaml.org,2002:str"
_VALUE_TAG = "tag:yaml.org,2002:value"
_LIBYAML_SAFE_NEST_LEVELS = 1_000  # libyaml's default bound: its composer recurses this deep at most


class YamlSyntaxError(Exception):
    """YAML that cannot be read: malformed, past one of this module's bounds, or (see
    :func:`load_yaml`) with a duplicate key; ``line`` is 1-based and ``message`` says what is wrong."""

    def __init__(self, line: int, message: str):
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}")


class YamlTooLarge(YamlSyntaxError):
    """A file with more bytes than one file may hold (:class:`card_data.project.limits.FileTooLarge`),
    refused unread: ``line`` is 1, ``message`` gives the size, the limit and how to raise it."""


@dataclass(frozen=True)
class DuplicateKey:
    """A key written twice in one mapping (``title: A`` then ``title: B``).

    Attributes:
        loc: location of the second occurrence in the loaded data (the mapping's location
            plus the key), e.g. ``(3, "title")``.
        line: 1-based line of the second occurrence.
        first_line: 1-based line of the first.
        key: the key as written.
    """

    loc: Loc
    line: int
    first_line: int
    key: str

    @property
    def message(self) -> str:
        return f"duplicate key '{self.key}' (first at line {self.first_line}); YAML keeps only this later value"


_libyaml: Any = None
if getattr(yaml, "__with_libyaml__", False):
    # libyaml's parser, ~10x faster than PyYAML's own; its events carry the same marks.
    import yaml._yaml as _libyaml
    from yaml._yaml import CParser as _Parser
else:  # pragma: no cover - PyYAML built without libyaml
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)


class _BoundedLoader(Composer, _Parser, SafeConstructor, Resolver):
    """A safe loader whose composition is bounded.

    PyYAML's Python composer (not libyaml's, which recurses in C and gives aliases no
    marks) builds the node graph from libyaml's events, so every alias and every level of
    nesting passes through :meth:`compose_node`. There each node's expanded size (values it
    stands for once aliases are expanded) is known as soon as it is complete, which bounds
    the expansion before anything expands it, with the line of the alias that went too far.
    ~2x libyaml's composer (what :func:`_read_plain` uses when it may).
    """

    def __init__(self, text: str) -> None:
        _Parser.__init__(self, text)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self.alias_values = 0
        self.depth = 0
        # id(node) -> values it expands to; only complete nodes are here, so an alias to a
        # node that is not is an alias to one of its own ancestors.
        self.sizes: dict[int, int] = {}
        # id(mapping node) -> [(key node, line of the first occurrence)]
        self.duplicates: dict[int, list[tuple[yaml.Node, int]]] = {}

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        event = self.peek_event()
        line = event.start_mark.line + 1
        if isinstance(event, AliasEvent):
            target = self.anchors.get(event.anchor)
            if target is not None:  # else PyYAML's "found undefined alias"
                size = self.sizes.get(id(target))
                if size is None:
                    raise YamlSyntaxError(line, f"recursive alias: *{event.anchor} is used inside the "
                                                f"value it names, which would never end")
                self.alias_values += size
                if self.alias_values > MAX_ALIAS_VALUES:
                    raise YamlSyntaxError(line, f"aliases expand to more than {MAX_ALIAS_VALUES:,} values "
                                                f"(here at *{event.anchor}); a card file needs far fewer")
            return super().compose_node(parent, index)
        nested = isinstance(event, CollectionStartEvent)
        if nested:
            if self.depth >= MAX_DEPTH:
                raise YamlSyntaxError(line, f"lists and mappings nested more than {MAX_DEPTH} levels deep")
            self.depth += 1
        node = super().compose_node(parent, index)
        if nested:
            self.depth -= 1
        size = 1
        if isinstance(node, yaml.SequenceNode):
            size += sum(self.sizes[id(item)] for item in node.value)
        elif isinstance(node, yaml.MappingNode):
            size += sum(self.sizes[id(k)] + self.sizes[id(v)] for k, v in node.value)
            twice = _keys_written_twice(node)
            if twice:
                self.duplicates[id(node)] = twice
        self.sizes[id(node)] = size
        return node


def _keys_written_twice(node: yaml.MappingNode) -> list[tuple[yaml.Node, int]]:
    """``[(key node, line of its first occurrence)]`` for each key written again in ``node``."""
    # Only keys written in this mapping: a key merged in with << is meant to be overridden.
    first: dict[tuple[str, str], int] = {}
    twice = []
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE_TAG:
            continue
        key = (key_node.tag, key_node.value)
        if key in first:
            twice.append((key_node, first[key]))
        else:
            first[key] = key_node.start_mark.line + 1
    return twice


class LineMap:
    """Maps a location in the loaded data to the 1-based line it was written on."""

    def __init__(self) -> None:
        self._lines: dict[Loc, int] = {}

    def record(self, loc: Loc, line: int) -> None:
        self._lines[loc] = line

    def line_for(self, loc: Loc) -> int:
        """Line of ``loc``, or of its nearest recorded ancestor (1 if none)."""
        loc = tuple(loc)
        while loc:
            if loc in self._lines:
                return self._lines[loc]
            loc = loc[:-1]
        return self._lines.get((), 1)


def _scalar(node: yaml.Node, loader: _BoundedLoader) -> Any:
    try:
        return loader.construct_object(node, deep=True)
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError):
        # PyYAML's constructors for explicit tags (``!!int abc``) fail with these, not YAMLError.
        tag = str(node.tag).rsplit(":", 1)[-1]
        raise YamlSyntaxError(node.start_mark.line + 1,
                              f"malformed YAML: {node.value!r} is not a valid {tag}") from None


def _key(node: yaml.Node, loader: _BoundedLoader) -> Any:
    if node.tag == _STR_TAG and type(node) is yaml.ScalarNode:
        return node.value
    key = _scalar(node, loader)
    if isinstance(key, list):
        key = tuple(key)
    try:
        hash(key)
    except TypeError:
        raise YamlSyntaxError(node.start_mark.line + 1,
                              "malformed YAML: a mapping key must be a single value, not a list or mapping") from None
    return key


def _construct(node: yaml.Node, loc: Loc, lines: LineMap, loader: _BoundedLoader, found: list[DuplicateKey]) -> Any:
    # Expands aliases (each location gets its own copy and line); the composer has bounded
    # how many values that makes and rejected cycles, so this ends, within MAX_DEPTH frames.
    lines.record(loc, node.start_mark.line + 1)
    if node.tag == _STR_TAG and type(node) is yaml.ScalarNode:
        return node.value  # what SafeConstructor makes of it, without its per-node bookkeeping
    if isinstance(node, yaml.MappingNode):
        # pop: a mapping reached again through an alias has its duplicates reported once.
        for key_node, first in loader.duplicates.pop(id(node), ()):
            found.append(DuplicateKey(loc + (_key(key_node, loader),), key_node.start_mark.line + 1, first,
                                      str(key_node.value)))
        loader.flatten_mapping(node)
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _key(key_node, loader)
            # A key's own line is where users look for it, not its value's first line.
            out[key] = _construct(value_node, loc + (key,), lines, loader, found)
            lines.record(loc + (key,), key_node.start_mark.line + 1)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, loc + (i,), lines, loader, found) for i, item in enumerate(node.value)]
    return _scalar(node, loader)


class _NotPlain(Exception):
    """The document is not one the fast reading (:func:`_read_plain`) may take: it has an
    alias, nests past :data:`MAX_DEPTH`, or has something wrong; the bounded reading decides."""


def _libyaml_composes_safely() -> bool:
    # libyaml's composer recurses in C, once per level: only libyaml's own nesting bound
    # (0.2.6 on, default 1,000 levels) keeps a deep file from overflowing the C stack.
    levels = getattr(_libyaml, "_get_max_nest_level", None) if _libyaml is not None else None
    return levels is not None and 0 < levels() <= _LIBYAML_SAFE_NEST_LEVELS


def _read_plain(text: str) -> tuple[Any, LineMap, list[DuplicateKey]]:
    """What :func:`_read_bounded` returns for ``text``, read ~2x faster by libyaml's own
    composer, for a document without aliases nesting at most :data:`MAX_DEPTH` levels (a
    card file). Raises :class:`_NotPlain` for any other document, and for any error: the
    bounded reading then reads it, so that every bound, error and line stays its own."""
    loader = yaml.CSafeLoader(text)
    try:
        node = loader.get_single_node()
        lines = LineMap()
        found: list[DuplicateKey] = []
        if node is None:
            return None, lines, found
        return _construct_plain(node, (), lines, loader, found, set(), 0), lines, found
    except Exception as exc:  # whatever it is, the bounded reading tells it its own way
        raise _NotPlain from exc
    finally:
        loader.dispose()


def _construct_plain(node: yaml.Node, loc: Loc, lines: LineMap, loader: Any, found: list[DuplicateKey],
                     seen: set[int], depth: int) -> Any:
    # _construct for a tree: a node reached twice is an alias (libyaml's composer gives the
    # target itself, cycles included), which only the bounded reading may expand. A string
    # value (most of a card file) is taken in its parent's loop, without a call of its own.
    if id(node) in seen:
        raise _NotPlain
    seen.add(id(node))
    record = lines._lines
    record[loc] = node.start_mark.line + 1
    scalar = yaml.ScalarNode
    if type(node) is scalar and node.tag == _STR_TAG:
        return node.value
    if isinstance(node, yaml.MappingNode):
        if depth >= MAX_DEPTH:
            raise _NotPlain
        # In one pass: keys written twice (as _keys_written_twice), keys reached twice, and
        # whether flatten_mapping has anything to do (a << merge, or a = key it retags).
        first: dict[tuple[str, str], int] = {}
        twice = []
        flatten = False
        for key_node, value_node in node.value:
            if not isinstance(key_node, scalar) or id(key_node) in seen:
                raise _NotPlain  # a list or mapping as a key is not walked here, nor what it holds
            seen.add(id(key_node))
            tag = key_node.tag
            if tag == _MERGE_TAG:  # what << merges is not walked once merged in
                flatten = True
                merged = value_node.value if isinstance(value_node, yaml.SequenceNode) else []
                for part in (value_node, *merged):
                    if id(part) in seen:
                        raise _NotPlain
                    seen.add(id(part))
                continue
            flatten = flatten or tag == _VALUE_TAG
            written = (tag, key_node.value)
            if written in first:
                twice.append((key_node, first[written]))
            else:
                first[written] = key_node.start_mark.line + 1
        for key_node, first_line in twice:
            found.append(DuplicateKey(loc + (_key(key_node, loader),), key_node.start_mark.line + 1, first_line,
                                      str(key_node.value)))
        if flatten:
            loader.flatten_mapping(node)
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _key(key_node, loader)
            where = loc + (key,)
            if type(value_node) is scalar and value_node.tag == _STR_TAG:
                if id(value_node) in seen:
                    raise _NotPlain
                seen.add(id(value_node))
                out[key] = value_node.value
            else:
                out[key] = _construct_plain(value_node, where, lines, loader, found, seen, depth + 1)
            # A key's own line is where users look for it, not its value's first line.
            record[where] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        if depth >= MAX_DEPTH:
            raise _NotPlain
        items = []
        for i, item in enumerate(node.value):
            if type(item) is scalar and item.tag == _STR_TAG:
                if id(item) in seen:
                    raise _NotPlain
                seen.add(id(item))
                record[loc + (i,)] = item.start_mark.line + 1
                items.append(item.value)
            else:
                items.append(_construct_plain(item, loc + (i,), lines, loader, found, seen, depth + 1))
        return items
    return _scalar(node, loader)


def _read_bounded(text: str) -> tuple[Any, LineMap, list[DuplicateKey]]:
    """``(data, lines, duplicate keys)`` of ``text`` read by :class:`_BoundedLoader`, which
    bounds aliases and nesting as they are composed. Raises ``yaml.YAMLError`` or
    :class:`YamlSyntaxError`."""
    loader = _BoundedLoader(text)
    lines = LineMap()
    found: list[DuplicateKey] = []
    try:
        node = loader.get_single_node()
        if node is None:
            return None, lines, found
        return _construct(node, (), lines, loader, found), lines, found
    finally:
        loader.dispose()


def load_yaml(path: Path, duplicates: list[DuplicateKey] | None = None,
              limits: Limits | None = None, raw: bytes | None = None) -> tuple[Any, LineMap]:
    """Read one YAML document from ``path``.

    Returns ``(data, line_map)``; an empty file gives ``None``.

    A key written twice in one mapping is an error: the first one raises
    :class:`YamlSyntaxError`, unless ``duplicates`` is given, in which case each is appended
    to it as a :class:`DuplicateKey` and the later value is kept (so that a caller can report
    them beside every other problem of the file).

    ``limits``: the byte limits (default: :func:`card_data.project.limits.read_limited`'s). ``raw``:
    the file's bytes, already read within them (then ``path`` is not read again).

    Raises :class:`YamlTooLarge` (a :class:`YamlSyntaxError` at line 1) for a file over
    ``limits.file_bytes``, unread; :class:`YamlSyntaxError` for malformed YAML, for aliases
    that would expand to more than :data:`MAX_ALIAS_VALUES` values or that refer to
    themselves, and for nesting deeper than :data:`MAX_DEPTH` (or than the YAML library
    allows), and for bytes that are not UTF-8, each with the line to look at; ``OSError`` if
    the file cannot be read.
    """
    try:
        if raw is None:
            raw = read_limited(Path(path), limits)
    except FileTooLarge as exc:
        raise YamlTooLarge(1, exc.message) from None
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlSyntaxError(line, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at column {column} "
                                    "(save the file as UTF-8)") from None
    # As Path.read_text reads: universal newlines (YAML takes \r and \r\n as line breaks too).
    text = decoded.replace("\r\n", "\n").replace("\r", "\n")
    try:
        try:
            if not _libyaml_composes_safely():
                raise _NotPlain
            data, lines, found = _read_plain(text)
        except _NotPlain:
            data, lines, found = _read_bounded(text)
        if duplicates is None and found:
            raise YamlSyntaxError(found[0].line, found[0].message)
        if duplicates is not None:
            duplicates += found
        return data, lines
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        # Something left unclosed is only noticed at the end of the file; where it was
        # opened (the context) is the line the user must fix.
        end = len(text.rstrip())
        line = mark.line + 1 if mark else 1
        if mark is not None and mark.index >= end:
            context = exc.context_mark
            line = context.line + 1 if context is not None and context.index < end else text[:end].count("\n") + 1
        message = exc.problem or str(exc)
        if exc.context:
            message = f"{message} ({exc.context})"
        raise YamlSyntaxError(line, f"malformed YAML: {message}") from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(1, f"malformed YAML: {exc}") from None
