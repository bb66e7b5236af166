"""Text for an 80-column terminal: every command's report wraps here, so none runs wider.

A builder reads these reports in an SSH window or pastes them into a forum; a long finding
is wrapped at word boundaries with its continuation lines indented under its first word.  A
single word longer than a line (a file's path) is left whole: a broken path cannot be copied.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

#: The width every terminal report fits (a classic terminal, and a phone's SSH app).
WIDTH = 80


def wrap(text: str, indent: str = "", hang: str | None = None, width: int = WIDTH) -> list[str]:
    """``text`` as lines of at most ``width`` columns: the first indented by ``indent``, the
    rest by ``hang`` (default: two more spaces than ``indent``)."""
    hang = indent + "  " if hang is None else hang
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=indent,
        subsequent_indent=hang,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [indent.rstrip()]


def wrap_all(texts: Iterable[str], indent: str = "", hang: str | None = None) -> list[str]:
    """Several paragraphs, each wrapped as by :func:`wrap`."""
    return [line for text in texts for line in wrap(text, indent, hang)]
