"""STL files, ASCII or binary, as plain lists of triangles (no dependency).

A triangle is three (x, y, z) vertices; the facet normal is not kept (it is recomputed when
writing, from the vertex order: counter-clockwise seen from outside).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from pathlib import Path

Vertex = tuple[float, float, float]
Triangle = tuple[Vertex, Vertex, Vertex]


def parse(data: bytes) -> list[Triangle]:
    """The triangles of an STL file's bytes, ASCII or binary."""
    if len(data) >= 84:
        (count,) = struct.unpack_from("<I", data, 80)
        if 84 + 50 * count == len(data):
            return _parse_binary(data, count)
    if data.lstrip().startswith(b"solid"):
        return _parse_ascii(data.decode("ascii"))
    raise ValueError("not an STL file")


def _parse_binary(data: bytes, count: int) -> list[Triangle]:
    triangles: list[Triangle] = []
    for index in range(count):
        values = struct.unpack_from("<12f", data, 84 + 50 * index)
        a, b, c = values[3:6], values[6:9], values[9:12]
        triangles.append(((a[0], a[1], a[2]), (b[0], b[1], b[2]), (c[0], c[1], c[2])))
    return triangles


def _parse_ascii(text: str) -> list[Triangle]:
    vertices: list[Vertex] = []
    for line in text.splitlines():
        words = line.split()
        if words and words[0] == "vertex":
            vertices.append((float(words[1]), float(words[2]), float(words[3])))
    if len(vertices) % 3:
        raise ValueError("an STL facet without three vertices")
    return [(vertices[i], vertices[i + 1], vertices[i + 2]) for i in range(0, len(vertices), 3)]


def read(path: str | Path) -> list[Triangle]:
    return parse(Path(path).read_bytes())


def _normal(triangle: Triangle) -> Vertex:
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = triangle
    ux, uy, uz = bx - ax, by - ay, bz - az
    vx, vy, vz = cx - ax, cy - ay, cz - az
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    length = (nx * nx + ny * ny + nz * nz) ** 0.5 or 1.0
    return nx / length, ny / length, nz / length


def binary(triangles: Sequence[Triangle], name: str = "pawnlight") -> bytes:
    header = name.encode("ascii", "replace")[:80].ljust(80, b" ")
    out = bytearray(header + struct.pack("<I", len(triangles)))
    for triangle in triangles:
        out += struct.pack("<3f", *_normal(triangle))
        for vertex in triangle:
            out += struct.pack("<3f", *vertex)
        out += b"\0\0"
    return bytes(out)


def write(path: str | Path, triangles: Iterable[Triangle], name: str = "pawnlight") -> None:
    Path(path).write_bytes(binary(list(triangles), name))


def volume_mm3(triangles: Iterable[Triangle]) -> float:
    """The volume a closed, outward-facing mesh encloses (signed tetrahedra from the origin:
    the divergence theorem), in the file's units cubed."""
    total = 0.0
    for (ax, ay, az), (bx, by, bz), (cx, cy, cz) in triangles:
        total += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
    return total / 6.0


def bounds(triangles: Sequence[Triangle]) -> tuple[Vertex, Vertex]:
    """The lowest and highest corner of the mesh's bounding box."""
    if not triangles:
        raise ValueError("an empty mesh has no bounds")
    xs = [v[0] for t in triangles for v in t]
    ys = [v[1] for t in triangles for v in t]
    zs = [v[2] for t in triangles for v in t]
    return (min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))
