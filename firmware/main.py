# Entry point. The Pico runs main.py at every boot; the simulator runs it with the MicroPython
# unix port. After a maintenance reset request, or with the BOOTSEL button held just after
# power-on, it returns at once, which leaves the REPL free (no watchdog, Ctrl-C works) so
# mpremote can copy new firmware.

import hal

# First of all: USB is up before main.py runs, and the Pi's bytes may already be arriving (its
# HELLO holds a 0x03 about once in twenty sessions); Ctrl-C must not stop the firmware while it
# looks for a maintenance request or the BOOTSEL button.
hal.quiet_keyboard_interrupt()
if not hal.maintenance_requested() and not hal.bootsel_held():
    import gc

    # Compiling a module takes a few KiB at once: the largest, protocol.py, goes first into a
    # freshly collected heap, before the others' leftovers fragment it (issue #31: with the
    # heap a Pico has free, the import order alone decided whether the firmware started).
    gc.collect()
    import protocol  # noqa: F401

    gc.collect()
    import app

    app.main()
else:
    hal.keyboard_interrupt()  # the REPL is for mpremote: Ctrl-C works again
