"""The compiled rules core (setup.py, pawnlight/rules/compiled.py): built where it can be, the same
games as its source, and never run once its source has changed."""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from pawnlight.rules import compiled

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]

COMPILER = (sysconfig.get_config_var("CC") or "cc").split()[0]
can_compile = (
    bool(shutil.which(COMPILER)) and Path(sysconfig.get_paths()["include"], "Python.h").exists()
)
is_built = bool(compiled.built_modules())


def test_setup_compiles_exactly_the_modules_the_fallback_knows():
    tree = ast.parse((ROOT / "setup.py").read_text())
    listed = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED"
    )
    assert isinstance(listed, ast.List)
    stems = tuple(Path(ast.literal_eval(listed)[i]).stem for i in range(len(listed.elts)))
    assert stems == compiled.MODULES


@pytest.mark.skipif(bool(os.environ.get("PAWNLIGHT_PURE_PYTHON")), reason="pure Python asked for")
@pytest.mark.skipif(not can_compile, reason="no C compiler or Python headers: pure Python build")
@pytest.mark.skipif(
    importlib.util.find_spec("mypyc") is None,
    reason="mypyc is not installed (scripts/build-requirements.txt): pure Python build",
)
def test_the_rules_core_runs_compiled_where_a_compiler_is():
    # The speed figures of docs/rules-core.md are the compiled core's; a build that silently
    # stayed pure Python (mypyc refusing a type, say) or went stale must not pass unnoticed.
    assert compiled.is_compiled(), compiled.describe()
    assert compiled.describe() == "rules core: compiled (mypyc)"


def _fake_build(folder: Path, sources: dict[str, str]) -> None:
    for name, text in sources.items():
        (folder / f"{name}.py").write_text(text)
        (folder / f"{name}{SUFFIX}").write_bytes(b"")
    digests = {name: compiled.digest(folder / f"{name}.py") for name in sources}
    (folder / compiled.SOURCES_FILE).write_text(json.dumps(digests))


def test_a_build_matches_its_sources_until_one_changes(tmp_path):
    assert compiled.stale_modules(tmp_path) == []  # nothing built: nothing stale
    _fake_build(tmp_path, {"moves": "x = 1\n", "game": "y = 2\n"})
    assert compiled.built_modules(tmp_path) == ["game", "moves"]
    assert compiled.stale_modules(tmp_path) == []
    (tmp_path / "moves.py").write_text("x = 2\n")
    assert compiled.stale_modules(tmp_path) == ["moves"]


@pytest.mark.parametrize("record", [None, "not json", "[1, 2]"])
def test_a_build_with_no_readable_record_is_trusted_nowhere(tmp_path, record):
    _fake_build(tmp_path, {"moves": "x = 1\n"})
    if record is None:
        (tmp_path / compiled.SOURCES_FILE).unlink()
    else:
        (tmp_path / compiled.SOURCES_FILE).write_text(record)
    assert compiled.stale_modules(tmp_path) == ["moves"]


# Seeded random games of every edition, partners and house rules included; each move's notation,
# every forfeit and the final position, as JSON: the same in both builds or one of them is wrong.
_GAMES = """
import json, random, sys
from pawnlight.rules import Deck, Game, GameConfig, compiled, move_text
out = {"build": compiled.describe(), "games": []}
for seed in range(24):
    edition = ("hasbro-2002", "parker-1950", "parker-1939")[seed % 3]
    config = GameConfig(
        edition=edition,
        teams=seed % 2 == 0,
        house_rules=("diamond-lock", "strict-own-landing") if seed % 4 == 1 else (),
    )
    game, deck, rng = Game(config), Deck(random.Random(seed)), random.Random(seed + 100)
    played = []
    while not game.over and len(played) < 400:
        options = game.draw(deck.draw())
        if options.moves:
            move = rng.choice(options.moves)
            played.append(move_text(move) + " " + str(move.after))
            game.play(move)
        else:
            played.append("-")
    out["games"].append(played)
json.dump(out, sys.stdout)
"""


def _games(pure: bool, script: str = _GAMES) -> dict:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    env.pop("PAWNLIGHT_PURE_PYTHON", None)
    if pure:
        env["PAWNLIGHT_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.skipif(not is_built, reason="the rules core is not compiled here")
def test_the_compiled_core_plays_the_same_games_as_its_source():
    built, source = _games(pure=False), _games(pure=True)
    assert built["build"] == "rules core: compiled (mypyc)"
    assert source["build"].startswith("rules core: pure Python (PAWNLIGHT_PURE_PYTHON")
    assert sum(len(game) for game in built["games"]) > 2000
    assert built["games"] == source["games"]


# Cards as people and JSON give them, good and bad: compiled functions check their arguments'
# types themselves, which must not turn a clear ValueError into a TypeError.
_CARDS_GIVEN = """
import json, sys
from pawnlight.rules import EDITIONS, Game, GameConfig, Position, compiled, legal_options
answers = []
start, edition = Position.initial(range(4)), EDITIONS["parker-1950"]
for card in ("7", 7, " Sorry! ", "seven", None, ["5"], 7.0, True):
    for ask in (
        lambda: len(Game(GameConfig()).draw(card).moves),
        lambda: len(legal_options(start, 0, card, edition).moves),
    ):
        try:
            answers.append(ask())
        except Exception as error:
            answers.append(f"{type(error).__name__}: {error}")
json.dump({"build": compiled.describe(), "answers": answers}, sys.stdout)
"""


@pytest.mark.skipif(not is_built, reason="the rules core is not compiled here")
def test_cards_given_any_way_get_the_same_answers_compiled_and_as_python():
    built, source = _games(pure=False, script=_CARDS_GIVEN), _games(pure=True, script=_CARDS_GIVEN)
    assert built["build"] != source["build"]
    assert built["answers"] == source["answers"]
    assert built["answers"][:6] == [0, 0, 0, 0, 0, 0]  # "7", 7 and " Sorry! " are cards
    assert all(answer.startswith("ValueError: unknown card") for answer in built["answers"][6:])


@pytest.mark.skipif(not is_built, reason="the rules core is not compiled here")
def test_a_changed_source_runs_as_python_with_a_warning(tmp_path):
    # A copy of the installed package whose notation.py was edited after the build.
    copy = tmp_path / "pawnlight"
    shutil.copytree(
        Path(compiled.__file__).parent.parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    edited = copy / "rules" / "notation.py"
    edited.write_text(edited.read_text() + "\n# an edit after the build\n")
    check = (
        "import pawnlight.rules.moves as m, pawnlight.rules.compiled as c;"
        "print(m.__file__); print(c.describe())"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("PAWNLIGHT_PURE_PYTHON", None)
    done = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    moves_file, described = done.stdout.splitlines()
    assert moves_file == str(copy / "rules" / "moves.py")
    assert "notation.py changed since it was built" in described
    assert "scripts/setup-env rebuilds it" in done.stderr
    # ... and `python -m pawnlight.rules.compiled`, what scripts/setup-env asks, says so.
    asked = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "pawnlight.rules.compiled"], env=env, timeout=60
    )
    assert asked.returncode == 1


def test_version_says_how_the_rules_core_runs(capsys):
    from pawnlight import __version__
    from pawnlight.cli import main

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.splitlines() == [f"pawnlight {__version__}", compiled.describe()]
    assert compiled.describe().startswith("rules core: ")
