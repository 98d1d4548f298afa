"""What the tests of each rule engine's words (tests/test_wording_<game>.py) check alike: that a
text a player reads is :class:`~card_data.engine.Words` whose templates, nested ones included,
have a German translation, and how it reads in German (as the companion's ``say()`` fills it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from catalogues import german_mo, german_po

from card_data.engine import Words

GERMAN_PO = german_po()
"""The German catalogues as written (the shared one and each bundled game's): template ->
translation, translated messages only."""
GERMAN_MO = german_mo()
"""The compiled catalogues, merged as the companion reads them."""


def untranslated(text: object, where: str, plain_ok: Callable[[str, str], bool]) -> Iterator[str]:
    """What is wrong with ``text`` as something a player reads (nothing if it is fine): a
    template without German, or a plain ``str`` that ``plain_ok(text, where)`` does not allow
    (names from the data, numbers); ``where`` names the text in the messages, `` › <param>``
    appended for a param."""
    if isinstance(text, Words):
        if text.template not in GERMAN_PO:
            yield f"{where}: template not translated: {text.template!r}"
        for key, value in text.params.items():
            yield from untranslated(value, f"{where} › {key}", plain_ok)
    elif isinstance(text, str):
        if not plain_ok(text, where):
            yield f"{where}: plain str, not Words: {text!r}"
    elif not isinstance(text, int | float):
        yield f"{where}: unexpected {type(text).__name__}: {text!r}"


def german(text: object) -> object:
    """``text`` filled in German from the compiled catalogue (as the companion's say() does);
    raises ``KeyError``/``TypeError`` for a translation whose placeholders do not fit."""
    if not isinstance(text, Words):
        return text
    template = GERMAN_MO.gettext(text.template)
    if not text.params:
        return template
    return template % {key: german(value) for key, value in text.params.items()}
