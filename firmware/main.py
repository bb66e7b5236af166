# Entry point. The Pico runs main.py at every boot; the simulator runs it with the MicroPython
# unix port. After a maintenance reset request it returns at once, which leaves the REPL free
# (no watchdog, Ctrl-C works) so mpremote can copy new firmware.

import hal

if not hal.maintenance_requested():
    import app

    app.main()
