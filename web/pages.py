"""The status page, and the fragment of it the page's script fetches on every new snapshot.

The page is complete without JavaScript: the server renders the current state, the board and
the history (each history line is a link that renders that turn's board).  The script only
swaps in fresh fragments, rendered by the same templates, when a new snapshot arrives.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, render_template, request

from pawnlight.rules.board import COLOURS
from pawnlight.rules.editions import EDITIONS, VARIANTS
from pawnlight.rules.house_rules import HOUSE_RULES

from . import diagnostics_view, language, live, qr, story, view
from .auth import csrf_token, is_owner
from .context import context
from .errors import ApiError

blueprint = Blueprint("pages", __name__)


def live_context(
    state: Mapping[str, Any], board: bool = True, history: bool = True, owner: bool | None = None
) -> dict[str, Any]:
    """What the live regions (summary, board, details) need; the simulator page draws its own
    board, of the pawns as they physically stand.  ``history=False`` leaves the history out
    (the live fragments: the page fetches only its new lines)."""
    return {
        "state": state,
        "owner": is_owner() if owner is None else owner,
        "history": view.history(state) if history else None,
        "history_length": len(state.get("history") or []),
        "history_epoch": context().live.epoch(state),
        "scores": view.scores(state),
        "result": view.result_text(state),
        "board": view.board_svg(state) if board else "",
        "version": state.get("version", ""),
    }


def fragment(template: str, key: Any, extra: Callable[[], Mapping[str, Any]] | None = None):
    """A live fragment of the current version: rendered once per version (and per owner or
    not: the owner's has the buttons) for every phone, sent with an ETag and gzipped."""
    ctx = context()
    state = ctx.service.state()
    owner = is_owner()

    def render() -> str:
        more = extra() if extra is not None else {}
        return render_template(
            template, **{**live_context(state, history=False, owner=owner), **more}
        )

    return live.respond(ctx.live.text(state, (key, owner, language.current()), render), "text/html")


def _replay(state: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The turn asked for with ``?turn=N&when=...`` (the no-script history), or a note why not."""
    raw = request.args.get("turn")
    if not raw:
        return None, None
    when = request.args.get("when", "after")
    if when not in view.WHEN:
        when = "after"
    if not view.whole_number(raw):
        return None, f"There is no turn {raw[:20]!r}."
    turn = int(raw)
    try:
        svg = view.board_svg(state, turn, when)
    except IndexError as error:
        return None, str(error).capitalize() + "."
    entry = view.turns(state)[turn - 1]
    said = view.turn_said(state, turn)
    colour = str(entry.get("colour", ""))
    colour = language.colour_name(colour) if language.current() != "en" else colour.capitalize()
    label = f"{colour}, {view.card_label(entry.get('card'))}: {said}"
    return {"turn": turn, "when": when, "svg": svg, "label": label}, None


def owner_context() -> dict[str, Any]:
    """What the owner's panel needs (both pages have it)."""
    return {
        "csrf": csrf_token(),
        "pin_set": bool(context().pin),
        "editions": EDITIONS.values(),
        "variants": VARIANTS,
        "colours": COLOURS,
        "house_rules": HOUSE_RULES,
        "variant_names": view.VARIANT_NAMES,
        "variant_books": view.variant_books(),
        "remote_board": context().remote_board,
    }


@blueprint.get("/")
def status():
    state = context().service.state()
    replay, note = _replay(state)
    url = qr.page_url()

    def render() -> str:
        return render_template(
            "status.html",
            **live_context(state),
            **owner_context(),
            replay=replay,
            replay_note=note,
            **story.end_screen(state),
            qr_svg=qr.svg(url),
            page_url=url,
            local_only=qr.local_only(url),
        )

    if is_owner() or request.args:
        return render()
    # Everyone else's page of this version is the same (but for the address it was opened
    # at, in the QR code, and the phone's language): rendered once when a table of phones
    # opens it at once.
    return live.respond(
        context().live.text(state, ("page", url, language.current()), render), "text/html"
    )


@blueprint.get("/partial/live")
def live_fragment():
    return fragment("_live.html", "live")


@blueprint.get("/partial/history")
def history_fragment():
    """The history lines after turn ``after`` (newest first), or with ``after=0`` the whole
    history section: what a page that has the first ``after`` lines is missing."""
    raw = request.args.get("after", "0")
    if not view.whole_number(raw):
        raise ApiError(f"after must be a turn number from 0, not {raw[:20]!r}")
    after = int(raw)
    ctx = context()
    state = ctx.service.state()

    def render() -> str:
        lines = view.history(state)
        if after == 0:
            return render_template(
                "_history.html",
                history=lines,
                history_length=len(lines),
                history_epoch=ctx.live.epoch(state),
            )
        return render_template("_history_lines.html", history=lines[: max(0, len(lines) - after)])

    return live.respond(
        ctx.live.text(state, ("history", after, language.current()), render), "text/html"
    )


@blueprint.get("/diagnostics")
def diagnostics():
    """The owner's look at the board's health: the link, its counters, every sensor's raw
    value, stuck sensors, the last card tag, errors. Refreshes itself every two seconds."""
    info = context().service.diagnostics() if is_owner() else None
    return render_template(
        "diagnostics.html",
        info=info,
        owner=info is not None,
        connected=diagnostics_view.connected_words(info or {}),
        counters=diagnostics_view.counters(info or {}),
        sensors=diagnostics_view.sensors(info or {}),
        **owner_context(),
    )


def _games_context() -> dict[str, Any]:
    return {"games": view.game_lines(context().service.games())}


@blueprint.get("/games")
def games():
    """The past games in words, each with its record to download (the export keeps the codes);
    the status page's "Past games" shows the same list (GET /partial/games)."""
    return render_template(
        "games.html",
        state=context().service.state(),
        owner=is_owner(),
        **_games_context(),
        **owner_context(),
    )


@blueprint.get("/partial/games")
def games_fragment():
    return render_template("_games.html", **_games_context())
