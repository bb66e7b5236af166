"""Which language a phone gets: its chooser cookie, else its browser's Accept-Language."""

from __future__ import annotations

from .catalog import LANGUAGES

#: The cookie the page's language chooser keeps.
COOKIE = "pawnlight_lang"


def chosen(value: str | None) -> str | None:
    """A language from the chooser (``de``, ``de-AT``, ``FR``), or None when it is not one."""
    if not value:
        return None
    base = value.strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else None


def accepted(header: str | None) -> str | None:
    """The best language of an Accept-Language header pawnlight speaks, or None (RFC 9110:
    ``de-CH, fr;q=0.8, *;q=0.1``; a quality of 0 means "not this one")."""
    best: tuple[float, int, str] | None = None
    for position, item in enumerate((header or "").split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, number = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(number)
                except ValueError:
                    quality = 0.0
        language = chosen(tag)
        if language is None or quality <= 0:
            continue
        candidate = (-quality, position, language)
        if best is None or candidate < best:
            best = candidate
    return best[2] if best else None


def language(cookie: str | None, header: str | None, default: str = "en") -> str:
    """The phone's language: its choice, else its browser's, else ``default``."""
    return chosen(cookie) or accepted(header) or default
