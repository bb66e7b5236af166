# Debouncing of sensor channels: a new reading is reported only once it has held steady.
#
# Works for digital hall sensors (values 0/1, tolerance 0) and for analog ones (16-bit
# readings, where anything within `tolerance` of the reported value counts as unchanged so ADC
# noise is never reported). Times are milliseconds passed in by the caller, so the logic is
# tested without a clock; ticks_diff keeps it right when the Pico's tick counter wraps.

try:
    from time import ticks_diff
except ImportError:  # CPython (tests)

    def ticks_diff(a, b):
        return a - b


class Debouncer:
    def __init__(self, count, debounce_ms, tolerance=0):
        self.count = count
        self.debounce_ms = debounce_ms
        self.tolerance = tolerance
        self.values = None  # reported values; None until the first scan
        self._candidate = [None] * count  # reading waiting to prove it is stable
        self.since = [0] * count  # when the candidate first appeared (a change's board time)
        self.pending = 0  # channels with a candidate, so quiet scans can be skipped

    def update(self, readings, now, maybe_changed=True):
        """Feed one scan; returns [(channel, value)] for channels whose change is now stable.

        The first scan is taken as the truth without reporting anything (the Pi asks for a
        snapshot). Pass maybe_changed=False when the raw readings are known to equal the
        previous scan's, so a quiet board costs almost nothing.
        """
        if self.values is None:
            self.values = list(readings)
            return []
        if not maybe_changed and not self.pending:
            return []
        changes = []
        tol = self.tolerance
        values = self.values
        candidate = self._candidate
        for ch in range(self.count):
            raw = readings[ch]
            current = values[ch]
            cand = candidate[ch]
            if -tol <= raw - current <= tol:
                if cand is not None:  # went back before it settled: a bounce
                    candidate[ch] = None
                    self.pending -= 1
                continue
            if cand is None:
                candidate[ch] = raw
                self.since[ch] = now
                self.pending += 1
            elif raw - cand > tol or cand - raw > tol:
                candidate[ch] = raw  # moved again: start the wait over
                self.since[ch] = now
            else:
                candidate[ch] = raw  # still the same level, follow the newest reading
            if ticks_diff(now, self.since[ch]) >= self.debounce_ms:
                values[ch] = raw
                candidate[ch] = None
                self.pending -= 1
                changes.append((ch, raw))
        return changes

    def wait_ms(self, now):
        """Milliseconds until a pending candidate may settle, or None if none is pending."""
        if not self.pending:
            return None
        soonest = None
        for ch in range(self.count):
            if self._candidate[ch] is not None:
                left = self.debounce_ms - ticks_diff(now, self.since[ch])
                if soonest is None or left < soonest:
                    soonest = left
        return max(0, soonest)
