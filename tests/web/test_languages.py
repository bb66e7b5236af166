"""Each phone's language on the page (issue #48): Accept-Language, the chooser's cookie, the
page's ``lang``, errors, and one table of phones in different languages at once."""

from __future__ import annotations

import pytest

from pawnlight.i18n.negotiate import COOKIE

from .test_pages import visible_text

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def text(client, path="/", **headers) -> str:
    response = client.get(path, headers=headers)
    assert response.mimetype == "text/html"
    return response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("header", "lang", "words"),
    [
        ("de-DE,de;q=0.9", "de", "Frühere Spiele"),
        ("fr-FR", "fr", "Parties précédentes"),
        ("es-ES,es;q=0.8", "es", "Partidas anteriores"),
        ("ja", "en", "Past games"),
    ],
)
def test_the_page_speaks_the_browsers_language(client, header, lang, words):
    response = client.get("/games", headers={"Accept-Language": header})
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    assert f'<h1 id="games-title">{words}</h1>' in html
    assert response.headers["Content-Language"] == lang
    assert "Accept-Language" in response.headers["Vary"]


def test_the_chooser_keeps_the_choice_in_a_cookie_and_goes_back(client):
    response = client.post("/language", data={"language": "fr", "next": "/games?x=1"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/games?x=1"
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None and cookie.value == "fr"
    # the choice wins over the browser's own language
    assert '<h1 id="games-title">Parties précédentes</h1>' in text(client, "/games", **GERMAN)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "games"])
def test_the_chooser_never_sends_a_phone_elsewhere(client, target):
    response = client.post("/language", data={"language": "de", "next": target})
    assert response.status_code == 303
    assert response.headers["Location"].startswith("/")
    assert not response.headers["Location"].startswith("//")


def test_a_language_pawnlight_does_not_speak_changes_nothing(client):
    response = client.post("/language", data={"language": "tlh"})
    assert response.status_code == 303
    assert client.get_cookie(COOKIE) is None


def test_the_page_has_a_chooser_naming_each_language_in_its_own_words(client):
    html = text(client, "/", **GERMAN)
    assert '<label for="language-choice">Sprache</label>' in html
    for code, name in (("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("es", "Español")):
        assert f'<option value="{code}" lang="{code}"' in html
        assert f">{name}</option>" in html
    assert '<option value="de" lang="de" selected>' in html


def test_two_phones_at_one_table_each_get_their_own_language(client, app):
    """The page of one version is rendered once for everyone: but once per language."""
    german = text(client, "/", **GERMAN)
    spanish = text(client, "/", **{"Accept-Language": "es"})
    english = text(client, "/")
    assert "Frühere Spiele" in german and "Frühere Spiele" not in spanish
    assert "Partidas anteriores" in spanish and "Past games" in english
    again = client.get("/", headers=GERMAN)
    etag = again.headers["ETag"]
    assert (
        client.get("/", headers={"Accept-Language": "es", "If-None-Match": etag}).status_code == 200
    )


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ("de", "Diese Seite gibt es auf diesem Brett nicht."),
        ("fr", "Cette page n’existe pas sur ce plateau."),
        ("es", "Esta página no existe en este tablero."),
    ],
)
def test_an_error_page_is_in_the_phones_language(client, header, words):
    response = client.get("/no-such-page", headers={"Accept-Language": header})
    assert response.status_code == 404
    assert words in response.get_data(as_text=True)


def test_the_api_keeps_its_english_errors_for_programs(client):
    response = client.get("/api/nothing", headers=GERMAN)
    assert response.get_json() == {"error": "no such route: GET /api/nothing"}


def test_the_turn_in_the_title_is_in_the_phones_language(client, service):
    service.start(("red", "blue"))
    assert "<title>Rot ist dran · pawnlight</title>" in text(client, "/", **GERMAN)
    assert "<title>Red’s turn · pawnlight</title>" in text(client, "/")


def test_the_english_page_is_unchanged_in_its_words(client):
    words = visible_text(text(client, "/games"))
    assert "A game’s record is the whole game, move by move" in words
    assert "Back to the game" in words


def test_the_winner_is_named_in_the_phones_language(client, service):
    service.start(("red", "blue"))
    service.patch(
        phase="over",
        result={"winners": ["yellow", "red"], "double_game": True, "patience": None, "reason": ""},
    )
    assert "Yellow and red won — a double game!" in text(client, "/")
    german = text(client, "/", **GERMAN)
    assert "Gelb und Rot haben gewonnen – ein doppeltes Spiel!" in german
    assert '<h1 id="phase" data-phase="over">Spiel vorbei</h1>' in german


def test_the_scripts_get_their_words_in_the_page_and_english_needs_none(client):
    import json
    import re

    german = text(client, "/", **{"Accept-Language": "fr"})
    found = re.search(r'<script type="application/json" id="page-words">(.*?)</script>', german)
    assert found is not None
    words = json.loads(found.group(1))
    assert words["Live"] == "En direct"
    assert words["Live updates: Offline"] == "Mises à jour en direct : hors ligne"
    assert 'id="page-words"' not in text(client, "/")


def test_the_game_in_numbers_counts_in_each_languages_plurals(client, service):
    from .test_fits_the_phone import FIGURES

    service.start(("red", "blue"))
    one = {**FIGURES, "turns": 1, "bumps": 1, "swept": 0, "forfeits": 0}
    service.patch(phase="over", statistics=one)
    german = visible_text(text(client, "/", **GERMAN))
    assert "1 Zug · 1 Figur auf START zurückgeschickt (0 davon von Rutschen gefegt)" in german
    assert "0 Züge ohne Bewegung" in german
    french = visible_text(text(client, "/", **{"Accept-Language": "fr"}))
    assert "0 tour sans coup" in french  # French counts 0 as one
    assert "1 turn · 1 pawn sent back to start (0 swept off slides)" in visible_text(
        text(client, "/")
    )
