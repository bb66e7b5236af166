"""The status page as the server renders it: complete without JavaScript."""

from __future__ import annotations

import re

from markupsafe import escape

from pawnlight.rules.house_rules import HOUSE_RULES

from ..helpers import SQUARE_CODE
from .helpers import THIS_PAGE, login


def visible_text(html: str) -> str:
    """What a person reads on a page: its text outside tags, scripts and the board's SVG."""
    html = re.sub(r"<(script|svg|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def page(client, path="/") -> str:
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    return response.get_data(as_text=True)


def test_with_no_game_the_page_says_so(client):
    html = page(client)
    assert 'id="phase" data-phase="idle">No game<' in html
    assert "the owner starts one on the status page" in html
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="board"' in html
    assert "No turns yet." in html


def test_the_page_shows_turn_card_phase_board_and_moves(client, service):
    service.start(("red", "blue"))
    service.scan("1")
    html = page(client)
    assert 'id="turn" class="turn c-red" data-colour="red"' in html
    assert 'id="card" class="card" data-card="1"' in html
    assert 'data-phase="move">Make the move<' in html
    assert "Red plays a 1: make the move lit on the board" in html
    assert (
        'data-lit="T4" data-role="destination"' in html
    )  # the destination, highlighted on the board
    assert "A red pawn leaves START for red&#39;s start circle" in html  # the move in words
    assert "R:start-T4" not in visible_text(html)  # the notation is the API's, not the page's
    assert "<title>Red’s turn · pawnlight</title>" in html


def test_history_lines_link_to_each_turns_board(client, service):
    service.start(("red", "blue"))
    service.scan("1")
    service.play("R:start-T4")
    service.scan("2")
    service.play("B:start-T19")
    html = page(client)
    link = r'href="/\?turn=(\d)" data-turn="\d" data-testid="history-line"'
    lines = re.findall(link, html)
    assert lines == ["2", "1"]  # newest first
    assert "Red, 1: a red pawn leaves START for red&#39;s start circle" in html
    assert "Blue, 2: a blue pawn leaves START for blue&#39;s start circle" in html
    replay = page(client, "/?turn=1&when=before")
    assert 'class="board-wrap replaying"' in replay
    assert "Turn 1, before: Red, 1: a red pawn leaves START for red&#39;s start circle" in replay
    assert not SQUARE_CODE.search(visible_text(replay))  # the record's notation stays there
    assert 'id="replay-bar" class="replay-bar"  data-turn="1"' in replay
    assert 'http-equiv="refresh"' not in replay  # a replay does not reload itself away
    # Issue #47, 7: the replay's legend has no slide, nor a pawn sent back, for this turn.
    assert '<li data-mark="data-dest"><i' in replay
    assert '<li data-mark="data-slide" hidden>' in replay
    assert '<li data-mark="data-bump" hidden>' in replay
    assert 'http-equiv="refresh"' in page(client)


def test_a_turn_that_does_not_exist_is_a_note_not_an_error(client, service):
    assert "There is no turn 4 (the game has 0 so far)." in page(client, "/?turn=4")
    assert "There is no turn &#39;x&#39;." in page(client, "/?turn=x")


def test_corrections_warnings_link_and_text_are_shown_and_escaped(client, service):
    service.command("new_game", {"players": ["red", "blue"]})
    html = page(client)
    assert 'data-phase="setup">Set up the board<' in html
    # A new game's set-up is one line, not one per pawn.
    fixes = re.search(r'<ol id="corrections".*?</ol>', html, re.S)
    assert fixes and fixes.group().count("<li>") == 1
    assert "Put 4 pawns in each START: red, blue" in fixes.group()
    service.patch(warning="<script>alert(1)</script>", message="a & b")
    service.link(False, "the USB cable is out")
    html = page(client)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert" not in html
    assert "a &amp; b" in html
    assert 'data-up="false">Board not connected: the USB cable is out' in html


def test_a_board_that_keeps_restarting_is_not_shown_as_healthy(client, service):
    service.link(True, "connected")
    html = page(client)
    assert 'class="chip link ok"' in html and "Board connected" in visible_text(html)
    assert "board-restarts" not in html
    service.patch(board_health={"steady": False, "restarts": 3, "minutes": 5})
    html = page(client)
    text = " ".join(visible_text(html).split())
    assert 'class="chip link warn"' in html and "Board connected but restarting" in text
    assert (
        "The board restarted 3 times in the last 5 minutes: check its USB cable and its power "
        "supply" in text
    )
    # Steady again (or a daemon that does not say): the warning goes.
    service.patch(board_health={"steady": True, "restarts": 1, "minutes": 5})
    html = page(client)
    assert 'class="chip link ok"' in html and "board-restarts" not in html
    assert "restart" not in visible_text(html)


def test_scores_and_match_totals_in_point_play(client, service):
    service.patch(
        phase="over",
        players=["red", "yellow"],
        scores={"red": 45, "yellow": 10},
        match={"game": 2, "totals": {"red": 70, "yellow": 35}, "wins": {"red": 1, "yellow": 1}},
        result={"winners": ["red"], "double_game": False, "patience": None, "reason": ""},
        doubled=1,
    )
    html = page(client)
    found = re.search(r'<tr data-colour="red">.*?</tr>', html, re.S)
    assert found is not None
    row = found.group(0)
    assert re.findall(r"<td>(\d+)</td>", row) == ["45", "70", "1"]
    assert "game 2 of the match" in html and "scores count ×2" in html
    assert 'id="result" class="result">Red won<' in html


def test_a_finished_game_shows_its_figures(client, service):
    assert 'id="statistics"' not in page(client)
    service.patch(
        phase="over",
        players=["red", "blue"],
        result={"winners": ["blue"], "double_game": False, "patience": None, "reason": ""},
        statistics={
            "turns": 83,
            "bumps": 7,
            "swept": 2,
            "slides": 4,
            "switches": 1,
            "sorries": 3,
            "forfeits": 12,
            "forfeits_by_card": {"sorry": 2, "10": 1},
            "colours": {
                "red": {
                    "turns": 42,
                    "forfeits": 7,
                    "bumps_made": 2,
                    "bumped": 5,
                    "slides": 1,
                    "pawns_home": 2,
                },
                "blue": {
                    "turns": 41,
                    "forfeits": 5,
                    "bumps_made": 5,
                    "bumped": 2,
                    "slides": 3,
                    "pawns_home": 4,
                },
            },
        },
    )
    html = page(client)
    assert "83 turns · 7 pawns sent back to start (2 swept off slides) · 4 slides" in html
    assert "1 switch · 3 Sorry! cards · 12 turns without a move" in html
    found = re.search(r'id="statistics".*?<tr data-colour="blue">(.*?)</tr>', html, re.S)
    assert found is not None
    row = found.group(1)
    assert re.findall(r"<td>(\d+)</td>", row) == ["41", "5", "5", "2", "3", "4"]
    assert "Cards that could not move: Sorry! ×2, 10 ×1." in html


def test_the_owner_sees_the_buttons_for_this_moment(client, service):
    service.start(("red", "blue"))
    service.scan("1")
    service.play("R:start-T4")
    assert 'data-action="undo"' not in page(client)
    login(client)
    html = page(client)
    assert 'data-action="undo"' in html and 'id="new-game-form"' in html
    service.patch(
        phase="choose", choices=[{"text": "T4-T11"}, {"text": "T4-T3"}], choice_unchanged=True
    )
    html = page(client, "/partial/live")
    assert "data-body='{&#34;move&#34;: &#34;T4-T11&#34;}'" in html
    assert "No move was made" in html


def test_a_move_only_the_board_can_settle_is_explained_to_every_phone(client, service):
    """Issue #34, 2: everyone reads what to press on the board; only the owner gets buttons."""
    service.start(("red", "blue"))
    switch = {"text": "T4<>T30", "words": "the red pawn switches places with the blue pawn"}
    service.patch(phase="choose", choices=[switch], choice_unchanged=True)
    for path in ("/", "/partial/live"):
        html = page(client, path)
        how = re.search(r'<p id="choose-how"[^>]*>(.*?)</p>', html, re.S)
        assert how is not None
        words = re.sub(r"<[^>]+>", "", how.group(1))
        assert "Press Confirm on the board if it was this" in words
        assert "the red pawn switches places with the blue pawn" in html
        assert "Confirm on the board</span>" in html
        assert 'data-action="resolve"' not in html and "T4&lt;&gt;T30</code>" not in html
    login(client)
    html = page(client, "/partial/live")
    assert 'data-action="resolve"' in html and "or tap the one it was" in html


def test_the_new_game_form_names_each_house_rule_and_what_it_changes(client):
    login(client)
    html = page(client)
    for name, summary in HOUSE_RULES.items():
        title = name.replace("-", " ").capitalize()
        assert f'value="{name}"> <span><strong>{title}</strong>' in html
        assert escape(summary[:1].upper() + summary[1:]) in html  # "Sorry!" keeps its capital


def test_doubling_buttons_only_in_classic_point_play(client, service):
    login(client)
    service.start(("red", "yellow"), edition="parker-1950", variant="points")
    html = page(client, "/partial/live")
    assert 'data-action="double"' in html and "Yellow doubles" in html
    service.command("double", {"colour": "red"})
    html = page(client, "/partial/live")
    assert "Yellow accepts" in html and "Yellow drops" in html and "Red accepts" not in html
    assert html.count('class="muted action-note">Accept: play on') == 1
    assert "Accept: play on, every score counts double. Drop: leave this game now" in html


def test_the_doubling_buttons_say_what_doubling_is(client, service):
    """Issue #34, 9: a word of explanation under the doubling buttons, once."""
    login(client)
    service.start(("red", "yellow"), edition="parker-1950", variant="points")
    html = page(client, "/partial/live")
    assert html.count('class="muted action-note">Doubling: a player who expects to win') == 1
    assert "if all drop, the doubler scores 25 points." in html


def test_the_end_of_a_game_shows_the_result_the_scores_and_what_next(client, service):
    """Issue #34, 9: the result, the scores, and what to do next, for everyone."""
    service.start(("red", "yellow"), edition="parker-1950", variant="points")
    service.patch(
        phase="over",
        result={"winners": ["red"], "double_game": False},
        scores={"red": 30, "yellow": 0},
        match={"game": 1, "totals": {"red": 30, "yellow": 0}, "wins": {"red": 1}},
    )
    html = page(client)
    assert '<p id="result" class="result">Red won</p>' in html
    assert "What next: press Confirm on the board to play the match’s next game" in html
    assert "the owner can also start another kind of game on their phone" in html
    assert "The scores are below." in html and '<tr data-colour="red">' in html
    login(client)
    html = page(client, "/partial/live")
    assert "or tap Next game below" in html and 'data-action="next-game"' in html


def test_the_fragment_has_the_three_live_regions(client):
    html = page(client, "/partial/live")
    ids = re.findall(r'^<(?:section|div) id="(\w+)"', html, re.M)
    assert ids == ["summary", "board", "details"]
    assert "<html" not in html


def test_the_page_loads_nothing_from_elsewhere(client):
    html = page(client)
    for url in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert url.startswith(("/", "#")) or url == "http://localhost/", url
    assert "<script>" not in html  # no inline script: the CSP forbids it


def test_static_files_are_versioned_and_cached(client):
    html = page(client)
    found = re.search(r'href="(/static/style\.css\?v=\w+)"', html)
    assert found is not None
    css = found.group(1)
    response = client.get(css)
    assert response.status_code == 200 and "max-age=31536000" in response.headers["Cache-Control"]
    for script in ("live.js", "status.js", "owner.js"):
        assert f"/static/{script}?v=" in html


def test_the_share_section_has_a_qr_code_of_this_page(client):
    html = page(client)
    assert 'class="qr"><svg' in html and "QR code of http://localhost/" in html
    assert "only works on this machine" in html
    html = client.get("/", base_url="http://192.168.1.20:8080").get_data(as_text=True)
    assert "QR code of http://192.168.1.20:8080/" in html and "only works on" not in html


def highlighted(html: str) -> set[str]:
    """The places the page's live board highlights."""
    board = html[html.index('id="board"') :]
    board = board[: board.index("</svg>")]
    return set(re.findall(r'data-lit="([^"]+)"', board))


def test_the_page_highlights_exactly_what_the_leds_light_in_every_phase(client, service):
    """The page and the LEDs are drawn from one value: the state's ``lit``."""
    seen_phases = set()

    def check() -> None:
        state = service.state()
        seen_phases.add(state["phase"])
        assert highlighted(page(client, "/partial/live")) == set(state["lit"])

    check()  # no game
    service.command("new_game", {"players": ["red", "blue"]})
    check()  # setup: the corrections
    service.start(("red", "blue"))
    check()  # draw: whose turn
    service.scan("1")
    check()  # move: every legal move
    hint = client.post("/api/hint", headers={"X-CSRF-Token": login(client), **THIS_PAGE})
    assert hint.status_code == 200, hint.json
    state = service.state()
    assert state["guided"] and set(state["lit"].values()) >= {"hint"}
    check()  # a hint: only the suggested move, on the page as on the LEDs
    service.play("R:start-T4")
    check()
    assert {"idle", "setup", "draw", "move"} <= seen_phases


def test_the_card_is_read_out_once_punctuated(client, service):
    from pawnlight.web.view import card_sentence

    assert card_sentence("sorry") == "The card: a Sorry!"  # not "Sorry!."
    assert card_sentence("8") == "The card: an 8."
    service.start(("red", "blue"))
    service.scan("1")
    assert '<span class="sr-only">The card: a 1. </span>' in page(client)


def _play_turns(service, count: int) -> None:
    service.start(("red", "blue"))
    for _ in range(count):
        service.scan("1")
        service.play(service.state()["legal"][0]["text"])


def test_the_live_fragment_leaves_the_history_for_the_page_to_keep(client, service):
    _play_turns(service, 3)
    html = page(client, "/partial/live")
    assert '<section class="panel" id="history" data-keep></section>' in html
    assert "history-line" not in html
    full = page(client)
    assert full.count('data-testid="history-line"') == 3
    assert 'data-length="3"' in full


def test_history_lines_after_n_are_only_the_new_ones(client, service):
    _play_turns(service, 4)
    new = page(client, "/partial/history?after=2")
    assert re.findall(r'data-turn="(\d+)"', new) == ["4", "3"]
    assert "<section" not in new
    whole = page(client, "/partial/history?after=0")
    assert whole.startswith('  <section class="panel" id="history"') or 'id="history"' in whole
    assert re.findall(r'data-turn="(\d+)"', whole) == ["4", "3", "2", "1"]
    assert client.get("/partial/history?after=x").status_code == 400
    assert client.get("/partial/history?after=99999999999").status_code == 400


def test_an_undo_starts_a_new_history_epoch(client, service):
    _play_turns(service, 2)
    before = client.get("/api/state?compact=1").json
    service.scan("1")
    service.play(service.state()["legal"][0]["text"])
    grown = client.get("/api/state?compact=1").json
    assert grown["history_epoch"] == before["history_epoch"]  # only grew
    service.command("undo", {})
    undone = client.get("/api/state?compact=1").json
    assert undone["history_length"] == 2 and undone["history_epoch"] != grown["history_epoch"]


def test_a_fragment_is_rendered_once_per_version_for_everyone(client, app, service):
    from pawnlight.web.context import context_of

    _play_turns(service, 1)
    first = client.get("/partial/live")
    other = app.test_client().get("/partial/live")
    assert first.data == other.data and first.headers["ETag"] == other.headers["ETag"]
    cached = client.get("/partial/live", headers={"If-None-Match": first.headers["ETag"]})
    assert cached.status_code == 304
    renders = []

    def render() -> str:
        renders.append(1)
        return "never"

    ctx = context_of(app)
    assert ctx is not None
    state = service.state()
    ctx.live.text(state, ("live", False, "en"), render)  # per language too (#48)
    assert renders == []  # already built for this version


def test_no_square_code_or_internal_name_on_the_pages_a_family_sees(client, service):
    """Issue #34, 5: codes only in exports and the API; the rule books and games by name."""
    service.start(("red", "blue"))
    service.scan("1")
    service.play("R:start-T4")
    service.scan("3")  # a wrong board: corrections
    service.sim.set_board({"red": ["T9", "start", "start", "start"], "blue": ["start"] * 4})
    assert 'id="corrections"' in page(client)
    login(client)
    for path in ("/", "/partial/live", "/?turn=1&when=before", "/games", "/partial/games"):
        text = visible_text(page(client, path))
        assert not SQUARE_CODE.search(text), (path, SQUARE_CODE.search(text))
        assert "squares" not in text and "hasbro-2002" not in text and "JSON" not in text
    html = page(client)
    assert (
        '<a href="/diagnostics">Board health</a>' in html
        and '<a href="/games">Past games</a>' in html
    )
    assert ">Diagnostics<" not in html and 'href="/api/' not in html.split('id="owner"')[1]
    assert "Standard game · Hasbro, 2002" in page(client, "/partial/games")
    assert 'href="/api/games/1/record" download' in page(client, "/games")


def test_the_past_games_page_says_so_when_there_are_none(client):
    assert "No games yet." in page(client, "/games")


def test_the_board_settings_show_the_led_patterns_and_the_night_level(client, service):
    """Issue #48: the owner's Board settings show the saved patterns and night level, and the
    one-tap Night button says whether the LEDs are at it; a lit place carries its letter."""
    html = page(client)
    assert re.search(r'<input id="patterns" name="patterns" type="checkbox">', html)
    assert 'aria-pressed="false"' in html.split('id="night-toggle"')[1].split(">")[0]
    service.command("settings", {"patterns": True, "night": True, "night_level": 0.2})
    service.start(("red", "blue"))
    service.scan("1")
    html = page(client)
    assert '<input id="patterns" name="patterns" type="checkbox" checked>' in html
    assert '<input id="night" name="night" type="checkbox" checked>' in html
    assert 'id="night-level" name="night_level" type="range"' in html and 'value="0.2"' in html
    assert ">20 %</output>" in html
    assert 'aria-pressed="true"' in html.split('id="night-toggle"')[1].split(">")[0]
    # T4, red's destination, is marked with red's letter as red's pawns are.
    mark = html.split('data-lit="T4" data-role="destination"')[1]
    assert re.match(r'[^<]*/><text class="lit-letter"[^>]*fill="#a3162a"[^>]*>R</text>', mark)
