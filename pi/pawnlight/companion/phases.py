"""What the companion is doing: its phase, the ``phase`` of ``GET /api/state``.

Two concepts, two enums.  ``rules.game.Phase`` is what a *game* waits for (draw, move, double,
over).  ``CompanionPhase`` is what the *companion at the table* waits for: everything the game
can wait for (with the same words, so ``CompanionPhase.MOVE == Phase.MOVE == "move"``) and the
companion's own steps around a game: nothing started, players enrolling, the leader draw, the
board being set up, a recognised move that needs the players to choose.  Both are ``str``
enums: JSON, the page and its scripts keep the plain words.
"""

from __future__ import annotations

from enum import StrEnum

from ..rules.game import Phase


class CompanionPhase(StrEnum):
    IDLE = "idle"  # no game: start one from the page
    ENROL = "enrol"  # card tags being taught to the reader
    LEADER = "leader"  # each player scans a card to find the leader
    SETUP = "setup"  # the board is being set up for the game's position
    DRAW = "draw"  # Phase.DRAW: a player draws (scans) a card
    MOVE = "move"  # Phase.MOVE: the card's move is made on the board
    CHOOSE = "choose"  # the board fits more than one legal move: the players pick one
    DOUBLE = "double"  # Phase.DOUBLE: point play, answers to a double
    OVER = "over"  # Phase.OVER: the game is finished

    @classmethod
    def of_game(cls, phase: Phase) -> CompanionPhase:
        """The companion's phase while the game waits in ``phase``."""
        return cls(phase.value)
