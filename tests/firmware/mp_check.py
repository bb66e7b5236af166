"""The checks' own little harness, for scripts run under MicroPython's unix port (which has no
pytest): ``check`` counts and records, ``finish`` reports PASSED or FAILED and sets the exit code
tests/firmware/test_fw_micropython.py reads."""

import sys

failures = []
count = 0


def check(condition, what):
    global count
    count += 1
    if not condition:
        failures.append(what)
        print("FAIL", what)


def finish():
    if failures:
        print(f"FAILED {len(failures)} of {count}")
        sys.exit(1)
    print(f"PASSED {count}")
