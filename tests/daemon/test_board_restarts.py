"""A board whose firmware keeps restarting is not shown as healthy (issue #31): the owner counts
the link's restarts and publishes ``board_health``, until the board has been steady again."""

from __future__ import annotations

from pawnlight.board.layout import Layout
from pawnlight.companion.deck import CardDeck, simulated_uids
from pawnlight.companion.machine import Companion
from pawnlight.devices.events import LinkState
from pawnlight.runtime.owner import RESTART_WINDOW, Owner


def test_repeated_restarts_show_until_the_board_is_steady_again(tmp_path):
    now = [100.0]
    link = {"firmware_restarts": 0}
    owner = Owner(
        Companion(Layout.named("presence"), CardDeck(simulated_uids())),
        tmp_path / "j.sqlite3",
        clock=lambda: now[0],
        diagnostics=lambda: {"link": dict(link)},
    )

    def health() -> dict:
        owner._publish()
        return owner.state()["board_health"]

    assert health() == {"steady": True, "restarts": 0, "minutes": 5}
    owner._handle(LinkState(True, "connected to presence board, firmware 1.2.0", "1.2.0"))
    assert health()["steady"] is True
    # One restart is news for the health page; two within five minutes are trouble.
    link["firmware_restarts"] = 1
    owner._handle(LinkState(True, "board firmware restarted (1.2.0)", "1.2.0"))
    assert health() == {"steady": True, "restarts": 1, "minutes": 5}
    now[0] = 160.0
    link["firmware_restarts"] = 3  # two more, reported by one link event
    owner._handle(LinkState(True, "board firmware restarted (1.2.0)", "1.2.0"))
    assert health() == {"steady": False, "restarts": 3, "minutes": 5}
    assert owner.state()["link"]["up"] is True  # the existing fields stay as they are
    # Five minutes after the first restart one of them is forgotten: still two.
    now[0] = 100.0 + RESTART_WINDOW
    assert health() == {"steady": False, "restarts": 2, "minutes": 5}
    # Five minutes without a restart: steady again, and the page says nothing more.
    now[0] = 160.0 + RESTART_WINDOW
    assert health() == {"steady": True, "restarts": 0, "minutes": 5}
    # A link event that is no restart (a reconnect) adds none.
    owner._handle(LinkState(True, "connected to presence board, firmware 1.2.0", "1.2.0"))
    assert health()["restarts"] == 0
