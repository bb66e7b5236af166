"""The catalogs (issue #48): every message the code and templates use has a translation in each
language, none is left that nothing uses, each compiles and keeps its placeholders."""

from __future__ import annotations

import re

import pytest

from pawnlight.i18n import LANGUAGES, translations
from pawnlight.i18n.catalog import CatalogError, compile_po, po_path, read_po
from pawnlight.i18n.extract import main, report, used

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_message_used_has_a_translation_and_none_is_unused(language):
    missing, unused = report(language)
    assert missing == [], f"{language} is missing {missing}"
    assert unused == [], f"{language} has messages nothing uses: {unused}"


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_each_translation_keeps_the_placeholders_and_is_its_own_words(language):
    messages = read_po(po_path(language))
    for msgid, msgstr in messages.items():
        if not msgid:
            continue
        assert set(PLACEHOLDER.findall(msgid)) == set(PLACEHOLDER.findall(msgstr)), msgid
        assert msgstr.strip(), msgid


def test_a_message_added_without_translations_fails_the_check(tmp_path, monkeypatch, capsys):
    """The check is real: a template using a message no catalog has is reported, per language."""
    from pawnlight.i18n import extract

    page = tmp_path / "extra.html"
    page.write_text('<p>{{ _("A message nobody translated") }}</p>', encoding="utf-8")
    real = extract.sources
    monkeypatch.setattr(extract, "sources", lambda: [*real(), page])
    assert "A message nobody translated" in used()
    assert main() == 1
    out = capsys.readouterr().out
    for language in LANGUAGES[1:]:
        assert f"{language}: missing 'A message nobody translated'" in out


def test_a_message_no_longer_used_fails_the_check(monkeypatch, capsys):
    from pawnlight.i18n import extract

    real = extract.sources
    monkeypatch.setattr(extract, "sources", lambda: [p for p in real() if p.name != "games.html"])
    assert main() == 1
    assert "de: unused 'A game’s record is the whole game" in capsys.readouterr().out


def test_compiled_catalogs_answer_gettext_with_plurals():
    po = {
        "": "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n > 1);\n",
        "Past games": "Parties précédentes",
        "%(num)s turn\x00%(num)s turns": "%(num)s tour\x00%(num)s tours",
    }
    import gettext
    import io

    words = gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    assert words.gettext("Past games") == "Parties précédentes"
    assert words.ngettext("%(num)s turn", "%(num)s turns", 1) == "%(num)s tour"
    assert words.ngettext("%(num)s turn", "%(num)s turns", 0) == "%(num)s tour"  # French: 0 is one
    assert words.ngettext("%(num)s turn", "%(num)s turns", 2) == "%(num)s tours"


def test_english_is_the_messages_own_words():
    assert translations("en").gettext("Past games") == "Past games"
    assert translations("de").gettext("Past games") == "Frühere Spiele"
    assert translations("fr").gettext("Past games") == "Parties précédentes"
    assert translations("es").gettext("Past games") == "Partidas anteriores"


def test_a_broken_catalog_is_one_clear_error(tmp_path):
    po = tmp_path / "broken.po"
    po.write_text('msgid "Past games"\nmsgstr Frühere\n', encoding="utf-8")
    with pytest.raises(CatalogError, match=r"broken.po:2: not a quoted string"):
        read_po(po)


def test_fuzzy_entries_are_left_out_as_msgfmt_does(tmp_path):
    po = tmp_path / "fuzzy.po"
    po.write_text(
        'msgid "A"\nmsgstr "Eins"\n\n#, fuzzy\nmsgid "B"\nmsgstr "Zwei?"\n\nmsgid "C"\nmsgstr ""\n',
        encoding="utf-8",
    )
    assert read_po(po) == {"A": "Eins"}
