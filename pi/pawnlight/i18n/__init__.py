"""The family's own language: German, French and Spanish besides English (docs/languages.md).

The messages live in gettext catalogs in the package (``pawnlight/locale/<lang>/LC_MESSAGES/
pawnlight.po``); :func:`translations` compiles a catalog with the standard library's own format
(:mod:`gettext`, :mod:`pawnlight.i18n.catalog`) the first time it is used, so no build output is
kept in the repository.  English is the source language: its messages are the msgids.
"""

from __future__ import annotations

from .catalog import LANGUAGE_NAMES, LANGUAGES, translations, voice

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "translations", "voice"]
