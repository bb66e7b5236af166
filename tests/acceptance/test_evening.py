"""Whole evenings at the board, model-based: a Hypothesis state machine plays a family against
the real daemon (`pawnlight run --sim`: the firmware in MicroPython's unix port on a pty, pyserial,
gpiozero's MockFactory, the journal in SQLite) through its HTTP API, and checks after every step
that nothing confirmed was lost and nothing went wrong (tests/acceptance/evening.py).

Seeded, and short enough for CI. For a release, run many more evenings:

    PAWNLIGHT_EVENINGS=60 PAWNLIGHT_EVENING_STEPS=60 .venv/bin/python -m pytest \
        tests/acceptance -q -s -p no:randomly

Every failing example it finds becomes a plain test in test_evening_regressions.py.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from pawnlight.rules.board import COLOURS
from pawnlight.rules.cards import CARDS, Deck
from pawnlight.rules.editions import EDITIONS
from pawnlight.rules.game import GameConfig, GameError
from pawnlight.rules.notation import parse_move
from pawnlight.rules.position import Position
from tests.daemon.hands import actions_for

from .evening import Evening, Refused, normal, place_square

EVENINGS = int(os.environ.get("PAWNLIGHT_EVENINGS", "4"))
STEPS = int(os.environ.get("PAWNLIGHT_EVENING_STEPS", "18"))

#: Parts of an evening that can be left out (set the variable to 0) to look at something else:
#: - point play with doubling, re-doubling and drop-outs (issue #22 fixed its restarts and undo);
DOUBLING = os.environ.get("PAWNLIGHT_EVENING_DOUBLING", "1") == "1"
#: - undo after a bump, guided by colour on a presence board too (#16, fixed with #22).
UNDO_AFTER_BUMP = os.environ.get("PAWNLIGHT_EVENING_UNDO_AFTER_BUMP", "1") == "1"
#: The classic books' point play, where doubling is allowed.
DOUBLING_EDITIONS = ("parker-1950", "parker-1939")
#: - a new game with other colours than the pawns on a presence board (the tracker sets the new
#:   game up afresh, #22).
NEW_COLOURS = os.environ.get("PAWNLIGHT_EVENING_NEW_COLOURS", "1") == "1"

FIGURES: dict[str, int] = {}


def valid(config: dict) -> bool:
    try:
        GameConfig(
            edition=config["edition"],
            players=tuple(config["players"]),
            teams=config["teams"],
            variant=config["variant"],
        ).check()
    except (GameError, ValueError):
        return False
    return True


@st.composite
def game_configs(draw) -> dict:
    edition = draw(st.sampled_from(sorted(EDITIONS)))
    variant = draw(st.sampled_from(sorted(EDITIONS[edition].variants)))
    if variant == "points" and not DOUBLING:
        variant = "standard"  # point play's doubling belongs to #22 (see DOUBLING)
    count = 2 if variant == "patience" else draw(st.integers(2, 4))
    players = draw(st.permutations(COLOURS))[:count]
    teams = count == 4 and variant != "patience" and draw(st.booleans())
    config = {"edition": edition, "variant": variant, "players": list(players), "teams": teams}
    if EDITIONS[edition].extra_one and draw(st.booleans()):
        config["extra_one"] = True  # the optional sixth 1 (the simulated pack has its tag)
    if draw(st.booleans()):
        seat = draw(st.sampled_from(players[1:]))
        config["computer"] = {seat: draw(st.sampled_from(["random", "heuristic"]))}
    if valid(config):
        return config
    return {"edition": "hasbro-2002", "variant": "standard", "players": ["red", "blue"]}


class EveningMachine(RuleBasedStateMachine):
    """What a family does on an evening; the daemon must keep every confirmed move."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="pawnlight-evening-"))
        self.evening = Evening(self.folder)
        self.evening.start()
        self.state = self.evening.state()
        self.rng = random.Random(0)
        self.undone_bump = False
        # Storage disasters, each at most twice an evening: every one costs a rescue or a
        # restart (seconds), and Hypothesis would otherwise pick them as often as a card.
        self.disasters_left = 2

    def teardown(self) -> None:
        try:
            if self.state.get("game_id") is not None:
                self.evening.check_records(self.evening.check())
        finally:
            self.evening.stop()
            for name, count in self.evening.figures.items():
                FIGURES[name] = FIGURES.get(name, 0) + count
            FIGURES["evenings"] = FIGURES.get("evenings", 0) + 1
            shutil.rmtree(self.folder, ignore_errors=True)

    # -- helpers ------------------------------------------------------------------------------

    def count(self, what: str) -> None:
        self.evening.figures[what] += 1

    def playing(self) -> bool:
        return self.state.get("game_id") is not None and self.state["phase"] in (
            "draw",
            "move",
            "choose",
        )

    def refresh(self) -> None:
        self.state = self.evening.settled()

    # -- the evening --------------------------------------------------------------------------

    @initialize(config=game_configs(), seed=st.integers(0, 2**16))
    def first_game(self, config: dict, seed: int) -> None:
        self.rng = random.Random(seed)
        self.new_game(config)

    @precondition(lambda self: self.playing() and self.state["phase"] == "draw")
    @rule(card=st.sampled_from(sorted(CARDS)))
    def scan(self, card: str) -> None:
        self.count("cards scanned")
        with contextlib.suppress(Refused):  # a card this game's pack lacks: the page says so
            self.evening.call("POST", "/api/sim/scan", {"card": card})
        self.refresh()

    @precondition(lambda self: self.playing() and self.state["phase"] == "move")
    @rule(pick=st.integers(0, 1000))
    def make_the_lit_move(self, pick: int) -> None:
        """Lift and place the pawns one at a time: switches, split 7s, slides and bumps too."""
        state = self.state
        done = len(state["history"])
        legal = state["legal"]
        if not legal:
            return
        choice = legal[pick % len(legal)]
        if state.get("guided"):  # the computer's move or a hint is lit alone: make that one
            choice = next((m for m in legal if m["text"] == state["guided"]["text"]), choice)
        move = parse_move(choice["text"], Position.from_json(state["pawns"]), state["teams"])
        for action, square, colour in actions_for(move, self.rng):
            if action == "lift":
                self.evening.lift(square)
            else:
                assert colour is not None
                self.evening.place(square, colour)
        state = self.evening.wait(
            lambda s: len(s["history"]) > done or s["phase"] == "choose", what=choice["text"]
        )
        if state["phase"] == "choose":
            self.evening.call("POST", "/api/resolve", {"move": choice["text"]}, pin=True)
            state = self.evening.wait(lambda s: len(s["history"]) > done, what="the choice")
        self.count("moves made")
        self.undone_bump = False
        self.state = self.evening.settled()

    @precondition(lambda self: self.playing())
    @rule(turns=st.integers(1, 8), cards=st.randoms(use_true_random=False))
    def play_some_turns(self, turns: int, cards: random.Random) -> None:
        """A stretch of ordinary play: scan a card, make the lit move, turn after turn."""
        for _ in range(turns):
            if self.state["phase"] == "draw":
                self.scan(cards.choice(sorted(CARDS)))
            if self.state["phase"] == "move":
                self.make_the_lit_move(cards.randrange(1000))
            if not self.playing():
                return

    @precondition(lambda self: self.playing())
    @rule(turns=st.integers(10, 30), cards=st.randoms(use_true_random=False))
    def play_a_long_stretch(self, turns: int, cards: random.Random) -> None:
        """Most of an evening is plain play: a shuffled pack drawn in order, each card played as
        lit, so the games get past their opening into slides, bumps, safety zones and HOME."""
        self.count("long stretches")
        pack = Deck(cards, extra_one=bool(self.state.get("extra_one")))
        for _ in range(turns):
            if self.state["phase"] == "draw":
                self.scan(pack.draw())
            if self.state["phase"] == "move":
                self.make_the_lit_move(cards.randrange(1000))
            if not self.playing():
                return

    @precondition(lambda self: self.playing() and self.state["phase"] in ("draw", "move"))
    @rule(pick=st.integers(0, 1000), square_number=st.integers(0, 59))
    def knock_a_pawn_then_put_it_back(self, pick: int, square_number: int) -> None:
        """A wrong move or a knocked pawn: the board shows what to fix, nothing is played."""
        state = self.state
        history = list(state["history"])
        physical = self.evening.physical()
        pawns = [(c, p) for c, places in physical.items() for p in places if p != "home"]
        if not pawns:
            return
        colour, place = pawns[pick % len(pawns)]
        taken = {p for places in physical.values() for p in places}
        square = f"T{square_number}"
        if square in taken or square == place:
            return
        wrong = {c: list(ps) for c, ps in physical.items()}
        wrong[colour].remove(place)
        wrong[colour].append(square)
        moving = state["phase"] == "move"
        lit = [m["text"] for m in state["legal"]] if moving else []
        outcomes = [m["pawns"] for m in state["legal"]] if moving else []
        if any(all(sorted(o.get(c, [])) == sorted(wrong.get(c, [])) for c in o) for o in outcomes):
            return  # that would be a legal move after all
        self.evening.lift(place_square(colour, place))
        self.evening.place(square, colour)
        self.count("wrong moves and knocks")
        shown = self.evening.wait(lambda s: s["corrections"], what="the guidance")
        assert shown["history"] == history, "a wrong board must never be played"
        self.state = self.evening.follow_guidance(self.rng)
        if self.state["history"] != history:
            # Guidance for a wrong attempt at the lit move leads to that move (the mover's pawn
            # put on T1 for T3: "move it from T1 to T3"); then it is played, and nothing else.
            assert self.state["history"][:-1] == history and self.state["history"][-1] in lit
            self.count("wrong moves completed by the guidance")

    @precondition(lambda self: self.state.get("can_undo") and self.state["phase"] != "over")
    @rule(button=st.booleans())
    def undo(self, button: bool) -> None:
        before = len(self.state["history"])
        last = self.state["turns"][-1] if self.state["turns"] else None
        bumped = last is not None and bumps(last)
        if bumped and not UNDO_AFTER_BUMP:
            return  # guidance colours after undoing a bump: #16's i22 part (see UNDO_AFTER_BUMP)
        self.count("undos")
        if button:
            self.count("button presses")
            self.evening.call("POST", "/api/sim/press", {"button": "undo", "bounce": True})
        else:
            try:
                self.evening.call("POST", "/api/undo", {}, pin=True)
            except Refused:
                return
        self.state = self.evening.follow_guidance(self.rng)
        # One press is one undo, however much the button bounced.
        assert len(self.state["history"]) >= before - 1

    @precondition(lambda self: self.playing() and self.state["phase"] == "move")
    @rule(button=st.booleans())
    def hint(self, button: bool) -> None:
        self.count("hints")
        if button:
            self.count("button presses")
            self.evening.call("POST", "/api/sim/press", {"button": "hint", "bounce": True})
        else:
            # Refused in words on a computer's turn: "a hint is for a person with a card".
            with contextlib.suppress(Refused):
                self.evening.call("POST", "/api/hint", {}, pin=True)
        self.refresh()

    @rule(config=game_configs())
    def new_game(self, config: dict) -> None:
        """A new game, also in the middle of one (which is then abandoned)."""
        colours = self.state.get("players")
        if colours and not NEW_COLOURS and sorted(colours) != sorted(config["players"]):
            config = same_colours(config, colours)
        self.count("games started")
        if config.get("extra_one"):
            self.count("games with the extra 1")
        self.evening.call("POST", "/api/game", config, pin=True)
        self.state = self.evening.follow_guidance(self.rng)
        self.state = self.evening.wait(
            lambda s: s["phase"] in ("draw", "over"), what="the first turn"
        )
        self.undone_bump = False

    @rule(
        config=game_configs(),
        cards=st.lists(st.sampled_from(sorted(CARDS)), min_size=12, max_size=12),
        restart_after=st.integers(0, 15),  # most draws end sooner: a restart now and then
        kill=st.booleans(),
    )
    def new_game_with_a_leader_draw(
        self, config: dict, cards: list[str], restart_after: int, kill: bool
    ) -> None:
        """Each player scans a card, the highest leads (ties draw again); the daemon may restart
        part-way through the draw, which goes on where it was."""
        self.count("leader draws")
        self.evening.call("POST", "/api/game", {**config, "draw_leader": True}, pin=True)
        state = self.evening.wait(lambda s: s["phase"] == "leader", what="the leader draw")
        for number, card in enumerate(cards):
            if number == restart_after:
                self.count("restarts during a leader draw")
                self.evening.restart(kill)
                again = self.evening.wait(lambda s: s["phase"] == "leader", what="the draw back")
                assert again["leader"] == state["leader"]
            with contextlib.suppress(Refused):
                self.evening.call("POST", "/api/sim/scan", {"card": card})
            state = self.evening.settled()
            if state["phase"] != "leader":
                break
        if state["phase"] == "leader":
            return  # tie after tie: the draw is still on (new game ends it)
        winners = state["players"]
        self.state = self.evening.follow_guidance(self.rng)
        assert self.state["players"] == winners and self.state["leader"] is None
        self.undone_bump = False

    def point_play_with_doubling(self) -> bool:
        state = self.state
        return (
            DOUBLING
            and state.get("game_id") is not None
            and state["variant"] == "points"
            and state["edition"] in DOUBLING_EDITIONS
            and state["phase"] in ("draw", "move", "double")
        )

    @precondition(lambda self: self.point_play_with_doubling())
    @rule(
        caller=st.integers(0, 3),
        answers=st.lists(st.booleans(), min_size=3, max_size=3),
        restart=st.sampled_from([None, None, None, "stop", "kill"]),
    )
    def double_and_answer(self, caller: int, answers: list[bool], restart: str | None) -> None:
        """Point play: a player doubles (re-doubles after an accepted double); the others accept
        or drop out, maybe with a restart while they think. A game everyone else drops ends."""
        state = self.state
        if state["phase"] != "double":
            colour = state["players"][caller % len(state["players"])]
            try:
                self.evening.call("POST", "/api/double", {"colour": colour}, pin=True)
            except Refused:
                return  # that player has dropped out
            self.count("doubles")
            state = self.evening.wait(lambda s: s["phase"] == "double", what="the double")
        if restart is not None:
            self.count("restarts during a double")
            self.evening.restart(restart == "kill")
            state = self.evening.follow_guidance(self.rng)
            assert state["phase"] == "double"
        for colour, accept in zip(list(state["waiting_for"]), answers, strict=False):
            answer = "accept" if accept else "drop"
            self.count(f"{answer}s")
            self.evening.call("POST", f"/api/{answer}", {"colour": colour}, pin=True)
        self.state = self.evening.follow_guidance(self.rng)
        self.state = self.evening.settled()

    @precondition(
        lambda self: (
            self.state.get("game_id") is not None
            and self.state["phase"] == "over"
            and self.state.get("match") is not None
        )
    )
    @rule(restart=st.booleans())
    def next_game_of_the_match(self, restart: bool) -> None:
        """The winner leads the match's next game; points carry over, also across a restart."""
        before = self.state
        if restart:
            self.count("restarts between games")
            self.evening.restart(kill=True)
            again = self.evening.wait(lambda s: s["phase"] == "over", what="the match back")
            assert again["match"] == before["match"]
        self.count("next games")
        self.evening.call("POST", "/api/next-game", {}, pin=True)
        self.state = self.evening.follow_guidance(self.rng)
        state = self.state
        assert state["match"]["game"] == before["match"]["game"] + 1
        assert state["match"]["totals"] == {
            colour: before["match"]["totals"][colour] + (before["scores"] or {}).get(colour, 0)
            for colour in before["match"]["totals"]
        }
        if before["result"]["winners"]:
            assert state["players"][0] == before["result"]["winners"][0]  # the winner leads
        self.undone_bump = False

    @rule(brightness=st.floats(0.1, 1.0), settle=st.sampled_from([0.1, 0.15, 0.2]))
    def settings(self, brightness: float, settle: float) -> None:
        self.count("settings")
        body = {"brightness": round(brightness, 2), "settle": settle}
        self.evening.call("POST", "/api/settings", body, pin=True)
        self.refresh()

    @rule(kill=st.booleans())
    def restart(self, kill: bool) -> None:
        """Power cut (SIGKILL) or a clean stop (SIGTERM): the game resumes where it was."""
        before = self.evening.check()
        self.count("daemon kills" if kill else "daemon restarts")
        self.evening.restart(kill)
        state = self.evening.follow_guidance(self.rng)
        if before.get("game_id") is not None and before["phase"] != "over":
            assert state["game_id"] == before["game_id"]
            assert state["history"] == before["history"]
            assert normal(state["pawns"]) == normal(before["pawns"])
            assert state["turn"] == before["turn"]
        self.state = self.evening.settled()

    @rule(fault=st.sampled_from(["unplug", "power-cut", "garbage", "bad-error", "bad-snapshot"]))
    def trouble_on_the_line(self, fault: str) -> None:
        self.count("line faults")
        self.evening.call("POST", "/api/sim/line", {"fault": fault})
        if fault == "unplug":
            self.evening.wait(lambda s: not s["link"]["up"], what="the link to drop")
            time.sleep(0.2)
            self.evening.call("POST", "/api/sim/line", {"fault": "plug"})
        self.evening.wait(lambda s: s["link"]["up"], timeout=30, what="the link to come back")
        self.state = self.evening.follow_guidance(self.rng)

    @precondition(lambda self: self.playing() and self.state["phase"] == "draw")
    @rule(card=st.sampled_from(["1", "2", "sorry"]))
    def storage_fails_then_works(self, card: str) -> None:
        """A write fails (the disk is full): nothing is confirmed, then all of it is saved."""
        wal = self.folder / "journal.sqlite3-wal"
        if not wal.exists():
            return
        self.count("storage faults")
        self.evening.limit_file_size(wal.stat().st_size)
        try:
            with contextlib.suppress(Refused):
                self.evening.call("POST", "/api/sim/scan", {"card": card})
            # Held (nothing is decided while the draw cannot be saved), or saved and settled.
            state = self.evening.wait(
                lambda s: s["settled"] or not s["storage"]["ok"], what="the draw saved or held"
            )
        finally:
            self.evening.limit_file_size(None)
        if not state["storage"]["ok"]:
            assert "cannot be saved" in state["warning"]
            self.count("storage faults seen")
        state = self.evening.wait(lambda s: s["storage"]["ok"], what="the storage to work")
        self.state = self.evening.settled()

    @precondition(lambda self: self.playing() and self.disasters_left > 0)
    @rule(then=st.sampled_from(["play on", "restart", "kill"]))
    def journal_files_deleted(self, then: str) -> None:
        """Someone deletes the journal's files while the game goes on: what the daemon holds is
        written to a fresh journal in their place, every confirmed turn in it (the invariant
        reads it), and a restart or a power cut after it resumes the game where it was."""
        told = self.evening.rescues()
        self.disasters_left -= 1
        if not self.evening.delete_journal_files():
            return
        self.count("journal files deleted")
        # Rescued by the next write or the check every 2 s: the players are told each time.
        self.evening.daemon.wait_for(
            lambda: self.evening.rescues() > told and (self.folder / "journal.sqlite3").exists(),
            30,
        )
        self.state = self.evening.settled()
        if then != "play on":
            self.restart(kill=then == "kill")

    @precondition(
        lambda self: self.playing() and self.state["phase"] == "draw" and self.disasters_left > 0
    )
    @rule(card=st.sampled_from(["1", "2", "sorry"]))
    def storage_read_only_then_writable(self, card: str) -> None:
        """The storage goes read-only (a failing SD card remounted so) and is made writable
        again: nothing is confirmed meanwhile, then all of it is saved, without a restart."""
        self.disasters_left -= 1
        self.count("read-only storage")
        self.evening.read_only(True)
        try:
            with contextlib.suppress(Refused):
                self.evening.call("POST", "/api/sim/scan", {"card": card})
            state = self.evening.wait(
                lambda s: s["settled"] or not s["storage"]["ok"], what="the draw saved or held"
            )
            if not state["storage"]["ok"]:
                assert "is read-only" in state["warning"], state["warning"]
                self.count("read-only storage seen")
        finally:
            self.evening.read_only(False)
        self.evening.wait(lambda s: s["storage"]["ok"], timeout=30, what="the storage to work")
        self.state = self.evening.settled()

    @precondition(
        lambda self: self.playing() and self.state["phase"] == "draw" and self.disasters_left > 0
    )
    @rule(card=st.sampled_from(["1", "2", "sorry"]))
    def storage_read_only_at_start(self, card: str) -> None:
        """The daemon starts again (a power cut) on a storage that is read-only, a card is drawn
        (held), and the storage is made writable: the held draw is saved without a restart."""
        self.disasters_left -= 1
        self.count("read-only storage at start")
        self.evening.read_only(True)
        try:
            self.evening.restart(kill=True)
            with contextlib.suppress(Refused):
                self.evening.call("POST", "/api/sim/scan", {"card": card})
            self.evening.wait(
                lambda s: s["settled"] or not s["storage"]["ok"], what="the draw saved or held"
            )
        finally:
            self.evening.read_only(False)
        self.evening.wait(lambda s: s["storage"]["ok"], timeout=30, what="the storage to work")
        self.state = self.evening.settled()

    # -- after every step ---------------------------------------------------------------------

    @invariant()
    def nothing_lost(self) -> None:
        self.count("steps")
        self.state = self.evening.check()


def same_colours(config: dict, colours: list[str]) -> dict:
    """``config`` played with ``colours`` (see NEW_COLOURS)."""
    changed = dict(config, players=list(colours), teams=config["teams"] and len(colours) == 4)
    seats = {c: spec for c, spec in config.get("computer", {}).items() if c in colours[1:]}
    changed.pop("computer", None)
    if seats:
        changed["computer"] = seats
    if not valid(changed):
        changed["variant"], changed["teams"] = "standard", False
    return changed


def bumps(turn: dict) -> bool:
    """Whether a turn sent a pawn back to START (its before/after positions say so)."""
    before, after = turn.get("before") or {}, turn.get("after") or {}
    for colour in after:
        if after[colour].count("start") > before.get(colour, []).count("start"):
            return True
    return False


@pytest.mark.slow
def test_evenings_at_the_board():
    started = time.monotonic()
    FIGURES.clear()
    run = EveningMachine.TestCase
    run.settings = settings(
        max_examples=EVENINGS,
        stateful_step_count=STEPS,
        deadline=None,
        derandomize=True,
        database=None,
        phases=(Phase.explicit, Phase.reuse, Phase.generate),  # a failure is reported as found
        suppress_health_check=list(HealthCheck),
    )
    run().runTest()
    seconds = time.monotonic() - started
    print(f"\nevenings: {dict(sorted(FIGURES.items()))} in {seconds:.0f} s")
