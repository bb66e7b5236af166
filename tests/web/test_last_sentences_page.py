"""The last sentences of issue #48 (part d) on the page, in each phone's language: what a
screen reader hears of the board pictures."""

from __future__ import annotations

import html
import re

GERMAN = {"Accept-Language": "de"}
SPANISH = {"Accept-Language": "es"}


def labels(client, path: str, **headers: str) -> list[str]:
    text = client.get(path, headers=headers).get_data(as_text=True)
    return [html.unescape(label) for label in re.findall(r'aria-label="([^"]*)"', text)]


def test_the_board_pictures_are_said_in_the_phones_language(client, service):
    service.start(("red", "blue"))
    status = labels(client, "/", **GERMAN)
    assert any(label.startswith("Das Brett. Rot: ") and "im START" in label for label in status)
    assert not any("in start" in label for label in status)
    sim = labels(client, "/sim", **SPANISH)
    assert any(re.fullmatch(r"la SALIDA de Rojo, \d peones de Rojo", label) for label in sim)
    assert "el círculo de salida de Azul, ningún peón" in sim
    english = labels(client, "/sim")
    assert "blue's start circle, empty" in english


def test_the_enrolment_prompt_is_said_in_the_phones_language(client, service):
    service.command("enrol", {})
    german = client.get("/", headers=GERMAN).get_data(as_text=True)
    assert re.search(r'id="enrol"[^>]*>scanne eine Karte 1 \(1 von 4\), noch \d+ Karten<', german)
    english = client.get("/").get_data(as_text=True)
    assert re.search(r'id="enrol"[^>]*>scan a 1 card \(1 of 4\), \d+ cards to go<', english)
