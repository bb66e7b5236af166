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


def number(value: float, digits: int = 0) -> str:
    """A number as the page's language writes it: ``1,234.5`` in English, ``1.234,5`` in
    German and Spanish, ``1 234,5`` in French (a narrow no-break space groups thousands)."""
    text = f"{value:,.{digits}f}"
    if current() in ("de", "es"):
        return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")
    if current() == "fr":
        return text.replace(",", "\u202f").replace(".", ",")
    return text


def words() -> Any:
    """This request's gettext, for code that says fixed words (the board drawing's START)."""
    return translations(current()).gettext


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
    # the page's connection and its owner's tools (owner.js)
    N_("the Pi answered %(status)s"),
    N_("no connection to the Pi"),
    N_("No connection to the Pi: the board’s state is unknown"),
    N_("Keep playing"),
    N_("Sending…"),
    N_("Done."),
    N_("Logged in as the owner."),
    N_("Logged out."),
    N_("%(game)s (not in this rule book)"),
    N_("%(game)s: in the %(books)s rule book"),
    N_("Not in %(book)s’s rules: %(games)s."),
    N_("New game started: set up the board as lit."),
    N_("Hosting…"),
    N_(
        "Hosted. The other homes join with the code %(code)s (Owner, Join a game from "
        "another home)."
    ),
    N_("End the game being played? It stays in the records, and the new one starts."),
    N_("End it and start the new game"),
    N_("Joining…"),
    N_(
        "Joined the game hosted by %(board)s: this board plays %(colours)s. Set up the board "
        "as lit."
    ),
    N_("End the game being played? It stays in the records, and the remote game starts."),
    N_("End it and join"),
    N_("Settings saved."),
    N_("Enrolling: scan the cards as asked."),
    N_("%(action)s: done."),
    N_("Yes: %(action)s"),
    N_("No"),
    # the replay bar (status.js)
    N_("Turn %(turn)s, before: %(label)s"),
    N_("Turn %(turn)s, after: %(label)s"),
    # the simulator's hands (sim.js)
    N_("Squares a finger wide"),
    N_("Show the whole board"),
    N_("Lifted the %(colour)s pawn from %(place)s: it is in your hand, tap where to put it."),
    N_("Put a %(colour)s pawn in %(place)s."),
    N_("Put a %(colour)s pawn on %(place)s."),
    N_("There is no pawn to take from %(place)s."),
    N_("Lifted the %(colour)s pawn; putting the %(held)s one down…"),
    N_("Pick a pawn first: tap one on the board, or a colour in your hand."),
    N_("Holding a %(colour)s pawn: tap where to put it."),
    N_("Scanned the %(card)s card."),
    N_("Holding %(buttons)s…"),
    N_("Held %(buttons)s for 3 seconds."),
    N_("Pressed %(button)s."),
    N_("No game yet: start one first (Owner, below)."),
    N_("Every pawn is where the game has it."),
    # the club page (club.js); a count's two forms are two messages, chosen by the
    # language's plural rule in live.js (French counts 0 as one)
    N_("%(num)s board"),
    N_("%(num)s boards"),
    N_("%(num)s online"),
    N_("%(num)s playing"),
    N_("%(num)s message ignored"),
    N_("%(num)s messages ignored"),
    N_(
        "Not connected to the broker: %(detail)s. What this page shows may be out of date; "
        "it reconnects by itself."
    ),
)


#: The API's errors the owner's panel and the simulator meet most, shown in the page's language
#: (the API itself keeps them in English for programs; an error not listed is shown as it is).
#: Each is the API's message exactly (tests/web/test_page_strings.py checks they still are).
API_ERRORS: tuple[str, ...] = (
    N_("wrong PIN"),
    N_("missing or stale CSRF token: reload the page"),
    N_("nothing to undo"),
    N_("no card to decline now"),
    N_("the next game starts when this one is over"),
    N_("a hint is for a person with a card to play"),
    N_("enrol the pack between games"),
    N_("no enrolment to cancel"),
    N_("finish or cancel the pack enrolment first"),
    N_("enrol the pack of cards first (Enrol on the owner's page)"),
    N_("the game is adjourned: nothing is played until it is resumed"),
)


def script_words() -> dict[str, str]:
    """The scripts' messages in this request's language (none in English: they are the ids)."""
    if current() == "en":
        return {}
    words = translations(current())
    messages = (*JS_MESSAGES, *API_ERRORS, *COLOUR_NAMES.values())
    said = {message: words.gettext(message) for message in messages}
    said[""] = current()  # the plural rule live.js's tn() follows
    return said


def colour_name(colour: object) -> str:
    """A colour's name (``red``) as the page writes it, in this request's language."""
    name = COLOUR_NAMES.get(str(colour).lower())
    return gettext(name) if name else str(colour).capitalize()


def said(state: Any, name: str, english: object = None) -> str:
    """The state's ``message``, ``news`` or ``warning`` in this request's language: its
    catalog message (the state's ``said``) rendered, else the state's own English text
    (``english``: that text where it is not the field ``name``, as the enrolment's prompt)."""
    if english is None:
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
        number=number,
    )
    app.before_request(_choose)
    app.after_request(_vary)
    app.register_blueprint(blueprint)
