"""The messages the code and the templates use, and how each catalog stands against them.

``python -m pawnlight.i18n.extract`` lists, per language, the messages its catalog is missing
and those it has that nothing uses (the test suite fails on either: tests/test_i18n.py).
Messages are found as gettext's own tools find them: the literal first argument of ``_()``,
``N_()``, ``gettext()``, ``ngettext()`` and ``NN_()`` in Python, and Jinja's i18n calls in
templates.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

from jinja2 import Environment

from .catalog import LANGUAGES, po_path, read_po

PACKAGE = Path(__file__).resolve().parent.parent
#: Where messages are written: the package and the web page (its own folder in a checkout).
WEB = PACKAGE.parent.parent / "web"
CALLS = {"_", "N_", "NN_", "gettext", "ngettext"}
#: The calls whose first two arguments are a count's singular and plural.
PLURAL_CALLS = {"ngettext", "NN_"}


def sources() -> Iterator[Path]:
    folders = [PACKAGE] + ([WEB] if WEB.is_dir() else [])
    for folder in folders:
        yield from sorted(folder.rglob("*.py"))
        yield from sorted(folder.rglob("*.html"))


def python_messages(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in CALLS:
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            if name in PLURAL_CALLS and len(node.args) > 1:
                second = node.args[1]
                if isinstance(second, ast.Constant) and isinstance(second.value, str):
                    yield first.value + "\x00" + second.value
                    continue
            yield first.value


def template_messages(path: Path) -> Iterator[str]:
    env = Environment(extensions=["jinja2.ext.i18n"])
    source = path.read_text(encoding="utf-8")
    for _line, _func, message in env.extract_translations(source):  # type: ignore[attr-defined]
        if isinstance(message, str):
            yield message
        elif isinstance(message, tuple) and message and isinstance(message[0], str):
            strings = [m for m in message if isinstance(m, str)]
            yield "\x00".join(strings[:2]) if len(strings) > 1 else strings[0]


def used() -> dict[str, list[str]]:
    """Every message the code and templates use, with the files that use it."""
    found: dict[str, list[str]] = {}
    for path in sources():
        reader = python_messages if path.suffix == ".py" else template_messages
        for message in reader(path):
            found.setdefault(message, []).append(path.name)
    return found


def report(language: str) -> tuple[list[str], list[str]]:
    """The messages ``language``'s catalog is missing, and those nothing uses."""
    wanted = set(used())
    have = {k for k in read_po(po_path(language)) if k}
    return sorted(wanted - have), sorted(have - wanted)


def main() -> int:
    bad = False
    for language in LANGUAGES[1:]:
        missing, unused = report(language)
        for message in missing:
            print(f"{language}: missing {message!r}")
        for message in unused:
            print(f"{language}: unused {message!r}")
        bad = bad or bool(missing or unused)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
