# Entry point. The Pico runs main.py at every boot; the simulator runs it with the MicroPython
# unix port. After a maintenance reset request, or with the BOOTSEL button held just after
# power-on, it returns at once, which leaves the REPL free (no watchdog, Ctrl-C works) so
# mpremote can copy new firmware.

import hal

if not hal.maintenance_requested() and not hal.bootsel_held():
    import app

    app.main()
