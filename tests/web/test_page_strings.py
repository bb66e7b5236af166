"""The page's own words in German, French and Spanish (issue #48, part b): the owner's tools,
the board picture's words, the set-up line, the owner's buttons, the scripts' words and the
numbers, each in the phone's language; English keeps its words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pawnlight.web import language
from pawnlight.web.buttons import owner_actions

from .helpers import login
from .test_pages import visible_text

GERMAN = {"Accept-Language": "de"}
FRENCH = {"Accept-Language": "fr"}
SPANISH = {"Accept-Language": "es"}


def text(client, path="/", **headers) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def test_the_owners_tools_are_in_the_phones_language(client):
    login(client)
    german = visible_text(text(client, "/", **GERMAN))
    for words in ("Spiel starten", "Regelheft", "Schnelles Spiel (je 3 Figuren)", "Hausregeln"):
        assert words in german
    assert "Start the game" not in german and "Rule book" not in german
    spanish = visible_text(text(client, "/", **SPANISH))
    assert "Empezar la partida" in spanish and "Guardar los ajustes" in spanish
    english = visible_text(text(client, "/"))
    assert "Start the game" in english and "Quick game (3 pawns each)" in english


def test_the_board_picture_says_start_and_home_in_the_glossarys_words(client, service):
    service.command("new_game", {"players": ["red", "blue"]})
    french = text(client, "/", **FRENCH)
    assert ">DÉPART</text>" in french and ">MAISON</text>" in french
    assert ">HOME</text>" not in french
    german = text(client, "/", **GERMAN)
    assert ">ZIEL</text>" in german and ">START</text>" in german
    english = text(client, "/")
    assert ">HOME</text>" in english and ">START</text>" in english


def test_the_set_up_line_is_one_sentence_with_the_languages_plural(client, service):
    service.command("new_game", {"players": ["red", "blue"]})
    german = visible_text(text(client, "/", **GERMAN))
    assert "Stelle 4 Figuren in jeden START: Rot, Blau" in german
    spanish = visible_text(text(client, "/", **SPANISH))
    assert "Pon 4 peones en cada SALIDA: Rojo, Azul" in spanish
    assert "Put 4 pawns in each START: red, blue" in visible_text(text(client, "/"))


def test_the_owners_buttons_are_in_the_phones_language(app):
    state = {"phase": "over", "can_undo": True, "players": ["red", "blue"]}
    with app.test_request_context(headers=GERMAN):
        app.preprocess_request()
        labels = [action.label for action in owner_actions(state)]
    assert labels == ["Letzten Zug rückgängig machen", "Nächstes Spiel"]
    with app.test_request_context():
        app.preprocess_request()
        assert [a.label for a in owner_actions(state)] == ["Undo the last move", "Next game"]


def test_the_scripts_get_every_message_they_write_with_the_colours_and_the_plural_rule(client):
    german = text(client, "/", **GERMAN)
    found = re.search(r'<script type="application/json" id="page-words">(.*?)</script>', german)
    assert found is not None
    words = json.loads(found.group(1))
    assert words["Sending…"] == "Wird gesendet …"
    assert words["Red"] == "Rot"
    assert words[""] == "de"
    # Every message a script writes is in the block: no English fragment is glued in a script.
    static = Path(language.__file__).parent / "static"
    scripts = "".join(path.read_text(encoding="utf-8") for path in static.glob("*.js"))
    written = set(re.findall(r'P\.tn?\((?:[^,()]*, )?"((?:[^"\\]|\\.)*)"', scripts))
    assert written and written <= set(words), sorted(written - set(words))


@pytest.mark.parametrize(
    ("code", "said"),
    [("en", "1,234.5"), ("de", "1.234,5"), ("es", "1.234,5"), ("fr", "1\u202f234,5")],
)
def test_numbers_are_written_as_each_language_writes_them(app, code, said):
    with app.test_request_context(headers={"Accept-Language": code}):
        app.preprocess_request()
        assert language.number(1234.5, 1) == said


def test_each_api_error_the_page_translates_is_still_one_the_api_sends():
    """The page finds an error's words by the API's exact message: one changed there would
    silently go back to English on the page."""
    import pawnlight

    package = Path(pawnlight.__file__).parent
    sources = "".join(
        path.read_text(encoding="utf-8")
        for folder in (package / "companion", Path(language.__file__).parent)
        for path in folder.glob("*.py")
        if path.name != "language.py"
    )
    flat = re.sub(r'"\s*\n\s*"', "", sources)  # strings split over lines, joined
    for message in language.API_ERRORS:
        assert f'"{message}"' in flat, message


def test_the_club_page_is_in_the_phones_language():
    """A club's live games (docs/remote.md) in German: the counts, a board's card and its
    drawing, each board's drawing kept per language."""
    from pawnlight.remote.club_view import ClubModel
    from pawnlight.remote.live import encode, live_topic
    from pawnlight.web.club_page import ClubFeed, create_club_app

    from ..remote.test_club_page import game_after

    model = ClubModel()
    model.receive(live_topic("kitchen"), encode("kitchen", game_after(6, seed=48), 1.8e9))
    client = create_club_app(ClubFeed(model)).test_client()
    german = client.get("/", headers=GERMAN).get_data(as_text=True)
    said = visible_text(german)
    assert "Laufende Spiele" in said and "1 Brett" in said
    assert "Spieler" in said and "6 Züge gespielt" in said
    assert ">ZIEL</text>" in german
    english = client.get("/").get_data(as_text=True)
    assert "Live games" in english and ">HOME</text>" in english and "1 board" in english


def test_the_storys_turns_are_said_again_in_the_phones_language(app):
    """The story is told in English and kept so: another language says each turn again from the
    game (a whole sentence per kind of move, the glossary's words)."""
    import random

    from pawnlight.players.story import turn_words
    from pawnlight.rules import Deck
    from pawnlight.rules.game import Game, GameConfig, Phase
    from pawnlight.web import story_words

    rng = random.Random(48)
    deck, game = Deck(rng), Game(GameConfig(edition="hasbro-2002", players=("red", "blue")))
    while len(game.history) < 30:
        game.draw(deck.draw())
        if game.phase == Phase.MOVE:
            game.play(rng.choice(game.legal)) if game.legal else game.forfeit()
    english = [turn_words(turn, game) for turn in game.history]
    with app.test_request_context(headers=GERMAN):
        app.preprocess_request()
        german = [story_words.turn_words(turn, game) for turn in game.history]
    assert any("aus dem START holen" in line for line in german), german
    assert all(" von Rot" in line or " von Blau" in line for line in german), german
    for line in german:
        assert not {"pawn", "moving", "taking", "the"} & set(line.lower().split()), line
    assert any("taking a pawn out of start" in line for line in english)
