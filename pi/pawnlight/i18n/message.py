"""A sentence kept as a message id with its values, rendered in a language when it is shown.

The companion says what happened and what to do next once, for every phone and the voice; each
renders it in its own language at view time (docs/languages.md).  A :class:`Message` is a
catalog msgid (English, ``%(name)s`` placeholders) and its values: plain text, numbers, or
messages themselves (a colour's name, a card, a place on the board), translated the same way.
A count's message (:func:`count_msg`) has a singular and a plural msgid, and each language
chooses the form for its number by its own plural rule.
Sentences are never glued from translated fragments: every value fills a whole sentence of the
catalog, and each language's sentence puts it where its grammar wants it.

:class:`Said` is the English rendering as a plain ``str`` that still carries its message: the
companion's English fields stay the strings they always were, and text concatenated onto one
(an f-string) is plain ``str`` again, so nothing stale is ever translated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Union

from .catalog import translations

Value = Union[str, int, "Message"]
#: The value a count's message (one with a plural) chooses its form by.
COUNT = "num"


@dataclass(frozen=True)
class Message:
    """A catalog msgid and its values (sorted by name); ``capital``: its first letter upper.

    A count's message has its ``plural`` msgid too: the form is the language's plural rule's
    for the value ``num`` (French counts 0 as one), as ``ngettext`` chooses it."""

    id: str
    values: tuple[tuple[str, Value], ...] = ()
    capital: bool = False
    plural: str | None = None

    def render(self, language: str = "en") -> str:
        """The message in ``language`` (English: the msgid itself), its values filled in."""
        catalog = translations(language)
        if self.plural is None:
            text = catalog.gettext(self.id)
        else:
            text = catalog.ngettext(self.id, self.plural, self._count())
        if self.values:
            text = text % {
                name: value.render(language) if isinstance(value, Message) else value
                for name, value in self.values
            }
        return text[:1].upper() + text[1:] if self.capital else text

    def _count(self) -> int:
        count = dict(self.values).get(COUNT)
        if isinstance(count, int):
            return count
        raise ValueError(f"a count's message needs a number {COUNT!r}")

    def capitalised(self) -> Message:
        return replace(self, capital=True)

    def to_json(self) -> dict[str, Any]:
        """``{"id": ..., "values": {...}}`` (a value that is a message: the same shape), plus
        ``"capital": true`` when the first letter is upper case.  Made once per message and
        shared (a state is JSON after every input): never change it."""
        return self._json

    @cached_property
    def _json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "values": {
                name: value.to_json() if isinstance(value, Message) else value
                for name, value in self.values
            },
        }
        if self.capital:
            data["capital"] = True
        if self.plural is not None:
            data["plural"] = self.plural
        return data

    @classmethod
    def from_json(cls, data: object) -> Message:
        """The message :meth:`to_json` wrote; ValueError for anything else."""
        if not isinstance(data, Mapping) or not isinstance(data.get("id"), str):
            raise ValueError("a message is an object with a string id")
        values = data.get("values") or {}
        if not isinstance(values, Mapping):
            raise ValueError("a message's values are an object")
        parsed: list[tuple[str, Value]] = []
        for name, value in values.items():
            if isinstance(value, Mapping):
                parsed.append((str(name), cls.from_json(value)))
            elif isinstance(value, str | int) and not isinstance(value, bool):
                parsed.append((str(name), value))
            else:
                raise ValueError(f"a message's value {name!r} is not text, a number or a message")
        plural = data.get("plural")
        if plural is not None and not isinstance(plural, str):
            raise ValueError("a message's plural is a string")
        made = cls(data["id"], tuple(sorted(parsed)), bool(data.get("capital")), plural)
        if plural is not None:
            made._count()
        return made


def msg(message_id: str, **values: Value) -> Message:
    """``msg(N_("%(colour)s's turn"), colour=...)``: a message with its values."""
    return Message(message_id, tuple(sorted(values.items())))


def count_msg(forms: tuple[str, str], num: int, **values: Value) -> Message:
    """``count_msg(NN_("%(num)s card to go", "%(num)s cards to go"), 3)``: a count's message,
    its form chosen by ``num`` in each language when it is rendered."""
    singular, plural = forms
    return Message(singular, tuple(sorted({**values, COUNT: num}.items())), plural=plural)


class Said(str):
    """A message's English rendering, as a ``str`` that carries the message (``said``)."""

    said: Message

    def __new__(cls, message: Message) -> Said:
        text = super().__new__(cls, message.render())
        text.said = message
        return text


def say(message: Message) -> Said:
    return Said(message)


def said_of(text: object) -> Message | None:
    """The message behind ``text`` (None for plain text)."""
    return text.said if isinstance(text, Said) else None


def render_json(data: object, language: str) -> str | None:
    """A message as :meth:`Message.to_json` wrote it, in ``language``; None when it is not
    one (or its catalog entry does not fit its values)."""
    try:
        return Message.from_json(data).render(language)
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
