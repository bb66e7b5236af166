"""Building and keeping a pawnlight board healthy: wiring checks, tests, calibration, doctor.

The hardware, as data (needs a checkout: hardware/ is not shipped):

* :mod:`.wiring`, :mod:`.chips`, :mod:`.pins` - hardware/wiring.toml and what it must agree with;
* :mod:`.hardware_docs` - regenerates hardware/wiring.md, the SVG drawings (:mod:`.draw_wiring`,
  :mod:`.draw_board_maps`), the power budget (:mod:`.power`) and the magnet table
  (:mod:`.magnets`) in hardware/bom.md.

The board's health (pure logic first, then what drives it):

* :mod:`.sensing` - what a raw reading means: a pawn, a real change;
* :mod:`.sensor_test`, :mod:`.led_test` - dead, stuck and swapped sensors; dead, misplaced LEDs
  and chain breaks;
* :mod:`.calibration`, :mod:`.calibration_file` - colour boards' reading bands, measured, saved
  and applied to a layout;
* :mod:`.stuck` - a sensor that reads a pawn for too long while the others change (also for
  the daemon, during play);
* :mod:`.procedures` - runs the tests and the calibration with a hand and an eye: a person
  (:mod:`.people`) or the simulated world with its faults (:mod:`.simulated`);
* :mod:`.board_view`, :mod:`.connect` - a board link's latest news; opening a board;
* :mod:`.doctor`, :mod:`.terminal_board`, :mod:`.counters` - the doctor's report and its
  findings, the sensors drawn as the board in 80 columns, what the link counters mean;
* :mod:`.board_words` - a place's code with its board words, for every finding;
* :mod:`.commands`, :mod:`.command_runs` - ``pawnlight doctor``, ``sensor-test``, ``led-test``,
  ``calibrate``.

See docs/assembly.md, docs/diagnostics.md and docs/calibration.md.
"""
