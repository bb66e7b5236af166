"""The status page, and the fragment of it the page's script fetches on every new snapshot.

The page is complete without JavaScript: the server renders the current state, the board and
the history (each history line is a link that renders that turn's board).  The script only
swaps in fresh fragments, rendered by the same templates, when a new snapshot arrives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, render_template, request

from pawnlight.rules.board import COLOURS
from pawnlight.rules.editions import EDITIONS, VARIANTS
from pawnlight.rules.house_rules import HOUSE_RULES

from . import qr, view
from .auth import csrf_token, is_owner
from .context import context

blueprint = Blueprint("pages", __name__)


def live_context(state: Mapping[str, Any], board: bool = True) -> dict[str, Any]:
    """What the live regions (summary, board, details) need; the simulator page draws its own
    board, of the pawns as they physically stand."""
    return {
        "state": state,
        "owner": is_owner(),
        "history": view.history(state),
        "scores": view.scores(state),
        "result": view.result_text(state),
        "board": view.board_svg(state) if board else "",
        "version": state.get("version", ""),
    }


def _replay(state: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The turn asked for with ``?turn=N&when=...`` (the no-script history), or a note why not."""
    raw = request.args.get("turn")
    if not raw:
        return None, None
    when = request.args.get("when", "after")
    if when not in view.WHEN:
        when = "after"
    if not raw.isdigit():
        return None, f"There is no turn {raw!r}."
    turn = int(raw)
    try:
        svg = view.board_svg(state, turn, when)
    except IndexError as error:
        return None, str(error).capitalize() + "."
    entry = view.turns(state)[turn - 1]
    label = f"{entry.get('colour')} {view.card_label(entry.get('card'))}: {entry.get('text')}"
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
    }


@blueprint.get("/")
def status():
    state = context().service.state()
    replay, note = _replay(state)
    url = qr.page_url()
    return render_template(
        "status.html",
        **live_context(state),
        **owner_context(),
        replay=replay,
        replay_note=note,
        qr_svg=qr.svg(url),
        page_url=url,
        local_only=qr.local_only(url),
    )


@blueprint.get("/partial/live")
def live():
    return render_template("_live.html", **live_context(context().service.state()))


@blueprint.get("/diagnostics")
def diagnostics():
    """The owner's look at the board's health: the link, its counters, every sensor's raw
    value, stuck sensors, the last card tag, errors. Refreshes itself every two seconds."""
    info = context().service.diagnostics() if is_owner() else None
    return render_template(
        "diagnostics.html",
        info=info,
        owner=info is not None,
        counters=_nonzero_counters(info),
        **owner_context(),
    )


def _nonzero_counters(info: Mapping[str, Any] | None) -> list[tuple[str, Any]]:
    link = (info or {}).get("link") or {}
    return [(name.replace("_", " "), value) for name, value in link.items() if value]
