"""The hardware, as data and the documents drawn from it (needs a checkout: the repository's
hardware/ folder is not shipped).

* :mod:`.wiring`, :mod:`.pins` - hardware/wiring.toml and the checks that it agrees with the
  layouts, the firmware configs and the daemon's control pins (the chips are
  :mod:`pawnlight.board.chips`);
* :mod:`.docs` - regenerates hardware/wiring.md (:mod:`.wiring_tables`), the SVG drawings
  (:mod:`.draw_wiring`, :mod:`.draw_board_maps`, written with :mod:`.svg`), the power budget
  (:mod:`.power`) and the magnet table (:mod:`.magnets`) in hardware/bom.md:

      python -m pawnlight_hardware.docs --write

Nothing at run time imports this package: only the command line and the tests.
"""
