"""The board's corrections as the page lists them, in the page's language: each correction's
catalog message rendered for this phone, and filling the STARTs of a new game as one line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pawnlight.board.guidance import Fix
from pawnlight.i18n.marks import N_
from pawnlight.i18n.message import render_json
from pawnlight.rules.board import START, Place, parse_colour

from . import language


def correction_lines(state: Mapping[str, Any]) -> list[dict[str, str]]:
    """The corrections as the page lists them, in the LEDs' order, with their square codes for
    the tap-to-show detail.  Filling the STARTs of a new game is one line, not sixteen:
    "Put 4 pawns in each START: red, blue"."""
    guidance = state.get("guidance")
    items = [g for g in guidance if isinstance(g, Mapping)] if isinstance(guidance, list) else []
    if not items:
        corrections = state.get("corrections") or []
        return [{"text": str(c), "code": ""} for c in corrections]
    messages = _mapping(state.get("said")).get("corrections")
    messages = messages if isinstance(messages, list) and len(messages) == len(items) else None
    starts: dict[str, int] = {}
    rest: list[tuple[Mapping[str, Any], object]] = []
    for n, item in enumerate(items):
        colour, target = item.get("colour"), item.get("to")
        if item.get("action") == Fix.PUT and is_start_of(target, colour):
            starts[str(colour)] = starts.get(str(colour), 0) + 1
        else:
            rest.append((item, messages[n] if messages is not None else None))
    lines = [
        {"text": _said_text(i.get("text", ""), said), "code": str(i.get("code", ""))}
        for i, said in rest
    ]
    for line in lines:
        line["text"] = line["text"][:1].upper() + line["text"][1:]
    if starts:
        code = ", ".join(f"put {n} on start:{c}" for c, n in starts.items())
        lines.append({"text": starts_line(starts), "code": code})
    return lines


def _said_text(english: object, said: object) -> str:
    """A correction in this request's language (its catalog message), else its English."""
    if language.current() != "en" and said is not None:
        rendered = render_json(said, language.current())
        if rendered:
            return rendered
    return str(english)


def starts_line(starts: Mapping[str, int]) -> str:
    """Filling the STARTs, one line in the page's language: ``Put 4 pawns in each START: red,
    blue`` (a whole sentence per case, the count by the language's plural rule)."""
    counts = set(starts.values())
    if len(counts) == 1:
        n = counts.pop()
        if len(starts) == 1:
            colour = next(iter(starts))
            return language.ngettext(
                "Put %(num)s %(colour)s pawn in %(colour)s START",
                "Put %(num)s %(colour)s pawns in %(colour)s START",
                n,
            ) % {"num": n, "colour": _lower_colour(colour)}
        return language.ngettext(
            "Put %(num)s pawn in each START: %(colours)s",
            "Put %(num)s pawns in each START: %(colours)s",
            n,
        ) % {"num": n, "colours": ", ".join(_lower_colour(c) for c in starts)}
    parts = [
        language.ngettext(
            "%(num)s %(colour)s pawn in %(colour)s START",
            "%(num)s %(colour)s pawns in %(colour)s START",
            n,
        )
        % {"num": n, "colour": _lower_colour(c)}
        for c, n in starts.items()
    ]
    return language.gettext(N_("Put %(pawns)s"), pawns="; ".join(parts))


def _lower_colour(colour: object) -> str:
    """A colour inside a sentence: ``red`` in English (as the page always wrote it), the
    language's own word elsewhere (German capitalises its nouns and adjectives' names alike)."""
    if language.current() == "en":
        return str(colour)
    return language.colour_name(colour)


def is_start_of(key: object, colour: object) -> bool:
    """Whether a guidance place key is the START of that colour (``start:red`` for red)."""
    try:
        return Place.parse(key) == Place(START, parse_colour(colour))  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return False


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}
