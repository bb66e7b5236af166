"""The page in the family's language: each phone's own (its chooser cookie, else its browser's
Accept-Language), the templates' ``_()``/``ngettext()`` bound to it, and the chooser's route.

Templates use Jinja's standard i18n extension; the catalogs are pawnlight.i18n's.  The language
lives on :data:`flask.g` for one request, so two phones reading the same board at once each get
their own words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, g, redirect, request
from werkzeug.wrappers import Response as WerkzeugResponse

from pawnlight.i18n import LANGUAGE_NAMES, LANGUAGES, translations
from pawnlight.i18n.marks import N_
from pawnlight.i18n.message import render_json
from pawnlight.i18n.negotiate import COOKIE, chosen, language

blueprint = Blueprint("language", __name__)

#: How long the chooser's cookie is kept: a year, the phone's choice is not a secret.
COOKIE_AGE = 365 * 24 * 3600


def current() -> str:
    """This request's language (English outside a request)."""
    return str(g.get("language", "en")) if g else "en"


def gettext(message: str, **values: Any) -> str:
    """``message`` in this request's language, ``%(name)s`` filled from ``values`` (the
    templates' ``_()`` fills its own)."""
    text = translations(current()).gettext(message)
    return text % values if values else text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form the language uses for ``n`` (the templates fill ``%(num)s``)."""
    return translations(current()).ngettext(singular, plural, n)


#: The four colours' names as the page writes them, marked for the catalogs.
COLOUR_NAMES: dict[str, str] = {
    "red": N_("Red"),
    "blue": N_("Blue"),
    "yellow": N_("Yellow"),
    "green": N_("Green"),
}

#: What an error page says in a family's language (English keeps the server's own words).
PAGE_ERRORS: dict[int, str] = {
    400: N_("The page sent something the board cannot use."),
    404: N_("There is no such page on this board."),
    405: N_("This page cannot be used that way."),
    413: N_("What was sent is too large."),
    500: N_("Something went wrong."),
}


#: What the page's scripts write, whole (web/static/live.js's ``t()``): sent with each page.
JS_MESSAGES: tuple[str, ...] = (
    N_("Live"),
    N_("Polling"),
    N_("Offline"),
    N_("Retrying…"),
    N_("Live updates: Live"),
    N_("Live updates: Polling"),
    N_("Live updates: Offline"),
    N_("Live updates: Retrying…"),
)


def script_words() -> dict[str, str]:
    """The scripts' messages in this request's language (none in English: they are the ids)."""
    if current() == "en":
        return {}
    words = translations(current())
    return {message: words.gettext(message) for message in JS_MESSAGES}


def colour_name(colour: object) -> str:
    """A colour's name (``red``) as the page writes it, in this request's language."""
    name = COLOUR_NAMES.get(str(colour).lower())
    return gettext(name) if name else str(colour).capitalize()


def said(state: Any, name: str) -> str:
    """The state's ``message``, ``news`` or ``warning`` in this request's language: its
    catalog message (the state's ``said``) rendered, else the state's own English text."""
    english = state.get(name) if hasattr(state, "get") else None
    text = "" if english is None else str(english)
    if current() == "en" or not text:
        return text
    messages = state.get("said")
    if not isinstance(messages, Mapping) or name not in messages:
        return text
    return render_json(messages[name], current()) or text


def page_error(status: int, message: str) -> str:
    """An error page's message: the server's own in English, the language's own otherwise."""
    if current() == "en" or status not in PAGE_ERRORS:
        return message
    return gettext(PAGE_ERRORS[status])


def _choose() -> None:
    g.language = language(request.cookies.get(COOKIE), request.headers.get("Accept-Language"))


def _vary(response: Response) -> Response:
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    response.headers.setdefault("Content-Language", current())
    return response


@blueprint.post("/language")
def choose() -> WerkzeugResponse:
    """The chooser: ``language=de`` from the page's form; back to the page it was sent from."""
    wanted = chosen(request.form.get("language"))
    back = _same_site(request.form.get("next") or request.referrer)
    response = redirect(back, 303)
    if wanted is not None:
        response.set_cookie(COOKIE, wanted, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
    return response


def _same_site(url: str | None) -> str:
    """Only a path on this site: the chooser never redirects elsewhere."""
    parts = urlsplit(url or "/")
    path = parts.path if parts.path.startswith("/") and not parts.path.startswith("//") else "/"
    return path + (f"?{parts.query}" if parts.query else "")


def install(app: Flask) -> None:
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=True
    )
    app.jinja_env.globals.update(
        languages=LANGUAGES,
        language_names=LANGUAGE_NAMES,
        page_language=current,
        colour_name=colour_name,
        said=said,
        script_words=script_words,
    )
    app.before_request(_choose)
    app.after_request(_vary)
    app.register_blueprint(blueprint)
