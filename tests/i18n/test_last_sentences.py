"""The last English a family could meet (issue #48, part d), in German, French and Spanish: what
a screen reader hears of the board picture, and a count's message (a plural) kept as a
message with its values."""

from __future__ import annotations

import re

import pytest

from pawnlight.board.svg import render_board
from pawnlight.i18n.marks import NN_
from pawnlight.i18n.message import Message, count_msg, render_json

LANGUAGES = ("de", "fr", "es")
PAWNS = {
    "red": ["start", "T7", "S2", "home"],
    "blue": ["start", "start", "T4", "T33"],
    "yellow": [],
    "green": ["home", "home", "home", "home"],
}
#: English game words a screen reader must not say in another language (German keeps START).
ENGLISH = (
    r"\b(empty|home|HOME|start|in|pawns?|slide|safety|square|circle|board"
    r"|red|blue|yellow|green)\b"
)


def labels(svg: str) -> list[str]:
    return re.findall(r'aria-label="([^"]*)"', svg)


def test_the_board_said_in_english_is_as_it_was():
    said = labels(render_board(PAWNS, interactive=True))
    assert said[0] == (
        "The board. red: T7, S2, 1 home, 1 in start; blue: T4, T33, 2 in start; "
        "yellow: no pawns on the board; green: 4 home."
    )
    assert "red's start circle, blue pawn" in said
    assert "the 3rd square after red's start circle, red pawn" in said
    assert "red's 2nd safety square, red pawn" in said
    assert "blue START, 2 blue pawns" in said and "yellow HOME, 0 yellow pawns" in said
    assert "red HOME, 1 red pawn" in said
    assert "the end of yellow's long slide, empty" in said


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_a_screen_reader_hears_of_the_board_is_in_the_pages_language(language):
    svg = render_board(PAWNS, interactive=True, language=language)
    said = labels(svg)
    assert len(said) == 1 + 60 + 4 * 5 + 8  # the board, the track, the safety zones, the areas
    for text in said:
        assert "%(" not in text
        assert not re.search(ENGLISH, text.replace("START", "") if language == "de" else text)
    words = re.findall(r'data-words="([^"]*)"', svg)
    assert len(words) == len(said) - 1 and not any(re.search(ENGLISH, w) for w in words[:-8])
    expected = {
        "de": (
            "Das Brett. Rot: T7, S2, 1 im ZIEL, 1 im START; Blau: T4, T33, 2 im START; "
            "Gelb: keine Figur auf dem Brett; Grün: 4 im ZIEL.",
            "der Startkreis von Rot, Figur von Blau",
            "der START von Blau, 2 Figuren von Blau",
            "das ZIEL von Rot, 1 Figur von Rot",
            "das 2. Feld der Sicherheitszone von Rot, Figur von Rot",
        ),
        "fr": (
            "Le plateau. Rouge : T7, S2, 1 dans la MAISON, 1 dans le DÉPART; "
            "Bleu : T4, T33, 2 dans le DÉPART; Jaune : aucun pion sur le plateau; "
            "Vert : 4 dans la MAISON.",
            "le cercle de départ de Rouge, pion de Bleu",
            "le DÉPART de Bleu, 2 pions de Bleu",
            # French counts 0 as one
            "la MAISON de Jaune, 0 pion de Jaune",
            "la 2e case de la zone de sécurité de Rouge, pion de Rouge",
        ),
        "es": (
            "El tablero. Rojo: T7, S2, 1 en la CASA, 1 en la SALIDA; Azul: T4, T33, "
            "2 en la SALIDA; Amarillo: ningún peón en el tablero; Verde: 4 en la CASA.",
            "el círculo de salida de Rojo, peón de Azul",
            "la SALIDA de Azul, 2 peones de Azul",
            "la CASA de Amarillo, 0 peones de Amarillo",
            "la 2.ª casilla de la zona de seguridad de Rojo, peón de Rojo",
        ),
    }[language]
    assert said[0] == expected[0]
    for label in expected[1:]:
        assert label in said
    assert f"<title>{expected[0]}</title>" in svg


FORMS = NN_("%(num)s card to go", "%(num)s cards to go")


def test_a_count_is_said_by_each_languages_plural_rule():
    one, none, many = (count_msg(FORMS, n) for n in (1, 0, 3))
    assert (one.render(), none.render(), many.render()) == (
        "1 card to go",
        "0 cards to go",
        "3 cards to go",
    )
    # French counts 0 as one: the catalog's own Plural-Forms rule chooses
    assert Message.from_json(none.to_json()) == none
    assert none.to_json() == {
        "id": "%(num)s card to go",
        "values": {"num": 0},
        "plural": "%(num)s cards to go",
    }
    assert render_json({"id": "%(num)s card to go", "plural": "%(num)s cards to go"}, "en") is None
    assert render_json({"id": "x", "plural": 3, "values": {"num": 1}}, "en") is None


def enrolling_bench():
    from pawnlight.companion.deck import CardDeck
    from pawnlight.companion.machine import Companion

    from ..companion.bench import Bench

    bench = Bench()
    bench.companion = Companion(bench.layout, CardDeck())
    return bench


def said_in(state: dict, name: str, language: str) -> str | None:
    return render_json(state["said"].get(name), language)


def test_the_packs_enrolment_is_said_in_each_language():
    from pawnlight.companion.signals import CardScanned

    bench = enrolling_bench()
    bench.command("enrol")
    state = bench.companion.state().to_json()
    # the state's English is what it always was
    assert state["enrol"]["prompt"] == "scan a 1 card (1 of 4), 44 cards to go"
    assert state["message"] == "Enrolling the pack: scan a 1 card (1 of 4), 44 cards to go"
    assert said_in(state, "enrol", "en") == state["enrol"]["prompt"]
    assert said_in(state, "message", "de") == (
        "Das Kartenspiel wird angelernt: scanne eine Karte 1 (1 von 4), noch 44 Karten"
    )
    bench.companion.handle(CardScanned("AA000001", 1))
    state = bench.companion.state().to_json()
    assert state["message"] == "1 enrolled; scan a 1 card (2 of 4), 43 cards to go"
    assert said_in(state, "message", "fr") == (
        "carte 1 enregistrée ; scannez une carte 1 (2 sur 4), encore 43 cartes"
    )
    bench.companion.handle(CardScanned("AA000002", 2))
    bench.companion.handle(CardScanned("AA000001", 3))  # a tag twice
    state = bench.companion.state().to_json()
    assert state["warning"] == "that tag is already enrolled as a 1"
    assert said_in(state, "warning", "es") == "esta etiqueta ya está registrada como carta 1"
    for number in range(3, 44):
        bench.companion.handle(CardScanned(f"AA0000{number:02X}", 3 + number))
    state = bench.companion.state().to_json()
    assert state["enrol"]["prompt"] == "scan a sorry card (4 of 4), 1 cards to go"
    # one card to go: each language's singular; the Sorry! card by its name
    assert said_in(state, "enrol", "de") == "scanne eine Karte Sorry! (4 von 4), noch 1 Karte"
    assert said_in(state, "enrol", "es") == ("escanea una carta ¡Sorry! (4 de 4), falta 1 carta")
    bench.companion.handle(CardScanned("AA00002C", 99))
    state = bench.companion.state().to_json()
    assert state["message"] == "The pack is enrolled." and state["enrol"] is None
    assert said_in(state, "message", "fr") == "Le paquet est enregistré."


def test_an_unknown_tag_is_said_in_each_language():
    from pawnlight.companion.signals import CardScanned

    from ..companion.bench import Bench

    bench = Bench()
    bench.command("new_game", players=["red", "blue"])
    bench.companion.handle(CardScanned("FFEEDD01", 1))
    state = bench.companion.state().to_json()
    assert state["warning"] == (
        "unknown card tag FFEEDD01: enrol the pack first, or this tag is not one of its cards"
    )
    assert (said_in(state, "warning", "de") or "").startswith("unbekannte Kartenmarke FFEEDD01: ")


def remote_board():
    from pawnlight.companion.signals import RemoteBoard
    from pawnlight.remote.protocol import Setup

    from ..companion.bench import Bench

    setup = Setup(
        "g0001",
        "board-a",
        "K7PQ3X",
        {"edition": "hasbro-2002", "players": ["red", "blue"]},
        {"red": "board-a", "blue": "board-b"},
    )
    bench = Bench()
    bench.command("remote_start", setup=setup.to_json(), me="board-a")
    for name in setup.boards():
        bench.effects += bench.companion.handle(RemoteBoard(name, True, bench.now))
    bench.show(bench.game.position)
    return bench


def test_a_board_buttons_other_refusals_are_said_in_each_language():
    from pawnlight.companion.service import CommandRefused
    from pawnlight.companion.signals import Pressed
    from pawnlight.i18n.message import said_of

    bench = remote_board()
    bench.effects += bench.companion.handle(Pressed("undo", bench.now + 0.1))
    state = bench.companion.state().to_json()
    assert state["warning"] == "nothing to take back"  # the state's English as it was
    assert said_in(state, "warning", "de") == "nichts zurückzunehmen"
    assert said_in(state, "warning", "fr") == "rien à reprendre"
    # the API's error stays English; its message is there for a page to say
    with pytest.raises(CommandRefused) as refused:
        bench.command("seat", colour="blue", player="normal")
    assert str(refused.value) == (
        "a seat given to the computer is not possible in a remote game: every board would have "
        "to agree (docs/remote.md)"
    )
    message = said_of(refused.value.args[0])
    assert message is not None and message.render("es").startswith(
        "dar un puesto al ordenador no es posible en una partida a distancia"
    )


def test_the_remote_games_refusals_and_the_boards_out_of_step_are_said_in_each_language():
    from pawnlight.remote.protocol import TurnEvent

    from ..companion.test_remote import board, deliver, sent

    b = board("board-b")
    deliver(b, [TurnEvent("g0001", 0, "board-a", 0, "1", "R:start-T9", "0" * 16)])
    state = b.companion.state().to_json()
    assert state["warning"] == (
        "Red's move from board board-a was refused: R:start-T9 is not a legal move for red's 1 "
        "here (this goes once the game moves on)"
    )
    assert said_in(state, "warning", "en") == state["warning"]
    german = said_in(state, "warning", "de") or ""
    assert german.startswith(
        "Der Zug von Rot vom Brett board-a wurde abgelehnt: R:start-T9 ist hier kein erlaubter "
        "Zug für die Karte 1 von Rot"
    )
    a = board("board-a")
    a.scan("1")
    a.play(a.game.legal[0])
    (good,) = sent(a)
    deliver(b, [TurnEvent(good.game, 0, good.board, 0, "1", good.move, "f" * 16)])
    state = b.companion.state().to_json()
    assert "the boards are out of step" in state["warning"]
    assert "les plateaux ne sont plus d’accord" in (said_in(state, "warning", "fr") or "")
    deliver(a, [TurnEvent(good.game, 0, "board-b", 0, "1", good.move, good.hash)])
    state = a.companion.state().to_json()
    assert state["warning"] == (
        "a turn from board board-b for red (a 1, turn 1) was refused: red is seated at board "
        "board-a (this goes once the game moves on)"
    )
    assert (said_in(state, "warning", "es") or "").startswith(
        "un turno desde el tablero board-b para Rojo (un 1, turno 1) fue rechazado: Rojo está "
        "sentado en el tablero board-a"
    )


@pytest.mark.parametrize(
    ("result", "said"),
    [
        ("success", {"de": "Geduld-Sorry: geschafft.", "fr": "Sorry patience : réussi."}),
        ("failure", {"de": "Geduld-Sorry: nicht geschafft.", "es": "Sorry de paciencia: fallido."}),
    ],
)
def test_patience_sorrys_result_is_said_in_each_language(result, said):
    from pawnlight.companion.sentences import result_text
    from pawnlight.i18n.message import said_of
    from pawnlight.rules.game import Result

    text = result_text(Result((), patience=result, reason=""))
    assert text == f"Patience Sorry: {result}."
    message = said_of(text)
    assert message is not None
    for language, words in said.items():
        assert message.render(language) == words


def test_an_adjourned_and_resumed_remote_game_and_a_cancelled_enrolment_are_said():
    from pawnlight.companion.signals import RemoteBoard

    host = remote_board()
    host.companion.offline_grace = 10.0
    host.effects += host.companion.handle(RemoteBoard("board-b", False, host.now))
    host.advance(11.0)
    host.command("remote_adjourn")
    state = host.companion.state().to_json()
    assert state["news"] == "Adjourned (board board-b is away)"
    assert said_in(state, "news", "de") == "Vertagt (Brett board-b ist weg)"
    host.effects += host.companion.handle(RemoteBoard("board-b", True, host.now))
    host.command("remote_resume", code="K7PQ3X")
    state = host.companion.state().to_json()
    assert state["news"] == "The game is resumed"
    assert said_in(state, "news", "fr") == "La partie reprend"

    bench = enrolling_bench()
    bench.command("enrol")
    bench.command("enrol_cancel")
    state = bench.companion.state().to_json()
    assert state["message"] == "Enrolment cancelled; the pack is as it was."
    assert said_in(state, "message", "es") == "Registro cancelado; la baraja queda como estaba."
