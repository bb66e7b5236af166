"""The simulated devices, apart from the real drivers (as gpiozero keeps its mock pins apart).

Nothing here touches hardware: ``board`` is the one model of pawns on a physical board (the
simulator page's board, the builder's tools, the tests), ``firmware`` runs the Pico's own firmware
in MicroPython's unix port behind a pseudo-terminal (``pty_relay`` is that line, with its faults),
``emulated_pico`` runs it in an emulated RP2040, and ``fake_link`` is an in-process board link.
The real drivers in :mod:`pawnlight.devices` never import this package; the daemon, the
diagnostics and the tests choose it (docs/simulator.md).
"""
