"""Two (or more) real daemons on simulated boards, each connected to the test broker with its
own board id and credentials, and the players at each board."""

from __future__ import annotations

import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pawnlight.players import HeuristicPlayer, view_of
from pawnlight.players.evaluation import TOGO
from pawnlight.rules import Deck
from pawnlight.rules.board import COLOURS, PARTNER, TRACK_SQUARES
from pawnlight.rules.cards import CARDS, SORRY
from pawnlight.rules.game import Game, GameConfig, Phase
from pawnlight.rules.notation import move_text, parse_move
from pawnlight.rules.position import Position

from ..daemon.hands import square_name
from ..daemon.process import DaemonProcess
from .broker import Broker, password_of

BOARD_IDS = ("board-a", "board-b")


class BoardProcess(DaemonProcess):
    """``pawnlight run --sim --remote mqtt://127.0.0.1:PORT --board-id NAME``."""

    def __init__(
        self,
        data: Path,
        broker: Broker,
        board: str,
        password: str | None = None,
        ca: Path | None = None,
        keepalive: int | None = None,
        extra: str = "",
    ):
        super().__init__(data, layout="presence", settle=0.1)
        self.keepalive = keepalive  # mqtt_keepalive in its config file (None: the default)
        self.extra = extra  # more lines of its config file
        self.broker = broker
        self.board = board
        self.password = password_of(board) if password is None else password
        self.ca = ca  # mqtts: the CA file the board trusts (mqtt_ca in its config file)

    def config_lines(self) -> list[str]:
        lines = super().config_lines()
        if self.ca is not None:
            lines.append(f'mqtt_ca = "{self.ca}"')
        if self.keepalive is not None:
            lines.append(f"mqtt_keepalive = {self.keepalive}")
        if self.extra:
            lines.append(self.extra)
        return lines

    def environment(self) -> dict[str, str]:
        return dict(
            super().environment(),
            PAWNLIGHT_MQTT_USER=self.board,
            PAWNLIGHT_MQTT_PASSWORD=self.password,
        )

    def more_arguments(self) -> list[str]:
        return ["--remote", self.broker.url, "--board-id", self.board]

    def pause(self) -> None:
        """SIGSTOP: the board hangs (as a partitioned network looks from the broker)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)


@contextmanager
def running_boards(
    folder: Path, broker: Broker, **options: Any
) -> Iterator[dict[str, BoardProcess]]:
    """board-a and board-b started (``options`` go to each BoardProcess), stopped at the end
    (resumed first: a SIGSTOPped process would not end on SIGTERM)."""
    made = {name: BoardProcess(folder / name, broker, name, **options) for name in BOARD_IDS}
    for daemon in made.values():
        daemon.data.mkdir()
        daemon.start()
    try:
        yield made
    finally:
        for daemon in made.values():
            daemon.resume()
            daemon.stop()


def all_online(state: dict[str, Any]) -> bool:
    remote = state.get("remote")
    return remote is not None and all(b["online"] for b in remote["boards"].values())


DARK = "#000000"

#: What every board of a remote game must agree on once settled.
SHARED = ("edition", "players", "teams", "turn", "card", "pawns", "history")


def shared(state: dict[str, Any]) -> dict[str, Any]:
    return {key: state[key] for key in SHARED}


#: How often a turn's card is drawn from the shuffled deck (its move then chosen by the heuristic
#: player, now and then a random one) instead of the card that takes the side furthest.
DRAWN = 0.2


def progress(position: Position, colours: tuple[int, ...]) -> int:
    """Steps the colours' pawns have come from START (TOGO: START counts 65 to go)."""
    return sum(65 - TOGO[colour][place] for colour in colours for place in position.pawns(colour))


class Table:
    """The players of one remote game, at every board: each colour's card is scanned at its own
    board; they make the moves and copy the other boards' moves as lit.  To end a whole game in
    well under a minute the cards are the test's to choose: mostly the card (never Sorry!, with
    which two sides bump each other back for ever) and move that take the side's pawns furthest
    (in partnership play the player's and the partner's), now and then (``DRAWN``, from the
    seeded rng) a card from the shuffled deck and the heuristic player's move for it."""

    def __init__(self, boards: dict[str, BoardProcess], config: dict[str, Any], seed: int):
        self.boards = boards
        self.config = config
        self.rng = random.Random(seed)
        self.deck = Deck(self.rng)
        self.mirror = Game(
            GameConfig(
                edition=config.get("edition", "hasbro-2002"),
                players=tuple(config["players"]),
                teams=bool(config.get("teams", False)),
                variant=config.get("variant", "standard"),
            )
        )

    def host(self, host: str, seats: dict[str, str]) -> str:
        body = {**self.config, "seats": seats}
        reply = self.boards[host].request("POST", "/api/remote/host", body, pin=True)
        return reply["code"]

    def set_up(self) -> None:
        for daemon in self.boards.values():
            pawns = daemon.state()["pawns"]
            daemon.request("POST", "/api/sim/board", {"pawns": pawns})
        for daemon in self.boards.values():
            daemon.wait(lambda s: s["phase"] == "draw" and all_online(s))

    def seat_of(self, state: dict[str, Any]) -> BoardProcess:
        board = next(
            name for name, b in state["remote"]["boards"].items() if state["turn"] in b["seats"]
        )
        return self.boards[board]

    def play_turn(self) -> None:
        """One turn at the board where its colour sits, then copied on every other board."""
        first = next(iter(self.boards.values())).state()
        turns = len(first["history"])
        player = self.seat_of(first)
        state = player.wait(lambda s: s["phase"] == "draw" and len(s["history"]) == turns)
        card, wanted = self.pick()
        player.request("POST", "/api/sim/scan", {"card": card})
        state = player.wait(lambda s: s["phase"] == "move" or len(s["history"]) > turns)
        if state["phase"] == "move":
            guided = state["guided"]
            if guided is not None and "computer" in guided["by"]:
                wanted = guided["text"]  # a computer seat: its move is lit, people make it
            choice = next((c for c in state["legal"] if c["text"] == wanted), None)
            self.move(player, choice or self.choose(state, card), turns)
        self.mirror_turn(player.state()["turns"][turns])
        for daemon in self.boards.values():
            if daemon is not player:
                self.copy(daemon, turns)

    def pick(self) -> tuple[str, str | None]:
        """This turn's card and the move wanted for it (None: ``choose`` chooses once drawn)."""
        game = self.mirror
        if self.rng.random() < DRAWN:
            return self.deck.draw(), None
        colour = game.turn
        side = (colour, PARTNER[colour]) if game.config.teams else (colour,)
        before = progress(game.position, side)
        cards = [card for card in CARDS if card != SORRY]
        self.rng.shuffle(cards)  # among equal gains, a different card each time
        best: tuple[int, str, str] | None = None
        for card in cards:
            for move in game.rules.options(game.position, colour, card).moves:
                gain = progress(move.after, side) - before
                if best is None or gain > best[0]:
                    best = (gain, card, move_text(move))
        if best is None:  # no card moves any pawn of the side (all at START, blocked)
            return self.deck.draw(), None
        return best[1], best[2]

    def choose(self, state: dict[str, Any], card: str) -> dict[str, Any]:
        legal = state["legal"]
        if self.rng.random() < 0.15:
            return self.rng.choice(legal)
        options = self.mirror.draw(card)
        move = HeuristicPlayer().choose(view_of(self.mirror), card, options)
        self.mirror.undo()
        text = move_text(move) if move is not None else None
        return next((c for c in legal if c["text"] == text), legal[0])

    def move(self, daemon: BoardProcess, choice: dict[str, Any], turns: int) -> None:
        state = daemon.state()
        before = Position.from_json(state["pawns"])
        if Position.from_json(choice["pawns"]) == before:
            # A move the board cannot see (a pawn slides back to where it started): the player
            # picks the pawn up and puts it down again, and the board asks which it was.
            step = parse_move(choice["text"], before, state["teams"]).steps[0]
            square = square_name(step.colour, step.origin)
            daemon.touch("lift", square)
            daemon.touch("place", square, COLOURS[step.colour])
        else:
            daemon.request("POST", "/api/sim/board", {"pawns": choice["pawns"]})
        state = daemon.wait(lambda s: len(s["history"]) > turns or s["phase"] == "choose")
        if state["phase"] == "choose":
            daemon.request("POST", "/api/resolve", {"move": choice["text"]}, pin=True)
            daemon.wait(lambda s: len(s["history"]) > turns)

    def copy(self, daemon: BoardProcess, turns: int, more: bool = False) -> None:
        """The people at another board make the move lit there (none for a turn without one);
        ``more``: turns after it wait too (a board catching up), lit as soon as it is made."""
        state = daemon.wait(
            lambda s: len(s["history"]) > turns or (s["remote"] or {}).get("copy") is not None
        )
        copy = state["remote"]["copy"]
        if copy is not None:
            self.see_lit(daemon, state, copy)
            self.move(daemon, copy, turns)
        state = daemon.wait(lambda s: len(s["history"]) > turns)
        assert more or state["remote"]["copy"] is None

    def see_lit(self, daemon: BoardProcess, state: dict[str, Any], copy: dict[str, Any]) -> None:
        """The copy is lit on the board's LEDs (where it lands on the track, blinking or not)
        and in ``lit``, before anyone moves."""
        move = parse_move(copy["text"], Position.from_json(state["pawns"]), state["teams"])
        finals = {square_name(s.colour, s.final) for s in move.steps if s.final < TRACK_SQUARES}
        assert finals <= set(state["lit"]), (finals, state["lit"])
        seen: set[str] = set()

        def lit() -> bool:
            leds = daemon.request("GET", "/api/sim/leds")
            seen.update(key for key in finals if leds.get(key, DARK) != DARK)
            return seen == finals

        daemon.wait_for(lit)

    def mirror_turn(self, turn: dict[str, Any]) -> None:
        self.mirror.draw(turn["card"])
        if self.mirror.phase == Phase.MOVE:
            if turn["text"] == "forfeit":
                self.mirror.forfeit()
            else:
                self.mirror.play(turn["text"])

    def play(self, max_turns: int = 1000) -> dict[str, Any]:
        for _ in range(max_turns):
            state = next(iter(self.boards.values())).state()
            if state["phase"] == "over":
                return state
            self.play_turn()
        raise AssertionError(f"no winner after {max_turns} turns")
