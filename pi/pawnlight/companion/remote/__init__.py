"""A game played on two or more boards in different homes (docs/remote.md).

Each board runs the whole game with its own rules core.  A colour is seated at one board: its
card is scanned there and its move made there; the turn is recorded, then published
(``PublishTurn``).  Every other board takes that turn in (``RemoteTurn``), checks it with its
own rules (the move legal for the card, the position after it the one the sender's hash names),
and lights it as a *copy*, exactly as a computer seat's move is lit: the people there make it on
their board, and once the board matches, the turn is played and recorded there too.  Local play
waits until then: the next card is refused while a copy is lit.

Turns are numbered by their place in the game's history, so a turn that arrives twice, or
before the one it follows, is held until the game reaches it (``Inbox``).  A board that is
offline pauses the game everywhere: no card is taken until it is back.

By concept: ``game`` (begin, restore, take a message in, follow), ``seating`` (who plays which
colour, seats handed to the host's computer), ``copying`` (another board's turn lit here),
``doubling`` (point play's doubles across boards), ``takebacks`` (every board agrees),
``adjourning`` (a board offline pauses, the host adjourns and resumes), ``saved`` (what the
journal keeps), ``saying`` (what the page is told).
"""

from .adjourning import adjourn, refuse_card, resume
from .copying import copying
from .game import follow, forget, restore, start, take
from .saved import REMEMBERED
from .seating import hand_seat
from .takebacks import answer_takeback, ask_takeback, takeback_asked

__all__ = [
    "REMEMBERED",
    "adjourn",
    "answer_takeback",
    "ask_takeback",
    "copying",
    "follow",
    "forget",
    "hand_seat",
    "refuse_card",
    "restore",
    "resume",
    "start",
    "take",
    "takeback_asked",
]
