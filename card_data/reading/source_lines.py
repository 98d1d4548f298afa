"""Where each record of a game is written, kept compact: a database of 10,000 cards holds one
entry per card for as long as it is loaded (a build's drawing process included).

A dict of ``(kind, id) -> (file, line)`` costs two tuples, an int and a slot per record, about
190 bytes; :class:`SourceLines` keeps one packed int per record in a dict per kind, about 80
bytes, and gives the same ``(file, line)`` back.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping

_LINE_BITS = 32
_LINE_MASK = (1 << _LINE_BITS) - 1


class SourceLines(MutableMapping[tuple[str, str], tuple[str, int]]):
    """``(kind, id) -> (file, line)`` (kind ``"card"``, ``"art"``, ``"deck"``, ``"glossary"``,
    ``"ruling"``...), a mapping like the dict it replaces: reading a key it does not hold
    raises ``KeyError``; iteration gives the keys kind by kind, each kind in insertion order.
    A line outside ``0 .. 2**32 - 1`` is kept as given, unpacked. Picklable."""

    __slots__ = ("_by_kind", "_files", "_file_index", "_odd")

    def __init__(self, entries: dict[tuple[str, str], tuple[str, int]] | None = None) -> None:
        self._by_kind: dict[str, dict[str, int]] = {}
        self._files: list[str] = []  # each file name once
        self._file_index: dict[str, int] = {}
        self._odd: dict[tuple[str, str], tuple[str, int]] = {}  # what does not pack (rare)
        for key, value in (entries or {}).items():
            self[key] = value

    def __setitem__(self, key: tuple[str, str], value: tuple[str, int]) -> None:
        kind, rid = key
        file, line = value
        self._odd.pop(key, None)
        if isinstance(line, int) and 0 <= line <= _LINE_MASK and isinstance(file, str):
            index = self._file_index.get(file)
            if index is None:
                index = self._file_index[file] = len(self._files)
                self._files.append(file)
            self._by_kind.setdefault(kind, {})[rid] = index << _LINE_BITS | line
        else:
            self._by_kind.get(kind, {}).pop(rid, None)
            self._odd[key] = value

    def __getitem__(self, key: tuple[str, str]) -> tuple[str, int]:
        packed = self._by_kind.get(key[0], {}).get(key[1]) if type(key) is tuple and len(key) == 2 else None
        if packed is None:
            return self._odd[key]  # KeyError (TypeError for an unhashable key), as a dict
        return self._files[packed >> _LINE_BITS], packed & _LINE_MASK

    def __delitem__(self, key: tuple[str, str]) -> None:
        if key in self._odd:
            del self._odd[key]
        elif type(key) is tuple and len(key) == 2 and key[1] in self._by_kind.get(key[0], {}):
            del self._by_kind[key[0]][key[1]]
        else:
            raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        if type(key) is tuple and len(key) == 2 and key[1] in self._by_kind.get(key[0], {}):
            return True
        return key in self._odd  # TypeError for an unhashable key, as a dict

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for kind, entries in self._by_kind.items():
            for rid in entries:
                yield kind, rid
        yield from self._odd

    def __len__(self) -> int:
        return sum(len(entries) for entries in self._by_kind.values()) + len(self._odd)

    def __repr__(self) -> str:
        return f"SourceLines({dict(self.items())!r})"

    def __getstate__(self) -> dict:
        return {"by_kind": self._by_kind, "files": self._files, "odd": self._odd}

    def __setstate__(self, state: dict) -> None:
        self._by_kind, self._files, self._odd = state["by_kind"], state["files"], state["odd"]
        self._file_index = {file: i for i, file in enumerate(self._files)}
