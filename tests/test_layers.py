"""No import runs upward: every module's imports, read with ``ast``, against the layers below.

The rule is data (``LAYER_OF``, ``ORDER``, ``SIDE``), the same picture as docs/architecture.md.
Every import counts, also those inside functions and under ``TYPE_CHECKING``: a lazy import is
still a dependency.  A new package fails here until it is given a layer.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Where each importable name's source lives (as pyproject.toml's package-dir maps them).
SOURCES = {
    "pawnlight": ROOT / "pi" / "pawnlight",
    "pawnlight.web": ROOT / "web",
    "pawnlight.firmware": ROOT / "firmware",
    "pawnlight_lab": ROOT / "lab" / "pawnlight_lab",  # the player lab, its own distribution
    # the hardware generators, their own distribution
    "pawnlight_hardware": ROOT / "hardware" / "pawnlight_hardware",
}

#: Every package (or top-level module) and its layer; the longest matching prefix wins.
LAYER_OF = {
    "pawnlight": "shared",  # the package itself: its version
    "pawnlight.strict_json": "shared",
    "pawnlight.errors": "shared",  # PawnlightError, the root of every exception class
    "pawnlight.background": "shared",  # a stoppable background thread
    "pawnlight.terminal_text": "shared",
    "pawnlight.i18n": "shared",  # the catalogs and the choice of a language
    "pawnlight.firmware": "shared",  # the link protocol, shared with the Pico's MicroPython
    "pawnlight.layouts": "shared",  # data files only
    "pawnlight.rules": "rules",
    "pawnlight.board": "board",
    "pawnlight.store": "store",
    "pawnlight.devices": "devices",
    "pawnlight.players": "players",
    "pawnlight.remote": "remote",  # remote play's values: protocol, live summary, club view
    "pawnlight.remote.link": "remote_link",  # remote play's MQTT client, threads, broker, demo
    "pawnlight.companion": "companion",
    "pawnlight.web": "web",
    "pawnlight.runtime": "runtime",
    "pawnlight_hardware": "hardware",
    "pawnlight.diagnostics": "diagnostics",
    "pawnlight.terminal_game": "cli",
    "pawnlight.cli": "cli",
    "pawnlight_lab": "lab",
}

#: The layers, low to high.  A module may import its own layer and the rows below it; the
#: layers of one row are siblings that never import each other.  The web sits below the
#: runtime: the daemon starts the web server, and the web only ever reaches the running
#: companion through the Service it is given (companion.service).  Remote play's running parts
#: (remote.link: MQTT, threads, the broker) sit between them: the club's subscriber serves the
#: club page, the daemon starts the board's link; remote play's values (remote) sit low.
ORDER: list[set[str]] = [
    {"shared"},
    {"rules"},
    {"board"},
    {"store", "devices", "players", "remote"},
    {"companion"},
    {"web"},
    {"remote_link"},
    {"runtime"},
    {"cli"},
]

#: Packages beside the stack: (the layers they may import, the only layers that may import
#: them).  Nothing the running companion needs lives in them.
SIDE: dict[str, tuple[set[str], set[str]]] = {
    # The hardware generators (hardware/pawnlight_hardware): the builder's desk, never on a Pi.
    # They read the board model and write files; nothing of the Pi's package imports them (the
    # command line finds them through their entry point).
    "hardware": ({"shared", "rules", "board", "devices"}, set()),
    "diagnostics": (
        {"shared", "rules", "board", "store", "devices"},
        {"cli"},
    ),
    # The player lab (lab/): training and measuring the players, never run by the board.  It
    # reads the players and writes their weights; nothing of the Pi's package imports it.
    "lab": ({"shared", "rules", "board", "players"}, set()),
}

RANK = {layer: rank for rank, row in enumerate(ORDER) for layer in row}


def layer_of(module: str) -> str | None:
    best = None
    for prefix in LAYER_OF:
        # "pawnlight" is the package's own __init__ only: a new top-level module needs a row.
        inside = module.startswith(prefix + ".") and prefix != "pawnlight"
        if (module == prefix or inside) and (best is None or len(prefix) > len(best)):
            best = prefix
    return None if best is None else LAYER_OF[best]


def modules() -> dict[str, Path]:
    """Every module of pawnlight by its dotted name."""
    found: dict[str, Path] = {}
    for base, folder in SOURCES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if any(part.startswith(".") or part in ("static", "__pycache__") for part in parts):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join((base, *parts))
            if base == "pawnlight" and (parts[:1] == ("web",) or parts[:1] == ("firmware",)):
                continue
            found[name] = path
    return found


def imports(name: str, path: Path, known: Collection[str]) -> set[str]:
    """The pawnlight modules ``name`` imports (relative imports resolved); ``from package
    import module`` counts the module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names if alias.name.startswith("pawnlight")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target in ("pawnlight", "pawnlight_lab", "pawnlight_hardware") or target.startswith(
                ("pawnlight.", "pawnlight_lab.", "pawnlight_hardware.")
            ):
                out.add(target)
                out |= {f"{target}.{a.name}" for a in node.names} & set(known)
    return out


def allowed(importer: str, imported: str) -> bool:
    if importer == imported:
        return True
    if importer in SIDE:
        return imported in SIDE[importer][0]
    if imported in SIDE:
        return importer in SIDE[imported][1]
    return RANK[imported] < RANK[importer]


def test_every_module_has_a_layer():
    missing = sorted(name for name in modules() if layer_of(name) is None)
    assert not missing, f"give these a layer in LAYER_OF: {missing}"
    assert layer_of("pawnlight.something_new") is None
    assert layer_of("pawnlight.board.health.stuck") == "board"


def test_the_rule_names_only_known_layers():
    named = set(LAYER_OF.values())
    assert named == set(RANK) | set(SIDE)


def test_no_import_runs_upward():
    wrong = []
    found = modules()
    for name, path in found.items():
        mine = layer_of(name)
        for target in sorted(imports(name, path, found)):
            theirs = layer_of(target)
            assert mine is not None and theirs is not None, (name, target)
            if not allowed(mine, theirs):
                wrong.append(f"{name} ({mine}) imports {target} ({theirs})")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("importer", "imported", "ok"),
    [
        ("companion", "board", True),
        ("board", "companion", False),
        ("store", "devices", False),  # siblings
        ("runtime", "web", True),
        ("web", "runtime", False),
        ("cli", "diagnostics", True),
        ("runtime", "diagnostics", False),
        ("companion", "hardware", False),
        ("hardware", "board", True),
        ("hardware", "store", False),
        ("remote", "remote_link", False),  # the protocol's values never open a socket
        ("remote_link", "web", True),  # the club's subscriber serves the club page
        ("runtime", "remote_link", True),  # the daemon starts the board's link
        ("remote_link", "runtime", False),
        ("cli", "hardware", False),  # through the entry point only
        ("diagnostics", "hardware", False),
        ("lab", "players", True),
        ("players", "lab", False),
        ("cli", "lab", False),
        ("lab", "runtime", False),
    ],
)
def test_the_rule_itself(importer, imported, ok):
    assert allowed(importer, imported) is ok


def test_the_real_drivers_leave_the_simulated_devices_apart():
    """devices/sim/ holds the simulated devices; of the real drivers only open_board.py, which
    opens a board from a spec (real or simulated), reaches into it."""
    found = modules()
    reaching = sorted(
        name
        for name, path in found.items()
        if name.startswith("pawnlight.devices.")
        and not name.startswith("pawnlight.devices.sim")
        and any(t.startswith("pawnlight.devices.sim") for t in imports(name, path, found))
    )
    assert reaching == ["pawnlight.devices.open_board"]
    assert {"pawnlight.devices.sim.board", "pawnlight.devices.sim.firmware"} <= set(found)


def test_the_architecture_page_names_every_package_and_only_real_folders():
    """docs/architecture.md matches the tree: every package folder under pi/pawnlight is named
    there, and every folder it names exists."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    packages = sorted(
        init.parent.relative_to(ROOT).as_posix() + "/"
        for init in (ROOT / "pi" / "pawnlight").rglob("__init__.py")
    )
    assert packages, "no packages found"
    unnamed = [folder for folder in packages if f"`{folder}`" not in page]
    assert not unnamed, f"name these in docs/architecture.md: {unnamed}"
    first_cells = re.findall(r"^\| ([^|]+) \|", page, re.MULTILINE)
    named = [folder for cell in first_cells for folder in re.findall(r"`([a-z_/]+/)`", cell)]
    assert "pi/pawnlight/runtime/" in named
    missing = [folder for folder in named if not (ROOT / folder).is_dir()]
    assert not missing, f"docs/architecture.md names folders that do not exist: {missing}"


def _owned_by_companion(node: ast.expr) -> bool:
    """``companion.x``, ``self.companion.x``, ``self.companion.deck.x``, ...: a place in the
    companion's state."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
        if isinstance(node, ast.Attribute) and node.attr == "companion":
            return True
        if isinstance(node, ast.Name) and node.id == "companion":
            return True
    return False


def test_the_runtime_changes_the_companion_only_through_its_inputs():
    """The owner hands the companion inputs (companion.signals) and reads its state; it never
    writes a field of it (a warning, the deck), so everything the companion shows is its own."""
    writes = []
    for path in sorted((SOURCES["pawnlight"] / "runtime").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = node.targets
            for target in targets:
                if isinstance(target, ast.Attribute | ast.Subscript) and _owned_by_companion(
                    target
                ):
                    writes.append(f"{path.name}:{target.lineno}: {ast.unparse(target)}")
    assert not writes, "the runtime writes the companion's state:\n" + "\n".join(writes)


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles in ``graph`` (module -> the modules it imports): every strongly connected
    group of two or more modules, each sorted, by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(circles)


def test_the_circle_finder_itself():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert import_circles(graph) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle():
    """No two modules import each other, directly or round a longer loop: every import counted,
    also those inside functions and under TYPE_CHECKING, which only hide a circle.  A module's
    own packages are left out (``from . import bodies`` in web/actions.py): Python runs a
    package's ``__init__`` before any module in it, whatever that module imports."""
    found = modules()
    graph = {
        name: {
            target
            for target in imports(name, path, found)
            if target in found and target != name and not name.startswith(target + ".")
        }
        for name, path in found.items()
    }
    circles = import_circles(graph)
    assert not circles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles)
