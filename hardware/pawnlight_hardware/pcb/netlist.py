"""Reading a KiCad netlist (the ``(export (version "E") ...)`` s-expression) back into Python.

The tests read the written netlists rather than the objects that wrote them, so they check what
a board house or KiCad would get.  Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SExpr = str | list["SExpr"]

_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


def parse_sexpr(text: str) -> SExpr:
    """The first s-expression of ``text`` as nested lists of strings."""
    stack: list[list[SExpr]] = [[]]
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            if text[position:].strip():
                raise ValueError(f"netlist: cannot read from character {position}")
            break
        position = match.end()
        opening, closing, quoted, atom = match.groups()
        if opening:
            stack.append([])
        elif closing:
            if len(stack) < 2:
                raise ValueError(f"netlist: unbalanced ')' at character {position}")
            done = stack.pop()
            stack[-1].append(done)
        elif quoted is not None:
            stack[-1].append(quoted.replace('\\"', '"').replace("\\\\", "\\"))
        elif atom is not None:
            stack[-1].append(atom)
    if len(stack) != 1 or not stack[0]:
        raise ValueError("netlist: unbalanced parentheses or nothing to read")
    return stack[0][0]


def _children(node: SExpr, name: str) -> list[list[SExpr]]:
    if not isinstance(node, list):
        return []
    return [c for c in node if isinstance(c, list) and c and c[0] == name]


def _value(node: SExpr, name: str) -> str:
    found = _children(node, name)
    if not found or len(found[0]) < 2 or not isinstance(found[0][1], str):
        return ""
    return found[0][1]


@dataclass(frozen=True)
class Component:
    ref: str
    value: str
    footprint: str
    symbol: str  # "lib:part"


@dataclass
class Netlist:
    components: dict[str, Component] = field(default_factory=dict)
    #: net name -> the (reference, pin number) pairs on it
    nets: dict[str, set[tuple[str, str]]] = field(default_factory=dict)

    def net_of(self, ref: str, pin: int | str) -> str | None:
        """The name of the net on a pin, or None when the pin is on no net."""
        node = (ref, str(pin))
        for name, nodes in self.nets.items():
            if node in nodes:
                return name
        return None

    def pins_on(self, name: str | None) -> set[tuple[str, str]]:
        return set(self.nets.get(name, set())) if name is not None else set()


def read_netlist(text: str) -> Netlist:
    root = parse_sexpr(text)
    if not isinstance(root, list) or not root or root[0] != "export":
        raise ValueError("not a KiCad netlist: it does not start with (export")
    netlist = Netlist()
    for section in _children(root, "components"):
        for comp in _children(section, "comp"):
            ref = _value(comp, "ref")
            source = _children(comp, "libsource")
            symbol = ""
            if source:
                symbol = f"{_value(source[0], 'lib')}:{_value(source[0], 'part')}"
            netlist.components[ref] = Component(
                ref, _value(comp, "value"), _value(comp, "footprint"), symbol
            )
    for section in _children(root, "nets"):
        for net in _children(section, "net"):
            name = _value(net, "name")
            netlist.nets[name] = {
                (_value(node, "ref"), _value(node, "pin")) for node in _children(net, "node")
            }
    return netlist
