"""Build hook: the rules core's hot modules compiled to C with mypyc, where a compiler exists.

Everything else about the package is in pyproject.toml.  The rules core is plain, fully typed
Python; mypyc (the compiler mypy ships, the one black is built with) turns the modules listed
below into C extensions that run the same code two to three times faster (docs/rules-core.md).
Where that cannot happen (no C compiler or Python headers, an unusual platform, or
``PAWNLIGHT_PURE_PYTHON=1`` in the environment) the build goes on without them and the same
modules run as Python: slower, never different.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: The modules compiled: the move generator and what it calls on every move.  Kept in step with
#: pawnlight/rules/compiled.py, which falls back to their source when a build is stale.
COMPILED = [
    "pi/pawnlight/rules/cards.py",
    "pi/pawnlight/rules/editions.py",
    "pi/pawnlight/rules/game.py",
    "pi/pawnlight/rules/moves.py",
    "pi/pawnlight/rules/notation.py",
    "pi/pawnlight/rules/position.py",
]


class OptionalBuildExt(build_ext):
    """Build the C extensions if possible; without them the package is complete, only slower."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any failure only means "stay pure Python"
            _skip(f"could not build the compiled rules core ({error})")
            return
        if self.extensions:
            self._record_sources()

    def _record_sources(self) -> None:
        """Beside the compiled modules, each one's source digest: pawnlight/rules/compiled.py
        runs the sources instead when they no longer match (an edit after an editable install)."""
        folder = Path(self.get_ext_fullpath("pawnlight.rules.moves")).parent
        digests = {
            Path(source).stem: hashlib.sha256(Path(source).read_bytes()).hexdigest()
            for source in COMPILED
        }
        (folder / "compiled-sources.json").write_text(json.dumps(digests, indent=1) + "\n")

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            _skip(f"could not compile {ext.name} ({error})")


def _skip(why: str) -> None:
    print(f"pawnlight build: {why}; the rules core runs as pure Python", file=sys.stderr)


def _extensions() -> list:
    if os.environ.get("PAWNLIGHT_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _skip("mypyc is not installed")
        return []
    try:
        # group_name names the shared support library inside the package, not at the top level.
        return mypycify(COMPILED, opt_level="3", group_name="pawnlight.rules._native")
    except BaseException as error:  # mypyc exits (SystemExit) on a type error
        _skip(f"mypyc refused the rules core ({error!r})")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
