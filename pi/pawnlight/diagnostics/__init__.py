"""Building and keeping a pawnlight board healthy: wiring checks, tests, calibration, doctor.

* :mod:`.wiring`, :mod:`.chips`, :mod:`.pins` - hardware/wiring.toml and what it must agree with;
* :mod:`.hardware_docs` - generates hardware/wiring.md, the SVG drawings and the power budget;
* :mod:`.sensor_test`, :mod:`.led_test` - find dead, stuck and swapped sensors and LEDs;
* :mod:`.calibration`, :mod:`.calibration_file` - colour boards' reading bands, measured;
* :mod:`.stuck` - a sensor that reads a pawn for too long while the others change;
* :mod:`.doctor` - ``pawnlight doctor``: link, firmware, live sensors, LED patterns, counters.

See docs/diagnostics.md, docs/calibration.md and docs/assembly.md.
"""
