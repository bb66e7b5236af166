# Hardware abstraction: the real Pico (hal_pico) or the simulator (hal_sim).
#
# Both modules provide the same small set of names; the firmware only ever uses these:
#   setup(cfg)                          prepare the hardware described by a validated config
#   output_pin(number, value)           push-pull output with .value()
#   spi_bus(bus, baudrate, sck, mosi, miso)
#   adc_input(pin)                      .read_u16()
#   neopixels(pin, count)               neopixel.NeoPixel interface
#   open_serial()                       the link to the Pi: .readinto(buf) -> n (what has
#                                       arrived, at most len(buf), never waiting), .write(bytes)
#   wait(timeout_ms)                    sleep until input from the Pi arrives or time is up
#   ticks_ms, ticks_diff, ticks_add     MicroPython's wrapping millisecond ticks
#   sleep_us(us)                        short settling delays (a no-op in the simulator)
#   random_u32()                        boot ids and first sequence numbers
#   load_config()                       the raw config dict
#   watchdog(timeout_ms), stop_watchdog()
#   reset(), reset_by_watchdog()        a deliberate reset() is never reported as the watchdog's
#   request_maintenance()               next boot leaves the REPL free for mpremote (OSError
#                                       if the request cannot be stored)
#   maintenance_requested()             (consumes the request)
#   bootsel_held()                      a person holds BOOTSEL at boot: skip the firmware
#   quiet_keyboard_interrupt(), keyboard_interrupt()   Ctrl-C off (the link) / on (the REPL)
#   ready(link), log_exception(e)      setup done (the simulator may queue messages on link)
# The choice is made once, here, by platform: everything that is not an RP2040 is simulated.

import sys

if sys.platform == "rp2":
    from hal_pico import *  # noqa: F403
else:
    from hal_sim import *  # noqa: F403
