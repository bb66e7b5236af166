"""The companion's turn loop, played through readings and card tags."""

import pytest

from pawnlight.companion.service import CommandRefused
from pawnlight.companion.signals import Buzz, FinishRecord, Pressed, RecordEvent, StartRecord
from pawnlight.rules import Position
from pawnlight.rules.board import parse_colour

from .bench import Bench


def initial(*colours: str) -> Position:
    return Position.initial([parse_colour(c) for c in colours])


def started(layout: str = "colour", players=("red", "blue"), **args) -> Bench:
    bench = Bench(layout)
    bench.command("new_game", players=list(players), **args)
    assert bench.companion.phase == "setup"
    bench.show(bench.game.position)
    assert bench.companion.phase == "draw"
    return bench


def test_a_new_game_waits_for_the_board_then_for_a_card():
    bench = Bench()
    bench.command("new_game", players=["red", "blue"])
    assert any(isinstance(e, StartRecord) for e in bench.effects)
    assert bench.companion.phase == "setup"
    bench.show(initial("red", "blue"))
    state = bench.companion.state().to_json()
    assert state["phase"] == "draw" and state["turn"] == "red"
    assert state["pawns"] == {"red": ["start"] * 4, "blue": ["start"] * 4}


def test_a_move_is_recognised_recorded_then_play_passes():
    bench = started()
    bench.scan("1")
    state = bench.companion.state().to_json()
    assert state["phase"] == "move" and state["card"] == "1"
    assert [m["text"] for m in state["legal"]] == ["R:start-T4"]
    after = bench.game.legal[0].after
    bench.show(after)
    state = bench.companion.state().to_json()
    assert state["history"] == ["R:start-T4"] and state["turn"] == "blue"
    kinds = [e.event.kind for e in bench.effects if isinstance(e, RecordEvent)]
    assert kinds == ["draw", "move"]


def test_a_move_is_not_accepted_before_the_board_has_settled():
    bench = started()
    bench.scan("1")
    bench.show(bench.game.legal[0].after, settle=False)
    bench.advance(0.1)
    assert bench.companion.phase == "move"
    bench.advance(0.3)
    assert bench.companion.phase == "draw"


def test_unknown_tags_are_refused_and_the_same_tag_twice_is_ignored():
    bench = started()
    bench.effects.clear()
    from pawnlight.companion.signals import CardScanned

    bench.effects += bench.companion.handle(CardScanned("DEADBEEF", 1.0))
    assert "unknown card tag DEADBEEF" in bench.companion.state().to_json()["warning"]
    assert Buzz("illegal") in bench.effects
    bench.scan("5")  # red cannot move: forfeited, blue's turn
    assert bench.game.history[-1].text == "forfeit"
    before = len(bench.game.events)
    uid = next(
        u
        for u, c in __import__("tests.companion.bench", fromlist=["UIDS"]).UIDS.items()
        if c == "5"
    )
    bench.effects += bench.companion.handle(CardScanned(uid, 2.0))
    assert len(bench.game.events) == before  # held on the reader: ignored


def test_a_wrong_move_gets_corrections_and_nothing_is_recorded():
    bench = started()
    bench.scan("1")
    wrong = Position.from_json({"red": ["T5", "start", "start", "start"], "blue": ["start"] * 4})
    bench.show(wrong)
    bench.advance(2.5)
    state = bench.companion.state().to_json()
    assert state["phase"] == "move"
    assert state["corrections"] and "1st square after red's start circle" in state["corrections"][0]
    assert bench.game.history == ()
    bench.show(bench.game.legal[0].after)
    assert bench.game.history[-1].text == "R:start-T4"


def test_a_takeback_on_the_board_undoes_the_move():
    bench = started()
    bench.scan("2")
    bench.show(bench.game.legal[0].after)  # R:start-T4, red draws again
    assert bench.companion.phase == "draw" and bench.game.turn == 0
    bench.show(initial("red", "blue"))
    assert bench.companion.phase == "draw"  # not yet: a takeback is held a while
    bench.advance(1.6)
    state = bench.companion.state().to_json()
    assert state["history"] == [] and state["phase"] == "move" and state["card"] == "2"
    assert [e.kind for e in bench.recorded()] == ["draw", "move", "undo"]


def test_undo_from_the_page_waits_for_the_board_to_be_put_back():
    bench = started()
    bench.scan("1")
    bench.show(bench.game.legal[0].after)
    reply = bench.command("undo")
    assert reply["undone"].startswith("red's move")
    assert bench.companion.phase == "setup"
    bench.show(initial("red", "blue"))
    assert bench.companion.phase == "move" and bench.game.card == "1"


def test_presence_boards_ask_when_two_moves_look_alike():
    """Red's 11 can switch with blue or move: a switch looks like nothing on a presence board."""
    bench = Bench("presence")
    position = Position.from_json(
        {"red": ["T10", "start", "start", "start"], "blue": ["T30", "start", "start", "start"]}
    )
    from pawnlight.rules import Game, GameConfig

    game = Game(GameConfig(players=("red", "blue")), position)
    bench.companion.resume(game)
    bench.show(position)
    assert bench.companion.phase == "draw"
    bench.scan("11")
    # Lift both pawns and put them back exchanged: the switch cannot be seen.
    lifted = Position.from_places([(66, 66, 66), (66, 66, 66), None, None])
    bench.show(lifted, settle=False)
    bench.show(position)
    state = bench.companion.state().to_json()
    assert state["phase"] == "choose", state["message"]
    assert "T10<>T30" in [c["text"] for c in state["choices"]]
    bench.command("resolve", move="T10<>T30")
    assert bench.game.history[-1].text == "T10<>T30"


def test_declining_an_11_with_the_confirm_button():
    bench = Bench()
    position = Position.from_json(
        {"red": ["T0", "start", "start", "start"], "blue": ["T30", "start", "start", "start"]}
    )
    from pawnlight.rules import Game, GameConfig

    # Red's T0 cannot go 11 forward (past home): it may switch with blue, or decline.
    bench.companion.resume(Game(GameConfig(players=("red", "blue")), position))
    bench.show(position)
    bench.scan("11")
    assert bench.companion.state().to_json()["forfeit_allowed"]
    bench.effects += bench.companion.handle(Pressed("confirm", bench.now + 0.1))
    assert bench.game.history[-1].text == "forfeit" and bench.game.turn == 1


def test_leader_draw_with_a_tie():
    bench = Bench()
    bench.command("new_game", players=["red", "blue", "green"], draw_leader=True)
    assert bench.companion.phase == "leader"
    bench.scan("10")
    bench.scan("10")
    bench.scan("3")
    assert bench.companion.phase == "leader"
    assert bench.companion.state().to_json()["leader"]["drawing"] == ["red", "blue"]
    bench.scan("4")
    bench.scan("sorry")
    assert bench.companion.phase == "setup"
    assert bench.companion.state().to_json()["players"][0] == "blue"


def test_enrolment_asks_for_every_card_and_refuses_a_tag_twice():
    from pawnlight.companion.deck import CardDeck
    from pawnlight.companion.machine import Companion
    from pawnlight.companion.signals import CardScanned, SaveDeck

    bench = Bench()
    bench.companion = Companion(bench.layout, CardDeck())
    with pytest.raises(CommandRefused, match="enrol the pack"):
        bench.command("new_game", players=["red", "blue"])
    bench.command("enrol")
    assert "scan a 1 card (1 of 4)" in bench.companion.state().to_json()["enrol"]["prompt"]
    effects = bench.companion.handle(CardScanned("AA000001", 1))
    assert "scan a 1 card (2 of 4)" in bench.companion.state().to_json()["enrol"]["prompt"]
    bench.companion.handle(CardScanned("AA000002", 2))
    effects = bench.companion.handle(CardScanned("AA000001", 3))
    assert "already enrolled as a 1" in (bench.companion.warning or "")
    for number in range(3, 45):
        effects = bench.companion.handle(CardScanned(f"AA0000{number:02X}", 3 + number))
    saved = [effect.uids for effect in effects if isinstance(effect, SaveDeck)]
    assert len(saved) == 1 and len(saved[0]) == 44 and saved[0]["AA00002C"] == "sorry"
    assert bench.companion.deck.identify("AA00002C")[0] == "sorry"


def test_point_play_doubling_through_commands():
    bench = started(players=("red", "blue", "green"), edition="parker-1950", variant="points")
    bench.command("double", colour="blue")
    assert bench.companion.state().to_json()["phase"] == "double"
    bench.command("accept", colour="red")
    bench.command("drop", colour="green")
    state = bench.companion.state().to_json()
    assert state["doubled"] == 1 and state["phase"] == "draw"
    with pytest.raises(CommandRefused, match="name the colour"):
        bench.command("double")


VARIANTS = [
    ("presence", {"edition": "hasbro-2002", "players": ["red", "blue", "yellow", "green"]}),
    (
        "colour",
        {"edition": "hasbro-2002", "teams": True, "players": ["red", "blue", "yellow", "green"]},
    ),
    (
        "presence",
        {"edition": "parker-1950", "teams": True, "players": ["blue", "yellow", "green", "red"]},
    ),
    ("colour", {"edition": "parker-1950", "variant": "points", "players": ["red", "green"]}),
    ("presence", {"edition": "parker-1939", "variant": "quick", "players": ["yellow", "green"]}),
    ("colour", {"edition": "parker-1939", "variant": "patience", "players": ["red", "yellow"]}),
    ("colour", {"edition": "parker-1950", "extra_one": True, "players": ["red", "blue", "green"]}),
]


@pytest.mark.parametrize(("layout", "config"), VARIANTS)
def test_whole_games_of_every_variant_end_with_a_finished_record(layout, config):
    import random

    from pawnlight.rules import Deck

    rng = random.Random(3)
    deck = Deck(rng, extra_one=config.get("extra_one", False))
    bench = Bench(layout)
    bench.command("new_game", **config)
    bench.show(bench.game.position)
    played = []
    for _ in range(5000):
        if bench.companion.phase == "over":
            break
        bench.scan(deck.draw())
        if bench.companion.phase == "move":
            assert bench.companion.state().to_json()["statistics"] is None  # only once it is over
            played.append(rng.choice(bench.game.legal))
            bench.play(played[-1])
    assert bench.companion.phase == "over"
    assert any(isinstance(e, FinishRecord) for e in bench.effects)
    state = bench.companion.state().to_json()
    assert state["result"]["winners"] or state["result"]["patience"]
    assert len(state["history"]) == len(bench.game.history)
    # The end-of-game figures agree with the moves the players made on the board.
    figures = state["statistics"]
    assert figures["turns"] == len(bench.game.history)
    assert figures["bumps"] == sum(len(move.bumped) for move in played)
    assert figures["slides"] == sum(len(move.slides) for move in played)
    assert figures["forfeits"] == len(bench.game.history) - len(played)
    assert sum(c["turns"] for c in figures["colours"].values()) == figures["turns"]
    assert set(figures["colours"]) == set(state["players"])
    # What was recorded replays to the same game.
    from pawnlight.rules import Game

    replayed = Game.replay(bench.game.config, bench.recorded())
    assert replayed.history == bench.game.history


def test_a_computer_seat_chooses_and_a_person_makes_its_move():
    bench = started(players=("red", "blue"), computer={"blue": "heuristic"})
    bench.scan("5")  # red cannot move: forfeited
    bench.scan("1")  # blue's card: the computer chooses
    state = bench.companion.state().to_json()
    assert state["computer"] == {"blue": "normal"}  # the level the New game form names
    assert state["guided"]["text"] == "B:start-T19" and "computer" in state["guided"]["by"]
    # A person makes the lit move for the computer.
    bench.play(bench.game.legal[0])
    assert bench.game.history[-1].text == "B:start-T19"


def test_computer_seats_must_be_players_and_known_players():
    bench = Bench()
    with pytest.raises(CommandRefused, match="green is not playing"):
        bench.command("new_game", players=["red", "blue"], computer={"green": "heuristic"})
    with pytest.raises(CommandRefused, match="unknown player"):
        bench.command("new_game", players=["red", "blue"], computer={"blue": "genius"})


@pytest.mark.parametrize("settings", [{"edition": 5}, {"variant": None}, {"edition": ["quick"]}])
def test_a_new_game_names_its_edition_and_variant_in_words(settings):
    # Words, not the compiled GameConfig's own TypeError (docs/rules-core.md).
    bench = Bench()
    with pytest.raises(CommandRefused, match=r"unknown (edition|variant) .* \(expected one of"):
        bench.command("new_game", players=["red", "blue"], **settings)


def test_the_hint_button_lights_the_suggested_move():
    bench = started()
    bench.effects += bench.companion.handle(Pressed("hint", bench.now))
    assert (
        "a hint is for a person with a card to play" in bench.companion.state().to_json()["warning"]
    )
    bench.scan("1")
    bench.effects += bench.companion.handle(Pressed("hint", bench.now))
    assert bench.companion.state().to_json()["guided"] == {"text": "R:start-T4", "by": "hint"}


def test_computer_seats_go_into_the_record_and_come_back_on_resume():
    bench = started(players=("red", "blue"), computer={"blue": "heuristic"})
    start = next(e for e in bench.effects if isinstance(e, StartRecord))
    assert start.computer == (("blue", "normal"),)  # one name for one player in the record
    game = bench.game
    resumed = Bench()
    resumed.effects += resumed.companion.resume(game, {"blue": "heuristic"})
    assert resumed.companion.state().to_json()["computer"] == {
        "blue": "normal"
    }  # an old record: its level
    # A header that no longer fits the game (hand-edited, damaged) leaves people in every seat.
    damaged = Bench()
    damaged.effects += damaged.companion.resume(game, {"green": "heuristic"})
    state = damaged.companion.state().to_json()
    assert state["computer"] == {} and "green is not playing" in state["warning"]


def test_a_hint_lights_one_move_and_the_player_may_still_choose():
    bench = started()
    bench.scan("1")
    reply = bench.command("hint")
    assert reply["hint"] == "R:start-T4"
    assert bench.companion.state().to_json()["guided"] == {"text": "R:start-T4", "by": "hint"}
    bench.play(bench.game.legal[0])
    assert bench.companion.state().to_json()["guided"] is None


# -- issue #22: recognition always follows the phase and the card -----------------------------


def _points_red_yellow_after_a_5_and_a_double() -> Bench:
    bench = started(players=("red", "yellow"), edition="parker-1950", variant="points")
    bench.scan("5")
    assert [m["text"] for m in bench.companion.state().to_json()["legal"]] == ["T4-T9"]
    bench.command("double", colour="yellow")
    assert bench.companion.phase == "double"
    return bench


def _made(bench: Bench, move_text: str) -> bool:
    return bool(bench.game.history) and bench.game.history[-1].text == move_text


def test_a_double_accepted_after_a_restart_recognises_the_cards_move():
    """Issue #22, 1: scan 5, yellow doubles, restart, red accepts, red makes T4-T9."""
    from pawnlight.rules import Game

    before = _points_red_yellow_after_a_5_and_a_double()
    restarted = Bench()
    game = Game.replay(before.game.config, before.recorded())
    restarted.effects += restarted.companion.resume(game)
    restarted.show(game.position)
    assert restarted.companion.phase == "double"
    restarted.command("accept", colour="red")
    assert restarted.companion.phase == "move"
    restarted.play(restarted.game.legal[0])
    assert _made(restarted, "T4-T9"), restarted.companion.state().to_json()["corrections"]
    assert restarted.companion.phase == "draw" and restarted.game.turn == parse_colour("yellow")


def test_a_double_accepted_after_drop_and_undo_recognises_the_cards_move():
    """Issue #22, 1: ... drop -> game over -> undo -> accept."""
    bench = _points_red_yellow_after_a_5_and_a_double()
    bench.command("drop", colour="red")
    assert bench.companion.phase == "over"
    bench.command("undo")
    bench.show(bench.game.position)
    assert bench.companion.phase == "double"
    bench.command("accept", colour="red")
    bench.play(bench.game.legal[0])
    assert _made(bench, "T4-T9"), bench.companion.state().to_json()["corrections"]


def test_a_double_called_during_a_move_keeps_the_move_recognisable_once_accepted():
    bench = _points_red_yellow_after_a_5_and_a_double()
    bench.command("accept", colour="red")
    bench.play(bench.game.legal[0])
    assert _made(bench, "T4-T9")


def _switch_offered() -> Bench:
    """Red's 11 may switch with blue or go forward; the pawns were handled and put back: a
    presence board cannot see a switch, so it asks."""
    from pawnlight.rules import Game, GameConfig

    bench = Bench("presence")
    position = Position.from_json(
        {"red": ["T10", "start", "start", "start"], "blue": ["T30", "start", "start", "start"]}
    )
    bench.companion.resume(Game(GameConfig(players=("red", "blue")), position))
    bench.show(position)
    bench.scan("11")
    lifted = Position.from_places([(66, 66, 66), (66, 66, 66), None, None])
    bench.show(lifted, settle=False)
    bench.show(position)
    bench.advance(1.0)  # left still well past the settle time
    state = bench.companion.state().to_json()
    assert state["phase"] == "choose" and [c["text"] for c in state["choices"]] == ["T10<>T30"]
    return bench


def test_in_choose_a_legal_move_made_on_the_board_wins():
    """Issue #22, 5: the forward 11 made on the board is played, the question withdrawn."""
    bench = _switch_offered()
    from pawnlight.rules import move_text

    forward = next(m for m in bench.game.legal if move_text(m) == "T10-T21")
    bench.play(forward)
    assert _made(bench, "T10-T21")
    assert bench.companion.phase == "draw" and bench.companion.state().to_json()["choices"] == []
    with pytest.raises(CommandRefused, match="no move to choose"):
        bench.command("resolve", move="T10<>T30")


def test_in_choose_a_choice_the_board_no_longer_shows_is_refused():
    bench = _switch_offered()
    # Both pawns are lifted again: the board shows none of the moves offered.
    lifted = Position.from_places([(66, 66, 66), (66, 66, 66), None, None])
    bench.show(lifted)
    with pytest.raises(CommandRefused, match="the board has changed"):
        bench.command("resolve", move="T10<>T30")
    assert bench.game.history == ()
    # Put back, the question comes again and may be answered.
    bench.show(bench.game.position)
    bench.advance(1.0)
    assert bench.companion.phase == "choose"
    bench.command("resolve", move="T10<>T30")
    assert _made(bench, "T10<>T30")


def test_a_new_settle_time_applies_to_the_move_being_made():
    bench = started()
    bench.scan("1")
    bench.command("settings", settle=1.0)
    assert bench.companion.recogniser is not None
    assert bench.companion.recogniser.settle == 1.0
    bench.show(bench.game.legal[0].after)  # still for 0.5 s: not yet
    assert bench.companion.phase == "move"
    bench.advance(0.6)
    assert bench.game.history[-1].text == "R:start-T4"


def test_an_answer_with_no_question_asked_is_not_called_stale():
    bench = started()
    bench.scan("1")
    with pytest.raises(CommandRefused, match="no move to choose between now"):
        bench.command("resolve", move="R:start-T4")


def test_a_new_game_plays_by_its_house_rules():
    bench = started(players=("red", "blue"), edition="parker-1950", house_rules=["diamond-lock"])
    assert bench.game.edition.diamond_lock
    assert bench.game.config.house_rules == ("diamond-lock",)
    with pytest.raises(CommandRefused, match="unknown house rule 'sticky'"):
        Bench("colour").command("new_game", players=["red", "blue"], house_rules=["sticky"])


def test_trouble_outside_the_game_is_the_warning_until_it_is_put_right():
    from pawnlight.companion.signals import Trouble

    bench = started()
    companion = bench.companion
    assert companion.handle(Trouble("the disk is full", bench.now)) == []
    assert companion.state().to_json()["warning"] == "the disk is full"
    companion.handle(Trouble("another problem", bench.now, over=True))  # not the one shown
    assert companion.warning == "the disk is full"
    companion.handle(Trouble("the disk is full", bench.now, over=True))
    assert companion.warning is None


def test_a_sensor_stuck_on_a_pawn_during_play_is_the_companions_warning():
    from pawnlight.board.cells import EMPTY, parse_cell_name
    from pawnlight.board.snapshot import reading_for, true_occupancy
    from pawnlight.companion.signals import Reading

    bench = started("presence")
    cells = list(true_occupancy(bench.game.position))
    stuck, busy = parse_cell_name("T20"), parse_cell_name("T30")
    cells[stuck] = 0  # a pawn read where the game has none
    # Nine and a half minutes in which another sensor changes 36 times, T20 never.
    for step in range(36):
        cells[busy] = 0 if step % 2 == 0 else EMPTY
        bench.now += 16
        bench.companion.handle(Reading(reading_for(bench.layout, tuple(cells)), bench.now))
        bench.advance(0.01)
    assert bench.companion.stuck == []  # not yet ten minutes
    bench.now += 60  # ten minutes since T20 first read the pawn
    bench.advance(1.1)
    assert [suspect["cell"] for suspect in bench.companion.stuck] == ["T20"]
    assert (bench.companion.warning or "").startswith("a sensor may be stuck: T20")


def test_a_switch_only_the_board_can_settle_says_so_and_confirm_settles_it():
    """Issue #34, 2: a switch on a presence board looks like no move.  Every phone (and the
    simulator) reads the state's message: it names the move and the board's Confirm button,
    the LEDs light the move's pawns; Confirm plays it without the owner's phone."""
    bench = _switch_offered()
    state = bench.companion.state().to_json()
    assert state["message"] == (
        "The board cannot tell this move from no move. If it was this: the red pawn on the "
        "1st square of red's long slide switches places with the blue pawn on the 2nd square "
        "after blue's long slide, press Confirm on the board"
    )
    assert state["lit"]["T30"] == "switch" and state["lit"]["T10"] == "pawn"
    bench.effects += bench.companion.handle(Pressed("confirm", bench.now + 0.1))
    assert _made(bench, "T10<>T30")
    assert bench.companion.phase == "draw"


def _scan_uid(bench: Bench, uid: str) -> None:
    from pawnlight.companion.signals import CardScanned

    bench.now += 0.01
    bench.effects += bench.companion.handle(CardScanned(uid, bench.now))


def test_a_card_drawn_twice_warns_with_what_to_do_and_only_for_its_turn():
    """Issue #34, 7: a new game starts from a shuffled pack (no warning for the first 1 of a
    fresh points game); a card drawn twice since says what to do, and goes with its turn."""
    from .bench import CARD_UIDS

    one, two = CARD_UIDS["1"][0], CARD_UIDS["2"][0]
    bench = started(players=("red", "yellow"), edition="parker-1950", variant="points")
    _scan_uid(bench, one)
    assert bench.companion.state().to_json()["warning"] is None
    bench.play(bench.game.legal[0])
    _scan_uid(bench, two)  # yellow's 2: out of START, draws again
    bench.play(bench.game.legal[0])
    _scan_uid(bench, one)  # the same 1 again, with no shuffle between
    warning = bench.companion.state().to_json()["warning"]
    assert warning == (
        "This 1 was drawn before since the pack was shuffled: play on; if it went back into "
        "the pack by mistake, take it out after this turn"
    )
    bench.play(bench.game.legal[0])
    assert bench.companion.state().to_json()["warning"] is None  # gone with its turn
    # A new game: the pack is shuffled, the same card is no news.
    bench.command("new_game", players=["red", "yellow"], edition="parker-1950", variant="points")
    bench.show(bench.game.position)
    _scan_uid(bench, two)  # (the reader ignores the tag it read last, still on it)
    assert bench.companion.state().to_json()["warning"] is None
    bench.play(bench.game.legal[0])
    _scan_uid(bench, one)
    assert bench.companion.phase == "move"
    assert bench.companion.state().to_json()["warning"] is None


def test_a_card_scanned_when_none_is_wanted_says_what_to_do():
    bench = started()
    bench.scan("1")
    bench.scan("5")
    assert bench.companion.state().to_json()["warning"] == (
        "a 5 was scanned, but no card is wanted now: put it back on the pile and finish the "
        "move first (this goes once it is made)"
    )
    bench.play(bench.game.legal[0])
    state = bench.companion.state().to_json()
    assert state["phase"] == "draw" and state["warning"] is None  # its cause has gone


def test_a_card_scanned_while_the_board_asks_which_move_goes_with_the_answer():
    """Issue #47, 2: a card scanned during "Which move was it?" is refused; once Confirm
    settles the move, the next player's "Draw a card" does not keep the warning."""
    from pawnlight.rules import Game, GameConfig

    bench = Bench("presence")
    position = Position.from_json(
        {
            "red": ["T10", "start", "start", "start"],
            "blue": ["T30", "start", "start", "start"],
        }
    )
    bench.companion.resume(Game(GameConfig(players=("red", "blue")), position))
    bench.show(position)
    bench.scan("11")
    lifted = Position.from_places([(66, 66, 66), (66, 66, 66), None, None])
    bench.show(lifted, settle=False)
    bench.show(position)
    bench.advance(1.0)
    assert bench.companion.state().to_json()["phase"] == "choose"
    bench.scan("1")
    assert "no card is wanted now" in bench.companion.state().to_json()["warning"]
    bench.effects += bench.companion.handle(Pressed("confirm", bench.now + 0.1))
    bench.advance(0.5)
    state = bench.companion.state().to_json()
    assert state["phase"] == "draw" and state["turn"] == "blue", state["message"]
    assert state["warning"] is None


def test_the_boards_hint_steps_through_the_choices_and_confirm_takes_the_one_lit():
    """Issue #34: with several moves that a presence board cannot tell apart, the board alone
    settles any of them: Hint lights the next choice alone, Confirm takes the one lit."""
    from pawnlight.rules import Game, GameConfig

    bench = Bench("presence")
    position = Position.from_json(
        {
            "red": ["T10", "start", "start", "start"],
            "blue": ["T30", "start", "start", "start"],
            "green": ["T50", "start", "start", "start"],
        }
    )
    bench.companion.resume(Game(GameConfig(players=("red", "blue", "green")), position))
    bench.show(position)
    bench.scan("11")
    lifted = Position.from_places([(66, 66, 66), (66, 66, 66), None, (66, 66, 66)])
    bench.show(lifted, settle=False)
    bench.show(position)
    bench.advance(1.0)
    state = bench.companion.state().to_json()
    texts = [c["text"] for c in state["choices"]]
    assert state["phase"] == "choose" and {"T10<>T30", "T10<>T50"} <= set(texts)
    assert state["choice_shown"] is None and "press Hint" in state["message"]
    second = texts[1]
    bench.effects += bench.companion.handle(Pressed("hint", bench.now + 0.1))
    bench.advance(0.2)
    state = bench.companion.state().to_json()
    assert state["choice_shown"] == 1
    assert state["message"].startswith(f"Choice 2 of {len(texts)} lit:")
    # Lit alone and steady: the other choice's pawn stays dim through what used to be its
    # turn to be shown (each candidate had CANDIDATE_PERIOD in turn).
    from pawnlight.board.cells import cell_of
    from pawnlight.board.leds import CANDIDATE_PERIOD, DIM, PAWN_COLOURS, scale
    from pawnlight.companion.lights import frame_for

    other = "T30" if second == "T10<>T50" else "T50"
    led = bench.layout.led_of[cell_of(0, int(other[1:]))]  # red's pawn would end there
    for step in range(8):
        frame = frame_for(bench.companion, bench.now + step * CANDIDATE_PERIOD / 4)
        assert frame[led] == scale(PAWN_COLOURS[0], DIM)
    bench.effects += bench.companion.handle(Pressed("confirm", bench.now + 0.1))
    assert _made(bench, second)
