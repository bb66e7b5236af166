"""A club's live games end to end: boards publish their games to a real Mosquitto with their own
credentials, the club's subscriber (the read-only dashboard user) keeps the latest of each, and
its page lists them, live, at phone and desktop size.

With PAWNLIGHT_DOC_SHOTS=1 the browser test also writes docs/img/club-phone.png and
club-desktop.png (the pictures in docs/remote.md).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from pawnlight.remote.club_view import ClubModel
from pawnlight.remote.link.board_link import parse_remote
from pawnlight.remote.link.club_client import ClubListener
from pawnlight.remote.live import encode, live_topic, summary
from pawnlight.remote.protocol import presence_payload, presence_topic
from pawnlight.rules import Deck
from pawnlight.rules.board import COLOURS
from pawnlight.rules.game import Game, GameConfig, Phase
from pawnlight.web.club_page import ClubFeed, create_club_app
from pawnlight.web.server import WebServer

from ..helpers import PHONE, ROOT, screenshot
from .boards import BoardProcess
from .broker import DASHBOARD, Broker, password_of

DESKTOP = {"width": 1280, "height": 800}
DOCS = ROOT / "docs" / "img"


def eventually(check: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    """Wait (polling) until ``check()`` is truthy; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(0.05)


class FakeBoard:
    """A board that only publishes (a paho client with the board's own user and password)."""

    def __init__(self, broker: Broker, board: str, user: str | None = None) -> None:
        self.board = board
        user = user or board
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"fake-{board}")
        self.client.username_pw_set(user, password_of(user))
        self.client.will_set(presence_topic(board), presence_payload(False), qos=1, retain=True)
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()

    def send(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)

    def live(self, game: dict[str, Any] | None) -> None:
        self.send(live_topic(self.board), encode(self.board, game, time.time()))

    def online(self, up: bool) -> None:
        self.send(presence_topic(self.board), presence_payload(up))

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def game_after(turns: int, seed: int, players: tuple[str, ...] = ("red", "blue")) -> dict:
    """A live summary of a game played ``turns`` turns with random legal moves."""
    rng = random.Random(seed)
    deck, game = Deck(rng), Game(GameConfig(edition="hasbro-2002", players=players))
    history: list[str] = []
    for _ in range(turns):
        game.draw(deck.draw())
        if game.phase == Phase.MOVE:
            if game.legal:
                game.play(rng.choice(game.legal))
            else:
                game.forfeit()
        history.append("x")
    card = deck.draw()
    game.draw(card)
    turn = COLOURS[game.turn]
    state = {
        "phase": "move" if game.phase == Phase.MOVE else "draw",
        "message": f"{turn.capitalize()} drew {card}: make the move",
        "edition": "hasbro-2002",
        "variant": "standard",
        "players": list(players),
        "turn": turn,
        "card": card,
        "pawns": game.position.to_json(),
        "history": history,
    }
    game_summary = summary(state)
    assert game_summary is not None
    return game_summary


class Club:
    """The club's subscriber and page, in this process, as ``pawnlight club`` runs them."""

    def __init__(self, broker: Broker) -> None:
        self.model = ClubModel()
        self.feed = ClubFeed(self.model, interval=0.1)
        self.server = WebServer(create_club_app(self.feed, heartbeat=2.0), "127.0.0.1", 0)
        self.listener = ClubListener(
            parse_remote(broker.url), self.model, DASHBOARD, password_of(DASHBOARD)
        )

    def start(self) -> None:
        self.feed.start()
        self.server.start()
        self.listener.start()
        eventually(lambda: self.model.connected, what="the club connected")

    def stop(self) -> None:
        self.listener.stop()
        self.server.stop()
        self.feed.stop()

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.server.url.rstrip("/") + path, timeout=5) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def game(self, board: str) -> dict[str, Any] | None:
        found = self.model.board(board)
        return None if found is None else found.game


@pytest.fixture
def club(broker: Broker) -> Iterator[Club]:
    made = Club(broker)
    made.start()
    try:
        yield made
    finally:
        made.stop()


@pytest.mark.slow
def test_a_real_board_publishes_its_game_and_the_club_lists_it(
    tmp_path: Path, broker: Broker, club: Club
) -> None:
    daemon = BoardProcess(tmp_path / "board-a", broker, "board-a")
    daemon.data.mkdir()
    daemon.start()
    try:
        # No game yet: listed, online, "game": null.
        board = eventually(lambda: club.model.board("board-a"), what="board-a listed")
        eventually(lambda: (b := club.model.board("board-a")) and b.online and b.live)
        assert board.game is None
        daemon.request(
            "POST", "/api/game", {"edition": "hasbro-2002", "players": ["red", "green"]}, pin=True
        )
        game = eventually(lambda: club.game("board-a"), what="board-a's game")
        state = daemon.state()
        assert game["players"] == ["red", "green"] and game["pawns"] == state["pawns"]
        assert game["phase"] == state["phase"] and game["message"] == state["message"]

        # Another board's user cannot write board-a's game (the ACL); board-b's own is listed.
        forger = FakeBoard(broker, "board-a", user="board-c")
        forger.live(None)
        forger.close()
        honest = FakeBoard(broker, "board-b")
        honest.live(game_after(6, seed=1))
        honest.send(live_topic("board-b"), b"{not json")  # malformed: ignored, counted
        honest.online(True)
        eventually(lambda: (b := club.model.board("board-b")) and b.online)
        assert club.game("board-a") is not None, "the forged message reached the club"
        assert club.game("board-b") is not None and club.model.ignored == 1

        status, text = club.get("/api/club")
        snapshot = json.loads(text)
        assert status == 200 and [b["board"] for b in snapshot["boards"]] == ["board-a", "board-b"]
        assert snapshot["boards"][0]["game"]["players"] == ["red", "green"]
        status, page = club.get("/")
        assert status == 200 and 'id="club-board-a"' in page and 'id="club-board-b"' in page
        assert page.count("<svg") >= 2 and "1 message ignored" in page
        status, card = club.get("/partial/club/board-a")
        assert status == 200 and card.count("<svg") == 1 and "Red" in card
        assert club.get("/partial/club/nobody")[0] == 404
        honest.close()
    finally:
        daemon.stop()
    # The board stopped: it says so (its presence), and the club marks it offline.
    eventually(lambda: club.model.board("board-a").online is False, what="board-a offline")  # type: ignore[union-attr]
    assert club.game("board-a") is not None  # its last game stays on the page


@pytest.mark.slow
@pytest.mark.browser
def test_the_club_page_shows_every_board_live_at_phone_and_desktop_size(
    broker: Broker, club: Club, browser
) -> None:
    boards = {name: FakeBoard(broker, name) for name in ("board-a", "board-b")}
    try:
        boards["board-a"].live(game_after(14, seed=3, players=("red", "blue", "yellow")))
        boards["board-a"].online(True)
        boards["board-b"].live(None)
        boards["board-b"].online(True)
        eventually(lambda: len(club.model.boards()) == 2 and club.model.board("board-b").online)  # type: ignore[union-attr]

        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(club.server.url)
        page.wait_for_selector("#conn[data-state='live']")
        cards = page.locator(".club-board")
        assert cards.count() == 2
        first = page.locator("#club-board-a")
        assert first.locator("svg").count() == 1
        assert "’s turn" in first.locator(".club-turn").inner_text()
        assert page.locator("#club-board-b .club-idle").inner_text() == "No game on this board now."
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= PHONE["width"], "the page scrolls sideways on a phone"

        # Live: board-b starts a game, board-c appears, board-a goes offline.
        boards["board-b"].live(game_after(0, seed=5, players=("green", "blue")))
        page.wait_for_selector("#club-board-b .club-drawing svg")
        boards["board-c"] = FakeBoard(broker, "board-c")
        boards["board-c"].live(game_after(30, seed=7, players=("red", "yellow")))
        boards["board-c"].online(True)
        page.wait_for_selector("#club-board-c .club-drawing svg")
        order = page.eval_on_selector_all(".club-board", "cards => cards.map(c => c.dataset.board)")
        assert order == ["board-a", "board-b", "board-c"]
        boards["board-a"].online(False)
        page.wait_for_selector("#club-board-a [data-online='false']")
        assert page.locator("#club-counts").inner_text() == "3 boards · 2 online · 3 playing"
        shot(page, "club-phone")

        page.set_viewport_size(DESKTOP)
        # Three boards a row at desktop width (one a row on the phone).
        page.wait_for_function(
            "getComputedStyle(document.getElementById('club-boards'))"
            ".gridTemplateColumns.split(' ').length === 3"
        )
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= DESKTOP["width"]
        shot(page, "club-desktop")
        context.close()
        assert not errors, f"errors in the page's script: {errors}"
    finally:
        for fake in boards.values():
            fake.close()


def shot(page, name: str) -> None:
    path = screenshot(page, name)
    if os.environ.get("PAWNLIGHT_DOC_SHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS / f"{name}.png")
