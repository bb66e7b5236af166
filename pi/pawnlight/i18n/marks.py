"""The mark for messages written in one place and translated where they are used."""

from __future__ import annotations


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs (the extractor finds it); returns it unchanged."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a count's two messages for the catalogs (found as ``ngettext`` finds them); returns
    them unchanged, for :func:`pawnlight.i18n.message.count_msg`."""
    return singular, plural
