"""The two readings of a YAML file (:mod:`card_data.reading.yaml_source`) give the same result.

A plain document (no alias; a card file) is read by libyaml's own composer, about twice as
fast; every other document, and every document when libyaml does not bound nesting itself, by
the bounded composer, which checks aliases and nesting as it composes. Whichever reads a file,
what the caller gets must be the same: the data, the line of every value, the keys written
twice, or the error and its line. The hostile-data tests (tests/test_hostile_card_data.py)
run on both readings too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from card_data.reading import yaml_source
from card_data.reading.yaml_source import YamlSyntaxError, load_yaml

ROOT = Path(__file__).resolve().parent.parent
BUNDLED_YAML = sorted(p for folder in ("card_data/games", "templates") for p in (ROOT / folder).rglob("*.yaml"))

SNIPPETS = {
    "duplicate-key": "a: 1\na: 2\n",
    "duplicate-in-flow": "- {x: 1, x: 2}\n- [1, 2]\n",
    "duplicate-deep": "- id: x\n  rulings:\n    - text: hi\n      text: again\n",
    "duplicate-int-key": "k: {1: a, 1: b}\n",
    "str-and-int-key": "? !!str 1\n: 1\n1: 2\n",
    "bad-int-tag": "a: !!int lots\n",
    "unknown-tag": "a: !custom 1\n",
    "list-key": "? [a, [b]]\n: 1\n",
    "flat-list-key": "? [a, b]\n: 1\n",
    "mapping-key": "k: {? [a]: 1}\n",
    "merge-alias": "base: &b {p: 1}\nk:\n  <<: *b\n  p: 2\n",
    "merge-inline": "k:\n  <<: {p: 1, p: 3}\n  p: 2\n  q: 1\n  q: 2\n",
    "merge-list": "k:\n  <<: [{p: 1}, {r: 2}]\n  p: 2\n",
    "merge-empty-alias": "a: &x {}\nb: {<<: *x}\n",
    "alias-scalar": "x: &s hello\ny: *s\n",
    "alias-item": "- a\n- &x b\n- *x\n",
    "recursive-mapping": "a: &x\n  b: *x\n",
    "recursive-list": "a: &e [*e]\n",
    "undefined-alias": "a: *undefined\n",
    "anchor-twice": "a: &x 1\nb: &x 2\n",
    "nested-100": "{a: " * 100 + "1" + "}" * 100 + "\n",
    "nested-101": "{a: " * 101 + "1" + "}" * 101 + "\n",
    "lists-100": "[" * 100 + "]" * 100 + "\n",
    "lists-101": "[" * 101 + "]" * 101 + "\n",
    "lists-150": "[" * 150 + "]" * 150 + "\n",
    "empty": "",
    "comment-only": "# nothing\n",
    "two-documents": "---\na: 1\n---\nb: 2\n",
    "unclosed-list": "a: [1, 2\n",
    "unclosed-quote": "a: 'x\n",
    "scalars": "a: 2001-01-01\nb: 1.5\nc: null\nd: yes\ne: !!binary aGk=\nf: ~\ng: '1'\n",
    "empty-collections": "a: {}\nb: []\nc: {<<: {}}\n",
    "tab": "\ttab: 1\n",
    "mapping-in-scalar": "a: b: c\n",
}


def read(path: Path, *, bounded: bool, monkeypatch) -> list[tuple]:
    """What :func:`load_yaml` gives for ``path``, refusing and collecting duplicate keys:
    ``("ok", data, {loc: line}, duplicates)`` or ``("error", line, message)`` each."""
    with monkeypatch.context() as patch:
        if bounded:
            patch.setattr(yaml_source, "_libyaml_composes_safely", lambda: False)
        out = []
        for collect in (False, True):
            duplicates: list = []
            try:
                data, lines = load_yaml(path, duplicates if collect else None)
            except YamlSyntaxError as exc:
                out.append(("error", type(exc).__name__, exc.line, exc.message))
                continue
            out.append(("ok", data, dict(lines._lines),
                        [(d.loc, d.line, d.first_line, d.key) for d in duplicates]))
        return out


def count_bounded_readings(monkeypatch) -> list[str]:
    """A list that gets an entry each time the bounded composer reads a document."""
    calls: list[str] = []
    bounded = yaml_source._read_bounded
    monkeypatch.setattr(yaml_source, "_read_bounded", lambda text: calls.append(text) or bounded(text))
    return calls


@pytest.mark.parametrize("path", BUNDLED_YAML, ids=lambda p: str(p.relative_to(ROOT)))
def test_both_readings_agree_on_every_bundled_file(path, monkeypatch):
    assert read(path, bounded=False, monkeypatch=monkeypatch) == read(path, bounded=True, monkeypatch=monkeypatch)


@pytest.mark.parametrize("name", SNIPPETS)
def test_both_readings_agree_on_odd_and_hostile_yaml(name, tmp_path, monkeypatch):
    path = tmp_path / "f.yaml"
    path.write_text(SNIPPETS[name], encoding="utf-8")
    assert read(path, bounded=False, monkeypatch=monkeypatch) == read(path, bounded=True, monkeypatch=monkeypatch)


def test_a_plain_card_file_is_read_by_libyaml_and_an_aliased_one_by_the_bounded_composer(tmp_path, monkeypatch):
    """Else the agreement above would compare the bounded reading with itself."""
    calls = count_bounded_readings(monkeypatch)
    cards = ROOT / "card_data" / "games" / "cahrd" / "cards" / "items.yaml"
    data, lines = load_yaml(cards)
    assert data and lines.line_for((0, "id")) > 1 and calls == []
    aliased = tmp_path / "aliased.yaml"
    aliased.write_text("base: &b {p: 1}\ncopy: *b\n", encoding="utf-8")
    assert load_yaml(aliased)[0] == {"base": {"p": 1}, "copy": {"p": 1}} and len(calls) == 1
