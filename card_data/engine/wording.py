"""Words the rule engines say to players, kept translatable without the engines knowing how.

An engine is pure Python and speaks English. What it says to a player (a move's name, a form
field's title, a rule error, a line of the table's history) is made with :class:`Words`, which
*is* the English ``str`` everywhere (comparisons, JSON, logs, tests) and also remembers the
message it was made from, so that the companion can say it in the page's language
(:func:`companion.web.language.say`: the template looked up in the gettext catalogue, then filled).

``tools/translations.sh`` finds the templates by the keyword ``Words``: the engine core's for
the shared catalogue (``companion/babel.cfg``), each game's in its own folder for that game's
catalogue (``companion/babel-game.cfg``, ``card_data/games/<game>/translations/``).
"""

from __future__ import annotations

from typing import Annotated, Any, Self

from pydantic import GetCoreSchemaHandler, ValidatorFunctionWrapHandler, WrapValidator
from pydantic_core import CoreSchema, core_schema


class Words(str):
    """English text that remembers its message: ``Words(template, **params)``.

    ``template`` is an English message with ``%(name)s`` / ``%(name)d`` placeholders (a
    literal, so that it can be extracted); ``params`` fill them and may themselves be
    :class:`Words` (translated in turn) or numbers. The instance equals the filled text::

        >>> w = Words("%(player)s places a building", player="Anna")
        >>> w == "Anna places a building", w.template, w.params
        (True, '%(player)s places a building', {'player': 'Anna'})

    A template without params is used as it is (no ``%`` processing). Building a new string
    from Words (``+``, f-strings, ``join``) gives a plain ``str``, which pages show as written:
    compose with another template instead. Raises ``KeyError``/``TypeError`` as ``%`` does for
    params that do not fit the template.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Self:
        self = super().__new__(cls, template % params if params else template)
        self.template = template
        self.params = params
        return self

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        # pydantic sees Words as a str kept as it is (see Said): so it can write one as JSON,
        # e.g. a field's default in a JSON schema.
        return core_schema.no_info_wrap_validator_function(_keep_words, handler(str))

    def __reduce__(self):
        # Pickled and copied as made (the default would call __new__ with the filled text).
        return (_remake, (self.template, self.params))


def _remake(template: str, params: dict[str, Any]) -> Words:
    """Unpickle :class:`Words` (keyword params cannot go through ``__reduce__`` directly)."""
    return Words(template, **params)


def _keep_words(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """Validator of :data:`Said`: a :class:`Words` as it is, anything else as a ``str`` field."""
    return value if isinstance(value, Words) else handler(value)


Said = Annotated[str, WrapValidator(_keep_words)]
"""A pydantic field type for text said to players: validated as ``str`` (a non-string is
refused as for ``str``), except that a :class:`Words` is kept as it is. pydantic turns a
``str`` subclass into a plain ``str`` for a field typed ``str``, losing what a page needs to
translate it; JSON and the JSON schema still see a plain string. Use it for every model field
that carries words to a page (e.g. :class:`card_data.engine.Outcome`'s ``summary``)."""
