"""The board diagnostics on the command line: ``pawnlight doctor``, ``sensor-test``,
``led-test`` and ``calibrate``.

The checks themselves are pure logic beside the board model (:mod:`pawnlight.board.health`);
the hardware documents are drawn by the generators in hardware/ (:mod:`pawnlight_hardware`).
Here is what drives them:

* :mod:`.connect` - a board opened for a command, connected and its first snapshot in;
* :mod:`.board_view` - a board link's latest news;
* :mod:`.procedures` - runs the tests and the calibration with a hand and an eye: a person
  (:mod:`.people`) or the simulated world with its faults (:mod:`.simulated`);
* :mod:`.doctor`, :mod:`.terminal_board` - the doctor's report, the sensors drawn as the board
  in 80 columns;
* :mod:`.commands`, :mod:`.command_runs` - the commands' arguments, and what they do.

See docs/assembly.md, docs/diagnostics.md and docs/calibration.md.
"""
