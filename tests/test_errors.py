"""One root for pawnlight's exceptions (pawnlight.errors): every exception class the package
defines derives from PawnlightError, and keeps the built-in base its callers catch it by."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import pawnlight
import pawnlight.web
from pawnlight.board.layout import LayoutError
from pawnlight.errors import PawnlightError
from pawnlight.players.table import StuckGameError
from pawnlight.rules.game import GameError
from pawnlight.rules.notation import NotationError

#: Runs on the Pico under MicroPython too, where pawnlight.errors does not exist.
MICROPYTHON = "pawnlight.firmware"


def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of pawnlight (and pawnlight.web), by its
    dotted name."""
    found: dict[str, type[BaseException]] = {}
    for package in (pawnlight, pawnlight.web):
        for module_info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            name = module_info.name
            if name == MICROPYTHON or name.startswith(MICROPYTHON + "."):
                continue
            module = importlib.import_module(name)
            for value in vars(module).values():
                if (
                    inspect.isclass(value)
                    and issubclass(value, BaseException)
                    and value.__module__ == name
                ):
                    found[f"{name}.{value.__qualname__}"] = value
    return found


def test_every_exception_class_derives_from_the_root():
    classes = exception_classes()
    assert "pawnlight.rules.game.GameError" in classes  # the walk found the package
    assert "pawnlight.web.errors.ApiError" in classes
    outside = sorted(name for name, cls in classes.items() if not issubclass(cls, PawnlightError))
    assert not outside, f"derive these from pawnlight.errors.PawnlightError: {outside}"


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (GameError, ValueError),
        (NotationError, ValueError),
        (LayoutError, ValueError),
        (StuckGameError, RuntimeError),
    ],
)
def test_the_built_in_bases_stay(error, builtin):
    """``except ValueError`` around a rule check still catches a GameError."""
    assert issubclass(error, builtin)
    assert issubclass(error, PawnlightError)
