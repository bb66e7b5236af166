"""No class in pi/ or web/ has over 25 methods; no module there is over 500 lines unless
docs/architecture.md ("Long modules and why") says why (issue #43)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_METHODS = 25
MAX_LINES = 500
SECTION = "## Long modules and why"


def sources() -> list[Path]:
    return sorted(p for folder in ("pi", "web") for p in (ROOT / folder).rglob("*.py"))


def methods(node: ast.ClassDef) -> int:
    """The functions defined directly in the class body (properties and dunders count)."""
    return sum(isinstance(c, ast.FunctionDef | ast.AsyncFunctionDef) for c in node.body)


def big_classes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [
        f"{path.relative_to(ROOT)}: {node.name} has {methods(node)} methods"
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and methods(node) > MAX_METHODS
    ]


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def listed_long_modules() -> set[str]:
    """The paths named (in backticks, first column) in the section's table."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert SECTION in text, f"docs/architecture.md has no section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([^`]+\.py)` \|", section, flags=re.MULTILINE))


def test_no_class_has_over_25_methods() -> None:
    found = [line for path in sources() for line in big_classes(path)]
    assert found == [], "split these classes by job:\n" + "\n".join(found)


def test_every_module_over_500_lines_is_listed_with_its_reason() -> None:
    listed = listed_long_modules()
    unlisted = [
        f"{path.relative_to(ROOT)} ({lines(path)} lines)"
        for path in sources()
        if lines(path) > MAX_LINES and str(path.relative_to(ROOT)) not in listed
    ]
    assert unlisted == [], (
        f"modules over {MAX_LINES} lines not in docs/architecture.md, {SECTION!r}: split them "
        "or say why there:\n" + "\n".join(unlisted)
    )


def test_the_list_names_only_modules_that_are_still_long() -> None:
    """A module split below the limit leaves the list, so the list stays the truth."""
    stale = [
        name
        for name in sorted(listed_long_modules())
        if not (ROOT / name).exists() or lines(ROOT / name) <= MAX_LINES
    ]
    assert stale == [], "no longer over the limit (or gone), drop them from the list: " + (
        ", ".join(stale)
    )


def test_the_counter_counts_methods_and_the_list_reader_reads_rows(tmp_path: Path) -> None:
    body = "".join(f"    def m{i}(self) -> None: ...\n" for i in range(MAX_METHODS + 1))
    big = tmp_path / "big.py"
    big.write_text(f"class Big:\n{body}\n\nclass Small:\n    def one(self) -> None: ...\n")
    tree = ast.parse(big.read_text())
    counts = {n.name: methods(n) for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    assert counts == {"Big": MAX_METHODS + 1, "Small": 1}
