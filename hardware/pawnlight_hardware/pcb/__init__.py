"""Printed circuit boards generated from the wiring file and the board's geometry (docs/pcb.md).

* :mod:`.strips` - the sensor strips' five designs and where each of the 24 strips is mounted;
* :mod:`.circuit` - the strips' and the hubs' circuits in SKiDL, from hardware/wiring.toml: the
  KiCad netlists and the ERC;
* :mod:`.netlist` - reads a KiCad netlist back (the tests follow its nets);
* :mod:`.layout` - the strips' board files: parts placed from the geometry, mounting holes, and
  the copper of :mod:`.route`, a two-layer grid router (KiCad 6 has none);
* :mod:`.kicad_fab` - run in KiCad's own Python: DRC, Gerbers, drill and placement files;
* :mod:`.build` - ``pawnlight hardware pcb --out DIR``.

Needs the ``pcb`` extra and KiCad 6's libraries (Debian's kicad-symbols, kicad-footprints).
"""
