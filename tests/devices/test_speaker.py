"""Spoken announcements: espeak-ng renders what the companion would say into a WAV file, which
is checked to be speech of a plausible length (not silence, not a beep, not truncated)."""

from __future__ import annotations

import array
import itertools
import wave

import pytest

from pawnlight.companion.announce import announcement
from pawnlight.devices import speaker

pytestmark = pytest.mark.skipif(
    not speaker.available(), reason="espeak-ng is not installed (scripts/install-system-packages)"
)


def listen(path) -> tuple[float, list[float]]:
    """The length in seconds and the loudness (RMS) of every 20 ms of a mono 16-bit WAV."""
    with wave.open(str(path)) as wav:
        assert wav.getnchannels() == 1 and wav.getsampwidth() == 2
        rate = wav.getframerate()
        samples = array.array("h", wav.readframes(wav.getnframes()))
    window = rate // 50
    loudness = []
    for start in range(0, len(samples) - window, window):
        chunk = samples[start : start + window]
        loudness.append((sum(s * s for s in chunk) / window) ** 0.5)
    return len(samples) / rate, loudness


def test_an_announcement_is_spoken_at_a_plausible_length(tmp_path):
    before = {"phase": "move", "turn": "red", "card": "5", "news": ""}
    after = {"phase": "draw", "turn": "blue", "news": "Red drew a 5: no pawn can go forward 5"}
    said = announcement(before, after)
    assert said == "Red drew a 5: no pawn can go forward 5. Blue's turn"
    path = tmp_path / "said.wav"
    speaker.to_wav(said, path)
    seconds, loudness = listen(path)
    words = len(said.split())
    # At 150 words a minute a word takes 0.4 s; allow for pauses and short words.
    assert 0.2 * words < seconds < 0.8 * words, seconds
    loud = [level > 500 for level in loudness]
    assert sum(loud) > len(loud) * 0.4  # mostly voice, not silence
    # Speech comes in syllables: the level rises and falls many times, unlike a tone.
    changes = sum(1 for a, b in itertools.pairwise(loud) if a != b)
    assert changes >= words


def test_a_longer_sentence_takes_longer(tmp_path):
    short, long = tmp_path / "short.wav", tmp_path / "long.wav"
    speaker.to_wav("Blue's turn", short)
    speaker.to_wav(
        "Red won! Blue, yellow and green played well. Next game when you are ready", long
    )
    assert listen(long)[0] > 2 * listen(short)[0]


def test_the_speaker_says_sentences_without_blocking():
    voice = speaker.Speaker()
    try:
        voice.say("Blue's turn")
    finally:
        voice.close()
