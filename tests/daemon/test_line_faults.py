"""The simulated line's made-up frames (POST /api/sim/line): each is read, none taken for a
repeat. No daemon is started: the fault is made against stand-ins for the firmware's line and
the driver, so the order of events is the test's, not the machine's."""

from __future__ import annotations

from types import SimpleNamespace

from pawnlight.firmware import protocol as P

from pawnlight.devices.sim_firmware import TO_HOST
from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon


class Line:
    """What the daemon injects towards the driver, as (type, seq) frames."""

    def __init__(self) -> None:
        self.frames: list[tuple[int, int]] = []
        self._decoder = P.FrameDecoder()

    def inject(self, direction: int, data: bytes) -> None:
        assert direction == TO_HOST
        self.frames += [(mtype, seq) for mtype, seq, _p in self._decoder.feed(data)]


def made_up(tmp_path, board_seqs: list[int | None]) -> list[tuple[int, int]]:
    """Alternate bad-error and bad-snapshot faults; before each, the driver's last received
    sequence number is the next of ``board_seqs``."""
    daemon = Daemon(Config(data=tmp_path, sim=True))
    line = Line()
    daemon.firmware = SimpleNamespace(faults=line)
    daemon.link = SimpleNamespace(last_received_seq=None)
    for index, last in enumerate(board_seqs):
        daemon.link.last_received_seq = last
        daemon._line_fault("bad-error" if index % 2 == 0 else "bad-snapshot")
    return line.frames


def accepted(frames: list[tuple[int, int]], board_seq: int) -> list[tuple[int, int]]:
    """What the driver's duplicate filter lets through, after the board's ``board_seq``."""
    inbound = P.DuplicateFilter()
    inbound.accept(board_seq)
    return [frame for frame in frames if inbound.accept(frame[1])]


def test_back_to_back_faults_before_the_driver_reads_either_are_both_read(tmp_path):
    # The API answers before the driver reads the frame: the second fault still sees the
    # board's own last number. It used to get the first one's number, and was dropped unread.
    frames = made_up(tmp_path, [17, 17])
    assert [t for t, _ in accepted(frames, 17)] == [P.ERROR, P.SNAPSHOT]


def test_a_fault_after_the_driver_read_the_last_made_up_frame_is_read_too(tmp_path):
    # It used to be numbered from the made-up frame's number: back to the board's own, 17.
    first = made_up(tmp_path / "a", [17])
    frames = made_up(tmp_path / "b", [17, first[0][1], first[0][1], 18])
    inbound = P.DuplicateFilter()
    inbound.accept(17)
    for _mtype, seq in frames:  # the driver reads each before the next fault is made
        assert inbound.accept(seq), frames
    # The board's own next frames are never taken for a repeat of a made-up one.
    assert {seq for _, seq in frames}.isdisjoint(range(17, 17 + 100))
