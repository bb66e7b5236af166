"""Whether the rules core runs compiled, and its pure-Python fallback.

``setup.py`` compiles the modules in :data:`MODULES` with mypyc where a C compiler exists and
records a digest of each source it compiled.  A compiled module is only ever the code its source
says: when a source has changed since (an edit, a checkout) the compiled modules are set aside
and all of them run from source, with a warning naming what to rerun.  ``PAWNLIGHT_PURE_PYTHON=1``
does the same on purpose (to compare, or to debug with Python's own tools).

This module imports nothing from the rules core, and ``pawnlight.rules`` imports it first, so
:func:`choose` has decided before any of the modules it decides about is imported.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

#: The rules core's compiled modules (the list setup.py compiles).
MODULES = ("cards", "editions", "game", "moves", "notation", "position")
#: Written by setup.py beside the compiled modules: each source's SHA-256 at compile time.
SOURCES_FILE = "compiled-sources.json"

_HERE = Path(__file__).resolve().parent
_PACKAGE = __name__.rpartition(".")[0]


def digest(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def built_modules(directory: Path = _HERE) -> list[str]:
    """The modules that have a compiled extension beside their source."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return [
        name
        for name in MODULES
        if any((directory / f"{name}{suffix}").exists() for suffix in suffixes)
    ]


def stale_modules(directory: Path = _HERE) -> list[str]:
    """Compiled modules whose source is not the one they were compiled from (or unknown)."""
    built = built_modules(directory)
    if not built:
        return []
    try:
        recorded = json.loads((directory / SOURCES_FILE).read_text())
    except (OSError, ValueError):
        return built  # no record of what was compiled: trust none of it
    if not isinstance(recorded, dict):
        return built
    return [name for name in built if recorded.get(name) != digest(directory / f"{name}.py")]


class _FromSource(importlib.abc.MetaPathFinder):
    """Finds the listed modules as their ``.py`` source, ahead of the compiled extensions."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.names = {f"{_PACKAGE}.{name}" for name in MODULES}

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        source = self.directory / f"{fullname.rpartition('.')[2]}.py"
        return importlib.util.spec_from_file_location(fullname, source)


#: Why the rules core runs from source although compiled modules are built; None otherwise.
fallback_reason: str | None = None


def choose(directory: Path = _HERE) -> None:
    """Run the rules core from source if it was asked for or the compiled build is stale.

    All or nothing: compiled modules call each other directly, so a compiled ``game`` beside a
    ``moves`` run from source would still use the old compiled ``moves``.
    """
    global fallback_reason
    if any(isinstance(finder, _FromSource) for finder in sys.meta_path):
        return
    if os.environ.get("PAWNLIGHT_PURE_PYTHON"):
        fallback_reason = "PAWNLIGHT_PURE_PYTHON is set"
    else:
        stale = stale_modules(directory)
        if not stale:
            return
        fallback_reason = (
            f"the compiled rules core is older than its source ({', '.join(stale)}.py changed "
            "since it was built): running it as Python, slower; scripts/setup-env rebuilds it"
        )
        warnings.warn(f"pawnlight: {fallback_reason}", RuntimeWarning, stacklevel=2)
    sys.meta_path.insert(0, _FromSource(directory))


def is_compiled() -> bool:
    """Whether the move generator in use is the compiled one."""
    moves = sys.modules.get(f"{_PACKAGE}.moves")
    if moves is None:
        return False
    return isinstance(getattr(moves, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def describe() -> str:
    """One line for benchmarks and ``--version``: how the rules core runs."""
    if is_compiled():
        return "rules core: compiled (mypyc)"
    if fallback_reason:
        return f"rules core: pure Python ({fallback_reason})"
    return "rules core: pure Python (not compiled: no C compiler or mypyc at install time)"


choose()

if __name__ == "__main__":
    # scripts/setup-env asks this: exit 1 when the compiled build no longer matches its source.
    sys.exit(1 if stale_modules() else 0)
