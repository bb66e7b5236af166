"""The companion's sentences on the page in each phone's language (issue #48): the message, the
turn's news, a warning, the corrections and the moves, rendered per phone from the state's
catalog messages; the English page keeps its words."""

from __future__ import annotations

import html
import re

from .test_pages import visible_text

GERMAN = {"Accept-Language": "de"}
FRENCH = {"Accept-Language": "fr"}
SPANISH = {"Accept-Language": "es"}


def page(client, **headers) -> str:
    text = html.unescape(visible_text(client.get("/", headers=headers).get_data(as_text=True)))
    return re.sub(r"\s+", " ", text)


def test_a_turn_is_said_in_each_phones_language(client, service):
    service.start(("red", "blue"))
    assert "Red: draw a card and scan it" in page(client)
    assert "Rot: zieh eine Karte und scanne sie" in page(client, **GERMAN)
    service.scan("1")
    german = page(client, **GERMAN)
    assert "Rot spielt eine 1: mach den Zug, der auf dem Brett leuchtet" in german
    assert "Die Karte: eine 1." in german and "The card: a 1." in page(client)
    # the possible move, in the phone's words
    assert "Eine Figur von Rot verlässt den START und zieht auf den Startkreis von Rot" in german
    assert "Rouge joue un 1 : faites le coup éclairé sur le plateau" in page(client, **FRENCH)
    service.play("R:start-T4")
    spanish = page(client, **SPANISH)
    assert (
        "Rojo: un peón de Rojo deja la SALIDA y va al círculo de salida de Rojo. "
        "Azul: saca una carta y escanéala"
    ) in spanish
    english = page(client)
    assert (
        "Red: a red pawn leaves START for red's start circle. Blue: draw a card and scan it"
    ) in english
    # the history's line too
    assert "Rot, 1: eine Figur von Rot verlässt den START" in page(client, **GERMAN)


def test_a_warning_and_the_corrections_in_the_phones_language(client, service):
    service.start(("red", "blue"))
    service.scan("3")  # no move with a 3 from START: forfeited, blue draws
    service.scan("1")
    service.scan("5")  # a card when none is wanted: a warning
    german = page(client, **GERMAN)
    assert "Die Karte 5 wurde gescannt, aber jetzt wird keine Karte gebraucht" in german
    assert "a 5 was scanned, but no card is wanted now" in page(client)
    # a pawn knocked off START: the page asks for it back, in the phone's words
    pawns = service.state()["pawns"]
    service.sim.set_board({**pawns, "red": ["T20", *pawns["red"][1:]]})
    german = page(client, **GERMAN)
    assert (
        "Setz die Figur von Rot vom 1. Feld nach dem Startkreis von Blau in den START von Rot"
        in german
    )
    french = page(client, **FRENCH)
    assert "Déplacez le pion de Rouge de la 1re case après le cercle de départ de Bleu" in french
    assert "Move the red pawn from the 1st square after blue's start circle to red START" in page(
        client
    )


def test_the_leader_draw_is_said_in_the_phones_language(client, service):
    service.command("new_game", {"players": ["red", "blue"], "draw_leader": True})
    service.scan("10")
    german = page(client, **GERMAN)
    assert "Rot hat eine 10 gezogen; Blau, scanne eine Karte" in german
    assert "Rot: 10" in german
    english = page(client)
    assert "red drew a 10; blue, scan a card" in english and "red: 10" in english


def test_before_any_game_the_page_says_so_in_each_phones_language(client, service):
    assert service.state()["phase"] == "idle"
    assert "No game yet: the owner starts one on the status page" in page(client)
    assert "Noch kein Spiel: der Besitzer startet eins auf der Statusseite" in page(
        client, **GERMAN
    )
    assert "Pas encore de partie : le propriétaire en lance une" in page(client, **FRENCH)
    assert "Aún no hay partida: el propietario empieza una" in page(client, **SPANISH)
    assert "No game yet" not in page(client, **GERMAN)
