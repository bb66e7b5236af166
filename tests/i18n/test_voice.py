"""The board's voice in its own language (issue #48): the sentences announce.py picks, the
espeak-ng voice per language, the language kept as a setting."""

from __future__ import annotations

import pytest

from pawnlight.companion.announce import announcement
from pawnlight.companion.config import ConfigError, Settings
from pawnlight.devices import speaker
from pawnlight.i18n import voice

DRAW = {"phase": "draw", "turn": "red"}
MOVE = {"phase": "move", "turn": "blue", "card": "sorry"}
WON = {"result": {"winners": ["green", "yellow"]}}

SAID = {
    "en": ("Red's turn", "Blue drew a Sorry!", "Green and Yellow won!"),
    "de": ("Rot ist dran", "Blau hat eine Sorry!-Karte gezogen", "Grün und Gelb haben gewonnen!"),
    "fr": ("Au tour de Rouge", "Bleu a tiré une carte Sorry!", "Vert et Jaune ont gagné !"),
    "es": ("Turno de Rojo", "Azul ha sacado una carta ¡Sorry!", "¡Han ganado Verde y Amarillo!"),
}


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_voice_says_each_sentence_in_the_boards_language(language):
    turn, drew, won = SAID[language]
    assert announcement(None, DRAW, language) == turn
    assert announcement(DRAW, MOVE, language) == drew
    assert announcement(MOVE, WON, language) == won
    # the board's own setting is the default language
    assert announcement(None, {**DRAW, "settings": {"language": language}}) == turn


def test_news_not_yet_in_a_catalog_is_left_to_the_page_not_said_in_english():
    state = {**DRAW, "news": "Red bumped blue back to START"}
    assert announcement(None, state, "en") == "Red bumped blue back to START. Red's turn"
    assert announcement(None, state, "de") == "Rot ist dran"


@pytest.mark.parametrize(
    ("language", "espeak"), [("en", "en"), ("de", "de"), ("fr", "fr-fr"), ("es", "es")]
)
def test_each_language_has_its_espeak_voice(language, espeak):
    assert voice(language) == espeak
    assert speaker.command("Rot ist dran", voice=voice(language))[:3] == ["espeak-ng", "-v", espeak]


@pytest.mark.skipif(not speaker.available(), reason="espeak-ng is not installed")
@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_espeak_ng_has_the_voice(tmp_path, language):
    wav = tmp_path / "said.wav"
    speaker.to_wav(SAID[language][0], wav, voice(language))
    assert wav.stat().st_size > 1000


def test_the_language_is_a_setting_checked_like_the_others():
    settings = Settings().changed({"language": "de"})
    assert settings.language == "de"
    assert settings.to_json()["language"] == "de"
    assert Settings().changed({"language": " FR "}).language == "fr"
    with pytest.raises(
        ConfigError, match=r"unknown language 'xx' \(expected one of en, de, fr, es\)"
    ):
        Settings().changed({"language": "xx"})
    with pytest.raises(ConfigError, match="unknown language 7"):
        Settings().changed({"language": 7})


def test_the_speaker_says_each_sentence_in_the_voice_it_was_given(monkeypatch):
    """The daemon hands each sentence its language's voice: the espeak-ng command says so."""
    ran: list[list[str]] = []
    monkeypatch.setattr(speaker.subprocess, "run", lambda args, **_: ran.append(args))
    talker = speaker.Speaker()
    try:
        talker.say("Rot ist dran", voice("de"))
        talker.say("Red's turn")
    finally:
        talker.close()
    assert [args[:3] for args in ran] == [["espeak-ng", "-v", "de"], ["espeak-ng", "-v", "en"]]
    assert [args[-1] for args in ran] == ["Rot ist dran", "Red's turn"]
