"""The companion's own sentences in German, French and Spanish (issue #48): what happened, what
to do next, the corrections, the moves; kept as catalog messages with their values, so each
phone and the voice render them in their own language, while the state's English stays as it
always was."""

from __future__ import annotations

import random
import re

import pytest

from pawnlight.board.guidance import Correction, Fix
from pawnlight.companion.announce import announcement
from pawnlight.companion.signals import Pressed
from pawnlight.i18n.message import Message, msg, render_json, said_of, say
from pawnlight.rules import Position, phrases
from pawnlight.rules.board import HOME, S1, S5, START, TRACK_SQUARES, Place
from pawnlight.rules.game import Game, GameConfig, Phase
from pawnlight.rules.notation import parse_move
from pawnlight.rules.words import at_place, move_words, no_move_reason, place_words

from ..companion.bench import Bench

LANGUAGES = ("de", "fr", "es")
CARDS = ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")
PLACES = [*range(TRACK_SQUARES), *range(S1, S5 + 1), START, HOME]
#: English game words a family must not read in another language (German keeps START, as its
#: glossary in docs/rules.md says; "Sorry!" is the card's name everywhere).
ENGLISH = {
    "de": r"\b(HOME|pawns?|slide|safety|square|circle|red|blue|yellow|green|draws?|back)\b",
    "fr": r"\b(START|HOME|pawns?|slide|safety|square|circle|red|blue|yellow|green|draws?)\b",
    "es": r"\b(START|HOME|pawns?|slide|safety|square|circle|red|blue|yellow|green|draws?)\b",
}


def clean(text: str, language: str, notation: bool = False) -> None:
    """No placeholder left, no English game word, no square code (``notation``: a turn named
    by its notation, as a takeback between boards names it in English too)."""
    assert "%(" not in text and ")s" not in text, text
    if notation:
        text = re.sub(r"\b[RBYG]:[\w:-]+", "", text)
    assert not re.search(ENGLISH[language], text, re.IGNORECASE), text
    assert not re.search(r"\b[TS]\d+\b", text), text


def random_moves(seed: int, teams: bool = False):
    """The legal moves of a random game, card by card."""
    rng = random.Random(seed)
    config = GameConfig(teams=teams) if teams else GameConfig(players=("red", "blue", "yellow"))
    game = Game(config)
    for _ in range(400):
        if game.over:
            return
        if game.phase == Phase.DRAW:
            game.draw(rng.choice(CARDS))
        else:
            yield from game.legal
            game.play(rng.choice(game.legal))


def test_the_places_english_is_the_board_words_of_rules_words():
    for colour in range(4):
        for place in PLACES:
            words = place_words(place, colour)
            assert phrases.place(place, colour, phrases.AT).render() == at_place(place, colour)
            assert phrases.place(place, colour, phrases.FROM).render() == f"from {words}"
            assert phrases.place(place, colour, phrases.TO).render() == f"to {words}"
            assert phrases.place(place, colour, phrases.FOR).render() == f"for {words}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_place_has_its_own_words_in_each_language(language):
    for form in (phrases.AT, phrases.FROM, phrases.TO):
        for colour in range(4):
            said = [phrases.place(p, colour, form).render(language) for p in PLACES]
            assert len(set(said)) == len(said), said  # no two places said alike
            for text in said:
                clean(text, language)


def test_the_moves_english_is_move_words_and_each_language_says_them_cleanly():
    seen = 0
    for seed, teams in ((1, False), (2, True), (3, False)):
        for move in random_moves(seed, teams):
            said = phrases.move(move)
            assert said.render() == move_words(move)
            for language in LANGUAGES:
                clean(said.render(language), language)
            seen += 1
    assert seen > 500


@pytest.mark.parametrize("language", LANGUAGES)
def test_cards_and_reasons_in_each_language(language):
    for card in CARDS:
        assert phrases.no_move_reason(card).render() == no_move_reason(card)
        clean(phrases.no_move_reason(card).render(language), language)
        clean(phrases.a_card(card).render(language), language)
    assert phrases.a_card("8").render() == "an 8"
    assert phrases.a_card("sorry").render("de") == "eine Sorry!-Karte"
    assert phrases.a_card("sorry").render("es") == "una carta ¡Sorry!"


def test_the_words_follow_the_glossary():
    """docs/rules.md, 'The game's words': one word per thing in each language."""
    move = parse_move(
        "R:start-T4",
        Position.from_json({"red": ["start"] * 4, "blue": ["T4", *["start"] * 3]}),
        False,
    )
    assert phrases.move(move).render("de") == (
        "eine Figur von Rot verlässt den START und zieht auf den Startkreis von Rot "
        "(zurück in den START: Blau)"
    )
    assert phrases.move(move).render("fr") == (
        "un pion de Rouge sort du DÉPART et va sur le cercle de départ de Rouge "
        "(retour au DÉPART : Bleu)"
    )
    assert phrases.move(move).render("es") == (
        "un peón de Rojo deja la SALIDA y va al círculo de salida de Rojo "
        "(de vuelta a la SALIDA: Azul)"
    )
    home = phrases.place(HOME, 2, phrases.TO).render
    assert (home("de"), home("fr"), home("es")) == (
        "ins ZIEL von Gelb",
        "dans la MAISON de Jaune",
        "a la CASA de Amarillo",
    )
    safety = phrases.place(S1 + 2, 3, phrases.AT).render
    assert "Sicherheitszone" in safety("de") and "zone de sécurité" in safety("fr")
    assert "zona de seguridad" in safety("es")


def corrections() -> list[Correction]:
    track, start, safety = Place(20), Place(START, 1, 2), Place(S1 + 1, 0)
    return [
        Correction(Fix.LIFT, track, None, 1),
        Correction(Fix.LIFT, track, None),
        Correction(Fix.PUT, None, start, 1),
        Correction(Fix.PUT, None, track),
        Correction(Fix.MOVE, track, start, 1),
        Correction(Fix.MOVE, safety, track),
        Correction(Fix.CHECK, track, None, 2),
        Correction(Fix.CHECK, start, None),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_correction_is_said_in_each_language(language):
    for correction in corrections():
        assert correction.said.render() == correction.text
        clean(correction.said.render(language), language)
    put = Correction(Fix.MOVE, Place(20), Place(START, 1, 2), 1).said.capitalised()
    assert put.render("de") == (
        "Setz die Figur von Blau vom 1. Feld nach dem Startkreis von Blau in den START von Blau"
    )
    assert put.render("fr") == (
        "Déplacez le pion de Bleu de la 1re case après le cercle de départ de Bleu "
        "dans le DÉPART de Bleu"
    )


def test_a_message_travels_as_json_and_bad_json_is_no_message():
    message = msg(phrases.GOES_HOME, colour=phrases.colour(0), at=phrases.place(S1, 0, 0))
    data = message.capitalised().to_json()
    assert Message.from_json(data) == message.capitalised()
    assert (
        render_json(data, "de")
        == "Die Figur von Rot auf dem 1. Feld der Sicherheitszone von Rot zieht ins ZIEL"
    )
    for bad in (
        None,
        "text",
        {"id": 3},
        {"id": "x", "values": [1]},
        {"id": "x", "values": {"a": True}},
    ):
        assert render_json(bad, "de") is None
    # a value the catalog's sentence does not have: no message, never a traceback
    assert render_json({"id": "%(colour)s: %(move)s", "values": {"colour": "x"}}, "de") is None


def test_text_concatenated_onto_a_message_is_plain_text_again():
    said = say(Message(phrases.NO_PAWN_MOVES))
    assert said == "no pawn moves" and said_of(said) == Message(phrases.NO_PAWN_MOVES)
    assert said_of(said + ".") is None and said_of(f"{said}.") is None


def game_states(seed: int):
    """A whole game played through the companion with random cards and moves: its states."""
    rng = random.Random(seed)
    bench = Bench()
    position = Position.from_json({"red": ["start"] * 4, "blue": ["start"] * 4})
    bench.companion.resume(Game(GameConfig(players=("red", "blue"))))
    bench.show(position)
    yield bench.companion.state().to_json()
    for _ in range(120):
        game = bench.game
        if game.over:
            break
        bench.scan(rng.choice(CARDS))
        yield bench.companion.state().to_json()
        if bench.companion.phase == "move":
            bench.play(rng.choice(game.legal))
            yield bench.companion.state().to_json()


def test_a_game_at_the_companion_says_everything_in_each_language_and_its_english_unchanged():
    said_news = 0
    for state in game_states(7):
        said = state["said"]
        for name in ("message", "news"):
            if state[name]:
                assert name in said, (name, state[name])  # every sentence of a game is a message
                assert render_json(said[name], "en") == state[name]  # the English, byte for byte
                for language in LANGUAGES:
                    clean(render_json(said[name], language) or "", language)
        said_news += bool(state["news"])
        assert len(said["corrections"]) == len(state["guidance"])
    assert said_news > 10


def test_the_voice_says_a_turns_news_in_its_language():
    bench = Bench()
    position = Position.from_json({"red": ["start"] * 4, "blue": ["start"] * 4})
    bench.companion.resume(Game(GameConfig(players=("red", "blue"))))
    bench.show(position)
    before = bench.companion.state().to_json()
    bench.scan("5")
    after = bench.companion.state().to_json()
    assert announcement(before, after, "en") == (
        "Red drew a 5: no pawn can go forward 5. Blue's turn"
    )
    assert announcement(before, after, "de") == (
        "Rot hat eine 5 gezogen: keine Figur kann 5 Felder vorwärts ziehen. Blau ist dran"
    )
    assert announcement(before, after, "fr") == (
        "Rouge a tiré un 5 : aucun pion ne peut avancer de 5. Au tour de Bleu"
    )
    assert announcement(before, after, "es") == (
        "Rojo ha sacado un 5: ningún peón puede avanzar 5. Turno de Azul"
    )


def said_now(bench: Bench, name: str = "message", notation: bool = False) -> dict[str, str]:
    """The state's ``name`` in English (its own text) and as each language renders it."""
    state = bench.companion.state().to_json()
    message = state["said"][name]
    assert render_json(message, "en") == state[name]
    rendered = {language: render_json(message, language) or "" for language in LANGUAGES}
    for language, text in rendered.items():
        clean(text, language, notation)
    return {"en": state[name], **rendered}


def test_the_leader_draw_the_undo_and_the_board_s_new_game_are_said_in_each_language():
    bench = Bench()
    bench.command("new_game", players=["red", "blue", "green"], draw_leader=True)
    assert said_now(bench)["de"] == "Wer beginnt? Rot, scanne eine Karte"
    bench.scan("10")
    assert said_now(bench)["en"] == "red drew a 10; blue, scan a card"
    bench.scan("10")
    bench.scan("3")
    assert said_now(bench)["fr"] == "égalité entre Rouge et Bleu : tirez à nouveau, Rouge d’abord"
    bench.scan("4")
    bench.scan("sorry")
    assert said_now(bench)["es"].startswith("Azul ha sacado la carta más alta y empieza. ")
    bench.show(bench.game.position)
    bench.scan("1")
    move = parse_move("B:start-T19", bench.game.position, False)
    bench.play(move)
    bench.command("undo")
    said = said_now(bench)
    assert said["en"].startswith("Undone: Blue's move (a blue pawn leaves START")
    assert said["de"].startswith("Rückgängig gemacht: der Zug von Blau (eine Figur von Blau")
    bench.show(bench.game.position)
    bench.effects += bench.companion.handle(Pressed("new_game", bench.now + 0.1))
    assert said_now(bench, "warning")["fr"] == (
        "Nouvelle partie appuyé : appuyez encore dans les 3 s pour finir cette partie"
    )


def test_seats_given_to_the_computer_and_back_are_said_in_each_language():
    bench = Bench()
    bench.command("new_game", players=["red", "blue"])
    bench.show(bench.game.position)
    bench.command("seat", colour="blue", player="random")
    assert (
        said_now(bench)["de"]
        == "Der Computer spielt ab jetzt Blau. Rot: zieh eine Karte und scanne sie"
    )
    bench.command("seat", colour="blue", player=None)
    assert said_now(bench)["es"].startswith("Azul vuelve a jugarlo una persona. ")


def test_another_boards_turn_is_said_in_each_language_on_the_board_that_copies_it():
    from ..companion.test_remote import board, deliver, sent

    a, b = board("board-a"), board("board-b")
    assert said_now(b)["de"] == (
        "Rot zieht am Brett board-a: der Zug leuchtet hier zum Nachstellen auf"
    )
    a.scan("1")
    a.play(a.game.legal[0])
    deliver(b, sent(a))
    said = said_now(b)
    assert said["en"].startswith("Red (at board-a) played a 1: a red pawn leaves START")
    assert said["es"] == (
        "Rojo (en el tablero board-a) ha jugado un 1: un peón de Rojo deja la SALIDA y va al "
        "círculo de salida de Rojo. Haz el movimiento iluminado en este tablero"
    )


def test_a_card_drawn_twice_is_a_warning_in_each_language():
    from pawnlight.companion.deck import CardDeck, simulated_uids

    deck = CardDeck(simulated_uids())
    uid = next(u for u, card in deck.uids.items() if card == "sorry")
    deck.played_card(uid)
    _card, warning = deck.identify(uid)
    assert warning is not None and warning.startswith("This sorry was drawn before")
    message = said_of(warning)
    assert message is not None and message.render() == warning
    assert message.render("fr").startswith("Ce Sorry! a déjà été tiré")
    for language in LANGUAGES:
        clean(message.render(language), language)


def test_a_board_offline_in_a_remote_game_is_said_in_each_language():
    from pawnlight.companion.signals import RemoteBoard

    from ..companion.test_remote import board

    a, b = board("board-a"), board("board-b")
    a.effects += a.companion.handle(RemoteBoard("board-b", False, a.now))
    a.advance(0.01)
    assert said_now(a, "warning")["de"] == "Das Brett von Blau ist offline (das Spiel pausiert)"
    a.scan("1")
    said = said_now(a, "warning")
    assert said["en"] == "a 1 was scanned, but Blue's board is offline: the game waits for it"
    assert said["fr"] == (
        "la carte 1 a été scannée, mais le plateau de Bleu est hors ligne : la partie l’attend"
    )
    b.scan("1")  # red's turn, played at board A: this board refuses it, for its moment
    said = said_now(b, "warning")
    assert said["en"].endswith(
        "that card is scanned there, not here (this goes once the game moves on)"
    )
    assert said["es"].startswith("se ha escaneado la carta 1, pero es el turno de Rojo")


def test_a_board_button_refused_is_a_warning_in_each_language_and_the_api_keeps_english():
    from pawnlight.companion.service import CommandRefused

    bench = Bench()
    bench.command("new_game", players=["red", "blue"])
    bench.show(bench.game.position)
    bench.effects += bench.companion.handle(Pressed("confirm", bench.now + 0.1))
    assert said_now(bench, "warning")["de"] == "gerade gibt es nichts zu bestätigen"
    bench.effects += bench.companion.handle(Pressed("undo", bench.now + 0.2))
    assert said_now(bench, "warning")["es"] == "no hay nada que deshacer"
    with pytest.raises(CommandRefused) as refused:
        bench.command("undo")
    assert str(refused.value) == "nothing to undo"


def test_a_takeback_between_boards_is_asked_and_answered_in_each_language():
    from ..companion.test_remote import asked, hear, two_turns_played

    a, b = two_turns_played()
    a.command("undo")
    assert said_now(a, "warning", notation=True)["de"] == (
        "Die anderen Bretter wurden gefragt, B:start-T19 von Blau zurückzunehmen: warten auf "
        "ihre Zustimmung"
    )
    hear(b, asked(a))
    assert said_now(b, "warning", notation=True)["fr"].startswith(
        "Le plateau board-a demande de reprendre B:start-T19 de Bleu : Confirmer sur le plateau"
    )
    b.command("remote_takeback", agree=False)
    assert said_now(b, "warning")["es"] == (
        "Rechazado deshacer del tablero board-a: la partida sigue (esto desaparece cuando la "
        "partida avance)"
    )


def test_a_seat_handed_between_boards_is_said_in_each_language():
    from pawnlight.companion.signals import RemoteBoard

    from ..companion.test_remote import board

    a = board("board-a")
    a.companion.offline_grace = 0.0
    a.effects += a.companion.handle(RemoteBoard("board-b", False, a.now))
    a.advance(1.0)
    assert said_now(a, "warning")["de"] == (
        "Das Brett von Blau ist offline (das Spiel pausiert): der Besitzer kann seine Farben "
        "vom Computer spielen lassen oder das Spiel vertagen"
    )
    a.command("remote_seat", colour="blue", computer=True)
    assert said_now(a, "news")["fr"] == (
        "L’ordinateur joue désormais Bleu ici (le plateau board-b est absent)"
    )
    a.effects += a.companion.handle(RemoteBoard("board-b", True, a.now))
    a.command("remote_seat", colour="blue", computer=False)
    assert said_now(a)["es"] == (
        "Azul vuelve a jugarse en el tablero board-b. Rojo: saca una carta y escanéala"
    )
