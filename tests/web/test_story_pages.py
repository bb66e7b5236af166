"""The story of a finished game on the page (issue #49): its JSON, the block of the end screen
and of a past game's page, rendered by the server (the background teller is a stand-in here:
tests/store/test_story.py runs the real one)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest

from pawnlight.players.heuristic import HeuristicPlayer
from pawnlight.players.story import tell
from pawnlight.players.table import play_game
from pawnlight.rules.game import GameConfig
from pawnlight.web.app import create_app
from pawnlight.web.story import chart_svg

from ..helpers import SQUARE_CODE
from .helpers import PIN, SECRET
from .test_pages import page, visible_text


class Teller:
    """Answers as the runtime's StoryTeller does, from what the test sets."""

    def __init__(self) -> None:
        self.answers: dict[int, dict[str, Any]] = {}
        self.asked: list[int] = []

    def status(self, game_id: int) -> dict[str, Any]:
        self.asked.append(game_id)
        return self.answers.get(game_id, {"state": "none", "reason": "the game is not finished"})


GAME = play_game(
    GameConfig(edition="hasbro-2002", players=("red", "blue", "yellow")),
    {c: HeuristicPlayer() for c in (0, 1, 2)},
    "web-story:1",
)
STORY = tell(GAME, 1)


@pytest.fixture
def teller() -> Teller:
    return Teller()


@pytest.fixture
def client(service, clock, teller):
    service.records[1] = (GAME, datetime(2026, 1, 2, 15, 0).astimezone())
    app = create_app(service, pin=PIN, secret_key=SECRET, clock=clock, stories=teller)
    return app.test_client()


def test_the_json_says_ready_working_or_none(client, teller):
    teller.answers[1] = {"state": "working", "done": 10, "of": 40}
    assert client.get("/api/games/1/story").get_json() == {"state": "working", "done": 10, "of": 40}
    teller.answers[1] = {"state": "ready", "story": STORY}
    assert client.get("/api/games/1/story").get_json()["story"] == STORY
    response = client.get("/api/games/9/story")
    assert response.status_code == 404 and response.get_json() == {"error": "no game 9"}
    assert teller.asked == [1, 1]  # an unknown game starts nothing


def test_the_block_shows_how_far_the_work_has_got(client, teller):
    teller.answers[1] = {"state": "working", "done": 12, "of": 40}
    html = page(client, "/partial/story/1")
    assert 'id="story"' in html and "data-pending" in html
    assert "12 of 40 turns" in html and '<progress max="40" value="12">' in html
    teller.answers[1] = {"state": "none", "reason": "the game is not finished"}
    html = page(client, "/partial/story/1")
    assert "data-pending" not in html and "the game is not finished" in html


def test_the_chart_has_a_line_per_colour_in_its_colour_and_pattern(client, teller):
    teller.answers[1] = {"state": "ready", "story": STORY}
    html = page(client, "/partial/story/1")
    lines = re.findall(r'<polyline class="story-line c-(\w+)" data-colour="\1"([^>]*)>', html)
    assert [colour for colour, _ in lines] == ["red", "blue", "yellow"]
    dashes = [re.search(r'stroke-dasharray="([^"]+)"', rest) for _, rest in lines]
    assert dashes[0] is None and dashes[1] and dashes[2] and dashes[1][1] != dashes[2][1]
    points = re.search(r'data-colour="red"[^>]*points="([^"]+)"', html)
    assert points is not None and len(points[1].split()) == len(GAME.history) + 1
    for point in STORY["turning_points"]:
        assert f'href="/?turn={point["turn"]}"' in html  # the end screen's history
    text = visible_text(html)
    assert "The three moves that cost most" in text and not SQUARE_CODE.search(text)


def test_a_past_games_page_has_its_story_and_turns_in_words(client, teller):
    teller.answers[1] = {"state": "ready", "story": STORY}
    html = page(client, "/games/1?turn=5")
    assert 'id="story"' in html and "story-chart" in html
    for point in STORY["turning_points"]:
        turn = point["turn"]
        assert f'href="/games/1?turn={turn}#turn-{turn}"' in html
    assert re.search(r'<li id="turn-5" aria-current="true"', html)
    assert len(re.findall(r'<li id="turn-\d+"', html)) == len(GAME.history)
    text = visible_text(html)
    assert not SQUARE_CODE.search(text) and "squares" not in text
    assert page(client, "/partial/story/1?link=past").count('href="/games/1?turn=') >= 3
    assert client.get("/games/9").status_code == 404
    assert 'href="/games/1">how it went</a>' in page(client, "/games")


def test_the_end_screen_has_the_story_block(client, service, teller):
    teller.answers[1] = {"state": "ready", "story": STORY}
    assert 'id="story"' not in page(client)  # no game over: no story
    service.patch(phase="over", game_id=1, players=["red", "blue", "yellow"])
    html = page(client)
    assert 'id="story"' in html and "story-chart" in html
    live = page(client, "/partial/live")  # the live fragment keeps the page's own block
    assert re.search(
        r'<section class="panel story" id="story" data-story="1" data-pending data-keep', live
    )


def test_the_chart_of_a_one_turn_story_still_draws():
    story = {
        "turns": [{"turn": 1, "chances": {"red": 1.0, "blue": 0.0}}],
        "turning_points": [],
        "costly_moves": [],
    }
    svg = chart_svg(story)
    assert svg.count("<polyline") == 2 and ">1</text>" in svg
