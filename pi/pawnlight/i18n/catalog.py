"""The catalogs: the package's .po files compiled (in memory) for :mod:`gettext` at first use."""

from __future__ import annotations

import ast
import functools
import gettext
import io
import struct
from pathlib import Path

from ..errors import PawnlightError

#: Where the catalogs are: ``locale/<lang>/LC_MESSAGES/pawnlight.po`` in the package.
LOCALE = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "pawnlight"
#: The languages a family can choose, English (the messages' own language) first.
LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es")
#: Each language in its own words, for the chooser.
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
}
#: The espeak-ng voice that speaks each language.
VOICES: dict[str, str] = {"en": "en", "de": "de", "fr": "fr-fr", "es": "es"}


class CatalogError(PawnlightError, ValueError):
    """A .po file that cannot be read; the message names the file and line."""


def voice(language: str) -> str:
    """The espeak-ng voice for ``language`` (English for one pawnlight does not speak)."""
    return VOICES.get(language, VOICES["en"])


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The translations for ``language``; English (and any unknown language) gets the msgids."""
    if language not in LANGUAGES or language == "en":
        return gettext.NullTranslations()
    path = po_path(language)
    return gettext.GNUTranslations(io.BytesIO(compile_po(read_po(path))))


def read_po(path: Path) -> dict[str, str]:
    """A .po file's messages: msgid (with ``\\x04`` context and ``\\x00`` plurals as gettext
    keeps them) to msgstr; the header is the entry of the empty msgid.  Fuzzy entries are left
    out, as msgfmt does."""
    messages: dict[str, str] = {}
    entry: dict[str, list[str]] = {}
    key = ""
    fuzzy = False

    def finish() -> None:
        nonlocal fuzzy
        if "msgid" in entry and not fuzzy:
            msgid = "".join(entry["msgid"])
            if "msgctxt" in entry:
                msgid = "".join(entry["msgctxt"]) + "\x04" + msgid
            if "msgid_plural" in entry:
                msgid += "\x00" + "".join(entry["msgid_plural"])
                forms = sorted(k for k in entry if k.startswith("msgstr["))
                value = "\x00".join("".join(entry[k]) for k in forms)
            else:
                value = "".join(entry.get("msgstr", []))
            if value.replace("\x00", "") or not msgid:
                messages[msgid] = value
        entry.clear()
        fuzzy = False

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                finish()
                fuzzy = True
            continue
        if line.startswith('"'):
            part = line
        else:
            keyword, _, part = line.partition(" ")
            if keyword in ("msgid", "msgctxt") and (
                "msgstr" in entry or any(k.startswith("msgstr[") for k in entry)
            ):
                kept = fuzzy
                finish()
                fuzzy = kept
            key = keyword
            entry[key] = []
        try:
            text = ast.literal_eval(part)
        except (ValueError, SyntaxError) as error:
            raise CatalogError(f"{path}:{number}: not a quoted string ({error})") from None
        if not isinstance(text, str) or not key:
            raise CatalogError(f"{path}:{number}: not a quoted string")
        entry[key].append(text)
    finish()
    return messages


def compile_po(messages: dict[str, str]) -> bytes:
    """The GNU .mo bytes :class:`gettext.GNUTranslations` reads (what msgfmt writes)."""
    keys = sorted(messages)
    ids = [k.encode() for k in keys]
    strs = [messages[k].encode() for k in keys]
    start = 7 * 4 + 16 * len(keys)
    ids_blob, strs_blob = b"", b""
    id_offsets, str_offsets = [], []
    for item in ids:
        id_offsets.append((len(item), len(ids_blob)))
        ids_blob += item + b"\0"
    for item in strs:
        str_offsets.append((len(item), len(strs_blob)))
        strs_blob += item + b"\0"
    ids_start = start
    strs_start = ids_start + len(ids_blob)
    table = b"".join(struct.pack("<II", n, ids_start + o) for n, o in id_offsets)
    table += b"".join(struct.pack("<II", n, strs_start + o) for n, o in str_offsets)
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
    return header + table + ids_blob + strs_blob
