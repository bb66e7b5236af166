"""The family at the table: a real `pawnlight run --sim` process driven through its HTTP API,
with the checks an evening must pass after every step (docs/testing.md, 'Acceptance')."""

from __future__ import annotations

import contextlib
import io
import json
import random
import resource
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from pawnlight.cli import main as pawnlight_main
from pawnlight.rules.board import COLOURS, Place, parse_place
from pawnlight.store.journal import Journal
from tests.daemon.hands import square_name
from tests.daemon.process import PIN, DaemonProcess
from tests.helpers import SQUARE_CODE

from .storage_switch import FLAG

#: Words that must never reach the page or the log: a bug, not a situation.
BUG_WORDS = ("internal error", "Traceback")


class Refused(Exception):
    """The daemon answered 4xx: a refusal in words, fine for a family to meet."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status


class Evening:
    """One daemon and its data folder, and the counts the report prints."""

    def __init__(self, data: Path) -> None:
        self.data = data
        root = Path(__file__).resolve().parents[2]
        # The storage can be made read-only and writable again (storage_switch.py).
        prelude = (
            f"import sys; sys.path.insert(0, {str(root)!r})\n"
            f"from tests.acceptance.storage_switch import install; install({str(data)!r})"
        )
        self.daemon = DaemonProcess(data, layout="presence", settle=0.1, prelude=prelude)
        self.figures: Counter[str] = Counter()
        self.log_checked = 0

    # -- the process --------------------------------------------------------------------------

    def start(self) -> None:
        self.daemon.start(timeout=60)

    def stop(self) -> None:
        self.daemon.stop()

    def restart(self, kill: bool) -> None:
        if kill:
            self.daemon.kill()
        else:
            self.daemon.stop()
            assert self.daemon.process is not None
            assert self.daemon.process.returncode == 0, "SIGTERM must stop pawnlight cleanly"
        self.start()

    def limit_file_size(self, size: int | None) -> None:
        """RLIMIT_FSIZE on the daemon: writes past ``size`` bytes fail as on a full disk."""
        assert self.daemon.process is not None
        soft = resource.RLIM_INFINITY if size is None else size
        hard = resource.RLIM_INFINITY  # kept, so the limit can be lifted again
        resource.prlimit(self.daemon.process.pid, resource.RLIMIT_FSIZE, (soft, hard))

    def read_only(self, on: bool) -> None:
        """The daemon's storage read-only (as after a remount), or writable again."""
        flag = self.data / FLAG
        if on:
            flag.touch()
        else:
            flag.unlink(missing_ok=True)

    def delete_journal_files(self) -> list[str]:
        """Delete the journal's files (journal.sqlite3, its -wal and -shm) under the running
        daemon, as a person cleaning the folder might; the names of those that were there."""
        gone = []
        for suffix in ("", "-wal", "-shm"):
            path = self.data / f"journal.sqlite3{suffix}"
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                gone.append(path.name)
        return gone

    def rescues(self) -> int:
        """How many times the daemon has told of its journal's files deleted and rescued."""
        errors = self.call("GET", "/api/diagnostics", pin=True)["errors"]
        return sum("deleted or replaced while pawnlight was running" in e for e in errors)

    # -- HTTP ---------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Any = None, pin: bool = False) -> Any:
        """The JSON answer; Refused for a 4xx; a 5xx fails the test."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if pin:
            headers["X-Pawnlight-Pin"] = PIN
        request = urllib.request.Request(self.daemon.url + path, data, headers, method=method)
        self.figures["requests"] += 1
        # No clock here: a command that blocks (a new game waiting on the board, say) is answered
        # 503 by the owner's timeout, which fails below; the time a loaded machine takes is not a
        # failure (CI runs four workers on two cores).
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                answer = json.loads(response.read())
        except urllib.error.HTTPError as error:
            text = error.read().decode(errors="replace")
            assert error.code < 500, f"{method} {path}: HTTP {error.code} {text}"
            raise Refused(error.code, text) from None
        return answer

    def state(self) -> dict[str, Any]:
        return self.call("GET", "/api/state")

    def wait(self, predicate, timeout: float = 15.0, what: str = "") -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        state = self.state()
        while not predicate(state):
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out waiting for {what or 'the board'}: {state['phase']}: "
                    f"{state['message']} / {state['warning']} corrections {state['corrections']}"
                )
            time.sleep(0.03)
            state = self.state()
        return state

    def settled(self, timeout: float = 15.0) -> dict[str, Any]:
        """The state once the daemon says the board is settled: still for the settle time and
        decided (`settled`, docs/api.md).  Every touch has been read by then (`touch` waits for
        the daemon to show it), so this is the decision on the board as the hands left it."""
        return self.wait(lambda state: state["settled"], timeout, "the board to settle")

    # -- hands ----------------------------------------------------------------------------------

    def physical(self) -> dict[str, list[str]]:
        return self.call("GET", "/api/sim/board")["pawns"]

    def lift(self, square: str) -> None:
        self.touch("/api/sim/lift", {"square": square})

    def place(self, square: str, colour: str) -> None:
        self.touch("/api/sim/place", {"square": square, "color": colour})

    def touch(self, path: str, body: dict[str, str]) -> None:
        """One touch through :meth:`call` (a refusal raises Refused), by hand: the daemon reads
        it before the hand's pace (DaemonProcess.by_hand)."""
        self.daemon.by_hand(lambda: self.call("POST", path, body))
        self.figures["touches"] += 1

    def follow_guidance(self, rng: random.Random) -> dict[str, Any]:
        """Do what the page and the LEDs ask (`guidance`, in their order), one pawn at a time,
        until the game accepts the board; then the board, colours included, equals the game.
        ``rng`` only chooses the hand's order where the guidance leaves it open."""
        state = self.settled()
        for _round in range(8):
            guidance = state.get("guidance") or []
            if not guidance:
                physical = self.physical()
                assert same_board(physical, state.get("pawns") or {}), (
                    f"the game accepts a board that differs from it: {physical}, "
                    f"game {state.get('pawns')}"
                )
                return state
            for step in guidance:
                self.figures["guidance followed"] += 1
                with contextlib.suppress(Refused):  # an earlier step already did it
                    if step["action"] in ("lift", "move", "check"):
                        self.lift(step["from"])
                    if step["action"] in ("put", "move"):
                        self.place(step["to"], step["colour"] or self.colour_for(step["to"], state))
                    if step["action"] == "check":
                        where = step["from"]
                        self.place(where, step["colour"] or self.colour_for(where, state))
            state = self.settled()
        raise AssertionError(
            f"guidance followed but the board is still wrong: {state['corrections']}, "
            f"physical {self.physical()}, game {state.get('pawns')}"
        )

    def colour_for(self, square: str, state: dict[str, Any]) -> str:
        """A pawn the guidance does not name the colour of: the one the game has there (a
        person puts the right colour down, which a presence board cannot check)."""
        pawns = state.get("pawns") or {}
        place = Place.parse(square)
        if place.colour >= 0:
            return COLOURS[place.colour]  # start:blue, S2:red, home:green:1 name their colour
        for colour, places in pawns.items():
            if place.name in places:
                return colour
        _lifts, places = board_changes(self.physical(), pawns)
        return places[0][1] if places else state["turn"]

    # -- the checks -----------------------------------------------------------------------------

    def check(self) -> dict[str, Any]:
        """Every invariant of an evening; returns the state it checked."""
        for _attempt in range(20):
            state = self.state()
            journal = self.journal_view(state)
            if self.state()["version"] == state["version"]:
                break
        else:
            raise AssertionError("the state never held still long enough to compare")
        for field in ("warning", "message"):
            text = state.get(field) or ""
            assert not any(word in text for word in BUG_WORDS), f"{field}: {text}"
        for text in words_people_read(state):
            assert not SQUARE_CODE.search(text), f"a square code where people read: {text!r}"
        self.check_log()
        if journal is not None:
            history, pawns, turn, over = journal
            # Every confirmed move is in the journal, and the journal replays to the live game.
            assert history == state["history"], (history, state["history"])
            assert normal(pawns) == normal(state["pawns"])
            if not over:
                assert turn == state["turn"]
        return state

    def journal_view(self, state: dict[str, Any]):
        game_id = state.get("game_id")
        if game_id is None:
            return None
        with Journal.open(self.data / "journal.sqlite3", readonly=True) as journal:
            game = journal.resume(game_id)
        return (
            [turn.text for turn in game.history],
            game.position.to_json(),
            COLOURS[game.turn],
            game.over,
        )

    def check_log(self) -> None:
        log = (self.data / "daemon.log").read_text(errors="replace")
        fresh = log[self.log_checked :]
        self.log_checked = len(log)
        for word in BUG_WORDS:
            assert word not in fresh, f"{word!r} in the daemon's log:\n{fresh[-3000:]}"

    def games_cli(self, *args: str) -> tuple[int, str]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = pawnlight_main(["games", "--data", str(self.data), *args])
        return code, out.getvalue()

    def check_records(self, state: dict[str, Any]) -> None:
        """`pawnlight games check` is clean and `games list` shows the live game as it is."""
        code, text = self.games_cli("check")
        assert code == 0, text
        self.figures["games checks"] += 1
        game_id = state.get("game_id")
        if game_id is None:
            return
        with Journal.open(self.data / "journal.sqlite3", readonly=True) as journal:
            summaries = {s.id: s for s in journal.games()}
        live = summaries[game_id]
        assert live.turns == len(state["history"])
        assert live.finished == (state["phase"] == "over")
        code, text = self.games_cli("list")
        assert code == 0 and str(game_id) in text, text
        for summary in summaries.values():
            if summary.id != game_id:
                assert summary.finished, f"game {summary.id} left unfinished behind the live one"


def words_people_read(state: dict[str, Any]) -> list[str]:
    """Every text of the state that the page shows as words (issue #18: no square codes)."""
    texts = [state.get("message") or "", *(state.get("corrections") or [])]
    news = state.get("news")
    texts.extend(news if isinstance(news, list) else [news or ""])
    for key in ("legal", "choices"):
        texts.extend(str(m.get("words", "")) for m in state.get(key) or [])
    texts.extend(str(g.get("text", "")) for g in state.get("guidance") or [])
    return texts


def place_square(colour: str, place: str) -> str:
    return square_name(COLOURS.index(colour), parse_place(place))


def normal(pawns: dict[str, list[str]]) -> dict[str, list[str]]:
    return {colour: sorted(places) for colour, places in pawns.items()}


def same_board(physical: dict[str, list[str]], game: dict[str, list[str]]) -> bool:
    """The pawns of the game's colours stand where it has them."""
    return all(sorted(physical.get(c, [])) == sorted(places) for c, places in game.items())


def board_changes(
    physical: dict[str, list[str]], game: dict[str, list[str]]
) -> tuple[list[str], list[tuple[str, str]]]:
    """The lifts and placings that turn the physical board into the game's."""
    lifts: list[str] = []
    places: list[tuple[str, str]] = []
    for colour in COLOURS:
        have = Counter(physical.get(colour, []))
        want = Counter(game.get(colour, []))
        for place, count in (have - want).items():
            lifts += [place_square(colour, place)] * count
        for place, count in (want - have).items():
            places += [(place_square(colour, place), colour)] * count
    return lifts, places
