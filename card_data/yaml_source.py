"""YAML reading that remembers where every value came from, so errors can name a line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

Loc = tuple  # a path into the data: keys (str) and list indexes (int)

# libyaml's parser when PyYAML was built with it: ~10x faster on a large database; same nodes and marks.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlSyntaxError(Exception):
    """Malformed YAML; ``line`` is 1-based and ``message`` the parser's explanation."""

    def __init__(self, line: int, message: str):
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}")


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


def _construct(node: yaml.Node, loc: Loc, lines: LineMap, loader: Any) -> Any:
    lines.record(loc, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if isinstance(key, list):
                key = tuple(key)
            # A key's own line is where users look for it, not its value's first line.
            out[key] = _construct(value_node, loc + (key,), lines, loader)
            lines.record(loc + (key,), key_node.start_mark.line + 1)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, loc + (i,), lines, loader) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def load_yaml(path: Path) -> tuple[Any, LineMap]:
    """Read one YAML document from ``path``.

    Returns ``(data, line_map)``; an empty file gives ``None``.
    Raises :class:`YamlSyntaxError` for malformed YAML and ``OSError`` if unreadable.
    """
    text = Path(path).read_text(encoding="utf-8")
    loader = _Loader(text)
    lines = LineMap()
    try:
        node = loader.get_single_node()
        if node is None:
            return None, lines
        return _construct(node, (), lines, loader), lines
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
    finally:
        loader.dispose()
