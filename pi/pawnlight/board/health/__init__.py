"""The board's health, as pure logic: readings and looks in, findings in board words out.

* :mod:`.sensing` - what a raw reading means: a pawn, a real change;
* :mod:`.sensor_test`, :mod:`.led_test` - dead, stuck and swapped sensors; dead, misplaced LEDs
  and chain breaks;
* :mod:`.calibration` - colour boards' reading bands, measured (kept by
  :mod:`pawnlight.store.calibration_file`);
* :mod:`.stuck` - a sensor that reads a pawn for too long while the others change (the
  companion watches for it during play);
* :mod:`.counters` - what the board link's counters mean;
* :mod:`.board_words` - a place's code with its board words, for every finding.

No I/O: the commands that drive these checks are :mod:`pawnlight.diagnostics`.
"""
