"""Which language a phone gets (issue #48): its chooser's cookie, else Accept-Language."""

from __future__ import annotations

import pytest

from pawnlight.i18n.negotiate import accepted, chosen, language


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("es-419", "es"),
        ("ja, es;q=0.3, de;q=0.5", "de"),  # the best one pawnlight speaks
        ("en;q=0.2, de;q=0.9", "de"),
        ("de;q=0, fr;q=0.1", "fr"),  # q=0: "not this one"
        ("ja, zh", None),
        ("", None),
        (None, None),
        ("de;q=nonsense, es", "es"),
        (";;;,,,q=", None),
    ],
)
def test_accept_language(header, expected):
    assert accepted(header) == expected


def test_the_chooser_wins_over_the_browser():
    assert language("es", "de-DE,de;q=0.9") == "es"
    assert language(None, "de-DE,de;q=0.9") == "de"
    assert language("klingon", "fr") == "fr"  # a cookie that is no language is ignored
    assert language(None, None) == "en"


@pytest.mark.parametrize(("value", "expected"), [("DE", "de"), ("de_AT", "de"), ("x", None)])
def test_chosen(value, expected):
    assert chosen(value) == expected
